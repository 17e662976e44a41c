// RUN: kiln-opt %s -split-input-file -kiln-strip-mlir-metadata -mlir-print-debuginfo -mlir-print-local-scope \
// RUN:   | FileCheck %s --implicit-check-not=kernel.py
// RUN: kiln-opt %s -split-input-file '-kiln-strip-mlir-metadata=keep-locations=true' -mlir-print-debuginfo \
// RUN:   -mlir-print-local-scope | FileCheck %s --check-prefix=KEEP-LOC
// RUN: kiln-opt %s -split-input-file '-kiln-strip-mlir-metadata=keep-attributes=kiln.export,kiln.hint' \
// RUN:   | FileCheck %s --check-prefix=KEEP-ATTR
// RUN: not kiln-opt %s -split-input-file '-kiln-strip-mlir-metadata=keep-everything=true' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-OPTION

// Kiln's attributes go, except kiln.error_slot (kiln-lower-checks reads it);
// llvm.emit_c_interface stays (convert-func-to-llvm reads it). Every
// location, block arguments' included, becomes unknown.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %{{.*}}: f64 loc(unknown), %{{.*}}: !llvm.ptr {kiln.error_slot} loc(unknown)) -> f64
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: arith.constant 2.0{{.*}} : f64 loc(unknown)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64 loc(unknown)
// CHECK: return %{{.*}} : f64 loc(unknown)
// CHECK: } loc(unknown)

// keep-locations keeps file:line:col, taken out of fused locations.
// KEEP-LOC-LABEL: func.func @scale(
// KEEP-LOC-SAME: loc("kernel.py":2:11)
// KEEP-LOC: arith.constant {{.*}} loc("kernel.py":3:12)
// KEEP-LOC: arith.mulf {{.*}} loc("kernel.py":3:14)
// KEEP-LOC: return {{.*}} loc("kernel.py":3:5)
// KEEP-LOC: } loc("kernel.py":2:1)

// KEEP-ATTR-LABEL: func.func @scale(
// KEEP-ATTR-SAME: -> f64 attributes {kiln.export, llvm.emit_c_interface}
// KEEP-ATTR: arith.mulf %{{.*}}, %{{.*}} {kiln.hint} : f64

// BAD-OPTION: no such option keep-everything
func.func @scale(%x: f64 loc("kernel.py":2:11), %err: !llvm.ptr {kiln.error_slot})
    -> (f64 {kiln.note}) attributes {kiln.export, llvm.emit_c_interface} {
  %two = arith.constant 2.0 : f64 loc("kernel.py":3:12)
  %y = arith.mulf %x, %two {kiln.hint} : f64 loc(fused["mulf", "kernel.py":3:14])
  return %y : f64 loc("kernel.py":3:5)
} loc("kernel.py":2:1)

// -----

// Region arguments, nested ops and attributes of other dialects; the
// frontend's other marks go (kiln.owned, an old one, included).
// CHECK-LABEL: func.func @sum(
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<4xf64> loc(unknown)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK: memref.load {{.*}} loc(unknown)
// CHECK: } {other.marker} loc(unknown)
// CHECK-NOT: kiln.unrolled

// KEEP-LOC-LABEL: func.func @sum(
// KEEP-LOC: memref.load {{.*}} loc("kernel.py":9:18)
// KEEP-LOC: } {other.marker} loc("kernel.py":8:5)
func.func @sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %scratch = memref.alloc() {alignment = 64 : i64, kiln.owned} : memref<4xf64> loc("kernel.py":7:5)
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64> loc("kernel.py":9:18)
    %s = arith.addf %acc, %v : f64 loc("kernel.py":9:9)
    scf.yield %s : f64
  } {kiln.unrolled, other.marker} loc("kernel.py":8:5)
  return %total : f64
}
