"""Several whole-array reductions of one array in one statement read it in
one pass (`np.max(x) - np.min(x) + x.mean()`): the results are CPython's
(numpy's), the errors too (max/min of an empty array), and a statement with
a call that may change the array between them is not fused."""

import numpy as np
import pytest

MODULE = "fused_reductions"
SIZES = [0, 1, 2, 7, 16, 17, 1000, 16385, 100_003]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    try:
        return "ok", function(*args)
    except Exception as error:          # noqa: BLE001 - compared as its type
        return "raise", type(error).__name__


@pytest.mark.parametrize("n", SIZES)
def test_fused_float_reductions_match_numpy(mod, n):
    rng = np.random.default_rng(n)
    x = rng.normal(size=n)
    for view in (x, x[::-1], x[::3]):
        for name in ("spread", "spread_parallel", "guarded"):
            got, want = outcome(getattr(mod.native, name), view), \
                outcome(getattr(mod.python, name), view)
            assert got[0] == want[0], (name, got, want)
            if got[0] == "ok":
                np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12,
                                           err_msg=name)
            else:
                assert got[1] == want[1]


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
def test_fused_reductions_of_special_floats(mod, special):
    x = np.ones(33)
    x[17] = special
    for name in ("spread", "spread_parallel", "guarded"):
        np.testing.assert_allclose(getattr(mod.native, name)(x), getattr(mod.python, name)(x),
                                   rtol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 9, 1000])
def test_fused_int_reductions_are_exact(mod, n):
    rng = np.random.default_rng(n)
    v = rng.integers(-2**31, 2**31, size=n).astype(np.int32)
    w = rng.integers(-3, 4, size=n + 1).astype(np.int32)
    assert mod.native.int_summary(v, w) == mod.python.int_summary(v, w)
    assert mod.native.int_summary(v[::-1] * 0, w) == mod.python.int_summary(v[::-1] * 0, w)


def test_empty_arrays_raise_numpys_error(mod):
    for name in ("spread", "spread_parallel"):
        with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
            getattr(mod.native, name)(np.zeros(0))
    # `s = np.sum(v) + np.sum(w) * v.max()` raises first, as in CPython.
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        mod.native.int_summary(np.zeros(0, np.int32), np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        mod.python.int_summary(np.zeros(0, np.int32), np.zeros(3, np.int32))
    assert mod.native.guarded(np.zeros(0)) == mod.python.guarded(np.zeros(0))


def test_a_call_that_writes_the_array_keeps_the_reductions_apart(mod):
    for name in ("write_between", "method_write_between"):
        x, y = np.array([3.0, -1.0, 2.0]), np.array([3.0, -1.0, 2.0])
        assert getattr(mod.native, name)(x) == getattr(mod.python, name)(y), name
        np.testing.assert_array_equal(x, y)


def test_the_reductions_of_one_array_are_one_loop(mod):
    with open(mod.path(f"{MODULE}.kiln.mlir"), encoding="utf-8") as handle:
        text = handle.read()

    def loops(function):
        body = text[text.index(f"func.func @{MODULE}_{function}("):]
        body = body[:body.index("\n  } loc(")]
        return body.count("scf.for")

    assert loops("spread") == 1
    assert loops("write_between") >= 2
