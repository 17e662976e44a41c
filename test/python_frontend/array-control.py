# RUN: %python -m kiln mlir %s | FileCheck %s
# RUN: %python -m kiln mlir %s | kiln-opt --kiln-lower-to-std --kiln-array-expressions --kiln-deallocation | FileCheck %s --check-prefix=FREES
# RUN: %python -m kiln mlir %s | kiln-opt > /dev/null
import numpy as np

import kiln


# An array reassigned in a loop is a loop-carried memref: each iteration
# computes into a new array (which overlaps nothing: no run-time overlap
# test), and the frontend frees none of them. kilnc's ownership-based
# deallocation frees the previous one in the loop, when this call owns it.
# CHECK-LABEL: func.func @array_control_reassigned(
# CHECK: %[[FIRST:.*]] = memref.alloc
# CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (memref<?xf64, strided<[?], offset: ?>>) : i64 {
# CHECK: %[[NEW:.*]] = memref.alloc
# CHECK-NOT: scf.if
# CHECK: linalg.generic
# CHECK: scf.yield %{{.*}} : memref<?xf64, strided<[?], offset: ?>>
# CHECK-NEXT: } {kiln.carried = ["a"]}
# CHECK-NOT: memref.dealloc
# CHECK: func.return
# FREES-LABEL: func.func @array_control_reassigned(
# FREES: scf.for {{.*}} -> (memref<?xf64, strided<[?], offset: ?>>, i1) : i64 {
# FREES: memref.alloc
# FREES: scf.if
# FREES: memref.dealloc
# FREES: scf.yield
# FREES: return
@kiln.export
def reassigned(x: kiln.f64[:], steps: int) -> kiln.f64[:]:
    a = x * 1.0
    for _ in range(steps):
        a = a * 0.5
    return a


# Arrays allocated in the branches of an `if`: the if yields the memref.
# CHECK-LABEL: func.func @array_control_chosen(
# CHECK: %[[A:.*]] = scf.if %{{.*}} -> (memref<?xf64, strided<[?], offset: ?>>) {
# CHECK: memref.alloc
# CHECK: scf.yield
# CHECK: } else {
# CHECK: memref.alloc
# CHECK: scf.yield
# CHECK-NOT: memref.dealloc
# CHECK: func.return %[[A]]
@kiln.export
def chosen(n: int, flag: bool) -> kiln.f64[:]:
    if flag:
        a = np.ones(n)
    else:
        a = np.zeros(n)
    return a


# A parameter returned as itself: no copy (the caller sees its argument's
# buffer, kiln-buffer-deallocation).
# CHECK-LABEL: func.func @array_control_tail(
# CHECK-NOT: memref.alloc
# CHECK: func.return
# FREES-LABEL: func.func @array_control_tail(
# FREES-NOT: bufferization.clone
# FREES-NOT: memref.alloc
# FREES: return
@kiln.export
def tail(a: kiln.f64[:]) -> kiln.f64[:]:
    return a[1:]
