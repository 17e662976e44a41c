"""math/numpy functions, builtins, exceptions, tuples and calls: compiled
against CPython on values that include the error cases."""

import math

import numpy as np
import pytest

from test_end_to_end import compare

SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 2.5, -2.5, 3.5, 1e-300, 700.0, 710.0, -800.0,
           1e308, math.inf, -math.inf, math.nan, math.pi, 1e16 + 1]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("library_kernels")


@pytest.mark.parametrize("name", ["m_sqrt", "m_exp", "m_expm1", "m_log", "m_log1p", "m_trig",
                                  "m_tanh", "m_asin", "m_rounding", "m_round", "m_predicates",
                                  "checked_positive"])
def test_unary_math(mod, name):
    for x in SPECIAL:
        if name in ("m_rounding", "m_round") and math.isfinite(x) and abs(x) >= 1e15:
            continue  # Kiln integers are 64-bit; CPython would go to big ints
        compare(mod, name, lambda: (x,))


@pytest.mark.parametrize("name", ["m_log_base", "m_atan2", "m_hypot", "m_pow", "m_fmod",
                                  "m_misc"])
def test_binary_math(mod, name):
    for x in SPECIAL[::2] + [-8.0, 10.0]:
        for y in SPECIAL[1::2] + [1 / 3, -1.0, 400.0]:
            compare(mod, name, lambda: (x, y))


def test_numpy_functions(mod):
    for x in [0.5, 1.0, 2.0, 10.0, 1e-3, math.inf]:
        compare(mod, "np_functions", lambda: (x,))
    for a in SPECIAL[:8] + [math.nan]:
        for b in [0.0, -0.0, 1.0, math.nan]:
            compare(mod, "np_minmax", lambda: (a, b))
    x = np.linspace(0.0, 50.0, 37, dtype=np.float32)
    out = np.zeros_like(x)
    mod.native.np_f32_sqrt(x, out)
    np.testing.assert_array_max_ulp(out, np.sqrt(x), maxulp=0)
    for v in [0.1, 1e10, -3.75, 1e300]:
        if abs(v) < 1e18:
            compare(mod, "casts", lambda: (v,))


def test_raise_and_assert(mod):
    compare(mod, "checked_positive", lambda: (-1.0,))
    with pytest.raises(ValueError, match=r"x must be non-negative \(.*library_kernels.py, line"):
        mod.native.checked_positive(-2.0)
    for n in [0, 6, 7, 99, 100, 1000]:
        compare(mod, "asserting", lambda: (n,))


def test_tuples(mod):
    for a in [-7, -1, 0, 5, 13]:
        for b in [-3, -1, 1, 4, 0]:
            compare(mod, "divmod_pair", lambda: (a, b))
            compare(mod, "uses_pair", lambda: (a, b))
    for n in [0, 1, 5]:
        compare(mod, "min_max_of", lambda: (np.arange(n, dtype=np.float64)[::-1],))
        compare(mod, "first_pair_over", lambda: (np.arange(n, dtype=np.int64) * 3, 4))
    assert mod.native.divmod_pair(7, 2) == (3, 1)


def test_calls(mod):
    for n in [0, 1, 4]:
        compare(mod, "calls_helper", lambda: (np.linspace(-1, 1, n),))
    compare(mod, "propagates", lambda: (7, 0))
    compare(mod, "propagates", lambda: (7, 2))
    with pytest.raises(ZeroDivisionError) as info:
        mod.native.propagates(1, 0)
    assert "integer division or modulo by zero" in str(info.value)
    for n in range(12):
        compare(mod, "fib", lambda: (n,))
    compare(mod, "fill_twice", lambda: (np.zeros(4),))
    read_only = np.zeros(3)
    read_only.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        mod.native.fill_twice(read_only)


def test_power_operator(mod):
    for a in [-3, -1, 0, 1, 2, 7]:
        for b in [0, 1, 2, 5, 13]:
            compare(mod, "int_pow", lambda: (a, b))
    with pytest.raises(ValueError, match="negative exponent"):
        mod.native.int_pow(2, -1)
    assert mod.native.int_pow(3, 41) == (3 ** 41 + 2 ** 63) % 2 ** 64 - 2 ** 63  # wraps
    for x in [0.0, -0.0, 0.5, 2.0, -2.0, 10.0, math.inf, -math.inf, math.nan]:
        for y in [0.0, 0.5, 2.0, 3.0, -1.0, -0.5, 400.0, math.inf, math.nan]:
            if x < 0 and math.isfinite(y) and y != int(y) and math.isfinite(x):
                with pytest.raises(ValueError, match="complex"):
                    mod.native.float_pow(x, y)  # CPython returns a complex number
                continue
            compare(mod, "float_pow", lambda: (x, y))
