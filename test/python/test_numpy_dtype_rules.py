"""numpy's rules for bool and mixed-dtype operands (modules/numpy_dtype_rules.py)
against CPython on edge inputs: empty and one-element arrays, NaN and
infinities, the integer extremes, exponents that would raise."""


import numpy as np
import pytest

from conftest import kiln_mlir_errors
from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("numpy_dtype_rules")


def test_everything_compiles(mod):
    with open(mod.path("numpy_dtype_rules.kiln.json")) as record:
        assert '"fallbacks": []' in record.read()


def bools(*values):
    return np.array(values, dtype=bool)


@pytest.mark.parametrize("a, b", [((), ()), ((True,), ()), ((True, False, True), (False, True)),
                                  ((True,) * 9, (True, False) * 4)])
def test_bool_operands(mod, a, b):
    compare(mod, "outer_of_bools", lambda: (bools(*a), bools(*b)))
    if len(a) == len(b) or min(len(a), len(b)) == 1 or (len(a), len(b)) == (1, 0):
        for name in ("bool_arrays_added", "bool_arrays_multiplied"):
            compare(mod, name, lambda: (bools(*a), bools(*b)))
    compare(mod, "absolute_of_bools", lambda: (bools(*a),))
    compare(mod, "bool_arrays_added", lambda: (bools(True, False), bools(*b)))   # may not broadcast


def test_bools_then_floats(mod):
    compare(mod, "bool_arrays_combined", lambda: (bools(True, False, True, False),
                                                  bools(True, True, False, False),
                                                  np.array([1.5, -2.0, np.nan, np.inf])))


@pytest.mark.parametrize("x", [[], [1.0], [1.0, -1.0, np.nan, 0.0, -0.0, np.inf, -np.inf]])
@pytest.mark.parametrize("z", [2 + 3j, complex(np.nan, 1.0), -0j])
def test_where_with_a_complex_number(mod, x, z):
    compare(mod, "where_with_a_complex_number", lambda: (np.array(x), z))


@pytest.mark.parametrize("rows, exponents", [
    (0, [1, -1, 2]),            # an empty result raises nothing (numpy's rule)
    (2, [1, 0, 2]), (2, [1, -1, 2]), (1, [63, 64, -(2**63)]), (3, []),
])
def test_int_power_of_arrays(mod, rows, exponents):
    compare(mod, "int_power_of_arrays", lambda: (
        np.arange(rows * len(exponents), dtype=np.int64).reshape(rows, len(exponents)) - 2,
        np.array(exponents, dtype=np.int64)))


@pytest.mark.parametrize("a, e", [([], []), ([2, -3, 0, 2**31 - 1], [3, 2, 0, 1]),
                                  ([2], [-1]), ([-(2**31)], [2]), ([7, 7], [31, 64])])
def test_numpy_power_of_int_arrays(mod, a, e):
    compare(mod, "numpy_power_of_int_arrays", lambda: (np.array(a, dtype=np.int32),
                                                       np.array(e, dtype=np.int64)))


def test_float_functions_of_small_ints(mod):
    compare(mod, "hypot_of_bools_and_float32", lambda: (
        bools(True, False, True), np.array([3.0, -4.0, np.nan], dtype=np.float32)))
    compare(mod, "float_functions_of_uint8_and_float64", lambda: (
        np.array([0, 1, 200, 255], dtype=np.uint8), np.array([-1.0, 2.5, np.inf, -0.0])))
    compare(mod, "float_functions_of_int8_and_int16", lambda: (
        np.array([-128, 0, 127], dtype=np.int8), np.array([-32768, 3, 32767], dtype=np.int16)))


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_masks_and_positions_from_new_arrays(mod, n):
    compare(mod, "mask_from_a_new_array", lambda: (np.arange(float(n)),))
    compare(mod, "positions_from_a_new_array", lambda: (np.arange(float(n)) * 0.5,))


@pytest.mark.parametrize("values", [(True, True), (True, False), (False, True), (False, False)])
@pytest.mark.parametrize("flag", [False, True])
def test_bool_elements_are_numpys(mod, values, flag):
    compare(mod, "bool_elements", lambda: (bools(*values), flag, np.zeros(8)))


@pytest.mark.parametrize("values", [(True,), (True, False, True), (False,) * 5, (True,) * 17])
def test_bool_elements_in_loops(mod, values):
    compare(mod, "bool_elements_in_loops", lambda: (bools(*values),))


REFUSED = """import kiln


@kiln.export
def subtracted(m: kiln.b1[:]) -> int:
    return int(m[0] - m[1])


@kiln.export
def negated(m: kiln.b1[:]) -> int:
    return int(-m[0])


@kiln.export
def arrays_subtracted(a: kiln.b1[:], b: kiln.b1[:]):
    return a - b
"""


def test_what_numpy_refuses_of_bools_is_refused(tmp_path):
    errors = kiln_mlir_errors(tmp_path, "refused", REFUSED)
    for line, column, message in [
            (6, 16, "numpy does not subtract bools (TypeError: numpy boolean subtract); use "
                    "`^` or convert with int()"),
            (11, 16, "numpy does not negate bools (TypeError: numpy boolean negative); use `~` "
                     "or `not`"),
            (16, 12, "numpy does not subtract bool arrays (it raises TypeError); use `^` or "
                     "np.logical_xor")]:
        assert f"refused.py:{line}:{column}: error: {message}" in errors, errors
