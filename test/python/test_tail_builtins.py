"""divmod, range objects as values, module constants (numbers as parameter
defaults; tuples, lists and dicts of numbers read from compiled code),
generator expressions consumed by sum/min/max/any/all/sorted/list/dict,
and `raise E(f"...")` against CPython running the same source
(modules/tail_builtins.py), with edge inputs: zero and negative divisors,
NaN and infinities, empty and negative-step ranges, step 0, the int64
extremes, empty generators. The refusals are pinned at the end with their
positions (no backend needed)."""

import json
import math

import numpy as np
import pytest

from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

from conftest import assert_rss_flat, outcome

MODULE = "tail_builtins"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def wrapped(value):
    """CPython's value as Kiln's 64-bit ints hold it (they wrap: documented)."""
    if isinstance(value, (tuple, list)):
        return type(value)(wrapped(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return (value + 2**63) % 2**64 - 2**63
    return value


def same(mod, name, *args):
    """The native function and CPython agree on the result (repr: -0.0,
    int against float, NaN alike) or the exception and its message."""
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert repr(got) == repr(wrapped(want)), (name, args, got, want)
    return got


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["fallbacks"] == []


INT64_MIN, INT64_MAX = -2**63, 2**63 - 1
INTS = [0, 1, -1, 2, 7, -7, 10, -10, 99, 12345, -12345, INT64_MAX, INT64_MIN + 1]
FLOATS = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, 0.1, -0.3, 1e300, -1e-300, math.inf,
          -math.inf, math.nan]


@pytest.mark.parametrize("n", INTS)
def test_divmod_ints(mod, n):
    for d in INTS + [3, -3, 1 << 40]:
        same(mod, "divmod_ints", n, d)          # ZeroDivisionError for 0
    for k in (-3, -2, -1, 0, 1, 2):
        same(mod, "divmod_indexed", n, k)       # IndexError outside the tuple
    same(mod, "digits_sum", n)
    for base in (1, 7, 60, -60):
        same(mod, "divmod_in_tuple", n, base)


@pytest.mark.parametrize("x", FLOATS)
def test_divmod_floats(mod, x):
    for y in FLOATS:
        same(mod, "divmod_floats", x, y)        # ZeroDivisionError "float divmod()"
    for n in (0, 7, -7, 2**53 + 1):
        same(mod, "divmod_mixed", n, x)


def test_divmod_constants_and_bools(mod):
    same(mod, "divmod_literals")
    for a in (False, True):
        for b in (False, True):
            same(mod, "divmod_bools", a, b)


# ------------------------------------------------------------------ range
RANGES = [(0, 10, 1), (0, 10, 3), (10, 0, -3), (10, 0, 3), (0, 0, 1), (5, 5, -1), (-5, 5, 2),
          (7, -7, -7), (0, 1, 0), (3, 4, 0), (INT64_MIN, INT64_MAX, 2**62),
          (INT64_MAX, INT64_MIN, -2**62), (INT64_MIN, INT64_MAX, INT64_MAX),
          (INT64_MAX, INT64_MIN, INT64_MIN), (-3, 3, INT64_MIN), (0, 100, 7)]


@pytest.mark.parametrize("bounds", RANGES, ids=str)
def test_range_values(mod, bounds):
    same(mod, "range_basics", *bounds)      # ValueError: range() arg 3 must not be zero
    same(mod, "range_length", *bounds)
    for i in (0, 1, 2, -1, -2, 5, -5, 15, -15, INT64_MAX, INT64_MIN):
        same(mod, "range_item", *bounds, i)     # IndexError outside
    for x in (0, 1, 3, 5, 6, 9, 10, -1, -3, -7, 7, INT64_MIN, INT64_MAX, 2**62, -2**62):
        same(mod, "range_contains", *bounds, x)
    for x in (0.0, -0.0, 3.0, 3.5, 6.0, -7.0, 1e300, -1e300, math.inf, -math.inf, math.nan,
              -2.0**63, 2.0**63):
        same(mod, "range_contains_float", *bounds, x)
    same(mod, "range_reductions", *bounds)
    if all(abs(b) < 1000 for b in bounds):
        same(mod, "range_walk", *bounds)
        for reverse in (False, True):
            same(mod, "range_lists", *bounds, reverse)
    for limit in (1, 3):
        same(mod, "range_walk_breaks", *bounds, limit)


def test_range_lengths_beyond_int64(mod):
    """len() and list() raise CPython's OverflowError; a loop walks it."""
    same(mod, "range_length", INT64_MIN, INT64_MAX, 1)
    same(mod, "range_length", 0, INT64_MAX, 1)
    same(mod, "range_length", -1, INT64_MAX, 1)
    same(mod, "range_length", INT64_MAX, INT64_MIN, -1)
    same(mod, "range_basics", INT64_MIN, INT64_MAX, 1)
    for i in (0, 5, -1, -5, INT64_MAX, INT64_MIN):
        same(mod, "range_item", INT64_MIN, INT64_MAX, 1, i)
        same(mod, "range_item", INT64_MAX, INT64_MIN, -1, i)
    for limit in (1, 4, 10):
        same(mod, "range_walk_breaks", INT64_MIN, INT64_MAX, 1, limit)
        same(mod, "range_walk_breaks", INT64_MAX, INT64_MIN, -1, limit)
    same(mod, "range_lists", INT64_MIN, INT64_MAX, 1, False)
    for x in (0, INT64_MIN, INT64_MAX, INT64_MAX - 1):
        same(mod, "range_contains", INT64_MIN, INT64_MAX, 1, x)


def test_ranges_of_literals(mod):
    for k in (-1, 0, 1, 7):
        same(mod, "range_of_literals", k)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 30])
def test_range_loops(mod, n):
    same(mod, "range_first_last", n)        # IndexError when empty
    same(mod, "range_reused", n)
    for start in (0.0, -0.0, 0.5, math.inf):
        same(mod, "range_float_sum", n, start)
    for flag in (False, True):
        same(mod, "range_of_bools_and_negatives", flag, n)


# ------------------------------------------------------- module constants
@pytest.mark.parametrize("n", [0, 1, -7, 2**40])
def test_constant_defaults(mod, n):
    same(mod, "with_defaults", n)
    same(mod, "with_defaults", n, 3)
    same(mod, "with_defaults", n, 3, 0.5, 9)
    same(mod, "call_with_defaults", n)
    assert mod.native.with_defaults(n, rate=2.0) == mod.python.with_defaults(n, rate=2.0)


def test_record_lists_each_constant_copy(mod):
    """The record says where a function copies a module list or dict (when
    it is called, at its `def`)."""
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    [function] = [f for f in record["functions"] if f["name"] == "constant_dict_walks"]
    copies = [site for site in function["allocations"] if "module constant" in site["reason"]]
    assert [(c["line"], c["kind"], c["type"], c["in_loop"], c["fate"]) for c in copies] == [
        (function["line"], "dict", "dict[int, float]", None, "local")]


def test_constant_tuples_lists_and_dicts(mod):
    for k in (-3, -2, -1, 0, 1, 2):
        same(mod, "constant_tuple", k)          # IndexError outside
    for i in (-6, -5, -1, 0, 1, 4, 5):
        for x in (0, 2, 5, 11, 12):
            same(mod, "constant_list_reads", i, x)      # IndexError outside
    for n in (0, 1, -2):
        same(mod, "constant_list_derived", n)
    for x in (0, 2, 4, 5, 11, 13):
        same(mod, "constant_list_search", x)    # ValueError: x is not in list
    for i in (-4, -3, 0, 2, 3):
        same(mod, "constant_floats", i)         # IndexError outside
    for k in (0, 1, 5, 7, 8, -1):
        same(mod, "constant_dict_reads", k)     # KeyError(k)
    for scale in (0.0, -0.0, 1.5, math.inf, math.nan):
        same(mod, "constant_dict_walks", scale)
    for x in (0.5, 0.0, -0.0, 2.5, 1.0, math.nan, math.inf):
        same(mod, "constant_float_keys", x)
    for n in (0, 1, 9, 100):
        same(mod, "constant_in_helper", n)
    # The module's own objects are untouched by the calls.
    assert mod.native.PRIMES == [2, 3, 5, 7, 11] and mod.native.WEIGHTS == {1: 2.0, 5: -1.5,
                                                                              7: 0.0}


# ------------------------------------------------- generator expressions
INT_LISTS = [[], [0], [5], [3, -1, 4], [2, 2, 9, 1], list(range(-6, 12, 3)), [7, 0, 3]]
FLOAT_LISTS = [[], [2.5], [1.0, -0.0, 0.0, 3.5], [math.nan, 1.0, math.inf, -math.inf],
               [1.0, math.nan], [0.1 * k for k in range(20)]]
DICTS = [{}, {1: 2.0}, {3: -1.5, 1: 4.0, 7: 0.0}, {2: math.nan, -4: 9.5}]


@pytest.mark.parametrize("xs", INT_LISTS, ids=str)
def test_generators_of_ints(mod, xs):
    for ys in FLOAT_LISTS[:3]:
        same(mod, "generator_sums", xs, ys, 3)
    for n in (0, 1, 3):
        same(mod, "generator_nested", xs, n)
    for d in DICTS:
        same(mod, "generator_any_all", xs, d)
    same(mod, "generator_short_circuit", xs)        # ZeroDivisionError only when reached
    int_dict = {x: x - 2 for x in xs}
    for reverse in (False, True):
        same(mod, "generator_collections", int_dict, len(xs), reverse)


@pytest.mark.parametrize("ys", FLOAT_LISTS, ids=str)
def test_generators_of_floats(mod, ys):
    same(mod, "generator_min_max", ys)              # NaN where CPython keeps it
    for xs in FLOAT_LISTS:
        a = np.array(xs[:4])
        same(mod, "generator_zips", ys, xs, a)
    for d in ({}, {1: 2}, {0: 0, 5: 1}):
        for n in (0, 2):
            same(mod, "any_all_of_containers", ys, d, n)


@pytest.mark.parametrize("d", DICTS, ids=str)
def test_generators_over_dicts(mod, d):
    same(mod, "generator_over_dicts", d)


@pytest.mark.parametrize("n", [0, 1, 5, 17])
def test_generators_over_ranges(mod, n):
    for step in (1, 2, 5, -1, 0):
        same(mod, "generator_over_ranges", n, step)     # ValueError for step 0, empty min()



@pytest.mark.parametrize("s", [set(), {0}, {5, -3, 8}, {2, 4, 6, 1}, {3}], ids=str)
def test_generators_over_sets(mod, s):
    for xs in INT_LISTS:
        for n in (0, 3):
            same(mod, "generators_over_sets", s, xs, n)     # ValueError: max() of {n}
            same(mod, "sets_from_generators", xs, n)


# ---------------------------------------------------------- f-string raises
def test_raise_with_formatted_messages(mod):
    for n in (-5, 0, 1, 2, 3, 4, 5, 6, INT64_MIN, INT64_MAX):
        for flag in (False, True):
            for m in (-7, 0, 3, 1000):
                same(mod, "raise_formatted", n, flag, m)
    for limit in (-1, 0, 5, 100):
        same(mod, "raise_in_loop", [3, -1, 4, 1, 5], limit)


# ------------------------------------------------------------------ memory
def test_memory_stays_flat(mod):
    """The functions that make lists, dicts and sets (constant copies,
    generator expressions handed to sorted()/list()/dict()/set(), list(r))
    and those that raise after making them: no growth of the RSS (a
    container leaked per call would show)."""
    assert_rss_flat(mod.native, {
        "constant_list_reads": (1, 5), "constant_list_derived": (2,),
        "constant_dict_walks": (1.5,), "constant_dict_reads": (99,),
        "constant_list_search": (4,), "constant_in_helper": (3,),
        "generator_collections": ({1: 2, 3: -1}, 5, True),
        "generator_sums": ([1, 2, 3], [0.5], 2), "generator_min_max": ([],),
        "generator_over_dicts": ({1: 2.0},), "range_lists": (0, 10, 3, False),
        "raise_in_loop": ([3, -1, 4], 2), "generators_over_sets": ({1, 5}, [5, 2], 1),
        "sets_from_generators": ([4, 1, 6], 2)}, (KeyError, ValueError))


# --------------------------------------------------------------- refusals
REFUSED = """import kiln
import numpy as np

TABLE = [1, 2, 3]
CHANGED = [4, 5]
CHANGED.append(6)
WEIGHTS = {1: 2.0}
LOOSE = [1, 2]


def reader(r):
    return 0


@kiln.export
def divmod_complex(z: complex) -> float:
    q, r = divmod(z, 2)
    return 0.0


@kiln.export
def divmod_arrays(a: kiln.f64[:]) -> float:
    q, r = divmod(a, 2.0)
    return 0.0


@kiln.export
def range_passed(n: int) -> int:
    return reader(range(n))


@kiln.export
def range_returned(n: int):
    return range(n)


@kiln.export
def range_rebound(n: int) -> int:
    r = range(n)
    if n > 3:
        r = range(3)
    return len(r)


@kiln.export
def range_sliced(n: int) -> int:
    return len(range(n)[1:])


@kiln.export
def range_compared(n: int) -> bool:
    return range(n) == range(n)


@kiln.export
def range_float(x: float) -> int:
    return len(range(x))


@kiln.export
def range_value_of_or(n: int) -> int:
    r = range(n) or range(3)
    return len(r)


@kiln.export
def constant_written(x: int) -> int:
    TABLE.append(x)
    return 0


@kiln.export
def constant_aliased(i: int) -> int:
    t = LOOSE
    return t[i]


@kiln.export
def constant_changed_elsewhere(i: int) -> int:
    return CHANGED[i]


@kiln.export
def constant_dict_stored(k: int) -> float:
    WEIGHTS[k] = 1.0
    return 0.0


@kiln.export
def generator_kept(xs: list[int]) -> int:
    g = (x for x in xs)
    return 0


@kiln.export
def generator_len(xs: list[int]) -> int:
    return len(x for x in xs)


@kiln.export
def generator_tuple(xs: list[int]) -> int:
    t = tuple(x for x in xs)
    return 0


@kiln.export
def generator_sum_f32(a: kiln.f32[:]) -> float:
    return sum(v for v in a)


@kiln.export
def generator_min_complex(n: int) -> float:
    return min(1j * i for i in range(n)).real


@kiln.export
def generator_dict_not_pairs(n: int) -> int:
    d = dict(i for i in range(n))
    return 0


@kiln.export
def generator_max_two(xs: list[int]) -> int:
    return max((x for x in xs), 5)


@kiln.export
def raise_float(x: float) -> float:
    raise ValueError(f"bad x {x}")


@kiln.export
def raise_spec(n: int) -> int:
    raise ValueError(f"bad n {n:5d}")


@kiln.export
def raise_unsigned(n: kiln.u64) -> int:
    raise ValueError(f"bad n {n}")


@kiln.export
def raise_many_bools(a: bool, b: bool, c: bool, d: bool) -> int:
    raise ValueError(f"{a}{b}{c}{d}")


@kiln.export
def raise_two_args(n: int) -> int:
    raise ValueError("bad", n)
"""


def test_refusals_say_why(tmp_path):
    """Each unsupported variant is a compile error at its line and column
    (the function runs as Python), never a crash or a wrong number."""
    path = tmp_path / "refused_tail.py"
    path.write_text(REFUSED)
    failures = infer_module(load_module(str(path))).failures
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in failures.items()}
    hint = "keep its start, stop and step (or list(r)) instead"
    read_only = "module lists and dicts are read-only in compiled code (a copy taken when " \
                "the function is called); read it, or take a copy"
    generator = "a generator expression is supported as the argument of sum(), min(), max(), " \
                "any(), all(), sorted(), list(), dict(), set() or str.join() only"
    assert first == {
        "divmod_complex": (17, 12, "divmod() does not take complex numbers (CPython raises "
                                   "TypeError: complex numbers have no floor division)"),
        "divmod_arrays": (23, 12, "divmod() of arrays (numpy's np.divmod) is not supported "
                                  "yet; use // and %"),
        "range_passed": (29, 19, f"passing a range to reader() is not supported yet; {hint}"),
        "range_returned": (34, 5, f"returning a range is not supported yet; {hint}"),
        "range_rebound": (40, 5, "variable `r` holds a range and is rebound in a branch of this "
                                 "`if`; a range variable is supported in straight-line code "
                                 "only yet: bind each range to its own name, or keep the start, "
                                 "stop and step in int variables"),
        "range_sliced": (47, 16, "slicing a range is not supported yet; index it with an int, "
                                 "or write the range the slice would be"),
        "range_compared": (52, 12, "a range is not a number or an array: `range(n) == range(n)` "
                                   "does not take it"),
        "range_float": (57, 22, "range() arguments must be int, not float"),
        "range_value_of_or": (62, 9, "`and`/`or` with a range operand is supported only where "
                                     "its truth is tested (`if`, `while`, `not`)"),
        "constant_written": (68, 5, "module constant `TABLE` is changed or handed on here "
                                    f"(`TABLE.append` may change it): {read_only} "
                                    "(`list(TABLE)`)"),
        "constant_aliased": (74, 9, "module constant `LOOSE` is changed or handed on here (it "
                                    f"is bound to another name): {read_only} (`list(LOOSE)`)"),
        "constant_changed_elsewhere": (80, 12, "global variable `CHANGED` is not supported: "
                                               "compiled code reads module lists and dicts as "
                                               "constants taken at compile time, and line 6 "
                                               "may change this one (`CHANGED.append` may "
                                               "change it)"),
        "constant_dict_stored": (85, 5, "module constant `WEIGHTS` is changed or handed on "
                                        "here (`WEIGHTS[k]` is assigned or deleted): "
                                        f"{read_only} (`dict(WEIGHTS)`)"),
        "generator_kept": (91, 9, generator),
        "generator_len": (97, 15, generator),
        "generator_tuple": (102, 26, "tuple() of a generator expression over list[int] is "
                                     "not supported: tuple() of a generator expression is "
                                     "supported over tuples (a tuple variable, `x.shape`, "
                                     "zip() or enumerate() of them), without `if`: a tuple's "
                                     "length is known at compile time in Kiln; use list(...)"),
        "generator_sum_f32": (108, 16, "sum() of kiln.f32 values is not supported yet (it adds "
                                       "in the values' own dtype); convert them: `float(...)` "
                                       "or `int(...)`"),
        "generator_min_complex": (113, 16, "min() of complex numbers is not supported (they are "
                                           "not ordered)"),
        "generator_dict_not_pairs": (118, 14, "dict() of a generator expression takes (key, "
                                              "value) pairs written as a tuple: dict((k, v) "
                                              "for ...)"),
        "generator_max_two": (124, 12, "max() takes the generator expression alone here"),
        "raise_float": (129, 22, "`{x}` of a float in a raised exception's message is not "
                                 "supported: CPython's repr of a float is not computed by "
                                 "compiled code yet; show it as an int, or raise a constant "
                                 "message"),
        "raise_spec": (134, 22, "a format spec (`{x:...}`) in a raised exception's message is "
                                "not supported yet; write `{x}`"),
        "raise_unsigned": (139, 22, "`{n}` of a kiln.u64 in a raised exception's message is "
                                    "not supported: the error record holds signed 64-bit "
                                    "ints, and a kiln.u64 may be 2**63 or more"),
        "raise_many_bools": (144, 11, "a raised exception's message shows at most 3 bools"),
        "raise_two_args": (149, 11, "an exception raised in compiled code takes one message: a "
                                    "constant string, or an f-string of ints and bools "
                                    "(`f\"bad n {n}\"`)"),
    }
