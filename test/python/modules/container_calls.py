"""heapq, bisect, collections.defaultdict and Counter on Kiln's lists and
dicts (issue 30). Every function runs the same under CPython
(test_container_calls.py compares results, exceptions and the lists passed
in, as whole lists)."""

import bisect
import collections
import heapq
import heapq as hq
from bisect import bisect_left, insort
from collections import Counter, defaultdict
from heapq import heappop, heappush

import kiln

PUSH = 0
POP = 1
PUSH_POP = 2
REPLACE = 3


# ------------------------------------------------------------------ heapq
@kiln.export
def heap_run(heap: list[int], kinds: list[int], values: list[int]) -> list[int]:
    """Applies kinds[i] (PUSH, POP, PUSH_POP, REPLACE) with values[i] to
    `heap`; returns what the pops gave (the heap itself is the caller's)."""
    popped: list[int] = []
    for i in range(len(kinds)):
        kind = kinds[i]
        if kind == PUSH:
            heappush(heap, values[i])
        elif kind == POP:
            popped.append(heappop(heap))
        elif kind == PUSH_POP:
            popped.append(heapq.heappushpop(heap, values[i]))
        else:
            popped.append(hq.heapreplace(heap, values[i]))
    return popped


@kiln.export
def heap_run_float(heap: list[float], kinds: list[int], values: list[float]) -> list[float]:
    popped: list[float] = []
    for i in range(len(kinds)):
        kind = kinds[i]
        if kind == PUSH:
            heapq.heappush(heap, values[i])
        elif kind == POP:
            popped.append(heapq.heappop(heap))
        elif kind == PUSH_POP:
            popped.append(heapq.heappushpop(heap, values[i]))
        else:
            popped.append(heapq.heapreplace(heap, values[i]))
    return popped


@kiln.export
def heapify_int(xs: list[int]) -> None:
    heapq.heapify(xs)


@kiln.export
def heapify_float(xs: list[float]) -> None:
    heapq.heapify(xs)


@kiln.export
def heapify_bool(xs: list[bool]) -> bool:
    heapq.heapify(xs)
    return heapq.heappop(xs)


@kiln.export
def heap_sort(xs: list[float]) -> list[float]:
    """Pushes each item into a new heap, then pops them all."""
    heap = []
    for x in xs:
        heappush(heap, x)
    return [heappop(heap) for _ in range(len(heap))]


@kiln.export
def pop_empty(n: int) -> int:
    heap: list[int] = []
    for i in range(n):
        heappush(heap, i)
    return heappop(heap) + heappop(heap)


@kiln.export
def replace_empty(n: int) -> int:
    heap: list[int] = list(range(n))
    return heapq.heapreplace(heap, 5)


@kiln.export
def smallest(xs: list[int], n: int) -> list[int]:
    return heapq.nsmallest(n, xs) + [-1000] + heapq.nlargest(n, xs)


@kiln.export
def smallest_float(xs: list[float], n: int) -> list[float]:
    return heapq.nsmallest(n, xs) + heapq.nlargest(n, xs)


@kiln.export
def shortest_paths(starts: list[int], ends: list[int], weights: list[int], nodes: int) -> list[int]:
    """Dijkstra over edges with a heap of ints: distance * nodes + node
    encodes the (distance, node) pair a heap of tuples would hold."""
    distance = [-1] * nodes
    heap = [0]
    while heap:
        entry = heappop(heap)
        at, reached = entry % nodes, entry // nodes
        if distance[at] >= 0:
            continue
        distance[at] = reached
        for e in range(len(starts)):
            if starts[e] == at and distance[ends[e]] < 0:
                heappush(heap, (reached + weights[e]) * nodes + ends[e])
    return distance


# ----------------------------------------------------------------- bisect
@kiln.export
def search(xs: list[int], x: int, lo: int, hi: int) -> list[int]:
    return [bisect.bisect_left(xs, x), bisect.bisect_right(xs, x), bisect.bisect(xs, x),
            bisect_left(xs, x, lo), bisect.bisect_right(xs, x, lo), bisect.bisect_left(xs, x, lo, hi),
            bisect.bisect_right(xs, x, lo=lo, hi=hi), bisect.bisect(xs, x, hi=hi)]


@kiln.export
def search_float(xs: list[float], x: float) -> list[int]:
    return [bisect.bisect_left(xs, x), bisect.bisect_right(xs, x)]


@kiln.export
def search_mixed(xs: list[int], x: float) -> int:
    """A float looked for among ints: compared exactly, as CPython does."""
    return bisect.bisect_left(xs, x) * 1000 + bisect.bisect_right(xs, x)


@kiln.export
def insert_all(xs: list[int], values: list[int], lo: int) -> int:
    for v in values:
        insort(xs, v)
        bisect.insort_left(xs, v, lo)
        bisect.insort_right(xs, v, lo=lo, hi=len(xs))
    return len(xs)


@kiln.export
def insert_float(xs: list[float], v: float) -> None:
    bisect.insort_left(xs, v)
    bisect.insort_right(xs, v)


# ------------------------------------------------ defaultdict and Counter
@kiln.export
def word_counts(words: list[int]) -> dict[int, int]:
    counts = defaultdict(int)
    for w in words:
        counts[w] += 1
    return dict(counts)


@kiln.export
def sums_by_key(keys: list[int], values: list[float]) -> dict[int, float]:
    totals: collections.defaultdict[int, float] = collections.defaultdict(float)
    for i in range(len(keys)):
        totals[keys[i] % 7] += values[i]
        totals[keys[i] % 7] *= 0.5
    return dict(totals)


@kiln.export
def reads_insert(keys: list[int]) -> dict[int, int]:
    """A defaultdict's read inserts the key (at the end), even when only read."""
    d = defaultdict(int)
    seen = 0
    for k in keys:
        seen += d[k % 5]
        d[k] = seen
    d[100] = len(d)
    return dict(d)


@kiln.export
def lambda_default(keys: list[int]) -> dict[int, int]:
    d = defaultdict(lambda: 10)
    for k in keys:
        d[k] -= k
    return dict(d)


@kiln.export
def flags(keys: list[int]) -> dict[int, bool]:
    d = defaultdict(bool)
    for k in keys:
        if not d[k % 4]:
            d[k] = True
    return dict(d)


@kiln.export
def default_untouched(keys: list[int]) -> list[int]:
    """`in`, get and len do not insert."""
    d = defaultdict(int)
    d[0] += 1
    found = 0
    for k in keys:
        if k in d:
            found += 1
        found += d.get(k, 100)
    return [found, len(d)]


def bump(d: defaultdict[int, int], k: int) -> int:
    d[k] += 1
    return d[k + 1]


@kiln.export
def defaultdict_helper(keys: list[int]) -> dict[int, int]:
    d: defaultdict[int, int] = defaultdict(int)
    for k in keys:
        bump(d, k)
    return dict(d)


@kiln.export
def defaultdict_argument(d: defaultdict[int, int], keys: list[int]) -> int:
    total = 0
    for k in keys:
        total += d[k]
    return total


@kiln.export
def counter_of(xs: list[int]) -> dict[int, int]:
    return dict(Counter(xs))


@kiln.export
def counter_reads(xs: list[int], k: int) -> dict[int, int]:
    """A Counter's read of a missing key gives 0 and inserts nothing; its
    `del` ignores a missing key."""
    c = Counter(xs)
    missing = c[k + 100]
    c[k] += missing + 1
    del c[k + 200]
    del c[xs[0] if xs else 0]
    e = collections.Counter()
    for x in xs:
        e[x * 2] += c[x]
    c[-1] = len(e) + len(c)
    return dict(c)


@kiln.export
def counter_floats(xs: list[float]) -> dict[float, int]:
    c: Counter[float] = Counter()
    for x in xs:
        c[x] += 1
    return dict(c)


@kiln.export
def counter_argument(c: Counter[int], keys: list[int]) -> int:
    total = 0
    for k in keys:
        total += c[k]
    return total * 1000 + len(c)
