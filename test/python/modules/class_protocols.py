"""Container protocols and class constants of compiled classes
(test_class_protocols.py runs it compiled and as Python)."""

import kiln


@kiln.export
class Grid:
    EMPTY = 0
    WALL = 1
    SCALE = 2.5
    OPEN = True
    LABEL = "grid\u00e9"

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.marked = 0

    def __len__(self) -> int:
        return self.width * self.height

    def __getitem__(self, i: int) -> int:
        if i < 0 or i >= self.width * self.height:
            raise IndexError("grid index out of range")
        return Grid.WALL if i % self.width == 0 else self.EMPTY

    def __setitem__(self, i: int, value: int) -> None:
        if i >= len(self):
            raise IndexError("grid assignment index out of range")
        self.marked += value

    def __contains__(self, value: int) -> bool:
        return value == Grid.EMPTY or value == self.WALL


@kiln.export
class Counter:
    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __contains__(self, x: int) -> int:       # a truthy int, not a bool
        return x % 3


@kiln.export
class Named:
    def __init__(self, name: str):
        self.name = name

    def __getitem__(self, key: str) -> str:
        return self.name + "." + key

    def __contains__(self, part: str) -> bool:
        return part in self.name


@kiln.export
class Shelf:
    KIND = "shelf"
    last: Grid | None = None

    def __init__(self, size: int):
        self.size = size

    def __getitem__(self, g: Grid) -> int:
        return len(g) + self.size

    def __setitem__(self, g: Grid, other: Grid) -> None:
        self.last = other

    def __len__(self) -> int:
        return self.size

    def __bool__(self) -> bool:
        return self.size > 1

    def describe(self) -> str:
        return self.KIND + str(len(self))


@kiln.export
class WideShelf(Shelf):
    def __getitem__(self, g: Grid) -> int:
        return 100 + g.width

    def __len__(self) -> int:
        return 2 * self.size


@kiln.export
class Plain:
    def __init__(self, x: int):
        self.x = x


@kiln.export
def grid_len(w: int, h: int) -> int:
    return len(Grid(w, h))


@kiln.export
def grid_truth(w: int, h: int) -> bool:
    return bool(Grid(w, h))


@kiln.export
def grid_cells(g: Grid, n: int) -> int:
    total = 0
    for i in range(n):
        total = total * 3 + g[i]
    return total


@kiln.export
def grid_mark(g: Grid, i: int, v: int) -> int:
    g[i] = v
    g[i + 1] = v * 2
    return g.marked


@kiln.export
def grid_has(g: Grid, v: int) -> int:
    return (v in g) + 2 * (v not in g)


@kiln.export
def counter_len(n: int) -> int:
    c = Counter(n)
    return len(c) + (1 if c else 0)


@kiln.export
def counter_bool(c: Counter) -> bool:
    return bool(c)


@kiln.export
def counter_has(c: Counter, x: int) -> bool:
    return x in c


@kiln.export
def counter_lacks(c: Counter, x: int) -> bool:
    return x not in c


@kiln.export
def maybe_len(c: Counter | None) -> int:
    return len(c)


@kiln.export
def maybe_bool(c: Counter | None) -> bool:
    return bool(c)


@kiln.export
def maybe_item(g: Grid | None, i: int) -> int:
    return g[i]


@kiln.export
def maybe_store(g: Grid | None, i: int) -> None:
    g[i] = 1


@kiln.export
def maybe_in(g: Grid | None, i: int) -> bool:
    return i in g


@kiln.export
def named_item(n: Named, key: str) -> str:
    return n[key] + n["x"]


@kiln.export
def named_has(n: Named, part: str) -> bool:
    return part in n and "zz" not in n


@kiln.export
def shelf_item(s: Shelf, w: int) -> int:
    g = Grid(w, 2)
    s[g] = Grid(1, 1)
    return s[g] + len(s) + (10 if s else 0)


@kiln.export
def shelf_last_width(s: Shelf) -> int:
    s[Grid(1, 1)] = Grid(7, 1)
    last = s.last
    return last.width if last is not None else -1


@kiln.export
def constants(g: Grid, s: Shelf) -> float:
    return Grid.SCALE * g.width + Grid.WALL + g.EMPTY + (1 if Grid.OPEN else 0) + \
        len(Grid.LABEL) + len(s.describe()) + len(Shelf.KIND) + len(WideShelf.KIND)


@kiln.export
def label(g: Grid) -> str:
    return g.LABEL + "/" + Grid.LABEL
