"""Products beyond 2-D real matrices (issue 28), against numpy on the same
arguments: complex `@` (2-D, and 1-D inside a loop), stacks of matrices
through `@` and np.matmul (3-D with 3-D or 2-D, the batch broadcast from 1,
empty stacks; Kiln's kernels, frontend/kernels/linalg.py), np.matmul of
1-D and 2-D arrays, np.vdot (real and complex, flattened) and np.inner, with
numpy's messages for mismatched shapes. Floating sums differ from BLAS's
by their order: the comparison allows 8 k ulps of the result's magnitude."""

import numpy as np
import pytest

from conftest import outcome

MODULE = "product_kernels"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def close(got, want, k):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    if not want.size:
        return
    if want.dtype.kind in "iu":
        assert np.array_equal(got, want)
        return
    scale = np.max(np.abs(want)) or 1.0
    eps = np.finfo(want.dtype).eps
    np.testing.assert_allclose(got, want, rtol=0, atol=8 * max(k, 1) * eps * scale)


def complex_matrix(shape, seed, dtype=np.complex128):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("m, k, n", [(0, 3, 2), (1, 1, 1), (3, 0, 2), (5, 7, 3), (33, 17, 9)])
def test_complex_products(mod, m, k, n):
    a, b = complex_matrix((m, k), m), complex_matrix((k, n), n)
    close(mod.native.complex_product(a, b), mod.python.complex_product(a, b), k)
    if n:
        close(mod.native.complex_rows(a, b[:, 0]), mod.python.complex_rows(a, b[:, 0]), k)
        close(mod.native.complex_rows(a[::-1], b[::-1, -1]),
              mod.python.complex_rows(a[::-1], b[::-1, -1]), k)
    a64, v64 = a.astype(np.complex64), b[:, 0].astype(np.complex64) if n else None
    if n:
        close(mod.native.complex64_vector(a64, v64), mod.python.complex64_vector(a64, v64), k)


@pytest.mark.parametrize("batches", [(4, 4), (1, 3), (3, 1), (0, 1), (1, 0), (2, 2)])
@pytest.mark.parametrize("m, k, n", [(3, 5, 2), (1, 1, 1), (9, 8, 7), (2, 0, 3)])
def test_stacks(mod, batches, m, k, n):
    rng = np.random.default_rng(sum(batches) + m + k + n)
    a, b = rng.standard_normal((batches[0], m, k)), rng.standard_normal((batches[1], k, n))
    close(mod.native.stacks(a, b), mod.python.stacks(a, b), k)
    close(mod.native.stacks(a[:, ::-1], b.transpose(0, 1, 2)[:, :, ::-1]),
          mod.python.stacks(a[:, ::-1], b[:, :, ::-1]), k)
    a32, m32 = a.astype(np.float32), b[0].astype(np.float32) if batches[1] else None
    if batches[1]:
        close(mod.native.stack_matrix(a32, m32), mod.python.stack_matrix(a32, m32), k)
    ints = rng.integers(-9, 9, (m, k)).astype(np.int32)
    close(mod.native.matrix_stack(ints, b), mod.python.matrix_stack(ints, b), k)
    ia = rng.integers(-2**20, 2**20, a.shape)
    ib = rng.integers(-2**10, 2**10, b.shape).astype(np.int16)
    close(mod.native.int_stacks(ia, ib), mod.python.int_stacks(ia, ib), k)
    za, zb = complex_matrix(a.shape, 1), complex_matrix(b.shape, 2)
    close(mod.native.complex_stacks(za, zb), mod.python.complex_stacks(za, zb), k)


@pytest.mark.parametrize("n", [0, 1, 5, 17])
def test_matmul_of_vectors_and_matrices(mod, n):
    rng = np.random.default_rng(n)
    a, x, b = rng.standard_normal((3, n)), rng.standard_normal(n), rng.standard_normal((n, 4))
    close(mod.native.matmul_vector(a, x), mod.python.matmul_vector(a, x), n)
    close(mod.native.matmul_matrices(a, b), mod.python.matmul_matrices(a, b), n)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 3), (4, 5)])
def test_vdot_and_inner(mod, shape):
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    a = rng.standard_normal(shape)
    flat = rng.integers(-5, 5, shape[0] * shape[1]).astype(np.int32)
    close(mod.native.vdot_real(a, flat), mod.python.vdot_real(a, flat), a.size)
    close(mod.native.vdot_real(a.T, flat), mod.python.vdot_real(a.T, flat), a.size)
    z, w = complex_matrix(a.size, 3), complex_matrix(a.size, 4)
    close(mod.native.vdot_complex(z, w), mod.python.vdot_complex(z, w), a.size)
    za = complex_matrix(shape, 5)
    close(mod.native.vdot_complex_matrix(za, a), mod.python.vdot_complex_matrix(za, a), a.size)
    x, y = rng.standard_normal(shape[1]), rng.standard_normal(shape[1])
    close(mod.native.inner_vectors(x, y), mod.python.inner_vectors(x, y), shape[1])
    b = rng.integers(-4, 4, (3, shape[1]))
    close(mod.native.inner_matrices(a, b), mod.python.inner_matrices(a, b), shape[1])


def test_mismatched_shapes_raise_numpys_errors(mod):
    cases = [
        ("stacks", np.ones((2, 3, 4)), np.ones((3, 4, 5))),     # batches do not broadcast
        ("stacks", np.ones((2, 3, 4)), np.ones((2, 5, 6))),     # core dimensions
        ("stacks", np.ones((2, 3, 4)), np.ones((3, 5, 6))),     # both: the core one first
        ("stack_matrix", np.ones((2, 3, 4), np.float32), np.ones((5, 2), np.float32)),
        ("matrix_stack", np.ones((3, 4), np.int32), np.ones((2, 5, 6))),
        ("matmul_vector", np.ones((2, 3)), np.ones(4)),
        ("matmul_matrices", np.ones((2, 3)), np.ones((4, 2))),
        ("vdot_real", np.ones((2, 3)), np.ones(5, np.int32)),
        ("vdot_complex", np.ones(2, complex), np.ones(3, complex)),
        ("vdot_complex_matrix", np.ones((2, 3), complex), np.ones((1, 5))),
        ("inner_vectors", np.ones(3), np.ones(4)),
        ("inner_matrices", np.ones((2, 3)), np.ones((4, 5), np.int64)),
    ]
    for name, *args in cases:
        got = outcome(getattr(mod.native, name), *args)
        want = outcome(getattr(mod.python, name), *args)
        assert got[1] == want[1] and want[1] is not None, (name, got[1], want[1])


def test_everything_compiles(mod):
    import json
    with open(mod.path("product_kernels.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert all(f["compiled"] for f in record["functions"]), [
        f["name"] for f in record["functions"] if not f["compiled"]]


@pytest.mark.parametrize("m, k, n", [(0, 2, 3), (1, 1, 1), (4, 5, 3), (4, 1, 3), (9, 16, 7)])
def test_einsum(mod, m, k, n):
    rng = np.random.default_rng(m * 31 + k * 7 + n)
    a, b = rng.standard_normal((m, k)), rng.integers(-3, 3, (k, n)).astype(np.int32)
    close(mod.native.einsum_product(a, b), mod.python.einsum_product(a, b), k)
    # A size-1 axis broadcasts against the label's other sizes, as in numpy.
    close(mod.native.einsum_product(a[:, :1], b), mod.python.einsum_product(a[:, :1], b), k)
    f = rng.standard_normal((k, n))
    close(mod.native.einsum_implicit(a, f), mod.python.einsum_implicit(a, f), k)
    square = rng.integers(-2**40, 2**40, (k, k))
    assert mod.native.einsum_trace(square) == mod.python.einsum_trace(square)
    s32 = rng.standard_normal((m, m)).astype(np.float32)
    close(mod.native.einsum_diagonal(s32), mod.python.einsum_diagonal(s32), 1)
    x, y, z = rng.standard_normal(m), rng.standard_normal(k), rng.standard_normal(n)
    close(mod.native.einsum_outer(x, y, z), mod.python.einsum_outer(x, y, z), 1)
    stacks_a, stacks_b = rng.standard_normal((3, m, k)), rng.standard_normal((3, k, n))
    close(mod.native.einsum_batch(stacks_a, stacks_b), mod.python.einsum_batch(stacks_a, stacks_b),
          k)
    c = complex_matrix((m, k), 9)
    close(mod.native.einsum_column_sums(c), mod.python.einsum_column_sums(c), m)
    ints = rng.integers(-9, 9, (m, k)).astype(np.int32)
    close(mod.native.einsum_transpose(ints[::-1]), mod.python.einsum_transpose(ints[::-1]), 1)
    close(mod.native.einsum_dot(y, y[::-1]), mod.python.einsum_dot(y, y[::-1]), k)


def test_einsum_errors(mod):
    got = outcome(mod.native.einsum_diagonal, np.ones((2, 3), np.float32))
    want = outcome(mod.python.einsum_diagonal, np.ones((2, 3), np.float32))
    assert got == want and want[1] is not None, (got, want)
    # Sizes that do not broadcast: ValueError (numpy's text names the
    # operands' remapped shapes; Kiln's names the subscript).
    for name, args in (("einsum_product", (np.ones((2, 3)), np.ones((4, 5), np.int32))),
                       ("einsum_dot", (np.ones(2), np.ones(3)))):
        got = outcome(getattr(mod.native, name), *args)
        want = outcome(getattr(mod.python, name), *args)
        assert got[1][0] == want[1][0] == "ValueError", (got, want)
        assert "broadcast" in got[1][1]


@pytest.mark.parametrize("batch, n", [(0, 3), (1, 1), (5, 4), (3, 9), (2, 17)])
def test_linalg_of_stacks(mod, batch, n):
    rng = np.random.default_rng(batch * 13 + n)
    a = rng.standard_normal((batch, n, n)) + n * np.eye(n)
    close(mod.native.stack_det(a), mod.python.stack_det(a), 64 * n)
    a32 = a.astype(np.float32)
    for got, want in zip(mod.native.stack_slogdet(a32), mod.python.stack_slogdet(a32)):
        close(got, want, 64 * n)
    close(mod.native.stack_inv(a), mod.python.stack_inv(a), 64 * n)
    spd = a @ a.transpose(0, 2, 1)
    close(mod.native.stack_cholesky(spd), mod.python.stack_cholesky(spd), 64 * n)
    b = rng.standard_normal((batch, n))
    close(mod.native.stack_solve_vectors(a, b), mod.python.stack_solve_vectors(a, b), 64 * n)
    if batch:
        # The batch broadcast from 1, either side.
        close(mod.native.stack_solve_vectors(a[:1], b), mod.python.stack_solve_vectors(a[:1], b),
              64 * n)
        close(mod.native.stack_solve_vectors(a, b[:1]), mod.python.stack_solve_vectors(a, b[:1]),
              64 * n)
    rhs = rng.integers(-3, 3, (1, n, 2))
    close(mod.native.stack_solve_matrices(a, rhs), mod.python.stack_solve_matrices(a, rhs),
          64 * n)


def test_linalg_of_stacks_errors(mod):
    a, b = np.eye(4)[None].repeat(2, 0), np.ones((3, 4))
    cases = [("stack_solve_vectors", a, b), ("stack_solve_vectors", a, np.ones((2, 5))),
             ("stack_solve_matrices", a, np.ones((3, 4, 2), np.int64)),
             ("stack_det", np.ones((2, 3, 4))), ("stack_inv", np.zeros((2, 3, 3))),
             ("stack_cholesky", -a)]
    for name, *args in cases:
        got = outcome(getattr(mod.native, name), *args)
        want = outcome(getattr(mod.python, name), *args)
        assert got[1] == want[1] and want[1] is not None, (name, got[1], want[1])


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (5, 3), (3, 5), (20, 20), (50, 17)])
def test_singular_values(mod, shape):
    # One-sided Jacobi against LAPACK's dgesdd: equal to rounding (8 k ulps
    # of the largest value; a rank-deficient matrix's zero values are
    # rounding noise on both sides).
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    close(mod.native.singular_values(a), mod.python.singular_values(a), max(shape))
    close(mod.native.singular_values(a[::-1, ::2]), mod.python.singular_values(a[::-1, ::2]),
          max(shape))
    ints = rng.integers(-2, 3, shape)
    if shape[1]:
        ints[:, 0] = 0
    if a.size:
        close(mod.native.singular_value_norms(a), mod.python.singular_value_norms(a), max(shape))
        assert mod.native.rank(ints) == mod.python.rank(ints)
        outer = np.outer(np.arange(shape[0]), np.arange(shape[1]))
        assert mod.native.rank(outer) == mod.python.rank(outer)
        a32 = (a + 3 * np.eye(*shape)).astype(np.float32)
        want = mod.python.condition32(a32)
        assert abs(mod.native.condition32(a32) - want) <= 64 * max(shape) * 1.2e-7 * want ** 2
        c = mod.python.condition_minus_2(a)
        assert abs(mod.native.condition_minus_2(a) - c) <= 1e-12 * max(shape)


def test_singular_value_edges(mod):
    import warnings
    assert mod.native.vector_rank(np.zeros(3)) == mod.python.vector_rank(np.zeros(3)) == 0
    assert mod.native.vector_rank(np.ones(2)) == mod.python.vector_rank(np.ones(2)) == 1
    singular = np.zeros((2, 2), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert mod.native.condition32(singular) == mod.python.condition32(singular) == np.inf
    for name, argument in (("singular_values", np.array([[np.nan, 1.0], [1.0, 1.0]])),
                           ("condition32", np.zeros((0, 0), np.float32)),
                           ("singular_value_norms", np.zeros((0, 3))),
                           ("rank", np.zeros((0, 2), np.int64))):
        got = outcome(getattr(mod.native, name), argument)
        want = outcome(getattr(mod.python, name), argument)
        assert got[1] == want[1] and want[1] is not None, (name, got[1], want[1])


@pytest.mark.parametrize("n", [0, 1, 2, 5, 9, 17, 40])
def test_complex_linalg(mod, n):
    # zgetrf's pivots (|re| + |im|, izamax), numpy's complex slogdet (the
    # sign d/|d|, the log of |d|), solve and inv.
    a = complex_matrix((n, n), n) + n * np.eye(n)
    got, want = mod.native.complex_det(a), mod.python.complex_det(a)
    assert abs(got - want) <= 64 * max(n, 1) * 2.3e-16 * max(abs(want), 1e-300)
    a64 = a.astype(np.complex64)
    (sign, logdet), (want_sign, want_logdet) = (mod.native.complex_slogdet(a64),
                                                mod.python.complex_slogdet(a64))
    assert abs(sign - want_sign) <= 64 * max(n, 1) * 1.2e-7
    assert abs(logdet - want_logdet) <= 64 * max(n, 1) * 1.2e-7 * max(abs(want_logdet), 1)
    b = np.random.default_rng(n).standard_normal(n)
    close(mod.native.complex_solve(a, b), mod.python.complex_solve(a, b), 64 * n)
    close(mod.native.complex_inv(a), mod.python.complex_inv(a), 64 * n)
    stack = np.stack([a, a.T, a * 1j]) if n else np.zeros((3, 0, 0), complex)
    close(mod.native.complex_det_stack(stack), mod.python.complex_det_stack(stack), 64 * n)


def test_complex_singular(mod):
    for name in ("complex_inv",):
        got = outcome(getattr(mod.native, name), np.zeros((2, 2), complex))
        want = outcome(getattr(mod.python, name), np.zeros((2, 2), complex))
        assert got[1] == want[1] == ("LinAlgError", "Singular matrix")
    assert mod.native.complex_det(np.zeros((2, 2), complex)) == 0
    assert mod.native.complex_slogdet(np.zeros((2, 2), np.complex64)) == (0, -np.inf)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (6, 3), (3, 6), (20, 20), (30, 7)])
def test_pinv_and_lstsq(mod, shape):
    # The pseudo-inverse and the minimum-norm least-squares solution are
    # unique: the Jacobi SVD's equal LAPACK's to rounding (condition-scaled).
    rng = np.random.default_rng(sum(shape) + 1)
    a = rng.standard_normal(shape)
    c = float(np.linalg.cond(a)) if min(shape) else 1.0
    close(mod.native.pseudo_inverse(a), mod.python.pseudo_inverse(a), 64 * max(shape) * c)
    b = rng.standard_normal(shape[0])
    b2 = rng.standard_normal((shape[0], 2)).astype(np.float32)
    a32 = a.astype(np.float32)
    for got, want in ((mod.native.least_squares(a, b), mod.python.least_squares(a, b)),
                      (mod.native.least_squares32(a32, b2, 1e-6),
                       mod.python.least_squares32(a32, b2, 1e-6))):
        # (x, residuals, rank, singular values); the rank a Python int where
        # numpy gives LAPACK's np.int32.
        assert type(got[2]) is int and got[2] == want[2]
        for position in (0, 1, 3):
            close(got[position], want[position], 64 * max(shape) * c)


def test_lstsq_rank_deficient_and_errors(mod):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 3))
    a[:, 2] = a[:, 1]                      # rank 2: the minimum-norm solution
    b = rng.standard_normal(6)
    got, want = mod.native.least_squares(a, b), mod.python.least_squares(a, b)
    close(got[0], want[0], 1000)
    assert got[2] == want[2] == 2 and got[1].shape == want[1].shape == (0,)
    failed = outcome(mod.native.least_squares, a, b[:5])
    assert failed[1] == outcome(mod.python.least_squares, a, b[:5])[1] == (
        "LinAlgError", "Incompatible dimensions")


def test_tuples_holding_complex64(mod):
    """A complex64 in a returned tuple: MLIR's vector<2xf32> is 8-aligned
    in LLVM's struct, so the C result struct declares it _Alignas(8) (it
    read (3+1j), 2.0 for (3.0, 1+2j, 3.0), and complex slogdet's (complex64,
    float32) overflowed the C struct under ASan)."""
    assert mod.native.complex64_then_float32(1 + 2j, 3.0) == ((1 + 2j), 3.0)
    assert mod.native.float32_around_complex64(3.0, 1 + 2j) == (3.0, (1 + 2j), 3.0)
