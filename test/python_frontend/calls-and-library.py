# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import math

import numpy as np

import kiln

SCALE = 2.5


# math.* computes in double and raises like CPython.
# CHECK-LABEL: func.func @calls_and_library_root(
# CHECK: arith.cmpf uge
# CHECK: kiln.check %{{.*}}, "ValueError", "math domain error"
# CHECK: math.sqrt %{{.*}} : f64
@kiln.export
def root(x: float) -> float:
    return math.sqrt(x)


# CHECK-LABEL: func.func @calls_and_library_grow(
# CHECK: math.exp
# CHECK: "OverflowError", "math range error"
@kiln.export
def grow(x: float) -> float:
    return math.exp(x)


# np.* on a float32 stays float32 and never raises.
# CHECK-LABEL: func.func @calls_and_library_np_root(
# CHECK-SAME: %[[X:arg[0-9]+]]: f32) -> f32
# CHECK: math.sqrt %[[X]] : f32
# CHECK-NOT: kiln.check
@kiln.export
def np_root(x: kiln.f32) -> kiln.f32:
    return np.sqrt(x)


# Module constants are inlined.
# CHECK-LABEL: func.func @calls_and_library_scaled(
# CHECK: arith.constant 2.5 : f64
@kiln.export
def scaled(x: float) -> float:
    return x * SCALE


# Helpers are compiled as private functions; a callee that can raise shares
# the caller's error record, and the caller returns at once if it did.
# CHECK-LABEL: func.func private @calls_and_library_safe_div(
# CHECK-SAME: %{{arg[0-9]+}}: i64, %{{arg[0-9]+}}: i64, %{{arg[0-9]+}}: !llvm.ptr {kiln.error_slot}) -> i64
# CHECK-LABEL: func.func @calls_and_library_uses_helper(
# CHECK-SAME: %{{arg[0-9]+}}: i64, %{{arg[0-9]+}}: i64, %[[ERROR:arg[0-9]+]]: !llvm.ptr {kiln.error_slot})
# CHECK: func.call @calls_and_library_safe_div(%{{.*}}, %{{.*}}, %[[ERROR]]) : (i64, i64, !llvm.ptr) -> (i64)
# CHECK-NEXT: kiln.propagate_error
def safe_div(a: int, b: int) -> int:
    return a // b


@kiln.export
def uses_helper(a: int, b: int) -> int:
    return safe_div(a, b) + 1


# Tuples are several results; unpacking binds them.
# CHECK-LABEL: func.func @calls_and_library_divmod2(
# CHECK-SAME: -> (i64, i64)
# CHECK: func.return %{{.*}}, %{{.*}} : i64, i64
@kiln.export
def divmod2(a: int, b: int) -> tuple[int, int]:
    return a // b, a % b


# CHECK-LABEL: func.func @calls_and_library_swap_sum(
# CHECK: %[[R:.*]]:2 = func.call @calls_and_library_divmod2
@kiln.export
def swap_sum(a: int, b: int) -> int:
    q, r = divmod2(a, b)
    q, r = r, q
    return q * 10 + r


# raise and assert become kiln.check with the constant message.
# CHECK-LABEL: func.func @calls_and_library_positive(
# CHECK: kiln.check %{{.*}}, "ValueError", "x must be positive"
# CHECK: kiln.check %{{.*}}, "AssertionError", "finite"
@kiln.export
def positive(x: float) -> float:
    if x <= 0:
        raise ValueError("x must be positive")
    assert x < math.inf, "finite"
    return x
