// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-list-views))' | FileCheck %s

// A loop that resizes no list: each indexed list gets its length and a
// view before the loop (`writes` where the loop stores), and its accesses
// become kiln.index (the list's IndexError text) and memref accesses; a
// bool list is viewed as bytes.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[XS:[^:]*]]: !kiln.list<f64>, %[[YS:[^:]*]]: !kiln.list<i1>
// CHECK: %[[XLEN:.*]] = kiln.list.len %[[XS]]
// CHECK: %[[XV:.*]] = kiln.list.view %[[XS]] : <f64> -> memref<?xf64>
// CHECK: %[[YLEN:.*]] = kiln.list.len %[[YS]]
// CHECK: %[[YV:.*]] = kiln.list.view %[[YS]] {writes} : <i1> -> memref<?xi8>
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[P:.*]] = kiln.index %[[I]], %[[XLEN]] {axis = 0 : i64, message = "list index out of range"}
// CHECK: %[[X:.*]] = memref.load %[[XV]][%[[P]]]
// CHECK: %[[Q:.*]] = kiln.index %[[I]], %[[YLEN]] {axis = 0 : i64, message = "list assignment index out of range"}
// CHECK: %[[BYTE:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK: memref.store %[[BYTE]], %[[YV]][%[[Q]]]
// CHECK-NOT: kiln.list.get
// CHECK-NOT: kiln.list.set
func.func @scale(%xs: !kiln.list<f64>, %ys: !kiln.list<i1>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %x = kiln.list.get %xs[%i] : !kiln.list<f64>
    %positive = arith.cmpf ogt, %x, %zero : f64
    kiln.list.set %ys[%i], %positive : !kiln.list<i1>
  }
  return
}

// The outermost loop that qualifies takes the nested loops' accesses, and
// len() in the loop is the length read once.
// CHECK-LABEL: func.func @nested(
// CHECK: %[[LEN:.*]] = kiln.list.len
// CHECK-NEXT: %[[V:.*]] = kiln.list.view
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %[[LEN]]
// CHECK: memref.load %[[V]]
func.func @nested(%xs: !kiln.list<i64>, %n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i64) : i64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%u = %s) -> (i64) : i64 {
      %len = kiln.list.len %xs : !kiln.list<i64>
      %k = arith.addi %j, %len : i64
      %x = kiln.list.get %xs[%j] : !kiln.list<i64>
      %v = arith.addi %u, %x : i64
      %w = arith.addi %v, %k : i64
      scf.yield %w : i64
    }
    scf.yield %t : i64
  }
  return %r : i64
}

// An append anywhere in a loop (or a call that receives a list) may move
// every list's storage: the loop keeps its list ops.
// CHECK-LABEL: func.func @appends(
// CHECK-NOT: kiln.list.view
// CHECK: kiln.list.get
// CHECK: kiln.list.append
func.func @appends(%xs: !kiln.list<i64>, %ys: !kiln.list<i64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %x = kiln.list.get %xs[%i] : !kiln.list<i64>
    kiln.list.append %ys, %x : !kiln.list<i64>
  }
  return
}

func.func private @takes_list(!kiln.list<i64>)

// CHECK-LABEL: func.func @calls(
// CHECK-NOT: kiln.list.view
// CHECK: kiln.list.get
func.func @calls(%xs: !kiln.list<i64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %x = kiln.list.get %xs[%i] : !kiln.list<i64>
    func.call @takes_list(%xs) : (!kiln.list<i64>) -> ()
  }
  return
}

// An inner loop that resizes nothing qualifies when its outer loop does
// not; a list made in the loop (a loop-carried or a new one) is not viewed.
// CHECK-LABEL: func.func @inner_only(
// CHECK: scf.for
// CHECK: kiln.list.append
// CHECK: kiln.list.view %{{.*}} : <i64>
// CHECK: scf.for
// CHECK: memref.load
func.func @inner_only(%xs: !kiln.list<i64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    kiln.list.append %xs, %i : !kiln.list<i64>
    scf.for %j = %c0 to %n step %c1 : i64 {
      %x = kiln.list.get %xs[%j] : !kiln.list<i64>
      %fresh = kiln.list.new %c1 : !kiln.list<i64>
      kiln.list.set %fresh[%c0], %x : !kiln.list<i64>
      kiln.release %fresh : !kiln.list<i64>
    }
  }
  return
}
