// RUN: kiln-opt %s -split-input-file -kiln-array-expressions | FileCheck %s

// The frontend's form of `out[:] = np.exp(a + b * s)`: one linalg.generic
// per operator on tensors read from the views, materialized into `out`.
// Fused and bufferized, it is one loop writing `out` directly: no
// temporary, no copy.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @fused_into_destination
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[A:.*]] = memref.load %arg0[%[[I]]]
// CHECK-NEXT: %[[B:.*]] = memref.load %arg1[%[[I]]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[B]], %arg3
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[M]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[S]]
// CHECK-NEXT: memref.store %[[E]], %arg2[%[[I]]]
// CHECK-NOT: memref.copy
// CHECK: return
func.func @fused_into_destination(%a: memref<?xf64, strided<[?], offset: ?>>, %b: memref<?xf64, strided<[?], offset: ?>>, %out: memref<?xf64, strided<[?], offset: ?>>, %s: f64) {
  %ta = bufferization.to_tensor %a restrict : memref<?xf64, strided<[?], offset: ?>> to tensor<?xf64>
  %tb = bufferization.to_tensor %b restrict : memref<?xf64, strided<[?], offset: ?>> to tensor<?xf64>
  %c0 = arith.constant 0 : index
  %n = memref.dim %out, %c0 : memref<?xf64, strided<[?], offset: ?>>
  %e = tensor.empty(%n) : tensor<?xf64>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%tb : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.mulf %x, %s : f64
    linalg.yield %m : f64
  } -> tensor<?xf64>
  %e2 = tensor.empty(%n) : tensor<?xf64>
  %t2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%ta, %t1 : tensor<?xf64>, tensor<?xf64>) outs(%e2 : tensor<?xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %sum = arith.addf %x, %y : f64
    %q = math.exp %sum : f64
    linalg.yield %q : f64
  } -> tensor<?xf64>
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<?xf64>, memref<?xf64, strided<[?], offset: ?>>) -> ()
  return
}

// -----

// Broadcasting is in the operands' views (a size-1 axis has stride 0, as in
// numpy), so every map is the identity and 2-D operators fuse the same way.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_dimensional
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: memref.store
// CHECK-NOT: memref.copy
func.func @two_dimensional(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  %ta = bufferization.to_tensor %a restrict : memref<?x?xf32, strided<[?, ?], offset: ?>> to tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %m = memref.dim %out, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %t1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ta : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %d = arith.subf %one, %x : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %t2 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ta, %t1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<?x?xf32>
  bufferization.materialize_in_destination %t2 in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, ?], offset: ?>>) -> ()
  return
}

// -----

// Two statements compute the same thing from no memory (`t = a * 0;
// t[0] = 7; u = a * 0`: the canonicalizer drops the unused input). Each is
// written into its own destination: `u` must not be copied from `t`, which
// the program changed in between (CSE used to merge the two generics).
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @same_pure_operation_twice
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: memref.store %{{.*}}, %arg1[%[[I]]]
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}]
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: memref.store %{{.*}}, %arg2[%[[J]]]
// CHECK-NOT: memref.load %arg1
// CHECK: return
func.func @same_pure_operation_twice(%a: memref<?xi64, strided<[?], offset: ?>>, %t: memref<?xi64, strided<[?], offset: ?>>, %u: memref<?xi64, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i64
  %n = memref.dim %a, %c0 : memref<?xi64, strided<[?], offset: ?>>
  %ta = bufferization.to_tensor %a restrict : memref<?xi64, strided<[?], offset: ?>> to tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?xi64>
  %z = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%ta : tensor<?xi64>) outs(%e : tensor<?xi64>) {
  ^bb0(%x: i64, %o: i64):
    %zero = arith.constant 0 : i64
    %p = arith.muli %x, %zero : i64
    linalg.yield %p : i64
  } -> tensor<?xi64>
  bufferization.materialize_in_destination %z in restrict writable %t : (tensor<?xi64>, memref<?xi64, strided<[?], offset: ?>>) -> ()
  memref.store %c7, %t[%c0] : memref<?xi64, strided<[?], offset: ?>>
  %ta2 = bufferization.to_tensor %a restrict : memref<?xi64, strided<[?], offset: ?>> to tensor<?xi64>
  %e2 = tensor.empty(%n) : tensor<?xi64>
  %z2 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%ta2 : tensor<?xi64>) outs(%e2 : tensor<?xi64>) {
  ^bb0(%x: i64, %o: i64):
    %zero = arith.constant 0 : i64
    %p = arith.muli %x, %zero : i64
    linalg.yield %p : i64
  } -> tensor<?xi64>
  bufferization.materialize_in_destination %z2 in restrict writable %u : (tensor<?xi64>, memref<?xi64, strided<[?], offset: ?>>) -> ()
  return
}
