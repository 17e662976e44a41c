"""List slices and list loops (modules/list_slices.py) against CPython
running the same source: every start/stop in a range around the list and
the int64 extremes, steps of both signs and 0, lists of 0..6 items,
assignment of other sizes, a list assigned into itself, deletion of items
and slices; loops that index lists (kiln-list-views) at sizes around the
vector width, with aliasing (one list for two parameters), negative
indices and an IndexError in the middle of a loop that writes."""

import copy
import itertools

import pytest

MODULE = "list_slices"
ENDS = [-9, -3, -1, 0, 1, 2, 5, 9, -2**63, 2**63 - 1]
STEPS = [-3, -1, 1, 2, 0, -2**63, 2**63 - 1]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, args):
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0])


def same(mod, name, *args):
    """Kiln and CPython agree on the result or exception and on the list
    arguments afterwards (written back)."""
    native_args, python_args = copy.deepcopy(args), copy.deepcopy(args)
    got = outcome(getattr(mod.native, name), native_args)
    want = outcome(getattr(mod.python, name), python_args)
    assert got == want, (name, args, got, want)
    assert native_args == python_args, (name, args, native_args, python_args)
    return got


def record(mod):
    import json
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_everything_compiles(mod):
    assert record(mod)["fallbacks"] == []


@pytest.mark.parametrize("n", range(7))
def test_slices_of_every_shape(mod, n):
    xs = list(range(10, 10 + n))
    for a, b in itertools.product(ENDS, ENDS):
        for c in STEPS:
            same(mod, "take", xs, a, b, c)
            same(mod, "delete", xs, a, b, c)
        for m in range(3):
            same(mod, "assign", xs, a, b, list(range(100, 100 + m)))
        same(mod, "assign_itself", xs, a, b)
    for a in ENDS:
        same(mod, "take_open", [x / 2 for x in xs], a)
        same(mod, "assign_literal", xs, a)
        same(mod, "delete_item", [x % 3 == 0 for x in xs], a)
        for c in STEPS:
            same(mod, "take_bools", [x % 2 == 0 for x in xs], a, c)
            for m in range(5):
                same(mod, "assign_extended", [float(x) for x in xs], a, c,
                     [0.5 * j for j in range(m)])


def test_slices_in_a_loop(mod):
    for n in (0, 1, 2, 50):
        same(mod, "slice_in_loop", n)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 1000])
def test_list_loops_at_vector_edges(mod, n):
    xs = [i * 0.75 - 3.0 for i in range(n)]
    same(mod, "scale", xs, [0.0] * n, 2.5)
    same(mod, "scale", xs, [0.0] * (n // 2), 2.5)        # IndexError halfway
    for k in (0, 1, -1, n, n + 1):
        same(mod, "shifted_sum", list(range(n)), k)
    same(mod, "count_true", [i % 3 == 0 for i in range(n)])
    same(mod, "prefix_sums", list(range(n)))
    same(mod, "overrun", xs, [0.0] * n, n + 1)
    same(mod, "overrun", xs, [0.0] * (n + 2), n + 1)


def test_list_loops_with_aliasing(mod):
    """One list passed as both parameters: the loop reads what it wrote."""
    for n in (0, 1, 9, 100):
        xs = [float(i) for i in range(n)]
        got, want = list(xs), list(xs)
        mod.native.scale(got, got, 3.0)
        mod.python.scale(want, want, 3.0)
        assert got == want


def test_knapsack(mod):
    import random
    rng = random.Random(30)
    for _ in range(100):
        n = rng.randint(0, 40)
        weights = [rng.randint(1, 40) for _ in range(n)]
        values = [rng.randint(-5, 100) for _ in range(n)]
        same(mod, "knapsack", weights, values, rng.randint(0, 500))


def test_list_loops_are_vectorized(mod):
    """The loops that resize no list are array loops: kiln-vectorize
    vectorizes them (the record's verdict)."""
    loops = {f["name"]: f["loops"] for f in record(mod)["functions"]}
    for name in ("scale", "count_true"):
        assert [loop["vectorizer"] for loop in loops[name] if loop["vectorized"]] == ["kiln"], \
            (name, loops[name])
    # xs[i - k] may wrap around the list: its checks stay in the loop, which
    # LLVM vectorizes (the record says which vectorizer did).
    assert [loop["vectorized"] for loop in loops["shifted_sum"]] == [True]
