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

MODULE = "tail_builtins"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    """(result, exception type and message) of one call."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        # Messages of compiled code end with the source location.
        return None, (type(error).__name__, str(error).split(" (")[0])


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


# ---------------------------------------------------------- f-string raises
def test_raise_with_formatted_messages(mod):
    for n in (-5, 0, 1, 2, 3, 4, 5, 6, INT64_MIN, INT64_MAX):
        for flag in (False, True):
            for m in (-7, 0, 3, 1000):
                same(mod, "raise_formatted", n, flag, m)
    for limit in (-1, 0, 5, 100):
        same(mod, "raise_in_loop", [3, -1, 4, 1, 5], limit)
