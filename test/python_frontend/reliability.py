# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
# Issue 15: the IR shapes behind CPython's semantics.
import kiln
import numpy as np


# B3: every name of a tuple target is carried by the loop, and the yield
# binds the values computed before any target.
# CHECK-LABEL: func.func @reliability_fib(
# CHECK: scf.for %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (i64, i64)
# CHECK: %[[SUM:.*]] = arith.addi %[[A]], %[[B]] : i64
# CHECK: scf.yield %[[B]], %[[SUM]] : i64, i64
# CHECK: } {kiln.carried = ["a", "b"]}
@kiln.export
def fib(n: int) -> int:
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


# B4: float() of a float32 is a double, int() of an int32 is 64-bit.
# CHECK-LABEL: func.func @reliability_widen(
# CHECK: arith.extf %{{.*}} : f32 to f64
# CHECK: arith.extsi %{{.*}} : i32 to i64
@kiln.export
def widen(x: kiln.f32, n: kiln.i32) -> float:
    return float(x) + int(n) * 1099511627776


# B5: a float32 cast of a literal holds the float32 value.
# CHECK-LABEL: func.func @reliability_f32_constant(
# CHECK: arith.constant 0.10000000149011612 : f64
@kiln.export
def f32_constant() -> float:
    return float(np.float32(0.1))


# B7: a Python int beyond int32 next to an int32 raises (numpy 2), and
# literal arithmetic is folded exactly.
# CHECK-LABEL: func.func @reliability_beyond_int32(
# CHECK: kiln.check %{{.*}}, "OverflowError", "Python integer 1099511627777 out of bounds for int32"
@kiln.export
def beyond_int32(x: kiln.i32) -> int:
    return x + (2**40 + 1)


# B9: int() accepts [-2**63, 2**63).
# CHECK-LABEL: func.func @reliability_to_int(
# CHECK: arith.constant 9.223372036854776e+18 : f64
# CHECK: arith.constant -9.223372036854776e+18 : f64
# CHECK: arith.cmpf olt
# CHECK: arith.cmpf oge
@kiln.export
def to_int(x: float) -> int:
    return int(x)


# B10: both indices are computed before either is checked.
# CHECK-LABEL: func.func @reliability_element(
# CHECK: kiln.floordiv
# CHECK: kiln.index
# CHECK: kiln.index
@kiln.export
def element(m: kiln.f64[:, :], i: int, j: int, k: int) -> float:
    return m[i, j // k]
