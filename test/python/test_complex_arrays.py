"""Complex arrays (`kiln.c128[:]`, docs/language.md "Complex numbers"):
every function of modules/complex_arrays.py against the same source run by
numpy, on a grid of edge parts (signed zeros, huge, subnormal, inf, NaN),
sizes 0, 1, 7, 8, 9, 100 and strided, reversed and transposed views,
bit for bit. Two documented differences are checked against their own
references: products are CPython's formula (numpy's AVX-512 loop fuses
the multiply-add), and np.abs is glibc's hypot (numpy's AVX-512 loop has
its own)."""

import ctypes
import ctypes.util
import math

import numpy as np
import pytest

INF, NAN = math.inf, math.nan
PARTS = [0.0, -0.0, 1.0, -2.5, 3.0, 1e308, -1e-310, INF, -INF, NAN]
GRID = np.array([complex(a, b) for a in PARTS for b in PARTS])
SIZES = [0, 1, 7, 8, 9, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("complex_arrays")


def same(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "c":
        return same(a.real, b.real) and same(a.imag, b.imag)
    if a.dtype.kind == "f":
        return bool(np.all(((a == b) & (np.signbit(a) == np.signbit(b)))
                           | (np.isnan(a) & np.isnan(b))))
    return bool(np.array_equal(a, b))


def operands(n):
    z = GRID[:n]
    return [(z, GRID[::-1][:n], np.linspace(-2.0, 2.0, n)),
            (GRID[::-1][:n][::-1], GRID[-n:] if n else GRID[:0], np.linspace(3.0, -3.0, n)),
            (np.resize(GRID, 2 * n)[::2], np.resize(GRID[::-3], n), np.zeros(n))]


@pytest.mark.parametrize("name", ["ops", "powers", "parts", "functions"])
def test_operators_and_parts_match_numpy(mod, name):
    for n in SIZES:
        for z, w, x in operands(n):
            args = {"ops": (z, w, x), "powers": (z,), "parts": (z,), "functions": (z,)}[name]
            with np.errstate(all="ignore"):
                expected = getattr(mod.python, name)(*args)
            assert same(getattr(mod.native, name)(*args), expected), (name, n)


@pytest.mark.parametrize("e", [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -3.0, 2.5, 99.0, 100.0,
                               1e10, INF, NAN])
def test_powers_known_at_run_time_are_numpys(mod, e):
    """numpy's `**` of complex arrays bit for bit: the operator's fast
    paths, npy_cpow's small whole exponents, libm's cpow for the others."""
    for n in SIZES:
        for z, w, x in operands(n):
            c = complex(e, 0.5) if e == e else complex(0, INF)
            with np.errstate(all="ignore"):
                expected = mod.python.powers_of(z, w, e, c)
                assert same(mod.native.powers_of(z, w, e, c), expected), (e, n)
                native, python = z.copy(), z.copy()
                mod.native.power_in_place(native, e)
                mod.python.power_in_place(python, e)
                assert same(native, python), (e, n)
                z64, w64 = z.astype(np.complex64), w.astype(np.complex64)
                assert same(mod.native.powers_of_complex64(z64, w64),
                            mod.python.powers_of_complex64(z64, w64)), (e, n)


def test_products_are_cpythons(mod):
    for n in SIZES:
        for z, w, x in operands(n):
            products = mod.native.products(z, w, x)
            expected = (np.array([complex(a) * complex(b) for a, b in zip(z, w)], complex),
                        np.array([complex(a) * 1j for a in z], complex),
                        np.array([float(a) * complex(b) for a, b in zip(x, z)], complex))
            assert same(products, expected), n


def test_abs_is_glibc_hypot(mod):
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.hypot.restype = ctypes.c_double
    libm.hypot.argtypes = [ctypes.c_double, ctypes.c_double]
    for z, _, _ in operands(100):
        expected = np.array([libm.hypot(v.real, v.imag) for v in z])
        assert same(mod.native.magnitude(z), expected)
        # numpy's own loop agrees except in the last bit now and then
        with np.errstate(all="ignore"):
            close = np.isclose(mod.native.magnitude(z), np.abs(z), rtol=4e-16, equal_nan=True)
        assert close.all()


def test_inline_hypot_is_glibcs_across_the_exponent_range(mod):
    """np.abs of complex arrays computes glibc's hypot inline (so that it
    can vectorize): bit for bit glibc's, with the scaled branches for huge
    and tiny parts, the negligible-part shortcut, inf and NaN."""
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.hypot.restype = ctypes.c_double
    libm.hypot.argtypes = [ctypes.c_double, ctypes.c_double]
    rng = np.random.default_rng(5)
    special = [0.0, -0.0, INF, -INF, NAN, 5e-324, 1.7e308, 2.0**511, 2.0**-511, 2.0**-537]
    xs = np.concatenate([rng.normal(size=4000) * 10, rng.normal(size=1000) * 1e300,
                         rng.normal(size=1000) * 1e-300, np.exp(rng.uniform(-700, 700, 4000)),
                         np.repeat(special, len(special))])
    ys = np.concatenate([rng.normal(size=4000) * 10, rng.normal(size=1000) * 1e-3,
                         rng.normal(size=1000) * 1e-305, np.exp(rng.uniform(-700, 700, 4000)),
                         np.tile(special, len(special))])
    z = np.empty(len(xs), complex)
    z.real, z.imag = xs, ys
    expected = np.array([libm.hypot(a, b) for a, b in zip(xs.tolist(), ys.tolist())])
    assert same(mod.native.magnitude(z), expected)


def test_stores_masks_loops_and_allocation(mod):
    for n in SIZES:
        for z, w, x in operands(n):
            a, b = z.copy(), z.copy()
            mod.native.shifted_store(a, x)
            mod.python.shifted_store(b, x)
            assert same(a, b), n
            a, b = z.copy(), z.copy()
            with np.errstate(all="ignore"):
                assert same(mod.native.masked(a, 2.5), mod.python.masked(b, 2.5)), n
            assert same(a, b), n
            a, b = z.copy(), z.copy()
            out_a, out_b = np.full(n, -1.0), np.full(n, -1.0)
            with np.errstate(all="ignore"):
                sum_a = mod.native.element_loop(a, out_a)
                sum_b = mod.python.element_loop(b, out_b)
            assert same(np.array([sum_a]), np.array([sum_b])), n
            assert same(a, b) and same(out_a, out_b), n
        assert same(mod.native.built(n), mod.python.built(n))
    m = GRID[:36].reshape(6, 6)
    for view in (m.copy(), m.T.copy(), m[::-1, 1::2].copy()):
        a, b = view.copy(), view.copy()
        with np.errstate(all="ignore"):
            mod.native.in_place(a, GRID[40:40 + view.shape[1]])
            mod.python.in_place(b, GRID[40:40 + view.shape[1]])
        assert same(a, b)


def test_mandelbrot_matches_numpy(mod):
    for args in [(0.0, 100.0, 0.0, 100.0, 100.0, 100.0, 100, 50.0),
                 (-2.0, 1.0, -1.5, 1.5, 60.0, 40.0, 30, 2.0),
                 (-2.0, 1.0, -1.5, 1.5, 1.0, 0.0, 5, 2.0)]:
        with np.errstate(all="ignore"):
            assert same(mod.native.mandelbrot(*args), mod.python.mandelbrot(*args)), args


def test_parts_of_real_values(mod):
    for n in (0, 1, 9):
        x1, x2 = np.linspace(-1.0, 1.0, max(n, 1)), np.linspace(-1.0, 1.0, max(n, 1))
        m = np.arange(6, dtype=np.int32).reshape(2, 3)
        got = mod.native.parts_of_real_values(x1, m, 2.5, 4)
        expected = mod.python.parts_of_real_values(x2, m, 2.5, 4)
        assert same(got[:5], expected[:5]) and got[5:] == expected[5:]
        assert same(x1, x2)          # the store through x.real reached x


def test_argument_checks(mod):
    with pytest.raises(TypeError, match=r"argument 'z' must be a 1-D complex128 array"):
        mod.native.magnitude(np.zeros(3))
    with pytest.raises(TypeError, match=r"argument 'z' must be a 1-D complex128 array"):
        mod.native.magnitude(np.zeros(3, np.complex64))
    # a buffer that is not numpy's ("Zd" format) is accepted
    assert same(mod.native.magnitude(memoryview(np.array([3 + 4j]))), np.array([5.0]))
    # 8-byte aligned complex data (a view into a float buffer) is accepted
    raw = np.arange(9.0)[1:].view(np.complex128)
    assert same(mod.native.magnitude(raw), np.abs(raw.copy()))


def test_complex_sums_match_numpy(mod):
    rng = np.random.default_rng(5)
    for shape in [(0, 3), (3, 0), (1, 1), (4, 9), (17, 5)]:
        z = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        for view in (z, z.T, z[::-1, ::2]):
            got = mod.native.complex_sums(view, view.astype(np.complex64))
            expected = mod.python.complex_sums(view, view.astype(np.complex64))
            for g, e in zip(got, expected):
                if isinstance(e, np.ndarray):     # a number comes back as Python's complex
                    assert g.dtype == e.dtype and g.shape == e.shape
                tolerance = 1e-5 if np.asarray(e).dtype == np.complex64 else 1e-12
                np.testing.assert_allclose(g, e, rtol=tolerance, atol=tolerance)
    special = np.array([[np.inf + 0j, 1], [np.nan, 2j]])
    got = mod.native.complex_sums(special, special.astype(np.complex64))
    np.testing.assert_array_equal(got[1], np.sum(special, axis=0))


def test_record_fields_with_strides_beyond_the_item_size(mod):
    """A complex128 field of a record: numpy calls it aligned (8 bytes), its
    stride (24) is no multiple of 16; it is copied for the call, not read
    with a truncated stride (review finding)."""
    records = np.zeros(5, dtype=[("z", "c16"), ("w", "f8")])
    records["z"] = [1 + 1j, 2, 3, 4j, -5]
    records["w"] = 99.0
    assert mod.native.complex_loop_sum(records["z"]) == records["z"].sum()
    assert mod.native.complex_loop_sum(records["z"][::-2]) == records["z"][::-2].sum()


def test_shape_functions_move_complex_elements(mod):
    for n in SIZES:
        for z, _, _ in operands(n):
            assert same(mod.native.reshaped(z), mod.python.reshaped(z)), n
