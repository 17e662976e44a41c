// RUN: kiln-opt %s -split-input-file -kiln-tile-matmul | FileCheck %s

// AVX2 (256-bit vectors): a 6 x 8 block of float64 results in registers
// (6 x 2 ymm), 12 FMAs per step of k; the block is read before the k loop and
// written after it. The edge tiles stay linalg.matmul.
// CHECK-LABEL: func.func @product_avx2
// CHECK: scf.for {{.*}} step %c192
// CHECK: scf.for {{.*}} step %c128
// CHECK: scf.for {{.*}} step %c256
// CHECK: scf.for {{.*}} step %c6
// CHECK: scf.for {{.*}} step %c8
// CHECK: vector.transfer_read {{.*}} : tensor<6x8xf64>, vector<6x8xf64>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> ({{.*}}vector<6x8xf64>)
// CHECK-COUNT-6: vector.fma {{.*}} : vector<8xf64>
// CHECK: scf.yield {{.*}}vector<6x8xf64>
// CHECK: vector.transfer_write {{.*}} : vector<6x8xf64>, tensor<6x8xf64>
// CHECK: linalg.matmul
module attributes {kiln.vector_bits = 256 : i64} {
  func.func @product_avx2(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
    return %r : tensor<?x?xf64>
  }
}

// -----

// AVX-512, float32: 8 x 32 (8 rows of 2 zmm).
// CHECK-LABEL: func.func @product_avx512_f32
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> ({{.*}}vector<8x32xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
module attributes {kiln.vector_bits = 512 : i64} {
  func.func @product_avx512_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
}

// -----

// Complex products and products already on buffers are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.for
// CHECK: linalg.matmul ins({{.*}} : tensor<?x?xcomplex<f64>>
// CHECK: linalg.matmul ins({{.*}} : memref<?x?xf64>
module attributes {kiln.vector_bits = 256 : i64} {
  func.func @left_alone(%a: tensor<?x?xcomplex<f64>>, %c: tensor<?x?xcomplex<f64>>,
                        %m: memref<?x?xf64>) -> tensor<?x?xcomplex<f64>> {
    %r = linalg.matmul ins(%a, %a : tensor<?x?xcomplex<f64>>, tensor<?x?xcomplex<f64>>) outs(%c : tensor<?x?xcomplex<f64>>) -> tensor<?x?xcomplex<f64>>
    linalg.matmul ins(%m, %m : memref<?x?xf64>, memref<?x?xf64>) outs(%m : memref<?x?xf64>)
    return %r : tensor<?x?xcomplex<f64>>
  }
}

// -----

// Sizes known at compile time (never the frontend's; perhaps smaller than a
// register tile) are left to become loops; integer products are tiled (their
// contraction lowers to multiplies and adds).
// CHECK-LABEL: func.func @static_and_integers
// CHECK: linalg.matmul ins({{.*}} : tensor<4x3xf32>, tensor<3x5xf32>)
// CHECK: scf.for
// CHECK: arith.muli {{.*}} : vector<8xi64>
module attributes {kiln.vector_bits = 256 : i64} {
  func.func @static_and_integers(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>,
                                 %i: tensor<?x?xi64>, %j: tensor<?x?xi64>) -> (tensor<4x5xf32>, tensor<?x?xi64>) {
    %r = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    %s = linalg.matmul ins(%i, %i : tensor<?x?xi64>, tensor<?x?xi64>) outs(%j : tensor<?x?xi64>) -> tensor<?x?xi64>
    return %r, %s : tensor<4x5xf32>, tensor<?x?xi64>
  }
}

// -----

// parallel=True: 8 slices of rows as an scf.forall, each blocked as above.
// CHECK-LABEL: func.func @product_parallel
// CHECK: scf.forall ({{.*}}) in (8) shared_outs
// CHECK: scf.for {{.*}} step %c192
// CHECK: vector.fma {{.*}} : vector<16xf64>
// CHECK: scf.forall.in_parallel
module attributes {kiln.vector_bits = 512 : i64} {
  func.func @product_parallel(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
    %r = linalg.matmul {kiln.parallel} ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
    return %r : tensor<?x?xf64>
  }
}
