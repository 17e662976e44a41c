"""Small helpers of numbers cost nothing (issue 28's trap): kiln-inline-helpers
inlines them before kiln-vectorize, so a loop calling one vectorizes like the
same code written inline, and agrees with CPython bit for bit, exceptions
raised inside the helpers included (their message and line)."""

import json

import numpy as np
import pytest

MODULE = "inlined_helpers"
SIZES = [0, 1, 7, 8, 9, 17, 1000]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def loops(mod, name):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    return next(f for f in record["functions"] if f["name"] == name)["loops"]


@pytest.mark.parametrize("name", ["erf_map", "logs", "clamp_all"])
def test_loops_calling_helpers_vectorize(mod, name):
    [loop] = loops(mod, name)
    assert loop["vectorized"], loop


@pytest.mark.parametrize("n", SIZES)
def test_helpers_agree_with_cpython(mod, n):
    """The helper's loop is the inline loop's code, bit for bit; against
    CPython (Python floats), within libmvec's documented error for the
    vectorized exp (docs/language.md)."""
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.normal(size=n), [np.nan, np.inf, -np.inf, 0.0, -0.0]])[:max(n, 1)]
    helper, inline = np.full_like(x, -9.0), np.full_like(x, -9.0)
    mod.native.erf_map(x, helper)
    mod.native.erf_map_inline(x, inline)
    np.testing.assert_array_equal(helper, inline)
    want = [-9.0] * len(x)
    mod.python.erf_map(x.tolist(), want)
    np.testing.assert_allclose(helper, want, rtol=0, atol=1e-15)
    positive = np.abs(x[np.isfinite(x)]) + 0.5
    assert mod.native.sum_two_levels(positive) == mod.python.sum_two_levels(positive.tolist())
    ints = rng.integers(-2**62, 2**62, size=n)
    got, want = np.zeros_like(ints), [0] * n
    mod.native.clamp_all(ints, -5, 2**40, got)
    mod.python.clamp_all(ints.tolist(), -5, 2**40, want)
    assert got.tolist() == want


@pytest.mark.parametrize("name, args, error", [
    ("sum_two_levels", (np.array([1.0, 2.0, 0.0, 3.0]),), ZeroDivisionError),
    ("sum_two_levels", (np.array([1.0, -1.0]),), ZeroDivisionError),
    ("logs", (np.array([1.0, 2.0, -1.0] + [1.0] * 20), np.zeros(23)), ValueError),
])
def test_exceptions_inside_inlined_helpers(mod, name, args, error):
    """The exception CPython raises inside the helper, with its message, and
    the helper's line; elements before it are written, as in Python."""
    native_args = [a.copy() for a in args]
    python_args = [a.tolist() for a in args]     # Python floats: CPython's errors
    with pytest.raises(error) as native:
        getattr(mod.native, name)(*native_args)
    with pytest.raises(error) as python:
        getattr(mod.python, name)(*python_args)
    assert str(native.value).startswith(str(python.value))
    line = python.traceback[-1].lineno + 1
    assert f"line {line})" in str(native.value), (str(native.value), line)
    for got, want in zip(native_args, python_args):
        assert got.tolist() == want
