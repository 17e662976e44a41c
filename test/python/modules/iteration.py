"""Loops over arrays (`for v in a`, enumerate, zip; desugar.py):
test_iteration.py compares every function with CPython on edge sizes and
views."""

import numpy as np

import kiln


@kiln.export
def total(a: kiln.f64[:]) -> float:
    s = 0.0
    for v in a:
        s += v
    return s


@kiln.export
def weighted(a: kiln.f64[:]) -> float:
    s = 0.0
    for i, v in enumerate(a):
        s += i * v
    return s


@kiln.export
def weighted_from(a: kiln.i32[:], start: int) -> int:
    s = 0
    for i, v in enumerate(a, start):
        if v < 0:
            break
        s += i * v
    return s


@kiln.export
def dot(a: kiln.f64[:], b: kiln.f32[:]) -> float:
    s = 0.0
    for u, v in zip(a, b):
        s += u * v
    return s


@kiln.export
def three_way(a: kiln.i64[:], b: kiln.i64[:], c: kiln.u8[:]) -> int:
    s = 0
    for u, v, w in zip(a, b, c):
        s += (u - v) * w
    return s


@kiln.export
def row_sums(m: kiln.f64[:, :]) -> kiln.f64[:]:
    out = np.zeros(m.shape[0])
    for i, row in enumerate(m):
        out[i] = row.sum()
    return out


@kiln.export
def clear_rows(m: kiln.f64[:, :]) -> None:
    # a row is a view: writing it writes the matrix
    for row in m:
        row[:] = row * 2


@kiln.export
def points(p: kiln.f64[:, :]) -> float:
    s = 0.0
    for x, y in p:
        s += x * y
    return s


@kiln.export
def split_lines(db: kiln.i64[:, :]) -> kiln.i64[:]:
    out = np.zeros(db.shape[0], dtype=np.int64)
    for idx, line in enumerate(db):
        target, vector = line[0], line[1:]
        out[idx] = target * vector.sum()
    return out


@kiln.export
def rebinding(a: kiln.f64[:], b: kiln.f64[:]) -> float:
    # the loop goes on over the array it started with
    s = 0.0
    for v in a:
        s += v
        a = b
    return s + a[0]


@kiln.export
def last_element(a: kiln.f64[:]) -> float:
    v = -1.0
    i = -1
    for i, v in enumerate(a):
        pass
    return v + i


@kiln.export
def nested(a: kiln.f64[:], b: kiln.f64[:]) -> float:
    s = 0.0
    for u in a:
        for v in b:
            if v > u:
                continue
            s += u - v
    return s
