// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=256 -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=256 tail=epilogue interleave=1" -canonicalize | FileCheck %s --check-prefix=EPI
// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=512 -canonicalize | FileCheck %s --check-prefix=AVX512

!view = memref<?xf64, strided<[?], offset: ?>>

// saxpy: unit stride and no overlap are checked at run time; the vector
// loop does 2 x 4 lanes per iteration, a masked loop the rest, and the
// original loop runs when a check fails.
// CHECK-LABEL: func.func @saxpy
// CHECK: memref.extract_strided_metadata
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: scf.if
// CHECK: memref.reinterpret_cast {{.*}} to memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK-COUNT-2: vector.load {{.*}} vector<4xf64>
// CHECK: arith.mulf {{.*}} : vector<4xf64>
// CHECK: vector.store {{.*}} vector<4xf64>
// CHECK: scf.for
// CHECK: vector.create_mask {{.*}} : vector<4xi1>
// CHECK: vector.maskedload
// CHECK: vector.maskedstore
// CHECK: } else {
// CHECK: scf.for {{.*}} : i64 {
// CHECK: memref.load {{.*}} : memref<?xf64, strided<[?], offset: ?>>
// CHECK: } {kiln.scalar_version}

// EPI-LABEL: func.func @saxpy
// EPI: scf.for
// EPI: vector.load {{.*}} vector<4xf64>
// EPI-NOT: vector.maskedload
// EPI: scf.for {{.*}} : i64 {
// EPI: memref.load
// EPI: } {kiln.scalar_version}

// AVX512-LABEL: func.func @saxpy
// AVX512: vector.load {{.*}} vector<8xf64>
func.func @saxpy(%a: f64, %x: !view, %y: !view, %out: !view, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %xv = memref.load %x[%k] : !view
    %ax = arith.mulf %a, %xv : f64
    %yv = memref.load %y[%k] : !view
    %s = arith.addf %ax, %yv : f64
    memref.store %s, %out[%k] : !view
  }
  return
}

// -----

// Contiguous arrays need no stride check; an in-place map writes only the
// array it reads, at the same element, so nothing can overlap.
// CHECK-LABEL: func.func @scale_in_place
// CHECK-NOT: scf.if
// CHECK-NOT: memref.reinterpret_cast
// CHECK: vector.load %{{.*}} : memref<?xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}} : memref<?xf32>, vector<8xf32>
func.func @scale_in_place(%x: memref<?xf32>, %a: f32, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf32>
    %s = arith.mulf %v, %a : f32
    memref.store %s, %x[%k] : memref<?xf32>
  }
  return
}

// -----

// A 1-D stencil. With 512-bit vectors, x[i-1] and x[i+1] are vector loads,
// and x[i], which lies within them, is one two-source shuffle of the two
// (lanes 1..7 of the first, then lane 6 of the second). With 256-bit ones
// that window crosses the register's 128-bit halves (two shuffles, slower
// than a load: bench/native/stencil_loads.c), so each offset is loaded.
// The masked tail loads each offset.
// CHECK-LABEL: func.func @stencil
// CHECK: scf.for
// CHECK-NOT: memref.load
// CHECK-COUNT-3: vector.load {{.*}} : memref<?xf64>, vector<4xf64>
// CHECK-NOT: vector.shuffle
// CHECK: vector.create_mask
// CHECK-COUNT-3: vector.maskedload
// AVX512-LABEL: func.func @stencil
// AVX512: %[[LOW:.*]] = vector.load {{.*}} : memref<?xf64>, vector<8xf64>
// AVX512: %[[HIGH:.*]] = vector.load {{.*}} : memref<?xf64>, vector<8xf64>
// AVX512: vector.shuffle %[[LOW]], %[[HIGH]] [1, 2, 3, 4, 5, 6, 7, 14] : vector<8xf64>, vector<8xf64>
func.func @stencil(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64) {
  %c1 = arith.constant 1 : i64
  %cm1 = arith.constant -1 : i64
  %last = arith.subi %n, %c1 : i64
  scf.for %i = %c1 to %last step %c1 : i64 {
    %im1 = arith.addi %i, %cm1 : i64
    %ip1 = arith.addi %i, %c1 : i64
    %a = arith.index_cast %im1 : i64 to index
    %b = arith.index_cast %i : i64 to index
    %c = arith.index_cast %ip1 : i64 to index
    %va = memref.load %x[%a] : memref<?xf64>
    %vb = memref.load %x[%b] : memref<?xf64>
    %vc = memref.load %x[%c] : memref<?xf64>
    %s = arith.addf %va, %vb : f64
    %t = arith.addf %s, %vc : f64
    memref.store %t, %out[%b] : memref<?xf64>
  }
  return
}

// -----

// The innermost dimension of a 2-D array: the row index is invariant.
// CHECK-LABEL: func.func @row
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf64, strided<[?, 1], offset: ?>>, vector<4xf64>
func.func @row(%m: memref<?x?xf64, strided<[?, ?], offset: ?>>, %r: index, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %m[%r, %k] : memref<?x?xf64, strided<[?, ?], offset: ?>>
    %s = arith.mulf %v, %two : f64
    memref.store %s, %m[%r, %k] : memref<?x?xf64, strided<[?, ?], offset: ?>>
  }
  return
}

// -----

// The loop variable as a value: lanes are base + [0, 1, 2, 3].
// CHECK-LABEL: func.func @iota
// CHECK: vector.step : vector<4xindex>
// CHECK: arith.sitofp {{.*}} : vector<4xi64> to vector<4xf64>
func.func @iota(%out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %f = arith.sitofp %i : i64 to f64
    memref.store %f, %out[%k] : memref<?xf64>
  }
  return
}

// -----

// A 2-D stencil: loads share only within one row (with 512-bit vectors).
// Row r has three offsets (two loads and a shuffle); rows r-1 and r+1 have
// one load each.
// AVX512-LABEL: func.func @rows
// AVX512: scf.for
// AVX512-COUNT-2: vector.load %{{.*}}[%[[R:[^,]*]], %{{.*}}]
// AVX512: vector.shuffle
// AVX512-NOT: vector.shuffle
// AVX512-COUNT-2: vector.load
// AVX512: vector.store
func.func @rows(%u: memref<?x?xf64>, %out: memref<?x?xf64>, %r: index, %n: i64) {
  %c1 = arith.constant 1 : i64
  %cm1 = arith.constant -1 : i64
  %i1 = arith.constant 1 : index
  %up = arith.subi %r, %i1 : index
  %down = arith.addi %r, %i1 : index
  scf.for %j = %c1 to %n step %c1 : i64 {
    %jm1 = arith.addi %j, %cm1 : i64
    %jp1 = arith.addi %j, %c1 : i64
    %a = arith.index_cast %jm1 : i64 to index
    %b = arith.index_cast %j : i64 to index
    %c = arith.index_cast %jp1 : i64 to index
    %left = memref.load %u[%r, %a] : memref<?x?xf64>
    %mid = memref.load %u[%r, %b] : memref<?x?xf64>
    %right = memref.load %u[%r, %c] : memref<?x?xf64>
    %above = memref.load %u[%up, %b] : memref<?x?xf64>
    %below = memref.load %u[%down, %b] : memref<?x?xf64>
    %s1 = arith.addf %left, %mid : f64
    %s2 = arith.addf %s1, %right : f64
    %s3 = arith.addf %s2, %above : f64
    %s4 = arith.addf %s3, %below : f64
    memref.store %s4, %out[%r, %b] : memref<?x?xf64>
  }
  return
}

// -----

// A view of a constant-size allocation has a static shape: the unit-stride
// cast keeps the static size (the verifier rejects a dynamic size operand
// for a static result dimension).
// CHECK-LABEL: func.func @static_shape_strided_view
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [3], strides: [1] : memref<3xf64, strided<[?], offset: ?>> to memref<3xf64, strided<[1], offset: ?>>
// CHECK: vector.maskedstore
func.func @static_shape_strided_view(%w: memref<3xf64, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %c3 step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    memref.store %one, %w[%k] : memref<3xf64, strided<[?], offset: ?>>
  }
  return
}
