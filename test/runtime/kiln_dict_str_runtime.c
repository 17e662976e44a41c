// Dicts and sets of str in the dict runtime (runtime/kiln_dict.c with
// kiln_str.c): equal texts are one key whatever their address and kind of
// storage; the dict holds a reference to each key and value of str; a
// replaced value, an erased entry, a cleared or freed dict give theirs
// back; a set's pop hands the element over; an unwound dict releases what
// lives on outside the journal. Under ASan's leak checker.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
#include "kiln_dict.c"
#include "kiln_list.c"
#include "kiln_str.c"

#include <stdio.h>

static int failures;

#define EXPECT(condition)                                                        \
  do {                                                                           \
    if (!(condition)) {                                                          \
      printf("FAILED line %d: %s\n", __LINE__, #condition);                      \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

static kiln_str *text(const char *utf8) { return kiln_str_from_utf8(utf8, (int64_t)strlen(utf8)); }
static uint64_t bits(kiln_str *str) { return (uint64_t)(uintptr_t)str; }

static void word_counts(void) {
  int64_t mark = kiln_journal_enter();
  kiln_dict *counts = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_INT, 0);
  const char *words[] = {"the", "cat", "sat", "on", "the", "mat", "ü", "the", "ü"};
  for (int i = 0; i < 9; ++i) {
    kiln_str *word = text(words[i]);   /* a new string each time: equal texts */
    int64_t slot = kiln_dict_find(counts, bits(word));
    kiln_dict_set(counts, bits(word), slot >= 0 ? counts->values[slot] + 1 : 1);
    kiln_str_release(word);
  }
  printf("counts:");
  for (int64_t slot = 0; slot < counts->used; ++slot)
    if (counts->live[slot]) {
      kiln_str *key = kiln_dict_str(counts->keys[slot]);
      printf(" %.*s=%lld", (int)(key->length * key->kind), (const char *)kiln_str_data(key),
             (long long)counts->values[slot]);
    }
  printf("\n");
  // CHECK: counts: the=3 cat=1 sat=1 on=1 mat=1 {{.*}}=2

  // A wider copy of "cat" (kiln_str_from_data narrows it): the same key.
  uint32_t wide[] = {'c', 'a', 't'};
  kiln_str *cat = kiln_str_from_data(4, wide, 3);
  EXPECT(kiln_dict_find(counts, bits(cat)) == 1);
  kiln_dict_erase_at(counts, 1);
  EXPECT(kiln_dict_find(counts, bits(cat)) == -1);

  kiln_dict *copy = kiln_dict_copy(counts);
  EXPECT(kiln_dict_equal(copy, counts) == 1);
  kiln_dict_clear(counts);
  EXPECT(kiln_dict_equal(copy, counts) == 0);
  kiln_dict_update(counts, copy);
  EXPECT(kiln_dict_equal(copy, counts) == 1);

  // Values of str: a replaced value is released.
  kiln_dict *names = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_STR, 0);
  kiln_str *first = text("first"), *second = text("second");
  kiln_dict_set(names, 7, bits(first));
  kiln_dict_set(names, 7, bits(second));
  EXPECT(first->refcount == 1 && second->refcount == 2);
  kiln_dict_store_value_str(names, 0, first);
  EXPECT(first->refcount == 2 && second->refcount == 1);
  kiln_str_release(first);
  kiln_str_release(second);

  kiln_str_release(cat);
  kiln_dict_release(counts);
  kiln_dict_release(copy);
  kiln_dict_release(names);
  kiln_journal_leave(mark);
  EXPECT(kiln_journal_size() == 0);
}

static void sets(void) {
  int64_t mark = kiln_journal_enter();
  kiln_dict *seen = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_NONE, 0);
  kiln_dict *other = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_NONE, 0);
  const char *a[] = {"xx", "yy", "zzz"}, *b[] = {"yy", "w"};
  for (int i = 0; i < 3; ++i) {
    kiln_str *item = text(a[i]);
    kiln_dict_set(seen, bits(item), 0);
    kiln_str_release(item);
  }
  for (int i = 0; i < 2; ++i) {
    kiln_str *item = text(b[i]);
    kiln_dict_set(other, bits(item), 0);
    kiln_str_release(item);
  }
  kiln_dict *both = kiln_set_combine(seen, other, KILN_SET_INTERSECTION);
  kiln_dict *either = kiln_set_combine(seen, other, KILN_SET_UNION);
  EXPECT(both->length == 1 && either->length == 4);
  kiln_set_update(seen, other, KILN_SET_SYMMETRIC_DIFFERENCE);
  EXPECT(seen->length == 3);
  kiln_str *yy = text("yy");
  EXPECT(kiln_set_discard(either, bits(yy)) == 1 && either->length == 3);
  kiln_str_release(yy);
  int64_t slot = kiln_set_pop_slot(either);
  kiln_str *popped = kiln_set_take_str(either, slot);
  EXPECT(popped->refcount == 2);   /* the set's reference moved to the caller; `seen` holds one */
  printf("popped: %.*s\n", (int)popped->length, (const char *)kiln_str_data(popped));
  // CHECK: popped: xx
  kiln_str_release(popped);
  kiln_dict_release(seen);
  kiln_dict_release(other);
  kiln_dict_release(both);
  kiln_dict_release(either);
  kiln_journal_leave(mark);
  EXPECT(kiln_journal_size() == 0);
}

static void unwinding(void) {
  // The caller's dict (made outside Kiln code): its strings outlive an unwind.
  kiln_dict *callers = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_STR, 0);
  int64_t mark = kiln_journal_enter();
  kiln_dict *local = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_STR, 0);
  kiln_str *key = text("key"), *value = text("value");
  kiln_dict_set(local, bits(key), bits(value));
  kiln_dict_set(callers, bits(key), bits(value));   /* the caller's dict holds both */
  EXPECT(key->outside_references == 1 && value->outside_references == 1);
  /* the names still hold `key` and `value` when the call raises */
  kiln_dict *copied = kiln_dict_copy(callers);
  (void)copied;
  kiln_journal_unwind(mark);
  EXPECT(callers->length == 1);
  kiln_str *entry = kiln_dict_str(callers->values[0]);
  EXPECT(entry->refcount == 1 && kiln_dict_str(callers->keys[0])->refcount == 1);
  printf("caller's value: %.*s\n", (int)entry->length, (const char *)kiln_str_data(entry));
  // CHECK: caller's value: value
  kiln_dict_release(callers);
  EXPECT(kiln_journal_size() == 0);
}

int main(void) {
  word_counts();
  sets();
  unwinding();
  printf("failures: %d\n", failures);
  // CHECK: failures: 0
  return failures != 0;
}
