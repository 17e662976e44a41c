// RUN: kiln-opt %s -split-input-file -kiln-lower-to-std | FileCheck %s

// CHECK-LABEL: func.func @int_floordiv
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i64
// CHECK: kiln.check %[[NZ]], ZeroDivisionError, "integer division or modulo by zero"
// The division is total (divisor 1 for 0 and -1): upstream marks
// arith.floordivsi Pure, so LICM may hoist it above the check.
// CHECK: %[[M1:.*]] = arith.cmpi eq, %arg1, %{{.*}} : i64
// CHECK: %[[Z:.*]] = arith.cmpi eq, %arg1, %{{.*}} : i64
// CHECK: %[[TRAPS:.*]] = arith.ori %[[M1]], %[[Z]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[TRAPS]], %{{.*}}, %arg1 : i64
// CHECK: %[[Q:.*]] = arith.floordivsi %arg0, %[[SAFE]] : i64
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %arg0 : i64
// CHECK: arith.select %[[M1]], %[[NEG]], %[[Q]] : i64
// CHECK-NOT: kiln.floordiv
func.func @int_floordiv(%a: i64, %b: i64) -> i64 {
  %q = kiln.floordiv %a, %b : i64
  return %q : i64
}

// -----

// A constant divisor other than 0 and -1 needs neither the check nor the
// -1 special case.
// CHECK-LABEL: func.func @by_constant
// CHECK-NOT: kiln.check
// CHECK-NOT: arith.select
// CHECK: arith.floordivsi
// CHECK: arith.remsi
func.func @by_constant(%a: i64) -> (i64, i64) {
  %c8 = arith.constant 8 : i64
  %q = kiln.floordiv %a, %c8 : i64
  %r = kiln.mod %a, %c8 : i64
  return %q, %r : i64, i64
}

// -----

// The remainder takes the divisor's sign.
// CHECK-LABEL: func.func @int_mod
// CHECK: "integer modulo by zero"
// CHECK: %[[R:.*]] = arith.remsi
// CHECK: arith.xori
// CHECK: arith.addi %[[R]]
func.func @int_mod(%a: i64, %b: i64) -> i64 {
  %r = kiln.mod %a, %b : i64
  return %r : i64
}

// -----

// CHECK-LABEL: func.func @float_floordiv
// CHECK: "float floor division by zero"
// CHECK: arith.remf
// CHECK: math.floor
// CHECK: math.copysign
func.func @float_floordiv(%a: f64, %b: f64) -> f64 {
  %q = kiln.floordiv %a, %b : f64
  return %q : f64
}

// -----

// CHECK-LABEL: func.func @float_mod
// CHECK: "float modulo"
// CHECK: arith.remf
// CHECK: math.copysign
func.func @float_mod(%a: f32, %b: f32) -> f32 {
  %r = kiln.mod %a, %b : f32
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @int_pow
// CHECK: arith.cmpi sge, %arg1
// CHECK: kiln.check %{{.*}}, ValueError, "negative exponent
// CHECK: math.ipowi %arg0, %arg1 : i64
func.func @int_pow(%a: i64, %b: i64) -> i64 {
  %p = kiln.pow %a, %b : i64
  return %p : i64
}

// -----

// math.ipowi reads its exponent as signed; an unsigned one is halved
// (logically) first, so 255 : ui8 is not -1 (fuzzer seed 404, f131).
// CHECK-LABEL: func.func @unsigned_pow
// CHECK-NOT: kiln.check
// CHECK: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK: %[[HALF:.*]] = arith.shrui %arg1, %[[ONE]] : i8
// CHECK: %[[ROOT:.*]] = math.ipowi %arg0, %[[HALF]] : i8
// CHECK: %[[SQUARE:.*]] = arith.muli %[[ROOT]], %[[ROOT]] : i8
// CHECK: %[[BIT:.*]] = arith.andi %arg1, %[[ONE]] : i8
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[BIT]]
// CHECK: %[[TIMES:.*]] = arith.muli %[[SQUARE]], %arg0 : i8
// CHECK: arith.select %[[ODD]], %[[TIMES]], %[[SQUARE]] : i8
func.func @unsigned_pow(%a: i8, %b: i8) -> i8 {
  %p = kiln.pow %a, %b {is_unsigned} : i8
  return %p : i8
}

// -----

// CHECK-LABEL: func.func @float_pow
// CHECK: ZeroDivisionError, "0.0 cannot be raised to a negative power"
// CHECK: ValueError, "a negative number raised to a fractional power
// CHECK: %[[P:.*]] = math.powf %arg0, %arg1 : f64
// CHECK: OverflowError, "(34, 'Numerical result out of range')"
func.func @float_pow(%a: f64, %b: f64) -> f64 {
  %p = kiln.pow %a, %b : f64
  return %p : f64
}

// -----

// CHECK-LABEL: func.func @index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %arg0, %{{.*}} : i64
// CHECK: %[[WRAP:.*]] = arith.addi %arg0, %arg1 : i64
// CHECK: %[[POS:.*]] = arith.select %[[NEG]], %[[WRAP]], %arg0 : i64
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[POS]], %arg1 : i64
// CHECK: kiln.check %[[IN]], IndexError, "index {} is out of bounds for axis 1 with size {}"(%arg0, %arg1)
// CHECK: arith.index_cast %[[POS]] : i64 to index
func.func @index(%i: i64, %n: i64) -> index {
  %r = kiln.index %i, %n {axis = 1 : i64} : i64 -> index
  return %r : index
}

// -----

// CHECK-LABEL: func.func @index_known_safe
// CHECK-NOT: arith.select
// CHECK-NOT: kiln.check
// CHECK: arith.index_cast %arg0 : i64 to index
func.func @index_known_safe(%i: i64, %n: i64) -> index {
  %r = kiln.index %i, %n {axis = 0 : i64, nonnegative, unchecked} : i64 -> index
  return %r : index
}

// -----

// NaN is truthy: an unordered compare.
// CHECK-LABEL: func.func @truthy
// CHECK: arith.cmpf une
// CHECK: arith.cmpi ne
func.func @truthy(%x: f64, %n: i32) -> (i1, i1) {
  %a = kiln.truthy %x : f64
  %b = kiln.truthy %n : i32
  return %a, %b : i1, i1
}

// -----

// CHECK-LABEL: func.func @to_float
// CHECK: arith.sitofp %arg0 : i64 to f64
func.func @to_float(%n: i64) -> f64 {
  %f = kiln.to_float %n : i64 to f64
  return %f : f64
}

// -----

// Upstream folds atan2(0, 0) to NaN. Each atan2 is followed by a select of
// C99's result for two zeros (+-0, or +-pi when x is -0), which folds with
// the call once both operands are constants (lower-to-llvm.mlir).
// CHECK-LABEL: func.func @atan2_zeros
// CHECK: %[[R:.*]] = math.atan2 %arg0, %arg1 : f64
// CHECK: %[[YZ:.*]] = arith.cmpf oeq, %arg0
// CHECK: %[[XZ:.*]] = arith.cmpf oeq, %arg1
// CHECK: %[[BOTH:.*]] = arith.andi %[[YZ]], %[[XZ]]
// CHECK: math.copysign %{{.*}}, %arg1
// CHECK: arith.constant 3.1415926535897931 : f64
// CHECK: %[[Z:.*]] = math.copysign %{{.*}}, %arg0
// CHECK: %[[S:.*]] = arith.select %[[BOTH]], %[[Z]], %[[R]]
// CHECK: return %[[S]]
func.func @atan2_zeros(%y: f64, %x: f64) -> f64 {
  %r = math.atan2 %y, %x : f64
  return %r : f64
}

// -----

// numpy_semantics (array elements): no ZeroDivisionError; a zero divisor
// gives 0 for ints, a / b for a float floor division.
// CHECK-LABEL: func.func @numpy_int_floordiv
// CHECK-NOT: kiln.check
// CHECK: arith.floordivsi
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg1
// CHECK: arith.select %[[ZERO]]
func.func @numpy_int_floordiv(%a: i32, %b: i32) -> i32 {
  %q = kiln.floordiv %a, %b {numpy_semantics} : i32
  return %q : i32
}

// -----

// CHECK-LABEL: func.func @numpy_float_floordiv
// CHECK-NOT: kiln.check
// CHECK: %[[QUOTIENT:.*]] = arith.divf %arg0, %arg1
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %arg1
// CHECK: arith.select %[[ZERO]], %[[QUOTIENT]]
func.func @numpy_float_floordiv(%a: f64, %b: f64) -> f64 {
  %q = kiln.floordiv %a, %b {numpy_semantics} : f64
  return %q : f64
}
