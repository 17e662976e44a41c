"""Not a program: the module bench/containers.py --suite classes measures
an exported class with from Python (issue 31: attribute access on an
instance against a `__slots__` class, a method call against a plain
compiled function doing the same work). Kiln builds it with
`@kiln.export` on `Point` and on `point_norm2` only; `SlotsPoint` stays a
Python class, CPython's fastest plain-class layout."""


class Point:
    x: float
    y: float

    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y


def point_norm2(p: Point) -> float:
    return p.x * p.x + p.y * p.y


class SlotsPoint:
    __slots__ = ("x", "y")

    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y
