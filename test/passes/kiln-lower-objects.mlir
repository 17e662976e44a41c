// RUN: kiln-opt %s --kiln-lower-containers | FileCheck %s
// The instance half of kiln-lower-containers (passes/LowerObjects.cpp):
// fields are loads and stores at their offsets after a None check, a new
// instance comes from the type in the class slot, references are counted
// by runtime/kiln_object.c.

llvm.mlir.global weak @mod_Node__kiln_type() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK-LABEL: func.func @make(
// CHECK-SAME: %[[V:.*]]: i64, %[[NEXT:.*]]: !llvm.ptr, %[[FLAG:.*]]: i1) -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @mod_Node__kiln_type : !llvm.ptr
// CHECK: %[[TYPE:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: kiln.check %{{.*}}, RuntimeError, "class 'Node' has no type here
// CHECK: %[[N:.*]] = call @kiln_object_new(%[[TYPE]])
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: kiln.check %{{.*}}, AttributeError, "'NoneType' object has no attribute 'value'"
// CHECK: %[[VADDR:.*]] = llvm.getelementptr %[[N]][16]
// CHECK: llvm.store %[[V]], %[[VADDR]] : i64, !llvm.ptr
// CHECK: call @kiln_object_retain(%[[NEXT]])
// CHECK: %[[OLDADDR:.*]] = llvm.getelementptr %[[N]][24]
// CHECK: %[[OLD:.*]] = llvm.load %[[OLDADDR]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.store %[[NEXT]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: call @kiln_object_release(%[[OLD]])
// CHECK: %[[BYTE:.*]] = arith.extui %[[FLAG]] : i1 to i8
// CHECK: llvm.store %[[BYTE]], %{{.*}} : i8, !llvm.ptr
// CHECK: return %[[N]] : !llvm.ptr
func.func @make(%v: i64, %next: !kiln.object<"Node">, %flag: i1) -> !kiln.object<"Node"> {
  %n = kiln.object.new @mod_Node__kiln_type : !kiln.object<"Node">
  kiln.object.set %n["value", 16], %v : !kiln.object<"Node">, i64
  kiln.object.set %n["next", 24], %next : !kiln.object<"Node">, !kiln.object<"Node">
  kiln.object.set %n["marked", 32], %flag : !kiln.object<"Node">, i1
  return %n : !kiln.object<"Node">
}

// An Optional field reads None as None; a plain instance field that is
// still unset raises AttributeError naming the class.
// CHECK-LABEL: func.func @walk(
// CHECK: kiln.check %{{.*}}, AttributeError, "'NoneType' object has no attribute 'next'"
// CHECK: %[[M:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NOT: kiln.check
// CHECK: call @kiln_object_retain(%[[M]])
// CHECK: kiln.check %{{.*}}, AttributeError, "'NoneType' object has no attribute 'parent'"
// CHECK: %[[P:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[SET:.*]] = llvm.icmp "ne" %[[P]], %[[NULL]] : !llvm.ptr
// CHECK: kiln.check %[[SET]], AttributeError, "'Node' object has no attribute 'parent'"
// CHECK: %[[FLAGBYTE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: arith.trunci %[[FLAGBYTE]] : i8 to i1
// CHECK: call @kiln_object_release(%[[M]])
func.func @walk(%n: !kiln.object<"Node">) -> i1 {
  %m = kiln.object.get %n["next", 24] {nullable} : !kiln.object<"Node"> -> !kiln.object<"Node">
  kiln.retain %m : !kiln.object<"Node">
  %p = kiln.object.get %n["parent", 40] : !kiln.object<"Node"> -> !kiln.object<"Node">
  %flag = kiln.object.get %p["marked", 32] : !kiln.object<"Node"> -> i1
  kiln.release %m : !kiln.object<"Node">
  return %flag : i1
}

// `is None` and `is` compare pointers; None is the null pointer.
// CHECK-LABEL: func.func @same(
// CHECK: %[[Z:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.icmp "eq" %{{.*}}, %[[Z]] : !llvm.ptr
// CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : !llvm.ptr
// CHECK: llvm.mlir.zero : !llvm.ptr
func.func @same(%a: !kiln.object<"Node">, %b: !kiln.object<"Node">) -> (i1, i1, !kiln.object<"Node">) {
  %n = kiln.object.is_none %a : !kiln.object<"Node">
  %s = kiln.object.same %a, %b : !kiln.object<"Node">
  %none = kiln.object.none : !kiln.object<"Node">
  return %n, %s, %none : i1, i1, !kiln.object<"Node">
}

// kiln.owned: where the references to instances the function holds change
// (a retain, a new instance, a release, a loop's carried value, a yield),
// a marker lists them, one operand per reference.
// CHECK-LABEL: func.func @walk_to_end(
// CHECK-SAME: %[[SELF:.*]]: !llvm.ptr
// CHECK: kiln.owned
// CHECK-NEXT: call @kiln_object_retain(%[[SELF]])
// CHECK-NEXT: kiln.owned %[[SELF]] : !llvm.ptr
// CHECK: call @kiln_object_retain(%[[SELF]])
// CHECK-NEXT: kiln.owned %[[SELF]], %[[SELF]] : !llvm.ptr, !llvm.ptr
// CHECK: scf.while (%[[CUR:.*]] = %[[SELF]]) : (!llvm.ptr) -> !llvm.ptr {
// CHECK-NEXT: kiln.owned %[[SELF]], %[[CUR]] : !llvm.ptr, !llvm.ptr
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[AT:.*]]: !llvm.ptr):
// CHECK-NEXT: kiln.owned %[[SELF]], %[[AT]] : !llvm.ptr, !llvm.ptr
// CHECK: %[[NEXT:.*]] = llvm.load
// CHECK: call @kiln_object_retain(%[[NEXT]])
// CHECK-NEXT: kiln.owned %[[SELF]], %[[AT]], %[[NEXT]]
// CHECK: call @kiln_object_release(%[[AT]])
// CHECK-NEXT: kiln.owned %[[SELF]], %[[NEXT]]
// CHECK: scf.yield %[[NEXT]]
// CHECK: kiln.owned %[[SELF]], %{{.*}} : !llvm.ptr, !llvm.ptr
func.func @walk_to_end(%self: !kiln.object<"Node">) -> i64 {
  kiln.retain %self : !kiln.object<"Node">
  %c0 = arith.constant 0 : i64
  kiln.retain %self : !kiln.object<"Node">
  %last = scf.while (%cur = %self) : (!kiln.object<"Node">) -> !kiln.object<"Node"> {
    %more = kiln.object.is_none %cur : !kiln.object<"Node">
    scf.condition(%more) %cur : !kiln.object<"Node">
  } do {
  ^bb0(%at: !kiln.object<"Node">):
    %next = kiln.object.get %at["next", 24] {nullable} : !kiln.object<"Node"> -> !kiln.object<"Node">
    kiln.retain %next : !kiln.object<"Node">
    kiln.release %at : !kiln.object<"Node">
    scf.yield %next : !kiln.object<"Node">
  }
  kiln.release %last : !kiln.object<"Node">
  kiln.release %self : !kiln.object<"Node">
  return %c0 : i64
}

// A function that uses an instance in a way the walk does not follow
// (here an arith.select) gets no markers.
// CHECK-LABEL: func.func @selects(
// CHECK-NOT: kiln.owned
// CHECK: return
func.func @selects(%a: !kiln.object<"Node">, %b: !kiln.object<"Node">, %c: i1) -> i64 {
  %x = arith.select %c, %a, %b : !kiln.object<"Node">
  %v = kiln.object.get %x["value", 16] : !kiln.object<"Node"> -> i64
  return %v : i64
}

// Inheritance: a cast is the same pointer; `type(o) is C` loads the type
// only when `o` is not None, and compares it with the class slot's.
llvm.mlir.global weak @mod_Circle__kiln_type() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK-LABEL: func.func @dispatch(
// CHECK-SAME: %[[S:.*]]: !llvm.ptr) -> i64
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[PRESENT:.*]] = llvm.icmp "ne" %[[S]], %[[NULL]]
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @mod_Circle__kiln_type
// CHECK: %[[EXPECTED:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[IS:.*]] = scf.if %[[PRESENT]] -> (i1) {
// CHECK:   %[[TADDR:.*]] = llvm.getelementptr %[[S]][8]
// CHECK:   %[[TYPE:.*]] = llvm.load %[[TADDR]] : !llvm.ptr -> !llvm.ptr
// CHECK:   %[[SAME:.*]] = llvm.icmp "eq" %[[TYPE]], %[[EXPECTED]]
// CHECK:   scf.yield %[[SAME]] : i1
// CHECK: } else {
// CHECK:   scf.yield %[[PRESENT]] : i1
// CHECK: scf.if %[[IS]] -> (i64)
// CHECK: llvm.getelementptr %[[S]][24]
// CHECK: llvm.getelementptr %[[S]][16]
// CHECK-NOT: kiln.object
func.func @dispatch(%s: !kiln.object<"Shape">) -> i64 {
  %is = kiln.object.has_type %s, @mod_Circle__kiln_type : !kiln.object<"Shape">
  %r = scf.if %is -> (i64) {
    %c = kiln.object.cast %s : !kiln.object<"Shape"> to !kiln.object<"Circle">
    %radius = kiln.object.get %c["radius", 24] : !kiln.object<"Circle"> -> i64
    scf.yield %radius : i64
  } else {
    %side = kiln.object.get %s["id", 16] : !kiln.object<"Shape"> -> i64
    scf.yield %side : i64
  }
  return %r : i64
}

// A list of instances (runtime/kiln_list.c's KILN_ITEM_OBJECT, 5) holds a
// reference to each: stored through the runtime (retained, the replaced
// one released), popped with the list's reference. Storing into a list and
// reading from it leave the function's own references as they are, so the
// walk still marks them; a pop's result is one more.
// CHECK-LABEL: func.func @list_of_nodes(
// CHECK-SAME: %[[N:[^:]*]]: !llvm.ptr
// CHECK: kiln.owned
// CHECK-NEXT: call @kiln_object_retain(%[[N]])
// CHECK-NEXT: kiln.owned %[[N]] : !llvm.ptr
// CHECK: %[[KIND:.*]] = arith.constant 5 : i32
// CHECK: %[[XS:.*]] = call @kiln_list_new_of(%{{.*}}, %{{.*}}, %[[KIND]])
// CHECK: call @kiln_list_append_object(%[[XS]], %[[N]])
// CHECK: call @kiln_list_store_object(%[[XS]], %{{.*}}, %[[N]])
// CHECK: call @kiln_list_open_slot(%[[XS]]
// CHECK: call @kiln_list_adopt_object(%[[XS]], %[[N]])
// CHECK: call @kiln_list_find_object(%[[XS]], %[[N]])
// CHECK: %[[POPPED:.*]] = call @kiln_list_take_object(%[[XS]], %{{.*}})
// CHECK-NEXT: kiln.owned %[[N]], %[[POPPED]] : !llvm.ptr, !llvm.ptr
// CHECK: call @kiln_list_release(%[[XS]])
// CHECK: call @kiln_object_release(%[[N]])
// CHECK-NEXT: kiln.owned %[[POPPED]] : !llvm.ptr
func.func @list_of_nodes(%n: !kiln.object<"Node">, %i: i64) -> (!kiln.object<"Node">, i64) {
  kiln.retain %n : !kiln.object<"Node">
  %c4 = arith.constant 4 : i64
  %xs = kiln.list.new %c4 : !kiln.list<!kiln.object<"Node">>
  kiln.list.append %xs, %n : !kiln.list<!kiln.object<"Node">>
  kiln.list.set %xs[%i], %n : !kiln.list<!kiln.object<"Node">>
  kiln.list.insert %xs[%i], %n : !kiln.list<!kiln.object<"Node">>
  %at = kiln.list.find %xs, %n : !kiln.list<!kiln.object<"Node">>
  %popped = kiln.list.pop %xs[%i] : !kiln.list<!kiln.object<"Node">>
  kiln.release %xs : !kiln.list<!kiln.object<"Node">>
  kiln.release %n : !kiln.object<"Node">
  return %popped, %at : !kiln.object<"Node">, i64
}

// A str field: read as its pointer (unset, NULL, is a missing attribute);
// written through the runtime, which adopts the string for the instance
// (outside the journal) and gives up the one the field held.
// CHECK-LABEL: func.func @str_field(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr, %[[S:[^:]*]]: !llvm.ptr
// CHECK: kiln.check %{{.*}}, AttributeError, "'NoneType' object has no attribute 'name'"
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[P]][16]
// CHECK: %[[OLD:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> !llvm.ptr
// CHECK: kiln.check %{{.*}}, AttributeError, "'Person' object has no attribute 'name'"
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[P]][16]
// CHECK: call @kiln_str_store_field(%[[SLOT]], %[[S]])
// CHECK: return %[[OLD]]
func.func @str_field(%p: !kiln.object<"Person">, %s: !kiln.str) -> !kiln.str {
  %old = kiln.object.get %p["name", 16] : !kiln.object<"Person"> -> !kiln.str
  kiln.object.set %p["name", 16], %s : !kiln.object<"Person">, !kiln.str
  return %old : !kiln.str
}
