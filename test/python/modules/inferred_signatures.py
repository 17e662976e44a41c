"""Parameters without annotations (docs/language.md "Types"): an exported
function's from its `#pythran export` comment, a helper's from its first
call; and the numpy forms the corpus ports that need them use: abs() of
an array, np.sum of a complex array, `.shape[-1]`."""
import numpy as np

import kiln


#pythran export weighted(float64[], float64[][], int)
@kiln.export
def weighted(x, m, k):
    return (x * k).sum() + m.shape[-1] * m[0, -1]


#pythran export partly(float32[], float)
@kiln.export
def partly(x: kiln.f64[:], scale):
    """An annotation wins over the comment (x is float64 here)."""
    return x * scale


#pythran export complex_total(complex128[][])
#pythran export complex_total(complex64[][])
@kiln.export
def complex_total(z):
    """The first of several comments (Pythran's overloads) is the one."""
    return np.sum(z * 2.0) + z.sum()


def scaled(values, factor):
    return values * factor


def clipped_norm(v, limit):
    s = np.sum(abs(v) ** 2)
    return min(s, limit)


@kiln.export
def through_helpers(x: kiln.f64[:], limit: float) -> float:
    y = scaled(x, 3)
    return clipped_norm(y, limit) + clipped_norm(x, 1e300)


@kiln.export
def nearest_symbols(e: kiln.c128[:], symbols: kiln.c128[:]) -> kiln.c128[:]:
    out = np.zeros(len(e), dtype=e.dtype)
    for i in range(len(e)):
        out[i] = symbols[np.argmin(abs(e[i] - symbols) ** 2)]
    return out


@kiln.export
def damped(x: kiln.f64[:], alpha: float = 0.5, steps: int = 3, flip=False) -> float:
    """Defaults: annotated, and one typed by its literal (flip: bool)."""
    s = 0.0
    for _ in range(steps):
        s = s * alpha + x.sum()
    return -s if flip else s


def times(v: float, k=2) -> float:
    return v * k


@kiln.export
def helper_defaults(v: float) -> float:
    return times(v) + times(v, 3) + times(k=-1, v=v)


@kiln.export
def complex_default(z: complex = 1 - 2j, n: int = -7, scale=2.5e-3) -> complex:
    return z * n * scale


@kiln.export
def converted_defaults(x: float, flag: bool = 0, y: float = 1, n: kiln.u8 = 7) -> float:
    """Defaults written as another kind of number: as the parameter's type."""
    return x + y + n if flag else x - y
