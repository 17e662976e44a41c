"""heapq, bisect, collections.defaultdict and Counter (issue 30) against
CPython running the same source (modules/container_calls.py): heaps after
random push/pop/pushpop/replace sequences compared as whole lists (the
layout, not only the popped values), empty heaps, duplicates, NaN floats;
bisect on sorted lists with duplicates and lo/hi at and past the edges;
counters over random ints; defaultdicts updated with `+=` in loops. The
refusals (a heap of tuples, most_common, Counter arithmetic, ...) are
pinned at the end with their positions."""

import collections
import math
import random

import pytest

from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

from conftest import outcome

MODULE = "container_calls"
PUSH, POP, PUSH_POP, REPLACE = 0, 1, 2, 3


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def shown(value):
    """A value as compared: repr tells -0.0 from 0.0 and int from float,
    and shows every NaN alike (`nan`)."""
    return repr(value)


def copied(value):
    if isinstance(value, collections.Counter):
        return collections.Counter(value)
    if isinstance(value, collections.defaultdict):
        return collections.defaultdict(value.default_factory, value)
    return value.copy() if isinstance(value, (list, dict)) else value


def same(mod, name, *args):
    """The native function and CPython agree on the result, the exception
    and every list or dict argument afterwards (whole lists)."""
    copies = [copied(a) for a in args]
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *copies)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert shown(got) == shown(want), (name, copies, got, want)
    for native_arg, python_arg in zip(args, copies):
        assert shown(native_arg) == shown(python_arg), (name, native_arg, python_arg)
    return got


def test_everything_compiles(mod):
    import json
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["fallbacks"] == []


# ------------------------------------------------------------------ heapq
def random_run(rng, length, value):
    kinds = [rng.choice([PUSH, PUSH, POP, PUSH_POP, REPLACE]) for _ in range(length)]
    return kinds, [value() for _ in range(length)]


@pytest.mark.parametrize("seed", range(40))
def test_heap_sequences_keep_cpythons_layout(mod, seed):
    """Random pushes, pops, pushpops and replaces on random (mostly
    non-heap) starting lists: each call's layout is CPython's, so the whole
    list after the run is; an IndexError on an empty heap is CPython's."""
    rng = random.Random(seed)
    span = rng.choice([3, 10, 1000])           # 3: many duplicates
    start = [rng.randrange(-span, span) for _ in range(rng.randrange(0, 30))]
    kinds, values = random_run(rng, rng.randrange(0, 80), lambda: rng.randrange(-span, span))
    same(mod, "heap_run", start, kinds, values)
    heap = start.copy()
    same(mod, "heapify_int", heap)
    same(mod, "heap_run", heap, kinds, values)


def special_float(rng):
    return rng.choice([math.nan, -0.0, 0.0, math.inf, -math.inf, 1.5, -2.0,
                       rng.uniform(-3, 3), float(rng.randrange(-3, 3))])


@pytest.mark.parametrize("seed", range(30))
def test_float_heaps_with_nans_zeros_and_infinities(mod, seed):
    """NaN compares false both ways, so a heap holding one is not ordered,
    and CPython's and Kiln's lists are the same unordered list; -0.0 and
    0.0 keep their places as equal items do."""
    rng = random.Random(1000 + seed)
    start = [special_float(rng) for _ in range(rng.randrange(0, 25))]
    kinds, values = random_run(rng, rng.randrange(0, 60), lambda: special_float(rng))
    same(mod, "heap_run_float", start, kinds, values)
    same(mod, "heapify_float", start.copy())
    same(mod, "heap_sort", start)


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 100, 2501, 6000])
def test_heapify_sizes(mod, length):
    """Above 2500 items CPython's heapify sifts in another (cache-friendly)
    order, which gives the same layout."""
    rng = random.Random(length)
    same(mod, "heapify_int", [rng.randrange(-50, 50) for _ in range(length)])
    same(mod, "heapify_float", [rng.uniform(-1, 1) for _ in range(length)])
    same(mod, "heapify_bool", [rng.random() < 0.5 for _ in range(length)])


def test_empty_heaps_raise_cpythons_index_error(mod):
    assert outcome(mod.native.heap_run, [], [POP], [0])[1] == ("IndexError",
                                                                "index out of range")
    for name, args in [("pop_empty", (0,)), ("pop_empty", (1,)), ("pop_empty", (2,)),
                       ("replace_empty", (0,)), ("replace_empty", (3,)),
                       ("heap_run", ([], [REPLACE], [1])), ("heap_run", ([], [PUSH_POP], [4])),
                       ("heapify_bool", ([],))]:
        same(mod, name, *args)


@pytest.mark.parametrize("seed", range(10))
def test_nsmallest_and_nlargest(mod, seed):
    rng = random.Random(seed)
    xs = [rng.randrange(-4, 4) for _ in range(rng.randrange(0, 20))]
    for n in (-2, 0, 1, 2, 5, len(xs), len(xs) + 3):
        same(mod, "smallest", xs, n)
        same(mod, "smallest_float", [x * 0.0 if x == 0 else x / 2 for x in xs], n)
        same(mod, "smallest_float", [-0.0 if x < 0 else 0.0 for x in xs], n)


def test_dijkstra_on_a_heap_of_ints(mod):
    rng = random.Random(5)
    nodes = 30
    edges = [(rng.randrange(nodes), rng.randrange(nodes), rng.randrange(1, 20))
             for _ in range(120)]
    starts, ends, weights = (list(column) for column in zip(*edges))
    same(mod, "shortest_paths", starts, ends, weights, nodes)


# ----------------------------------------------------------------- bisect
@pytest.mark.parametrize("seed", range(40))
def test_bisect_with_duplicates_and_bounds(mod, seed):
    """lo and hi at, inside and past the ends: lo < 0 is CPython's
    ValueError, hi past the length its IndexError, hi=-1 the length (the
    C default), a hi below lo the position lo."""
    rng = random.Random(seed)
    xs = sorted(rng.randrange(-5, 5) for _ in range(rng.randrange(0, 15)))
    for _ in range(10):
        x = rng.randrange(-7, 7)
        lo = rng.randrange(-2, len(xs) + 3)
        hi = rng.choice([-1, -2, rng.randrange(0, len(xs) + 1), len(xs) + 2])
        same(mod, "search", xs, x, lo, hi)
        same(mod, "search_mixed", xs, x + rng.choice([0.0, 0.5, -0.5]))
    values = [rng.randrange(-6, 6) for _ in range(rng.randrange(0, 6))]
    same(mod, "insert_all", xs, values, rng.randrange(0, 3))
    same(mod, "insert_all", xs, values, -1)


def test_bisect_floats(mod):
    xs = [-math.inf, -1.0, -0.0, 0.0, 0.0, 2.5, math.inf]
    for x in [-0.0, 0.0, 2.5, math.inf, -math.inf, math.nan, 3.0]:
        same(mod, "search_float", xs, x)
        same(mod, "insert_float", xs.copy(), x)
    same(mod, "search_float", [1.0, math.nan, 3.0], 2.0)


# ------------------------------------------------ defaultdict and Counter
@pytest.mark.parametrize("seed", range(25))
def test_counters_and_defaultdicts_over_random_ints(mod, seed):
    rng = random.Random(seed)
    keys = [rng.randrange(-8, 8) for _ in range(rng.randrange(0, 60))]
    values = [rng.uniform(-5, 5) for _ in keys]
    k = rng.randrange(-8, 8)
    for name, args in [("word_counts", (keys,)), ("sums_by_key", (keys, values)),
                       ("reads_insert", (keys,)), ("lambda_default", (keys,)),
                       ("flags", (keys,)), ("default_untouched", (keys,)),
                       ("defaultdict_helper", (keys,)), ("counter_of", (keys,)),
                       ("counter_reads", (keys, k)),
                       ("counter_floats", ([x / 2 for x in keys] + [-0.0, 0.0, math.nan],))]:
        same(mod, name, *args)


def test_defaultdict_and_counter_arguments(mod):
    """A defaultdict[int, int] or Counter[int] parameter takes the caller's
    object: the function's missing-key reads insert (defaultdict) or give 0
    (Counter), and the caller's object sees the inserted keys."""
    keys = [1, 2, 3, 2, 9]
    same(mod, "defaultdict_argument", collections.defaultdict(int, {2: 5}), keys)
    same(mod, "counter_argument", collections.Counter([1, 1, 2]), keys)


# ---------------------------------------------------------- refusals
REFUSED = '''import heapq
import bisect
import collections
from collections import Counter, defaultdict
import kiln


@kiln.export
def tuple_heap(n: int) -> int:
    heap = []
    heapq.heappush(heap, (n, 1))
    return len(heap)


@kiln.export
def common(xs: list[int]) -> int:
    c = Counter(xs)
    return len(c.most_common(2))


@kiln.export
def counter_sum(xs: list[int]) -> int:
    c = Counter(xs)
    e = c + c
    return len(e)


@kiln.export
def keyed(xs: list[int]) -> int:
    return bisect.bisect_left(xs, 3, key=abs)


@kiln.export
def list_factory(n: int) -> int:
    d = defaultdict(list)
    return len(d)


@kiln.export
def class_changed(n: int) -> int:
    d: dict[int, int] = defaultdict(int)
    return len(d)


@kiln.export
def counter_update(xs: list[int]) -> int:
    c = Counter(xs)
    c.update({1: 2})
    return len(c)


@kiln.export
def not_a_list(n: int) -> int:
    return heapq.heappop(n)


@kiln.export
def counter_equal(xs: list[int]) -> bool:
    return Counter(xs) == Counter(xs)
'''


def test_refusals_say_why(tmp_path):
    path = tmp_path / "refused_container_calls.py"
    path.write_text(REFUSED)
    failures = infer_module(load_module(str(path))).failures
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in failures.items()}
    assert first == {
        "tuple_heap": (11, 26, "heaps of tuples (`heappush(h, (priority, item))`) are not "
                               "supported yet: a list holds int, float or bool items; keep "
                               "the priorities in one list and the items in a dict keyed by "
                               "them, or encode both in one number"),
        "common": (18, 16, "Counter.most_common() returns a list of (key, count) tuples, and "
                           "lists of tuples are not supported yet; walk c.items() and keep "
                           "the largest counts (or sorted(c.values(), reverse=True) for the "
                           "counts alone)"),
        "counter_sum": (24, 9, "Counter arithmetic (`c + c`) is not supported yet; combine "
                               "the counts in a loop (`for k, v in e.items(): c[k] += v`)"),
        "keyed": (30, 38, "`key=` of bisect.bisect_left() is not supported yet"),
        "list_factory": (35, 21, "defaultdict(list) is not supported: a dict's values are "
                                 "int, float or bool, so its factory is int, float, bool or a "
                                 "lambda returning a number written in the source "
                                 "(`lambda: 1`)"),
        "class_changed": (41, 5, "a defaultdict[?, int] is used as a dict[int, int]: reading "
                                 "a missing key differs between them (KeyError, the factory's "
                                 "default inserted, or 0 for a Counter); pass dict(d), a plain "
                                 "copy, where a dict is wanted"),
        "counter_update": (48, 5, "Counter.update() adds counts (dict.update replaces "
                                  "values), which is not supported yet; add them in a loop "
                                  "(`for k, v in e.items(): c[k] += v`)"),
        "not_a_list": (54, 26, "heapq.heappop() takes a list here, not an int"),
        "counter_equal": (59, 12, "`==` of a Counter (which counts a missing key as 0 since "
                                  "Python 3.10) is not supported yet; compare dict(c) == "
                                  "dict(e) (without zero counts)"),
    }
