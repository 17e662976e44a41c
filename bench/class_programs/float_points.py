"""pyperformance's `float` benchmark (pyperformance/data-files/
benchmarks/bm_float/run_benchmark.py), ported by adding annotations only:
class-level field annotations beside its `__slots__`, parameter / result
annotations; the pyperf runner is replaced by the entry function
`float_points` at the end, which runs benchmark(n) and returns the
coordinates of the point it returns, weighted. The original's header:

Artificial, floating point-heavy benchmark originally used by Factor.

The program keeps its points in a list (`[None] * n`, then filled) and
declares `__slots__`, so it measures classes beyond the first slice of
Kiln's."""

from math import sin, cos, sqrt
from typing import Optional


POINTS = 100000


class Point(object):
    __slots__ = ('x', 'y', 'z')
    x: float
    y: float
    z: float

    def __init__(self, i: int) -> None:
        self.x = x = sin(i)
        self.y = cos(i) * 3
        self.z = (x * x) / 2

    def __repr__(self) -> str:
        return "<Point: x=%s, y=%s, z=%s>" % (self.x, self.y, self.z)

    def normalize(self) -> None:
        x = self.x
        y = self.y
        z = self.z
        norm = sqrt(x * x + y * y + z * z)
        self.x /= norm
        self.y /= norm
        self.z /= norm

    def maximize(self, other: "Point") -> "Point":
        self.x = self.x if self.x > other.x else other.x
        self.y = self.y if self.y > other.y else other.y
        self.z = self.z if self.z > other.z else other.z
        return self


def maximize(points: list[Optional[Point]]) -> Point:
    next = points[0]
    for p in points[1:]:
        next = next.maximize(p)
    return next


def benchmark(n: int) -> Point:
    points: list[Optional[Point]] = [None] * n
    for i in range(n):
        points[i] = Point(i)
    for p in points:
        p.normalize()
    return maximize(points)


def float_points(n: int) -> float:
    """The entry (in place of pyperf's runner): benchmark(n), then the
    returned point's coordinates, weighted."""
    p = benchmark(n)
    return p.x + 2.0 * p.y + 3.0 * p.z
