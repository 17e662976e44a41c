"""Python lists of numbers (issue 30), used inside compiled functions: the
exported functions take and return numbers and arrays (lists cross the
boundary in list_boundary.py); helpers pass lists between Kiln functions.
Every function runs the same under CPython (test_lists.py compares)."""

import kiln


# ------------------------------------------------------------- helpers
def dump_float(ys: list[float], out: kiln.f64[:]) -> int:
    for i in range(len(ys)):
        out[i] = ys[i]
    return len(ys)


def dump_int(ys: list[int], out: kiln.i64[:]) -> int:
    for i in range(len(ys)):
        out[i] = ys[i]
    return len(ys)


def floats_of(a: kiln.f64[:]) -> list[float]:
    return [v for v in a]


def ints_of(a: kiln.i64[:]) -> list[int]:
    xs: list[int] = []
    for v in a:
        xs.append(v)
    return xs


def with_last_doubled(xs: list[int]) -> list[int]:
    ys = xs
    if len(ys) > 0:
        ys = ys + [ys[-1] * 2]
    return ys


def append_in_place(xs: list[int], v: int) -> None:
    xs.append(v)


# ----------------------------------------------------- building, growth
@kiln.export
def from_array(a: kiln.f64[:], out: kiln.f64[:]) -> int:
    return dump_float(floats_of(a), out)


@kiln.export
def append_range(n: int, out: kiln.i64[:]) -> int:
    xs = []
    for i in range(n):
        xs.append(i * i - 3)
    return dump_int(xs, out)


@kiln.export
def growth_digest(n: int) -> int:
    """Appends 0..n-1, then reads and pops everything back."""
    xs = []
    for i in range(n):
        xs.append(i)
        if xs[-1] != i or len(xs) != i + 1:
            return -1
    total = 0
    while xs:
        total = total * 3 + xs.pop()
    return total + len(xs)


@kiln.export
def literal_items(x: int, y: float, flag: bool) -> float:
    ints = [x, x + 1, -x]
    floats = [y, 1.5, float(x)]
    flags = [flag, not flag, True]
    return sum(ints) * 1.0 + sum(floats) + sum(flags) + len(ints + ints)


@kiln.export
def mixed_literal(x: int) -> float:
    xs = [x, 2.5]           # int and float join to float (docs/language.md)
    return xs[0] + xs[1]


@kiln.export
def annotated_empty(n: int) -> float:
    xs: list[float] = []
    for i in range(n):
        xs.append(i)        # an int stored into a list[float] is a float
    return sum(xs) + len(xs) + 0.5     # (CPython's sum of no item is the int 0)


@kiln.export
def widened_by_store(n: int) -> float:
    xs = [0] * n            # becomes list[float]: a float is stored below
    if n > 0:
        xs[0] = 0.5
    return sum(xs) + 0.0


@kiln.export
def list_of_range(start: int, stop: int, step: int, out: kiln.i64[:]) -> int:
    return dump_int(list(range(start, stop, step)), out)


# ---------------------------------------------------------- indexing
@kiln.export
def index_at(a: kiln.i64[:], i: int) -> int:
    xs = ints_of(a)
    return xs[i]


@kiln.export
def store_at(a: kiln.i64[:], i: int, v: int, out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    xs[i] = v
    xs[i] += 1
    xs[-1] *= 2
    return dump_int(xs, out)


@kiln.export
def pops(a: kiln.i64[:], i: int, out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    first = xs.pop(i)
    last = xs.pop()
    return first * 1000 + last * 10 + dump_int(xs, out)


@kiln.export
def inserts(a: kiln.i64[:], i: int, v: int, out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    xs.insert(i, v)
    xs.insert(-1, v + 1)
    xs.insert(0, v + 2)
    return dump_int(xs, out)


@kiln.export
def copies(a: kiln.i64[:], out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    ys = xs[:]
    zs = xs.copy()
    ws = list(xs)
    xs.append(7)
    ys.append(8)
    zs.clear()
    ws.reverse()
    return dump_int(xs + ys + zs + ws, out)


# ------------------------------------------------------ list operators
@kiln.export
def concat_repeat(a: kiln.i64[:], b: kiln.i64[:], n: int, out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    ys = ints_of(b)
    zs = xs + ys
    zs += xs
    zs.extend(ys)
    zs.extend(zs)
    ws = n * ys + ys * n
    ws *= 2
    return dump_int(zs + ws, out)


@kiln.export
def equality(a: kiln.f64[:], b: kiln.f64[:]) -> int:
    xs = floats_of(a)
    ys = floats_of(b)
    same = 1 if xs == ys else 0
    different = 2 if xs != ys else 0
    empty = 4 if xs == [] else 0
    return same + different + empty


@kiln.export
def truthiness(n: int) -> int:
    xs = []
    result = 0
    if not xs:
        result += 1
    for i in range(n):
        xs.append(i)
    if xs:
        result += 10
    if bool(xs) and len(xs) > 2:
        result += 100
    return result


# ------------------------------------------------------------ searches
@kiln.export
def searches(a: kiln.f64[:], v: float) -> int:
    xs = floats_of(a)
    found = 1 if v in xs else 0
    missing = 2 if v not in xs else 0
    return found + missing + 4 * xs.count(v)


@kiln.export
def int_in(a: kiln.f64[:], v: int) -> int:
    xs = floats_of(a)           # an int looked for among floats
    return xs.count(v) + (10 if v in xs else 0)


@kiln.export
def index_of(a: kiln.i64[:], v: int) -> int:
    return ints_of(a).index(v)


@kiln.export
def index_of_float(a: kiln.f64[:], v: float) -> int:
    return floats_of(a).index(v)


@kiln.export
def remove_value(a: kiln.i64[:], v: int, out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    xs.remove(v)
    return dump_int(xs, out)


# ---------------------------------------------------- sum, min, max, sort
@kiln.export
def sum_floats(a: kiln.f64[:]) -> float:
    return sum(floats_of(a), 0.0)


@kiln.export
def sum_ints(a: kiln.i64[:], start: int) -> int:
    return sum(ints_of(a), start)


@kiln.export
def min_of(a: kiln.f64[:]) -> float:
    return min(floats_of(a))


@kiln.export
def max_of(a: kiln.i64[:]) -> int:
    return max(ints_of(a))


@kiln.export
def extremes(a: kiln.i64[:], out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    xs.sort()
    return dump_int([min(xs), max(xs)] + xs, out)


@kiln.export
def sort_floats(a: kiln.f64[:], reverse: bool, out: kiln.f64[:]) -> int:
    xs = floats_of(a)
    ys = sorted(xs, reverse=reverse)
    xs.sort(reverse=True)
    return dump_float(ys + xs + sorted(ys), out)


@kiln.export
def bools(a: kiln.b1[:], out: kiln.i64[:]) -> int:
    xs = [bool(v) for v in a]
    xs.append(True)
    ys = sorted(xs)
    counts = [xs.count(True), xs.count(False), sum(xs), len(ys)]
    order = [1 if v else 0 for v in ys]
    return dump_int(counts + order + [1 if min(xs) else 0, 1 if max(xs) else 0], out)


@kiln.export
def index_of_bool(a: kiln.b1[:], v: bool) -> int:
    xs = [bool(x) for x in a]
    return xs.index(v)


# ------------------------------------------- names, aliasing, control flow
@kiln.export
def aliasing(n: int) -> int:
    a = [1, 2]
    b = a
    b.append(n)
    c = b
    c[0] = 10
    append_in_place(a, 5)
    d = a = a + [0]        # a is a new list now; b and c are the old one
    d.append(1)
    return len(a) * 10000 + len(b) * 1000 + sum(c) * 10 + len(d)


@kiln.export
def swap_names(n: int) -> int:
    a = [1] * n
    b = [2, 2]
    a, b = b, a
    a.append(3)
    return sum(a) * 100 + sum(b)


@kiln.export
def helpers_return_lists(n: int) -> int:
    xs = [i for i in range(n)]
    ys = with_last_doubled(xs)
    zs = with_last_doubled(with_last_doubled(ys))
    return len(xs) * 1000000 + len(zs) * 1000 + (zs[-1] if zs else -1)


@kiln.export
def reassigned_in_loop(n: int, out: kiln.i64[:]) -> int:
    xs = []
    for i in range(n):
        if i % 3 == 0:
            xs = [i]
        else:
            xs = xs + [i]
        ys = xs             # a name bound only inside the loop body
        ys.append(-i)
    return dump_int(xs, out)


@kiln.export
def branches(flag: bool, n: int, out: kiln.i64[:]) -> int:
    xs = [n]
    if flag:
        xs = [1, 2, 3]
        only_here = [4]
        xs.extend(only_here)
    else:
        xs.append(-1)
    if n > 2:
        ys = xs
    else:
        ys = [0]
    ys.append(9)
    return dump_int(xs + ys, out)


@kiln.export
def early_return(a: kiln.i64[:], v: int) -> int:
    xs = ints_of(a)
    seen = []
    for x in xs:
        here = [x, x]
        if x == v:
            return len(seen) * 100 + sum(here)
        seen.append(x)
    return -len(seen)


@kiln.export
def early_return_list_helper(a: kiln.i64[:], v: int) -> int:
    return len(first_run(ints_of(a), v))


def first_run(xs: list[int], v: int) -> list[int]:
    run = []
    for x in xs:
        if x == v:
            return run
        run.append(x)
    return xs


@kiln.export
def break_continue(a: kiln.i64[:], out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    kept = []
    i = 0
    while i < len(xs):
        chunk = [xs[i]]
        i += 1
        if xs[i - 1] < 0:
            continue
        if xs[i - 1] > 100:
            break
        kept.extend(chunk)
    return dump_int(kept, out)


@kiln.export
def iterate_while_appending(n: int) -> int:
    xs = [1]
    for v in xs:            # Python re-reads the length: the loop sees the appends
        if len(xs) < n:
            xs.append(v + 1)
    return sum(xs) * 1000 + len(xs)


@kiln.export
def iterate_while_popping(n: int) -> int:
    xs = [i for i in range(n)]
    steps = 0
    for v in xs:
        xs.pop()
        steps += v + 1
    return steps * 1000 + len(xs)


@kiln.export
def enumerate_zip(a: kiln.i64[:], b: kiln.f64[:]) -> float:
    xs = ints_of(a)
    ys = floats_of(b)
    total = 0.0
    for i, x in enumerate(xs):
        total += i * x
    for x, y in zip(xs, ys):
        total += x * y
    for y in ys + [0.5]:
        total -= y
    return total


# -------------------------------------------------------- comprehensions
@kiln.export
def comprehensions(n: int, out: kiln.i64[:]) -> int:
    pairs = [i * 100 + j for i in range(n) if i % 2 == 1 for j in range(i) if j != 1]
    squares = [v * v for v in pairs if v > 100]
    return dump_int(pairs + squares, out)


@kiln.export
def comprehension_scope(n: int) -> int:
    i = 100
    ys = [i * 2 for i in range(n)]
    return i + len(ys)


@kiln.export
def comprehension_over_list(a: kiln.f64[:], out: kiln.f64[:]) -> int:
    xs = floats_of(a)
    return dump_float([x * 2.0 for x in xs if x == x], out)


# ---------------------------------------------- floats, ints at the edge
@kiln.export
def special_floats(a: kiln.f64[:], out: kiln.f64[:]) -> int:
    xs = floats_of(a)
    nans = 0
    for x in xs:
        if x != x:
            nans += 1
    xs.append(float(nans))
    xs.append(float(xs.count(0.0)))
    return dump_float(xs, out)


@kiln.export
def int_extremes(a: kiln.i64[:], out: kiln.i64[:]) -> int:
    xs = ints_of(a)
    ys = sorted(xs)
    return dump_int([min(xs), max(xs), xs.index(max(xs))] + ys, out)


# ------------------------------------------------------------ memory
@kiln.export
def churn(n: int) -> int:
    """Builds, mutates, aliases and drops lists (the leak test calls it
    10^5 times)."""
    xs = [i for i in range(n)]
    ys = xs
    for k in range(3):
        ys = ys + [k]
        zs = sorted(ys, reverse=True)
        if zs:
            xs.append(zs[0])
    total = sum(with_last_doubled(xs)) + len(ys)
    if n > 5:
        return total
    return -total


@kiln.export(parallel=True)
def parallel_option_keeps_list_loops_sequential(a: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(a)):
        ys = [a[i], 1.0]
        total += ys[0] * ys[1]
    return total
