// RUN: kiln-opt %s -split-input-file -kiln-lower-checks -verify-diagnostics

func.func @nested_in_loop(%n: index, %err: !llvm.ptr {kiln.error_slot}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %ok = arith.cmpi ult, %i, %n : index
    // expected-error @+1 {{must be in the function's top-level region: run convert-scf-to-cf before kiln-lower-checks}}
    kiln.check %ok, "IndexError", "out of bounds"
  }
  return
}

// -----

func.func @no_error_slot(%ok: i1) {
  // expected-error @+1 {{requires the enclosing function to have an argument marked 'kiln.error_slot'}}
  kiln.check %ok, "ValueError", "bad"
  return
}

// -----

func.func @slot_not_pointer(%ok: i1, %slot: i64 {kiln.error_slot}) {
  // expected-error @+1 {{'kiln.error_slot' argument must be !llvm.ptr}}
  kiln.check %ok, "ValueError", "bad"
  return
}

// -----

func.func @propagate_without_slot() {
  // expected-error @+1 {{requires the enclosing function to have an argument marked 'kiln.error_slot'}}
  kiln.propagate_error
  return
}
