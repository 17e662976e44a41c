"""math.*, numpy scalar functions, builtins, raise/assert, tuples and calls,
compiled and run by CPython."""
import math

import numpy as np

import kiln
from kiln import f32

LIMIT = 100
HALF = 0.5


@kiln.export
def m_sqrt(x: float) -> float:
    return math.sqrt(x)


@kiln.export
def m_exp(x: float) -> float:
    return math.exp(x)


@kiln.export
def m_expm1(x: float) -> float:
    return math.expm1(x)


@kiln.export
def m_log(x: float) -> float:
    return math.log(x)


@kiln.export
def m_log_base(x: float, b: float) -> float:
    return math.log(x, b)


@kiln.export
def m_log1p(x: float) -> float:
    return math.log1p(x)


@kiln.export
def m_trig(x: float) -> float:
    return math.sin(x) + math.cos(x) * 2.0 + math.tan(x) * 3.0


@kiln.export
def m_tanh(x: float) -> float:
    return math.tanh(x) + math.atan(x)


@kiln.export
def m_asin(x: float) -> float:
    return math.asin(x)


@kiln.export
def m_atan2(y: float, x: float) -> float:
    return math.atan2(y, x)


@kiln.export
def m_hypot(x: float, y: float) -> float:
    return math.hypot(x, y)


@kiln.export
def m_pow(x: float, y: float) -> float:
    return math.pow(x, y)


@kiln.export
def m_fmod(x: float, y: float) -> float:
    return math.fmod(x, y)


@kiln.export
def m_rounding(x: float) -> int:
    return math.floor(x) * 1000000 + math.ceil(x) * 1000 + math.trunc(x)


@kiln.export
def m_round(x: float) -> int:
    return round(x)


@kiln.export
def m_predicates(x: float) -> int:
    return int(math.isnan(x)) * 100 + int(math.isinf(x)) * 10 + int(math.isfinite(x))


@kiln.export
def m_misc(x: float, y: float) -> float:
    return math.copysign(math.fabs(x), y) + math.pi * HALF + math.e - math.tau


@kiln.export
def np_functions(x: float) -> float:
    return np.sqrt(x) + np.exp(x) + np.log(x) + np.sin(x) + np.floor(x) + np.abs(x)


@kiln.export
def np_minmax(a: float, b: float) -> float:
    return np.minimum(a, b) * 1000.0 + np.maximum(a, b)


@kiln.export
def np_f32_sqrt(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(x)):
        out[i] = np.sqrt(x[i])


@kiln.export
def casts(x: float) -> float:
    return float(np.float32(x)) + float(kiln.f32(x)) + float(np.int64(x))


@kiln.export
def checked_positive(x: float) -> float:
    if x < 0:
        raise ValueError("x must be non-negative")
    return x * 2.0


@kiln.export
def asserting(n: int) -> int:
    assert n < LIMIT, "n is too large"
    assert n != 7
    return n + 1


@kiln.export
def divmod_pair(a: int, b: int) -> tuple[int, int]:
    return a // b, a % b


@kiln.export
def min_max_of(x: kiln.f64[:]) -> tuple[float, float]:
    low = math.inf
    high = -math.inf
    for i in range(len(x)):
        if x[i] < low:
            low = x[i]
        if x[i] > high:
            high = x[i]
    return low, high


@kiln.export
def uses_pair(a: int, b: int) -> int:
    q, r = divmod_pair(a, b)
    q, r = r, q
    return q * 1000 + r


@kiln.export
def first_pair_over(x: kiln.i64[:], limit: int) -> tuple[int, int]:
    for i in range(len(x)):
        if x[i] > limit:
            return i, x[i]
    return -1, 0


def square_sum(x: kiln.f64[:], scale: float) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i] * x[i]
    return s * scale


@kiln.export
def calls_helper(x: kiln.f64[:]) -> float:
    return square_sum(x, 0.5) + square_sum(scale=2.0, x=x)


def safe_div(a: int, b: int) -> int:
    return a // b


@kiln.export
def propagates(a: int, b: int) -> int:
    return safe_div(a, b) + 1


@kiln.export
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def fill(out: kiln.f64[:], value: float) -> None:
    for i in range(len(out)):
        out[i] = value


@kiln.export
def fill_twice(out: kiln.f64[:]) -> None:
    fill(out, 1.5)
    out[0] = 9.0


@kiln.export
def int_pow(a: int, b: int) -> int:
    return a ** b


@kiln.export
def float_pow(x: float, y: float) -> float:
    return x ** y
