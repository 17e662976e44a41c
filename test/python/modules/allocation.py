"""Arrays allocated and returned by compiled code."""
import numpy as np
import kiln

@kiln.export
def doubled(x: kiln.f64[:]) -> kiln.f64[:]:
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = 2.0 * x[i]
    return out

@kiln.export
def grid(n: int, m: int) -> kiln.i64[:, :]:
    g = np.zeros((n, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            g[i, j] = i * 10 + j
    return g

@kiln.export
def pick(flag: bool, n: int) -> kiln.f32[:]:
    a = np.ones(n, dtype=np.float32)
    b = np.zeros(n, np.float32)
    if flag:
        return a
    return b

@kiln.export
def early(n: int) -> kiln.f64[:]:
    if n == 0:
        return np.zeros(1)
    out = np.empty(n)
    for i in range(n):
        out[i] = 1.0 / (i - 3)
    return out

@kiln.export
def temp_sum(n: int) -> float:
    t = np.ones(n)
    s = 0.0
    for i in range(n):
        s += t[i]
    return s


def make_ramp(n: int) -> kiln.f64[:]:
    out = np.empty(n)
    for i in range(n):
        out[i] = 1.0 / (i - 3)
    return out


@kiln.export
def ramp_sum(n: int) -> float:
    ramp = make_ramp(n)
    s = 0.0
    for i in range(len(ramp)):
        s += ramp[i]
    return s


@kiln.export
def ramp_twice(n: int) -> kiln.f64[:]:
    first = make_ramp(n)
    second = make_ramp(n)
    for i in range(len(first)):
        second[i] += first[i]
    return second
