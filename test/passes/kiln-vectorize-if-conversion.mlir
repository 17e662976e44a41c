// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=256 -canonicalize | FileCheck %s

// clip: each store under a condition becomes a masked store whose mask is
// the path condition; nothing is stored on lanes where neither holds.
// CHECK-LABEL: func.func @clip
// CHECK: scf.for
// CHECK: %[[V:.*]] = vector.load {{.*}} vector<8xf32>
// CHECK: %[[LOW:.*]] = arith.cmpf olt, %[[V]]
// CHECK: vector.maskedstore {{.*}}, %[[LOW]], {{.*}} vector<8xi1>, vector<8xf32>
// CHECK: arith.xori %[[LOW]]
// CHECK: %[[HIGH:.*]] = arith.andi
// CHECK: vector.maskedstore {{.*}}, %[[HIGH]]
func.func @clip(%x: memref<?xf32>, %lo: f32, %hi: f32, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf32>
    %below = arith.cmpf olt, %v, %lo : f32
    scf.if %below {
      memref.store %lo, %x[%k] : memref<?xf32>
    } else {
      %above = arith.cmpf ogt, %v, %hi : f32
      scf.if %above {
        memref.store %hi, %x[%k] : memref<?xf32>
      }
    }
  }
  return
}

// -----

// A conditional expression yields a value: both sides are computed and a
// select picks per lane.
// CHECK-LABEL: func.func @relu
// CHECK: %[[POS:.*]] = arith.cmpf ogt, {{.*}} : vector<4xf64>
// CHECK: arith.select %[[POS]], {{.*}} : vector<4xi1>, vector<4xf64>
// CHECK: vector.store
func.func @relu(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %pos = arith.cmpf ogt, %v, %zero : f64
    %r = scf.if %pos -> (f64) {
      scf.yield %v : f64
    } else {
      scf.yield %zero : f64
    }
    memref.store %r, %out[%k] : memref<?xf64>
  }
  return
}
