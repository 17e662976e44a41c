"""Single inheritance between compiled classes (issue 31): overrides
called through a base class's type, super() chains three deep,
isinstance() across the hierarchy, a subclass's instance where its base
is expected (arguments, fields, Optional fields, results), dataclasses
deriving from dataclasses (test_class_inheritance.py compares each
function with CPython)."""

from dataclasses import dataclass
from typing import Optional

import kiln


@kiln.export
class Shape:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def area(self) -> float:
        return 0.0

    def name(self) -> int:
        return 1

    def describe(self) -> float:
        return self.area() * 10.0 + self.x + self.y

    def moved(self, dx: float) -> "Shape":
        return Shape(self.x + dx, self.y)

    def __repr__(self) -> str:
        return f"Shape({self.x}, {self.y})"


@kiln.export
class Circle(Shape):
    def __init__(self, x: float, y: float, r: float):
        super().__init__(x, y)
        self.r = r

    def area(self) -> float:
        return 3.0 * self.r * self.r

    def name(self) -> int:
        return 2

    def moved(self, dx: float) -> "Shape":
        return Circle(self.x + dx, self.y, self.r)

    def __repr__(self) -> str:
        return f"Circle({self.x}, {self.y}, r={self.r})"


@kiln.export
class Square(Shape):
    def __init__(self, x: float, y: float, side: float):
        super().__init__(x, y)
        self.side = side

    def area(self) -> float:
        return self.side * self.side


@kiln.export
class Tile(Square):
    """Three deep: its area adds to its base's through super()."""

    def __init__(self, x: float, y: float, side: float, depth: int):
        super().__init__(x, y, side)
        self.depth = depth

    def area(self) -> float:
        return super().area() + float(self.depth)

    def name(self) -> int:
        return 10 + super().name()


@kiln.export
class Holder:
    spare: Optional[Shape] = None

    def __init__(self, shape: Shape):
        self.shape = shape


@kiln.export
@dataclass
class Point:
    x: int
    y: int = 0

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


@kiln.export
@dataclass
class Point3(Point):
    z: int = 0

    def norm1(self) -> int:
        return super().norm1() + abs(self.z)


def make(kind: int, size: float) -> Shape:
    if kind == 0:
        return Circle(1.0, 2.0, size)
    if kind == 1:
        return Square(0.5, 0.0, size)
    if kind == 2:
        return Tile(0.0, 1.0, size, 3)
    return Shape(size, size)


@kiln.export
def total_area(n: int, size: float) -> float:
    """Overrides called through a Shape, over many calls."""
    total = 0.0
    for i in range(n):
        shape = make(i % 4, size + float(i))
        total += shape.area() + shape.describe() + float(shape.name())
    return total


@kiln.export
def kinds(n: int) -> int:
    """isinstance() across the hierarchy."""
    code = 0
    for i in range(n):
        shape = make(i % 4, 1.0)
        if isinstance(shape, Circle):
            code = code * 3 + 1
        if isinstance(shape, Square):
            code = code * 5 + 2
        if isinstance(shape, Tile):
            code = code * 7 + 3
        code = code % 1000003
    return code


@kiln.export
def narrowed(shape: Shape) -> float:
    """Inside `if isinstance(shape, Circle):`, shape is a Circle."""
    if isinstance(shape, Circle):
        return shape.r
    if isinstance(shape, Square):
        return shape.side * 2.0
    return -1.0


@kiln.export
def area_of(shape: Shape) -> float:
    return shape.area()


@kiln.export
def name_of(shape: Optional[Shape]) -> int:
    if shape is None:
        return 0
    return shape.name()


@kiln.export
def tile_area(side: float, depth: int) -> float:
    tile = Tile(0.0, 0.0, side, depth)
    return tile.area() + area_of(tile)


@kiln.export
def held(kind: int, size: float) -> float:
    """A subclass's instance in a field and an Optional field of the base's
    type."""
    holder = Holder(make(kind, size))
    holder.spare = Circle(0.0, 0.0, size)
    spare = holder.spare
    result = holder.shape.area()
    if spare is not None:
        result += spare.area()
    holder.spare = make(kind + 1, size)
    if holder.spare is not None:
        result += holder.spare.describe()
    return result


@kiln.export
def moved_text(kind: int, dx: float) -> str:
    shape = make(kind, 2.0)
    moved = shape.moved(dx)
    return f"{moved} {shape}"


@kiln.export
def same_object(kind: int) -> bool:
    shape = make(kind, 1.0)
    circle = Circle(0.0, 0.0, 1.0)
    return shape is circle or shape is not None


@kiln.export
def points(x: int, y: int, z: int) -> int:
    p = Point3(x, y, z)
    q = Point(x, y)
    return p.norm1() * 1000 + q.norm1()


@kiln.export
def point3_text(x: int, y: int, z: int) -> str:
    p = Point3(x, y, z)
    return f"{p} {p == Point3(x, y, z)} {p == Point3(x, y, z + 1)}"


@kiln.export
def make_tile(side: float, depth: int) -> Shape:
    return Tile(0.0, 0.0, side, depth)


# An abstract method: the base raises NotImplementedError, subclasses
# override it (richards' TaskState.fn).
@kiln.export
class Animal:
    def __init__(self, legs: int):
        self.legs = legs

    def sound(self) -> int:
        raise NotImplementedError

    def check(self, n: int) -> int:
        if n < 0:
            raise AttributeError(f"no sound for {n} legs")
        if n > 100:
            raise NotImplementedError("centipedes")
        return n


@kiln.export
class Dog(Animal):
    def sound(self) -> int:
        return 2 * self.legs


@kiln.export
def make_animal(kind: int, legs: int) -> Animal:
    if kind == 1:
        return Dog(legs)
    return Animal(legs)


@kiln.export
def sound_of(kind: int, legs: int) -> int:
    animal = make_animal(kind, legs)
    return animal.sound() + animal.check(legs)


# A method under a second name (chaos' `__rmul__ = __mul__`).
@kiln.export
class Scale:
    def __init__(self, x: float):
        self.x = x

    def __mul__(self, k: float) -> "Scale":
        return Scale(self.x * k)
    __rmul__ = __mul__

    def doubled(self) -> float:
        return 2.0 * self.x
    twice = doubled


@kiln.export
def scaled(x: float, k: float) -> float:
    s = Scale(x)
    return (s * k).x + (k * s).x + s.twice()
