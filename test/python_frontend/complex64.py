# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import numpy as np
import kiln

# CHECK: func.func private @cexpf(vector<2xf32>) -> vector<2xf32>


# numpy's complex64 is complex<f32>. At a function boundary it is a
# vector<2xf32>: x86-64 passes and returns C's `float _Complex` packed in one
# SSE register, as LLVM passes a <2 x float> (a complex<f32> would become a
# struct of two floats in two registers). The product is computed on float32
# parts, a float32 operand becoming (x, 0.0).
# CHECK-LABEL: func.func @complex64_scale(
# CHECK-SAME: %[[A:arg[0-9]+]]: vector<2xf32>, %[[X:arg[0-9]+]]: f32) -> vector<2xf32>
# CHECK: %[[RE:.*]] = "vector.extract"(%[[A]]) {static_position = array<i64: 0>}
# CHECK: %[[IM:.*]] = "vector.extract"(%[[A]]) {static_position = array<i64: 1>}
# CHECK: %[[Z:.*]] = "complex.create"(%[[RE]], %[[IM]]) : (f32, f32) -> complex<f32>
# CHECK: %[[ZERO:.*]] = arith.constant 0.0 : f32
# CHECK: "complex.create"(%[[X]], %[[ZERO]]) : (f32, f32) -> complex<f32>
# CHECK: arith.subf {{.*}} : f32
# CHECK: arith.addf {{.*}} : f32
# CHECK: %[[P:.*]] = "complex.create"({{.*}}) : (f32, f32) -> complex<f32>
# CHECK: %[[PR:.*]] = "complex.re"(%[[P]])
# CHECK: %[[PI:.*]] = "complex.im"(%[[P]])
# CHECK: %[[OUT:.*]] = "vector.from_elements"(%[[PR]], %[[PI]]) : (f32, f32) -> vector<2xf32>
# CHECK: func.return %[[OUT]] : vector<2xf32>
@kiln.export
def scale(a: kiln.c64, x: kiln.f32) -> kiln.c64:
    return a * x


# A float32 array with a complex literal is complex64 (NEP 50); np.exp of it
# calls glibc's cexpf, declared (at the top of the module) with the packed
# C ABI.
# CHECK-LABEL: func.func @complex64_rotate_exp(
# CHECK-SAME: memref<?xf32, strided<[?], offset: ?>>
# CHECK-SAME: -> memref<?xcomplex<f32>, strided<[?], offset: ?>>
# CHECK: "linalg.generic"
# CHECK: "vector.from_elements"
# CHECK: func.call @cexpf({{.*}}) : (vector<2xf32>) -> (vector<2xf32>)
@kiln.export
def rotate_exp(x: kiln.f32[:]):
    return np.exp(x * 1j)


# np.abs of a complex64 array is numpy's AVX-512 loop: larger *
# sqrt(fma(r, r, 1)) in float32.
# CHECK-LABEL: func.func @complex64_magnitude(
# CHECK: arith.divf {{.*}} : f32
# CHECK: "math.fma"({{.*}}) : (f32, f32, f32) -> f32
# CHECK: math.sqrt {{.*}} : f32
@kiln.export
def magnitude(z: kiln.c64[:]) -> kiln.f32[:]:
    return np.abs(z)
