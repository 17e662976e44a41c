// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Items are Python's int, float and bool: i64, f64 and i1.
// expected-error @+1 {{a list holds i64, f64, i1, !kiln.str or !kiln.object items, not 'i32'}}
func.func @narrow_items(%xs: !kiln.list<i32>) {
  return
}

// -----

// An item operand has the list's item type.
func.func @wrong_item(%xs: !kiln.list<f64>, %x: i64) {
  // expected-error @+1 {{'kiln.list.append' op failed to verify that item type matches the list}}
  "kiln.list.append"(%xs, %x) : (!kiln.list<f64>, i64) -> ()
  return
}

// -----

// `xs + ys` needs two lists of one type.
func.func @mixed_concat(%xs: !kiln.list<f64>, %ys: !kiln.list<i64>) {
  // expected-error @+1 {{'kiln.list.concat' op failed to verify that all of {lhs, rhs, result} have same type}}
  %zs = "kiln.list.concat"(%xs, %ys) : (!kiln.list<f64>, !kiln.list<i64>) -> !kiln.list<f64>
  return
}

// -----

// Only lists are retained and released.
func.func @retain_a_number(%x: f64) {
  // expected-error @+1 {{'kiln.retain' op operand #0 must be a Kiln list, dict, set, str or instance, but got 'f64'}}
  "kiln.retain"(%x) : (f64) -> ()
  return
}

// -----

// Dict keys and values are Python's int, float and bool too.
// expected-error @+1 {{a dict holds i64, f64, i1 or !kiln.str keys and values, not 'f32'}}
func.func @narrow_values(%d: !kiln.dict<i64, f32>) {
  return
}

// -----

func.func @wrong_key(%d: !kiln.dict<i64, f64>, %k: f64) {
  // expected-error @+1 {{'kiln.dict.find' op failed to verify that key type matches the dict}}
  %s = "kiln.dict.find"(%d, %k) : (!kiln.dict<i64, f64>, f64) -> i64
  return
}

// -----

// A view is of the items as stored: bytes for bools, and of the list's
// own item type.
func.func @float_view_of_ints(%xs: !kiln.list<i64>) {
  // expected-error @+1 {{'kiln.list.view' op views items of type 'i64' as 'i64', not 'f64'}}
  %v = "kiln.list.view"(%xs) : (!kiln.list<i64>) -> memref<?xf64>
  return
}
