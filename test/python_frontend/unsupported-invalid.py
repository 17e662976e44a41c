# RUN: not %python -m kiln mlir %s 2>&1 | FileCheck %s
import kiln
import numpy as np

# Every unsupported construct of a function is reported, each at its
# file:line:col.


@kiln.export
def many(x: kiln.f64[:]) -> float:
    total = 0.0
    for v in x:
        total += v
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-2]]:14: `for` over `x` is not supported; loop over range(...)
    data = [1.0, 2.0]
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:12: list is not supported
    total += np.linalg.norm(x)
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:14: call to `np.linalg.norm` is not supported yet
    total = total << 2
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-1]]:13: operator `<<` is not supported yet
    try:
        pass
    except Exception:
        pass
    # CHECK-DAG: unsupported-invalid.py:[[@LINE-4]]:5: `try` statement is not supported yet
    return total


# CHECK-DAG: unsupported-invalid.py:[[@LINE+2]]:13: parameter `n` needs a type annotation
@kiln.export
def untyped(n):
    return n


@kiln.export
def branches(flag: bool, x: kiln.f64[:]) -> float:
    if flag:
        y = 1.0
    # CHECK-DAG: unsupported-invalid.py:[[@LINE+1]]:12: variable `y` may be used before it is assigned
    return y
