// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// A literal is UTF-8 text: a surrogate's bytes (which a Python source can
// escape, but no string of Kiln holds) are refused.
func.func @surrogate() {
  // expected-error @+1 {{'kiln.str.constant' op value is not valid UTF-8 (at byte 1)}}
  %s = kiln.str.constant "a\ED\A0\80"
  return
}

// -----

// strip() strips at least one end.
func.func @strip_nothing(%s: !kiln.str) {
  // expected-error @+1 {{'kiln.str.strip' op strips the left end, the right end or both}}
  %t = kiln.str.strip %s
  return
}

// -----

// split() makes a list of str.
func.func @split_into_ints(%s: !kiln.str, %n: i64) {
  // expected-error @+1 {{'kiln.str.split' op makes a !kiln.list<!kiln.str>, not '!kiln.list<i64>'}}
  %t = kiln.str.split %s, %n : !kiln.list<i64>
  return
}

// -----

// join() joins a list of str.
func.func @join_floats(%s: !kiln.str, %xs: !kiln.list<f64>) {
  // expected-error @+1 {{'kiln.str.join' op joins a !kiln.list<!kiln.str>, not '!kiln.list<f64>'}}
  %t = kiln.str.join %s, %xs : !kiln.list<f64>
  return
}

// -----

// The properties are runtime/kiln_abi.h's KILN_STR_PROPERTIES.
func.func @unknown_property(%s: !kiln.str) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'property' [isdigit, isalpha, isalnum, isspace, isdecimal, isnumeric, islower, isupper]}}
  %t = kiln.str.is %s, istitle
  return
}

// -----

// A {!r} placeholder takes an operand as a {} does.
func.func @quoted_without_operand(%ok: i1) {
  // expected-error @+1 {{'kiln.check' op message has 1 '{}' placeholders but 0 operands}}
  kiln.check %ok, ValueError, "invalid literal for int() with base 10: {!r}"
  return
}
