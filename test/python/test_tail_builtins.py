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


def same(mod, name, *args):
    """The native function and CPython agree on the result (repr: -0.0,
    int against float, NaN alike) or the exception and its message."""
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert repr(got) == repr(want), (name, args, got, want)
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
