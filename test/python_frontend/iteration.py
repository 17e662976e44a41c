# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import kiln


# `for i, v in enumerate(a)` is a counted loop over the array's length (the
# parse stage rewrites it, desugar.py): the count is the induction variable,
# the element a load through kiln.index, whose bounds check kiln-lower-to-std
# drops (the counter is within the length it was loaded from).
# CHECK-LABEL: func.func @iteration_weighted(
# CHECK: %[[N:.*]] = arith.index_cast {{.*}} : index to i64
# CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f64) : i64 {
# CHECK: %[[K:.*]] = kiln.index %[[I]], %{{.*}} {axis = 0 : i64, nonnegative}
# CHECK: %[[V:.*]] = memref.load %arg0[%[[K]]]
# CHECK: %[[F:.*]] = kiln.to_float %[[I]]
# CHECK: arith.mulf %[[F]], %[[V]]
# CHECK: } {kiln.carried = ["s"]}
@kiln.export
def weighted(a: kiln.f64[:]) -> float:
    s = 0.0
    for i, v in enumerate(a):
        s += i * v
    return s


# `zip` runs as long as the shortest of its arrays.
# CHECK-LABEL: func.func @iteration_dot(
# CHECK: %[[LA:.*]] = arith.index_cast {{.*}} : index to i64
# CHECK: %[[LB:.*]] = arith.index_cast {{.*}} : index to i64
# CHECK: %[[SHORTER:.*]] = arith.cmpi slt, %[[LB]], %[[LA]]
# CHECK: %[[N:.*]] = arith.select %[[SHORTER]], %[[LB]], %[[LA]]
# CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]]
@kiln.export
def dot(a: kiln.f64[:], b: kiln.f64[:]) -> float:
    s = 0.0
    for u, v in zip(a, b):
        s += u * v
    return s
