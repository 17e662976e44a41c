// RUN: kiln-opt %s -split-input-file -kiln-buffer-deallocation -verify-diagnostics -allow-unregistered-dialect

// Kiln's frontend writes no free: kilnc places them all. A module that
// frees an array itself is refused (upstream's diagnostic).
func.func @frees_itself(%n: index) {
  %a = memref.alloc(%n) : memref<?xf64>
  // expected-error @below {{memory free side-effect on MemRef value not supported!}}
  memref.dealloc %a : memref<?xf64>
  return
}

// -----

// An op whose memory effects are unknown cannot be reasoned about.
func.func @unknown_effects(%n: index) {
  %a = memref.alloc(%n) : memref<?xf64>
  // expected-error @below {{ops with unknown memory side effects are not supported}}
  "test.unknown"(%a) : (memref<?xf64>) -> ()
  return
}
