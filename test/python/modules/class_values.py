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


@kiln.export
def raising_after_index(xs: list[float], i: int, n: int) -> float:
    # xs[i - 1] may wrap (a negative index): the raise after it must still
    # release `v` (kiln-lower-checks' wrap block joins the paths again).
    v = Vec(xs[i], 1.0)
    w = xs[i - 1]
    return v.x + w + 10 // n


@kiln.export
def raising_after_array_expression(vs: list[Vec], a: kiln.f64[:], n: int) -> float:
    # An array expression's loop between taking the references and the
    # raise: the error exit must still release `v` (the caller's instance)
    # and `w` (a new one); kiln-lower-checks looked for them through
    # single-predecessor blocks only (fuzzer S9, seed 30405's f106).
    v = vs[1]
    w = Vec(2.0, 1.0)
    b = a * 2.0 + v.x
    return float(b.sum()) + w.y + 10 // n


# Functions that would release the GIL (parallel=True, array parameters)
# but make or hold instances -- only in a list, through a helper, or as a
# temporary no variable holds: the GIL stays (fuzzer S9, seed 30405's f146
# crashed in CPython's allocator without it).
@kiln.export(parallel=True)
def instances_in_a_parallel_function(a: kiln.f64[:], n: int) -> float:
    vs = [Vec(float(k), 1.0) for k in range(n)]
    b = a * 2.0
    return float(b.sum()) + len(vs)


def vec_y(x: float) -> float:
    v = Vec(x, 1.5)
    return v.y


@kiln.export(parallel=True)
def helper_makes_instances(a: kiln.f64[:]) -> float:
    return float((a * 2.0).sum()) + vec_y(1.0)


@kiln.export
def temporary_instance(x: float, a: kiln.f64[:]) -> float:
    return Vec(x, 2.0).y + float(a.sum())


@kiln.export
class Bag:
    def __init__(self, count: int):
        self.count = count

    def __len__(self) -> int:
        return self.count


@kiln.export
class Flag:
    def __init__(self, on: bool, fail: bool = False):
        self.on = on
        self.fail = fail

    def __bool__(self) -> bool:
        if self.fail:
            raise ValueError("no truth")
        return self.on


@kiln.export
def walk_by_truth(n: int) -> int:
    cur = chain(n)
    total = 0
    while cur:
        total += cur.value
        cur = cur.next
    return total


@kiln.export
def truth_of_nodes(n: int) -> tuple[bool, bool, bool, bool]:
    head = chain(n)
    empty = not head
    some = head is not None
    first = True if head else False
    both = True if head and head.value > 0 else False
    return empty, some, first, both


@kiln.export
def bag_truth(count: int) -> tuple[bool, bool, int]:
    bag = Bag(count)
    kept = 0
    if bag:
        kept += 1
    if not bag:
        kept += 10
    return not bag, bag.count > 0 and not not bag, kept


@kiln.export
def maybe_bag_truth(count: int) -> int:
    bag: Optional[Bag] = None
    if count >= 0:
        bag = Bag(count)
    return 1 if bag else 0


@kiln.export
def flag_truth(on: bool, fail: bool) -> int:
    flag = Flag(on, fail)
    hits = 0
    if flag:
        hits += 1
    while flag and hits < 5:
        hits += 1
    return hits


@kiln.export
def maybe_flag_truth(on: bool, present: bool) -> bool:
    flag: Optional[Flag] = Flag(on) if present else None
    return not flag


@kiln.export
def find(head: Optional[Node], wanted: int) -> Optional[Node]:
    cur = head
    while cur is not None:
        if cur.value == wanted:
            return cur
        cur = cur.next


@kiln.export
def find_value(n: int, wanted: int) -> int:
    found = find(chain(n), wanted)
    return -1 if found is None else found.value
