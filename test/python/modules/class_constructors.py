"""Classmethods and property setters of native classes (issue 31):
alternative constructors called on the class and on an instance, a
classmethod calling another through `cls`, properties whose setters
validate (ValueError) and store into a field only the setter assigns
(test_class_constructors.py compares each function with CPython and
calls the classes from Python)."""

import math
from dataclasses import dataclass
from typing import Optional

import kiln


@kiln.export
class Point:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    @classmethod
    def from_polar(cls, r: float, phi: float) -> "Point":
        return cls(r * math.cos(phi), r * math.sin(phi))

    @classmethod
    def unit(cls, phi: float = 0.0) -> "Point":
        """The point at distance 1, at angle phi."""
        return cls.from_polar(1.0, phi)

    @classmethod
    def origin(cls) -> "Point":
        return cls(0.0, 0.0)

    def norm(self) -> float:
        return math.sqrt(self.x * self.x + self.y * self.y)


@kiln.export
class Temperature:
    _kelvin: float          # only the setter assigns it, a sum: annotated

    def __init__(self, celsius: float):
        self.celsius = celsius          # through the setter, which checks it

    @property
    def celsius(self) -> float:
        return self._kelvin - 273.15

    @celsius.setter
    def celsius(self, value: float) -> None:
        if value < -273.15:
            raise ValueError("a temperature below absolute zero")
        self._kelvin = value + 273.15

    @property
    def kelvin(self) -> float:
        return self._kelvin

    @classmethod
    def from_kelvin(cls, kelvin: float) -> "Temperature":
        return cls(kelvin - 273.15)


@kiln.export
class Circle:
    def __init__(self, radius: float):
        self.radius = radius

    @property
    def radius(self) -> float:
        return self._radius

    @radius.setter
    def radius(self, value: float) -> None:
        # `_radius` is a float field: the setter assigns it its parameter.
        if value < 0.0:
            raise ValueError("radius must be non-negative")
        self._radius = value

    @property
    def area(self) -> float:
        return math.pi * self._radius * self._radius


@kiln.export
@dataclass
class Account:
    cents: int = 0

    @property
    def dollars(self) -> float:
        return self.cents / 100

    @dollars.setter
    def dollars(self, value: float) -> None:
        if value < 0:
            raise ValueError("a negative balance")
        self.cents = int(value * 100)

    @classmethod
    def opened_with(cls, dollars: float) -> "Account":
        account = cls()
        account.dollars = dollars
        return account


@kiln.export
def polar_sum(n: int) -> float:
    total = Point.origin()
    for i in range(n):
        p = Point.from_polar(float(i), i * 0.5)
        q = p.unit(i * 0.25)            # a classmethod called on an instance
        total = Point(total.x + p.x + q.x, total.y + p.y + q.y)
    return total.norm()


@kiln.export
def make_polar(r: float, phi: float) -> "Point":
    return Point.from_polar(r, phi)


@kiln.export
def warming(start: float, step: float, n: int) -> float:
    t = Temperature(start)
    total = 0.0
    for _ in range(n):
        t.celsius += step               # the getter, then the setter
        total += t.kelvin
    return total


@kiln.export
def set_celsius(t: "Temperature", value: float) -> float:
    t.celsius = value
    return t.kelvin


@kiln.export
def from_kelvin(kelvin: float) -> float:
    return Temperature.from_kelvin(kelvin).celsius


@kiln.export
def grown_circle(radius: float, factor: float) -> tuple[float, float]:
    c = Circle(radius)
    c.radius *= factor
    return c.radius, c.area


@kiln.export
def account_after(dollars: float, spent: float) -> tuple[int, float]:
    account = Account.opened_with(dollars)
    account.dollars = account.dollars - spent
    return account.cents, account.dollars


@kiln.export
def setter_of_none(n: int) -> float:
    t: Optional[Temperature] = None
    if n > 0:
        t = Temperature(float(n))
    t.celsius = 2.0
    return t.kelvin


@kiln.export
def classmethod_of_none(n: int) -> float:
    t: Optional[Temperature] = None
    if n > 0:
        t = Temperature(float(n))
    return t.from_kelvin(300.0).celsius
