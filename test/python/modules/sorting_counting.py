"""np.sort, np.argsort, np.searchsorted, np.unique and np.bincount
(frontend/kernels/sorting.py), written as numpy code uses them."""

import numpy as np

import kiln


@kiln.export
def sorted_values(a: kiln.f64[:]) -> kiln.f64[:]:
    return np.sort(a)


@kiln.export
def sorted_ints(a: kiln.i32[:]) -> kiln.i32[:]:
    return np.sort(a, kind="mergesort")


@kiln.export
def stable_order(a: kiln.i64[:]) -> kiln.i64[:]:
    return np.argsort(a, kind="stable")


@kiln.export
def median_by_sorting(a: kiln.f32[:]) -> float:
    order = np.argsort(a)
    s = a[order]
    n = len(s)
    if n == 0:
        return 0.0
    return float(s[n // 2] + s[(n - 1) // 2]) / 2


@kiln.export
def positions(a: kiln.f64[:], v: kiln.f64[:], x: float) -> kiln.i64[:]:
    s = np.sort(a)
    left = np.searchsorted(s, v)
    right = np.searchsorted(s, v, side="right")
    return left * 1000 + right + np.searchsorted(s, x)


@kiln.export
def distinct(a: kiln.f64[:]) -> kiln.f64[:]:
    return np.unique(a)


@kiln.export
def distinct_ints(a: kiln.u8[:]) -> kiln.u8[:]:
    return np.unique(a)


@kiln.export
def histogram_of_ints(x: kiln.i64[:], n: int) -> kiln.i64[:]:
    return np.bincount(x, minlength=n) + np.bincount(x)[: min(n, len(np.bincount(x)))].sum()


@kiln.export
def counts_of_bools(m: kiln.b1[:]) -> kiln.i64[:]:
    return np.bincount(m)


@kiln.export
def histogram_of_values(a: kiln.f64[:], bins: int) -> kiln.f64[:]:
    counts, edges = np.histogram(a, bins)
    return counts * 1000.0 + edges[1:]


@kiln.export
def histogram_in_a_range(a: kiln.i32[:], low: float, high: float) -> kiln.f64[:]:
    counts, edges = np.histogram(a, bins=4, range=(low, high))
    return counts + edges[:-1]


@kiln.export
def histogram_weighted(a: kiln.f64[:], w: kiln.f64[:], bins: int):
    return np.histogram(a, bins, weights=w)


@kiln.export
def histogram_int_weights(a: kiln.i64[:], w: kiln.i64[:], low: float, high: float):
    return np.histogram(a, 4, range=(low, high), weights=w)


@kiln.export
def histogram_density(a: kiln.f64[:], bins: int):
    return np.histogram(a, bins=bins, density=True)


@kiln.export
def histogram_of_edges(a: kiln.f64[:], e: kiln.f64[:]):
    return np.histogram(a, bins=e)


@kiln.export
def histogram_of_int_edges(a: kiln.i64[:], e: kiln.i64[:]):
    return np.histogram(a, e, density=True)


@kiln.export
def histogram_counts(a: kiln.f64[:]) -> kiln.i64[:]:
    return np.histogram(a)[0] + np.histogram(a, 3)[0].sum()


@kiln.export
def sorted_rows(a: kiln.f64[:, :]):
    # (argsort: numpy's default quicksort may order equal elements otherwise)
    return (np.sort(a), np.argsort(a, kind="stable"), np.sort(a, axis=0),
            np.argsort(a, axis=-2, kind="stable"), np.sort(a, axis=None),
            np.argsort(a, axis=None, kind="stable"))


@kiln.export
def sorted_3d(a: kiln.i32[:, :, :]):
    return np.sort(a), np.argsort(a, kind="stable"), np.sort(a, axis=None)


@kiln.export
def sorted_in_place(a: kiln.f64[:, :], b: kiln.i64[:]) -> None:
    a.sort()
    b.sort(kind="stable")


@kiln.export
def argsort_method(a: kiln.f64[:]):
    return a.argsort(kind="stable")


@kiln.export
def histogram_weights_and_edges(a: kiln.f64[:], w: kiln.f64[:], e: kiln.f64[:]):
    return np.histogram(a, e, weights=w)


@kiln.export
def histogram_int_weights_and_edges(a: kiln.i64[:], w: kiln.i64[:], e: kiln.i64[:]):
    return np.histogram(a, e, weights=w)
