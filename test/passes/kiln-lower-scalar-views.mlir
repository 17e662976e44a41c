// RUN: kiln-opt %s -split-input-file -kiln-lower-scalar-views | FileCheck %s

// A complex view's scalars: the same pointers, offset and outer strides
// doubled, the last size doubled, the last stride kept (1).
// CHECK-LABEL: func.func @complex_rows
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?x?xcomplex<f64>, strided<[?, 1], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.extractvalue %[[D]][0]
// CHECK: llvm.extractvalue %[[D]][1]
// CHECK: %[[OFF:.*]] = llvm.extractvalue %[[D]][2]
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: llvm.mul %[[OFF]], %[[TWO]]
// CHECK: %[[ROWS:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: %[[ROWSTRIDE:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK: llvm.insertvalue %[[ROWS]], %{{.*}}[3, 0]
// CHECK: %[[SKIP:.*]] = llvm.mul %[[ROWSTRIDE]], %[[TWO]]
// CHECK: llvm.insertvalue %[[SKIP]], %{{.*}}[4, 0]
// CHECK: %[[COLS:.*]] = llvm.extractvalue %[[D]][3, 1]
// CHECK: %[[UNIT:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK: %[[TWICE:.*]] = llvm.mul %[[COLS]], %[[TWO]]
// CHECK: llvm.insertvalue %[[TWICE]], %{{.*}}[3, 1]
// CHECK: llvm.insertvalue %[[UNIT]], %{{.*}}[4, 1]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK-NOT: kiln.scalar_view
func.func @complex_rows(%z: memref<?x?xcomplex<f64>, strided<[?, 1], offset: ?>>)
    -> memref<?x?xf64, strided<[?, 1], offset: ?>> {
  %v = kiln.scalar_view %z : memref<?x?xcomplex<f64>, strided<[?, 1], offset: ?>>
                          to memref<?x?xf64, strided<[?, 1], offset: ?>>
  return %v : memref<?x?xf64, strided<[?, 1], offset: ?>>
}

// -----

// A bool view: only the element type changes; nothing is multiplied.
// CHECK-LABEL: func.func @bools
// CHECK-NOT: llvm.mul
// CHECK-NOT: llvm.mlir.constant
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xi8, strided<[?], offset: ?>>
func.func @bools(%m: memref<?xi1, strided<[?], offset: ?>>) -> memref<?xi8, strided<[?], offset: ?>> {
  %v = kiln.scalar_view %m : memref<?xi1, strided<[?], offset: ?>> to memref<?xi8, strided<[?], offset: ?>>
  return %v : memref<?xi8, strided<[?], offset: ?>>
}
