// RUN: kiln-opt %s -split-input-file -kiln-lower-checks | FileCheck %s

// CHECK-LABEL: llvm.mlir.global private constant @__kiln_message_0("integer division or modulo by zero\00")
// CHECK-LABEL: func.func @floordiv
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64, %[[ERR:.*]]: !llvm.ptr) -> i64
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[B]]
// CHECK: %[[FAILED:.*]] = arith.xori %[[NZ]], %true
// CHECK: cf.cond_br %[[FAILED]] weights([1, 1048576]), ^[[RAISE:bb[0-9]+]], ^[[CONT:bb[0-9]+]]
// CHECK: ^[[RAISE]]:
// CHECK: %[[KIND:.*]] = arith.constant 1 : i32
// CHECK: llvm.store %[[KIND]], %{{.*}} : i32, !llvm.ptr
// CHECK: %[[LINE:.*]] = arith.constant 7 : i32
// CHECK: llvm.store %[[LINE]], %{{.*}} : i32, !llvm.ptr
// CHECK: %[[COL:.*]] = arith.constant 9 : i32
// CHECK: llvm.store %[[COL]], %{{.*}} : i32, !llvm.ptr
// CHECK: %[[MSG:.*]] = llvm.mlir.addressof @__kiln_message_0
// CHECK: llvm.store %[[MSG]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: return %[[ZERO]] : i64
// CHECK: ^[[CONT]]:
// CHECK: arith.floordivsi %[[A]], %[[B]]
func.func @floordiv(%a: i64, %b: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
  %c0 = arith.constant 0 : i64
  %nz = arith.cmpi ne, %b, %c0 : i64
  kiln.check %nz, "ZeroDivisionError", "integer division or modulo by zero" loc("kernel.py":7:9)
  %q = arith.floordivsi %a, %b : i64
  return %q : i64
}

// -----

// The message operands land in args[0] and args[1] (byte offsets 24, 32).
// CHECK-LABEL: func.func @index
// CHECK: ^{{.*}}:
// CHECK: %[[ARGS0:.*]] = llvm.getelementptr %{{.*}}[24] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[ARGS0]] : i64, !llvm.ptr
// CHECK: %[[ARGS1:.*]] = llvm.getelementptr %{{.*}}[32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[ARGS1]] : i64, !llvm.ptr
// CHECK: return
func.func @index(%i: i64, %n: i64, %err: !llvm.ptr {kiln.error_slot}) {
  %ok = arith.cmpi ult, %i, %n : i64
  kiln.check %ok, "IndexError", "index {} is out of bounds for axis 0 with size {}" (%i, %n)
  return
}

// -----

// A checked index that may be negative: one unsigned compare of the index
// itself leads to the access; the wrap (index + size) and its check run only
// for indexes outside [0, size), and the error still shows the original
// index. The access reads the position through the join block's argument.
// CHECK-LABEL: func.func @negative_index
// CHECK-SAME: (%[[I:.*]]: i64, %[[N:.*]]: i64, %[[M:.*]]: memref<?xf64>
// CHECK: %[[DIRECT:.*]] = arith.cmpi ult, %[[I]], %[[N]] : i64
// CHECK: cf.cond_br %[[DIRECT]] weights([64, 1]), ^[[JOIN:.*]](%[[I]] : i64), ^[[WRAP:[a-z0-9]*]]
// CHECK: ^[[WRAP]]:
// CHECK: %[[WRAPPED:.*]] = arith.addi %[[I]], %[[N]] : i64
// CHECK: %[[FITS:.*]] = arith.cmpi ult, %[[WRAPPED]], %[[N]] : i64
// CHECK: cf.cond_br %{{.*}} weights([1, 1048576]), ^[[RAISE:[a-z0-9]*]], ^[[FITS_BLOCK:[a-z0-9]*]]
// CHECK: ^[[RAISE]]:
// CHECK: llvm.store %[[I]],
// CHECK: ^[[FITS_BLOCK]]:
// CHECK: cf.br ^[[JOIN]](%[[WRAPPED]] : i64)
// CHECK: ^[[JOIN]](%[[POSITION:.*]]: i64):
// CHECK: %[[K:.*]] = arith.index_cast %[[POSITION]] : i64 to index
// CHECK: memref.load %[[M]][%[[K]]]
func.func @negative_index(%i: i64, %n: i64, %m: memref<?xf64>, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %c0 = arith.constant 0 : i64
  %negative = arith.cmpi slt, %i, %c0 : i64
  %wrapped = arith.addi %i, %n : i64
  %position = arith.select %negative, %wrapped, %i : i64
  %inside = arith.cmpi ult, %position, %n : i64
  kiln.check %inside, "IndexError", "index {} is out of bounds for axis 0 with size {}" (%i, %n)
  %k = arith.index_cast %position : i64 to index
  %v = memref.load %m[%k] : memref<?xf64>
  return %v : f64
}

// -----

// Two checks sharing a message share one global.
// CHECK-LABEL: func.func @shared_message
// CHECK-COUNT-2: llvm.mlir.addressof @__kiln_message_0
// CHECK-NOT: kiln.check
func.func @shared_message(%p: i1, %q: i1, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  kiln.check %p, "ValueError", "bad value"
  kiln.check %q, "ValueError", "bad value"
  %r = arith.constant 1.0 : f64
  return %r : f64
}

// -----

// After a call to a function that can raise, return at once if it did,
// leaving the record as the callee filled it.
// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.*]] = call @callee(%{{.*}}, %[[ERR:.*]]) : (f64, !llvm.ptr) -> f64
// CHECK: %[[KIND:.*]] = llvm.load %[[ERR]] : !llvm.ptr -> i32
// CHECK: %[[RAISED:.*]] = arith.cmpi ne, %[[KIND]], %{{.*}} : i32
// CHECK: cf.cond_br %[[RAISED]] weights([1, 1048576]), ^[[COLD:bb[0-9]+]], ^[[GO:bb[0-9]+]]
// CHECK: ^[[COLD]]:
// CHECK-NOT: llvm.store
// CHECK: return %{{.*}} : f64
// CHECK: ^[[GO]]:
// CHECK: return %[[R]] : f64
func.func private @callee(f64, !llvm.ptr) -> f64
func.func @caller(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %r = func.call @callee(%x, %err) : (f64, !llvm.ptr) -> f64
  kiln.propagate_error
  return %r : f64
}

// -----

// `at_call` (a call of Kiln's own kernel, np.linalg.solve): the record
// the callee filled is moved to the call's line and column before returning.
// CHECK-LABEL: func.func @kernel_caller
// CHECK: call @kernel(%{{.*}}, %[[ERR:.*]]) : (f64, !llvm.ptr) -> f64
// CHECK: cf.cond_br %{{.*}} weights([1, 1048576]), ^[[COLD:bb[0-9]+]], ^[[GO:bb[0-9]+]]
// CHECK: ^[[COLD]]:
// CHECK: %[[LINE:.*]] = arith.constant 12 : i32
// CHECK: %[[LINE_FIELD:.*]] = llvm.getelementptr %[[ERR]][4]
// CHECK: llvm.store %[[LINE]], %[[LINE_FIELD]]
// CHECK: %[[COLUMN:.*]] = arith.constant 7 : i32
// CHECK: %[[COLUMN_FIELD:.*]] = llvm.getelementptr %[[ERR]][8]
// CHECK: llvm.store %[[COLUMN]], %[[COLUMN_FIELD]]
// CHECK: return
func.func private @kernel(f64, !llvm.ptr) -> f64
func.func @kernel_caller(%x: f64, %err: !llvm.ptr {kiln.error_slot}) -> f64 {
  %r = func.call @kernel(%x, %err) : (f64, !llvm.ptr) -> f64
  kiln.propagate_error at_call loc("user.py":12:7)
  return %r : f64
}

// -----


// A function that allocates reads the allocation journal's depth on entry
// (runtime/kiln_alloc.c): its error exits free every array allocated since,
// its normal exits hand the arrays it returns to the caller.
// CHECK-LABEL: func.func @allocating
// CHECK: %[[MARK:.*]] = call @kiln_alloc_mark() : () -> i64
// CHECK: memref.alloc
// CHECK: cf.cond_br %{{.*}}, ^[[RAISE:bb[0-9]+]], ^[[GO:bb[0-9]+]]
// CHECK: ^[[RAISE]]:
// CHECK: call @kiln_alloc_unwind(%[[MARK]]) : (i64) -> ()
// CHECK: return
// CHECK: ^[[GO]]:
// CHECK: call @kiln_alloc_release(%[[MARK]]) : (i64) -> ()
// CHECK-NEXT: return
func.func @allocating(%n: index, %ok: i1, %err: !llvm.ptr {kiln.error_slot}) -> memref<?xf64> {
  %a = memref.alloc(%n) : memref<?xf64>
  kiln.check %ok, "ValueError", "not ok"
  return %a : memref<?xf64>
}

// -----

// An array a Kiln call returns is the caller's: back into the caller's
// journal once the call returned normally (after its propagation), so the
// caller's later error exits free it.
// CHECK-LABEL: func.func @owned_call_results
// CHECK: %[[MARK:.*]] = call @kiln_alloc_mark()
// CHECK: %[[A:.*]] = call @make(%{{.*}})
// CHECK: llvm.load
// CHECK: cf.cond_br %{{.*}}, ^[[FAILED:bb[0-9]+]], ^[[NEXT:bb[0-9]+]]
// CHECK: ^[[FAILED]]:
// CHECK-NOT: kiln_alloc_adopt
// CHECK: call @kiln_alloc_unwind(%[[MARK]])
// CHECK: return
// CHECK: ^[[NEXT]]:
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[I:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: call @kiln_alloc_adopt(%[[I]], %{{.*}}) : (i64, i64) -> ()
// CHECK: cf.cond_br
// CHECK: call @kiln_alloc_unwind(%[[MARK]])
// CHECK: return
func.func private @make(!llvm.ptr) -> memref<?xf64>
func.func @owned_call_results(%ok: i1, %err: !llvm.ptr {kiln.error_slot}) -> memref<?xf64> {
  %a = func.call @make(%err) : (!llvm.ptr) -> memref<?xf64>
  kiln.propagate_error
  kiln.check %ok, "ValueError", "not ok"
  return %a : memref<?xf64>
}

// -----

// A check in a parallel loop's iteration (kiln.prange, as OpenMP after
// convert-scf-to-cf): the iteration raises into its thread's own record,
// hands it to kiln_parallel_raise (the first failing block wins) and goes on
// with the next iteration; after the region the function raises if a block
// did.

// CHECK-LABEL: func.func private @kiln_parallel_raise(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: func.func @parallel_check
// CHECK-SAME: (%{{.*}}: memref<?xf64>, %[[BLOCKS:.*]]: index, %[[ERR:.*]]: !llvm.ptr)
// CHECK:       %[[FIRST:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:       %[[NONE:.*]] = arith.constant 9223372036854775807 : i64
// CHECK:       llvm.store %[[NONE]], %[[FIRST]]
// CHECK:       omp.parallel {
// CHECK:         %[[MINE:.*]] = llvm.alloca %{{.*}} x !llvm.array<{{[0-9]+}} x i8>
// CHECK:         omp.loop_nest (%[[B:.*]]) : index
// CHECK:           cf.cond_br %{{.*}}, ^[[RAISE:.*]], ^[[GO:.*]]
// CHECK:         ^[[RAISE]]:
// CHECK:           llvm.getelementptr %[[MINE]][0]
// CHECK:           %[[BLOCK:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK:           call @kiln_parallel_raise(%[[ERR]], %[[FIRST]], %[[MINE]], %[[BLOCK]])
// CHECK:           cf.br ^[[NEXT:.*]]
// CHECK:         ^[[GO]]:
// CHECK:           omp.yield
// CHECK:         ^[[NEXT]]:
// CHECK-NEXT:      omp.yield
// CHECK:       %[[SEEN:.*]] = llvm.load %[[FIRST]] : !llvm.ptr -> i64
// CHECK:       %[[RAISED:.*]] = arith.cmpi ne, %[[SEEN]], %[[NONE]] : i64
// CHECK:       cf.cond_br %[[RAISED]]
func.func @parallel_check(%x: memref<?xf64>, %blocks: index, %err: !llvm.ptr {kiln.error_slot}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%b) : index = (%c0) to (%blocks) step (%c1) {
        %v = memref.load %x[%b] : memref<?xf64>
        %ok = arith.cmpf one, %v, %zero : f64
        kiln.check %ok, ZeroDivisionError, "float division by zero"
        %w = arith.divf %v, %v : f64
        memref.store %w, %x[%b] : memref<?xf64>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A function that entered the lists' journal (kiln-lower-containers' call
// of kiln_journal_enter, first in the body) unwinds it on its error exit: the
// lists it made are freed; the normal return leaves it as before.
// CHECK-LABEL: func.func @unwinds_lists(
// CHECK: %[[MARK:.*]] = call @kiln_journal_enter() : () -> i64
// CHECK: cf.cond_br
// CHECK: call @kiln_journal_unwind(%[[MARK]]) : (i64) -> ()
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: return %[[NULL]] : !llvm.ptr
// CHECK: call @kiln_journal_leave(%[[MARK]])
// CHECK: return
func.func private @kiln_journal_enter() -> i64
func.func private @kiln_journal_leave(i64)
func.func @unwinds_lists(%ok: i1, %xs: !llvm.ptr, %error: !llvm.ptr {kiln.error_slot}) -> !llvm.ptr {
  %mark = call @kiln_journal_enter() : () -> i64
  kiln.check %ok, IndexError, "list index out of range"
  call @kiln_journal_leave(%mark) : (i64) -> ()
  return %xs : !llvm.ptr
}

// -----

// A {!r} operand is a string the record keeps: the raise path stores a copy
// of its own (kiln_error_keep_str), which the journal's unwind cannot free;
// a {} operand beside it is stored as it is.
// CHECK-LABEL: func.func @quoted
// CHECK-SAME: (%[[TEXT:.*]]: i64, %[[N:.*]]: i64, %{{.*}}: !llvm.ptr)
// CHECK: ^{{.*}}:
// CHECK: %[[KEPT:.*]] = call @kiln_error_keep_str(%[[TEXT]]) : (i64) -> i64
// CHECK: %[[ARGS0:.*]] = llvm.getelementptr %{{.*}}[24] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[KEPT]], %[[ARGS0]] : i64, !llvm.ptr
// CHECK: %[[ARGS1:.*]] = llvm.getelementptr %{{.*}}[32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[N]], %[[ARGS1]] : i64, !llvm.ptr
func.func @quoted(%text: i64, %n: i64, %err: !llvm.ptr {kiln.error_slot}) {
  %false = arith.constant false
  kiln.check %false, ValueError, "bad {!r} at {}" (%text, %n)
  return
}

// -----

// The references to instances a function holds (kiln.owned, placed by
// kiln-lower-containers) are released on the error exits after the marker:
// the nearest marker on every path backwards; the markers are gone
// afterwards.
func.func private @kiln_object_release(!llvm.ptr)
// CHECK-LABEL: func.func @walk
// CHECK-SAME: (%[[SELF:.*]]: !llvm.ptr, %[[N:.*]]: i64, %[[ERR:.*]]: !llvm.ptr)
// CHECK-NOT: kiln.owned
// CHECK: cf.cond_br %{{.*}}, ^[[FIRST:bb[0-9]+]], ^[[GO:bb[0-9]+]]
// CHECK: ^[[FIRST]]:
// CHECK: llvm.store
// CHECK: call @kiln_object_release(%[[SELF]])
// CHECK-NOT: call @kiln_object_release
// CHECK: return
// CHECK: ^[[GO]]:
// CHECK: cf.br ^[[LOOP:bb[0-9]+]](%[[SELF]] : !llvm.ptr)
// CHECK: ^[[LOOP]](%[[CUR:.*]]: !llvm.ptr):
// CHECK: cf.cond_br %{{.*}}, ^[[SECOND:bb[0-9]+]], ^{{.*}}
// CHECK: ^[[SECOND]]:
// CHECK: call @kiln_object_release(%[[SELF]])
// CHECK: call @kiln_object_release(%[[CUR]])
// CHECK: return
func.func @walk(%self: !llvm.ptr, %n: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
  kiln.owned %self : !llvm.ptr
  %c0 = arith.constant 0 : i64
  %ok = arith.cmpi sge, %n, %c0 : i64
  kiln.check %ok, "ValueError", "negative"
  cf.br ^loop(%self : !llvm.ptr)
^loop(%cur: !llvm.ptr):
  kiln.owned %self, %cur : !llvm.ptr, !llvm.ptr
  %small = arith.cmpi slt, %n, %c0 : i64
  kiln.check %small, "IndexError", "too far"
  kiln.owned %self : !llvm.ptr
  return %n : i64
}

// -----

// A join whose paths hold the same references (a branch or loop the
// markers never saw: an array expression's loop, an index wrap) releases
// them: the nearest marker on every path is the one before the fork.
// CHECK-LABEL: func.func @joined
// CHECK-SAME: (%[[SELF:.*]]: !llvm.ptr,
// CHECK: call @kiln_object_release(%[[SELF]])
// CHECK: return
func.func private @kiln_object_release(!llvm.ptr)
func.func @joined(%self: !llvm.ptr, %c: i1, %err: !llvm.ptr {kiln.error_slot}) {
  kiln.owned %self : !llvm.ptr
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^join
^b:
  cf.br ^join
^join:
  kiln.check %c, "ValueError", "no"
  return
}

// -----

// The same after a loop: the path around its back edge adds nothing.
// CHECK-LABEL: func.func @after_a_loop
// CHECK-SAME: (%[[SELF:.*]]: !llvm.ptr, %[[N:.*]]: i64,
// CHECK: cf.br ^[[HEAD:bb[0-9]+]]
// CHECK: ^[[HEAD]](
// CHECK: cf.cond_br %{{.*}} weights({{.*}}), ^[[RAISE:bb[0-9]+]], ^{{.*}}
// CHECK: ^[[RAISE]]:
// CHECK: call @kiln_object_release(%[[SELF]])
// CHECK: return
func.func private @kiln_object_release(!llvm.ptr)
func.func @after_a_loop(%self: !llvm.ptr, %n: i64, %err: !llvm.ptr {kiln.error_slot}) -> i64 {
  kiln.owned %self : !llvm.ptr
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^head(%c0 : i64)
^head(%i: i64):
  %more = arith.cmpi slt, %i, %n : i64
  cf.cond_br %more, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : i64
  cf.br ^head(%next : i64)
^exit:
  %ok = arith.cmpi ne, %n, %c0 : i64
  kiln.check %ok, "ZeroDivisionError", "integer modulo by zero"
  return %n : i64
}

// -----

// Paths that hold different references: nothing is known, so no release
// rather than a wrong one.
// CHECK-LABEL: func.func @paths_disagree
// CHECK-NOT: call @kiln_object_release
// CHECK: return
func.func private @kiln_object_release(!llvm.ptr)
func.func @paths_disagree(%self: !llvm.ptr, %other: !llvm.ptr, %c: i1,
                          %err: !llvm.ptr {kiln.error_slot}) {
  kiln.owned %self : !llvm.ptr
  cf.cond_br %c, ^a, ^b
^a:
  kiln.owned %self, %other : !llvm.ptr, !llvm.ptr
  cf.br ^join
^b:
  cf.br ^join
^join:
  kiln.check %c, "ValueError", "no"
  return
}
