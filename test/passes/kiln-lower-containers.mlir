// RUN: kiln-opt %s --kiln-lower-containers | FileCheck %s

// xs[i]: Python's index (negative from the end) checked against the
// length with one unsigned compare, then an inline load of the item.
// CHECK-LABEL: func.func @get_item(
// CHECK-SAME: %[[XS:.*]]: !llvm.ptr, %[[I:.*]]: i64
// CHECK-NOT: kiln_journal_enter
// CHECK: %[[LENADDR:.*]] = llvm.getelementptr %[[XS]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[LEN:.*]] = llvm.load %[[LENADDR]] : !llvm.ptr -> i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[FROMEND:.*]] = arith.addi %[[I]], %[[LEN]]
// CHECK: %[[POS:.*]] = arith.select %[[NEG]], %[[FROMEND]], %[[I]]
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[POS]], %[[LEN]]
// CHECK: kiln.check %[[OK]], IndexError, "list index out of range"
// CHECK: %[[ITEMS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[ITEMS]][%[[POS]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: llvm.load %[[AT]] : !llvm.ptr -> f64
func.func @get_item(%xs: !kiln.list<f64>, %i: i64, %error: !llvm.ptr {kiln.error_slot}) -> f64 {
  %x = kiln.list.get %xs[%i] : !kiln.list<f64>
  return %x : f64
}

// xs[i] = x stores one byte per bool and marks the list modified (the
// Python wrapper writes a modified argument back to the caller's list).
// CHECK-LABEL: func.func @set_bool(
// CHECK: kiln.check %{{.*}}, IndexError, "list assignment index out of range"
// CHECK: %[[BYTE:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.store %[[BYTE]], %{{.*}} : i8, !llvm.ptr
// CHECK: %[[FLAGS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[MOD:.*]] = arith.ori %[[FLAGS]], %{{.*}} : i32
// CHECK: llvm.store %[[MOD]], %{{.*}} : i32, !llvm.ptr
func.func @set_bool(%xs: !kiln.list<i1>, %i: i64, %b: i1, %error: !llvm.ptr {kiln.error_slot}) {
  kiln.list.set %xs[%i], %b : !kiln.list<i1>
  return
}

// A function that makes a list enters the journal first and leaves it at
// each return; a new list and each growth check for MemoryError.
// CHECK-LABEL: func.func @build(
// CHECK-SAME: -> !llvm.ptr
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter() : () -> i64
// CHECK: %[[NEW:.*]] = call @kiln_list_new(%{{.*}}, %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[NOTNULL:.*]] = llvm.icmp "ne" %[[NEW]], %[[NULL]] : !llvm.ptr
// CHECK: kiln.check %[[NOTNULL]], MemoryError, ""
// CHECK: scf.for
// CHECK: %[[OK:.*]] = func.call @kiln_list_append_i64(%[[NEW]], %{{.*}}) : (!llvm.ptr, i64) -> i32
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: call @kiln_journal_leave(%[[MARK]]) : (i64) -> ()
// CHECK-NEXT: return %[[NEW]] : !llvm.ptr
func.func @build(%n: i64, %error: !llvm.ptr {kiln.error_slot}) -> !kiln.list<i64> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %xs = kiln.list.new %n : !kiln.list<i64>
  scf.for %i = %c0 to %n step %c1 : i64 {
    kiln.list.append %xs, %i : !kiln.list<i64>
  }
  return %xs : !kiln.list<i64>
}

// Lists flow through scf.if and loops as pointers; retain is inline,
// release a call (the free is out of line).
// CHECK-LABEL: func.func @carried(
// CHECK: %[[PICK:.*]] = scf.if %{{.*}} -> (!llvm.ptr) {
// CHECK: %[[COPY:.*]] = func.call @kiln_list_copy(%{{.*}}) : (!llvm.ptr) -> !llvm.ptr
// CHECK: scf.yield %[[COPY]] : !llvm.ptr
// CHECK: } else {
// CHECK: %[[COUNT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[MORE:.*]] = arith.addi %[[COUNT]], %{{.*}} : i64
// CHECK: llvm.store %[[MORE]], %{{.*}} : i64, !llvm.ptr
// CHECK: scf.yield %{{.*}} : !llvm.ptr
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[PICK]]) -> (!llvm.ptr)
// CHECK: call @kiln_list_release(%{{.*}}) : (!llvm.ptr) -> ()
func.func @carried(%xs: !kiln.list<i64>, %flag: i1, %n: i64, %error: !llvm.ptr {kiln.error_slot}) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %pick = scf.if %flag -> !kiln.list<i64> {
    %copy = kiln.list.copy %xs : !kiln.list<i64>
    scf.yield %copy : !kiln.list<i64>
  } else {
    kiln.retain %xs : !kiln.list<i64>
    scf.yield %xs : !kiln.list<i64>
  }
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%held = %pick) -> !kiln.list<i64> : i64 {
    scf.yield %held : !kiln.list<i64>
  }
  %len = kiln.list.len %last : !kiln.list<i64>
  kiln.release %last : !kiln.list<i64>
  return %len : i64
}

// pop: the empty list first, then the index; the item is read before the
// runtime closes the gap.
// CHECK-LABEL: func.func @pop_at(
// CHECK: kiln.check %{{.*}}, IndexError, "pop from empty list"
// CHECK: kiln.check %{{.*}}, IndexError, "pop index out of range"
// CHECK: %[[ITEM:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: call @kiln_list_delete(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK: return %[[ITEM]]
func.func @pop_at(%xs: !kiln.list<i64>, %i: i64, %error: !llvm.ptr {kiln.error_slot}) -> i64 {
  %x = kiln.list.pop %xs[%i] : !kiln.list<i64>
  return %x : i64
}

// Bools cross runtime calls as i32 0/1; searches and comparisons are calls
// per item type.
// CHECK-LABEL: func.func @search_bools(
// CHECK: %[[WIDE:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: call @kiln_list_find_bool(%{{.*}}, %[[WIDE]]) : (!llvm.ptr, i32) -> i64
// CHECK: %[[EQ:.*]] = call @kiln_list_equal_bool(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK: arith.cmpi ne, %[[EQ]], %{{.*}} : i32
func.func @search_bools(%xs: !kiln.list<i1>, %b: i1) -> (i64, i1) {
  %at = kiln.list.find %xs, %b : !kiln.list<i1>
  %same = kiln.list.equal %xs, %xs : !kiln.list<i1>
  return %at, %same : i64, i1
}

// A call that returns a list makes the caller enter the journal: the
// callee's result is the caller's to free if the caller raises later.
// CHECK-LABEL: func.func @calls_build(
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter()
// CHECK: %[[R:.*]] = call @build(%{{.*}}, %{{.*}}) : (i64, !llvm.ptr) -> !llvm.ptr
// CHECK: arith.select %{{.*}}, %[[R]], %{{.*}} : !llvm.ptr
// CHECK: call @kiln_journal_leave(%[[MARK]])
func.func @calls_build(%xs: !kiln.list<i64>, %flag: i1, %error: !llvm.ptr {kiln.error_slot}) -> i64 {
  %c3 = arith.constant 3 : i64
  %r = func.call @build(%c3, %error) : (i64, !llvm.ptr) -> !kiln.list<i64>
  %pick = arith.select %flag, %r, %xs : !kiln.list<i64>
  %n = kiln.list.len %pick : !kiln.list<i64>
  kiln.release %r : !kiln.list<i64>
  return %n : i64
}

// d[k] += v: one lookup (KeyError with the key's kind and bits), then an
// inline read and write of the value at the slot.
// CHECK-LABEL: func.func @increment(
// CHECK-SAME: %[[D:.*]]: !llvm.ptr, %[[K:.*]]: f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[K]] : f64 to i64
// CHECK: %[[SLOT:.*]] = call @kiln_dict_find(%[[D]], %[[BITS]]) : (!llvm.ptr, i64) -> i64
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: %[[FOUND:.*]] = arith.cmpi sge, %[[SLOT]], %{{.*}} : i64
// CHECK: kiln.check %[[FOUND]], KeyError, "float key {}"(%{{.*}})
// CHECK: %[[VALUES:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[VALUES]][%[[SLOT]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK: %[[OLD:.*]] = llvm.load %[[AT]] : !llvm.ptr -> i64
// CHECK: %[[SUM:.*]] = arith.addi %[[OLD]], %{{.*}} : i64
// CHECK: llvm.store %[[SUM]], %{{.*}} : i64, !llvm.ptr
// CHECK: arith.ori
func.func @increment(%d: !kiln.dict<f64, i64>, %k: f64, %error: !llvm.ptr {kiln.error_slot}) {
  %c1 = arith.constant 1 : i64
  %slot = kiln.dict.require %d, %k : !kiln.dict<f64, i64>
  %v = kiln.dict.value_at %d[%slot] : !kiln.dict<f64, i64>
  %w = arith.addi %v, %c1 : i64
  kiln.dict.set_value_at %d[%slot], %w : !kiln.dict<f64, i64>
  return
}

// A new dict: its key and value kinds (runtime/kiln_abi.h's kiln_item_kind:
// int 1, float 2, bool 3) and the journal; bools cross as 0/1 in an i64.
// CHECK-LABEL: func.func @bool_values(
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter()
// CHECK: %[[INT:.*]] = arith.constant 1 : i32
// CHECK: %[[BOOL:.*]] = arith.constant 3 : i32
// CHECK: %[[NEW:.*]] = call @kiln_dict_new(%[[INT]], %[[BOOL]], %{{.*}}) : (i32, i32, i64) -> !llvm.ptr
// CHECK: %[[WIDE:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK: call @kiln_dict_set(%[[NEW]], %{{.*}}, %[[WIDE]]) : (!llvm.ptr, i64, i64) -> i32
// CHECK: %[[USED:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[LIVEARRAY:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[LIVEARRAY]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[VALUE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: arith.trunci %[[VALUE]] : i64 to i1
// CHECK: call @kiln_dict_release(%[[NEW]]) : (!llvm.ptr) -> ()
// CHECK: call @kiln_journal_leave(%[[MARK]])
func.func @bool_values(%k: i64, %flag: i1, %error: !llvm.ptr {kiln.error_slot}) -> (i64, i1, i1) {
  %c0 = arith.constant 0 : i64
  %d = kiln.dict.new %c0 : !kiln.dict<i64, i1>
  kiln.dict.set %d[%k], %flag : !kiln.dict<i64, i1>
  %used = kiln.dict.used %d : !kiln.dict<i64, i1>
  %live = kiln.dict.live_at %d[%c0] : !kiln.dict<i64, i1>
  %v = kiln.dict.value_at %d[%c0] : !kiln.dict<i64, i1>
  kiln.release %d : !kiln.dict<i64, i1>
  return %used, %live, %v : i64, i1, i1
}

// A set is a dict without values: kiln_dict_new with value kind
// KILN_ITEM_NONE (0); an element is added as a key with value 0, looked up
// with kiln_dict_find, and its slots are read as a dict's.
// CHECK-LABEL: func.func @seen_before(
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter()
// CHECK: %[[INT:.*]] = arith.constant 1 : i32
// CHECK: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[NEW:.*]] = call @kiln_dict_new(%[[INT]], %[[NONE]], %{{.*}}) : (i32, i32, i64) -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = call @kiln_dict_find(%[[NEW]], %{{.*}}) : (!llvm.ptr, i64) -> i64
// CHECK: %[[IN:.*]] = arith.cmpi sge, %[[SLOT]], %{{.*}} : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: call @kiln_dict_set(%[[NEW]], %{{.*}}, %[[ZERO]]) : (!llvm.ptr, i64, i64) -> i32
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: call @kiln_dict_release(%[[NEW]]) : (!llvm.ptr) -> ()
// CHECK: call @kiln_journal_leave(%[[MARK]])
func.func @seen_before(%x: i64, %error: !llvm.ptr {kiln.error_slot}) -> (i1, i64) {
  %c0 = arith.constant 0 : i64
  %s = kiln.set.new %c0 : !kiln.set<i64>
  %in = kiln.set.contains %s, %x : !kiln.set<i64>
  kiln.set.add %s, %x : !kiln.set<i64>
  %n = kiln.set.len %s : !kiln.set<i64>
  kiln.release %s : !kiln.set<i64>
  return %in, %n : i1, i64
}

// remove: kiln_set_discard's -1 is MemoryError, its 0 KeyError(x); pop:
// KeyError on an empty set, then the first element's slot is read and
// erased.
// CHECK-LABEL: func.func @remove_then_pop(
// CHECK-SAME: %[[S:.*]]: !llvm.ptr, %[[X:.*]]: f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f64 to i64
// CHECK: %[[OUT:.*]] = call @kiln_set_discard(%[[S]], %[[BITS]]) : (!llvm.ptr, i64) -> i32
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: %[[REMOVED:.*]] = arith.cmpi ne, %[[OUT]], %{{.*}} : i32
// CHECK: kiln.check %[[REMOVED]], KeyError, "float key {}"(%{{.*}})
// CHECK: %[[LEN:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[SOME:.*]] = arith.cmpi sgt, %[[LEN]], %{{.*}} : i64
// CHECK: kiln.check %[[SOME]], KeyError, "pop from an empty set"
// CHECK: %[[SLOT:.*]] = call @kiln_set_pop_slot(%[[S]]) : (!llvm.ptr) -> i64
// CHECK: %[[KEY:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: call @kiln_dict_erase_at(%[[S]], %[[SLOT]])
// CHECK: arith.bitcast %[[KEY]] : i64 to f64
func.func @remove_then_pop(%s: !kiln.set<f64>, %x: f64, %error: !llvm.ptr {kiln.error_slot}) -> f64 {
  kiln.set.remove %s, %x : !kiln.set<f64>
  %y = kiln.set.pop %s : !kiln.set<f64>
  return %y : f64
}

// The algebra is one runtime call each, the operation a constant
// (runtime/kiln_abi.h's KILN_SET_OPERATIONS: union 0 ... symmetric
// difference 3); queries answer -1 for MemoryError.
// CHECK-LABEL: func.func @algebra(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr, %[[B:[^:]*]]: !llvm.ptr
// CHECK: %[[SYM:.*]] = arith.constant 3 : i32
// CHECK: %[[C:.*]] = call @kiln_set_combine(%[[A]], %[[B]], %[[SYM]]) : (!llvm.ptr, !llvm.ptr, i32) -> !llvm.ptr
// CHECK: %[[DIFF:.*]] = arith.constant 2 : i32
// CHECK: call @kiln_set_update(%[[C]], %[[A]], %[[DIFF]]) : (!llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK: %[[LE:.*]] = call @kiln_set_subset(%[[C]], %[[B]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: arith.cmpi ne, %[[LE]], %{{.*}} : i32
// CHECK: call @kiln_set_disjoint(%[[C]], %[[B]])
// CHECK: call @kiln_dict_equal(%[[C]], %[[B]])
func.func @algebra(%a: !kiln.set<i64>, %b: !kiln.set<i64>, %error: !llvm.ptr {kiln.error_slot}) -> (i1, i1, i1) {
  %c = kiln.set.combine symmetric_difference %a, %b : !kiln.set<i64>
  kiln.set.update difference %c, %a : !kiln.set<i64>
  %le = kiln.set.subset %c, %b : !kiln.set<i64>
  %no = kiln.set.disjoint %c, %b : !kiln.set<i64>
  %eq = kiln.set.equal %c, %b : !kiln.set<i64>
  kiln.release %c : !kiln.set<i64>
  return %le, %no, %eq : i1, i1, i1
}

// A view of a list's items: the memref descriptor of `length` items at
// `items`, offset 0, stride 1; a view the loop writes through marks the
// list changed.
// CHECK-LABEL: func.func @view_items(
// CHECK-SAME: %[[XS:[^:]*]]: !llvm.ptr
// CHECK: %[[FLAGS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: arith.ori %[[FLAGS]], %{{.*}} : i32
// CHECK: %[[ITEMS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.insertvalue %[[ITEMS]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[ITEMS]], %{{.*}}[1]
// CHECK: %[[LEN:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: llvm.insertvalue %[[LEN]], %{{.*}}[3, 0]
// CHECK: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf64>
// CHECK: memref.load %[[VIEW]]
func.func @view_items(%xs: !kiln.list<f64>, %i: index) -> f64 {
  %view = kiln.list.view %xs {writes} : !kiln.list<f64> -> memref<?xf64>
  %x = memref.load %view[%i] : memref<?xf64>
  return %x : f64
}

// Slices: ValueError for a zero step, then one runtime call whose mask
// says which of start (1) and stop (2) were given (0 stands for a missing
// one); an extended-slice assignment of the wrong size is ValueError with
// both sizes (the runtime answers -(selected + 1)).
// CHECK-LABEL: func.func @slices(
// CHECK-SAME: %[[XS:[^:]*]]: !llvm.ptr, %[[A:[^:]*]]: i64, %[[C:[^:]*]]: i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[NONZERO:.*]] = arith.cmpi ne, %[[C]], %[[ZERO]] : i64
// CHECK: kiln.check %[[NONZERO]], ValueError, "slice step cannot be zero"
// CHECK: %[[START_ONLY:.*]] = arith.constant 1 : i32
// CHECK: %[[YS:.*]] = call @kiln_list_slice(%[[XS]], %[[A]], %[[ZERO]], %[[C]], %[[START_ONLY]])
// CHECK: kiln.check %{{.*}}, MemoryError, ""
// CHECK: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[OUT:.*]] = call @kiln_list_assign_slice(%[[XS]], %{{.*}}, %{{.*}}, %[[C]], %[[NONE]], %[[YS]])
// CHECK: %[[SELECTED:.*]] = arith.subi %{{.*}}, %[[OUT]] : i64
// CHECK: kiln.check %{{.*}}, ValueError, "attempt to assign sequence of size {} to extended slice of size {}"(%{{.*}}, %[[SELECTED]])
// CHECK: %[[BOTH:.*]] = arith.constant 3 : i32
// CHECK: call @kiln_list_delete_slice(%[[XS]], %[[A]], %[[A]], %[[C]], %[[BOTH]])
func.func @slices(%xs: !kiln.list<i64>, %a: i64, %c: i64, %error: !llvm.ptr {kiln.error_slot}) {
  %ys = kiln.list.slice %xs[%a : : %c] : !kiln.list<i64>
  kiln.list.assign_slice %xs[ : : %c], %ys : !kiln.list<i64>
  kiln.list.delete_slice %xs[%a : %a : %c] : !kiln.list<i64>
  kiln.release %ys : !kiln.list<i64>
  return
}

// An op that only carries containers (arith.select) becomes the same op on
// pointers, in the original's place; it makes nothing to journal.
// CHECK-LABEL: func.func @pick(
// CHECK-SAME: %[[C:.*]]: i1, %[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: %[[R:.*]] = arith.select %[[C]], %[[A]], %[[B]] : !llvm.ptr
// CHECK-NEXT: return %[[R]] : !llvm.ptr
func.func @pick(%c: i1, %a: !kiln.str, %b: !kiln.str) -> !kiln.str {
  %r = arith.select %c, %a, %b : !kiln.str
  return %r : !kiln.str
}
