"""@kiln.guvectorize functions as numpy generalized ufuncs (test_gufuncs.py)."""
import numpy as np

import kiln


@kiln.guvectorize("(n),(n)->()")
def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    """The inner product of the last axes."""
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


@kiln.guvectorize("(m,n),(n)->(m)")
def matvec(a: kiln.f64[:, :], v: kiln.f64[:]) -> kiln.f64[:]:
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i] += a[i, j] * v[j]
    return out


@kiln.guvectorize("(n)->(n)")
def running_max(x: kiln.f32[:]) -> kiln.f32[:]:
    out = np.empty_like(x)
    best = np.float32(-np.inf)
    for i in range(len(x)):
        best = max(best, x[i])
        out[i] = best
    return out


@kiln.guvectorize("(n),()->()")
def count_above(x: kiln.i64[:], limit: int) -> int:
    count = 0
    for i in range(len(x)):
        if x[i] > limit:
            count += 1
    if count > 1000:
        raise ValueError("more than 1000 above the limit")
    return count


@kiln.guvectorize("(n)->(n)")
def halves(x: kiln.f64[:]) -> kiln.f64[:]:
    return x[: len(x) // 2] * 0.5
