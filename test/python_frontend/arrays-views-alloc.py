# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
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


# A new array is owned by the call: marked kiln.owned so error paths free
# it, returned to the caller, and temporaries are freed at the return.
# CHECK-LABEL: func.func @arrays_views_alloc_doubled(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: !llvm.ptr {kiln.error_slot}) -> memref<?xf64, strided<[?], offset: ?>>
# CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64, kiln.owned} : memref<?xf64>
# CHECK: %[[TMP:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64, kiln.owned} : memref<?xf64>
# CHECK: memref.dealloc %[[TMP]] : memref<?xf64>
# CHECK-NOT: memref.dealloc %[[OUT]]
# CHECK: func.return
@kiln.export
def doubled(x: kiln.f64[:]) -> kiln.f64[:]:
    out = np.empty_like(x)
    tmp = np.zeros(len(x))
    for i in range(len(x)):
        tmp[i] = x[i]
        out[i] = 2.0 * tmp[i]
    return out
