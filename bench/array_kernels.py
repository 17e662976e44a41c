"""Array-style kernels for bench/arrays.py: numpy's whole-array style, the
same source run by Kiln (kiln build), numpy (this file as plain Python) and
Numba (numba.njit of the plain functions)."""

import numpy as np

import kiln


@kiln.export
def fused(a: kiln.f64[:], b: kiln.f64[:], c: kiln.f64[:], d: kiln.f64[:]):
    """The issue's chain: numpy makes a temporary per operator."""
    return a * b + np.sqrt(c) - d / 2


@kiln.export
def fused_into(out: kiln.f64[:], a: kiln.f64[:], b: kiln.f64[:], c: kiln.f64[:],
               d: kiln.f64[:]):
    """The same chain written into an existing array: no allocation at all."""
    out[:] = a * b + np.sqrt(c) - d / 2


@kiln.export
def triad(out: kiln.f64[:], b: kiln.f64[:], c: kiln.f64[:], s: float):
    """STREAM's triad, in numpy's spelling."""
    out[:] = b + s * c


@kiln.export
def sum_axis0(m: kiln.f64[:, :]):
    return np.sum(m, axis=0)


@kiln.export
def sum_axis1(m: kiln.f64[:, :]):
    return np.sum(m, axis=1)


@kiln.export
def max_axis0(m: kiln.f64[:, :]):
    return m.max(axis=0)


@kiln.export
def max_axis1(m: kiln.f64[:, :]):
    return m.max(axis=1)
