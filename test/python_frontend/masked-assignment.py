# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import numpy as np

import kiln


# mandelbrot's `z[i] = z[i]**2 + c[i]`: every mask's shape checked (each
# y[i] on the right, then the target), then one pass over the arrays that
# stores where the mask holds. No count, no gathered array, no scatter.
# CHECK-LABEL: func.func @masked_assignment_escape(
# CHECK-COUNT-6: "boolean index did not match indexed array
# CHECK-NOT: iter_args
# CHECK-NOT: memref.alloc
# CHECK: scf.for
# CHECK-NEXT: scf.for
# CHECK-NEXT: %[[SELECTED:.*]] = memref.load {{.*}} : memref<?x?xi1, strided<[?, ?], offset: ?>>
# CHECK-NEXT: scf.if %[[SELECTED]] {
# CHECK: memref.load {{.*}} : memref<?x?xcomplex<f64>
# CHECK: arith.mulf
# CHECK: memref.load {{.*}} : memref<?x?xcomplex<f64>
# CHECK: %[[NEW:.*]] = "complex.create"
# CHECK-NEXT: memref.store %[[NEW]]
# CHECK: func.return
@kiln.export
def escape(z0: kiln.c128[:, :], c: kiln.c128[:, :], h: float):
    z = z0.copy()
    i = np.abs(z) < h
    z[i] = z[i]**2 + c[i]
    return z


# When y may be x's memory (two parameters), numpy's order is kept: the
# selected elements are counted and gathered before any is stored.
# CHECK-LABEL: func.func @masked_assignment_may_alias(
# CHECK: iter_args
# CHECK: func.return
@kiln.export
def may_alias(x: kiln.f64[:], y: kiln.f64[:]):
    x[x > 0] = y[x > 0] * 2.0
