/* Python dicts in Kiln-compiled code: the runtime half of
   kiln-lower-containers for the kiln dialect's dict ops. kilnc links this
   file (with kiln_journal.c) into every artifact whose code makes or
   releases a dict.

   Layout (runtime/kiln_abi.h's kiln_dict): entries in insertion order in
   three arrays, `keys`, `values` (8 bytes each: int64_t, double, or 0/1)
   and `live`; a deleted entry keeps its slot (live 0) until the arrays are
   compacted, so iteration order and the slots the frontend holds between
   a lookup and its use do not move. The lookup table is separate: `index`
   (a power of two of int64_t slots: an entry's position, EMPTY or
   DELETED) probed linearly from each key's hash, and `hashes` beside the
   entries. A caller that builds a dict (the Python wrapper, C) fills only
   the entries; the table is built at the first lookup.

   Equality is Python's `==` on the key kind: ints and bools by value,
   floats by `==` (so -0.0 and 0.0 are one key, hashed alike, and a NaN key
   is never found again: compiled code has no object identity for it).
   Hashes only spread keys over the table: iteration order is insertion
   order whatever they are, so they need not be CPython's.

   A set is a dict without values (value_kind KILN_ITEM_NONE, `values`
   NULL): every function here serves both, and the set operations below
   build on them.

   Memory and exceptions: as lists (kiln_list.c, kiln_journal.c). Keys or
   values of kind KILN_ITEM_STR are references the dict holds: a string
   stored is adopted (kiln_journal_adopt_str), one that goes (a value
   replaced, an entry erased, the dict cleared or freed) is released; an
   unwound dict first gives back its references to strings outside the
   journal. Equal strings are one key (their text, not their address). */

#include "kiln_abi.h"
#include "kiln_journal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { KILN_DICT_EMPTY = -1, KILN_DICT_DELETED = -2, KILN_DICT_SMALLEST_INDEX = 8 };

/* An entry of `index` for a live slot: the slot in the low 32 bits and 31
   more bits of the key's hash above them (a tag: a probe skips a slot
   whose tag differs without reading the entries' arrays, so a lookup
   costs one access to the table and, mostly, one to the keys). */
static inline int64_t kiln_dict_tag(int64_t hash) { return (hash >> 32) & 0x7fffffff; }
static inline int64_t kiln_dict_index_entry(int64_t hash, int64_t slot) {
  return (kiln_dict_tag(hash) << 32) | slot;
}
static inline int64_t kiln_dict_slot(int64_t entry) { return entry & 0xffffffff; }

/* runtime/kiln_str.c: linked into every module that uses strings, which a
   dict of str implies (weak: a module without strings links without it). */
void kiln_str_release(kiln_str *str) __attribute__((weak));
int32_t kiln_str_equal(kiln_str *a, kiln_str *b) __attribute__((weak));
int64_t kiln_str_hash(kiln_str *str) __attribute__((weak));

static inline kiln_str *kiln_dict_str(uint64_t bits) { return (kiln_str *)(uintptr_t)bits; }

/* A key or value of kind `kind` stored into `dict` / leaving it. */
static inline void kiln_dict_adopt(const kiln_dict *dict, int32_t kind, uint64_t bits) {
  if (kind == KILN_ITEM_STR)
    kiln_journal_adopt_str(dict->journal_index, kiln_dict_str(bits));
}
static inline void kiln_dict_drop_item(const kiln_dict *dict, int32_t kind, uint64_t bits) {
  if (kind == KILN_ITEM_STR)
    kiln_journal_give_up_str(dict->journal_index, kiln_dict_str(bits));
}
static inline int kiln_dict_holds_references(const kiln_dict *dict) {
  return dict->key_kind == KILN_ITEM_STR || dict->value_kind == KILN_ITEM_STR;
}

/* The references of entry `slot` go (the entry is going). */
static void kiln_dict_drop_entry(kiln_dict *dict, int64_t slot) {
  kiln_dict_drop_item(dict, dict->key_kind, dict->keys[slot]);
  if (dict->values)
    kiln_dict_drop_item(dict, dict->value_kind, dict->values[slot]);
}

static int64_t kiln_dict_hash(const kiln_dict *dict, uint64_t key) {
  if (dict->key_kind == KILN_ITEM_STR)
    return kiln_str_hash(kiln_dict_str(key)) & 0x7fffffffffffffffLL;
  if (dict->key_kind == KILN_ITEM_FLOAT) {
    double value;
    memcpy(&value, &key, sizeof value);
    if (value == 0.0)
      key = 0;                       /* -0.0 == 0.0: one key, one hash */
  }
  /* A 64-bit finalizer (multiply-xorshift): consecutive ints and floats
     land far apart in the table. */
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ULL;
  key ^= key >> 33;
  return (int64_t)(key & 0x7fffffffffffffffULL);
}

/* Python's `==` on two keys or two values of kind `kind`. */
static int kiln_dict_items_equal(int32_t kind, uint64_t a, uint64_t b) {
  if (kind == KILN_ITEM_STR)
    return a == b || kiln_str_equal(kiln_dict_str(a), kiln_dict_str(b));
  if (kind == KILN_ITEM_FLOAT) {
    double x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
  }
  return a == b;
}

/* The table's size for `capacity` entries: at most 2/3 full. */
static int64_t kiln_dict_index_size(int64_t capacity) {
  int64_t size = KILN_DICT_SMALLEST_INDEX;
  while (size * 2 < capacity * 3)
    size *= 2;
  return size;
}

/* (Re)builds `index` (and `hashes`) for the entries now in the dict;
   0 when there is no memory. */
static int kiln_dict_build_index(kiln_dict *dict) {
  int64_t size = kiln_dict_index_size(dict->capacity);
  int64_t *index = (int64_t *)malloc((size_t)size * sizeof(int64_t));
  int64_t *hashes = (int64_t *)realloc(dict->hashes, (size_t)dict->capacity * sizeof(int64_t));
  if (!index || !hashes) {
    free(index);
    if (hashes)
      dict->hashes = hashes;
    return 0;
  }
  dict->hashes = hashes;
  for (int64_t i = 0; i < size; ++i)
    index[i] = KILN_DICT_EMPTY;
  int64_t mask = size - 1;
  for (int64_t slot = 0; slot < dict->used; ++slot) {
    if (!dict->live[slot])
      continue;
    int64_t hash = kiln_dict_hash(dict, dict->keys[slot]);
    hashes[slot] = hash;
    int64_t at = hash & mask;
    while (index[at] != KILN_DICT_EMPTY)
      at = (at + 1) & mask;
    index[at] = kiln_dict_index_entry(hash, slot);
  }
  free(dict->index);
  dict->index = index;
  dict->index_mask = mask;
  return 1;
}

static int kiln_dict_ensure_index(kiln_dict *dict) {
  return dict->index || kiln_dict_build_index(dict);
}

/* Where in `index` the entry of `key` (whose hash is `hash`) is, or -1. */
static int64_t kiln_dict_probe(const kiln_dict *dict, uint64_t key, int64_t hash) {
  int64_t mask = dict->index_mask, tag = kiln_dict_tag(hash);
  for (int64_t at = hash & mask;; at = (at + 1) & mask) {
    int64_t entry = dict->index[at];
    if (entry == KILN_DICT_EMPTY)
      return -1;
    if (entry >= 0 && (entry >> 32) == tag &&
        kiln_dict_items_equal(dict->key_kind, dict->keys[kiln_dict_slot(entry)], key))
      return at;
  }
}

/* An unwound dict's references to strings outside the journal. */
static void kiln_dict_release_outside_items(void *opaque) {
  kiln_dict *dict = (kiln_dict *)opaque;
  if (!kiln_dict_holds_references(dict))
    return;
  for (int64_t slot = 0; slot < dict->used; ++slot) {
    if (!dict->live[slot])
      continue;
    if (dict->key_kind == KILN_ITEM_STR && kiln_dict_str(dict->keys[slot])->journal_index < 0)
      kiln_str_release(kiln_dict_str(dict->keys[slot]));
    if (dict->value_kind == KILN_ITEM_STR &&
        kiln_dict_str(dict->values[slot])->journal_index < 0)
      kiln_str_release(kiln_dict_str(dict->values[slot]));
  }
  dict->used = dict->length = 0;
}

/* Frees the dict's storage, not its strings' (see kiln_dict_free). */
static void kiln_dict_destroy(void *opaque) {
  kiln_dict *dict = (kiln_dict *)opaque;
  free(dict->keys);
  free(dict->values);
  free(dict->live);
  free(dict->hashes);
  free(dict->index);
  free(dict);
}

/* Room for `capacity` entries in the three entry arrays (and `hashes`). */
static int kiln_dict_set_capacity(kiln_dict *dict, int64_t capacity) {
  if (capacity < 1)
    capacity = 1;
  if (capacity > (int64_t)0xffffffff)
    return 0;   /* a slot must fit the index entries' 32 bits */
  uint64_t *keys = (uint64_t *)realloc(dict->keys, (size_t)capacity * 8);
  if (!keys)
    return 0;
  dict->keys = keys;
  if (dict->value_kind != KILN_ITEM_NONE) {
    uint64_t *values = (uint64_t *)realloc(dict->values, (size_t)capacity * 8);
    if (!values)
      return 0;
    dict->values = values;
  }
  uint8_t *live = (uint8_t *)realloc(dict->live, (size_t)capacity);
  if (!live)
    return 0;
  dict->live = live;
  if (dict->hashes || dict->index) {
    int64_t *hashes = (int64_t *)realloc(dict->hashes, (size_t)capacity * sizeof(int64_t));
    if (!hashes)
      return 0;
    dict->hashes = hashes;
  }
  dict->capacity = capacity;
  return 1;
}

/* A new empty dict; NULL when there is no memory. */
KILN_JOURNAL_OPAQUE kiln_dict *kiln_dict_new(int32_t key_kind, int32_t value_kind,
                                             int64_t capacity) {
  kiln_dict *dict = (kiln_dict *)calloc(1, sizeof(kiln_dict));
  if (!dict)
    return NULL;
  dict->refcount = 1;
  dict->key_kind = key_kind;
  dict->value_kind = value_kind;
  if (!kiln_dict_set_capacity(dict, capacity > 0 ? capacity : 8) ||
      !kiln_dict_build_index(dict)) {
    kiln_dict_destroy(dict);
    return NULL;
  }
  kiln_journal_push_container(dict, &dict->journal_index, kiln_dict_destroy,
                              kiln_dict_release_outside_items);
  return dict;
}

KILN_JOURNAL_OPAQUE void kiln_dict_free(kiln_dict *dict) {
  kiln_journal_remove(dict, dict->journal_index);
  if (kiln_dict_holds_references(dict))
    for (int64_t slot = 0; slot < dict->used; ++slot)
      if (dict->live[slot])
        kiln_dict_drop_entry(dict, slot);
  kiln_dict_destroy(dict);
}

void kiln_dict_release(kiln_dict *dict) {
  if (--dict->refcount == 0)
    kiln_dict_free(dict);
}

/* `key`'s slot, or -1 (also when there is no memory for the table a
   caller-built dict gets at its first lookup: -2, MemoryError). */
int64_t kiln_dict_find(kiln_dict *dict, uint64_t key) {
  if (!kiln_dict_ensure_index(dict))
    return -2;
  int64_t at = kiln_dict_probe(dict, key, kiln_dict_hash(dict, key));
  return at < 0 ? -1 : kiln_dict_slot(dict->index[at]);
}

/* Drops deleted entries from the arrays (slots move) and rebuilds the
   table. */
static int kiln_dict_compact(kiln_dict *dict) {
  int64_t kept = 0;
  for (int64_t slot = 0; slot < dict->used; ++slot)
    if (dict->live[slot]) {
      dict->keys[kept] = dict->keys[slot];
      if (dict->values)
        dict->values[kept] = dict->values[slot];
      dict->live[kept] = dict->live[slot];
      ++kept;
    }
  dict->used = kept;
  dict->pop_start = 0;
  return kiln_dict_build_index(dict);
}

/* `dict[key] = value`: a new value for an existing key (its place kept),
   or a new entry at the end. 0 when there is no memory (MemoryError). */
int32_t kiln_dict_set(kiln_dict *dict, uint64_t key, uint64_t value) {
  if (!kiln_dict_ensure_index(dict))
    return 0;
  int64_t hash = kiln_dict_hash(dict, key);
  int64_t at = kiln_dict_probe(dict, key, hash);
  if (at >= 0) {
    int64_t slot = kiln_dict_slot(dict->index[at]);
    if (!dict->values)
      return 1;                          /* a set: already an element */
    uint64_t old = dict->values[slot];
    if (old != value)
      dict->flags |= KILN_DICT_MODIFIED;
    kiln_dict_adopt(dict, dict->value_kind, value);
    dict->values[slot] = value;
    kiln_dict_drop_item(dict, dict->value_kind, old);
    return 1;
  }
  if (dict->used == dict->capacity) {
    /* Mostly deleted entries: compact in place; otherwise grow by half
       (amortized constant time per insertion, as CPython's dict). */
    if (dict->length * 2 <= dict->used) {
      if (!kiln_dict_compact(dict))
        return 0;
    } else {
      if (!kiln_dict_set_capacity(dict, dict->capacity + dict->capacity / 2 + 8) ||
          !kiln_dict_build_index(dict))
        return 0;
    }
  }
  int64_t slot = dict->used++;
  kiln_dict_adopt(dict, dict->key_kind, key);
  dict->keys[slot] = key;
  if (dict->values) {
    kiln_dict_adopt(dict, dict->value_kind, value);
    dict->values[slot] = value;
  }
  dict->live[slot] = KILN_DICT_ADDED;
  dict->hashes[slot] = hash;
  ++dict->length;
  dict->flags |= KILN_DICT_MODIFIED;
  int64_t mask = dict->index_mask;
  int64_t place = hash & mask;
  while (dict->index[place] >= 0)       /* an empty or a deleted place */
    place = (place + 1) & mask;
  dict->index[place] = kiln_dict_index_entry(hash, slot);
  return 1;
}

/* `dict[key] = value` once the key's slot is known (a live one), for a
   dict whose values are strings: the new one adopted, the old released
   (kiln-lower-containers stores other values inline). */
void kiln_dict_store_value_str(kiln_dict *dict, int64_t slot, kiln_str *value) {
  uint64_t old = dict->values[slot];
  if (old != (uint64_t)(uintptr_t)value)
    dict->flags |= KILN_DICT_MODIFIED;
  kiln_journal_adopt_str(dict->journal_index, value);
  dict->values[slot] = (uint64_t)(uintptr_t)value;
  kiln_journal_give_up_str(dict->journal_index, kiln_dict_str(old));
}

/* Entry `slot` (a live one) leaves the table; its references stay. */
static void kiln_dict_unlink_at(kiln_dict *dict, int64_t slot) {
  int64_t mask = dict->index_mask;
  for (int64_t at = dict->hashes[slot] & mask;; at = (at + 1) & mask)
    if (dict->index[at] >= 0 && kiln_dict_slot(dict->index[at]) == slot) {
      dict->index[at] = KILN_DICT_DELETED;
      break;
    }
  dict->live[slot] = 0;
  --dict->length;
  dict->flags |= KILN_DICT_MODIFIED;
  /* `used` stays: every place the table has filled (live or DELETED)
     belongs to one of the first `used` slots, so the table never fills
     up with DELETED places between two rebuilds (compaction, growth). */
}

/* `del dict[key]` once its slot is known (a live one); its key and value
   are released (a caller that keeps one takes a reference first). */
void kiln_dict_erase_at(kiln_dict *dict, int64_t slot) {
  kiln_dict_unlink_at(dict, slot);
  kiln_dict_drop_entry(dict, slot);
}

/* `set.pop()` of a set of str once the slot is known: the element leaves
   with the set's reference (kiln_journal_take_str). */
kiln_str *kiln_set_take_str(kiln_dict *set, int64_t slot) {
  kiln_str *taken = kiln_dict_str(set->keys[slot]);
  kiln_dict_unlink_at(set, slot);
  kiln_journal_take_str(set->journal_index, taken);
  return taken;
}

void kiln_dict_clear(kiln_dict *dict) {
  if (dict->length)
    dict->flags |= KILN_DICT_MODIFIED;
  /* emptied first: a released string cannot reach the dict again */
  int64_t used = dict->used;
  dict->length = 0;
  dict->used = 0;
  if (kiln_dict_holds_references(dict))
    for (int64_t slot = 0; slot < used; ++slot)
      if (dict->live[slot])
        kiln_dict_drop_entry(dict, slot);
  dict->pop_start = 0;
  if (dict->index)
    for (int64_t i = 0; i <= dict->index_mask; ++i)
      dict->index[i] = KILN_DICT_EMPTY;
}

/* A new dict of the same entries in the same order; NULL when there is no
   memory. */
kiln_dict *kiln_dict_copy(kiln_dict *dict) {
  kiln_dict *copy = kiln_dict_new(dict->key_kind, dict->value_kind, dict->length);
  if (!copy)
    return NULL;
  for (int64_t slot = 0; slot < dict->used; ++slot)
    if (dict->live[slot] &&
        !kiln_dict_set(copy, dict->keys[slot], dict->values ? dict->values[slot] : 0)) {
      kiln_dict_free(copy);
      return NULL;
    }
  copy->flags = 0;
  return copy;
}

/* `dict.update(other)`: other's entries in other's order; 0 when there is
   no memory. */
int32_t kiln_dict_update(kiln_dict *dict, kiln_dict *other) {
  if (dict == other)
    return 1;
  for (int64_t slot = 0; slot < other->used; ++slot)
    if (other->live[slot] &&
        !kiln_dict_set(dict, other->keys[slot], other->values ? other->values[slot] : 0))
      return 0;
  return 1;
}

/* `dict == other`: the same keys with equal values, in any order; -1 when
   there is no memory for a table. */
int32_t kiln_dict_equal(kiln_dict *dict, kiln_dict *other) {
  if (dict == other)
    return 1;   /* CPython compares items by identity first: a NaN key too */
  if (dict->length != other->length)
    return 0;
  if (!kiln_dict_ensure_index(other))
    return -1;
  for (int64_t slot = 0; slot < dict->used; ++slot) {
    if (!dict->live[slot])
      continue;
    int64_t at = kiln_dict_probe(other, dict->keys[slot], kiln_dict_hash(other, dict->keys[slot]));
    if (at < 0 || (dict->values && !kiln_dict_items_equal(dict->value_kind, dict->values[slot],
                                                          other->values[kiln_dict_slot(other->index[at])])))
      return 0;
  }
  return 1;
}

/* ---- sets */

/* `set.discard(key)`: 1 when it was an element, 0 when not, -1 when there
   is no memory for the table (MemoryError). */
int32_t kiln_set_discard(kiln_dict *set, uint64_t key) {
  int64_t slot = kiln_dict_find(set, key);
  if (slot < 0)
    return slot == -1 ? 0 : -1;
  kiln_dict_erase_at(set, slot);
  return 1;
}

/* The slot `set.pop()` of a non-empty set takes (its first element; the
   caller reads the key and erases the slot), or -2 when there is no memory
   for the table the erasing needs. The slots before `pop_start` are
   deleted, so popping a set empty scans each slot once. */
int64_t kiln_set_pop_slot(kiln_dict *set) {
  if (!kiln_dict_ensure_index(set))
    return -2;
  int64_t slot = set->pop_start > 0 && set->pop_start < set->used ? set->pop_start : 0;
  while (!set->live[slot])
    ++slot;
  set->pop_start = slot + 1 <= INT32_MAX ? (int32_t)(slot + 1) : 0;
  return slot;
}

/* Whether `key` is an element of `set` (-1: no memory for its table). */
static int32_t kiln_set_has(kiln_dict *set, uint64_t key) {
  int64_t slot = kiln_dict_find(set, key);
  return slot >= 0 ? 1 : slot == -1 ? 0 : -1;
}

/* `set <= other`: 1, 0, or -1 when there is no memory for a table. */
int32_t kiln_set_subset(kiln_dict *set, kiln_dict *other) {
  if (set == other)
    return 1;   /* as kiln_dict_equal */
  if (set->length > other->length)
    return 0;
  for (int64_t slot = 0; slot < set->used; ++slot) {
    if (!set->live[slot])
      continue;
    int32_t has = kiln_set_has(other, set->keys[slot]);
    if (has <= 0)
      return has;
  }
  return 1;
}

/* `set.isdisjoint(other)`: 1, 0, or -1 (no memory). The smaller set is
   walked, the larger probed. */
int32_t kiln_set_disjoint(kiln_dict *set, kiln_dict *other) {
  if (set == other)
    return set->length == 0;     /* CPython's shortcut: a NaN element too */
  if (set->length > other->length) {
    kiln_dict *swap = set;
    set = other;
    other = swap;
  }
  for (int64_t slot = 0; slot < set->used; ++slot) {
    if (!set->live[slot])
      continue;
    int32_t has = kiln_set_has(other, set->keys[slot]);
    if (has != 0)
      return has < 0 ? -1 : 0;
  }
  return 1;
}

/* The elements of `source` that are (`wanted` 1) or are not (0) elements
   of `filter`, added to `target` in `source`'s order; 0 when there is no
   memory. `target` is neither of the others. */
static int32_t kiln_set_add_filtered(kiln_dict *target, kiln_dict *source, kiln_dict *filter,
                                     int32_t wanted) {
  for (int64_t slot = 0; slot < source->used; ++slot) {
    if (!source->live[slot])
      continue;
    int32_t has = kiln_set_has(filter, source->keys[slot]);
    if (has < 0)
      return 0;
    if (has == wanted && !kiln_dict_set(target, source->keys[slot], 0))
      return 0;
  }
  return 1;
}

/* `set | other`, `set & other`, `set - other`, `set ^ other`
   (kiln_abi.h's KILN_SET_OPERATIONS): a new set, `set`'s elements first
   in its order, then `other`'s; NULL when there is no memory. */
kiln_dict *kiln_set_combine(kiln_dict *set, kiln_dict *other, int32_t operation) {
  kiln_dict *result = kiln_dict_new(set->key_kind, KILN_ITEM_NONE,
                                    operation == KILN_SET_UNION ||
                                            operation == KILN_SET_SYMMETRIC_DIFFERENCE
                                        ? set->length + other->length
                                        : set->length);
  if (!result)
    return NULL;
  int32_t ok;
  if (set == other) {
    /* `s | s`, `s & s`: a copy; `s - s`, `s ^ s`: empty (CPython's
       shortcuts, which keep a NaN element as the in-place forms do). */
    ok = operation == KILN_SET_UNION || operation == KILN_SET_INTERSECTION
             ? kiln_dict_update(result, set)
             : 1;
    operation = -1;
  }
  switch (operation) {
  case -1:
    break;
  case KILN_SET_UNION:
    ok = kiln_dict_update(result, set) && kiln_dict_update(result, other);
    break;
  case KILN_SET_INTERSECTION:
    ok = kiln_set_add_filtered(result, set, other, 1);
    break;
  case KILN_SET_DIFFERENCE:
    ok = kiln_set_add_filtered(result, set, other, 0);
    break;
  default:
    ok = kiln_set_add_filtered(result, set, other, 0) &&
         kiln_set_add_filtered(result, other, set, 0);
    break;
  }
  if (!ok) {
    kiln_dict_free(result);
    return NULL;
  }
  result->flags = 0;
  return result;
}

/* `set |= other`, `&=`, `-=`, `^=` (other may be set): 0 when there is
   no memory. */
int32_t kiln_set_update(kiln_dict *set, kiln_dict *other, int32_t operation) {
  if (!kiln_dict_ensure_index(set))
    return 0;
  if (operation == KILN_SET_UNION)
    return kiln_dict_update(set, other);
  if (set == other) {
    /* s &= s keeps s; s -= s and s ^= s empty it. */
    if (operation != KILN_SET_INTERSECTION)
      kiln_dict_clear(set);
    return 1;
  }
  if (operation == KILN_SET_SYMMETRIC_DIFFERENCE) {
    for (int64_t slot = 0; slot < other->used; ++slot) {
      if (!other->live[slot])
        continue;
      int32_t removed = kiln_set_discard(set, other->keys[slot]);
      if (removed < 0 || (removed == 0 && !kiln_dict_set(set, other->keys[slot], 0)))
        return 0;
    }
    return 1;
  }
  /* Intersection keeps the elements `other` has, difference those it
     lacks: delete the others in place. */
  int32_t keep = operation == KILN_SET_INTERSECTION;
  for (int64_t slot = 0; slot < set->used; ++slot) {
    if (!set->live[slot])
      continue;
    int32_t has = kiln_set_has(other, set->keys[slot]);
    if (has < 0)
      return 0;
    if (has != keep)
      kiln_dict_erase_at(set, slot);
  }
  return 1;
}
