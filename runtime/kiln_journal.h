/* The containers' journal (runtime/kiln_journal.c): the functions the
   container runtimes (kiln_list.c, kiln_dict.c) and the lowered kernels
   call. */
#ifndef KILN_JOURNAL_H
#define KILN_JOURNAL_H

#include <stdint.h>

#define KILN_JOURNAL_OPAQUE __attribute__((noinline))

/* Kernels: on entry of a function that makes containers, at its normal
   returns, at its error exits. */
int64_t kiln_journal_enter(void);
void kiln_journal_leave(int64_t mark);
void kiln_journal_unwind(int64_t mark);

/* Container runtimes: a container made (sets *journal_index; `destroy`
   frees it if a call unwinds), a container freed. */
void kiln_journal_push(void *object, int64_t *journal_index, void (*destroy)(void *));
/* A container whose items may be references (a list of str): an unwind
   first calls release_outside(object) on every container it unwinds --
   each gives back its references to items that are not in the journal
   (the caller's, or ones that escaped into the caller's containers) --
   then destroys them all (`destroy` frees the storage only: the journaled
   items are destroyed by their own entries). */
void kiln_journal_push_container(void *object, int64_t *journal_index, void (*destroy)(void *),
                                 void (*release_outside)(void *));
void kiln_journal_remove(void *object, int64_t journal_index);

/* Strings in containers (runtime/kiln_journal.c says why):
   - adopt: a container whose journal_index is `holder_index` stores a
     string (one more reference, counted as an outside reference when the
     container is not in the journal and the string is);
   - give_up: such a container lets go of its reference (released);
   - take: the container's reference moves to the caller (list.pop,
     set.pop): no longer an outside one, and the string is journaled again
     when that reference is its only one, as a string just made is;
   - unwind_str: a string's journal entry at an unwind. Literals and static
     strings are not counted. */
struct kiln_str;
void kiln_journal_adopt_str(int64_t holder_index, struct kiln_str *str);
void kiln_journal_give_up_str(int64_t holder_index, struct kiln_str *str);
void kiln_journal_take_str(int64_t holder_index, struct kiln_str *str);
void kiln_journal_unwind_str(void *str);

/* An object the journal holds moved (realloc): its entry follows it. */
void kiln_journal_moved(void *object, int64_t journal_index, int64_t *journal_index_field);

/* How many entries the thread's journal holds (tests). */
int64_t kiln_journal_size(void);

#endif /* KILN_JOURNAL_H */
