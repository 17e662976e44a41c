"""kiln.prange loops (issue 29): reductions of each operator and dtype,
disjoint writes, array temporaries and nested loops in the body, errors
raised by some iterations. Each has a `range` twin where the test needs the
sequential result of the same code."""
import numpy as np

import kiln


@kiln.export
def total(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(len(x)):
        s += x[i]
    return s


@kiln.export(fastmath=True)
def total_fast(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(len(x)):
        s += x[i]
    return s


@kiln.export
def total_f32(x: kiln.f32[:]) -> float:
    s = np.float32(0.0)
    for i in kiln.prange(len(x)):
        s += x[i]
    return s


@kiln.export
def int_reductions(x: kiln.i64[:]) -> tuple[int, int, int, int, int, int, int]:
    s = 7
    d = 100
    o = 0
    a = -1
    e = 0
    hi = -2**63
    lo = 2**63 - 1
    for i in kiln.prange(len(x)):
        s += x[i]
        d -= x[i]
        o |= x[i]
        a &= x[i] | 1024
        e ^= x[i]
        hi = max(hi, x[i])
        lo = min(x[i], lo)
    return s, d, o, a, e, hi, lo


@kiln.export
def product_mod(x: kiln.i32[:]) -> int:
    p = 1
    for i in kiln.prange(len(x)):
        p *= (x[i] % 2) * 2 - 1     # +-1: no overflow at any size
    return p


@kiln.export
def float_extremes(x: kiln.f64[:]) -> tuple[float, float, float]:
    hi = -np.inf
    lo = np.inf
    p = 1.0
    for i in kiln.prange(len(x)):
        hi = max(hi, x[i])
        lo = min(lo, x[i])
        p *= 1.0 + x[i] * 1e-3
    return hi, lo, p


@kiln.export
def any_negative(x: kiln.f64[:]) -> bool:
    found = False
    for i in kiln.prange(len(x)):
        found |= x[i] < 0.0
    return found


@kiln.export
def count_and_sum(x: kiln.f64[:], threshold: float) -> tuple[int, float]:
    count = 0
    s = 0.0
    for i in kiln.prange(2, len(x), 3):
        if x[i] > threshold:
            count += 1
            s += x[i] * x[i]
    return count, s


@kiln.export
def scaled(x: kiln.f64[:], out: kiln.f64[:], k: float) -> None:
    for i in kiln.prange(len(x)):
        out[i] = x[i] * k + 1.0


@kiln.export
def backwards(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    n = x.shape[0]
    for i in kiln.prange(n - 1, -1, -1):
        out[n - 1 - i] = x[i]


@kiln.export
def rows(a: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    for i in kiln.prange(a.shape[0]):
        row = a[i, :] * 2.0 + 1.0          # a temporary per iteration
        out[i, :] = np.sqrt(np.abs(row))
        acc = 0.0
        for j in range(a.shape[1]):        # a nested plain loop
            acc += a[i, j]
            out[i, j] += acc


@kiln.export
def pairwise(p: kiln.f64[:, :], d: kiln.f64[:, :]) -> None:
    n = p.shape[0]
    for i in kiln.prange(n):
        for j in range(n):
            s = 0.0
            for k in range(p.shape[1]):
                t = p[i, k] - p[j, k]
                s += t * t
            d[i, j] = np.sqrt(s)


def checked_div(a: float, b: float) -> float:
    if b == 0.0:
        raise ZeroDivisionError("helper saw a zero")
    return a / b


@kiln.export
def gather(x: kiln.f64[:], idx: kiln.i64[:]) -> float:
    s = 0.0
    for i in kiln.prange(len(idx)):
        s += x[idx[i]]
    return s


@kiln.export
def divide_all(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in kiln.prange(len(x)):
        out[i] = checked_div(x[i], y[i])


@kiln.export
def temporaries_then_raise(x: kiln.f64[:], limit: int) -> float:
    s = 0.0
    for i in kiln.prange(len(x)):
        t = np.zeros(3) + x[i]
        if i == limit:
            raise ValueError("iteration reached the limit")
        s += t.sum()
    return s


@kiln.export
def sum_of_squares(n: int) -> int:
    s = 0
    for i in kiln.prange(n):
        s += i * i
    return s


@kiln.export
def parallel_helper_user(x: kiln.f64[:]) -> float:
    return total(x) * 2.0


@kiln.export
def sequential(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


@kiln.export
def nested(a: kiln.f64[:, :]) -> float:
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        for j in kiln.prange(a.shape[1]):     # runs on the thread that reaches it
            s += a[i, j] * (i + 1)
    return s


def row_total(r: kiln.f64[:]) -> float:
    s = 0.0
    for j in kiln.prange(len(r)):
        s += r[j]
    return s


@kiln.export
def total_of_rows(a: kiln.f64[:, :]) -> float:
    s = 0.0
    for i in kiln.prange(a.shape[0]):
        s += row_total(a[i, :])
    return s


@kiln.export(parallel=True)
def auto_rows(a: kiln.f64[:, :], out: kiln.f64[:]) -> float:
    top = -np.inf
    for i in range(a.shape[0]):          # parallel: rows are independent
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * a[i, j]
        out[i] = s
        top = max(top, s)
    for i in range(1, out.shape[0]):     # sequential: reads the element before
        out[i] += out[i - 1]
    return top


@kiln.export(parallel=True)
def auto_last_index(x: kiln.f64[:]) -> int:
    k = -1
    for k in range(len(x)):              # sequential: k is read after the loop
        x[k] = 2.0 * x[k]
    return k


@kiln.export
def near_the_top(start: int, stop: int) -> tuple[int, int]:
    count = 0
    top = -1
    for i in kiln.prange(start, stop):
        count += 1
        top = max(top, i)
    return count, top


@kiln.export(parallel=True)
def parallel_product(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return a @ b


@kiln.export(parallel=True)
def parallel_product_f32(a: kiln.f32[:, :], b: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return a @ b


@kiln.export(parallel=True)
def parallel_statements(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> float:
    out[:] = a * x + np.sin(y)           # shared out in slices
    return np.sum(out * 2.0)             # a reduction: shared out in blocks


@kiln.export(parallel=True)
def parallel_new_array(m: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.sqrt(np.abs(m)) * 2.0 + m


@kiln.export(parallel=True)
def parallel_layer(x: kiln.f64[:, :], w: kiln.f64[:, :], b: kiln.f64[:]) -> kiln.f64[:, :]:
    return np.maximum(x @ w + b, 0.0)


@kiln.export(parallel=True)
def shared_float_reductions(x: kiln.f64[:], m: kiln.f64[:, :]) -> tuple[float, float, float, float, float, float]:
    return (np.sum(x), x.mean(), np.max(x) if len(x) else 0.0, np.sum(x * x - 1.0),
            m.sum(), np.var(m))


@kiln.export(parallel=True)
def shared_float32_sum(x: kiln.f32[:]) -> float:
    return float(np.sum(x))


@kiln.export(parallel=True)
def shared_int_reductions(v: kiln.i64[:], w: kiln.i32[:, :]) -> tuple[int, int, int, int]:
    return (np.sum(v), np.min(v) if len(v) else 0, int(np.prod(w)), np.sum(w))


@kiln.export(parallel=True)
def shared_truth(b: kiln.b1[:]) -> tuple[bool, bool]:
    return (bool(np.any(b)), bool(np.all(b)))


@kiln.export(parallel=True)
def shared_complex_sum(z: kiln.c128[:]) -> complex:
    return np.sum(z)


@kiln.export(parallel=True)
def empty_rows_plus(a: float, n: int) -> kiln.f64[:, :]:
    return np.zeros((7, 0)) + a + np.ones((n, 0))[:1] * np.zeros((1, 0, 3))[0, :, 0]


@kiln.export(parallel=True)
def shared_axis_reductions(m: kiln.f64[:, :], v: kiln.i64[:, :, :], rows: kiln.f64[:],
                           columns: kiln.f64[:], planes: kiln.i64[:, :],
                           means: kiln.f64[:, :]) -> None:
    rows[:] = np.sum(m, axis=1)
    columns[:] = m.max(axis=0)
    planes[:, :] = v.sum(axis=2)
    means[:, :] = np.mean(v, axis=1)


@kiln.export(parallel=True)
def row_sums_in_a_parallel_loop(m: kiln.f64[:, :], out: kiln.f64[:]) -> None:
    for i in range(m.shape[0]):           # parallel: each row's sum on its thread
        out[i] = np.sum(m[i, :])


@kiln.export
def doubled_into(src: kiln.f64[:], dst: kiln.f64[:]) -> None:
    for i in kiln.prange(len(dst)):
        dst[i] = src[len(src) - 1 - i] * 2.0
