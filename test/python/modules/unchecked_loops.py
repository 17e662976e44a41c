"""boundscheck=False loops (test_unchecked_loops.py): never slower than
checked ones, and negative indices still count from the end."""
import kiln


@kiln.export
def window_checked(x: kiln.f64[:], w: int, out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        s = 0.0
        for j in range(w):
            s += x[i + j]
        out[i] = s


@kiln.export(boundscheck=False)
def window_unchecked(x: kiln.f64[:], w: int, out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        s = 0.0
        for j in range(w):
            s += x[i + j]
        out[i] = s


@kiln.export(boundscheck=False)
def shifted_unchecked(x: kiln.f64[:], shift: int, out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = x[i - shift] * 2.0
