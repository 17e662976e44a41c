// --strip-metadata and --no-rtti run after optimization; --release is -O3
// plus both. --ir-stats writes kiln-ir-stats JSON before and after them.
// RUN: kilnc %s --emit=llvm --symbol-prefix=k_ -o - | FileCheck %s --check-prefix=DEBUG
// RUN: kilnc %s --emit=llvm --symbol-prefix=k_ --no-rtti -o - | FileCheck %s --check-prefix=DEBUG
// RUN: kilnc %s --emit=llvm --symbol-prefix=k_ --strip-metadata -o - \
// RUN:   | FileCheck %s --check-prefix=STRIPPED --implicit-check-not=!dbg --implicit-check-not=!DI
// RUN: kilnc %s --emit=shared --symbol-prefix=k_ -o %t.debug.so
// RUN: llvm-readelf -S %t.debug.so | FileCheck %s --check-prefix=DEBUG-SECTIONS
// RUN: kilnc %s --emit=shared --symbol-prefix=k_ --release --ir-stats=%t.json -o %t.release.so
// RUN: llvm-readelf -S %t.release.so | FileCheck %s --check-prefix=RELEASE-SECTIONS --implicit-check-not=.debug_
// RUN: llvm-nm -D --defined-only %t.release.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: FileCheck %s --check-prefix=STATS < %t.json
// With --emit=mlir-llvm there is no LLVM module: the MLIR pass runs instead.
// RUN: kilnc %s --emit=mlir-llvm --strip-metadata --mlir-print-debuginfo -o - \
// RUN:   | FileCheck %s --check-prefix=MLIR --implicit-check-not=kernel.py

// DEBUG-LABEL: define double @k_norm(
// DEBUG: !DILocation(line: 4,

// STRIPPED-LABEL: define double @k_norm(
// STRIPPED: call double @hypot(

// DEBUG-SECTIONS: .debug_line
// RELEASE-SECTIONS: .text
// SYMBOLS: T k_norm

// The same code; only debug info goes.
// STATS:      "after": {
// STATS:        "debug_metadata_nodes": 0,
// STATS:        "instructions": [[#INSTRUCTIONS:]],
// STATS:      "before": {
// STATS:        "debug_metadata_nodes": {{[1-9][0-9]*}},
// STATS:        "instructions": [[#INSTRUCTIONS]],

// MLIR: llvm.func @norm(
// MLIR: loc(unknown)
func.func @norm(%x: f64, %y: f64) -> f64 attributes {llvm.emit_c_interface} {
  %h = func.call @hypot(%x, %y) : (f64, f64) -> f64 loc("kernel.py":3:12)
  %s = arith.mulf %h, %h : f64 loc("kernel.py":4:12)
  return %s : f64 loc("kernel.py":4:5)
} loc("kernel.py":2:1)
func.func private @hypot(f64, f64) -> f64
