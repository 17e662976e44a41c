// The dict runtime (runtime/kiln_dict.c): insertion order (a re-inserted
// key goes to the end), Python's key equality (-0.0 == 0.0, NaN never
// found), growth, compaction after deletions, a caller-built dict's table
// built at the first lookup, and random insertions/deletions against a
// plain model; dicts of a raising call freed by the journal. Under ASan's
// leak checker.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
#include "kiln_dict.c"

#include <math.h>
#include <stdio.h>

static uint64_t bits_of(double value) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

static void print_entries(const kiln_dict *dict) {
  for (int64_t slot = 0; slot < dict->used; ++slot)
    if (dict->live[slot])
      printf("%lld:%lld ", (long long)dict->keys[slot], (long long)dict->values[slot]);
  printf("(len %lld)\n", (long long)dict->length);
}

int main(void) {
  // Order: 3, 1, 2; deleting 1 and setting it again puts it last; a new
  // value for 3 keeps its place.
  kiln_dict *d = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_INT, 0);
  kiln_dict_set(d, 3, 30);
  kiln_dict_set(d, 1, 10);
  kiln_dict_set(d, 2, 20);
  kiln_dict_erase_at(d, kiln_dict_find(d, 1));
  kiln_dict_set(d, 1, 11);
  kiln_dict_set(d, 3, 33);
  print_entries(d);
  // CHECK: 3:33 2:20 1:11 (len 3)
  printf("find 2: slot %lld, find 7: %lld\n", (long long)kiln_dict_find(d, 2),
         (long long)kiln_dict_find(d, 7));
  // CHECK: find 2: slot 2, find 7: -1

  // Colliding keys (multiples of a large power of two) and negatives.
  kiln_dict *collide = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_INT, 0);
  for (int64_t i = 0; i < 100; ++i)
    kiln_dict_set(collide, (uint64_t)(i << 40), (uint64_t)i);
  for (int64_t i = -50; i < 0; ++i)
    kiln_dict_set(collide, (uint64_t)i, (uint64_t)i);
  int all_found = 1;
  for (int64_t i = 0; i < 100; ++i)
    all_found &= collide->values[kiln_dict_find(collide, (uint64_t)(i << 40))] == (uint64_t)i;
  for (int64_t i = -50; i < 0; ++i)
    all_found &= collide->values[kiln_dict_find(collide, (uint64_t)i)] == (uint64_t)i;
  printf("colliding keys: len %lld, all found %d\n", (long long)collide->length, all_found);
  // CHECK: colliding keys: len 150, all found 1

  // Float keys: -0.0 and 0.0 are one key (the first inserted is kept);
  // NaN is never found again.
  kiln_dict *floats = kiln_dict_new(KILN_ITEM_FLOAT, KILN_ITEM_INT, 0);
  kiln_dict_set(floats, bits_of(-0.0), 1);
  kiln_dict_set(floats, bits_of(0.0), 2);
  kiln_dict_set(floats, bits_of(NAN), 3);
  kiln_dict_set(floats, bits_of(NAN), 4);
  double first_key;
  memcpy(&first_key, &floats->keys[0], sizeof first_key);
  printf("zeros: len %lld, key %g value %lld, nan found %lld\n", (long long)floats->length,
         first_key, (long long)floats->values[0], (long long)kiln_dict_find(floats, bits_of(NAN)));
  // CHECK: zeros: len 3, key -0 value 2, nan found -1

  // A dict built by a caller (entries only): the table comes at the first
  // lookup.
  kiln_dict *made = calloc(1, sizeof *made);
  made->capacity = 4;
  made->keys = malloc(4 * 8);
  made->values = malloc(4 * 8);
  made->live = malloc(4);
  for (int i = 0; i < 3; ++i) {
    made->keys[i] = (uint64_t)(100 + i);
    made->values[i] = (uint64_t)i;
    made->live[i] = 1;
  }
  made->length = made->used = 3;
  made->refcount = 1;
  made->journal_index = -1;
  made->key_kind = made->value_kind = KILN_ITEM_INT;
  printf("caller-built: find 102 -> %lld\n", (long long)kiln_dict_find(made, 102));
  // CHECK: caller-built: find 102 -> 2
  kiln_dict_set(made, 200, 9);     // grows past its capacity of 4
  kiln_dict_set(made, 201, 9);
  print_entries(made);
  // CHECK: 100:0 101:1 102:2 200:9 201:9 (len 5)
  kiln_dict_drop(made);

  // Random insertions and deletions against a plain model: order, values
  // and lookups agree after every step (compaction included).
  enum { KEYS = 64, STEPS = 20000 };
  kiln_dict *churn = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_INT, 0);
  int64_t model_keys[KEYS * 4], model_values[KEYS * 4];
  int model_count = 0, agree = 1;
  unsigned seed = 12345;
  for (int step = 0; step < STEPS; ++step) {
    seed = seed * 1103515245u + 12345u;
    int64_t key = (int64_t)((seed >> 8) % KEYS) * 4096 - 1000;
    int at = -1;
    for (int i = 0; i < model_count; ++i)
      if (model_keys[i] == key)
        at = i;
    if ((seed >> 4) % 3 == 0 && at >= 0) {
      kiln_dict_erase_at(churn, kiln_dict_find(churn, (uint64_t)key));
      for (int i = at; i + 1 < model_count; ++i)
        model_keys[i] = model_keys[i + 1], model_values[i] = model_values[i + 1];
      --model_count;
    } else {
      kiln_dict_set(churn, (uint64_t)key, (uint64_t)step);
      if (at >= 0)
        model_values[at] = step;
      else
        model_keys[model_count] = key, model_values[model_count++] = step;
    }
    int i = 0;
    for (int64_t slot = 0; slot < churn->used; ++slot)
      if (churn->live[slot]) {
        agree &= i < model_count && (int64_t)churn->keys[slot] == model_keys[i] &&
                 (int64_t)churn->values[slot] == model_values[i];
        ++i;
      }
    agree &= i == model_count && churn->length == model_count;
  }
  printf("churn agrees with the model: %d\n", agree);
  // CHECK: churn agrees with the model: 1

  // copy keeps the order; equal ignores it; update adds in order.
  kiln_dict *copy = kiln_dict_copy(d);
  kiln_dict *other = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_INT, 0);
  kiln_dict_set(other, 1, 11);
  kiln_dict_set(other, 2, 20);
  kiln_dict_set(other, 3, 33);
  printf("equal: %d %d\n", kiln_dict_equal(copy, other), kiln_dict_equal(copy, collide));
  // CHECK: equal: 1 0
  kiln_dict_set(other, 9, 90);
  kiln_dict_update(copy, other);
  print_entries(copy);
  // CHECK: 3:33 2:20 1:11 9:90 (len 4)

  // A raising call's dicts are freed by the journal.
  int64_t mark = kiln_journal_enter();
  kiln_dict *lost = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_FLOAT, 0);
  kiln_dict_set(lost, 1, bits_of(2.5));
  kiln_journal_unwind(mark);
  printf("after unwind: %lld\n", (long long)kiln_journal_size());
  // CHECK: after unwind: 0

  kiln_dict_release(d);
  kiln_dict_release(collide);
  kiln_dict_release(floats);
  kiln_dict_release(churn);
  kiln_dict_release(copy);
  kiln_dict_release(other);
  return 0;
}
