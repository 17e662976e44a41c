// RUN: kiln-opt %s --kiln-lower-containers | FileCheck %s
// The string half of kiln-lower-containers (passes/LowerStrings.cpp).
// Strings: a literal is a global kiln_str whose count starts immortal; s[i]
// checks Python's index inline and calls the runtime; a new string is
// checked for NULL (MemoryError); retain/release count kiln_str.refcount.

// CHECK-LABEL: llvm.mlir.global internal @__kiln_str_0()
// CHECK: llvm.mlir.constant(4611686018427387904 : i64) : i64
// CHECK: llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.mlir.constant("a\00\AC  \00\00\00") : !llvm.array<8 x i8>

// CHECK-LABEL: func.func @greet(
// CHECK-SAME: %[[S:.*]]: !llvm.ptr, %[[I:.*]]: i64) -> !llvm.ptr
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter()
// CHECK: %[[LIT:.*]] = llvm.mlir.addressof @__kiln_str_0
// CHECK: %[[LENADDR:.*]] = llvm.getelementptr %[[S]][8]
// CHECK: %[[LEN:.*]] = llvm.load %[[LENADDR]] : !llvm.ptr -> i64
// CHECK: arith.cmpi ult
// CHECK: kiln.check %{{.*}}, IndexError, "string index out of range"
// CHECK: %[[C:.*]] = call @kiln_str_char_at(%[[S]], %{{.*}})
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: %[[CAT:.*]] = call @kiln_str_concat(%[[C]], %[[LIT]])
// CHECK: call @kiln_str_release(%[[C]])
// CHECK: call @kiln_journal_leave(%[[MARK]])
// CHECK: return %[[CAT]]
func.func @greet(%s: !kiln.str, %i: i64) -> !kiln.str {
  %lit = kiln.str.constant "a€ "
  %c = kiln.str.char_at %s[%i]
  %cat = kiln.str.concat %c, %lit
  kiln.release %c : !kiln.str
  return %cat : !kiln.str
}

// CHECK-LABEL: func.func @parse(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[STATUS:.*]] = call @kiln_str_to_int(%{{.*}}, %[[SLOT]])
// CHECK: %[[TEXT:.*]] = llvm.ptrtoint
// CHECK: kiln.check %{{.*}}, ValueError, "invalid literal for int() with base 10: {!r}"(%[[TEXT]])
// CHECK: kiln.check %{{.*}}, OverflowError
// CHECK: llvm.load %[[SLOT]] : !llvm.ptr -> i64
func.func @parse(%s: !kiln.str) -> i64 {
  %i = kiln.str.to_int %s
  return %i : i64
}

// CHECK-LABEL: func.func @words(
// CHECK: %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: kiln.check %{{.*}}, ValueError, "empty separator"
// CHECK: call @kiln_str_split(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: call @kiln_list_release
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @kiln_str_strip(%{{.*}}, %[[ZERO]], %{{.*}})
// CHECK: call @kiln_str_is(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> i32
func.func @words(%s: !kiln.str, %sep: !kiln.str, %max: i64) -> i1 {
  %parts = kiln.str.split %s, %max, %sep : !kiln.list<!kiln.str>
  kiln.release %parts : !kiln.list<!kiln.str>
  %t = kiln.str.strip %s {left, right}
  %d = kiln.str.is %t, isdigit
  kiln.release %t : !kiln.str
  return %d : i1
}

// CHECK-LABEL: func.func @share(
// CHECK: %[[COUNT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: arith.addi %[[COUNT]], %{{.*}} : i64
// CHECK: llvm.store
func.func @share(%s: !kiln.str) -> !kiln.str {
  kiln.retain %s : !kiln.str
  return %s : !kiln.str
}

// `s += t` is one runtime call that takes over the operand's reference.
// CHECK-LABEL: func.func @grow(
// CHECK: %[[LONGER:.*]] = call @kiln_str_append(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK-NOT: kiln_str_release
// CHECK: return %[[LONGER]]
func.func @grow(%s: !kiln.str, %t: !kiln.str) -> !kiln.str {
  kiln.retain %s : !kiln.str
  %longer = kiln.str.append %s, %t
  return %longer : !kiln.str
}
