// RUN: kiln-opt %s -kiln-inline-helpers -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s
// RUN: kiln-opt %s -kiln-inline-helpers=max-ops=2 | FileCheck %s --check-prefix=SMALL

// A helper of numbers is inlined into the loop that calls it; its check
// keeps the helper's line, the rest of its work takes the calling line; the
// kiln.propagate_error after the call goes, and so does the helper.
// CHECK-NOT: func.func private @poly
// CHECK-LABEL: func.func @calls_poly
// CHECK: scf.for
// CHECK-NOT: call @
// CHECK: kiln.check {{.*}}ZeroDivisionError{{.*}} loc("helpers.py":4:9)
// CHECK: arith.divf {{.*}} loc("helpers.py":11:18)
// CHECK-NOT: kiln.propagate_error
// CHECK: memref.store
// SMALL-LABEL: func.func @calls_poly
// SMALL: call @poly
// SMALL-NEXT: kiln.propagate_error
func.func private @poly(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d = arith.addf %x, %one : f64
  %nonzero = arith.cmpf une, %d, %zero : f64
  kiln.check %nonzero, ZeroDivisionError, "float division by zero" loc("helpers.py":4:9)
  %t = arith.divf %one, %d : f64 loc("helpers.py":4:9)
  return %t : f64
}

func.func @calls_poly(%a: memref<?xf64>, %n: index, %err: !llvm.ptr {kiln.error_slot}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %y = func.call @poly(%v, %err) : (f64, !llvm.ptr) -> f64 loc("helpers.py":11:18)
    kiln.propagate_error
    memref.store %y, %a[%i] : memref<?xf64>
  }
  return
}


// A helper from another file (one of Kiln's kernels) raises at the call:
// its inlined check takes the calling line too.
// CHECK-LABEL: func.func @calls_kernel
// CHECK: kiln.check {{.*}}LinAlgError{{.*}} loc("user.py":7:12)
// CHECK: arith.mulf {{.*}} loc("user.py":7:12)
func.func private @kernel_scale(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %zero = arith.constant 0.0 : f64
  %nonzero = arith.cmpf une, %x, %zero : f64
  kiln.check %nonzero, LinAlgError, "Singular matrix" loc("kernels/linalg.py":30:9)
  %t = arith.mulf %x, %x : f64 loc("kernels/linalg.py":31:9)
  return %t : f64
}

func.func @calls_kernel(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %y = func.call @kernel_scale(%x, %err) : (f64, !llvm.ptr) -> f64 loc("user.py":7:12)
  kiln.propagate_error at_call loc("user.py":7:12)
  return %y : f64
}



// A helper that takes an array keeps its call (the ownership rules at calls
// are written for those), and so does a recursive one; their
// kiln.propagate_error stay.
// CHECK-LABEL: func.func private @first
// CHECK-LABEL: func.func private @countdown
// CHECK: call @countdown
// CHECK-LABEL: func.func @calls_the_others
// CHECK: call @first
// CHECK-NEXT: kiln.propagate_error
// CHECK: call @countdown
// CHECK-NEXT: kiln.propagate_error
func.func private @first(%a: memref<?xf64>, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf64>
  return %v : f64
}

func.func private @countdown(%n: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %done = arith.cmpi sle, %n, %zero : i64
  %r = scf.if %done -> i64 {
    scf.yield %zero : i64
  } else {
    %m = arith.subi %n, %one : i64
    %s = func.call @countdown(%m, %err) : (i64, !llvm.ptr) -> i64
    kiln.propagate_error
    scf.yield %s : i64
  }
  return %r : i64
}

func.func @calls_the_others(%a: memref<?xf64>, %n: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
  %f = func.call @first(%a, %err) : (memref<?xf64>, !llvm.ptr) -> f64
  kiln.propagate_error
  %c = func.call @countdown(%n, %err) : (i64, !llvm.ptr) -> i64
  kiln.propagate_error
  return %c : i64
}
