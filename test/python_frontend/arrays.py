# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import kiln
from kiln import f32


# Arrays are strided views of any offset; an index is a kiln.index, which
# wraps negative values around and checks bounds.
# CHECK-LABEL: func.func @arrays_last(
# CHECK-SAME: %[[X:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: !llvm.ptr {kiln.error_slot}) -> f64
# CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
# CHECK: %[[I:.*]] = kiln.index %{{.*}}, %[[N]] {axis = 0 : i64} : i64 -> index
# CHECK: memref.load %[[X]][%[[I]]]
@kiln.export
def last(x: kiln.f64[:]) -> float:
    return x[-1]


# An index of unknown sign: kiln.index wraps it around at run time.
# CHECK-LABEL: func.func @arrays_get(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xi64, strided<[?], offset: ?>>, %[[I:arg[0-9]+]]: i64
# CHECK: kiln.index %[[I]], %{{.*}} {axis = 0 : i64} : i64 -> index
@kiln.export
def get(x: kiln.i64[:], i: int) -> int:
    return x[i]


# boundscheck=False removes the checks (and the error slot).
# CHECK-LABEL: func.func @arrays_unchecked(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xf32, strided<[?], offset: ?>>) -> f32
# CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
@kiln.export(boundscheck=False)
def unchecked(x: f32[:]) -> f32:
    return x[0]


# Stores convert to the element type; 2-D views index with a tuple.
# CHECK-LABEL: func.func @arrays_fill(
# CHECK-SAME: %[[M:arg[0-9]+]]: memref<?x?xi32, strided<[?, ?], offset: ?>>, %[[VALUE:arg[0-9]+]]: i64
# CHECK: scf.for
# CHECK: scf.for
# CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative}
# CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 1 : i64, nonnegative}
# CHECK: arith.trunci %[[VALUE]] : i64 to i32
# CHECK: memref.store %{{.*}}, %[[M]][%{{.*}}, %{{.*}}] : memref<?x?xi32, strided<[?, ?], offset: ?>>
@kiln.export
def fill(m: kiln.i32[:, :], value: int) -> None:
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = value


# A reduction along an axis picks its loop nest by the strides at run time:
# the reduced axis innermost (a carried accumulator) when it is the most
# contiguous, outermost otherwise (the result accumulates), so C- and
# Fortran-ordered arrays are both read in memory order.
# CHECK-LABEL: func.func @arrays_column_sums(
# CHECK: memref.extract_strided_metadata
# CHECK: arith.cmpi ule
# CHECK: scf.if
# CHECK: scf.for {{.*}} iter_args
# CHECK: } else {
# CHECK: scf.for
# CHECK: scf.for
# CHECK: memref.load
# CHECK: arith.addf
# CHECK: memref.store
@kiln.export
def column_sums(m: kiln.f64[:, :]):
    return m.sum(axis=0)


# An elementwise statement into a 2-D view runs in memory order: over the
# views with their axes reversed when the destination is Fortran-ordered.
# CHECK-LABEL: func.func @arrays_doubled_into(
# CHECK: arith.cmpi ult
# CHECK: scf.if
# CHECK: memref.reinterpret_cast
# CHECK: linalg.generic
# CHECK: bufferization.materialize_in_destination
# CHECK: } else {
# CHECK: linalg.generic
# CHECK: bufferization.materialize_in_destination
@kiln.export
def doubled_into(out: kiln.f64[:, :], m: kiln.f64[:, :]):
    out[:] = m * 2.0
