"""Loops with break, continue and return, compiled and run by CPython."""
import kiln

@kiln.export
def find(x: kiln.f64[:], v: float) -> int:
    for i in range(len(x)):
        if x[i] == v:
            return i
    return -1

@kiln.export
def first_negative_sum(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        if x[i] < 0:
            break
        if x[i] % 2 == 0:
            continue
        s += x[i]
    return s

@kiln.export
def nested(n: int) -> int:
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            if (i + j) % 3 == 0:
                continue
            count += i * j
    return count

@kiln.export
def search2(m: kiln.i64[:, :], v: int) -> int:
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] == v:
                return i * 1000 + j
    return -1

@kiln.export
def wloop(n: int) -> int:
    k = 0
    while True:
        k += 1
        if k * k > n:
            break
    return k

@kiln.export
def wret(x: kiln.f64[:]) -> float:
    i = 0
    while i < len(x):
        if x[i] > 10.0:
            return x[i]
        i += 1
    return 0.0

@kiln.export
def last_i(n: int) -> int:
    i = 100
    for i in range(n, 0, -1):
        if i % 7 == 0:
            break
    return i

@kiln.export
def noval(x: kiln.f64[:]) -> None:
    for i in range(len(x)):
        if x[i] < 0:
            return
        x[i] = x[i] * 2.0
