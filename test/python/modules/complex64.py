"""numpy's complex64 (`kiln.c64`): test_complex64.py compares every function
with numpy on edge values, through views."""

import numpy as np

import kiln


@kiln.export
def scalar_ops(a: kiln.c64, b: kiln.c64):
    return a + b, a - b, a * b, -a, +a, a * 2.5, a + 1j, 0.1 - a


@kiln.export
def scalar_quotient(a: kiln.c64, b: kiln.c64) -> kiln.c64:
    return a / b


@kiln.export
def scalar_power(a: kiln.c64) -> kiln.c64:
    return a ** 3 + a ** -2 + a ** 0


@kiln.export
def scalar_powers(a: kiln.c64, w: kiln.c64):
    # numpy's scalar power is npy_cpowf, without the array operator's fast
    # paths: `a ** -1` is not np.reciprocal, `a ** 2` of -0.0 is 0
    return a ** -1, a ** 2, a ** 1, a ** 0.5, a ** w


@kiln.export
def scalar_parts(a: kiln.c64):
    return a.real, a.imag, abs(a), np.abs(a), a == 1j, a != a, np.isnan(a)


@kiln.export
def scalar_conjugate(a: kiln.c64) -> kiln.c64:
    return a.conjugate() + np.conj(a)


@kiln.export
def mixed_scalars(a: kiln.c64, x: kiln.f32, d: float, i: kiln.i32, h: kiln.i16):
    # complex64 with float32 and 16-bit ints stays complex64; with float64
    # and 32-bit ints it is complex128 (the tests check the results' values)
    return a * x, a * d, a + i, a + h, complex(a), kiln.c64(d), np.complex64(x)


@kiln.export
def casts(z: complex, a: kiln.c64) -> kiln.c64:
    return kiln.c64(z) + np.complex64(a * 2)


@kiln.export
def widened(a: kiln.c64, d: float) -> complex:
    return a * d


@kiln.export
def ops(z: kiln.c64[:], w: kiln.c64[:], x: kiln.f32[:]):
    return z + w, z - x, z * w, z / w, -z, x * 1j, z - 1.5, z * 0.1


@kiln.export
def wider(z: kiln.c64[:], x: kiln.f64[:], q: kiln.c128[:]):
    return z * x, z + q, z * 1e300


@kiln.export
def powers(z: kiln.c64[:]):
    return z ** 0, z ** 1, z ** 2, z ** 3, z ** 5, z ** -1, z ** -4


@kiln.export
def parts(z: kiln.c64[:]):
    return np.conj(z), z.real, z.imag, np.real(z), np.imag(z), np.isnan(z), np.isinf(z), \
        np.isfinite(z), z == 1j, z != z, np.abs(z)


@kiln.export
def functions(z: kiln.c64[:]):
    return np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.cos(z), np.tanh(z)


@kiln.export
def built(n: int) -> kiln.c64[:]:
    a = np.zeros(n, dtype=np.complex64)
    for i in range(n):
        a[i] = complex(i, -i)
    return a * 2


@kiln.export
def in_place(z: kiln.c64[:, :], w: kiln.c64[:]) -> None:
    z += w
    z *= 1j


@kiln.export
def element_loop(z: kiln.c64[:], out: kiln.f32[:]) -> kiln.c64:
    s = kiln.c64(0)
    for i in range(len(z)):
        out[i] = abs(z[i])
        z[i] = z[i] * z[i] + 1j
        s += z[i]
    return s


@kiln.export
def helper_call(z: kiln.c64, w: kiln.c64) -> kiln.c64:
    return scalar_quotient(z, w) + scalar_quotient(w, z)
