"""Functions compiled by the end-to-end tests and also run by CPython."""
import kiln


@kiln.export
def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i] * y[i]
    return total


@kiln.export
def total_int(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def total_f32(x: kiln.f32[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += float(x[i])
    return s


@kiln.export
def saxpy(a: float, x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = a * x[i] + y[i]


@kiln.export
def reverse_copy(src: kiln.i32[:], dst: kiln.i32[:]) -> None:
    n = len(src)
    for i in range(n - 1, -1, -1):
        dst[n - 1 - i] = src[i]


@kiln.export
def count_in_range(x: kiln.f64[:], low: float, high: float) -> int:
    count = 0
    for i in range(len(x)):
        if low <= x[i] < high:
            count += 1
    return count


@kiln.export
def last(x: kiln.f64[:]) -> float:
    return x[-1]


@kiln.export
def get(x: kiln.i64[:], i: int) -> int:
    return x[i]


@kiln.export
def put(x: kiln.i64[:], i: int, value: int) -> None:
    x[i] = value


@kiln.export
def floordiv(a: int, b: int) -> int:
    return a // b


@kiln.export
def modulo(a: int, b: int) -> int:
    return a % b


@kiln.export
def float_floordiv(a: float, b: float) -> float:
    return a // b


@kiln.export
def float_modulo(a: float, b: float) -> float:
    return a % b


@kiln.export
def ratio(a: int, b: int) -> float:
    return a / b


@kiln.export
def arithmetic(a: int, b: int, c: float) -> float:
    return -a * b + (a - b) * c - c / 4.0 + (a & b) - (a | 3) + (b ^ a)


@kiln.export
def logic(p: bool, q: bool, r: bool) -> bool:
    return (p and not q) or (r and p)


@kiln.export
def either(a: int, b: int) -> int:
    return a or b


@kiln.export
def pick(flag: bool, a: float, b: float) -> float:
    return a if flag else b


@kiln.export
def classify(x: float) -> int:
    if x > 0:
        return 1
    elif x < 0:
        return -1
    if x == 0:
        return 0
    return 99


@kiln.export
def collatz_steps(n: int) -> int:
    steps = 0
    while n != 1 and n > 0:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@kiln.export
def range_sum(start: int, stop: int, step: int) -> int:
    s = 0
    for i in range(start, stop, step):
        s = s * 7 + i
    return s


@kiln.export
def last_index(n: int) -> int:
    i = -1
    for i in range(n):
        pass
    return i


@kiln.export
def extremes(a: float, b: float, c: float) -> float:
    return min(a, b, c) * 1000.0 + max(a, b) + abs(c)


@kiln.export
def conversions(x: float, n: int, flag: bool) -> float:
    return float(int(x)) + float(n) + float(bool(n)) + int(flag) * 0.5


@kiln.export
def truncate(x: float) -> int:
    return int(x)


@kiln.export
def matrix_trace(m: kiln.f64[:, :]) -> float:
    t = 0.0
    for i in range(min(m.shape[0], m.shape[1])):
        t += m[i, i]
    return t


@kiln.export
def scale_rows(m: kiln.f64[:, :], factors: kiln.f64[:]) -> None:
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = m[i, j] * factors[i]


@kiln.export
def clip_f32(x: kiln.f32[:], low: float, high: float) -> None:
    for i in range(len(x)):
        if x[i] < low:
            x[i] = low
        elif x[i] > high:
            x[i] = high


@kiln.export
def size_info(m: kiln.f64[:, :]) -> int:
    return m.size * 100 + m.ndim * 10 + len(m)


@kiln.export(boundscheck=False)
def unchecked_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@kiln.export
def nothing() -> None:
    pass


@kiln.export
def shift_left(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(out)):
        out[i] = x[i + 1]


@kiln.export
def gather(x: kiln.f64[:], idx: kiln.i64[:], out: kiln.f64[:]) -> None:
    for i in range(len(idx)):
        out[i] = x[idx[i]]


@kiln.export(fastmath=True)
def fast_dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(x)):
        total += x[i] * y[i]
    return total
