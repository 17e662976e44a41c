// RUN: not kilnc %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not kilnc %S/emit-mlir-llvm.mlir --target-cpu=no-such-cpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not kilnc %S/emit-mlir-llvm.mlir --target-cpu=x86-64-v3,haswell -o /dev/null 2>&1 | FileCheck %s --check-prefix=LEVELS
// RUN: not kilnc %S/emit-mlir-llvm.mlir --target-cpu=portable --emit=mlir-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-MLIR
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=shared 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not kilnc %S/emit-mlir-llvm.mlir -O7 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not kilnc %S/emit-mlir-llvm.mlir --release -O1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=RELEASE
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=mlir-llvm --ir-stats=%t.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS-MLIR
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=llvm --ir-stats=%t.missing/stats.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS-FILE
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=mlir-llvm --vector-report=%t.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=VECTOR-MLIR
// RUN: not kilnc %S/emit-mlir-llvm.mlir --emit=llvm --vector-report=%t.missing/report.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=VECTOR-FILE

// CHECK: kilnc-invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: use of undeclared SSA value name
func.func @broken(%a: i64) -> i64 {
  %s = arith.addi %a, %a : i64
  return %missing : i64
}
// CPU: error: unknown --target-cpu 'no-such-cpu'
// SHARED: error: --emit=shared needs -o <file.so>
// OPT: error: -O7 is not one of -O0..-O3
// RELEASE: error: --release is -O3; it cannot be combined with -O1
// STATS-MLIR: error: --ir-stats describes LLVM IR; it cannot be combined with --emit=mlir-llvm
// STATS-FILE: error: cannot open output file '{{.*}}.missing/stats.json'
// VECTOR-MLIR: error: --vector-report describes LLVM IR; it cannot be combined with --emit=mlir-llvm
// VECTOR-FILE: error: cannot open output file '{{.*}}.missing/report.json'

// LEVELS: kilnc: error: a --target-cpu list names x86-64 levels (x86-64-v2, x86-64-v3, x86-64-v4), not 'haswell'
// ONE-MLIR: kilnc: error: --emit=mlir-llvm shows one version: give one --target-cpu
