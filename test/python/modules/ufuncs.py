"""@kiln.vectorize functions as numpy ufuncs (test_ufuncs.py)."""
import math

import kiln


@kiln.vectorize
def soft_plus(x: float, y: float) -> float:
    """x + log1p(exp(y - x)) for y <= x: a smooth maximum."""
    low, high = min(x, y), max(x, y)
    return high + math.log1p(math.exp(low - high))


@kiln.vectorize(["i8(i8, i8)", "f4(f4, f4)", "f8(f8, f8)"], identity=0)
def plus(a, b):
    return a + b


@kiln.vectorize(identity="reorderable")
def largest(a: float, b: float) -> float:
    return a if a >= b else b


@kiln.vectorize
def floor_div(a: int, b: int) -> int:
    return a // b


@kiln.vectorize
def scaled(x: kiln.f32) -> kiln.f32:
    return x * 2.5 - 1.0
