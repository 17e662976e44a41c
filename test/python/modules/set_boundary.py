"""Sets as parameters and results of exported functions, compiled from
Python (test_set_boundary.py compares them with CPython: results, and the
caller's set afterwards -- its elements with their types and signs)."""

import typing

import kiln


@kiln.export
def length(s: set[int]) -> int:
    return len(s)


@kiln.export
def add_range(s: set[int], n: int) -> int:
    for i in range(n):
        s.add(i)
    return len(s)


@kiln.export
def drop_evens(s: set[int]) -> int:
    gone = [x for x in s if x % 2 == 0]
    for x in gone:
        s.discard(x)
    return len(gone)


@kiln.export
def remove_then_fail(s: set[int], k: int) -> int:
    """Changes the caller's set, then raises KeyError(k) when k is missing:
    the change stays, as in CPython."""
    s.add(-1)
    s.discard(0)
    s.remove(k)
    return len(s)


@kiln.export
def same_set(s: set[int]) -> set[int]:
    s.add(1)
    return s


@kiln.export
def new_set(n: int) -> set[int]:
    return {i * i for i in range(n)}


@kiln.export
def union_of(a: set[int], b: set[int]) -> set[int]:
    return a | b


@kiln.export
def grow_both(a: set[int], b: set[int]) -> int:
    """One set passed twice is one set: each add shows in the other name."""
    a.add(100)
    b.add(200)
    return len(a) * 1000 + len(b)


@kiln.export
def update_from(s: set[float], xs: list[float]) -> int:
    s.update(xs)
    return len(s)


@kiln.export
def signed_zero(s: set[float]) -> int:
    """0.0 removed and -0.0 added: the caller's set holds the new -0.0."""
    s.discard(0.0)
    s.add(-0.0)
    return len(s)


@kiln.export
def keep_nan(s: set[float]) -> int:
    """A NaN element of the caller's set stays itself when the set changes."""
    s.add(1.0)
    return len(s)


@kiln.export
def flags(s: typing.Set[bool]) -> int:
    s.add(True)
    return len(s)


@kiln.export
def empty_like(s: set[float]) -> set[float]:
    t: set[float] = set()
    if len(s) > 100:
        t.add(1.0)
    return t


@kiln.export
def from_list(xs: list[float]) -> set[float]:
    return set(xs)


@kiln.export
def cleared(s: set[float]) -> None:
    s.clear()


@kiln.export
def intersect_in_place(a: set[int], b: set[int]) -> int:
    a &= b
    return len(a)
