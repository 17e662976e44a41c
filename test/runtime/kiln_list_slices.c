// List slices in the list runtime (runtime/kiln_list.c): xs[a:b:c],
// del xs[a:b:c] and xs[a:b:c] = ys for lists of 0..6 items, every start
// and stop in -8..8, None and the int64 extremes, steps +-1..3 and the
// extremes, hashed; the expected hashes are CPython's own slicing hashed
// the same way (the generator is in the comment at the end). Under ASan.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir %s -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t | FileCheck %s

#include "kiln_journal.c"
#include "kiln_list.c"

#include <stdio.h>

static uint64_t fnv(uint64_t hash, int64_t value) {
  return (hash ^ (uint64_t)value) * UINT64_C(1099511628211);
}

static uint64_t hash_list(uint64_t hash, const kiln_list *list) {
  hash = fnv(hash, list->length);
  for (int64_t i = 0; i < list->length; ++i)
    hash = fnv(hash, ((int64_t *)list->items)[i]);
  return hash;
}

static kiln_list *numbers(int64_t count, int64_t first, int64_t by) {
  kiln_list *list = kiln_list_new(8, 0);
  for (int64_t i = 0; i < count; ++i)
    kiln_list_append_i64(list, first + by * i);
  return list;
}

int main(void) {
  int64_t ends[20];
  ends[0] = 0; // None
  for (int i = 1; i < 18; ++i)
    ends[i] = i - 9;
  ends[18] = INT64_MIN;
  ends[19] = INT64_MAX;
  int64_t steps[] = {-3, -2, -1, 1, 2, 3, INT64_MIN, INT64_MAX};
  uint64_t hashes[3] = {UINT64_C(14695981039346656037), UINT64_C(14695981039346656037),
                        UINT64_C(14695981039346656037)};
  for (int64_t n = 0; n < 7; ++n)
    for (int a = 0; a < 20; ++a)
      for (int b = 0; b < 20; ++b)
        for (int c = 0; c < 8; ++c) {
          int32_t present = (a ? 1 : 0) | (b ? 2 : 0);
          int64_t step = steps[c];
          kiln_list *base = numbers(n, 0, 10);
          kiln_list *slice = kiln_list_slice(base, ends[a], ends[b], step, present);
          hashes[0] = hash_list(hashes[0], slice);
          int64_t selected = slice->length;
          kiln_list_release(slice);
          kiln_list *deleted = numbers(n, 0, 10);
          kiln_list_delete_slice(deleted, ends[a], ends[b], step, present);
          hashes[1] = hash_list(hashes[1], deleted);
          kiln_list_release(deleted);
          int64_t counts[3] = {0, 1, 3};
          if (step != 1) {
            counts[0] = selected;
            counts[1] = selected + 1;
          }
          for (int m = 0; m < (step == 1 ? 3 : 2); ++m) {
            kiln_list *assigned = numbers(n, 0, 10);
            kiln_list *values = numbers(counts[m], 100, 1);
            int64_t outcome =
                kiln_list_assign_slice(assigned, ends[a], ends[b], step, present, values);
            hashes[2] = outcome > 0 ? hash_list(hashes[2], assigned) : fnv(hashes[2], outcome);
            kiln_list_release(assigned);
            kiln_list_release(values);
          }
          kiln_list_release(base);
        }
  printf("slices %llu deletes %llu assigns %llu\n", (unsigned long long)hashes[0],
         (unsigned long long)hashes[1], (unsigned long long)hashes[2]);
  // CHECK: slices 1096652055284517625 deletes 4436148318812266933 assigns 16982915880368719843

  // xs[1:3] = xs and xs[::-1] = xs: the values are read before the list
  // changes.
  kiln_list *self = numbers(4, 1, 1);
  kiln_list_assign_slice(self, 1, 3, 1, 3, self);
  kiln_list_assign_slice(self, 0, 0, -1, 0, self);
  for (int64_t i = 0; i < self->length; ++i)
    printf("%lld ", (long long)((int64_t *)self->items)[i]);
  printf("\n");
  // CHECK: 4 4 3 2 1 1
  kiln_list_release(self);
  return 0;
}

/* The expected hashes, from CPython:

STARTS = [None] + list(range(-8, 9)) + [-(2**63), 2**63 - 1]
STEPS = [-3, -2, -1, 1, 2, 3, -(2**63), 2**63 - 1]
M = 2**64
def fnv(h, v):
    return ((h ^ (v % M)) * 1099511628211) % M
def hash_list(h, xs):
    h = fnv(h, len(xs))
    for x in xs: h = fnv(h, x)
    return h
hs = [14695981039346656037] * 3
for n in range(7):
    base = [10 * i for i in range(n)]
    for a in STARTS:
        for b in STARTS:
            for c in STEPS:
                s = slice(a, b, c)
                hs[0] = hash_list(hs[0], base[s])
                d = list(base); del d[s]; hs[1] = hash_list(hs[1], d)
                k = len(base[s])
                for m in ([0, 1, 3] if c == 1 else [k, k + 1]):
                    e = list(base); vals = [100 + j for j in range(m)]
                    try:
                        e[s] = vals; hs[2] = hash_list(hs[2], e)
                    except ValueError:
                        hs[2] = fnv(hs[2], -1 - k)
print("slices %d deletes %d assigns %d" % tuple(hs))
*/
