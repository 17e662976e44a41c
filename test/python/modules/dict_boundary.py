"""Dicts as parameters and results of exported functions, compiled from
Python (test_dicts.py compares them with CPython: results, and the
caller's dict afterwards -- keys with their objects' types and signs,
values, order)."""

import kiln


@kiln.export
def signzero(d: dict[float, int]) -> int:
    # A key deleted and added again is a new key object in CPython (0.0
    # here), last in order; a key assigned without deletion keeps its own.
    del d[0.0]
    d[0.0] = 5
    d[2.0] = 7
    return len(d)


@kiln.export
def reassign(d: dict[float, int]) -> int:
    d[0.0] = 9
    return len(d)


@kiln.export
def count_mod(xs: list[int], m: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for x in xs:
        k = x % m
        counts[k] = counts.get(k, 0) + 1
    return counts


@kiln.export
def bump(d: dict[int, float], k: int) -> float:
    d[k] += 1.5
    return d[k]


@kiln.export
def drop_small(d: dict[int, float], limit: float) -> int:
    gone = [k for k in d if d[k] < limit]
    for k in gone:
        del d[k]
    return len(gone)


@kiln.export
def same_dict(d: dict[int, int]) -> dict[int, int]:
    d[1] = 2
    return d
