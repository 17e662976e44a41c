/* Which version of a multi-versioned Kiln artifact runs (kilnc
   --target-cpu=portable, the default of `kiln build`): the x86-64
   microarchitecture level of this CPU and OS, 2, 3 or 4.

   Each kernel is compiled for x86-64-v2, v3 (AVX2, FMA, BMI2, ...) and v4
   (AVX-512 F/BW/CD/DQ/VL); every public symbol is an IFUNC whose resolver,
   run once by the dynamic loader, calls __kiln_cpu_level() and picks the
   highest version not above it. KILN_CPU_LEVEL=v2|v3|v4 lowers the level
   (tests, debugging); it never raises it above what the CPU has, which
   would die of SIGILL. The function reads CPUID itself (a resolver runs
   before any constructor; no compiler runtime is linked) and is compiled
   for baseline x86-64.

   This file is the one source of the level rule. kilnc links it (the
   version its reports describe), and the Python frontend loads it as
   libkiln_cpu.so through ctypes (kiln/cpu_levels.py: the build record, the
   report, the cache's CPU key, the tests); /proc/cpuinfo is never read,
   since kernels and hypervisors edit its flag list. */
#include "kiln_cpu_level.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>

__attribute__((target("arch=x86-64"))) static unsigned long long kiln_dispatch_xgetbv(void) {
  unsigned int eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((unsigned long long)edx << 32) | eax;
}

__attribute__((target("arch=x86-64"))) static int kiln_detect_cpu_level(void) {
  unsigned int a, b, c, d;
  unsigned int c1 = 0, b7 = 0, c81 = 0;
  if (__get_cpuid(1, &a, &b, &c, &d))
    c1 = c;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
    b7 = b;
  if (__get_cpuid(0x80000001, &a, &b, &c, &d))
    c81 = c;
  /* v2: SSSE3, SSE4.1, SSE4.2, POPCNT, CMPXCHG16B. */
  int v2 = ((c1 >> 9) & 1) && ((c1 >> 19) & 1) && ((c1 >> 20) & 1) && ((c1 >> 23) & 1) &&
           ((c1 >> 13) & 1);
  if (!v2)
    return 1;
  int osxsave = (c1 >> 27) & 1;
  unsigned long long xcr0 = osxsave ? kiln_dispatch_xgetbv() : 0;
  int ymm_state = (xcr0 & 0x6) == 0x6;
  int zmm_state = (xcr0 & 0xe6) == 0xe6;
  /* v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE (and the OS saving
     ymm registers). */
  int v3 = ymm_state && ((c1 >> 28) & 1) && ((b7 >> 5) & 1) && ((b7 >> 3) & 1) &&
           ((b7 >> 8) & 1) && ((c1 >> 29) & 1) && ((c1 >> 12) & 1) && ((c81 >> 5) & 1) &&
           ((c1 >> 22) & 1);
  if (!v3)
    return 2;
  /* v4: AVX-512 F, BW, CD, DQ, VL (and the OS saving zmm and mask registers). */
  int v4 = zmm_state && ((b7 >> 16) & 1) && ((b7 >> 30) & 1) && ((b7 >> 28) & 1) &&
           ((b7 >> 17) & 1) && ((b7 >> 31) & 1);
  return v4 ? 4 : 3;
}
#else
static int kiln_detect_cpu_level(void) { return 2; }
#endif

/* KILN_CPU_LEVEL's value, or NULL. A program linked with -l<mod> runs the
   resolvers while the dynamic loader relocates, before libc's own start-up
   has set `environ`: then the variable is read from /proc/self/environ. */
extern char **environ;
static char kiln_forced_level[4];

__attribute__((target("arch=x86-64"))) static const char *kiln_forced_cpu_level(void) {
  if (environ)
    return getenv("KILN_CPU_LEVEL");
  int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  static const char name[] = "KILN_CPU_LEVEL=";
  char buffer[4096];
  size_t matched = 0, kept = 0; /* of `name`; of the value */
  int at_start = 1, in_value = 0;
  const char *result = NULL;
  ssize_t got;
  while (!result && (got = read(fd, buffer, sizeof buffer)) > 0) {
    for (ssize_t i = 0; i < got && !result; ++i) {
      char c = buffer[i];
      if (in_value) {
        if (c == '\0') {
          kiln_forced_level[kept] = '\0';
          result = kiln_forced_level;
        } else if (kept + 1 < sizeof kiln_forced_level) {
          kiln_forced_level[kept++] = c;
        } else {
          in_value = 0; /* too long to be v2, v3 or v4 */
        }
      } else if (c == '\0') {
        at_start = 1;
        matched = 0;
      } else if (at_start && c == name[matched]) {
        if (++matched == sizeof name - 1) {
          in_value = 1;
          kept = 0;
        }
      } else {
        at_start = 0;
      }
    }
  }
  close(fd);
  return result;
}

/* The level this CPU and OS reach, lowered to `forced` (a KILN_CPU_LEVEL
   value: v1..v4; anything else is ignored) when that is lower. The one
   place KILN_CPU_LEVEL's value is interpreted. */
__attribute__((target("arch=x86-64"))) int kiln_cpu_level_forced_to(const char *forced) {
  int detected = kiln_detect_cpu_level();
  if (forced && forced[0] == 'v' && forced[1] >= '1' && forced[1] <= '4' && !forced[2] &&
      forced[1] - '0' < detected)
    detected = forced[1] - '0';
  return detected;
}

/* The level the resolvers pick by: detected once, KILN_CPU_LEVEL applied. */
__attribute__((target("arch=x86-64"))) int __kiln_cpu_level(void) {
  static int level;
  if (!level)
    level = kiln_cpu_level_forced_to(kiln_forced_cpu_level());
  return level;
}

/* CPUID's identity and feature words (vendor, family/model/stepping, leaves
   1, 7 and 0x80000001) and XCR0, into words[0..count): what `native`
   code generation depends on, as a key for caches of natively compiled
   code. Returns how many words it wrote. */
__attribute__((target("arch=x86-64"))) int kiln_cpu_signature(unsigned int *words, int count) {
  unsigned int raw[12] = {0};
#if defined(__x86_64__)
  unsigned int a, b, c, d;
  if (__get_cpuid(0, &a, &b, &c, &d)) {
    raw[0] = b;
    raw[1] = d;
    raw[2] = c;
  }
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    raw[3] = a;
    raw[4] = c;
    raw[5] = d;
    if ((c >> 27) & 1)
      raw[11] = (unsigned int)kiln_dispatch_xgetbv();
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    raw[6] = b;
    raw[7] = c;
    raw[8] = d;
  }
  if (__get_cpuid(0x80000001, &a, &b, &c, &d)) {
    raw[9] = c;
    raw[10] = d;
  }
#endif
  int written = 0;
  for (; written < count && written < 12; ++written)
    words[written] = raw[written];
  return written;
}
