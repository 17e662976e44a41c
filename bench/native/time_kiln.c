/* Batch timers for Kiln's C ABI (lib<mod>.so of bench/kernels_kiln.py):
   the same signatures as time_reference.c, so the harness drives both the
   same way. The strided descriptors are filled once per batch, as a C
   caller would; what is timed is the compiled kernel alone, without the
   CPython wrapper. A kernel that reports an error makes the timer return
   -1. */
#include "batch_timer.h"
#include "kernels_kiln.h"

/* Contiguous, row-major views of the caller's buffers; strides count elements. */
#define VECTOR(type, data, n) ((type){(data), (data), 0, {(n)}, {1}})
#define MATRIX(type, data, rows, cols) ((type){(data), (data), 0, {(rows), (cols)}, {(cols), 1}})

static double checked(double seconds, const kiln_error *error) {
  return error->kind == KILN_OK ? seconds : -1.0;
}

double time_saxpy_f64(int64_t calls, int64_t n, double a, double *x, double *y, double *out) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), yv = VECTOR(kiln_f64_1d, y, n);
  kiln_f64_1d outv = VECTOR(kiln_f64_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_saxpy_f64(a, &xv, &yv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_saxpy_f32(int64_t calls, int64_t n, float a, float *x, float *y, float *out) {
  kiln_f32_1d xv = VECTOR(kiln_f32_1d, x, n), yv = VECTOR(kiln_f32_1d, y, n);
  kiln_f32_1d outv = VECTOR(kiln_f32_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_saxpy_f32(a, &xv, &yv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_dot(int64_t calls, int64_t n, double *x, double *y, double *result) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), yv = VECTOR(kiln_f64_1d, y, n);
  kiln_error error = {0};
  double value = 0.0;
  TIMED_BATCH(calls, value = kernels_kiln_dot(&xv, &yv, &error));
  *result = value;
  return checked(seconds_per_call, &error);
}

double time_sum_f64(int64_t calls, int64_t n, double *x, double *result) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n);
  kiln_error error = {0};
  double value = 0.0;
  TIMED_BATCH(calls, value = kernels_kiln_sum_f64(&xv, &error));
  *result = value;
  return checked(seconds_per_call, &error);
}

double time_sum_i64(int64_t calls, int64_t n, int64_t *x, int64_t *result) {
  kiln_i64_1d xv = VECTOR(kiln_i64_1d, x, n);
  kiln_error error = {0};
  int64_t value = 0;
  TIMED_BATCH(calls, value = kernels_kiln_sum_i64(&xv, &error));
  *result = value;
  return checked(seconds_per_call, &error);
}

double time_l2norm(int64_t calls, int64_t n, double *x, double *result) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n);
  kiln_error error = {0};
  double value = 0.0;
  TIMED_BATCH(calls, value = kernels_kiln_l2norm(&xv, &error));
  *result = value;
  return checked(seconds_per_call, &error);
}

double time_expsqrt(int64_t calls, int64_t n, double *x, double *out) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), outv = VECTOR(kiln_f64_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_expsqrt(&xv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_clip(int64_t calls, int64_t n, double *x, double low, double high, double *out) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), outv = VECTOR(kiln_f64_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_clip(&xv, low, high, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_stencil1d(int64_t calls, int64_t n, double *x, double *out) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), outv = VECTOR(kiln_f64_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_stencil1d(&xv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_prefix_sum(int64_t calls, int64_t n, double *x, double *out) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n), outv = VECTOR(kiln_f64_1d, out, n);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_prefix_sum(&xv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_histogram(int64_t calls, int64_t n, double *x, int64_t nbins, int64_t *counts) {
  kiln_f64_1d xv = VECTOR(kiln_f64_1d, x, n);
  kiln_i64_1d countsv = VECTOR(kiln_i64_1d, counts, nbins);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_histogram(&xv, nbins, &countsv, &error));
  return checked(seconds_per_call, &error);
}

double time_jacobi2d(int64_t calls, int64_t rows, int64_t cols, double *u, double *out) {
  kiln_f64_2d uv = MATRIX(kiln_f64_2d, u, rows, cols);
  kiln_f64_2d outv = MATRIX(kiln_f64_2d, out, rows, cols);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_jacobi2d(&uv, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_matmul(int64_t calls, int64_t n, int64_t m, int64_t p, double *a, double *b,
                   double *c) {
  kiln_f64_2d av = MATRIX(kiln_f64_2d, a, n, m), bv = MATRIX(kiln_f64_2d, b, m, p);
  kiln_f64_2d cv = MATRIX(kiln_f64_2d, c, n, p);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_matmul(&av, &bv, &cv, &error));
  return checked(seconds_per_call, &error);
}

double time_mandelbrot(int64_t calls, int64_t height, int64_t width, double xmin, double xmax,
                       double ymin, double ymax, int64_t maxiter, int64_t *out) {
  kiln_i64_2d outv = MATRIX(kiln_i64_2d, out, height, width);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_mandelbrot(xmin, xmax, ymin, ymax, maxiter, &outv, &error));
  return checked(seconds_per_call, &error);
}

double time_pairwise(int64_t calls, int64_t m, int64_t d, double *points, double *distances) {
  kiln_f64_2d pointsv = MATRIX(kiln_f64_2d, points, m, d);
  kiln_f64_2d distancesv = MATRIX(kiln_f64_2d, distances, m, m);
  kiln_error error = {0};
  TIMED_BATCH(calls, kernels_kiln_pairwise(&pointsv, &distancesv, &error));
  return checked(seconds_per_call, &error);
}
