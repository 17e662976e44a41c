// --vector-report writes kiln-vector-report JSON of the optimized module,
// before the strips: the kernel's own Python lines survive inlining into the
// C interface, and --release does not take them away.
// RUN: kilnc %s --emit=obj --target-cpu=x86-64-v3 --symbol-prefix=k_ --vector-report=%t.json -o %t.o
// RUN: %python %S/../../passes/llvm/Inputs/summarize-vector-report.py %t.json | FileCheck %s
// RUN: kilnc %s --emit=obj --target-cpu=x86-64-v3 --symbol-prefix=k_ --release --vector-report=%t.release.json -o %t.release.o
// RUN: %python %S/../../passes/llvm/Inputs/summarize-vector-report.py %t.release.json | FileCheck %s

// x86-64-v3 has AVX2: the cost model says 256-bit registers.
// CHECK: report schema=kiln-vector-report/1 vector_register_bits=256 weighting=static
// CHECK: function k_axpy file=kernel.py line=2 coverage={{0\.[0-9]*[1-9][0-9]*|1}} lane_utilization=1
// The loop statement itself is only control.
// CHECK: line kernel.py:3 coverage=null
// CHECK: line kernel.py:4 coverage={{0\.[0-9]*[1-9][0-9]*|1}} lane_utilization=1 vector_ops={{[1-9][0-9]*}}
// CHECK: loop vector.body line=3 depth=1 coverage=1
// CHECK: inst vector.body 4:{{[0-9]+}} 'fmul' class=fp-arith elements=4 element_bits=64 vector=true work=true
func.func @axpy(%x: memref<?xf64, strided<[?], offset: ?>>,
                %y: memref<?xf64, strided<[?], offset: ?>>, %a: f64)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64, strided<[?], offset: ?>>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64, strided<[?], offset: ?>> loc("kernel.py":4:16)
    %yi = memref.load %y[%i] : memref<?xf64, strided<[?], offset: ?>> loc("kernel.py":4:29)
    %p = arith.mulf %a, %xi : f64 loc("kernel.py":4:16)
    %s = arith.addf %p, %yi : f64 loc("kernel.py":4:16)
    memref.store %s, %y[%i] : memref<?xf64, strided<[?], offset: ?>> loc("kernel.py":4:9)
  } loc("kernel.py":3:5)
  return loc("kernel.py":3:5)
} loc("kernel.py":2:1)
