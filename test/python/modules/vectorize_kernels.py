"""Loops a SIMD vectorizer should turn into vector code, compiled by
test_vectorize.py and also run by CPython as the reference.

Grouped by the transformation they exercise: elementwise maps, integer and
float reductions, if-conversion, vector math, and loops whose dependences
(a prefix sum, in-place shifts) forbid a naive vector loop. Every kernel
must give CPython's result bit for bit, except the fastmath=True ones,
which may reassociate."""
import math

import numpy as np

import kiln

# ----------------------------------------------------------- elementwise maps


@kiln.export
def saxpy(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = a * x[i] + y[i]


@kiln.export
def saxpy_f32(a: kiln.f32, x: kiln.f32[:], y: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = a * x[i] + y[i]


@kiln.export
def scale_in_place(x: kiln.f64[:], factor: float) -> None:
    for i in range(len(x)):
        x[i] *= factor


@kiln.export
def add_into(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = x[i] + y[i]


@kiln.export
def add_into_i32(x: kiln.i32[:], y: kiln.i32[:], out: kiln.i32[:]) -> None:
    for i in range(len(out)):
        out[i] = x[i] + y[i]


@kiln.export
def widen_f32_to_f64(x: kiln.f32[:], scale: float, out: kiln.f64[:]) -> None:
    # float(x[i]) is exact; the product rounds once, in double.
    for i in range(len(out)):
        out[i] = float(x[i]) * scale


@kiln.export
def narrow_f64_to_f32(x: kiln.f64[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = kiln.f32(x[i])


@kiln.export
def stencil3(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    n = len(x)
    for i in range(1, n - 1):
        out[i] = x[i - 1] + x[i] + x[i + 1]


@kiln.export
def read_ahead_then_copy(a: kiln.f64[:], b: kiln.f64[:], c: kiln.f64[:]) -> None:
    # With b the same view as a, c[i] must see the b[i] just written.
    for i in range(len(a) - 2):
        b[i] = a[i + 1] + a[i + 2]
        c[i] = a[i]


@kiln.export
def stencil5(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    # Five offsets of one array: two loads and shuffles for the three between.
    for i in range(2, len(x) - 2):
        out[i] = x[i - 2] - 2.0 * x[i - 1] + 3.0 * x[i] - 4.0 * x[i + 1] + 5.0 * x[i + 2]


@kiln.export
def scale_add_rows(m: kiln.f64[:, :], a: float, b: kiln.f64[:], out: kiln.f64[:, :]) -> None:
    # The inner loop runs along a row: the dimension to vectorize.
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            out[i, j] = a * m[i, j] + b[j]


@kiln.export
def jacobi(u: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    # Neighbours in three rows: only loads of the same row may be shared.
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) \
                + u[i, j] - u[i - 1, j - 1] + 2.0 * u[i + 1, j + 1]


@kiln.export
def row_max(m: kiln.f64[:, :], out: kiln.f64[:]) -> None:
    for i in range(m.shape[0]):
        best = -math.inf
        for j in range(m.shape[1]):
            if m[i, j] > best:
                best = m[i, j]
        out[i] = best


# ------------------------------------------------------- integer reductions


@kiln.export
def int_sum(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def int_sum_i32(x: kiln.i32[:]) -> int:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def int_product(x: kiln.i64[:]) -> int:
    p = 1
    for i in range(len(x)):
        p *= x[i]
    return p


@kiln.export
def int_min_if(x: kiln.i64[:]) -> int:
    best = x[0]
    for i in range(1, len(x)):
        if x[i] < best:
            best = x[i]
    return best


@kiln.export
def int_max_if(x: kiln.i64[:]) -> int:
    best = x[0]
    for i in range(1, len(x)):
        if x[i] > best:
            best = x[i]
    return best


@kiln.export
def int_min_builtin(x: kiln.i64[:]) -> int:
    best = x[0]
    for i in range(1, len(x)):
        best = min(best, x[i])
    return best


@kiln.export
def int_max_builtin_i32(x: kiln.i32[:]) -> int:
    best = -(2**31)
    for i in range(len(x)):
        best = max(best, x[i])
    return best


@kiln.export
def bit_and(x: kiln.i64[:]) -> int:
    acc = -1
    for i in range(len(x)):
        acc &= x[i]
    return acc


@kiln.export
def bit_or(x: kiln.i64[:]) -> int:
    acc = 0
    for i in range(len(x)):
        acc |= x[i]
    return acc


@kiln.export
def bit_xor(x: kiln.i64[:]) -> int:
    acc = 0
    for i in range(len(x)):
        acc ^= x[i]
    return acc


# --------------------------------------------------------- float reductions


@kiln.export(fastmath=True)
def fast_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export(fastmath=True)
def fast_dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


@kiln.export(fastmath=True)
def fast_dot_f32(x: kiln.f32[:], y: kiln.f32[:]) -> kiln.f32:
    s = kiln.f32(0.0)
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


@kiln.export(fastmath=True)
def fast_product(x: kiln.f64[:]) -> float:
    p = 1.0
    for i in range(len(x)):
        p *= x[i]
    return p


@kiln.export
def exact_sum(x: kiln.f64[:]) -> float:
    # No fastmath: the sum must be CPython's left-to-right sum, bit for bit.
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def exact_sum_f32(x: kiln.f32[:]) -> kiln.f32:
    s = kiln.f32(0.0)
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def float_max_if(x: kiln.f64[:]) -> float:
    # A NaN is never greater, so it is skipped unless it comes first.
    best = x[0]
    for i in range(1, len(x)):
        if x[i] > best:
            best = x[i]
    return best


@kiln.export
def float_max_builtin(x: kiln.f64[:]) -> float:
    # max(a, b) keeps a unless b > a: -0.0 vs 0.0 and NaN depend on order.
    best = x[0]
    for i in range(1, len(x)):
        best = max(best, x[i])
    return best


@kiln.export
def float_min_builtin(x: kiln.f64[:]) -> float:
    best = math.inf
    for i in range(len(x)):
        best = min(best, x[i])
    return best


@kiln.export
def float_max_numpy_f32(x: kiln.f32[:]) -> kiln.f32:
    # np.maximum propagates NaN from either side.
    best = kiln.f32(-math.inf)
    for i in range(len(x)):
        best = np.maximum(best, x[i])
    return best


# ------------------------------------------------------------ if-conversion


@kiln.export
def count_positive(x: kiln.f64[:]) -> int:
    count = 0
    for i in range(len(x)):
        if x[i] > 0:
            count += 1
    return count


@kiln.export
def sum_positive(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            s += x[i]
    return s


@kiln.export(fastmath=True)
def fast_sum_positive(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            s += x[i]
    return s


@kiln.export
def sum_positive_int(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        if x[i] > 0:
            s += x[i]
    return s


@kiln.export
def clip_in_place(x: kiln.f64[:], low: float, high: float) -> None:
    for i in range(len(x)):
        if x[i] < low:
            x[i] = low
        elif x[i] > high:
            x[i] = high


@kiln.export
def clip_in_place_i32(x: kiln.i32[:], low: int, high: int) -> None:
    for i in range(len(x)):
        if x[i] < low:
            x[i] = low
        elif x[i] > high:
            x[i] = high


@kiln.export
def relu_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = x[i] if x[i] > 0 else 0.0


@kiln.export
def abs_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = abs(x[i])


@kiln.export
def abs_map_i64(x: kiln.i64[:], out: kiln.i64[:]) -> None:
    for i in range(len(out)):
        out[i] = abs(x[i])


# --------------------------------------------------------------- vector math
# math.f(x) computes in double and raises CPython's ValueError/OverflowError;
# np.f(x) keeps float32 in float32 and never raises. Each function comes as
# math.* and np.* on float64 and on float32 arrays, so the vectorizer meets
# loops with and without error checks, in both precisions.


@kiln.export
def sqrt_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.sqrt(x[i])


@kiln.export
def exp_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.exp(x[i])


@kiln.export
def log_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.log(x[i])


@kiln.export
def sin_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.sin(x[i])


@kiln.export
def cos_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.cos(x[i])


@kiln.export
def tanh_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.tanh(x[i])


@kiln.export
def pow_map(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.pow(x[i], y[i])


@kiln.export
def exp_sqrt_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = math.exp(-x[i]) * math.sqrt(x[i])


@kiln.export
def np_sqrt_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.sqrt(x[i])


@kiln.export
def np_exp_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.exp(x[i])


@kiln.export
def np_log_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.log(x[i])


@kiln.export
def np_sin_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.sin(x[i])


@kiln.export
def np_cos_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.cos(x[i])


@kiln.export
def np_tanh_map(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.tanh(x[i])


@kiln.export
def np_pow_map(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = np.power(x[i], y[i])


@kiln.export
def sqrt_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.sqrt(x[i])


@kiln.export
def exp_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.exp(x[i])


@kiln.export
def log_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.log(x[i])


@kiln.export
def sin_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.sin(x[i])


@kiln.export
def cos_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.cos(x[i])


@kiln.export
def tanh_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.tanh(x[i])


@kiln.export
def pow_map_f32(x: kiln.f32[:], y: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = np.power(x[i], y[i])


# math.* on float32 computes in double; only the store rounds to float32.
# These are also the reference for the np.* float32 kernels above.


@kiln.export
def math_sqrt_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.sqrt(x[i])


@kiln.export
def math_exp_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.exp(x[i])


@kiln.export
def math_log_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.log(x[i])


@kiln.export
def math_sin_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.sin(x[i])


@kiln.export
def math_cos_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.cos(x[i])


@kiln.export
def math_tanh_map_f32(x: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.tanh(x[i])


@kiln.export
def math_pow_map_f32(x: kiln.f32[:], y: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(out)):
        out[i] = math.pow(x[i], y[i])


# ------------------------------------------------- loop-carried dependences


@kiln.export
def prefix_sum(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    s = 0.0
    for i in range(len(out)):
        s += x[i]
        out[i] = s


@kiln.export
def forward_difference_in_place(x: kiln.f64[:]) -> None:
    # Reads x[i + 1] before iteration i + 1 overwrites it (anti-dependence).
    for i in range(len(x) - 1):
        x[i] = x[i + 1] - x[i]


@kiln.export
def running_sum_in_place(x: kiln.f64[:]) -> None:
    # Reads the x[i - 1] that iteration i - 1 just wrote (true dependence).
    for i in range(1, len(x)):
        x[i] = x[i] + x[i - 1]


@kiln.export
def running_sum_in_place_i64(x: kiln.i64[:]) -> None:
    for i in range(1, len(x)):
        x[i] = x[i] + x[i - 1]
