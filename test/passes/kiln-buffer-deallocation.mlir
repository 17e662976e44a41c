// RUN: kiln-opt %s -split-input-file -kiln-buffer-deallocation -canonicalize | FileCheck %s

// A function that may return its argument keeps its signature and copies
// nothing (upstream's rule for public functions would clone %a); the new
// array it may return instead is its caller's.
// CHECK-LABEL: func.func @pick(
// CHECK-SAME: -> memref<?xf64>
// CHECK-NOT: bufferization.clone
// CHECK: return %{{.*}} : memref<?xf64>
func.func @pick(%a: memref<?xf64>, %c: i1, %n: index) -> memref<?xf64> {
  %r = scf.if %c -> memref<?xf64> {
    scf.yield %a : memref<?xf64>
  } else {
    %new = memref.alloc(%n) : memref<?xf64>
    scf.yield %new : memref<?xf64>
  }
  return %r : memref<?xf64>
}

// The caller owns the result unless its buffer is the argument's: the
// flag comes from the two addresses, and the free of the result is
// conditional on it.
// CHECK-LABEL: func.func @caller(
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: %[[R:.*]] = call @pick(%[[A]], {{.*}}) : (memref<?xf64>, i1, index) -> memref<?xf64>
// CHECK-DAG: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[PR:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK: %[[OWNED:.*]] = arith.cmpi ne, %[[PR]], %[[PA]] : index
// CHECK: bufferization.dealloc ({{.*}}) if ({{.*}}%[[OWNED]]{{.*}})
// CHECK: return
func.func @caller(%n: index, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf64>
  %r = func.call @pick(%a, %c, %n) : (memref<?xf64>, i1, index) -> memref<?xf64>
  %v = memref.load %r[%c0] : memref<?xf64>
  return %v : f64
}

// -----

// An array carried by a loop and replaced each iteration: the old one is
// freed in the loop when it is owned, the last one is returned.
// CHECK-LABEL: func.func @carried(
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (memref<?xf64>, i1)
// CHECK: memref.alloc
// CHECK: bufferization.dealloc
// CHECK: scf.yield
// CHECK-NOT: bufferization.clone
// CHECK: return
func.func @carried(%n: index, %k: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf64>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%x = %a) -> (memref<?xf64>) {
    %t = memref.alloc(%n) : memref<?xf64>
    scf.yield %t : memref<?xf64>
  }
  return %r : memref<?xf64>
}
