"""Whole-array reductions of one array in one statement, computed in one
pass over it (reductions.py: fuse_statement_reductions), and the statements
where they must not be (a call between them may change the array)."""
import numpy as np

import kiln


@kiln.export
def spread(x: kiln.f64[:]) -> float:
    return np.max(x) - np.min(x) + x.mean()


@kiln.export(parallel=True)
def spread_parallel(x: kiln.f64[:]) -> float:
    return np.max(x) - np.min(x) + x.mean()


@kiln.export
def int_summary(v: kiln.i32[:], w: kiln.i32[:]) -> tuple[int, int, bool, bool, float]:
    s = np.sum(v) + np.sum(w) * v.max()
    return (s, np.amin(v), bool(np.any(v)), bool(v.all()), np.average(v) + v.mean())


@kiln.export
def guarded(x: kiln.f64[:]) -> float:
    total = 0.0
    total += (np.max(x) if len(x) > 0 else 0.0) + np.sum(x) * np.prod(x)
    return total


def scale_in_place(x: kiln.f64[:], factor: float) -> float:
    for i in range(len(x)):
        x[i] *= factor
    return 0.0


@kiln.export
def write_between(x: kiln.f64[:]) -> float:
    return np.max(x) + scale_in_place(x, -2.0) + np.max(x)


@kiln.export
def method_write_between(x: kiln.f64[:]) -> float:
    return np.sum(x) + float(np.sort(x)[0]) + np.sum(x)
