"""dtypes as values (modules/dtype_values.py) against CPython, and what
Kiln refuses about them."""

import json
import textwrap

import numpy as np
import pytest

from conftest import kiln_mlir_errors
from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("dtype_values")


def test_everything_compiles(mod):
    with open(mod.path("dtype_values.kiln.json")) as record:
        assert json.load(record)["fallbacks"] == []


@pytest.mark.parametrize("n", [0, 1, 5])
def test_dtypes_from_arrays_and_names(mod, n):
    compare(mod, "empty_like_other", lambda: (np.arange(n) - 2.5, np.ones(3, np.float32)))
    compare(mod, "dtype_in_a_name", lambda: (np.arange(n * 3, dtype=np.int32).reshape(n, 3),))
    compare(mod, "dtype_in_a_name", lambda: (np.full((n, 2), -2**31, dtype=np.int32),))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_helpers_take_dtypes(mod, n):
    compare(mod, "defaults_and_dtypes_passed", lambda: (np.arange(float(n)),))
    compare(mod, "cast_by_a_parameter", lambda: (np.arange(n) * 0.75 - 1,))
    compare(mod, "cast_by_a_parameter", lambda: (np.full(n, np.nan),))


def test_comparisons_follow_python(mod):
    # float == np.float64 is False, np.double is np.float64, an array's
    # dtype equals float and np.float64
    compare(mod, "compared", lambda: (np.ones(2), np.ones(2, np.float32)))


@pytest.mark.parametrize("n", [0, 1, 6])
def test_in_a_loop(mod, n):
    compare(mod, "in_a_loop", lambda: (np.ones(1), n))


def test_each_dtype_passed_is_a_specialization(mod):
    with open(mod.path("dtype_values.kiln.json")) as handle:
        functions = {f["name"]: f for f in json.load(handle)["functions"]}
    symbols = {c["symbol"] for c in functions["defaults_and_dtypes_passed"]["specialized_calls"]}
    assert symbols == {"dtype_values_make"} | {
        f"dtype_values_make__ks_f64_1d__dtype_{tag}"
        for tag in ("i32", "f32", "f64_array", "bool_python")}


REFUSED = textwrap.dedent('''\
    import numpy as np
    import kiln


    @kiln.export
    def returned(a: kiln.f64[:]):
        return a.dtype


    @kiln.export
    def joined(a: kiln.f64[:], flag: bool) -> float:
        dt = a.dtype
        if flag:
            dt = np.float32
        return np.zeros(2, dtype=dt).sum()


    @kiln.export
    def ordered(a: kiln.f64[:]) -> bool:
        return a.dtype < np.float32


    @kiln.export
    def exported(a: kiln.f64[:], dtype=np.float64) -> float:
        return a.astype(dtype).sum()


    @kiln.export
    def kiln_name(a: kiln.f64[:]) -> float:
        t = kiln.f32
        return a.astype(t).sum()
    ''')


def test_what_is_refused_says_why(tmp_path):
    errors = kiln_mlir_errors(tmp_path, "refused", REFUSED)
    for line, column, message in [
            (7, 5, "returning a dtype is not supported; return an array of it or pass the "
                   "dtype on"),
            (14, 9, "variable `dt` is an array's dtype float64 on one path and np.float32 on "
                    "another (assigned at line 12 and at line 14, both of which reach the read "
                    "at line 15)"),
            (20, 12, "a dtype compares only with == and != to another dtype"),
            (24, 30, "parameter `dtype` of an exported function cannot be a dtype"),
            (30, 9, "`kiln.f32` is not a dtype in Python (numpy cannot read it); use "
                    "np.float32")]:
        assert f"refused.py:{line}:{column}: error: {message}" in errors, errors


@pytest.mark.parametrize("x", [2.0, np.nan])
def test_a_helper_at_dtypes_then_at_numbers(mod, x):
    compare(mod, "compared_then_numbers", lambda: (x,))
