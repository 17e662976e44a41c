# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import numpy as np

import kiln


# A `#pythran export` comment types the parameters without annotations.
# CHECK-LABEL: func.func @inferred_signatures_weighted(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>>, %{{arg[0-9]+}}: i64
#pythran export weighted(float64[], complex128[][], int)
@kiln.export
def weighted(x, z, k):
    return (x * k).sum() + abs(z[0, -1]) * z.shape[-1]


# A helper without annotations is typed by its first call: here a float64
# array and a Python int (int64).
# CHECK-LABEL: func.func private @inferred_signatures_scaled(
# CHECK-SAME: %{{arg[0-9]+}}: memref<?xf64, strided<[?], offset: ?>>, %{{arg[0-9]+}}: i64
# CHECK-LABEL: func.func @inferred_signatures_caller(
# CHECK: call @inferred_signatures_scaled(
def scaled(values, factor):
    return values * factor


@kiln.export
def caller(x: kiln.f64[:]) -> float:
    return scaled(x, 3).sum()
