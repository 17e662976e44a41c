/* What kiln.prange loops need beyond LLVM's OpenMP runtime: how many
   threads a parallel loop uses, and how an error raised by one of its
   iterations reaches the caller.

   kilnc links this file into each artifact whose code has a parallel loop
   (like kiln_alloc.c), and it is part of libkiln_cpu.so, through which the
   Python side asks the same rule (kiln.get_num_threads()). */
#define _GNU_SOURCE
#include "kiln_abi.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* More threads than this is a typo, not a machine. */
#define KILN_MAX_THREADS 4096

/* A positive thread count at the start of `text` ("8", "8,4" as
   OMP_NUM_THREADS lists nested levels), or 0. */
static int kiln_leading_count(const char *text) {
  if (!text)
    return 0;
  char *end;
  long count = strtol(text, &end, 10);
  if (end == text || count < 1)
    return 0;
  if (*end != '\0' && *end != ',')
    return 0;
  return count > KILN_MAX_THREADS ? KILN_MAX_THREADS : (int)count;
}

/* The CPUs this process may run on (its affinity mask), asked once: the
   system call costs a tenth of entering a parallel region, and a process
   is pinned (a Dask worker to one CPU, a container to two) before it
   computes. */
static int kiln_allowed_cpus(void) {
  static _Atomic int cached;
  int count = cached;
  if (count)
    return count;
  cpu_set_t allowed;
  count = sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
  if (count < 1)
    count = 1;
  cached = count;
  return count;
}

/* The threads of a parallel loop started now: KILN_NUM_THREADS (which
   kiln.set_num_threads sets), else OMP_NUM_THREADS, else the CPUs this
   process may run on (a worker pinned to one CPU, or a container given two,
   is not oversubscribed). The variables are read at every loop, so a change
   takes effect at the next one. */
int32_t kiln_parallel_thread_count(void) {
  int count = kiln_leading_count(getenv("KILN_NUM_THREADS"));
  if (count)
    return count;
  count = kiln_leading_count(getenv("OMP_NUM_THREADS"));
  if (count)
    return count;
  return kiln_allowed_cpus();
}

static pthread_mutex_t kiln_parallel_error_lock = PTHREAD_MUTEX_INITIALIZER;

/* An iteration of a parallel loop raised: its thread's own record `raised`
   (filled as a function's error record is) becomes the caller's `shared`
   one unless an earlier block of iterations already raised, so the
   exception is the one of the first failing iteration in iteration order.
   `raised` is cleared for the thread's next iterations. */
void kiln_parallel_raise(kiln_error *shared, int64_t *first_failed_block,
                         kiln_error *raised, int64_t block) {
  pthread_mutex_lock(&kiln_parallel_error_lock);
  if (block < *first_failed_block) {
    *first_failed_block = block;
    memcpy(shared, raised, sizeof *shared);
  }
  pthread_mutex_unlock(&kiln_parallel_error_lock);
  raised->kind = KILN_OK;
}
