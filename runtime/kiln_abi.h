/* The C ABI of Kiln-compiled code: how a compiled function reports a Python
   exception to its caller.

   This file is the one source of that ABI. kilnc embeds it: the C++ side
   (the kiln dialect's ErrorKind enum and kiln-lower-checks' stores) is tied
   to it by static_asserts (lib/Dialect/KilnAbi.h), every generated <mod>.h
   carries a verbatim copy of it, the CPython runtime (kiln_runtime.h)
   includes it, and `kilnc --print-abi` prints it as JSON for the Python
   side. Plain C11 with <stdint.h> only: C and C++ callers include it. */
#ifndef KILN_ABI_H
#define KILN_ABI_H

#include <stdint.h>

/* Each exception kind a compiled function can raise, as
   X(number, Python exception name, enumerator suffix). The numbers are ABI:
   never renumber, only append. */
#define KILN_ERROR_KINDS(X)                                                   \
  X(1, ZeroDivisionError, ZERO_DIVISION_ERROR)                                \
  X(2, IndexError, INDEX_ERROR)                                               \
  X(3, ValueError, VALUE_ERROR)                                               \
  X(4, OverflowError, OVERFLOW_ERROR)                                         \
  X(5, AssertionError, ASSERTION_ERROR)                                       \
  X(6, RuntimeError, RUNTIME_ERROR)                                           \
  X(7, TypeError, TYPE_ERROR)                                                 \
  X(8, MemoryError, MEMORY_ERROR)                                             \
  X(9, RecursionError, RECURSION_ERROR)

/* kiln_error.kind: KILN_OK, or KILN_ZERO_DIVISION_ERROR, KILN_INDEX_ERROR,
   ... one per line of KILN_ERROR_KINDS. */
enum kiln_error_kind {
  KILN_OK = 0,
#define KILN_ERROR_KIND_ENUMERATOR(number, name, suffix) KILN_##suffix = number,
  KILN_ERROR_KINDS(KILN_ERROR_KIND_ENUMERATOR)
#undef KILN_ERROR_KIND_ENUMERATOR
};

/* Filled by a function that raises; untouched otherwise. Zero it before the
   call and test `kind` after it: when it is not KILN_OK the results are
   zero and `message` (with each {} replaced by args[i]) says why;
   line/column locate the Python source. */
typedef struct kiln_error {
  int32_t kind;
  int32_t line;
  int32_t column;
  int32_t num_args;
  const char *message;
  int64_t args[24];     /* numpy's broadcast message: three 8-D shapes */
} kiln_error;

/* How many integers a message can interpolate (its `{}` placeholders). */
#define KILN_ERROR_MAX_ARGS (sizeof(((kiln_error *)0)->args) / sizeof(int64_t))

/* The most dimensions an array of Kiln-compiled code has (arguments,
   results and arrays inside). */
#define KILN_MAX_NDIM 8

#endif /* KILN_ABI_H */
