"""Parameters and locals named like the values a code generator makes up
(`one`, `out`, `r`, `c0`, `n0`, `i0`, `arg0`, `error`, `v0`, ...): every
function must compile and give CPython's results (test_name_collisions.py)."""
import kiln


@kiln.vectorize
def blend(one: float, out: float) -> float:
    return one * 2.0 + out


@kiln.vectorize
def pick(r: int, c0: int, n0: int, i0: int) -> int:
    arg0 = r + c0
    error = n0 - i0
    return arg0 * error


@kiln.vectorize
def guarded(arg0: float, arg1: float, error: float) -> float:
    if error == 0.0:
        raise ZeroDivisionError("error is zero")
    v0 = arg0 / error
    return v0 + arg1


@kiln.export
def accumulate(out: kiln.f64[:], one: kiln.f64[:], error: float) -> float:
    _0 = 0.0
    x_1 = 1
    for i0 in range(len(out)):
        arg0 = one[i0] * error
        out[i0] = arg0 + x_1
        _0 += arg0
    return _0


@kiln.export
def counted(n0: int, c0: int, r: int) -> int:
    v0 = 0
    arg1 = 0
    i0 = 0
    while i0 < n0:
        if i0 % 2 == 0:
            v0 += c0
        else:
            arg1 -= r
        if v0 > 1000:
            break
        i0 += 1
    return v0 + arg1


@kiln.export
def swapped(error: int, one: bool, out: float) -> tuple[int, float]:
    arg2 = error if one else -error
    return arg2, out * arg2
