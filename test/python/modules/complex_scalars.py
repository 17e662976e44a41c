"""Complex scalars (`complex`, `kiln.c128`): test_complex_scalars.py runs
every function compiled and under CPython on edge values."""

import cmath

import numpy as np

import kiln


@kiln.export
def add(a: complex, b: complex) -> complex:
    return a + b


@kiln.export
def mul(a: complex, b: complex) -> complex:
    return a * b


@kiln.export
def div(a: complex, b: complex) -> complex:
    return a / b


@kiln.export
def mixed(a: complex, x: float, n: int) -> complex:
    return (a + x) * n - 2j


@kiln.export
def parts(a: complex) -> float:
    return a.real * 10 + a.imag


@kiln.export
def conj(a: complex) -> complex:
    return a.conjugate() + np.conj(a)


@kiln.export
def magnitude(a: complex) -> float:
    return abs(a)


@kiln.export
def np_magnitude(a: complex) -> float:
    return np.abs(a)


@kiln.export
def square(a: complex) -> complex:
    return a ** 2


@kiln.export
def inverse_cube(a: complex) -> complex:
    return a ** -3


@kiln.export
def equal(a: complex, b: complex) -> bool:
    return a == b


@kiln.export
def equal_int(a: complex, n: int) -> bool:
    return a == n


@kiln.export
def truth(a: complex) -> bool:
    return bool(a) and not (a != 1)


@kiln.export
def make(x: float, y: float) -> complex:
    return complex(x, y) + complex(x)


@kiln.export
def mandel(c: complex, limit: int) -> int:
    z = 0j
    for n in range(limit):
        if abs(z) > 2.0:
            return n
        z = z * z + c
    return limit


@kiln.export
def horner(z: complex, coefficients: kiln.f64[:]) -> complex:
    acc = 0j
    for i in range(len(coefficients)):
        acc = acc * z + coefficients[i]
    return acc


def rotate(z: complex, k: int) -> complex:
    for _ in range(k):
        z = z * 1j
    return z


@kiln.export
def use_helper(z: complex, k: int) -> complex:
    return rotate(z, k) + rotate(z, 1)


@kiln.export
def branchy(z: complex, x: float) -> complex:
    if x > 0:
        w = z * x
    else:
        w = z / x
    return w


@kiln.export
def loop_abs(z: complex, x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = abs(z * x[i])


@kiln.export
def loop_real(z: complex, x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = (z * x[i] + 1).real


@kiln.export
def while_loop(z: complex) -> int:
    n = 0
    while abs(z) < 1e6 and n < 1000:
        z = z * z + 1j
        n += 1
    return n


@kiln.export
def sum_roots(n: int) -> complex:
    acc = 0
    w = complex(0.5, 0.8660254037844386)
    p = 1 + 0j
    for _ in range(n):
        acc += p
        p *= w
    return acc


@kiln.export
def typed_c128(z: kiln.c128, x: kiln.f32) -> kiln.c128:
    return z * x - z.real


@kiln.export
def power_edges(z: complex) -> complex:
    return z ** 0 + z ** 1 + z ** 5 + z ** -1 + z ** 2.0


@kiln.export
def general_power(z: complex, w: complex) -> complex:
    return z ** w


@kiln.export
def int_power(z: complex, n: int) -> complex:
    return z ** n


@kiln.export
def real_base_power(x: float, w: complex) -> complex:
    return x ** w + x ** (w * 0.5)


@kiln.export
def weak_parts(x: kiln.f32) -> float:
    # Parts and abs() of a Python complex are Python floats (weak, NEP 50):
    # the arithmetic with a float32 stays float32.
    return (2j).imag * x / 3 + abs(3 + 4j) * x


@kiln.export
def typed_parts(z: complex, x: kiln.f32) -> float:
    return z.imag * x / 3


@kiln.export
def numpy_functions(z: complex) -> complex:
    # numpy (and Kiln) call glibc's cexp, clog, csqrt, ...
    return np.exp(z) + np.log(z) * 2 + np.sqrt(z) * 3 + np.sin(z) * 4 + np.arctan(z) * 5


# cmath, as CPython computes it (special values, errors)
@kiln.export
def cmath_exp(z: complex) -> complex:
    return cmath.exp(z)


@kiln.export
def cmath_phase(z: complex) -> float:
    return cmath.phase(z)


@kiln.export
def cmath_polar(z: complex) -> float:
    r, phi = cmath.polar(z)
    return r * 3 + phi + cmath.polar(z)[1]


@kiln.export
def cmath_predicates(z: complex) -> int:
    return cmath.isnan(z) + 2 * cmath.isinf(z) + 4 * cmath.isfinite(z)


@kiln.export
def cmath_exp_of_real(x: float) -> complex:
    return cmath.exp(x)


@kiln.export
def casts(x: float, n: int, f: kiln.f32, z: complex) -> complex:
    return np.complex128(x) + kiln.c128(n) * np.complex128(f) - np.complex128(z) * 2j


@kiln.export
def cmath_sqrt(z: complex) -> complex:
    return cmath.sqrt(z)


@kiln.export
def cmath_log(z: complex) -> complex:
    return cmath.log(z)


# The rest of cmath: one function per name, so that the exceptions of each
# are compared
@kiln.export
def cmath_cos(z: complex) -> complex:
    return cmath.cos(z)


@kiln.export
def cmath_sin(z: complex) -> complex:
    return cmath.sin(z)


@kiln.export
def cmath_tan(z: complex) -> complex:
    return cmath.tan(z)


@kiln.export
def cmath_cosh(z: complex) -> complex:
    return cmath.cosh(z)


@kiln.export
def cmath_sinh(z: complex) -> complex:
    return cmath.sinh(z)


@kiln.export
def cmath_tanh(z: complex) -> complex:
    return cmath.tanh(z)


@kiln.export
def cmath_acos(z: complex) -> complex:
    return cmath.acos(z)


@kiln.export
def cmath_asin(z: complex) -> complex:
    return cmath.asin(z)


@kiln.export
def cmath_atan(z: complex) -> complex:
    return cmath.atan(z)


@kiln.export
def cmath_acosh(z: complex) -> complex:
    return cmath.acosh(z)


@kiln.export
def cmath_asinh(z: complex) -> complex:
    return cmath.asinh(z)


@kiln.export
def cmath_atanh(z: complex) -> complex:
    return cmath.atanh(z)


@kiln.export
def cmath_log10(z: complex) -> complex:
    return cmath.log10(z)


@kiln.export
def cmath_log_base(z: complex, base: complex) -> complex:
    return cmath.log(z, base)


@kiln.export
def cmath_rect(r: float, phi: float) -> complex:
    return cmath.rect(r, phi)


@kiln.export
def cmath_isclose(a: complex, b: complex, rel: float, tol: float) -> int:
    return cmath.isclose(a, b) + 2 * cmath.isclose(a, b, abs_tol=tol) + \
        4 * cmath.isclose(a, b, rel_tol=rel, abs_tol=tol)
