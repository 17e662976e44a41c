# RUN: %python -m kiln mlir %s | kiln-opt | FileCheck %s
import kiln


# A loop that can return becomes scf.while over (counter, done, returned,
# value); after it, the function returns the value if the flag is set.
# CHECK-LABEL: func.func @loop_exits_find(
# CHECK: %[[LOOP:.*]]:4 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %false, %{{.*}} = %false, %{{.*}} = %{{.*}}) : (i64, i1, i1, i64) -> (i64, i1, i1, i64)
# CHECK: scf.condition
# CHECK: } do {
# CHECK: scf.yield %{{.*}}, %true{{.*}}, %true{{.*}}, %{{.*}} : i64, i1, i1, i64
# CHECK: scf.if %[[LOOP]]#2 -> (i64)
@kiln.export
def find(x: kiln.f64[:], v: float) -> int:
    for i in range(len(x)):
        if x[i] == v:
            return i
    return -1


# `continue` alone keeps scf.for: the rest of the body moves into the other
# branch of the `if`.
# CHECK-LABEL: func.func @loop_exits_odd_sum(
# CHECK: scf.for
# CHECK-NOT: scf.while
@kiln.export
def odd_sum(x: kiln.i64[:]) -> int:
    s = 0
    for i in range(len(x)):
        if x[i] % 2 == 0:
            continue
        s += x[i]
    return s


# CHECK-LABEL: func.func @loop_exits_until(
# CHECK: scf.while
# CHECK: %true
@kiln.export
def until(n: int) -> int:
    k = 0
    while True:
        k += 1
        if k * k > n:
            break
    return k
