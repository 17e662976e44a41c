// RUN: kilnc %s --emit=asm --target-cpu=x86-64-v3 --kiln-remarks=%t.yaml -o - | FileCheck %s --check-prefix=ASM
// RUN: FileCheck %s --input-file=%t.yaml
// RUN: kilnc %s --emit=shared --target-cpu=x86-64-v3 -o %t.so
// RUN: llvm-readelf -d %t.so | FileCheck %s --check-prefix=NEEDED
// RUN: kilnc %s --emit=asm --target-cpu=x86-64-v3 --no-kiln-vectorize --kiln-remarks=%t.off.yaml -o /dev/null
// RUN: count 0 < %t.off.yaml
// RUN: kilnc %s --emit=obj --target-cpu=x86-64-v3 --vector-bits=128 --kiln-remarks=%t.sse.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=NARROW --input-file=%t.sse.yaml
// NARROW: VectorizationFactor: '2'

// kiln-vectorize's verdicts land in LLVM's remark format, at the Python
// location of each loop.
// CHECK: --- !Passed
// CHECK-NEXT: Pass: kiln-vectorize
// CHECK-NEXT: Name: Vectorized
// CHECK-NEXT: DebugLoc: { File: kernel.py, Line: 3, Column: 5 }
// CHECK-NEXT: Function: exp_scale
// CHECK: Remark: 'vectorized: VF=4, interleave=2, masked tail, vector math from libmvec'
// CHECK: VectorizationFactor: '4'

// The hot loop is AVX2 code: packed multiplies on ymm registers, and exp
// through libmvec's 4-lane variant rather than four scalar calls.
// ASM-LABEL: exp_scale:
// ASM: vmulpd {{.*}}%ymm
// ASM: call{{.*}}_ZGVdN4v_exp
// ASM-NOT: call{{.*}} exp@PLT

// libmvec is linked only as needed.
// NEEDED: (NEEDED) Shared library: [libmvec.so.1]
module {
  func.func @exp_scale(%x: memref<?xf64>, %a: f64) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c0i = arith.constant 0 : index
    %d = memref.dim %x, %c0i : memref<?xf64> loc("kernel.py":3:20)
    %n = arith.index_cast %d : index to i64 loc("kernel.py":3:20)
    scf.for %i = %c0 to %n step %c1 : i64 {
      %k = arith.index_cast %i : i64 to index loc("kernel.py":4:14)
      %v = memref.load %x[%k] : memref<?xf64> loc("kernel.py":4:14)
      %s = arith.mulf %v, %a : f64 loc("kernel.py":4:14)
      %e = math.exp %s : f64 loc("kernel.py":4:14)
      memref.store %e, %x[%k] : memref<?xf64> loc("kernel.py":4:9)
    } loc("kernel.py":3:5)
    return loc("kernel.py":3:5)
  } loc("kernel.py":2:1)
} loc("kernel.py":1:1)
