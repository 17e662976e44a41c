"""Loop nests whose bounds checks kiln-hoist-bounds-checks versions once at
the nest's root (test_loop_nests.py runs them against CPython)."""

import kiln


@kiln.export
def jacobi(u: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    n = u.shape[0]
    m = u.shape[1]
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


@kiln.export
def shifted_rows(u: kiln.f64[:, :], out: kiln.f64[:, :], rows: int, columns: int,
                 di: int, dj: int) -> None:
    # Offsets from the caller: the nest-wide test fails for some of them and
    # the checked copy raises at CPython's exact element, after its writes.
    for i in range(rows):
        for j in range(columns):
            out[i, j] = u[i + di, j + dj] * 2.0


@kiln.export
def guarded_above(u: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    # u[i - 1, j] is out of the box at i = 0, but never read there: the
    # nest-wide test fails on every call and the checked copy (with its
    # per-row versions) runs.
    for i in range(u.shape[0]):
        for j in range(u.shape[1]):
            s = u[i, j]
            if i > 0:
                s += u[i - 1, j]
            out[i, j] = s


@kiln.export
def backwards_sum(x: kiln.f64[:, :], rows: int, columns: int) -> float:
    # Negative steps and three loops deep, with a reduction.
    total = 0.0
    for r in range(2):
        for i in range(rows - 1, -1, -1):
            for j in range(columns - 1, -1, -2):
                total += x[i, j] * (r + 1)
    return total


@kiln.export
def outer_product_into(a: kiln.f64[:], b: kiln.f64[:], out: kiln.f64[:, :], n: int,
                       m: int) -> None:
    for i in range(n):
        for j in range(m):
            out[i, j] += a[i] * b[j]


@kiln.export
def matmul_ikj(a: kiln.f64[:, :], b: kiln.f64[:, :], c: kiln.f64[:, :]) -> None:
    n = a.shape[0]
    p = a.shape[1]
    m = b.shape[1]
    for i in range(n):
        for k in range(p):
            for j in range(m):
                c[i, j] += a[i, k] * b[k, j]
