"""Helpers of numbers called from loops: kiln-inline-helpers inlines them
before kiln-vectorize (test_inlined_helpers.py)."""
import math

import kiln


def erf_like(x: float) -> float:
    t = 1.0 / (1.0 + 0.3275911 * abs(x))
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t
                - 0.284496736) * t + 0.254829592) * t * math.exp(-x * x)
    return y if x >= 0.0 else -y


def inverse(x: float) -> float:
    return 1.0 / x


def two_levels(x: float) -> float:
    return inverse(x) + inverse(x + 1.0)


def log_of(x: float) -> float:
    return math.log(x)


def clamp(v: int, low: int, high: int) -> int:
    return low if v < low else (high if v > high else v)


@kiln.export
def erf_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = erf_like(x[i])


@kiln.export
def erf_map_inline(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        v = x[i]
        t = 1.0 / (1.0 + 0.3275911 * abs(v))
        y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t
                    - 0.284496736) * t + 0.254829592) * t * math.exp(-v * v)
        out[i] = y if v >= 0.0 else -y


@kiln.export
def sum_two_levels(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += two_levels(x[i])
    return s


@kiln.export
def logs(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = log_of(x[i])


@kiln.export
def clamp_all(x: kiln.i64[:], low: int, high: int, out: kiln.i64[:]) -> None:
    for i in range(len(x)):
        out[i] = clamp(x[i], low, high)
