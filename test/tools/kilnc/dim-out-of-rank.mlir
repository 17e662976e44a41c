// RUN: not kilnc %s --emit=llvm -o /dev/null 2>&1 | FileCheck %s
// RUN: not kiln-opt %s -kiln-lower-to-llvm -o /dev/null 2>&1 | FileCheck %s
// A constant dimension outside the operand's rank is a diagnostic, not a
// crash in upstream's memref.dim canonicalization (the mutation fuzzer's
// `%c0` -> `%c-1` of multiversion.mlir).
// CHECK: error: 'memref.dim' op dimension -1 is outside the rank 1 of 'memref<?xf64>'
func.func @scale(%x: memref<?xf64>, %a: f64) attributes {llvm.emit_c_interface} {
  %c-1 = arith.constant -1 : index
  %n = memref.dim %x, %c-1 : memref<?xf64>
  return
}
