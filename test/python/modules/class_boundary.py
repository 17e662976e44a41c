"""Classes at the boundary (issue 31): what Python does with instances of
compiled classes -- construction, attributes, methods, comparison, hashing,
pickling, garbage collection -- and compiled functions taking and returning
them. test_class_boundary.py runs it built and as plain CPython."""

from dataclasses import dataclass
from typing import Optional

import kiln


@kiln.export
class Vec:
    """A 2-D vector."""
    tag: int = 7

    def __init__(self, x: float, y: float = 0.0):
        self.x = x
        self.y = y

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y

    def scaled(self, k: float) -> "Vec":
        """A new vector, k times this one."""
        return Vec(self.x * k, self.y * k)

    def plus(self, other: "Vec") -> "Vec":
        return Vec(self.x + other.x, self.y + other.y)

    @staticmethod
    def unit(axis: int) -> "Vec":
        if axis == 0:
            return Vec(1.0, 0.0)
        return Vec(0.0, 1.0)

    def __add__(self, other: "Vec") -> "Vec":
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k: float) -> "Vec":
        return Vec(self.x * k, self.y * k)

    def __neg__(self) -> "Vec":
        return Vec(-self.x, -self.y)

    @property
    def is_zero(self) -> bool:
        return self.x == 0.0 and self.y == 0.0


@kiln.export
class Node:
    value: int
    left: Optional["Node"]
    right: Optional["Node"]

    def __init__(self, value: int, left: Optional["Node"] = None,
                 right: Optional["Node"] = None):
        if value < 0:
            raise ValueError("a node's value is never negative")
        self.value = value
        self.left = left
        self.right = right

    def sum_values(self) -> int:
        s = self.value
        if self.left is not None:
            s += self.left.sum_values()
        if self.right is not None:
            s += self.right.sum_values()
        return s

    def depth_at_most(self, limit: int) -> int:
        n = 0
        cur: Optional[Node] = self
        while cur is not None:
            n += 1
            if n > limit:
                raise IndexError("deeper than the limit")
            cur = cur.left
        return n


@kiln.export
@dataclass
class Point:
    x: int
    y: float = 0.0
    flag: bool = False


@kiln.export
@dataclass(frozen=True, order=True)
class Key:
    a: int
    b: float = 1.5


@kiln.export
class Money:
    def __init__(self, cents: int):
        self.cents = cents

    def __eq__(self, other: "Money") -> bool:
        return self.cents == other.cents

    def __lt__(self, other: "Money") -> bool:
        return self.cents < other.cents

    def __hash__(self) -> int:
        return self.cents * 31

    def __repr__(self) -> str:
        return f"Money({self.cents})"


@kiln.export
class Parent:
    child: Optional["Child"]

    def __init__(self, ident: int):
        self.ident = ident
        self.child = None


@kiln.export
class Child:
    parent: Optional[Parent]

    def __init__(self, ident: int):
        self.ident = ident
        self.parent = None


@kiln.export
class Holder:
    """A field that must be set before it is read."""
    item: Node
    count: int

    def __init__(self, count: int):
        self.count = count


@kiln.export
class Config:
    scale: float = 2.5
    steps: int = 3
    verbose: bool = True


@kiln.export
def sum_tree(node: Optional[Node]) -> int:
    if node is None:
        return 0
    return node.sum_values()


@kiln.export
def chain(n: int) -> Optional[Node]:
    head = None
    for i in range(n):
        head = Node(i, head, None)
    return head


@kiln.export
def graft(tree: Node, branch: Optional[Node]) -> Node:
    tree.left = branch
    return tree


@kiln.export
def family(ident: int) -> Parent:
    parent = Parent(ident)
    child = Child(ident + 1)
    parent.child = child
    child.parent = parent
    return parent


@kiln.export
def longest(a: Vec, b: Vec) -> Vec:
    if a.norm2() >= b.norm2():
        return a
    return b


@kiln.export
def same(a: Optional[Vec], b: Optional[Vec]) -> bool:
    return a is b
