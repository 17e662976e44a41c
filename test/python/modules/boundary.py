"""Kernels for the Python-boundary tests: threads, the GIL, asyncio."""
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
