"""Numeric kernels of the example package, compiled by Kiln at build time."""
import numpy as np

import kiln


@kiln.export
def moving_average(x: kiln.f64[:], width: int = 3) -> kiln.f64[:]:
    """The mean of each window of `width` consecutive values."""
    sums = np.cumsum(x)
    out = np.empty(len(x) - width + 1)
    out[0] = sums[width - 1]
    out[1:] = sums[width:] - sums[:-width]
    return out / width


@kiln.export
def rms(x: kiln.f64[:]) -> float:
    return np.sqrt(np.mean(x * x))


@kiln.export(parallel=True)
def energy(x: kiln.f64[:]) -> float:
    """The sum of squares, shared out between the cores: the wheel carries
    the OpenMP runtime (libomp.so.5) this needs."""
    return np.sum(x * x)
