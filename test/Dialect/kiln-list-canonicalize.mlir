// RUN: kiln-opt %s -canonicalize | FileCheck %s

// A parameter's reference (retained on entry, released at return) cancels
// out when nothing between releases a list.
// CHECK-LABEL: func.func @borrowed_throughout
// CHECK-NOT: kiln.retain
// CHECK-NOT: kiln.release
// CHECK: return
func.func @borrowed_throughout(%xs: !kiln.list<f64>, %i: i64) -> f64 {
  kiln.retain %xs : !kiln.list<f64>
  %x = kiln.list.get %xs[%i] : !kiln.list<f64>
  kiln.list.append %xs, %x : !kiln.list<f64>
  kiln.release %xs : !kiln.list<f64>
  return %x : f64
}

// A release of another list between them may free this one if it is the
// same list under another name: the pair stays.
// CHECK-LABEL: func.func @other_release_between
// CHECK: kiln.retain %arg0
// CHECK: kiln.release %arg1
// CHECK: kiln.release %arg0
func.func @other_release_between(%xs: !kiln.list<i64>, %ys: !kiln.list<i64>) -> i64 {
  kiln.retain %xs : !kiln.list<i64>
  kiln.release %ys : !kiln.list<i64>
  %n = kiln.list.len %xs : !kiln.list<i64>
  kiln.release %xs : !kiln.list<i64>
  return %n : i64
}

// The same inside a region between them.
// CHECK-LABEL: func.func @release_in_a_region
// CHECK: kiln.retain
// CHECK: scf.if
// CHECK: kiln.release %arg1
// CHECK: kiln.release %arg0
func.func @release_in_a_region(%xs: !kiln.list<i64>, %ys: !kiln.list<i64>, %c: i1) {
  kiln.retain %xs : !kiln.list<i64>
  scf.if %c {
    kiln.release %ys : !kiln.list<i64>
  }
  kiln.release %xs : !kiln.list<i64>
  return
}

// kiln.str.append consumes a reference as a release does: a retain before
// it does not cancel with a release after it (the append may have grown
// the string in place, or freed the operand, by then).
// CHECK-LABEL: func.func @append_between
// CHECK: kiln.retain
// CHECK: kiln.str.append
// CHECK: kiln.release
func.func @append_between(%s: !kiln.str, %t: !kiln.str) -> !kiln.str {
  kiln.retain %s : !kiln.str
  %longer = kiln.str.append %s, %t
  kiln.release %s : !kiln.str
  return %longer : !kiln.str
}

// A parameter's retain and release cancel across field stores of numbers
// (they free nothing), not across a store of an instance (it releases what
// the field held: maybe the parameter itself) or a call (a method may store
// None into the field the caller read its argument from).
// CHECK-LABEL: func.func @number_stores_between
// CHECK-NOT: kiln.retain
// CHECK: kiln.object.set
// CHECK-NOT: kiln.release
// CHECK: return
func.func @number_stores_between(%p: !kiln.object<"Body">, %x: f64) {
  kiln.retain %p : !kiln.object<"Body">
  kiln.object.set %p["x", 16], %x : !kiln.object<"Body">, f64
  kiln.release %p : !kiln.object<"Body">
  return
}

// CHECK-LABEL: func.func @instance_store_between
// CHECK: kiln.retain
// CHECK: kiln.object.set
// CHECK: kiln.release
func.func @instance_store_between(%p: !kiln.object<"Node">, %q: !kiln.object<"Node">) {
  kiln.retain %p : !kiln.object<"Node">
  kiln.object.set %q["next", 24], %q : !kiln.object<"Node">, !kiln.object<"Node">
  kiln.release %p : !kiln.object<"Node">
  return
}

// CHECK-LABEL: func.func @call_between
// CHECK: kiln.retain
// CHECK: call @clear
// CHECK: kiln.release
func.func private @clear(!kiln.object<"Node">)
func.func @call_between(%p: !kiln.object<"Node">, %q: !kiln.object<"Node">) {
  kiln.retain %p : !kiln.object<"Node">
  func.call @clear(%q) : (!kiln.object<"Node">) -> ()
  kiln.release %p : !kiln.object<"Node">
  return
}

// Writing into a list of instances or strings may release the item it
// replaces (`y = xs[0]; xs[0] = z`: y's instance may be that one): no
// cancel across it. A write into a list of numbers frees nothing.
// CHECK-LABEL: func.func @instance_list_store_between
// CHECK: kiln.retain
// CHECK: kiln.list.set
// CHECK: kiln.release
func.func @instance_list_store_between(%xs: !kiln.list<!kiln.object<"Node">>, %i: i64,
                                       %z: !kiln.object<"Node">) -> !kiln.object<"Node"> {
  %y = kiln.list.get %xs[%i] : !kiln.list<!kiln.object<"Node">>
  kiln.retain %y : !kiln.object<"Node">
  kiln.list.set %xs[%i], %z : !kiln.list<!kiln.object<"Node">>
  %same = kiln.object.same %y, %z : !kiln.object<"Node">
  kiln.release %y : !kiln.object<"Node">
  return %y : !kiln.object<"Node">
}

// CHECK-LABEL: func.func @number_list_store_between
// CHECK-NOT: kiln.retain
// CHECK: kiln.list.set
// CHECK-NOT: kiln.release
// CHECK: return
func.func @number_list_store_between(%p: !kiln.object<"Node">, %xs: !kiln.list<i64>, %i: i64) {
  kiln.retain %p : !kiln.object<"Node">
  kiln.list.set %xs[%i], %i : !kiln.list<i64>
  kiln.release %p : !kiln.object<"Node">
  return
}

// Storing a str into a field releases the string the field held (maybe
// the one retained here): no cancel across it.
// CHECK-LABEL: func.func @str_field_store_between
// CHECK: kiln.retain
// CHECK: kiln.object.set
// CHECK: kiln.release
func.func @str_field_store_between(%p: !kiln.object<"Person">, %s: !kiln.str) {
  %old = kiln.object.get %p["name", 16] : !kiln.object<"Person"> -> !kiln.str
  kiln.retain %old : !kiln.str
  kiln.object.set %p["name", 16], %s : !kiln.object<"Person">, !kiln.str
  kiln.release %old : !kiln.str
  return
}
