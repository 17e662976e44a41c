/* The share of a static OpenMP worksharing loop each thread runs, computed
   here instead of by the runtime's __kmpc_for_static_init_8u.

   Why: Debian's libomp (libomp5-19, which libomp-22-dev links against) is
   built with its debug traces compiled in, and its static-init formats a
   trace string (malloc, vsnprintf, free) on every thread at every loop
   whether tracing is on or not: 40 % of entering a kiln.prange loop on a
   small input (perf, bench/parallel.py). The partition below is the
   runtime's balanced static schedule (kmp_sch_static): contiguous shares
   whose sizes differ by at most one, the larger ones first.

   kilnc links this file into an artifact whose code calls
   __kmpc_for_static_init_8u and points those calls here; anything but the
   unchunked static schedule with increment 1 (all that MLIR's OpenMP
   translation emits for Kiln's loops) goes to the runtime's own. */
#include <stdint.h>

int omp_get_num_threads(void);
int omp_get_thread_num(void);
void __kmpc_for_static_init_8u(void *location, int32_t thread_id, int32_t schedule,
                               int32_t *last, uint64_t *lower, uint64_t *upper,
                               int64_t *stride, int64_t increment, int64_t chunk);

/* kmp_sch_static: OpenMP's unchunked static schedule. */
#define KILN_OMP_STATIC 34

void kiln_for_static_init_8u(void *location, int32_t thread_id, int32_t schedule,
                             int32_t *last, uint64_t *lower, uint64_t *upper,
                             int64_t *stride, int64_t increment, int64_t chunk) {
  if (schedule != KILN_OMP_STATIC || increment != 1) {
    __kmpc_for_static_init_8u(location, thread_id, schedule, last, lower, upper, stride,
                              increment, chunk);
    return;
  }
  /* [lower, upper] inclusive; a loop of no iterations arrives as
     [0, UINT64_MAX] (its trip count minus one), whose count wraps to 0. */
  uint64_t first = *lower;
  uint64_t trips = *upper - first + 1;
  uint64_t threads = (uint64_t)omp_get_num_threads();
  uint64_t thread = (uint64_t)omp_get_thread_num();
  if (threads < 1)
    threads = 1;
  uint64_t share = trips / threads, extra = trips % threads;
  uint64_t begin = first + thread * share + (thread < extra ? thread : extra);
  uint64_t count = share + (thread < extra ? 1 : 0);
  *lower = begin;
  *upper = begin + count - 1; /* count 0: upper - lower + 1 wraps to 0 */
  *stride = (int64_t)trips;
  if (last)
    *last = count > 0 && begin + count == first + trips;
}

/* The runtime's end of a static loop only traces and reports the loop to
   OpenMP tools; its start is the one above, which reports nothing. */
void kiln_for_static_fini(void *location, int32_t thread_id) {
  (void)location;
  (void)thread_id;
}
