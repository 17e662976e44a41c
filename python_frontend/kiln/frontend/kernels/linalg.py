"""numpy.linalg (and np.trace, np.kron, np.vdot, np.inner, `@` of stacks)
as Kiln compiles them: plain Python that Kiln compiles into the module
calling them, once per set of template values (frontend/kernels/__init__.py
instantiates it; typecheck/linalg_typing.py chooses the values):

- FLOAT: the result's type as numpy.linalg's _commonType picks it
  (np.float64, np.float32, np.complex128 or np.complex64); REAL: the float
  type of its parts (FLOAT itself for real matrices);
- TINY: REAL's smallest normal number (LAPACK's dlamch('S')); EPS: its
  machine epsilon (numpy's finfo.eps);
- MAGNITUDE: the pivots' measure (abs, or complex_magnitude as izamax's);
  DET and SLOGDET: the real or complex determinant kernels;
- RESULT: the result dtype of np.trace, np.kron and the products;
- PANEL: the block size of the factorizations and solves.

CPython runs this file too, with the names bound.

The algorithms are LAPACK's, so results agree with numpy to rounding:
- LU with partial pivoting as dgetf2 does it: the pivot is the first entry
  of largest magnitude in its column (idamax: `>` only, so NaNs never win),
  the column below it is scaled by the pivot's reciprocal (by a division
  when the pivot is below TINY), an exact zero pivot marks the matrix
  singular (info > 0) and the elimination goes on;
- det and slogdet as numpy's umath_linalg computes them from the factors:
  the sign from the row interchanges and the diagonal's signs, the log of
  the determinant as the sum of log|u_ii|, det = sign * exp(logdet); a
  singular matrix gives (0, -inf) and det 0;
- solve and inv as dgesv: the factors, the interchanges applied to the
  right-hand side, then the unit lower and the upper triangular solves;
- cholesky as dpotrf on the lower triangle (numpy's UPLO='L'): a diagonal
  that is not > 0 (NaN included) is "not positive definite". The factor is
  built as U = L^T, row by row, so its updates are contiguous rows that
  vectorize: the same sums in the same order as the column form;
- qr as dgeqr2 and dorg2r (LAPACK's reflectors, so the signs of Q's
  columns and R's rows are numpy's);
- singular values by one-sided Jacobi (`jacobi`), for svd's values,
  norm's orders 2, -2 and 'nuc' of matrices, cond, matrix_rank (numpy's
  tolerance), pinv and lstsq (the pseudo-inverse V S+ U^T);
- norm as numpy's linalg.norm computes each `ord`.
Every row operation is a loop over a contiguous row of a C-ordered copy
the kernel owns, which kiln-vectorize turns into SIMD code."""

import numpy as np

# Functions of FLOAT arrays the kernels make: one copy per float type.
SHARED = ("lu_factor", "lu_solve", "lu_solve_vector", "q_factor", "r_factor",
          "complex_magnitude")


def square_size(a):
    n = a.shape[0]
    if a.shape[1] != n:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return n


def float_copy(a, n):
    lu = np.empty((n, n), dtype=FLOAT)
    for i in range(n):
        for j in range(n):
            lu[i, j] = FLOAT(a[i, j])
    return lu


def lu_factor(lu, pivots) -> bool:
    """lu (n x n, C order) becomes L (unit, below the diagonal) and U;
    pivots[k] is the row swapped with row k at step k. True when U has an
    exact zero on its diagonal (LAPACK's info > 0).

    Blocked as dgetrf: a panel of PANEL columns is factored column by
    column (dgetf2), in a transposed copy so that its columns are
    contiguous rows (a column of a C-ordered matrix is one element per
    cache line, and with 4 KiB rows every one in the same cache set); its
    row swaps are then applied to the columns left and right of it, the
    rows of U right of it are solved (dtrsm), and the trailing matrix takes
    the panel's product at once: `@`, kiln-tile-matmul's blocked kernel."""
    n = lu.shape[0]
    singular = False
    for start in range(0, n, PANEL):
        end = min(start + PANEL, n)
        width = end - start
        rows = n - start
        panel = np.empty((width, rows), dtype=FLOAT)
        for r in range(rows):
            for c in range(width):
                panel[c, r] = lu[start + r, start + c]
        for k in range(width):
            p = k
            largest = MAGNITUDE(panel[k, k])
            for r in range(k + 1, rows):
                size = MAGNITUDE(panel[k, r])
                if size > largest:
                    largest = size
                    p = r
            pivots[start + k] = start + p
            pivot = panel[k, p]
            if pivot != 0.0:
                if p != k:
                    for c in range(width):
                        swapped = panel[c, k]
                        panel[c, k] = panel[c, p]
                        panel[c, p] = swapped
                if abs(pivot) >= TINY:
                    reciprocal = FLOAT(1.0) / pivot
                    for r in range(k + 1, rows):
                        panel[k, r] = panel[k, r] * reciprocal
                else:
                    for r in range(k + 1, rows):
                        panel[k, r] = panel[k, r] / pivot
            else:
                singular = True
            for c in range(k + 1, width):
                factor = panel[c, k]
                for r in range(k + 1, rows):
                    panel[c, r] = panel[c, r] - factor * panel[k, r]
        for r in range(rows):
            for c in range(width):
                lu[start + r, start + c] = panel[c, r]
        # A zero pivot has no larger entry below it: a swap means p != k.
        for k in range(start, end):
            p = pivots[k]
            if p != k:
                for j in range(start):
                    swapped = lu[k, j]
                    lu[k, j] = lu[p, j]
                    lu[p, j] = swapped
                for j in range(end, n):
                    swapped = lu[k, j]
                    lu[k, j] = lu[p, j]
                    lu[p, j] = swapped
        if end < n:
            for i in range(start + 1, end):
                for k in range(start, i):
                    factor = lu[i, k]
                    for j in range(end, n):
                        lu[i, j] = lu[i, j] - factor * lu[k, j]
            # Contiguous copies of the panel's L and U: kiln-tile-matmul's
            # kernel reads them faster than the strided views (copying is
            # 2 n PANEL moves against 2 n^2 PANEL flops).
            lower = lu[end:, start:end].copy()
            upper = lu[start:end, end:].copy()
            lu[end:, end:] -= lower @ upper
    return singular


def complex_magnitude(z):
    """izamax's measure of a complex pivot: |re| + |im| (dcabs1)."""
    return abs(z.real) + abs(z.imag)


def slogdet(a):
    n = square_size(a)
    lu = float_copy(a, n)
    pivots = np.empty(n, dtype=np.int64)
    if lu_factor(lu, pivots):
        return FLOAT(0.0), FLOAT(-np.inf)
    sign = FLOAT(1.0)
    for k in range(n):
        if pivots[k] != k:
            sign = -sign
    logdet = FLOAT(0.0)
    for k in range(n):
        diagonal = lu[k, k]
        if diagonal < 0.0:
            sign = -sign
            diagonal = -diagonal
        logdet += np.log(diagonal)
    return sign, logdet


def det(a):
    sign, logdet = slogdet(a)
    return sign * np.exp(logdet)


def slogdet_complex(a):
    """numpy's slogdet of a complex matrix: sign the product of the
    permutation's sign and the diagonal's d/|d|, logdet the sum of log|d|
    (a float of the matrix's precision)."""
    n = square_size(a)
    lu = float_copy(a, n)
    pivots = np.empty(n, dtype=np.int64)
    if lu_factor(lu, pivots):
        return FLOAT(0.0), REAL(-np.inf)
    sign = FLOAT(1.0)
    for k in range(n):
        if pivots[k] != k:
            sign = -sign
    logdet = REAL(0.0)
    for k in range(n):
        diagonal = lu[k, k]
        size = abs(diagonal)
        sign = sign * (diagonal / size)
        logdet += np.log(size)
    return sign, logdet


def det_complex(a):
    sign, logdet = slogdet_complex(a)
    return sign * np.exp(logdet)


def lu_solve(lu, pivots, x) -> None:
    """x (n x m) becomes the solution of (P L U) x = x: the row swaps,
    then the unit lower and the upper triangular solves, blocked by PANEL
    rows (each block first takes the product of the rows solved before it,
    then is solved row by row)."""
    n = lu.shape[0]
    m = x.shape[1]
    for k in range(n):
        p = pivots[k]
        if p != k:
            for j in range(m):
                swapped = x[k, j]
                x[k, j] = x[p, j]
                x[p, j] = swapped
    for start in range(0, n, PANEL):
        end = min(start + PANEL, n)
        if start > 0:
            lower = lu[start:end, :start].copy()
            x[start:end, :] -= lower @ x[:start, :]
        for i in range(start, end):
            for k in range(start, i):
                factor = lu[i, k]
                for j in range(m):
                    x[i, j] = x[i, j] - factor * x[k, j]
    for end in range(n, 0, -PANEL):
        start = max(end - PANEL, 0)
        if end < n:
            upper = lu[start:end, end:].copy()
            x[start:end, :] -= upper @ x[end:, :]
        for i in range(end - 1, start - 1, -1):
            for k in range(i + 1, end):
                factor = lu[i, k]
                for j in range(m):
                    x[i, j] = x[i, j] - factor * x[k, j]
            diagonal = lu[i, i]
            for j in range(m):
                x[i, j] = x[i, j] / diagonal


def lu_solve_vector(lu, pivots, x) -> None:
    n = lu.shape[0]
    for k in range(n):
        p = pivots[k]
        if p != k:
            swapped = x[k]
            x[k] = x[p]
            x[p] = swapped
    for i in range(n):
        total = x[i]
        for k in range(i):
            total = total - lu[i, k] * x[k]
        x[i] = total
    for i in range(n - 1, -1, -1):
        total = x[i]
        for k in range(i + 1, n):
            total = total - lu[i, k] * x[k]
        x[i] = total / lu[i, i]


def factored(a, n):
    lu = float_copy(a, n)
    pivots = np.empty(n, dtype=np.int64)
    if lu_factor(lu, pivots):
        raise np.linalg.LinAlgError("Singular matrix")
    return lu, pivots


def solve_matrix(a, b):
    n = square_size(a)
    if b.shape[0] != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m,n)->(m,n) (size {b.shape[0]} is "
                         f"different from {n})")
    lu, pivots = factored(a, n)
    m = b.shape[1]
    x = np.empty((n, m), dtype=FLOAT)
    for i in range(n):
        for j in range(m):
            x[i, j] = FLOAT(b[i, j])
    lu_solve(lu, pivots, x)
    return x


def solve_vector(a, b):
    n = square_size(a)
    if b.shape[0] != n:
        raise ValueError(f"solve1: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m)->(m) (size {b.shape[0]} is "
                         f"different from {n})")
    lu, pivots = factored(a, n)
    x = np.empty(n, dtype=FLOAT)
    for i in range(n):
        x[i] = FLOAT(b[i])
    lu_solve_vector(lu, pivots, x)
    return x


def inv(a):
    n = square_size(a)
    lu, pivots = factored(a, n)
    x = np.zeros((n, n), dtype=FLOAT)
    for i in range(n):
        x[i, i] = FLOAT(1.0)
    lu_solve(lu, pivots, x)
    return x


def cholesky(a):
    """dpotrf's lower factor, built as U = L^T in the rows of u (a's lower
    triangle, transposed): a panel of PANEL rows is factored row by row
    (each row update a contiguous SIMD loop), then the trailing rows take
    the panel's product at once (`@` of the panel's transposed copy)."""
    n = square_size(a)
    u = np.zeros((n, n), dtype=FLOAT)
    for i in range(n):
        for j in range(i, n):
            u[i, j] = FLOAT(a[j, i])        # the lower triangle, transposed
    for start in range(0, n, PANEL):
        end = min(start + PANEL, n)
        for k in range(start, end):
            diagonal = u[k, k]
            if not diagonal > 0.0:
                raise np.linalg.LinAlgError("Matrix is not positive definite")
            diagonal = np.sqrt(diagonal)
            u[k, k] = diagonal
            reciprocal = FLOAT(1.0) / diagonal
            for j in range(k + 1, n):
                u[k, j] = u[k, j] * reciprocal
            for i in range(k + 1, end):
                factor = u[k, i]
                for j in range(i, n):
                    u[i, j] = u[i, j] - factor * u[k, j]
        if end < n:
            panel = np.empty((n - end, end - start), dtype=FLOAT)
            for i in range(end, n):
                for k in range(start, end):
                    panel[i - end, k - start] = u[k, i]
            # The whole trailing square (its lower half is never read).
            u[end:, end:] -= panel @ u[start:end, end:]
    lower = np.zeros((n, n), dtype=FLOAT)
    for i in range(n):
        for j in range(i + 1):
            lower[i, j] = u[j, i]
    return lower


def stack_square_size(a):
    n = a.shape[1]
    if a.shape[2] != n:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    return n


def det_stack(a):
    """numpy's linalg of a stack of matrices (3-D): one result per matrix
    (DET and SLOGDET: the real or the complex kernel)."""
    stack_square_size(a)
    out = np.empty(a.shape[0], dtype=FLOAT)
    for z in range(a.shape[0]):
        out[z] = DET(a[z])
    return out


def slogdet_stack(a):
    stack_square_size(a)
    signs = np.empty(a.shape[0], dtype=FLOAT)
    logs = np.empty(a.shape[0], dtype=REAL)
    for z in range(a.shape[0]):
        sign, logdet = SLOGDET(a[z])
        signs[z] = sign
        logs[z] = logdet
    return signs, logs


def inv_stack(a):
    n = stack_square_size(a)
    out = np.empty((a.shape[0], n, n), dtype=FLOAT)
    for z in range(a.shape[0]):
        out[z] = inv(a[z])
    return out


def cholesky_stack(a):
    n = stack_square_size(a)
    out = np.empty((a.shape[0], n, n), dtype=FLOAT)
    for z in range(a.shape[0]):
        out[z] = cholesky(a[z])
    return out


def solve_stack_vectors(a, b):
    """a (B, n, n) with b (B', n): a stack of vectors (numpy's rule when b
    has one axis fewer), the batch broadcast from 1."""
    n = stack_square_size(a)
    if b.shape[1] != n:
        raise ValueError(f"solve1: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m)->(m) (size {b.shape[1]} is "
                         f"different from {n})")
    batch = a.shape[0]
    if b.shape[0] != batch and b.shape[0] != 1:
        if batch != 1:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: ({a.shape[0]},{n},{n})->({a.shape[0]},"
                             f"newaxis) ({b.shape[0]},{n})->({b.shape[0]},newaxis)  and "
                             f"requested shape ({n})")
        batch = b.shape[0]
    out = np.empty((batch, n), dtype=FLOAT)
    for z in range(batch):
        out[z] = solve_vector(a[z if a.shape[0] > 1 else 0], b[z if b.shape[0] > 1 else 0])
    return out


def solve_stack_matrices(a, b):
    n = stack_square_size(a)
    if b.shape[1] != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m,n)->(m,n) (size {b.shape[1]} is "
                         f"different from {n})")
    batch = a.shape[0]
    if b.shape[0] != batch and b.shape[0] != 1:
        if batch != 1:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: ({a.shape[0]},{n},{n})->({a.shape[0]},"
                             f"newaxis,newaxis) ({b.shape[0]},{n},{b.shape[2]})->({b.shape[0]},"
                             f"newaxis,newaxis)  and requested shape ({n},{b.shape[2]})")
        batch = b.shape[0]
    out = np.empty((batch, n, b.shape[2]), dtype=FLOAT)
    for z in range(batch):
        out[z] = solve_matrix(a[z if a.shape[0] > 1 else 0], b[z if b.shape[0] > 1 else 0])
    return out


def householder(a):
    """dgeqr2 on a copy of `a` (m x n), kept transposed (w, n x m: its
    columns are rows, so every reflector is applied along contiguous
    rows): R on and above the diagonal of w's transpose, the reflectors'
    vectors below it (their first entry, 1, implied), tau beside. Each
    reflector as dlarfg makes it: beta = -sign(alpha) * hypot(alpha,
    |x|), none (tau = 0) when x is zero."""
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    w = np.empty((n, m), dtype=FLOAT)
    for i in range(m):
        for j in range(n):
            w[j, i] = FLOAT(a[i, j])
    tau = np.zeros(k, dtype=FLOAT)
    for c in range(k):
        alpha = w[c, c]
        total = FLOAT(0.0)
        for i in range(c + 1, m):
            total += w[c, i] * w[c, i]
        length = np.sqrt(total)
        if length != 0.0:
            beta = -np.copysign(np.hypot(alpha, length), alpha)
            factor = (beta - alpha) / beta
            tau[c] = factor
            scale = FLOAT(1.0) / (alpha - beta)
            for i in range(c + 1, m):
                w[c, i] = w[c, i] * scale
            w[c, c] = beta
            for j in range(c + 1, n):
                dot = w[j, c]
                for i in range(c + 1, m):
                    dot += w[c, i] * w[j, i]
                dot = dot * factor
                w[j, c] = w[j, c] - dot
                for i in range(c + 1, m):
                    w[j, i] = w[j, i] - dot * w[c, i]
    return w, tau


def q_factor(w, tau, columns):
    """dorg2r: the first `columns` columns of H(0) H(1) ... H(k-1), the
    reflectors applied in reverse order to the identity's columns (kept as
    rows), then transposed."""
    m = w.shape[1]
    k = tau.shape[0]
    qt = np.zeros((columns, m), dtype=FLOAT)
    for j in range(columns):
        qt[j, j] = FLOAT(1.0)
    for c in range(k - 1, -1, -1):
        factor = tau[c]
        if factor != 0.0:
            for j in range(c, columns):
                dot = qt[j, c]
                for i in range(c + 1, m):
                    dot += w[c, i] * qt[j, i]
                dot = dot * factor
                qt[j, c] = qt[j, c] - dot
                for i in range(c + 1, m):
                    qt[j, i] = qt[j, i] - dot * w[c, i]
    q = np.empty((m, columns), dtype=FLOAT)
    for i in range(m):
        for j in range(columns):
            q[i, j] = qt[j, i]
    return q


def r_factor(w, rows):
    """R's first `rows` rows: w's transpose on and above the diagonal."""
    n = w.shape[0]
    r = np.zeros((rows, n), dtype=FLOAT)
    for i in range(min(rows, w.shape[1])):
        for j in range(i, n):
            r[i, j] = w[j, i]
    return r


def qr_reduced(a):
    w, tau = householder(a)
    k = min(a.shape[0], a.shape[1])
    return q_factor(w, tau, k), r_factor(w, k)


def qr_complete(a):
    w, tau = householder(a)
    return q_factor(w, tau, a.shape[0]), r_factor(w, a.shape[0])


def qr_r(a):
    w, tau = householder(a)
    return r_factor(w, min(a.shape[0], a.shape[1]))


def core_sizes_agree(k, k_other) -> None:
    if k != k_other:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {k_other} is "
                         f"different from {k})")


def batch_of(a, b) -> int:
    """The broadcast batch of two stacks of matrices (numpy's message when
    the batch sizes differ and neither is 1)."""
    if a.shape[0] == b.shape[0] or b.shape[0] == 1:
        return a.shape[0]
    if a.shape[0] == 1:
        return b.shape[0]
    raise ValueError(f"operands could not be broadcast together with remapped shapes "
                     f"[original->remapped]: ({a.shape[0]},{a.shape[1]},{a.shape[2]})->"
                     f"({a.shape[0]},newaxis,newaxis) ({b.shape[0]},{b.shape[1]},{b.shape[2]})"
                     f"->({b.shape[0]},newaxis,newaxis)  and requested shape "
                     f"({a.shape[1]},{b.shape[2]})")


def matmul_stacks(a, b):
    """`a @ b` of two stacks of matrices (3-D), the batch broadcast: one
    product per matrix, each kiln-tile-matmul's kernel when the operands'
    rows are contiguous."""
    core_sizes_agree(a.shape[2], b.shape[1])
    batch = batch_of(a, b)
    out = np.empty((batch, a.shape[1], b.shape[2]), dtype=RESULT)
    for z in range(batch):
        left = a[z if a.shape[0] > 1 else 0]
        right = b[z if b.shape[0] > 1 else 0]
        out[z] = left @ right
    return out


def matmul_stack_matrix(a, b):
    core_sizes_agree(a.shape[2], b.shape[0])
    out = np.empty((a.shape[0], a.shape[1], b.shape[1]), dtype=RESULT)
    for z in range(a.shape[0]):
        out[z] = a[z] @ b
    return out


def matmul_matrix_stack(a, b):
    core_sizes_agree(a.shape[1], b.shape[1])
    out = np.empty((b.shape[0], a.shape[0], b.shape[2]), dtype=RESULT)
    for z in range(b.shape[0]):
        out[z] = a @ b[z]
    return out


def vdot_real(a, b):
    """np.vdot of real arrays: the dot of both flattened (numpy reshapes
    the second to the first's size, hence its message)."""
    x = a.ravel()
    y = b.ravel()
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"cannot reshape array of size {y.shape[0]} into shape "
                         f"({x.shape[0]},)")
    return np.dot(x, y)


def vdot_complex_vector(a, b):
    """np.vdot with a complex operand: sum of conj(a_i) * b_i."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"cannot reshape array of size {b.shape[0]} into shape "
                         f"({a.shape[0]},)")
    total = RESULT(0)
    for i in range(a.shape[0]):
        total += np.conj(RESULT(a[i])) * RESULT(b[i])
    return total


def vdot_complex_matrix(a, b):
    """The same over both matrices in C order."""
    n = a.shape[0] * a.shape[1]
    if b.shape[0] * b.shape[1] != n:
        raise ValueError(f"cannot reshape array of size {b.shape[0] * b.shape[1]} into shape "
                         f"({n},)")
    total = RESULT(0)
    for k in range(n):
        x = RESULT(a[k // a.shape[1], k % a.shape[1]])
        y = RESULT(b[k // b.shape[1], k % b.shape[1]])
        total += np.conj(x) * y
    return total


def inner_vector(a, b):
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"shapes ({a.shape[0]},) and ({b.shape[0]},) not aligned: "
                         f"{a.shape[0]} (dim 0) != {b.shape[0]} (dim 0)")
    return np.dot(a, b)


def inner_matrix(a, b):
    """np.inner of two 2-D arrays: a @ b.T, with numpy's message."""
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"shapes ({a.shape[0]},{a.shape[1]}) and ({b.shape[1]},{b.shape[0]})"
                         f" not aligned: {a.shape[1]} (dim 1) != {b.shape[1]} (dim 0)")
    return a @ b.T


def jacobi(a, accumulate):
    """One-sided Jacobi (Hestenes) on the tall form T of `a` (a itself
    when it has at least as many rows as columns, else its transpose):
    pairs of T's columns (kept as the rows of w, contiguous) are rotated
    until every pair is orthogonal to EPS. Then w's rows are T V's columns,
    their norms the singular values; with `accumulate`, v's rows are V's
    columns (the same rotations applied to the identity). Not LAPACK's
    dgesdd (bidiagonalization, then QR iterations), but as accurate: the
    values agree to rounding, the small ones often better. A NaN or inf is
    LAPACK's "SVD did not converge"."""
    m = a.shape[0]
    n = a.shape[1]
    tall = m >= n
    count = n if tall else m
    length = m if tall else n
    w = np.empty((count, length), dtype=FLOAT)
    for i in range(m):
        for j in range(n):
            value = FLOAT(a[i, j])
            if not np.isfinite(value):
                raise np.linalg.LinAlgError("SVD did not converge")
            if tall:
                w[j, i] = value
            else:
                w[i, j] = value
    v = np.zeros((count if accumulate else 0, count), dtype=FLOAT)
    for p in range(v.shape[0]):
        v[p, p] = FLOAT(1.0)
    # A column whose squared norm is below EPS^2 of the whole matrix's is
    # numerically zero (rotating it against another only stirs rounding
    # noise, and would not converge): its pairs are left alone.
    total = FLOAT(0.0)
    for p in range(count):
        for i in range(length):
            total += w[p, i] * w[p, i]
    negligible = EPS * EPS * total
    for sweep in range(80):
        rotated = False
        for p in range(count - 1):
            for q in range(p + 1, count):
                alpha = FLOAT(0.0)
                beta = FLOAT(0.0)
                gamma = FLOAT(0.0)
                for i in range(length):
                    alpha += w[p, i] * w[p, i]
                    beta += w[q, i] * w[q, i]
                    gamma += w[p, i] * w[q, i]
                if gamma != 0.0 and alpha > negligible and beta > negligible and \
                        abs(gamma) > EPS * np.sqrt(alpha) * np.sqrt(beta):
                    rotated = True
                    zeta = (beta - alpha) / (FLOAT(2.0) * gamma)
                    tangent = np.copysign(FLOAT(1.0), zeta) / (
                        abs(zeta) + np.sqrt(FLOAT(1.0) + zeta * zeta))
                    cosine = FLOAT(1.0) / np.sqrt(FLOAT(1.0) + tangent * tangent)
                    sine = cosine * tangent
                    for i in range(length):
                        x = w[p, i]
                        y = w[q, i]
                        w[p, i] = cosine * x - sine * y
                        w[q, i] = sine * x + cosine * y
                    for i in range(v.shape[0]):
                        x = v[p, i]
                        y = v[q, i]
                        v[p, i] = cosine * x - sine * y
                        v[q, i] = sine * x + cosine * y
        if not rotated:
            break
    return w, v


def column_norms(w):
    norms = np.empty(w.shape[0], dtype=FLOAT)
    for p in range(w.shape[0]):
        total = FLOAT(0.0)
        for i in range(w.shape[1]):
            total += w[p, i] * w[p, i]
        norms[p] = np.sqrt(total)
    return norms


def singular_values(a):
    """The singular values of `a`, largest first."""
    w, v = jacobi(a, False)
    values = column_norms(w)
    count = values.shape[0]
    for p in range(1, count):       # largest first (insertion sort)
        value = values[p]
        k = p
        while k > 0 and values[k - 1] < value:
            values[k] = values[k - 1]
            k -= 1
        values[k] = value
    return values


def pseudo_inverse(a, cutoff_ratio):
    """numpy's pinv: V S+ U^T of the Jacobi SVD, the singular values at or
    below cutoff_ratio times the largest taken as zero (so 1/s is 0); as
    sum_p v_p w_p^T / s_p^2, since w_p = s_p u_p. Of a matrix with fewer
    rows than columns, from its transpose's."""
    m = a.shape[0]
    n = a.shape[1]
    w, v = jacobi(a, True)
    norms = column_norms(w)
    largest = FLOAT(0.0)
    for p in range(norms.shape[0]):
        largest = max(largest, norms[p])
    cutoff = cutoff_ratio * largest
    count = w.shape[0]
    length = w.shape[1]
    inverse = np.zeros((count, length), dtype=FLOAT)     # pinv of the tall form
    for p in range(count):
        if norms[p] > cutoff:
            scale = FLOAT(1.0) / (norms[p] * norms[p])
            for i in range(count):
                factor = v[p, i] * scale
                for j in range(length):
                    inverse[i, j] += factor * w[p, j]
    if m >= n:
        return inverse
    out = np.empty((n, m), dtype=FLOAT)
    for i in range(n):
        for j in range(m):
            out[i, j] = inverse[j, i]
    return out


def pinv(a, rcond):
    return pseudo_inverse(a, FLOAT(rcond))


def lstsq_tail(a, values, x, b2, ratio):
    """numpy's rank (singular values above `ratio` times the largest) and
    residuals (per column of b, when the rank is full and there are more
    rows than columns; else none)."""
    m = a.shape[0]
    n = a.shape[1]
    rank = 0
    for p in range(values.shape[0]):
        if values[p] > ratio * values[0]:
            rank += 1
    if rank == n and m > n:
        residuals = np.zeros(b2.shape[1], dtype=FLOAT)
        for k in range(b2.shape[1]):
            total = FLOAT(0.0)
            for i in range(m):
                predicted = FLOAT(0.0)
                for j in range(n):
                    predicted += FLOAT(a[i, j]) * x[j, k]
                difference = FLOAT(b2[i, k]) - predicted
                total += difference * difference
            residuals[k] = total
        return rank, residuals
    return rank, np.zeros(0, dtype=FLOAT)


def lstsq_matrix(a, b, rcond):
    """np.linalg.lstsq(a, b) of a 2-D right-hand side: the minimum-norm
    least-squares solution through the pseudo-inverse (numpy's gelsd
    gives the same to rounding), rank, residuals, singular values."""
    m = a.shape[0]
    if b.shape[0] != m:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    values = singular_values(a)
    # rcond < 0: numpy's default, eps times the larger dimension.
    ratio = FLOAT(rcond) if rcond >= 0.0 else EPS * FLOAT(max(m, a.shape[1]))
    inverse = pseudo_inverse(a, ratio)
    x = np.zeros((a.shape[1], b.shape[1]), dtype=FLOAT)
    for i in range(a.shape[1]):
        for j in range(m):
            factor = inverse[i, j]
            for k in range(b.shape[1]):
                x[i, k] += factor * FLOAT(b[j, k])
    rank, residuals = lstsq_tail(a, values, x, b, ratio)
    return x, residuals, rank, values


def lstsq_vector(a, b, rcond):
    m = a.shape[0]
    if b.shape[0] != m:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    column = np.empty((m, 1), dtype=FLOAT)
    for i in range(m):
        column[i, 0] = FLOAT(b[i])
    x2, residuals, rank, values = lstsq_matrix(a, column, rcond)
    x = np.empty(a.shape[1], dtype=FLOAT)
    for i in range(a.shape[1]):
        x[i] = x2[i, 0]
    return x, residuals, rank, values


def svd_values(a):
    return singular_values(a)


def norm_matrix_2(a):
    values = singular_values(a)
    if values.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    return values[0]


def norm_matrix_minus_2(a):
    values = singular_values(a)
    if values.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    return values[values.shape[0] - 1]


def norm_matrix_nuclear(a):
    values = singular_values(a)
    total = FLOAT(0.0)
    for p in range(values.shape[0]):
        total += values[p]
    return total


def cond_2(a):
    """numpy's cond(x) (and p=2): the largest singular value over the
    smallest, inf where that divides by zero."""
    if a.shape[0] == 0 or a.shape[1] == 0:
        raise np.linalg.LinAlgError("cond is not defined on empty arrays")
    values = singular_values(a)
    smallest = values[values.shape[0] - 1]
    if smallest == 0.0:
        return FLOAT(np.inf)
    return values[0] / smallest


def cond_minus_2(a):
    if a.shape[0] == 0 or a.shape[1] == 0:
        raise np.linalg.LinAlgError("cond is not defined on empty arrays")
    values = singular_values(a)
    if values[0] == 0.0:
        return FLOAT(np.inf)
    return values[values.shape[0] - 1] / values[0]


def matrix_rank(a) -> int:
    """numpy's default tolerance: S.max() * max(M, N) * eps."""
    values = singular_values(a)
    if values.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    tolerance = values[0] * FLOAT(max(a.shape[0], a.shape[1])) * EPS
    rank = 0
    for p in range(values.shape[0]):
        if values[p] > tolerance:
            rank += 1
    return rank


def vector_rank(a) -> int:
    for i in range(a.shape[0]):
        if a[i] != 0:
            return 1
    return 0


def norm_vector_2(x):
    total = FLOAT(0.0)
    for i in range(x.shape[0]):
        value = FLOAT(x[i])
        total += value * value
    return np.sqrt(total)


def norm_matrix_frobenius(x):
    total = FLOAT(0.0)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            value = FLOAT(x[i, j])
            total += value * value
    return np.sqrt(total)


def norm_vector_max(x):
    if x.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    largest = abs(FLOAT(x[0]))
    for i in range(1, x.shape[0]):
        largest = np.maximum(largest, abs(FLOAT(x[i])))
    return largest


def norm_vector_min(x):
    if x.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    smallest = abs(FLOAT(x[0]))
    for i in range(1, x.shape[0]):
        smallest = np.minimum(smallest, abs(FLOAT(x[i])))
    return smallest


def norm_vector_count(x):
    count = FLOAT(0.0)
    for i in range(x.shape[0]):
        if x[i] != 0:
            count += FLOAT(1.0)
    return count


def norm_vector_1(x):
    total = FLOAT(0.0)
    for i in range(x.shape[0]):
        total += abs(FLOAT(x[i]))
    return total


def norm_vector_p(x, p):
    # numpy's power: 0 ** -1 is inf, where Python's `**` raises.
    order = FLOAT(p)
    total = FLOAT(0.0)
    for i in range(x.shape[0]):
        total += np.power(abs(FLOAT(x[i])), order)
    return np.power(total, FLOAT(1.0) / order)


def column_sums(x):
    sums = np.zeros(x.shape[1], dtype=FLOAT)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            sums[j] += abs(FLOAT(x[i, j]))
    return sums


def row_sums(x):
    sums = np.zeros(x.shape[0], dtype=FLOAT)
    for i in range(x.shape[0]):
        total = FLOAT(0.0)
        for j in range(x.shape[1]):
            total += abs(FLOAT(x[i, j]))
        sums[i] = total
    return sums


def norm_matrix_1(x):
    return norm_vector_max(column_sums(x))


def norm_matrix_minus_1(x):
    return norm_vector_min(column_sums(x))


def norm_matrix_inf(x):
    return norm_vector_max(row_sums(x))


def norm_matrix_minus_inf(x):
    return norm_vector_min(row_sums(x))


def trace(a, offset):
    total = RESULT(0)
    rows = a.shape[0]
    columns = a.shape[1]
    i = 0
    j = offset
    if offset < 0:
        i = -offset
        j = 0
    while i < rows and j < columns:
        total += RESULT(a[i, j])
        i += 1
        j += 1
    return total


def kron_vector(a, b):
    m = a.shape[0]
    p = b.shape[0]
    out = np.empty(m * p, dtype=RESULT)
    for i in range(m):
        scale = RESULT(a[i])
        for k in range(p):
            out[i * p + k] = scale * RESULT(b[k])
    return out


def kron_matrix(a, b):
    m = a.shape[0]
    n = a.shape[1]
    p = b.shape[0]
    q = b.shape[1]
    out = np.empty((m * p, n * q), dtype=RESULT)
    for i in range(m):
        for k in range(p):
            for j in range(n):
                scale = RESULT(a[i, j])
                for l in range(q):
                    out[i * p + k, j * q + l] = scale * RESULT(b[k, l])
    return out
