"""Whole-array expressions (issue 12): operators, ufuncs, broadcasting,
assignment to views. Each function is also run by CPython with numpy."""

import numpy as np

import kiln


@kiln.export
def axpy(a: float, x: kiln.f64[:], y: kiln.f64[:]):
    return a * x + y


@kiln.export
def arc_distance(theta_1: kiln.f64[:], phi_1: kiln.f64[:], theta_2: kiln.f64[:],
                 phi_2: kiln.f64[:]):
    temp = np.sin((theta_2 - theta_1) / 2) ** 2 + np.cos(theta_1) * np.cos(theta_2) * np.sin(
        (phi_2 - phi_1) / 2) ** 2
    distance_matrix = 2 * (np.arctan2(np.sqrt(temp), np.sqrt(1 - temp)))
    return distance_matrix


@kiln.export
def arithmetic(x: kiln.f64[:], y: kiln.f64[:]):
    return (x - y) * (x + 2.5) / y - -x + x ** 2 + y ** 0.5 - x ** -1 + x ** 1 - x ** 0


@kiln.export
def power(x: kiln.f64[:], y: kiln.f64[:]):
    return x ** 3.0 + np.abs(x) ** y


@kiln.export
def broadcast_rows(m: kiln.f64[:, :], v: kiln.f64[:]):
    return m * v - v


@kiln.export
def broadcast_3d(a: kiln.f32[:, :, :], b: kiln.f32[:, :]):
    return a + b


@kiln.export
def float32_stays_float32(x: kiln.f32[:], y: kiln.f32[:]):
    return x * 0.1 + y / 3


@kiln.export
def int_true_division(x: kiln.i32[:], y: kiln.i64[:]):
    return x / y


@kiln.export
def int_arithmetic(x: kiln.i32[:], y: kiln.i32[:]):
    return (x + y) * x - y * 7 + x ** 2 - (x & y) + (x | 3) ^ ~y


@kiln.export
def mixed_int_widths(x: kiln.u8[:], y: kiln.i8[:], z: kiln.i64[:]):
    return x + y + z


@kiln.export
def ufuncs(x: kiln.f64[:], y: kiln.f64[:]):
    return (np.abs(x) + np.exp(x) + np.log1p(np.abs(y)) + np.minimum(x, y)
            + np.maximum(x, 0.5) + np.hypot(x, y) + np.square(y) + np.tanh(x))


@kiln.export
def ufunc_predicates(x: kiln.f64[:]):
    return np.isnan(x) | np.isinf(x)


@kiln.export
def shift_right(x: kiln.f64[:]) -> None:
    x[1:] = x[:-1]


@kiln.export
def shift_left(x: kiln.f64[:]) -> None:
    x[:-1] = x[1:] * 2.0


@kiln.export
def reverse_in_place(x: kiln.f64[:]) -> None:
    x[:] = x[::-1]


@kiln.export
def store_from_other(x: kiln.f64[:], y: kiln.f64[:]) -> None:
    x[:] = y + 1.0


@kiln.export
def fill_view(m: kiln.i32[:, :], value: int) -> None:
    m[1:-1, ::2] = value


@kiln.export
def fill_with_float(m: kiln.i64[:], value: float) -> None:
    m[:] = value


@kiln.export
def row_assignment(m: kiln.f64[:, :], v: kiln.f64[:]) -> None:
    m[1] = v * 2.0
    m[:, 0] = 7.0


@kiln.export
def in_place(x: kiln.f64[:, :], y: kiln.f64[:]) -> None:
    x += y
    x *= 2.0
    x[1:, :] -= x[:-1, :]


@kiln.export
def in_place_int(x: kiln.i32[:], y: kiln.i64[:]) -> None:
    x += y


@kiln.export
def diffusion(u: kiln.f64[:, :], tempU: kiln.f64[:, :], iterNum: int) -> None:
    mu = .1
    for n in range(iterNum):
        tempU[1:-1, 1:-1] = u[1:-1, 1:-1] + mu * (
            u[2:, 1:-1] - 2 * u[1:-1, 1:-1] + u[0:-2, 1:-1] +
            u[1:-1, 2:] - 2 * u[1:-1, 1:-1] + u[1:-1, 0:-2])
        u[:, :] = tempU[:, :]
        tempU[:, :] = 0.0


@kiln.export
def negate(x: kiln.f64[:]):
    return -x


@kiln.export
def invert_int16(k: kiln.i16[:]):
    return ~k


@kiln.export
def invert_bool(b: kiln.b1[:]):
    return ~b


@kiln.export
def two_results(x: kiln.f64[:]):
    y = x * 2.0
    z = y + x
    return z


@kiln.export
def partial_rows(m: kiln.f64[:, :], i: int):
    return m[i] * 2.0


@kiln.export
def total(x: kiln.f64[:]):
    return np.sum(x)


@kiln.export
def fused_dot(x: kiln.f64[:], y: kiln.f64[:]):
    return (x * y).sum()


@kiln.export
def rosen(x: kiln.f64[:]):
    t0 = 100 * (x[1:] - x[:-1] ** 2) ** 2
    t1 = (1 - x[:-1]) ** 2
    return np.sum(t0 + t1)


@kiln.export
def statistics(m: kiln.f64[:, :]):
    return m.max() - np.min(m) + np.mean(m) + np.prod(m[:1])


@kiln.export
def int_statistics(v: kiln.i32[:]) -> int:
    return v.sum() + v.max() + np.amin(v) + int(v.all()) + int(np.any(v))


@kiln.export
def unsigned_sum(v: kiln.u8[:]):
    return np.sum(v)


@kiln.export
def float32_sum(v: kiln.f32[:]):
    return v.sum()


@kiln.export
def comparisons(x: kiln.f64[:], y: kiln.f64[:]):
    return (x < y) | (x == 1.0) ^ (y >= 0.5)


@kiln.export
def counts(x: kiln.f64[:], lo: float) -> int:
    return np.sum(x > lo) + (x <= 2.5).sum() + int(np.any(x != x))


@kiln.export
def exact_comparisons(v: kiln.i32[:], u: kiln.u64[:]) -> int:
    return np.sum(v < 2**40) + np.sum(u > -1)


@kiln.export
def harris(I: kiln.f64[:, :]):
    m, n = I.shape
    dx = (I[1:, :] - I[:m - 1, :])[:, 1:]
    dy = (I[:, 1:] - I[:, :n - 1])[1:, :]
    A = dx * dx
    B = dy * dy
    C = dx * dy
    tr = A + B
    det = A * B - C * C
    k = 0.05
    return det - k * tr * tr


@kiln.export
def wdist(A: kiln.f64[:, :], B: kiln.f64[:, :], W: kiln.f64[:, :]):
    k, m = A.shape
    _, n = B.shape
    D = np.zeros((m, n))
    for ii in range(m):
        for jj in range(n):
            wdiff = (A[:, ii] - B[:, jj]) / W[:, ii]
            D[ii, jj] = np.sqrt((wdiff ** 2).sum())
    return D


@kiln.export
def time_steps(u: kiln.f64[:], v: kiln.f64[:], counts: int) -> None:
    for i in range(counts):
        uvv = u * v * v
        if i == 7:
            continue
        lap = u[:-2] + u[2:] - 2 * u[1:-1]
        u[1:-1] += 0.1 * lap - uvv[1:-1]
        v += uvv
        if i == 5:
            break


@kiln.export
def transposed(m: kiln.f64[:, :]):
    return m.T * 2.0 + np.zeros(m.T.shape)


@kiln.export
def l2norm(x: kiln.f64[:, :]):
    return np.sqrt(np.sum(np.abs(x) ** 2, 1))


@kiln.export
def l1norm(x: kiln.f64[:, :], y: kiln.f64[:, :]):
    return np.sum(np.abs(x[:, None, :] - y), axis=-1)


@kiln.export
def multiple_sum(array: kiln.f64[:, :]):
    rows = array.shape[0]
    cols = array.shape[1]
    out = np.zeros((rows, cols))
    for row in range(0, rows):
        out[row, :] = np.sum(array - array[row, :], 0)
    return out


@kiln.export
def axis_reductions(m: kiln.f64[:, :, :]):
    return (m.max(axis=0) - np.mean(m, axis=0) + m.min(1).sum(axis=0)
            + m.sum(axis=2, keepdims=True).sum(axis=0))


@kiln.export
def int_axis_reductions(m: kiln.i32[:, :]):
    return m.sum(0) + np.prod(m, axis=1, keepdims=True) + m.max(axis=-1, keepdims=True)


@kiln.export
def new_axes(x: kiln.f64[:], y: kiln.f64[:]):
    return x[:, None] - y[np.newaxis, :] + x[:, np.newaxis, None][:, :, 0]


@kiln.export
def cronbach(itemscores: kiln.f64[:, :]):
    itemvars = itemscores.var(axis=1, ddof=1)
    tscores = itemscores.sum(axis=0)
    nitems = len(itemscores)
    return nitems / (nitems - 1) * (1 - itemvars.sum() / tscores.var(ddof=1))


@kiln.export
def lstsqr(x: kiln.f64[:], y: kiln.f64[:]):
    x_avg = np.average(x)
    y_avg = np.average(y)
    dx = x - x_avg
    dy = y - y_avg
    var_x = np.sum(dx ** 2)
    cov_xy = np.sum(dx * dy)
    slope = cov_xy / var_x
    y_interc = y_avg - slope * x_avg
    return (slope, y_interc)


@kiln.export
def spreads(m: kiln.f32[:, :]):
    return np.std(m, axis=0) + m.var(axis=1, keepdims=True) + np.std(m)


@kiln.export
def int_spread(v: kiln.i32[:]) -> float:
    return v.var() + np.std(v, ddof=1)


@kiln.export
def reverse_cumsum(x: kiln.f64[:]):
    return np.cumsum(x[::-1])[::-1]


@kiln.export
def scans(m: kiln.i32[:, :]):
    return np.cumsum(m, axis=0) + m.cumprod(axis=1) + np.cumsum(m * 2, axis=-1)


@kiln.export
def select_and_clip(x: kiln.f64[:], y: kiln.f64[:]):
    return np.where(x > 0, x, 0.1 * y) + np.clip(x, -0.5, 0.5)


@kiln.export
def logical(a: kiln.f64[:], b: kiln.f64[:]):
    return np.logical_and(a > 0, b < 0) | np.logical_not(a == b) ^ np.logical_or(a, 0)


@kiln.export
def int_clip_and_select(v: kiln.i32[:]):
    return np.clip(v, 0, 10) + np.where(v < 0, -1, 1)


@kiln.export
def copies_and_casts(x: kiln.f64[:], v: kiln.i32[:]):
    y = x.copy()
    y[0] = 100.0
    z = v.astype(np.float64) + v.astype(x.dtype)
    w = np.zeros(len(x), dtype=x.dtype)
    w.fill(2.5)
    return y + z[0] + w + np.dot(x, x)


@kiln.export
def mixed_dot(a: kiln.f64[:], b: kiln.f32[:]) -> float:
    return np.dot(a, b)


@kiln.export
def int_dot(a: kiln.i32[:], b: kiln.i32[:]):
    return np.dot(a, b)


@kiln.export
def bool_min_max(a: kiln.b1[:], b: kiln.b1[:]):
    return np.minimum(a, b) ^ np.maximum(a, b)


@kiln.export
def int_fmod(a: kiln.i32[:], b: kiln.i32[:]):
    return np.fmod(a, b)


@kiln.export
def small_int_float_functions(a: kiln.i16[:], b: kiln.u16[:]):
    return np.arctan2(a, b) + np.hypot(a, 2)


@kiln.export
def folds_to_copies(x: kiln.f64[:], y: kiln.f32[:]):
    y[:] = y * np.float64(1.0)
    z = x * 1.0
    return z + 0


@kiln.export
def float_floor_and_remainder(a: kiln.f64[:], b: kiln.f64[:]):
    return a // b + a % b * 1000.0


@kiln.export
def int_floor_and_remainder(a: kiln.i32[:], b: kiln.i32[:]):
    return (a // b) * 1000 + a % b


@kiln.export
def unsigned_floor_and_remainder(a: kiln.u8[:], b: kiln.u8[:]):
    return a // b + a % b


@kiln.export
def wrap_into_box(x: kiln.f64[:], box: float) -> None:
    x -= x // box * box
    x %= 1.0


@kiln.export
def same_pure_operation_twice(a: kiln.i64[:]):
    """Two statements computing the same array from no memory (the int
    `a * 0`, np.isinf of ints): each is its own array (CSE once merged
    them, and `u` was copied from `t` after `t[0] = 7`)."""
    t = a * 0
    t[0] = 7
    u = a * 0
    m = np.isinf(a)
    m[0] = True
    n = np.isinf(a)
    return t, u, m, n


@kiln.export
def mask_of_pure_expression_twice(x: kiln.i64[:, :], p: int):
    """The same mask computed on both sides (once read a freed buffer)."""
    x[np.roll(np.isinf(x[:, ::-1]), 1)] = x[np.roll(np.isinf(x[:, ::-1]), 1)] * p


@kiln.export
def scaled(m: kiln.f64[:, :], v: kiln.f64[:]):
    """A new array laid out like its first operand (numpy's order "K")."""
    return m * 2.0 + v


@kiln.export
def scaled_into(out: kiln.f64[:, :], m: kiln.f64[:, :]) -> float:
    """Into any layout, and a whole-array sum in any layout."""
    out[:] = m * 2.0 - 1.0
    return np.sum(out) + m.max()


@kiln.export
def squared_by_power(a: kiln.f64[:]):
    return np.power(a, 2)


@kiln.export
def int_against_float(x: kiln.i64[:], p: float, y: kiln.f64[:]):
    """numpy compares int64 elements with floats in float64 (CPython's
    int/float comparison of scalars is exact)."""
    return x != p, x < p, p >= x, x == y


@kiln.export
def operator_ufuncs(a: kiln.i64[:], b: kiln.i64[:], x: kiln.f64[:]):
    """np.add & co. of arrays are numpy's operators."""
    return (np.add(a, b), np.subtract(a, 3), np.multiply(2, x), np.divide(a, b),
            np.floor_divide(a, b), np.remainder(a, b), np.bitwise_and(a, b),
            np.bitwise_or(a, 1), np.bitwise_xor(a, b), np.left_shift(a, 2),
            np.right_shift(a, 1), np.true_divide(x, 4.0), np.mod(x, 1.5))
