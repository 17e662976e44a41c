"""Issue 15's lowering defects, against CPython: a division hoisted above
its zero check (B1), the vectorizer reading an erased loop (B2), float
stores into int32 arrays (B8), views of constant-size allocations that did
not verify (B14, B15)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("reliability_lowering")


DIVISIONS = ["floordiv_invariant_in_for", "mod_invariant_in_for", "mod_invariant_in_while",
             "floordiv_invariant_nested"]


def test_invariant_division_by_zero_raises_in_a_subprocess(mod):
    # A regression is SIGFPE: run the calls in a child so it fails this
    # test instead of killing the suite.
    script = textwrap.dedent(f"""
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("m", {mod.path("reliability_lowering.py")!r})
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        import numpy as np
        for name in {DIVISIONS!r}:
            f = getattr(m, name)
            assert f(0, 0) == 0, name
            try:
                f(0, 3)
            except ZeroDivisionError:
                pass
            else:
                raise AssertionError(name)
        assert m.mod_by_length_in_index(np.zeros(0, dtype=np.int64), 0) == 0
        try:
            m.mod_by_length_in_index(np.zeros(0, dtype=np.int64), 2)
        except ZeroDivisionError:
            pass
        else:
            raise AssertionError("mod_by_length_in_index")
        print("ok")
        """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", (
        result.returncode, result.stdout, result.stderr)


@pytest.mark.parametrize("name", DIVISIONS)
@pytest.mark.parametrize("n, m", [(0, 0), (0, 3), (3, 5), (-2, 4), (1, 1)])
def test_invariant_division_matches_cpython(mod, name, n, m):
    compare(mod, name, lambda: (n, m))


@pytest.mark.parametrize("size, m", [(0, 0), (0, 2), (1, 3), (5, 4)])
def test_mod_by_length_in_index(mod, size, m):
    compare(mod, "mod_by_length_in_index",
            lambda: (np.arange(size, dtype=np.int64), m))


@pytest.mark.parametrize("n, m", [(0, 0), (1, 1), (3, 17), (9, 33)])
def test_fill_loops(mod, n, m):
    compare(mod, "zeros_and_ones", lambda: (n, m))
    compare(mod, "zeros_f64", lambda: (n * m,))


FLOATS = [3e9, -3e9, 2.5e9, -2147483649.0, 2147483647.0, 7.9, -7.9, 0.0, -0.0,
          1e19, 1e30, float("nan"), float("inf"), -float("inf"), 2.0**63]


@pytest.mark.parametrize("value", FLOATS)
def test_float_store_into_int32_wraps_like_numpy(mod, value):
    compare(mod, "store_float_into_int32", lambda: (np.zeros(2, np.int32), value))
    compare(mod, "store_float32_into_int32",
            lambda: (np.zeros(2, np.int32), np.float32(value)))


@pytest.mark.parametrize("name", ["reversed_view_of_empty", "row_of_empty",
                                  "reversed_columns_of_empty"])
@pytest.mark.parametrize("i", [0, -1, 2])
def test_views_of_empty_allocations(mod, name, i):
    compare(mod, name, lambda: (i,))


@pytest.mark.parametrize("name", ["strided_view_in_loop", "strided_row_fill",
                                  "offset_strided_fill"])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_strided_views_of_constant_allocations(mod, name, n):
    compare(mod, name, lambda: (n,))


def test_float32_divisor_constant_rounding_to_zero(mod):
    for x in (2.5, -0.0, 1e-300, float("inf")):
        compare(mod, "float_of_float32_mod_tiny", lambda: (x,))
    # 1e-300 and 1e-50 are 0.0 in float32 (NEP 50): Python's rules raise.
    for name in ("float32_mod_tiny", "float32_floordiv_tiny"):
        with pytest.raises(ZeroDivisionError):
            getattr(mod.native, name)(np.float32(2.5))


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4])
def test_atan2_of_constant_zeros(mod, k):
    compare(mod, "atan2_of_constant_zeros", lambda: (k,))


@pytest.mark.parametrize("x", [0.0, -0.0, 1.5, float("nan")])
def test_numpy_typed_scalar_is_not_a_weak_literal(mod, x):
    name = "typed_float64_scalar_beside_float32"
    native = getattr(mod.native, name)(np.float32(x))
    assert native is bool(getattr(mod.python, name)(np.float32(x)))  # np.bool_ there
    compare(mod, "typed_float64_sum_with_float32", lambda: (np.float32(x),))
