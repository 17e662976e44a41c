// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD
// Instances of exported classes round-trip through the printer and parser.

llvm.mlir.global weak @mod_Node__kiln_type() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.zero : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK-LABEL: func.func @link(
// CHECK: %[[N:.*]] = kiln.object.new @mod_Node__kiln_type : !kiln.object<"Node">
// CHECK: kiln.object.set %[[N]]["value", 16], %{{.*}} : !kiln.object<"Node">, i64
// CHECK: kiln.object.set %[[N]]["next", 24], %{{.*}} : !kiln.object<"Node">, !kiln.object<"Node">
// CHECK: kiln.object.set %[[N]]["marked", 32], %{{.*}} : !kiln.object<"Node">, i1
// CHECK: kiln.object.get %[[N]]["next", 24] {nullable} : !kiln.object<"Node"> -> !kiln.object<"Node">
// CHECK: kiln.object.is_none
// CHECK: kiln.object.same
// CHECK: kiln.object.none : !kiln.object<"Node">
func.func @link(%v: i64, %next: !kiln.object<"Node">, %flag: i1) -> !kiln.object<"Node"> {
  %n = kiln.object.new @mod_Node__kiln_type : !kiln.object<"Node">
  kiln.object.set %n["value", 16], %v : !kiln.object<"Node">, i64
  kiln.object.set %n["next", 24], %next : !kiln.object<"Node">, !kiln.object<"Node">
  kiln.object.set %n["marked", 32], %flag : !kiln.object<"Node">, i1
  %m = kiln.object.get %n["next", 24] {nullable} : !kiln.object<"Node"> -> !kiln.object<"Node">
  %last = kiln.object.is_none %m : !kiln.object<"Node">
  %same = kiln.object.same %m, %next : !kiln.object<"Node">
  %none = kiln.object.none : !kiln.object<"Node">
  kiln.retain %m : !kiln.object<"Node">
  kiln.release %m : !kiln.object<"Node">
  return %n : !kiln.object<"Node">
}

// A cast to the value's own class, and a cast back, fold away.
// CHECK-LABEL: func.func @casts(
// CHECK: kiln.object.cast %{{.*}} : !kiln.object<"Circle"> to !kiln.object<"Circle">
// CHECK: kiln.object.has_type %{{.*}}, @mod_Circle__kiln_type : !kiln.object<"Shape">
// FOLD-LABEL: func.func @casts(
// FOLD-SAME: %[[C:.*]]: !kiln.object<"Circle">
// FOLD: %[[UP:.*]] = kiln.object.cast %[[C]] : !kiln.object<"Circle"> to !kiln.object<"Shape">
// FOLD: return %[[UP]], %[[C]]
func.func @casts(%c: !kiln.object<"Circle">) -> (!kiln.object<"Shape">, !kiln.object<"Circle">, i1) {
  %same = kiln.object.cast %c : !kiln.object<"Circle"> to !kiln.object<"Circle">
  %up = kiln.object.cast %same : !kiln.object<"Circle"> to !kiln.object<"Shape">
  %down = kiln.object.cast %up : !kiln.object<"Shape"> to !kiln.object<"Circle">
  %is = kiln.object.has_type %up, @mod_Circle__kiln_type : !kiln.object<"Shape">
  return %up, %down, %is : !kiln.object<"Shape">, !kiln.object<"Circle">, i1
}
