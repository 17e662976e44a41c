"""Cases a review found wrong once; compiled and run by CPython."""
import math

import numpy as np

import kiln


@kiln.export
def returns_loop_alias(n: int) -> kiln.f64[:]:
    a = np.zeros(n)
    b = np.ones(n)
    r = a
    for i in range(2):
        r = b
    return r


@kiln.export
def writes_through_loop_alias(x: kiln.f64[:], z: kiln.f64[:]) -> None:
    y = z
    for i in range(2):
        y[0] = 5.0
        y = x


@kiln.export
def big_array(n: int) -> float:
    a = np.empty(n)
    a[0] = 1.0
    return a[0]


@kiln.export
def power(a: float, b: float) -> float:
    return a ** b


@kiln.export
def int_power(a: int, b: int) -> int:
    return a ** b


@kiln.export
def fmod(x: float, y: float) -> float:
    return math.fmod(x, y)


@kiln.export
def equal_mixed(a: int, b: float) -> bool:
    return a == b


@kiln.export
def less_mixed(a: int, b: float) -> bool:
    return a < b


@kiln.export
def wide_range(a: int, b: int, c: int) -> int:
    count = 0
    last = 0
    for i in range(a, b, c):
        count += 1
        last = i
    return count * 1000 + last % 1000


@kiln.export
def ends_in_raise(n: int) -> int:
    if n > 0:
        return n
    else:
        raise ValueError("neg")


@kiln.export
def endless(n: int) -> int:
    while True:
        n += 1
        if n % 7 == 0:
            return n


@kiln.export
def keyword_names(error: int, result: int, char: int) -> int:
    return error // result + char


@kiln.export
def scatter_counts(bins: kiln.i64[:], counts: kiln.i64[:]) -> None:
    # Data-dependent indexes, negative ones wrapping as Python's do: the
    # direct compare and the wrap block of kiln-lower-checks.
    for i in range(len(bins)):
        counts[bins[i]] += 1


@kiln.export
def float_histogram(x: kiln.f64[:], nbins: int, counts: kiln.i64[:]) -> None:
    for i in range(len(x)):
        counts[int(x[i] * nbins)] += 1
