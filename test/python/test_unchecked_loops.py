"""`@kiln.export(boundscheck=False)` (issue 28's trap): unchecked indices that
may be negative still wrap as in Python, so kiln-hoist-bounds-checks tests
their sign once before the loop and runs a copy without the wraparound,
which vectorizes like the checked loop's fast copy. Checked against CPython
on windows and shifts that reach negative indices."""

import json

import numpy as np
import pytest

MODULE = "unchecked_loops"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def verdicts(mod, name):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    return [loop["verdict"] if "verdict" in loop else loop.get("vectorized")
            for loop in next(f for f in record["functions"] if f["name"] == name)["loops"]]


def test_unchecked_window_gets_the_checked_loops_verdicts(mod):
    """The inner loop's verdict is the strict-order reduction, not an
    access kiln-vectorize cannot follow (the wraparound select)."""
    assert verdicts(mod, "window_unchecked") == verdicts(mod, "window_checked")


@pytest.mark.parametrize("n, w", [(0, 3), (1, 1), (9, 4), (100, 16)])
def test_windows_agree(mod, n, w):
    x = np.random.default_rng(n).normal(size=n + w)
    for name in ("window_checked", "window_unchecked"):
        got, want = np.zeros(n), [0.0] * n
        getattr(mod.native, name)(x, w, got)
        getattr(mod.python, name)(x.tolist(), w, want)
        assert got.tolist() == want


@pytest.mark.parametrize("n, shift", [(1, 0), (8, 3), (17, -2), (33, 5), (33, 33)])
def test_negative_unchecked_indices_still_wrap(mod, n, shift):
    x = np.arange(n + 2, dtype=np.float64) + 0.5
    got, want = np.zeros(n), [0.0] * n
    mod.native.shifted_unchecked(x, shift, got)
    mod.python.shifted_unchecked(x.tolist(), shift, want)
    assert got.tolist() == want
