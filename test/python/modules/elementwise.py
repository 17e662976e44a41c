"""@kiln.vectorize functions: numbers in, numbers out; arrays in, arrays out."""
import math
import kiln

@kiln.vectorize
def smooth(x: float, y: float) -> float:
    return math.sqrt(x * x + y) / (1.0 + x)

@kiln.vectorize
def idiv(a: int, b: int) -> int:
    return a // b


@kiln.vectorize
def clamp32(x: kiln.f32, low: kiln.f32, high: kiln.f32) -> kiln.f32:
    return min(max(x, low), high)
