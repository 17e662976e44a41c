// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// A field sits in an 8-byte slot after the 16-byte object header
// (runtime/kiln_abi.h).
func.func @header(%n: !kiln.object<"Node">) -> i64 {
  // expected-error @+1 {{field offset 8 is not a field slot (16 + a multiple of 8)}}
  %v = kiln.object.get %n["value", 8] : !kiln.object<"Node"> -> i64
  return %v : i64
}

// -----

func.func @straddle(%n: !kiln.object<"Node">, %v: f64) {
  // expected-error @+1 {{field offset 20 is not a field slot (16 + a multiple of 8)}}
  kiln.object.set %n["x", 20], %v : !kiln.object<"Node">, f64
  return
}

// -----

// Only an instance field may hold None.
func.func @nullable_number(%n: !kiln.object<"Node">) -> i64 {
  // expected-error @+1 {{only an instance field can be nullable}}
  %v = kiln.object.get %n["value", 16] {nullable} : !kiln.object<"Node"> -> i64
  return %v : i64
}

// -----

// Fields hold Python's int, float, bool or an instance.
func.func @narrow_field(%n: !kiln.object<"Node">) -> i32 {
  // expected-error @+1 {{result #0 must be i64, f64, i1, an instance, a str or a list}}
  %v = kiln.object.get %n["value", 16] : !kiln.object<"Node"> -> i32
  return %v : i32
}

// -----

// `is` of two instances of one class (the generic form: the custom one
// names a single type).
func.func @mixed_same(%a: !kiln.object<"A">, %b: !kiln.object<"B">) -> i1 {
  // expected-error @+1 {{all operands to have the same type}}
  %s = "kiln.object.same"(%a, %b) : (!kiln.object<"A">, !kiln.object<"B">) -> i1
  return %s : i1
}
