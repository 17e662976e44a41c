"""np.linalg (det, slogdet, solve, inv, cholesky, norm), np.trace and
np.kron compiled from Kiln's own kernels (frontend/kernels/linalg.py),
against numpy through CPython on the same arguments (modules/linalg_kernels.py):
sizes 0, 1, around the vector widths (8 doubles, 16 floats) and larger;
strided, reversed and transposed views; int, bool and float32 inputs; a
right-hand side that is the matrix itself; NaN; exactly singular and not
positive definite matrices; numpy's errors, raised at the user's line.

Floating results differ from LAPACK's by the order of the subtractions
(docs/language.md): the comparison allows 64 n ulps of the result's
magnitude, times the matrix's condition number for solve and inv."""

import math
import os

import numpy as np
import pytest

from conftest import outcome

MODULE = "linalg_kernels"
SIZES = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def matrix(n, m=None, dtype=np.float64, seed=0, dominant=False):
    rng = np.random.default_rng(seed * 1009 + n * 31 + (m or n))
    a = rng.standard_normal((n, n if m is None else m))
    if dominant:
        a += n * np.eye(n)
    return a.astype(dtype)


def ulps(dtype):
    return np.finfo(dtype).eps


def close(got, want, n, condition=1.0):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite], want[~finite], equal_nan=True)
    if not finite.any():
        return
    scale = np.max(np.abs(want[finite])) if want.ndim else abs(want)
    tolerance = 64 * max(n, 1) * ulps(want.dtype) * condition * max(scale, np.finfo(
        want.dtype).tiny)
    np.testing.assert_allclose(got[finite], want[finite], rtol=0, atol=tolerance)


def condition(a):
    return float(np.linalg.cond(a.astype(np.float64))) if a.size else 1.0


def same_outcome(mod, name, *args):
    """The same exception (type and message) on both sides, or both return."""
    got = outcome(getattr(mod.native, name), *args)
    want = outcome(getattr(mod.python, name), *args)
    assert got[1] == want[1], (got[1], want[1])
    return got[0], want[0]


# ----------------------------------------------------------- determinants
@pytest.mark.parametrize("n", SIZES)
def test_det(mod, n):
    a = matrix(n)
    got, want = mod.native.det64(a), mod.python.det64(a)
    assert type(got) is float
    close(got, want, n, condition(a))
    # The pivots are numpy's, so the sign is too.
    assert np.sign(got) == np.sign(want)


@pytest.mark.parametrize("n", [1, 8, 16, 17, 40])
def test_det_float32_and_ints(mod, n):
    a = matrix(n, dtype=np.float32, dominant=True)
    got = mod.native.det32(a)
    assert isinstance(got, np.float32) or type(got) is float
    close(np.float32(got), mod.python.det32(a), n)
    ints = np.random.default_rng(n).integers(-4, 5, (n, n)).astype(np.int32)
    close(mod.native.det_int(ints), mod.python.det_int(ints), n, condition(ints))
    flags = np.eye(n, dtype=bool) | (np.random.default_rng(n).random((n, n)) < 0.1)
    close(mod.native.det_bool(flags), mod.python.det_bool(flags), n, condition(flags))


@pytest.mark.parametrize("n", SIZES)
def test_slogdet(mod, n):
    a = matrix(n, seed=3)
    sign, logdet = mod.native.slogdet64(a)
    want_sign, want_logdet = mod.python.slogdet64(a)
    assert sign == want_sign
    close(logdet, want_logdet, n, condition(a))
    a32 = matrix(n, dtype=np.float32, seed=3, dominant=True)
    sign32, logdet32 = mod.native.slogdet32(a32)
    want32 = mod.python.slogdet32(a32)
    assert sign32 == want32[0]
    close(np.float32(logdet32), want32[1], n)


def test_singular_determinants_are_zero(mod):
    # Exactly singular: an exact zero pivot, LAPACK's info > 0.
    for a in (np.zeros((3, 3)), np.array([[1.0, 2.0], [2.0, 4.0]]),
              np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]) * 0,
              np.ones((5, 5))):
        assert mod.native.det64(a) == mod.python.det64(a) == 0.0
        assert mod.native.slogdet64(a) == mod.python.slogdet64(a) == (0.0, -math.inf)


def test_det_nan_and_views(mod):
    a = matrix(9)
    a[4, 2] = np.nan
    assert math.isnan(mod.native.det64(a)) and math.isnan(mod.python.det64(a))
    big = matrix(20, seed=5)
    for view in (big[::2, ::2], big[::-1], big.T, big[3:12, 5:14], big[::-3, ::-3]):
        close(mod.native.det64(view), mod.python.det64(view), view.shape[0], condition(view))


def test_det_in_a_loop_of_array_expressions(mod):
    a = matrix(6, seed=9)
    close(mod.native.determinants(a, 5), mod.python.determinants(a, 5), 6, 50.0)


# ----------------------------------------------------------- solve and inv
@pytest.mark.parametrize("n", SIZES)
def test_solve(mod, n):
    a = matrix(n, seed=1)
    b = np.random.default_rng(n).standard_normal(n)
    c = condition(a)
    close(mod.native.solve_vector(a, b), mod.python.solve_vector(a, b), n, c)
    rhs = np.random.default_rng(n + 1).standard_normal((n, 3))
    close(mod.native.solve_matrix(a, rhs), mod.python.solve_matrix(a, rhs), n, c)
    close(mod.native.solve_self(a), mod.python.solve_self(a), n, c)


@pytest.mark.parametrize("n", [1, 9, 16, 17, 50])
def test_solve_dtypes(mod, n):
    a = matrix(n, dtype=np.float32, dominant=True, seed=2)
    b32 = np.arange(n, dtype=np.float32)
    close(mod.native.solve32(a, b32), mod.python.solve32(a, b32), n)
    ints = np.arange(n, dtype=np.int64) - 3
    close(mod.native.solve_mixed(a, ints), mod.python.solve_mixed(a, ints), n)


def test_solve_views(mod):
    big = matrix(30, seed=8, dominant=True)
    rhs = np.random.default_rng(0).standard_normal((30, 4))
    for view, b in ((big[::2, ::2], rhs[::2, 0]), (big[::-1, ::-1], rhs[::-1, 1]),
                    (big.T, rhs[:, 2]), (big[5:20, 5:20], rhs[5:20, 3])):
        n = view.shape[0]
        close(mod.native.solve_vector(view, b), mod.python.solve_vector(view, b), n,
              condition(view))
        close(mod.native.solve_matrix(view, rhs[:n, ::-1]),
              mod.python.solve_matrix(view, rhs[:n, ::-1]), n, condition(view))


@pytest.mark.parametrize("n", SIZES)
def test_inv(mod, n):
    a = matrix(n, seed=4)
    c = condition(a)
    close(mod.native.inv64(a), mod.python.inv64(a), n, c)
    a32 = matrix(n, dtype=np.float32, seed=4, dominant=True)
    close(mod.native.inv32(a32), mod.python.inv32(a32), n)
    ints = np.random.default_rng(n).integers(-9, 10, (n, n)) + 20 * np.eye(n, dtype=np.int64)
    close(mod.native.inv_int(ints), mod.python.inv_int(ints), n)


def test_linalg_errors_are_numpys(mod):
    square = np.eye(3)
    cases = [
        ("solve_vector", np.zeros((2, 2)), np.ones(2)),              # Singular matrix
        ("solve_vector", np.array([[1.0, 2.0], [2.0, 4.0]]), np.ones(2)),
        ("solve_vector", np.ones((2, 3)), np.ones(2)),               # not square
        ("solve_vector", square, np.ones(4)),                        # solve1's ValueError
        ("solve_matrix", square, np.ones((2, 2))),                   # solve's
        ("inv64", np.zeros((4, 4))),
        ("inv64", np.ones((3, 2))),
        ("det64", np.ones((3, 2))),
        ("slogdet64", np.ones((1, 2))),
        ("cholesky64", -np.eye(2)),
        ("cholesky64", np.array([[1.0, 2.0], [2.0, 1.0]])),
        ("cholesky64", np.ones((2, 3))),
        ("norm_inf", np.zeros(0)),
        ("norm_minus_inf", np.zeros(0)),
        ("norm_matrix_1", np.zeros((3, 0))),
        ("norm_matrix_inf", np.zeros((0, 3))),
        ("raises_lin_alg_error", -2),
        ("raises_lin_alg_error", 0),
    ]
    for name, *args in cases:
        got, _ = same_outcome(mod, name, *args)
    with pytest.raises(np.linalg.LinAlgError):
        mod.native.inv64(np.zeros((2, 2)))
    # A NaN on the diagonal is "not positive definite" in the reference
    # LAPACK (dpotrf2 tests DISNAN), which Kiln follows; OpenBLAS's potrf
    # lets it through, so numpy's answer depends on its LAPACK.
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        mod.native.cholesky64(np.array([[np.nan, 0.0], [0.0, 1.0]]))


def test_kernel_errors_point_at_the_users_call(mod):
    with pytest.raises(np.linalg.LinAlgError) as caught:
        mod.native.solve_vector(np.zeros((2, 2)), np.ones(2))
    source = os.path.join(os.path.dirname(__file__), "modules", f"{MODULE}.py")
    with open(source, encoding="utf-8") as handle:
        line = next(number for number, text in enumerate(handle, 1)
                    if "def solve_vector" in text) + 1
    assert str(caught.value) == f"Singular matrix ({source}, line {line})" or \
        str(caught.value).endswith(f"{MODULE}.py, line {line})"), str(caught.value)
    # The traceback's last entry is the user's line too (pytest counts from 0).
    assert caught.traceback[-1].lineno + 1 == line


# ---------------------------------------------------------------- cholesky
@pytest.mark.parametrize("n", SIZES)
def test_cholesky(mod, n):
    g = matrix(n, seed=6)
    spd = g @ g.T + n * np.eye(n) if n else g
    close(mod.native.cholesky64(spd), mod.python.cholesky64(spd), n, condition(spd))
    spd32 = spd.astype(np.float32)
    close(mod.native.cholesky32(spd32), mod.python.cholesky32(spd32), n, condition(spd))
    # Only the lower triangle is read, as numpy's UPLO='L'.
    skewed = np.tril(spd) + np.triu(np.full((n, n), 7.0), 1)
    close(mod.native.cholesky64(skewed), mod.python.cholesky64(skewed), n, condition(spd))
    if n > 1:
        close(mod.native.cholesky64(spd[::-1, ::-1]), mod.python.cholesky64(spd[::-1, ::-1]),
              n, condition(spd))


# ---------------------------------------------------------------------- qr
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (4, 3), (3, 4), (8, 8), (9, 7),
                                   (17, 16), (40, 17), (17, 40)])
def test_qr(mod, shape):
    # LAPACK's reflectors: Q's columns and R's rows have numpy's signs.
    a = np.random.default_rng(sum(shape)).standard_normal(shape)
    c = condition(a) if min(shape) else 1.0
    for got, want in zip(mod.native.qr_reduced(a), mod.python.qr_reduced(a)):
        close(got, want, max(shape), c)
    q, r = mod.native.qr_reduced(a)
    if a.size:
        np.testing.assert_allclose(q @ r, a, atol=1e-12 * max(shape))
    ints = np.random.default_rng(3).integers(-5, 6, shape).astype(np.int32)
    for got, want in zip(mod.native.qr_complete(ints), mod.python.qr_complete(ints)):
        close(got, want, max(shape), condition(ints) if min(shape) else 1.0)
    a32 = a.astype(np.float32)
    close(mod.native.qr_r(a32), mod.python.qr_r(a32), max(shape), c)
    view = np.random.default_rng(5).standard_normal((2 * shape[0] + 1, 2 * shape[1] + 1))
    view = view[::-2, 1::2]
    for got, want in zip(mod.native.qr_reduced(view), mod.python.qr_reduced(view)):
        close(got, want, max(shape), condition(view) if min(shape) else 1.0)


def test_qr_nan(mod):
    a = np.array([[np.nan, 1.0], [1.0, 2.0]])
    for got, want in zip(mod.native.qr_reduced(a), mod.python.qr_reduced(a)):
        close(got, want, 2)


# ------------------------------------------------------------------- norms
VECTORS = [np.zeros(0), np.array([3.0]), np.array([0.0, -4.0, 3.0]),
           np.linspace(-2.0, 5.0, 17), np.array([1e200, 1e-200, -1e150]),
           np.array([np.nan, 1.0]), np.array([np.inf, -1.0]), np.array([-np.inf, 2.0])]


@pytest.mark.parametrize("position", range(len(VECTORS)))
def test_vector_norms(mod, position):
    x = VECTORS[position]
    with np.errstate(all="ignore"):
        close(mod.native.norms_vector(x), mod.python.norms_vector(x), max(len(x), 1))
        for name in ("norm_inf", "norm_minus_inf"):
            got, want = same_outcome(mod, name, x)
            if want is not None:
                assert got == want or (math.isnan(got) and math.isnan(want))
    ints = (np.arange(len(x), dtype=np.int32) - 5) * 3
    if len(ints):
        assert math.isclose(mod.native.norm_int(ints), mod.python.norm_int(ints), rel_tol=1e-14)
    x32 = x.astype(np.float32)
    with np.errstate(all="ignore"):
        close(np.float32(mod.native.norm32(x32)), mod.python.norm32(x32), max(len(x), 1))


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 0), (0, 3), (4, 7), (17, 9), (64, 64)])
def test_matrix_norms(mod, shape):
    a = np.random.default_rng(shape[0]).standard_normal(shape)
    close(mod.native.norms_matrix(a), mod.python.norms_matrix(a), a.size)
    for name in ("norm_matrix_1", "norm_matrix_minus_1", "norm_matrix_inf",
                 "norm_matrix_minus_inf"):
        got, want = same_outcome(mod, name, a)
        if want is not None:
            close(got, want, max(shape))
    if a.size:
        view = a[::-1, ::2]
        close(mod.native.norms_matrix(view), mod.python.norms_matrix(view), a.size)


def test_residual_of_a_solve(mod):
    a = matrix(12, seed=7, dominant=True)
    b = np.arange(12.0)
    assert mod.native.residual(a, b) < 1e-12
    assert mod.python.residual(a, b) < 1e-12


# ------------------------------------------------------------ trace, kron
@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 4), (5, 2), (9, 9)])
def test_trace(mod, shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    for offset in range(-6, 7):
        close(mod.native.trace64(a, offset), mod.python.trace64(a, offset), 16)
    ints = rng.integers(-2**31, 2**31 - 1, shape, dtype=np.int32)
    assert mod.native.trace_int(ints) == mod.python.trace_int(ints)
    small = rng.integers(0, 256, shape, dtype=np.uint8)
    for offset in (-1, 0, 2):
        assert mod.native.trace_uint(small, offset) == mod.python.trace_uint(small, offset)
    flags = rng.random(shape) < 0.5
    assert mod.native.trace_bool(flags) == mod.python.trace_bool(flags)
    assert mod.native.trace64(a.T, 1) == pytest.approx(mod.python.trace64(a.T, 1))


@pytest.mark.parametrize("shapes", [((0, 0), (2, 2)), ((1, 1), (1, 1)), ((2, 3), (4, 1)),
                                    ((3, 2), (0, 5)), ((5, 4), (3, 3))])
def test_kron(mod, shapes):
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    close(mod.native.kron_matrix(a, b), mod.python.kron_matrix(a, b), 1)
    close(mod.native.kron_matrix(a[::-1], b.T), mod.python.kron_matrix(a[::-1], b.T), 1)
    ia = rng.integers(-2**15, 2**15 - 1, shapes[0], dtype=np.int16)
    ib = rng.integers(-2**40, 2**40, shapes[1], dtype=np.int64)
    assert np.array_equal(mod.native.kron_int(ia, ib), mod.python.kron_int(ia, ib))
    va = rng.integers(-9, 9, shapes[0][0], dtype=np.int32)
    vb = rng.standard_normal(shapes[1][0]).astype(np.float32)
    close(mod.native.kron_vector(va, vb), mod.python.kron_vector(va, vb), 1)


# ------------------------------------------------------- compile-time refusals
REFUSED = {
    "complex": ("def f(a: kiln.c128[:, :]) -> kiln.c128[:, :]:\n"
                "    return np.linalg.cholesky(a)\n",
                "np.linalg.cholesky() of complex arrays is not supported yet"),
    "stacked": ("def f(a: kiln.f64[:, :, :, :]) -> float:\n"
                "    return np.linalg.det(a)[0, 0]\n",
                "stacks of matrices beyond 3-D (and of qr) are not supported yet"),
    "vector": ("def f(a: kiln.f64[:]) -> kiln.f64[:, :]:\n    return np.linalg.inv(a)\n",
               "1-dimensional array given. Array must be at least two-dimensional"),
    "ord_variable": ("def f(a: kiln.f64[:], p: float) -> float:\n"
                     "    return np.linalg.norm(a, p)\n",
                     "`ord` must be written as a literal"),
    "svd_vectors": ("def f(a: kiln.f64[:, :]):\n    return np.linalg.svd(a)\n",
                    "write compute_uv=False"),
    "cond_p1": ("def f(a: kiln.f64[:, :]) -> float:\n    return np.linalg.cond(a, 1)\n",
                "with p=1 is not supported yet"),
    "ord_fro_vector": ("def f(a: kiln.f64[:]) -> float:\n"
                       "    return np.linalg.norm(a, 'fro')\n",
                       "Invalid norm order 'fro' for vectors"),
    "ord_3_matrix": ("def f(a: kiln.f64[:, :]) -> float:\n    return np.linalg.norm(a, 3)\n",
                     "Invalid norm order for matrices."),
    "einsum_variable": ("def f(a: kiln.f64[:, :], s: str) -> float:\n"
                        "    return np.einsum(s, a)\n", "subscripts must be a string literal"),
    "einsum_ellipsis": ("def f(a: kiln.f64[:, :]) -> kiln.f64[:]:\n"
                        "    return np.einsum('...i->i', a)\n", "ellipsis ('...')"),
    "einsum_output": ("def f(a: kiln.f64[:, :]) -> kiln.f64[:]:\n"
                      "    return np.einsum('ij->k', a)\n",
                      "included output subscript 'k' which never appeared in an input"),
    "einsum_rank": ("def f(a: kiln.f64[:, :, :]) -> kiln.f64[:]:\n"
                    "    return np.einsum('ij->i', a)\n",
                    "operand has more dimensions than subscripts given"),
    "qr_raw": ("def f(a: kiln.f64[:, :]):\n    return np.linalg.qr(a, mode='raw')\n",
               "('raw' is not supported yet)"),
    "axis": ("def f(a: kiln.f64[:, :]) -> kiln.f64[:]:\n"
             "    return np.linalg.norm(a, axis=1)\n",
             "np.linalg.norm() argument `axis` is not supported yet"),
    "kron_mixed": ("def f(a: kiln.f64[:], b: kiln.f64[:, :]) -> kiln.f64[:, :]:\n"
                   "    return np.kron(a, b)\n", "both 1-D or both 2-D"),
    "solve_scalar": ("def f(a: kiln.f64[:, :]) -> kiln.f64[:]:\n"
                     "    return np.linalg.solve(a, 1.0)\n", "takes arrays here"),
    "raise_other": ("def f(n: int) -> int:\n    raise np.linalg.norm(n)\n",
                    "numpy.linalg.LinAlgError"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_with_a_reason_at_its_position(tmp_path, case):
    from conftest import kiln_build
    body, reason = REFUSED[case]
    source = tmp_path / f"refused_{case}.py"
    source.write_text("import numpy as np\nimport kiln\n\n\n@kiln.export(strict=True)\n" + body)
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode != 0
    assert reason in result.stderr, result.stderr
    assert f"refused_{case}.py:" in result.stderr


def test_the_report_counts_kernel_code_at_the_call(mod):
    """Kiln's kernels are compiled from another file: the record names the
    kernels each call reaches, and their code counts at the call's line."""
    import json
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    functions = {f["name"]: f for f in record["functions"]}
    det = functions["det64"]
    (call,) = det["kernel_calls"]
    assert call["line"] == det["line"] + 1
    assert any("lu_factor" in symbol for symbol in call["kernels"])
    lines = {entry["line"]: entry for entry in det["lines"]}
    assert call["line"] in lines and lines[call["line"]]["vector_ops"] > 0
    assert functions["raises_lin_alg_error"]["kernel_calls"] == []


def test_everything_compiles(mod):
    import json
    with open(mod.path("linalg_kernels.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert all(f["compiled"] for f in record["functions"]), [
        f["name"] for f in record["functions"] if not f["compiled"]]


def test_the_kernels_run_in_cpython():
    """frontend/kernels/linalg.py is Python that CPython runs as well, with
    the template names bound (here with a small PANEL, so a 9 x 9 matrix
    takes the blocked paths): the algorithms themselves agree with numpy."""
    kernels = os.path.join(os.path.dirname(__file__), "..", "..", "python_frontend", "kiln",
                           "frontend", "kernels", "linalg.py")
    namespace = {"FLOAT": np.float64, "REAL": np.float64, "RESULT": np.float64,
                 "TINY": 2.2250738585072014e-308, "EPS": 2.220446049250313e-16, "PANEL": 4,
                 "MAGNITUDE": abs}
    with open(kernels, encoding="utf-8") as handle:
        exec(compile(handle.read(), kernels, "exec"), namespace)     # noqa: S102
    namespace.update(DET=namespace["det"], SLOGDET=namespace["slogdet"])
    a = matrix(9, seed=11)
    b = np.random.default_rng(11).standard_normal(9)
    c = condition(a)
    close(namespace["det"](a), np.linalg.det(a), 9, c)
    close(namespace["solve_vector"](a, b), np.linalg.solve(a, b), 9, c)
    close(namespace["inv"](a), np.linalg.inv(a), 9, c)
    spd = a @ a.T + 9 * np.eye(9)
    close(namespace["cholesky"](spd), np.linalg.cholesky(spd), 9, condition(spd))
    for got, want in zip(namespace["qr_reduced"](a), np.linalg.qr(a)):
        close(got, want, 9, c)
    close(namespace["singular_values"](a), np.linalg.svd(a, compute_uv=False), 9)
