/* The CPU level API of runtime/kiln_dispatch.c, for its C++ and Python
   users (kilnc links it; kiln/cpu_levels.py loads libkiln_cpu.so). The
   artifacts' resolvers call __kiln_cpu_level directly. */
#ifndef KILN_CPU_LEVEL_H
#define KILN_CPU_LEVEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1..4: the x86-64 microarchitecture level of this CPU and OS, lowered to
   `forced` (a KILN_CPU_LEVEL value, v1..v4; NULL or anything else: not
   lowered). */
int kiln_cpu_level_forced_to(const char *forced);

/* The level the artifacts' IFUNC resolvers pick by (KILN_CPU_LEVEL read
   from the environment once). */
int __kiln_cpu_level(void);

/* CPUID identity and feature words and XCR0 (up to 12 words): a key for
   code compiled for `native`. Returns the number of words written. */
int kiln_cpu_signature(unsigned int *words, int count);

#ifdef __cplusplus
}
#endif

#endif
