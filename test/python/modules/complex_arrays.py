"""Complex arrays (`kiln.c128[:]`): test_complex_arrays.py compares every
function with numpy on edge values, through views."""

import numpy as np

import kiln


@kiln.export
def ops(z: kiln.c128[:], w: kiln.c128[:], x: kiln.f64[:]):
    return z + w, z - x, z / w, -z, +z, x + 2j, z - 1.5


@kiln.export
def products(z: kiln.c128[:], w: kiln.c128[:], x: kiln.f64[:]):
    return z * w, z * 1j, x * z


@kiln.export
def powers(z: kiln.c128[:]):
    return z ** 0, z ** 1, z ** 2, z ** 3, z ** 5, z ** -1, z ** -4


@kiln.export
def powers_of(z: kiln.c128[:], w: kiln.c128[:], e: float, c: complex):
    # exponents known at run time: numpy's fast paths for `array ** real`
    # (e = 1, -1, 0, 0.5, 2), npy_cpow otherwise and for np.power
    return z ** e, np.power(z, e), z ** c, z ** w, z ** 0.5, np.power(z, 2), z ** (1 + 0j)


@kiln.export
def power_in_place(z: kiln.c128[:], e: float) -> None:
    z **= e


@kiln.export
def powers_of_complex64(z: kiln.c64[:], w: kiln.c64[:]):
    return z ** w, z ** 0.5


@kiln.export
def parts(z: kiln.c128[:]):
    return np.conj(z), z.real, z.imag, np.real(z), np.imag(z), np.isnan(z), np.isinf(z), \
        np.isfinite(z), z == 1j, z != z, np.equal(z, 2.0), np.not_equal(z, z)


@kiln.export
def magnitude(z: kiln.c128[:]) -> kiln.f64[:]:
    return np.abs(z)


@kiln.export
def built(n: int) -> kiln.c128[:]:
    a = np.zeros(n, dtype=np.complex128)
    for i in range(n):
        a[i] = complex(i, -i)
    return a * 2


@kiln.export
def shifted_store(z: kiln.c128[:], x: kiln.f64[:]) -> None:
    z[1:] = z[:-1] * 2 + x[1:]


@kiln.export
def in_place(z: kiln.c128[:, :], w: kiln.c128[:]) -> None:
    z += w
    z *= 1j


@kiln.export
def masked(z: kiln.c128[:], limit: float) -> kiln.c128[:]:
    inside = np.less(np.abs(z), limit)
    z[inside] = z[inside] ** 2 + 1j
    return z[~inside]


@kiln.export
def element_loop(z: kiln.c128[:], out: kiln.f64[:]) -> complex:
    s = 0j
    for i in range(len(z)):
        out[i] = abs(z[i])
        z[i] = z[i] * z[i] + 1j
        s += z[i]
    return s


@kiln.export
def mandelbrot(xmin: float, xmax: float, ymin: float, ymax: float, xn: float, yn: float,
               maxiter: int, horizon: float):
    X = np.linspace(xmin, xmax, int(xn))
    Y = np.linspace(ymin, ymax, int(yn))
    C = X + Y[:, None] * 1j
    N = np.zeros(C.shape, dtype=np.int64)
    Z = np.zeros(C.shape, np.complex128)
    for n in range(maxiter):
        inside = np.less(np.abs(Z), horizon)
        N[inside] = n
        Z[inside] = Z[inside] ** 2 + C[inside]
    N[N == maxiter - 1] = 0
    return Z, N


@kiln.export
def functions(z: kiln.c128[:]):
    return np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.cos(z), np.tan(z), np.sinh(z), \
        np.cosh(z), np.tanh(z), np.arcsin(z), np.arccos(z), np.arctan(z)


@kiln.export
def parts_of_real_values(x: kiln.f64[:], m: kiln.i32[:, :], s: float, n: int):
    # numpy: a real array's .real is itself (a view), .imag zeros of its dtype
    y = x.real
    y[0] = 7.0
    return x.real * 2, x.imag, m.real + 1, m.imag, (x + 1).real, s.real + s.imag, \
        n.imag + n.real * 2


@kiln.export
def complex_sums(z: kiln.c128[:, :], w: kiln.c64[:, :]):
    """np.sum of complex arrays: whole, along each axis, keepdims."""
    return np.sum(z), z.sum(axis=0), np.sum(z, axis=1), np.sum(w, axis=-1, keepdims=True), \
        w.sum()


@kiln.export
def complex_loop_sum(z: kiln.c128[:]) -> complex:
    s = 0j
    for v in z:
        s += v
    return s


@kiln.export
def reshaped(z: kiln.c128[:]):
    # views and copies of complex elements (numpy's reshape rules)
    m = z.reshape(-1, 1)
    return np.ravel(m.T) * 1, np.flip(z) + 0, z[::-1].reshape(1, -1) * 1, np.fliplr(m.T) * 1
