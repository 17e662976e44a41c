// --extension: one lowering and optimization of the module feeds both
// shared objects. lib.so exports the C interface; the extension links the
// same object with the --extension-source wrappers (which include
// kiln_runtime.h from inside kilnc) and exports only its init function.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kilnc %s --emit=shared --symbol-prefix=k_ -o %t/libk.so \
// RUN:   --extension=%t/kilnc_ext.so --extension-source=%S/Inputs/extension.c \
// RUN:   --extension-export=PyInit_kilnc_ext %python_cflags
// RUN: llvm-nm -D --defined-only %t/libk.so | FileCheck %s --check-prefix=LIB
// RUN: llvm-nm -D --defined-only %t/kilnc_ext.so | FileCheck %s --check-prefix=EXT
// RUN: %python %S/Inputs/import-extension.py %t/kilnc_ext.so 7 2 | FileCheck %s --check-prefix=CALL
// RUN: %python %S/Inputs/import-extension.py %t/kilnc_ext.so 7 0 | FileCheck %s --check-prefix=RAISE

// Options that do not go together.
// RUN: not kilnc %s --emit=obj -o %t/k.o --extension=%t/e.so \
// RUN:   --extension-source=%S/Inputs/extension.c --extension-export=PyInit_e 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT-SHARED
// RUN: not kilnc %s --emit=shared -o %t/k.so --extension=%t/e.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INCOMPLETE

// LIB: T k_div
// EXT: T PyInit_kilnc_ext
// EXT-NOT: k_div
// CALL: 3.5
// RAISE: ZeroDivisionError: float division by zero (extension.py, line 3)
// NOT-SHARED: error: --extension links a shared object; it needs --emit=shared
// INCOMPLETE: error: --extension, --extension-source and --extension-export go together

func.func @div(%x: f64, %y: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64
    attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f64
  %nonzero = arith.cmpf une, %y, %zero : f64
  kiln.check %nonzero, "ZeroDivisionError", "float division by zero" loc("extension.py":3:10)
  %q = arith.divf %x, %y : f64
  return %q : f64
}
