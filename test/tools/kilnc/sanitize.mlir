// kilnc --sanitize: AddressSanitizer on the kernels (and the --c-source C),
// UBSan checks in the --c-source C; the result runs with the ASan runtime
// preloaded (which also carries UBSan's handlers). The RUN lines set both
// option variables: under scripts/sanitize.sh they carry a log_path, and the
// reports this test expects must reach FileCheck instead.
// REQUIRES: asan-runtime
// RUN: kilnc %s --emit=shared --sanitize=address --symbol-prefix=k_ -o %t.so
// RUN: llvm-nm -D %t.so | FileCheck %s --check-prefix=SYMS
// RUN: env LD_PRELOAD=%asan_runtime ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
// RUN:   %python %S/Inputs/call-sanitized.py %t.so load 7 | FileCheck %s --check-prefix=IN
// RUN: env LD_PRELOAD=%asan_runtime ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
// RUN:   not %python %S/Inputs/call-sanitized.py %t.so load 8 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: kilnc %s --emit=shared --sanitize=address,undefined --symbol-prefix=k_ \
// RUN:   --c-source=%S/Inputs/shift.c --export=kiln_test_shift -o %t.c.so
// RUN: env LD_PRELOAD=%asan_runtime ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
// RUN:   %python %S/Inputs/call-sanitized.py %t.c.so shift 3 | FileCheck %s --check-prefix=SHIFT
// RUN: env LD_PRELOAD=%asan_runtime ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
// RUN:   not %python %S/Inputs/call-sanitized.py %t.c.so shift 40 2>&1 | FileCheck %s --check-prefix=UB
// RUN: not kilnc %s --sanitize=memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not kilnc %s --sanitize=address,thread -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not kilnc %s --sanitize=address --emit=mlir-llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=MLIR

// SYMS: U __asan_init
// SYMS: U __asan_report_load8
// SYMS: T k_load_at

// IN: 7.5
// OUT: ERROR: AddressSanitizer: heap-buffer-overflow
// OUT: READ of size 8
// OUT: is located 0 bytes after 64-byte region

// SHIFT: 8
// UB: shift.c:3:{{[0-9]+}}: runtime error: shift exponent 40 is too large

// KIND: --sanitize takes address, thread and/or undefined, not 'memory'
// BOTH: --sanitize: address and thread cannot be combined
// MLIR: --sanitize instruments LLVM IR; it cannot be combined with --emit=mlir-llvm

func.func @load_at(%m: memref<?xf64>, %i: index) -> f64 attributes {llvm.emit_c_interface} {
  %v = memref.load %m[%i] : memref<?xf64>
  return %v : f64
}
