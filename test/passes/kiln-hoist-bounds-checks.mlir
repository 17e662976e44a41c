// RUN: kiln-opt %s -split-input-file -kiln-hoist-bounds-checks | FileCheck %s

// i and i + 1 are affine in the counter with invariant sizes: one test of
// the first and last index picks the unchecked copy.
// CHECK-LABEL: func.func @shifted
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi
// CHECK: arith.cmpi sle, %[[TRIPS]]
// CHECK-COUNT-4: arith.cmpi ult
// CHECK: %[[ANY:.*]] = arith.ori
// CHECK: %[[OK:.*]] = llvm.intr.expect %[[ANY]]
// CHECK: scf.if %[[OK]] {
// CHECK: scf.for
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
// CHECK: } else {
// CHECK: scf.for
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64}
// CHECK-NOT: unchecked
// CHECK: return
func.func @shifted(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64, %nx: i64, %nout: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %next = arith.addi %i, %c1 : i64
    %a = kiln.index %next, %nx {axis = 0 : i64} : i64 -> index
    %v = memref.load %x[%a] : memref<?xf64>
    %b = kiln.index %i, %nout {axis = 0 : i64} : i64 -> index
    memref.store %v, %out[%b] : memref<?xf64>
  }
  return
}

// -----

// Loop results flow out of the scf.if.
// CHECK-LABEL: func.func @reduction
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK: %[[FAST:.*]] = scf.for
// CHECK: scf.yield %[[FAST]] : f64
// CHECK: } else {
// CHECK: %[[SLOW:.*]] = scf.for
// CHECK: scf.yield %[[SLOW]] : f64
// CHECK: return %[[R]] : f64
func.func @reduction(%x: memref<?xf64>, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) : i64 {
    %k = kiln.index %i, %n {axis = 0 : i64} : i64 -> index
    %v = memref.load %x[%k] : memref<?xf64>
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// -----

// A data-dependent index (x[y[i]]) stays checked: nothing to version.
// CHECK-LABEL: func.func @gather
// CHECK-NOT: scf.if
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64}
func.func @gather(%x: memref<?xf64>, %y: memref<?xi64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %ci = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c1 : i64 {
    %j = memref.load %y[%ci] : memref<?xi64>
    %k = kiln.index %j, %n {axis = 0 : i64} : i64 -> index
    %v = memref.load %x[%k] : memref<?xf64>
    memref.store %v, %x[%ci] : memref<?xf64>
  }
  return
}

// -----

// boundscheck=False: the index is unchecked but may still be negative (and
// wrap). The test is only its sign at both ends; the fast copy knows it is
// nonnegative, the other keeps the wraparound. An index already known
// nonnegative and unchecked is left alone.
// CHECK-LABEL: func.func @unchecked_offset
// CHECK-COUNT-2: arith.cmpi sge
// CHECK-NOT: arith.cmpi ult
// CHECK: scf.if
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
// CHECK: } else {
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, unchecked}
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
func.func @unchecked_offset(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64, %nx: i64, %w: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %shifted = arith.subi %i, %w : i64
    %a = kiln.index %shifted, %nx {axis = 0 : i64, unchecked} : i64 -> index
    %v = memref.load %x[%a] : memref<?xf64>
    %b = kiln.index %i, %n {axis = 0 : i64, nonnegative, unchecked} : i64 -> index
    memref.store %v, %out[%b] : memref<?xf64>
  }
  return
}

// -----

// A 2-D nest (jacobi-style rows i-1, i, i+1 and columns j): one test before
// the outer loop bounds every index over the whole box (each term at its
// loop's first or last value), so the fast copy's inner loop is entered
// with no test at all. The checked copy of the nest keeps per-loop
// versions of its inner loop.
// CHECK-LABEL: func.func @rows_and_columns
// CHECK-NOT: scf.for
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: %[[OK:.*]] = llvm.intr.expect
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: scf.for %[[I:.*]] =
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK-COUNT-3: kiln.index %{{.*}}, %{{.*}} {axis = {{[01]}} : i64, nonnegative, unchecked}
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: scf.if
// CHECK: } {kiln.nest_checked_copy}
// CHECK: return
func.func @rows_and_columns(%u: memref<?x?xf64>, %out: memref<?x?xf64>, %n: i64, %m: i64,
                            %rows: i64, %columns: i64) {
  %c1 = arith.constant 1 : i64
  %cm1 = arith.constant -1 : i64
  %last = arith.subi %n, %c1 : i64
  scf.for %i = %c1 to %last step %c1 : i64 {
    scf.for %j = %c1 to %m step %c1 : i64 {
      %up = arith.addi %i, %cm1 : i64
      %r = kiln.index %up, %rows {axis = 0 : i64} : i64 -> index
      %c = kiln.index %j, %columns {axis = 1 : i64} : i64 -> index
      %v = memref.load %u[%r, %c] : memref<?x?xf64>
      %o = kiln.index %i, %rows {axis = 0 : i64} : i64 -> index
      memref.store %v, %out[%o, %c] : memref<?x?xf64>
    }
  }
  return
}

// -----

// A triangular nest (j < i): the inner bounds change with the outer loop,
// so the nest is not versioned at its root; each loop keeps its own test.
// CHECK-LABEL: func.func @triangle
// CHECK-NOT: kiln.nest_checked_copy
// CHECK: scf.for
// CHECK: scf.if
// CHECK: scf.for
// CHECK: kiln.index %{{.*}}, %{{.*}} {axis = 0 : i64, nonnegative, unchecked}
func.func @triangle(%x: memref<?xf64>, %n: i64, %size: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    scf.for %j = %c0 to %i step %c1 : i64 {
      %k = kiln.index %j, %size {axis = 0 : i64} : i64 -> index
      memref.store %zero, %x[%k] : memref<?xf64>
    }
  }
  return
}
