// Lists of str in the list runtime (runtime/kiln_list.c with kiln_str.c):
// the list holds a reference to each item; a string stored into a list
// leaves the journal, so a raising call's unwind frees the strings it made
// exactly once -- those only its own lists held go with them, one it
// stored into its caller's list lives on there -- and a string popped out
// goes back into the journal. Every operation that copies, replaces or
// drops items, against a plain model; under ASan's leak checker (a count
// off by one either way is a leak or a use after free).
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
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

static int item_is(const kiln_list *list, int64_t i, const char *utf8) {
  kiln_str *expected = text(utf8);
  int same = kiln_str_equal(((kiln_str **)list->items)[i], expected);
  kiln_str_release(expected);
  return same;
}

/* The items as "a,b,c" (ASCII items only). */
static void show(const char *name, const kiln_list *list) {
  printf("%s:", name);
  for (int64_t i = 0; i < list->length; ++i) {
    const kiln_str *item = ((kiln_str **)list->items)[i];
    printf(" %.*s", (int)item->length, (const char *)kiln_str_data(item));
  }
  printf("\n");
}

static kiln_list *words(const char *const *items, int count) {
  kiln_list *list = kiln_list_new_of(8, count, KILN_ITEM_STR);
  for (int i = 0; i < count; ++i) {
    kiln_str *item = text(items[i]);
    kiln_list_append_str(list, item);
    kiln_str_release(item);   /* the list's reference is the only one now */
  }
  return list;
}

static void operations(void) {
  int64_t mark = kiln_journal_enter();
  const char *const names[] = {"pear", "apple", "fig", "apple", "kiwi"};
  kiln_list *list = words(names, 5);
  // The list and its strings are the call's own: all in the journal.
  EXPECT(kiln_journal_size() == mark + 6);
  EXPECT(((kiln_str **)list->items)[0]->refcount == 1);

  kiln_list *copy = kiln_list_copy(list);
  kiln_list *both = kiln_list_concat(list, copy);
  kiln_list *twice = kiln_list_repeat(list, 2);
  kiln_list *odd = kiln_list_slice(list, 1, 0, 2, 1);
  EXPECT(((kiln_str **)list->items)[0]->refcount == 6);   /* list, copy, both x2, twice x2 */
  show("odd", odd);
  // CHECK: odd: apple apple

  kiln_str *apple = text("apple");
  EXPECT(kiln_list_find_str(list, apple) == 1);
  EXPECT(kiln_list_count_str(both, apple) == 4);
  EXPECT(kiln_list_equal_str(list, copy));
  EXPECT(!kiln_list_equal_str(list, odd));

  kiln_list_sort_str(copy, 0);
  show("sorted", copy);
  // CHECK: sorted: apple apple fig kiwi pear
  kiln_list_sort_str(copy, 1);
  show("reversed", copy);
  // CHECK: reversed: pear kiwi fig apple apple

  // Replacing an item with itself keeps it alive.
  kiln_str *same = ((kiln_str **)list->items)[2];
  kiln_list_store_str(list, 2, same);
  EXPECT(item_is(list, 2, "fig"));
  kiln_list_store_str(list, 0, apple);
  show("stored", list);
  // CHECK: stored: apple apple fig apple kiwi

  // pop: the item leaves with the list's reference.
  kiln_str *taken = kiln_list_take_str(list, 4);
  EXPECT(kiln_str_equal(taken, ((kiln_str **)copy->items)[1]) && item_is(list, 3, "apple"));
  EXPECT(taken->refcount == 6);   /* the list's reference moved to `taken` */
  kiln_str_release(taken);

  kiln_list_delete_slice(both, 0, 6, 2, 3);
  show("thinned", both);
  // CHECK: thinned: apple apple pear apple fig apple kiwi
  kiln_list_assign_slice(both, 1, 3, 1, 3, both);
  show("self assigned", both);
  // CHECK: self assigned: apple apple apple pear apple fig apple kiwi apple fig apple kiwi
  EXPECT(kiln_list_assign_slice(twice, 0, 10, 3, 3, odd) == -(4 + 1));   /* 4 selected, 2 given */
  EXPECT(kiln_list_assign_slice(twice, 0, 4, 3, 3, odd) == 1);
  show("extended", twice);
  // CHECK: extended: apple apple fig apple kiwi pear apple fig apple kiwi
  kiln_list_extend(odd, odd);
  show("extended itself", odd);
  // CHECK: extended itself: apple apple apple apple
  kiln_list_delete(odd, 0);
  kiln_list_clear(twice);
  EXPECT(twice->length == 0);

  kiln_str_release(apple);
  kiln_list_release(list);
  kiln_list_release(copy);
  kiln_list_release(both);
  kiln_list_release(twice);
  kiln_list_release(odd);
  kiln_journal_leave(mark);
  EXPECT(kiln_journal_size() == 0);
}

static void unwinding(void) {
  // The caller's list, made outside Kiln code (journal_index -1).
  const char *const names[] = {"old"};
  kiln_list *callers = words(names, 1);

  int64_t mark = kiln_journal_enter();
  kiln_list *local = kiln_list_new_of(8, 0, KILN_ITEM_STR);
  kiln_str *made = text("made here");    /* a name holds it through the raise */
  kiln_list_append_str(local, made);
  kiln_list_append_str(callers, made);   /* stored into the caller's list */
  EXPECT(made->journal_index >= 0 && made->outside_references == 1 && made->refcount == 3);
  kiln_str *dropped = text("stored, then dropped");
  kiln_list_append_str(callers, dropped);
  kiln_list_delete(callers, 2);           /* the caller's list lets go of it again */
  EXPECT(dropped->outside_references == 0);
  kiln_str *alone = text("only a name holds me");
  kiln_str *popped = kiln_list_take_str(callers, 0);   /* "old" is the caller's no more */
  EXPECT(popped->journal_index >= 0);
  kiln_list *copied = kiln_list_copy(callers);          /* a second local holder of made */
  (void)alone;
  (void)copied;
  kiln_journal_unwind(mark);   /* the call raised: local, copied, alone and popped go */

  EXPECT(callers->length == 1 && item_is(callers, 0, "made here"));
  /* only the caller's reference is left; out of the journal */
  EXPECT(made->refcount == 1 && made->outside_references == 0 && made->journal_index == -1);
  show("caller's list", callers);
  // CHECK: caller's list: made here
  kiln_list_drop(callers);
  EXPECT(kiln_journal_size() == 0);
}

/* A raise goes through every call: the outermost unwinds for them all, so
   a string an inner call stored into an outer call's list is not freed
   while that list still points to it. */
static void nested_unwinding(void) {
  int64_t outer = kiln_journal_enter();
  kiln_list *outer_list = kiln_list_new_of(8, 0, KILN_ITEM_STR);
  int64_t inner = kiln_journal_enter();
  kiln_str *made = text("made by the inner call");
  kiln_list_append_str(outer_list, made);
  kiln_journal_unwind(inner);    /* the inner call raised: nothing goes yet */
  EXPECT(outer_list->length == 1 && item_is(outer_list, 0, "made by the inner call"));
  EXPECT(kiln_journal_size() == outer + 2);
  kiln_journal_unwind(outer);    /* and the outer one with it: all of it goes */
  EXPECT(kiln_journal_size() == 0);
}

int main(void) {
  operations();
  unwinding();
  nested_unwinding();
  printf("failures: %d\n", failures);
  // CHECK: failures: 0
  return failures != 0;
}
