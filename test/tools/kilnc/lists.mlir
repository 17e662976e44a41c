// Lists end to end through kilnc: kiln-lower-containers' inline code and
// runtime/kiln_list.c linked into the artifact, called from C through the
// C ABI (runtime/kiln_abi.h's kiln_list). The driver checks results,
// growth, Python's index errors and that a raising call frees the lists it
// made (the journal), under ASan's leak checker.
// RUN: rm -rf %t && mkdir -p %t
// RUN: kilnc %s --emit=shared --symbol-prefix=k_ -o %t/libk.so
// RUN: llvm-nm -D --defined-only %t/libk.so | FileCheck %s --check-prefix=SYMS
// RUN: %clang -std=c11 -Wall -Werror -I%kiln_runtime_dir %S/Inputs/lists-driver.c -L%t -lk -Wl,-rpath,%t -o %t/driver
// RUN: %t/driver | FileCheck %s
// The same driver under ASan with its leak checker: the copy a raising call
// made is freed by the journal, nothing else leaks, nothing is freed twice.
// RUN: %clang -std=c11 -fsanitize=address -I%kiln_runtime_dir %S/Inputs/lists-driver.c -L%t -lk -Wl,-rpath,%t -o %t/driver-asan
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t/driver-asan | FileCheck %s

// Only the kernels are exported; the runtime is internal to the artifact.
// SYMS-NOT: kiln_list
// SYMS: k_range_list
// SYMS-NOT: kiln_list

// CHECK: range_list(10): length 10 capacity>=10 sum 45 refcount 1
// CHECK: range_list(0): length 0
// CHECK: sum_negative_index: 9
// CHECK: index error: kind 2 line 30 message list index out of range
// CHECK: after the error: length 3 journal_index -1
// CHECK: sorted: 1 2 3 5 9 modified 1
// CHECK: pop from empty: kind 2 message pop from empty list
// CHECK: done

module {
  // [0, 1, ..., n-1] built by appends (a new reference for the caller).
  func.func @range_list(%n: i64, %error: !llvm.ptr {kiln.error_slot}) -> !kiln.list<i64> attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %xs = kiln.list.new %c0 : !kiln.list<i64>
    scf.for %i = %c0 to %n step %c1 : i64 {
      kiln.list.append %xs, %i : !kiln.list<i64>
    }
    return %xs : !kiln.list<i64>
  }

  // xs[-1] of a list made inside: with an empty input, IndexError after a
  // list was made, which the journal frees.
  func.func @last_of_copy(%xs: !kiln.list<i64>, %error: !llvm.ptr {kiln.error_slot}) -> i64 attributes {llvm.emit_c_interface} {
    %minus1 = arith.constant -1 : i64
    %ys = kiln.list.copy %xs : !kiln.list<i64>
    %x = kiln.list.get %ys[%minus1] : !kiln.list<i64> loc("lists.py":30:9)
    kiln.release %ys : !kiln.list<i64>
    return %x : i64
  }

  // Sorts the caller's list in place.
  func.func @sort_in_place(%xs: !kiln.list<i64>, %error: !llvm.ptr {kiln.error_slot}) attributes {llvm.emit_c_interface} {
    kiln.list.sort %xs : !kiln.list<i64>
    return
  }

  func.func @pop_last(%xs: !kiln.list<f64>, %error: !llvm.ptr {kiln.error_slot}) -> f64 attributes {llvm.emit_c_interface} {
    %minus1 = arith.constant -1 : i64
    %x = kiln.list.pop %xs[%minus1] : !kiln.list<f64>
    return %x : f64
  }
}
