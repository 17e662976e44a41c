/* Calls the list kernels of lists.mlir through the C ABI. */
#include "kiln_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kiln_list *k_range_list(int64_t n, kiln_error *error);
int64_t k_last_of_copy(kiln_list *xs, kiln_error *error);
void k_sort_in_place(kiln_list *xs, kiln_error *error);
double k_pop_last(kiln_list *xs, kiln_error *error);

/* A list the way a C caller makes one: malloc'ed, one reference. */
static kiln_list *make_list(int32_t item_size, int64_t length, const void *items) {
  kiln_list *list = malloc(sizeof *list);
  list->length = length;
  list->capacity = length ? length : 1;
  list->items = malloc((size_t)(list->capacity * item_size));
  memcpy(list->items, items, (size_t)(length * item_size));
  list->refcount = 1;
  list->journal_index = -1;
  list->item_size = item_size;
  list->flags = 0;
  list->item_kind = 0;
  list->field_references = 0;
  return list;
}

int main(void) {
  kiln_error error = {0};
  kiln_list *xs = k_range_list(10, &error);
  int64_t sum = 0;
  for (int64_t i = 0; i < xs->length; ++i)
    sum += ((int64_t *)xs->items)[i];
  printf("range_list(10): length %lld capacity>=10 sum %lld refcount %lld\n",
         (long long)xs->length, (long long)sum, (long long)xs->refcount);
  if (xs->capacity < 10 || xs->journal_index != -1)
    return 1;

  kiln_list *empty = k_range_list(0, &error);
  printf("range_list(0): length %lld\n", (long long)empty->length);

  printf("sum_negative_index: %lld\n", (long long)k_last_of_copy(xs, &error));
  kiln_list_drop(xs);

  memset(&error, 0, sizeof error);
  (void)k_last_of_copy(empty, &error);
  char text[128];
  printf("index error: kind %d line %d message %s\n", (int)error.kind, (int)error.line,
         kiln_error_text(&error, text, sizeof text));
  /* The raising call left the journal as it found it: a list returned by
     the next call is the caller's alone (out of the journal). */
  kiln_list *after = k_range_list(3, &error);
  printf("after the error: length %lld journal_index %lld\n", (long long)after->length,
         (long long)after->journal_index);
  kiln_list_drop(after);
  kiln_list_drop(empty);

  int64_t unsorted[] = {5, 3, 9, 1, 2};
  kiln_list *ys = make_list(8, 5, unsorted);
  memset(&error, 0, sizeof error);
  k_sort_in_place(ys, &error);
  printf("sorted:");
  for (int64_t i = 0; i < ys->length; ++i)
    printf(" %lld", (long long)((int64_t *)ys->items)[i]);
  printf(" modified %d\n", (int)(ys->flags & KILN_LIST_MODIFIED));
  kiln_list_drop(ys);

  kiln_list *none = make_list(8, 0, NULL);
  memset(&error, 0, sizeof error);
  (void)k_pop_last(none, &error);
  printf("pop from empty: kind %d message %s\n", (int)error.kind,
         kiln_error_text(&error, text, sizeof text));
  kiln_list_drop(none);
  puts("done");
  return 0;
}
