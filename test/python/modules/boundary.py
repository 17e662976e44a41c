"""Kernels for the Python-boundary tests: argument conversion on the fast
and general paths, threads, the GIL, asyncio."""
import kiln


@kiln.export
def spin(x: kiln.f64[:], repeats: int) -> float:
    s = 0.0
    for r in range(repeats):
        for i in range(len(x)):
            s += x[i] * 0.5
    return s


@kiln.export
def scale_into(x: kiln.f64[:], factor: float, out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = x[i] * factor


@kiln.export(nogil=False)
def spin_holding_gil(x: kiln.f64[:], repeats: int) -> float:
    s = 0.0
    for r in range(repeats):
        for i in range(len(x)):
            s += x[i]
    return s


@kiln.export
def add(a: float, b: float) -> float:
    return a + b


@kiln.export
def total(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def weighted_total(m: kiln.f64[:, :]) -> float:
    # Each element weighted by its position: a wrong stride gives a wrong sum.
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i, j] * (i * m.shape[1] + j + 1)
    return s


@kiln.export
def total_i64(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def total_i32(x: kiln.i32[:]) -> int:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def total_f32(x: kiln.f32[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def negate_into(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = -x[i]


@kiln.export
def echo_i64(n: int) -> int:
    return n


@kiln.export
def echo_i32(n: kiln.i32) -> int:
    return n


@kiln.export
def choose(p: bool, a: float, b: float) -> float:
    if p:
        return a
    return b
