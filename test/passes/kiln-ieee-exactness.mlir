// RUN: kiln-opt %s -split-input-file -kiln-ieee-exactness | FileCheck %s

// Scalar pow is glibc's pow under a name LLVM does not rewrite (x ** 2 is
// not x * x: glibc's pow is not correctly rounded, and CPython calls it).
// CHECK-LABEL: llvm.func @powf64(f64, f64) -> f64
// CHECK-SAME: no_unwind
// CHECK-LABEL: func.func @square
// CHECK: %[[TWO:.*]] = arith.constant 2.0
// CHECK: llvm.call @powf64(%arg0, %[[TWO]]) : (f64, f64) -> f64
// CHECK-NOT: math.powf
func.func @square(%x: f64) -> f64 {
  %two = arith.constant 2.0 : f64
  %r = math.powf %x, %two : f64
  return %r : f64
}
// CHECK-LABEL: func.func @single
// CHECK: llvm.call @powf32
func.func @single(%x: f32, %y: f32) -> f32 {
  %r = math.powf %x, %y : f32
  return %r : f32
}

// -----

// A negation feeding arithmetic, and -1.0 / -0.0 operands LLVM would turn
// into negations, are fenced: the NaN sign stays what x86 gives CPython.
// CHECK-LABEL: func.func @nan_signs
// CHECK: %[[NEG:.*]] = arith.negf %arg0
// CHECK: %[[FENCED:.*]] = llvm.call_intrinsic "llvm.arithmetic.fence"(%[[NEG]])
// CHECK: arith.addf %[[FENCED]], %arg1
// CHECK: llvm.call_intrinsic "llvm.arithmetic.fence"
// CHECK: arith.mulf
// CHECK: llvm.call_intrinsic "llvm.arithmetic.fence"
// CHECK: arith.divf
// CHECK: arith.cmpf olt, %[[NEG]], %arg1
func.func @nan_signs(%x: f64, %y: f64) -> (f64, f64, f64, i1) {
  %n = arith.negf %x : f64
  %a = arith.addf %n, %y : f64
  %m1 = arith.constant -1.0 : f64
  %b = arith.mulf %x, %m1 : f64
  %c = arith.divf %y, %m1 : f64
  %d = arith.cmpf olt, %n, %y : f64
  return %a, %b, %c, %d : f64, f64, f64, i1
}

// -----

// Scalar float32 transcendentals call glibc's _Float32 aliases, which LLVM
// does not constant-fold (it would compute in double and round).
// CHECK-LABEL: func.func @float32_log1p
// CHECK: llvm.call @expf32
// CHECK: call @log1pf32(
// CHECK-NOT: @log1pf(
func.func private @log1pf(f32) -> f32
func.func @float32_log1p(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %l = func.call @log1pf(%e) : (f32) -> f32
  return %l : f32
}

// -----

// The divisor of every remf is fenced: LLVM would expand `frem x, 1.0`
// inline, and the NaN of `inf % 1.0` would lose the sign glibc's fmod gives.
// CHECK-LABEL: func.func @float_remainder
// CHECK: %[[ONE:.*]] = arith.constant 1.0
// CHECK: %[[F1:.*]] = llvm.call_intrinsic "llvm.arithmetic.fence"(%[[ONE]])
// CHECK: arith.remf %arg0, %[[F1]] : f64
// CHECK: %[[F2:.*]] = llvm.call_intrinsic "llvm.arithmetic.fence"(%arg2)
// CHECK: arith.remf %arg1, %[[F2]] : vector<8xf32>
func.func @float_remainder(%x: f64, %v: vector<8xf32>, %w: vector<8xf32>) -> (f64, vector<8xf32>) {
  %one = arith.constant 1.0 : f64
  %r = arith.remf %x, %one : f64
  %s = arith.remf %v, %w : vector<8xf32>
  return %r, %s : f64, vector<8xf32>
}
