// RUN: kiln-opt %s -split-input-file | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @no_operands
func.func @no_operands(%ok: i1) {
  // CHECK: kiln.check %{{.*}}, "ZeroDivisionError", "integer division or modulo by zero"
  kiln.check %ok, "ZeroDivisionError", "integer division or modulo by zero"
  return
}

// -----

// CHECK-LABEL: func.func @two_operands
func.func @two_operands(%ok: i1, %i: i64, %n: i64) {
  // CHECK: kiln.check %{{.*}}, "IndexError", "index {} is out of bounds for axis 0 with size {}"(%{{.*}}, %{{.*}})
  kiln.check %ok, "IndexError", "index {} is out of bounds for axis 0 with size {}" (%i, %n)
  return
}
