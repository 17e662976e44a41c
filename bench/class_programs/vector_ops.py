"""Vector arithmetic on a small immutable value class, the way ray
tracers write their inner math (pyperformance's raytrace has such a
`Vector` class): a `@dataclass(frozen=True)` Vec3 of three floats whose
methods add / sub / scale / dot / cross / normalized return new
instances. Casts one ray per pixel of a width x height image from a
camera at the origin against three spheres, and for each hit computes
the surface normal, a diffuse term toward a light and the reflected
direction. Every operation makes a temporary Vec3, so a call creates and
drops millions of objects. Returns the sum of the shading values and of
the reflected directions' components."""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Vec3:
    x: float
    y: float
    z: float

    def add(self, other: "Vec3") -> "Vec3":
        return Vec3(self.x + other.x, self.y + other.y, self.z + other.z)

    def sub(self, other: "Vec3") -> "Vec3":
        return Vec3(self.x - other.x, self.y - other.y, self.z - other.z)

    def scale(self, factor: float) -> "Vec3":
        return Vec3(self.x * factor, self.y * factor, self.z * factor)

    def dot(self, other: "Vec3") -> float:
        return self.x * other.x + self.y * other.y + self.z * other.z

    def cross(self, other: "Vec3") -> "Vec3":
        return Vec3(self.y * other.z - self.z * other.y,
                    self.z * other.x - self.x * other.z,
                    self.x * other.y - self.y * other.x)

    def length(self) -> float:
        return math.sqrt(self.dot(self))

    def normalized(self) -> "Vec3":
        return self.scale(1.0 / self.length())


def hit_distance(origin: Vec3, direction: Vec3, center: Vec3, radius: float) -> float:
    """The distance along the (unit) direction to the sphere, -1.0 for a miss."""
    offset = origin.sub(center)
    b = offset.dot(direction)
    c = offset.dot(offset) - radius * radius
    disc = b * b - c
    if disc < 0.0:
        return -1.0
    t = -b - math.sqrt(disc)
    if t <= 1e-9:
        return -1.0
    return t


def shade(origin: Vec3, direction: Vec3, center: Vec3, t: float, light: Vec3) -> float:
    point = origin.add(direction.scale(t))
    normal = point.sub(center).normalized()
    to_light = light.sub(point).normalized()
    diffuse = normal.dot(to_light)
    if diffuse < 0.0:
        diffuse = 0.0
    reflected = direction.sub(normal.scale(2.0 * direction.dot(normal)))
    tangent = normal.cross(reflected)
    return diffuse + 0.5 * reflected.z + 0.25 * tangent.length()


def vector_ops(width: int, height: int) -> float:
    origin = Vec3(0.0, 0.0, 0.0)
    light = Vec3(-10.0, 10.0, -5.0)
    c0 = Vec3(0.0, 0.0, 5.0)
    c1 = Vec3(1.5, -0.5, 6.0)
    c2 = Vec3(-1.2, 0.8, 4.5)
    total = 0.0
    for row in range(height):
        for col in range(width):
            px = (col + 0.5) / width * 2.0 - 1.0
            py = 1.0 - (row + 0.5) / height * 2.0
            direction = Vec3(px, py, 1.5).normalized()
            best = -1.0
            center = origin
            t = hit_distance(origin, direction, c0, 1.0)
            if t > 0.0:
                best = t
                center = c0
            t = hit_distance(origin, direction, c1, 0.8)
            if t > 0.0 and (best < 0.0 or t < best):
                best = t
                center = c1
            t = hit_distance(origin, direction, c2, 0.6)
            if t > 0.0 and (best < 0.0 or t < best):
                best = t
                center = c2
            if best > 0.0:
                total += shade(origin, direction, center, best, light)
            else:
                total += direction.cross(light).length() * 0.001
    return total
