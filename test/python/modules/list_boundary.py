"""Lists as parameters and results of exported functions (issue 30): the
frontend's code behind the boundary (docs/language.md, "Lists at the
boundary"). test_lists.py compares each with CPython, the caller's lists
included."""

import kiln


def halves(xs: list[float]) -> list[float]:
    return [x / 2 for x in xs]


@kiln.export
def append_squares(xs: list[float], n: int) -> list[float]:
    for i in range(n):
        xs.append(float(i * i))
    return halves(xs)


@kiln.export
def same_list(xs: list[int]) -> list[int]:
    return xs


@kiln.export
def this_or_new(xs: list[int], flag: bool) -> list[int]:
    if flag:
        return xs
    ys = xs[:]
    ys.reverse()
    return ys


@kiln.export
def store_then_append(xs: list[int], i: int, v: int) -> int:
    xs.append(v)
    xs[i] = v          # IndexError after the append: the caller sees the append
    return len(xs)


@kiln.export
def sort_in_place(xs: list[float], reverse: bool) -> None:
    xs.sort(reverse=reverse)


@kiln.export
def drain(xs: list[int]) -> int:
    total = 0
    while xs:
        total = total * 7 + xs.pop()
    return total


@kiln.export
def flags(n: int) -> list[bool]:
    return [i % 3 == 0 for i in range(n)]


@kiln.export
def positives(xs: list[float]) -> list[float]:
    return [x for x in xs if x > 0.0]


@kiln.export
def shared(a: list[int], b: list[int]) -> int:
    a.append(1)
    return len(b)


@kiln.export
def joined(a: list[int], b: list[int], times: int) -> list[int]:
    return a + b * times


@kiln.export
def count_up(n: int) -> list[int]:
    xs = []
    for i in range(n):
        xs.append(i)
    return xs


@kiln.export
def nothing(n: int) -> list[float]:
    xs: list[float] = []
    if n > 0:
        xs.append(n)
    return xs


@kiln.export
def removed(xs: list[float], v: float) -> list[float]:
    xs.remove(v)
    return xs


@kiln.export
def flags_summary(xs: list[bool]) -> int:
    return xs.count(True) * 100 + len(xs) + (1000 if True in xs else 0)


@kiln.export
def first_at_least(xs: list[int], lists_only: list[int], n: int) -> list[int]:
    """Returns a parameter from inside a loop (the loop state holds a new
    empty list until then) and nothing else that could raise."""
    for k in range(n):
        if k * k >= n:
            return xs
    return lists_only


# `and`/`or`/`not` whose value is only tested may have list operands
# (a stack's emptiness tested beside a comparison).
@kiln.export
def next_greater(xs: list[int]) -> list[int]:
    out = [-1] * len(xs)
    stack: list[int] = []
    for i in range(len(xs)):
        while stack and xs[stack[-1]] < xs[i]:
            out[stack.pop()] = xs[i]
        stack.append(i)
    return out


@kiln.export
def tested_lists(xs: list[float], n: int) -> int:
    k = 0
    if n and xs:
        k += 1
    if not (xs or n):
        k += 10
    if xs and not xs:
        k += 100
    ys = [v for v in xs if n or xs]
    assert xs or True
    return k + len(ys) + (1 if xs and n else 0)
