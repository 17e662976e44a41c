"""Issue 12: numpy's shape and creation functions (reshape, ravel, flip,
roll, tile, repeat, diff, concatenate/stack, outer, tril/triu, argmin/
argmax, arange, linspace, full, eye, array) and tuples of arrays, against
numpy running the same source on edge sizes (0, 1, VF-1, VF, VF+1, large),
strided, transposed and reversed views, NaN and integer extremes. Results,
the arguments afterwards (a reshape or flip is a view that writes through)
and errors must be equal."""

import json
import warnings

import numpy as np
import pytest

from test_array_expressions import compare

SIZES = (0, 1, 7, 8, 9, 300)


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("array_shapes")


def check_equal(name, got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (name, got, want)
        for g, w in zip(got, want):
            check_equal(name, g, w)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), (name, got)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), (name, got, want)
        if got.dtype.kind == "f":
            assert np.array_equal(np.signbit(got), np.signbit(want)), (name, got, want)
        np.testing.assert_array_equal(got, want, err_msg=name)
    else:
        assert got == want or (got != got and want != want), (name, got, want)
        assert np.result_type(got) == np.result_type(want) or type(got) in (int, float, bool), (
            name, got, want)


def same(mod, name, *args):
    native_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    python_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return compare(mod, name, native_args, python_args, check_equal)


def check_close(name, got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (name, got, want)
        for g, w in zip(got, want):
            check_close(name, g, w)
    elif isinstance(want, (float, np.floating)):
        assert np.result_type(got) == np.result_type(want), (name, got, want)
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-300, err_msg=name)
    else:
        check_equal(name, got, want)


def test_everything_compiles(mod):
    with open(mod.path("array_shapes.kiln.json")) as handle:
        record = json.load(handle)
    assert all(f["compiled"] for f in record["functions"]), [
        f["name"] for f in record["functions"] if not f["compiled"]]


def test_tuples_of_arrays(mod):
    for n in SIZES:
        x = np.linspace(-3, 3, n)
        same(mod, "several_results", x, n)
        same(mod, "chosen_results", x, True)
        same(mod, "chosen_results", x[::-2], False)


@pytest.mark.parametrize("n", SIZES)
def test_reshape_is_a_view_when_numpy_makes_one(mod, n):
    base = np.arange(float(n * 12)).reshape(n * 3, 4) if n else np.zeros((0, 4))
    for view in (base, base[:, :2], base.T, base[::-1], base[::2, 1:3], base[:, ::-1]):
        rows, columns = view.shape
        for shape in ((columns, rows), (-1, rows or 1), (rows * columns, 1), (3, -1), (-1, -1),
                      (5, 7)):
            same(mod, "reshape_and_write", view, *shape)
    x = np.arange(float(n * 4))
    for view in (x, x[::2], x[::-1]):
        for k in (1, 2, 3, 4, 0, -1):
            same(mod, "reshape_shapes", view, k)


@pytest.mark.parametrize("n", SIZES)
def test_corpus_kernels(mod, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n)
    same(mod, "create_grid", x)
    same(mod, "create_grid", x[::-1])
    same(mod, "repeating", x, 3)
    same(mod, "repeating", x, 0)
    same(mod, "repeating", x, -2)
    grid = rng.standard_normal((n, n + 3))
    same(mod, "evolve", grid, 0.25, 3)
    same(mod, "evolve", grid[::-1, ::2], 0.25, 3)
    same(mod, "evolve", grid.T, 1e300, 2)


@pytest.mark.parametrize("n", SIZES)
def test_flips_rolls_tiles_repeats_diffs(mod, n):
    rng = np.random.default_rng(n + 100)
    m = rng.integers(-2**31, 2**31, (n, 3), dtype=np.int32)
    same(mod, "flips", m)
    same(mod, "flips", m[::-1, ::2])
    i = rng.integers(-2**63, 2**63, (3, n), dtype=np.int64)
    for shift in (0, 1, -1, 5, -7, 2**62, -2**63 + 1):
        same(mod, "rolls", i, shift)
        same(mod, "rolls", i[:, ::-1], shift)
    f = rng.standard_normal((n, 2)).astype(np.float32)
    for k in (0, 1, 3, -1) if n else (0, 1, 3):    # (numpy's tile fails oddly on (0, -2))
        same(mod, "tiles_and_repeats", f, k)
        same(mod, "tiles_and_repeats", f.T, k)
    s = rng.integers(-2**15, 2**15, (4, n), dtype=np.int16)
    b = rng.integers(0, 2, n).astype(bool)
    same(mod, "differences", s, b)
    same(mod, "differences", s[::-1, ::-1], b[::-1])
    if n:
        same(mod, "diff_of_order_zero", s[0].astype(np.int32))


@pytest.mark.parametrize("n", SIZES)
def test_joining_products_extrema(mod, n):
    rng = np.random.default_rng(n + 200)
    a = rng.standard_normal(n)
    b = rng.integers(-100, 100, n, dtype=np.int32)
    m = rng.standard_normal((n, 2))
    same(mod, "joined", a, b, m)
    same(mod, "joined", a[::-1], b, m.T.copy()[:, :n])
    same(mod, "joined", a, b[:n // 2], m)                   # shapes that do not fit
    same(mod, "joined", a, b, rng.standard_normal((n, n)))
    same(mod, "stacked_rows", m, a[:2], b[:2])
    same(mod, "stacked_rows", m[::-1], a[:2:-1], b[-2:])
    same(mod, "stacked_rows", m, a, b)                      # rows of another length
    same(mod, "products_and_triangles", a, b.astype(np.int64), 1)
    same(mod, "products_and_triangles", a[::-1], b[::-1].astype(np.int64), -2)
    u = rng.integers(0, 256, (n, 5), dtype=np.uint8)
    same(mod, "extrema", a, u)
    same(mod, "extrema", a, u[:, :0])
    same(mod, "extrema", a, u.T)
    if n >= 8:
        a[[2, 5]] = np.nan
        a[3] = np.inf
        same(mod, "extrema", a, u)


def test_ranges_and_spacing(mod):
    for n in (0, 1, 2, 7, 8, 9, 100, -3):
        for start, stop, step in ((0.0, 1.0, 0.1), (1.0, 0.0, -0.3), (0.5, 0.5, 1.0),
                                  (-1e3, 1e3, 30.0), (0.0, 1.0, 0.0), (0.0, np.nan, 1.0),
                                  (0.0, np.inf, 1.0), (0.1, 5.0, 1.0 / 3)):
            same(mod, "ranges", n, start, stop, step)
        for start, stop in ((0.0, 1.0), (-5.0, 5.0), (1.0, 1.0), (0.0, 1e-320), (1e308, -1e308),
                            (0.0, np.inf)):
            same(mod, "spaced", start, stop, n)
        for start, stop in ((0.0, 10.0), (-3.5, 2.5), (10.0, -10.0), (-1e15, 1e15)):
            same(mod, "spaced_ints", start, stop, n)
        same(mod, "filled_arrays", n, np.arange(6, dtype=np.int32).reshape(2, 3)[:, ::-1], 2.5)


def test_shape_functions_inside_expressions_and_loops(mod):
    for n in SIZES:
        same(mod, "in_expressions", np.arange(float(n)), n % 20)


@pytest.mark.parametrize("n", SIZES)
def test_boolean_masks_and_int_array_indices(mod, n):
    rng = np.random.default_rng(n + 300)
    x, y, z = (rng.random(n) * 10 for _ in range(3))
    for flags in ((True, True, True), (False, True, False)):
        same(mod, "periodic_dist", x, y, z, 5, *flags)
        same(mod, "periodic_dist", x[::-1], y, x, 3, *flags)     # aliased arguments
    values = rng.standard_normal(n) * 2
    if n >= 8:
        values[:3] = [np.nan, np.inf, -np.inf]
    m = rng.integers(-10, 10, (n, 3), dtype=np.int32)
    for idx in (np.array([0, -1, 0]), np.array([n, 0]), np.array([-n - 1]),
                np.zeros(0, dtype=np.int64), np.arange(n)[::-1]):
        same(mod, "masks", values, m, idx)
        same(mod, "masks", values[::-1], m[::-1, ::2], idx)


@pytest.mark.parametrize("n", SIZES + (2, 3))
def test_unpacked_rows_positions_and_function_imports(mod, n):
    rng = np.random.default_rng(n + 400)
    same(mod, "wave", n)
    v = rng.integers(0, 3, n)
    for values in (v, np.sort(v), v[::-1]):
        same(mod, "grouping", values)
    m = rng.standard_normal((n, 3)).astype(np.float32)
    m[m < -1] = np.nan
    same(mod, "positions", m)
    same(mod, "positions", m.T)


def test_lambdas_and_four_dimensions(mod):
    rng = np.random.default_rng(500)
    for d, re in ((1, 1), (2, 3), (3, 5), (0, 2)):
        pre_dz = rng.standard_normal((2 * d, d + 1, re))
        pre_wz = rng.standard_normal((d, d + 1, re))
        srw, rsw = rng.standard_normal((d, 2 * d)), rng.standard_normal((d, 2 * d))
        yxv = rng.standard_normal((d + 1, re, d))
        native = mod.native.slowparts(d, re, pre_dz, pre_wz, srw, rsw, yxv, yxv, 1)
        python = mod.python.slowparts(d, re, pre_dz, pre_wz, srw, rsw, yxv, yxv, 1)
        # np.tanh is numpy's SIMD loop, Kiln calls glibc: a few ulps apart.
        np.testing.assert_allclose(native, python, rtol=1e-13, atol=1e-300)
    for shape in ((2, 3, 4, 5), (0, 2, 2, 2), (3, 1, 1, 9), (1, 8, 1, 9)):
        a = rng.standard_normal(shape)
        same(mod, "four", a, 1.5)
        same(mod, "four", a[::-1, :, ::2], -2.0)


def test_large_zeros_are_zero_fresh_or_reused(mod):
    """Large np.zeros blocks come from calloc (not cleared again) or from
    the allocator's cache of freed blocks (cleared): zero either way."""
    for n in (1 << 14, 1 << 17, 1 << 20, 3 << 20):
        for _ in range(3):
            assert mod.native.dirty(n, 7.5) == 7.5
            zeros, small = mod.native.large_zeros(n)
            assert zeros.shape == (n,) and not zeros.any()
            assert small.shape == (2, n // 2) and not small.any()


@pytest.mark.parametrize("n", SIZES)
def test_matmul_shape_tuples_int_powers_and_shifts(mod, n):
    rng = np.random.default_rng(n + 600)
    a, b = rng.standard_normal(n), rng.integers(-5, 5, n, dtype=np.int32)
    # A float `a @ b` is a sum in an order numpy's BLAS and Kiln's vector
    # lanes choose (the lanes depend on the CPU level the kernels run):
    # equal to an ulp or two, ints exactly.
    for args in ((a, b), (a, b[:n // 2])):
        compare(mod, "matmul1", list(args), list(args), check_close)
    m = rng.standard_normal((n, 3))
    for x, y in ((m, m), (m, m.T), (np.zeros((2, 3)), m)):
        same(mod, "same_shape", x, y)
    ints = rng.integers(-3, 4, n)
    small = rng.integers(0, 4, n).astype(np.int8)
    u = rng.integers(0, 9, n).astype(np.uint16)
    for k in (0, 1, 2, -1):
        same(mod, "ipow", ints, small, k, u)
    if n:
        small[-1] = -1          # numpy: Integers to negative integer powers ...
        same(mod, "ipow", ints, small, 2, u)
    wide = rng.integers(-2**62, 2**62, n)
    counts = rng.integers(-10, 80, n).astype(np.int8)
    bytes_ = rng.integers(0, 255, n).astype(np.uint8)
    for k in (0, 3, 63, 64, 65, -1):
        same(mod, "shifts", wide, counts, k, bytes_)


@pytest.mark.parametrize("n", SIZES)
def test_augmented_stores_through_array_indices(mod, n):
    rng = np.random.default_rng(n + 700)
    x = rng.standard_normal(n) * 2
    m = rng.integers(-9, 9, (n, 3), dtype=np.int32)
    for idx in (np.array([0, 0, -1]), np.zeros(0, dtype=np.int64), np.array([n])):
        same(mod, "masked_updates", x, m, idx, rng.standard_normal(max(n, 1)))
        same(mod, "masked_updates", x[::-1], m.T, idx, rng.standard_normal(1))


def close_enough(name, got, want):
    """Sums of products in another order than numpy's BLAS: to rounding."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), name
        for g, w in zip(got, want):
            close_enough(name, g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), (name, got, want)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("n", SIZES)
def test_matrix_products(mod, n):
    rng = np.random.default_rng(n + 800)

    def check(name, *args):
        compare(mod, name, [a.copy() for a in args], [a.copy() for a in args], close_enough)

    x1, x2 = rng.random((1, n)), rng.random((30, n))
    check("euclidean_distance_square", x1, x2)
    check("euclidean_distance_square", x2, x2[:, ::-1])
    check("euclidean_distance_square", x1, x2.T.copy())         # not aligned
    a = rng.standard_normal((n, 3))
    b = rng.integers(-5, 5, (3, n), dtype=np.int32)
    v = rng.standard_normal(3)
    w = rng.integers(0, 2, (3, 3)).astype(bool)
    check("products", a, b, v, w)
    check("products", a[::-1], b[:, ::2].copy() if n % 2 == 0 else b, v, w.T)
    check("products", a, b[:2], v, w)                            # not aligned


def test_one_pass_masked_updates(mod):
    rng = np.random.default_rng(404)
    for shape in ((5, 7), (1, 1), (0, 3), (16, 9)):
        d = rng.standard_normal(shape) * 4
        o = rng.standard_normal(shape) * 2
        if d.size > 3:
            d.flat[[0, 3]] = np.nan, np.inf
            o.flat[1] = np.nan
        for x in (d, d.T.copy().T, d[::-1]):
            for step in (2.5, 0.0, -1.0):
                same(mod, "one_pass_masked_updates", x, o, 4, step)
    same(mod, "one_pass_masked_updates", np.zeros((2, 3)), np.zeros((3, 2)), 4, 1.0)   # mask shape


def test_fuzzer_findings_a7_a8(mod):
    for idx in (np.array([1, 7]), np.array([1, -8]), np.array([6, 1])):
        same(mod, "store_positions", np.zeros(7), idx)
    b = np.arange(12.0)
    m = np.arange(12.0).reshape(3, 4)
    for x in (b, b[::-1], b[::2], b[:1], b[:0], b[3:9]):
        for matrix in (m, m.T, m[:, :2], m[:1], m[::-1]):
            same(mod, "ravel_and_write", x, matrix)
    # Seed 22 (2026-12-04): the index read's IndexError comes first.
    for x, idx, m in ((np.zeros(0), np.array([4]), 0), (np.arange(3.0), np.array([1, -3]), 0),
                      (np.arange(3.0), np.array([2, 0]), 2), (np.arange(3.0), np.array([3]), 2)):
        same(mod, "index_read_then_scalar_error", x, idx, 5, m)
    # Seed 73: out-of-bounds rows of an empty result raise nothing in numpy 1.24.
    for x in (np.zeros((4, 0), np.float32), np.zeros((0, 3), np.float32),
              np.arange(12, dtype=np.float32).reshape(4, 3)):
        for i in (np.array([20, 1], np.int8), np.array([], np.int8), np.array([0, -4], np.int8)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                same(mod, "rows_by_index", x, i)


@pytest.mark.parametrize("n", SIZES)
def test_transposed_expressions(mod, n):
    rng = np.random.default_rng(n + 900)
    a, b = rng.standard_normal((n, 3)), rng.standard_normal((n, 3))
    same(mod, "transposed_expressions", a, b)
    same(mod, "transposed_expressions", a[::-1], b.T.copy().T)


WRONG = '''import numpy as np
import kiln

@kiln.export
def masked_increment(x: kiln.i64[:]) -> None:
    x[x > 0] += 1.5

@kiln.export
def reshape_in_a_loop(x: kiln.f64[:], n: int) -> float:
    s = 0.0
    for i in range(n):
        s += x.reshape(2, -1).sum()
    return s

@kiln.export
def mixed_ranks(x: kiln.f64[:], m: kiln.f64[:, :]):
    return np.concatenate((x, m))

@kiln.export
def axis_out_of_bounds(m: kiln.f64[:, :]):
    return np.argmax(m, axis=2)

@kiln.export
def float_positions(x: kiln.f64[:]):
    return x[x * 2.0]

@kiln.export
def variable_axis(x: kiln.f64[:, :], k: int):
    return np.roll(x, 1, k)

@kiln.export
def matmul_of_a_number(x: kiln.f64[:]):
    return x @ 2.0
'''


def test_unsupported_shape_code_falls_back_with_reasons(tmp_path):
    from conftest import kiln_build
    source = tmp_path / "wrong.py"
    source.write_text(WRONG)
    result = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert result.returncode == 0, result.stderr
    expected = {
        "masked_increment": (6, 5, "cannot cast the result of `+=` from float64 to int64 "
                                   "(numpy's same_kind rule for in-place operators)"),
        "mixed_ranks": (17, 12, "np.concatenate: all the input arrays must have the same "
                                "number of dimensions (they have [1, 2])"),
        "axis_out_of_bounds": (21, 30, "np.argmax: axis 2 is out of bounds for an array of "
                                       "dimension 2"),
        "float_positions": (25, 12, "arrays used as indices must be of integer (or boolean) "
                                    "type"),
        "variable_axis": (29, 26, "np.roll: axis must be an int written in the source"),
        "matmul_of_a_number": (33, 12, "operator `@` needs two arrays (numpy refuses numbers)"),
    }
    for name, (line, column, message) in expected.items():
        assert f"wrong.py:{line}:{column}: warning: {message}" in result.stderr, (
            name, result.stderr)
        assert f"`{name}` falls back to Python" in result.stderr


def test_masked_assignments_in_one_pass(mod):
    """mandelbrot's `z[i] = z[i]**2 + c[i]` and other right sides of masked
    arrays and numbers, on sizes around the vector width, transposed and
    reversed views, NaN and inf."""
    rng = np.random.default_rng(2026)
    for shape in ((0, 3), (1, 1), (1, 7), (2, 8), (3, 9), (10, 10)):
        z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * 0.5
        c = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * 0.8
        w = rng.standard_normal(shape) * 3
        if w.size > 3:
            w.flat[[0, 2]] = np.nan, np.inf
            c.flat[1] = complex(np.inf, 1.0)
        for views in ((z, c, w), (z.T, c.T, w.T), (z[::-1], c[:, ::-1], w[::-1, ::-1])):
            for rounds in (0, 1, 4, 30):
                for h in (2.0, 0.0, np.inf):
                    same(mod, "masked_assignments", *views, h, rounds)


def test_masked_assignment_aliases(mod):
    rng = np.random.default_rng(7)
    for n in (0, 1, 7, 8, 9, 33):
        x = rng.standard_normal(n) * 3
        b = rng.standard_normal(n)
        # y another array, y x itself, y x reversed: aliasing kept on both sides.
        for pair in (lambda a: (a, a.copy()), lambda a: (a, a), lambda a: (a, a[::-1])):
            native, python = pair(x.copy()), pair(x.copy())
            compare(mod, "masked_assignment_aliases", [*native, b.copy()],
                    [*python, b.copy()], check_equal)
    same(mod, "masked_assignment_aliases", np.ones(4), np.ones(4), np.ones(3))   # IndexError


def test_unpacked_array_expressions(mod):
    for n in (0, 1, 7, 8, 9, 33):
        x, y = np.arange(n) * 1.5, np.arange(n)[::-1] * 0.5
        same(mod, "unpacked_array_expressions", x, y)
        base = np.arange(2 * n + 1.0)
        native, python = base.copy(), base.copy()
        compare(mod, "unpacked_array_expressions", [native[:n], native[n:2 * n][::-1]],
                [python[:n], python[n:2 * n][::-1]], check_equal)
        same(mod, "unpacked_array_expressions", x, y[:1] if n else y)   # broadcast, or not


def test_masked_assignment_raises_in_python_order(mod):
    for n in (3, 4):
        for k in (0.0, 2.0):
            same(mod, "masked_assignment_order", np.linspace(-1, 1, n), k)
