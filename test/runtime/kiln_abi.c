// runtime/kiln_abi.h is plain C11 and C++ (C callers of lib<mod>.so and
// kilnc's C++ both include it): it compiles warning-free as either, and
// what it promises holds.
// RUN: %clang -std=c11 -Wall -Wextra -Wpedantic -Werror -I%kiln_runtime_dir %s -o %t
// RUN: %t | FileCheck %s
// (`= {0}` below is C's idiom for a zeroed record; C++ warns about it.)
// RUN: %clangxx -x c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -I%kiln_runtime_dir \
// RUN:   -Wno-missing-field-initializers -fsyntax-only %s

#include "kiln_abi.h"

#include <stddef.h>
#include <stdio.h>

static int failures = 0;
#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      printf("FAILED: %s (line %d)\n", #condition, __LINE__);                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main(void) {
  // A zeroed record means "no error": callers write `kiln_error e = {0};`.
  kiln_error none = {0};
  EXPECT(none.kind == KILN_OK && KILN_OK == 0);

  // The kinds are numbered 1, 2, 3, ... in list order, and each has its
  // KILN_<SUFFIX> enumerator.
  int expected = 1;
#define PRINT_KIND(number, name, suffix)                                       \
  EXPECT(number == expected++ && KILN_##suffix == number);                     \
  printf("%d %s\n", number, #name);
  KILN_ERROR_KINDS(PRINT_KIND)
#undef PRINT_KIND
  // CHECK: 1 ZeroDivisionError
  // CHECK-NEXT: 2 IndexError
  // CHECK-NEXT: 3 ValueError
  // CHECK-NEXT: 4 OverflowError
  // CHECK-NEXT: 5 AssertionError
  // CHECK-NEXT: 6 RuntimeError
  // CHECK-NEXT: 7 TypeError
  // CHECK-NEXT: 8 MemoryError
  // CHECK-NEXT: 9 RecursionError

  // The message operands fit the placeholders kiln.check allows: 24, the
  // three 8-D shapes of a broadcasting error (two operands and the output).
  EXPECT(KILN_ERROR_MAX_ARGS == 24);
  kiln_error filled = {KILN_VALUE_ERROR, 3, 7, 6, "{} {} {} {} {} {}", {1, 2, 3, 4, 5, 6}};
  EXPECT(filled.args[5] == 6 && filled.args[KILN_ERROR_MAX_ARGS - 1] == 0);

  // The layout kiln-lower-checks stores into (printed by kilnc
  // --print-capabilities; test/python/test_abi.py compares the two).
  printf("layout %zu %zu %zu %zu %zu %zu size %zu\n", offsetof(kiln_error, kind),
         offsetof(kiln_error, line), offsetof(kiln_error, column),
         offsetof(kiln_error, num_args), offsetof(kiln_error, message),
         offsetof(kiln_error, args), sizeof(kiln_error));
  // CHECK: layout 0 4 8 12 16 24 size 216

  printf("%s\n", failures ? "FAILED" : "PASSED");
  // CHECK: PASSED
  return failures != 0;
}
