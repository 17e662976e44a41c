/* Python str in Kiln-compiled code: the runtime half of the kiln dialect's
   str ops, on runtime/kiln_abi.h's kiln_str. kilnc links this file (with
   kiln_journal.c, and kiln_list.c for split's lists) into every artifact
   whose code calls one of the functions below; LLVM inlines the small
   ones.

   Layout: PEP 393's, as CPython holds a str: `length` code points of `kind`
   bytes each (1, 2 or 4), the narrowest kind that holds the largest, then
   `kind` zero bytes. Every string made here is in that canonical form (a
   slice of "aĀ" without the Ā is one byte a code point again), so equal
   texts have equal kinds and bytes: equality and hashing read bytes.

   Semantics: each function is CPython 3.11's str operation of the same
   name on the same text, with CPython 3.11's Unicode database (14.0),
   whose tables kiln_unicode.h holds (written by make_unicode_tables.py
   from CPython's own str methods). Where CPython would raise for an
   argument (an index out of range, a zero step, an empty separator) the
   compiler checks before calling; the comment of each function says so.

   Memory: as lists (kiln_list.c). A string made here is one malloc block
   with refcount 1, in the thread's journal (kiln_journal.c says why) until
   it is freed or handed out, and freed by the release of its last
   reference. Arguments are borrowed. A function may return one of its
   arguments with a new reference where CPython returns the same object
   (s.strip() with nothing to strip, s * 1, s + "", a full slice, one item
   joined) and also where CPython would make an equal copy (s.lower() that
   changes nothing): strings never change, so only `is` could tell.

   Immortal strings are never freed: literals (refcount from
   KILN_STR_IMMORTAL, living in a module's shared constant data), the empty
   string and the one-character strings of the 256 code points below 256
   here (so that `s[i]` in a loop allocates nothing, as CPython's latin-1
   cache does). This file never writes to one: taking or dropping a
   reference skips them, and their hash is computed each time rather than
   cached. A function returning kiln_str * returns NULL only when there is
   no memory (MemoryError). */

#include "kiln_abi.h"
#include "kiln_journal.h"
#include "kiln_unicode.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* kiln_list.c's, for split() (kilnc links both when code splits). */
KILN_JOURNAL_OPAQUE kiln_list *kiln_list_new(int64_t item_size, int64_t capacity);
KILN_JOURNAL_OPAQUE int32_t kiln_list_reserve(kiln_list *list, int64_t needed);
void kiln_list_release(kiln_list *list);

/* ---- references and allocation */

/* An immortal string's count: KILN_STR_IMMORTAL, give or take what
   compiled code's own increments and decrements (kiln_str_drop) moved it. */
#define KILN_STR_MORTAL_LIMIT (KILN_STR_IMMORTAL >> 1)

static inline int kiln_str_immortal(const kiln_str *s) {
  return s->refcount >= KILN_STR_MORTAL_LIMIT;
}

/* A new reference to s (an immortal string is not written: it may be in
   constant data shared by threads). */
static inline kiln_str *kiln_str_ref(kiln_str *s) {
  if (!kiln_str_immortal(s))
    ++s->refcount;
  return s;
}

/* The static strings: kiln_str's layout with room for one code point and
   its terminator (kilnc compiles runtime code with -fno-strict-aliasing;
   the static_asserts keep the layouts one). Writable, as compiled code's
   inline decrements may touch them. */
typedef struct {
  int64_t refcount;
  int64_t length;
  int64_t hash;
  int64_t journal_index;
  int32_t kind;
  int32_t outside_references;
  uint8_t data[8];
} kiln_str_static;
_Static_assert(offsetof(kiln_str_static, data) == sizeof(kiln_str),
               "kiln_str_static must have kiln_str's layout");
_Static_assert(offsetof(kiln_str_static, kind) == offsetof(kiln_str, kind),
               "kiln_str_static must have kiln_str's layout");

#define KILN_STR_ONE(c) {KILN_STR_IMMORTAL, 1, -1, -1, 1, 0, {(uint8_t)(c), 0}}
#define KILN_STR_SIXTEEN(h)                                                    \
  KILN_STR_ONE(h + 0), KILN_STR_ONE(h + 1), KILN_STR_ONE(h + 2), KILN_STR_ONE(h + 3),       \
      KILN_STR_ONE(h + 4), KILN_STR_ONE(h + 5), KILN_STR_ONE(h + 6), KILN_STR_ONE(h + 7),   \
      KILN_STR_ONE(h + 8), KILN_STR_ONE(h + 9), KILN_STR_ONE(h + 10), KILN_STR_ONE(h + 11), \
      KILN_STR_ONE(h + 12), KILN_STR_ONE(h + 13), KILN_STR_ONE(h + 14), KILN_STR_ONE(h + 15)
static kiln_str_static kiln_str_latin1[256] = {
    KILN_STR_SIXTEEN(0x00), KILN_STR_SIXTEEN(0x10), KILN_STR_SIXTEEN(0x20),
    KILN_STR_SIXTEEN(0x30), KILN_STR_SIXTEEN(0x40), KILN_STR_SIXTEEN(0x50),
    KILN_STR_SIXTEEN(0x60), KILN_STR_SIXTEEN(0x70), KILN_STR_SIXTEEN(0x80),
    KILN_STR_SIXTEEN(0x90), KILN_STR_SIXTEEN(0xA0), KILN_STR_SIXTEEN(0xB0),
    KILN_STR_SIXTEEN(0xC0), KILN_STR_SIXTEEN(0xD0), KILN_STR_SIXTEEN(0xE0),
    KILN_STR_SIXTEEN(0xF0)};
#undef KILN_STR_SIXTEEN
#undef KILN_STR_ONE
static kiln_str_static kiln_str_empty_static = {KILN_STR_IMMORTAL, 0, -1, -1, 1, 0, {0}};

/* A new reference to "" / to the string of one code point below 256. */
static inline kiln_str *kiln_str_empty(void) { return (kiln_str *)&kiln_str_empty_static; }
static inline kiln_str *kiln_str_latin1_char(uint32_t code) {
  return (kiln_str *)&kiln_str_latin1[code];
}


/* The longest string whose block size fits an int64_t. */
static inline int64_t kiln_str_max_length(int32_t kind) {
  return (INT64_MAX - (int64_t)sizeof(kiln_str)) / kind - 1;
}

/* A new string of `length` code points of `kind` bytes (1, 2 or 4), its
   data uninitialized but for the trailing zeros: the caller fills it in
   that kind, which must be the narrowest that holds its code points (a
   malloc'd block, never one of the static strings, even when empty). */
KILN_JOURNAL_OPAQUE kiln_str *kiln_str_new(int64_t length, int32_t kind) {
  if ((kind != 1 && kind != 2 && kind != 4) || length < 0 || length > kiln_str_max_length(kind) ||
      (uint64_t)((length + 1) * kind) > (uint64_t)(SIZE_MAX - sizeof(kiln_str)))
    return NULL;
  kiln_str *s = (kiln_str *)malloc(sizeof(kiln_str) + (size_t)((length + 1) * kind));
  if (!s)
    return NULL;
  s->refcount = 1;
  s->length = length;
  s->hash = -1;
  s->kind = kind;
  s->outside_references = 0;
  memset(kiln_str_data(s) + length * kind, 0, (size_t)kind);
  kiln_journal_push(s, &s->journal_index, kiln_journal_unwind_str);
  return s;
}

KILN_JOURNAL_OPAQUE static void kiln_str_free(kiln_str *s) {
  kiln_journal_remove(s, s->journal_index);
  free(s);
}

/* Drops a reference (Python's decref); the last one frees the string. The
   decrement inlines, the free does not. */
void kiln_str_release(kiln_str *s) {
  if (!kiln_str_immortal(s) && --s->refcount == 0)
    kiln_str_free(s);
}

/* `o.name = value` of a str field of an instance (runtime/kiln_abi.h's
   object layout; `field` is the slot): the instance is a CPython object,
   outside the journal, so the string is adopted as a caller's container
   adopts it (a raise keeps it alive for the instance), and the string the
   field held, if any (NULL: never set), is given up after the store. */
void kiln_str_store_field(kiln_str **field, kiln_str *value) {
  kiln_journal_adopt_str(-1, value);
  kiln_str *old = *field;
  *field = value;
  if (old)
    kiln_journal_give_up_str(-1, old);
}

/* The string a raised exception's message quotes ({!r}: kiln-lower-checks
   calls this on the raising path only): a copy outside the journal, which
   the unwind that follows frees the function's strings from; the error
   record owns it (runtime/kiln_abi.h, kiln_error_clear). 0 when there is no
   memory (the message then lacks the text). */
int64_t kiln_error_keep_str(int64_t text) {
  kiln_str *s = (kiln_str *)(intptr_t)text;
  if (!s || kiln_str_immortal(s))
    return text;
  size_t bytes = sizeof(kiln_str) + (size_t)((s->length + 1) * s->kind);
  kiln_str *kept = (kiln_str *)malloc(bytes);
  if (!kept)
    return 0;
  memcpy(kept, s, bytes);
  kept->refcount = 1;
  kept->journal_index = -1;
  return (int64_t)(intptr_t)kept;
}

/* ---- code points */

static inline uint32_t kiln_str_read(int32_t kind, const uint8_t *data, int64_t i) {
  if (kind == 1)
    return data[i];
  if (kind == 2)
    return ((const uint16_t *)data)[i];
  return ((const uint32_t *)data)[i];
}

static inline void kiln_str_write(int32_t kind, uint8_t *data, int64_t i, uint32_t code) {
  if (kind == 1)
    data[i] = (uint8_t)code;
  else if (kind == 2)
    ((uint16_t *)data)[i] = (uint16_t)code;
  else
    ((uint32_t *)data)[i] = code;
}

static inline uint32_t kiln_str_at(const kiln_str *s, int64_t i) {
  return kiln_str_read(s->kind, kiln_str_data(s), i);
}

/* The kind a code point needs; of a bitwise OR of code points, the kind
   their largest needs (the bounds are powers of two). */
static inline int32_t kiln_str_kind_for(uint32_t codes) {
  return codes < 0x100 ? 1 : codes < 0x10000 ? 2 : 4;
}

/* The narrowest kind that holds `count` code points of `kind` at data. */
static int32_t kiln_str_narrowest(int32_t kind, const uint8_t *data, int64_t count) {
  uint32_t codes = 0;
  if (kind == 2) {
    const uint16_t *units = (const uint16_t *)data;
    for (int64_t i = 0; i < count; ++i)
      codes |= units[i];
  } else if (kind == 4) {
    const uint32_t *units = (const uint32_t *)data;
    for (int64_t i = 0; i < count; ++i)
      codes |= units[i];
  }
  return kiln_str_kind_for(codes);
}

/* Copies `count` code points from one kind to another (a narrower one
   only when they fit). */
static void kiln_str_convert(int32_t to_kind, uint8_t *to, int32_t from_kind, const uint8_t *from,
                             int64_t count) {
  if (to_kind == from_kind) {
    memcpy(to, from, (size_t)(count * to_kind));
    return;
  }
#define KILN_STR_CONVERT(to_type, from_type)                                   \
  do {                                                                         \
    to_type *out = (to_type *)to;                                              \
    const from_type *in = (const from_type *)from;                             \
    for (int64_t i = 0; i < count; ++i)                                        \
      out[i] = (to_type)in[i];                                                 \
  } while (0)
  switch (to_kind * 8 + from_kind) {
  case 2 * 8 + 1: KILN_STR_CONVERT(uint16_t, uint8_t); break;
  case 4 * 8 + 1: KILN_STR_CONVERT(uint32_t, uint8_t); break;
  case 4 * 8 + 2: KILN_STR_CONVERT(uint32_t, uint16_t); break;
  case 1 * 8 + 2: KILN_STR_CONVERT(uint8_t, uint16_t); break;
  case 1 * 8 + 4: KILN_STR_CONVERT(uint8_t, uint32_t); break;
  case 2 * 8 + 4: KILN_STR_CONVERT(uint16_t, uint32_t); break;
  default: break;
  }
#undef KILN_STR_CONVERT
}

/* The string of `length` code points of any kind at data (aligned for
   that kind), in the narrowest kind; "" and single code points below 256
   are the static strings. */
kiln_str *kiln_str_from_data(int32_t kind, const void *data, int64_t length) {
  if (length == 0)
    return kiln_str_empty();
  const uint8_t *bytes = (const uint8_t *)data;
  if (length == 1 && kiln_str_read(kind, bytes, 0) < 0x100)
    return kiln_str_latin1_char(kiln_str_read(kind, bytes, 0));
  int32_t narrow = kiln_str_narrowest(kind, bytes, length);
  kiln_str *s = kiln_str_new(length, narrow);
  if (s)
    kiln_str_convert(narrow, kiln_str_data(s), kind, bytes, length);
  return s;
}

/* s[start:start + count], 0 <= start <= start + count <= len(s): s itself
   when it is all of it. */
static kiln_str *kiln_str_substring(kiln_str *s, int64_t start, int64_t count) {
  if (start == 0 && count == s->length)
    return kiln_str_ref(s);
  return kiln_str_from_data(s->kind, kiln_str_data(s) + start * s->kind, count);
}

/* bytes.decode('utf-8') of valid UTF-8 (a string literal's, the Python
   wrapper's): the code points in the narrowest kind. Invalid input makes
   some string, never a write out of bounds. */
kiln_str *kiln_str_from_utf8(const char *bytes, int64_t size) {
  const uint8_t *in = (const uint8_t *)bytes;
  int64_t length = 0;
  uint8_t top = 0;
  for (int64_t i = 0; i < size; ++i) {
    length += (in[i] & 0xC0) != 0x80;
    if (in[i] > top)
      top = in[i];
  }
  if (top < 0x80) /* ASCII */
    return kiln_str_from_data(1, in, size);
  /* A lead byte below 0xC4 starts a code point below 0x100; below 0xF0, one
     below 0x10000 (continuation bytes are all below 0xC0). */
  int32_t kind = top < 0xC4 ? 1 : top < 0xF0 ? 2 : 4;
  if (length == 1 && kind == 1 && size == 2) /* one code point in 0x80..0xFF */
    return kiln_str_latin1_char((uint32_t)(in[0] & 0x1F) << 6 | (in[1] & 0x3F));
  kiln_str *s = kiln_str_new(length, kind);
  if (!s)
    return NULL;
  int64_t i = 0, k = 0;
  while (i < size && k < length) {
    uint32_t code = in[i];
    int extra = code < 0xC0 ? 0 : code < 0xE0 ? 1 : code < 0xF0 ? 2 : 3;
    if (extra)
      code &= 0x3F >> extra;
    ++i;
    for (int n = 0; n < extra && i < size; ++n)
      code = code << 6 | (in[i++] & 0x3F);
    kiln_str_write(kind, kiln_str_data(s), k++, code);
  }
  while (k < length)
    kiln_str_write(kind, kiln_str_data(s), k++, 0xFFFD);
  return s;
}

/* ---- the Unicode tables (kiln_unicode.h) */

/* The property bits (KILN_UNICODE_*) of a code point. */
static inline uint32_t kiln_unicode_properties(uint32_t code) {
  if (code < 256)
    return kiln_unicode_latin1[code];
  int64_t low = 0, high = KILN_UNICODE_RANGES - 1;
  while (low < high) {
    int64_t middle = (low + high + 1) / 2;
    if (kiln_unicode_starts[middle] <= code)
      low = middle;
    else
      high = middle - 1;
  }
  return kiln_unicode_masks[low];
}

static inline int kiln_unicode_space(uint32_t code) {
  return (kiln_unicode_properties(code) & KILN_UNICODE_SPACE) != 0;
}

/* The value of a decimal digit (str.isdecimal()): its distance from the
   zero of its run. */
static int kiln_unicode_decimal_value(uint32_t code) {
  int64_t low = 0, high = KILN_UNICODE_DECIMAL_ZEROS - 1;
  while (low < high) {
    int64_t middle = (low + high + 1) / 2;
    if (kiln_unicode_decimal_zeros[middle] <= code)
      low = middle;
    else
      high = middle - 1;
  }
  return (int)(code - kiln_unicode_decimal_zeros[low]);
}

/* str.lower() / str.upper() of one code point (`runs` and `specials` are
   kiln_unicode.h's of the one or the other) into out: how many code
   points (1 to 3). */
static int kiln_unicode_map(uint32_t code, const kiln_unicode_case_run *runs, int64_t count,
                            const uint32_t (*specials)[3], uint32_t out[3]) {
  int64_t low = 0, high = count - 1;
  while (low < high) {
    int64_t middle = (low + high + 1) / 2;
    if (runs[middle].first <= code)
      low = middle;
    else
      high = middle - 1;
  }
  const kiln_unicode_case_run *run = &runs[low];
  out[0] = code;
  if (code < run->first || code > run->last)
    return 1;
  if (run->stride == 0) {
    const uint32_t *special = specials[run->delta];
    int n = 0;
    while (n < 3 && special[n]) {
      out[n] = special[n];
      ++n;
    }
    return n;
  }
  if ((code - run->first) % (uint32_t)run->stride == 0)
    out[0] = (uint32_t)((int64_t)code + run->delta);
  return 1;
}

/* ---- hashing, comparison, characters */

static inline uint64_t kiln_str_rotate(uint64_t x, int by) { return x << by | x >> (64 - by); }

/* hash(s) for Kiln's dicts and sets (not CPython's hash: iteration follows
   insertion order, never hashes): the bytes and the length (the kind is
   canonical, so equal texts have equal bytes), 8 bytes a step, mixed by
   multiplications with odd constants and a final avalanche (splitmix64's).
   Never -1 (the "not computed" mark); cached in the string unless it is
   immortal (shared constant data is never written). */
int64_t kiln_str_hash(kiln_str *s) {
  if (s->hash != -1)
    return s->hash;
  const uint8_t *p = kiln_str_data(s);
  int64_t size = s->length * s->kind;
  uint64_t h = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(s->length + 1);
  while (size >= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    h = (kiln_str_rotate(h, 25) ^ word) * UINT64_C(0xD6E8FEB86659FD93);
    p += 8;
    size -= 8;
  }
  if (size) {
    uint64_t word = 0;
    memcpy(&word, p, (size_t)size);
    h = (kiln_str_rotate(h, 25) ^ word ^ (uint64_t)size << 56) * UINT64_C(0xD6E8FEB86659FD93);
  }
  h ^= h >> 30;
  h *= UINT64_C(0xBF58476D1CE4E5B9);
  h ^= h >> 27;
  h *= UINT64_C(0x94D049BB133111EB);
  h ^= h >> 31;
  int64_t hash = (int64_t)h;
  if (hash == -1)
    hash = -2;
  if (!kiln_str_immortal(s))
    s->hash = hash;
  return hash;
}

/* a == b: the same kind and bytes (both canonical). */
int32_t kiln_str_equal(kiln_str *a, kiln_str *b) {
  if (a == b)
    return 1;
  if (a->length != b->length || a->kind != b->kind)
    return 0;
  if (a->hash != -1 && b->hash != -1 && a->hash != b->hash)
    return 0;
  return memcmp(kiln_str_data(a), kiln_str_data(b), (size_t)(a->length * a->kind)) == 0;
}

/* Python's a < b, a == b, a > b on str: the first differing code point,
   else the shorter first. <0, 0 or >0. */
int32_t kiln_str_compare(kiln_str *a, kiln_str *b) {
  int64_t common = a->length < b->length ? a->length : b->length;
  if (a->kind == 1 && b->kind == 1) {
    int order = memcmp(kiln_str_data(a), kiln_str_data(b), (size_t)common);
    if (order)
      return order < 0 ? -1 : 1;
  } else {
    for (int64_t i = 0; i < common; ++i) {
      uint32_t x = kiln_str_at(a, i), y = kiln_str_at(b, i);
      if (x != y)
        return x < y ? -1 : 1;
    }
  }
  return a->length < b->length ? -1 : a->length > b->length;
}

/* ord(s[position]), position already in [0, len(s)). */
int64_t kiln_str_code_at(kiln_str *s, int64_t position) { return kiln_str_at(s, position); }

/* chr(code), code already in [0, 0x110000) (ValueError is the compiler's):
   a static string below 256. */
kiln_str *kiln_str_chr(int64_t code) {
  uint32_t c = (uint32_t)code;
  if (c < 0x100)
    return kiln_str_latin1_char(c);
  int32_t kind = kiln_str_kind_for(c);
  kiln_str *s = kiln_str_new(1, kind);
  if (s)
    kiln_str_write(kind, kiln_str_data(s), 0, c);
  return s;
}

/* s[position], position already in [0, len(s)) (normalized by the
   compiler, which raises IndexError). */
kiln_str *kiln_str_char_at(kiln_str *s, int64_t position) {
  return kiln_str_chr(kiln_str_at(s, position));
}

/* ---- concatenation, repetition, slices */

/* a + b: a or b itself when the other is empty. */
kiln_str *kiln_str_concat(kiln_str *a, kiln_str *b) {
  if (b->length == 0)
    return kiln_str_ref(a);
  if (a->length == 0)
    return kiln_str_ref(b);
  int32_t kind = a->kind > b->kind ? a->kind : b->kind;
  if (a->length > INT64_MAX - b->length)
    return NULL;
  kiln_str *s = kiln_str_new(a->length + b->length, kind);
  if (!s)
    return NULL;
  kiln_str_convert(kind, kiln_str_data(s), a->kind, kiln_str_data(a), a->length);
  kiln_str_convert(kind, kiln_str_data(s) + a->length * kind, b->kind, kiln_str_data(b), b->length);
  return s;
}

/* `s += t`: s + t, consuming the caller's reference to s. When that
   reference is s's only one, s grows in place, its block over-allocated by
   a quarter (malloc_usable_size says how much room it has), so a loop of
   appends costs amortized constant time per code point, as CPython's
   in-place resize of a string only its name holds; otherwise a new
   string, and s's reference is released. NULL: no memory (s released). */
kiln_str *kiln_str_append(kiln_str *s, kiln_str *t) {
  int32_t kind = s->kind > t->kind ? s->kind : t->kind;
  if (t->length == 0)
    return s;                       /* the reference moves through */
  if (s->refcount != 1 || kiln_str_immortal(s) || s->kind != kind || t == s) {
    kiln_str *result = kiln_str_concat(s, t);
    kiln_str_release(s);
    return result;
  }
  if (s->length > kiln_str_max_length(kind) - t->length) {
    kiln_str_release(s);
    return NULL;
  }
  int64_t length = s->length + t->length;
  size_t needed = sizeof(kiln_str) + (size_t)((length + 1) * kind);
  if (needed > malloc_usable_size(s)) {
    size_t grown = needed + needed / 4 + 16;
    if (grown < needed)
      grown = needed;
    kiln_str *moved = (kiln_str *)realloc(s, grown);
    if (!moved) {
      kiln_str_release(s);
      return NULL;
    }
    if (moved->journal_index >= 0)
      kiln_journal_moved(moved, moved->journal_index, &moved->journal_index);
    s = moved;
  }
  kiln_str_convert(kind, kiln_str_data(s) + s->length * kind, t->kind, kiln_str_data(t),
                   t->length);
  s->length = length;
  memset(kiln_str_data(s) + length * kind, 0, (size_t)kind);
  s->hash = -1;
  return s;
}

/* s * count: "" when count <= 0 or s is empty, s itself when count is 1;
   NULL when the result would be too long (CPython: OverflowError or
   MemoryError) or there is no memory. */
kiln_str *kiln_str_repeat(kiln_str *s, int64_t count) {
  if (count <= 0 || s->length == 0)
    return kiln_str_empty();
  if (count == 1)
    return kiln_str_ref(s);
  if (count > INT64_MAX / s->length)
    return NULL;
  kiln_str *result = kiln_str_new(s->length * count, s->kind);
  if (!result)
    return NULL;
  int64_t size = s->length * s->kind, total = size * count;
  if (size == 1) {
    memset(kiln_str_data(result), kiln_str_data(s)[0], (size_t)total);
  } else {
    /* one copy, then doubling what is there */
    memcpy(kiln_str_data(result), kiln_str_data(s), (size_t)size);
    int64_t done = size;
    while (done < total) {
      int64_t chunk = done < total - done ? done : total - done;
      memcpy(kiln_str_data(result) + done, kiln_str_data(result), (size_t)chunk);
      done += chunk;
    }
  }
  return result;
}

/* kiln_list.c's kiln_slice_indices (CPython's PySlice_Unpack and
   PySlice_AdjustIndices), for a string of `length` code points: *start
   becomes the first index, *step one that negates without overflow;
   returns how many code points the slice selects. Its own copy: the two
   files may be linked into one module. */
static int64_t kiln_str_slice_indices(int64_t length, int64_t *start, int64_t stop, int64_t *step,
                                      int32_t present) {
  if (*step < -INT64_MAX)
    *step = -INT64_MAX;
  int64_t by = *step;
  if (!(present & 1))
    *start = by < 0 ? INT64_MAX : 0;
  if (!(present & 2))
    stop = by < 0 ? INT64_MIN : INT64_MAX;
  int64_t *ends[2] = {start, &stop};
  for (int i = 0; i < 2; ++i) {
    int64_t *end = ends[i];
    if (*end < 0) {
      *end += length;
      if (*end < 0)
        *end = by < 0 ? -1 : 0;
    } else if (*end >= length) {
      *end = by < 0 ? length - 1 : length;
    }
  }
  if (by < 0)
    return stop < *start ? (*start - stop - 1) / (-by) + 1 : 0;
  return *start < stop ? (stop - *start - 1) / by + 1 : 0;
}

/* s[start:stop:step]: `present` bit 0 when start was given, bit 1 when
   stop was (None otherwise); step is not 0 (the compiler raised
   ValueError). s itself for a slice of all of it. */
kiln_str *kiln_str_slice(kiln_str *s, int64_t start, int64_t stop, int64_t step, int32_t present) {
  int64_t count = kiln_str_slice_indices(s->length, &start, stop, &step, present);
  if (count == 0)
    return kiln_str_empty();
  if (step == 1 || count == 1)
    return kiln_str_substring(s, start, count);
  int32_t kind = s->kind;
  uint32_t codes = 0;
  if (kind > 1)
    for (int64_t k = 0; k < count; ++k)
      codes |= kiln_str_at(s, start + k * step);
  int32_t narrow = kiln_str_kind_for(codes);
  kiln_str *result = kiln_str_new(count, narrow);
  if (!result)
    return NULL;
  for (int64_t k = 0; k < count; ++k)
    kiln_str_write(narrow, kiln_str_data(result), k, kiln_str_at(s, start + k * step));
  return result;
}

/* ---- searching */

/* The search of `m` >= 1 code points p in s[from:to]: the first (or
   last) i with s[i:i + m] == p, or -1. One version per pair of kinds (the
   pattern never wider than the text: canonical strings). Short ranges are
   scanned directly (first and last code point, then the rest); long ones
   with Horspool's skip table, indexed by the low byte of a code point
   (code points sharing it share the smallest skip, which is safe). */
#define KILN_STR_SEARCHES(suffix, text_type, pattern_type)                     \
  static int kiln_str_matches_##suffix(const text_type *s, const pattern_type *p, int64_t m) { \
    for (int64_t j = 0; j < m; ++j)                                            \
      if ((uint32_t)s[j] != (uint32_t)p[j])                                    \
        return 0;                                                              \
    return 1;                                                                  \
  }                                                                            \
  static int64_t kiln_str_forward_##suffix(const text_type *s, int64_t from, int64_t to,     \
                                           const pattern_type *p, int64_t m) {  \
    int64_t last = to - m;                                                     \
    uint32_t first_code = p[0], last_code = p[m - 1];                          \
    if (m == 1) {                                                              \
      for (int64_t i = from; i < to; ++i)                                      \
        if ((uint32_t)s[i] == first_code)                                      \
          return i;                                                            \
      return -1;                                                               \
    }                                                                          \
    if (m < 3 || last - from < 256) {                                          \
      for (int64_t i = from; i <= last; ++i)                                   \
        if ((uint32_t)s[i] == first_code && (uint32_t)s[i + m - 1] == last_code && \
            kiln_str_matches_##suffix(s + i + 1, p + 1, m - 2))                 \
          return i;                                                            \
      return -1;                                                               \
    }                                                                          \
    uint32_t skip[256];                                                        \
    uint32_t most = m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;                 \
    for (int c = 0; c < 256; ++c)                                              \
      skip[c] = most;                                                          \
    for (int64_t j = 0; j < m - 1; ++j) {                                      \
      int64_t shift = m - 1 - j;                                               \
      skip[p[j] & 255] = shift > UINT32_MAX ? UINT32_MAX : (uint32_t)shift;    \
    }                                                                          \
    for (int64_t i = from; i <= last;) {                                       \
      uint32_t code = s[i + m - 1];                                            \
      if (code == last_code && kiln_str_matches_##suffix(s + i, p, m - 1))     \
        return i;                                                              \
      i += skip[code & 255];                                                   \
    }                                                                          \
    return -1;                                                                 \
  }                                                                            \
  static int64_t kiln_str_backward_##suffix(const text_type *s, int64_t from, int64_t to,    \
                                            const pattern_type *p, int64_t m) { \
    int64_t last = to - m;                                                     \
    uint32_t first_code = p[0];                                                \
    if (m < 3 || last - from < 256) {                                          \
      for (int64_t i = last; i >= from; --i)                                   \
        if ((uint32_t)s[i] == first_code && kiln_str_matches_##suffix(s + i + 1, p + 1, m - 1)) \
          return i;                                                            \
      return -1;                                                               \
    }                                                                          \
    /* the window moves left: the skip puts the nearest p[j] (j >= 1) equal   \
       to the text's code point under the window's first one */              \
    uint32_t skip[256];                                                        \
    uint32_t most = m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;                 \
    for (int c = 0; c < 256; ++c)                                              \
      skip[c] = most;                                                          \
    for (int64_t j = m - 1; j >= 1; --j)                                       \
      skip[p[j] & 255] = j > UINT32_MAX ? UINT32_MAX : (uint32_t)j;            \
    for (int64_t i = last; i >= from;) {                                       \
      uint32_t code = s[i];                                                    \
      if (code == first_code && kiln_str_matches_##suffix(s + i + 1, p + 1, m - 1)) \
        return i;                                                              \
      i -= skip[code & 255];                                                   \
    }                                                                          \
    return -1;                                                                 \
  }
KILN_STR_SEARCHES(11, uint8_t, uint8_t)
KILN_STR_SEARCHES(21, uint16_t, uint8_t)
KILN_STR_SEARCHES(22, uint16_t, uint16_t)
KILN_STR_SEARCHES(41, uint32_t, uint8_t)
KILN_STR_SEARCHES(42, uint32_t, uint16_t)
KILN_STR_SEARCHES(44, uint32_t, uint32_t)
#undef KILN_STR_SEARCHES

/* The first (backward: last) i in [from, to - len(sub)] where sub occurs
   in s, or -1; from and to are in [0, len(s)]. An empty sub occurs at
   from (backward: at to) when from <= to. */
static int64_t kiln_str_search(const kiln_str *s, int64_t from, int64_t to, const kiln_str *sub,
                               int backward) {
  int64_t m = sub->length;
  if (to - from < m)
    return -1;
  if (m == 0)
    return backward ? to : from;
  if (sub->kind > s->kind) /* it holds a code point s cannot */
    return -1;
  const void *text = kiln_str_data(s), *pattern = kiln_str_data(sub);
  if (s->kind == 1 && m == 1 && !backward) {
    const uint8_t *found =
        (const uint8_t *)memchr(kiln_str_data(s) + from, kiln_str_data(sub)[0], (size_t)(to - from));
    return found ? found - kiln_str_data(s) : -1;
  }
#define KILN_STR_SEARCH_CASE(suffix, text_type, pattern_type)                  \
  return backward ? kiln_str_backward_##suffix((const text_type *)text, from, to,         \
                                               (const pattern_type *)pattern, m)          \
                  : kiln_str_forward_##suffix((const text_type *)text, from, to,          \
                                              (const pattern_type *)pattern, m)
  switch (s->kind * 8 + sub->kind) {
  case 1 * 8 + 1: KILN_STR_SEARCH_CASE(11, uint8_t, uint8_t);
  case 2 * 8 + 1: KILN_STR_SEARCH_CASE(21, uint16_t, uint8_t);
  case 2 * 8 + 2: KILN_STR_SEARCH_CASE(22, uint16_t, uint16_t);
  case 4 * 8 + 1: KILN_STR_SEARCH_CASE(41, uint32_t, uint8_t);
  case 4 * 8 + 2: KILN_STR_SEARCH_CASE(42, uint32_t, uint16_t);
  default: KILN_STR_SEARCH_CASE(44, uint32_t, uint32_t);
  }
#undef KILN_STR_SEARCH_CASE
}

/* sub == s[at:at + len(sub)], which is within s. */
static int kiln_str_matches_at(const kiln_str *s, int64_t at, const kiln_str *sub) {
  if (sub->kind == s->kind)
    return memcmp(kiln_str_data(s) + at * s->kind, kiln_str_data(sub), (size_t)(sub->length * sub->kind)) == 0;
  if (sub->kind > s->kind)
    return sub->length == 0;
  for (int64_t j = 0; j < sub->length; ++j)
    if (kiln_str_at(s, at + j) != kiln_str_at(sub, j))
      return 0;
  return 1;
}

/* str.find & co.'s optional start and end (`present` bit 0: start given,
   bit 1: end given; None otherwise), as CPython's ADJUST_INDICES: end
   clamped to [0, len], start to >= 0 (it may pass len: then nothing is
   found). */
static void kiln_str_range(int64_t length, int64_t *start, int64_t *end, int32_t present) {
  if (!(present & 1))
    *start = 0;
  if (!(present & 2))
    *end = INT64_MAX;
  if (*end > length) {
    *end = length;
  } else if (*end < 0) {
    *end += length;
    if (*end < 0)
      *end = 0;
  }
  if (*start < 0) {
    *start += length;
    if (*start < 0)
      *start = 0;
  }
}

/* s.find(sub[, start[, end]]): `present` says which of start and end were
   given (bit 0, bit 1); any int64 values (Python clamps them). */
int64_t kiln_str_find(kiln_str *s, kiln_str *sub, int64_t start, int64_t end, int32_t present) {
  kiln_str_range(s->length, &start, &end, present);
  return kiln_str_search(s, start, end, sub, 0);
}

/* s.rfind(sub[, start[, end]]), as kiln_str_find. */
int64_t kiln_str_rfind(kiln_str *s, kiln_str *sub, int64_t start, int64_t end, int32_t present) {
  kiln_str_range(s->length, &start, &end, present);
  return kiln_str_search(s, start, end, sub, 1);
}

/* s.count(sub[, start[, end]]), as kiln_str_find: occurrences that do not
   overlap; an empty sub is counted between every two code points and at
   both ends. */
int64_t kiln_str_count(kiln_str *s, kiln_str *sub, int64_t start, int64_t end, int32_t present) {
  kiln_str_range(s->length, &start, &end, present);
  if (end - start < sub->length)
    return 0;
  if (sub->length == 0)
    return end - start + 1;
  int64_t count = 0;
  for (int64_t at = kiln_str_search(s, start, end, sub, 0); at >= 0;
       at = kiln_str_search(s, at + sub->length, end, sub, 0))
    ++count;
  return count;
}

/* sub in s. */
int32_t kiln_str_contains(kiln_str *s, kiln_str *sub) {
  return kiln_str_search(s, 0, s->length, sub, 0) >= 0;
}

/* s.startswith(prefix) (one str argument, no start or end). */
int32_t kiln_str_startswith(kiln_str *s, kiln_str *prefix) {
  return prefix->length <= s->length && kiln_str_matches_at(s, 0, prefix);
}

/* s.endswith(suffix) (one str argument, no start or end). */
int32_t kiln_str_endswith(kiln_str *s, kiln_str *suffix) {
  return suffix->length <= s->length && kiln_str_matches_at(s, s->length - suffix->length, suffix);
}

/* ---- strip, replace, case */

/* The code points s.strip(chars) removes: those of chars (a bitmap for the
   ones below 256), or whitespace (str.isspace()) when chars is NULL. */
typedef struct {
  const kiln_str *chars;
  uint64_t low[4];
} kiln_str_strip_set;

static void kiln_str_strip_set_init(kiln_str_strip_set *set, const kiln_str *chars) {
  set->chars = chars;
  memset(set->low, 0, sizeof set->low);
  if (!chars)
    return;
  for (int64_t i = 0; i < chars->length; ++i) {
    uint32_t code = kiln_str_at(chars, i);
    if (code < 256)
      set->low[code >> 6] |= UINT64_C(1) << (code & 63);
  }
}

static int kiln_str_strip_set_has(const kiln_str_strip_set *set, uint32_t code) {
  if (!set->chars)
    return kiln_unicode_space(code);
  if (code < 256)
    return (int)(set->low[code >> 6] >> (code & 63) & 1);
  const kiln_str *chars = set->chars;
  if (chars->kind == 1)
    return 0;
  for (int64_t i = 0; i < chars->length; ++i)
    if (kiln_str_at(chars, i) == code)
      return 1;
  return 0;
}

/* s.strip(chars) (sides 3), s.lstrip(chars) (1), s.rstrip(chars) (2);
   chars NULL for None (whitespace). s itself when nothing is stripped. */
kiln_str *kiln_str_strip(kiln_str *s, kiln_str *chars, int32_t sides) {
  kiln_str_strip_set set;
  kiln_str_strip_set_init(&set, chars);
  int64_t start = 0, stop = s->length;
  if (sides & 1)
    while (start < stop && kiln_str_strip_set_has(&set, kiln_str_at(s, start)))
      ++start;
  if (sides & 2)
    while (stop > start && kiln_str_strip_set_has(&set, kiln_str_at(s, stop - 1)))
      --stop;
  return kiln_str_substring(s, start, stop - start);
}

/* s.replace(old, replacement, count): the first `count` occurrences (all
   when count < 0), left to right without overlap; an empty `old` occurs
   before every code point and at the end. s itself when nothing is
   replaced. */
kiln_str *kiln_str_replace(kiln_str *s, kiln_str *old, kiln_str *replacement, int64_t count) {
  if (count < 0)
    count = INT64_MAX;
  int64_t length = s->length, m = old->length, r = replacement->length;
  /* How many replacements; and the code points of s that stay, when the
     result may be narrower than s: the occurrences replaced may have held
     all of its widest code points (old is as wide as s) and the
     replacement is narrower. */
  int64_t n = 0;
  uint32_t kept = 0;
  int narrowing = s->kind > 1 && old->kind == s->kind && (r == 0 || replacement->kind < s->kind);
  if (m == 0) {
    n = count < length + 1 ? count : length + 1;
  } else {
    int64_t from = 0;
    while (n < count) {
      int64_t at = kiln_str_search(s, from, length, old, 0);
      if (at < 0)
        break;
      if (narrowing)
        for (int64_t i = from; i < at; ++i)
          kept |= kiln_str_at(s, i);
      ++n;
      from = at + m;
    }
    if (narrowing)
      for (int64_t i = from; i < length; ++i)
        kept |= kiln_str_at(s, i);
  }
  if (n == 0 || (m == 0 && r == 0))
    return kiln_str_ref(s);
  int32_t kind = narrowing ? kiln_str_kind_for(kept) : s->kind;
  if (r && replacement->kind > kind)
    kind = replacement->kind;
  /* the result's length: length + n * (r - m), which must fit */
  int64_t total;
  if (r >= m) {
    if (n && r - m > (INT64_MAX - length) / n)
      return NULL;
    total = length + n * (r - m);
  } else {
    total = length - n * (m - r);
  }
  if (total == 0)
    return kiln_str_empty();
  kiln_str *result = kiln_str_new(total, kind);
  if (!result)
    return NULL;
  uint8_t *out = kiln_str_data(result);
  int64_t from = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t at = m == 0 ? k : kiln_str_search(s, from, length, old, 0);
    kiln_str_convert(kind, out, s->kind, kiln_str_data(s) + from * s->kind, at - from);
    out += (at - from) * kind;
    kiln_str_convert(kind, out, replacement->kind, kiln_str_data(replacement), r);
    out += r * kind;
    from = at + m;
  }
  kiln_str_convert(kind, out, s->kind, kiln_str_data(s) + from * s->kind, length - from);
  return result;
}

/* Whether the capital sigma at s[i] is final for lower(): after a cased
   letter and not before one, skipping case-ignorable code points either
   way (Unicode's Final_Sigma, as CPython reads it). */
static int kiln_str_final_sigma(const kiln_str *s, int64_t i) {
  const uint32_t cased = KILN_UNICODE_LOWER | KILN_UNICODE_UPPER | KILN_UNICODE_TITLE;
  uint32_t properties = 0;
  int64_t j = i - 1;
  for (; j >= 0; --j) {
    properties = kiln_unicode_properties(kiln_str_at(s, j));
    if (!(properties & KILN_UNICODE_CASE_IGNORABLE))
      break;
  }
  if (j < 0 || !(properties & cased))
    return 0;
  for (j = i + 1; j < s->length; ++j) {
    properties = kiln_unicode_properties(kiln_str_at(s, j));
    if (!(properties & KILN_UNICODE_CASE_IGNORABLE))
      break;
  }
  return j == s->length || !(properties & cased);
}

/* str.lower() (upper 0) or str.upper() (upper 1): full case mappings (one
   code point may become up to 3), and lower()'s final sigma. s itself
   when nothing changes. */
static kiln_str *kiln_str_change_case(kiln_str *s, int upper) {
  int64_t length = s->length;
  const uint8_t *data = kiln_str_data(s);
  if (s->kind == 1) {
    /* ASCII: byte by byte */
    uint8_t high = 0, changes = 0;
    for (int64_t i = 0; i < length; ++i) {
      high |= data[i];
      changes |= upper ? (uint8_t)(data[i] - 'a') < 26 : (uint8_t)(data[i] - 'A') < 26;
    }
    if (high < 0x80) {
      if (!changes)
        return kiln_str_ref(s);
      kiln_str *result = kiln_str_new(length, 1);
      if (!result)
        return NULL;
      for (int64_t i = 0; i < length; ++i) {
        uint8_t c = data[i];
        kiln_str_data(result)[i] = upper ? ((uint8_t)(c - 'a') < 26 ? c - 32 : c)
                                : ((uint8_t)(c - 'A') < 26 ? c + 32 : c);
      }
      return result;
    }
  }
  const kiln_unicode_case_run *runs = upper ? kiln_unicode_upper_runs : kiln_unicode_lower_runs;
  int64_t run_count = upper ? KILN_UNICODE_UPPER_RUNS : KILN_UNICODE_LOWER_RUNS;
  const uint32_t(*specials)[3] = upper ? kiln_unicode_upper_specials : kiln_unicode_lower_specials;
  /* First the result's length and kind (both sigmas of lower() have one
     kind), then the result. */
  int64_t total = 0;
  uint32_t codes = 0;
  int changed = 0;
  for (int64_t i = 0; i < length; ++i) {
    uint32_t code = kiln_str_at(s, i), out[3];
    int n = kiln_unicode_map(code, runs, run_count, specials, out);
    for (int k = 0; k < n; ++k)
      codes |= out[k];
    changed |= n != 1 || out[0] != code;
    total += n;
  }
  if (!changed)
    return kiln_str_ref(s);
  int32_t kind = kiln_str_kind_for(codes);
  kiln_str *result = kiln_str_new(total, kind);
  if (!result)
    return NULL;
  int64_t at = 0;
  for (int64_t i = 0; i < length; ++i) {
    uint32_t code = kiln_str_at(s, i), out[3];
    int n = kiln_unicode_map(code, runs, run_count, specials, out);
    if (!upper && code == 0x3A3 && kiln_str_final_sigma(s, i))
      out[0] = 0x3C2;
    for (int k = 0; k < n; ++k)
      kiln_str_write(kind, kiln_str_data(result), at++, out[k]);
  }
  return result;
}

/* s.lower() */
kiln_str *kiln_str_lower(kiln_str *s) { return kiln_str_change_case(s, 0); }

/* s.upper() */
kiln_str *kiln_str_upper(kiln_str *s) { return kiln_str_change_case(s, 1); }

/* s.isdigit(), s.isalpha(), ... (enum kiln_str_property): 1 or 0. As in
   CPython, False for "", and islower()/isupper() ask for one cased letter
   and none of the other case or titlecase. */
int32_t kiln_str_is(kiln_str *s, int32_t property) {
  if (s->length == 0)
    return 0;
  uint32_t bit;
  switch (property) {
  case KILN_STR_ISDIGIT: bit = KILN_UNICODE_DIGIT; break;
  case KILN_STR_ISALPHA: bit = KILN_UNICODE_ALPHA; break;
  case KILN_STR_ISALNUM: bit = KILN_UNICODE_ALNUM; break;
  case KILN_STR_ISSPACE: bit = KILN_UNICODE_SPACE; break;
  case KILN_STR_ISDECIMAL: bit = KILN_UNICODE_DECIMAL; break;
  case KILN_STR_ISNUMERIC: bit = KILN_UNICODE_NUMERIC; break;
  case KILN_STR_ISLOWER:
  case KILN_STR_ISUPPER: {
    uint32_t want = property == KILN_STR_ISLOWER ? KILN_UNICODE_LOWER : KILN_UNICODE_UPPER;
    uint32_t spoil = (KILN_UNICODE_LOWER | KILN_UNICODE_UPPER | KILN_UNICODE_TITLE) & ~want;
    int cased = 0;
    for (int64_t i = 0; i < s->length; ++i) {
      uint32_t properties = kiln_unicode_properties(kiln_str_at(s, i));
      if (properties & spoil)
        return 0;
      cased |= (properties & want) != 0;
    }
    return cased;
  }
  default: return 0;
  }
  for (int64_t i = 0; i < s->length; ++i)
    if (!(kiln_unicode_properties(kiln_str_at(s, i)) & bit))
      return 0;
  return 1;
}

/* ---- numbers */

/* str(value) for an int. */
kiln_str *kiln_str_from_int(int64_t value) {
  char digits[24];
  int count = 0;
  uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  do {
    digits[sizeof digits - 1 - count++] = (char)('0' + (int)(magnitude % 10));
    magnitude /= 10;
  } while (magnitude);
  if (value < 0)
    digits[sizeof digits - 1 - count++] = '-';
  return kiln_str_from_data(1, digits + sizeof digits - count, count);
}

/* The double that the decimal digits[0..count) times 10**exponent rounds
   to (strtod on text without a decimal point, which no locale changes). */
static double kiln_str_decimal_value(const char *digits, int count, int64_t exponent) {
  char text[900];
  if (count > (int)sizeof text - 32)
    count = (int)sizeof text - 32;
  memcpy(text, digits, (size_t)count);
  snprintf(text + count, sizeof text - (size_t)count, "e%lld", (long long)exponent);
  return strtod(text, NULL);
}

/* The shortest decimal digits[0..*count) that round-trip to x (> 0,
   finite), x ~ d.ddd * 10**(*exponent); among several of that length, the
   nearest x: repr()'s digits (CPython's _Py_dg_dtoa mode 0). The nearest
   decimal of each length (printf's %.*e, correctly rounded) is tried
   from 1 digit up; when it misses, so may only its neighbour on the other
   side of x (the rounding interval around x is not symmetric at powers of
   two), which is tried too. */
static void kiln_str_shortest_digits(double x, char *digits, int *count, int *exponent) {
  for (int precision = 1; precision <= 17; ++precision) {
    char text[64];
    snprintf(text, sizeof text, "%.*e", precision - 1, x);
    /* d[.ddd]e±xx: the digits around whatever the locale's decimal
       point is */
    int n = 0;
    const char *p = text;
    for (; *p && *p != 'e'; ++p)
      if (*p >= '0' && *p <= '9')
        digits[n++] = *p;
    int e = atoi(p + 1);
    double value = kiln_str_decimal_value(digits, n, e - (n - 1));
    if (value != x) {
      /* the neighbour: one unit of the last digit toward x */
      char other[24];
      memcpy(other, digits, (size_t)n);
      int other_e = e;
      if (value < x) {
        int k = n - 1;
        while (k >= 0 && other[k] == '9')
          other[k--] = '0';
        if (k >= 0) {
          ++other[k];
        } else { /* 99..9 + 1: 10..0, one place up */
          other[0] = '1';
          ++other_e;
        }
      } else {
        int k = n - 1;
        while (k >= 0 && other[k] == '0')
          other[k--] = '9';
        --other[k]; /* the first digit is not 0 */
        if (other[0] == '0') { /* 10..0 - 1: 99..9 (n digits), one place down */
          for (int j = 0; j < n; ++j)
            other[j] = '9';
          --other_e;
        }
      }
      if (kiln_str_decimal_value(other, n, other_e - (n - 1)) != x)
        continue;
      memcpy(digits, other, (size_t)n);
      e = other_e;
    }
    while (n > 1 && digits[n - 1] == '0')
      --n;
    *count = n;
    *exponent = e;
    return;
  }
  /* 17 digits always round-trip: not reached */
  *count = 1;
  digits[0] = '0';
  *exponent = 0;
}

/* str(value) == repr(value) for a float: the shortest digits that
   round-trip, laid out as CPython does: positional when the decimal
   exponent is in [-4, 16) (with ".0" when integral), else d.ddde±XX;
   'inf', '-inf', 'nan'. */
kiln_str *kiln_str_from_float(double value) {
  char text[64];
  int size = 0;
  if (isnan(value))
    return kiln_str_from_data(1, "nan", 3);
  if (signbit(value))
    text[size++] = '-';
  double x = fabs(value);
  if (isinf(x)) {
    memcpy(text + size, "inf", 3);
    size += 3;
  } else if (x == 0) {
    memcpy(text + size, "0.0", 3);
    size += 3;
  } else {
    char digits[24];
    int count, exponent;
    kiln_str_shortest_digits(x, digits, &count, &exponent);
    if (exponent < -4 || exponent >= 16) {
      text[size++] = digits[0];
      if (count > 1) {
        text[size++] = '.';
        memcpy(text + size, digits + 1, (size_t)(count - 1));
        size += count - 1;
      }
      size += snprintf(text + size, sizeof text - (size_t)size, "e%c%02d",
                       exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    } else if (exponent < 0) {
      text[size++] = '0';
      text[size++] = '.';
      for (int k = 0; k < -exponent - 1; ++k)
        text[size++] = '0';
      memcpy(text + size, digits, (size_t)count);
      size += count;
    } else {
      for (int k = 0; k <= exponent; ++k)
        text[size++] = k < count ? digits[k] : '0';
      text[size++] = '.';
      if (count > exponent + 1) {
        memcpy(text + size, digits + exponent + 1, (size_t)(count - exponent - 1));
        size += count - exponent - 1;
      } else {
        text[size++] = '0';
      }
    }
  }
  return kiln_str_from_data(1, text, size);
}

/* The character CPython's int() and float() read for s[i]: they first
   turn the text to ASCII (code points below 127 stay; other whitespace
   becomes ' ', other decimal digits their ASCII digit); -1 for any other
   code point, and for NUL, which ends CPython's C string early: either
   makes the text invalid. */
static int kiln_str_number_char(const kiln_str *s, int64_t i) {
  uint32_t code = kiln_str_at(s, i);
  if (code < 127)
    return code ? (int)code : -1;
  uint32_t properties = kiln_unicode_properties(code);
  if (properties & KILN_UNICODE_SPACE)
    return ' ';
  if (properties & KILN_UNICODE_DECIMAL)
    return '0' + kiln_unicode_decimal_value(code);
  return -1;
}

/* The whitespace int() and float() skip around the number (C's isspace in
   the C locale, after the step above). */
static inline int kiln_str_ascii_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static inline int kiln_str_ascii_digit(int c) { return c >= '0' && c <= '9'; }

/* The most decimal digits int() converts (CPython 3.11's default
   sys.get_int_max_str_digits(); more is ValueError). */
#define KILN_STR_INT_MAX_DIGITS 4300

/* int(s): 0 and *value; 1 when CPython raises ValueError (not an integer
   literal: whitespace, a sign, decimal digits with single underscores
   between them, whitespace; or more than 4300 digits); 2 when it is one
   but outside int64. */
int32_t kiln_str_to_int(kiln_str *s, int64_t *value) {
  int64_t length = s->length, i = 0;
  while (i < length && kiln_str_ascii_space(kiln_str_number_char(s, i)))
    ++i;
  int negative = 0;
  if (i < length) {
    int c = kiln_str_number_char(s, i);
    if (c == '+' || c == '-') {
      negative = c == '-';
      ++i;
    }
  }
  uint64_t magnitude = 0;
  int64_t digits = 0;
  int overflow = 0, previous = 0;
  for (; i < length; ++i) {
    int c = kiln_str_number_char(s, i);
    if (c == '_') {
      /* only one, between digits */
      if (!kiln_str_ascii_digit(previous))
        return 1;
    } else if (kiln_str_ascii_digit(c)) {
      uint64_t d = (uint64_t)(c - '0');
      if (magnitude > (UINT64_MAX - d) / 10)
        overflow = 1;
      else
        magnitude = magnitude * 10 + d;
      ++digits;
    } else {
      break;
    }
    previous = c;
  }
  if (digits == 0 || previous == '_')
    return 1;
  while (i < length && kiln_str_ascii_space(kiln_str_number_char(s, i)))
    ++i;
  if (i != length || digits > KILN_STR_INT_MAX_DIGITS)
    return 1;
  if (overflow || magnitude > (uint64_t)INT64_MAX + (uint64_t)negative)
    return 2;
  *value = negative ? (int64_t)((uint64_t)0 - magnitude) : (int64_t)magnitude;
  return 0;
}

/* The significant digits float() keeps: past them only whether any digit
   is not 0 matters (a double and the midpoints between doubles have at
   most 768 significant digits, so the kept digits and that one bit round
   as all of them would). */
#define KILN_STR_FLOAT_DIGITS 800

/* float(s): 0 and *value, or 1 when CPython raises ValueError. Whitespace
   around; a sign; 'inf', 'infinity' or 'nan' in any case, or decimal
   digits with an optional point (at least one digit) and an optional
   exponent (e, a sign, digits); single underscores only between digits.
   Correctly rounded; out of range is ±inf or ±0.0, as in CPython. */
int32_t kiln_str_to_float(kiln_str *s, double *value) {
  int64_t length = s->length;
  /* every character readable, every underscore between two digits */
  for (int64_t i = 0; i < length; ++i) {
    int c = kiln_str_number_char(s, i);
    if (c < 0)
      return 1;
    if (c == '_' && (i == 0 || i + 1 == length || !kiln_str_ascii_digit(kiln_str_number_char(s, i - 1)) ||
                     !kiln_str_ascii_digit(kiln_str_number_char(s, i + 1))))
      return 1;
  }
  int64_t i = 0, end = length;
  while (i < end && kiln_str_ascii_space(kiln_str_number_char(s, i)))
    ++i;
  while (end > i && kiln_str_ascii_space(kiln_str_number_char(s, end - 1)))
    --end;
  if (i == end)
    return 1;
  int negative = 0;
  int c = kiln_str_number_char(s, i);
  if (c == '+' || c == '-') {
    negative = c == '-';
    ++i;
  }
  /* inf, infinity, nan */
  static const char *const words[] = {"inf", "infinity", "nan"};
  for (int w = 0; w < 3; ++w) {
    int64_t size = (int64_t)strlen(words[w]);
    if (end - i != size)
      continue;
    int64_t k = 0;
    while (k < size && (kiln_str_number_char(s, i + k) | 0x20) == words[w][k])
      ++k;
    if (k == size) {
      *value = w < 2 ? (negative ? -HUGE_VAL : HUGE_VAL) : copysign(NAN, negative ? -1.0 : 1.0);
      return 0;
    }
  }
  char digits[KILN_STR_FLOAT_DIGITS + 1];
  int count = 0, sticky = 0;
  int64_t scale = 0, mantissa_digits = 0; /* value = digits * 10**scale */
  int seen_point = 0;
  for (; i < end; ++i) {
    c = kiln_str_number_char(s, i);
    if (c == '_')
      continue;
    if (c == '.' && !seen_point) {
      seen_point = 1;
      continue;
    }
    if (!kiln_str_ascii_digit(c))
      break;
    ++mantissa_digits;
    if (count == 0 && c == '0') { /* a leading zero */
      scale -= seen_point;
      continue;
    }
    if (count < KILN_STR_FLOAT_DIGITS) {
      digits[count++] = (char)c;
      scale -= seen_point;
    } else {
      sticky |= c != '0';
      scale += !seen_point;
    }
  }
  if (mantissa_digits == 0)
    return 1;
  if (i < end && (c == 'e' || c == 'E')) {
    int64_t k = i + 1, exponent = 0;
    int exponent_negative = 0, exponent_digits = 0;
    if (k < end) {
      int sign = kiln_str_number_char(s, k);
      if (sign == '+' || sign == '-') {
        exponent_negative = sign == '-';
        ++k;
      }
    }
    for (; k < end; ++k) {
      int d = kiln_str_number_char(s, k);
      if (d == '_')
        continue;
      if (!kiln_str_ascii_digit(d))
        break;
      ++exponent_digits;
      /* saturated far beyond any double */
      if (exponent < INT64_C(1000000000000000000) / 10)
        exponent = exponent * 10 + (d - '0');
    }
    if (exponent_digits) {
      scale += exponent_negative ? -exponent : exponent;
      i = k;
    }
  }
  if (i != end)
    return 1;
  double x;
  if (count == 0) {
    x = 0.0;
  } else {
    if (sticky) {
      digits[count++] = '1';
      --scale;
    }
    if (count + scale > 400)       /* at least 10**400 */
      x = HUGE_VAL;
    else if (count + scale < -400) /* below 10**-400 */
      x = 0.0;
    else
      x = kiln_str_decimal_value(digits, count, scale);
  }
  *value = negative ? -x : x;
  return 0;
}

/* ---- split and join (lists of str: item_kind KILN_ITEM_STR, each item
   one reference the list holds) */

/* Appends `item` (a new reference, or NULL: no memory) to the list; 0
   when there is no memory (the item released). */
static int kiln_str_list_append(kiln_list *list, kiln_str *item) {
  if (!item)
    return 0;
  if (list->length == list->capacity && !kiln_list_reserve(list, list->length + 1)) {
    kiln_str_release(item);
    return 0;
  }
  ((kiln_str **)list->items)[list->length++] = item;
  return 1;
}

/* Frees a list split was making: its items, then the list (emptied first,
   so that a list runtime that releases str items does not again). */
static kiln_list *kiln_str_list_fail(kiln_list *list) {
  for (int64_t i = 0; i < list->length; ++i)
    kiln_str_release(((kiln_str **)list->items)[i]);
  list->length = 0;
  kiln_list_release(list);
  return NULL;
}

/* s.split(sep, maxsplit): at most maxsplit splits (all when < 0), left to
   right. sep NULL (None): runs of whitespace (str.isspace()) separate, and
   none are at either end of the pieces (after the last split, the rest is
   kept as is but for its leading whitespace); sep is not "" (the compiler
   raised ValueError). A new list of new strings; NULL when there is no
   memory. */
kiln_list *kiln_str_split(kiln_str *s, kiln_str *sep, int64_t maxsplit) {
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  int64_t length = s->length;
  kiln_list *list = kiln_list_new(8, 12);
  if (!list)
    return NULL;
  list->item_kind = KILN_ITEM_STR;
  list->field_references = 0;
  if (sep) {
    int64_t from = 0, m = sep->length;
    for (; maxsplit > 0; --maxsplit) {
      int64_t at = kiln_str_search(s, from, length, sep, 0);
      if (at < 0)
        break;
      if (!kiln_str_list_append(list, kiln_str_substring(s, from, at - from)))
        return kiln_str_list_fail(list);
      from = at + m;
    }
    if (!kiln_str_list_append(list, kiln_str_substring(s, from, length - from)))
      return kiln_str_list_fail(list);
    return list;
  }
  int64_t i = 0;
  for (; maxsplit > 0; --maxsplit) {
    while (i < length && kiln_unicode_space(kiln_str_at(s, i)))
      ++i;
    if (i == length)
      break;
    int64_t start = i;
    while (i < length && !kiln_unicode_space(kiln_str_at(s, i)))
      ++i;
    if (!kiln_str_list_append(list, kiln_str_substring(s, start, i - start)))
      return kiln_str_list_fail(list);
  }
  while (i < length && kiln_unicode_space(kiln_str_at(s, i)))
    ++i;
  if (i < length && !kiln_str_list_append(list, kiln_str_substring(s, i, length - i)))
    return kiln_str_list_fail(list);
  return list;
}

/* sep.join(items), items a list of str (KILN_ITEM_STR): the one item
   itself when there is one. */
kiln_str *kiln_str_join(kiln_str *sep, kiln_list *items) {
  int64_t n = items->length;
  kiln_str **strings = (kiln_str **)items->items;
  if (n == 0)
    return kiln_str_empty();
  if (n == 1)
    return kiln_str_ref(strings[0]);
  int32_t kind = sep->length ? sep->kind : 1;
  if (sep->length > INT64_MAX / (n - 1))
    return NULL;
  int64_t total = sep->length * (n - 1);
  for (int64_t i = 0; i < n; ++i) {
    if (strings[i]->kind > kind)
      kind = strings[i]->kind;
    if (strings[i]->length > INT64_MAX - total)
      return NULL;
    total += strings[i]->length;
  }
  if (total == 0)
    return kiln_str_empty();
  kiln_str *result = kiln_str_new(total, kind);
  if (!result)
    return NULL;
  uint8_t *out = kiln_str_data(result);
  for (int64_t i = 0; i < n; ++i) {
    if (i && sep->length) {
      kiln_str_convert(kind, out, sep->kind, kiln_str_data(sep), sep->length);
      out += sep->length * kind;
    }
    kiln_str_convert(kind, out, strings[i]->kind, kiln_str_data(strings[i]), strings[i]->length);
    out += strings[i]->length * kind;
  }
  return result;
}
