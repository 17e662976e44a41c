"""np.sort, np.argsort, np.searchsorted, np.unique and np.bincount
(modules/sorting_counting.py) against numpy on edge inputs: empty and
one-element arrays, runs longer than the merge's widths, NaN, -0.0,
repeated values, the integer extremes, numpy's exceptions."""

import json

import numpy as np
import pytest

from conftest import kiln_mlir_errors
from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("sorting_counting")


def test_everything_compiles(mod):
    with open(mod.path("sorting_counting.kiln.json")) as record:
        assert json.load(record)["fallbacks"] == []


SIZES = [0, 1, 2, 3, 15, 16, 17, 64, 65, 1000]


def values(n, seed, nan=True):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, n).astype(np.float64) * 0.5
    if nan:
        a[rng.random(n) < 0.1] = np.nan
    a[rng.random(n) < 0.05] = np.inf
    return a


@pytest.mark.parametrize("n", SIZES)
def test_sort_and_argsort(mod, n):
    compare(mod, "sorted_values", lambda: (values(n, n),))
    compare(mod, "sorted_ints", lambda: (np.random.default_rng(n).integers(
        -2**31, 2**31, n, dtype=np.int64).astype(np.int32),))
    # repeated values: the stable order is numpy's kind='stable'
    compare(mod, "stable_order", lambda: (np.random.default_rng(n).integers(-3, 3, n),))
    compare(mod, "stable_order", lambda: (np.full(n, -2**63),))
    compare(mod, "median_by_sorting", lambda: (values(n, n + 1, nan=False).astype(np.float32),))



@pytest.mark.parametrize("n", SIZES)
def test_searchsorted(mod, n):
    for x in (0.5, -10.0, 10.0, np.nan, np.inf, 0.0):
        compare(mod, "positions", lambda: (values(n, n), values(7, n + 2), x))


@pytest.mark.parametrize("n", SIZES)
def test_unique(mod, n):
    compare(mod, "distinct", lambda: (values(n, n),))
    compare(mod, "distinct", lambda: (np.full(n, np.nan),))
    compare(mod, "distinct_ints", lambda: (np.random.default_rng(n).integers(0, 256, n,
                                                                             dtype=np.uint8),))


@pytest.mark.parametrize("n", SIZES)
def test_bincount(mod, n):
    def ints(low, high):
        return np.random.default_rng(n).integers(low, high, n)

    for minlength in (0, 3, 40):
        compare(mod, "histogram_of_ints", lambda: (ints(0, 20), minlength))
    compare(mod, "histogram_of_ints", lambda: (ints(-1, 3), 0))     # ValueError if any < 0
    compare(mod, "histogram_of_ints", lambda: (np.arange(n), -1))   # minlength < 0
    compare(mod, "counts_of_bools", lambda: (ints(0, 2) == 1,))


REFUSED = """import numpy as np
import kiln


@kiln.export
def two_d(a: kiln.f64[:, :, :]):
    return np.sort(a, axis=0)


@kiln.export
def complex_values(a: kiln.c128[:]):
    return np.sort(a)


@kiln.export
def of_floats(a: kiln.f64[:]):
    return np.bincount(a)


@kiln.export
def side(a: kiln.f64[:], s: str):
    return np.searchsorted(a, 1.0, side=s)


@kiln.export
def weighted_density(a: kiln.f64[:], w: kiln.f64[:]):
    return np.histogram(a, 4, weights=w, density=True)


@kiln.export
def edges_2d(a: kiln.f64[:], e: kiln.f64[:, :]):
    return np.histogram(a, e)


@kiln.export
def float32_weights(a: kiln.f64[:], w: kiln.f32[:]):
    return np.histogram(a, 4, weights=w)
"""


@pytest.mark.parametrize("n", SIZES + [65537, 140000])
def test_histogram_weights_density_and_edges(mod, n):
    """weights= (numpy's float64 sums per block of 65536 values, cast to
    the weights' dtype), density=True (NaN without values), bins as an
    array of edges (the rightmost edge <= a value; numpy's ValueError when
    they decrease), np.histogram(a)[0]."""
    rng = lambda: np.random.default_rng(n)          # noqa: E731
    normal = lambda: rng().standard_normal(n) * 3.0  # noqa: E731
    for bins in (1, 3, 10):
        compare(mod, "histogram_weighted", lambda: (normal(), rng().standard_normal(n)[::-1]
                                                    .copy(), bins))
        compare(mod, "histogram_density", lambda: (np.round(normal()), bins))
    ints = lambda: rng().integers(-3, 12, n)        # noqa: E731
    for low, high in ((0.0, 10.0), (5.0, 5.0), (-1.0, 30.0)):
        compare(mod, "histogram_int_weights", lambda: (ints(), ints() - 4, low, high))
    if n:
        compare(mod, "histogram_weighted", lambda: (normal(), np.ones(n - 1), 3))  # ValueError
    for edges in ([], [1.0], [-1.0, 0.0, 0.0, 2.0], np.linspace(-2, 2, 7), [2.0, 1.0],
                  [-np.inf, 0.0, np.inf]):
        compare(mod, "histogram_of_edges", lambda: (normal(), np.array(edges, dtype=np.float64)))
    compare(mod, "histogram_of_edges", lambda: (np.where(normal() > 1, np.nan, normal()),
                                                np.array([-1.0, 0.5, 3.0])))
    for edges in ([0, 2, 2, 5], [-3, 11], [3, 1]):
        compare(mod, "histogram_of_int_edges", lambda: (ints(), np.array(edges, dtype=np.int64)))
        compare(mod, "histogram_int_weights_and_edges",
                      lambda: (ints(), ints() - 4, np.array(edges, dtype=np.int64)))
    # float weights of values without ties: numpy's sums (its quicksort
    # orders ties otherwise than Kiln's stable sort)
    for edges in ([], [-1.0, 0.0, 0.0, 2.0], [-np.inf, 0.0, np.inf], [1.0, -1.0]):
        compare(mod, "histogram_weights_and_edges",
                      lambda: (normal(), rng().standard_normal(n), np.array(edges)))
    compare(mod, "histogram_counts", lambda: (normal(),))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (4, 5), (17, 2)])
def test_sorting_along_an_axis_and_in_place(mod, shape):
    """np.sort/np.argsort of N-D arrays (the last axis, axis=0 of 2-D,
    axis=None), x.sort() in place (through a reversed view too), x.argsort()."""
    def values():
        a = np.round(np.random.default_rng(shape[0]).normal(size=shape), 1)
        a.flat[::3] = np.nan
        return a
    compare(mod, "sorted_rows", lambda: (values(),))
    compare(mod, "sorted_3d", lambda: (np.random.default_rng(2).integers(
        -3, 3, size=(2,) + shape).astype(np.int32),))
    compare(mod, "sorted_in_place", lambda: (values()[:, ::-1], np.arange(shape[0])[::-1].copy()))
    compare(mod, "argsort_method", lambda: (values().ravel(),))


def test_what_is_refused_says_why(tmp_path):
    errors = kiln_mlir_errors(tmp_path, "refused", REFUSED)
    for line, column, message in [
            (7, 28, "np.sort() of a 3-D array along an axis other than the last is not "
                    "supported yet"),
            (12, 20, "np.sort() of a complex array is not supported yet"),
            (17, 24, "np.bincount() of a float64 array: numpy cannot cast float64 to int64 "
                     "safely (TypeError)"),
            (22, 41, "np.searchsorted()'s `side` must be written as one of 'left', 'right'"),
            (27, 50, "np.histogram() with both `weights` and `density=True` is not "
                     "supported yet"),
            (32, 28, "`bins` must be 1d, when an array"),
            (37, 39, "np.histogram()'s `weights` must be a 1-D float64 or int64 array here, "
                     "not kiln.f32[:]")]:
        assert f"refused.py:{line}:{column}: error: {message}" in errors, errors


@pytest.mark.parametrize("n", SIZES)
def test_histogram(mod, n):
    def normal(scale=3.0):
        return np.random.default_rng(n).standard_normal(n) * scale

    for bins in (1, 3, 10):
        compare(mod, "histogram_of_values", lambda: (normal(), bins))
        compare(mod, "histogram_of_values", lambda: (np.round(normal()), bins))  # on the edges
    compare(mod, "histogram_of_values", lambda: (np.full(n, 2.5), 4))     # an empty range
    compare(mod, "histogram_of_values", lambda: (normal(), 0))             # ValueError
    if n:
        def with_edges(first, last):
            def make():
                a = np.round(normal())
                a[0], a[-1] = first, last
                return a, 5
            return make
        for first, last in ((np.nan, 1.0), (-np.inf, np.inf), (1.0, np.inf), (-np.inf, 2.0)):
            compare(mod, "histogram_of_values", with_edges(first, last))  # numpy's message
    ints = lambda: np.random.default_rng(n).integers(-5, 5, n, dtype=np.int32)  # noqa: E731
    for low, high in ((-2.0, 3.0), (3.0, -2.0), (0.0, np.inf), (1.0, 1.0), (-10.0, 10.0)):
        compare(mod, "histogram_in_a_range", lambda: (ints(), low, high))
