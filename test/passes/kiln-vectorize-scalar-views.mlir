// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=512 -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=256 tail=epilogue interleave=1" -canonicalize | FileCheck %s --check-prefix=EPI

// Loops over complex and bool arrays: no vector holds a complex number, and
// a vector of i1 is packed bits while an array of i1 has a byte per
// element, so both are loaded through kiln.scalar_view.

!cview = memref<?xcomplex<f64>, strided<[?], offset: ?>>
!fview = memref<?xf64, strided<[?], offset: ?>>

// |z|^2 of complex elements: 2 VF doubles per load, split into the real
// (even) and the imaginary (odd) parts; the masked tail repeats each lane's
// mask bit for both parts.
// CHECK-LABEL: func.func @abs2
// CHECK: memref.reinterpret_cast {{.*}} to memref<?xcomplex<f64>, strided<[1], offset: ?>>
// CHECK: kiln.scalar_view {{.*}} : memref<?xcomplex<f64>, strided<[1], offset: ?>> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK: vector.load {{.*}} : memref<?xf64, strided<[1], offset: ?>>, vector<16xf64>
// CHECK: vector.deinterleave {{.*}} : vector<16xf64> -> vector<8xf64>
// CHECK: arith.mulf {{.*}} : vector<8xf64>
// CHECK: vector.store {{.*}} vector<8xf64>
// CHECK: vector.shuffle {{.*}} [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7] : vector<8xi1>, vector<8xi1>
// CHECK: vector.maskedload {{.*}} vector<16xi1>, vector<16xf64> into vector<16xf64>
// CHECK: } {kiln.scalar_version}

// EPI-LABEL: func.func @abs2
// EPI: vector.load {{.*}} vector<8xf64>
// EPI-NOT: vector.maskedload
// EPI: } {kiln.scalar_version}
func.func @abs2(%z: !cview, %out: !fview, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %z[%k] : !cview
    %re = complex.re %v : complex<f64>
    %im = complex.im %v : complex<f64>
    %re2 = arith.mulf %re, %re : f64
    %im2 = arith.mulf %im, %im : f64
    %s = arith.addf %re2, %im2 : f64
    memref.store %s, %out[%k] : !fview
  }
  return
}

// -----

!cview = memref<?xcomplex<f32>, strided<[?], offset: ?>>

// z*z + c stored back as complex: the parts are interleaved and stored as 2 VF floats. A uniform complex (c) is taken apart once and
// broadcast.
// CHECK-LABEL: func.func @square_plus
// CHECK: scf.for
// CHECK: vector.load {{.*}} vector<32xf32>
// CHECK: complex.re %{{.*}} : complex<f32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<16xf32>
// CHECK: vector.interleave {{.*}} : vector<16xf32> -> vector<32xf32>
// CHECK: vector.store {{.*}} : memref<?xf32, strided<[1], offset: ?>>, vector<32xf32>
func.func @square_plus(%z: !cview, %c: complex<f32>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %z[%k] : !cview
    %re = complex.re %v : complex<f32>
    %im = complex.im %v : complex<f32>
    %rr = arith.mulf %re, %re : f32
    %ii = arith.mulf %im, %im : f32
    %ri = arith.mulf %re, %im : f32
    %sre = arith.subf %rr, %ii : f32
    %sim = arith.addf %ri, %ri : f32
    %cre = complex.re %c : complex<f32>
    %cim = complex.im %c : complex<f32>
    %nre = arith.addf %sre, %cre : f32
    %nim = arith.addf %sim, %cim : f32
    %new = complex.create %nre, %nim : complex<f32>
    memref.store %new, %z[%k] : !cview
  }
  return
}

// -----

!cview = memref<?xcomplex<f64>>
!bview = memref<?xi1>

// A masked update of a complex array (numpy's `z[m] = c`): the bool mask
// is loaded as bytes and truncated; the if-converted store is a masked
// store of the interleaved parts under the doubled mask.
// CHECK-LABEL: func.func @masked_fill
// CHECK-DAG: kiln.scalar_view %{{.*}} : memref<?xi1> to memref<?xi8>
// CHECK-DAG: kiln.scalar_view %{{.*}} : memref<?xcomplex<f64>> to memref<?xf64, strided<[1]>>
// CHECK: scf.for
// CHECK: vector.load {{.*}} : memref<?xi8>, vector<8xi8>
// CHECK: arith.trunci {{.*}} : vector<8xi8> to vector<8xi1>
// CHECK: vector.maskedstore {{.*}} : memref<?xf64, strided<[1]>>, vector<16xi1>, vector<16xf64>
func.func @masked_fill(%z: !cview, %m: !bview, %c: complex<f64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %sel = memref.load %m[%k] : !bview
    scf.if %sel {
      memref.store %c, %z[%k] : !cview
    }
  }
  return
}

// -----

!fview = memref<?xf64>
!bview = memref<?xi1>

// Bools stored: extended to bytes (0 or 1, as numpy stores them).
// CHECK-LABEL: func.func @less_than
// CHECK: arith.cmpf olt, {{.*}} : vector<8xf64>
// CHECK: arith.extui {{.*}} : vector<8xi1> to vector<8xi8>
// CHECK: vector.store {{.*}} : memref<?xi8>, vector<8xi8>
func.func @less_than(%x: !fview, %limit: f64, %out: !bview, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : !fview
    %lt = arith.cmpf olt, %v, %limit : f64
    memref.store %lt, %out[%k] : !bview
  }
  return
}

// -----

!cview = memref<?xcomplex<f64>>

// Complex arithmetic written as complex ops (not on the parts) stays
// scalar, with the reason.
// CHECK-LABEL: func.func @complex_op
// CHECK-NOT: vector.
func.func @complex_op(%z: !cview, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %z[%k] : !cview
    %w = complex.mul %v, %v : complex<f64>
    memref.store %w, %z[%k] : !cview
  }
  return
}
