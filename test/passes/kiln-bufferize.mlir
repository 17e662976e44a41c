// RUN: kiln-opt %s -split-input-file -eliminate-empty-tensors -kiln-bufferize | FileCheck %s

// A tensor that is only its source's view, written into a destination: the
// copy is a linalg.copy (lowered to loops later), never memref.copy (a call
// into MLIR's C runner library, which Kiln's artifacts do not link).
// CHECK-LABEL: func.func @copy_into_destination
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%arg0 : memref<?xf64, strided<[?], offset: ?>>) outs(%arg1 : memref<?xf64, strided<[?], offset: ?>>)
// CHECK-NOT: memref.copy
func.func @copy_into_destination(%y: memref<?xf64, strided<[?], offset: ?>>, %x: memref<?xf64, strided<[?], offset: ?>>) {
  %t = bufferization.to_tensor %y restrict : memref<?xf64, strided<[?], offset: ?>> to tensor<?xf64>
  bufferization.materialize_in_destination %t in restrict writable %x : (tensor<?xf64>, memref<?xf64, strided<[?], offset: ?>>) -> ()
  return
}

// -----

// A computed tensor is written in place: no copy at all.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @computed_in_place
// CHECK-NOT: linalg.copy
// CHECK: linalg.generic
// CHECK-SAME: outs(%arg1 : memref<?xf64, strided<[?], offset: ?>>)
func.func @computed_in_place(%y: memref<?xf64, strided<[?], offset: ?>>, %x: memref<?xf64, strided<[?], offset: ?>>) {
  %t = bufferization.to_tensor %y restrict : memref<?xf64, strided<[?], offset: ?>> to tensor<?xf64>
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64, strided<[?], offset: ?>>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %a : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  bufferization.materialize_in_destination %r in restrict writable %x : (tensor<?xf64>, memref<?xf64, strided<[?], offset: ?>>) -> ()
  return
}
