"""`a @ b` of 2-D float matrices (issue 28): kiln-tile-matmul's cache- and
register-blocked vector kernel when the operands and the result have
contiguous rows, the sums-of-products loops otherwise (transposes, column
steps), against numpy on the sizes the blocking cares about: 0, 1, the
register tile (mr = 6 or 8 rows, nr = 2 vectors of columns) and the cache
tile (96 rows, 256 deep) each minus one, equal and plus one; strided,
reversed and transposed views; a result written over an operand; NaN and
inf. Sums are in k order with fused multiply-adds, numpy's BLAS sums in its
own order: the comparison allows the rounding of k terms
(docs/language.md)."""

import numpy as np
import pytest

MODULE = "matmul_kernels"
SIZES = [0, 1, 2, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 95, 96, 97, 255, 256, 257]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def close(got, want, k):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    eps = np.finfo(want.dtype).eps
    scale = k * eps * 4
    finite = np.isfinite(want)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    np.testing.assert_allclose(got[finite], want[finite], rtol=scale, atol=scale)


def matrices(m, k, n, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed + 97 * m + 13 * k + n)
    return rng.normal(size=(m, k)).astype(dtype), rng.normal(size=(k, n)).astype(dtype)


@pytest.mark.parametrize("m", SIZES[::2])
@pytest.mark.parametrize("n", SIZES[1::2])
def test_blocked_product_edges(mod, m, n):
    k = (m + n) % 300 + 1
    a, b = matrices(m, k, n)
    close(mod.native.product(a, b), a @ b, k)
    close(mod.native.dot_function(a, b), np.dot(a, b), k)


@pytest.mark.parametrize("k", [0, 1, 255, 256, 257, 600])
def test_depths(mod, k):
    a, b = matrices(37, k, 41)
    close(mod.native.product(a, b), a @ b, max(k, 1))


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (9, 17, 33), (100, 300, 70)])
def test_float32(mod, m, k, n):
    a, b = matrices(m, k, n, np.float32)
    close(mod.native.product32(a, b), a @ b, k)


@pytest.mark.parametrize("view", ["transposed", "column_step", "reversed_rows",
                                  "reversed_columns", "row_slice"])
def test_views(mod, view):
    a, b = matrices(40, 50, 60)
    big_a, big_b = matrices(80, 100, 120)
    left, right = {
        "transposed": (b.T, a.T),                       # columns contiguous: the loops
        "column_step": (big_a[:40, ::2], big_b[:50, ::2]),
        "reversed_rows": (a[::-1], b[::-1]),            # negative row stride, rows contiguous
        "reversed_columns": (a[:, ::-1], b[:, ::-1]),
        "row_slice": (big_a[10:50, 3:53], big_b[7:57, 1:61]),
    }[view]
    close(mod.native.product(left, right), left @ right, left.shape[1])


def test_result_over_an_operand(mod):
    """`a[:, :] = a @ a`: numpy computes the product first; so does Kiln
    (the destination overlaps an operand: a temporary)."""
    a, _ = matrices(33, 33, 1)
    want = a @ a
    mod.native.square_in_place(a)
    close(a, want, 33)


def test_into_a_strided_destination(mod):
    a, b = matrices(20, 30, 40)
    out = np.zeros((40, 80))
    mod.native.product_into(a, b, out[::2, ::2])
    close(out[::2, ::2], a @ b, 30)
    assert not out[1::2].any() and not out[:, 1::2].any()


def test_nan_and_inf(mod):
    a, b = matrices(20, 20, 20)
    a[3, 4] = np.nan
    b[5, 6] = np.inf
    b[7, 8] = -np.inf
    with np.errstate(all="ignore"):
        close(mod.native.product(a, b), a @ b, 20)


def test_shape_mismatch_is_numpys_error(mod):
    a, b = matrices(3, 4, 5)
    with pytest.raises(ValueError) as native:
        mod.native.product(a, b.T)
    with pytest.raises(ValueError) as python:
        a @ b.T
    assert str(native.value).startswith(str(python.value))     # plus " (file, line N)"


@pytest.mark.parametrize("n", [1, 8, 65])
def test_layers_chains_and_loops(mod, n):
    x, w = matrices(n, n + 3, n + 5)
    bias = np.linspace(-1, 1, n + 5)
    close(mod.native.layer(x, w, bias), np.maximum(x @ w + bias, 0.0), n + 3)
    a, b = matrices(n, n, n, seed=1)
    c, _ = matrices(n, n, 1, seed=2)
    close(mod.native.chain(a, b, c, 0.5, -2.0), 0.5 * a @ (b @ c) + -2.0 * c, 2 * n)
    close(mod.native.products_in_a_loop(a / n, 3), mod.python.products_in_a_loop(a / n, 3),
          4 * n)
