"""numpy's complex64 (`kiln.c64`, docs/language.md "Complex numbers"): every
function of modules/complex64.py against the same source run by numpy with
NEP 50's promotion (numpy 1.24's `_set_promotion_state("weak")`, what
numpy 2 does), on a grid of float32 edge parts (signed zeros, huge,
subnormal, inf, NaN), sizes 0, 1, 15, 16, 17, 100 and strided, reversed
and 4-byte-aligned views, bit for bit."""

import contextlib
import math
import subprocess

import numpy as np
import pytest

INF, NAN = math.inf, math.nan
PARTS = [0.0, -0.0, 1.0, -2.5, 3.0, 3e38, -1e-40, INF, -INF, NAN]
GRID = np.array([complex(a, b) for a in PARTS for b in PARTS], np.complex64)
SIZES = [0, 1, 15, 16, 17, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("complex64")


@contextlib.contextmanager
def nep50():
    """numpy 2's promotion (a Python number adapts to a typed operand), as
    Kiln types; numpy 1.24 has it behind a private switch."""
    saved = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        with np.errstate(all="ignore"):
            yield
    finally:
        np._set_promotion_state(saved)


def same(native, expected):
    """Kiln's result equals numpy's bit for bit (NaNs of any sign equal,
    zeros' signs compared). A scalar comes back as a Python number: it must
    hold exactly the value of numpy's type."""
    if isinstance(expected, tuple):
        return isinstance(native, tuple) and len(native) == len(expected) and all(
            map(same, native, expected))
    expected = np.asarray(expected)
    if np.ndim(native) == 0 and not isinstance(native, np.ndarray):
        if np.asarray(native).astype(expected.dtype).item() != native and native == native:
            return False                # not a value of numpy's type
        native = np.asarray(native).astype(expected.dtype)
    native = np.asarray(native)
    if native.dtype != expected.dtype or native.shape != expected.shape:
        return False
    if native.dtype.kind == "c":
        return same(native.real, expected.real) and same(native.imag, expected.imag)
    if native.dtype.kind == "f":
        equal = (native == expected) & (np.signbit(native) == np.signbit(expected))
        if native.dtype == np.float32 and not NUMPY_HAS_AVX512F:
            # np.abs of a complex64 is numpy's AVX-512F formula, which Kiln
            # computes (complex_numbers.numpy_abs_complex64); on a CPU without
            # AVX-512F numpy calls hypotf instead, one ulp apart for about a
            # third of the inputs. Elsewhere bit for bit.
            equal |= np.abs(native.astype(np.float64) - expected.astype(np.float64)) <= \
                np.spacing(np.abs(expected))
        return bool(np.all(equal | (np.isnan(native) & np.isnan(expected))))
    return bool(np.array_equal(native, expected))


# Which loop numpy runs for np.abs of complex64 here (see same()).
NUMPY_HAS_AVX512F = bool(np.core._multiarray_umath.__cpu_features__.get("AVX512F"))


def pairs():
    for a in GRID:
        for b in GRID[::7]:
            yield a, b


def test_scalar_operators_match_numpy(mod):
    for a, b in pairs():
        with nep50():
            expected = mod.python.scalar_ops(a, b)
        assert same(mod.native.scalar_ops(a, b), expected), (a, b)


def test_scalar_quotient_is_numpys_and_zero_raises(mod):
    for a, b in pairs():
        if b == 0:
            with pytest.raises(ZeroDivisionError, match="complex division by zero"):
                mod.native.scalar_quotient(a, b)
            continue
        with nep50():
            expected = mod.python.scalar_quotient(a, b)
        assert same(mod.native.scalar_quotient(a, b), expected), (a, b)


def test_scalar_power_parts_and_conjugate(mod):
    for a in GRID:
        for name in ("scalar_power", "scalar_parts", "scalar_conjugate"):
            with nep50():
                expected = getattr(mod.python, name)(a)
            assert same(getattr(mod.native, name)(a), expected), (name, a)


def test_scalar_powers_of_any_exponent(mod):
    # random parts too: np.reciprocal and npy_cpowf's 1 / z round
    # differently for most of them
    rng = np.random.default_rng(5)
    bases = np.concatenate([GRID, (rng.uniform(-5, 5, 40) + 1j * rng.uniform(-5, 5, 40))
                            .astype(np.complex64)])
    for a in bases:
        for w in (GRID[::7]):
            with nep50():
                expected = mod.python.scalar_powers(a, w)
            assert same(mod.native.scalar_powers(a, w), expected), (a, w)


def test_promotion_with_other_scalars(mod):
    for a in GRID[::3]:
        for x in (np.float32(0.1), np.float32(-3e38), np.float32(NAN)):
            args = (a, x, np.float64(0.1), np.int32(-7), np.int16(300))
            with nep50():
                expected = mod.python.mixed_scalars(*args)
            # a * d and a + i are complex128, complex(a) is a Python complex
            assert [type(e) for e in expected] == [np.complex64, np.complex128, np.complex128,
                                                  np.complex64, complex, np.complex64,
                                                  np.complex64]
            assert same(mod.native.mixed_scalars(*args), expected), (a, x)
    with nep50():
        assert same(mod.native.casts(0.1 + 1e40j, np.complex64(3 - 1j)),
                    mod.python.casts(0.1 + 1e40j, np.complex64(3 - 1j)))
        # complex64 * float64 is complex128: 0.1 is not rounded to float32
        assert mod.native.widened(np.complex64(1 + 1j), 0.1) == complex(0.1, 0.1)


def operands(n):
    z = GRID[:n]
    x = np.linspace(-2.0, 2.0, n).astype(np.float32)
    return [(z, GRID[::-1][:n], x),
            (GRID[::-1][:n][::-1], GRID[-n:] if n else GRID[:0], x[::-1]),
            (np.resize(GRID, 2 * n)[::2], np.resize(GRID[::-3], n), np.zeros(n, np.float32))]


@pytest.mark.parametrize("name", ["ops", "powers", "parts", "functions"])
def test_array_functions_match_numpy(mod, name):
    for n in SIZES:
        for z, w, x in operands(n):
            args = (z, w, x) if name == "ops" else (z,)
            with nep50():
                expected = getattr(mod.python, name)(*args)
            assert same(getattr(mod.native, name)(*args), expected), (name, n)


def test_wider_operands_give_complex128(mod):
    for n in SIZES:
        for z, w, x in operands(n):
            args = (z, x.astype(np.float64), w.astype(np.complex128))
            with nep50():
                expected = mod.python.wider(*args)
            assert [e.dtype for e in expected] == [np.complex128, np.complex128, np.complex64]
            assert same(mod.native.wider(*args), expected), n


def test_allocation_in_place_and_element_loop(mod):
    for n in SIZES:
        assert same(mod.native.built(n), mod.python.built(n))
    z1 = GRID[:40].reshape(5, 8).copy()
    z2 = z1.copy()
    w = GRID[40:48]
    with nep50():
        mod.native.in_place(z1, w)
        mod.python.in_place(z2, w)
    assert same(z1, z2)
    z1, z2 = GRID[10:60].copy(), GRID[10:60].copy()
    out1, out2 = np.zeros(50, np.float32), np.zeros(50, np.float32)
    with nep50():
        total1 = mod.native.element_loop(z1, out1)
        total2 = mod.python.element_loop(z2, out2)
    assert same(total1, total2) and same(z1, z2) and same(out1, out2)


def test_helper_calls_pass_complex64_in_registers(mod):
    # a complex64 crosses calls as C's float _Complex (one SSE register)
    for a, b in [(np.complex64(1 + 2j), np.complex64(3 - 4j)),
                 (np.complex64(-0.0 + 1e-40j), np.complex64(2.5 + 3e38j))]:
        with nep50():
            expected = mod.python.helper_call(a, b)
        assert same(mod.native.helper_call(a, b), expected)


def test_argument_checks_and_buffers(mod):
    with pytest.raises(TypeError, match=r"argument 'z' must be a 1-D complex64 array"):
        mod.native.parts(np.zeros(3, np.complex128))
    with pytest.raises(TypeError, match=r"argument 'a' must be a complex"):
        mod.native.scalar_power("1j")
    # a Python complex argument is rounded to complex64, as np.complex64() does
    assert mod.native.scalar_conjugate(0.1 + 0.2j) == complex(np.complex64(0.1 + 0.2j).conj() * 2)
    # complex64 data needs 4-byte alignment only, as numpy's
    raw = np.arange(9, dtype=np.float32)[1:].view(np.complex64)
    with nep50():
        assert same(mod.native.parts(raw), mod.python.parts(raw))
    # the buffer protocol's "Zf" (a memoryview) is accepted
    view = memoryview(GRID[:12])
    assert view.format == "Zf"
    with nep50():
        assert same(mod.native.functions(view), mod.python.functions(GRID[:12]))


def test_c_abi_passes_float_complex_by_value(mod, tmp_path):
    """A C program compiled against the header calls the library: complex64
    parameters and results are C's `float _Complex` values (one SSE
    register each way), complex64 arrays `kiln_c64_1d` views."""
    with open(mod.path("complex64.h")) as header:
        text = header.read()
    assert "float _Complex complex64_scalar_quotient(float _Complex a, float _Complex b, " \
           "kiln_error *error);" in text
    with open(mod.path("complex64.pyi")) as stub:
        assert "def parts(z: numpy.typing.NDArray[numpy.complex64])" in stub.read()
    program = tmp_path / "main.c"
    program.write_text("\n".join([
        "#include <complex.h>",
        "#include <stdio.h>",
        '#include "complex64.h"',
        "int main(void) {",
        "  kiln_error error = {0};",
        "  float _Complex q = complex64_scalar_quotient(1.0f + 2.0f * I, 3.0f - 4.0f * I,"
        " &error);",
        '  printf("%.9g %.9g %d\\n", crealf(q), cimagf(q), (int)error.kind);',
        "  complex64_scalar_quotient(1.0f, 0.0f, &error);",
        '  printf("%d %s\\n", (int)error.kind, error.message);',
        "  error = (kiln_error){0};   /* the header: zero it before each call */",
        "  float _Complex h = complex64_helper_call(2.0f + 1.0f * I, -1.0f * I, &error);",
        '  printf("%.9g %.9g\\n", crealf(h), cimagf(h));',
        "  return 0;",
        "}", ""]))
    executable = tmp_path / "main"
    subprocess.run(["/usr/lib/llvm-22/bin/clang", "-Wall", "-Wextra", "-Werror", str(program),
                    "-I", mod.outdir, "-L", mod.outdir, "-lcomplex64",
                    f"-Wl,-rpath,{mod.outdir}", "-o", str(executable)], check=True)
    lines = subprocess.run([str(executable)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    with nep50():
        q = mod.python.scalar_quotient(np.complex64(1 + 2j), np.complex64(3 - 4j))
        h = mod.python.helper_call(np.complex64(2 + 1j), np.complex64(-1j))
    assert lines[0] == f"{q.real:.9g} {q.imag:.9g} 0"
    assert lines[1].startswith("1 ") and "complex division by zero" in lines[1]
    assert lines[2] == f"{h.real:.9g} {h.imag:.9g}"
