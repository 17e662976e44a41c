# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import kiln


# Variables changed in a branch are yielded by scf.if.
# CHECK-LABEL: func.func @control_flow_absolute(
# CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f64)
# CHECK: scf.yield
# CHECK: } else {
# CHECK: scf.yield
# CHECK: func.return %[[R]] : f64
@kiln.export
def absolute(x: float) -> float:
    y = x
    if x < 0:
        y = -x
    return y


# `s = 0` then `s += float` makes s a float for the whole function.
# CHECK-LABEL: func.func @control_flow_total(
# CHECK: %[[ZERO:.*]] = arith.constant 0.0 : f64
# CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f64) : i64
# The carried variables' names, for kiln-vectorize's remarks:
# CHECK: } {kiln.carried = ["s"]} loc(
@kiln.export
def total(x: kiln.f64[:]) -> float:
    s = 0
    for i in range(len(x)):
        s += x[i]
    return s


# A negative step iterates a normalized counter.
# CHECK-LABEL: func.func @control_flow_countdown(
# CHECK: arith.ceildivui
# CHECK: scf.for
# CHECK: arith.muli
# CHECK: arith.addi
@kiln.export
def countdown(n: int) -> int:
    last = 0
    for i in range(n, 0, -2):
        last = last * 10 + i
    return last


# An unknown step is checked at run time.
# CHECK-LABEL: func.func @control_flow_stepped(
# CHECK: kiln.check %{{.*}}, "ValueError", "range() arg 3 must not be zero"
@kiln.export
def stepped(a: int, b: int, step: int) -> int:
    count = 0
    for i in range(a, b, step):
        count += 1
    return count


# CHECK-LABEL: func.func @control_flow_gcd(
# CHECK-SAME: %[[A:arg[0-9]+]]: i64, %[[B:arg[0-9]+]]: i64
# CHECK: scf.while (%{{.*}} = %[[A]], %{{.*}} = %[[B]]) : (i64, i64) -> (i64, i64)
# CHECK: scf.condition
# CHECK: } do {
# CHECK: scf.yield
@kiln.export
def gcd(a: int, b: int) -> int:
    while b != 0:
        remainder = a % b
        a = b
        b = remainder
    return a


# An early return moves the rest of the function into the other branch.
# CHECK-LABEL: func.func @control_flow_classify(
# CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i64)
# CHECK: scf.yield
# CHECK: } else {
# CHECK: scf.if %{{.*}} -> (i64)
# CHECK: func.return %[[R]] : i64
@kiln.export
def classify(x: float) -> int:
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0
