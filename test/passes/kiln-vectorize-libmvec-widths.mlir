// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=128 target-isa=sse" | FileCheck %s --check-prefix=SSE
// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=512 target-isa=avx2" | FileCheck %s --check-prefix=SPLIT
// RUN: kiln-opt %s -split-input-file -kiln-vectorize="vector-bits=512 target-isa=avx512" | FileCheck %s --check-prefix=AVX512

// libmvec has variants from 128 bits up to the ISA's registers only
// (passes/LibmvecVariants.def). A float32 log10 in a loop sized for float64
// lanes is 2 lanes (64 bits) with SSE, and there is no _ZGVbN2v_log10f: the
// vector is widened to the 4-lane variant and narrowed after the call. At
// 512 bits with AVX2 calls (no `e` variants) the 8 float64 lanes of exp
// are split into two 4-lane calls and concatenated. AVX-512's 8 float32
// lanes are 256 bits: the `d` variant.
// SSE-LABEL: func.func @mixed_widths
// SSE-NOT: _ZGVbN2v_log10f
// SSE: %[[WIDE:.*]] = vector.shuffle %[[X:.*]], %[[X]] [0, 1, 0, 1] : vector<2xf32>, vector<2xf32>
// SSE: %[[CALL:.*]] = func.call @_ZGVbN4v_log10f(%[[WIDE]]) : (vector<4xf32>) -> vector<4xf32>
// SSE: vector.shuffle %[[CALL]], %[[CALL]] [0, 1] : vector<4xf32>, vector<4xf32>
// SSE: func.call @_ZGVbN2v_exp({{.*}}) : (vector<2xf64>) -> vector<2xf64>
// SPLIT-LABEL: func.func @mixed_widths
// SPLIT: %[[LOW:.*]] = vector.shuffle %[[V:.*]], %[[V]] [0, 1, 2, 3] : vector<8xf64>, vector<8xf64>
// SPLIT: %[[A:.*]] = func.call @_ZGVdN4v_exp(%[[LOW]])
// SPLIT: %[[HIGH:.*]] = vector.shuffle %[[V]], %[[V]] [4, 5, 6, 7] : vector<8xf64>, vector<8xf64>
// SPLIT: %[[B:.*]] = func.call @_ZGVdN4v_exp(%[[HIGH]])
// SPLIT: vector.shuffle %[[A]], %[[B]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf64>, vector<4xf64>
// AVX512-LABEL: func.func @mixed_widths
// AVX512: func.call @_ZGVdN8v_log10f({{.*}}) : (vector<8xf32>) -> vector<8xf32>
// AVX512: func.call @_ZGVeN8v_exp({{.*}}) : (vector<8xf64>) -> vector<8xf64>
func.func @mixed_widths(%x: memref<?xf32>, %y: memref<?xf64>, %out: memref<?xf64>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  scf.for %i = %c0 to %n step %c1 : i64 {
    %k = arith.index_cast %i : i64 to index
    %a = memref.load %x[%k] : memref<?xf32>
    %l = math.log10 %a : f32
    %w = arith.extf %l : f32 to f64
    %b = memref.load %y[%k] : memref<?xf64>
    %e = math.exp %b : f64
    %s = arith.addf %w, %e : f64
    memref.store %s, %out[%k] : memref<?xf64>
  }
  return
}
