// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=256 -canonicalize | FileCheck %s

// Integer sum: four accumulators (interleave=4) start at 0, are added
// lane-wise, folded together and reduced once with the start value.
// CHECK-LABEL: func.func @int_sum
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : vector<4xi64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]])
// CHECK-COUNT-4: arith.addi {{.*}} : vector<4xi64>
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<4xi64> into i64
func.func @int_sum(%x: memref<?xi64>, %n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xi64>
    %t = arith.addi %s, %v : i64
    scf.yield %t : i64
  }
  return %r : i64
}

// -----

// Float sum with reassociation allowed (fastmath=True): identity -0.0 and
// a reassociating horizontal reduction.
// CHECK-LABEL: func.func @fast_dot
// CHECK: arith.constant dense<-0.000000e+00> : vector<4xf64>
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract> : vector<4xf64>
// CHECK: vector.reduction <add>, {{.*}} fastmath<reassoc> : vector<4xf64> into f64
func.func @fast_dot(%x: memref<?xf64>, %y: memref<?xf64>, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %a = memref.load %x[%k] : memref<?xf64>
    %b = memref.load %y[%k] : memref<?xf64>
    %p = arith.mulf %a, %b fastmath<reassoc,contract> : f64
    %t = arith.addf %s, %p fastmath<reassoc,contract> : f64
    scf.yield %t : f64
  }
  return %r : f64
}

// -----

// Bitwise, product and min/max kinds have their own identities.
// CHECK-LABEL: func.func @kinds
// CHECK-DAG: arith.constant dense<-1> : vector<4xi64>
// CHECK-DAG: arith.constant dense<1> : vector<4xi64>
// CHECK-DAG: arith.constant dense<9223372036854775807> : vector<4xi64>
// CHECK-DAG: vector.reduction <and>
// CHECK-DAG: vector.reduction <mul>
// CHECK-DAG: vector.reduction <minsi>
// CHECK-DAG: vector.reduction <xor>
func.func @kinds(%x: memref<?xi64>, %n: i64) -> (i64, i64, i64, i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %ones = arith.constant -1 : i64
  %big = arith.constant 100 : i64
  %r:4 = scf.for %i = %c0 to %n step %c1
      iter_args(%a = %ones, %m = %c1, %lo = %big, %x0 = %c0) -> (i64, i64, i64, i64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xi64>
    %a2 = arith.andi %a, %v : i64
    %m2 = arith.muli %m, %v : i64
    %lo2 = arith.minsi %lo, %v : i64
    %x2 = arith.xori %x0, %v : i64
    scf.yield %a2, %m2, %lo2, %x2 : i64, i64, i64, i64
  }
  return %r#0, %r#1, %r#2, %r#3 : i64, i64, i64, i64
}

// -----

// max(best, x[i]) as the frontend writes it: select(x > best, x, best).
// Lanes start at the start value (max is idempotent) and are combined in
// lane order with the same select, so NaNs are skipped as in CPython; a
// zero result is recomputed by the scalar loop, which knows which of -0.0
// and 0.0 came first.
// CHECK-LABEL: func.func @float_max
// CHECK: vector.broadcast %{{.*}} : f64 to vector<4xf64>
// CHECK: arith.cmpf ogt, {{.*}} : vector<4xf64>
// CHECK: arith.select {{.*}} : vector<4xi1>, vector<4xf64>
// CHECK-COUNT-4: vector.extract
// CHECK: arith.cmpf oeq
// CHECK: scf.if
// CHECK: scf.for
// CHECK: memref.load
func.func @float_max(%x: memref<?xf64>, %start: f64, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%best = %start) -> (f64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %gt = arith.cmpf ogt, %v, %best : f64
    %b2 = arith.select %gt, %v, %best : f64
    scf.yield %b2 : f64
  }
  return %r : f64
}

// -----

// `if x[i] > 0: count += 1`: the branch becomes a select between two
// chains of the same add, so it is still a sum.
// CHECK-LABEL: func.func @count_positive
// CHECK: arith.cmpi sgt, {{.*}} : vector<4xi64>
// CHECK: arith.select {{.*}} : vector<4xi1>, vector<4xi64>
// CHECK: vector.reduction <add>
func.func @count_positive(%x: memref<?xi64>, %n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%c = %c0) -> (i64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xi64>
    %pos = arith.cmpi sgt, %v, %c0 : i64
    %c2 = scf.if %pos -> (i64) {
      %inc = arith.addi %c, %c1 : i64
      scf.yield %inc : i64
    } else {
      scf.yield %c : i64
    }
    scf.yield %c2 : i64
  }
  return %r : i64
}
