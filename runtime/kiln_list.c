/* Python lists in Kiln-compiled code: the runtime half of
   kiln-lower-containers (passes/LowerContainers.cpp), which lowers the
   kiln dialect's list ops to inline code on runtime/kiln_abi.h's kiln_list
   and calls of the functions below. kilnc links this file into every
   artifact whose code calls one of them; LLVM inlines the small ones (an
   append that fits, a release that is not the last) into the kernels.

   Memory: a list and its items come from malloc and go back to free (a
   Python wrapper or a C caller frees returned lists with free() too,
   kiln_list_drop). A list is freed when its last reference goes
   (kiln_list_release); the frontend counts the references its names hold.
   Every list made while Kiln code runs is in the thread's journal of
   containers until it is freed or handed out (runtime/kiln_journal.c says
   why: a raising call frees what it made).

   Items that are references (a list of str: `item_kind` KILN_ITEM_STR,
   each item a kiln_str * whose reference the list holds). A raise unwinds
   every Kiln call on the thread up to the wrapper, so what survives an
   unwind is exactly what is not in the journal: the caller's containers
   and what they hold. Hence (runtime/kiln_journal.c):
   - a string the calls made and stored into a list outside the journal
     (the caller's) counts that reference as an outside one
     (kiln_journal_adopt_str); at an unwind it keeps exactly those;
   - a list the journal unwinds gives back its references to items outside
     the journal (kiln_list_release_outside_items) before anything is
     destroyed; the items in the journal are settled by their own entries;
   - a string taken out of a list (pop) with no other reference goes into
     the journal, as a string just made does. */

#include "kiln_abi.h"
#include "kiln_journal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* CPython's growth rule (Objects/listobject.c's list_resize, as documented
   there: new capacity about n + n/8 + 6, rounded to a multiple of 4), so a
   loop of appends reallocates O(log n) times. */
static int64_t kiln_list_grown_capacity(int64_t needed) {
  int64_t capacity = needed + (needed >> 3) + 6;
  return capacity & ~(int64_t)3;
}

static int kiln_list_set_capacity(kiln_list *list, int64_t capacity) {
  if (capacity < 1)
    capacity = 1;
  if ((uint64_t)capacity > (uint64_t)INT64_MAX / (uint64_t)list->item_size)
    return 0;
  void *items = realloc(list->items, (size_t)capacity * (size_t)list->item_size);
  if (!items)
    return 0;
  list->items = items;
  list->capacity = capacity;
  return 1;
}

/* Room for `needed` items; 0 when there is no memory (MemoryError). */
KILN_JOURNAL_OPAQUE int32_t kiln_list_reserve(kiln_list *list, int64_t needed) {
  if (needed <= list->capacity)
    return 1;
  if (needed < 0)
    return 0;
  int64_t capacity = kiln_list_grown_capacity(needed);
  return kiln_list_set_capacity(list, capacity < needed ? needed : capacity);
}

/* runtime/kiln_str.c, linked into every module that uses strings -- which
   a list of str implies; weak, so a module without strings links without
   it (these are called only for lists whose items are strings). */
void kiln_str_release(kiln_str *str) __attribute__((weak));
int32_t kiln_str_equal(kiln_str *a, kiln_str *b) __attribute__((weak));
int32_t kiln_str_compare(kiln_str *a, kiln_str *b) __attribute__((weak));

/* runtime/kiln_object.c, linked into every module that uses instances of
   exported classes -- which a list of them implies. */
void kiln_object_retain(void *object) __attribute__((weak));
void kiln_object_release(void *object) __attribute__((weak));

static inline int kiln_list_holds_references(const kiln_list *list) {
  return list->item_kind == KILN_ITEM_STR || list->item_kind == KILN_ITEM_OBJECT;
}

/* A string stored into `list`: one more reference, held by the list; out
   of the journal when the list is (see the top of this file). */
void kiln_list_adopt_str(kiln_list *list, kiln_str *str) {
  kiln_journal_adopt_str(list->journal_index, str);
}

/* The list lets go of its reference to `str`. */
static inline void kiln_list_give_up_str(kiln_list *list, kiln_str *str) {
  kiln_journal_give_up_str(list->journal_index, str);
}


/* An item stored into `list` that is a reference: a string is adopted
   (kiln_list_adopt_str), an instance retained (instances are CPython's,
   never in the journal). */
static inline void kiln_list_adopt_reference(kiln_list *list, void *item) {
  if (list->item_kind == KILN_ITEM_OBJECT)
    kiln_object_retain(item);
  else
    kiln_list_adopt_str(list, (kiln_str *)item);
}

static inline void kiln_list_give_up_reference(kiln_list *list, void *item) {
  if (list->item_kind == KILN_ITEM_OBJECT)
    kiln_object_release(item);
  else
    kiln_list_give_up_str(list, (kiln_str *)item);
}

/* The references items [from, from + count) hold go. */
static void kiln_list_release_items(kiln_list *list, int64_t from, int64_t count) {
  if (!kiln_list_holds_references(list))
    return;
  void **items = (void **)list->items;
  for (int64_t i = from; i < from + count; ++i)
    kiln_list_give_up_reference(list, items[i]);
}

/* Items [from, from + count) just copied into `list` from another list:
   each is adopted (one more reference; out of the journal when `list`
   is). */
static void kiln_list_retain_items(kiln_list *list, int64_t from, int64_t count) {
  if (!kiln_list_holds_references(list))
    return;
  void **items = (void **)list->items;
  for (int64_t i = from; i < from + count; ++i)
    kiln_list_adopt_reference(list, items[i]);
}

/* Frees the list's storage, not its items' (an unwind destroys those in
   the journal itself; kiln_list_free released them first otherwise). */
static void kiln_list_destroy(void *opaque) {
  kiln_list *list = (kiln_list *)opaque;
  free(list->items);
  free(list);
}

/* An unwound list's references to items outside the journal. */
static void kiln_list_release_outside_items(void *opaque) {
  kiln_list *list = (kiln_list *)opaque;
  if (!kiln_list_holds_references(list))
    return;
  if (list->item_kind == KILN_ITEM_OBJECT) {
    /* Instances are never in the journal: each is an outside reference. */
    for (int64_t i = 0; i < list->length; ++i)
      kiln_object_release(((void **)list->items)[i]);
    list->length = 0;
    return;
  }
  kiln_str **items = (kiln_str **)list->items;
  for (int64_t i = 0; i < list->length; ++i)
    if (items[i]->journal_index < 0)
      kiln_str_release(items[i]);
  list->length = 0;
}

/* A new empty list with room for `capacity` items (a hint); NULL when
   there is no memory. */
/* Small lists freed on a thread are kept for the next ones it makes (the
   list and its items, up to KILN_LIST_CACHED lists of at most
   KILN_LIST_CACHED_BYTES of items): a loop that makes and drops a few
   small lists per iteration then costs no malloc or free after its first
   iterations. Off under AddressSanitizer, whose use-after-free reports
   about lists are worth more than the speed. */
#if defined(__SANITIZE_ADDRESS__)
#define KILN_LIST_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_LIST_CACHE 0
#endif
#endif
#ifndef KILN_LIST_CACHE
#define KILN_LIST_CACHE 1
#endif
enum { KILN_LIST_CACHED = 32, KILN_LIST_CACHED_BYTES = 1024 };

typedef struct {
  kiln_list *lists[KILN_LIST_CACHED];
  int count;
} kiln_list_cache;

static __thread kiln_list_cache *kiln_current_list_cache;
static pthread_key_t kiln_list_cache_key;
static pthread_once_t kiln_list_cache_once = PTHREAD_ONCE_INIT;
static int kiln_list_cache_usable;

static void kiln_release_list_cache(void *opaque) {
  kiln_list_cache *cache = (kiln_list_cache *)opaque;
  kiln_current_list_cache = NULL;
  for (int i = 0; i < cache->count; ++i)
    kiln_list_destroy(cache->lists[i]);
  free(cache);
}

static void kiln_make_list_cache_key(void) {
  kiln_list_cache_usable =
      pthread_key_create(&kiln_list_cache_key, kiln_release_list_cache) == 0;
}

static kiln_list_cache *kiln_thread_list_cache(void) {
  if (kiln_current_list_cache || !KILN_LIST_CACHE)
    return kiln_current_list_cache;
  pthread_once(&kiln_list_cache_once, kiln_make_list_cache_key);
  if (!kiln_list_cache_usable)
    return NULL;
  kiln_list_cache *cache = (kiln_list_cache *)calloc(1, sizeof(kiln_list_cache));
  if (cache && pthread_setspecific(kiln_list_cache_key, cache) != 0) {
    free(cache);
    cache = NULL;
  }
  kiln_current_list_cache = cache;
  return cache;
}

/* A new empty list with room for `capacity` items (a hint); NULL when
   there is no memory. */
KILN_JOURNAL_OPAQUE kiln_list *kiln_list_new(int64_t item_size, int64_t capacity) {
  if (capacity <= 0)
    capacity = 4;
  kiln_list *list = NULL;
  kiln_list_cache *cache = kiln_thread_list_cache();
  if (cache && cache->count > 0 && capacity * item_size <= KILN_LIST_CACHED_BYTES) {
    /* A cached list has room for KILN_LIST_CACHED_BYTES of items. */
    list = cache->lists[--cache->count];
    list->capacity = KILN_LIST_CACHED_BYTES / item_size;
  } else {
    list = (kiln_list *)malloc(sizeof(kiln_list));
    if (!list)
      return NULL;
    list->capacity = 0;
    list->items = NULL;
    list->item_size = (int32_t)item_size;
    if (!kiln_list_set_capacity(list, capacity)) {
      free(list);
      return NULL;
    }
  }
  list->length = 0;
  list->refcount = 1;
  list->item_size = (int32_t)item_size;
  list->flags = 0;
  list->item_kind = KILN_ITEM_NONE;
  list->field_references = 0;
  kiln_journal_push_container(list, &list->journal_index, kiln_list_destroy,
                              kiln_list_release_outside_items);
  return list;
}

/* A new empty list whose items are of `item_kind` (kiln_list_new says
   nothing of them: enough for numbers, whose kind the compiled code knows;
   a list of str must say so). */
kiln_list *kiln_list_new_of(int64_t item_size, int64_t capacity, int32_t item_kind) {
  kiln_list *list = kiln_list_new(item_size, capacity);
  if (list)
    list->item_kind = item_kind;
  return list;
}

/* A new list with room for `capacity` items of the kind of `model`'s. */
static kiln_list *kiln_list_new_like(const kiln_list *model, int64_t capacity) {
  return kiln_list_new_of(model->item_size, capacity, model->item_kind);
}

KILN_JOURNAL_OPAQUE void kiln_list_free(kiln_list *list) {
  kiln_journal_remove(list, list->journal_index);
  kiln_list_release_items(list, 0, list->length);
  list->length = 0;
  kiln_list_cache *cache = kiln_thread_list_cache();
  int64_t bytes = list->capacity * list->item_size;
  if (cache && cache->count < KILN_LIST_CACHED && bytes <= KILN_LIST_CACHED_BYTES) {
    /* Kept with room for KILN_LIST_CACHED_BYTES, so any small list fits. */
    if (bytes < KILN_LIST_CACHED_BYTES) {
      void *items = realloc(list->items, KILN_LIST_CACHED_BYTES);
      if (!items) {
        kiln_list_destroy(list);
        return;
      }
      list->items = items;
    }
    cache->lists[cache->count++] = list;
    return;
  }
  kiln_list_destroy(list);
}

/* The last reference frees the list: the decrement inlines, the free does
   not. */
void kiln_list_release(kiln_list *list) {
  if (--list->refcount == 0)
    kiln_list_free(list);
}

void kiln_list_clear(kiln_list *list) {
  int64_t length = list->length;
  if (length)
    list->flags |= KILN_LIST_MODIFIED;
  /* emptied first: a released item cannot reach the list again */
  list->length = 0;
  kiln_list_release_items(list, 0, length);
}

void kiln_list_reverse(kiln_list *list) {
  int64_t size = list->item_size;
  char *items = (char *)list->items;
  char swap[8];
  for (int64_t low = 0, high = list->length - 1; low < high; ++low, --high) {
    memcpy(swap, items + low * size, (size_t)size);
    memcpy(items + low * size, items + high * size, (size_t)size);
    memcpy(items + high * size, swap, (size_t)size);
  }
  if (list->length > 1)
    list->flags |= KILN_LIST_MODIFIED;
}

/* `list.extend(other)`: `other` may be `list` itself. */
int32_t kiln_list_extend(kiln_list *list, kiln_list *other) {
  int64_t added = other->length;
  if (added == 0)
    return 1;
  if (!kiln_list_reserve(list, list->length + added))
    return 0;
  memcpy((char *)list->items + list->length * list->item_size, other->items,
         (size_t)(added * list->item_size));
  kiln_list_retain_items(list, list->length, added);
  list->length += added;
  list->flags |= KILN_LIST_MODIFIED;
  return 1;
}

/* Removes item `index` (already checked in range) and closes the gap; the
   item's reference, if it is one, goes with it (kiln_list_take_str keeps
   it). */
void kiln_list_delete(kiln_list *list, int64_t index) {
  kiln_list_release_items(list, index, 1);
  int64_t size = list->item_size;
  char *items = (char *)list->items;
  memmove(items + index * size, items + (index + 1) * size,
          (size_t)((list->length - index - 1) * size));
  --list->length;
  list->flags |= KILN_LIST_MODIFIED;
}

/* `list.insert(index, x)`: opens a gap and returns where x goes (Python
   clamps the index to [0, len]); -1 when there is no memory. */
int64_t kiln_list_open_slot(kiln_list *list, int64_t index) {
  int64_t length = list->length;
  if (index < 0) {
    index += length;
    if (index < 0)
      index = 0;
  } else if (index > length) {
    index = length;
  }
  if (!kiln_list_reserve(list, length + 1))
    return -1;
  int64_t size = list->item_size;
  char *items = (char *)list->items;
  memmove(items + (index + 1) * size, items + index * size, (size_t)((length - index) * size));
  ++list->length;
  list->flags |= KILN_LIST_MODIFIED;
  return index;
}

/* `list + other` into a new list; NULL when there is no memory. */
kiln_list *kiln_list_concat(kiln_list *list, kiln_list *other) {
  kiln_list *result = kiln_list_new_like(list, list->length + other->length);
  if (!result)
    return NULL;
  int64_t size = list->item_size;
  memcpy(result->items, list->items, (size_t)(list->length * size));
  memcpy((char *)result->items + list->length * size, other->items,
         (size_t)(other->length * size));
  result->length = list->length + other->length;
  kiln_list_retain_items(result, 0, result->length);
  return result;
}

kiln_list *kiln_list_copy(kiln_list *list) {
  kiln_list *result = kiln_list_new_like(list, list->length);
  if (!result)
    return NULL;
  memcpy(result->items, list->items, (size_t)(list->length * list->item_size));
  result->length = list->length;
  kiln_list_retain_items(result, 0, result->length);
  return result;
}

/* `list * count` (empty when count <= 0); NULL when there is no memory,
   also when the length would not fit. */
kiln_list *kiln_list_repeat(kiln_list *list, int64_t count) {
  int64_t length = list->length;
  if (count < 0)
    count = 0;
  if (length && count > INT64_MAX / length)
    return NULL;
  kiln_list *result = kiln_list_new_like(list, length * count);
  if (!result)
    return NULL;
  int64_t bytes = length * list->item_size;
  if (length == 1 && list->item_size == 8) {
    int64_t item;
    memcpy(&item, list->items, 8);
    int64_t *items = (int64_t *)result->items;
    for (int64_t i = 0; i < count; ++i)
      items[i] = item;
  } else if (length == 1 && list->item_size == 1) {
    memset(result->items, *(unsigned char *)list->items, (size_t)count);
  } else {
    for (int64_t i = 0; i < count; ++i)
      memcpy((char *)result->items + i * bytes, list->items, (size_t)bytes);
  }
  result->length = length * count;
  kiln_list_retain_items(result, 0, result->length);
  return result;
}

/* ---- slices. `present`: bit 0 when `start` was given, bit 1 when
   `stop` was (Python's None otherwise); `step` is not 0 (the caller raised
   ValueError). */

/* CPython's slice rules (PySlice_Unpack, PySlice_AdjustIndices) for a
   list of `length` items: *start becomes the first index, *step a step
   that negates without overflow; returns how many items the slice
   selects. */
static int64_t kiln_slice_indices(int64_t length, int64_t *start, int64_t stop, int64_t *step,
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

/* `list[start:stop:step]` into a new list; NULL when there is no memory. */
kiln_list *kiln_list_slice(kiln_list *list, int64_t start, int64_t stop, int64_t step,
                           int32_t present) {
  int64_t count = kiln_slice_indices(list->length, &start, stop, &step, present);
  kiln_list *result = kiln_list_new_like(list, count);
  if (!result)
    return NULL;
  int64_t size = list->item_size;
  const char *items = (const char *)list->items;
  if (step == 1) {
    memcpy(result->items, items + start * size, (size_t)(count * size));
  } else {
    for (int64_t k = 0; k < count; ++k)
      memcpy((char *)result->items + k * size, items + (start + k * step) * size, (size_t)size);
  }
  result->length = count;
  kiln_list_retain_items(result, 0, count);
  return result;
}

/* `del list[start:stop:step]`. */
void kiln_list_delete_slice(kiln_list *list, int64_t start, int64_t stop, int64_t step,
                            int32_t present) {
  int64_t count = kiln_slice_indices(list->length, &start, stop, &step, present);
  if (count == 0)
    return;
  if (step < 0) {
    /* the same items, from the lowest */
    start += step * (count - 1);
    step = -step;
  }
  int64_t size = list->item_size;
  char *items = (char *)list->items;
  if (step == 1) {
    kiln_list_release_items(list, start, count);
    memmove(items + start * size, items + (start + count) * size,
            (size_t)((list->length - start - count) * size));
  } else {
    int64_t kept = start;
    for (int64_t i = start; i < list->length; ++i) {
      int64_t offset = i - start;
      if (offset % step == 0 && offset / step < count) {
        kiln_list_release_items(list, i, 1);
        continue;
      }
      memmove(items + kept * size, items + i * size, (size_t)size);
      ++kept;
    }
  }
  list->length -= count;
  list->flags |= KILN_LIST_MODIFIED;
}

/* `list[start:stop:step] = values` (`values` may be `list`): 1, 0 when
   there is no memory, or -(n + 1) when an extended slice (step not 1)
   selects n items and `values` has another number (ValueError). */
int64_t kiln_list_assign_slice(kiln_list *list, int64_t start, int64_t stop, int64_t step,
                               int32_t present, kiln_list *values) {
  int64_t count = kiln_slice_indices(list->length, &start, stop, &step, present);
  int64_t size = list->item_size;
  int64_t given = values->length;
  if (step != 1 && given != count)
    return -(count + 1);
  /* The values first, apart, when they are the list's own items. */
  void *copy = NULL;
  const char *source = (const char *)values->items;
  if (values == list && given) {
    copy = malloc((size_t)(given * size));
    if (!copy)
      return 0;
    memcpy(copy, values->items, (size_t)(given * size));
    source = (const char *)copy;
  }
  char *items;
  /* The new items' references first (they may be the replaced ones). */
  if (kiln_list_holds_references(list))
    for (int64_t k = 0; k < given; ++k)
      kiln_list_adopt_reference(list, ((void *const *)source)[k]);
  if (step == 1) {
    /* CPython: a slice whose stop precedes its start replaces nothing at
       start (an insertion there). */
    int64_t length = list->length;
    if (given > count && !kiln_list_reserve(list, length + given - count)) {
      if (kiln_list_holds_references(list))
        for (int64_t k = 0; k < given; ++k)   /* the adoptions above undone */
          kiln_list_give_up_reference(list, ((void *const *)source)[k]);
      free(copy);
      return 0;
    }
    items = (char *)list->items;
    kiln_list_release_items(list, start, count);
    memmove(items + (start + given) * size, items + (start + count) * size,
            (size_t)((length - start - count) * size));
    memcpy(items + start * size, source, (size_t)(given * size));
    list->length = length + given - count;
  } else {
    items = (char *)list->items;
    for (int64_t k = 0; k < count; ++k) {
      kiln_list_release_items(list, start + k * step, 1);
      memcpy(items + (start + k * step) * size, source + k * size, (size_t)size);
    }
  }
  if (count || given)
    list->flags |= KILN_LIST_MODIFIED;
  free(copy);
  return 1;
}

/* Appends, searches and comparisons by Python's `==` on each item type:
   bool is one byte 0/1 (passed as an int32_t 0/1: an i8 argument's upper
   bits are not defined when MLIR's call meets clang's zeroext), int is
   int64_t, float is double (NaN equals nothing). */
#define KILN_LIST_APPEND_FUNCTION(suffix, type, argument_type)                  \
  int32_t kiln_list_append_##suffix(kiln_list *list, argument_type value) {     \
    if (list->length == list->capacity && !kiln_list_reserve(list, list->length + 1)) \
      return 0;                                                                 \
    ((type *)list->items)[list->length++] = (type)value;                        \
    list->flags |= KILN_LIST_MODIFIED;                                          \
    return 1;                                                                   \
  }

/* Searches, comparisons and the sort, with Python's `==` and `<` of the
   item type as EQUAL(a, b) and LESS(a, b). */
#define KILN_LIST_ITEM_FUNCTIONS(suffix, type, argument_type, EQUAL, LESS)      \
  int64_t kiln_list_find_##suffix(kiln_list *list, argument_type value) {       \
    const type *items = (const type *)list->items;                              \
    for (int64_t i = 0; i < list->length; ++i)                                  \
      if (EQUAL(items[i], (type)value))                                         \
        return i;                                                               \
    return -1;                                                                  \
  }                                                                             \
  int64_t kiln_list_count_##suffix(kiln_list *list, argument_type value) {      \
    const type *items = (const type *)list->items;                              \
    int64_t count = 0;                                                          \
    for (int64_t i = 0; i < list->length; ++i)                                  \
      count += EQUAL(items[i], (type)value) ? 1 : 0;                            \
    return count;                                                               \
  }                                                                             \
  int32_t kiln_list_equal_##suffix(kiln_list *list, kiln_list *other) {         \
    if (list->length != other->length)                                          \
      return 0;                                                                 \
    const type *a = (const type *)list->items, *b = (const type *)other->items; \
    for (int64_t i = 0; i < list->length; ++i)                                  \
      if (!EQUAL(a[i], b[i]))                                                   \
        return 0;                                                               \
    return 1;                                                                   \
  }                                                                             \
  /* A stable merge sort that compares with `<` only, as CPython's sort      \
     does, so the order of items without NaN is CPython's. With `reverse`,   \
     `b < a` puts a first, and equal items keep their order, as in CPython.  \
     0 when there is no memory for the merge buffer. */                       \
  int32_t kiln_list_sort_##suffix(kiln_list *list, int32_t reverse) {          \
    int64_t length = list->length;                                              \
    if (length < 2)                                                             \
      return 1;                                                                 \
    type *items = (type *)list->items;                                          \
    /* A list of one run needs no merge buffer (no malloc). */                \
    type *buffer = length > 16 ? (type *)malloc((size_t)length * sizeof(type)) : NULL; \
    if (length > 16 && !buffer)                                                 \
      return 0;                                                                 \
    /* runs of 16 by insertion, then bottom-up merges */                      \
    for (int64_t start = 0; start < length; start += 16) {                      \
      int64_t end = start + 16 < length ? start + 16 : length;                  \
      for (int64_t i = start + 1; i < end; ++i) {                               \
        type item = items[i];                                                   \
        int64_t j = i;                                                          \
        while (j > start && (reverse ? LESS(items[j - 1], item) : LESS(item, items[j - 1]))) { \
          items[j] = items[j - 1];                                              \
          --j;                                                                  \
        }                                                                       \
        items[j] = item;                                                        \
      }                                                                         \
    }                                                                           \
    type *from = items, *to = buffer;                                           \
    for (int64_t width = 16; width < length; width *= 2) {                      \
      for (int64_t low = 0; low < length; low += 2 * width) {                   \
        int64_t middle = low + width < length ? low + width : length;           \
        int64_t high = low + 2 * width < length ? low + 2 * width : length;     \
        int64_t i = low, j = middle, k = low;                                   \
        while (i < middle && j < high) {                                        \
          /* take from the right run only when it is strictly first */       \
          int right_first = reverse ? LESS(from[i], from[j]) : LESS(from[j], from[i]); \
          to[k++] = right_first ? from[j++] : from[i++];                        \
        }                                                                       \
        while (i < middle)                                                      \
          to[k++] = from[i++];                                                  \
        while (j < high)                                                        \
          to[k++] = from[j++];                                                  \
      }                                                                         \
      type *swap = from;                                                        \
      from = to;                                                                \
      to = swap;                                                                \
    }                                                                           \
    if (from != items)                                                          \
      memcpy(items, from, (size_t)length * sizeof(type));                       \
    free(buffer);                                                               \
    list->flags |= KILN_LIST_MODIFIED;                                          \
    return 1;                                                                   \
  }

#define KILN_NUMBER_EQUAL(a, b) ((a) == (b))
#define KILN_NUMBER_LESS(a, b) ((a) < (b))
KILN_LIST_APPEND_FUNCTION(i64, int64_t, int64_t)
KILN_LIST_APPEND_FUNCTION(f64, double, double)
KILN_LIST_APPEND_FUNCTION(bool, unsigned char, int32_t)
KILN_LIST_ITEM_FUNCTIONS(i64, int64_t, int64_t, KILN_NUMBER_EQUAL, KILN_NUMBER_LESS)
KILN_LIST_ITEM_FUNCTIONS(f64, double, double, KILN_NUMBER_EQUAL, KILN_NUMBER_LESS)
KILN_LIST_ITEM_FUNCTIONS(bool, unsigned char, int32_t, KILN_NUMBER_EQUAL, KILN_NUMBER_LESS)

/* Lists of str: a stored string is adopted (kiln_list_adopt_str), a
   replaced one released; `==` and `<` are the strings'. */
#define KILN_STR_EQUAL(a, b) ((a) == (b) || kiln_str_equal((a), (b)))
#define KILN_STR_LESS(a, b) (kiln_str_compare((a), (b)) < 0)
typedef kiln_str *kiln_str_reference;
KILN_LIST_ITEM_FUNCTIONS(str, kiln_str_reference, kiln_str_reference, KILN_STR_EQUAL,
                         KILN_STR_LESS)

int32_t kiln_list_append_str(kiln_list *list, kiln_str *value) {
  if (list->length == list->capacity && !kiln_list_reserve(list, list->length + 1))
    return 0;
  kiln_list_adopt_str(list, value);
  ((kiln_str **)list->items)[list->length++] = value;
  list->flags |= KILN_LIST_MODIFIED;
  return 1;
}

/* `xs[position] = value` (position already in range). */
void kiln_list_store_str(kiln_list *list, int64_t position, kiln_str *value) {
  kiln_str **slot = (kiln_str **)list->items + position;
  kiln_str *old = *slot;
  kiln_list_adopt_str(list, value);
  *slot = value;
  kiln_list_give_up_str(list, old);
  list->flags |= KILN_LIST_MODIFIED;
}

/* `xs.pop(position)` (position already in range): the item leaves with the
   list's reference, back in the journal (the caller's now). */
KILN_JOURNAL_OPAQUE kiln_str *kiln_list_take_str(kiln_list *list, int64_t position) {
  kiln_str **items = (kiln_str **)list->items;
  kiln_str *taken = items[position];
  memmove(items + position, items + position + 1,
          (size_t)(list->length - position - 1) * sizeof(kiln_str *));
  --list->length;
  list->flags |= KILN_LIST_MODIFIED;
  kiln_journal_take_str(list->journal_index, taken);
  return taken;
}

/* Lists of instances of exported classes (KILN_ITEM_OBJECT): a stored
   instance is retained, a replaced one released; `==` is identity (the
   frontend compiles searches and comparisons only for classes without
   their own __eq__, whose `==` is `is`), and there is no order. */
#define KILN_OBJECT_SAME(a, b) ((a) == (b))
#define KILN_OBJECT_UNORDERED(a, b) 0
typedef void *kiln_object_reference;
KILN_LIST_ITEM_FUNCTIONS(object, kiln_object_reference, kiln_object_reference, KILN_OBJECT_SAME,
                         KILN_OBJECT_UNORDERED)

int32_t kiln_list_append_object(kiln_list *list, void *value) {
  if (list->length == list->capacity && !kiln_list_reserve(list, list->length + 1))
    return 0;
  kiln_object_retain(value);
  ((void **)list->items)[list->length++] = value;
  list->flags |= KILN_LIST_MODIFIED;
  return 1;
}

/* `xs[position] = value` (position already in range): retained before the
   old one is released (`xs[i] = xs[i]` must not free it on the way). */
void kiln_list_store_object(kiln_list *list, int64_t position, void *value) {
  void **slot = (void **)list->items + position;
  void *old = *slot;
  kiln_object_retain(value);
  *slot = value;
  kiln_object_release(old);
  list->flags |= KILN_LIST_MODIFIED;
}

/* `xs.pop(position)` (position already in range): the item leaves with the
   list's reference, which the caller now holds. */
void *kiln_list_take_object(kiln_list *list, int64_t position) {
  void **items = (void **)list->items;
  void *taken = items[position];
  memmove(items + position, items + position + 1,
          (size_t)(list->length - position - 1) * sizeof(void *));
  --list->length;
  list->flags |= KILN_LIST_MODIFIED;
  return taken;
}

/* An instance stored by `insert` into the slot kiln_list_open_slot made. */
void kiln_list_adopt_object(kiln_list *list, void *value) {
  (void)list;
  kiln_object_retain(value);
}

/* ---- lists in instance fields (issue 31: `self.items = xs`) */

/* `list` becomes one an instance holds, so it must outlive a raise: a list
   the running calls made leaves the journal (an unwind would free it), and
   each string it holds that the calls made counts the list's reference as
   an outside one, as a caller's container's (kiln_journal_adopt_str). The
   names' references to it are then not given back by a raise: it may leak
   there, never be freed under the instance. */
static void kiln_list_leave_journal(kiln_list *list) {
  if (list->journal_index < 0)
    return;
  kiln_journal_remove(list, list->journal_index);
  list->journal_index = -1;
  if (list->item_kind == KILN_ITEM_STR)
    for (int64_t i = 0; i < list->length; ++i) {
      kiln_str *item = ((kiln_str **)list->items)[i];
      if (item->journal_index >= 0 && item->refcount < KILN_STR_IMMORTAL / 2)
        ++item->outside_references;
    }
}

/* The field at `field` lets go of its list. */
void kiln_list_field_release(kiln_list *list) {
  if (!list)
    return;
  --list->field_references;
  kiln_list_release(list);
}

/* `o.items = value`: the field takes a reference (counted in
   field_references), then gives up the list it held -- in that order, so
   `o.items = o.items` keeps the list. */
void kiln_list_store_field(kiln_list **field, kiln_list *value) {
  kiln_list_leave_journal(value);
  ++value->refcount;
  ++value->field_references;
  kiln_list *old = *field;
  *field = value;
  kiln_list_field_release(old);
}
