// The list runtime (runtime/kiln_list.c) and the containers' journal
// (runtime/kiln_journal.c): the journal that frees a raising
// call's lists, CPython's growth, and the sort's order (stable; `reverse`
// keeps equal items in order, as CPython's does). Under ASan's leak
// checker: a list the journal forgot would be reported.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
#include "kiln_list.c"

#include <stdio.h>

static int64_t journal_count(void) { return kiln_journal_size(); }

int main(void) {
  // A call that makes three lists, frees one and raises: the journal frees
  // the other two and is back where it was.
  int64_t mark = kiln_journal_enter();
  kiln_list *a = kiln_list_new(8, 0);
  kiln_list *b = kiln_list_new(8, 100);
  kiln_list *c = kiln_list_new(1, 1);
  kiln_list_release(b);
  printf("made: %lld in the journal\n", (long long)journal_count());
  (void)a, (void)c;
  kiln_journal_unwind(mark);
  // CHECK: made: 3 in the journal
  printf("after unwind: %lld, depth %lld\n", (long long)journal_count(),
         (long long)kiln_thread_journal()->depth);
  // CHECK: after unwind: 0, depth 0

  // Nested calls: the inner function's result stays in the journal (the
  // outer one may still raise); the outermost return hands it out.
  int64_t outer = kiln_journal_enter();
  int64_t inner = kiln_journal_enter();
  kiln_list *result = kiln_list_new(8, 0);
  kiln_journal_leave(inner);
  printf("inner result journaled: %d\n", result->journal_index >= 0);
  // CHECK: inner result journaled: 1
  kiln_journal_leave(outer);
  printf("outer result handed out: %lld\n", (long long)result->journal_index);
  // CHECK: outer result handed out: -1
  kiln_list_release(result);

  // Growth: 0..999 appended, capacities as CPython's rule gives them.
  mark = kiln_journal_enter();
  kiln_list *grown = kiln_list_new(8, 0);
  int64_t reallocations = 0, capacity = grown->capacity;
  for (int64_t i = 0; i < 1000; ++i) {
    kiln_list_append_i64(grown, i);
    if (grown->capacity != capacity)
      ++reallocations, capacity = grown->capacity;
  }
  printf("grown: length %lld, %lld reallocations, capacity %lld\n", (long long)grown->length,
         (long long)reallocations, (long long)grown->capacity);
  // CHECK: grown: length 1000, {{[1-4][0-9]}} reallocations, capacity {{1[01][0-9][0-9]}}
  kiln_list_release(grown);

  // Stability: -0.0 == 0.0, so their order is kept, forwards and reversed.
  kiln_list *signs = kiln_list_new(8, 0);
  double values[] = {0.0, 1.0, -0.0, -1.0, 0.0, -0.0};
  for (int i = 0; i < 6; ++i)
    kiln_list_append_f64(signs, values[i]);
  kiln_list_sort_f64(signs, 0);
  for (int i = 0; i < 6; ++i)
    printf("%g ", ((double *)signs->items)[i]);
  printf("\n");
  // CHECK: -1 0 -0 0 -0 1
  kiln_list_clear(signs);
  for (int i = 0; i < 6; ++i)
    kiln_list_append_f64(signs, values[i]);
  kiln_list_sort_f64(signs, 1);
  for (int i = 0; i < 6; ++i)
    printf("%g ", ((double *)signs->items)[i]);
  printf("\n");
  // CHECK: 1 0 -0 0 -0 -1
  kiln_list_release(signs);

  // A long sort (merges across many runs) against insertion order.
  kiln_list *many = kiln_list_new(8, 0);
  unsigned seed = 7;
  for (int i = 0; i < 5000; ++i) {
    seed = seed * 1103515245u + 12345u;
    kiln_list_append_i64(many, (int64_t)(seed >> 8) % 1000 - 500);
  }
  kiln_list_sort_i64(many, 0);
  int ordered = 1;
  for (int64_t i = 1; i < many->length; ++i)
    ordered &= ((int64_t *)many->items)[i - 1] <= ((int64_t *)many->items)[i];
  printf("5000 sorted: %d\n", ordered);
  // CHECK: 5000 sorted: 1
  kiln_journal_leave(mark);
  kiln_list_release(many);

  // insert clamps as Python does; repeat; extend with itself.
  kiln_list *small = kiln_list_new(8, 0);
  kiln_list_append_i64(small, 1);
  ((int64_t *)small->items)[kiln_list_open_slot(small, -100)] = 0;
  ((int64_t *)small->items)[kiln_list_open_slot(small, 100)] = 2;
  kiln_list_extend(small, small);
  kiln_list *twice = kiln_list_repeat(small, 2);
  for (int64_t i = 0; i < twice->length; ++i)
    printf("%lld ", (long long)((int64_t *)twice->items)[i]);
  printf("\n");
  // CHECK: 0 1 2 0 1 2 0 1 2 0 1 2
  kiln_list_release(small);
  kiln_list_release(twice);
  return 0;
}
