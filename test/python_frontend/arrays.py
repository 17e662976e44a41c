# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import kiln
from kiln import f32


# Arrays are strided views of any offset; loads are bounds-checked with one
# unsigned compare after negative indices wrap around.
# CHECK-LABEL: func.func @last(%x: memref<?xf64, strided<[?], offset: ?>>, %error: !llvm.ptr {kiln.error_slot}) -> f64
# CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
# CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[N]] : i64
# CHECK: %[[OK:.*]] = arith.cmpi ult, %[[I]], %[[N]] : i64
# CHECK: kiln.check %[[OK]], "IndexError", "index {} is out of bounds for axis 0 with size {}"
# CHECK: memref.load %x[
@kiln.export
def last(x: kiln.f64[:]) -> float:
    return x[-1]


# A variable index needs the run-time wraparound select.
# CHECK-LABEL: func.func @get(
# CHECK: arith.cmpi slt
# CHECK: arith.select
@kiln.export
def get(x: kiln.i64[:], i: int) -> int:
    return x[i]


# boundscheck=False removes the checks (and the error slot).
# CHECK-LABEL: func.func @unchecked(%x: memref<?xf32, strided<[?], offset: ?>>) -> f32
# CHECK-NOT: kiln.check
@kiln.export(boundscheck=False)
def unchecked(x: f32[:]) -> f32:
    return x[0]


# Stores convert to the element type; 2-D views index with a tuple.
# CHECK-LABEL: func.func @fill(%m: memref<?x?xi32, strided<[?, ?], offset: ?>>, %value: i64
# CHECK: scf.for
# CHECK: scf.for
# CHECK: arith.trunci %value : i64 to i32
# CHECK: memref.store %{{.*}}, %m[%{{.*}}, %{{.*}}] : memref<?x?xi32, strided<[?, ?], offset: ?>>
@kiln.export
def fill(m: kiln.i32[:, :], value: int) -> None:
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = value
