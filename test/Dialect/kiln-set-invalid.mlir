// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Elements are Python's int, float and bool: i64, f64 and i1.
// expected-error @+1 {{a set holds i64, f64, i1 or !kiln.str elements, not 'i32'}}
func.func @narrow_elements(%s: !kiln.set<i32>) {
  return
}

// -----

// An element operand has the set's element type.
func.func @wrong_element(%s: !kiln.set<f64>, %x: i64) {
  // expected-error @+1 {{'kiln.set.add' op failed to verify that element type matches the set}}
  "kiln.set.add"(%s, %x) : (!kiln.set<f64>, i64) -> ()
  return
}

// -----

// `a | b` needs two sets of one type.
func.func @mixed_union(%a: !kiln.set<f64>, %b: !kiln.set<i64>) {
  // expected-error @+1 {{'kiln.set.combine' op failed to verify that all of {lhs, rhs, result} have same type}}
  %c = "kiln.set.combine"(%a, %b) {kind = 0 : i32} : (!kiln.set<f64>, !kiln.set<i64>) -> !kiln.set<f64>
  return
}

// -----

// The set operations are the four of runtime/kiln_abi.h's KILN_SET_OPERATIONS.
func.func @unknown_operation(%a: !kiln.set<i64>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [union, intersection, difference, symmetric_difference]}}
  kiln.set.update 4 %a, %a : !kiln.set<i64>
  return
}

// -----

func.func @dict_is_not_a_set(%d: !kiln.dict<i64, i64>) {
  // expected-error @+1 {{'kiln.set.len' op operand #0 must be a Kiln set, but got '!kiln.dict<i64, i64>'}}
  %n = "kiln.set.len"(%d) : (!kiln.dict<i64, i64>) -> i64
  return
}
