// RUN: kiln-opt %s -split-input-file -kiln-vectorize=vector-bits=256 -canonicalize | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=512 target-isa=avx512" -canonicalize | FileCheck %s --check-prefix=AVX512

// exp on vectors calls glibc's libmvec variant for the vector ISA and
// width, declared once per module; sqrt stays an instruction.
// CHECK-LABEL: func.func private @_ZGVdN4v_exp(vector<4xf64>) -> vector<4xf64>
// CHECK-LABEL: func.func @exp_sqrt
// CHECK: call @_ZGVdN4v_exp(%{{.*}}) : (vector<4xf64>) -> vector<4xf64>
// CHECK: math.sqrt {{.*}} : vector<4xf64>
// AVX512: call @_ZGVeN8v_exp
func.func @exp_sqrt(%x: memref<?xf64>, %out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %e = math.exp %v : f64
    %s = math.sqrt %e : f64
    memref.store %s, %out[%k] : memref<?xf64>
  }
  return
}

// -----

// f32 and two-argument functions: `f` suffix, one `v` per argument.
// CHECK-LABEL: func.func @pow_f32
// CHECK: call @_ZGVdN8vv_powf
func.func @pow_f32(%x: memref<?xf32>, %y: memref<?xf32>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %a = memref.load %x[%k] : memref<?xf32>
    %b = memref.load %y[%k] : memref<?xf32>
    %p = math.powf %a, %b : f32
    memref.store %p, %x[%k] : memref<?xf32>
  }
  return
}

// -----

// A value check (math.log's domain error): each vector chunk tests all its
// lanes first and stores only if every lane passes; otherwise the vector
// loop stops there and the scalar loop re-runs the chunk, raising at
// CPython's exact element.
// CHECK-LABEL: func.func @checked_log
// CHECK: scf.while
// CHECK: call @_ZGVdN4v_log
// CHECK: %[[ALL:.*]] = vector.reduction <and>, {{.*}} : vector<4xi1> into i1
// CHECK: scf.if %[[ALL]] {
// CHECK: vector.store
// CHECK: scf.for
// CHECK: kiln.check {{.*}} ValueError, "math domain error"
func.func @checked_log(%x: memref<?xf64>, %n: i64, %err: !llvm.ptr {kiln.error_slot}) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %v = memref.load %x[%k] : memref<?xf64>
    %ok = arith.cmpf ogt, %v, %zero : f64
    kiln.check %ok, "ValueError", "math domain error"
    %l = math.log %v : f64
    memref.store %l, %x[%k] : memref<?xf64>
  }
  return
}
