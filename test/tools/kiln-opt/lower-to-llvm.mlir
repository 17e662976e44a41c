// RUN: kiln-opt %s -split-input-file -kiln-lower-to-llvm | FileCheck %s

// The whole frontend pipeline: scf, memref, checks and all reach LLVM.
// CHECK-LABEL: llvm.func @checked_load(
// CHECK: llvm.cond_br
// CHECK: llvm.store
// CHECK: llvm.load
// CHECK-NOT: kiln.check
// CHECK-NOT: scf.
// CHECK-LABEL: llvm.func @_mlir_ciface_checked_load(
func.func @checked_load(%x: memref<?xf64, strided<[?], offset: ?>>, %i: i64, %err: !llvm.ptr {kiln.error_slot}) -> f64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64, strided<[?], offset: ?>>
  %n64 = arith.index_cast %n : index to i64
  %ok = arith.cmpi ult, %i, %n64 : i64
  kiln.check %ok, "IndexError", "index {} is out of bounds for axis 0 with size {}" (%i, %n64)
  %idx = arith.index_cast %i : i64 to index
  %v = memref.load %x[%idx] : memref<?xf64, strided<[?], offset: ?>>
  return %v : f64
}

// -----

// CHECK-LABEL: llvm.func @python_floordiv(
// CHECK: llvm.sdiv
// CHECK-NOT: arith.
func.func @python_floordiv(%a: i64, %b: i64) -> i64 {
  %q = arith.floordivsi %a, %b : i64
  return %q : i64
}

// -----

// `np.zeros(0)[::-1]`: canonicalization makes the allocation static
// (memref<0xf64>); upstream's fold of the cast into the subview would then
// give a subview with a static offset into a 0-sized dimension, which does
// not verify. Kiln's canonicalizer leaves that cast in place.
// CHECK-LABEL: llvm.func @empty_reversed_view(
func.func @empty_reversed_view(%i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %m = memref.alloc(%c0) : memref<?xf64>
  %v = memref.subview %m[%c0] [%c0] [%cm1] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
  %x = memref.load %v[%i] : memref<?xf64, strided<[?], offset: ?>>
  return %x : f64
}

// -----

// atan2 of operands that become constant zeros only during canonicalization
// gives C99's pi, not the NaN of upstream's folder.
// CHECK-LABEL: llvm.func @atan2_of_folded_zeros(
// CHECK: llvm.mlir.constant(3.1415926535897931 : f64)
// CHECK-NOT: 0x7FF8000000000000
// CHECK: llvm.return
func.func @atan2_of_folded_zeros(%n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %p = arith.muli %n, %c0 : i64
  %y = arith.sitofp %p : i64 to f64
  %nz = arith.constant -0.0 : f64
  %r = math.atan2 %y, %nz : f64
  return %r : f64
}
