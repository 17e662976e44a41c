// RUN: kilnc %s --emit=mlir-llvm -o - | FileCheck %s

// CHECK-LABEL: llvm.func @add(
// CHECK: llvm.add
// CHECK-LABEL: llvm.func @_mlir_ciface_add(
// CHECK: llvm.call @add
func.func @add(%a: i64, %b: i64) -> i64 attributes {llvm.emit_c_interface} {
  %s = arith.addi %a, %b : i64
  return %s : i64
}
