// RUN: kilnc %s --emit=shared --symbol-prefix=k_ -o %t.so
// RUN: llvm-readelf -d %t.so | FileCheck %s --check-prefix=DYN --implicit-check-not=NEEDED
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS

// A call to libm (sin) is the only dependency: no LLVM, MLIR, C++ runtime.
// DYN: NEEDED{{.*}}[libm.so.6]

// Only the C interface is exported.
// SYMS: T k_wave
// SYMS-NOT: T {{.*}}wave{{.*}}
func.func @wave(%x: f64) -> f64 attributes {llvm.emit_c_interface} {
  %s = math.sin %x : f64
  %t = arith.mulf %s, %x : f64
  return %t : f64
}
