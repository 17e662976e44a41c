"""Misuses of lists, dicts and sets of str, each a compile error at its
file:line:col (test_str_containers.py pins the first diagnostic)."""
import heapq

import kiln


@kiln.export
def mixed_literal(s: str) -> int:
    return len([1, s])


@kiln.export
def append_number(xs: list[str]) -> None:
    xs.append(1)


@kiln.export
def number_in_strings(xs: list[str]) -> bool:
    return 1 in xs


@kiln.export
def join_numbers(xs: list[int]) -> str:
    return ",".join(xs)


@kiln.export
def number_key(d: dict[str, int]) -> None:
    d[1] = 2


@kiln.export
def number_lookup(d: dict[str, int]) -> int:
    return d[1]


@kiln.export
def split_too_many(s: str) -> list[str]:
    return s.split(",", 1, 2)


@kiln.export
def heap_of_strings(h: list[str], w: str) -> None:
    heapq.heappush(h, w)


@kiln.export
def sum_of_strings(xs: list[str]) -> int:
    return sum(xs)


@kiln.export
def popitem_indexed(d: dict[str, int]) -> str:
    return d.popitem()[0]
