"""Loop nests versioned once at their root for bounds (kiln-hoist-bounds-
checks): the same results, errors and partial writes as CPython, for
boxes inside the arrays, boxes that leave them (the checked copy raises at
the exact element) and accesses guarded by an `if`."""

import numpy as np
import pytest

from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("loop_nests")


def grid(rows, columns, order="C"):
    return np.asarray(np.arange(rows * columns, dtype=np.float64).reshape(rows, columns)
                      * 0.5 + 1.0, order=order)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 5), (3, 3), (5, 4), (9, 17), (33, 7)])
def test_jacobi(mod, shape):
    compare(mod, "jacobi", lambda: (grid(*shape), np.zeros(shape)))
    # Strided and transposed views, and a negative stride.
    compare(mod, "jacobi", lambda: (grid(shape[1], shape[0]).T, np.zeros(shape)))
    compare(mod, "jacobi", lambda: (grid(*shape)[::-1], np.zeros((shape[0], 2 * shape[1]))[:, ::2]))


@pytest.mark.parametrize("offsets", [(0, 0), (1, 1), (2, 0), (0, 3), (3, 0), (-1, 0), (0, -1),
                                     (-5, 0), (0, -9), (-4, -8), (2**40, 0), (-2**62, 0)])
def test_shifted_rows_raise_where_python_does(mod, offsets):
    di, dj = offsets
    compare(mod, "shifted_rows", lambda: (grid(4, 8), np.zeros((4, 8)), 3, 5, di, dj))
    compare(mod, "shifted_rows", lambda: (grid(4, 8), np.zeros((4, 8)), 0, 5, di, dj))
    compare(mod, "shifted_rows", lambda: (grid(4, 8), np.zeros((4, 8)), 3, 0, di, dj))


@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (7, 9), (16, 5)])
def test_guarded_access(mod, shape):
    compare(mod, "guarded_above", lambda: (grid(*shape), np.zeros(shape)))


@pytest.mark.parametrize("rows,columns", [(0, 3), (3, 0), (1, 1), (4, 5), (5, 4), (6, 8), (7, 9)])
def test_backwards_sum(mod, rows, columns):
    compare(mod, "backwards_sum", lambda: (grid(5, 8), rows, columns))


@pytest.mark.parametrize("n,m", [(0, 0), (1, 1), (3, 4), (4, 3), (5, 5), (4, 9)])
def test_outer_product_into(mod, n, m):
    # The box may leave a (n > 4), b (m > 5) or out (n > 4 or m > 6).
    compare(mod, "outer_product_into",
            lambda: (np.arange(4.0), np.arange(5.0) + 1, np.ones((4, 6)), n, m))


@pytest.mark.parametrize("n,p,m", [(0, 0, 0), (1, 1, 1), (3, 5, 7), (4, 4, 4), (8, 3, 9)])
def test_matmul_ikj(mod, n, p, m):
    compare(mod, "matmul_ikj", lambda: (np.arange(n * p, dtype=np.float64).reshape(n, p) * 1.5,
                                        np.arange(p * m, dtype=np.float64).reshape(p, m),
                                        np.zeros((n, m))))
    # c smaller than the product: IndexError after the rows that fit.
    if n > 1 and m > 0:
        compare(mod, "matmul_ikj", lambda: (np.ones((n, p)), np.ones((p, m)),
                                            np.zeros((n - 1, m))))
