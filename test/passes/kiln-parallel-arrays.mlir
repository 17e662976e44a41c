// RUN: kiln-opt %s -split-input-file -kiln-parallel-arrays | FileCheck %s

// parallel=True: an elementwise statement in 8 slices of its outermost
// dimension; the innermost stays whole.
// CHECK-LABEL: func.func @scale
// CHECK:       scf.forall (%{{.*}}) in (8) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<?x?xf64>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<?x?xf64>) outs(%{{.*}} : tensor<?x?xf64>)
// CHECK:         scf.forall.in_parallel
// CHECK-NEXT:      tensor.parallel_insert_slice
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: tensor<?x?xf64>, %init: tensor<?x?xf64>) -> tensor<?x?xf64> attributes {kiln.parallel} {
  %two = arith.constant 2.0 : f64
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf64>) outs(%init : tensor<?x?xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.mulf %a, %two : f64
    linalg.yield %m : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

// Without the option, and for a reduction, nothing changes.
// CHECK-LABEL: func.func @sequential
// CHECK-NOT:   scf.forall
// CHECK-LABEL: func.func @reduction
// CHECK-NOT:   scf.forall
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0) -> ()>
func.func @sequential(%x: tensor<?xf64>, %init: tensor<?xf64>) -> tensor<?xf64> {
  %r = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf64>) outs(%init : tensor<?xf64>) {
  ^bb0(%a: f64, %o: f64):
    linalg.yield %a : f64
  } -> tensor<?xf64>
  return %r : tensor<?xf64>
}
func.func @reduction(%x: tensor<?xf64>, %init: tensor<f64>) -> tensor<f64> attributes {kiln.parallel} {
  %r = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["reduction"]}
      ins(%x : tensor<?xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// A dimension of constant size 0 (`np.zeros((7, 0)) + a`): no iterations to
// share, and left whole (upstream's tiling would read past its size bounds).
// CHECK-LABEL: func.func @empty_rows
// CHECK-NOT:   scf.forall
// CHECK:       linalg.generic
#map3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @empty_rows(%x: tensor<7x0xf64>, %init: tensor<7x0xf64>) -> tensor<7x0xf64> attributes {kiln.parallel} {
  %two = arith.constant 2.0 : f64
  %r = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<7x0xf64>) outs(%init : tensor<7x0xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.addf %a, %two : f64
    linalg.yield %m : f64
  } -> tensor<7x0xf64>
  return %r : tensor<7x0xf64>
}
