# Type inference reports every type error of a function in one run, each at
# its file:line:col, and nothing that only follows from an earlier error.
# Until the driver runs the stage itself (issue 11), it is run through its
# own entry point, `python3 -m kiln.typecheck.type_inference FILE`.
# RUN: not %python -m kiln.typecheck.type_inference %s 2>&1 | FileCheck %s
import math

import kiln


@kiln.export
def three_errors(x: float, a: kiln.f64[:]) -> int:
    n: int = x
    # CHECK: type-errors.py:[[@LINE-1]]:5: variable `n` is declared int but is assigned a float
    y = a << 2
    # CHECK-NEXT: type-errors.py:[[@LINE-1]]:9: operator `<<` needs int arrays
    z = y * 2.0
    return len(x)
    # CHECK-NEXT: type-errors.py:[[@LINE-1]]:12: len() takes one array, list, dict, set, str or range


@kiln.export
def loop_and_branch(x: kiln.f64[:], n: int) -> float:
    s = 0.0
    for i in range(n):
        s += x[i] + missing
        # CHECK-NEXT: type-errors.py:[[@LINE-1]]:21: name `missing` is not defined
        t = x[1.5]
        # CHECK-NEXT: type-errors.py:[[@LINE-1]]:15: array index `1.5` must be an int, not float
    if x:
        # CHECK-NEXT: type-errors.py:[[@LINE-1]]:8: the truth value of an array is not supported; use len(x)
        s = s & 1
        # CHECK-NEXT: type-errors.py:[[@LINE-1]]:13: operator `&` needs int or bool operands
    return s


@kiln.export
def calls(x: kiln.f64[:]) -> float:
    a = math.sqrt(x)
    # CHECK-NEXT: type-errors.py:[[@LINE-1]]:9: this function needs a number, not an array
    b = math.hypot(1.0)
    # CHECK-NEXT: type-errors.py:[[@LINE-1]]:9: math.hypot() takes 2 arguments
    return a + b


# A variable that widens in a loop: both errors appear once `k` is a float.
@kiln.export
def widened(x: kiln.f64[:]) -> int:
    k = 0
    for i in range(len(x)):
        y = x[k]
        # CHECK-NEXT: type-errors.py:[[@LINE-1]]:15: array index `k` must be an int, not float
        k = k + 0.5
    return k
    # CHECK-NEXT: type-errors.py:[[@LINE-1]]:5: cannot implicitly convert float to int; use int(...)


@kiln.export
def fine(x: kiln.f64[:]) -> float:
    return x[0] * 2
# CHECK-NOT: type-errors.py
