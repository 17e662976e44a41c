"""Matrix products (test_matmul.py): kiln-tile-matmul's blocked vector
kernel for 2-D float matrices with contiguous rows, the loops otherwise."""
import numpy as np

import kiln


@kiln.export
def product(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return a @ b


@kiln.export
def product32(a: kiln.f32[:, :], b: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return a @ b


@kiln.export
def dot_function(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return np.dot(a, b)


@kiln.export
def product_into(a: kiln.f64[:, :], b: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    out[:, :] = a @ b


@kiln.export
def square_in_place(a: kiln.f64[:, :]) -> None:
    a[:, :] = a @ a


@kiln.export
def layer(x: kiln.f64[:, :], w: kiln.f64[:, :], bias: kiln.f64[:]) -> kiln.f64[:, :]:
    return np.maximum(x @ w + bias, 0.0)


@kiln.export
def chain(a: kiln.f64[:, :], b: kiln.f64[:, :], c: kiln.f64[:, :], alpha: float,
          beta: float) -> kiln.f64[:, :]:
    return alpha * a @ (b @ c) + beta * c


@kiln.export
def products_in_a_loop(a: kiln.f64[:, :], steps: int) -> kiln.f64[:, :]:
    x = a.copy()
    for _ in range(steps):
        x = x @ a * 0.5
    return x
