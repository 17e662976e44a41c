# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import kiln


# Locations point at the Python line and column of every op.
# CHECK-LABEL: func.func @arithmetic_mixed(
# CHECK-SAME: %[[A:arg[0-9]+]]: i64, %[[B:arg[0-9]+]]: f64) -> f64
# CHECK: %[[F:.*]] = kiln.to_float %[[A]] : i64 to f64 loc("{{.*}}arithmetic.py":[[@LINE+5]]:12)
# CHECK-NOT: fastmath
# CHECK: arith.mulf %[[F]], %[[B]] : f64 loc("{{.*}}arithmetic.py":[[@LINE+3]]:12)
@kiln.export
def mixed(a: int, b: float) -> float:
    return a * b


# Python's floor division is a kiln op (kiln-lower-to-std expands it); it
# may raise, so the function gets an error slot.
# CHECK-LABEL: func.func @arithmetic_floordiv(
# CHECK-SAME: %[[A:arg[0-9]+]]: i64, %[[B:arg[0-9]+]]: i64, %{{arg[0-9]+}}: !llvm.ptr {kiln.error_slot}) -> i64
# CHECK: kiln.floordiv %[[A]], %[[B]] : i64
@kiln.export
def floordiv(a: int, b: int) -> int:
    return a // b


# CHECK-LABEL: func.func @arithmetic_modulo(
# CHECK-SAME: %[[A:arg[0-9]+]]: i64, %[[B:arg[0-9]+]]: i64
# CHECK: kiln.mod %[[A]], %[[B]] : i64
@kiln.export
def modulo(a: int, b: int) -> int:
    return a % b


# A constant non-zero divisor cannot raise: no error slot.
# CHECK-LABEL: func.func @arithmetic_half(
# CHECK-SAME: %{{arg[0-9]+}}: i64) -> i64
# CHECK: kiln.floordiv
@kiln.export
def half(a: int) -> int:
    return a // 2


# True division is float division, and 1 / 0 raises like CPython.
# CHECK-LABEL: func.func @arithmetic_ratio(
# CHECK: kiln.to_float
# CHECK: "ZeroDivisionError", "division by zero"
# CHECK: arith.divf
@kiln.export
def ratio(a: int, b: int) -> float:
    return a / b


# CHECK-LABEL: func.func @arithmetic_float_floordiv(
# CHECK-SAME: %[[A:arg[0-9]+]]: f64, %[[B:arg[0-9]+]]: f64
# CHECK: kiln.floordiv %[[A]], %[[B]] : f64
@kiln.export
def float_floordiv(a: float, b: float) -> float:
    return a // b


# `**` on ints stays int; with a float operand it is float.
# CHECK-LABEL: func.func @arithmetic_powers(
# CHECK-SAME: %[[N:arg[0-9]+]]: i64, %[[X:arg[0-9]+]]: f64
# CHECK: kiln.pow %[[N]], %{{.*}} : i64
# CHECK: kiln.to_float
# CHECK: kiln.pow %{{.*}}, %[[X]] : f64
@kiln.export
def powers(n: int, x: float) -> float:
    return n ** 3 + n ** x


# Booleans cross the C ABI as i8.
# CHECK-LABEL: func.func @arithmetic_logic(
# CHECK-SAME: %[[P:arg[0-9]+]]: i8, %[[Q:arg[0-9]+]]: i8) -> i8
# CHECK: arith.trunci %[[P]] : i8 to i1
# CHECK: scf.if
# CHECK: arith.extui %{{.*}} : i1 to i8
@kiln.export
def logic(p: bool, q: bool) -> bool:
    return p and not q


# Chained comparisons evaluate the middle operand once and short-circuit.
# CHECK-LABEL: func.func @arithmetic_between(
# CHECK: arith.cmpf ole
# CHECK: scf.if %{{.*}} -> (i1)
# CHECK: arith.cmpf olt
@kiln.export
def between(low: float, x: float, high: float) -> bool:
    return low <= x < high


# min/max keep CPython's argument order, so NaN behaves the same.
# CHECK-LABEL: func.func @arithmetic_smallest(
# CHECK-SAME: %[[A:arg[0-9]+]]: f64, %[[B:arg[0-9]+]]: f64
# CHECK: %[[LT:.*]] = arith.cmpf olt, %[[B]], %[[A]]
# CHECK: arith.select %[[LT]], %[[B]], %[[A]]
@kiln.export
def smallest(a: float, b: float) -> float:
    return min(a, b)


# int(x) raises for NaN and infinity, like CPython.
# CHECK-LABEL: func.func @arithmetic_truncate(
# CHECK: "ValueError", "cannot convert float NaN to integer"
# CHECK: "OverflowError", "cannot convert float infinity to integer"
# CHECK: arith.fptosi
@kiln.export
def truncate(x: float) -> int:
    return int(x)


# fastmath=True lets float arithmetic reassociate and contract (so float
# reductions vectorize); without it, no fast-math flags at all.
# CHECK-LABEL: func.func @arithmetic_fast_dot(
# CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
# CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : f64
@kiln.export(fastmath=True)
def fast_dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s
