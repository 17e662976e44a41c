"""Loops with known vectorization outcomes, for the reporter's tests."""
import kiln


@kiln.export
def saxpy(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = a * x[i] + y[i]


@kiln.export(fastmath=True)
def fast_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def ordered_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def prefix_sum(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
        out[i] = s


@kiln.export
def histogram(x: kiln.i64[:], counts: kiln.i64[:]) -> None:
    for i in range(len(x)):
        counts[x[i]] += 1


@kiln.export
def uses_a_string(n: int) -> int:
    return len(b'n')
