"""The shared reference kernels of the peer benchmark, written once as Kiln
Python. `bench/run.py` compiles this file with `kiln build` and times it
beside CPython, numpy, Numba, Pythran, Cython and C running the same
algorithms.

Kiln cannot return arrays yet, so every kernel that produces an array
writes into an output argument, as the C references do. The arithmetic and
its order are the reference's: Kiln keeps float operations in source order,
so its results match CPython's bit for bit."""

import math

import kiln


@kiln.export
def add(a: float, b: float) -> float:
    return a + b


@kiln.export
def add1(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    return x[0] + y[0]


@kiln.export
def saxpy_f64(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]


@kiln.export
def saxpy_f32(a: kiln.f32, x: kiln.f32[:], y: kiln.f32[:], out: kiln.f32[:]) -> None:
    for i in range(len(x)):
        out[i] = a * x[i] + y[i]


@kiln.export
def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i] * y[i]
    return total


@kiln.export
def sum_f64(x: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i]
    return total


@kiln.export
def sum_i64(x: kiln.i64[:]) -> int:
    total = 0
    for i in range(len(x)):
        total += x[i]
    return total


@kiln.export
def l2norm(x: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i] * x[i]
    return math.sqrt(total)


@kiln.export
def expsqrt(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = math.exp(-x[i]) * math.sqrt(x[i])


@kiln.export
def clip(x: kiln.f64[:], low: float, high: float, out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        value = x[i]
        if value < low:
            value = low
        elif value > high:
            value = high
        out[i] = value


@kiln.export
def stencil1d(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    n = len(x)
    out[0] = x[0]
    out[n - 1] = x[n - 1]
    for i in range(1, n - 1):
        out[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1]


@kiln.export
def prefix_sum(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    total = 0.0
    for i in range(len(x)):
        total += x[i]
        out[i] = total


@kiln.export
def histogram(x: kiln.f64[:], nbins: int, counts: kiln.i64[:]) -> None:
    for b in range(nbins):
        counts[b] = 0
    for i in range(len(x)):
        b = int(x[i] * nbins)
        if b < 0:
            b = 0
        elif b >= nbins:
            b = nbins - 1
        counts[b] += 1


@kiln.export
def jacobi2d(u: kiln.f64[:, :], out: kiln.f64[:, :]) -> None:
    # One sweep over the interior; the boundary of `out` is left as it is.
    n = u.shape[0]
    m = u.shape[1]
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


@kiln.export
def matmul(a: kiln.f64[:, :], b: kiln.f64[:, :], c: kiln.f64[:, :]) -> None:
    # The reference's naive i-k-j order: the inner loop streams rows of b and c.
    n = a.shape[0]
    m = a.shape[1]
    p = b.shape[1]
    for i in range(n):
        for j in range(p):
            c[i, j] = 0.0
        for k in range(m):
            a_ik = a[i, k]
            for j in range(p):
                c[i, j] += a_ik * b[k, j]


@kiln.export
def mandelbrot(xmin: float, xmax: float, ymin: float, ymax: float, maxiter: int,
               out: kiln.i64[:, :]) -> None:
    height = out.shape[0]
    width = out.shape[1]
    dx = (xmax - xmin) / width
    dy = (ymax - ymin) / height
    for i in range(height):
        cy = ymin + i * dy
        for j in range(width):
            cx = xmin + j * dx
            zr = 0.0
            zi = 0.0
            count = maxiter
            for n in range(maxiter):
                zr2 = zr * zr
                zi2 = zi * zi
                if zr2 + zi2 > 4.0:
                    count = n
                    break
                zi = 2.0 * zr * zi + cy
                zr = zr2 - zi2 + cx
            out[i, j] = count


@kiln.export
def pairwise(points: kiln.f64[:, :], distances: kiln.f64[:, :]) -> None:
    m = points.shape[0]
    d = points.shape[1]
    for i in range(m):
        for j in range(m):
            total = 0.0
            for k in range(d):
                t = points[i, k] - points[j, k]
                total += t * t
            distances[i, j] = math.sqrt(total)


@kiln.vectorize
def logistic(v: float, k: float) -> float:
    # A function of numbers: @kiln.vectorize also makes it take arrays, one
    # native call per array instead of one per element (the batching table).
    return 1.0 / (1.0 + math.exp(-k * v))
