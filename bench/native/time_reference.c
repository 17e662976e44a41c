/* Batch timers for the peers' C reference kernels (ckernels.c, copied from
   the shared peer folder and compiled at benchmark time, once with and once
   without -ffast-math). Every timer has the signature bench/harness/native.py
   declares: the call count first, then the kernel's sizes and arguments;
   scalar results come back through the last pointer. Returns seconds per
   call. */
#include "batch_timer.h"
#include "ckernels.h"

double time_saxpy_f64(int64_t calls, int64_t n, double a, const double *x, const double *y,
                      double *out) {
  TIMED_BATCH(calls, k_saxpy_f64(n, a, x, y, out));
  return seconds_per_call;
}

double time_saxpy_f32(int64_t calls, int64_t n, float a, const float *x, const float *y,
                      float *out) {
  TIMED_BATCH(calls, k_saxpy_f32(n, a, x, y, out));
  return seconds_per_call;
}

double time_dot(int64_t calls, int64_t n, const double *x, const double *y, double *result) {
  double value = 0.0;
  TIMED_BATCH(calls, value = k_dot(n, x, y));
  *result = value;
  return seconds_per_call;
}

double time_sum_f64(int64_t calls, int64_t n, const double *x, double *result) {
  double value = 0.0;
  TIMED_BATCH(calls, value = k_sum_f64(n, x));
  *result = value;
  return seconds_per_call;
}

double time_sum_i64(int64_t calls, int64_t n, const int64_t *x, int64_t *result) {
  int64_t value = 0;
  TIMED_BATCH(calls, value = k_sum_i64(n, x));
  *result = value;
  return seconds_per_call;
}

double time_l2norm(int64_t calls, int64_t n, const double *x, double *result) {
  double value = 0.0;
  TIMED_BATCH(calls, value = k_l2norm(n, x));
  *result = value;
  return seconds_per_call;
}

double time_expsqrt(int64_t calls, int64_t n, const double *x, double *out) {
  TIMED_BATCH(calls, k_expsqrt(n, x, out));
  return seconds_per_call;
}

double time_clip(int64_t calls, int64_t n, const double *x, double low, double high,
                 double *out) {
  TIMED_BATCH(calls, k_clip(n, x, low, high, out));
  return seconds_per_call;
}

double time_stencil1d(int64_t calls, int64_t n, const double *x, double *out) {
  TIMED_BATCH(calls, k_stencil1d(n, x, out));
  return seconds_per_call;
}

double time_prefix_sum(int64_t calls, int64_t n, const double *x, double *out) {
  TIMED_BATCH(calls, k_prefix_sum(n, x, out));
  return seconds_per_call;
}

double time_histogram(int64_t calls, int64_t n, const double *x, int64_t nbins,
                      int64_t *counts) {
  TIMED_BATCH(calls, k_histogram(n, x, nbins, counts));
  return seconds_per_call;
}

double time_jacobi2d(int64_t calls, int64_t rows, int64_t cols, const double *u, double *out) {
  TIMED_BATCH(calls, k_jacobi2d(rows, cols, u, out));
  return seconds_per_call;
}

double time_matmul(int64_t calls, int64_t n, int64_t m, int64_t p, const double *a,
                   const double *b, double *c) {
  TIMED_BATCH(calls, k_matmul(n, m, p, a, b, c));
  return seconds_per_call;
}

double time_mandelbrot(int64_t calls, int64_t height, int64_t width, double xmin, double xmax,
                       double ymin, double ymax, int64_t maxiter, int64_t *out) {
  TIMED_BATCH(calls, k_mandelbrot(height, width, xmin, xmax, ymin, ymax, maxiter, out));
  return seconds_per_call;
}

double time_pairwise(int64_t calls, int64_t m, int64_t d, const double *points,
                     double *distances) {
  TIMED_BATCH(calls, k_pairwise(m, d, points, distances));
  return seconds_per_call;
}
