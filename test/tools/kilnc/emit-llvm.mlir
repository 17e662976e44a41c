// RUN: kilnc %s --emit=llvm --target-cpu=x86-64-v3 --symbol-prefix=k_ -o - | FileCheck %s
// RUN: kilnc %s --emit=llvm --target-cpu=x86-64-v3 --symbol-prefix=k_ -O0 -o - | FileCheck %s --check-prefix=O0

// The C interface is public under the prefix; the expanded body is internal.
// CHECK-LABEL: define void @k_scale(
// CHECK-SAME: ptr
// CHECK: fmul <4 x double>
// CHECK-NOT: define {{.*}}@scale(
// CHECK: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64-v3"
// The Python file of the module location becomes the DWARF compile unit.
// CHECK: !DIFile(filename: "kernel.py"
// CHECK: !DILocation(line: 4,

// O0-LABEL: define void @k_scale(
// O0-NOT: <4 x double>
module {
  func.func @scale(%x: memref<?xf64, strided<[?], offset: ?>>, %a: f64) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf64, strided<[?], offset: ?>>
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xf64, strided<[?], offset: ?>> loc("kernel.py":4:14)
      %s = arith.mulf %v, %a : f64 loc("kernel.py":4:14)
      memref.store %s, %x[%i] : memref<?xf64, strided<[?], offset: ?>> loc("kernel.py":4:9)
    } loc("kernel.py":3:5)
    return loc("kernel.py":3:5)
  } loc("kernel.py":2:1)
} loc("kernel.py":1:1)
