"""Lists of instances of exported classes (issue 31, "instances
everywhere values go"): built, searched, sliced and changed by compiled
code, passed in from Python and returned to it (test_class_lists.py runs
each against CPython)."""
from __future__ import annotations

import kiln


@kiln.export
class Body:
    x: float
    v: float

    def __init__(self, x: float, v: float):
        self.x = x
        self.v = v


@kiln.export
class Node:
    value: int
    next: Node | None

    def __init__(self, value: int):
        self.value = value
        self.next = None

    def grow(self, by: int) -> None:
        self.value += by

    def grown(self, by: int) -> int:
        return self.value + by


@kiln.export
class Tagged:
    tag: int

    def __init__(self, tag: int):
        self.tag = tag

    def __eq__(self, other: Tagged) -> bool:
        return self.tag == other.tag


@kiln.export
def simulate(n: int, steps: int) -> float:
    bodies: list[Body] = []
    for i in range(n):
        bodies.append(Body(float(i), 1.0 / (i + 1)))
    for _ in range(steps):
        for b in bodies:
            b.x += b.v
        for i in range(len(bodies) - 1):
            bodies[i].v += 0.5 * (bodies[i + 1].x - bodies[i].x)
    total = 0.0
    for b in bodies:
        total += b.x * 3.0 + b.v
    return total


@kiln.export
def made(n: int) -> list[Node]:
    return [Node(i * i) for i in range(n)]


@kiln.export
def linked(n: int) -> list[Node]:
    """Nodes that point at each other, in a list too."""
    nodes = [Node(i) for i in range(n)]
    for i in range(n - 1):
        nodes[i].next = nodes[i + 1]
    return nodes


@kiln.export
def total_then_append(xs: list[Node]) -> int:
    t = 0
    for x in xs:
        t += x.value
    xs.append(Node(t))
    return t


@kiln.export
def bump_all(xs: list[Node], by: int) -> None:
    for x in xs:
        x.value += by


@kiln.export
def operations(n: int) -> int:
    xs = [Node(i) for i in range(n)]
    a = Node(100)
    ys = [a, a, Node(7)]
    zs = xs + ys
    zs.insert(1, a)
    zs.extend(xs[1:3])
    zs = zs * 2
    total = len(zs) * 1000 + zs.count(a) * 100 + zs.index(a)
    zs.remove(a)
    total += len(zs)
    if a in zs:
        total += 1
    if Node(5) not in zs:
        total += 2
    ws = zs[::-1]
    ws.reverse()
    total += ws[0].value + ws[-1].value
    if ws == zs:
        total += 5
    if ws != xs:
        total += 11
    del zs[0]
    total += len(zs)
    zs.clear()
    return total + len(zs) + sum([x.value for x in xs])


@kiln.export
def pop_and_store(xs: list[Node], i: int) -> int:
    last = xs.pop()
    xs[i] = last
    first = xs.pop(0)
    xs.insert(-1, first)
    return last.value * 10 + first.value


@kiln.export
def replace_same(xs: list[Node], i: int) -> int:
    xs[i] = xs[i]
    return xs[i].value


@kiln.export
def index_of(xs: list[Node], x: Node) -> int:
    return xs.index(x)


@kiln.export
def remove_from(xs: list[Node], x: Node) -> int:
    xs.remove(x)
    return len(xs)


@kiln.export
def item(xs: list[Node], i: int) -> Node:
    return xs[i]


@kiln.export
def second_link(xs: list[Node], i: int) -> int:
    nxt = xs[i].next
    if nxt is None:
        return -1
    return nxt.value


@kiln.export
def collect_then_fail(x: Node, n: int) -> int:
    """Holds `x` in a list, then raises (IndexError) when n > 3."""
    keep = [x, x, Node(1)]
    keep.append(x)
    return keep[n].value


@kiln.export
def swap_lists(xs: list[Node], ys: list[Node]) -> int:
    xs.append(ys.pop())
    ys.append(xs[0])
    return len(xs) * 10 + len(ys)


@kiln.export
def bodies_and_nodes(bs: list[Body], ns: list[Node]) -> float:
    bs.append(Body(1.0, 2.0))
    ns.append(Node(3))
    return bs[-1].x + ns[-1].value


@kiln.export
def tags_by_loop(xs: list[Tagged], t: Tagged) -> int:
    count = 0
    for x in xs:
        if x == t:
            count += 1
    return count


@kiln.export
def read_then_replace(z: Node) -> int:
    """`y` keeps the instance the list let go of (xs[0] = z, then clear)."""
    xs = [Node(5)]
    y = xs[0]
    xs[0] = z
    made = [Node(i + 100) for i in range(50)]
    w = xs[0]
    xs.clear()
    made.append(Node(7))
    return y.value * 1000 + w.value + len(made)


@kiln.export
class Shape:
    size: float

    def __init__(self, size: float):
        self.size = size

    def area(self) -> float:
        return self.size * self.size


@kiln.export
class Circle(Shape):
    def area(self) -> float:
        return 3.0 * self.size * self.size


@kiln.export
def total_area(shapes: list[Shape]) -> float:
    total = 0.0
    for s in shapes:
        total += s.area()
    return total


@kiln.export
def mixed_shapes(n: int) -> list[Shape]:
    shapes = [Shape(1.0), Circle(2.0)]
    for i in range(n):
        if i % 2 == 0:
            shapes.append(Circle(float(i)))
        else:
            shapes.append(Shape(float(i)))
    c = Circle(5.0)
    shapes.insert(0, c)
    if c in shapes:
        shapes[1] = c
    return shapes


def grow_items(xs: list[Node], by: int) -> int:
    """Methods called on items (`xs[i].grow(by)`, `xs[-1].grown(1)`), and
    a list compared with its slices (a slice is a list, not an item)."""
    for i in range(len(xs)):
        xs[i].grow(by)
    same = int(xs == xs[:]) * 1000 + int(xs != xs[::-1]) * 100
    return xs[-1].grown(1) + xs[0].grown(0) + same


@kiln.export
def pair(a: int) -> tuple[Node, Node]:
    return Node(a), Node(a + 1)


@kiln.export
def pair_grown(a: int) -> int:
    """Methods called on a tuple's instances and on a slice's item."""
    t = pair(a)
    ys = [t[0], t[1]]
    return t[0].grown(1) + t[1].grown(10) + ys[1:][0].grown(100)
