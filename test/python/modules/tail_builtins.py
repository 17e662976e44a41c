"""The long tail of Python builtins and module-level values (divmod, range
objects kept as values, module constants, generator expressions consumed by
reductions, raise with an f-string message), used inside compiled
functions. Every function runs the same under CPython
(test_tail_builtins.py compares)."""

import kiln


# --------------------------------------------------------------- divmod
@kiln.export
def divmod_ints(n: int, d: int) -> tuple[int, int]:
    q, r = divmod(n, d)
    return q, r


@kiln.export
def divmod_floats(x: float, y: float) -> tuple[float, float]:
    return divmod(x, y)


@kiln.export
def divmod_mixed(n: int, y: float) -> float:
    q, r = divmod(n, y)
    return q * 1000.0 + r


@kiln.export
def divmod_indexed(n: int, k: int) -> tuple[int, int]:
    """`divmod(...)[0]` written in the source, and `[k]` known at run time
    (IndexError "tuple index out of range" outside 0..1 and -2..-1)."""
    return divmod(n, 7)[0], divmod(n, 7)[k]


@kiln.export
def divmod_literals() -> int:
    q, r = divmod(-17, 5)
    a, b = divmod(17, -5)
    return q * 1000 + r * 100 + a * 10 + b


@kiln.export
def divmod_bools(a: bool, b: bool) -> int:
    q, r = divmod(a, b)
    return q * 10 + r


@kiln.export
def digits_sum(n: int) -> int:
    """The usual loop: peel decimal digits off with divmod."""
    total = 0
    n = abs(n)
    while n:
        n, digit = divmod(n, 10)
        total += digit
    return total


@kiln.export
def divmod_in_tuple(t: int, base: int) -> tuple[int, int, int]:
    hours, rest = divmod(t, base * base)
    minutes, seconds = divmod(rest, base)
    return hours, minutes, seconds
