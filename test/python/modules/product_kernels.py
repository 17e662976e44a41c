"""Products beyond 2-D real `a @ b` (test_products.py runs each against numpy
through CPython): complex products, stacks of matrices through `@` and
np.matmul, np.vdot and np.inner."""
import numpy as np

import kiln


@kiln.export
def complex_product(a: kiln.c128[:, :], b: kiln.c128[:, :]) -> kiln.c128[:, :]:
    return a @ b


@kiln.export
def complex_rows(a: kiln.c128[:, :], b: kiln.c128[:]) -> kiln.c128[:]:
    # A 1-D complex `@` inside a loop (was an internal compiler error).
    out = np.zeros(a.shape[0], dtype=np.complex128)
    for i in range(a.shape[0]):
        out[i] = a[i] @ b
    return out


@kiln.export
def complex64_vector(a: kiln.c64[:, :], b: kiln.c64[:]) -> kiln.c64[:]:
    return a @ b


@kiln.export
def stacks(a: kiln.f64[:, :, :], b: kiln.f64[:, :, :]) -> kiln.f64[:, :, :]:
    return a @ b


@kiln.export
def stack_matrix(a: kiln.f32[:, :, :], b: kiln.f32[:, :]) -> kiln.f32[:, :, :]:
    return np.matmul(a, b)


@kiln.export
def matrix_stack(a: kiln.i32[:, :], b: kiln.f64[:, :, :]) -> kiln.f64[:, :, :]:
    return a @ b


@kiln.export
def int_stacks(a: kiln.i64[:, :, :], b: kiln.i16[:, :, :]) -> kiln.i64[:, :, :]:
    return np.matmul(a, b)


@kiln.export
def complex_stacks(a: kiln.c128[:, :, :], b: kiln.c128[:, :, :]) -> kiln.c128[:, :, :]:
    return a @ b


@kiln.export
def matmul_vector(a: kiln.f64[:, :], b: kiln.f64[:]) -> kiln.f64[:]:
    return np.matmul(a, b)


@kiln.export
def matmul_matrices(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.matmul(a, b)


@kiln.export
def vdot_real(a: kiln.f64[:, :], b: kiln.i32[:]) -> float:
    return np.vdot(a, b)


@kiln.export
def vdot_complex(a: kiln.c128[:], b: kiln.c128[:]) -> complex:
    return np.vdot(a, b)


@kiln.export
def vdot_complex_matrix(a: kiln.c128[:, :], b: kiln.f64[:, :]) -> complex:
    return np.vdot(a, b)


@kiln.export
def inner_vectors(a: kiln.f64[:], b: kiln.f64[:]) -> float:
    return np.inner(a, b)


@kiln.export
def inner_matrices(a: kiln.f64[:, :], b: kiln.i64[:, :]) -> kiln.f64[:, :]:
    return np.inner(a, b)


@kiln.export
def einsum_product(a: kiln.f64[:, :], b: kiln.i32[:, :]) -> kiln.f64[:, :]:
    return np.einsum("ij,jk->ik", a, b)


@kiln.export
def einsum_implicit(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.einsum("ij,jk", a, b)


@kiln.export
def einsum_trace(a: kiln.i64[:, :]) -> int:
    return np.einsum("ii", a)


@kiln.export
def einsum_diagonal(a: kiln.f32[:, :]) -> kiln.f32[:]:
    return np.einsum("ii->i", a)


@kiln.export
def einsum_outer(a: kiln.f64[:], b: kiln.f64[:], c: kiln.f64[:]) -> kiln.f64[:, :, :]:
    return np.einsum("i,j,k", a, b, c)


@kiln.export
def einsum_batch(a: kiln.f64[:, :, :], b: kiln.f64[:, :, :]) -> kiln.f64[:, :, :]:
    return np.einsum("bij,bjk->bik", a, b)


@kiln.export
def einsum_column_sums(a: kiln.c128[:, :]) -> kiln.c128[:]:
    return np.einsum("ij->j", a)


@kiln.export
def einsum_transpose(a: kiln.i32[:, :]) -> kiln.i32[:, :]:
    return np.einsum("ji", a)


@kiln.export
def einsum_dot(a: kiln.f64[:], b: kiln.f64[:]) -> float:
    return np.einsum("i,i", a, b)

@kiln.export
def stack_det(a: kiln.f64[:, :, :]) -> kiln.f64[:]:
    return np.linalg.det(a)


@kiln.export
def stack_slogdet(a: kiln.f32[:, :, :]):
    s, l = np.linalg.slogdet(a)
    return s, l


@kiln.export
def stack_inv(a: kiln.f64[:, :, :]) -> kiln.f64[:, :, :]:
    return np.linalg.inv(a)


@kiln.export
def stack_cholesky(a: kiln.f64[:, :, :]) -> kiln.f64[:, :, :]:
    return np.linalg.cholesky(a)


@kiln.export
def stack_solve_vectors(a: kiln.f64[:, :, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.solve(a, b)


@kiln.export
def stack_solve_matrices(a: kiln.f64[:, :, :], b: kiln.i64[:, :, :]) -> kiln.f64[:, :, :]:
    return np.linalg.solve(a, b)


@kiln.export
def singular_values(a: kiln.f64[:, :]) -> kiln.f64[:]:
    return np.linalg.svd(a, compute_uv=False)


@kiln.export
def singular_value_norms(a: kiln.f64[:, :]) -> kiln.f64[:]:
    out = np.empty(3)
    out[0] = np.linalg.norm(a, 2)
    out[1] = np.linalg.norm(a, -2)
    out[2] = np.linalg.norm(a, "nuc")
    return out


@kiln.export
def condition32(a: kiln.f32[:, :]) -> kiln.f32:
    return np.linalg.cond(a)


@kiln.export
def condition_minus_2(a: kiln.f64[:, :]) -> float:
    return np.linalg.cond(a, -2)


@kiln.export
def rank(a: kiln.i64[:, :]) -> int:
    return np.linalg.matrix_rank(a)


@kiln.export
def vector_rank(a: kiln.f64[:]) -> int:
    return np.linalg.matrix_rank(a)


@kiln.export
def complex_det(a: kiln.c128[:, :]) -> complex:
    return np.linalg.det(a)


@kiln.export
def complex_slogdet(a: kiln.c64[:, :]):
    sign, logdet = np.linalg.slogdet(a)
    return sign, logdet


@kiln.export
def complex_solve(a: kiln.c128[:, :], b: kiln.f64[:]) -> kiln.c128[:]:
    return np.linalg.solve(a, b)


@kiln.export
def complex_inv(a: kiln.c128[:, :]) -> kiln.c128[:, :]:
    return np.linalg.inv(a)


@kiln.export
def complex_det_stack(a: kiln.c128[:, :, :]) -> kiln.c128[:]:
    return np.linalg.det(a)


@kiln.export
def pseudo_inverse(a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.pinv(a)


@kiln.export
def least_squares(a: kiln.f64[:, :], b: kiln.f64[:]):
    x, residuals, rank, values = np.linalg.lstsq(a, b, rcond=None)
    return x, residuals, rank, values


@kiln.export
def least_squares32(a: kiln.f32[:, :], b: kiln.f32[:, :], rcond: float):
    return np.linalg.lstsq(a, b, rcond)


@kiln.export
def complex64_then_float32(z: kiln.c64, x: kiln.f32):
    return z, x


@kiln.export
def float32_around_complex64(x: kiln.f32, z: kiln.c64):
    return x, z, x
