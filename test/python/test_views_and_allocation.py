"""Slicing views inside functions, and arrays that compiled code allocates
and returns: correct values, numpy ownership, no leaks."""

import numpy as np
import pytest

from test_end_to_end import compare


@pytest.fixture(scope="module")
def views(build_module):
    return build_module("views")


@pytest.fixture(scope="module")
def allocation(build_module):
    return build_module("allocation")


def test_slices_follow_python_bounds(views):
    for n in range(0, 9):
        for a in range(-10, 11, 3):
            for b in range(-10, 11, 3):
                for c in [-3, -2, -1, 1, 2, 5]:
                    compare(views, "sliced", lambda: (np.arange(float(n)) + 1, a, b, c))
        compare(views, "inner", lambda: (np.arange(float(n)) + 1,))
    compare(views, "sliced", lambda: (np.ones(3), 0, 3, 0))
    for i, j in [(0, 0), (1, -1), (3, 4), (4, 0), (-5, 2)]:
        compare(views, "row_col", lambda: (np.arange(20.0).reshape(4, 5), i, j))
        compare(views, "row_col", lambda: (np.arange(20.0).reshape(5, 4).T, i, j))
    compare(views, "scale_view", lambda: (np.arange(7.0),))
    compare(views, "scale_view", lambda: (np.arange(9.0)[::-1],))


def test_returned_arrays_are_owning_numpy_arrays(allocation):
    native = allocation.native
    x = np.arange(5.0)
    result = native.doubled(x)
    assert isinstance(result, np.ndarray) and result.dtype == np.float64
    np.testing.assert_array_equal(result, 2 * x)
    assert result.flags.writeable and result.flags.c_contiguous
    grid = native.grid(2, 3)
    assert grid.dtype == np.int64 and grid.shape == (2, 3)
    np.testing.assert_array_equal(grid, [[0, 1, 2], [10, 11, 12]])
    assert native.pick(True, 3).dtype == np.float32
    np.testing.assert_array_equal(native.pick(False, 2), [0.0, 0.0])
    np.testing.assert_array_equal(native.early(0), [0.0])
    view = native.doubled(np.ones(10))[::3]
    del result
    np.testing.assert_array_equal(view, [2.0] * 4)  # the buffer lives while a view does


def test_allocation_errors_match_cpython(allocation):
    compare(allocation, "early", lambda: (5,))
    compare(allocation, "grid", lambda: (-1, 2))
    compare(allocation, "temp_sum", lambda: (7,))


def rss_mib():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096 / 2**20


def test_no_leaks_over_100000_calls(allocation):
    native = allocation.native
    ones = np.ones(1000)
    for _ in range(2000):  # warm up numpy's and the allocator's caches
        native.doubled(ones)
    before = rss_mib()
    for i in range(100_000):
        native.doubled(ones)           # 8 KB returned each time
        native.pick(i % 2 == 0, 100)   # one returned, one freed
        native.temp_sum(100)           # a temporary freed at return
        try:
            native.early(5)            # freed on the error path
        except ZeroDivisionError:
            pass
    # A leak of the 8 KB arrays alone would be 800 MB.
    assert rss_mib() - before < 40


def test_arrays_returned_by_calls_are_owned_by_the_caller(allocation):
    compare(allocation, "ramp_sum", lambda: (3,))
    compare(allocation, "ramp_sum", lambda: (5,))   # the helper raises after allocating
    compare(allocation, "ramp_twice", lambda: (3,))
    compare(allocation, "ramp_twice", lambda: (6,))
    native = allocation.native
    before = rss_mib()
    for _ in range(50_000):
        native.ramp_sum(3)
        native.ramp_twice(3)
        try:
            native.ramp_sum(200)
        except ZeroDivisionError:
            pass
    assert rss_mib() - before < 40
