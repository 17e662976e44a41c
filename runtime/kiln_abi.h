/* The C ABI of Kiln-compiled code: how a compiled function reports a Python
   exception to its caller, and how it holds a Python list and dict.

   This file is the one source of that ABI. kilnc embeds it: the C++ side
   (the kiln dialect's ErrorKind enum and kiln-lower-checks' stores) is tied
   to it by static_asserts (lib/Dialect/KilnAbi.h), every generated <mod>.h
   carries a verbatim copy of it, the CPython runtime (kiln_runtime.h)
   includes it, and `kilnc --print-abi` prints it as JSON for the Python
   side. Plain C11 with <stddef.h>, <stdint.h> and <stdlib.h> only: C and C++ callers include it. */
#ifndef KILN_ABI_H
#define KILN_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Each exception kind a compiled function can raise, as
   X(number, Python exception name, enumerator suffix). The numbers are ABI:
   never renumber, only append. */
#define KILN_ERROR_KINDS(X)                                                   \
  X(1, ZeroDivisionError, ZERO_DIVISION_ERROR)                                \
  X(2, IndexError, INDEX_ERROR)                                               \
  X(3, ValueError, VALUE_ERROR)                                               \
  X(4, OverflowError, OVERFLOW_ERROR)                                         \
  X(5, AssertionError, ASSERTION_ERROR)                                       \
  X(6, RuntimeError, RUNTIME_ERROR)                                           \
  X(7, TypeError, TYPE_ERROR)                                                 \
  X(8, MemoryError, MEMORY_ERROR)                                             \
  X(9, RecursionError, RECURSION_ERROR)                                       \
  X(10, KeyError, KEY_ERROR)                                                  \
  X(11, AttributeError, ATTRIBUTE_ERROR)                                      \
  X(12, NotImplementedError, NOT_IMPLEMENTED_ERROR)                            \
  X(13, LinAlgError, LIN_ALG_ERROR)

/* kiln_error.kind: KILN_OK, or KILN_ZERO_DIVISION_ERROR, KILN_INDEX_ERROR,
   ... one per line of KILN_ERROR_KINDS. */
enum kiln_error_kind {
  KILN_OK = 0,
#define KILN_ERROR_KIND_ENUMERATOR(number, name, suffix) KILN_##suffix = number,
  KILN_ERROR_KINDS(KILN_ERROR_KIND_ENUMERATOR)
#undef KILN_ERROR_KIND_ENUMERATOR
};

/* Filled by a function that raises; untouched otherwise. Zero it before the
   call and test `kind` after it: when it is not KILN_OK the results are
   zero and the message says why (kiln_error_text below writes it ready to
   print; `message` is its template, each {} standing for the next args[i]);
   line/column locate the Python source. `message` points to a constant
   string of the library: never free it. */
typedef struct kiln_error {
  int32_t kind;
  int32_t line;
  int32_t column;
  int32_t num_args;
  const char *message;
  int64_t args[24];     /* numpy's broadcast message: three 8-D shapes */
} kiln_error;

/* A Python str held natively: `length` code points, each in `kind` bytes
   (1, 2 or 4) at kiln_str_data(str), in the narrowest kind that holds the largest, as
   CPython's PEP 393 strings are: equal strings have equal kinds and bytes,
   and a CPython str's data is copied in or out with one memcpy. The data is
   followed by `kind` zero bytes. Strings never change once made.

   `hash` is the runtime's hash of the text (-1 until computed; not CPython's
   hash: iteration orders in Kiln follow insertion, never hashes).
   `refcount` counts references as a list's does; a string in a module's
   constant data (a literal) starts at KILN_STR_IMMORTAL and is never freed
   (its count never comes near 0; its `journal_index` is -1).

   Across the C ABI a str argument is borrowed and a returned str is a new
   reference, given back with kiln_str_drop(); a caller making one
   allocates it with malloc() as one block of
   sizeof(kiln_str) + (length + 1) * kind bytes, sets refcount 1,
   hash -1, journal_index -1 and outside_references 0.

   `outside_references` is the runtime's: while compiled code runs, how many
   of the references to a string it made are held by containers the caller
   passed in (runtime/kiln_journal.c: what a raise leaves of the string). */
typedef struct kiln_str {
  int64_t refcount;
  int64_t length;
  int64_t hash;
  int64_t journal_index;
  int32_t kind;
  int32_t outside_references;
  /* then the code points: kiln_str_data() (no flexible array member, so
     that C++ includes this header too) */
} kiln_str;

/* The code points of `str`, right after the struct. */
static inline uint8_t *kiln_str_data(const kiln_str *str) {
  return (uint8_t *)(uintptr_t)(str + 1);
}

/* kiln_str.refcount of a string that is never freed. */
#define KILN_STR_IMMORTAL ((int64_t)1 << 62)

/* Drops the caller's reference to a str; frees it when it was the last.
   A string a running Kiln call made (`journal_index` >= 0) is the
   journal's to free: what drops it then is a container outside the
   journal letting go (an instance's str or list field, as the instance
   is freed while the call runs), so one outside reference goes, and the
   journal frees the string at the call's end when nothing holds it
   (runtime/kiln_journal.c). */
static inline void kiln_str_drop(kiln_str *str) {
  /* a literal (immortal) lives in the module's shared data: not counted */
  if (!str || str->refcount >= KILN_STR_IMMORTAL / 2)
    return;
  if (str->journal_index >= 0) {
    --str->outside_references;
    --str->refcount;
    return;
  }
  if (--str->refcount == 0)
    free(str);
}

/* How many integers a message can interpolate (its `{}` placeholders). */
#define KILN_ERROR_MAX_ARGS (sizeof(((kiln_error *)0)->args) / sizeof(int64_t))

/* A `{!r}` placeholder of a message stands for a string (a `kiln_str *` in
   its args[i]) that the record owns: `int('x')`'s text, a str KeyError's
   key. Give such strings back with kiln_error_clear() once the error is
   handled (a record whose message has no `{!r}` owns nothing). */
static inline int kiln_error_placeholder(const char *text) {
  if (text[0] == '{' && text[1] == '}')
    return 2;
  if (text[0] == '{' && text[1] == '!' && text[2] == 'r' && text[3] == '}')
    return 4;
  return 0;
}

static inline void kiln_error_clear(kiln_error *error) {
  int next_arg = 0;
  for (const char *text = error->message ? error->message : ""; *text;) {
    int width = kiln_error_placeholder(text);
    if (width == 4 && next_arg < error->num_args && next_arg < (int)KILN_ERROR_MAX_ARGS) {
      kiln_str_drop((kiln_str *)(intptr_t)error->args[next_arg]);
      error->args[next_arg] = 0;
    }
    next_arg += width != 0;
    text += width ? width : 1;
  }
  error->kind = KILN_OK;
}

/* The error's message ready to print: `message` with each {} replaced by the
   next of args[] in decimal and each {!r} by its string in quotes (its
   UTF-8; Python's wrapper writes the repr), written into buffer (at most
   size bytes, always NUL-terminated when size > 0, cut short if it does not
   fit). Returns buffer; "" when error->kind is KILN_OK.

     kiln_error error = {0};
     double d = mod_f(x, &error);
     if (error.kind != KILN_OK) {
       char text[256];
       fprintf(stderr, "line %d: %s\n", (int)error.line,
               kiln_error_text(&error, text, sizeof text));
     } */
static inline const char *kiln_error_text(const kiln_error *error, char *buffer,
                                          size_t size) {
  size_t used = 0;
  int next_arg = 0;
  const char *text = error->kind != KILN_OK && error->message ? error->message : "";
  if (size == 0)
    return buffer;
  while (*text && used + 1 < size) {
    if (kiln_error_placeholder(text) == 4 && next_arg < error->num_args &&
        next_arg < (int)KILN_ERROR_MAX_ARGS) {
      const kiln_str *str = (const kiln_str *)(intptr_t)error->args[next_arg++];
      buffer[used++] = '\'';
      for (int64_t i = 0; str && i < str->length && used + 5 < size; ++i) {
        uint32_t code = str->kind == 1   ? kiln_str_data(str)[i]
                        : str->kind == 2 ? ((const uint16_t *)kiln_str_data(str))[i]
                                         : ((const uint32_t *)kiln_str_data(str))[i];
        if (code < 0x80) {
          buffer[used++] = (char)code;
        } else if (code < 0x800) {
          buffer[used++] = (char)(0xc0 | (code >> 6));
          buffer[used++] = (char)(0x80 | (code & 0x3f));
        } else if (code < 0x10000) {
          buffer[used++] = (char)(0xe0 | (code >> 12));
          buffer[used++] = (char)(0x80 | ((code >> 6) & 0x3f));
          buffer[used++] = (char)(0x80 | (code & 0x3f));
        } else {
          buffer[used++] = (char)(0xf0 | (code >> 18));
          buffer[used++] = (char)(0x80 | ((code >> 12) & 0x3f));
          buffer[used++] = (char)(0x80 | ((code >> 6) & 0x3f));
          buffer[used++] = (char)(0x80 | (code & 0x3f));
        }
      }
      if (used + 1 < size)
        buffer[used++] = '\'';
      text += 4;
      continue;
    }
    if (text[0] == '{' && text[1] == '}' && next_arg < error->num_args &&
        next_arg < (int)KILN_ERROR_MAX_ARGS) {
      int64_t value = error->args[next_arg++];
      char digits[24];
      int count = 0;
      /* the magnitude as unsigned, so INT64_MIN prints too */
      uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
      do {
        digits[count++] = (char)('0' + (int)(magnitude % 10));
        magnitude /= 10;
      } while (magnitude);
      if (value < 0)
        digits[count++] = '-';
      while (count && used + 1 < size)
        buffer[used++] = digits[--count];
      text += 2;
      continue;
    }
    buffer[used++] = *text++;
  }
  buffer[used] = '\0';
  return buffer;
}

/* What a container holds: kiln_list.item_kind, kiln_dict.key_kind and
   value_kind (KILN_ITEM_NONE: the values of a set). */
enum kiln_item_kind {
  KILN_ITEM_NONE = 0,
  KILN_ITEM_INT = 1,
  KILN_ITEM_FLOAT = 2,
  KILN_ITEM_BOOL = 3,
  KILN_ITEM_STR = 4,  /* a kiln_str *: the container holds a reference */
  KILN_ITEM_OBJECT = 5 /* an instance of an exported class (a PyObject *, never
                          NULL): the container holds a reference (lists only) */
};

/* A Python list held natively: `length` items of one type side by side at
   `items` (int64_t for int, double for float, one byte 0 or 1 for bool;
   `item_size` says which size; a kiln_str * for str, when `item_kind` is
   KILN_ITEM_STR: the list holds a reference to each, which
   kiln_list_drop gives back; an instance of an exported class for
   KILN_ITEM_OBJECT, a CPython object the list holds a reference to, only
   touched with the GIL held), room for `capacity`. Compiled code shares a
   list between the names that refer to it, as Python does, and frees it
   when `refcount` drops to 0.

   Across the C ABI a list argument is borrowed: the callee takes its own
   references, never frees the caller's, may grow `items` with realloc()
   (so the caller allocates it, and the list, with malloc()), and sets
   KILN_LIST_MODIFIED in `flags` when it changes the list. A returned list is
   a new reference: give it back with kiln_list_drop(). `journal_index` is
   the runtime's (-1 in a list a caller makes).

   An instance's list field (issue 31) holds a reference to its list,
   counted also in `field_references`: after a call the caller frees an
   argument list only when no field holds it (a function may store its
   argument into an instance, which then keeps the list). */
typedef struct kiln_list {
  int64_t length;
  int64_t capacity;
  void *items;
  int64_t refcount;
  int64_t journal_index;
  int32_t item_size;
  int32_t flags;
  int32_t item_kind;   /* enum kiln_item_kind; 0 from a caller that does not say */
  int32_t field_references; /* how many instance fields hold the list (a
                               caller sets 0): kiln_list_store_field */
} kiln_list;

/* kiln_list.flags: a compiled function changed the list (its length, an
   item or their order). */
#define KILN_LIST_MODIFIED 1

/* Drops the caller's reference to a list; frees it with free() when it was
   the last. */
static inline void kiln_object_drop(void *object);
static inline void kiln_list_drop(kiln_list *list) {
  if (list && --list->refcount == 0) {
    if (list->item_kind == KILN_ITEM_STR)
      for (int64_t i = 0; i < list->length; ++i)
        kiln_str_drop(((kiln_str **)list->items)[i]);
    if (list->item_kind == KILN_ITEM_OBJECT)
      for (int64_t i = 0; i < list->length; ++i)
        kiln_object_drop(((void **)list->items)[i]);
    free(list->items);
    free(list);
  }
}

/* A Python dict held natively: `length` live entries among the first
   `used` of `keys`/`values`/`live` (room for `capacity`), in insertion
   order; a deleted entry keeps its slot with live[i] = 0 until the runtime
   compacts the arrays. Keys and values take 8 bytes each whatever their
   type (`key_kind`, `value_kind`: KILN_ITEM_INT int64_t, KILN_ITEM_FLOAT
   double, KILN_ITEM_BOOL 0 or 1 in an int64_t, KILN_ITEM_STR a kiln_str *
   the dict holds a reference to, which kiln_dict_drop gives back). `hashes`, `index` and
   `index_mask` are the runtime's lookup table: a caller that builds a dict
   leaves them NULL/0, and the runtime builds the table at the first lookup.

   Across the C ABI a dict is passed and returned as a list is (kiln_list
   above): a dict argument is borrowed, may be grown with realloc() (so the
   caller allocates `keys`, `values` and `live` with malloc()) and gets
   KILN_DICT_MODIFIED when the callee changes it; a returned dict is a new
   reference, given back with kiln_dict_drop(). Keys must be distinct.
   live[i] is 0 for a deleted entry and non-zero for an entry: a caller
   writes 1; the runtime writes KILN_DICT_ADDED for an entry compiled code
   added (a caller reading a dict back tests live[i] != 0, and
   live[i] & KILN_DICT_ADDED to know that a key it passed was deleted and
   added again: Python's dict then holds the new key object).

   A Python set is a kiln_dict without values: `value_kind` is
   KILN_ITEM_NONE and `values` is NULL (a caller leaves it NULL too); its
   elements are the keys, in the order they were first added.
   `pop_start` is the runtime's (every slot before it is deleted, so that
   s.pop() does not scan them again): a caller sets 0. */
typedef struct kiln_dict {
  int64_t length;
  int64_t used;
  int64_t capacity;
  uint64_t *keys;
  uint64_t *values;
  uint8_t *live;
  int64_t *hashes;
  int64_t *index;
  int64_t index_mask;
  int64_t refcount;
  int64_t journal_index;
  int32_t key_kind;
  int32_t value_kind;
  int32_t flags;
  int32_t pop_start;
} kiln_dict;


/* The operation of kiln_set_combine / kiln_set_update (and of the kiln
   dialect's kiln.set.combine / kiln.set.update, whose SetOperation enum
   lib/Dialect/KilnAbi.h checks against these numbers). */
#define KILN_SET_OPERATIONS(X)                                                 \
  X(0, Union, UNION)                                                           \
  X(1, Intersection, INTERSECTION)                                             \
  X(2, Difference, DIFFERENCE)                                                 \
  X(3, SymmetricDifference, SYMMETRIC_DIFFERENCE)
enum kiln_set_operation {
#define KILN_SET_OPERATION_ENUM(number, name, suffix) KILN_SET_##suffix = number,
  KILN_SET_OPERATIONS(KILN_SET_OPERATION_ENUM)
#undef KILN_SET_OPERATION_ENUM
};

/* The character properties of kiln_str_is (runtime/kiln_str.c) and of the
   kiln dialect's kiln.str.is, whose StrProperty enum lib/Dialect/KilnAbi.h
   checks against these numbers: X(number, name, method suffix). Each is
   the str method of that name, for the whole string as CPython answers. */
#define KILN_STR_PROPERTIES(X)                                                 \
  X(0, Digit, DIGIT)                                                           \
  X(1, Alpha, ALPHA)                                                           \
  X(2, Alnum, ALNUM)                                                           \
  X(3, Space, SPACE)                                                           \
  X(4, Decimal, DECIMAL)                                                       \
  X(5, Numeric, NUMERIC)                                                       \
  X(6, Lower, LOWER)                                                           \
  X(7, Upper, UPPER)
enum kiln_str_property {
#define KILN_STR_PROPERTY_ENUM(number, name, suffix) KILN_STR_IS##suffix = number,
  KILN_STR_PROPERTIES(KILN_STR_PROPERTY_ENUM)
#undef KILN_STR_PROPERTY_ENUM
};

/* kiln_dict.live[i] of an entry compiled code added (bit 0: live). */
#define KILN_DICT_ADDED 3

/* kiln_dict.flags: a compiled function changed the dict (an entry added,
   removed or given a new value). */
#define KILN_DICT_MODIFIED 1

/* A KeyError's message says the key's kind and its 8 bytes are args[0]:
   "int key {}", "float key {}" (the double's bits) or "bool key {}"; the
   Python wrapper raises KeyError(key) as CPython does. */
#define KILN_KEY_ERROR_INT "int key {}"
#define KILN_KEY_ERROR_FLOAT "float key {}"
#define KILN_KEY_ERROR_BOOL "bool key {}"
#define KILN_KEY_ERROR_STR "str key {!r}"

/* Drops the caller's reference to a dict; frees it when it was the last. */
static inline void kiln_dict_drop(kiln_dict *dict) {
  if (dict && --dict->refcount == 0) {
    if (dict->key_kind == KILN_ITEM_STR || dict->value_kind == KILN_ITEM_STR)
      for (int64_t i = 0; i < dict->used; ++i)
        if (dict->live[i]) {
          if (dict->key_kind == KILN_ITEM_STR)
            kiln_str_drop((kiln_str *)(uintptr_t)dict->keys[i]);
          if (dict->values && dict->value_kind == KILN_ITEM_STR)
            kiln_str_drop((kiln_str *)(uintptr_t)dict->values[i]);
        }
    free(dict->keys);
    free(dict->values);
    free(dict->live);
    free(dict->hashes);
    free(dict->index);
    free(dict);
  }
}

/* Instances of exported classes (`@kiln.export` on a class) are CPython
   objects of a heap type the extension makes; compiled code reads and writes
   their fields in place and counts their references, holding the GIL.
   An instance is laid out as

     offset 0   Py_ssize_t ob_refcnt
     offset 8   PyTypeObject *ob_type
     offset 16  one KILN_OBJECT_FIELD_SIZE slot per field, in declaration
                order: int64 (int), double (float), one byte 0/1 (bool), or
                a PyObject * (an instance; NULL is None, or an unset field)

   Compiled code makes an instance through its type's tp_alloc and frees the
   last reference through its type's tp_dealloc, found at these offsets of
   PyTypeObject. The extension static_asserts every number here against
   Python.h; the frontend's class layout (kiln/frontend/classes.py) uses the
   same sizes, which test_abi.py compares. Across the C ABI an instance is a
   `void *`: borrowed as an argument, a new reference as a result. */
#define KILN_OBJECT_REFCOUNT_OFFSET 0
#define KILN_OBJECT_TYPE_OFFSET 8
#define KILN_OBJECT_HEADER_SIZE 16
#define KILN_OBJECT_FIELD_SIZE 8
#define KILN_PYTYPE_DEALLOC_OFFSET 48
#define KILN_PYTYPE_ALLOC_OFFSET 304

/* Drops a reference to an instance (the GIL held): the last one frees it
   through its type's tp_dealloc, as Py_DECREF would (without Python.h: a
   list of instances a C caller drops). */
struct _object;
typedef void (*kiln_object_destructor)(struct _object *object);
static inline void kiln_object_drop(void *object) {
  if (object && --*(intptr_t *)((char *)object + KILN_OBJECT_REFCOUNT_OFFSET) == 0) {
    void *type = *(void **)((char *)object + KILN_OBJECT_TYPE_OFFSET);
    kiln_object_destructor destroy =
        *(kiln_object_destructor *)((char *)type + KILN_PYTYPE_DEALLOC_OFFSET);
    destroy((struct _object *)object);
  }
}

/* The most dimensions an array of Kiln-compiled code has (arguments,
   results and arrays inside). */
#define KILN_MAX_NDIM 8

#endif /* KILN_ABI_H */
