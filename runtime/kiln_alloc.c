/* The allocator of the arrays Kiln-compiled code makes: kilnc lowers
   memref.alloc/dealloc to these two functions (MLIR's
   `use-generic-functions`) and links this file into every kernel object.

   Why not malloc/free directly: an array expression makes new arrays (a
   variable, a returned array, a temporary of one loop iteration). For
   arrays of megabytes glibc's malloc maps fresh pages each time and
   unmaps them at free, and every fresh page costs a fault and a zeroing:
   measured on `rosen` (numpy-benchmarks, 10^6 doubles), 70 % of the time
   of the kernel went to the kernel's page fault path. Each thread keeps a
   few large blocks it freed and hands them out again to allocations of
   about their size, so a kernel called in a loop reuses its memory.

   Blocks come from malloc and go back to free: an array returned to Python
   is released with free() by its owner object (kiln_runtime.h), whichever
   path made it. A thread's cached blocks are freed when the thread exits. */

#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { KILN_CACHED_BLOCKS = 8 };
/* Smaller blocks come from malloc's own bins, already reused. */
#define KILN_CACHE_SMALLEST ((size_t)1 << 17)
/* The most a thread keeps (and so the largest block it keeps). */
#define KILN_CACHE_BUDGET ((size_t)1 << 29)

typedef struct {
  void *block[KILN_CACHED_BLOCKS];
  size_t size[KILN_CACHED_BLOCKS];
  size_t total;
} kiln_block_cache;

static pthread_key_t kiln_cache_key;
static pthread_once_t kiln_cache_once = PTHREAD_ONCE_INIT;
static int kiln_cache_usable;

static void kiln_release_cache(void *opaque) {
  kiln_block_cache *cache = (kiln_block_cache *)opaque;
  for (int i = 0; i < KILN_CACHED_BLOCKS; ++i)
    free(cache->block[i]);
  free(cache);
}

static void kiln_make_cache_key(void) {
  kiln_cache_usable = pthread_key_create(&kiln_cache_key, kiln_release_cache) == 0;
}

static kiln_block_cache *kiln_thread_cache(int create) {
  pthread_once(&kiln_cache_once, kiln_make_cache_key);
  if (!kiln_cache_usable)
    return NULL;
  kiln_block_cache *cache = (kiln_block_cache *)pthread_getspecific(kiln_cache_key);
  if (!cache && create) {
    cache = (kiln_block_cache *)calloc(1, sizeof(kiln_block_cache));
    if (cache && pthread_setspecific(kiln_cache_key, cache) != 0) {
      free(cache);
      cache = NULL;
    }
  }
  return cache;
}

/* Arrays of 4 MiB and more ask for transparent huge pages, as numpy's do:
   where the system gives them on request only (`madvise`, Debian's
   default), writing a fresh 24 MB array took 292 page faults against
   numpy's 11 (measured on numpy-benchmarks' create_grid: 11 with this). */
#define KILN_HUGE_PAGE_SMALLEST ((size_t)1 << 22)

static void *kiln_advise_huge_pages(void *block, size_t size) {
  if (block && size >= KILN_HUGE_PAGE_SMALLEST) {
    uintptr_t start = ((uintptr_t)block + 4095) & ~(uintptr_t)4095;
    uintptr_t end = ((uintptr_t)block + size) & ~(uintptr_t)4095;
    if (end > start)
      madvise((void *)start, end - start, MADV_HUGEPAGE);
  }
  return block;
}

/* np.zeros: kiln_alloc_zeroed_next() asks the next allocation to come
   from calloc when it is large (calloc clears only memory it reuses: pages
   fresh from the system are zero already, as for numpy's own zeros), and
   kiln_alloc_zeroed() tells whether it did, so the fill can be skipped.

   The functions that touch these thread-locals are never inlined into the
   kernels. In a shared object a thread-local is reached through a call to
   __tls_get_addr, and LLVM 22's x86-64 model of that call (TLS_addr64)
   clobbers only xmm0-15: with AVX-512 the register allocator may keep a
   kernel's float in xmm16-31 across it, while glibc's slow path (a
   thread's first access: malloc, memset) overwrites those registers.
   Inlined, this turned a float argument into 0xbebe...be (ASan's malloc
   fill) in a fuzzer program (test/fuzz/FINDINGS.md, A9). Behind a normal
   call, the kernel saves its vector registers as the ABI says. */
#define KILN_OPAQUE_TO_KERNELS __attribute__((noinline))
static __thread int kiln_zeroed_wanted;
static __thread void *kiln_zeroed_block;

KILN_OPAQUE_TO_KERNELS void kiln_alloc_zeroed_next(void) { kiln_zeroed_wanted = 1; }

KILN_OPAQUE_TO_KERNELS void *_mlir_memref_to_llvm_alloc(size_t size) {
  int zeroed = kiln_zeroed_wanted;
  kiln_zeroed_wanted = 0;
  kiln_zeroed_block = NULL;
  if (size >= KILN_CACHE_SMALLEST) {
    kiln_block_cache *cache = kiln_thread_cache(0);
    if (cache) {
      /* The smallest cached block that holds `size` and wastes at most a
         quarter of it. */
      int best = -1;
      for (int i = 0; i < KILN_CACHED_BLOCKS; ++i)
        if (cache->block[i] && cache->size[i] >= size && cache->size[i] - size <= size / 4 &&
            (best < 0 || cache->size[i] < cache->size[best]))
          best = i;
      if (best >= 0) {
        void *block = cache->block[best];
        cache->block[best] = NULL;
        cache->total -= cache->size[best];
        return block;
      }
    }
    if (zeroed) {
      kiln_zeroed_block = kiln_advise_huge_pages(calloc(1, size), size);
      return kiln_zeroed_block;
    }
    return kiln_advise_huge_pages(malloc(size), size);
  }
  return malloc(size);
}

/* Whether `aligned` (the aligned start of the array just allocated, at most
   64 bytes into its block) is in a block that calloc cleared. */
KILN_OPAQUE_TO_KERNELS int64_t kiln_alloc_zeroed(int64_t aligned) {
  uintptr_t block = (uintptr_t)kiln_zeroed_block;
  kiln_zeroed_block = NULL;
  return block != 0 && (uintptr_t)aligned >= block && (uintptr_t)aligned - block < 64;
}

void _mlir_memref_to_llvm_free(void *block) {
  if (!block)
    return;
  size_t size = malloc_usable_size(block);
  if (size >= KILN_CACHE_SMALLEST && size <= KILN_CACHE_BUDGET) {
    kiln_block_cache *cache = kiln_thread_cache(1);
    if (cache) {
      /* Make room: drop the oldest blocks until this one fits the budget. */
      int slot = -1;
      for (int i = 0; i < KILN_CACHED_BLOCKS && slot < 0; ++i)
        if (!cache->block[i])
          slot = i;
      for (int i = 0; i < KILN_CACHED_BLOCKS && (slot < 0 || cache->total + size >
                                                                  KILN_CACHE_BUDGET); ++i) {
        if (!cache->block[i])
          continue;
        free(cache->block[i]);
        cache->total -= cache->size[i];
        cache->block[i] = NULL;
        if (slot < 0)
          slot = i;
      }
      cache->block[slot] = block;
      cache->size[slot] = size;
      cache->total += size;
      return;
    }
  }
  free(block);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return aligned_alloc(alignment, size);
}
