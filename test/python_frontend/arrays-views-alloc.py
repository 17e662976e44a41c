# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
# RUN: %python -m kiln mlir %s | kiln-opt --kiln-lower-to-std --kiln-array-expressions --kiln-deallocation | FileCheck %s --check-prefix=FREES
import numpy as np

import kiln


# A slice is a memref.subview with Python's clamped bounds: no copy.
# CHECK-LABEL: func.func @arrays_views_alloc_interior(
# CHECK-SAME: %[[X:arg[0-9]+]]: memref<?xf64
# CHECK: arith.maxsi
# CHECK: arith.minsi
# CHECK: arith.ceildivsi
# CHECK: memref.subview %[[X]][%{{.*}}] [%{{.*}}] [%{{.*}}] : memref<?xf64, strided<[?], offset: ?>> to memref<?xf64, strided<[?], offset: ?>>
@kiln.export
def interior(x: kiln.f64[:]) -> float:
    v = x[1:-1]
    return v[0]


# An integer index drops the axis (a rank-reducing subview).
# CHECK-LABEL: func.func @arrays_views_alloc_row(
# CHECK-SAME: %[[M:arg[0-9]+]]: memref<?x?xf64
# CHECK: memref.subview %[[M]][%{{.*}}, %{{.*}}] [1, %{{.*}}] [1, %{{.*}}] : memref<?x?xf64, strided<[?, ?], offset: ?>> to memref<?xf64, strided<[?], offset: ?>>
@kiln.export
def row(m: kiln.f64[:, :], i: int) -> float:
    r = m[i, :]
    return r[0]


# A new array is owned by the call. The frontend writes no free: kilnc's
# ownership-based buffer deallocation frees the temporary and hands the
# returned array to the caller (kiln-opt --kiln-deallocation, checked by the
# second RUN line, FileCheck prefix FREES).
# CHECK-LABEL: func.func @arrays_views_alloc_doubled(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: !llvm.ptr {kiln.error_slot}) -> memref<?xf64, strided<[?], offset: ?>>
# CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
# CHECK: %[[TMP:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
# CHECK-NOT: memref.dealloc
# CHECK: func.return
# FREES-LABEL: func.func @arrays_views_alloc_doubled(
# FREES: %[[OUT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
# FREES: %[[TMP:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf64>
# FREES-NOT: memref.dealloc %[[OUT]]
# FREES: memref.dealloc %[[TMP]] : memref<?xf64>
# FREES-NOT: memref.dealloc %[[OUT]]
# FREES: return
@kiln.export
def doubled(x: kiln.f64[:]) -> kiln.f64[:]:
    out = np.empty_like(x)
    tmp = np.zeros(len(x))
    for i in range(len(x)):
        tmp[i] = x[i]
        out[i] = 2.0 * tmp[i]
    return out
