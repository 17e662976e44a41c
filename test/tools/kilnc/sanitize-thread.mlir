// kilnc --sanitize=thread: ThreadSanitizer on the kernels, whose parallel
// loops (scf.parallel -> OpenMP) run on two threads with the TSan runtime
// preloaded and LLVM's OpenMP tool Archer, which tells TSan of libomp's
// barriers (without it every loop would report false races). A loop whose
// iterations write their own elements is clean; one whose iterations all
// update element 0 is a race TSan reports at its line. UBSAN_OPTIONS is set
// too: the TSan runtime reads it, and under scripts/sanitize.sh its log_path
// would send the report this test expects to a file.
// REQUIRES: tsan-runtime
// RUN: kilnc %s --emit=shared --sanitize=thread --symbol-prefix=k_ -o %t.so
// RUN: llvm-nm -D %t.so | FileCheck %s --check-prefix=SYMS
// RUN: env LD_PRELOAD=%tsan_runtime OMP_TOOL_LIBRARIES=%archer KILN_NUM_THREADS=2 \
// RUN:   UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=exitcode=66:ignore_noninstrumented_modules=1 %python %S/Inputs/call-sanitized.py %t.so disjoint 4000 \
// RUN:   2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env LD_PRELOAD=%tsan_runtime OMP_TOOL_LIBRARIES=%archer KILN_NUM_THREADS=2 \
// RUN:   UBSAN_OPTIONS=print_stacktrace=1 TSAN_OPTIONS=exitcode=66:ignore_noninstrumented_modules=1 not %python %S/Inputs/call-sanitized.py %t.so racy 4000 \
// RUN:   2>&1 | FileCheck %s --check-prefix=RACE

// SYMS: U __kmpc_fork_call
// SYMS: U __tsan_init

// CLEAN-NOT: ThreadSanitizer
// CLEAN: 4000.0
// CLEAN-NOT: ThreadSanitizer

// RACE: WARNING: ThreadSanitizer: data race
// RACE: {{.*}}racy{{.*}}sanitize-thread.mlir:

func.func @disjoint(%m: memref<?xf64>, %n: index) -> f64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %m[%i] : memref<?xf64>
    scf.reduce
  }
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%s = %one) -> f64 {
    %v = memref.load %m[%i] : memref<?xf64>
    %t = arith.addf %s, %v : f64
    scf.yield %t : f64
  }
  %result = arith.subf %total, %one : f64
  return %result : f64
}

func.func @racy(%m: memref<?xf64>, %n: index) -> f64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%c0] : memref<?xf64>
    %w = arith.addf %v, %one : f64
    memref.store %w, %m[%c0] : memref<?xf64>
    scf.reduce
  }
  %r = memref.load %m[%c0] : memref<?xf64>
  return %r : f64
}
