// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Only the kinds of the C ABI parse (the dialect's ErrorKind enum), quoted
// or bare.
func.func @unknown_kind(%ok: i1) {
  // expected-error @+1 {{invalid kind attribute specification: "NameError"}}
  kiln.check %ok, "NameError", "missing"
  return
}

// -----

func.func @unknown_bare_kind(%ok: i1) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [ZeroDivisionError, IndexError, ValueError, OverflowError, AssertionError, RuntimeError, TypeError, MemoryError, RecursionError, KeyError, AttributeError, NotImplementedError, LinAlgError]}}
  kiln.check %ok, StopIteration, "done"
  return
}

// -----

// The generic form needs the enum attribute (an i32 of a known kind), not a
// string or another number.
func.func @kind_as_string_attribute(%ok: i1) {
  // expected-error @+1 {{attribute 'kind' failed to satisfy constraint: the Python exception a compiled function raises}}
  "kiln.check"(%ok) {kind = "IndexError", message = ""} : (i1) -> ()
  return
}

// -----

func.func @kind_out_of_range(%ok: i1) {
  // expected-error @+1 {{attribute 'kind' failed to satisfy constraint: the Python exception a compiled function raises}}
  "kiln.check"(%ok) {kind = 99 : i32, message = ""} : (i1) -> ()
  return
}

// -----

func.func @placeholder_mismatch(%ok: i1, %i: i64) {
  // expected-error @+1 {{message has 2 '{}' placeholders but 1 operands}}
  kiln.check %ok, "IndexError", "index {} out of {}" (%i)
  return
}

// -----

func.func @too_many_operands(%ok: i1, %i: i64) {
  // expected-error @+1 {{takes at most 24 message operands, got 25}}
  kiln.check %ok, "ValueError", "{} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}" (%i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i, %i)
  return
}

// -----

func.func @operand_not_i64(%ok: i1, %i: i32) {
  // expected-error @+1 {{operand #1 must be variadic of 64-bit signless integer}}
  "kiln.check"(%ok, %i) {kind = 2 : i32, message = "{}"} : (i1, i32) -> ()
  return
}

// -----

func.func @floordiv_mixed_types(%a: i64, %b: f64) {
  // expected-error @+1 {{all of {lhs, rhs, result} have same type}}
  %q = "kiln.floordiv"(%a, %b) : (i64, f64) -> i64
  return
}

// -----

func.func @pow_on_i1(%a: i1) {
  // expected-error @+1 {{must be 64-bit signless integer or 32-bit signless integer or 16-bit signless integer or 8-bit signless integer or 64-bit float or 32-bit float}}
  %p = "kiln.pow"(%a, %a) : (i1, i1) -> i1
  return
}

// -----

func.func @index_without_axis(%i: i64, %n: i64) {
  // expected-error @+1 {{requires attribute 'axis'}}
  %r = "kiln.index"(%i, %n) : (i64, i64) -> index
  return
}
