// RUN: kiln-opt %s -split-input-file -kiln-clear-address-nuw | FileCheck %s

// The address of `t[::-1][i]` (stride -1): no `nuw` on the GEP nor on the
// index arithmetic feeding it; `inbounds` and `nsw` stay.
// CHECK-LABEL: llvm.func @reversed_store
// CHECK: %[[P:.*]] = llvm.mul %{{.*}}, %{{.*}} overflow<nsw> : i64
// CHECK: %[[Q:.*]] = llvm.add %{{.*}}, %[[P]] overflow<nsw> : i64
// CHECK: llvm.getelementptr inbounds %{{.*}}[%[[Q]]]
// CHECK-NOT: nuw
llvm.func @reversed_store(%base: !llvm.ptr, %i: i64, %value: i32) {
  %stride = llvm.mlir.constant(-1 : i64) : i64
  %offset = llvm.mlir.constant(8 : i64) : i64
  %p = llvm.mul %i, %stride overflow<nsw, nuw> : i64
  %q = llvm.add %offset, %p overflow<nsw, nuw> : i64
  %a = llvm.getelementptr inbounds|nuw %base[%q] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  llvm.store %value, %a : i32, !llvm.ptr
  llvm.return
}

// -----

// Arithmetic that does not feed an address keeps its flags.
// CHECK-LABEL: llvm.func @counter
// CHECK: llvm.add %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
llvm.func @counter(%i: i64) -> i64 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %next = llvm.add %i, %one overflow<nsw, nuw> : i64
  llvm.return %next : i64
}
