# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import cmath

import kiln


# A complex value is complex<f64>; a float operand becomes (x, 0.0), and the
# product is CPython's _Py_c_prod on the parts (no complex.mul).
# CHECK-LABEL: func.func @complex_product(
# CHECK-SAME: %[[A:arg[0-9]+]]: complex<f64>, %[[B:arg[0-9]+]]: f64) -> complex<f64>
# CHECK: %[[ZERO:.*]] = arith.constant 0.0 : f64
# CHECK: %[[W:.*]] = "complex.create"(%[[B]], %[[ZERO]]) : (f64, f64) -> complex<f64>
# CHECK: %[[AR:.*]] = "complex.re"(%[[A]])
# CHECK: %[[AI:.*]] = "complex.im"(%[[A]])
# CHECK: %[[WR:.*]] = "complex.re"(%[[W]])
# CHECK: %[[WI:.*]] = "complex.im"(%[[W]])
# CHECK: %[[RR:.*]] = arith.mulf %[[AR]], %[[WR]]
# CHECK: %[[II:.*]] = arith.mulf %[[AI]], %[[WI]]
# CHECK: %[[RE:.*]] = arith.subf %[[RR]], %[[II]]
# CHECK: %[[RI:.*]] = arith.mulf %[[AR]], %[[WI]]
# CHECK: %[[IR:.*]] = arith.mulf %[[AI]], %[[WR]]
# CHECK: %[[IM:.*]] = arith.addf %[[RI]], %[[IR]]
# CHECK: %[[P:.*]] = "complex.create"(%[[RE]], %[[IM]])
# CHECK-NOT: complex.mul
# CHECK: func.return %[[P]] : complex<f64>
@kiln.export
def product(a: complex, b: float) -> complex:
    return a * b


# Division checks for a zero divisor (CPython's message) and selects one of
# Smith's two branches; `.real` is one complex.re.
# CHECK-LABEL: func.func @complex_quotient_real(
# CHECK-SAME: !llvm.ptr {kiln.error_slot}) -> f64
# CHECK: kiln.check %{{.*}}, "ZeroDivisionError", "complex division by zero"
# CHECK: arith.select
# CHECK: %[[Q:.*]] = "complex.create"
# CHECK: %[[R:.*]] = "complex.re"(%[[Q]])
# CHECK-NOT: "complex.im"(%[[Q]])
# CHECK: func.return %[[R]] : f64
@kiln.export
def quotient_real(a: complex, b: complex) -> float:
    return (a / b).real


# `z ** 2` is c_powu unrolled: (1+0j) * z, then an overflow check.
# CHECK-LABEL: func.func @complex_square(
# CHECK: arith.mulf
# CHECK: kiln.check %{{.*}}, "OverflowError", "complex exponentiation"
@kiln.export
def square(z: complex) -> complex:
    return z ** 2


# cmath.cosh is CPython's: cos(y) * cosh(x) and sin(y) * sinh(x) through
# libm (lowered to calls by convert-math-to-libm), OverflowError for an
# infinite result of finite parts, ValueError for an infinite imaginary part
# beside a non-NaN real one.
# CHECK-LABEL: func.func @complex_hyperbolic_cosine(
# CHECK: math.cos
# CHECK: math.cosh
# CHECK: kiln.check %{{.*}}, "OverflowError", "math range error"
# CHECK: kiln.check %{{.*}}, "ValueError", "math domain error"
@kiln.export
def hyperbolic_cosine(z: complex) -> complex:
    return cmath.cosh(z)


# cmath.isclose takes its keyword-only tolerances; a negative one raises.
# CHECK-LABEL: func.func @complex_close(
# CHECK: kiln.check %{{.*}}, "ValueError", "tolerances must be non-negative"
@kiln.export
def close(a: complex, b: complex, tolerance: float) -> bool:
    return cmath.isclose(a, b, abs_tol=tolerance)
