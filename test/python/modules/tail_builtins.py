"""The long tail of Python builtins and module-level values (divmod, range
objects kept as values, module constants, generator expressions consumed by
reductions, raise with an f-string message), used inside compiled
functions. Every function runs the same under CPython
(test_tail_builtins.py compares)."""

import bisect

import numpy as np

import kiln

# Module constants: compiled code reads their values as written here.
GAMES = 10
RATE = 0.25
NEGATIVE = -3
SHAPE = (3, 4)
PRIMES = [2, 3, 5, 7, 11]
SCALES = [0.5, 1, 2.5]          # a list[float]: 1 is read as 1.0
FLAGS = [True, False, True]
WEIGHTS = {1: 2.0, 5: -1.5, 7: 0.0}
HALVES = {0.5: 1, -0.0: 2, 2.5: 3}


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


# ----------------------------------------------------- module constants
@kiln.export
def with_defaults(n: int, games: int = GAMES, rate: float = RATE, low: int = NEGATIVE) -> float:
    return n * games * rate + low


@kiln.export
def call_with_defaults(n: int) -> float:
    """A compiled caller leaves them out too."""
    return with_defaults(n) + with_defaults(n, 2) + with_defaults(n, rate=1.0)


@kiln.export
def constant_tuple(k: int) -> tuple[int, int, int, int]:
    total = 0
    for v in SHAPE:
        total = total * 10 + v
    return SHAPE[0] * SHAPE[1], SHAPE[k], len(SHAPE), total + np.zeros(SHAPE).size


@kiln.export
def constant_list_reads(i: int, x: int) -> tuple[int, int, int, bool, int]:
    total = 0
    for p in PRIMES:
        total += p
    return PRIMES[i], len(PRIMES), total, x in PRIMES, PRIMES.count(x)


@kiln.export
def constant_list_derived(n: int) -> list[int]:
    doubled = [p * n for p in PRIMES if p != 5]
    return sorted(PRIMES, reverse=True) + doubled + list(PRIMES) + PRIMES * 2 + PRIMES.copy()


@kiln.export
def constant_list_search(x: int) -> tuple[int, int, int, int]:
    """bisect and the reductions only read the list."""
    return bisect.bisect_left(PRIMES, x), sum(PRIMES), min(PRIMES), PRIMES.index(x)


@kiln.export
def constant_floats(i: int) -> float:
    return SCALES[i] + sum(SCALES) + max(SCALES) + sum(FLAGS) + FLAGS[i]


@kiln.export
def constant_dict_reads(k: int) -> tuple[bool, float, float, int]:
    return k in WEIGHTS, WEIGHTS.get(k, -100.0), WEIGHTS[k], len(WEIGHTS)     # KeyError


@kiln.export
def constant_dict_walks(scale: float) -> float:
    total = 0.0
    for k in WEIGHTS:
        total += k * WEIGHTS[k] * scale
    for k, v in WEIGHTS.items():
        total += k - v
    total += sum(WEIGHTS.values()) + min(WEIGHTS) + max(WEIGHTS.keys())
    copied = dict(WEIGHTS)
    copied[2] = scale
    return total + len(copied) + sum(copied.values())


@kiln.export
def constant_float_keys(x: float) -> int:
    return HALVES.get(x, -1) + len(HALVES) + (x in HALVES)


def constant_reader_left_to_python() -> int:
    """Python code of the module may read the constants too."""
    return len(PRIMES) + len(WEIGHTS)


@kiln.export
def constant_in_helper(n: int) -> float:
    """A helper that reads a constant, called in a loop: each call reads
    the same values."""
    total = 0.0
    for i in range(n):
        total += weight_of(i % 8)
    return total


def weight_of(k: int) -> float:
    return WEIGHTS.get(k, 0.5)


# ---------------------------------------------- generator expressions
@kiln.export
def generator_sums(xs: list[int], ys: list[float], n: int) -> tuple[int, float, float, int]:
    # float(): the sum of no floats is 0.0 in Kiln, the int 0 in CPython
    # (docs/language.md, as for lists).
    return (sum(x * x for x in xs), float(sum(y for y in ys)), sum((y * 2 for y in ys), 0.5),
            sum(x > 2 for x in xs))


@kiln.export
def generator_nested(xs: list[int], n: int) -> tuple[int, int, int]:
    """Nested `for`s and `if`s, as a comprehension's."""
    return (sum(x * i for x in xs if x % 2 for i in range(n) if i != x),
            sum(1 for x in xs for y in xs if x < y),
            max(x - i for x in xs for i in range(n)))      # ValueError when empty


@kiln.export
def generator_min_max(ys: list[float]) -> tuple[float, float]:
    return min(y for y in ys), max(abs(y) for y in ys)     # ValueError when empty


@kiln.export
def generator_any_all(xs: list[int], d: dict[int, float]) -> tuple[bool, bool, bool, bool]:
    return (any(v > 3 for v in d.values()), all(x > 0 for x in xs), any(xs),
            all(k in d for k in xs))


@kiln.export
def generator_short_circuit(xs: list[int]) -> tuple[bool, bool]:
    """any() and all() stop at the element that decides them: the later
    ones (a ZeroDivisionError here) are never computed."""
    return any(100 // x > 10 for x in xs), all(100 // x > 10 for x in xs)


@kiln.export
def generator_over_dicts(d: dict[int, float]) -> tuple[float, int, float]:
    return (sum(k * v for k, v in d.items()), max(k for k in d),     # ValueError when empty
            min(v for v in d.values() if v == v) if d else -1.0)


@kiln.export
def generator_collections(d: dict[int, int], n: int, reverse: bool) -> list[int]:
    positive = sorted((k for k in d if d[k] > 0), reverse=reverse)
    squares = list(i * i for i in range(n))
    table = dict((i, i % 3) for i in range(n))
    return positive + squares + [table[k] for k in table]


@kiln.export
def generator_zips(xs: list[float], ys: list[float], a: kiln.f64[:]) -> tuple[float, float, int]:
    return (max(abs(p - q) for p, q in zip(xs, ys)),        # ValueError when empty
            sum(i * v for i, v in enumerate(a, 1)),
            sum(1 for p, q, r in zip(xs, range(10), a) if p < q))


@kiln.export
def generator_over_ranges(n: int, step: int) -> tuple[int, int, bool]:
    r = range(-n, n, step)
    return sum(v * v for v in r), min(v % 7 for v in r), all(v < n for v in r)


@kiln.export
def any_all_of_containers(xs: list[float], d: dict[int, int], n: int) -> tuple[bool, bool, bool, bool]:
    return any(xs), all(xs), any(d), all(range(n))



@kiln.export
def generators_over_sets(s: set[int], xs: list[int], n: int) -> tuple[int, int, bool, bool, bool]:
    """Sets in generator expressions and any()/all(): the folds walk a set
    as they walk a dict's keys."""
    return (sum(v * 2 for v in s), max(v for v in s if v != n) if s else -1,
            any(v > n for v in s), all(s), any(x in s for x in xs))


@kiln.export
def sets_from_generators(xs: list[int], n: int) -> list[int]:
    """set() of a generator expression, a set comprehension over zip() and
    enumerate(), set() of a range value."""
    r = range(n)
    evens = set(x for x in xs if x % 2 == 0)
    pairs = {i * v for i, v in enumerate(xs) if v > n}
    sums = {a + b for a, b in zip(xs, r)}
    return sorted(evens | pairs | sums | set(r))


# ------------------------------------------------------- f-string raises
@kiln.export
def raise_formatted(n: int, flag: bool, m: kiln.i32) -> int:
    if n < 0:
        raise ValueError(f"bad n {n}")
    if n == 1:
        raise IndexError(f"n={n}, flag={flag}, m + 1 = {m + 1}, twice {n * 2}")
    if n == 2:
        raise RuntimeError(f"{flag}{not flag}{n > m}")
    if n == 3:
        raise OverflowError(f"{-n}")
    if n == 4:
        raise ZeroDivisionError(f"no values")
    if n == 5:
        raise TypeError(f"{n!r} and {flag!s}")
    return n


@kiln.export
def raise_in_loop(xs: list[int], limit: int) -> int:
    total = 0
    for i, x in enumerate(xs):
        total += x
        if total > limit:
            raise ValueError(f"total {total} passed {limit} at item {i}")
    return total


@kiln.export
def range_of_literals(k: int) -> tuple[int, int, int, bool, bool, int]:
    """Ranges of Python literals (fuzzer findings T1-T3: their parts are
    int64s; `not r`)."""
    r = range(5)
    total = 0
    for v in r:
        total += v * k
    return r.stop + r.start + r.step, total, len(range(2, 9)), not r, not range(3, 3), \
        range(10, 0, -3)[k % 4]
