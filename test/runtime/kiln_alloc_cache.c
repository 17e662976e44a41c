// The allocator of compiled arrays (runtime/kiln_alloc.c): large blocks a
// thread frees are handed out again to allocations of about their size;
// small ones and much larger requests are not served from the cache; a
// thread's cache is freed when the thread exits.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -pthread -I%kiln_runtime_dir %s -o %t
// RUN: %t | FileCheck %s

#include "kiln_alloc.c"

#include <stdio.h>
#include <string.h>

static void *other_thread_block;

static void *allocate_elsewhere(void *unused) {
  (void)unused;
  other_thread_block = _mlir_memref_to_llvm_alloc(1 << 20);
  _mlir_memref_to_llvm_free(other_thread_block);   // cached by that thread, freed at its exit
  return NULL;
}

int main(void) {
  void *big = _mlir_memref_to_llvm_alloc(1 << 20);
  memset(big, 1, 1 << 20);
  _mlir_memref_to_llvm_free(big);
  void *again = _mlir_memref_to_llvm_alloc((1 << 20) - 100);
  // CHECK: reused 1
  printf("reused %d\n", again == big);
  _mlir_memref_to_llvm_free(again);
  // Twice the size: too wasteful to serve from a block of half of it.
  void *twice = _mlir_memref_to_llvm_alloc(1 << 21);
  // CHECK: larger reused 0
  printf("larger reused %d\n", twice == big);
  _mlir_memref_to_llvm_free(twice);
  void *small = _mlir_memref_to_llvm_alloc(64);
  _mlir_memref_to_llvm_free(small);
  // At most KILN_CACHED_BLOCKS kept: freeing more drops the oldest.
  void *blocks[KILN_CACHED_BLOCKS + 2];
  for (int i = 0; i < KILN_CACHED_BLOCKS + 2; ++i)
    blocks[i] = _mlir_memref_to_llvm_alloc((size_t)(1 << 18) * (i + 1));
  for (int i = 0; i < KILN_CACHED_BLOCKS + 2; ++i)
    _mlir_memref_to_llvm_free(blocks[i]);
  kiln_block_cache *cache = kiln_thread_cache(0);
  int kept = 0;
  for (int i = 0; i < KILN_CACHED_BLOCKS; ++i)
    kept += cache->block[i] != NULL;
  // CHECK: kept 8 within budget 1
  printf("kept %d within budget %d\n", kept, cache->total <= KILN_CACHE_BUDGET);
  pthread_t thread;
  pthread_create(&thread, NULL, allocate_elsewhere, NULL);
  pthread_join(thread, NULL);
  // The other thread's cache went with it (its destructor freed the block).
  // CHECK: done
  printf("done\n");
  return 0;
}
