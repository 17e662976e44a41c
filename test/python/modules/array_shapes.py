"""numpy's shape and creation functions (issue 12): each compiled by Kiln
and run by CPython + numpy on the same inputs (test_array_shapes.py)."""

import numpy as np
from numpy import power, tanh, zeros

import kiln


# --------------------------------------------------------- tuples of arrays
@kiln.export
def several_results(a: kiln.f64[:], k: int):
    b = np.zeros(3)
    return a + 1, k, a * 2 > 3, b


@kiln.export
def chosen_results(a: kiln.f64[:], first: bool):
    b = a * 2
    c = a - 1
    if first:
        return b, c
    return c, b


# ---------------------------------------------------------------- views
@kiln.export
def reshape_and_write(x: kiln.f64[:, :], n: int, m: int):
    y = x.reshape(n, m)
    y[0, 0] = 99.0          # reaches x when numpy's reshape is a view
    return y.sum(), x.ravel().sum(), np.reshape(x, (m, -1)).sum()


@kiln.export
def reshape_shapes(x: kiln.f64[:], n: int):
    a = x.reshape(-1, n)
    b = np.reshape(x, (n, -1, 1))
    c = x.reshape(a.shape)
    return a.copy(), b.copy(), c.copy()


@kiln.export
def create_grid(x: kiln.f64[:]):
    # numpy-benchmarks' create_grid as written
    N = x.shape[0]
    z = np.zeros((N, N, 3))
    z[:, :, 0] = x.reshape(-1, 1)
    z[:, :, 1] = x
    fast_grid = z.reshape(N * N, 3)
    return fast_grid


@kiln.export
def flips(m: kiln.i32[:, :]):
    a = np.flip(m)
    b = np.flip(m, 0)
    c = np.flip(m, axis=-1)
    d = np.fliplr(m) + np.flipud(m)
    a[0, 0] = 7             # a view: writes m
    return b.copy(), c.copy(), d, np.transpose(m).copy(), m.transpose().copy()


# ------------------------------------------------------------ new arrays
def laplacian(grid: kiln.f64[:, :]):
    return np.roll(grid, +1, 0) + np.roll(grid, -1, 0) + np.roll(grid, +1, 1) + \
        np.roll(grid, -1, 1) - 4 * grid


@kiln.export
def evolve(grid: kiln.f64[:, :], dt: float, D: int):
    # numpy-benchmarks' evolve as written
    return grid + dt * D * laplacian(grid)


@kiln.export
def rolls(x: kiln.i64[:, :], shift: int):
    return np.roll(x, shift), np.roll(x, shift, 1), np.roll(x, -shift, axis=0)


@kiln.export
def repeating(x: kiln.f64[:], nvar_y: int):
    # numpy-benchmarks' repeating as written
    nvar_x = x.shape[0]
    y = np.empty(nvar_x * (1 + nvar_y))
    y[0:nvar_x] = x[0:nvar_x]
    y[nvar_x:] = np.repeat(x, nvar_y)
    return y


@kiln.export
def tiles_and_repeats(x: kiln.f32[:, :], k: int):
    return (np.tile(x, k), np.tile(x, (k, 2)), np.tile(x[0], (2, k, 1)), np.repeat(x, k),
            np.repeat(x, k, axis=1), x.repeat(2, 0), x.flatten())


@kiln.export
def differences(x: kiln.i16[:, :], b: kiln.b1[:]):
    return np.diff(x), np.diff(x, axis=0), np.diff(x, 2), np.diff(x, n=0).copy(), np.diff(b)


@kiln.export
def joined(a: kiln.f64[:], b: kiln.i32[:], m: kiln.f64[:, :]):
    return (np.concatenate((a, b)), np.concatenate(([1], b, [len(a)])), np.hstack((a, a)),
            np.vstack((a, a * 2)), np.stack((a, a), axis=1), np.concatenate((m, m), axis=1),
            np.vstack((m, m)), np.hstack((m, m)), np.stack((m, m)))


@kiln.export
def stacked_rows(m: kiln.f64[:, :], row: kiln.f64[:], other: kiln.i32[:]):
    """np.vstack of 1-D and 2-D arrays: numpy's atleast_2d makes a row."""
    return np.vstack((m, row)), np.vstack((row, m, other)), np.vstack((row, other))


@kiln.export
def products_and_triangles(a: kiln.f64[:], b: kiln.i64[:], k: int):
    o = np.outer(a, b)
    return o, np.tril(o), np.triu(o, k), np.tril(o, -k)


@kiln.export
def extrema(x: kiln.f64[:], m: kiln.u8[:, :]):
    return (np.argmin(x), np.argmax(x), x.argmax(), np.argmax(np.abs(x - 1)),
            np.argmin(m, axis=0), m.argmax(axis=1), np.argmax(m))


@kiln.export
def ranges(n: int, start: float, stop: float, step: float):
    return (np.arange(n), np.arange(2, n), np.arange(n, 0, -3), np.arange(start, stop, step),
            np.arange(start, stop), np.arange(n, dtype=np.float32))


@kiln.export
def spaced(start: float, stop: float, num: int):
    return (np.linspace(start, stop, num), np.linspace(start, stop, num, endpoint=False),
            np.linspace(start, stop), np.linspace(0, 1, num=num))


@kiln.export
def spaced_ints(start: float, stop: float, num: int):
    # numpy floors the samples for an int dtype
    return (np.linspace(start, stop, num, dtype=np.int64),
            np.linspace(-7, 3, num, endpoint=False, dtype=np.int32),
            np.linspace(0, 255, num, dtype=np.uint8))


@kiln.export
def filled_arrays(n: int, m: kiln.i32[:, :], v: float):
    return (np.full((n, 2), v), np.full(n, 3), np.full_like(m, 5), np.full_like(m, 2, np.int8),
            np.eye(n), np.eye(n, n + 1, 1, dtype=np.int64), np.identity(n, dtype=np.bool_),
            np.array([1, n, 3]), np.array([[v, 1], [2, n]]), np.array([1, 2], dtype=np.float32))


@kiln.export
def in_expressions(x: kiln.f64[:], n: int):
    total = np.sum(np.roll(x, 1) * np.arange(x.shape[0]))
    y = np.zeros(n)
    for i in range(n):
        y[i] = np.sum(np.linspace(0.0, 1.0, i))
    return total + np.tile(x, 2).sum(), y


# ---------------------------------------------------- indexing with arrays
@kiln.export
def periodic_dist(x: kiln.f64[:], y: kiln.f64[:], z: kiln.f64[:], L: int, periodicX: bool, periodicY: bool, periodicZ: bool):
    # numpy-benchmarks' periodic_dist as written
    N = len(x)
    xtemp = np.tile(x,(N,1))
    dx = xtemp - xtemp.T
    ytemp = np.tile(y,(N,1))
    dy = ytemp - ytemp.T
    ztemp = np.tile(z,(N,1))
    dz = ztemp - ztemp.T
    if periodicX:
        dx[dx>L/2]=dx[dx > L/2]-L
        dx[dx<-L/2]=dx[dx < -L/2]+L
    if periodicY:
        dy[dy>L/2]=dy[dy>L/2]-L
        dy[dy<-L/2]=dy[dy<-L/2]+L
    if periodicZ:
        dz[dz>L/2]=dz[dz>L/2]-L
        dz[dz<-L/2]=dz[dz<-L/2]+L
    d = np.sqrt(dx**2+dy**2+dz**2)
    d[d==0] = -1
    return d, dx, dy, dz

@kiln.export
def masks(x: kiln.f64[:], m: kiln.i32[:, :], idx: kiln.i64[:]):
    a = x[x > 0]
    b = m[m % 2 == 0]
    c = x[idx]
    d = m[idx[:2]]
    x[idx] = 5.0
    x[x < -1] = x[x > 1][:1]
    m[m > 3] = 0
    return a, b, c, d, x[::-1][idx[1:]]


# ------------------------------------ corpus kernels with tuples and positions
def physics(masspoints: kiln.f64[:, :, :], dt: float, plunk: int, which: int):
  ppos = masspoints[1]
  cpos = masspoints[0]
  N = cpos.shape[0]
  # apply hooke's law
  HOOKE_K = 2100000.
  DAMPING = 0.0001
  MASS = .01
  force = np.zeros((N, 2))
  for i in range(1, N):
    dx, dy = cpos[i] - cpos[i - 1]
    dist = np.sqrt(dx**2 + dy**2)
    assert dist != 0
    fmag = -HOOKE_K * dist
    cosine = dx / dist
    sine = dy / dist
    fvec = np.array([fmag * cosine, fmag * sine])
    force[i - 1] -= fvec
    force[i] += fvec
  force[0] = force[-1] = 0, 0
  force[which][1] += plunk
  accel = force / MASS
  # verlet integration
  npos = (2 - DAMPING) * cpos - (1 - DAMPING) * ppos + accel * (dt**2)
  masspoints[1] = cpos
  masspoints[0] = npos

@kiln.export
def wave(  # numpy-benchmarks' wave as written
        PARTICLE_COUNT: int):
    SUBDIVISION = 300
    FRAMERATE = 60
    count = PARTICLE_COUNT
    width, height = 1200, 400
    masspoints = np.empty((2, count, 2), np.float64)
    initpos = np.zeros(count, np.float64)
    for i in range(1, count):
        initpos[i] = initpos[i - 1] + float(width) / count
    masspoints[:, :, 0] = initpos
    masspoints[:, :, 1] = height / 2
    f = 15
    plunk_pos = count // 2
    physics( masspoints, 1./ (SUBDIVISION * FRAMERATE), f, plunk_pos)
    return masspoints

@kiln.export
def grouping(values: kiln.i64[:]):
    # numpy-benchmarks' grouping as written
    import numpy as np
    diff = np.concatenate(([1], np.diff(values)))
    idx = np.concatenate((np.where(diff)[0], [len(values)]))
    return values[idx[:-1]], np.diff(idx)

@kiln.export
def positions(m: kiln.f32[:, :]):
    r, c = np.nonzero(m > 0)
    return r, c, np.flatnonzero(m), m.nonzero()[1]


# -------------------------------------------------- lambdas, 4-D arrays
@kiln.export
def slowparts(d: int, re: int, preDz: kiln.f64[:, :, :], preWz: kiln.f64[:, :, :], SRW: kiln.f64[:, :], RSW: kiln.f64[:, :], yxV: kiln.f64[:, :, :], xyU: kiln.f64[:, :, :], resid: int):
    # numpy-benchmarks' slowparts as written (a lambda, 4-D arrays)
    fprime = lambda x: 1 - power(tanh(x), 2)
    partialDU = zeros((d+1, re, 2*d, d))
    for k in range(2*d):
        for i in range(d):
            partialDU[:,:,k,i] = fprime(preDz[k]) * fprime(preWz[i]) * (SRW[i,k] + RSW[i,k]) * yxV[:,:,i]
    return partialDU

@kiln.export
def four(a: kiln.f64[:, :, :, :], s: float):
    b = a * s
    return b.reshape(-1), b.max(axis=3), np.transpose(a).copy(), a[1:, ::2, :, ::-1] + 1


# ------------------------------------------------ np.zeros of large arrays
@kiln.export
def dirty(n: int, v: float) -> float:
    a = np.full(n, v)           # freed at the return: a block the allocator keeps
    return a[n // 2]


@kiln.export
def large_zeros(n: int):
    return np.zeros(n), np.zeros((2, n // 2), np.int8)


# ------------------------------------ `@`, shape tuples, int powers, shifts
@kiln.export
def matmul1(a: kiln.f64[:], b: kiln.i32[:]):
    return a @ b, b @ b

@kiln.export
def same_shape(a: kiln.f64[:, :], b: kiln.f64[:, :]):
    return a.shape == b.shape, a.shape != b.shape, len(a.shape), a.shape == (2, 3)

@kiln.export
def ipow(a: kiln.i64[:], b: kiln.i8[:], k: int, u: kiln.u16[:]):
    return a ** b, a ** k, b ** 3, u ** u, u ** b

@kiln.export
def shifts(a: kiln.i64[:], b: kiln.i8[:], k: int, u: kiln.u8[:]):
    return a << k, a >> 1, b << b, b >> b, u >> u, u << 3, a >> k, a << b


# ---------------------------------- augmented stores through array indices
@kiln.export
def masked_updates(x: kiln.f64[:], m: kiln.i32[:, :], idx: kiln.i64[:], v: kiln.f64[:]) -> None:
    x[x > 0] += 1.0
    x[x < -1] *= v[:1]
    m[m % 2 == 1] -= 3
    x[idx] += 2.0


# ------------------------------------------------- matrix products
@kiln.export
def euclidean_distance_square(x1: kiln.f64[:, :], x2: kiln.f64[:, :]):
    # numpy-benchmarks' euclidean_distance_square as written
    return -2*np.dot(x1, x2.T) + np.sum(np.square(x1), axis=1)[:, np.newaxis] + np.sum(np.square(x2), axis=1)

@kiln.export
def products(a: kiln.f64[:, :], b: kiln.i32[:, :], v: kiln.f64[:], w: kiln.b1[:, :]):
    return a @ b, np.dot(a, v), b.T @ v, v @ b, np.dot(b, b.T), w @ w, np.dot(v, v)


# ------------------------------------------- fuzzer findings A7 and A8
@kiln.export
def store_positions(x: kiln.f64[:], idx: kiln.i64[:]) -> None:
    x[idx] = 5.0        # A7: numpy checks every position before it writes


@kiln.export
def ravel_and_write(x: kiln.f64[:], m: kiln.f64[:, :]) -> None:
    y = np.ravel(x)     # A8: a view only of a C-contiguous array
    y[0] = 100.0
    z = m.ravel()
    z[-1] = -1.0


@kiln.export
def transposed_expressions(a: kiln.f64[:, :], b: kiln.f64[:, :]):
    c = (a - b).T
    return c, (a > 0).T.sum(axis=0)


@kiln.export
def index_read_then_scalar_error(x: kiln.f64[:], idx: kiln.i64[:], n: int, m: int):
    """numpy reads `x[idx]` (IndexError) before `n % m` runs (ZeroDivisionError)."""
    return x[idx] * x[n % m]


@kiln.export
def one_pass_masked_updates(dx: kiln.f64[:, :], other: kiln.f64[:, :], L: int, step: float):
    """`x[m] = x[m] - L` and `x[m] += v` in one pass where the mask reads x
    only elementwise (periodic_dist's pattern), and through numpy's gather
    and scatter where it does not (a mask of another view of x)."""
    dx[dx > L / 2] = dx[dx > L / 2] - L
    dx[dx < -L / 2] = dx[dx < -L / 2] + L
    dx[np.isnan(other) | (other > 1)] *= step
    dx[dx > other] = dx[dx > other] // step
    dx[dx[::-1] > 0] -= 1.0                 # reads x elsewhere: not one pass
    other[np.abs(dx) < 1] = other[np.abs(dx) < 1] % step


@kiln.export
def diff_of_order_zero(x: kiln.i32[:]):
    """np.diff(x, n=0) is x itself (numpy returns its argument): writing it
    writes x (fuzz seed 61)."""
    y = np.diff(x, n=0)
    y[0] = 0
    return np.diff(x * 2, n=0)


@kiln.export
def rows_by_index(x: kiln.f32[:, :], i: kiln.i8[:]):
    """numpy 1.24 checks no index when the result is empty (x of 0 columns)."""
    return x[i]


@kiln.export
def masked_assignments(z0: kiln.c128[:, :], c0: kiln.c128[:, :], w0: kiln.f64[:, :], h: float,
                       rounds: int):
    """`x[m] = f(x[m], y[m], ..., numbers)` in one pass (mandelbrot's
    pattern): a mask in a variable, complex powers, ufuncs, comparisons, a
    cast on the store; then right sides numpy's gather and scatter must
    compute (an attribute of y[m], a reduction of it)."""
    z, c, w = z0.copy(), c0.copy(), w0.copy()
    n = np.zeros(z.shape, dtype=np.int64)
    for k in range(rounds):
        i = np.less(np.abs(z), h)
        n[i] = k
        z[i] = z[i]**2 + c[i]
    n[n == rounds - 1] = 0
    w[w > 0] = np.maximum(w[w > 0], h) - np.abs(w[w > 0] - h) / 2
    w[np.isnan(w)] = -w[np.isnan(w)] * 1.5 + (w[np.isnan(w)] < h)
    n[w < 0] = n[w < 0] * 3 - (w[w < 0] > -1)   # ints and bools
    w[w > 1] = c[w > 1].real + w[w > 1]        # not one pass: an attribute
    w[w > 2] = w[w > 2] - np.max(w[w > 2])     # not one pass: a reduction
    return z, n, w


@kiln.export
def masked_assignment_aliases(x: kiln.f64[:], y: kiln.f64[:], b: kiln.f64[:]):
    """Arguments that may be one array (x, y) take numpy's gather and scatter;
    a right side array of another shape raises numpy's IndexError."""
    x[x > 0] = y[x > 0] * 2 + 1
    x[x < 1] = -x[x < 1]
    x[x > 3] = b[x > 3] + x[x > 3]


@kiln.export
def unpacked_array_expressions(x: kiln.f64[:], y: kiln.f64[:]):
    """Array expressions unpacked from a tuple: each computed whole before
    any target is written (numpy's values exist before the stores)."""
    a, b = x.copy(), y * 2
    x[:], y[:] = y * 2, x * 2 + 1
    a, b = b - a, a + 1
    return a, b


@kiln.export
def masked_assignment_order(x: kiln.f64[:], k: float):
    """Python computes `1.0 / k` before the mask `x > a` (whose shapes do
    not broadcast when x is not 4 long): ZeroDivisionError comes first."""
    a = np.zeros(4)
    x[x > a] = 1.0 / k + x[x > a]
