"""Complex scalars (`complex`, `kiln.c128`; docs/language.md "Complex
numbers"): every function of modules/complex_scalars.py compiled and run by
CPython on a grid of edge parts (signed zeros, huge, tiny, inf, NaN), the
results compared part by part, bit for bit (NaNs as NaN), exceptions by
type and message; the wrapper's argument checks; the C header and stub; and
the constructs Kiln refuses, each with its reason."""

import math
import os
import re
import struct

import numpy as np
import pytest

from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

INF, NAN = math.inf, math.nan
PARTS = [0.0, -0.0, 1.0, -2.5, 3.0, 1e308, -1e-310, INF, -INF, NAN]
VALUES = [complex(a, b) for a in PARTS for b in PARTS]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("complex_scalars")


def part(x):
    return "nan" if math.isnan(x) else struct.pack("<d", x)


def outcome(function, args):
    try:
        with np.errstate(all="ignore"):
            result = function(*args)
    except Exception as error:  # noqa: BLE001 - type and message are compared
        return "error", type(error).__name__, re.sub(r" \([^()]*, line \d+\)$", "", str(error))
    if isinstance(result, complex):
        return "complex", part(result.real), part(result.imag)
    if isinstance(result, float):
        return "float", part(result)
    return type(result).__name__, result


def same(mod, name, *args):
    native = outcome(getattr(mod.native, name), args)
    python = outcome(getattr(mod.python, name), args)
    assert native == python, (name, args, native, python)


@pytest.mark.parametrize("name", ["parts", "conj", "magnitude", "square", "inverse_cube",
                                  "truth", "power_edges", "numpy_functions"])
def test_unary_functions_on_edge_values(mod, name):
    for z in VALUES:
        same(mod, name, z)


CMATH_OF_ONE = ["cmath_exp", "cmath_sqrt", "cmath_log", "cmath_phase", "cmath_polar",
                "cmath_predicates", "cmath_cos", "cmath_sin", "cmath_tan", "cmath_cosh",
                "cmath_sinh", "cmath_tanh", "cmath_acos", "cmath_asin", "cmath_atan",
                "cmath_acosh", "cmath_asinh", "cmath_atanh", "cmath_log10"]
# where CPython's formulas change: CM_LOG_LARGE_DOUBLE (708.4), atanh's
# CM_SQRT_LARGE_DOUBLE (6.7e153) and 1 +- i tiny, CM_LARGE_DOUBLE (4.5e307)
THRESHOLDS = [complex(a, b) for a in (708.3, 708.5, -709.9, 1.0, -1.0, 6.7e153, 6.8e153,
                                      4.4e307, 4.6e307)
              for b in (0.0, -1e-160, 1e-300, 1.5, -6.8e153, 4.6e307)]


@pytest.mark.parametrize("name", CMATH_OF_ONE)
def test_cmath_on_edge_values(mod, name):
    import random
    rng = random.Random(3)
    huge = [complex(10 ** rng.uniform(-320, 308) * rng.choice([-1, 1]),
                    10 ** rng.uniform(-320, 308) * rng.choice([-1, 1])) for _ in range(400)]
    near = [complex(rng.uniform(-750, 750), rng.uniform(-1e3, 1e3)) for _ in range(400)]
    extra = [complex(a, b) for a in (708.3, 708.5, 709.9, 710.0, -800.0, 1e308)
             for b in (-1e-320, 1e-300, 1.5, 1e308)]
    for z in VALUES + huge + near + extra + THRESHOLDS:
        same(mod, name, z)
    for z in [1j, -1j, 1, -1, complex(1, -0.0), complex(-1, 0.0)]:
        same(mod, name, z)     # atanh's and atan's ValueError


def test_cmath_of_two_arguments(mod):
    for z in VALUES[::3] + THRESHOLDS[::4]:
        for base in VALUES[::7] + [1, 2, 0j, 1e-320]:
            same(mod, "cmath_log_base", z, base)
    for r in PARTS + [1e300]:
        for phi in PARTS + [-0.0, 1e300, 3.0e-320]:
            same(mod, "cmath_rect", r, phi)
    for z in VALUES[::4]:
        for w in (z, z + 1e-12, z * (1 + 1e-10), 0j, complex(INF, 0)):
            for rel, tol in ((1e-9, 0.0), (0.0, 1e-3), (-1.0, 0.0), (1e-9, -1.0), (NAN, 0.0),
                             (1e-9, NAN)):
                same(mod, "cmath_isclose", z, w, rel, tol)


def test_casts_to_complex(mod):
    for z in VALUES[::3]:
        for x, n in ((1.5, 3), (-0.0, -7), (math.inf, 2**62)):
            same(mod, "casts", x, n, np.float32(0.1), z)


def test_cmath_of_a_real_number(mod):
    for x in PARTS + [710.0, -745.5]:
        same(mod, "cmath_exp_of_real", x)


@pytest.mark.parametrize("name", ["add", "mul", "div", "equal"])
def test_binary_operators_on_edge_values(mod, name):
    for z in VALUES:
        for w in VALUES[::3]:
            same(mod, name, z, w)


EXPONENTS = [0j, -0.0 + 0j, 1 + 0j, 2 + 0j, -1 + 0j, -2 + 0j, 0.5 + 0j, 3 + 1j, -0.5 - 2j,
             100 + 0j, 101 + 0j, -100 + 0j, 99.5 + 0j, 1e10 + 0j, 1j, complex(0, math.inf),
             complex(math.nan, 0), complex(math.inf, 0), complex(-math.inf, 0),
             complex(2, math.nan)]


def test_power_with_an_exponent_known_at_run_time(mod):
    """CPython's complex_pow: c_powi for small whole exponents, the polar
    form otherwise; ZeroDivisionError for 0 to a negative or complex power
    and for an infinite phase (libm's EDOM), OverflowError for an infinite
    part."""
    for z in VALUES:
        for w in EXPONENTS:
            same(mod, "general_power", z, w)
        for n in (0, 1, -1, 5, -7, 100, -100, 101, 2**40, -2**63):
            same(mod, "int_power", z, n)
    for x in (0.0, -0.0, 2.0, -3.0, 1e300, math.inf, math.nan):
        for w in EXPONENTS:
            same(mod, "real_base_power", x, w)


def test_mixed_operands_and_exact_int_comparison(mod):
    for z in VALUES[::2] + [complex(2**53, 0), complex(2**53 + 2, 0)]:
        for n in (0, 2, -3, 2**53 + 1, 2**63 - 1):
            same(mod, "equal_int", z, n)
            same(mod, "mixed", z, 1.5, n)
        same(mod, "typed_c128", z, np.float32(0.1))
    for x in PARTS:
        for y in PARTS:
            same(mod, "make", x, y)


def test_control_flow_helpers_and_loops(mod):
    for c in (0j, 0.3 + 0.5j, -2 + 0j, 1 + 1j, complex(NAN, 0), -0.75 + 0.1j):
        same(mod, "mandel", c, 100)
        same(mod, "horner", c, np.array([1.0, -2.0, 3.5, 0.25]))
        same(mod, "while_loop", c)
        same(mod, "branchy", c, 2.0)
        same(mod, "branchy", c, -0.0)
    for k in (0, 1, 3, 8):
        same(mod, "use_helper", 1.5 - 2j, k)
        if k:      # with no iteration CPython returns the int 0, Kiln the annotated 0j
            same(mod, "sum_roots", k)
    for n in (0, 1, 7, 8, 9, 33):
        x = np.linspace(-3.0, 3.0, n)
        for name in ("loop_abs", "loop_real"):
            native, python = np.full(n, -1.0), np.full(n, -1.0)
            getattr(mod.native, name)(1 + 2j, x, native)
            getattr(mod.python, name)(1 + 2j, x, python)
            assert np.array_equal(native, python), (name, n)


def test_np_abs_is_glibc_hypot_without_overflow_error(mod):
    # numpy's own complex absolute (an AVX-512 loop) may differ from glibc's
    # hypot in the last bit; Kiln's np.abs and abs() are glibc's, as
    # CPython's abs() is (docs/language.md).
    import ctypes
    import ctypes.util
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.hypot.restype = ctypes.c_double
    libm.hypot.argtypes = [ctypes.c_double, ctypes.c_double]
    for z in VALUES:
        expected = libm.hypot(z.real, z.imag)
        got = mod.native.np_magnitude(z)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), z
    with pytest.raises(OverflowError, match="absolute value too large"):
        mod.native.magnitude(complex(1.5e308, 1.5e308))


def test_arguments(mod):
    assert mod.native.add(1, 2.5) == 3.5 + 0j                   # ints and floats convert
    assert mod.native.add(np.complex128(1 + 1j), True) == 2 + 1j
    assert type(mod.native.add(1j, 1j)) is complex

    class HasComplex:
        def __complex__(self):
            return 2 - 1j

    assert mod.native.add(HasComplex(), 0) == 2 - 1j
    with pytest.raises(TypeError, match=r"add\(\) argument 'b' must be a complex"):
        mod.native.add(1j, "1j")
    with pytest.raises(TypeError, match=r"argument 'a' must be a complex"):
        mod.native.add(None, 1j)
    with pytest.raises(TypeError):
        mod.native.add(np.array([1j, 2j]), 1j)


def test_header_and_stub(mod):
    with open(mod.path("complex_scalars.h")) as header:
        text = header.read()
    # MLIR's C interface returns the complex struct through a pointer.
    assert "void complex_scalars_add(double _Complex *result, double _Complex a, " \
           "double _Complex b);" in text
    assert "double complex_scalars_parts(double _Complex a);" in text
    with open(mod.path("complex_scalars.pyi")) as stub:
        assert "def add(a: complex, b: complex) -> complex" in stub.read()


REFUSED = '''import cmath
import math
import numpy as np
import kiln


@kiln.export
def ordered(z: complex, w: complex) -> bool:
    return z < w


@kiln.export
def floor_divided(z: complex) -> complex:
    return z // 2


@kiln.export
def to_float(z: complex) -> float:
    return float(z)


@kiln.export
def square_root(z: complex) -> float:
    return math.sqrt(z)


@kiln.export
def stored(z: complex, x: kiln.f64[:]) -> None:
    x[0] = z


@kiln.export
def array_sum(z: kiln.c128[:, :]) -> complex:
    return np.prod(z)


@kiln.export
def array_ordered(z: kiln.c128[:]) -> None:
    y = z < 1j


@kiln.export
def array_astype(z: kiln.c128[:]) -> None:
    y = z.astype(np.float64)


@kiln.export
def array_exp(z: kiln.c128[:]) -> None:
    y = np.log1p(z)




@kiln.export
def complex_into_real(z: kiln.c128[:], x: kiln.f64[:]) -> None:
    x[z == z] = z[z == z]


@kiln.export
def write_through_real(z: kiln.c128[:]) -> None:
    z.real[1:] += 1.0




@kiln.export
def smallest(z: complex, w: complex) -> complex:
    return min(z, w)


@kiln.export
def inverted(z: complex) -> complex:
    return ~z


@kiln.export
def numpy_exp(z: complex) -> complex:
    return np.exp2(z)


@kiln.export
def declared_float(z: complex) -> float:
    y: float = z
    return y


@kiln.vectorize
def elementwise(z: complex) -> float:
    return abs(z)
'''

REASONS = {
    "ordered": "complex numbers are not ordered: only == and != compare them",
    "floor_divided": "operator `//` is not defined for complex numbers",
    "to_float": "float() does not take complex numbers",
    "square_root": "math.sqrt does not take complex numbers",
    "stored": "cannot convert complex to float",
    "array_sum": "np.prod of a complex array is not supported yet (np.sum is)",
    "array_ordered": "complex arrays compare only with == and !=",
    "array_astype": "`.astype()` to or from complex is not supported yet",
    "array_exp": "np.log1p of complex arrays is not supported yet",
    "complex_into_real": "storing a complex array into a real array is not supported",
    "write_through_real": "writing through `.real` is not supported yet",
    "smallest": "min() does not take complex numbers",
    "inverted": "operator `~` needs an int operand",
    "numpy_exp": "np.exp2 of complex numbers is not supported yet",
    "declared_float": "variable `y` is declared float but is assigned a complex",
    "elementwise": "complex arrays are not supported yet",
}


def test_refused_constructs_name_the_reason(tmp_path):
    path = tmp_path / "refused.py"
    path.write_text(REFUSED)
    context = load_module(str(path))
    failures = infer_module(context).failures
    assert set(failures) == set(REASONS)
    for name, reason in REASONS.items():
        messages = [d.message for d in failures[name].diagnostics]
        assert any(reason in m for m in messages), (name, messages)
        assert all(d.line > 0 and d.column > 0 for d in failures[name].diagnostics)


@pytest.mark.parametrize("annotation, reason", [
    ("tuple[complex, float]", "complex numbers in tuples are not supported yet"),
])
def test_refused_annotations(tmp_path, annotation, reason):
    path = tmp_path / "annotations.py"
    # (an exported function's tuple parameter is one C parameter per
    # element, so a complex element is refused only where a tuple is a value)
    path.write_text(f"import kiln\n\n\n@kiln.export\ndef f(x: complex) -> {annotation}:\n"
                    "    return x, 1.0\n")
    context = load_module(str(path))
    failures = infer_module(context).failures
    messages = [d.message for f in failures.values() for d in f.diagnostics]
    assert any(reason in m for m in messages), messages


def test_parts_of_python_complex_literals_are_weak(mod):
    x = np.float32(0.1)
    assert mod.native.weak_parts(x) == float(np.float32(2.0) * x / np.float32(3)
                                             + np.float32(5.0) * x)
    # a typed complex's parts are float64
    assert mod.native.typed_parts(2j, x) == 2.0 * float(x) / 3


def test_source_runs_unchanged_under_cpython(mod):
    # The module imports and runs as plain Python (kiln.c128 converts).
    assert mod.python.typed_c128(1 + 1j, np.float32(2.0)) == 1 + 2j
    assert os.path.exists(mod.path("complex_scalars.h"))
