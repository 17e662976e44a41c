"""Instances of compiled classes as values (issue 31): in tuples (returned,
unpacked, kept in locals, indexed), their truth (`__bool__`, `__len__`,
None) and results that fall off the end (test_class_values.py compares
each function with CPython)."""

from dataclasses import dataclass
from typing import Optional

import kiln


@kiln.export
class Node:
    def __init__(self, value: int, next: Optional["Node"] = None):
        self.value = value
        self.next = next


@kiln.export
@dataclass
class Vec:
    x: float
    y: float = 0.0

    def halves(self) -> tuple["Vec", "Vec"]:
        return Vec(self.x / 2, self.y / 2), Vec(self.x / 2, self.y / 2)

    def with_norm(self) -> tuple["Vec", float]:
        return self, self.x * self.x + self.y * self.y


@kiln.export
def chain(n: int) -> Optional[Node]:
    head: Optional[Node] = None
    for i in range(n):
        head = Node(i, head)
    return head


@kiln.export
def split(v: Vec) -> tuple[Vec, Vec]:
    return Vec(v.x), Vec(0.0, v.y)


@kiln.export
def node_and_next(n: int) -> tuple[Node, int]:
    return Node(n), n + 1


@kiln.export
def pop_front(head: Optional[Node]) -> tuple[Optional[Node], Optional[Node]]:
    if head is None:
        return None, None
    return head, head.next


@kiln.export
def unpacked(x: float, y: float) -> float:
    a, b = split(Vec(x, y))
    c, d = b, a
    return a.x + b.y * 10.0 + c.y * 100.0 + d.x * 1000.0


@kiln.export
def tuple_locals(n: int) -> int:
    t = node_and_next(n)
    first = t[0]
    t = node_and_next(n + 1)
    u = pop_front(chain(n))
    total = t[0].value + t[1] + first.value
    if u[0] is not None:
        total += u[0].value * 10
    if u[1] is not None:
        total += u[1].value * 100
    return total + node_and_next(3)[0].value + node_and_next(4)[1]


@kiln.export
def drain(n: int) -> int:
    head = chain(n)
    count = 0
    while head is not None:
        front, head = pop_front(head)
        if front is not None:
            count += front.value
    return count


@kiln.export
def halves_sum(x: float, y: float) -> float:
    v = Vec(x, y)
    a, b = v.halves()
    same, norm = v.with_norm()
    return a.x + b.y + norm + same.x + v.halves()[1].x


@kiln.export
def shared_twice(n: int) -> tuple[Node, Node, int]:
    a = Node(n)
    return a, a, n


@kiln.export
def pass_through(node: Node, v: Vec) -> tuple[Vec, Node]:
    return v, node


@kiln.export
def raising_after_tuple(n: int) -> int:
    a, b = split(Vec(float(n), 1.0))
    return 10 // n + int(a.x + b.y)
