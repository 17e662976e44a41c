// The set functions of the dict runtime (runtime/kiln_dict.c; a set is a
// kiln_dict without values): first-added order, pop until empty, the four
// operations as new sets and in place (also with the set itself as the
// other operand), subset/disjoint/equal, a caller-built set without a
// table, and random operations against a plain model. Under ASan's leak
// checker.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
#include "kiln_dict.c"

#include <stdio.h>

static void print_set(const char *name, const kiln_dict *set) {
  printf("%s:", name);
  for (int64_t slot = 0; slot < set->used; ++slot)
    if (set->live[slot])
      printf(" %lld", (long long)set->keys[slot]);
  printf(" (len %lld)\n", (long long)set->length);
}

static kiln_dict *set_of(const int64_t *items, int count) {
  kiln_dict *set = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_NONE, 0);
  for (int i = 0; i < count; ++i)
    kiln_dict_set(set, (uint64_t)items[i], 0);
  return set;
}

static int64_t pop(kiln_dict *set) {
  int64_t slot = kiln_set_pop_slot(set);
  uint64_t key = set->keys[slot];
  kiln_dict_erase_at(set, slot);
  return (int64_t)key;
}

// A model set: a membership table over [0, 64).
static int model_matches(const kiln_dict *set, const unsigned char *model) {
  int64_t count = 0;
  for (int k = 0; k < 64; ++k)
    count += model[k];
  if (count != set->length)
    return 0;
  for (int64_t slot = 0; slot < set->used; ++slot)
    if (set->live[slot] && (set->keys[slot] >= 64 || !model[set->keys[slot]]))
      return 0;
  return 1;
}

int main(void) {
  int64_t a_items[] = {5, 1, 9, 1, 3}, b_items[] = {3, 4, 5, 6};
  kiln_dict *a = set_of(a_items, 5), *b = set_of(b_items, 4);
  printf("values %p\n", (void *)a->values);
  // CHECK: values (nil)
  print_set("a", a);
  // CHECK: a: 5 1 9 3 (len 4)
  const char *names[] = {"union", "intersection", "difference", "symmetric_difference"};
  for (int32_t op = 0; op < 4; ++op) {
    kiln_dict *c = kiln_set_combine(a, b, op);
    print_set(names[op], c);
    kiln_dict_release(c);
  }
  // CHECK: union: 5 1 9 3 4 6 (len 6)
  // CHECK: intersection: 5 3 (len 2)
  // CHECK: difference: 1 9 (len 2)
  // CHECK: symmetric_difference: 1 9 4 6 (len 4)
  for (int32_t op = 0; op < 4; ++op) {
    kiln_dict *c = kiln_dict_copy(a);
    kiln_set_update(c, b, op);
    print_set(names[op], c);
    kiln_set_update(c, c, op);
    print_set(" with itself", c);
    kiln_dict_release(c);
  }
  // CHECK: union: 5 1 9 3 4 6 (len 6)
  // CHECK:  with itself: 5 1 9 3 4 6 (len 6)
  // CHECK: intersection: 5 3 (len 2)
  // CHECK:  with itself: 5 3 (len 2)
  // CHECK: difference: 1 9 (len 2)
  // CHECK:  with itself: (len 0)
  // CHECK: symmetric_difference: 1 9 4 6 (len 4)
  // CHECK:  with itself: (len 0)

  int64_t small_items[] = {3, 5};
  kiln_dict *small = set_of(small_items, 2);
  printf("subset %d %d, disjoint %d, equal %d\n", kiln_set_subset(small, a),
         kiln_set_subset(a, small), kiln_set_disjoint(small, b), kiln_dict_equal(a, a));
  // CHECK: subset 1 0, disjoint 0, equal 1
  printf("discard 3: %d, again: %d\n", kiln_set_discard(small, 3), kiln_set_discard(small, 3));
  // CHECK: discard 3: 1, again: 0

  // Pop until empty: first-added order; each slot is scanned once
  // (pop_start), and adding after pops goes to the end.
  kiln_dict *many = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_NONE, 0);
  for (int64_t i = 0; i < 100000; ++i)
    kiln_dict_set(many, (uint64_t)i, 0);
  int64_t in_order = 1;
  for (int64_t i = 0; i < 99999; ++i)
    in_order &= pop(many) == i;
  kiln_dict_set(many, 7, 0);
  in_order &= pop(many) == 99999;
  in_order &= pop(many) == 7;
  printf("popped in order %lld, len %lld\n", (long long)in_order, (long long)many->length);
  // CHECK: popped in order 1, len 0

  // A caller-built set (kiln_abi.h: values NULL, no table): pop and the
  // in-place operations build its table first.
  kiln_dict *built = (kiln_dict *)calloc(1, sizeof *built);
  built->capacity = 4;
  built->keys = (uint64_t *)malloc(4 * sizeof(uint64_t));
  built->live = (uint8_t *)malloc(4);
  for (int i = 0; i < 3; ++i) {
    built->keys[i] = (uint64_t)(10 + i);
    built->live[i] = 1;
  }
  built->length = built->used = 3;
  built->refcount = 1;
  built->journal_index = -1;
  built->key_kind = KILN_ITEM_INT;
  printf("caller-built pop %lld\n", (long long)pop(built));
  // CHECK: caller-built pop 10
  kiln_dict *built2 = (kiln_dict *)calloc(1, sizeof *built2);
  *built2 = *built;
  built2->keys = (uint64_t *)malloc(4 * sizeof(uint64_t));
  built2->live = (uint8_t *)malloc(4);
  memcpy(built2->keys, built->keys, 4 * sizeof(uint64_t));
  memcpy(built2->live, built->live, 4);
  built2->hashes = NULL;
  built2->index = NULL;
  kiln_set_update(built2, b, KILN_SET_DIFFERENCE);
  print_set("caller-built minus b", built2);
  // CHECK: caller-built minus b: 11 12 (len 2)

  // Random operations against the model.
  unsigned seed = 12345;
  unsigned char model[64] = {0};
  kiln_dict *random_set = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_NONE, 0);
  int agree = 1;
  for (int step = 0; step < 200000 && agree; ++step) {
    seed = seed * 1103515245u + 12345u;
    int64_t key = (seed >> 8) % 64;
    switch ((seed >> 20) % 4) {
    case 0:
    case 1:
      kiln_dict_set(random_set, (uint64_t)key, 0);
      model[key] = 1;
      break;
    case 2:
      agree &= kiln_set_discard(random_set, (uint64_t)key) == model[key];
      model[key] = 0;
      break;
    default:
      if (random_set->length) {
        int64_t popped = pop(random_set);
        agree &= popped >= 0 && popped < 64 && model[popped];
        model[popped] = 0;
      }
    }
    agree &= model_matches(random_set, model);
  }
  printf("random operations agree %d\n", agree);
  // CHECK: random operations agree 1

  kiln_dict_release(a);
  kiln_dict_release(b);
  kiln_dict_release(small);
  kiln_dict_release(many);
  kiln_dict_release(random_set);
  kiln_dict_drop(built);
  kiln_dict_drop(built2);
  return 0;
}
