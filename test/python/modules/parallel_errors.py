"""kiln.prange loops Kiln must refuse (each falls back with a message
naming the variable and its line), beside one it compiles."""
import numpy as np

import kiln


@kiln.export
def fine(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(x.shape[0]):
        s += x[i]
    return s


@kiln.export
def recurrence(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(x.shape[0]):
        s = s * 0.5 + x[i]
    return s


@kiln.export
def read_reduction(x: kiln.f64[:], out: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(x.shape[0]):
        s += x[i]
        out[i] = s
    return s


@kiln.export
def shifted(a: kiln.f64[:]) -> None:
    for i in kiln.prange(a.shape[0] - 1):
        a[i] = a[i + 1]


@kiln.export
def histogram(bins: kiln.i64[:], counts: kiln.i64[:]) -> None:
    for i in kiln.prange(bins.shape[0]):
        counts[bins[i]] += 1


@kiln.export
def leaves_early(x: kiln.f64[:]) -> int:
    for i in kiln.prange(x.shape[0]):
        if x[i] < 0.0:
            return i
    return -1


@kiln.export
def mixed_operators(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in kiln.prange(x.shape[0]):
        if x[i] > 0.0:
            s += x[i]
        else:
            s *= 2.0
    return s


@kiln.export
def reads_whole_array(out: kiln.f64[:]) -> None:
    for i in kiln.prange(len(out)):
        out[i] = np.sum(out) + out.shape[0]


@kiln.export
def float_max_second(x: kiln.f64[:]) -> float:
    m = -np.inf
    for i in kiln.prange(len(x)):
        m = max(x[i], m)
    return m
