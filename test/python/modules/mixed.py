"""A module where some functions compile and some fall back to Python."""
import math

import numpy as np

import kiln

SCALE = 3.0


def helper(x: float, y: float) -> float:
    return math.hypot(x, y) * 2.0


@kiln.export
def uses_helper(x: float, y: float) -> float:
    return helper(x, y) + 1.0


@kiln.export
def needs_a_string(x: kiln.f64[:]) -> float:
    label = b"3.0"
    return len(label) + np.linalg.multi_dot([x, x]) ** 0.5


@kiln.export
def calls_a_fallback(x: kiln.f64[:]) -> float:
    return needs_a_string(x) * 2.0


@kiln.export
def global_scale(x: float) -> float:
    return x * SCALE


@kiln.export
def compiled_core(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


@kiln.export
def python_driver(n: int) -> list:
    return [compiled_core(k) for k in range(n)]
