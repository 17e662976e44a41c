"""List slices (issue 30): xs[a:b:c], xs[a:b:c] = ys, del xs[a:b:c] and
del xs[i], compared with CPython by test_list_slices.py; and loops that
index lists without resizing them (kiln-list-views turns them into array
loops: bounds checks hoisted, vectorized), compared on the edges."""

import kiln


@kiln.export
def take(xs: list[int], a: int, b: int, c: int) -> list[int]:
    return xs[a:b:c]


@kiln.export
def take_open(xs: list[float], a: int) -> list[float]:
    return xs[a:] + xs[:a] + xs[::-1] + xs[::2] + xs[a::-2]


@kiln.export
def take_bools(xs: list[bool], a: int, c: int) -> list[bool]:
    return xs[a::c]


@kiln.export
def assign(xs: list[int], a: int, b: int, ys: list[int]) -> int:
    xs[a:b] = ys
    return len(xs)


@kiln.export
def assign_extended(xs: list[float], a: int, c: int, ys: list[float]) -> None:
    xs[a::c] = ys


@kiln.export
def assign_itself(xs: list[int], a: int, b: int) -> None:
    xs[a:b] = xs


@kiln.export
def assign_literal(xs: list[int], a: int) -> list[int]:
    xs[:a] = [7, 8]
    xs[a:] = []
    return xs


@kiln.export
def delete(xs: list[int], a: int, b: int, c: int) -> None:
    del xs[a:b:c]


@kiln.export
def delete_item(xs: list[bool], i: int) -> int:
    del xs[i]
    return len(xs)


@kiln.export
def slice_in_loop(n: int) -> int:
    """Slices made and dropped per iteration (no leak)."""
    xs = list(range(n))
    total = 0
    for i in range(n):
        total += sum(xs[i:i + 3])
        del xs[:0]
    return total


# ---- loops over lists that resize none: array loops

@kiln.export
def scale(xs: list[float], ys: list[float], a: float) -> None:
    for i in range(len(xs)):
        ys[i] = a * xs[i]


@kiln.export
def shifted_sum(xs: list[int], k: int) -> int:
    s = 0
    for i in range(len(xs)):
        s += xs[i - k]
    return s


@kiln.export
def count_true(bs: list[bool]) -> int:
    n = 0
    for i in range(len(bs)):
        if bs[i]:
            n += 1
        bs[i] = not bs[i]
    return n


@kiln.export
def knapsack(weights: list[int], values: list[int], cap: int) -> int:
    best = [0] * (cap + 1)
    for k in range(len(weights)):
        w = weights[k]
        v = values[k]
        for c in range(cap, w - 1, -1):
            cand = best[c - w] + v
            if cand > best[c]:
                best[c] = cand
    return best[cap]


@kiln.export
def overrun(xs: list[float], ys: list[float], n: int) -> float:
    """Writes ys[i] for i < n: an IndexError past the shorter list, after
    the writes before it (as CPython)."""
    for i in range(n):
        ys[i] = xs[i] + 1.0
    return ys[0] if len(ys) > 0 else 0.0


@kiln.export
def prefix_sums(xs: list[int]) -> None:
    for i in range(1, len(xs)):
        xs[i] += xs[i - 1]
