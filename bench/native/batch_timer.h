/* Shared by the C batch timers: a kernel is called `calls` times back to
   back and the batch is timed with CLOCK_MONOTONIC here, in C, so a C
   kernel's time contains no Python call overhead. The kernels live in
   another object file (no LTO), so the compiler can neither inline them
   nor drop the repeated calls. */
#ifndef KILN_BENCH_BATCH_TIMER_H
#define KILN_BENCH_BATCH_TIMER_H

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <time.h>

static inline double monotonic_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* Declares `seconds_per_call` after running `statement` `calls` times. */
#define TIMED_BATCH(calls, statement)                                  \
  double batch_start = monotonic_seconds();                            \
  for (int64_t call = 0; call < (calls); ++call) {                     \
    statement;                                                         \
  }                                                                    \
  double seconds_per_call = (monotonic_seconds() - batch_start) / (double)(calls)

#endif
