"""Slices inside functions: views with Python's bounds, compiled and run by CPython."""
import kiln

@kiln.export
def total(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s

@kiln.export
def sliced(x: kiln.f64[:], a: int, b: int, c: int) -> float:
    v = x[a:b:c]
    return total(v) * 1000.0 + len(v)

@kiln.export
def inner(x: kiln.f64[:]) -> float:
    return total(x[1:-1]) + total(x[::-1]) * 0.5 + total(x[::2]) * 0.25 + total(x[5:]) + total(x[:-100])

@kiln.export
def row_col(m: kiln.f64[:, :], i: int, j: int) -> float:
    r = m[i, :]
    c = m[:, j]
    sub = m[1:, ::-1]
    return total(r) * 100.0 + total(c) + sub.shape[0] * 10000.0 + sub[0, 0]

@kiln.export
def scale_view(x: kiln.f64[:]) -> None:
    v = x[1::2]
    for i in range(len(v)):
        v[i] = v[i] * 10.0
