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


# ------------------------------------------------------- range values
@kiln.export
def range_basics(a: int, b: int, c: int) -> tuple[int, int, int, int, bool]:
    r = range(a, b, c)          # ValueError for a zero step
    return len(r), r.start, r.stop, r.step, bool(r)


@kiln.export
def range_length(a: int, b: int, c: int) -> int:
    """OverflowError beyond 2**63 - 1 elements, as CPython's len()."""
    return len(range(a, b, c))


@kiln.export
def range_item(a: int, b: int, c: int, i: int) -> int:
    r = range(a, b, c)
    return r[i]                 # IndexError "range object index out of range"


@kiln.export
def range_first_last(n: int) -> tuple[int, int]:
    r = range(n)
    return r[0], r[-1]


@kiln.export
def range_contains(a: int, b: int, c: int, x: int) -> tuple[bool, bool]:
    r = range(a, b, c)
    return x in r, x not in r


@kiln.export
def range_contains_float(a: int, b: int, c: int, x: float) -> bool:
    r = range(a, b, c)
    return x in r


@kiln.export
def range_walk(a: int, b: int, c: int) -> int:
    """for over a range variable, enumerate() and zip() of it, a comprehension."""
    r = range(a, b, c)
    total = 0
    for v in r:
        total = total * 31 + v
    for i, v in enumerate(r):
        total += i * v
    squares = [v * v for v in r if v % 2 == 0]
    for u, w in zip(r, squares):
        total ^= u + w
    return total + len(squares)


@kiln.export
def range_walk_breaks(a: int, b: int, c: int, limit: int) -> int:
    """The first elements of a range too long for len() (the loop walks it)."""
    r = range(a, b, c)
    last = 0
    count = 0
    for v in r:
        last = v
        count += 1
        if count >= limit:
            break
    return last


@kiln.export
def range_reductions(a: int, b: int, c: int) -> tuple[int, int, int, int]:
    r = range(a, b, c)
    return sum(r), sum(r, 100), min(r), max(r)     # ValueError when empty


@kiln.export
def range_float_sum(n: int, start: float) -> float:
    return sum(range(n), start)


@kiln.export
def range_lists(a: int, b: int, c: int, reverse: bool) -> list[int]:
    r = range(a, b, c)
    xs = list(r)
    ys = sorted(r, reverse=reverse)
    return xs + ys + list(range(a, b))


@kiln.export
def range_reused(n: int) -> int:
    """One range read by two loops and a nested one."""
    r = range(n)
    total = 0
    for i in r:
        for j in r:
            if i < j:
                total += i * j
    for i in r:
        total -= i
    return total


@kiln.export
def range_of_bools_and_negatives(flag: bool, n: int) -> int:
    r = range(flag, -n, -1)
    return len(r) * 1000 + sum(r)
