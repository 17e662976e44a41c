"""dtypes as values (issue 32, item 5): `x.dtype`, `np.float32` and
`float` held in names, passed to helpers (a specialization per dtype),
given as a helper's default, compared, and used by np.zeros/np.empty_like
and .astype."""

import numpy as np

import kiln


def make(a, dtype=np.float64):
    return np.zeros(a.shape[0], dtype=dtype) + 1


def cast_to(x, dtype):
    if dtype == np.float32:
        return x.astype(dtype) * 2      # only in the float32 specialization's path
    return x.astype(dtype)


def which(dtype):
    # Python compares type objects by identity and an array's dtype with
    # every name of its type
    return (1.0 if dtype == float else 0.0) + (10.0 if dtype == np.float64 else 0.0) + \
        (100.0 if dtype != np.float32 else 0.0)


@kiln.export
def empty_like_other(a: kiln.f64[:], b: kiln.f32[:]) -> kiln.f32[:]:
    out = np.empty_like(a, dtype=b.dtype)
    out[:] = a
    return out


@kiln.export
def dtype_in_a_name(a: kiln.i32[:, :]) -> float:
    dt = a.dtype
    t = np.float32
    return float((np.ones(a.shape[1], dtype=dt) + a.sum(axis=0)).sum()) + \
        float(a.astype(t).sum())


@kiln.export
def defaults_and_dtypes_passed(a: kiln.f64[:]) -> float:
    return make(a).sum() + make(a, np.int32).sum() * 10 + make(a, dtype=np.float32).sum() * 100 \
        + make(a, a.dtype).sum() * 1000 + make(a, bool).sum() * 10000


@kiln.export
def compared(a: kiln.f64[:], b: kiln.f32[:]) -> float:
    return which(float) + which(np.float64) * 1e3 + which(a.dtype) * 1e6 + \
        which(b.dtype) * 1e9 + which(np.double) * 1e12


@kiln.export
def cast_by_a_parameter(a: kiln.f64[:]) -> float:
    return float(cast_to(a, np.float32).sum()) + cast_to(a, np.float64).sum() * 10 + \
        cast_to(a, a.dtype).sum() * 100


@kiln.export
def in_a_loop(a: kiln.f64[:], n: int) -> float:
    dt = np.float32
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            dt = np.float32
        s += np.zeros(2, dtype=dt).sum() + i
    return s


def same(a, b):
    return a == b


@kiln.export
def compared_then_numbers(x: float) -> float:
    # one helper typed at dtypes first, then at numbers: each specialization
    # starts from the helper's own tree (the first one's known answer must
    # not reach the second)
    return float(same(np.float32, np.float64)) + float(same(x, x)) * 10 + \
        float(same(np.float32, np.float32)) * 100
