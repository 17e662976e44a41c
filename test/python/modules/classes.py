"""Native classes (issue 31) in compiled code: construction, fields,
methods, recursion through methods, Optional links, dataclasses with
their generated methods, dunders, properties and staticmethods
(test_classes.py compares each function with CPython)."""

from dataclasses import dataclass
from typing import Optional

import kiln


@kiln.export
class Tree:
    left: Optional["Tree"] = None
    right: "Tree | None" = None

    def __init__(self, key: int, weight: float = 1.0):
        self.key = key
        self.weight = weight

    def insert(self, key: int) -> None:
        if key < self.key:
            if self.left is None:
                self.left = Tree(key)
            else:
                self.left.insert(key)
        else:
            if self.right is None:
                self.right = Tree(key, weight=2.0)
            else:
                self.right.insert(key)

    def size(self) -> int:
        return 1 + (self.left.size() if self.left is not None else 0) + \
            (self.right.size() if self.right is not None else 0)

    def depth(self) -> int:
        a = self.left.depth() if self.left is not None else 0
        b = self.right.depth() if self.right is not None else 0
        return 1 + max(a, b)

    def total_weight(self) -> float:
        total = self.weight
        if self.left is not None:
            total += self.left.total_weight()
        if self.right is not None:
            total += self.right.total_weight()
        return total

    def contains(self, key: int) -> bool:
        node = self
        while node is not None:
            if key == node.key:
                return True
            node = node.left if key < node.key else node.right
        return False


@kiln.export
class Link:
    def __init__(self, value: int, next: Optional["Link"] = None):
        self.value = value
        self.next = next


@kiln.export
@dataclass(order=True)
class Point:
    x: float
    y: float = 0.0

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y

    def __add__(self, other: "Point") -> "Point":
        return Point(self.x + other.x, self.y + other.y)

    @property
    def swapped(self) -> "Point":
        return Point(self.y, self.x)

    @staticmethod
    def origin() -> "Point":
        return Point(0.0)


@kiln.export
@dataclass(frozen=True)
class Pair:
    a: int
    b: bool = False


@kiln.export
class Counter:
    step: int = 3
    total: int = 0

    def bump(self) -> int:
        self.total += self.step
        return self.total


@kiln.export
def tree_stats(n: int, seed: int) -> tuple[int, int, float]:
    root = Tree(seed % 100)
    x = seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        root.insert(x % 1000)
    return root.size(), root.depth(), root.total_weight()


@kiln.export
def tree_contains(n: int, probe: int) -> bool:
    root = Tree(500)
    for i in range(n):
        root.insert((i * 37) % 1000)
    return root.contains(probe)


@kiln.export
def linked_sum(n: int) -> int:
    head = None
    for i in range(n):
        head = Link(i, head)
    total = 0
    node = head
    while node is not None:
        total += node.value
        node = node.next
    return total


@kiln.export
def build_links(n: int) -> Optional["Link"]:
    head: Optional["Link"] = None
    for i in range(n):
        head = Link(i * i, next=head)
    return head


@kiln.export
def walk(head: Optional["Link"]) -> int:
    count = 0
    while head is not None:
        count += head.value
        head = head.next
    return count


@kiln.export
def point_sum(n: int) -> float:
    acc = Point.origin()
    for i in range(n):
        acc = acc + Point(float(i), 0.5)
    return acc.norm2() + acc.swapped.x


@kiln.export
def point_order(ax: float, ay: float, bx: float, by: float) -> tuple[bool, bool, bool, bool]:
    a = Point(ax, ay)
    b = Point(bx, y=by)
    return a < b, a <= b, a == b, a != b


@kiln.export
def point_text(x: float, y: float) -> str:
    p = Point(x, y)
    return f"{p} {p.swapped}"


@kiln.export
def make_point(x: float) -> "Point":
    return Point(x, x / 2)


@kiln.export
def scale(p: "Point", k: float) -> "Point":
    p.x = p.x * k
    p.y *= k
    return p


@kiln.export
def pair_eq(a: int, b: int) -> tuple[bool, bool, bool]:
    p = Pair(a)
    q = Pair(b, True)
    return p == q, p == Pair(a), p is p


@kiln.export
def bumps(n: int) -> int:
    c = Counter()
    last = 0
    for _ in range(n):
        last = c.bump()
    return last + c.step


@kiln.export
def none_attribute(n: int) -> int:
    head = build_links(n)
    return head.value


@kiln.export
def same_or_not(n: int) -> tuple[bool, bool, bool]:
    a = Link(n)
    b = a
    c = Link(n)
    return a is b, a is c, a is not None


@kiln.export
def keyword_order(x: int, y: int) -> float:
    # CPython evaluates the keywords as written: weight's ZeroDivisionError
    # comes before key's, whichever parameter comes first.
    t = Tree(weight=10.0 / x, key=10 % y)
    return t.weight + t.key


@kiln.export
def compared_with_itself(x: float) -> tuple[bool, bool, bool]:
    # A dataclass compares its fields' tuple, whose items are equal when
    # they are one object: a NaN field still makes p == p and p <= p.
    # (Two instances holding one NaN float object are equal in CPython too;
    # Kiln's fields hold no float objects: docs/language.md, "Classes".)
    p = Point(x, 1.0)
    return p == p, p <= p, p < p
