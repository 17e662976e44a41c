"""Python dicts of numbers (issue 30) against CPython running the same
source (modules/dicts.py): growth across many inserts, colliding keys,
deletion then reinsertion (insertion order), deleting while holding a
slot, KeyError (CPython's message and args), -0.0 and 0.0 as one key, NaN
keys, bool keys and values, int extremes, every method, the views and the
builtins that take them, RuntimeError when the size changes during
iteration, aliasing, dicts through helpers, branches, loops and early
returns; memory stays flat over 4 * 10^4 calls. The typing errors and the
MLIR (verified by kiln-opt) need no backend and are pinned at the end."""

import json
import math
import os
import resource
import shutil
import subprocess

import numpy as np
import pytest

from kiln.frontend.source import load_module
from kiln.mlir.code_generator import generate_module
from kiln.typecheck.type_inference import infer_module

from conftest import assert_rss_flat

MODULE = "dicts"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = 4096


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    """(result, exception type, message and args) of one call."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        # A KeyError's args are the key itself; other messages of compiled
        # code end with the source location (" (file, line N)").
        args = repr(error.args) if isinstance(error, KeyError) else None
        return None, (type(error).__name__, str(error).split(" (")[0], args)


def same_number(got, want):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float):
        return type(got) is float and got == want and \
            math.copysign(1.0, got) == math.copysign(1.0, want)
    return type(got) is type(want) and got == want


def same(mod, name, *args):
    """The native function and CPython agree on the result, the exception
    (KeyError's args included) and every array argument afterwards."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *copies)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert same_number(got, want), (name, args, got, want)
    for native_arg, python_arg in zip(args, copies):
        if isinstance(python_arg, np.ndarray):
            np.testing.assert_array_equal(native_arg, python_arg)
    return got


def out():
    return np.zeros(OUT, dtype=np.int64)


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["fallbacks"] == []


SIZES = [0, 1, 2, 5, 8, 9, 16, 17, 100, 1000]


@pytest.mark.parametrize("n", SIZES)
def test_growth_and_order(mod, n):
    same(mod, "build_range", n, out(), out())
    same(mod, "delete_reinsert", n, out(), out())
    same(mod, "delete_holding_slot", n, out(), out())
    same(mod, "comprehensions", n, out(), out())
    same(mod, "iterate_views", min(n, 200), out())
    same(mod, "through_branches", min(n, 300), out(), out())
    same(mod, "aliasing", n)
    same(mod, "early_return", n)
    same(mod, "rebuilt", min(n, 40))
    same(mod, "change_values_while_iterating", n)
    same(mod, "bool_and_int", n)


@pytest.mark.parametrize("step", [1, 8, 1024, 1 << 20, 1 << 40])
def test_colliding_keys(mod, step):
    for n in (0, 1, 3, 50, 500):
        same(mod, "colliding", n, step, out(), out())


@pytest.mark.parametrize("n", [0, 1, 4, 30])
def test_key_errors_are_cpythons(mod, n):
    for k in (-1, 0, 1, 3, 29, 30, 2**63 - 1, -2**63):
        same(mod, "lookup", n, k)              # KeyError: 30, args (30,)
        same(mod, "delete_missing", n, k)
        same(mod, "augmented_missing", n, k)
        same(mod, "pop_missing", n, k)
        same(mod, "methods", n, k)
    for x in (1.5, -3.0, 2.0, -0.0, math.inf):
        same(mod, "float_lookup", x)           # KeyError: 2.0


def test_signed_zero_nan_and_extremes(mod):
    for first, second in ((-0.0, 0.0), (0.0, -0.0), (0.0, 0.0), (1.0, 2.0)):
        same(mod, "signed_zero_key", first, second)
    for x in (0.0, -0.0, 5.0, math.nan):
        same(mod, "literal_duplicates", x)
    same(mod, "nan_keys", math.inf)            # two NaNs made apart: two keys
    for k in (0, 1, -2**63, 2**63 - 1):
        same(mod, "int_extremes", k)


@pytest.mark.parametrize("values", [[], [3], [1, 1, 1], [5, -1, 5, 2**62, -2**63, 0, -1]],
                         ids=len)
def test_counting(mod, values):
    same(mod, "counts", np.array(values, dtype=np.int64), out(), out())


def test_iteration_and_size_changes(mod):
    for n in (0, 1, 2, 3, 10):
        same(mod, "insert_while_iterating", n)   # RuntimeError from the 3rd entry on
        same(mod, "delete_while_iterating", n)
        same(mod, "break_after_change", n)
        same(mod, "min_max", n)                  # ValueError when empty
    same(mod, "empty_min")


def memory_calls() -> dict:
    return {"build_range": (200, out(), out()), "delete_reinsert": (200, out(), out()),
            "delete_holding_slot": (100, out(), out()), "comprehensions": (60, out(), out()),
            "iterate_views": (40, out()), "through_branches": (30, out(), out()),
            "aliasing": (20,), "early_return": (20,), "rebuilt": (20,), "lookup": (10, 99),
            "methods": (10, 3), "insert_while_iterating": (5,), "counts": (
                np.arange(50, dtype=np.int64) % 7, out(), out()), "min_max": (9,)}


def test_memory_stays_flat(mod):
    """Dicts built, changed, aliased, passed to helpers, returned, dropped,
    and raising after making dicts, 4 * 10^4 calls each: no RSS growth."""
    assert_rss_flat(mod.native, memory_calls(), (KeyError, ValueError, RuntimeError))


# ------------------------------------------------------- no backend needed
def test_dicts_type_and_generate_valid_mlir():
    """Every function of modules/dicts.py types and generates MLIR that
    kiln-opt verifies; the ops are the slot-based dict ops."""
    context = load_module(os.path.join(HERE, "modules", f"{MODULE}.py"))
    typed = infer_module(context)
    assert typed.failures == {}
    assert str(typed.functions["squares"].return_type) == "dict[int, int]"
    variables = {n: str(v.type) for n, v in typed.functions["counts"].variables.items()}
    assert variables["d"] == "dict[int, int]"            # settled by its first store
    text, signatures, failures = generate_module(context, context.exported_functions(), typed)
    assert failures == {}
    for op in ("new", "find", "require", "set", "used", "live_at", "key_at", "value_at",
               "set_value_at", "erase_at", "clear", "copy", "update", "equal", "len"):
        assert f'"kiln.dict.{op}"' in text, op
    assert '"kiln.retain"' in text and '"kiln.release"' in text
    assert "dictionary changed size during iteration" in text
    raising = {s.name for s in signatures if s.raises}
    assert {"lookup", "methods", "iterate_views", "min_max"} <= raising
    kiln_opt = shutil.which("kiln-opt") or os.path.join(
        os.path.dirname(os.environ.get("KILN_KILNC", "")), "kiln-opt")
    if os.path.exists(kiln_opt):
        subprocess.run([kiln_opt, "-o", os.devnull], input=text, text=True, check=True)


REFUSED = '''import kiln


@kiln.export
def str_keys(n: int) -> int:
    d = {"a": n}
    return len(d)


@kiln.export
def str_annotation(d: dict[str, int]) -> int:
    return len(d)


@kiln.export
def list_values(n: int) -> int:
    d = {1: [n]}
    return len(d)


@kiln.export
def get_without_default(n: int) -> int:
    d = {1: n}
    return d.get(2)


@kiln.export
def unsettled(n: int) -> int:
    d = {}
    return len(d)


@kiln.export
def in_prange(n: int) -> int:
    total = 0
    for i in kiln.prange(n):
        d = {i: i}
        total += d[i]
    return total


@kiln.export
def float_key_into_int_dict(n: int) -> int:
    d: dict[int, int] = {1: n}
    return d[1.5]


@kiln.export
def view_bound(n: int) -> int:
    d = {1: n}
    ks = d.keys()
    return n


@kiln.export
def bare_dict(d: dict) -> int:
    return len(d)


@kiln.export
def ordering(n: int) -> bool:
    return {1: n} < {2: n}


@kiln.export
def shared_not_converted(n: int) -> float:
    d = {1: n}
    e: dict[int, float] = d
    return e[1]


@kiln.export
def defaultdict_call(n: int) -> int:
    d = defaultdict(int)
    return len(d)
'''


def test_refused_dicts_say_why(tmp_path):
    path = tmp_path / "refused_dicts.py"
    path.write_text(REFUSED)
    failures = infer_module(load_module(str(path))).failures
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in failures.items()}
    hint = "; a dict's keys and values are int, float, bool or str (dict[str, int], ...)"
    assert first == {
        "list_values": (17, 13, "dicts with list values are not supported yet" + hint),
        "get_without_default": (24, 12, "d.get(k) without a default returns None when k is "
                                        "missing, and Kiln has no None value: give the "
                                        "default (`d.get(k, 0)`)"),
        "unsettled": (29, 5, "cannot tell what dict `d` holds: nothing is stored into it; "
                             "annotate it (`d: dict[int, float] = {}`)"),
        "in_prange": (37, 13, "dicts are not supported inside a kiln.prange loop yet"),
        "float_key_into_int_dict": (45, 12, "a lookup of a dict[int, int] takes an int key, "
                                            "not a float (convert it first)"),
        "view_bound": (51, 5, "binding `d.keys()` to a name is not supported yet; iterate "
                              "over it or pass it to list() (`ks = list(d.keys())`)"),
        "bare_dict": (56, 18, "a dict annotation needs its key and value types: "
                              "dict[int, float], dict[float, int], ..."),
        "ordering": (62, 12, "dicts compare with == and != only (CPython does not order "
                             "dicts)"),
        "shared_not_converted": (68, 5, "a dict[int, int] is used as a dict[int, float]: a "
                                        "dict is shared, not converted, so its keys and values "
                                        "keep their types; make it a dict[int, float] where it "
                                        "is created"),
        "defaultdict_call": (74, 9, "`defaultdict` is collections' (Kiln compiles "
                                    "collections.defaultdict and Counter): import it, `from "
                                    "collections import defaultdict, Counter` or `import "
                                    "collections`"),
    }


# ------------------------------------------- dicts as parameters, results
@pytest.fixture(scope="module")
def dict_boundary(build_module):
    return build_module("dict_boundary")


def dict_state(d):
    """A dict as CPython shows it: keys with their types and float signs,
    values with their types, in order."""
    return [(type(k), math.copysign(1.0, k) if isinstance(k, float) else None, k, type(v), v)
            for k, v in d.items()]


def same_on_dicts(mod, name, *args):
    copies = [dict(a) if isinstance(a, dict) else (list(a) if isinstance(a, list) else a)
              for a in args]
    def run(function, arguments):
        try:
            return function(*arguments), None
        except Exception as error:  # noqa: BLE001 - compared
            return None, (type(error), error.args)
    got, got_error = run(getattr(mod.native, name), args)
    want, want_error = run(getattr(mod.python, name), copies)
    assert got_error == want_error, (name, got_error, want_error)
    if isinstance(want, dict):
        assert dict_state(got) == dict_state(want), (name, got, want)
    else:
        assert got == want, (name, got, want)
    for native_arg, python_arg in zip(args, copies):
        if isinstance(python_arg, dict):
            assert dict_state(native_arg) == dict_state(python_arg), (name, native_arg, python_arg)


def test_dict_arguments_are_written_back_as_cpython_shows_them(dict_boundary):
    for d in ({-0.0: 1, 2.0: 3}, {0.0: 1}, {1: 4, 0: 2}, {0: 1, -0.0: 2}):
        same_on_dicts(dict_boundary, "signzero", dict(d))
        same_on_dicts(dict_boundary, "reassign", dict(d))
    same_on_dicts(dict_boundary, "signzero", {2.0: 1})            # KeyError: 0.0
    for d in ({1: 2.0, 3: 4.0}, {3: 1}, {}):
        same_on_dicts(dict_boundary, "bump", dict(d), 3)
    same_on_dicts(dict_boundary, "drop_small", {i: float(i % 7) for i in range(40)}, 3.0)
    xs = [(k * 7919) % 1000 - 500 for k in range(2000)]
    same_on_dicts(dict_boundary, "count_mod", xs, 37)
    d = {5: 6}
    assert dict_boundary.native.same_dict(d) is d and d == {5: 6, 1: 2}


def test_a_million_calls_that_return_new_dicts_leave_rss_flat(dict_boundary):
    """10^6 calls that build, mutate and return a dict (a new Python dict each
    time), and that mutate the caller's dict and raise KeyError, with no
    growth of resident memory."""
    count_mod, bump = dict_boundary.native.count_mod, dict_boundary.native.bump
    xs = [3, 1, 4, 1, 5, 9, 2, 6]
    for _ in range(50_000):
        count_mod(xs, 3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    caller = {1: 0.5}
    for k in range(1_000_000):
        count_mod(xs, 3)
        if k % 10 == 0:
            try:
                bump(caller, k % 3)
            except KeyError:
                pass
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 4_000, f"RSS grew by {grown} KiB"


def test_dicts_typed_by_stores_in_tuples_and_items(mod):
    for k in (-3, 0, 7):
        same(mod, "typed_by_stores_in_tuples", k)
