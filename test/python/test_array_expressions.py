"""Issue 12: whole-array expressions against numpy running the same source.

Every function of modules/array_expressions.py runs compiled and under
CPython on copies of the same inputs: edge sizes (0, 1, VF-1, VF, VF+1 and
large; VF is 8 doubles with AVX-512), strided, reversed and overlapping
views, aliased arguments, NaN/inf/-0.0 and integer extremes. Results and
every array argument afterwards must be equal -- bit for bit, except the
transcendental ufuncs, which are glibc's and may differ from numpy's own
SIMD loops in the last bits (docs/language.md) -- and errors must match in
type and message."""

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import import_from, import_plain_python, kiln_build

SIZES = (0, 1, 7, 8, 9, 1000)
SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, -1e-310, 2.5])
# Transcendental ufuncs: glibc's results, not numpy's SIMD ones.
TOLERANT = {"arc_distance", "ufuncs", "power", "wdist"}
# Sums and products: numpy adds pairwise, Kiln in SIMD partial sums.
REASSOCIATED = {"total", "fused_dot", "rosen", "statistics", "float32_sum"}
# Array results of sums in another order than numpy's pairwise one.
TOLERANT |= {"l2norm", "l1norm", "multiple_sum", "axis_reductions", "spreads"}
REASSOCIATED |= {"cronbach", "lstsqr", "int_spread", "mixed_dot", "scaled_into"}
TOLERANT |= {"copies_and_casts", "small_int_float_functions"}
# Results bounded by pi whose inputs cancel (1 + cos(a)cos(b) near 0 in
# arc_distance): an ulp of cos there is ~1e-16 absolute but 5e-13 relative
# to a small distance (seen on an AVX2 EPYC), so the error is absolute.
ABSOLUTE = {"arc_distance": 1e-13}


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("array_expressions")


def outcome(function, args):
    try:
        with np.errstate(all="ignore"):
            result = function(*args)
    except Exception as error:  # noqa: BLE001 - compared by type and message
        return ("error", type(error).__name__,
                re.sub(r" \([^()]*, line \d+\)$", "", str(error)))
    return ("value", result)


def same(mod, name, *args):
    """Runs both on copies; compares results and the arguments afterwards."""
    native_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    python_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return compare(mod, name, native_args, python_args)


def compare(mod, name, native_args, python_args, check=None):
    """`check(name, got, want)` compares values (check_equal by default)."""
    check = check or check_equal
    native = outcome(getattr(mod.native, name), native_args)
    python = outcome(getattr(mod.python, name), python_args)
    assert native[0] == python[0], (name, native, python)
    if native[0] == "error":
        assert native == python, name
        return native
    check(name, native[1], python[1])
    for got, want in zip(native_args, python_args):
        if isinstance(got, np.ndarray):
            check(name, got, want)
    return native


def check_equal(name, got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), (name, got)
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got, want)
        assert got.dtype.char == want.dtype.char, (name, got.dtype.char)   # "l", not "q"
        if name in TOLERANT:
            # A few ulps per function, compounded through the expression.
            rtol = 1e-5 if want.dtype == np.float32 else 1e-13
            np.testing.assert_allclose(got, want, rtol=rtol, atol=ABSOLUTE.get(name, 0),
                                       equal_nan=True, err_msg=name)
        else:
            # Bitwise, NaN payloads aside: -0.0 and 0.0 differ.
            if got.dtype.kind == "f":
                differ = np.flatnonzero(np.signbit(got) != np.signbit(want))
                assert differ.size == 0, (name, "signs differ at", differ[:8],
                                          got.ravel()[differ[:8]], want.ravel()[differ[:8]])
            np.testing.assert_array_equal(got, want, err_msg=name)
    elif isinstance(want, tuple):
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            check_equal(name, g, w)
    elif name in REASSOCIATED and isinstance(want, (float, np.floating)):
        rtol = 1e-5 if np.result_type(want) == np.float32 else 1e-12
        assert np.isclose(got, want, rtol=rtol, atol=0, equal_nan=True), (name, got, want)
        assert np.result_type(got) == np.result_type(want) or isinstance(got, float), name
    else:
        assert got == want or (got != got and want != want), (name, got, want)
        assert np.result_type(got) == np.result_type(want) or type(got) in (int, float, bool), (
            name, got, want)


def views(base):
    """Contiguous, strided, reversed and strided-reversed views of `base`."""
    return [base, base[::2], base[::-1], base[::-3]]


def floats(rng, n):
    x = rng.standard_normal(n) * 4
    if n >= len(SPECIAL):
        x[:len(SPECIAL)] = SPECIAL
    return x


def test_everything_compiles(mod):
    with open(mod.path("array_expressions.kiln.json")) as handle:
        record = json.load(handle)
    assert all(f["compiled"] for f in record["functions"]), [
        f["name"] for f in record["functions"] if not f["compiled"]]
    assert len(record["functions"]) == 74


@pytest.mark.parametrize("n", SIZES)
def test_elementwise_float64_through_views(mod, n):
    rng = np.random.default_rng(n)
    x, y = floats(rng, 3 * n), floats(rng, 3 * n)[::-1].copy()
    for xv, yv in zip(views(x), views(y)):
        m = min(len(xv), len(yv))
        xv, yv = xv[:m], yv[:m]
        same(mod, "axpy", 2.5, xv, yv)
        same(mod, "arithmetic", xv, yv)
        same(mod, "power", xv, yv)
        same(mod, "ufuncs", xv, yv)
        same(mod, "ufunc_predicates", xv)
        same(mod, "negate", xv)
        same(mod, "two_results", xv)
        with np.errstate(all="ignore"):
            same(mod, "arc_distance", xv, yv, yv, xv)


def test_aliased_and_overlapping_arguments(mod):
    rng = np.random.default_rng(7)
    for n in SIZES:
        base = floats(rng, n + 2)
        # One array passed twice, and two overlapping views of one array.
        a, b = base.copy(), base.copy()
        compare(mod, "store_from_other", [a, a], [b, b])
        for shift in (1, 2):
            a, b = base.copy(), base.copy()
            compare(mod, "store_from_other", [a[shift:], a[:-shift]], [b[shift:], b[:-shift]])
            a, b = base.copy(), base.copy()
            compare(mod, "store_from_other", [a[:-shift], a[shift:]], [b[:-shift], b[shift:]])
        a, b = base.copy(), base.copy()
        compare(mod, "store_from_other", [a[::-1], a], [b[::-1], b])
        a, b = base.copy(), base.copy()
        compare(mod, "axpy", [1.5, a, a], [1.5, b, b])
        for name in ("shift_right", "shift_left", "reverse_in_place"):
            for view in (slice(None), slice(None, None, -1), slice(None, None, 2)):
                a, b = base.copy(), base.copy()
                compare(mod, name, [a[view]], [b[view]])


def test_broadcasting(mod):
    rng = np.random.default_rng(3)
    for rows, cols in ((0, 3), (1, 1), (3, 1), (4, 9), (9, 8)):
        m = rng.standard_normal((rows, cols))
        same(mod, "broadcast_rows", m, rng.standard_normal(cols))
        same(mod, "broadcast_rows", m, rng.standard_normal(1))        # size 1 at run time
        same(mod, "broadcast_rows", m.T, rng.standard_normal(rows))
        same(mod, "broadcast_rows", m[::-1, ::2], rng.standard_normal(m[::-1, ::2].shape[1]))
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for b in (np.ones((3, 4), np.float32), np.ones((1, 4), np.float32),
              np.ones((3, 1), np.float32), np.ones((1, 1), np.float32)):
        same(mod, "broadcast_3d", a, b)
        same(mod, "broadcast_3d", a[:, ::-1], b)


def test_shape_mismatches_raise_numpys_errors(mod):
    error = same(mod, "axpy", 1.0, np.ones(3), np.ones(4))
    assert error == ("error", "ValueError",
                     "operands could not be broadcast together with shapes (3,) (4,) ")
    error = same(mod, "broadcast_rows", np.ones((2, 3)), np.ones(2))
    assert error[1] == "ValueError" and "(2,3) (2,)" in error[2]
    error = same(mod, "broadcast_3d", np.ones((2, 3, 4), np.float32), np.ones((2, 4), np.float32))
    assert error[1] == "ValueError" and "(2,3,4) (2,4)" in error[2]
    error = same(mod, "row_assignment", np.ones((3, 4)), np.ones(3))
    assert error == ("error", "ValueError",
                     "could not broadcast input array from shape (3,) into shape (4,)")
    error = same(mod, "in_place", np.ones((2, 3)), np.ones(4))
    assert error[2] == "operands could not be broadcast together with shapes (2,3) (4,) (2,3) "
    error = same(mod, "in_place", np.ones((2, 1)), np.ones(4))
    assert error[2] == ("non-broadcastable output operand with shape (2,1) doesn't match the "
                        "broadcast shape (2,4)")


def test_dtypes_follow_numpy(mod):
    rng = np.random.default_rng(5)
    x32 = rng.standard_normal(9).astype(np.float32)
    got = mod.native.float32_stays_float32(x32, x32[::-1])
    assert got.dtype == np.float32
    same(mod, "float32_stays_float32", x32, x32[::-1])
    ints32 = np.array([0, 1, -1, 7, 2**31 - 1, -2**31, 3, -5, 100], np.int32)
    ints64 = np.array([1, 0, -1, 3, 2**40, -2**63, 7, 0, -9], np.int64)
    same(mod, "int_true_division", ints32, ints64)
    same(mod, "int_arithmetic", ints32, ints32[::-1])
    u8 = np.array([0, 1, 255, 128, 7], np.uint8)
    i8 = np.array([0, -1, -128, 127, 7], np.int8)
    same(mod, "mixed_int_widths", u8, i8, np.array([2**62, -1, 5, 0, -2**63], np.int64))
    same(mod, "invert_int16", np.array([0, -1, 32767, -32768], np.int16))
    same(mod, "invert_bool", np.array([True, False, True]))


def test_stores_into_views(mod):
    rng = np.random.default_rng(11)
    for rows, cols in ((0, 0), (1, 1), (2, 5), (6, 9)):
        m = rng.integers(-100, 100, (rows, cols)).astype(np.int32)
        same(mod, "fill_view", m, 7)
        same(mod, "fill_view", m.T, -3)
    for value in (2.9, -2.9, 1e18, float("nan"), float("inf")):
        same(mod, "fill_with_float", np.zeros(4, np.int64), value)
    for rows, cols in ((2, 3), (3, 4), (5, 1)):
        m = rng.standard_normal((rows, cols))
        same(mod, "row_assignment", m, rng.standard_normal(cols))
        same(mod, "row_assignment", m, rng.standard_normal(1))
        x = rng.standard_normal((rows, cols))
        same(mod, "in_place", x, rng.standard_normal(cols))
        same(mod, "in_place", x[::-1], rng.standard_normal(1))
    same(mod, "in_place_int", np.array([1, 2**31 - 1, -5], np.int32),
         np.array([1, 1, 2**40], np.int64))
    for i in (0, 1, -1, 3, -4):
        same(mod, "partial_rows", rng.standard_normal((3, 4)), i)


def test_diffusion_kernel(mod):
    rng = np.random.default_rng(2)
    for shape in ((2, 2), (3, 3), (5, 9), (17, 16)):
        u = rng.standard_normal(shape)
        same(mod, "diffusion", u, np.zeros(shape), 3)


def test_one_fused_loop_writes_the_destination(mod):
    """`a * x + y` is one loop (fused) writing the new array: no temporary
    array and no copy, and it runs as SIMD code."""
    mlir = open(mod.path("array_expressions.kiln.mlir")).read()
    function = mlir[mlir.index("@array_expressions_axpy("):]
    assert "\n  } loc(" in function, function[:2000]
    function = function[:function.index("\n  } loc(")]       # the function's end
    assert function.count("linalg.generic") == 2       # one per operator, as emitted
    report = subprocess.run([sys.executable, "-m", "kiln", "report",
                             mod.path("array_expressions.kiln.json")],
                            capture_output=True, text=True)
    assert "\naxpy:" in report.stdout, (report.returncode, report.stdout, report.stderr)
    axpy = report.stdout[report.stdout.index("\naxpy:"):]
    axpy = axpy[:axpy.index("\n\n")]
    assert axpy.count("loop at line") == 1 and "vectorized" in axpy, axpy


WRONG = '''import numpy as np
import kiln


@kiln.export
def float_shift(x: kiln.f64[:]):
    return x << 2


@kiln.export
def in_a_loop(x: kiln.f64[:], n: int) -> float:
    for i in range(n):
        y = x * 2.0
        x = y
    return x[0]


@kiln.export
def float_into_int(m: kiln.i64[:], x: kiln.f64[:]) -> None:
    m[:] = x


@kiln.export
def in_place_float_into_int(m: kiln.i64[:]) -> None:
    m *= 1.5


@kiln.export
def indexed_expression(x: kiln.f64[:]) -> int:
    return len(x + 1.0)


@kiln.export
def negative_int_power(x: kiln.i64[:]):
    return x ** -1
'''


def test_unsupported_array_code_falls_back_with_reasons(tmp_path):
    source = tmp_path / "wrong.py"
    source.write_text(WRONG)
    result = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert result.returncode == 0, result.stderr
    expected = {
        "float_shift": (7, 12, "operator `<<` needs int arrays"),
        "float_into_int": (20, 5, "storing a float array into an int array is not supported"),
        "in_place_float_into_int": (25, 5, "cannot cast the result of `*=` from float64 to "
                                           "int64"),
        "indexed_expression": (30, 16, "an array expression can only be stored"),
        "negative_int_power": (35, 12, "`**` of an int array with a negative exponent: numpy "
                                       "raises"),
    }
    for name, (line, column, message) in expected.items():
        assert f"wrong.py:{line}:{column}: warning: {message}" in result.stderr, (
            name, result.stderr)
        assert f"`{name}` falls back to Python" in result.stderr


@pytest.mark.parametrize("n", SIZES)
def test_reductions_and_comparisons(mod, n):
    rng = np.random.default_rng(100 + n)
    x, y = floats(rng, 2 * n), rng.standard_normal(2 * n)
    for xv, yv in zip(views(x), views(y)):
        same(mod, "total", xv)
        same(mod, "fused_dot", xv, yv)
        same(mod, "rosen", yv)
        same(mod, "comparisons", xv, yv)
        same(mod, "counts", xv, 0.25)
        same(mod, "float32_sum", yv.astype(np.float32))
    ints = rng.integers(-2**31, 2**31, 2 * n, dtype=np.int64).astype(np.int32)
    for view in views(ints):
        same(mod, "int_statistics", view)
        same(mod, "exact_comparisons", view, np.abs(view).astype(np.uint64))
    same(mod, "unsigned_sum", rng.integers(0, 256, n, dtype=np.uint8))
    m = rng.standard_normal((n, 3))
    same(mod, "statistics", m)
    same(mod, "statistics", m.T[:, ::-1])


def test_reduction_edge_cases(mod):
    error = same(mod, "statistics", np.zeros((0, 3)))
    assert error == ("error", "ValueError",
                     "zero-size array to reduction operation maximum which has no identity")
    same(mod, "int_statistics", np.array([], np.int32))
    same(mod, "total", np.array([1.0, np.nan, 2.0]))
    same(mod, "statistics", np.array([[1.0, np.nan], [np.inf, 2.0]]))
    same(mod, "int_statistics", np.array([2**31 - 1, 2**31 - 1, -2**31], np.int32))
    assert mod.native.unsigned_sum(np.full(1000, 255, np.uint8)) == 255000
    assert mod.native.total(np.array([])) == 0.0


def test_shape_tuples_transposes_and_sliced_expressions(mod):
    rng = np.random.default_rng(21)
    for shape in ((2, 2), (3, 5), (8, 9), (1, 4)):
        image = rng.standard_normal(shape)
        same(mod, "harris", image)
        same(mod, "harris", image[::-1, ::2] if shape[1] > 2 else image)
        same(mod, "transposed", image)
        same(mod, "transposed", image[:, ::-1])


def test_arrays_of_one_loop_iteration(mod):
    """Array variables first assigned in a loop body: allocated per
    iteration, freed by every exit of the iteration (continue, break,
    the end), with no growth of the process over many calls."""
    rng = np.random.default_rng(4)
    for counts in (0, 1, 6, 7, 9):
        same(mod, "time_steps", rng.standard_normal(40), rng.standard_normal(40), counts)
    a, b, w = rng.random((5, 7)), rng.random((5, 6)), rng.random((5, 7)) + 0.5
    same(mod, "wdist", a, b, w)
    import resource
    u, v = rng.standard_normal(200_000), np.zeros(200_000)
    mod.native.time_steps(u, v, 3)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(100):
        mod.native.time_steps(u, v, 9)      # 6 iterations of 3 arrays of 1.6 MB
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20_000


def test_reductions_along_an_axis_and_new_axes(mod):
    rng = np.random.default_rng(31)
    for shape in ((3, 4), (1, 1), (5, 1), (0, 3), (3, 0), (9, 17)):
        x = rng.standard_normal(shape)
        same(mod, "l2norm", x)
        same(mod, "l2norm", x[::-1, ::2])
        same(mod, "multiple_sum", x)
        ints = rng.integers(-9, 9, shape).astype(np.int32)
        # C, Fortran (each takes the other loop nest), reversed-transposed
        for layout in (ints, np.asfortranarray(ints), ints.T.copy().T[::-1]):
            same(mod, "int_axis_reductions", layout)
    for rows, other in ((3, 4), (1, 2), (0, 3), (6, 0)):
        x, y = rng.standard_normal((rows, 5)), rng.standard_normal((other, 5))
        same(mod, "l1norm", x, y)
        same(mod, "new_axes", x[:, 0], y[:, 0])
    for shape in ((2, 3, 4), (1, 1, 1), (3, 1, 2), (4, 5, 6)):
        m = rng.standard_normal(shape)
        for layout in (m, np.asfortranarray(m), m.transpose(1, 0, 2).copy().transpose(1, 0, 2)):
            same(mod, "axis_reductions", layout)
    for empty in ((0, 3, 4), (2, 0, 4), (2, 3, 0)):
        same(mod, "axis_reductions", np.zeros(empty))


def test_int_arrays_compare_with_floats_in_float64(mod):
    """Seed 42 (2026-12-04): `x != 2.0**63` with x holding INT64_MAX."""
    x = np.array([2**63 - 1, 5, -2**63, 2**53 + 1, 0])
    for p in (9.223372036854776e18, -9.223372036854776e18, 9007199254740992.0, 5.0, np.nan):
        same(mod, "int_against_float", x, p, np.full(5, p))
        same(mod, "int_against_float", x[::-1], p, np.full(5, p))


def test_power_of_two_is_the_square(mod):
    """np.power(a, 2) is a * a (np.square's correctly rounded result), not
    libm's pow, which rounds the ties of an exact 54-bit square the other
    way in about half of them (docs/language.md)."""
    ties = np.arange(94906267, 94906267 + 2 * 500, 2, dtype=np.float64)
    for a in (ties, ties[::-1], np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e200, -3.5])):
        got = mod.native.squared_by_power(a)
        np.testing.assert_array_equal(got, a * a)
        assert np.array_equal(np.signbit(got), np.signbit(a * a))


def test_memory_order(mod):
    """C, Fortran, transposed and reversed operands and destinations: the
    loops follow memory (fast either way); a new result is laid out like
    its first operand, as numpy's (same strides)."""
    rng = np.random.default_rng(77)
    for shape in ((3, 4), (1, 5), (6, 1), (0, 3), (17, 9)):
        c = rng.standard_normal(shape)
        for m in (c, np.asfortranarray(c), c.T.copy().T, c[::-1], c[:, ::-1], c.T.T):
            v = rng.standard_normal(shape[1])
            same(mod, "scaled", m, v)
            got, want = mod.native.scaled(m, v), mod.python.scaled(m, v)
            if min(shape) > 1:      # (strides of empty arrays and length-1 axes mean nothing)
                assert got.strides == want.strides, (m.strides, got.strides, want.strides)
            for out in (np.zeros(shape), np.asfortranarray(np.zeros(shape)),
                        np.zeros(shape[::-1]).T, np.zeros((shape[0], 2 * shape[1]))[:, ::2]):
                same(mod, "scaled_into", out, m)


def test_variance_and_average(mod):
    rng = np.random.default_rng(41)
    for shape in ((5, 7), (2, 1), (3, 30)):
        same(mod, "cronbach", rng.standard_normal(shape))
        same(mod, "spreads", rng.standard_normal(shape).astype(np.float32))
    for n in (2, 9, 1000):      # (n = 1 divides by a zero variance: numpy's float64
        x = rng.standard_normal(n)  # gives nan, Kiln's scalar / raises, docs/language.md)
        same(mod, "lstsqr", x, 2 * x + rng.standard_normal(n))
        same(mod, "int_spread", rng.integers(-100, 100, n).astype(np.int32))


def test_scans(mod):
    rng = np.random.default_rng(51)
    for n in (0, 1, 7, 8, 9, 1000):
        x = floats(rng, n)
        for view in views(x):
            same(mod, "reverse_cumsum", view)       # sequential: bit-identical
    for shape in ((3, 4), (1, 5), (0, 2), (4, 0), (6, 9)):
        m = rng.integers(-3, 4, shape).astype(np.int32)
        same(mod, "scans", m)
        same(mod, "scans", m[::-1, ::2])
    same(mod, "scans", np.full((2, 40), 3, np.int32))   # cumprod wraps in int64
    # a leading -0.0 stays -0.0, as numpy copies the first element (fuzzer
    # seed 502856263, f8921: Kiln added it to +0.0)
    signed_zeros = np.array([-0.0, -0.0, 0.0, -0.0, 1.5, -1.5, -0.0])
    for view in (signed_zeros, signed_zeros[::-1], signed_zeros[:1]):
        same(mod, "reverse_cumsum", view)
        got = mod.native.reverse_cumsum(view.copy())
        assert np.array_equal(np.signbit(got), np.signbit(np.cumsum(view[::-1])[::-1]))


def test_where_clip_logical_copies_casts_and_dot(mod):
    rng = np.random.default_rng(61)
    for n in (0, 1, 7, 8, 9, 100):
        x, y = floats(rng, n), floats(rng, n)[::-1].copy()
        for xv, yv in zip(views(x), views(y)):
            m = min(len(xv), len(yv))
            same(mod, "select_and_clip", xv[:m], yv[:m])
            same(mod, "logical", xv[:m], yv[:m])
        v = rng.integers(-20, 20, n).astype(np.int32)
        same(mod, "int_clip_and_select", v)
        if n:
            same(mod, "copies_and_casts", x, v)
        same(mod, "mixed_dot", x, y.astype(np.float32))
        same(mod, "int_dot", v, v[::-1])
    same(mod, "int_dot", np.full(3, 2**20, np.int32), np.full(3, 2**20, np.int32))  # wraps
    error = same(mod, "mixed_dot", np.ones(3), np.ones(4, np.float32))
    assert error[2] == "shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)"


def test_fuzzer_findings_on_array_expressions(mod):
    """The array-expression fuzzer's first findings (FINDINGS.md, A1-A5)."""
    rng = np.random.default_rng(71)
    a, b = rng.integers(0, 2, 9).astype(bool), rng.integers(0, 2, 9).astype(bool)
    same(mod, "bool_min_max", a, b)                         # A1: bool, not int64
    x = np.array([7, -7, 5, -2**31, 3, 0, 2**31 - 1], np.int32)
    y = np.array([2, 2, 0, -1, -2, 0, 1], np.int32)
    same(mod, "int_fmod", x, y)                             # A2: C remainder, 0 by zero
    i16 = np.array([1, -3, 300, -32768], np.int16)
    u16 = np.array([2, 5, 7, 65535], np.uint16)
    got = mod.native.small_int_float_functions(i16, u16)
    assert got.dtype == np.float32                          # A5: numpy's float32 loop
    same(mod, "small_int_float_functions", i16, u16)
    for n in (0, 1, 9):                                     # A4: copies load (no memrefCopy)
        same(mod, "folds_to_copies", floats(rng, n), rng.standard_normal(n).astype(np.float32))
    # Two statements with the same memory-free operation (2026-12-04: CSE
    # merged them across statements; the second copied the first's array).
    for n in (1, 9):
        same(mod, "same_pure_operation_twice", np.arange(n))
    same(mod, "mask_of_pure_expression_twice", np.arange(12).reshape(3, 4), 3)


HELPER_AFTER_ARRAY_OPERATION = '''import numpy as np
import kiln


def bump(a: kiln.f64[:]) -> float:
    a[0] = 100.0
    return 1.0


@kiln.export
def returned(a: kiln.f64[:]):
    return a * 2.0 + bump(a)


@kiln.export
def stored(a: kiln.f64[:]):
    a[1:] = a[:-1] * 2.0 + bump(a)


@kiln.export
def ufunc_and_compare(a: kiln.f64[:]):
    return np.maximum(a * 3.0, bump(a)) > bump(a)


@kiln.export
def axis_reduction(m: kiln.f64[:, :]):
    return np.sum(m * 2.0, axis=0) - bump(m[0])


@kiln.export
def view_read_after(a: kiln.f64[:]):
    return a + bump(a)


@kiln.export
def masked_times_helper(a: kiln.f64[:]):
    a[a > 0] = a[a > 0] * bump(a)


@kiln.export
def masked_plus_helper(a: kiln.f64[:]):
    a[a > 0] += bump(a)


@kiln.export
def in_a_loop(a: kiln.f64[:], n: int):
    for i in range(n):
        a[1:] = a[:-1] * 2.0 + bump(a)
'''


def test_helper_call_after_an_array_operation(tmp_path):
    """numpy computes `a * 2.0` before `bump(a)` runs in `a * 2.0 + bump(a)`
    (fuzzer, A3): Kiln computes it into a new array first. A bare view is
    read when its operator runs, after the call, in both; in a loop too
    (a new array each iteration)."""
    source = tmp_path / "helper.py"
    source.write_text(HELPER_AFTER_ARRAY_OPERATION)
    result = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert result.returncode == 0, result.stderr
    assert "falls back" not in result.stderr, result.stderr
    native = import_from(str(tmp_path / "out" / "helper.py"), "kiln_built_helper_a3")
    python = import_plain_python(str(source), "kiln_source_helper_a3")
    for name in ("returned", "stored", "ufunc_and_compare", "view_read_after",
                 "masked_times_helper", "masked_plus_helper"):
        for n in (1, 2, 9):
            a = np.arange(1.0, n + 1.0)
            b = a.copy()
            np.testing.assert_array_equal(getattr(native, name)(a), getattr(python, name)(b))
            np.testing.assert_array_equal(a, b)
    m = np.arange(12.0).reshape(3, 4)
    m2 = m.copy()
    np.testing.assert_array_equal(native.axis_reduction(m), python.axis_reduction(m2))
    np.testing.assert_array_equal(m, m2)
    for n in (0, 1, 2, 9):
        a = np.linspace(0.5, 2.0, 10)
        b = a.copy()
        assert native.in_a_loop(a, n) == python.in_a_loop(b, n)
        np.testing.assert_array_equal(a, b)


def test_floor_division_and_remainder_of_arrays(mod):
    """numpy's floor_divide/remainder: no exceptions (a zero divisor gives 0
    for ints, inf/NaN for floats), signs of the divisor, INT_MIN // -1."""
    a = np.array([7.5, -7.5, 5, -0.0, 3, 0, np.inf, np.nan, 1e308, -2, 7, -7])
    b = np.array([2, 2, 0, 1, -2, 0, 2, 1, 1e-308, np.inf, -0.0, 0.5])
    same(mod, "float_floor_and_remainder", a, b)
    same(mod, "float_floor_and_remainder", a[::-1], b[::2].repeat(2))
    ints = np.array([7, -7, 5, -2**31, 3, 0, 2**31 - 1, -1], np.int32)
    divisors = np.array([2, 2, 0, -1, -2, 0, -1, 3], np.int32)
    same(mod, "int_floor_and_remainder", ints, divisors)
    same(mod, "unsigned_floor_and_remainder", np.array([7, 200, 5, 0, 255], np.uint8),
         np.array([2, 3, 0, 0, 16], np.uint8))
    rng = np.random.default_rng(81)
    for n in (0, 1, 9, 100):
        same(mod, "wrap_into_box", rng.standard_normal(n) * 10, 2.0)


def test_operator_ufuncs_are_the_operators(mod):
    a = np.array([7, -7, 5, 0, 3, -2**62, 2**62, -1])
    b = np.array([2, 2, 0, 1, -2, 3, -1, 0])
    x = np.array([-3.5, 0.0, -0.0, np.inf, np.nan, 1e308, 2.5, -1.5])
    for n in (0, 1, 8):
        same(mod, "operator_ufuncs", a[:n], b[:n], x[:n])
        same(mod, "operator_ufuncs", a[::-1][:n], b[:n], x[::-1][:n])
