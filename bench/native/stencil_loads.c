/* Why kiln-vectorize shares stencil loads only where one shuffle does it.
   A 3-point stencil out[i] = 0.25*x[i-1] + 0.5*x[i] + 0.25*x[i+1] on
   256-bit vectors of float64, two ways: three unaligned loads per output
   vector, or two loads (x[i-1..], x[i+1..]) and x[i..] made from them by
   vperm2f128 + vshufpd, as kiln-vectorize's shared loads would. Both
   compute the same bits (no contraction), checked before timing.
     clang-22 -O3 -mavx2 -ffp-contract=off bench/native/stencil_loads.c -o stencil_loads
     ./stencil_loads            prints ns per call for n = 1024 and 16384 (L1, L2) */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void three_loads(int64_t n, const double *x, double *out) {
  const __m256d quarter = _mm256_set1_pd(0.25), half = _mm256_set1_pd(0.5);
  int64_t i = 1;
  for (; i + 4 <= n - 1; i += 4) {
    __m256d left = _mm256_loadu_pd(x + i - 1), middle = _mm256_loadu_pd(x + i),
            right = _mm256_loadu_pd(x + i + 1);
    __m256d sum = _mm256_add_pd(_mm256_mul_pd(quarter, left), _mm256_mul_pd(half, middle));
    _mm256_storeu_pd(out + i, _mm256_add_pd(sum, _mm256_mul_pd(quarter, right)));
  }
  for (; i < n - 1; i++)
    out[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

static void shared_loads(int64_t n, const double *x, double *out) {
  const __m256d quarter = _mm256_set1_pd(0.25), half = _mm256_set1_pd(0.5);
  int64_t i = 1;
  for (; i + 4 <= n - 1; i += 4) {
    __m256d left = _mm256_loadu_pd(x + i - 1), right = _mm256_loadu_pd(x + i + 1);
    /* lanes 1, 2, 3 of left and lane 2 of right: x[i .. i+3] */
    __m256d upper = _mm256_permute2f128_pd(left, right, 0x31);
    __m256d middle = _mm256_shuffle_pd(left, upper, 0x5);
    __m256d sum = _mm256_add_pd(_mm256_mul_pd(quarter, left), _mm256_mul_pd(half, middle));
    _mm256_storeu_pd(out + i, _mm256_add_pd(sum, _mm256_mul_pd(quarter, right)));
  }
  for (; i < n - 1; i++)
    out[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

typedef void (*kernel)(int64_t, const double *, double *);

static double best_ns(kernel run, int64_t n, const double *x, double *out) {
  int64_t calls = 20000000 / n;
  double best = 1e30;
  for (int repeat = 0; repeat < 9; repeat++) {
    double start = seconds();
    for (int64_t c = 0; c < calls; c++)
      run(n, x, out);
    double elapsed = (seconds() - start) / calls * 1e9;
    if (elapsed < best)
      best = elapsed;
  }
  return best;
}

int main(void) {
  static const int64_t sizes[] = {1024, 16384};
  for (int s = 0; s < 2; s++) {
    int64_t n = sizes[s];
    double *x = malloc(n * sizeof *x), *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    for (int64_t i = 0; i < n; i++)
      x[i] = (double)rand() / RAND_MAX;
    three_loads(n, x, a);
    shared_loads(n, x, b);
    if (memcmp(a, b, n * sizeof *a) != 0) {
      fprintf(stderr, "the two kernels disagree at n = %lld\n", (long long)n);
      return 1;
    }
    double three = best_ns(three_loads, n, x, a), shared = best_ns(shared_loads, n, x, b);
    printf("n = %6lld: three loads %8.1f ns, shared loads %8.1f ns, shared / three %.2f\n",
           (long long)n, three, shared, shared / three);
    free(x);
    free(a);
    free(b);
  }
  return 0;
}
