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

/* A string stored into a container (a list or a dict) whose journal_index
   is `holder_index`: one more reference, held by the container, and out
   of the journal when the container is (it then outlives any unwind: see
   runtime/kiln_list.c). Literals and static strings are not counted. */
struct kiln_str;
void kiln_journal_adopt_str(int64_t holder_index, struct kiln_str *str);
/* A string taken out of a container with the container's reference
   (list.pop, set.pop): journaled again when that reference is its only one,
   as a string just made is. */
void kiln_journal_take_str(struct kiln_str *str);

/* An object the journal holds moved (realloc): its entry follows it. */
void kiln_journal_moved(void *object, int64_t journal_index, int64_t *journal_index_field);

/* How many entries the thread's journal holds (tests). */
int64_t kiln_journal_size(void);

#endif /* KILN_JOURNAL_H */
