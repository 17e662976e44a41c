// kilnc --target-cpu=portable: the kernel lowered and optimized for
// x86-64-v2, v3 and v4 (each its own target attributes and vector width),
// every defined function suffixed with its level, and the public name an
// IFUNC whose resolver asks runtime/kiln_dispatch.c for the CPU's level
// and takes the highest version it reaches.
// RUN: kilnc %s --emit=llvm -O2 --target-cpu=portable --symbol-prefix=k_ -o - | FileCheck %s
// RUN: kilnc %s --emit=shared -O2 --target-cpu=portable --symbol-prefix=k_ --soname=libk.so.3 --symbol-version=K_3 -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMS
// RUN: llvm-readelf -d %t.so | FileCheck %s --check-prefix=SONAME
// RUN: kilnc %s --emit=llvm -O2 --target-cpu=x86-64-v3 --symbol-prefix=k_ -o - | FileCheck %s --check-prefix=ONE

// CHECK-DAG: @k_scale = ifunc void (ptr, double), ptr @k_scale.resolver
// CHECK-DAG: define internal ptr @k_scale.resolver() #[[BASE:[0-9]+]]
// CHECK-DAG: call i32 @__kiln_cpu_level()
// CHECK-DAG: define internal void @k_scale.x86_64_v2(
// CHECK-DAG: define internal void @k_scale.x86_64_v3(
// CHECK-DAG: define internal void @k_scale.x86_64_v4(
// CHECK-DAG: <8 x double>
// CHECK-DAG: <2 x double>
// CHECK-DAG: define ptr @k_kiln_cpu_version()
// CHECK-DAG: c"x86-64-v4\00"
// CHECK-DAG: attributes #[[BASE]] = { {{.*}}"target-cpu"="x86-64"

// SYMS-DAG: i k_scale@@K_3
// SYMS-DAG: T k_kiln_cpu_version@@K_3
// SYMS-NOT: x86_64_v

// SONAME: Library soname: [libk.so.3]

// ONE-NOT: ifunc
// ONE: c"x86-64-v3\00"
// ONE: define void @k_scale(
// ONE: define ptr @k_kiln_cpu_version()
module {
  func.func @scale(%x: memref<?xf64>, %s: f64) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf64>
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xf64>
      %w = arith.mulf %v, %s : f64
      memref.store %w, %x[%i] : memref<?xf64>
    }
    return
  }
}
