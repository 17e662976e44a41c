"""Python dicts of numbers (issue 30), used inside compiled functions: the
exported functions take and return numbers and arrays (a dict's entries
come back through `dump`); helpers pass dicts between Kiln functions.
Every function runs the same under CPython (test_dicts.py compares)."""

import math

import kiln


# ------------------------------------------------------------- helpers
def dump(d: dict[int, int], keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    """The entries in iteration order into two arrays; their number."""
    i = 0
    for k, v in d.items():
        keys[i] = k
        values[i] = v
        i += 1
    return len(d)


def squares(n: int) -> dict[int, int]:
    return {i: i * i for i in range(n)}


def bumped(d: dict[int, int], k: int) -> dict[int, int]:
    e = d
    if k in e:
        e = e.copy()
        e[k] += 100
    return e


def add_in_place(d: dict[int, int], k: int, v: int) -> None:
    d[k] = v


def first_key_above(d: dict[int, int], limit: int) -> int:
    for k, v in d.items():
        if v > limit:
            return k
    return -1


# ----------------------------------------------------- building, growth
@kiln.export
def build_range(n: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    d = {}
    for i in range(n):
        d[i * 7 - 3] = i * i
    return dump(d, keys, values)


@kiln.export
def colliding(n: int, step: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    """Keys that share their low bits (multiples of a power of two),
    negative keys, -1 and -2 (CPython's hash(-1) is -2)."""
    d: dict[int, int] = {-1: 1, -2: 2}
    for i in range(n):
        d[i * step] = i
        d[-i * step] = -i
    total = 0
    for i in range(n):
        total += d[i * step] - d[-i * step]
    d[-1] += total
    return dump(d, keys, values)


@kiln.export
def delete_reinsert(n: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    """Deleting then reinserting: a reinserted key goes to the end."""
    d = {}
    for i in range(n):
        d[i] = i
    for i in range(0, n, 2):
        del d[i]
    for i in range(0, n, 4):
        d[i] = -i
    for k in list(d):
        if k % 3 == 0:
            d.pop(k)
    return dump(d, keys, values)


@kiln.export
def delete_holding_slot(n: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    d = squares(n)
    for k in list(d):
        if k % 2 == 1:
            taken = d.pop(k)
            d[k - 1] += taken
    return dump(d, keys, values)


# ------------------------------------------------ lookups and methods
@kiln.export
def lookup(n: int, k: int) -> int:
    d = squares(n)
    return d[k]


@kiln.export
def float_lookup(x: float) -> float:
    d = {1.5: 2.0, -3.0: 4.0}
    return d[x]


@kiln.export
def delete_missing(n: int, k: int) -> int:
    d = squares(n)
    del d[k]
    return len(d)


@kiln.export
def augmented_missing(n: int, k: int) -> int:
    d = squares(n)
    d[k] *= 3
    return d[k]


@kiln.export
def methods(n: int, k: int) -> int:
    d = squares(n)
    total = d.get(k, -7) + d.setdefault(k + 1, 5) + d.pop(k + 2, -9)
    e = d.copy()
    e[n + 1] = 1
    same = d == e
    d.update(e)
    total += len(d) * 1000 + int(same) * 10 + int(d != e) * 100 + int(d == e)
    if k in d:
        total += 1
    if k not in d:
        total += 2
    if not d:
        total -= 1
    d.clear()
    if d:
        total += 1000000
    return total + len(d) + len(e)


@kiln.export
def pop_missing(n: int, k: int) -> int:
    d = squares(n)
    return d.pop(k)


@kiln.export
def counts(a: kiln.i64[:], keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    d = {}
    for v in a:
        d[v] = d.get(v, 0) + 1
    return dump(d, keys, values)


# ------------------------------------------------------ float and bool keys
@kiln.export
def signed_zero_key(first: float, second: float) -> float:
    """`-0.0` and `0.0` are one key; the key kept is the first inserted."""
    d: dict[float, int] = {}
    d[first] = 1
    d[second] += 2
    for k in d:
        return math.copysign(d[k] + 10.0 * len(d), k)
    return -1.0


@kiln.export
def literal_duplicates(x: float) -> float:
    d = {-0.0: 1, 0.0: 2, x: 3, x: 4}
    total = 0.0
    for k, v in d.items():
        total = total * 10.0 + k + v
    for k in d:
        return math.copysign(total + len(d), k)       # the first key kept: -0.0
    return 0.0


@kiln.export
def nan_keys(x: float) -> int:
    """NaNs made apart are different keys (never found again)."""
    d = {}
    d[x - x] = 1
    d[x - x] = 2
    return len(d) * 10 + int((x - x) in d)


@kiln.export
def bool_and_int(n: int) -> int:
    flags: dict[bool, float] = {True: 1.5}
    flags[n > 3] = 2.5
    marks = {i: i % 3 == 0 for i in range(n)}
    total = int(flags[True]) + len(flags)
    for k, v in marks.items():
        if v:
            total += k
    return total


@kiln.export
def int_extremes(k: int) -> int:
    low = -9223372036854775807 - 1
    d = {low: 1, 9223372036854775807: 2, 0: 3}
    d[k] = 4
    return d[low] * 1000 + d[9223372036854775807] * 100 + d[0] * 10 + len(d)


# --------------------------------------------------------- iteration
@kiln.export
def iterate_views(n: int, out: kiln.i64[:]) -> int:
    d = {i * 3 % 7: i for i in range(n)}
    i = 0
    for k in d:
        out[i] = k
        i += 1
    for k in d.keys():
        out[i] = k
        i += 1
    for v in d.values():
        out[i] = v
        i += 1
    for j, k in enumerate(d):
        out[i] = j * 100 + k
        i += 1
    ks = list(d)
    vs = list(d.values())
    ordered = sorted(d, reverse=True)
    return i + len(ks) * 1000 + sum(vs) * 100000 + ordered[0] * 10 + sum(d)


@kiln.export
def min_max(n: int) -> int:
    d = {(i * 5) % 11 - 4: 20 - i for i in range(n)}
    return min(d) * 1000 + max(d) * 100 + min(d.values()) * 10 + max(d.values())


@kiln.export
def insert_while_iterating(n: int) -> int:
    d = squares(n)
    total = 0
    for k in d:
        total += k
        if k == 2:
            d[n + 5] = 1
    return total


@kiln.export
def delete_while_iterating(n: int) -> int:
    d = squares(n)
    total = 0
    for k in d:
        total += k
        if k == 1:
            del d[k]
    return total


@kiln.export
def change_values_while_iterating(n: int) -> int:
    d = squares(n)
    for k in d:
        d[k] = d[k] + 1
    return sum(d.values())


@kiln.export
def break_after_change(n: int) -> int:
    """A loop that changes the dict's size then breaks: no error (the
    iterator is not asked for another entry)."""
    d = squares(n)
    for k in d:
        d[k + n] = 0
        break
    return len(d)


@kiln.export
def comprehensions(n: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    d = {i: i * 2 for i in range(n) if i % 3 != 1}
    e = {k: v + 1 for k, v in d.items() if v > 2}
    xs = [k * 10 for k in e]
    f = {x: x for x in xs}
    g = {k: 1 for k in f.keys()}
    e.update(g)
    return dump(e, keys, values) + len(f) * 1000


# ----------------------------------------------- names and control flow
@kiln.export
def aliasing(n: int) -> int:
    d = squares(n)
    e = d
    e[1] = 50
    add_in_place(e, n, 7)
    f = bumped(d, 1)
    return d[1] * 10000 + len(d) * 100 + f[1]


@kiln.export
def through_branches(n: int, keys: kiln.i64[:], values: kiln.i64[:]) -> int:
    d = squares(3)
    if n > 5:
        d = squares(n)
    elif n > 2:
        d[n] = -1
    else:
        e = {7: 7}
        d = e
    for i in range(n):
        if i % 4 == 0:
            d = {i: i}
        d[i + 100] = i
    return dump(d, keys, values) + first_key_above(d, n)


@kiln.export
def early_return(n: int) -> int:
    d = squares(n)
    for k, v in d.items():
        e = {k: v}
        if v > 10:
            return k + len(e)
    return -1


@kiln.export
def empty_min() -> int:
    d: dict[int, int] = {}
    return min(d)


@kiln.export
def rebuilt(n: int) -> int:
    """Dicts made, grown and dropped in a loop (the memory check)."""
    total = 0
    for i in range(n):
        d = dict(squares(i))
        d.update({i: 1})
        total += len(d)
    return total


@kiln.export
def typed_by_stores_in_tuples(k: int) -> int:
    """A dict typed by the stores into it, read into a tuple and unpacked
    from its items (fuzzer S4: an internal error; S5: a fallback)."""
    w = {}
    w[k] = 1
    t = (1, w[k])
    u = (2, min(w.values()))
    s = 0
    for a, b in w.items():
        s = s ^ (a + b)
    return t[-1] + u[1] + s
