/* The journal of containers (lists, dicts) made while Kiln code runs on a
   thread: how a compiled function that raises frees them.

   A raised exception leaves a function from the middle of its code, where
   the references its names held are known only at run time. So, as
   runtime/kiln_alloc.c does for arrays, every container made while Kiln
   code runs on a thread is in that thread's journal until it is freed or
   handed out to the caller outside Kiln:
   - a function that makes containers (or receives them from calls) calls
     kiln_journal_enter() on entry (kiln-lower-containers puts the call
     there) and kiln_journal_leave(mark) at each normal return;
   - its error exits call kiln_journal_unwind(mark) (kiln-lower-checks);
     the outermost such call's (a raise goes through them all) destroys
     every container made since its entry, whatever its count (no name
     can refer to it any more: the calls raised), but for strings the
     caller's containers hold (kiln_journal_unwind_str);
   - when the outermost such function returns normally, the containers
     left in the journal are its results: they leave the journal
     (journal_index -1) and belong to the caller.
   Containers a caller made (arguments) are never in the journal.

   Functions that touch the thread-local journal are never inlined into the
   kernels (runtime/kiln_alloc.c, KILN_OPAQUE_TO_KERNELS, says why). */

#include "kiln_journal.h"
#include "kiln_abi.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  void *object;
  int64_t *journal_index;          /* the container's own field */
  void (*destroy)(void *object);   /* frees the container and its storage */
  void (*release_outside)(void *object);  /* NULL, or see kiln_journal_push_container */
} kiln_journal_entry;

typedef struct {
  kiln_journal_entry *entries;
  int64_t count, capacity;
  /* Kiln functions holding containers that are running on this thread. */
  int64_t depth;
} kiln_journal;

/* This thread's journal once made: one thread-local load per container
   made or freed (the key is only for freeing it when the thread exits). */
static __thread kiln_journal *kiln_current_journal;

static pthread_key_t kiln_journal_key;
static pthread_once_t kiln_journal_once = PTHREAD_ONCE_INIT;
static int kiln_journal_usable;

static void kiln_release_journal(void *opaque) {
  kiln_journal *journal = (kiln_journal *)opaque;
  kiln_current_journal = NULL;
  free(journal->entries);
  free(journal);
}

static void kiln_make_journal_key(void) {
  kiln_journal_usable = pthread_key_create(&kiln_journal_key, kiln_release_journal) == 0;
}

static kiln_journal *kiln_thread_journal(void) {
  if (kiln_current_journal)
    return kiln_current_journal;
  pthread_once(&kiln_journal_once, kiln_make_journal_key);
  if (!kiln_journal_usable)
    return NULL;
  kiln_journal *journal = (kiln_journal *)pthread_getspecific(kiln_journal_key);
  if (!journal) {
    journal = (kiln_journal *)calloc(1, sizeof(kiln_journal));
    if (journal && pthread_setspecific(kiln_journal_key, journal) != 0) {
      free(journal);
      journal = NULL;
    }
  }
  kiln_current_journal = journal;
  return journal;
}

/* Without a journal entry (no memory for one) a container can leak only
   if the call then raises. */
KILN_JOURNAL_OPAQUE void kiln_journal_push(void *object, int64_t *journal_index,
                                           void (*destroy)(void *)) {
  kiln_journal_push_container(object, journal_index, destroy, NULL);
}

KILN_JOURNAL_OPAQUE void kiln_journal_push_container(void *object, int64_t *journal_index,
                                                     void (*destroy)(void *),
                                                     void (*release_outside)(void *)) {
  kiln_journal *journal = kiln_thread_journal();
  *journal_index = -1;
  if (!journal || journal->depth == 0)
    return;
  if (journal->count == journal->capacity) {
    int64_t capacity = journal->capacity ? 2 * journal->capacity : 64;
    kiln_journal_entry *grown = (kiln_journal_entry *)realloc(
        journal->entries, (size_t)capacity * sizeof(kiln_journal_entry));
    if (!grown)
      return;
    journal->entries = grown;
    journal->capacity = capacity;
  }
  *journal_index = journal->count;
  journal->entries[journal->count++] =
      (kiln_journal_entry){object, journal_index, destroy, release_outside};
}

/* A freed container's entry is cleared; cleared entries at the top are
   dropped, so the temporaries of a loop keep the journal short. */
KILN_JOURNAL_OPAQUE void kiln_journal_remove(void *object, int64_t journal_index) {
  if (journal_index < 0)
    return;
  kiln_journal *journal = kiln_thread_journal();
  if (!journal || journal_index >= journal->count ||
      journal->entries[journal_index].object != object)
    return;
  journal->entries[journal_index].object = NULL;
  while (journal->count > 0 && journal->entries[journal->count - 1].object == NULL)
    --journal->count;
}

KILN_JOURNAL_OPAQUE int64_t kiln_journal_enter(void) {
  kiln_journal *journal = kiln_thread_journal();
  if (!journal)
    return 0;
  ++journal->depth;
  return journal->count;
}

KILN_JOURNAL_OPAQUE void kiln_journal_leave(int64_t mark) {
  kiln_journal *journal = kiln_thread_journal();
  if (!journal || journal->depth == 0)
    return;
  if (--journal->depth > 0)
    return;
  /* The outermost function returns: what is left is its results (a
     string's count of outside references means nothing out of the
     journal). */
  for (int64_t i = mark; i < journal->count; ++i)
    if (journal->entries[i].object) {
      *journal->entries[i].journal_index = -1;
      if (journal->entries[i].destroy == kiln_journal_unwind_str) {
        kiln_str *str = (kiln_str *)journal->entries[i].object;
        str->outside_references = 0;
        /* Dropped by an instance freed while the calls ran, held by
           nothing now (kiln_str_drop, kiln_abi.h). */
        if (str->refcount == 0)
          free(str);
      }
    }
  if (journal->count > mark)
    journal->count = mark;
}

KILN_JOURNAL_OPAQUE void kiln_journal_unwind(int64_t mark) {
  kiln_journal *journal = kiln_thread_journal();
  if (!journal || journal->depth == 0)
    return;
  /* A raise goes through every Kiln call on the thread (no `try` yet): the
     outermost one unwinds what they all made, at once -- a string an inner
     call made may sit in an outer call's container, which must not be
     read after the string is freed. */
  if (--journal->depth > 0)
    return;
  /* First the references unwound containers hold to items that live on
     (which may free such an item, and clear its entry below the mark);
     then every unwound object goes, whatever its count. */
  for (int64_t i = mark; i < journal->count; ++i)
    if (journal->entries[i].object && journal->entries[i].release_outside)
      journal->entries[i].release_outside(journal->entries[i].object);
  while (journal->count > mark) {
    kiln_journal_entry entry = journal->entries[--journal->count];
    if (entry.object)
      entry.destroy(entry.object);
  }
}

/* Strings the running calls made and stored into their caller's
   containers. A raise unwinds every Kiln call on the thread up to the
   wrapper, so what lives on after it is exactly what the caller's
   containers (those outside the journal) hold. A string made by the calls
   is in the journal; each reference a container outside the journal takes
   to it is counted (`outside_references`). At the unwind its entry
   (kiln_journal_unwind_str) frees it when no such reference is left, or
   else gives it exactly those references: the calls' names' and their own
   containers' (which the unwind frees) are gone. */
static inline int kiln_journal_counts(const kiln_str *str) {
  return str->refcount < KILN_STR_IMMORTAL / 2;
}

KILN_JOURNAL_OPAQUE void kiln_journal_adopt_str(int64_t holder_index, kiln_str *str) {
  if (!kiln_journal_counts(str))
    return;
  ++str->refcount;
  if (holder_index < 0 && str->journal_index >= 0)
    ++str->outside_references;
}

void kiln_str_release(kiln_str *str) __attribute__((weak));

KILN_JOURNAL_OPAQUE void kiln_journal_give_up_str(int64_t holder_index, kiln_str *str) {
  if (!kiln_journal_counts(str))
    return;
  if (holder_index < 0 && str->journal_index >= 0)
    --str->outside_references;
  kiln_str_release(str);
}

void kiln_journal_unwind_str(void *opaque) {
  kiln_str *str = (kiln_str *)opaque;
  if (str->outside_references > 0) {
    str->refcount = str->outside_references;
    str->outside_references = 0;
    str->journal_index = -1;
    return;
  }
  free(str);
}

KILN_JOURNAL_OPAQUE void kiln_journal_moved(void *object, int64_t journal_index,
                                            int64_t *journal_index_field) {
  kiln_journal *journal = kiln_thread_journal();
  if (!journal || journal_index < 0 || journal_index >= journal->count)
    return;
  journal->entries[journal_index].object = object;
  journal->entries[journal_index].journal_index = journal_index_field;
}

KILN_JOURNAL_OPAQUE void kiln_journal_take_str(int64_t holder_index, kiln_str *str) {
  if (!kiln_journal_counts(str))
    return;
  if (holder_index < 0 && str->journal_index >= 0)
    --str->outside_references;
  if (str->refcount == 1 && str->journal_index < 0) {
    str->outside_references = 0;
    kiln_journal_push(str, &str->journal_index, kiln_journal_unwind_str);
  }
}

/* How many entries the journal holds (tests). */
int64_t kiln_journal_size(void) {
  kiln_journal *journal = kiln_thread_journal();
  return journal ? journal->count : 0;
}
