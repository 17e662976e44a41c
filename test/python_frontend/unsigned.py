# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt --kiln-lower-to-std | FileCheck %s --check-prefix=LOWERED
# Unsigned dtypes are signless MLIR integers; Kiln's type picks the ops.
import kiln


# CHECK-LABEL: func.func @unsigned_unsigned_ops(
# CHECK-SAME: %[[A:arg[0-9]+]]: i8, %[[B:arg[0-9]+]]: i8,
# CHECK: kiln.floordiv %[[A]], %[[B]] {is_unsigned} : i8
# CHECK: kiln.mod %[[A]], %[[B]] {is_unsigned} : i8
# CHECK: kiln.pow %[[A]], %[[B]] {is_unsigned} : i8
# CHECK: arith.cmpi ult
# LOWERED-LABEL: func.func @unsigned_unsigned_ops(
# LOWERED: arith.divui
# LOWERED: arith.remui
# LOWERED-NOT: arith.floordivsi
@kiln.export
def unsigned_ops(a: kiln.u8, b: kiln.u8) -> kiln.u8:
    q = a // b + a % b + a ** b
    if a < b:
        return q
    return q


# Widening an unsigned value zero-extends; to float is uitofp.
# CHECK-LABEL: func.func @unsigned_widen(
# CHECK: arith.extui %{{.*}} : i16 to i32
# CHECK: arith.uitofp %{{.*}} : i32 to f64
@kiln.export
def widen(a: kiln.u16, b: kiln.u32) -> float:
    return float(a + b)


# u8 + i8 is i16 (numpy): the u8 is zero-extended, the i8 sign-extended.
# CHECK-LABEL: func.func @unsigned_mixed(
# CHECK-DAG: arith.extui %{{.*}} : i8 to i16
# CHECK-DAG: arith.extsi %{{.*}} : i8 to i16
@kiln.export
def mixed(a: kiln.u8, b: kiln.i8) -> kiln.i16:
    return a + b


# Shifts clamp the count (LLVM's shifts by >= the width are poison); an
# unsigned >> is logical, a signed one arithmetic; only signed counts can be
# negative.
# CHECK-LABEL: func.func @unsigned_shifts(
# CHECK-NOT: kiln.check
# CHECK: arith.cmpi ult
# CHECK: arith.shrui
# CHECK: arith.shli
@kiln.export
def shifts(a: kiln.u32, n: kiln.u32) -> kiln.u32:
    return (a >> n) + (a << n)


# CHECK-LABEL: func.func @unsigned_signed_shift(
# CHECK: kiln.check{{.*}}negative shift count
# CHECK: arith.shrsi
@kiln.export
def signed_shift(a: int, n: int) -> int:
    return a >> n
