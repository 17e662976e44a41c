"""Functions as values: helpers copied per function passed
(frontend/function_arguments.py), exported function defaults, np.ndindex,
np.unravel_index, tuple variables as indices and tuple() of generators."""
import math
from typing import Callable

import numpy as np
import kiln


def square(v: float) -> float:
    return v * v


def wrap(pos: int, offset: int, bound: int):
    return (pos + offset) % bound


def clamp(pos: int, offset: int, bound: int):
    return min(bound - 1, max(0, pos + offset))


def reflect(pos: int, offset: int, bound: int):
    idx = pos + offset
    return min(2 * (bound - 1) - idx, max(idx, -idx))


def apply(f: Callable[[float], float], x: kiln.f64[:]) -> kiln.f64[:]:
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = f(x[i])
    return out


def twice(f, v):
    return f(f(v))


def passes_on(g, x):
    return apply(g, x)


def fold(f, x, start):
    acc = start
    for v in x:
        acc = f(acc, v)
    return acc


def count_down(f, n: int, acc: float) -> float:
    if n <= 0:
        return acc
    return count_down(f, n - 1, f(acc))


def shifted(i: int, n: int, mode=wrap) -> int:
    return mode(i, 1, n)


@kiln.export
def module_function(x: kiln.f64[:]) -> kiln.f64[:]:
    return apply(square, x)


@kiln.export
def lambda_with_capture(x: kiln.f64[:], s: float) -> kiln.f64[:]:
    return apply(lambda v: v * s + 1.0, x)


@kiln.export
def library_functions(x: kiln.f64[:]) -> kiln.f64[:]:
    return apply(math.sqrt, np.abs(x)) + passes_on(np.floor, x) + passes_on(abs, x)


@kiln.export
def named_lambdas(v: float, s: float) -> float:
    g = lambda t: t + s
    h = lambda t: g(t) * 2.0
    return twice(g, v) + twice(square, v) + twice(h, v)


@kiln.export
def capture_named_like_helper(x: kiln.f64[:]) -> kiln.f64[:]:
    # the lambda reads the caller's `x`; `apply` has a parameter `x` too
    return apply(lambda v: v + x[0], x)


@kiln.export
def folds(x: kiln.i64[:]) -> int:
    return fold(lambda a, b: a * 3 + b, x, 0) + fold(max, x, -2**62) + fold(min, x, 2**62)


@kiln.export
def recursion(n: int, step: float) -> float:
    # (a lambda reading `step` would need the helper's copy annotated:
    # recursion types a helper from its annotations)
    return count_down(lambda a: a * 0.5 + 1.0, n, step) + count_down(math.cos, n, 1.0)


@kiln.export
def defaults_of_helpers(i: int, n: int) -> int:
    return shifted(i, n) * 100 + shifted(i, n, clamp) * 10 + shifted(i, n, mode=reflect)


@kiln.export
def with_mode(i: int, n: int, mode=wrap, k: int = 1) -> int:
    return mode(i, k, n) + shifted(i, n, mode)


@kiln.export
def local_maxima(data: kiln.f64[:, :, :], mode=wrap) -> kiln.b1[:, :, :]:
    wsize = data.shape
    result = np.ones(data.shape, bool)
    for pos in np.ndindex(data.shape):
        myval = data[pos]
        for offset in np.ndindex(wsize):
            neighbor_idx = tuple(mode(p, o - w // 2, w) for (p, o, w) in zip(pos, offset, wsize))
            result[pos] &= (data[neighbor_idx] <= myval)
    return result


@kiln.export
def positions(n: int, m: int) -> int:
    total = 0
    for i, j in np.ndindex(n, m):
        total = total * 7 + i * 10 + j
    return total


@kiln.export
def positions_of_shape(data: kiln.f64[:, :]) -> float:
    total = 0.0
    for pos in np.ndindex(data.shape):
        total += data[pos] * (pos[1] + 1) - pos[0]
    return total


@kiln.export
def one_axis(n: int) -> int:
    total = 0
    for pos in np.ndindex(n):
        total += pos[0] * 2 + len(pos)
    return total


@kiln.export
def unravel(k: int, a: int, b: int, c: int) -> int:
    i, j, l = np.unravel_index(k, (a, b, c))
    return (i * 100 + j) * 100 + l


@kiln.export
def unravel_into(data: kiln.f64[:, :], k: int) -> float:
    pos = np.unravel_index(k, data.shape)
    data[pos] = -1.0
    data[pos] += 0.5
    return data[pos]


@kiln.export
def unrolled_tuples(data: kiln.f64[:, :, :]) -> int:
    s = data.shape
    doubled = tuple(a + b for a, b in zip(s, s))
    counted = tuple(i * v for i, v in enumerate(s))
    squares = tuple(v * v for v in s)
    return doubled[0] + counted[2] * 1000 + squares[1] * 100000 + len(doubled)


@kiln.export
def check_mask(db: kiln.i64[:, :], mask=(1, 0, 1)):
    out = np.zeros(db.shape[0], dtype=bool)
    for idx, line in enumerate(db):
        target, vector = line[0], line[1:]
        if (mask == np.bitwise_and(mask, vector)).all():
            if target == 1:
                out[idx] = 1
    return out


@kiln.export
def tuple_parameters(scale: tuple[int, float], x: float, mode=wrap, shift=(-1, 2.5)) -> float:
    a, b = scale
    return a * x + b + mode(int(x), shift[0], 7) + shift[1]


@kiln.export
def aliases(i: int, x: float) -> float:
    # a function bound to a name once, at the top level: the function itself
    g = wrap
    e = math.exp
    biggest = max
    return g(i, 2, 5) + shifted(i, 7, g) + e(x) + biggest(x, 0.5)
