"""Arrays under control flow (docs/language.md "Arrays under control
flow"): allocated in branches and loops, reassigned and swapped, carried
by loops, returned from inside loops and in tuples, passed to and returned
from helpers, parameters returned as themselves or as views. Every array is
freed exactly once (kilnc's ownership-based deallocation; the error exits
through the allocation journal), which test_array_control.py measures."""
import numpy as np

import kiln


@kiln.export
def branch_allocation(n: int, flag: bool) -> kiln.f64[:]:
    if flag:
        a = np.ones(n)
    else:
        a = np.arange(n) * 0.5 + 2.0
    return a * 3.0


@kiln.export
def reassigned_in_loop(x: kiln.f64[:], steps: int) -> kiln.f64[:]:
    a = x.copy()
    for _ in range(steps):
        a = a * 0.5 + np.sin(a)
    return a


@kiln.export
def swapped_buffers(x: kiln.f64[:], steps: int) -> kiln.f64[:]:
    a = x.copy()
    b = np.empty_like(x)
    for _ in range(steps):
        b[1:-1] = 0.25 * a[:-2] + 0.5 * a[1:-1] + 0.25 * a[2:]
        b[:1] = a[:1]
        b[-1:] = a[-1:]
        a, b = b, a
    return a


@kiln.export
def allocated_each_iteration(n: int, k: int) -> float:
    total = 0.0
    for i in range(k):
        t = np.ones(n) * i
        if i % 3 == 0:
            t = t + np.linspace(0.0, 1.0, n)
        elif i % 3 == 1:
            t = np.zeros(n)
        total += t.sum()
    return total


@kiln.export
def while_growth(x: kiln.f64[:], limit: float) -> kiln.f64[:]:
    a = x * 2.0
    while a.sum() < limit:
        a = a * 2.0 + 1.0
        if a.max() > 1e6:
            return np.zeros(3)
    return a


@kiln.export
def first_negative_prefix(x: kiln.f64[:]) -> kiln.f64[:]:
    for i in range(len(x)):
        if x[i] < 0:
            return x[:i] * 2.0
    return x + 0.0


@kiln.export
def pair_of_new_arrays(x: kiln.f64[:], flag: bool):
    if flag:
        low = np.minimum(x, 0.0)
        high = np.maximum(x, 0.0)
    else:
        low = x - 1.0
        high = x + 1.0
    return low, high


def smoothed(a: kiln.f64[:]) -> kiln.f64[:]:
    return (a[:-1] + a[1:]) * 0.5


def shifted(a: kiln.f64[:]) -> kiln.f64[:]:
    return a[1:]


def either(a: kiln.f64[:], b: kiln.f64[:], first: bool) -> kiln.f64[:]:
    if first:
        return a
    return b * 2.0


@kiln.export
def helpers_in_loop(x: kiln.f64[:], k: int) -> float:
    s = 0.0
    a = x
    for i in range(k):
        if len(a) < 2:
            break
        a = smoothed(a)
        s += a.sum()
    return s


@kiln.export
def helper_returns_its_argument(x: kiln.f64[:]) -> float:
    b = shifted(x)
    b[:] = x[:-1] * 3.0 + 1.0       # b is x[1:]: numpy reads the right side first
    return x.sum()


@kiln.export
def helper_returns_either(x: kiln.f64[:], y: kiln.f64[:], first: bool) -> kiln.f64[:]:
    c = either(x, y, first)
    c[:1] = -1.0
    return c


@kiln.export
def identity(a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return a


@kiln.export
def scaled_in_place(a: kiln.f64[:], s: float) -> kiln.f64[:]:
    a *= s
    return a


@kiln.export
def tail_view(a: kiln.f64[:]) -> kiln.f64[:]:
    return a[1:]


@kiln.export
def column_view(a: kiln.f64[:, :], j: int) -> kiln.f64[:]:
    return a[:, j]


@kiln.export
def parameter_or_new(a: kiln.f64[:], b: kiln.f64[:], first: bool) -> kiln.f64[:]:
    if first:
        r = a
    else:
        r = b * 2.0
    return r


@kiln.export
def swapped_parameters(a: kiln.f64[:], b: kiln.f64[:]):
    return b, a


@kiln.export
def raises_midway(x: kiln.f64[:], k: int) -> float:
    s = 0.0
    carried = x * 1.0
    for i in range(k):
        t = x * i
        carried = carried + t
        s += t[i] + carried[0]      # IndexError once i >= len(x)
    return s


def checked_helper(a: kiln.f64[:], i: int) -> kiln.f64[:]:
    b = a * 2.0
    if i >= len(a):
        raise ValueError("too far")
    return b


@kiln.export
def raises_in_helper(x: kiln.f64[:], k: int) -> float:
    s = 0.0
    for i in range(k):
        kept = checked_helper(x, i)
        s += kept.sum()
    return s


@kiln.export
def raises_after_returning_array(n: int, fail: bool) -> kiln.f64[:]:
    a = np.ones(n)
    if fail:
        raise ValueError("asked to fail")
    return a


@kiln.export
def matrix_power_steps(m: kiln.f64[:, :], steps: int) -> kiln.f64[:, :]:
    """A 2-D array reassigned in a loop (a new one each step), and a row
    view of it taken inside."""
    p = m.copy()
    for _ in range(steps):
        p = p @ m
        row = p[0]
        row[:] = row / (np.abs(row).max() + 1.0)
    return p


@kiln.export
def int_histogram_rounds(x: kiln.i64[:], rounds: int) -> kiln.i64[:]:
    counts = np.zeros(4, dtype=np.int64)
    for r in range(rounds):
        shifted = (x + r) % 4
        for k in range(4):
            counts[k] += np.sum(shifted == k)
    return counts


@kiln.export
def complex_rotations(z: kiln.c128[:], turns: int) -> kiln.c128[:]:
    w = z * 1.0
    for _ in range(turns):
        w = w * 1j + 0.5
    return w


@kiln.export
def search_with_break(x: kiln.f64[:], limit: float) -> kiln.f64[:]:
    best = np.zeros(len(x))
    i = 0
    while i < 10:
        candidate = x * i
        if candidate.sum() > limit:
            break
        best = candidate
        i += 1
    return best


def split_signs(a: kiln.f64[:]):
    return np.maximum(a, 0.0), a[::2]


@kiln.export
def helper_tuple(x: kiln.f64[:]) -> float:
    positive, every_other = split_signs(x)
    every_other[:] = -1.0           # x's even elements, as in Python
    return positive.sum() + x.sum()


@kiln.export
def raises_after_a_view_call(a: kiln.f64[:], k: int) -> float:
    """A call that returns a view of its argument, then an exception: the
    caller's error exit frees only what it owns (review finding: a stale
    hand-over once freed the caller's argument)."""
    b = tail_view(a)
    if k > 0:
        raise ValueError("k")
    return b[0]
