# RUN: not %python -m kiln mlir %s 2>&1 | FileCheck %s
# Every construct docs/language.md lists as unsupported, with its reason.
import cmath

import kiln

G = [[1], [2]]


@kiln.export
def containers(n: int) -> int:
    d = {1: [n]}
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:13: error: dicts with list values are not supported yet; a dict's keys and values are int, float, bool or str (dict[str, int], ...)
    s = {[n]}
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:10: error: sets with list elements are not supported yet; a set's elements are int, float, bool or str (set[int], set[float], set[bool], set[str])
    c = {(i, i) for i in range(n)}
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:10: error: sets with tuple elements are not supported yet; a set's elements are int, float, bool or str (set[int], set[float], set[bool], set[str])
    f = lambda v=1: v
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:9: error: a lambda with defaults, * or ** parameters is not supported
    g = [lambda v: v]
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:10: error: lambda is not supported
    t = f"{n:5}"
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:9: error: a format spec (`{x:...}`) in an f-string is not supported yet; write `{x}` (str(), int and float values are shown as str() shows them)
    u = b"n"
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:9: error: bytes is not supported yet
    return n


@kiln.export
def statements(n: int) -> int:
    with open("x") as handle:
        pass
    # CHECK-DAG: constructs-invalid.py:[[@LINE-2]]:5: error: `with` statement is not supported yet
    del n
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:5: error: `del` is supported as `del d[k]` of a dict and `del xs[i]`, `del xs[a:b]` of a list only yet

    def inner() -> int:
        return 1
    # CHECK-DAG: constructs-invalid.py:[[@LINE-2]]:5: error: nested function is not supported yet
    match n:
        case 1:
            pass
    # CHECK-DAG: constructs-invalid.py:[[@LINE-3]]:5: error: `match` statement is not supported yet
    return 0


@kiln.export
def loops(n: int) -> int:
    for i in range(n):
        pass
    else:
        pass
    # CHECK-DAG: constructs-invalid.py:[[@LINE-4]]:5: error: `for ... else` is not supported yet
    while n > 0:
        n -= 1
    else:
        pass
    # CHECK-DAG: constructs-invalid.py:[[@LINE-4]]:5: error: `while ... else` is not supported yet
    return n


@kiln.export
def operators(a: int, b: int) -> bool:
    y = a is b
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:9: error: comparison `a is b` is not supported (only < <= > >= == != in, not in)
    z = a in G
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:14: error: global variable `G` is not supported yet (a module constant must be bound once to a number, a str, a tuple of numbers, or a list or dict of numbers or strs, that fits in 64 bits)
    return y


@kiln.export
def signature_problems(a: int, b: int = 2, *rest, c: int) -> int:
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:1: error: `*args` and `**kwargs` parameters are not supported
    # CHECK-DAG: constructs-invalid.py:[[@LINE-2]]:1: error: keyword-only and positional-only parameters are not supported yet
    return a


# A default parameter value is a number written in the source, of the
# parameter's type (or a tuple of numbers written out: a tuple parameter).
@kiln.export
def default_problems(a: kiln.f64[:], mask=(1, a, 1), n: int = 2.5, b: kiln.f64[:] = 0.0) -> int:
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:43: error: a default parameter value must be a number or a str written in the source (`1.0`, `-2`, `True`, `","`), a module constant one, or a dtype (`np.float64`), not `(1, a, 1)`
    # CHECK-DAG: constructs-invalid.py:[[@LINE-2]]:63: error: cannot implicitly convert float to int
    # CHECK-DAG: constructs-invalid.py:[[@LINE-3]]:85: error: parameter `b` is an array: a number cannot be its default
    return 0


@kiln.export
def annotation(x: list) -> int:
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:19: error: a list annotation needs its item type: list[int], list[float], list[bool] or list[str]
    return 0


@kiln.export
def global_list(i: int) -> int:
    return G[i]
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:12: error: global variable `G` is not supported yet (a module constant must be bound once to a number, a str, a tuple of numbers, or a list or dict of numbers or strs, that fits in 64 bits)


@kiln.export
def misspelled(total: int) -> int:
    return totl + 1
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:12: error: name `totl` is not defined; did you mean `total`?


@kiln.export
def store_too_many_indices(x: kiln.f64[:], i: int) -> None:
    x[i, 0] = 1.0
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:5: error: too many indices for a 1-D array: `x[i, 0]` has 2


@kiln.export
def recursive(n: int):
    if n < 2:
        return n
    return recursive(n - 1)
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:12: error: `recursive` calls itself (directly or through other functions), so its parameters and result need annotations


@kiln.export
def row_into_number(a: kiln.f64[:, :]) -> float:
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
        # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:9: error: `total` is a float, and `total += a[i]` would make it a kiln.f64[:] array; `a[i]` is a row: index every axis or reduce it (`a[i].sum()`)
    return total


@kiln.export
def isclose_unknown_keyword(a: complex) -> bool:
    return cmath.isclose(a, 1j, tol=1.0)
    # CHECK-DAG: constructs-invalid.py:[[@LINE-1]]:12: error: keyword argument `tol` of `cmath.isclose` is not supported
