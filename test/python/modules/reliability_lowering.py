"""Reproducers of issue 15's lowering defects (B1, B2, B8, B14, B15): each
function is compared with CPython by test_reliability_lowering.py."""

import math

import kiln
import numpy as np


# B1: a division by a loop-invariant zero must raise at the iteration that
# runs it, and not at all when the loop runs zero times (LICM used to hoist
# the division above its check: SIGFPE).
@kiln.export
def floordiv_invariant_in_for(n: int, m: int) -> int:
    s = 0
    for j in range(m):
        s += 7 // n
    return s


@kiln.export
def mod_invariant_in_for(n: int, m: int) -> int:
    s = 0
    for j in range(m):
        s += 7 % n
    return s


@kiln.export
def mod_invariant_in_while(n: int, m: int) -> int:
    s = 0
    j = 0
    while j < m:
        s += 7 % n
        j += 1
    return s


@kiln.export
def mod_by_length_in_index(a: kiln.i64[:], m: int) -> int:
    s = 0
    for j in range(m):
        s += a[1 % len(a)]
    return s


@kiln.export
def floordiv_invariant_nested(n: int, m: int) -> int:
    s = 0
    for i in range(m):
        for j in range(m):
            s += (i - j) // n + (i * j) % n
    return s


# B2: fill loops of np.zeros/np.ones are vectorized (kiln-vectorize used to
# read the erased loop afterwards).
@kiln.export
def zeros_and_ones(n: int, m: int) -> kiln.i32[:, :]:
    a = np.ones((n, m), dtype=np.int32)
    return a


@kiln.export
def zeros_f64(n: int) -> kiln.f64[:]:
    a = np.zeros(n)
    return a


# B8: numpy stores int(value) wrapped to the array's width.
@kiln.export
def store_float_into_int32(a: kiln.i32[:], v: float) -> int:
    a[0] = v
    return a[0]


@kiln.export
def store_float32_into_int32(a: kiln.i32[:], v: kiln.f32) -> int:
    a[1] = v
    return a[1]


# B14: views of constant-size empty allocations.
@kiln.export
def reversed_view_of_empty(i: int) -> float:
    t = np.zeros(0)
    v = t[::-1]
    return v[i]


@kiln.export
def row_of_empty(i: int) -> float:
    t = np.zeros((0, 3))
    v = t[i, :]
    return v[0]


@kiln.export
def reversed_columns_of_empty(i: int) -> float:
    t = np.zeros((3, 0))
    v = t[:, ::-1]
    return v[0, i]


# B15: writes through strided views of constant-size allocations in loops.
@kiln.export
def strided_view_in_loop(n: int) -> kiln.f64[:]:
    tmp = np.zeros(8)
    for i in range(n):
        w = tmp[::2]
        w[i % 4] = 1.0
    return tmp


@kiln.export
def strided_row_fill(n: int) -> float:
    tmp = np.zeros((4, 6))
    for i in range(4):
        w = tmp[i, ::2]
        for j in range(len(w)):
            w[j] = 1.0 + n
    return tmp[1, 2] + tmp[1, 1]


@kiln.export
def offset_strided_fill(n: int) -> kiln.f64[:]:
    tmp = np.ones(7)
    w = tmp[1::3]
    for i in range(len(w)):
        w[i] = 5.0 + n
    return tmp


# B16: a float32 divisor constant that rounds to zero (the frontend decided
# whether the function can raise from the unrounded value; kilnc then found
# a kiln.check in a function without an error record).
@kiln.export
def float_of_float32_mod_tiny(x: float) -> float:
    return float(np.float32(x)) % 1e-300


@kiln.export
def float32_mod_tiny(x: kiln.f32) -> kiln.f32:
    return x % 1e-300


@kiln.export
def float32_floordiv_tiny(x: kiln.f32) -> kiln.f32:
    return x // 1e-50


# N1 (found by the fuzzer): atan2 of two constant zeros folded to NaN.
@kiln.export
def atan2_of_constant_zeros(k: int) -> float:
    y = 0.0
    if k == 0:
        return math.atan2(0.0, 0.0)
    if k == 1:
        return math.atan2(y, -0.0)
    if k == 2:
        return np.arctan2(-0.0, -0.0)
    if k == 3:
        return math.atan2(0, 0.0)
    # Zeros that become constants only during canonicalization (fuzzer,
    # seed 946108218): (k * 0) folds to 0 after the frontend.
    v = float(k * 0) * 2.0
    return np.arctan2(v, -v)


# Found by the fuzzer (seed 8675309): np.float64(literal) is a typed numpy
# scalar; NEP 50 demoted it to float32 next to a float32 like a literal.
@kiln.export
def typed_float64_scalar_beside_float32(p2: kiln.f32) -> bool:
    v4 = np.float32(p2 + p2)
    return np.float64(1e-300) != (-v4)


@kiln.export
def typed_float64_sum_with_float32(p2: kiln.f32) -> float:
    return np.float64(1e-300) + p2
