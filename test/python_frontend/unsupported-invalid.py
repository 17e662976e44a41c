# RUN: not %python -m kiln mlir %s 2>&1 | FileCheck %s
import kiln
import numpy as np

# Every unsupported construct of a function is reported, each at its
# file:line:col.


@kiln.export
def many(x: kiln.f64[:]) -> float:
    total = 0.0
    for v in (w for w in x):
        total += v
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-2]]:14: error: `for` over a generator is not supported; Kiln's `for` loops go over range(...), arrays, lists, dicts, sets, strings, and enumerate() or zip() of them
    data = {"k": [2.0]}
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:18: error: dicts with list values are not supported yet; a dict's keys and values are int, float, bool or str (dict[str, int], ...)
    total += np.linalg.eig(x)
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:14: error: call to `np.linalg.eig` is not supported yet
    try:
        pass
    except Exception:
        pass
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-4]]:5: error: `try` statement is not supported yet
    return total


# CHECK-DAG: unsupported-invalid.py:[[@LINE+2]]:13: error: parameter `n` needs a type annotation
@kiln.export
def untyped(n):
    return n


@kiln.export
def branches(flag: bool, x: kiln.f64[:]) -> float:
    if flag:
        y = 1.0
    # CHECK-DAG: unsupported-invalid.py:[[@LINE+1]]:12: error: variable `y` may be used before it is assigned
    return y


@kiln.export
def raises_unknown(x: float) -> float:
    raise KeyError("nope")
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:5: error: raising KeyError('nope') is not supported


@kiln.export
def slice_shift(x: kiln.f64[:]) -> None:
    x[1:3] <<= 2
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:5: error: operator `<<` needs int arrays
