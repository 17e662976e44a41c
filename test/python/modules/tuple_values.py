"""Chained assignment and tuples as values (issue 32, items 3 and 4)."""

import math

import numpy as np

import kiln


# ------------------------------------------------------ chained assignment
@kiln.export
def chained_numbers(x: float) -> float:
    a = b = x * 2.0
    i = j = k = int(x) + 1
    j += 1
    return a + b + i * 100 + j * 10 + k


@kiln.export
def chained_store_and_name(x: kiln.f64[:], z: float) -> float:
    x[0] = y = math.sqrt(z)
    x[-1] = x[0] + y
    return y


@kiln.export
def chained_correlation(data: kiln.f64[:, :], corr: kiln.f64[:, :]):
    for i in range(data.shape[1]):
        corr[i, i] = 1.0
        corr[i + 1:, i] = corr[i, i + 1:] = data[:, i] @ data[:, i + 1:]


@kiln.export
def chained_views_read_before_write(x: kiln.f64[:], y: kiln.f64[:]):
    # the value is computed once, before either store: x changes first
    x[1:] = y[:-1] = x[:-1] + 1.0


@kiln.export
def chained_new_array(n: int) -> kiln.f64[:]:
    a = b = np.zeros(n)
    b[:] = 3.0          # one array under two names
    a[0] = 1.0
    return b


@kiln.export
def chained_array_expression(x: kiln.f64[:]) -> kiln.f64[:]:
    a = b = x * 2.0
    b[0] = -1.0
    return a


@kiln.export
def chained_view_names(x: kiln.f64[:]) -> float:
    a = b = x[1:]
    b[0] = 7.0
    return a[0] + x[1]


@kiln.export
def chained_tuple(n: int) -> int:
    a = b = (n, 1)
    return a[0] * 10 + b[1]


@kiln.export
def chained_row_tuple(m: kiln.f64[:, :]):
    m[0] = m[-1] = 1.5, -2.5


# ------------------------------------------------------------ tuple values
@kiln.export
def shape_kept(x: kiln.f64[:, :]) -> kiln.f64[:, :, :]:
    new_shape = (x.shape[0], x.shape[1], 1)
    out = np.empty(new_shape, dtype=np.float64)
    out[:, :, 0] = x
    return out


@kiln.export
def shape_variable(x: kiln.f64[:, :]) -> float:
    s = x.shape
    a = np.ones(s)
    b = np.full(s, 2.0)
    z = np.zeros(s)
    return a.sum() + b.sum() + z.sum() + s[0] * 10 + s[-1]


@kiln.export
def shape_of_variable_sizes(n: int, m: int) -> float:
    s = (n, m)
    return np.zeros(s).sum() + len(s)


@kiln.export
def reshape_by_variable(x: kiln.f64[:, :], width: int) -> kiln.f64[:, :]:
    shape = (-1, width)
    return x.reshape(shape) * 1.0


@kiln.export
def tuple_elements(a: int, b: int) -> int:
    t = (a, b, a + b)
    return t[0] + t[-1] * 100 + t[1] * 10000 + len(t)


@kiln.export
def tuple_index_at_run_time(a: float, b: float, k: int) -> float:
    t = (a, b, 3.0)
    return t[k]


@kiln.export
def tuple_loop(a: float, b: float) -> float:
    total = 0.0
    for v in (a, b, 3.0):
        total = total * 2.0 + v
    return total


@kiln.export
def shape_loop(x: kiln.f64[:, :, :]) -> int:
    product = 1
    for n in x.shape:
        product = product * 3 + n
    return product


@kiln.export
def enumerate_tuple(a: int, b: int) -> int:
    s = 0
    for i, v in enumerate((a, b, 7)):
        s += (i + 1) * v
    return s


@kiln.export
def zip_tuple(x: kiln.f64[:]) -> float:
    s = 0.0
    for w, v in zip((0.5, 2.0, 4.0), x):
        s += w * v
    return s


def size_and_first(x: kiln.f64[:]):
    return x.shape[0], x[0]


@kiln.export
def helper_tuple_indexed(x: kiln.f64[:], k: int) -> float:
    return size_and_first(x)[1] + size_and_first(x)[0] * 100 + len(size_and_first(x))


def two_sizes(n: int):
    return n, n * 2


@kiln.export
def helper_tuple_run_time_index(n: int, k: int) -> int:
    return two_sizes(n)[k]


@kiln.export
def shape_equals(x: kiln.f64[:, :]) -> int:
    s = x.shape
    return (x.shape == (3, 4)) + 2 * (x.shape != (3, 4)) + 4 * (s == (0, 4)) + 8 * (s == (3, 4, 1))


@kiln.export
def tuple_rebound_in_order(n: int) -> int:
    t = (1, 2)
    t = (n, t[0])
    a, b = t
    return a * 10 + b


@kiln.export
def tuple_read_in_loops(x: kiln.f64[:, :]) -> float:
    s = x.shape
    total = 0.0
    for i in range(s[0]):
        for j in range(s[-1]):
            total += x[i, j] * (i + 1)
    return total
