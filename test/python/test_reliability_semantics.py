"""Issue 15: miscompiles where compiled code returned another value than
CPython (or raised another exception). Every case runs the compiled function
and the same source under CPython; floats must agree bit for bit (NaN signs
included) and exceptions in type and message."""

import math
import re
import struct

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("reliability_semantics")


def bits(value):
    return struct.pack("<d", value) if isinstance(value, float) else value


def outcome(function, args):
    try:
        with np.errstate(all="ignore"):
            result = function(*args)
    except Exception as error:  # noqa: BLE001 - type and message are compared
        # Kiln appends "(file, line N)" to CPython's message.
        return "error", type(error), re.sub(r" \([^()]*, line \d+\)$", "", str(error))
    if isinstance(result, (np.floating, np.integer, np.bool_)):
        result = result.item()
    return "value", type(result), bits(result)


def same(mod, name, *args):
    native = outcome(getattr(mod.native, name), args)
    python = outcome(getattr(mod.python, name), args)
    assert native == python, (name, args, native, python)
    return native


# ---- B3
def test_tuple_assignment_in_loops(mod):
    for n in (0, 1, 2, 10, 50, 90):
        same(mod, "fib_for", n)
        same(mod, "fib_early_exit", n, 1000)
    for k in (0, 1, 2, 33, 34):
        same(mod, "swap_while", k)
        same(mod, "swap_in_branch", k)
    assert mod.native.swap_while(33) == 21
    assert mod.native.fib_for(50) == 12586269025


def test_tuple_assignment_of_elements(mod):
    for n in (0, 1, 2, 7):
        got, want = np.arange(float(n)), np.arange(float(n))
        mod.native.swap_elements(got)
        mod.python.swap_elements(want)
        np.testing.assert_array_equal(got, want)


# ---- B4
def test_float_and_int_are_python_width(mod):
    for x in (0.1, 1.1, 3.3e38, -2.5e-45):
        same(mod, "float_of_f32", np.float32(x))
        same(mod, "float_of_f32_sum", np.float32(x), np.float32(3.3e38))
    # Summed in double: no float32 overflow.
    assert math.isfinite(mod.native.float_of_f32_sum(np.float32(3.3e38), np.float32(3.3e38)))
    for x in (0, 5, -7, 2**31 - 1, -2**31):
        same(mod, "int_of_i32", np.int32(x))
        same(mod, "int_of_i32_var", np.int32(x))
    assert mod.native.int_of_i32(np.int32(2**31 - 1)) == (2**31 - 1) * 2**30


# ---- B5
def test_float32_casts_of_constants_round(mod):
    for name in ("f32_literal", "f32_module_constant", "f32_int_literal"):
        same(mod, name)
    assert mod.native.f32_literal() == float(np.float32(0.1)) != 0.1


# ---- B7
def test_python_ints_beyond_int32(mod):
    # numpy 2 (NEP 50) raises for an int32 operation with a Python int that
    # does not fit; numpy 1 widened. Kiln raises numpy 2's OverflowError.
    for name in ("i32_plus_big", "i32_plus_big_constant"):
        with pytest.raises(OverflowError, match="Python integer 1099511627776 out of bounds "
                                                "for int32"):
            getattr(mod.native, name)(np.int32(5))
    # Comparisons, min/max and variables are exact, as in Python and numpy.
    for x in (5, -2**31, 2**31 - 1):
        same(mod, "i32_less_than_big", np.int32(x))
        same(mod, "i32_max_big", np.int32(x))
        for k in (0, 1):
            same(mod, "i32_variable_big", np.int32(x), k)
    assert mod.native.i32_plus_small(np.int32(5)) == 5 + 2**20


# ---- B9
def test_float_to_int_range(mod):
    for x in (-2.0**63, -2.0**63 + 1024.0, 2.0**63 - 1024.0, -0.5, 3.9):
        same(mod, "to_int", x)
        same(mod, "floor_to_int", x)
    for x in (2.0**63, -2.0**63 * (1 + 2**-52), math.inf, -math.inf, math.nan):
        native = outcome(mod.native.to_int, (x,))
        assert native[0] == "error", x
        assert native[1] is outcome(mod.python.to_int, (x,))[1] or native[1] is OverflowError
    assert mod.native.to_int(-2.0**63) == -2**63
    # float -> int32 goes through int64 and wraps (never LLVM poison).
    assert mod.native.to_int32(3.9) == 3
    assert mod.native.to_int32(-2.0**31) == -2**31


# ---- B10
def test_indices_are_evaluated_before_bounds_checks(mod):
    m = np.zeros((3, 4))
    for args in ((5, 1, 0), (1, 1, 0), (5, 1, 1), (-4, 2, 1), (1, 8, 2)):
        same(mod, "index_then_divide", m, *args)
        same(mod, "view_then_divide", m, *args)


# ---- B11
def test_hypot_overflows_to_inf(mod):
    for x, y in [(1.7e308, 1.7e308), (1e308, 1e308), (3.0, 4.0), (math.inf, math.nan),
                 (math.nan, 1.0), (-1.7e308, 1e308)]:
        same(mod, "hypot", x, y)


# ---- B12
POW_BASES = [2.0, -3.0, 0.0, -0.0, math.inf, -math.inf, math.nan, 1e-320, 1e300, 0.1,
             # x where libm's pow(x, 2) != x * x, pow(x, -1) != 1 / x, pow(x, 0.5) != sqrt(x)
             float.fromhex("-0x1.7acbe472662ddp+72"), float.fromhex("0x1.2c30ba47b8432p+272"),
             float.fromhex("0x1.0233c6f77167ap+674"), float.fromhex("0x1.4ee1d975c0581p+640"),
             float.fromhex("0x1.f4c29bf4f040dp+875"), float.fromhex("0x1.a9d2481df801p+811")]


@pytest.mark.parametrize("name", ["square", "reciprocal", "root", "two_to", "math_square"])
def test_constant_powers_are_libm_pow(mod, name):
    for x in POW_BASES:
        if name == "root" and x < 0:
            continue  # CPython returns a complex number; Kiln raises (language.md)
        same(mod, name, x)


# ---- B13
NANS = [math.nan, -math.nan, struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000123))[0]]


def test_nan_sign_survives_negation(mod):
    for x in NANS + [0.0, -0.0, 1.5]:
        same(mod, "negate_plus_zero", x)
        same(mod, "times_minus_one", x)
        for y in [0.0, 2.0, math.nan, -math.nan]:
            # With two NaN operands, which one x86 returns depends on the
            # operand order the C compiler picked for CPython: unspecified.
            if not (math.isnan(x) and math.isnan(y)):
                same(mod, "add_negated", x, y)


def test_nan_sign_of_remainder_by_power_of_two(mod):
    for x in (math.inf, -math.inf, math.nan, -math.nan, 3.5, -0.0):
        same(mod, "sign_of_floordiv_by_one", x)
        same(mod, "sign_of_mod_by_two32", np.float32(x))
    for n in (1, 7, 8, 9, 33):
        x = np.resize(np.array([math.inf, -math.inf, 3.0, -5.5]), n)
        with np.errstate(all="ignore"):
            expected = np.copysign(1.0, np.fmod(x, 2.0))
        assert np.array_equal(mod.native.signs_of_fmod_by_two(x), expected), n


def test_nan_sign_of_constant_division_and_nan_powers(mod):
    same(mod, "sign_of_constant_floordiv", 3.0)
    same(mod, "sign_of_constant_mod", 3.0)
    for x in (math.nan, -math.nan):
        for y in (-12884901885.0, -3.0, 3.0, 2.0, 0.0, 0.5, math.inf, -math.inf):
            same(mod, "sign_of_nan_power", x, y)


def test_literal_candidates_survive_arithmetic(mod):
    for c in (True, False):
        for x in (np.int32(4), np.int32(-7), np.int32(2**31 - 5)):
            same(mod, "max_of_shifted_literals", c, x)
            same(mod, "compare_scaled_literals", c, x)


def test_numpy_abs_of_a_python_number_is_typed(mod):
    for v in (np.float32(1.0), np.float32(-3.5)):
        same(mod, "numpy_abs_is_typed", v)


def test_nan_sign_of_numpy_domain_errors_is_glibcs(mod):
    # numpy's own sign depends on the CPU (SVML on AVX-512 sets it, glibc
    # does not); Kiln calls glibc everywhere, scalar, float32 and arrays.
    import ctypes
    import ctypes.util
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    for name, ctype in (("acos", ctypes.c_double), ("logf", ctypes.c_float),
                        ("asin", ctypes.c_double)):
        getattr(libm, name).restype = ctype
        getattr(libm, name).argtypes = [ctype]
    assert mod.native.sign_of_arccos(7.0) == math.copysign(1.0, libm.acos(7.0))
    assert mod.native.sign_of_log32(np.float32(-1.0)) == math.copysign(1.0, libm.logf(-1.0))
    glibc = math.copysign(1.0, libm.asin(2.0))
    for n in (1, 7, 8, 9, 33):
        signs = mod.native.signs_of_arcsin(np.full(n, 2.0))
        assert (signs == glibc).all(), (n, signs)


# ---- messages
def test_exception_messages_match_cpython(mod):
    cases = [("true_divide", (1, 0)), ("float_divide", (1.0, 0.0)), ("floor_divide", (1, 0)),
             ("modulo", (1, 0)), ("float_floor_divide", (1.0, 0.0)),
             ("float_modulo", (1.0, 0.0)), ("log_base_after_int_division", (1, 2, 2.0, 1.0)),
             ("log_base_after_int_division", (1, 2, -2.0, 3.0)),
             ("element", (np.zeros(3), 5)), ("element", (np.zeros(3), -4)),
             ("element_2d", (np.zeros((3, 3)), 0, 5))]
    for name, args in cases:
        kind, _, _ = same(mod, name, *args)
        assert kind == "error", name


def test_every_kernel_is_compiled(mod):
    """A fallback would compare CPython with itself."""
    import json
    with open(mod.path("reliability_semantics.kiln.json")) as record:
        fallbacks = json.load(record)["fallbacks"]
    assert [f for f in fallbacks if f["kind"] == "function"] == []


def test_module_constants_rebound_by_tuples_or_blocks_are_not_constants(tmp_path):
    """`X = 1` then `X, Y = 2, 3` (or a rebinding in an `if`, a loop target,
    `global X`) leaves X variable: compiled code must not read 1."""
    from kiln.frontend.source import load_module
    source = tmp_path / "constants.py"
    source.write_text("A = 1\nX = 1\nX, Y = 2, 3\nZ = 1.5\nif True:\n    Z = 2.5\n"
                      "W = 4\nfor W in range(3):\n    pass\nV = 7\n\n"
                      "def bump():\n    global V\n    V = 8\n")
    assert load_module(str(source)).module_constants() == {"A": 1}


# ---- fuzzer seed 20261203 (f1162): `(a if c else b)` of two Python ints is a
# Python int, weak under NEP 50: it adapts to an int32 operand (and wraps with
# it) instead of widening it to int64. numpy 1.24 (Debian's, the CPython side
# here) still casts by value, so the expected values are numpy 2's, written out.
def test_conditional_expression_of_literals_is_weak(mod):
    f = mod.native
    assert f.literal_choice_times_int32(True) == 6          # int32(2147483647 * -6)
    assert f.literal_choice_times_int32(False) == 12
    assert f.literal_or_int32_times_int32(True, np.int32(3)) == 2147483641
    assert f.literal_or_int32_times_int32(False, np.int32(3)) == 2147483645
    assert f.literal_choice_times_float32(True) == float(np.float32(0.1))
    assert f.literal_choice_times_float32(False) == float(np.float32(2.5) * np.float32(0.1))
    assert f.big_literal_choice_times_int32(False) == 3
    with pytest.raises(OverflowError, match="Python integer 1099511627776 out of bounds for int32"):
        f.big_literal_choice_times_int32(True)
    # `or`/`and` of Python literals likewise.
    assert f.literal_or_literal_times_int32(np.int32(2147483647)) == 2147483645


# ---- campaign seed 20261203 (f6848, f8878): `~7`, `-True`, `+True` of
# Python literals are Python ints, weak under NEP 50 (numpy 2's results,
# written out: numpy 1.24 here casts by value).
def test_unary_operators_keep_literals_weak(mod):
    f = mod.native
    assert f.int32_times_inverted_literal(np.int32(2**30)) == 0          # int32 wraps
    assert f.unary_bool_literals_times_int32(np.int32(2**30)) == -2**31
    assert f.inverted_literal_quotient_plus_float32() == float(np.float32(-0.8))
    # Comparing Python numbers gives a Python bool: `(1 < 2) + 1` is a Python
    # int, so the product wraps in int32.
    assert f.literal_comparison_plus_one_times_int32(np.int32(2**30)) == -2**31
    # abs() of a Python literal is a Python int: comparing it is exact
    # (fuzzer seed 857917474, f49).
    assert f.int32_less_than_abs_of_big_literal(np.int32(3)) is True
    # min() with a Python int known only as one of two big literals is exact
    # too (fuzzer seed 116940764, f185).
    assert f.min_of_literal_choice_and_int32(True, np.int32(7)) == 7
    assert f.min_of_literal_choice_and_int32(False, np.int32(-7)) == -7
    # Literal arithmetic beyond 64 bits folds to its wrapped value (Kiln's
    # ints wrap), so the comparison stays exact (fuzzer seed 788686708).
    assert f.uint16_at_least_literal_product(np.uint16(3)) is False


# ---- CI fuzzer seed 568345823 (f87): float() and int() of a Python number
# are Python numbers, weak under NEP 50: `(float(3.0) - 0.1) * x32` is
# float32 (numpy 2's results, written out: numpy 1.24 here casts by value).
# float(x32) of a typed value is a double (docs/language.md).
def test_float_and_int_of_python_numbers_stay_weak(mod):
    f = mod.native
    x = np.float32(-6.889999866485596)
    f32 = np.float32
    assert f.float_of_literals_times_float32(x) == float(f32(f32(2.9) * x) + f32(2) * x)
    assert f.float_of_literal_choice_times_float32(True, x) == float(f32(2) * x)
    assert f.float_of_literal_choice_times_float32(False, x) == float(f32(3) * x)
    big = np.int32(2**30)
    assert f.int_of_literals_times_int32(True, big) == int(np.int32(big * 2 + big * 2 + big * 2))
    assert f.int_of_literals_times_int32(False, np.int32(5)) == 40
    assert f.float_of_float32_times_literal(x) == float(x) * 2.9
    # int() of a float literal beyond int64 still raises (Kiln's ints are 64-bit).
    with pytest.raises(OverflowError, match="too large for a 64-bit integer"):
        f.int_of_huge_float_literal(np.int32(3))


# ---- B6 (and fuzzer seed 3141592, f2054): stores through `x[::-1]` and
# `x[::-2]` were lost (poison addresses from `nuw`; kiln-clear-address-nuw)
def test_stores_through_negative_stride_views(mod):
    for index in (-1, 8, -9, 0, 4):
        same(mod, "store_through_reversed_local", index)
    for size in (1, 2, 9, 10):
        for index in range(-((size + 1) // 2), (size + 1) // 2):
            same(mod, "store_through_reversed_parameter", np.ones(size, dtype=np.int32), index)
    for n in (0, 1, 5, 16):
        same(mod, "conditional_stores_through_reversed_local", n)


# ---- fuzzer seed 629289651 (f124): LLVM folded log1pf(2.5f) in double and
# rounded (1.2527629137); glibc's log1pf, which numpy calls, gives 1.2527630329.
def test_float32_libm_of_constants_is_glibc(mod):
    import ctypes
    libm = ctypes.CDLL("libm.so.6")
    for name, x, function in (("log1pf", 2.5, "float32_log1p_of_constant"),
                              ("expf", 0.3, "float32_exp_of_constant")):
        c_function = getattr(libm, name)
        c_function.restype, c_function.argtypes = ctypes.c_float, [ctypes.c_float]
        assert getattr(mod.native, function)() == float(np.float32(c_function(np.float32(x))))


# ---- CI fuzzer seed 248684109 (f6): min/max of Python ints keep their
# (possible) values, so comparing the result with an int32 stays exact
# instead of narrowing 2**32 to int32 (OverflowError).
def test_min_max_of_python_ints_stay_exact(mod):
    for v in (-2**31, -1, 0, 5, 2**31 - 1):
        same(mod, "max_of_literals_compared_with_int32", np.int32(v))
        for flag in (True, False):
            same(mod, "min_of_literal_choices_and_int32", flag, np.int32(v))
    assert mod.native.max_of_literals_compared_with_int32(np.int32(-7)) is True
    assert mod.native.min_of_literal_choices_and_int32(False, np.int32(9)) == 9


# ---- CI fuzzer seed 787491940 (f34): `a if True else b` is the branch that
# runs, with its own type (a Python literal stays weak), not the join.
def test_constant_conditions_are_the_branch_that_runs(mod):
    x = np.array([3, 4], np.int32)
    with pytest.raises(OverflowError, match="Python integer 4611686018427387904 out of bounds"):
        mod.native.constant_condition_picks_a_literal(x)
    same(mod, "constant_condition_picks_a_typed_value", x)
    same(mod, "constant_condition_picks_a_typed_value", np.array([2**31 - 1, 1, 1], np.int32))
