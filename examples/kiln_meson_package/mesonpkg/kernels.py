"""Numeric kernels of the example package, compiled by Kiln at build time."""
import numpy as np

import kiln


@kiln.export
def smooth(x: kiln.f64[:], alpha: float = 0.5) -> kiln.f64[:]:
    """Exponential smoothing: y[0] = x[0], y[i] = alpha x[i] + (1 - alpha) y[i-1]."""
    y = np.empty_like(x)
    if len(x):
        y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = alpha * x[i] + (1 - alpha) * y[i - 1]
    return y


@kiln.export
def total(x: kiln.f64[:]) -> float:
    return np.sum(x * x)
