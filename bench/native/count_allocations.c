/* LD_PRELOAD shim for bench/arrays.py: counts the heap allocations of at
   least `kiln_bench_threshold` bytes (malloc, calloc, realloc,
   posix_memalign, aligned_alloc), so one run can say how many array-sized
   blocks a call of numpy, Numba or Kiln code makes (numpy's temporaries,
   Numba's NRT arrays and Kiln's arrays all come from these functions).
   Python reads and resets the counter through ctypes. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

unsigned long kiln_bench_big_allocations;
size_t kiln_bench_threshold = (size_t)-1;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

/* dlsym may calloc before real_calloc is known: serve it from here. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void count(size_t bytes) {
  if (bytes >= kiln_bench_threshold)
    __atomic_fetch_add(&kiln_bench_big_allocations, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t bytes) {
  if (!real_malloc)
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  count(bytes);
  return real_malloc(bytes);
}

void *calloc(size_t count_, size_t size) {
  if (!real_calloc) {
    static int resolving;
    if (resolving) {
      size_t bytes = (count_ * size + 15) & ~(size_t)15;
      if (bootstrap_used + bytes > sizeof bootstrap)
        return NULL;
      void *block = bootstrap + bootstrap_used;
      bootstrap_used += bytes;
      memset(block, 0, bytes);
      return block;
    }
    resolving = 1;
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    resolving = 0;
  }
  count(count_ * size);
  return real_calloc(count_, size);
}

void *realloc(void *block, size_t bytes) {
  if (!real_realloc)
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  count(bytes);
  return real_realloc(block, bytes);
}

int posix_memalign(void **result, size_t alignment, size_t bytes) {
  if (!real_posix_memalign)
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  count(bytes);
  return real_posix_memalign(result, alignment, bytes);
}

void *aligned_alloc(size_t alignment, size_t bytes) {
  if (!real_aligned_alloc)
    real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  count(bytes);
  return real_aligned_alloc(alignment, bytes);
}
