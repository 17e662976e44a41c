// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Only complex arrays with a unit last stride and bool arrays have a
// scalar view.
func.func @floats(%x: memref<?xf64>) {
  // expected-error @+1 {{'kiln.scalar_view' op needs an array of complex numbers with unit stride in its last dimension, or of i1; got 'memref<?xf64>'}}
  %v = kiln.scalar_view %x : memref<?xf64> to memref<?xf64>
  return
}

// -----

func.func @strided_complex(%z: memref<?xcomplex<f64>, strided<[?], offset: ?>>) {
  // expected-error @+1 {{'kiln.scalar_view' op needs an array of complex numbers with unit stride in its last dimension}}
  %v = kiln.scalar_view %z : memref<?xcomplex<f64>, strided<[?], offset: ?>> to memref<?xf64, strided<[?], offset: ?>>
  return
}

// -----

func.func @wrong_length(%z: memref<4xcomplex<f32>>) {
  // expected-error @+1 {{'kiln.scalar_view' op result must be 'memref<8xf32, strided<[1]>>', got 'memref<4xf32, strided<[1]>>'}}
  %v = kiln.scalar_view %z : memref<4xcomplex<f32>> to memref<4xf32, strided<[1]>>
  return
}

// -----

func.func @bool_as_i8(%m: memref<3x?xi1>) -> memref<3x?xi8> {
  %v = kiln.scalar_view %m : memref<3x?xi1> to memref<3x?xi8>
  return %v : memref<3x?xi8>
}
