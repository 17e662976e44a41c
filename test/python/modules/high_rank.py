"""Arrays of 5 to 8 dimensions (numpy's own limit is 32; Kiln's is 8)."""
import numpy as np

import kiln


@kiln.export
def elementwise_5d(a: kiln.f64[:, :, :, :, :], b: kiln.f64[:, :, :, :, :], s: float):
    return np.sqrt(np.abs(a)) * s - b / 2.0


@kiln.export
def broadcast_8d(a: kiln.f64[:, :, :, :, :, :, :, :], row: kiln.f64[:]):
    return a + row


@kiln.export
def reductions_6d(a: kiln.i32[:, :, :, :, :, :]):
    return (np.sum(a, axis=2), a.max(axis=-1), np.sum(a), np.cumsum(a, axis=3),
            np.mean(a, axis=0, keepdims=True))


@kiln.export
def shapes_7d(x: kiln.f64[:]):
    n = x.size
    seven = (x * 2.0).reshape(1, 2, 1, n // 4, 1, 2, 1)
    return (seven.copy(), seven.transpose().copy(), np.flip(seven, axis=3), seven.ravel().copy(),
            seven.ndim, seven.shape[3])


@kiln.export
def slices_and_stores_8d(a: kiln.f64[:, :, :, :, :, :, :, :], v: float):
    a[:, 0, :, :, :, :, :, ::-1] = v
    a[1:, :, :, :, :, :, :, :1] += a[:-1, :, :, :, :, :, :, 1:2]
    return a[0, 0, 0].copy(), a.ndim, a.shape[7]


@kiln.export
def loops_5d(a: kiln.i64[:, :, :, :, :]) -> int:
    total = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[4]):
            total += a[i, 0, a.shape[2] - 1, 0, j] * (i + 1)
    return total


@kiln.export
def ellipses(a: kiln.f64[:, :, :, :, :], v: float):
    """`...` stands for as many full slices as the other parts leave."""
    a[..., 0] = v
    a[1:, ...] += 1.0
    a[..., ::-1, 1:] *= 2.0
    return a[..., 0].sum() + a[0, ..., 1].max() + a[..., None, :].sum(axis=-1).sum()
