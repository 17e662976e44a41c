"""Exported classes with list fields (issue 31): `list[int]`, `list[float]`,
`list[bool]`, `list[str]` and `list[C]` attributes declared in the class
body, in `__init__` (`self.items: list[int] = []`) or inferred from what
`__init__` assigns; read, changed, rebound and shared by compiled methods
and functions (test_class_list_fields.py runs each against CPython and
changes the lists from Python through their views)."""
from __future__ import annotations

import math

import kiln


@kiln.export
class Bag:
    """One list of each item type, declared in the class body."""
    ints: list[int]
    floats: list[float]
    flags: list[bool]
    words: list[str]

    def __init__(self, n: int):
        self.ints = [0] * n
        self.floats = []
        self.flags = []
        self.words = []

    def add(self, x: int) -> None:
        self.ints.append(x)
        self.floats.append(x * 0.5)
        self.flags.append(x > 0)
        self.words.append(str(x))

    def total(self) -> int:
        t = 0
        for x in self.ints:
            t += x
        return t

    def ftotal(self) -> float:
        t = 0.0
        for x in self.floats:
            t += x
        return t

    def trues(self) -> int:
        n = 0
        for f in self.flags:
            if f:
                n += 1
        return n

    def joined(self) -> str:
        return "|".join(self.words)

    def sizes(self) -> int:
        return len(self.ints) * 1000000 + len(self.floats) * 10000 + \
            len(self.flags) * 100 + len(self.words)

    def largest(self) -> int:
        """The largest int (ints only compared, never added: the extremes
        stay exact)."""
        best = -9223372036854775807 - 1
        for x in self.ints:
            if x > best:
                best = x
        return best

    def smallest(self) -> int:
        best = 9223372036854775807
        for x in self.ints:
            if x < best:
                best = x
        return best

    def has(self, x: int) -> bool:
        return x in self.ints

    def nans(self) -> int:
        n = 0
        for x in self.floats:
            if math.isnan(x):
                n += 1
        return n

    def infinities(self) -> int:
        n = 0
        for x in self.floats:
            if math.isinf(x):
                n += 1 if x > 0 else -100
        return n

    def set_at(self, i: int, v: int) -> int:
        self.ints[i] = v
        return self.ints[i]

    def word_at(self, i: int) -> str:
        return self.words[i]

    def bump(self, i: int, by: int) -> int:
        self.ints[i] += by
        self.floats[i] *= 2.0
        return self.ints[i]

    def shout(self, i: int) -> str:
        return self.words[i].upper() + "/" + self.words[-1][::-1]

    def append_then_fail(self, x: int, i: int) -> int:
        """Appends, then reads self.ints[i] (IndexError when out of
        range): the instance keeps the appended item."""
        self.ints.append(x)
        self.words.append(f"w{x}")
        return self.ints[i]

    def store_then_fail(self, n: int, i: int) -> int:
        """A new list stored into the field, then a raise."""
        self.ints = [n] * n
        self.words = [str(n)] * n
        return self.ints[i]

    def append_then_raise(self, x: int, i: int) -> int:
        """Appends to two fields, then raises from a local list (IndexError
        when i is not 0)."""
        self.ints.append(x)
        self.words.append(str(x))
        xs = [1]
        return xs[i]

    def extend_in_place(self, x: int, times: int) -> int:
        """`self.ints += [...]` and `self.ints *= n` change the field's own
        list (a view of it held before sees the change)."""
        self.ints += [x, x + 1]
        self.floats += [x * 1.0]
        self.words += self.words
        self.ints *= times
        return len(self.ints)

    def rebind_while_iterating(self) -> int:
        """The loop runs over the list it started with (CPython's
        iterator keeps it); each step binds a new list to the field."""
        t = 0
        for x in self.ints:
            self.ints = [x * 2, t]
            t += x
        return t

    def grow_while_iterating(self, limit: int) -> int:
        """Appends to the list it iterates: the loop sees the new items."""
        n = 0
        for x in self.ints:
            if len(self.ints) < limit:
                self.ints.append(x + 1)
            n += 1
        return n

    def replace_all(self, xs: list[int]) -> None:
        """Stores an argument list into the field (the instance keeps the
        function's copy: the documented deviation)."""
        self.ints = xs

    def fill(self, n: int) -> int:
        self.ints = []
        self.floats = []
        for i in range(n):
            self.ints.append(i)
            self.floats.append(i * 0.25)
        return len(self.ints)

    def clear_all(self) -> None:
        self.ints.clear()
        self.floats.clear()
        self.flags.clear()
        self.words.clear()

    def reversed_sorted(self) -> None:
        self.ints.sort()
        self.ints.reverse()
        self.words.sort()


@kiln.export
class Inferred:
    """List fields found in `__init__`: annotated there, `[0] * n`,
    `[1.5, 2.0]`, `[True]`, and a parameter annotated `list[int]`."""

    def __init__(self, n: int, given: list[int]):
        self.zeros = [0] * n
        self.halves = [1.5, 2.0]
        self.bits = [True, False]
        self.names: list[str] = []
        self.given = given
        self.count = n

    def summary(self) -> float:
        t = 0.0
        for z in self.zeros:
            t += z
        for h in self.halves:
            t += h
        for b in self.bits:
            if b:
                t += 100.0
        for g in self.given:
            t += g * 1000.0
        return t + len(self.names) * 0.125 + self.count

    def name(self, s: str) -> int:
        self.names.append(s)
        self.zeros.append(len(s))
        return len(self.names)


@kiln.export
class Task:
    ident: int
    priority: int
    work: int

    def __init__(self, ident: int, priority: int, work: int):
        self.ident = ident
        self.priority = priority
        self.work = work


@kiln.export
class Scheduler:
    """A run queue in the style of richards: tasks taken from the front,
    put back at the end while they have work left."""
    tasks: list[Task]
    done: list[int]
    clock: int

    def __init__(self):
        self.tasks = []
        self.done = []
        self.clock = 0

    def add(self, t: Task) -> None:
        self.tasks.append(t)

    def spawn(self, n: int) -> int:
        for i in range(n):
            self.tasks.append(Task(i, (i * 7) % 5, i % 4 + 1))
        return len(self.tasks)

    def highest(self) -> int:
        """The ident of the first task of the highest priority, -1 when
        none."""
        if len(self.tasks) == 0:
            return -1
        best = 0
        for i in range(1, len(self.tasks)):
            if self.tasks[i].priority > self.tasks[best].priority:
                best = i
        return self.tasks[best].ident

    def total_work(self) -> int:
        t = 0
        for task in self.tasks:
            t += task.work
        return t

    def run(self, quantum: int) -> int:
        steps = 0
        while len(self.tasks) > 0:
            t = self.tasks.pop(0)
            t.work -= quantum
            self.clock += quantum
            if t.work > 0:
                self.tasks.append(t)
            else:
                self.done.append(t.ident)
            steps += 1
        return steps

    def promote(self, i: int) -> int:
        """Moves the i-th task to the front (IndexError when out of
        range)."""
        t = self.tasks.pop(i)
        self.tasks.insert(0, t)
        return t.ident

    def last(self) -> Task:
        return self.tasks[-1]


@kiln.export
def schedule(n: int, quantum: int) -> Scheduler:
    s = Scheduler()
    s.spawn(n)
    s.run(quantum)
    return s


@kiln.export
def pending(s: Scheduler) -> int:
    """Reads another object's list field from a function."""
    total = 0
    for t in s.tasks:
        total += t.ident * 10 + t.priority
    return total + len(s.done)


@kiln.export
class Tree:
    value: int
    children: list[Tree]
    parent: Tree | None

    def __init__(self, value: int):
        self.value = value
        self.children = []
        self.parent = None

    def add(self, child: Tree) -> None:
        self.children.append(child)
        child.parent = self

    def total(self) -> int:
        t = self.value
        for c in self.children:
            t += c.total()
        return t

    def depth(self) -> int:
        d = 0
        for c in self.children:
            cd = c.depth()
            if cd > d:
                d = cd
        return d + 1

    def size(self) -> int:
        n = 1
        for i in range(len(self.children)):
            n += self.children[i].size()
        return n

    def root_value(self) -> int:
        node = self
        while node.parent is not None:
            node = node.parent
        return node.value


@kiln.export
def grow(depth: int, width: int, value: int) -> Tree:
    """A tree built recursively by compiled code, the children pointing
    back at their parent (cycles through the list field)."""
    t = Tree(value)
    if depth > 0:
        for i in range(width):
            t.add(grow(depth - 1, width, value * width + i))
    return t


@kiln.export
def tree_numbers(depth: int, width: int) -> int:
    t = grow(depth, width, 1)
    leaf = t
    while len(leaf.children) > 0:
        leaf = leaf.children[len(leaf.children) - 1]
    return t.total() * 1000 + t.depth() * 100 + t.size() + leaf.root_value()


@kiln.export
def graphs(n: int) -> int:
    """Builds and drops n small graphs whose nodes point at each other
    through the list field and `parent`."""
    made = 0
    for i in range(n):
        root = Tree(i)
        child = Tree(i + 1)
        root.add(child)
        child.add(Tree(i + 2))
        child.children[0].children.append(root)
        made += root.size() if i < 0 else len(child.children)
    return made


@kiln.export
def share(a: Bag, b: Bag) -> int:
    """b's lists become a's (one list held by both instances)."""
    b.ints = a.ints
    b.words = a.words
    return len(b.ints)


@kiln.export
def push(xs: list[int], v: int) -> int:
    """Takes `obj.ints` (its view): the instance's own list, changed."""
    xs.append(v)
    xs[0] = v * 2
    return len(xs)


@kiln.export
def push_word(ws: list[str], w: str) -> int:
    ws.append(w)
    return len(ws)


@kiln.export
def make_bag(n: int) -> Bag:
    b = Bag(0)
    for i in range(n):
        b.add(i * 3 - n)
    return b


def number_bag(n: int) -> Bag:
    """A bag of numbers only."""
    b = Bag(0)
    for i in range(n):
        b.ints.append(i * 3 - n)
        b.floats.append(i * 0.5)
    return b


@kiln.export
def two_bags(n: int) -> int:
    """Lists moved between instances and bound to locals in compiled
    code."""
    a = number_bag(n)
    b = Bag(2)
    b.ints = a.ints
    a.ints = [7]
    xs = b.ints
    xs.append(5)
    b.floats = [1.0, 2.5]
    b.floats.extend(a.floats)
    return len(xs) * 100 + len(a.ints) * 10 + b.total() + len(b.floats)


@kiln.export
def build_then_fail(n: int, i: int) -> int:
    """Objects with lists made and then a raise (IndexError when i is out
    of range)."""
    b = number_bag(n)
    t = grow(2, 2, 1)
    return b.ints[i] + t.children[0].value


@kiln.export
def build_then_raise(n: int, i: int) -> int:
    """Objects with lists (and a cycle) made, then a raise from a local
    list (IndexError when i is not 0)."""
    b = number_bag(n)
    b.ints = [n] * n
    t = grow(1, 2, n)
    xs = [len(b.ints) + t.size()]
    return xs[i]


@kiln.export
def take(ts: list[Task], i: int) -> int:
    """Pops a task of a list argument (IndexError when out of range)."""
    return ts.pop(i).ident


@kiln.export
def stash_then_fail(s: Scheduler, t: Task, i: int) -> int:
    """A list bound to a local name, stored into a field, then a raise
    (IndexError when i is not 0)."""
    ts = [t, t]
    s.tasks = ts
    xs = [1]
    return xs[i]


@kiln.export
def drop_words(n: int) -> int:
    """An instance whose list[str] holds strings this call made, dropped
    by the call (the journal frees them at its end)."""
    b = Bag(0)
    b.words.append(str(n))
    b = Bag(1)
    return n


@kiln.export
def words_then_raise(n: int) -> int:
    """As drop_words, the instance dropped by a raise (IndexError)."""
    b = Bag(0)
    b.words.append(str(n))
    xs = [1]
    return xs[n]
