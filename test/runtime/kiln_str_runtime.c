// The str runtime (runtime/kiln_str.c) against the CPython it follows, run
// in an interpreter embedded in the test: every function on many inputs
// (empty, one code point, ASCII, latin-1, BMP, astral, mixed kinds, every
// kind of whitespace, Unicode digits), each result compared with what
// CPython's str gives for the same text, kind and bytes included (results
// are in the narrowest kind, as CPython's). Also: every code point alone
// (chr, the is* properties, lower(), upper(), int(), float()), the final
// sigma on every short string over letters that decide it, slices on
// every start/stop/step of a grid, ~100k random doubles' repr(), the
// strings made here freed (ASan's leak checker; PYTHONMALLOC=malloc lets it
// see CPython's own memory too) and gone from the journal, and the
// immortal strings (one-code-point strings below 256, literals) never
// counted, cached into or freed. A mismatch prints its case and the
// family's line then shows a count other than 0.
// RUN: %clang -std=gnu11 -Wall -Wextra -Werror -fsanitize=address -pthread -I%kiln_runtime_dir \
// RUN:   %python_cflags %s %python_ldflags -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 PYTHONMALLOC=malloc %t | FileCheck %s

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kiln_journal.c"
#include "kiln_list.c"
#include "kiln_str.c"

#include <float.h>
#include <math.h>
#include <stdarg.h>

// CHECK-NOT: MISMATCH
// CHECK: code points: {{[0-9]+}} cases, 0 mismatches
// CHECK: case and properties: {{[0-9]+}} cases, 0 mismatches
// CHECK: final sigma: {{[0-9]+}} cases, 0 mismatches
// CHECK: search: {{[0-9]+}} cases, 0 mismatches
// CHECK: long search: {{[0-9]+}} cases, 0 mismatches
// CHECK: slices: {{[0-9]+}} cases, 0 mismatches
// CHECK: replace: {{[0-9]+}} cases, 0 mismatches
// CHECK: split: {{[0-9]+}} cases, 0 mismatches
// CHECK: strip: {{[0-9]+}} cases, 0 mismatches
// CHECK: join: {{[0-9]+}} cases, 0 mismatches
// CHECK: concat, repeat, compare: {{[0-9]+}} cases, 0 mismatches
// CHECK: hash: {{[0-9]+}} cases, 0 mismatches
// CHECK: characters and decoding: {{[0-9]+}} cases, 0 mismatches
// CHECK: from_int: {{[0-9]+}} cases, 0 mismatches
// CHECK: from_float: {{[0-9]+}} cases, 0 mismatches
// CHECK: to_int: {{[0-9]+}} cases, 0 mismatches
// CHECK: to_float: {{[0-9]+}} cases, 0 mismatches
// CHECK: memory: {{[0-9]+}} cases, 0 mismatches
// CHECK: total: {{[0-9]+}} cases, 0 mismatches

// The inputs, made by CPython (random but seeded: the same every run).
static const char *const inputs_source =
    "import decimal, itertools, math, random, struct\n"
    "rng = random.Random(20240611)\n"
    "def rand_str(alphabet, n):\n"
    "    return ''.join(rng.choice(alphabet) for _ in range(n))\n"
    "WHITESPACE = ''.join(chr(c) for c in range(0x110000) if chr(c).isspace())\n"
    "ALPHABET = ('ab zAZ07_-+e.\\'\\t\\n\\x0b\\x1c\\x1f\\x85\\xa0\\xe9\\xdf\\xff\\xb5\\xc0'\n"
    "            '\\u0100\\u0101\\u0130\\u0131\\u01c5\\u03a3\\u03c3\\u03c2\\u0345\\xad\\u2003'\n"
    "            '\\u3000\\u4e2d\\u0663\\uff11\\xb2\\u2160\\ufb03\\u0149\\u212a\\u1e9e\\u0390'\n"
    "            '\\U0001F600\\U00010400\\U00010428\\U0001D7CE')\n"
    "STRINGS = ['', 'a', 'Z', ' ', 'Hello, World!', '  padded\\t\\n', '\\xdf', 'stra\\xdfe',\n"
    "           '\\u0391\\u03a3', '\\u1f48\\u0394\\u03a5\\u03a3\\u03a3\\u0395\\u038e\\u03a3',\n"
    "           '\\u0130stanbul', '\\xff\\xb5', 'caf\\xe9', '\\U0001F600 smile', 'x' + WHITESPACE + 'y',\n"
    "           WHITESPACE, '\\u03a3', 'a\\u03a3', '\\u03a3a', 'a\\u03a3b', 'a\\u03a3 ', \"a'\\u03a3'\",\n"
    "           '\\ufb03x', '123', '\\u0661\\u0662', '\\xb2', '\\u2160', 'A\\u01c5', '\\u01c5a',\n"
    "           'ABC', 'abc', 'aBc', 'A1', 'a1', '1', '\\u02b0', '\\u1d2c', 'a\\u02b0']\n"
    "STRINGS += [rand_str(ALPHABET, rng.randrange(9)) for _ in range(3000)]\n"
    "STRINGS += [rand_str(WHITESPACE + 'ab', rng.randrange(1, 6)) for _ in range(300)]\n"
    "SIGMA_ALPHABET = '\\u03a3aA \\'.\\u0345\\xad\\U00010400\\u01c5'\n"
    "SIGMA_STRINGS = [''.join(p) for n in range(1, 5)\n"
    "                 for p in itertools.product(SIGMA_ALPHABET, repeat=n) if '\\u03a3' in p]\n"
    "SEARCH_ALPHABET = 'ab\\u0100\\U0001F600'\n"
    "SEARCH_TEXTS = [rand_str(SEARCH_ALPHABET + ' ', rng.randrange(11)) for _ in range(400)]\n"
    "SEARCH_TEXTS += [rand_str('ab ', rng.randrange(11)) for _ in range(100)]\n"
    "SEARCH_SUBS = [''] + [''.join(p) for n in (1, 2) for p in itertools.product(SEARCH_ALPHABET, repeat=n)]\n"
    "SEARCH_SUBS += ['aba', 'abab', 'a\\U0001F600b', 'ba\\u0100', 'aaa', ' ', 'a b']\n"
    "LONG = []\n"
    "for _ in range(150):\n"
    "    alphabet = rng.choice(['ab', 'abc', 'ab\\u0100', 'a\\U0001F600b', 'abcdefghij', 'a\\u0100\\U0001F600'])\n"
    "    pattern = rand_str(alphabet, rng.randrange(1, 9))\n"
    "    text = rand_str(alphabet, rng.randrange(300, 1500))\n"
    "    for _ in range(rng.randrange(5)):\n"
    "        k = rng.randrange(len(text))\n"
    "        text = text[:k] + pattern + text[k:]\n"
    "    LONG.append((text, pattern))\n"
    "LONG += [('a' * 1000 + 'b', 'aaaaab'), ('a' * 1000 + 'b', 'b'), ('ab' * 600, 'abab'), ('ab' * 600, 'ba' * 7),\n"
    "         ('\\u0100' * 700 + 'x', '\\u0100x'), ('x' * 700, '\\u0100xx'), ('\\U0001F600' * 400, 'a' * 3)]\n"
    "SPLIT_TEXTS = [rand_str('ab ,\\u0100\\U0001F600\\t\\u3000\\x1c\\x85', rng.randrange(12)) for _ in range(1500)]\n"
    "SPLIT_TEXTS += ['', ' ', '  a  b  ', 'a', 'a,b,,c,', ',', ',,', WHITESPACE, 'x' + WHITESPACE + 'y' + WHITESPACE]\n"
    "SEPS = ['a', 'b', ' ', ',', 'ab', 'aa', '\\u0100', '\\U0001F600', 'a\\u0100', '  ', ', ', '\\u3000']\n"
    "STRIP_CHARS = ['', 'a', ' a', '\\u0100', 'ab\\U0001F600', '\\u3000 \\t', '\\x85', 'ba,']\n"
    "OLDS = ['', 'a', 'ab', ' ', '\\u0100', '\\U0001F600', 'a\\u0100', 'zz', ',,']\n"
    "NEWS = ['', 'x', 'XYZ', '\\u0100', '\\U0001F600', '\\xe9\\xe9']\n"
    "JOIN_SEPS = ['', ',', ', ', '\\u0100', '\\U0001F600', '\\xe9']\n"
    "JOINS = [[rng.choice(STRINGS[:200]) for _ in range(rng.randrange(6))] for _ in range(2500)]\n"
    "JOINS += [[''], ['', ''], ['a'], ['\\U0001F600'], ['a', '\\u0100'], ['\\u0100', 'a']]\n"
    "def rand_number():\n"
    "    ws = ' \\t\\n\\x0b\\x0c\\r\\x1c\\x85\\xa0\\u3000'\n"
    "    digits = '0123456789' * 4 + '\\u0661\\uff15\\U0001D7D8\\u0e52'\n"
    "    parts = []\n"
    "    if rng.random() < 0.3: parts.append(rand_str(ws, rng.randrange(1, 3)))\n"
    "    if rng.random() < 0.4: parts.append(rng.choice('+-'))\n"
    "    r = rng.random()\n"
    "    if r < 0.05: parts.append(rng.choice(['inf', 'nan', 'Infinity', 'NAN', 'iNf', 'infinit', 'nanx']))\n"
    "    else:\n"
    "        n = rng.randrange(0, 25)\n"
    "        d = rand_str(digits, n)\n"
    "        if rng.random() < 0.2 and n > 1:\n"
    "            k = rng.randrange(0, n + 1)\n"
    "            d = d[:k] + rng.choice(['_', '__']) + d[k:]\n"
    "        parts.append(d)\n"
    "        if rng.random() < 0.4: parts.append('.' + rand_str(digits, rng.randrange(0, 6)))\n"
    "        if rng.random() < 0.3:\n"
    "            parts.append(rng.choice('eE') + rng.choice(['', '+', '-']) + rand_str(digits, rng.randrange(0, 4)))\n"
    "    if rng.random() < 0.3: parts.append(rand_str(ws, rng.randrange(1, 3)))\n"
    "    s = ''.join(parts)\n"
    "    if rng.random() < 0.25 and s:\n"
    "        k = rng.randrange(len(s) + 1)\n"
    "        op = rng.randrange(3)\n"
    "        junk = rng.choice('_.e+- x\\x00\\xb2\\u2160\\x1c0')\n"
    "        s = s[:k] + junk + s[k:] if op == 0 else s[:k] + s[k + 1:] if op == 1 else s[:k] + junk + s[k + 1:]\n"
    "    return s\n"
    "NUMBERS = [rand_number() for _ in range(60000)]\n"
    "NUMBERS += [rand_str('0123456789_ +-.eE\\u0661\\xa0\\x1cinfatyINF', rng.randrange(8)) for _ in range(60000)]\n"
    "INT_STRINGS = ['0', '-0', '+0', '1', '-1', '  42  ', '\\t-7\\n', '1_000', '1__0', '_1', '1_', '+_1', '0_0',\n"
    "               '00', '0123', '\\u0661\\u0662', '\\uff11\\uff12', '\\U0001D7CE', '\\xb2', ' \\u3000 12 \\x85',\n"
    "               '\\x1c1', '1\\x1c', '1\\x00', '', ' ', '-', '+', '--1', '+-1', '1 2', '1.0', '1e3', '0x10',\n"
    "               'inf', '9223372036854775807', '9223372036854775808', '-9223372036854775808',\n"
    "               '-9223372036854775809', '99999999999999999999', '18446744073709551616',\n"
    "               '1' * 4300, '1' * 4301, '0' * 4301, '-' + '9' * 4300, '1_' * 100 + '1', ' 0_1 ',\n"
    "               '\\u0661_\\u0662', '- 1', '+ 1', '\\x0c9\\x0b', '\\r\\n5\\r\\n']\n"
    "FLOAT_STRINGS = ['1.', '.5', '.', '-.5e-3', '1e', '1e+', '1e5', '1E5', '1e-400', '1e400', '-1e400', 'inf',\n"
    "                 '-inf', '+inf', 'INF', 'Infinity', '-iNfInItY', 'infinit', 'infinityy', 'nan', '-nan',\n"
    "                 '+NaN', 'nana', 'in f', '0x1p3', '0x10', '1_0.0_1e1_0', '1_.0', '1._0', '1e_1', '_1.0',\n"
    "                 '1.0_', '  1.5  ', '\\u0661.\\u0665', '1,5', '1.5.5', '--1', '', ' ', '0', '-0', '-0.0',\n"
    "                 '00.00', '1' + '0' * 400, '0.' + '0' * 400 + '1', '1' * 900 + 'e-900', '1.e1', '.e1',\n"
    "                 '2.4703282292062327e-324', '2.4703282292062328e-324', '4.9406564584124654e-324',\n"
    "                 '1.7976931348623157e308', '1.7976931348623158e308', '1.7976931348623159e308',\n"
    "                 '9007199254740993', '9007199254740993' + '0' * 1000 + '1', '9007199254740993.' + '0' * 1000,\n"
    "                 '9007199254740993.' + '0' * 1000 + '1', '9007199254740995', '0.1', '1e-5', '1e16', '1e23',\n"
    "                 '8.98846567431158e307', '2.2250738585072011e-308', '1e0000000000000000000000000001',\n"
    "                 '1e-99999999999999999999999', '1e99999999999999999999999', '0e99999999999999999999999',\n"
    "                 '1\\x00', 'nan\\x00', '1.5\\x1c', '1_0\\x00', '\\x851.5\\xa0', '1e1\\u0661', '\\u0e52.5',\n"
    "                 '0.' + '0' * 5000 + '1e5000', '1' + '_0' * 500, '+.5', '-.', '+', 'e5', '.5e', '5.e-']\n"
    "decimal.getcontext().prec = 2000\n"
    "def double(bits):\n"
    "    return struct.unpack('<d', struct.pack('<Q', bits))[0]\n"
    "for _ in range(300):\n"
    "    x = double(rng.getrandbits(52) if rng.random() < 0.3 else rng.getrandbits(63))\n"
    "    y = math.nextafter(x, math.inf)\n"
    "    if not math.isfinite(y): continue\n"
    "    m = '{:e}'.format((decimal.Decimal(x) + decimal.Decimal(y)) / 2)\n"
    "    mantissa, exponent = m.split('e')\n"
    "    if '.' not in mantissa: mantissa += '.'\n"
    "    FLOAT_STRINGS += [m, mantissa + '0' * 50 + '1e' + exponent, mantissa[:-1] + 'e' + exponent,\n"
    "                      '-' + mantissa + '000e' + exponent]\n"
    "def props_chunk(lo, hi):\n"
    "    out = bytearray()\n"
    "    for c in range(lo, hi):\n"
    "        ch = chr(c)\n"
    "        out.append(ch.isdigit() | ch.isalpha() << 1 | ch.isalnum() << 2 | ch.isspace() << 3\n"
    "                   | ch.isdecimal() << 4 | ch.isnumeric() << 5 | ch.islower() << 6 | ch.isupper() << 7)\n"
    "    return bytes(out)\n"
    "def numbers_chunk(lo, hi):\n"
    "    ints, floats = bytearray(), bytearray()\n"
    "    for c in range(lo, hi):\n"
    "        try: ints.append(int(chr(c)))\n"
    "        except ValueError: ints.append(255)\n"
    "        try: floats.append(int(float(chr(c))))\n"
    "        except ValueError: floats.append(255)\n"
    "    return bytes(ints), bytes(floats)\n";

// ---- the harness

static const char *family;
static long long family_cases, family_mismatches, total_cases, total_mismatches, reports;
static int64_t journal_mark;

static void begin(const char *name) {
  family = name;
  family_cases = family_mismatches = 0;
}

static void mismatch(const char *format, ...) {
  ++family_mismatches;
  if (reports++ >= 60)
    return;
  va_list args;
  va_start(args, format);
  printf("MISMATCH %s: ", family);
  vprintf(format, args);
  printf("\n");
  va_end(args);
}

static void end(void) {
  // Everything made since the mark is released: the journal is back.
  ++family_cases;
  if (kiln_journal_size() != journal_mark)
    mismatch("the journal holds %lld entries, not %lld", (long long)kiln_journal_size(),
             (long long)journal_mark);
  printf("%s: %lld cases, %lld mismatches\n", family, family_cases, family_mismatches);
  total_cases += family_cases;
  total_mismatches += family_mismatches;
}

// ascii() of a Python object, in one of a few rotating buffers (for
// mismatch messages).
static const char *show(PyObject *object) {
  static char buffers[8][600];
  static int next;
  char *buffer = buffers[next++ & 7];
  if (!object) {
    PyErr_Clear();
    return "NULL";
  }
  PyObject *text = PyObject_ASCII(object);
  snprintf(buffer, sizeof buffers[0], "%s", text ? PyUnicode_AsUTF8(text) : "?");
  Py_XDECREF(text);
  PyErr_Clear();
  return buffer;
}

static PyObject *py(const kiln_str *s) {
  return PyUnicode_FromKindAndData(s->kind, kiln_str_data(s), s->length);
}

static const char *show_k(const kiln_str *s) {
  if (!s)
    return "NULL";
  PyObject *object = py(s);
  const char *text = show(object);
  Py_XDECREF(object);
  return text;
}

// A kiln string of a Python one (kiln_str_from_data: the same kind).
static kiln_str *kl(PyObject *object) {
  return kiln_str_from_data(PyUnicode_KIND(object), PyUnicode_DATA(object),
                            PyUnicode_GET_LENGTH(object));
}

// The same text, kind and bytes as CPython's (canonical), with the
// trailing zeros and a live count.
static int same(const kiln_str *s, PyObject *object) {
  if (!s || !object || !PyUnicode_Check(object))
    return 0;
  Py_ssize_t length = PyUnicode_GET_LENGTH(object);
  int kind = PyUnicode_KIND(object);
  if (s->length != length || s->kind != kind || s->refcount < 1)
    return 0;
  if (memcmp(kiln_str_data(s), PyUnicode_DATA(object), (size_t)(length * kind)))
    return 0;
  for (int i = 0; i < kind; ++i)
    if (kiln_str_data(s)[length * kind + i])
      return 0;
  return 1;
}

// Compares a kiln result with CPython's and frees both; the message
// arguments are evaluated only on a mismatch.
#define CHECK_STR(got, want, ...)                                              \
  do {                                                                         \
    kiln_str *got_ = (got);                                                    \
    PyObject *want_ = (want);                                                  \
    if (!want_)                                                                \
      PyErr_Clear();                                                           \
    ++family_cases;                                                            \
    if (!same(got_, want_)) {                                                  \
      char context_[1200];                                                     \
      snprintf(context_, sizeof context_, __VA_ARGS__);                        \
      mismatch("%s: got %s (kind %d), CPython %s", context_, show_k(got_),     \
               got_ ? got_->kind : 0, show(want_));                            \
    }                                                                          \
    if (got_)                                                                  \
      kiln_str_release(got_);                                                  \
    Py_XDECREF(want_);                                                         \
  } while (0)

#define CHECK_INT(got, want, ...)                                              \
  do {                                                                         \
    long long got_ = (long long)(got), want_ = (long long)(want);              \
    ++family_cases;                                                            \
    if (got_ != want_) {                                                       \
      char context_[1200];                                                     \
      snprintf(context_, sizeof context_, __VA_ARGS__);                        \
      mismatch("%s: got %lld, CPython %lld", context_, got_, want_);           \
    }                                                                          \
  } while (0)

#define CHECK(condition, ...)                                                  \
  do {                                                                         \
    ++family_cases;                                                            \
    if (!(condition)) {                                                        \
      char context_[1200];                                                     \
      snprintf(context_, sizeof context_, __VA_ARGS__);                        \
      mismatch("%s (%s)", context_, #condition);                               \
    }                                                                          \
  } while (0)

static PyObject *inputs;

static PyObject *input(const char *name) { return PyDict_GetItemString(inputs, name); }

static PyObject *call(PyObject *object, const char *method, PyObject *a, PyObject *b, PyObject *c) {
  PyObject *name = PyUnicode_FromString(method);
  PyObject *result = PyObject_CallMethodObjArgs(object, name, a, b, c, NULL);
  Py_DECREF(name);
  return result;
}

// The int as Python int, or None when absent.
static PyObject *maybe(int present, int64_t value) {
  if (!present)
    Py_RETURN_NONE;
  return PyLong_FromLongLong(value);
}

static kiln_list *kiln_strings(PyObject *list) {
  Py_ssize_t n = PyList_GET_SIZE(list);
  kiln_list *result = kiln_list_new(8, n);
  result->item_kind = KILN_ITEM_STR;
  for (Py_ssize_t i = 0; i < n; ++i) {
    kiln_list_reserve(result, i + 1);
    ((kiln_str **)result->items)[i] = kl(PyList_GET_ITEM(list, i));
    result->length = i + 1;
  }
  return result;
}

// Frees a list of str: its items, then the list (emptied first, so that a
// list runtime that releases str items itself does not release them again).
static void free_strings(kiln_list *list) {
  for (int64_t i = 0; i < list->length; ++i)
    kiln_str_release(((kiln_str **)list->items)[i]);
  list->length = 0;
  kiln_list_release(list);
}

// The list of str from split against CPython's; frees it.
static int same_list(kiln_list *list, PyObject *expected) {
  int ok = list && expected && list->item_size == 8 && list->item_kind == KILN_ITEM_STR &&
           list->length == PyList_GET_SIZE(expected);
  for (int64_t i = 0; ok && i < list->length; ++i)
    ok = same(((kiln_str **)list->items)[i], PyList_GET_ITEM(expected, i));
  return ok;
}

static const char *show_list(kiln_list *list) {
  static char buffer[1000];
  if (!list)
    return "NULL";
  PyObject *items = PyList_New(list->length);
  for (int64_t i = 0; i < list->length; ++i)
    PyList_SET_ITEM(items, i, py(((kiln_str **)list->items)[i]));
  snprintf(buffer, sizeof buffer, "%s", show(items));
  Py_DECREF(items);
  return buffer;
}

static uint64_t random_state = 0x853C49E6748FEA9BULL;
static uint64_t next_random(void) {
  uint64_t z = (random_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static double from_bits(uint64_t bits) {
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

static uint64_t to_bits(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
}

static const char *const property_methods[8] = {"isdigit", "isalpha", "isalnum", "isspace",
                                                "isdecimal", "isnumeric", "islower", "isupper"};

// ---- the families

// Every code point alone: chr(), the properties, lower(), upper(), int()
// and float().
static void test_code_points(void) {
  begin("code points");
  PyObject *props_chunk = input("props_chunk"), *numbers_chunk = input("numbers_chunk");
  for (int64_t low = 0; low < 0x110000; low += 0x10000) {
    PyObject *properties = PyObject_CallFunction(props_chunk, "LL", low, low + 0x10000);
    PyObject *numbers = PyObject_CallFunction(numbers_chunk, "LL", low, low + 0x10000);
    const unsigned char *bits = (const unsigned char *)PyBytes_AS_STRING(properties);
    const unsigned char *ints = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(numbers, 0));
    const unsigned char *floats =
        (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(numbers, 1));
    for (int64_t code = low; code < low + 0x10000; ++code) {
      kiln_str *s = kiln_str_chr(code);
      PyObject *ch = PyUnicode_FromOrdinal((int)code);
      ++family_cases;
      if (!same(s, ch))
        mismatch("chr(%#llx): got %s", (long long)code, show_k(s));
      int expected = bits[code - low];
      int got = 0;
      for (int property = 0; property < 8; ++property)
        got |= kiln_str_is(s, property) << property;
      ++family_cases;
      if (got != expected)
        mismatch("properties of %#llx: got %#x, CPython %#x (bits: isdigit isalpha isalnum "
                 "isspace isdecimal isnumeric islower isupper)",
                 (long long)code, got, expected);
      CHECK_STR(kiln_str_lower(s), call(ch, "lower", NULL, NULL, NULL), "chr(%#llx).lower()",
                (long long)code);
      CHECK_STR(kiln_str_upper(s), call(ch, "upper", NULL, NULL, NULL), "chr(%#llx).upper()",
                (long long)code);
      int64_t value = -1;
      double real = -1;
      int status = kiln_str_to_int(s, &value);
      CHECK_INT(status ? 255 : value, ints[code - low], "int(chr(%#llx))", (long long)code);
      status = kiln_str_to_float(s, &real);
      CHECK_INT(status ? 255 : (int64_t)real, floats[code - low], "float(chr(%#llx))",
                (long long)code);
      CHECK_INT(kiln_str_code_at(s, 0), code, "ord(chr(%#llx))", (long long)code);
      kiln_str_release(s);
      Py_DECREF(ch);
    }
    Py_DECREF(properties);
    Py_DECREF(numbers);
  }
  end();
}

// lower(), upper() and the properties of many strings.
static void test_case_and_properties(void) {
  begin("case and properties");
  PyObject *strings = input("STRINGS");
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    kiln_str *s = kl(p);
    CHECK_STR(kiln_str_lower(s), call(p, "lower", NULL, NULL, NULL), "%s.lower()", show(p));
    CHECK_STR(kiln_str_upper(s), call(p, "upper", NULL, NULL, NULL), "%s.upper()", show(p));
    for (int property = 0; property < 8; ++property) {
      PyObject *answer = call(p, property_methods[property], NULL, NULL, NULL);
      CHECK_INT(kiln_str_is(s, property), answer == Py_True, "%s.%s()", show(p),
                property_methods[property]);
      Py_DECREF(answer);
    }
    kiln_str_release(s);
  }
  end();

  begin("final sigma");
  strings = input("SIGMA_STRINGS");
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    kiln_str *s = kl(p);
    CHECK_STR(kiln_str_lower(s), call(p, "lower", NULL, NULL, NULL), "%s.lower()", show(p));
    CHECK_STR(kiln_str_upper(s), call(p, "upper", NULL, NULL, NULL), "%s.upper()", show(p));
    kiln_str_release(s);
  }
  end();
}

// find, rfind, count with every start/end of a grid; in, startswith,
// endswith.
static void test_search(void) {
  begin("search");
  static const int64_t ends[] = {-100, -12, -3, -1, 0, 1, 2, 4, 7, 11, 100, INT64_MIN, INT64_MAX};
  const int ends_count = (int)(sizeof ends / sizeof ends[0]);
  PyObject *texts = input("SEARCH_TEXTS"), *subs = input("SEARCH_SUBS");
  static const char *const methods[3] = {"find", "rfind", "count"};
  for (Py_ssize_t t = 0; t < PyList_GET_SIZE(texts); ++t) {
    PyObject *p = PyList_GET_ITEM(texts, t);
    kiln_str *s = kl(p);
    for (Py_ssize_t u = 0; u < PyList_GET_SIZE(subs); ++u) {
      PyObject *q = PyList_GET_ITEM(subs, u);
      kiln_str *sub = kl(q);
      int grid = t < 60; // every start/end on the first texts, defaults on all
      for (int a = -1; a < (grid ? ends_count : 0); ++a)
        for (int b = -1; b < (grid ? ends_count : 0); ++b) {
          int32_t present = (a >= 0 ? 1 : 0) | (b >= 0 ? 2 : 0);
          int64_t start = a >= 0 ? ends[a] : 0, end = b >= 0 ? ends[b] : 0;
          PyObject *start_object = maybe(a >= 0, start), *end_object = maybe(b >= 0, end);
          for (int m = 0; m < 3; ++m) {
            int64_t got = m == 0   ? kiln_str_find(s, sub, start, end, present)
                          : m == 1 ? kiln_str_rfind(s, sub, start, end, present)
                                   : kiln_str_count(s, sub, start, end, present);
            PyObject *answer = call(p, methods[m], q, start_object, end_object);
            CHECK_INT(got, PyLong_AsLongLong(answer), "%s.%s(%s, %s, %s)", show(p), methods[m],
                      show(q), show(start_object), show(end_object));
            Py_DECREF(answer);
          }
          Py_DECREF(start_object);
          Py_DECREF(end_object);
        }
      CHECK_INT(kiln_str_contains(s, sub), PySequence_Contains(p, q), "%s in %s", show(q),
                show(p));
      PyObject *answer = call(p, "startswith", q, NULL, NULL);
      CHECK_INT(kiln_str_startswith(s, sub), answer == Py_True, "%s.startswith(%s)", show(p),
                show(q));
      Py_DECREF(answer);
      answer = call(p, "endswith", q, NULL, NULL);
      CHECK_INT(kiln_str_endswith(s, sub), answer == Py_True, "%s.endswith(%s)", show(p),
                show(q));
      Py_DECREF(answer);
      kiln_str_release(sub);
    }
    kiln_str_release(s);
  }
  end();

  // Texts long enough for the skip tables, every kind pair.
  begin("long search");
  PyObject *pairs = input("LONG");
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pairs); ++i) {
    PyObject *p = PyTuple_GET_ITEM(PyList_GET_ITEM(pairs, i), 0);
    PyObject *q = PyTuple_GET_ITEM(PyList_GET_ITEM(pairs, i), 1);
    kiln_str *s = kl(p), *sub = kl(q);
    static const int64_t starts[] = {0, 1, 7, 100, 299, -250};
    for (int a = 0; a < 6; ++a) {
      PyObject *start_object = PyLong_FromLongLong(starts[a]);
      for (int m = 0; m < 3; ++m) {
        int64_t got = m == 0   ? kiln_str_find(s, sub, starts[a], 0, 1)
                      : m == 1 ? kiln_str_rfind(s, sub, starts[a], 0, 1)
                               : kiln_str_count(s, sub, starts[a], 0, 1);
        PyObject *answer = call(p, methods[m], q, start_object, NULL);
        CHECK_INT(got, PyLong_AsLongLong(answer), "long %zd: %s(%s, %lld)", i, methods[m],
                  show(q), (long long)starts[a]);
        Py_DECREF(answer);
      }
      Py_DECREF(start_object);
    }
    PyObject *minus_one = PyLong_FromLong(-1);
    PyObject *x = PyUnicode_FromString("<>");
    kiln_str *replacement = kl(x);
    CHECK_STR(kiln_str_replace(s, sub, replacement, -1), call(p, "replace", q, x, minus_one),
              "long %zd: replace(%s, '<>')", i, show(q));
    kiln_list *pieces = kiln_str_split(s, sub, -1);
    PyObject *expected = call(p, "split", q, NULL, NULL);
    CHECK(same_list(pieces, expected), "long %zd: split(%s)", i, show(q));
    free_strings(pieces);
    Py_DECREF(expected);
    kiln_str_release(replacement);
    Py_DECREF(x);
    Py_DECREF(minus_one);
    kiln_str_release(s);
    kiln_str_release(sub);
  }
  end();
}

// s[a:b:c] for strings of 0..6 code points of three mixes of kinds, every
// start and stop in -8..8, None and the int64 extremes, steps +-1..3 and
// the extremes.
static void test_slices(void) {
  begin("slices");
  int64_t ends[20];
  ends[0] = 0; // None
  for (int i = 1; i < 18; ++i)
    ends[i] = i - 9;
  ends[18] = INT64_MIN;
  ends[19] = INT64_MAX;
  static const int64_t steps[] = {-3, -2, -1, 1, 2, 3, INT64_MIN, INT64_MAX};
  static const char *const bases[3] = {"abcdef", ("a\xc3\xa9\xc4\x80" "b\xf0\x9f\x98\x80z"),
                                       "\xc4\x80xy\xc3\xbfz\xe4\xb8\xad"};
  for (int base = 0; base < 3; ++base)
    for (int n = 0; n <= 6; ++n) {
      PyObject *full = PyUnicode_FromString(bases[base]);
      PyObject *p = PyUnicode_Substring(full, 0, n);
      Py_DECREF(full);
      kiln_str *s = kl(p);
      for (int a = 0; a < 20; ++a)
        for (int b = 0; b < 20; ++b)
          for (int c = 0; c < 8; ++c) {
            int32_t present = (a ? 1 : 0) | (b ? 2 : 0);
            PyObject *start = maybe(a, ends[a]), *stop = maybe(b, ends[b]);
            PyObject *step = PyLong_FromLongLong(steps[c]);
            PyObject *slice = PySlice_New(start, stop, step);
            CHECK_STR(kiln_str_slice(s, ends[a], ends[b], steps[c], present),
                      PyObject_GetItem(p, slice), "%s[%s]", show(p), show(slice));
            Py_DECREF(slice);
            Py_DECREF(start);
            Py_DECREF(stop);
            Py_DECREF(step);
          }
      kiln_str_release(s);
      Py_DECREF(p);
    }
  end();
}

static void test_replace_split_strip_join(void) {
  begin("replace");
  PyObject *texts = input("SPLIT_TEXTS"), *olds = input("OLDS"), *news = input("NEWS");
  static const int64_t counts[] = {-1, 0, 1, 2, 3};
  for (Py_ssize_t t = 0; t < PyList_GET_SIZE(texts) && t < 700; ++t) {
    PyObject *p = PyList_GET_ITEM(texts, t);
    kiln_str *s = kl(p);
    for (Py_ssize_t o = 0; o < PyList_GET_SIZE(olds); ++o) {
      PyObject *old = PyList_GET_ITEM(olds, o);
      kiln_str *k_old = kl(old);
      for (Py_ssize_t r = 0; r < PyList_GET_SIZE(news); ++r) {
        PyObject *replacement = PyList_GET_ITEM(news, r);
        kiln_str *k_new = kl(replacement);
        for (int c = 0; c < 5; ++c) {
          PyObject *count = PyLong_FromLongLong(counts[c]);
          CHECK_STR(kiln_str_replace(s, k_old, k_new, counts[c]),
                    call(p, "replace", old, replacement, count), "%s.replace(%s, %s, %lld)",
                    show(p), show(old), show(replacement), (long long)counts[c]);
          Py_DECREF(count);
        }
        kiln_str_release(k_new);
      }
      kiln_str_release(k_old);
    }
    kiln_str_release(s);
  }
  // every string of the big pool: replace a space and an empty string
  PyObject *strings = input("STRINGS");
  PyObject *space = PyUnicode_FromString(" "), *empty = PyUnicode_FromString("");
  PyObject *wide = PyUnicode_FromString("\xf0\x9f\x98\x80");
  kiln_str *k_space = kl(space), *k_empty = kl(empty), *k_wide = kl(wide);
  PyObject *minus_one = PyLong_FromLong(-1);
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    kiln_str *s = kl(p);
    CHECK_STR(kiln_str_replace(s, k_space, k_empty, -1), call(p, "replace", space, empty, minus_one),
              "%s.replace(' ', '')", show(p));
    CHECK_STR(kiln_str_replace(s, k_empty, k_wide, -1), call(p, "replace", empty, wide, minus_one),
              "%s.replace('', wide)", show(p));
    kiln_str_release(s);
  }
  Py_DECREF(space);
  Py_DECREF(empty);
  Py_DECREF(wide);
  Py_DECREF(minus_one);
  kiln_str_release(k_space);
  kiln_str_release(k_empty);
  kiln_str_release(k_wide);
  end();

  begin("split");
  PyObject *seps = input("SEPS");
  static const int64_t maxsplits[] = {-1, 0, 1, 2, 5};
  for (int pool = 0; pool < 2; ++pool) {
    PyObject *list = pool ? strings : texts;
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(list); ++t) {
      PyObject *p = PyList_GET_ITEM(list, t);
      kiln_str *s = kl(p);
      for (Py_ssize_t k = -1; k < (pool ? 0 : PyList_GET_SIZE(seps)); ++k) {
        PyObject *sep = k >= 0 ? PyList_GET_ITEM(seps, k) : Py_None;
        kiln_str *k_sep = k >= 0 ? kl(sep) : NULL;
        for (int m = 0; m < 5; ++m) {
          PyObject *maxsplit = PyLong_FromLongLong(maxsplits[m]);
          kiln_list *pieces = kiln_str_split(s, k_sep, maxsplits[m]);
          PyObject *expected = call(p, "split", sep, maxsplit, NULL);
          CHECK(same_list(pieces, expected), "%s.split(%s, %lld): got %s, CPython %s", show(p),
                show(sep), (long long)maxsplits[m], show_list(pieces), show(expected));
          free_strings(pieces);
          Py_DECREF(expected);
          Py_DECREF(maxsplit);
        }
        if (k_sep)
          kiln_str_release(k_sep);
      }
      kiln_str_release(s);
    }
  }
  end();

  begin("strip");
  PyObject *chars = input("STRIP_CHARS");
  static const char *const strips[4] = {"", "lstrip", "rstrip", "strip"};
  for (int pool = 0; pool < 2; ++pool) {
    PyObject *list = pool ? strings : texts;
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(list); ++t) {
      PyObject *p = PyList_GET_ITEM(list, t);
      kiln_str *s = kl(p);
      for (Py_ssize_t k = -1; k < PyList_GET_SIZE(chars); ++k) {
        PyObject *set = k >= 0 ? PyList_GET_ITEM(chars, k) : Py_None;
        kiln_str *k_set = k >= 0 ? kl(set) : NULL;
        for (int sides = 1; sides <= 3; ++sides)
          CHECK_STR(kiln_str_strip(s, k_set, sides), call(p, strips[sides], set, NULL, NULL),
                    "%s.%s(%s)", show(p), strips[sides], show(set));
        if (k_set)
          kiln_str_release(k_set);
      }
      kiln_str_release(s);
    }
  }
  end();

  begin("join");
  PyObject *joins = input("JOINS"), *join_seps = input("JOIN_SEPS");
  for (Py_ssize_t j = 0; j < PyList_GET_SIZE(joins); ++j) {
    PyObject *items = PyList_GET_ITEM(joins, j);
    kiln_list *k_items = kiln_strings(items);
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(join_seps); ++k) {
      PyObject *sep = PyList_GET_ITEM(join_seps, k);
      kiln_str *k_sep = kl(sep);
      CHECK_STR(kiln_str_join(k_sep, k_items), call(sep, "join", items, NULL, NULL), "%s.join(%s)",
                show(sep), show(items));
      kiln_str_release(k_sep);
    }
    free_strings(k_items);
  }
  end();
}

static void test_concat_repeat_compare_hash(void) {
  begin("concat, repeat, compare");
  PyObject *strings = input("STRINGS");
  const Py_ssize_t n = 320;
  kiln_str *ks[320];
  for (Py_ssize_t i = 0; i < n; ++i)
    ks[i] = kl(PyList_GET_ITEM(strings, i));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    for (Py_ssize_t j = 0; j < n; ++j) {
      PyObject *q = PyList_GET_ITEM(strings, j);
      CHECK_STR(kiln_str_concat(ks[i], ks[j]), PyUnicode_Concat(p, q), "%s + %s", show(p),
                show(q));
      int less = PyObject_RichCompareBool(p, q, Py_LT), equal = PyObject_RichCompareBool(p, q, Py_EQ);
      int order = kiln_str_compare(ks[i], ks[j]);
      CHECK_INT(order < 0 ? -1 : order > 0, less ? -1 : !equal, "compare(%s, %s)", show(p), show(q));
      CHECK_INT(kiln_str_equal(ks[i], ks[j]), equal, "%s == %s", show(p), show(q));
    }
    static const int64_t counts[] = {-5, -1, 0, 1, 2, 3, 7};
    for (int c = 0; c < 7; ++c)
      CHECK_STR(kiln_str_repeat(ks[i], counts[c]), PySequence_Repeat(p, counts[c] < 0 ? 0 : counts[c]),
                "%s * %lld", show(p), (long long)counts[c]);
    // too long: NULL (CPython's OverflowError/MemoryError); "" * anything is ""
    kiln_str *huge = kiln_str_repeat(ks[i], INT64_MAX);
    CHECK(ks[i]->length ? huge == NULL : huge != NULL && huge->length == 0, "%s * INT64_MAX",
          show(p));
    if (huge)
      kiln_str_release(huge);
  }
  for (Py_ssize_t i = 0; i < n; ++i)
    kiln_str_release(ks[i]);
  end();

  begin("hash");
  // Never -1, cached, equal for equal texts made differently (a slice, a
  // decoding), different for the distinct strings of the pool.
  PyObject *seen = PyDict_New();
  kiln_str *tail = kiln_str_from_utf8("caf\xc3\xa9", 5);
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    kiln_str *s = kl(p);
    int64_t hash = kiln_str_hash(s);
    CHECK(hash != -1 && (s->hash == hash || kiln_str_immortal(s)), "hash(%s)", show(p));
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(p, &size);
    kiln_str *decoded = kiln_str_from_utf8(utf8, size);
    kiln_str *wider = kiln_str_concat(s, tail);
    kiln_str *sliced = kiln_str_slice(wider, 0, s->length, 1, 3);
    CHECK(kiln_str_hash(decoded) == hash && kiln_str_hash(sliced) == hash &&
              kiln_str_equal(sliced, s) && kiln_str_equal(decoded, s),
          "hash(%s) of copies", show(p));
    kiln_str_release(decoded);
    kiln_str_release(wider);
    kiln_str_release(sliced);
    PyObject *key = PyLong_FromLongLong(hash);
    PyObject *previous = PyDict_GetItem(seen, key);
    if (!previous) {
      PyDict_SetItem(seen, key, p);
    } else {
      CHECK(PyObject_RichCompareBool(previous, p, Py_EQ) == 1, "hash collision: %s and %s",
            show(previous), show(p));
    }
    Py_DECREF(key);
    kiln_str_release(s);
  }
  Py_DECREF(seen);
  kiln_str_release(tail);
  end();
}

// code_at, char_at, from_utf8, from_data, new.
static void test_characters_and_decoding(void) {
  begin("characters and decoding");
  PyObject *strings = input("STRINGS");
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
    PyObject *p = PyList_GET_ITEM(strings, i);
    kiln_str *s = kl(p);
    CHECK(same(s, p), "from_data(%s)", show(p));
    for (Py_ssize_t k = 0; k < s->length; ++k) {
      CHECK_INT(kiln_str_code_at(s, k), PyUnicode_ReadChar(p, k), "ord(%s[%zd])", show(p), k);
      CHECK_STR(kiln_str_char_at(s, k), PySequence_GetItem(p, k), "%s[%zd]", show(p), k);
    }
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(p, &size);
    CHECK_STR(kiln_str_from_utf8(utf8, size), Py_NewRef(p), "from_utf8(%s)", show(p));
    // the same text handed over wider: back in the narrowest kind
    Py_UCS4 *wide = PyUnicode_AsUCS4Copy(p);
    CHECK_STR(kiln_str_from_data(4, wide, s->length), Py_NewRef(p), "from_data(4, %s)", show(p));
    if (s->kind <= 2) {
      uint16_t *units = (uint16_t *)malloc((size_t)(s->length + 1) * 2);
      for (int64_t k = 0; k < s->length; ++k)
        units[k] = (uint16_t)wide[k];
      CHECK_STR(kiln_str_from_data(2, units, s->length), Py_NewRef(p), "from_data(2, %s)", show(p));
      free(units);
    }
    PyMem_Free(wide);
    kiln_str_release(s);
  }
  // every code point once, decoded from UTF-8 (surrogates have none)
  {
    PyObject *all = PyUnicode_New(0x110000 - 0x800, 0x10FFFF);
    Py_ssize_t at = 0;
    for (Py_UCS4 code = 0; code < 0x110000; ++code)
      if (code < 0xD800 || code > 0xDFFF)
        PyUnicode_WriteChar(all, at++, code);
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(all, &size);
    CHECK_STR(kiln_str_from_utf8(utf8, size), Py_NewRef(all), "from_utf8(every code point)");
    Py_DECREF(all);
  }
  // kiln_str_new: a fresh block, its fields set, zeros after the data
  for (int32_t kind = 1; kind <= 4; kind *= 2)
    for (int64_t length = 0; length < 4; ++length) {
      kiln_str *s = kiln_str_new(length, kind);
      int zeros = 1;
      for (int i = 0; i < kind; ++i)
        zeros &= kiln_str_data(s)[length * kind + i] == 0;
      CHECK(s && s->refcount == 1 && s->hash == -1 && s->outside_references == 0 && s->kind == kind &&
                s->length == length && zeros && !kiln_str_immortal(s),
            "kiln_str_new(%lld, %d)", (long long)length, kind);
      kiln_str_release(s);
    }
  CHECK(kiln_str_new(-1, 1) == NULL && kiln_str_new(INT64_MAX, 2) == NULL, "kiln_str_new too long");
  end();
}

static void test_numbers(void) {
  begin("from_int");
  {
    int64_t values[20000];
    int count = 0;
    values[count++] = INT64_MIN;
    values[count++] = INT64_MIN + 1;
    values[count++] = INT64_MAX;
    values[count++] = INT64_MAX - 1;
    int64_t power = 1;
    for (int k = 0; k <= 18; ++k) {
      for (int64_t d = -1; d <= 1; ++d) {
        values[count++] = power + d;
        values[count++] = -(power + d);
      }
      if (k < 18)
        power *= 10;   /* 10**19 does not fit */
    }
    while (count < 20000) {
      uint64_t r = next_random();
      values[count++] = (int64_t)(r >> (r & 63));
    }
    for (int i = 0; i < count; ++i) {
      PyObject *number = PyLong_FromLongLong(values[i]);
      CHECK_STR(kiln_str_from_int(values[i]), PyObject_Str(number), "str(%lld)", (long long)values[i]);
      Py_DECREF(number);
    }
  }
  end();

  begin("from_float");
  {
    // special values, powers of two and ten and their neighbours, the
    // layout boundaries, then random bit patterns
    double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, DBL_MIN, DBL_MAX, DBL_TRUE_MIN,
                         -DBL_TRUE_MIN, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 1e16, 1e15, 9999999999999998.0,
                         1e-4, 1e-5, 0.0001, 0.00001, 123.456, 1.5e300, 5e-324, 1e22, 1e23, 2.5, 100.0,
                         9007199254740993.0, 4.35, 0.30000000000000004, 1e-7, 12345678901234567890.0};
    int count = 0;
    int total = (int)(sizeof specials / sizeof specials[0]);
    for (int e = -1074; e <= 1023; ++e) {
      double x = ldexp(1.0, e);
      double neighbours[4] = {x, nextafter(x, 0), nextafter(x, INFINITY), -x};
      for (int k = 0; k < 4; ++k, ++count) {
        double y = neighbours[k];
        PyObject *number = PyFloat_FromDouble(y);
        CHECK_STR(kiln_str_from_float(y), PyObject_Repr(number), "repr(%a)", y);
        Py_DECREF(number);
      }
    }
    for (int e = -330; e <= 310; ++e) {
      char text[32];
      snprintf(text, sizeof text, "1e%d", e);
      double x = strtod(text, NULL);
      double neighbours[3] = {x, nextafter(x, 0), nextafter(x, INFINITY)};
      for (int k = 0; k < 3; ++k) {
        PyObject *number = PyFloat_FromDouble(neighbours[k]);
        CHECK_STR(kiln_str_from_float(neighbours[k]), PyObject_Repr(number), "repr(%a)",
                  neighbours[k]);
        Py_DECREF(number);
      }
    }
    for (int i = 0; i < total + 100000; ++i) {
      double x = i < total ? specials[i] : from_bits(next_random());
      PyObject *number = PyFloat_FromDouble(x);
      kiln_str *text = kiln_str_from_float(x);
      // and back: float(repr(x)) is x
      double back = 0;
      int status = text ? kiln_str_to_float(text, &back) : 1;
      CHECK(status == 0 && (isnan(x) ? isnan(back) : to_bits(back) == to_bits(x)),
            "float(repr(%a)) is %a", x, back);
      CHECK_STR(text, PyObject_Repr(number), "repr(%a) (bits %#llx)", x,
                (unsigned long long)to_bits(x));
      Py_DECREF(number);
    }
  }
  end();

  begin("to_int");
  for (int pool = 0; pool < 3; ++pool) {
    PyObject *strings = input(pool == 0 ? "INT_STRINGS" : pool == 1 ? "NUMBERS" : "FLOAT_STRINGS");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
      PyObject *p = PyList_GET_ITEM(strings, i);
      kiln_str *s = kl(p);
      int64_t value = 0;
      int status = kiln_str_to_int(s, &value);
      PyObject *answer = PyObject_CallOneArg((PyObject *)&PyLong_Type, p);
      int expected_status = 0;
      long long expected = 0;
      if (!answer) {
        expected_status = PyErr_ExceptionMatches(PyExc_ValueError) ? 1 : 99;
        PyErr_Clear();
      } else {
        int overflow = 0;
        expected = PyLong_AsLongLongAndOverflow(answer, &overflow);
        if (overflow)
          expected_status = 2;
        Py_DECREF(answer);
      }
      CHECK(status == expected_status && (status != 0 || value == expected),
            "int(%.200s): got %d, %lld; CPython %d, %lld", show(p), status, (long long)value,
            expected_status, expected);
      kiln_str_release(s);
    }
  }
  end();

  begin("to_float");
  for (int pool = 0; pool < 3; ++pool) {
    PyObject *strings = input(pool == 0 ? "FLOAT_STRINGS" : pool == 1 ? "NUMBERS" : "INT_STRINGS");
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(strings); ++i) {
      PyObject *p = PyList_GET_ITEM(strings, i);
      kiln_str *s = kl(p);
      double value = 0;
      int status = kiln_str_to_float(s, &value);
      PyObject *answer = PyObject_CallOneArg((PyObject *)&PyFloat_Type, p);
      int expected_status = 0;
      double expected = 0;
      if (!answer) {
        expected_status = PyErr_ExceptionMatches(PyExc_ValueError) ? 1 : 99;
        PyErr_Clear();
      } else {
        expected = PyFloat_AS_DOUBLE(answer);
        Py_DECREF(answer);
      }
      int same_value = isnan(expected) ? isnan(value) && signbit(value) == signbit(expected)
                                       : to_bits(value) == to_bits(expected);
      CHECK(status == expected_status && (status != 0 || same_value),
            "float(%.200s): got %d, %a; CPython %d, %a", show(p), status, value, expected_status,
            expected);
      kiln_str_release(s);
    }
  }
  end();
}

// References: the arguments a function may return, the immortal strings,
// the journal.
static void test_memory(void) {
  begin("memory");
  // One code point below 256: the static string, whichever way it is made,
  // never counted, journaled, cached into or freed.
  PyObject *latin1 = PyUnicode_New(256, 255);
  for (int c = 0; c < 256; ++c)
    PyUnicode_WriteChar(latin1, c, (Py_UCS4)c);
  kiln_str *all = kl(latin1);
  int64_t journal = kiln_journal_size();
  for (int c = 0; c < 256; ++c) {
    kiln_str *a = kiln_str_chr(c), *b = kiln_str_char_at(all, c);
    kiln_str *d = kiln_str_slice(all, c, c + 1, 1, 3);
    int64_t count = a->refcount;
    kiln_str_hash(a);
    kiln_str_release(a);
    kiln_str_release(b);
    kiln_str_release(d);
    CHECK(a == b && a == d && a == (kiln_str *)&kiln_str_latin1[c] && kiln_str_immortal(a) &&
              a->refcount == count && a->hash == -1 && a->journal_index == -1,
          "the static string of %d", c);
  }
  CHECK(kiln_journal_size() == journal, "statics journaled");
  kiln_str_release(all);
  Py_DECREF(latin1);

  // A literal: immortal, in (what stands for) constant data.
  kiln_str *literal = (kiln_str *)malloc(sizeof(kiln_str) + 4);
  literal->refcount = KILN_STR_IMMORTAL;
  literal->length = 3;
  literal->hash = -1;
  literal->journal_index = -1;
  literal->kind = 1;
  literal->outside_references = 0;
  memcpy(kiln_str_data(literal), "abc", 4);
  kiln_str *empty = kiln_str_from_data(1, "", 0);
  kiln_str *results[] = {kiln_str_concat(literal, empty), kiln_str_concat(empty, literal),
                         kiln_str_repeat(literal, 1), kiln_str_slice(literal, 0, 0, 1, 0),
                         kiln_str_strip(literal, NULL, 3), kiln_str_lower(literal)};
  for (int i = 0; i < 6; ++i) {
    CHECK(results[i] == literal && literal->refcount == KILN_STR_IMMORTAL, "literal result %d", i);
    kiln_str_release(results[i]);
  }
  kiln_str_hash(literal);
  CHECK(literal->hash == -1 && literal->refcount == KILN_STR_IMMORTAL, "literal untouched");
  kiln_str_release(literal);
  CHECK(literal->refcount == KILN_STR_IMMORTAL, "literal release");
  free(literal);

  // A mortal string returned as itself takes a reference, as CPython's
  // same-object results do.
  kiln_str *s = kiln_str_from_utf8("  x\xc4\x80 ", 6);
  kiln_str *x = kiln_str_from_utf8("x", 1);
  kiln_str *q = kiln_str_from_utf8("?", 1);
  kiln_list *one = kiln_list_new(8, 1);
  one->item_kind = KILN_ITEM_STR;
  ((kiln_str **)one->items)[0] = kiln_str_ref(s);
  one->length = 1;
  kiln_list *pieces = kiln_str_split(s, q, -1);
  kiln_str *same_results[] = {kiln_str_concat(s, empty),  kiln_str_concat(empty, s),
                              kiln_str_repeat(s, 1),      kiln_str_slice(s, 0, 0, 1, 0),
                              kiln_str_strip(s, x, 3),    kiln_str_replace(s, q, x, -1),
                              kiln_str_join(x, one),      ((kiln_str **)pieces->items)[0]};
  CHECK(s->refcount == 10, "references taken: %lld", (long long)s->refcount);
  for (int i = 0; i < 8; ++i)
    CHECK(same_results[i] == s, "returned itself %d", i);
  for (int i = 0; i < 7; ++i)
    kiln_str_release(same_results[i]);
  free_strings(pieces);
  free_strings(one);
  CHECK(s->refcount == 1, "references given back");
  kiln_str_release(s);
  kiln_str_release(x);
  kiln_str_release(q);
  kiln_str_release(empty);

  // A call that raises: the journal frees every string and list it made.
  // The outermost call unwinds for all (a raise goes through them all), so
  // the test's own frame is left first and entered again after.
  kiln_journal_leave(journal_mark);
  int64_t mark = kiln_journal_enter();
  kiln_str *made = kiln_str_from_utf8("ab cd\xc4\x80 ef", 10);
  kiln_str *upper = kiln_str_upper(made);
  kiln_list *words = kiln_str_split(upper, NULL, -1);
  kiln_str *joined = kiln_str_join(made, words);
  (void)joined;
  // made, upper, the list, its three words, joined
  CHECK(kiln_journal_size() == mark + 7, "made: %lld", (long long)(kiln_journal_size() - mark));
  kiln_journal_unwind(mark);
  CHECK(kiln_journal_size() == mark, "unwound");
  journal_mark = kiln_journal_enter();
  end();
}

int main(void) {
  Py_Initialize();
  PyObject *main_module = PyImport_AddModule("__main__");
  inputs = PyModule_GetDict(main_module);
  if (!PyRun_String(inputs_source, Py_file_input, inputs, inputs)) {
    PyErr_Print();
    return 1;
  }
  // Every string made below is in the journal until released.
  journal_mark = kiln_journal_enter();
  test_code_points();
  test_case_and_properties();
  test_search();
  test_slices();
  test_replace_split_strip_join();
  test_concat_repeat_compare_hash();
  test_characters_and_decoding();
  test_numbers();
  test_memory();
  kiln_journal_leave(journal_mark);
  printf("total: %lld cases, %lld mismatches\n", total_cases, total_mismatches);
  if (Py_FinalizeEx() < 0)
    return 1;
  return total_mismatches != 0;
}
