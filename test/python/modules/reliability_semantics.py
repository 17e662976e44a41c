"""Kernels for issue 15's miscompiles: each returns what CPython computes for
the same source (test_reliability_semantics.py compares them bit for bit)."""

import math

import numpy as np

import kiln

SMALL = 0.1
BIG = 1099511627776


# ---- B3: tuple assignment evaluates the whole right side first
@kiln.export
def fib_for(n: int) -> int:
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


@kiln.export
def swap_while(k: int) -> int:
    n0 = 1
    n1 = 2
    i = 0
    while i < k:
        n0, n1 = (n1, n0)
        i += 1
    return n0 * 10 + n1


@kiln.export
def swap_in_branch(k: int) -> int:
    a = 1
    b = 2
    for i in range(k):
        if i % 3 == 0:
            a, b = b, a * 3
        else:
            b, a = a - b, b
    return a * 1000 + b


@kiln.export
def swap_elements(x: kiln.f64[:]) -> None:
    n = len(x)
    for i in range(n // 2):
        x[i], x[n - 1 - i] = x[n - 1 - i], x[i]


@kiln.export
def fib_early_exit(n: int, limit: int) -> int:
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
        if a > limit:
            break
    return a


# ---- B4: float() and int() give Python floats and ints
@kiln.export
def float_of_f32(x: kiln.f32) -> float:
    return float(x) * 0.1


@kiln.export
def float_of_f32_sum(x: kiln.f32, y: kiln.f32) -> float:
    return float(x) + float(y)


@kiln.export
def int_of_i32(x: kiln.i32) -> int:
    return int(x) * 2**30


@kiln.export
def int_of_i32_var(x: kiln.i32) -> int:
    y = int(x)
    y = y * 10000
    return y * 10000


# ---- B5: float32 casts of constants are rounded to float32
@kiln.export
def f32_literal() -> float:
    return float(kiln.f32(0.1))


@kiln.export
def f32_module_constant() -> float:
    return float(np.float32(SMALL))


@kiln.export
def f32_int_literal() -> float:
    return float(np.float32(16777217))


# ---- B7: Python ints beyond int32 next to an int32 value
@kiln.export
def i32_plus_big(x: kiln.i32) -> int:
    return x + 2**40


@kiln.export
def i32_plus_big_constant(x: kiln.i32) -> int:
    return x + BIG


@kiln.export
def i32_less_than_big(x: kiln.i32) -> bool:
    return x < 2**40


@kiln.export
def i32_max_big(x: kiln.i32) -> int:
    return max(x, 2**40)


@kiln.export
def i32_variable_big(x: kiln.i32, k: int) -> int:
    y = x
    if k > 0:
        y = 2**40
    return y


@kiln.export
def i32_plus_small(x: kiln.i32) -> kiln.i32:
    return x + 2**20


# ---- B9: float -> int of exactly -2**63
@kiln.export
def to_int(x: float) -> int:
    return int(x)


@kiln.export
def floor_to_int(x: float) -> int:
    return math.floor(x)


@kiln.export
def to_int32(x: float) -> kiln.i32:
    return np.int32(x)


# ---- B10: every index expression runs before the bounds checks
@kiln.export
def index_then_divide(m: kiln.f64[:, :], i: int, j: int, k: int) -> float:
    return m[i, j // k]


@kiln.export
def view_then_divide(m: kiln.f64[:, :], i: int, j: int, k: int) -> float:
    row = m[i, j // k:]
    return row[0]


# ---- B11: math.hypot overflows to inf
@kiln.export
def hypot(x: float, y: float) -> float:
    return math.hypot(x, y)


# ---- B12: ** with constant exponents is libm's pow, as in CPython
@kiln.export
def square(x: float) -> float:
    return x ** 2


@kiln.export
def reciprocal(x: float) -> float:
    return x ** -1


@kiln.export
def root(x: float) -> float:
    return x ** 0.5


@kiln.export
def two_to(x: float) -> float:
    return 2.0 ** x


@kiln.export
def math_square(x: float) -> float:
    return math.pow(x, 2.0)


# ---- B13: the sign of NaN survives negation and arithmetic
@kiln.export
def negate_plus_zero(x: float) -> float:
    return (-x) + 0


@kiln.export
def add_negated(x: float, y: float) -> float:
    return y + (-x)


@kiln.export
def times_minus_one(x: float) -> float:
    return x * -1.0


# `inf // 1.0` and `inf % 2.0` are fmod's NaN (fuzzer seed 60349209, f96:
# LLVM expanded a remainder by a power of two inline, with another sign)
@kiln.export
def sign_of_floordiv_by_one(x: float) -> float:
    return math.copysign(1.0, x // 1.0)


@kiln.export
def sign_of_mod_by_two32(x: kiln.f32) -> float:
    return math.copysign(1.0, x % kiln.f32(2.0))


# Both operands constant: folded by the host's hardware, not APFloat, whose
# NaN signs are not x86's (fuzzer seed 847070162, f38).
@kiln.export
def sign_of_constant_floordiv(x: float) -> float:
    return math.copysign(x, kiln.f32(1e300) // 7) + math.copysign(x, 1e300 * 10 // 7.0)


@kiln.export
def sign_of_constant_mod(x: float) -> float:
    return math.copysign(x, kiln.f32(1e300) % 7) + 2 * math.copysign(x, -1e300 * 10 % 7.0)


# CPython's `**` returns a NaN base unchanged; glibc's pow negates the
# square of it for an odd integer exponent (seed 847070162, f38).
@kiln.export
def sign_of_nan_power(x: float, y: float) -> float:
    return math.copysign(1.0, x ** y)


@kiln.export
def signs_of_fmod_by_two(x: kiln.f64[:]) -> kiln.f64[:]:
    return np.copysign(1.0, np.fmod(x, 2.0))


# The sign of a NaN that np.* makes on a domain error is glibc's (language.md)
@kiln.export
def sign_of_arccos(x: float) -> float:
    return np.copysign(1.0, np.arccos(x))


@kiln.export
def sign_of_log32(x: kiln.f32) -> kiln.f32:
    return np.copysign(kiln.f32(1.0), np.log(x))


@kiln.export
def signs_of_arcsin(x: kiln.f64[:]) -> kiln.f64[:]:
    return np.copysign(1.0, np.arcsin(x))


# ---- exception messages
@kiln.export
def true_divide(a: int, b: int) -> float:
    return a / b


@kiln.export
def float_divide(a: float, b: float) -> float:
    return a / b


@kiln.export
def floor_divide(a: int, b: int) -> int:
    return a // b


@kiln.export
def modulo(a: int, b: int) -> int:
    return a % b


@kiln.export
def float_floor_divide(a: float, b: float) -> float:
    return a // b


@kiln.export
def float_modulo(a: float, b: float) -> float:
    return a % b


@kiln.export
def log_base_after_int_division(a: int, b: int, x: float, base: float) -> float:
    q = a / b
    return math.log(x, base) + q


@kiln.export
def element(x: kiln.f64[:], i: int) -> float:
    return x[i]


@kiln.export
def element_2d(m: kiln.f64[:, :], i: int, j: int) -> float:
    return m[i, j]


# ---- conditional expressions of Python literals stay Python numbers (NEP 50)
@kiln.export
def literal_choice_times_int32(flag: bool) -> int:
    chosen: int = (2147483647 if flag else (-2)) * (~np.int32(5))
    return chosen


@kiln.export
def literal_or_int32_times_int32(flag: bool, x: kiln.i32) -> int:
    return (7 if flag else x) * np.int32(2147483647)


@kiln.export
def literal_choice_times_float32(flag: bool) -> float:
    return (1 if flag else 2.5) * np.float32(0.1)


@kiln.export
def big_literal_choice_times_int32(flag: bool) -> int:
    return (2**40 if flag else 1) * np.int32(3)


@kiln.export
def literal_or_literal_times_int32(x: kiln.i32) -> int:
    return (0 or 3) * x


# ---- unary operators on Python literals give Python ints (NEP 50 weak)
@kiln.export
def int32_times_inverted_literal(x: kiln.i32) -> int:
    product: int = (x + 0) * (~7)
    return product


@kiln.export
def unary_bool_literals_times_int32(x: kiln.i32) -> int:
    return (-True) * x + (+True) * x + (~True) * x


@kiln.export
def inverted_literal_quotient_plus_float32() -> float:
    return ((~3) / 5) + (np.hypot(kiln.f32(0.1), kiln.f32(1.5)) // 2)


# ---- B6: stores through a negative-stride view (MLIR 22's lowering made
# their addresses poison: `mul nuw` by a negative stride)
@kiln.export
def store_through_reversed_local(index: int) -> int:
    t = np.ones(9, dtype=np.int32)
    t[0] = 0
    reversed_view = t[::-1]
    reversed_view[index] = 4
    return t[0]


@kiln.export
def store_through_reversed_parameter(t: kiln.i32[:], index: int) -> int:
    t[0] = 0
    reversed_view = t[::-2]
    reversed_view[index] = 4
    return t[0] + t[len(t) - 1]


@kiln.export
def conditional_stores_through_reversed_local(n: int) -> float:
    t = np.zeros(16)
    view = t[::-1]
    for i in range(n):
        if i % 3 == 0:
            view[i] = i + 0.5
    total = 0.0
    for i in range(16):
        total += t[i] * (i + 1)
    return total


@kiln.export
def literal_comparison_plus_one_times_int32(x: kiln.i32) -> int:
    return ((1 < 2) + 1) * x


# ---- float32 libm calls of constants are glibc's, not LLVM's folding
@kiln.export
def float32_log1p_of_constant() -> float:
    return np.log1p(kiln.f32(2.5))


@kiln.export
def float32_exp_of_constant() -> float:
    return np.exp(kiln.f32(0.3))


@kiln.export
def int32_less_than_abs_of_big_literal(x: kiln.i32) -> bool:
    return x < abs(4611686018427387904)


@kiln.export
def min_of_literal_choice_and_int32(flag: bool, x: kiln.i32) -> int:
    return min(9007199254740993 if flag else 4611686018427387904, x)


@kiln.export
def uint16_at_least_literal_product(x: kiln.u16) -> bool:
    return 2147483647 * 9223372036854775807 <= x


@kiln.export
def float_of_literals_times_float32(x: kiln.f32) -> kiln.f32:
    return (float(3.0) - 0.1) * x + float(2) * x


@kiln.export
def float_of_literal_choice_times_float32(flag: bool, x: kiln.f32) -> kiln.f32:
    return float(2 if flag else 3) * x


@kiln.export
def int_of_literals_times_int32(flag: bool, x: kiln.i32) -> kiln.i32:
    return int(2.7) * x + int(2 if flag else 3) * x + int(2.5 if flag else 3.5) * x


@kiln.export
def float_of_float32_times_literal(x: kiln.f32) -> float:
    return float(x) * 2.9


@kiln.export
def int_of_huge_float_literal(x: kiln.i32) -> int:
    return int(1e300) % x


@kiln.export
def max_of_literals_compared_with_int32(v: kiln.i32) -> bool:
    return 0 <= max(7, 4294967296, min(10, v))


@kiln.export
def min_of_literal_choices_and_int32(flag: bool, v: kiln.i32) -> int:
    return min(max(-5 if flag else 2**40, 3), v)


@kiln.export
def constant_condition_picks_a_literal(x: kiln.i32[:]) -> int:
    return x[0] + (4611686018427387904 if True else x.size)


@kiln.export
def constant_condition_picks_a_typed_value(x: kiln.i32[:]) -> int:
    return x[0] * (7 if False else x.size)


# np.abs of a Python number is a numpy scalar (typed): float32 + np.abs(1e300)
# is float64 (fuzzer seed 742656376, f53)
@kiln.export
def numpy_abs_is_typed(v: kiln.f32) -> float:
    return v + np.abs(np.abs(1e300))


# Arithmetic on Python ints that are one of a few literals keeps knowing
# them, so comparisons and min/max with a narrower int stay exact (fuzzer
# seed 742656376, f1768: Kiln raised OverflowError for int32)
@kiln.export
def max_of_shifted_literals(c: bool, x: kiln.i32) -> int:
    return max((1 if c else 4) << 32, x + 4)


@kiln.export
def compare_scaled_literals(c: bool, x: kiln.i32) -> bool:
    return (1 if c else 4) * 2**40 > x
