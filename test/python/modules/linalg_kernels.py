"""np.linalg and np.trace/np.kron as users write them (test_linalg.py runs
each against numpy, through CPython, on the same arguments)."""
import math

import numpy as np
import numpy.linalg as la
from numpy.linalg import LinAlgError, cholesky

import kiln


@kiln.export
def det64(a: kiln.f64[:, :]) -> float:
    return np.linalg.det(a)


@kiln.export
def det32(a: kiln.f32[:, :]) -> kiln.f32:
    return np.linalg.det(a)


@kiln.export
def det_int(a: kiln.i32[:, :]) -> float:
    return np.linalg.det(a)


@kiln.export
def det_bool(a: kiln.b1[:, :]) -> float:
    return np.linalg.det(a)


@kiln.export
def slogdet64(a: kiln.f64[:, :]) -> tuple[float, float]:
    sign, logdet = np.linalg.slogdet(a)
    return sign, logdet


@kiln.export
def slogdet32(a: kiln.f32[:, :]) -> tuple[kiln.f32, kiln.f32]:
    sign, logdet = la.slogdet(a)
    return sign, logdet


@kiln.export
def solve_vector(a: kiln.f64[:, :], b: kiln.f64[:]) -> kiln.f64[:]:
    return np.linalg.solve(a, b)


@kiln.export
def solve_matrix(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.solve(a, b)


@kiln.export
def solve32(a: kiln.f32[:, :], b: kiln.f32[:]) -> kiln.f32[:]:
    return la.solve(a, b)


@kiln.export
def solve_mixed(a: kiln.f32[:, :], b: kiln.i64[:]) -> kiln.f64[:]:
    return np.linalg.solve(a, b)


@kiln.export
def solve_self(a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.solve(a, a)


@kiln.export
def inv64(a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.inv(a)


@kiln.export
def inv32(a: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return np.linalg.inv(a)


@kiln.export
def inv_int(a: kiln.i64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.inv(a)


@kiln.export
def cholesky64(a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.linalg.cholesky(a)


@kiln.export
def cholesky32(a: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return cholesky(a)


@kiln.export
def qr_reduced(a: kiln.f64[:, :]):
    q, r = np.linalg.qr(a)
    return q, r


@kiln.export
def qr_complete(a: kiln.i32[:, :]):
    return np.linalg.qr(a, mode="complete")


@kiln.export
def qr_r(a: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return la.qr(a, "r")


@kiln.export
def residual(a: kiln.f64[:, :], b: kiln.f64[:]) -> float:
    # A solve inside arithmetic: the kernel's result feeds a product and a norm.
    x = np.linalg.solve(a, b)
    return np.linalg.norm(a @ x - b)


@kiln.export
def norms_vector(x: kiln.f64[:]) -> kiln.f64[:]:
    out = np.empty(8)
    out[0] = np.linalg.norm(x)
    out[1] = np.linalg.norm(x, 2)
    out[2] = np.linalg.norm(x, 1)
    out[3] = np.linalg.norm(x, 0)
    out[4] = np.linalg.norm(x, 3)
    out[5] = np.linalg.norm(x, 0.5)
    out[6] = np.linalg.norm(x, -1)
    out[7] = np.linalg.norm(x, ord=-2.5)
    return out


@kiln.export
def norm_inf(x: kiln.f64[:]) -> float:
    return np.linalg.norm(x, np.inf)


@kiln.export
def norm_minus_inf(x: kiln.f64[:]) -> float:
    return np.linalg.norm(x, -math.inf)


@kiln.export
def norm_int(x: kiln.i32[:]) -> float:
    return np.linalg.norm(x) + np.linalg.norm(x, float("inf"))


@kiln.export
def norm32(x: kiln.f32[:]) -> kiln.f32:
    return np.linalg.norm(x, 1)


@kiln.export
def norms_matrix(a: kiln.f64[:, :]) -> kiln.f64[:]:
    out = np.empty(2)
    out[0] = np.linalg.norm(a)
    out[1] = np.linalg.norm(a, "fro")
    return out


@kiln.export
def norm_matrix_1(a: kiln.f64[:, :]) -> float:
    return np.linalg.norm(a, 1)


@kiln.export
def norm_matrix_minus_1(a: kiln.f64[:, :]) -> float:
    return np.linalg.norm(a, -1)


@kiln.export
def norm_matrix_inf(a: kiln.f64[:, :]) -> float:
    return np.linalg.norm(a, np.inf)


@kiln.export
def norm_matrix_minus_inf(a: kiln.f64[:, :]) -> float:
    return np.linalg.norm(a, -np.inf)


@kiln.export
def trace64(a: kiln.f64[:, :], offset: int) -> float:
    return np.trace(a, offset)


@kiln.export
def trace_int(a: kiln.i32[:, :]) -> int:
    return np.trace(a)


@kiln.export
def trace_uint(a: kiln.u8[:, :], offset: int) -> kiln.u64:
    return np.trace(a, offset=offset)


@kiln.export
def trace_bool(a: kiln.b1[:, :]) -> int:
    return np.trace(a)


@kiln.export
def kron_matrix(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.kron(a, b)


@kiln.export
def kron_vector(a: kiln.i32[:], b: kiln.f32[:]) -> kiln.f64[:]:
    return np.kron(a, b)


@kiln.export
def kron_int(a: kiln.i16[:, :], b: kiln.i64[:, :]) -> kiln.i64[:, :]:
    return np.kron(a, b)


@kiln.export
def raises_lin_alg_error(n: int) -> int:
    if n < 0:
        raise np.linalg.LinAlgError(f"negative order {n}")
    if n == 0:
        raise LinAlgError("zero order")
    return n


@kiln.export
def determinants(a: kiln.f64[:, :], steps: int) -> float:
    # A kernel called in a loop: det of a shifted matrix each time.
    total = 0.0
    for k in range(steps):
        total += np.linalg.det(a + k * np.eye(a.shape[0]))
    return total
