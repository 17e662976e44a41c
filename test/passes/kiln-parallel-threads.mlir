// RUN: kiln-opt %s -split-input-file -convert-scf-to-openmp -kiln-parallel-threads | FileCheck %s

// A kiln.prange loop's blocks as OpenMP: the team size is the runtime's
// rule, read at the loop; one block runs on the calling thread; the body's
// alloca scope is gone (scf-to-cf makes the body many blocks next); the
// loop, last in its region, leaves the waiting to the region's join.

// CHECK-LABEL: func.func private @kiln_parallel_thread_count() -> i32
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[BLOCKS:.*]]: index)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[THREADS:.*]] = call @kiln_parallel_thread_count() : () -> i32
// CHECK:       %[[SPAN:.*]] = arith.subi %[[BLOCKS]], %[[C0]] : index
// CHECK:       %[[SEVERAL:.*]] = arith.cmpi sgt, %[[SPAN]], %[[C1]] : index
// CHECK:       omp.parallel if(%[[SEVERAL]]) num_threads(%[[THREADS]] : i32) {
// CHECK-NOT:   memref.alloca_scope
// CHECK:       omp.wsloop nowait {
// CHECK:       omp.loop_nest (%{{.*}}) : index = (%[[C0]]) to (%[[BLOCKS]]) step (%[[C1]])
func.func @scale(%x: memref<?xf64>, %blocks: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.parallel (%b) = (%c0) to (%blocks) step (%c1) {
    %v = memref.load %x[%b] : memref<?xf64>
    %w = arith.mulf %v, %two : f64
    memref.store %w, %x[%b] : memref<?xf64>
    scf.reduce
  }
  return
}

// -----

// A module without parallel loops is left alone: no declaration.

// CHECK-LABEL: func.func @serial
// CHECK-NOT:   kiln_parallel_thread_count
func.func @serial(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f64
  memref.store %two, %x[%c0] : memref<?xf64>
  return
}
