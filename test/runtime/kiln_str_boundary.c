// dict[K, V] and set[K] arguments and results with str keys, values and
// elements at the CPython boundary (runtime/kiln_runtime.h), in an embedded
// CPython, the "function" being runtime/kiln_dict.c's operations on the
// native containers: read (each str a new kiln_str the container owns,
// looked up by its text), written back (only the entries whose text
// changed get new objects; kept keys, values and elements keep theirs),
// returned (a new dict or set, or an argument), refused (TypeError and
// ValueError texts), and every kiln_str the wrapper made freed on every
// path (ASan's leak checker; PYTHONMALLOC=malloc lets it see CPython's own
// memory too). A randomized part replays the same operations on a Python
// copy and compares contents, order and object identity.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir \
// RUN:   %python_cflags %s %python_ldflags -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 PYTHONMALLOC=malloc %t | FileCheck %s

#include "kiln_runtime.h"

#include "kiln_journal.c"
#include "kiln_dict.c"
#include "kiln_list.c"
#include "kiln_str.c"

#include <stdio.h>

static int failures;

#define EXPECT(condition)                                                        \
  do {                                                                           \
    if (!(condition)) {                                                          \
      printf("FAILED line %d: %s\n", __LINE__, #condition);                      \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

static PyObject *globals;

static void run(const char *code) {
  PyObject *result = PyRun_String(code, Py_file_input, globals, globals);
  if (!result) {
    PyErr_Print();
    ++failures;
  }
  Py_XDECREF(result);
}

// A new reference to what `expression` evaluates to in the test's globals.
static PyObject *eval(const char *expression) {
  PyObject *result = PyRun_String(expression, Py_eval_input, globals, globals);
  if (!result) {
    PyErr_Print();
    ++failures;
  }
  return result;
}

// Prints `label: ascii(object)`.
static void show(const char *label, PyObject *object) {
  PyObject *text = object ? PyObject_ASCII(object) : NULL;
  printf("%s: %s\n", label, text ? PyUnicode_AsUTF8(text) : "(null)");
  Py_XDECREF(text);
}

// ascii() of the sorted elements of a set.
static void show_sorted(const char *label, PyObject *set) {
  PyObject *list = PySequence_List(set);
  if (list && PyList_Sort(list) == 0)
    show(label, list);
  Py_XDECREF(list);
}

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

static kiln_str *text(const char *utf8) { return kiln_str_from_utf8(utf8, (int64_t)strlen(utf8)); }
static uint64_t bits(kiln_str *str) { return (uint64_t)(uintptr_t)str; }
static kiln_str *str_at(uint64_t bits) { return (kiln_str *)(uintptr_t)bits; }

// The slot of the key of text `utf8` in `dict` (found by its text).
static int64_t slot_of(kiln_dict *dict, const char *utf8) {
  kiln_str *key = text(utf8);
  int64_t slot = kiln_dict_find(dict, bits(key));
  kiln_str_release(key);
  return slot;
}

// d[utf8] = value, with a new key string (the dict takes its own reference).
static void set_int(kiln_dict *dict, const char *utf8, int64_t value) {
  kiln_str *key = text(utf8);
  EXPECT(kiln_dict_set(dict, bits(key), (uint64_t)value));
  kiln_str_release(key);
}

static void set_str(kiln_dict *dict, const char *key_utf8, const char *value_utf8) {
  kiln_str *key = text(key_utf8), *value = text(value_utf8);
  EXPECT(kiln_dict_set(dict, bits(key), bits(value)));
  kiln_str_release(key);
  kiln_str_release(value);
}

static void erase(kiln_dict *dict, const char *utf8) {
  int64_t slot = slot_of(dict, utf8);
  EXPECT(slot >= 0);
  if (slot >= 0)
    kiln_dict_erase_at(dict, slot);
}

// The object of `set` equal to str `utf8` (borrowed from the set), or NULL.
static PyObject *member(PyObject *set, const char *utf8) {
  PyObject *wanted = PyUnicode_FromString(utf8);
  PyObject *list = PySequence_List(set);
  PyObject *found = NULL;
  for (Py_ssize_t i = 0; list && i < PyList_GET_SIZE(list); ++i)
    if (PyObject_RichCompareBool(PyList_GET_ITEM(list, i), wanted, Py_EQ) == 1)
      found = PyList_GET_ITEM(list, i);
  Py_XDECREF(list);
  Py_DECREF(wanted);
  return found;   // the set still holds it
}

// dict[str, int]: read by text, changed (a value, an erase, an add),
// written back with the kept keys' objects.
static void dict_str_int(void) {
  run("d = {'a': 1000, 'b\\u00e9': 2000, '\\u0100\\u0100': 3000, '\\U0001F600x': 4000, "
      "'': 5000}");
  PyObject *d = eval("d");
  PyObject *keys_before = PySequence_List(d);
  PyObject *values_before = PyDict_Values(d);
  kiln_container_argument arguments[4];
  int count = 0;
  kiln_dict *native = kiln_get_dict(d, KILN_ITEM_STR, KILN_ITEM_INT, arguments, &count, "f", "d");
  EXPECT(native && native->length == 5 && native->used == 5 && count == 1 &&
         native->key_kind == KILN_ITEM_STR && native->value_kind == KILN_ITEM_INT &&
         native->flags == 0 && native->journal_index == -1);
  if (!native)
    return;
  // Each key a new kiln_str of its text in the narrowest kind, in order.
  const int kinds[] = {1, 1, 2, 4, 1};
  for (int i = 0; i < 5; ++i) {
    kiln_str *key = str_at(native->keys[i]);
    EXPECT(key->refcount == 1 && key->journal_index == -1 && key->kind == kinds[i] &&
           key->hash == -1 && kiln_same_text(PyList_GET_ITEM(keys_before, i), key) &&
           native->live[i] == 1 && native->values[i] == (uint64_t)(1000 * (i + 1)));
  }
  // Found by its text from strings made elsewhere (another address; a
  // wider buffer narrowed to one byte a code point).
  EXPECT(slot_of(native, "\U0001F600x") == 3 && slot_of(native, "") == 4);
  uint32_t wide[] = {'b', 0xe9};
  kiln_str *be = kiln_str_from_data(4, wide, 2);
  EXPECT(be->kind == 1 && kiln_dict_find(native, bits(be)) == 1);
  // The function: d['a'] = 1; del d['bé']; d['ĀĀ'] = 3000; d['new'] = 6.
  set_int(native, "a", 1);
  kiln_dict_erase_at(native, kiln_dict_find(native, bits(be)));
  kiln_str_release(be);
  set_int(native, "\u0100\u0100", 3000);
  set_int(native, "new", 6);
  EXPECT(native->flags & KILN_DICT_MODIFIED);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("dict[str, int] written back", d);
  // CHECK: dict[str, int] written back: {'a': 1, '\u0100\u0100': 3000, '\U0001f600x': 4000, '': 5000, 'new': 6}
  PyObject *keys_after = PySequence_List(d);
  PyObject *values_after = PyDict_Values(d);
  EXPECT(PyList_GET_ITEM(keys_after, 0) == PyList_GET_ITEM(keys_before, 0));
  EXPECT(PyList_GET_ITEM(keys_after, 1) == PyList_GET_ITEM(keys_before, 2));
  EXPECT(PyList_GET_ITEM(keys_after, 2) == PyList_GET_ITEM(keys_before, 3));
  EXPECT(PyList_GET_ITEM(keys_after, 3) == PyList_GET_ITEM(keys_before, 4));
  EXPECT(PyUnicode_CheckExact(PyList_GET_ITEM(keys_after, 4)));
  // Values left alone (or set to what they were) keep their objects.
  EXPECT(PyList_GET_ITEM(values_after, 1) == PyList_GET_ITEM(values_before, 2));
  EXPECT(PyList_GET_ITEM(values_after, 2) == PyList_GET_ITEM(values_before, 3));
  // The same dict returned: the caller's object.
  PyObject *result = kiln_dict_result(native, arguments, count);
  EXPECT(result == d);
  Py_XDECREF(result);
  kiln_free_arguments(arguments, count);
  Py_DECREF(values_after);
  Py_DECREF(keys_after);
  Py_DECREF(values_before);
  Py_DECREF(keys_before);
  Py_DECREF(d);

  // Only values changed and a key added: the caller's entries stay in
  // place, objects and all; a key deleted and added again is last, a new
  // object (as CPython's `del d[k]; d[k] = v`).
  run("d2 = {'xx': 1000, 'yy': 2000, 'zz': 3000}");
  d = eval("d2");
  keys_before = PySequence_List(d);
  values_before = PyDict_Values(d);
  count = 0;
  native = kiln_get_dict(d, KILN_ITEM_STR, KILN_ITEM_INT, arguments, &count, "f", "d2");
  set_int(native, "yy", 2001);
  set_int(native, "ww", 7);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("values changed", d);
  // CHECK-NEXT: values changed: {'xx': 1000, 'yy': 2001, 'zz': 3000, 'ww': 7}
  keys_after = PySequence_List(d);
  values_after = PyDict_Values(d);
  for (int i = 0; i < 3; ++i)
    EXPECT(PyList_GET_ITEM(keys_after, i) == PyList_GET_ITEM(keys_before, i));
  EXPECT(PyList_GET_ITEM(values_after, 0) == PyList_GET_ITEM(values_before, 0) &&
         PyList_GET_ITEM(values_after, 2) == PyList_GET_ITEM(values_before, 2));
  Py_DECREF(values_after);
  Py_DECREF(keys_after);
  native->flags = 0;
  erase(native, "xx");
  set_int(native, "xx", 1000);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("deleted and added again", d);
  // CHECK-NEXT: deleted and added again: {'yy': 2001, 'zz': 3000, 'ww': 7, 'xx': 1000}
  keys_after = PySequence_List(d);
  EXPECT(PyList_GET_ITEM(keys_after, 3) != PyList_GET_ITEM(keys_before, 0));
  EXPECT(PyList_GET_ITEM(keys_after, 0) == PyList_GET_ITEM(keys_before, 1));
  Py_DECREF(keys_after);
  kiln_free_arguments(arguments, count);
  Py_DECREF(values_before);
  Py_DECREF(keys_before);
  Py_DECREF(d);
}

// dict[int, str] and dict[str, str].
static void dict_str_values(void) {
  run("e = {1: 'one!', 2: 'tw\\u00f6', 3: '\\u4e09\\u4e09', 4: '\\U0001F600\\U0001F600'}");
  PyObject *e = eval("e");
  PyObject *values_before = PyDict_Values(e);
  kiln_container_argument arguments[4];
  int count = 0;
  kiln_dict *native = kiln_get_dict(e, KILN_ITEM_INT, KILN_ITEM_STR, arguments, &count, "f", "e");
  EXPECT(native && native->length == 4 && str_at(native->values[2])->kind == 2 &&
         str_at(native->values[3])->kind == 4 && str_at(native->values[3])->length == 2);
  if (!native)
    return;
  // e[1] = 'one!' (an equal text, another string); e[2] = 'zwei'; del e[3];
  // e[5] = '' (the static empty string: immortal, never counted).
  kiln_str *same = text("one!"), *zwei = text("zwei"), *empty = text("");
  kiln_dict_store_value_str(native, kiln_dict_find(native, 1), same);
  kiln_dict_store_value_str(native, kiln_dict_find(native, 2), zwei);
  kiln_dict_erase_at(native, kiln_dict_find(native, 3));
  EXPECT(kiln_dict_set(native, 5, bits(empty)));
  EXPECT(same->refcount == 2 && zwei->refcount == 2);
  kiln_str_release(same);
  kiln_str_release(zwei);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("dict[int, str] written back", e);
  // CHECK-NEXT: dict[int, str] written back: {1: 'one!', 2: 'zwei', 4: '\U0001f600\U0001f600', 5: ''}
  PyObject *values_after = PyDict_Values(e);
  EXPECT(PyList_GET_ITEM(values_after, 0) == PyList_GET_ITEM(values_before, 0));
  EXPECT(PyList_GET_ITEM(values_after, 2) == PyList_GET_ITEM(values_before, 3));
  Py_DECREF(values_after);
  Py_DECREF(values_before);

  // dict[str, str], passed twice (one native dict), and an empty one.
  run("g = {'k': 'v', '\\u00e9t\\u00e9': '\\u00fc', 'x\\U0001F600': '\\U0001F601', 'kept': 'as is'}");
  PyObject *g = eval("g");
  PyObject *keys_before = PySequence_List(g);
  values_before = PyDict_Values(g);
  kiln_dict *native_g =
      kiln_get_dict(g, KILN_ITEM_STR, KILN_ITEM_STR, arguments, &count, "f", "g");
  EXPECT(kiln_get_dict(g, KILN_ITEM_STR, KILN_ITEM_STR, arguments, &count, "f", "h") ==
         native_g && count == 2);
  run("empty = {}");
  PyObject *empty_dict = eval("empty");
  kiln_dict *native_empty =
      kiln_get_dict(empty_dict, KILN_ITEM_STR, KILN_ITEM_STR, arguments, &count, "f", "empty");
  EXPECT(native_empty && native_empty->length == 0 && native_empty->capacity == 1 && count == 3);
  erase(native_g, "k");
  set_str(native_g, "ne\u0101", "\U00010000");
  set_str(native_g, "x\U0001F600", "plain");
  set_str(native_g, "\u00e9t\u00e9", "\u00fc");   // the same text: the caller's object stays
  set_str(native_empty, "a", "b");
  set_str(native_empty, "\U0001F600", "\u0100");
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("dict[str, str] written back", g);
  // CHECK-NEXT: dict[str, str] written back: {'\xe9t\xe9': '\xfc', 'x\U0001f600': 'plain', 'kept': 'as is', 'ne\u0101': '\U00010000'}
  show("empty written back", empty_dict);
  // CHECK-NEXT: empty written back: {'a': 'b', '\U0001f600': '\u0100'}
  PyObject *keys_after = PySequence_List(g);
  values_after = PyDict_Values(g);
  for (int i = 0; i < 3; ++i)
    EXPECT(PyList_GET_ITEM(keys_after, i) == PyList_GET_ITEM(keys_before, i + 1));
  EXPECT(PyList_GET_ITEM(values_after, 0) == PyList_GET_ITEM(values_before, 1));
  EXPECT(PyList_GET_ITEM(values_after, 2) == PyList_GET_ITEM(values_before, 3));
  Py_DECREF(values_after);
  Py_DECREF(keys_after);
  Py_DECREF(values_before);
  Py_DECREF(keys_before);
  kiln_free_arguments(arguments, count);
  Py_DECREF(empty_dict);
  Py_DECREF(g);
  Py_DECREF(e);
}

// set[str] and frozenset: add and discard written back, kept elements'
// objects kept; an element discarded and added again is a new object.
static void sets_of_str(void) {
  run("s = {'ab', 'cd', '\\u00ff\\u00ff', '\\u0100z', '\\U0001F600y', 'q'}");
  PyObject *s = eval("s");
  PyObject *ab = Py_NewRef(member(s, "ab")), *yy = Py_NewRef(member(s, "\u00ff\u00ff"));
  PyObject *astral = Py_NewRef(member(s, "\U0001F600y")), *q = Py_NewRef(member(s, "q"));
  kiln_container_argument arguments[4];
  int count = 0;
  kiln_dict *native = kiln_get_set(s, KILN_ITEM_STR, arguments, &count, "f", "s");
  EXPECT(native && native->length == 6 && native->values == NULL &&
         native->value_kind == KILN_ITEM_NONE);
  if (!native)
    return;
  kiln_str *cd = text("cd"), *ab_again = text("ab"), *added = text("n\u0113w");
  kiln_str *q_again = text("q");   // one code point below 256: a static string
  EXPECT(kiln_set_discard(native, bits(cd)) == 1);
  EXPECT(kiln_set_discard(native, bits(cd)) == 0);
  EXPECT(kiln_set_discard(native, bits(ab_again)) == 1);
  EXPECT(kiln_dict_set(native, bits(ab_again), 0) && kiln_dict_set(native, bits(added), 0));
  EXPECT(kiln_dict_set(native, bits(q_again), 0));   // already an element
  kiln_str_release(cd);
  kiln_str_release(ab_again);
  kiln_str_release(added);
  kiln_str_release(q_again);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show_sorted("set[str] written back", s);
  // CHECK-NEXT: set[str] written back: ['ab', 'n\u0113w', 'q', '\xff\xff', '\u0100z', '\U0001f600y']
  EXPECT(member(s, "\u00ff\u00ff") == yy && member(s, "\U0001F600y") == astral &&
         member(s, "q") == q);
  EXPECT(member(s, "ab") != NULL && member(s, "ab") != ab);

  // A frozenset is read; changed, it cannot be written back.
  run("fz = frozenset({'p\\u00e9', 'qq', '\\U0001F600'})");
  PyObject *fz = eval("fz");
  kiln_dict *native_fz = kiln_get_set(fz, KILN_ITEM_STR, arguments, &count, "f", "fz");
  EXPECT(native_fz && native_fz->length == 3 && slot_of(native_fz, "p\u00e9") >= 0 &&
         slot_of(native_fz, "\U0001F600") >= 0 && slot_of(native_fz, "pe") == -1);
  native->flags = 0;
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);   // not changed
  EXPECT(kiln_set_discard(native_fz, bits(str_at(native_fz->keys[0]))) == 1);
  EXPECT(kiln_write_back_arguments(arguments, count) < 0);
  print_exception();
  // CHECK-NEXT: TypeError: argument 'fz' is a frozenset, which the function changes (pass set(fz))

  // An empty set gets two elements.
  run("es = set()");
  PyObject *es = eval("es");
  kiln_dict *native_es = kiln_get_set(es, KILN_ITEM_STR, arguments, &count, "f", "es");
  EXPECT(native_es && native_es->length == 0 && count == 3);
  kiln_str *xy = text("xy"), *wide = text("\u4e09");
  EXPECT(kiln_dict_set(native_es, bits(xy), 0) && kiln_dict_set(native_es, bits(wide), 0));
  kiln_str_release(xy);
  kiln_str_release(wide);
  native_fz->flags = 0;
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show_sorted("empty set written back", es);
  // CHECK-NEXT: empty set written back: ['xy', '\u4e09']
  PyObject *result = kiln_set_result(native_es, arguments, count);
  EXPECT(result == es);
  Py_XDECREF(result);
  kiln_free_arguments(arguments, count);
  Py_DECREF(es);
  Py_DECREF(fz);
  Py_DECREF(q);
  Py_DECREF(astral);
  Py_DECREF(yy);
  Py_DECREF(ab);
  Py_DECREF(s);
}

// Results: new dicts and sets of str become new Python objects (the
// native ones' references all given back), discarded ones are freed.
static void results(void) {
  kiln_container_argument arguments[2];
  int count = 0;
  kiln_dict *made = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_STR, 0);
  set_str(made, "one", "\u00e9in");
  set_str(made, "\U0001F600", "two");
  set_str(made, "one", "eins");
  set_str(made, "", "x");
  erase(made, "\U0001F600");
  PyObject *result = kiln_dict_result(made, arguments, count);
  show("dict result", result);
  // CHECK-NEXT: dict result: {'one': 'eins', '': 'x'}
  Py_XDECREF(result);

  kiln_dict *counts = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_INT, 0);
  for (int i = 0; i < 100; ++i) {
    char word[16];
    snprintf(word, sizeof word, "w\u00e9%d", i % 37);
    int64_t slot = slot_of(counts, word);
    set_int(counts, word, slot >= 0 ? (int64_t)counts->values[slot] + 1 : 1);
  }
  result = kiln_dict_result(counts, arguments, count);
  PyObject *total = eval("lambda d: (len(d), sum(d.values()), d['w\\u00e936'])");
  PyObject *summary = result ? PyObject_CallOneArg(total, result) : NULL;
  show("counted", summary);
  // CHECK-NEXT: counted: (37, 100, 2)
  Py_XDECREF(summary);
  Py_DECREF(total);
  Py_XDECREF(result);

  kiln_dict *keyed = kiln_dict_new(KILN_ITEM_INT, KILN_ITEM_STR, 0);
  kiln_str *value = text("\u0100\u0101");
  EXPECT(kiln_dict_set(keyed, 7, bits(value)) && kiln_dict_set(keyed, 8, bits(value)));
  kiln_str_release(value);
  result = kiln_dict_result(keyed, arguments, count);
  show("dict[int, str] result", result);
  // CHECK-NEXT: dict[int, str] result: {7: '\u0100\u0101', 8: '\u0100\u0101'}
  Py_XDECREF(result);

  kiln_dict *set = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_NONE, 0);
  const char *elements[] = {"b", "a\U0001F600", "b", "cc", "\u00e9\u00e9"};
  for (int i = 0; i < 5; ++i) {
    kiln_str *element = text(elements[i]);
    EXPECT(kiln_dict_set(set, bits(element), 0));
    kiln_str_release(element);
  }
  result = kiln_set_result(set, arguments, count);
  show_sorted("set result", result);
  // CHECK-NEXT: set result: ['a\U0001f600', 'b', 'cc', '\xe9\xe9']
  Py_XDECREF(result);

  kiln_dict *empty = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_INT, 0);
  result = kiln_dict_result(empty, arguments, count);
  show("empty dict result", result);
  // CHECK-NEXT: empty dict result: {}
  Py_XDECREF(result);

  // Not boxed: dropped, their strings with them.
  kiln_dict *discarded = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_STR, 0);
  set_str(discarded, "dropped", "too");
  kiln_discard_dict_result(discarded, arguments, count);
  kiln_dict *discarded_set = kiln_dict_new(KILN_ITEM_STR, KILN_ITEM_NONE, 0);
  kiln_str *gone = text("gone");
  EXPECT(kiln_dict_set(discarded_set, bits(gone), 0));
  kiln_str_release(gone);
  kiln_discard_set_result(discarded_set, arguments, count);
}

// Refused arguments: TypeError naming the parameter and the key, value or
// element; ValueError for keys that become one; the strings read before
// the refusal all freed.
static void refused(void) {
  kiln_container_argument arguments[4];
  int count = 0;
  run("class S(str): pass\n"
      "class K(str):\n"
      "    __hash__ = object.__hash__\n"
      "    def __eq__(self, other): return self is other\n"
      "class Grow:\n"
      "    def __index__(self):\n"
      "        gd['zz'] = 1\n"
      "        return 5\n"
      "gd = {'a': 1, 'b': Grow()}\n");
  struct {
    const char *expression, *parameter;
    int key_kind, value_kind;   // value_kind KILN_ITEM_NONE: a set
  } cases[] = {
      {"{'a': 1, 3: 2}", "d", KILN_ITEM_STR, KILN_ITEM_INT},
      {"{1: 'x', 2: 2.5}", "d", KILN_ITEM_INT, KILN_ITEM_STR},
      {"{'a': 'x', 'b\\u00e9': None}", "bad", KILN_ITEM_STR, KILN_ITEM_STR},
      {"{'a': 'x', b'b': 'y'}", "bad", KILN_ITEM_STR, KILN_ITEM_STR},
      {"{'ab', 'cd', 'ef', 1}", "s", KILN_ITEM_STR, KILN_ITEM_NONE},
      {"['a']", "d", KILN_ITEM_STR, KILN_ITEM_INT},
      {"('a',)", "s", KILN_ITEM_STR, KILN_ITEM_NONE},
      {"{K('same'): 1, K('same'): 2, 'other': 3}", "kd", KILN_ITEM_STR, KILN_ITEM_INT},
      {"{K('dup'), K('dup'), 'x'}", "ks", KILN_ITEM_STR, KILN_ITEM_NONE},
      {"gd", "gd", KILN_ITEM_STR, KILN_ITEM_INT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    PyObject *object = eval(cases[i].expression);
    kiln_dict *native =
        cases[i].value_kind == KILN_ITEM_NONE
            ? kiln_get_set(object, cases[i].key_kind, arguments, &count, "f", cases[i].parameter)
            : kiln_get_dict(object, cases[i].key_kind, cases[i].value_kind, arguments, &count,
                            "f", cases[i].parameter);
    EXPECT(native == NULL && count == 0);
    if (native) {
      printf("read: %s\n", cases[i].expression);
      kiln_free_arguments(arguments, count);
      count = 0;
    }
    print_exception();
    Py_XDECREF(object);
  }
  // CHECK-NEXT: TypeError: f() argument 'd' key 3 must be str, not int
  // CHECK-NEXT: TypeError: f() argument 'd'[2] must be str, not float
  // CHECK-NEXT: TypeError: f() argument 'bad'['bé'] must be str, not NoneType
  // CHECK-NEXT: TypeError: f() argument 'bad' key b'b' must be str, not bytes
  // CHECK-NEXT: TypeError: f() argument 's' element 1 must be str, not int
  // CHECK-NEXT: TypeError: f() argument 'd' must be dict, not list
  // CHECK-NEXT: TypeError: f() argument 's' must be set, not tuple
  // CHECK-NEXT: ValueError: f() argument 'kd' has two keys that convert to the same str, 'same'
  // CHECK-NEXT: ValueError: f() argument 'ks' has two elements that convert to the same str, 'dup'
  // CHECK-NEXT: RuntimeError: f() argument 'gd' changed size while it was read

  // A str subclass is read as a str; the same object for parameters of
  // other types is refused, the types named.
  run("sd = {S('x\\u00e9'): S('y'), 'z': 'w'}\nss = {S('m'), 'n'}");
  PyObject *sd = eval("sd"), *ss = eval("ss");
  kiln_dict *native = kiln_get_dict(sd, KILN_ITEM_STR, KILN_ITEM_STR, arguments, &count, "f", "sd");
  EXPECT(native && native->length == 2 && str_at(native->keys[0])->kind == 1 &&
         str_at(native->keys[0])->length == 2 && str_at(native->values[0])->length == 1);
  if (!native)
    return;
  EXPECT(kiln_get_dict(sd, KILN_ITEM_STR, KILN_ITEM_INT, arguments, &count, "f", "other") ==
         NULL);
  print_exception();
  // CHECK-NEXT: TypeError: f() arguments 'sd' and 'other' are the same dict, which cannot be both dict[str, str] and dict[str, int]; pass a copy (dict(other)) as one of them
  kiln_dict *native_set = kiln_get_set(ss, KILN_ITEM_STR, arguments, &count, "f", "ss");
  EXPECT(native_set && native_set->length == 2 && slot_of(native_set, "m") >= 0);
  EXPECT(kiln_get_set(ss, KILN_ITEM_INT, arguments, &count, "f", "ints") == NULL);
  print_exception();
  // CHECK-NEXT: TypeError: f() arguments 'ss' and 'ints' are the same set, which cannot be both set[str] and set[int]; pass a copy (set(ints)) as one of them
  // Written back: the subclass key keeps its object.
  PyObject *subclass_key = PySequence_List(sd);
  set_str(native, "z", "changed");
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  PyObject *keys_after = PySequence_List(sd);
  EXPECT(PyList_GET_ITEM(keys_after, 0) == PyList_GET_ITEM(subclass_key, 0));
  show("subclass keys written back", sd);
  // CHECK-NEXT: subclass keys written back: {'x\xe9': 'y', 'z': 'changed'}
  Py_DECREF(keys_after);
  Py_DECREF(subclass_key);
  kiln_free_arguments(arguments, count);
  Py_DECREF(ss);
  Py_DECREF(sd);
}

// A call that raised after storing into its arguments: the strings it
// stored left the journal and live on in the arguments (written back,
// then freed with them); a string only the call held is freed by the
// unwind. Lists of str too (kiln_free_arguments gives their items back).
static void raised(void) {
  kiln_container_argument arguments[4];
  int count = 0;
  run("rd = {'keep': 'v'}\nrs = {'el'}\nrl = ['ab', 'c\\u00e9', '\\U0001F600']");
  PyObject *rd = eval("rd"), *rs = eval("rs"), *rl = eval("rl");
  kiln_dict *native = kiln_get_dict(rd, KILN_ITEM_STR, KILN_ITEM_STR, arguments, &count, "f", "rd");
  kiln_dict *native_set = kiln_get_set(rs, KILN_ITEM_STR, arguments, &count, "f", "rs");
  kiln_list *list = kiln_get_list(rl, KILN_ITEM_STR, arguments, &count, "f", "rl");
  EXPECT(native && native_set && list && list->length == 3 && count == 3);
  if (!native || !native_set || !list)
    return;
  int64_t mark = kiln_journal_enter();
  kiln_str *key = text("made in call"), *value = text("\u0100 value"), *temporary = text("tmp");
  EXPECT(key->journal_index >= 0 && temporary->journal_index >= 0);
  EXPECT(kiln_dict_set(native, bits(key), bits(value)));
  EXPECT(kiln_dict_set(native_set, bits(key), 0));
  EXPECT(kiln_list_append_str(list, value));
  // the caller's containers hold two references to each: counted
  EXPECT(key->journal_index >= 0 && key->outside_references == 2 &&
         value->outside_references == 2 && key->refcount == 3);
  // the names still hold `key` and `value` when the call raises: the unwind
  // frees `temporary` and leaves those two the caller's references only
  kiln_journal_unwind(mark);
  EXPECT(key->refcount == 2 && value->refcount == 2 && key->journal_index == -1);
  EXPECT(kiln_journal_size() == 0);
  EXPECT(kiln_write_back_arguments(arguments, count) == 0);
  show("after a raise", rd);
  show_sorted("set after a raise", rs);
  show("list after a raise", rl);
  // CHECK-NEXT: after a raise: {'keep': 'v', 'made in call': '\u0100 value'}
  // CHECK-NEXT: set after a raise: ['el', 'made in call']
  // CHECK-NEXT: list after a raise: ['ab', 'c\xe9', '\U0001f600', '\u0100 value']
  kiln_free_arguments(arguments, count);
  Py_DECREF(rl);
  Py_DECREF(rs);
  Py_DECREF(rd);
}

// ---- randomized: the same operations on the native container and on a
// Python copy; written back, the caller's object equals the copy in
// contents and order, and every key (element, value) the copy still holds
// as the caller's object is that object.

static uint64_t random_state = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) {
  random_state ^= random_state << 13;
  random_state ^= random_state >> 7;
  random_state ^= random_state << 17;
  return random_state;
}

static const char *const pool[] = {"k0", "k1", "k2", "k3", "k4", "k5", "\u00e91", "\u00e92",
                                   "\u0100a", "\u0100\u0100", "\U0001F600a", "a\U0001F600",
                                   "", "q", "\u00ff", "long key of some length, \u00e9"};
enum { POOL = sizeof pool / sizeof pool[0] };

static int holds_object(PyObject *list, PyObject *object) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i)
    if (PyList_GET_ITEM(list, i) == object)
      return 1;
  return 0;
}

// The caller's `objects` (keys, values or elements) of the written-back
// object against the copy's `expected`, position by position (sorted
// beforehand for sets): a copy's object that is one of the caller's
// original objects (`original`) must be the caller's one too.
static int same_objects(PyObject *objects, PyObject *expected, PyObject *original) {
  if (PyList_GET_SIZE(objects) != PyList_GET_SIZE(expected))
    return 0;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objects); ++i) {
    PyObject *want = PyList_GET_ITEM(expected, i);
    if (holds_object(original, want) && PyList_GET_ITEM(objects, i) != want)
      return 0;
  }
  return 1;
}

static int random_dict_round(int value_kind) {
  PyObject *d = PyDict_New();
  int size = (int)(next_random() % 8);
  for (int i = 0; i < size; ++i) {
    const char *key = pool[next_random() % POOL];
    PyObject *k = PyUnicode_FromString(key);
    PyObject *v = value_kind == KILN_ITEM_INT ? PyLong_FromLong((long)(next_random() % 5) + 1000)
                                              : PyUnicode_FromString(pool[next_random() % POOL]);
    PyDict_SetItem(d, k, v);
    Py_DECREF(k);
    Py_DECREF(v);
  }
  PyObject *expected = PyDict_Copy(d);
  PyObject *original_keys = PySequence_List(d), *original_values = PyDict_Values(d);
  kiln_container_argument arguments[1];
  int count = 0;
  kiln_dict *native = kiln_get_dict(d, KILN_ITEM_STR, value_kind, arguments, &count, "f", "d");
  int ok = native != NULL;
  int operations = (int)(next_random() % 10);
  for (int i = 0; ok && i < operations; ++i) {
    const char *key = pool[next_random() % POOL];
    PyObject *k = PyUnicode_FromString(key);
    if (next_random() % 3 == 0) {
      int64_t slot = slot_of(native, key);
      if (slot >= 0) {
        kiln_dict_erase_at(native, slot);
        PyDict_DelItem(expected, k);
      }
    } else if (value_kind == KILN_ITEM_INT) {
      int64_t value = (int64_t)(next_random() % 5) + 1000;
      set_int(native, key, value);
      PyObject *v = PyLong_FromLongLong(value);
      PyDict_SetItem(expected, k, v);
      Py_DECREF(v);
    } else {
      const char *value = pool[next_random() % POOL];
      set_str(native, key, value);
      PyObject *v = PyUnicode_FromString(value);
      PyDict_SetItem(expected, k, v);
      Py_DECREF(v);
    }
    Py_DECREF(k);
  }
  if (ok && kiln_write_back_arguments(arguments, count) < 0) {
    PyErr_Print();
    ok = 0;
  }
  if (ok) {
    PyObject *keys = PySequence_List(d), *expected_keys = PySequence_List(expected);
    PyObject *values = PyDict_Values(d), *expected_values = PyDict_Values(expected);
    ok = PyObject_RichCompareBool(keys, expected_keys, Py_EQ) == 1 &&
         PyObject_RichCompareBool(values, expected_values, Py_EQ) == 1 &&
         same_objects(keys, expected_keys, original_keys) &&
         same_objects(values, expected_values, original_values);
    if (!ok) {
      show("  got", d);
      show("  expected", expected);
    }
    Py_DECREF(expected_values);
    Py_DECREF(values);
    Py_DECREF(expected_keys);
    Py_DECREF(keys);
  }
  kiln_free_arguments(arguments, count);
  Py_DECREF(original_values);
  Py_DECREF(original_keys);
  Py_DECREF(expected);
  Py_DECREF(d);
  return ok;
}

static int random_set_round(void) {
  PyObject *s = PySet_New(NULL);
  int size = (int)(next_random() % 8);
  for (int i = 0; i < size; ++i) {
    PyObject *element = PyUnicode_FromString(pool[next_random() % POOL]);
    PySet_Add(s, element);
    Py_DECREF(element);
  }
  PyObject *expected = PySet_New(s);
  PyObject *original = PySequence_List(s);
  kiln_container_argument arguments[1];
  int count = 0;
  kiln_dict *native = kiln_get_set(s, KILN_ITEM_STR, arguments, &count, "f", "s");
  int ok = native != NULL;
  int operations = (int)(next_random() % 10);
  for (int i = 0; ok && i < operations; ++i) {
    const char *utf8 = pool[next_random() % POOL];
    PyObject *element = PyUnicode_FromString(utf8);
    kiln_str *str = text(utf8);
    if (next_random() % 2) {
      EXPECT(kiln_set_discard(native, bits(str)) == PySet_Discard(expected, element));
    } else {
      EXPECT(kiln_dict_set(native, bits(str), 0));
      // CPython's add keeps an element already there (its object).
      PySet_Add(expected, element);
    }
    kiln_str_release(str);
    Py_DECREF(element);
  }
  if (ok && kiln_write_back_arguments(arguments, count) < 0) {
    PyErr_Print();
    ok = 0;
  }
  if (ok) {
    PyObject *elements = PySequence_List(s), *expected_elements = PySequence_List(expected);
    PyList_Sort(elements);
    PyList_Sort(expected_elements);
    ok = PyObject_RichCompareBool(elements, expected_elements, Py_EQ) == 1 &&
         same_objects(elements, expected_elements, original);
    if (!ok) {
      show_sorted("  got", s);
      show_sorted("  expected", expected);
    }
    Py_DECREF(expected_elements);
    Py_DECREF(elements);
  }
  kiln_free_arguments(arguments, count);
  Py_DECREF(original);
  Py_DECREF(expected);
  Py_DECREF(s);
  return ok;
}

static void randomized(void) {
  int wrong = 0;
  for (int round = 0; round < 3000; ++round) {
    wrong += !random_dict_round(KILN_ITEM_INT);
    wrong += !random_dict_round(KILN_ITEM_STR);
    wrong += !random_set_round();
  }
  printf("randomized rounds wrong: %d\n", wrong);
  // CHECK-NEXT: randomized rounds wrong: 0
  failures += wrong;
  EXPECT(kiln_journal_size() == 0);
}

int main(void) {
  Py_Initialize();
  globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  dict_str_int();
  dict_str_values();
  sets_of_str();
  results();
  refused();
  raised();
  randomized();
  Py_DECREF(globals);
  if (Py_FinalizeEx() < 0)
    ++failures;
  printf("%s\n", failures ? "FAILED" : "PASSED");
  // CHECK-NEXT: PASSED
  return failures != 0;
}
