"""pyperformance's spectral_norm (from the Computer Language Benchmarks
Game) with Python lists of floats: ten rounds of u <- A^T A v, each product
a new list, then sqrt(u.v / v.v)."""

import math


def eval_a(i: int, j: int) -> float:
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def a_times(u: list[float]) -> list[float]:
    result: list[float] = []
    for i in range(len(u)):
        s = 0.0
        for j in range(len(u)):
            s += eval_a(i, j) * u[j]
        result.append(s)
    return result


def at_times(u: list[float]) -> list[float]:
    result: list[float] = []
    for i in range(len(u)):
        s = 0.0
        for j in range(len(u)):
            s += eval_a(j, i) * u[j]
        result.append(s)
    return result


# pythran export spectral_norm(int)
def spectral_norm(n: int) -> float:
    u = [1.0] * n
    v = [0.0] * n
    for _ in range(10):
        v = at_times(a_times(u))
        u = at_times(a_times(v))
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv)
