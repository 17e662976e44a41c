/* 512-bit FMA throughput. The peers' peakflops.c measures 256-bit (ymm)
   FMAs only; on a host with AVX-512, -march=native code (Kiln's, clang's)
   uses zmm registers, so the compute limit a kernel is compared against
   must be the zmm rate. Many independent accumulator chains hide the FMA
   latency; the loop count comes from the command line so the compiler
   cannot fold the chains.
     fma_peak_avx512 [ITERATIONS]   prints one JSON object */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef __AVX512F__
#include <immintrin.h>

#define CHAINS 16

static double monotonic_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static volatile double sink;

__attribute__((noinline)) static double chains_f64(long iterations, double seed) {
  __m512d acc[CHAINS];
  for (int k = 0; k < CHAINS; ++k) acc[k] = _mm512_set1_pd(seed + 0.001 * k);
  const __m512d scale = _mm512_set1_pd(0.9999999), shift = _mm512_set1_pd(1e-7);
  for (long i = 0; i < iterations; ++i)
    for (int k = 0; k < CHAINS; ++k) acc[k] = _mm512_fmadd_pd(acc[k], scale, shift);
  __m512d total = acc[0];
  for (int k = 1; k < CHAINS; ++k) total = _mm512_add_pd(total, acc[k]);
  return _mm512_reduce_add_pd(total);
}

__attribute__((noinline)) static double chains_f32(long iterations, double seed) {
  __m512 acc[CHAINS];
  for (int k = 0; k < CHAINS; ++k) acc[k] = _mm512_set1_ps((float)seed + 0.001f * k);
  const __m512 scale = _mm512_set1_ps(0.99999f), shift = _mm512_set1_ps(1e-5f);
  for (long i = 0; i < iterations; ++i)
    for (int k = 0; k < CHAINS; ++k) acc[k] = _mm512_fmadd_ps(acc[k], scale, shift);
  __m512 total = acc[0];
  for (int k = 1; k < CHAINS; ++k) total = _mm512_add_ps(total, acc[k]);
  return _mm512_reduce_add_ps(total);
}

/* Best of several runs, in GFLOP/s: an FMA counts as two flops per lane. */
static double gflops(double (*chains)(long, double), long iterations, int lanes, int threads) {
  double best = 1e30;
  for (int run = 0; run < 7; ++run) {
    double start = monotonic_seconds(), total = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    total += chains(iterations, 1.0 + omp_get_thread_num());
    double elapsed = monotonic_seconds() - start;
    sink = total;
    if (elapsed < best) best = elapsed;
  }
  return 2.0 * lanes * CHAINS * (double)iterations * threads / best / 1e9;
}

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 20000000;
  int threads = omp_get_max_threads();
  printf("{\"isa\": \"avx512f\", \"zmm_f64_gflops_1core\": %.3f, \"zmm_f32_gflops_1core\": %.3f, "
         "\"threads\": %d, \"zmm_f64_gflops_all\": %.3f}\n",
         gflops(chains_f64, iterations, 8, 1), gflops(chains_f32, iterations, 16, 1), threads,
         gflops(chains_f64, iterations, 8, threads));
  return 0;
}
#else
int main(void) {
  printf("{\"isa\": \"none\"}\n");
  return 0;
}
#endif
