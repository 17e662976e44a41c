// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=256 --remark-format=emitRemark --remarks-filter=kiln-vectorize -verify-diagnostics
// Every loop gets exactly one verdict, at its own location; the refusals
// name the reason.

func.func @vectorized(%x: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %two = arith.constant 2.0 : f64
  // expected-remark @below {{vectorized: VF=4, interleave=2, masked tail}}
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %s = arith.mulf %v, %two : f64
    memref.store %s, %x[%k] : memref<?xf64>
  }
  return
}

// -----

func.func @ordered_sum(%x: memref<?xf64>, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  // expected-remark @below {{not vectorized: float reduction on `s` needs fastmath=True}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %t = arith.addf %s, %v : f64
    scf.yield %t : f64
  } {kiln.carried = ["s"]}
  return %r : f64
}

// -----

func.func @prefix_sum(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  // expected-remark @below {{not vectorized: loop-carried dependence on `s`}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %t = arith.addf %s, %v fastmath<reassoc> : f64
    memref.store %t, %out[%k] : memref<?xf64>
    scf.yield %t : f64
  } {kiln.carried = ["s"]}
  return
}

// -----

func.func @gather(%x: memref<?xf64>, %idx: memref<?xi64>, %out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-remark @below {{not vectorized: subscript at}}
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %j = memref.load %idx[%k] : memref<?xi64>
    %jk = arith.index_cast %j : i64 to index
    %v = memref.load %x[%jk] : memref<?xf64>
    memref.store %v, %out[%k] : memref<?xf64>
  }
  return
}

// -----

func.func @true_dependence(%x: memref<?xf64>, %n: i64) {
  %c1 = arith.constant 1 : i64
  // expected-remark @below {{not vectorized: loop-carried dependence through an array: reads an element written 1 iteration(s) earlier}}
  scf.for %i = %c1 to %n step %c1 : i64 {
    %im1 = arith.subi %i, %c1 : i64
    %a = arith.index_cast %im1 : i64 to index
    %k = arith.index_cast %i : i64 to index
    %p = memref.load %x[%a] : memref<?xf64>
    %v = memref.load %x[%k] : memref<?xf64>
    %s = arith.addf %p, %v : f64
    memref.store %s, %x[%k] : memref<?xf64>
  }
  return
}

// -----

func.func private @helper(f64) -> f64

func.func @calls(%x: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-remark @below {{not vectorized: call to `helper`}}
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %h = func.call @helper(%v) : (f64) -> f64
    memref.store %h, %x[%k] : memref<?xf64>
  }
  return
}

// -----

func.func @strided_step(%x: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %one = arith.constant 1.0 : f64
  // expected-remark @below {{not vectorized: range step 2}}
  scf.for %i = %c0 to %n step %c2 : i64 {
    %k = arith.index_cast %i : i64 to index
    memref.store %one, %x[%k] : memref<?xf64>
  }
  return
}

// -----

func.func @nest(%m: memref<?x?xf64>, %rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  // expected-remark @below {{not vectorized: outer loop}}
  scf.for %r = %c0 to %rows step %c1 {
    // expected-remark @below {{vectorized: VF=4}}
    scf.for %c = %c0 to %cols step %c1 {
      memref.store %one, %m[%r, %c] : memref<?x?xf64>
    }
  }
  return
}

// -----

func.func @while_loop(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  // expected-remark @below {{not vectorized: a while loop}}
  %r = scf.while (%v = %n) : (i64) -> i64 {
    %go = arith.cmpi sgt, %v, %c1 : i64
    scf.condition(%go) %v : i64
  } do {
  ^bb0(%v: i64):
    %h = arith.shrsi %v, %c1 : i64
    scf.yield %h : i64
  }
  return %r : i64
}

// -----

// The cold bounds-checked copy made by kiln-hoist-bounds-checks gets no
// verdict of its own.
func.func @checked_copy(%x: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    memref.store %one, %x[%k] : memref<?xf64>
  } {kiln.bounds_checked_copy}
  return
}
