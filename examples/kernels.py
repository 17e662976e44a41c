"""Numeric kernels Kiln compiles ahead of time; `kiln build` turns this file
into a native module with the same functions."""

import kiln


@kiln.export
def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i] * y[i]
    return total


@kiln.export
def saxpy(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = a * x[i] + y[i]


@kiln.export
def count_positive(x: kiln.i64[:]) -> int:
    count = 0
    for i in range(len(x)):
        if x[i] > 0:
            count += 1
    return count


@kiln.export
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1 and n > 0:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@kiln.export
def clip(x: kiln.f32[:], low: float, high: float) -> None:
    for i in range(len(x)):
        if x[i] < low:
            x[i] = low
        elif x[i] > high:
            x[i] = high


@kiln.export
def sign(v: float) -> int:
    if v > 0:
        return 1
    if v < 0:
        return -1
    return 0
