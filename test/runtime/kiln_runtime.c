// runtime/kiln_runtime.h compiles on its own as C11 with every warning an
// error, and its conversions and exceptions behave, run in an embedded
// CPython.
// RUN: %clang -std=c11 -Wall -Wextra -Werror -I%kiln_runtime_dir %python_cflags %s \
// RUN:   %python_ldflags -o %t
// RUN: %t | FileCheck %s

#include "kiln_runtime.h"

#include <math.h>

static int failures = 0;
#define EXPECT(condition)                                                      \
  do {                                                                         \
    if (!(condition)) {                                                        \
      printf("FAILED: %s (line %d)\n", #condition, __LINE__);                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// The pending exception's type name and text, cleared.
static void print_exception(void) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  printf("%s: %s\n", type ? ((PyTypeObject *)type)->tp_name : "(none)",
         text ? PyUnicode_AsUTF8(text) : "");
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
}

int main(void) {
  Py_Initialize();

  // Every kind of the ABI becomes the Python exception of that name, with
  // the {} placeholders filled and the source line appended.
#define RAISE_KIND(number, name, suffix)                                       \
  {                                                                            \
    kiln_error error = {KILN_##suffix, 12, 5, 2, "got {} of {}", {-3, 7}};     \
    EXPECT(kiln_raise(&error, "kernel", "mod.py") == NULL);                    \
    EXPECT(PyErr_ExceptionMatches(PyExc_##name));                              \
    print_exception();                                                         \
  }
  KILN_ERROR_KINDS(RAISE_KIND)
#undef RAISE_KIND
  // CHECK: ZeroDivisionError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: IndexError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: ValueError:
  // CHECK-NEXT: OverflowError:
  // CHECK-NEXT: AssertionError:
  // CHECK-NEXT: RuntimeError:
  // CHECK-NEXT: TypeError:
  // CHECK-NEXT: MemoryError:
  // CHECK-NEXT: RecursionError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: KeyError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: AttributeError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: NotImplementedError: got -3 of 7 (mod.py, line 12)
  // CHECK-NEXT: LinAlgError: got -3 of 7 (mod.py, line 12)

  // A missing dict key is KeyError(key), as CPython raises it: the message
  // says the key's kind, args[0] holds its 8 bytes.
  {
    double half = -0.5;
    int64_t half_bits;
    memcpy(&half_bits, &half, sizeof half_bits);
    kiln_error int_key = {KILN_KEY_ERROR, 3, 9, 1, KILN_KEY_ERROR_INT, {-42}};
    kiln_error float_key = {KILN_KEY_ERROR, 3, 9, 1, KILN_KEY_ERROR_FLOAT, {half_bits}};
    kiln_error bool_key = {KILN_KEY_ERROR, 3, 9, 1, KILN_KEY_ERROR_BOOL, {1}};
    kiln_error *keys[] = {&int_key, &float_key, &bool_key};
    for (int i = 0; i < 3; ++i) {
      EXPECT(kiln_raise(keys[i], "kernel", "mod.py") == NULL);
      EXPECT(PyErr_ExceptionMatches(PyExc_KeyError));
      print_exception();
    }
  }
  // CHECK-NEXT: KeyError: -42
  // CHECK-NEXT: KeyError: -0.5
  // CHECK-NEXT: KeyError: True

  // A kind this runtime does not know is still an exception.
  kiln_error unknown = {99, 1, 1, 0, "odd", {0, 0}};
  EXPECT(kiln_raise(&unknown, "kernel", "mod.py") == NULL);
  print_exception();
  // CHECK-NEXT: RuntimeError: odd (mod.py, line 1)

  // Argument conversion: the fast and the general paths, and their errors.
  PyObject *half = PyFloat_FromDouble(0.5);
  PyObject *seven = PyLong_FromLong(7);
  PyObject *big = PyLong_FromLongLong(1LL << 40);
  PyObject *text = PyUnicode_FromString("x");
  double d = 0;
  int64_t i = 0;
  EXPECT(kiln_as_double(half, &d, "f", "x") == 0 && d == 0.5);
  EXPECT(kiln_as_double(seven, &d, "f", "x") == 0 && d == 7.0);
  EXPECT(kiln_as_int64(seven, &i, INT64_MIN, INT64_MAX, "f", "n") == 0 && i == 7);
  EXPECT(kiln_as_int64(big, &i, INT32_MIN, INT32_MAX, "f", "n") < 0);
  print_exception();
  // CHECK-NEXT: OverflowError: f() argument 'n' is out of range for a 32-bit integer
  EXPECT(kiln_as_int64(half, &i, INT64_MIN, INT64_MAX, "f", "n") < 0);
  print_exception();
  // CHECK-NEXT: TypeError: f() argument 'n' must be an int, not float
  EXPECT(kiln_as_double(text, &d, "f", "x") < 0);
  print_exception();
  // CHECK-NEXT: TypeError: f() argument 'x' must be a float, not str

  // Keyword binding, out of line.
  static const char *const names[] = {"a", "b"};
  PyObject *arguments[] = {seven, half};
  PyObject *keywords = Py_BuildValue("(s)", "b");
  PyObject *bound[2];
  EXPECT(kiln_bind_arguments(arguments, 1, keywords, bound, 2, 2, names, "g") == 0 &&
         bound[0] == seven && bound[1] == half);
  EXPECT(kiln_bind_arguments(arguments, 1, NULL, bound, 2, 2, names, "g") < 0);
  print_exception();
  // CHECK-NEXT: TypeError: g() missing required argument 'b' (pos 2)
  // A parameter with a default (the second of two, one required) may be
  // left out: it stays NULL for the wrapper to fill.
  EXPECT(kiln_bind_arguments(arguments, 1, NULL, bound, 2, 1, names, "g") == 0 &&
         bound[0] == seven && bound[1] == NULL);

  // Lists: read in one pass, one kiln_list per list object, written back
  // when the function changed it, returned as the caller's own object.
  kiln_container_argument list_arguments[3];
  int list_count = 0;
  PyObject *floats = Py_BuildValue("[d,i]", 0.5, 2);
  kiln_list *xs = kiln_get_list(floats, KILN_ITEM_FLOAT, list_arguments, &list_count, "f",
                                "xs");
  EXPECT(xs && xs->length == 2 && xs->capacity == 2 && xs->refcount == 1 &&
         xs->journal_index == -1 && xs->item_size == 8 && xs->flags == 0 &&
         ((double *)xs->items)[0] == 0.5 && ((double *)xs->items)[1] == 2.0);
  EXPECT(kiln_get_list(floats, KILN_ITEM_FLOAT, list_arguments, &list_count, "f", "ys") ==
         xs && list_count == 1);
  EXPECT(kiln_get_list(floats, KILN_ITEM_INT, list_arguments, &list_count, "f", "ns") ==
         NULL);
  print_exception();
  // CHECK-NEXT: TypeError: f() arguments 'xs' and 'ns' are the same list, which cannot be both list[float] and list[int]; pass a copy (list(ns)) as one of them
  PyObject *pair = Py_BuildValue("(ii)", 1, 2);
  EXPECT(kiln_get_list(pair, KILN_ITEM_INT, list_arguments, &list_count, "f", "ns") == NULL);
  print_exception();
  // CHECK-NEXT: TypeError: f() argument 'ns' must be list, not tuple
  PyObject *ints = Py_BuildValue("[i,s]", 1, "two");
  EXPECT(kiln_get_list(ints, KILN_ITEM_INT, list_arguments, &list_count, "f", "ns") == NULL);
  print_exception();
  // CHECK-NEXT: TypeError: f() argument 'ns'[1] must be int, not str
  PyObject *empty = PyList_New(0);
  kiln_list *flags = kiln_get_list(empty, KILN_ITEM_BOOL, list_arguments, &list_count, "f",
                                   "flags");
  EXPECT(flags && flags->length == 0 && flags->capacity == 1 && flags->item_size == 1 &&
         list_count == 2);
  // The function appends to one list and leaves the other alone.
  ((double *)xs->items)[1] = -1.0;
  xs->flags |= KILN_LIST_MODIFIED;
  EXPECT(kiln_write_back_arguments(list_arguments, list_count) == 0);
  PyObject *written = PyObject_Repr(floats);
  printf("written back %s\n", PyUnicode_AsUTF8(written));
  // CHECK-NEXT: written back [0.5, -1.0]
  Py_DECREF(written);
  PyObject *same = kiln_list_result(xs, KILN_ITEM_FLOAT, list_arguments, list_count);
  EXPECT(same == floats);
  Py_XDECREF(same);
  kiln_free_arguments(list_arguments, list_count);
  Py_DECREF(empty);
  Py_DECREF(ints);
  Py_DECREF(pair);
  Py_DECREF(floats);

  // Sets: read through the iterator (a frozenset too), written back by
  // discarding what the function removed and adding what it added; the
  // elements the caller kept keep their objects, a NaN among them.
  {
    kiln_container_argument set_arguments[3];
    int set_count = 0;
    PyObject *nan = PyFloat_FromDouble(NAN);
    PyObject *caller_items = Py_BuildValue("(d,d,O)", 1.5, 2.5, nan);
    PyObject *caller = PySet_New(caller_items);
    Py_DECREF(caller_items);
    kiln_dict *s = kiln_get_set(caller, KILN_ITEM_FLOAT, set_arguments, &set_count, "f", "s");
    EXPECT(s && s->length == 3 && s->used == 3 && s->values == NULL &&
           s->value_kind == KILN_ITEM_NONE && s->refcount == 1 && s->pop_start == 0);
    EXPECT(kiln_get_set(caller, KILN_ITEM_FLOAT, set_arguments, &set_count, "f", "t") == s &&
           set_count == 1);
    EXPECT(kiln_get_set(caller, KILN_ITEM_INT, set_arguments, &set_count, "f", "u") == NULL);
    print_exception();
    // CHECK-NEXT: TypeError: f() arguments 's' and 'u' are the same set, which cannot be both set[float] and set[int]; pass a copy (set(u)) as one of them
    PyObject *mixed_items = Py_BuildValue("(i,s)", 1, "two");
    PyObject *mixed = PySet_New(mixed_items);
    Py_DECREF(mixed_items);
    EXPECT(kiln_get_set(mixed, KILN_ITEM_INT, set_arguments, &set_count, "f", "u") == NULL);
    print_exception();
    // CHECK-NEXT: TypeError: f() argument 'u' element 'two' must be int, not str
    PyObject *list = PyList_New(0);
    EXPECT(kiln_get_set(list, KILN_ITEM_INT, set_arguments, &set_count, "f", "u") == NULL);
    print_exception();
    // CHECK-NEXT: TypeError: f() argument 'u' must be set, not list
    PyObject *frozen = PyFrozenSet_New(NULL);
    kiln_dict *fs = kiln_get_set(frozen, KILN_ITEM_INT, set_arguments, &set_count, "f", "fs");
    EXPECT(fs && fs->length == 0 && set_count == 2);
    // The function removes 2.5 (the slot of the caller's second element in
    // iteration order) and adds 4.0.
    int64_t removed = -1;
    for (int64_t slot = 0; slot < s->used; ++slot)
      if (((double *)s->keys)[slot] == 2.5)
        removed = slot;
    s->live[removed] = 0;
    s->capacity = 4;
    s->keys = (uint64_t *)realloc(s->keys, 4 * sizeof(uint64_t));
    s->live = (uint8_t *)realloc(s->live, 4);
    double four = 4.0;
    memcpy(&s->keys[s->used], &four, sizeof four);
    s->live[s->used] = KILN_DICT_ADDED;
    s->used += 1;
    s->flags |= KILN_DICT_MODIFIED;
    EXPECT(kiln_write_back_arguments(set_arguments, set_count) == 0);
    PyObject *sorted = PySequence_List(caller);
    PyObject *four_object = PyFloat_FromDouble(4.0);
    EXPECT(PySet_GET_SIZE(caller) == 3 && PySet_Contains(caller, nan) == 1 &&
           PySet_Contains(caller, four_object) == 1);
    Py_DECREF(four_object);
    Py_DECREF(sorted);
    // A frozenset the function changed cannot be written back.
    fs->flags |= KILN_DICT_MODIFIED;
    EXPECT(kiln_write_back_arguments(set_arguments, set_count) < 0);
    print_exception();
    // CHECK-NEXT: TypeError: argument 'fs' is a frozenset, which the function changes (pass set(fs))
    PyObject *result = kiln_set_result(s, set_arguments, set_count);
    EXPECT(result == caller);
    Py_XDECREF(result);
    kiln_free_arguments(set_arguments, set_count);
    Py_DECREF(frozen);
    Py_DECREF(list);
    Py_DECREF(mixed);
    Py_DECREF(caller);
    Py_DECREF(nan);
  }

  Py_DECREF(keywords);
  Py_DECREF(text);
  Py_DECREF(big);
  Py_DECREF(seven);
  Py_DECREF(half);
  if (Py_FinalizeEx() < 0)
    ++failures;
  printf("%s\n", failures ? "FAILED" : "PASSED");
  // CHECK-NEXT: PASSED
  return failures != 0;
}
