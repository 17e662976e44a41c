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
#include <string.h>
#include <sys/mman.h>

enum { KILN_CACHED_BLOCKS = 8 };
/* The arrays a Kiln caller can take back from one call's results
   (kiln_alloc_adopt); beyond that many, the rest could leak if the caller
   then raised. */
enum { KILN_HANDED_BLOCKS = 32 };
/* Smaller blocks come from malloc's own bins, already reused. */
#define KILN_CACHE_SMALLEST ((size_t)1 << 17)
/* The most a thread keeps (and so the largest block it keeps). */
#define KILN_CACHE_BUDGET ((size_t)1 << 29)

typedef struct {
  void *block[KILN_CACHED_BLOCKS];
  size_t size[KILN_CACHED_BLOCKS];
  size_t total;
  /* The journal: every block this thread allocated for a Kiln function
     that is still running (see "The allocation journal" below). */
  void **journal;
  size_t journal_count, journal_capacity;
  /* The blocks the last returning function handed to its caller. */
  void *handed[KILN_HANDED_BLOCKS];
  size_t handed_count;
} kiln_block_cache;

static pthread_key_t kiln_cache_key;
static pthread_once_t kiln_cache_once = PTHREAD_ONCE_INIT;
static int kiln_cache_usable;

static void kiln_release_cache(void *opaque) {
  kiln_block_cache *cache = (kiln_block_cache *)opaque;
  for (int i = 0; i < KILN_CACHED_BLOCKS; ++i)
    free(cache->block[i]);
  free(cache->journal);
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

static void *kiln_allocate_block(size_t size) {
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

static void kiln_release_block(void *block) {
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

/* The allocation journal: how a function that raises frees its arrays.

   The frontend writes no deallocation: MLIR's ownership-based buffer
   deallocation frees every array on the paths it sees, the structured
   control flow of a call that returns normally. A raised error leaves
   the function from the middle of that flow (kilnc's kiln-lower-checks
   makes the branch after deallocation is placed), when the arrays live
   there may be loop-carried or chosen by a branch, known only at run
   time. So every block allocated for a running Kiln function is in its
   thread's journal until it is freed:

   - a function that allocates reads the journal's depth on entry
     (kiln_alloc_mark);
   - its error exits free every block allocated since (kiln_alloc_unwind):
     its own arrays and those its callees returned to it;
   - its normal exits take them out of the journal without freeing
     (kiln_alloc_release): what is left there is the arrays it returns,
     now the caller's (Python's owner objects, a C program);
   - a Kiln caller puts the arrays a Kiln callee returned back into the
     journal (kiln_alloc_adopt, right after the call), so its own error
     exits free them.

   A function frees only arrays it owns (allocated after its mark or
   adopted), so removing a freed block by moving the newest entry into its
   place keeps every frame's entries above its mark. */
static int kiln_journal_push(kiln_block_cache *state, void *block) {
  if (state->journal_count == state->journal_capacity) {
    size_t capacity = state->journal_capacity ? 2 * state->journal_capacity : 64;
    void **grown = (void **)realloc(state->journal, capacity * sizeof(void *));
    if (!grown)
      return 0;
    state->journal = grown;
    state->journal_capacity = capacity;
  }
  state->journal[state->journal_count++] = block;
  return 1;
}

/* Removes `block` from the journal; whether it was there. */
static int kiln_journal_remove(kiln_block_cache *state, void *block) {
  for (size_t i = state->journal_count; i-- > 0;)
    if (state->journal[i] == block) {
      state->journal[i] = state->journal[--state->journal_count];
      return 1;
    }
  return 0;
}

KILN_OPAQUE_TO_KERNELS void *_mlir_memref_to_llvm_alloc(size_t size) {
  kiln_block_cache *state = kiln_thread_cache(1);
  void *block = kiln_allocate_block(size);
  /* Without a journal entry the block could leak on an error path: the
     allocation fails (the caller raises MemoryError) rather than risk it. */
  if (block && (!state || !kiln_journal_push(state, block))) {
    kiln_release_block(block);
    kiln_zeroed_block = NULL;
    return NULL;
  }
  return block;
}

KILN_OPAQUE_TO_KERNELS void _mlir_memref_to_llvm_free(void *block) {
  if (!block)
    return;
  kiln_block_cache *state = kiln_thread_cache(0);
  if (state)
    kiln_journal_remove(state, block);
  kiln_release_block(block);
}

KILN_OPAQUE_TO_KERNELS int64_t kiln_alloc_mark(void) {
  kiln_block_cache *state = kiln_thread_cache(0);
  if (!state)
    return 0;
  /* What an earlier call handed over is its caller's business, finished:
     a block there may belong to Python by now. */
  state->handed_count = 0;
  return (int64_t)state->journal_count;
}

KILN_OPAQUE_TO_KERNELS void kiln_alloc_unwind(int64_t mark) {
  kiln_block_cache *state = kiln_thread_cache(0);
  if (!state)
    return;
  while (state->journal_count > (size_t)mark)
    kiln_release_block(state->journal[--state->journal_count]);
}

KILN_OPAQUE_TO_KERNELS void kiln_alloc_release(int64_t mark) {
  kiln_block_cache *state = kiln_thread_cache(0);
  if (!state)
    return;
  state->handed_count = 0;
  while (state->journal_count > (size_t)mark) {
    void *block = state->journal[--state->journal_count];
    if (state->handed_count < KILN_HANDED_BLOCKS)
      state->handed[state->handed_count++] = block;
  }
}

/* The caller's side of kiln_alloc_release: `aligned` is the aligned
   pointer of an array the Kiln function just called returned (MLIR
   aligns within the first 64 bytes of its block), `owned` whether the
   caller owns it. The block goes back into the journal, now the caller's.
   Should the journal fail to grow (out of memory), the block stays out of
   it: it is still freed on every normal path, and leaks only if this call
   then raises. */
KILN_OPAQUE_TO_KERNELS void kiln_alloc_adopt(int64_t aligned, int64_t owned) {
  kiln_block_cache *state = kiln_thread_cache(0);
  if (!state || !owned)
    return;
  for (size_t i = 0; i < state->handed_count; ++i) {
    uintptr_t block = (uintptr_t)state->handed[i];
    if ((uintptr_t)aligned >= block && (uintptr_t)aligned - block < 64) {
      kiln_journal_push(state, state->handed[i]);
      /* Taken once, though the callee returned the same array twice. */
      state->handed[i] = state->handed[--state->handed_count];
      return;
    }
  }
}

/* memref.copy between arrays that are not both contiguous lowers to a call
   of this function (MLIR's C runner utilities name; Kiln links no MLIR
   runtime library). Ownership-based deallocation copies an array with it
   when a public function returns a buffer its caller could not otherwise
   own. Each array comes as (rank, descriptor): the descriptor holds the
   allocated and aligned pointers, the offset, then `rank` sizes and
   `rank` strides, in elements. */
typedef struct {
  int64_t rank;
  void *descriptor;
} kiln_unranked_memref;

typedef struct {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizes_and_strides[];
} kiln_memref_descriptor;

void memrefCopy(int64_t element_size, kiln_unranked_memref *source,
                kiln_unranked_memref *target) {
  int64_t rank = source->rank;
  const kiln_memref_descriptor *from = (const kiln_memref_descriptor *)source->descriptor;
  const kiln_memref_descriptor *to = (const kiln_memref_descriptor *)target->descriptor;
  const int64_t *sizes = from->sizes_and_strides;
  const int64_t *from_strides = from->sizes_and_strides + rank;
  const int64_t *to_strides = to->sizes_and_strides + rank;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (sizes[axis] == 0)
      return;
  /* An odometer over the positions: one element copied per step. */
  int64_t position[rank > 0 ? rank : 1];
  for (int64_t axis = 0; axis < rank; ++axis)
    position[axis] = 0;
  char *read = from->aligned + from->offset * element_size;
  char *write = to->aligned + to->offset * element_size;
  for (;;) {
    memcpy(write, read, (size_t)element_size);
    int64_t axis = rank - 1;
    for (; axis >= 0; --axis) {
      read += from_strides[axis] * element_size;
      write += to_strides[axis] * element_size;
      if (++position[axis] < sizes[axis])
        break;
      read -= from_strides[axis] * sizes[axis] * element_size;
      write -= to_strides[axis] * sizes[axis] * element_size;
      position[axis] = 0;
    }
    if (axis < 0)
      return;
  }
}
