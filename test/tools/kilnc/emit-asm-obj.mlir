// RUN: kilnc %s --emit=asm --target-cpu=x86-64-v3 --symbol-prefix=k_ -o - | FileCheck %s --check-prefix=ASM
// RUN: kilnc %s --emit=obj --target-cpu=x86-64-v3 --symbol-prefix=k_ -o %t.o
// RUN: llvm-objdump -d -l %t.o | FileCheck %s --check-prefix=OBJ
// RUN: llvm-dwarfdump --debug-line %t.o | FileCheck %s --check-prefix=DWARF
// RUN: kilnc %s --emit=obj --target-cpu=x86-64 --symbol-prefix=k_ -o %t.sse.o
// RUN: llvm-objdump -d %t.sse.o | FileCheck %s --check-prefix=SSE

// ASM-LABEL: k_add_arrays:
// ASM: vaddps {{.*}}%ymm

// Packed AVX2 code, with the Python line printed above it.
// OBJ-LABEL: <k_add_arrays>:
// OBJ: kernel.py:7
// OBJ: vaddps {{.*}}%ymm

// DWARF: name: "kernel.py"

// SSE-LABEL: <k_add_arrays>:
// SSE-NOT: ymm
// SSE: addps
module {
  func.func @add_arrays(%x: memref<?xf32, strided<[1], offset: ?>>, %y: memref<?xf32, strided<[1], offset: ?>>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %x, %c0 : memref<?xf32, strided<[1], offset: ?>>
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %x[%i] : memref<?xf32, strided<[1], offset: ?>> loc("kernel.py":7:14)
      %b = memref.load %y[%i] : memref<?xf32, strided<[1], offset: ?>> loc("kernel.py":7:21)
      %s = arith.addf %a, %b : f32 loc("kernel.py":7:14)
      memref.store %s, %x[%i] : memref<?xf32, strided<[1], offset: ?>> loc("kernel.py":7:9)
    } loc("kernel.py":6:5)
    return loc("kernel.py":6:5)
  } loc("kernel.py":5:1)
} loc("kernel.py":1:1)
