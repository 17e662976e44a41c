"""Python sets of numbers (issue 30), used inside compiled functions: the
exported functions take and return numbers, lists and arrays (a set's
elements come back sorted, or folded into a number, since Kiln iterates a
set in insertion order and CPython in hash order); helpers pass sets
between Kiln functions. Every function runs the same under CPython
(test_sets.py compares)."""

import math
import typing

import kiln


# ------------------------------------------------------------- helpers
def evens(n: int) -> set[int]:
    return {i for i in range(0, n, 2)}


def add_in_place(s: set[int], x: int) -> None:
    s.add(x)


def with_extra(s: set[int], x: int) -> set[int]:
    t = s
    if x not in t:
        t = t.copy()
        t.add(x)
    return t


def first_above(s: set[int], limit: int) -> set[int]:
    """A set returned from inside a loop (or the empty one after it)."""
    for x in s:
        if x > limit:
            return {x}
    return set()


def nan_count(s: set[float]) -> int:
    count = 0
    for x in s:
        if x != x:
            count += 1
    return count


# ----------------------------------------------------- building, growth
@kiln.export
def literal(n: int) -> list[int]:
    """Duplicates in a literal are one element; `n` may be one of them."""
    s = {3, 1, 2, n, 2, 3}
    return [len(s)] + sorted(s)


@kiln.export
def build_range(n: int) -> list[int]:
    s = set()
    for i in range(n):
        s.add(i * 7 - 3)
        s.add((i * 7 - 3) // 2)
    return [len(s)] + sorted(s)


@kiln.export
def colliding(n: int, step: int) -> list[int]:
    """Elements that share their low bits (multiples of a power of two),
    negatives, -1 and -2 (CPython's hash(-1) is -2), removed and added
    again."""
    s: set[int] = {-1, -2}
    for i in range(n):
        s.add(i * step)
        s.add(-i * step)
    for i in range(0, n, 3):
        s.remove(i * step)
    found = 0
    for i in range(n):
        if i * step in s:
            found += 1
        if -i * step not in s:
            found += 1000
    for i in range(0, n, 6):
        s.add(i * step)
    return [found, len(s)] + sorted(s)


@kiln.export
def grow_and_shrink(n: int) -> list[int]:
    """n adds (growth across many capacities), then all but a few removed,
    then the set refilled: lookups stay right through every table."""
    s: set[int] = set()
    for i in range(n):
        s.add(i * i % 1009)
    size = len(s)
    for i in range(n):
        s.discard(i * i % 1009)
        if i % 97 == 0:
            s.add(-i)
    kept = len(s)
    for i in range(n // 2):
        s.add(i)
    total = 0
    for x in s:
        total += x
    return [size, kept, len(s), total, min(s) if s else 0, max(s) if s else 0]


@kiln.export
def comprehensions(n: int) -> list[int]:
    xs = [i % 7 for i in range(n)]
    d = {i: i % 5 for i in range(n)}
    a = {x * x for x in xs}
    b = {x + y for x in range(n) for y in range(x) if (x + y) % 3 != 0}
    c = {k for k in d if k % 2 == 0}
    e = {v for v in d.values()}
    f = {x * 10 for x in a if x > 1}
    g = [x for x in a if x % 2 == 0]
    h = {x: x + 1 for x in e}
    return [len(a), len(b), len(c), len(e), len(f), sum(g), sum(h.values())] + sorted(
        b) + sorted(f)


@kiln.export
def made_by_set_call(n: int) -> list[int]:
    d = {i * 3: i % 4 for i in range(n)}
    xs = [i % 6 for i in range(n)]
    a = set(xs)
    b = set(d)
    c = set(d.keys())
    e = set(d.values())
    f = set(range(2, n, 3))
    g = set(a)
    g.add(-5)
    h = set([1, 2, 2])
    return [len(a), len(b), len(c), len(e), len(f), len(g), len(a), len(h)] + sorted(
        b | c | e | f | g | h)


@kiln.export
def copies_and_aliases(n: int) -> list[int]:
    s = evens(n)
    t = s
    t.add(-1)                       # the same set: s sees it
    u = s.copy()
    u.add(-2)                       # a copy: s does not
    add_in_place(s, -3)
    v = with_extra(s, -4)           # a new set
    w = with_extra(s, -3)           # s itself
    w.add(-6)
    return [len(s), len(t), len(u), len(v), len(w), int(-2 in s), int(-6 in s),
            int(-4 in s)] + sorted(s)


# ------------------------------------------------------------ queries
@kiln.export
def membership(n: int, k: int) -> list[bool]:
    s = set(range(0, n, 3))
    e: set[int] = set()
    return [k in s, k not in s, k in e, True in s, bool(s), not s, bool(e), not e,
            (k + 1) in s and k in s, k in s or (k - 1) in s]


@kiln.export
def float_membership(x: float) -> list[bool]:
    """An int looked up among floats converts (Python's 2 == 2.0)."""
    s = {1.0, 2.5, -0.0, math.inf}
    return [x in s, 0.0 in s, 2 in s, 1 in s, -math.inf in s, x not in s]


@kiln.export
def truthiness(n: int) -> int:
    s = set(range(n))
    count = 0
    if s:
        count += 1
    if not s:
        count += 10
    while s:
        s.pop()
        count += 100
    return count + len(s)


@kiln.export
def folds(xs: list[float]) -> list[float]:
    """sum, min, max, any, all of a set; sum in insertion order differs
    from CPython's hash order only in rounding, so the sum is of whole
    numbers here."""
    s = set(xs)
    e: set[float] = set()
    # `+ 0.0`: CPython's sum of no floats is the int 0.
    result = [float(len(s)), sum(s) + 0.0, sum(s, 0.5), float(any(s)), float(all(s)),
              float(any(e)), float(all(e))]
    if s:
        result.append(min(s))
        result.append(max(s))
    return result


@kiln.export
def int_folds(xs: list[int]) -> list[int]:
    s = set(xs)
    b = {x > 0 for x in xs}
    return [sum(s), sum(s, 10), int(any(s)), int(all(s)), sum(b), int(any(b)),
            int(all(b)), len(b)]


@kiln.export
def min_max(n: int) -> int:
    """ValueError (CPython's message) when the set is empty."""
    s = set(range(n))
    return min(s) * 1000 + max(s)


@kiln.export
def sorted_and_listed(xs: list[int]) -> list[int]:
    s = set(xs)
    listed = list(s)
    return sorted(s, reverse=True) + [-999] + sorted(listed) + [len(listed)]


# ------------------------------------------------------------ mutation
@kiln.export
def remove_missing(n: int, k: int) -> int:
    """KeyError(k) when k is not there."""
    s = set(range(n))
    s.remove(k)
    return len(s)


@kiln.export
def discard_missing(n: int, k: int) -> int:
    s = set(range(n))
    s.discard(k)
    s.discard(k)
    return len(s) * 10 + int(k in s)


@kiln.export
def pop_until_empty(n: int, extra: int) -> int:
    """Pops every element (their sum does not depend on the order), then
    `extra` more: KeyError('pop from an empty set')."""
    s = {i * i for i in range(n)}
    total = 0
    for _ in range(n + extra):
        total += s.pop()
    return total


@kiln.export
def pop_float_until_empty(xs: list[float]) -> float:
    s = set(xs)
    total = 0.0
    while s:
        total += s.pop()
    return total


@kiln.export
def clear_and_reuse(n: int) -> list[int]:
    s = set(range(n))
    t = s
    s.clear()
    t.add(7)
    s.add(8)
    return [len(s), len(t)] + sorted(s)


@kiln.export
def updates(a: list[int], b: list[int]) -> list[int]:
    """The in-place methods and operators, with sets, lists, ranges and
    dicts, several arguments, and a set with itself."""
    sa = set(a)
    sb = set(b)
    s = sa.copy()
    s.update(b, range(3))
    r1 = sorted(s)
    s = sa.copy()
    s.intersection_update(b)
    r2 = sorted(s)
    s = sa.copy()
    s.difference_update(b, [0])
    r3 = sorted(s)
    s = sa.copy()
    s.symmetric_difference_update(sb)
    r4 = sorted(s)
    s = sa.copy()
    s |= sb
    s &= {x for x in range(-50, 50)}
    s -= {0, 1}
    s ^= {2, 3}
    r5 = sorted(s)
    s = sa.copy()
    s.update(s)
    s |= s
    r6 = [len(s)]
    s ^= s
    r7 = [len(s)]
    s = sa.copy()
    s &= s
    s.update({i: i for i in range(2)})
    s -= s
    r8 = [len(s)]
    s = sa.copy()
    s.intersection_update(s)
    s.difference_update(s)
    r9 = [len(s)]
    # Every argument is evaluated before the method runs (fuzzer S8).
    s = sa.copy()
    s.update({len(s) + 100}, {len(s)})
    s.difference_update({len(s)}, {len(s) - 1})
    return r1 + [-1] + r2 + [-1] + r3 + [-1] + r4 + [-1] + r5 + [-1] + r6 + r7 + r8 + r9 + \
        [-1] + sorted(s)


# ------------------------------------------------------------ algebra
@kiln.export
def algebra(a: list[int], b: list[int]) -> list[int]:
    sa = set(a)
    sb = set(b)
    return (sorted(sa | sb) + [-1] + sorted(sa & sb) + [-1] + sorted(sa - sb) + [-1]
            + sorted(sa ^ sb) + [-1] + sorted(sa.union(b)) + [-1]
            + sorted(sa.intersection(b, sb)) + [-1] + sorted(sa.difference(b, [1]))
            + [-1] + sorted(sa.symmetric_difference(b)) + [-1] + sorted(sa.union())
            + [-1] + sorted(sa.union(sb, range(2), {7})) + [-1] + sorted(sa | sa)
            + sorted(sa - sa) + [len(sa), len(sb)])


@kiln.export
def comparisons(a: list[int], b: list[int]) -> list[bool]:
    sa = set(a)
    sb = set(b)
    return [sa == sb, sa != sb, sa <= sb, sa < sb, sa >= sb, sa > sb, sa.issubset(sb),
            sa.issuperset(sb), sa.isdisjoint(sb), sa.issubset(b), sa.issuperset(b),
            sa.isdisjoint(b), sa == sa, sa < sa, sa <= sa, sa.isdisjoint(sa),
            set() <= sa, sa == {1, 2}]


@kiln.export
def float_algebra(xs: list[float], ys: list[float]) -> list[float]:
    """-0.0 and 0.0 are one element; the sums are of whole numbers."""
    a = set(xs)
    b = set(ys)
    u = a | b
    return [float(len(u)), float(len(a & b)), float(len(a - b)), float(len(a ^ b)), sum(u) + 0.0,
            float(a <= b), float(a == b)]


@kiln.export
def signed_zero(first: float, second: float) -> list[float]:
    """One element; the first added stays (its sign)."""
    s = {first, second}
    s.add(0.0)
    s.add(-0.0)
    result = [float(len(s))]
    for x in s:
        result.append(math.copysign(1.0, x))
    return result


@kiln.export
def nan_elements(x: float) -> list[int]:
    """NaNs computed apart are distinct elements in both (never found
    again: CPython finds only the same NaN object)."""
    s = set()
    s.add(x + 0.0)
    s.add(x * 1.0)
    s.add(1.5)
    t = {x - 0.0, 2.5}
    u = s | t
    found = int((x + 0.0) in s)
    s.discard(x + 0.0)
    return [len(s), len(t), len(u), nan_count(s), nan_count(u), found, len(s & t)]


@kiln.export
def bool_elements(n: int) -> list[int]:
    s = {True, False, n > 2, n > 5}
    t = {n > 3}
    u = s - t
    return [len(s), len(t), len(u), sum(s), int(True in t), int(False in u), int(any(u)),
            int(all(t))]


@kiln.export
def mixed_literals(n: int) -> list[float]:
    """A bool among ints is an int (one element with 1, as in CPython); an
    int among floats is a float."""
    a = {True, 1, 2, n}
    b = {1, 2.5, n}
    c = {0, False}
    return [float(len(a)), float(sum(a)), float(len(b)), sum(b), float(len(c)),
            float(sum(c))]


@kiln.export
def int_extremes(k: int) -> list[int]:
    s = {-2**63, 2**63 - 1, 0, k}
    s.discard(-1)
    return [len(s), int(k in s)] + sorted(s)


@kiln.export
def float_remove(x: float) -> float:
    """KeyError(x) of a float set (x itself)."""
    s = {1.0, 2.5, -0.0}
    s.remove(x)
    return sum(s)


# ------------------------------------------------------ iteration
@kiln.export
def add_while_iterating(n: int) -> int:
    """RuntimeError('Set changed size during iteration') at the step after
    the first add."""
    s = set(range(n))
    count = 0
    for x in s:
        s.add(x + 1000)
        count += 1
    return count


@kiln.export
def remove_while_iterating(n: int) -> int:
    s = set(range(n))
    count = 0
    for x in s:
        s.discard(x)
        count += 1
    return count


@kiln.export
def same_size_while_iterating(n: int) -> int:
    """Adding an element that is there, or discarding a missing one,
    changes no size: no error."""
    s = set(range(n))
    total = 0
    for x in s:
        s.add(x)
        s.discard(-x - 1)
        total += x
    return total


@kiln.export
def break_after_change(n: int) -> int:
    s = set(range(n))
    for x in s:
        s.add(-1)
        break
    return len(s)


@kiln.export
def enumerated(n: int) -> int:
    s = {i * 3 for i in range(n)}
    total = 0
    for i, x in enumerate(s):
        total += i * 1000 + x
    count = 0
    for x in s:
        if x % 2 == 0:
            continue
        count += 1
    return total * 10 + count


@kiln.export
def through_branches(n: int) -> list[int]:
    if n % 2 == 0:
        s = {1, 2}
    else:
        s = set()
    acc: set[int] = set()
    for i in range(n):
        acc = acc | {i % 5}
        if i > 3:
            acc.add(i)
    found = first_above(acc, n // 2)
    return sorted(s) + [-1] + sorted(acc) + [-1] + sorted(found)


@kiln.export
def early_return(n: int) -> int:
    s = set(range(n))
    for x in s:
        if x * x > n:
            return x
    return -1


@kiln.export
def churn(n: int) -> int:
    """Many small sets made and dropped in a loop."""
    total = 0
    for i in range(n):
        s = {i, i + 1, i % 3}
        t = s | {i + 2}
        total += len(t) + len(s & t)
    return total


@kiln.export
def literals_and_annotations(n: int) -> list[float]:
    """A literal iterated; typing.Set; a new int set used as a set[float]
    (its elements converted); enumerate with a start; any/all of lists and
    dicts too."""
    total = 0
    for x in {3, 1, n}:
        total += x
    t: typing.Set[int] = set()
    for i, x in enumerate({n, n + 1}, 10):
        t.add(i * x)
    f: set[float] = {1, 2, n}
    g: set[float] = {i for i in range(n)}
    xs = [0, n]
    d = {1: 0.0, 2: float(n)}
    # float(): CPython keeps the ints of `f` and `g` (a documented difference).
    return [float(total), float(sum(t)), float(sum(f)), sum(g) + 0.0, float(any(xs)),
            float(all(xs)), float(any(d)), float(all(d.values()))]
