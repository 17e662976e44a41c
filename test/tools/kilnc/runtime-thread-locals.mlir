// The allocator's thread-locals (runtime/kiln_alloc.c, np.zeros' calloc
// request) are reached only through calls to the runtime, never inlined
// into a kernel: LLVM's x86-64 __tls_get_addr call is modelled as
// clobbering xmm0-15 only, while glibc's first access in a thread runs
// malloc/memset that overwrite xmm16-31, where an AVX-512 kernel may keep
// a float across the call (fuzzer finding A9, a float argument read back
// as ASan's malloc fill). Also with --sanitize=address, where it was found.
// RUN: kilnc %s --emit=llvm -O3 --target-cpu=skylake-avx512 --symbol-prefix=k_ -o - | FileCheck %s
// RUN: kilnc %s --emit=llvm -O3 --target-cpu=skylake-avx512 --symbol-prefix=k_ --sanitize=address -o - | FileCheck %s

// CHECK-LABEL: define {{.*}} @k_zeros_then_scale(
// CHECK-NOT: threadlocal.address
// CHECK: call {{.*}}@kiln_alloc_zeroed_next()
// CHECK-NOT: threadlocal.address
// CHECK: call {{.*}}@_mlir_memref_to_llvm_alloc(
// CHECK-NOT: threadlocal.address
// CHECK: call {{.*}}@kiln_alloc_zeroed(
// CHECK-NOT: threadlocal.address
// CHECK: {{^}}}
module {
  func.func private @kiln_alloc_zeroed_next()
  func.func private @kiln_alloc_zeroed(i64) -> i64
  func.func @zeros_then_scale(%n: index, %a: f64, %x: memref<?xf64, strided<[?], offset: ?>>) -> f64 attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    func.call @kiln_alloc_zeroed_next() : () -> ()
    %t = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf64>
    %p = memref.extract_aligned_pointer_as_index %t : memref<?xf64> -> index
    %pi = arith.index_cast %p : index to i64
    %z = func.call @kiln_alloc_zeroed(%pi) : (i64) -> i64
    %v = memref.load %x[%c0] : memref<?xf64, strided<[?], offset: ?>>
    %s = arith.mulf %v, %a : f64
    return %s : f64
  }
}
