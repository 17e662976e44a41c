// RUN: kiln-opt %s -split-input-file | kiln-opt | FileCheck %s

// The kind is the dialect's ErrorKind enum: the frontend writes it quoted,
// it prints bare, and both spellings parse.
// CHECK-LABEL: func.func @no_operands
func.func @no_operands(%ok: i1) {
  // CHECK: kiln.check %{{.*}}, ZeroDivisionError, "integer division or modulo by zero"
  kiln.check %ok, "ZeroDivisionError", "integer division or modulo by zero"
  // CHECK: kiln.check %{{.*}}, RecursionError, "maximum recursion depth exceeded"
  kiln.check %ok, RecursionError, "maximum recursion depth exceeded"
  return
}

// -----

// Every kind of the C ABI (runtime/kiln_abi.h), in its order.
// CHECK-LABEL: func.func @every_kind
// CHECK: ZeroDivisionError
// CHECK: IndexError
// CHECK: ValueError
// CHECK: OverflowError
// CHECK: AssertionError
// CHECK: RuntimeError
// CHECK: TypeError
// CHECK: MemoryError
// CHECK: RecursionError
func.func @every_kind(%ok: i1) {
  kiln.check %ok, "ZeroDivisionError", ""
  kiln.check %ok, "IndexError", ""
  kiln.check %ok, "ValueError", ""
  kiln.check %ok, "OverflowError", ""
  kiln.check %ok, "AssertionError", ""
  kiln.check %ok, "RuntimeError", ""
  kiln.check %ok, "TypeError", ""
  kiln.check %ok, "MemoryError", ""
  kiln.check %ok, "RecursionError", ""
  return
}

// -----

// CHECK-LABEL: func.func @two_operands
func.func @two_operands(%ok: i1, %i: i64, %n: i64) {
  // CHECK: kiln.check %{{.*}}, IndexError, "index {} is out of bounds for axis 0 with size {}"(%{{.*}}, %{{.*}})
  kiln.check %ok, "IndexError", "index {} is out of bounds for axis 0 with size {}" (%i, %n)
  return
}
