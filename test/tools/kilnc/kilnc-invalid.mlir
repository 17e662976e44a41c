// RUN: not kilnc %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not kilnc %S/emit-mlir-llvm.mlir --target-cpu=no-such-cpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=shared 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not kilnc %S/emit-mlir-llvm.mlir -O7 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT

// CHECK: kilnc-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @broken(%a: i64) -> i64 {
  %s = arith.addi %a, %a : i64
  return %missing : i64
}
// CPU: error: unknown --target-cpu 'no-such-cpu'
// SHARED: error: --emit=shared needs -o <file.so>
// OPT: error: -O7 is not one of -O0..-O3
