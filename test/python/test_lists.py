"""Python lists of numbers (issue 30) against CPython running the same
source (modules/lists.py): building and growth, indices (negative, out of
range), every method, the operators, searches and their errors, sum/min/
max/sorted, NaN, -0.0, inf, int extremes, aliasing, lists through helpers,
branches and loops (early returns, iteration while the list changes),
comprehensions; memory stays flat over 10^5 calls. The typing errors are
pinned at the end (no backend needed)."""

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

from conftest import assert_rss_flat, outcome

MODULE = "lists"
OUT = 4096


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def same_number(got, want):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float):
        return type(got) is float and got == want and \
            math.copysign(1.0, got) == math.copysign(1.0, want)
    return type(got) is type(want) and got == want


def same(mod, name, *args):
    """The native function and CPython agree on the result, the exception,
    and every array argument afterwards (outputs are written into them)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *copies)
    assert got_error == want_error, (name, args, got_error, want_error)
    want = want.item() if isinstance(want, np.generic) else want
    assert same_number(got, want), (name, args, got, want)
    for native_arg, python_arg in zip(args, copies):
        if isinstance(python_arg, np.ndarray):
            np.testing.assert_array_equal(native_arg, python_arg)
            if python_arg.dtype.kind == "f":      # -0.0 kept apart from 0.0
                assert (np.signbit(native_arg) == np.signbit(python_arg)).all(), name
    return got


def ints(*values):
    return np.array(values, dtype=np.int64)


def floats(*values):
    return np.array(values, dtype=np.float64)


def out_ints():
    return np.zeros(OUT, dtype=np.int64)


def out_floats():
    return np.zeros(OUT)


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert record["fallbacks"] == []
    # parallel=True shares out loops whose iterations are independent; one
    # that uses lists stays sequential and says why.
    [function] = [f for f in record["functions"]
                  if f["name"] == "parallel_option_keeps_list_loops_sequential"]
    assert [loop["reason"] for loop in function["sequential_loops"]] == ["the loop uses lists"]
    same(mod, "parallel_option_keeps_list_loops_sequential", floats(1.0, 2.5, -3.0))


def test_record_lists_each_allocation_site(mod):
    """The record says where each list is made, whether a loop makes it once
    per iteration, and what becomes of it (kiln report shows the same)."""
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    [churn] = [f for f in record["functions"] if f["name"] == "churn"]
    sites = {(site["line"], site["column"]): site for site in churn["allocations"]}
    source = record["source_text"].splitlines()
    first = churn["line"]
    line = next(n for n, text in enumerate(source, 1)
                if n > first and "xs = [i for i in range(n)]" in text)
    comprehension = sites[(line, 10)]
    assert (comprehension["kind"], comprehension["type"], comprehension["in_loop"],
            comprehension["fate"]) == ("list", "list[int]", None, "local")
    in_loop = [site for site in churn["allocations"] if site["in_loop"] == line + 2]
    assert {site["fate"] for site in in_loop} >= {"local", "temporary"}
    assert all("no malloc after the first iterations" in site["storage"] for site in in_loop)


INT_INPUTS = [ints(), ints(7), ints(3, -1, 4), ints(5, 5, 5, 1), ints(*range(-10, 30, 3))]
FLOAT_INPUTS = [floats(), floats(2.5), floats(1.0, -0.0, 0.0, 3.5),
                floats(math.nan, 1.0, math.inf, -math.inf, -0.0),
                floats(*[0.1 * k for k in range(40)])]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 25, 26, 100, 1000])
def test_growth_across_capacities(mod, n):
    same(mod, "append_range", n, out_ints())
    same(mod, "growth_digest", min(n, 30))
    same(mod, "truthiness", n)
    same(mod, "iterate_while_appending", n)
    same(mod, "iterate_while_popping", n)
    same(mod, "annotated_empty", n)
    same(mod, "widened_by_store", n)
    same(mod, "comprehensions", min(n, 25), out_ints())
    same(mod, "comprehension_scope", n)
    same(mod, "helpers_return_lists", n)
    same(mod, "reassigned_in_loop", n, out_ints())
    same(mod, "churn", n)


@pytest.mark.parametrize("x", [0, 1, -7, 2**62, -2**63])
def test_literals(mod, x):
    for y in (0.0, -0.0, 2.5, math.inf, math.nan):
        for flag in (False, True):
            same(mod, "literal_items", x % 1000, y, flag)
    same(mod, "mixed_literal", x)


@pytest.mark.parametrize("a", INT_INPUTS, ids=lambda a: f"n{len(a)}")
def test_indices_and_methods(mod, a):
    for i in sorted({-len(a) - 2, -len(a) - 1, -len(a), -1, 0, 1, len(a) - 1, len(a),
                     len(a) + 3}):
        same(mod, "index_at", a, i)                     # IndexError outside
        same(mod, "store_at", a, i, 42, out_ints())
        same(mod, "pops", a, i, out_ints())             # pop from empty list, out of range
        same(mod, "inserts", a, i, -5, out_ints())      # insert clamps
    same(mod, "copies", a, out_ints())
    for b in INT_INPUTS[:3]:
        for n in (-1, 0, 1, 3):
            same(mod, "concat_repeat", a, b, n, out_ints())
    for v in (-1, 0, 1, 3, 5, 7, 42):
        same(mod, "index_of", a, v)                     # "{v} is not in list"
        same(mod, "remove_value", a, v, out_ints())     # "list.remove(x): x not in list"
        same(mod, "early_return", a, v)
        same(mod, "early_return_list_helper", a, v)
    same(mod, "break_continue", np.concatenate([a, ints(-3, 200, 4)]), out_ints())
    same(mod, "max_of", a)                              # max() arg is an empty sequence
    for start in (0, -3, 2**40):
        same(mod, "sum_ints", a, start)


@pytest.mark.parametrize("a", FLOAT_INPUTS, ids=lambda a: f"n{len(a)}")
def test_floats(mod, a):
    same(mod, "from_array", a, out_floats())
    same(mod, "sum_floats", a)
    same(mod, "min_of", a)                              # min() arg is an empty sequence
    same(mod, "special_floats", a, out_floats())
    same(mod, "comprehension_over_list", a, out_floats())
    for v in (0.0, -0.0, 1.0, 2.5, math.inf, math.nan):
        same(mod, "searches", a, v)                     # NaN is found nowhere
    for v in (0, 1, 3):
        same(mod, "int_in", a, v)
    for b in FLOAT_INPUTS:
        same(mod, "equality", a, b)
    if not np.isnan(a).any():       # CPython's order of NaN depends on its sort
        for reverse in (False, True):
            same(mod, "sort_floats", a, reverse, out_floats())


def test_sort_is_stable_with_reverse(mod):
    """Equal items keep their order, also reversed: -0.0 == 0.0 tells."""
    a = floats(0.0, -0.0, 1.0, -0.0, 0.0, -1.0, 0.0)
    for reverse in (False, True):
        same(mod, "sort_floats", a, reverse, out_floats())


def test_index_of_float_messages(mod):
    a = floats(1.0, 2.0)
    for v in (1.0, 3.0, -4.0, -0.0, 0.0, math.inf, -math.inf, math.nan, 1e15, -2.0**53):
        same(mod, "index_of_float", a, v)
    # A float that is not whole cannot be spelled by the error record's
    # integers: the message says so (docs/language.md, Lists).
    with pytest.raises(ValueError, match="^float value is not in list"):
        mod.native.index_of_float(a, 2.5)


def test_bools(mod):
    for values in ([], [True], [False], [True, False, True, False, False]):
        a = np.array(values, dtype=bool)
        same(mod, "bools", a, out_ints())
        for v in (False, True):
            same(mod, "index_of_bool", a, v)            # "True is not in list"


def test_int_extremes(mod):
    a = ints(0, -2**63, 2**63 - 1, -1, 2**63 - 1)
    same(mod, "int_extremes", a, out_ints())
    same(mod, "extremes", a, out_ints())
    same(mod, "index_at", a, 1)
    same(mod, "searches", floats(2.0**63), 2.0**63)


def test_names_and_control_flow(mod):
    for n in (0, 1, 2, 3, 5):
        same(mod, "aliasing", n)
        same(mod, "swap_names", n)
        for flag in (False, True):
            same(mod, "branches", flag, n, out_ints())
    for start, stop, step in [(0, 10, 1), (10, 0, -3), (5, 5, 2), (-4, 9, 4), (0, 3, 0)]:
        same(mod, "list_of_range", start, stop, step, out_ints())     # step 0: ValueError
    for a in INT_INPUTS:
        for b in FLOAT_INPUTS:
            same(mod, "enumerate_zip", a, b)


def memory_calls():
    """One call of every function of modules/lists.py (several raise)."""
    i, f = ints(3, -1, 4, 1, 5), floats(1.0, -0.0, 2.5, math.nan)
    out, out_f, flags = out_ints(), out_floats(), np.array([True, False, True])
    return {
        "from_array": (f, out_f), "append_range": (20, out), "growth_digest": (20,),
        "literal_items": (3, 1.5, True), "mixed_literal": (2,), "annotated_empty": (5,),
        "widened_by_store": (5,), "list_of_range": (0, 20, 3, out), "index_at": (i, 9),
        "store_at": (i, 1, 5, out), "pops": (i, 9, out), "inserts": (i, 2, 7, out),
        "copies": (i, out), "concat_repeat": (i, i, 2, out), "equality": (f, f),
        "truthiness": (5,), "searches": (f, 2.5), "int_in": (f, 1), "index_of": (i, 9),
        "index_of_float": (f, 7.5), "remove_value": (i, 9, out), "sum_floats": (f,),
        "sum_ints": (i, 2), "min_of": (f[:0],), "max_of": (i,), "extremes": (i, out),
        "sort_floats": (f[:3], True, out_f), "bools": (flags, out),
        "index_of_bool": (flags[:1], False), "aliasing": (3,), "swap_names": (3,),
        "helpers_return_lists": (6,), "reassigned_in_loop": (8, out),
        "branches": (True, 3, out), "early_return": (i, 4), "early_return_list_helper": (i, 4),
        "break_continue": (ints(1, -2, 3, 200, 5), out), "iterate_while_appending": (8,),
        "iterate_while_popping": (8,), "enumerate_zip": (i, f), "comprehensions": (8, out),
        "comprehension_scope": (5,), "comprehension_over_list": (f, out_f),
        "special_floats": (f, out_f), "int_extremes": (i, out), "churn": (7,),
        "parallel_option_keeps_list_loops_sequential": (f,)}


def test_memory_stays_flat(mod):
    """Every function -- lists built, mutated, aliased, passed to helpers,
    returned, dropped, and raising after making lists -- called 4 * 10^4
    times: no growth of the RSS (a list leaked per call would show)."""
    calls = memory_calls()
    assert set(calls) == {name for name in dir(mod.native) if not name.startswith("_") and
                          type(getattr(mod.native, name)).__name__ == "builtin_function_or_method"}
    assert_rss_flat(mod.native, calls, (IndexError, ValueError))


# ------------------------------------------- lists as parameters, results
@pytest.fixture(scope="module")
def boundary(build_module):
    return build_module("list_boundary")


def same_with_lists(mod, name, *args):
    """As `same`, for functions taking and returning lists: the results
    and the caller's lists afterwards (written back, also after an
    exception) are CPython's, item types included."""
    copies = [list(a) if isinstance(a, list) else a for a in args]
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *copies)
    assert got_error == want_error, (name, args, got_error, want_error)
    for native_value, python_value in [(got, want)] + list(zip(args, copies)):
        if isinstance(python_value, list):
            assert isinstance(native_value, list) and len(native_value) == len(python_value)
            for a, b in zip(native_value, python_value):
                assert same_number(a, b) or (type(b) is int and type(a) is float and a == b), \
                    (name, args, native_value, python_value)
        else:
            assert same_number(native_value, python_value), (name, args, got, want)
    return got


def test_boundary_compiles(boundary):
    with open(boundary.path("list_boundary.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["fallbacks"] == []


@pytest.mark.parametrize("values", [[], [2.5], [1.0, -0.0, 3.5, -2.0], [math.nan, math.inf, 1.0],
                                    [float(k) for k in range(100)]], ids=len)
def test_float_lists_cross(boundary, values):
    for n in (0, 1, 4):
        same_with_lists(boundary, "append_squares", list(values), n)
    same_with_lists(boundary, "positives", list(values))
    for reverse in (False, True):
        if not any(math.isnan(v) for v in values):
            same_with_lists(boundary, "sort_in_place", list(values), reverse)
    for v in (1.0, -0.0, 2.5):
        same_with_lists(boundary, "removed", list(values), v)


@pytest.mark.parametrize("values", [[], [7], [3, -1, 4], [2**63 - 1, -2**63, 0]], ids=len)
def test_int_lists_cross(boundary, values):
    xs = list(values)
    assert boundary.native.same_list(xs) is xs              # the caller's own object
    assert boundary.native.this_or_new(xs, True) is xs
    same_with_lists(boundary, "this_or_new", list(values), False)
    for i in (-5, -1, 0, 1, 3, 10):
        same_with_lists(boundary, "store_then_append", list(values), i, 42)
    same_with_lists(boundary, "drain", [v % 1000 for v in values])   # no wrapping
    for times in (-1, 0, 2):
        same_with_lists(boundary, "joined", list(values), [5, 6], times)
    other = [9]
    for n in (0, 1, 5):
        assert boundary.native.first_at_least(xs, other, n) is (xs if n == 5 else other)
    shared = list(values)
    assert boundary.native.shared(shared, shared) == len(values) + 1   # one list, two names
    assert shared == list(values) + [1]


def test_lists_tested_in_and_or_not(boundary):
    for values in ([], [5], [3, 1, 4, 1, 5, 9, 2, 6], [9, 8, 7], list(range(50))):
        same_with_lists(boundary, "next_greater", list(values))
    for values in ([], [1.0], [0.0, -0.0]):
        for n in (0, 3):
            same_with_lists(boundary, "tested_lists", list(values), n)


def test_record_says_which_lists_are_returned(boundary):
    with open(boundary.path("list_boundary.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    returned = [site for f in record["functions"] for site in f["allocations"]
                if site["fate"] == "returned"]
    assert returned and all("the caller" in site["reason"] for site in returned)


def test_new_lists_cross(boundary):
    for n in (0, 1, 2, 7, 100, 100_000):
        same_with_lists(boundary, "count_up", n)
        same_with_lists(boundary, "flags", n % 200)
    for n in (-1, 0, 3):
        same_with_lists(boundary, "nothing", n)             # an int into a list[float]
    for values in ([], [True], [False, True, True]):
        same_with_lists(boundary, "flags_summary", list(values))


def test_boundary_memory_stays_flat(boundary):
    values = [float(k) for k in range(200)]
    append_squares, store_then_append = boundary.native.append_squares, \
        boundary.native.store_then_append
    for _ in range(20_000):
        append_squares(list(values), 3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for k in range(100_000):
        append_squares(list(values), 3)
        try:
            store_then_append([1, 2], 5, k)
        except IndexError:
            pass
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 10_000, f"RSS grew by {grown} KiB"


def test_a_million_calls_that_return_new_lists_leave_rss_flat(boundary):
    """Issue 30's measure: 10^6 calls of a function that builds, mutates and
    returns a list (boxed into a new Python list each time), and of one that
    raises after growing a list, with no growth of resident memory."""
    count_up, store_then_append = boundary.native.count_up, boundary.native.store_then_append
    for _ in range(50_000):
        count_up(7)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for k in range(1_000_000):
        count_up(7)
        if k % 10 == 0:
            try:
                store_then_append([1, 2], 5, k)
            except IndexError:
                pass
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 4_000, f"RSS grew by {grown} KiB"


# ------------------------------------------------------ typing, no backend
REFUSED = '''import kiln


@kiln.export
def unknown_items(n: int) -> int:
    xs = []
    return len(xs)


@kiln.export
def strings(xs: list[str]) -> int:
    return 0


@kiln.export
def nested(xs: list[list[int]]) -> int:
    return 0


@kiln.export
def int_list_gets_float(xs: list[int]) -> int:
    xs.append(1.5)
    return 0


@kiln.export
def shared_not_converted(xs: list[int]) -> float:
    ys: list[float] = xs
    return ys[0]


@kiln.export
def in_prange(n: int) -> int:
    total = 0
    for i in kiln.prange(n):
        total += len([i])
    return total


@kiln.export
def list_in_tuple(n: int) -> int:
    t = ([n], n)
    return 0


@kiln.export
def ordering(n: int) -> bool:
    return [n] < [1]


@kiln.export
def slicing(n: int) -> int:
    xs = [n, 1, 2]
    xs[1:] += [n]; return len(xs)


@kiln.export
def list_and(n: int) -> int:
    xs = [n]
    k = xs and n
    k += 1
    return k


@kiln.export
def lambda_list(n: int) -> int:
    f = lambda v: len(v)
    return f([n])


@kiln.export
def float_index(n: int) -> int:
    xs = [n]
    return xs[0.5]


@kiln.export
def bare_list(xs: list) -> int:
    return 0


@kiln.export
def numpy_of_list(n: int) -> float:
    import numpy as np
    xs = [1.0, 2.0]
    return np.sqrt(xs)


@kiln.export
def sum_of_array(x: kiln.f64[:]) -> float:
    return sum(x)


@kiln.export
def complex_items(z: complex) -> int:
    return len([z])
'''


def test_refused_lists_say_why(tmp_path):
    path = tmp_path / "refused_lists.py"
    path.write_text(REFUSED)
    failures = infer_module(load_module(str(path))).failures
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in failures.items()}
    hint = "; a list holds int, float, bool or str items or instances of the module's " \
        "exported classes (list[int], list[float], list[bool], list[str], list[Node])"
    assert first == {
        "unknown_items": (6, 5, "cannot tell what list `xs` holds: nothing is appended or "
                                "stored into it; annotate it (`xs: list[float] = []`)"),
        "nested": (16, 16, "lists of lists are not supported yet" + hint),
        "int_list_gets_float": (22, 5, "cannot store a float into `xs`, a list[int]: a list "
                                       "holds items of one type (declare it list[float] to "
                                       "hold both)"),
        "shared_not_converted": (28, 5, "a list[int] is used as a list[float]: a list is "
                                        "shared, not converted, so its items keep their type; "
                                        "make it a list[float] where it is created"),
        "in_prange": (36, 22, "lists are not supported inside a kiln.prange loop yet"),
        "list_in_tuple": (42, 10, "a tuple holding lists is not supported yet; unpack it "
                                  "where it is made (`a, b = xs, ys`)"),
        "ordering": (48, 12, "lists compare with == and != only here (ordering lists is not "
                             "supported yet)"),
        "slicing": (54, 5, "`xs[1:] += ...` of a list slice is not supported; assign the "
                           "slice (`xs[1:] = ...`)"),
        "list_and": (60, 9, "`and`/`or` with a list operand is supported only where its "
                            "truth is tested (`if`, `while`, `not`); here its value would be "
                            "the list: test `len(xs) > 0` instead"),
        "lambda_list": (68, 14, "passing a list to the lambda `f` is not supported yet; write "
                                "a function (`def`)"),
        "float_index": (74, 15, "list indices must be integers, not float"),
        "bare_list": (78, 19, "a list annotation needs its item type: list[int], list[float], "
                              "list[bool] or list[str]"),
        "numpy_of_list": (86, 20, "`np.sqrt` does not take a list yet"),
        "sum_of_array": (91, 12, "sum() takes a list here; of an array use np.sum(a) or "
                                 "a.sum()"),
        "complex_items": (96, 17, "lists of complex numbers are not supported yet; a list "
                                  "holds int, float, bool or str items"),
    }


ACCEPTED = '''import kiln


def make(n: int) -> list[float]:
    xs = []
    for i in range(n):
        xs.append(i / 2)
    return xs


@kiln.export
def uses(n: int) -> float:
    ys = make(n)
    zs: list[float] = [0] * n
    ws = [] + ys
    total = 0.0
    for v in ys + zs:
        total += v
    return total + len(ws)
'''


def test_lists_type_and_generate_valid_mlir(tmp_path):
    """`[]` settles from its context and new lists convert; the MLIR has
    the list ops."""
    path = tmp_path / "accepted_lists.py"
    path.write_text(ACCEPTED)
    context = load_module(str(path))
    typed = infer_module(context)
    assert typed.failures == {}
    assert str(typed.functions["make"].return_type) == "list[float]"
    variables = {n: str(v.type) for n, v in typed.functions["uses"].variables.items()}
    assert variables["zs"] == variables["ws"] == "list[float]"
    text, signatures, failures = generate_module(context, context.exported_functions(), typed)
    assert failures == {}
    assert '"kiln.list.new"' in text and '"kiln.list.repeat"' in text
    assert '"kiln.list.concat"' in text and '"kiln.release"' in text


# Misuses, one function each (`n: int` in scope, helpers g(list[int]) ->
# int and h(int) -> list[int]): each either compiles or falls back with a
# diagnostic of its own, never an internal compiler error.
MISUSES = """xs = [1, 2]; return xs[1:2][0]
xs = [1, 2]; return abs(xs)
xs = [1, 2]; return -xs
xs = [1, 2]; return xs + 1
xs = [1, 2]; return xs * 1.5
xs = [1, 2]; return xs[xs]
xs = [1, 2]; a, b = xs; return a
xs = [1, 2]; return xs if n else xs
xs = [1, 2]; return (xs or xs)[0]
xs = [1, 2]; return max(xs, 3)
xs = [1, 2]; xs.sort(key=n); return 0
xs = [1, 2]; xs.extend([1.5]); return 0
xs = [1, 2]; xs -= [1]; return 0
xs = [1, 2]; xs[0] = [1]; return 0
xs = [1, 2]; return 1.5 in xs
xs = [True]; return 1 in xs
xs = [1, 2]; return xs == 1
xs = [1, 2]; t = (1, 2); return 1 in t
xs = [1, 2]; return sum(xs, [1])
xs = [1, 2]; return [x for x, y in xs]
xs = [1, 2]; return [x for x in n]
xs = [1, 2]; xs = 1; return 0
xs = []; ys = []; xs = ys; return len(xs)
xs = []; return min(xs)
xs = sorted([]); return len(xs)
xs = [1.5]; return xs + [1]
xs = [x for x in [1, 2] if x]; return xs[0]
xs = [n]; return xs[0, 1]
xs = [n]; return (xs,)[0][0]
xs = [n]; return np.array(xs)[0]
xs = [n]; return np.sum(xs)
xs = [n]; return math.sqrt(xs)
return g([])
return g([1.5])
return h(n)[0]
xs = h(n); xs.append(1.5); return 0
xs: list[float] = [True]; return int(xs[0])
xs = [n]; return 1 < xs < 2
xs = [n]; xs.append(np.float32(1)); return 0
xs = [n]; ys = [v for v in np.zeros((2, 2))]; return 0"""


def test_misuses_fall_back_with_their_reason(tmp_path):
    source = ["import math", "import numpy as np", "import kiln", "", "",
              "def g(xs: list[int]) -> int:", "    return len(xs)", "", "",
              "def h(n: int) -> list[int]:", "    return [n]", ""]
    lines = MISUSES.splitlines()
    for k, line in enumerate(lines):
        source += ["", "@kiln.export", f"def f{k}(n: int) -> int:"]
        source += ["    " + part for part in line.split("; ")] + [""]
    path = tmp_path / "misused_lists.py"
    path.write_text("\n".join(source))
    context = load_module(str(path))
    text, signatures, failures = generate_module(context, context.exported_functions())
    messages = [d.message for error in failures.values() for d in error.diagnostics]
    assert not [m for m in messages if "internal compiler error" in m]
    assert len(failures) + len(signatures) == len(lines) and len(failures) >= 30
    kiln_opt = shutil.which("kiln-opt") or os.path.join(
        os.path.dirname(os.environ.get("KILN_KILNC", "")), "kiln-opt")
    if os.path.exists(kiln_opt):        # the compiled ones' MLIR verifies
        subprocess.run([kiln_opt, "-o", os.devnull], input=text, text=True, check=True)
