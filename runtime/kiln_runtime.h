/* The CPython side of Kiln's runtime: argument conversion, arrays returned
   to Python, and exceptions raised by compiled code. Every generated
   extension module (python_frontend/kiln/native/wrapper.py) includes it;
   kilnc embeds it and gives it to the in-process Clang that compiles the
   extension, so it needs no install location. Static functions only: each
   extension has its own copy, and what it does not call is dropped.

   Compiled on its own as C11 with -Wall -Wextra -Werror by the tests
   (test/runtime). */
#ifndef KILN_RUNTIME_H
#define KILN_RUNTIME_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln_abi.h"

/* Arrays larger than this (elements over all array arguments) are worth
   releasing the GIL for: doing so costs tens of ns. */
#define KILN_GIL_RELEASE_ELEMENTS 4096

/* ---- argument conversion: every failure names the function and parameter.

   Each conversion is split in two: the common case (an exact float, a small
   exact int, True/False, an aligned numpy array of the right dtype) is an
   always-inlined test of a few loads in the wrapper itself, and everything
   else -- other types, subclasses, buffers, and every error -- goes to an
   out-of-line general path that does the complete checks. A call that
   passes the usual arguments then makes no function call before the
   kernel's. */
#define KILN_INLINE static inline __attribute__((always_inline))
/* `unused`: an extension calls only what its functions need. */
#define KILN_GENERAL static __attribute__((noinline, unused))
#define KILN_COLD static __attribute__((cold, noinline, unused))
#define KILN_HELPER static __attribute__((unused))
#define KILN_LIKELY(condition) __builtin_expect(!!(condition), 1)

KILN_COLD int kiln_argument_error(PyObject *kind, const char *function, const char *parameter,
                                  const char *expected, PyObject *got) {
  PyErr_Format(kind, "%s() argument '%s' must be %s, not %.200s", function, parameter,
               expected, Py_TYPE(got)->tp_name);
  return -1;
}

/* After PyFloat_AsDouble or PyComplex_AsCComplex failed: a TypeError names
   the parameter and what it takes, an OverflowError the argument. -1. */
KILN_COLD int kiln_number_conversion_failed(PyObject *object, const char *function,
                                            const char *parameter, const char *expected) {
  if (PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    return kiln_argument_error(PyExc_TypeError, function, parameter, expected, object);
  }
  if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' is too large to convert to float",
                 function, parameter);
  }
  return -1;
}

/* What a reader of a number found: the value (KILN_READ_OK), an object
   the parameter does not take (KILN_READ_WRONG_TYPE), or one out of its
   range (KILN_READ_OUT_OF_RANGE), with no exception set; -1 when some other
   exception is set (one raised by the object's own __float__ or __index__).
   The readers hold the rules of what a parameter of each type accepts,
   scalar parameters and list items alike; their callers word the error. */
enum { KILN_READ_OK = 0, KILN_READ_WRONG_TYPE = 1, KILN_READ_OUT_OF_RANGE = 2 };

/* A float parameter takes a float, or what float() takes but a string:
   an int, an object with __float__ or __index__ (numpy's scalars). */
KILN_GENERAL int kiln_read_double(PyObject *object, double *out) {
  if (PyFloat_CheckExact(object)) {
    *out = PyFloat_AS_DOUBLE(object);
    return KILN_READ_OK;
  }
  if (PyUnicode_Check(object) || PyBytes_Check(object))
    return KILN_READ_WRONG_TYPE;
  double value = PyFloat_AsDouble(object);
  if (value == -1.0 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      return KILN_READ_WRONG_TYPE;
    }
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      return KILN_READ_OUT_OF_RANGE;
    }
    return -1;
  }
  *out = value;
  return KILN_READ_OK;
}

KILN_GENERAL int kiln_as_double_general(PyObject *object, double *out, const char *function,
                                        const char *parameter) {
  int status = kiln_read_double(object, out);
  if (status == KILN_READ_WRONG_TYPE)
    return kiln_argument_error(PyExc_TypeError, function, parameter, "a float", object);
  if (status == KILN_READ_OUT_OF_RANGE)
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' is too large to convert to float",
                 function, parameter);
  return status == KILN_READ_OK ? 0 : -1;
}

KILN_INLINE int kiln_as_double(PyObject *object, double *out, const char *function,
                               const char *parameter) {
  if (KILN_LIKELY(PyFloat_CheckExact(object))) {
    *out = PyFloat_AS_DOUBLE(object);
    return 0;
  }
  return kiln_as_double_general(object, out, function, parameter);
}

/* An int parameter takes a Python int or an object with __index__ (numpy's
   integer scalars), never a float: *index is a new reference to the Python
   int it stands for. A KILN_READ_ status, as kiln_read_double's. */
KILN_GENERAL int kiln_read_index(PyObject *object, PyObject **index) {
  if (PyLong_Check(object)) {
    Py_INCREF(object);
    *index = object;
    return KILN_READ_OK;
  }
  if (PyFloat_Check(object) || !PyIndex_Check(object))
    return KILN_READ_WRONG_TYPE;
  *index = PyNumber_Index(object);
  return *index ? KILN_READ_OK : -1;
}

/* A new reference to the Python int `object` stands for, or NULL with
   TypeError set. */
KILN_GENERAL PyObject *kiln_index_of(PyObject *object, const char *function,
                                     const char *parameter) {
  PyObject *index = NULL;
  if (kiln_read_index(object, &index) == KILN_READ_WRONG_TYPE)
    kiln_argument_error(PyExc_TypeError, function, parameter, "an int", object);
  return index;
}

/* The int64 value of what an int parameter takes (kiln_read_index). */
KILN_GENERAL int kiln_read_int64(PyObject *object, int64_t *out) {
  PyObject *index = NULL;
  int status = kiln_read_index(object, &index);
  if (status != KILN_READ_OK)
    return status;
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow)
    return KILN_READ_OUT_OF_RANGE;
  if (value == -1 && PyErr_Occurred())
    return -1;
  *out = (int64_t)value;
  return KILN_READ_OK;
}

KILN_GENERAL int kiln_as_int64_general(PyObject *object, int64_t *out, int64_t low,
                                       int64_t high, const char *function,
                                       const char *parameter) {
  int64_t value = 0;
  int status = kiln_read_int64(object, &value);
  if (status == KILN_READ_WRONG_TYPE)
    return kiln_argument_error(PyExc_TypeError, function, parameter, "an int", object);
  if (status == KILN_READ_OUT_OF_RANGE) {
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' does not fit in a 64-bit integer",
                 function, parameter);
    return -1;
  }
  if (status != KILN_READ_OK)
    return -1;
  if (value < low || value > high) {
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' is out of range for a 32-bit integer",
                 function, parameter);
    return -1;
  }
  *out = value;
  return 0;
}

/* A Python int (or an object with __index__, such as numpy's integer
   scalars) for a parameter of a dtype narrower than 64 bits: range-checked,
   OverflowError naming the parameter and the dtype. */
KILN_GENERAL int kiln_as_ranged_int(PyObject *object, int64_t *out, int64_t low, int64_t high,
                                    const char *dtype, const char *function,
                                    const char *parameter) {
  if (kiln_as_int64_general(object, out, INT64_MIN, INT64_MAX, function, parameter) < 0)
    return -1;
  if (*out < low || *out > high) {
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' is out of range for %s: %lld",
                 function, parameter, dtype, (long long)*out);
    return -1;
  }
  return 0;
}

/* A Python int in [0, 2**64) for a uint64 parameter. */
KILN_GENERAL int kiln_as_uint64(PyObject *object, uint64_t *out, const char *function,
                                const char *parameter) {
  PyObject *index = kiln_index_of(object, function, parameter);
  if (!index)
    return -1;
  unsigned long long value = PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  if (value == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    PyErr_Format(PyExc_OverflowError, "%s() argument '%s' is out of range for uint64",
                 function, parameter);
    return -1;
  }
  *out = (uint64_t)value;
  return 0;
}

/* An exact int of one digit (|value| < 2**30, so in range for both int32
   and int64) holds its value in the object: read it without a call. */
KILN_INLINE int kiln_read_small_int(PyObject *object, int64_t *out) {
  if (!PyLong_CheckExact(object))
    return 0;
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject *)object))
    return 0;
  *out = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)object);
#else
  Py_ssize_t size = Py_SIZE(object);
  if (size < -1 || size > 1)
    return 0;
  /* ob_digit[0] is always allocated; for zero (size 0) the product is 0. */
  *out = (int64_t)size * (int64_t)((PyLongObject *)object)->ob_digit[0];
#endif
  return 1;
}

KILN_INLINE int kiln_as_int64(PyObject *object, int64_t *out, int64_t low, int64_t high,
                              const char *function, const char *parameter) {
  if (KILN_LIKELY(kiln_read_small_int(object, out)))
    return 0;
  return kiln_as_int64_general(object, out, low, high, function, parameter);
}

/* A bool parameter takes True, False and numpy's bool scalars, nothing
   else (not 0 and 1). A KILN_READ_ status, as kiln_read_double's. */
KILN_GENERAL int kiln_read_bool(PyObject *object, bool *out) {
  if (object == Py_True || object == Py_False) {
    *out = object == Py_True;
    return KILN_READ_OK;
  }
  const char *type_name = Py_TYPE(object)->tp_name;
  if (strcmp(type_name, "numpy.bool_") == 0 || strcmp(type_name, "numpy.bool") == 0) {
    int truth = PyObject_IsTrue(object);
    if (truth < 0)
      return -1;
    *out = truth != 0;
    return KILN_READ_OK;
  }
  return KILN_READ_WRONG_TYPE;
}

KILN_GENERAL int kiln_as_bool_general(PyObject *object, bool *out, const char *function,
                                      const char *parameter) {
  int status = kiln_read_bool(object, out);
  if (status == KILN_READ_WRONG_TYPE)
    return kiln_argument_error(PyExc_TypeError, function, parameter, "a bool", object);
  return status == KILN_READ_OK ? 0 : -1;
}

KILN_INLINE int kiln_as_bool(PyObject *object, bool *out, const char *function,
                             const char *parameter) {
  if (KILN_LIKELY(object == Py_True || object == Py_False)) {
    *out = object == Py_True;
    return 0;
  }
  return kiln_as_bool_general(object, out, function, parameter);
}

/* A complex parameter: a Python complex (numpy's complex128 is one), or
   what complex() accepts without a string: an object with __complex__,
   a float, an int. The parts go to *real and *imag. */
KILN_GENERAL int kiln_as_complex(PyObject *object, double *real, double *imag,
                                 const char *function, const char *parameter) {
  if (PyComplex_Check(object)) {
    Py_complex value = PyComplex_AsCComplex(object);
    *real = value.real;
    *imag = value.imag;
    return 0;
  }
  if (PyUnicode_Check(object) || PyBytes_Check(object))
    return kiln_argument_error(PyExc_TypeError, function, parameter, "a complex", object);
  Py_complex value = PyComplex_AsCComplex(object);
  if (value.real == -1.0 && PyErr_Occurred())
    return kiln_number_conversion_failed(object, function, parameter, "a complex");
  *real = value.real;
  *imag = value.imag;
  return 0;
}

/* numpy arrays are read directly: the first fields of numpy's array and
   dtype objects are public, and the same in numpy 1.x and 2.x. This skips the
   buffer protocol's cost (tens of ns per array) on the common path. */
typedef struct {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *base;
  PyObject *descr;
  int flags;
} kiln_numpy_array;

typedef struct {
  PyObject_HEAD
  PyTypeObject *typeobj;
  char kind;
  char type;
  char byteorder;
} kiln_numpy_dtype;

enum { KILN_NPY_ALIGNED = 0x0100, KILN_NPY_WRITEABLE = 0x0400 };
/* numpy.ndarray, found by name on the first array argument (Kiln does not
   link numpy); until then every array takes the general path. */
static PyTypeObject *kiln_ndarray_type;

/* The fast path for an exact numpy array: true when it can be passed as
   is -- its dtype's type character is `type_code` (the one numpy gives the
   dtype on this platform) in native byte order ('='), it has `ndim`
   dimensions and numpy flags it aligned (and writable, when
   `required_flags` asks). numpy sets ALIGNED only when the data pointer and
   every stride along an axis longer than 1 are multiples of the dtype's
   alignment, which for these dtypes is the item size: the only strides it
   does not vouch for are never multiplied by a nonzero index. Anything
   else (other spellings of the dtype, subclasses, buffers, and every
   error) is left to kiln_get_array. */
_Static_assert(_Alignof(double) == 8 && _Alignof(int64_t) == 8 && _Alignof(float) == 4 &&
               _Alignof(int32_t) == 4, "the numpy fast path takes alignment = item size");
KILN_INLINE int kiln_plain_ndarray(PyObject *object, int ndim, char type_code,
                                   int required_flags) {
  if (Py_TYPE(object) != kiln_ndarray_type)
    return 0;
  const kiln_numpy_array *array = (const kiln_numpy_array *)object;
  const kiln_numpy_dtype *dtype = (const kiln_numpy_dtype *)array->descr;
  return dtype->type == type_code && dtype->byteorder == '=' && array->nd == ndim &&
         (array->flags & required_flags) == required_flags;
}

/* Whether every stride of an exact ndarray is a multiple of `itemsize`:
   numpy's ALIGNED flag says so for real dtypes, not for complex ones, whose
   alignment is a part's (a complex128 field of a record may have a stride
   of 24). */
KILN_INLINE int kiln_whole_strides(PyObject *object, int ndim, Py_ssize_t itemsize) {
  const kiln_numpy_array *array = (const kiln_numpy_array *)object;
  for (int axis = 0; axis < ndim; ++axis)
    if (array->strides[axis] % itemsize != 0)
      return 0;
  return 1;
}

KILN_HELPER int kiln_is_ndarray(PyObject *object) {
  PyTypeObject *type = Py_TYPE(object);
  if (type == kiln_ndarray_type)
    return 1;
  if (!kiln_ndarray_type && strcmp(type->tp_name, "numpy.ndarray") == 0) {
    kiln_ndarray_type = type;
    return 1;
  }
  return 0;
}

static inline int kiln_format_in(const char *formats, char code) {
  for (; *formats; ++formats)
    if (*formats == code)
      return 1;
  return 0;
}

KILN_HELPER Py_ssize_t kiln_numpy_itemsize(char type) {
  switch (type) {
  case 'D': return 16;     /* complex128 */
  case 'F': case 'd': case 'q': case 'Q': case 'l': case 'L': return 8;
  case 'f': case 'i': case 'I': return 4;
  case 'h': case 'H': return 2;
  case 'b': case 'B': case '?': return 1;
  default: return 0;
  }
}

/* A complex element (numpy's 'D' complex128, 'F' complex64) is aligned as
   its parts are, as numpy's and LLVM's {double, double} and {float, float}
   are; the other elements to their size. `formats` are the parameter's
   format codes (one dtype). */
static inline Py_ssize_t kiln_element_alignment(const char *formats, Py_ssize_t itemsize) {
  return formats[0] == 'D' || formats[0] == 'F' ? itemsize / 2 : itemsize;
}

KILN_HELPER int kiln_fill_descriptor(void *descriptor, char *data, int ndim,
                                const Py_ssize_t *shape, const Py_ssize_t *strides,
                                Py_ssize_t itemsize, const char *function,
                                const char *parameter);

/* Why an array argument was refused, after its dtype matched. */
enum { KILN_ARRAY_NDIM = 1, KILN_ARRAY_READ_ONLY, KILN_ARRAY_MISALIGNED };

KILN_COLD int kiln_array_refused(int reason, int got_ndim, int ndim, Py_ssize_t itemsize,
                                 const char *function, const char *parameter) {
  switch (reason) {
  case KILN_ARRAY_NDIM:
    PyErr_Format(PyExc_ValueError, "%s() argument '%s' must be %d-dimensional, not "
                 "%d-dimensional", function, parameter, ndim, got_ndim);
    break;
  case KILN_ARRAY_READ_ONLY:
    PyErr_Format(PyExc_ValueError, "%s() argument '%s' is read-only, but %s() writes to it",
                 function, parameter, function);
    break;
  default:
    PyErr_Format(PyExc_ValueError, "%s() argument '%s' is not aligned to its item size "
                 "(%zd)", function, parameter, itemsize);
    break;
  }
  return -1;
}

KILN_COLD int kiln_ndarray_dtype_refused(char type, const char *function,
                                         const char *parameter, const char *expected) {
  PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be %s, not an array of dtype '%c'",
               function, parameter, expected, type);
  return -1;
}

KILN_COLD int kiln_buffer_format_refused(Py_buffer *view, const char *function,
                                         const char *parameter, const char *expected) {
  PyErr_Format(PyExc_TypeError,
               "%s() argument '%s' must be %s, not an array of format '%s' (item size %zd)",
               function, parameter, expected, view->format ? view->format : "B",
               view->itemsize);
  PyBuffer_Release(view);
  return -1;
}

/* numpy takes arrays whose elements are not aligned to their size (a
   buffer that arrived over a network, as Dask's workers receive arrays; a
   field of a packed record), where compiled code assumes aligned elements.
   Such an argument is copied into an aligned, C-ordered temporary for the
   call (its descriptor's `allocated` is the copy, which is how
   kiln_release_array knows), and copied back after it when the function
   may write it: what numpy's own loops do with buffered iteration. */
KILN_HELPER int kiln_strides_unaligned(int ndim, const Py_ssize_t *strides,
                                  Py_ssize_t itemsize) {
  for (int axis = 0; axis < ndim; ++axis)
    if (strides[axis] % itemsize != 0)
      return 1;
  return 0;
}

/* Copies the elements of a strided layout into another (byte strides; NULL
   strides are C order). */
KILN_HELPER void kiln_copy_layout(char *to, const Py_ssize_t *to_strides, const char *from,
                             const Py_ssize_t *from_strides, int ndim,
                             const Py_ssize_t *shape, Py_ssize_t itemsize) {
  Py_ssize_t position[KILN_MAX_NDIM], c_order[KILN_MAX_NDIM];
  Py_ssize_t step = itemsize;
  for (int axis = ndim - 1; axis >= 0; --axis) {
    if (shape[axis] == 0)
      return;
    c_order[axis] = step;
    step *= shape[axis];
    position[axis] = 0;
  }
  if (!to_strides)
    to_strides = c_order;
  if (!from_strides)
    from_strides = c_order;
  for (;;) {
    memcpy(to, from, (size_t)itemsize);
    int axis = ndim - 1;
    for (; axis >= 0; --axis) {
      to += to_strides[axis];
      from += from_strides[axis];
      if (++position[axis] < shape[axis])
        break;
      to -= to_strides[axis] * shape[axis];
      from -= from_strides[axis] * shape[axis];
      position[axis] = 0;
    }
    if (axis < 0)
      return;
  }
}

KILN_GENERAL int kiln_aligned_copy(Py_buffer *view, void *descriptor, int ndim,
                                   Py_ssize_t itemsize) {
  Py_ssize_t count = 1, strides[KILN_MAX_NDIM];
  for (int axis = ndim - 1; axis >= 0; --axis) {
    strides[axis] = count * itemsize;
    count *= view->shape[axis];
  }
  char *copy = (char *)malloc((size_t)(count ? count : 1) * (size_t)itemsize);
  if (!copy) {
    PyBuffer_Release(view);
    PyErr_NoMemory();
    return -1;
  }
  kiln_copy_layout(copy, strides, (const char *)view->buf, view->strides, ndim, view->shape,
                   itemsize);
  kiln_fill_descriptor(descriptor, copy, ndim, view->shape, strides, itemsize, "", "");
  return 0;
}

KILN_GENERAL void kiln_release_copy(Py_buffer *view, char *copy, int written) {
  if (written)    /* the copy is in C order (NULL strides) */
    kiln_copy_layout((char *)view->buf, view->strides, copy, NULL, view->ndim, view->shape,
                     view->itemsize);
  free(copy);
}

/* The general path of an array argument: any exact numpy array (read
   through its public fields, which skips the buffer protocol's cost) or
   any other buffer (subclasses, memoryview, array.array). Checks it against
   the dtype/ndim a parameter expects and fills the strided descriptor;
   never copies. Sets view->obj when a buffer is held. */
KILN_GENERAL int kiln_get_array(PyObject *object, Py_buffer *view, void *descriptor, int ndim,
                                const char *formats, Py_ssize_t itemsize, int writable,
                                const char *function, const char *parameter,
                                const char *expected) {
  view->obj = NULL;
  if (kiln_is_ndarray(object)) {
    kiln_numpy_array *array = (kiln_numpy_array *)object;
    kiln_numpy_dtype *dtype = (kiln_numpy_dtype *)array->descr;
    if (dtype->type == '\0' || !kiln_format_in(formats, dtype->type) ||
        kiln_numpy_itemsize(dtype->type) != itemsize || dtype->byteorder == '>')
      return kiln_ndarray_dtype_refused(dtype->type, function, parameter, expected);
    int refusal = array->nd != ndim ? KILN_ARRAY_NDIM
                  : writable && !(array->flags & KILN_NPY_WRITEABLE) ? KILN_ARRAY_READ_ONLY
                  : 0;
    if (refusal)
      return kiln_array_refused(refusal, array->nd, ndim, itemsize, function, parameter);
    if (!(array->flags & KILN_NPY_ALIGNED) ||
        ((uintptr_t)array->data) % kiln_element_alignment(formats, itemsize) ||
        kiln_strides_unaligned(ndim, array->strides, itemsize)) {
      if (PyObject_GetBuffer(object, view, writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO) != 0)
        return -1;
      return kiln_aligned_copy(view, descriptor, ndim, itemsize);
    }
    return kiln_fill_descriptor(descriptor, array->data, ndim, array->dimensions,
                                array->strides, itemsize, function, parameter);
  }
  if (PyObject_GetBuffer(object, view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return kiln_argument_error(PyExc_TypeError, function, parameter, expected, object);
  }
  const char *format = view->format ? view->format : "B";
  if (*format == '@' || *format == '=' || *format == '<')
    ++format;
  /* The buffer protocol spells complex128 "Zd" and complex64 "Zf"; the
     table (and numpy's dtype.char) say 'D' and 'F'. */
  char code = format[0] != 'Z' || format[2] != '\0' ? format[0]
              : format[1] == 'd' ? 'D' : format[1] == 'f' ? 'F' : '\0';
  if (code == '\0' || (format[0] != 'Z' && format[1] != '\0') || !strchr(formats, code) ||
      view->itemsize != itemsize)
    return kiln_buffer_format_refused(view, function, parameter, expected);
  int refusal = view->ndim != ndim ? KILN_ARRAY_NDIM
                : writable && view->readonly ? KILN_ARRAY_READ_ONLY
                : 0;
  if (refusal) {
    kiln_array_refused(refusal, view->ndim, ndim, itemsize, function, parameter);
    PyBuffer_Release(view);
    return -1;
  }
  if (((uintptr_t)view->buf) % (uintptr_t)kiln_element_alignment(formats, itemsize) != 0 ||
      (view->strides && kiln_strides_unaligned(ndim, view->strides, itemsize)))
    return kiln_aligned_copy(view, descriptor, ndim, itemsize);
  Py_ssize_t contiguous[KILN_MAX_NDIM];
  const Py_ssize_t *strides = view->strides;
  if (!strides) {
    Py_ssize_t step = itemsize;
    for (int axis = ndim - 1; axis >= 0; --axis) {
      contiguous[axis] = step;
      step *= view->shape[axis];
    }
    strides = contiguous;
  }
  if (kiln_fill_descriptor(descriptor, (char *)view->buf, ndim, view->shape, strides,
                           itemsize, function, parameter) < 0) {
    PyBuffer_Release(view);
    return -1;
  }
  return 0;
}

/* Releases the buffer kiln_get_array took, if it took one: the fast path
   and aligned numpy arrays take none, and then no call is made. An array
   that was copied (kiln_aligned_copy) is copied back first when the
   function may have written it. */
KILN_INLINE void kiln_release_array(Py_buffer *view, void *descriptor, int written) {
  if (view->obj) {
    char *copy = ((char **)descriptor)[0];
    if (copy != (char *)view->buf)
      kiln_release_copy(view, copy, written);
    PyBuffer_Release(view);
  }
}

/* Layout of every kiln_<dtype>_<n>d struct: two pointers, offset, shape, strides. */
KILN_HELPER int kiln_fill_descriptor(void *descriptor, char *data, int ndim,
                                const Py_ssize_t *shape, const Py_ssize_t *strides,
                                Py_ssize_t itemsize, const char *function,
                                const char *parameter) {
  char **pointers = (char **)descriptor;
  int64_t *fields = (int64_t *)(pointers + 2);
  pointers[0] = data;
  pointers[1] = data;
  fields[0] = 0;
  for (int axis = 0; axis < ndim; ++axis) {
    if (strides[axis] % itemsize != 0) {
      PyErr_Format(PyExc_ValueError,
                   "%s() argument '%s' has a stride (%zd bytes) that is not a multiple of "
                   "its item size", function, parameter, strides[axis]);
      return -1;
    }
    fields[1 + axis] = shape[axis];
    fields[1 + ndim + axis] = strides[axis] / itemsize;
  }
  return 0;
}

/* ---- keyword arguments, and wrong argument counts: out of line, off the
   positional path */
/* The first `required` parameters have no default; the others are left
   NULL when not passed (the wrapper fills in their defaults). */
KILN_GENERAL int kiln_bind_arguments(PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames, PyObject **bound, Py_ssize_t count,
                                     Py_ssize_t required, const char *const *names,
                                     const char *function) {
  if (nargs > count) {
    PyErr_Format(PyExc_TypeError, "%s() takes %zd positional argument%s but %zd were given",
                 function, count, count == 1 ? "" : "s", nargs);
    return -1;
  }
  for (Py_ssize_t i = 0; i < count; ++i)
    bound[i] = i < nargs ? args[i] : NULL;
  if (kwnames) {
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      PyObject *key = PyTuple_GET_ITEM(kwnames, k);
      Py_ssize_t slot = -1;
      for (Py_ssize_t i = 0; i < count; ++i)
        if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
          slot = i;
          break;
        }
      if (slot < 0) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", function,
                     key);
        return -1;
      }
      if (bound[slot]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", function,
                     names[slot]);
        return -1;
      }
      bound[slot] = args[nargs + k];
    }
  }
  for (Py_ssize_t i = 0; i < required; ++i)
    if (!bound[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %zd)", function,
                   names[i], i + 1);
      return -1;
    }
  return 0;
}

/* ---- the CPU the module was compiled for

   The kernels use every instruction set extension the target CPU of the
   build has (`--target-cpu`, native by default: AVX-512 on the build
   machine). Imported on a CPU without one of them, the first kernel would
   die of SIGILL; the module's init checks first and raises ImportError
   naming what is missing. The check reads CPUID itself (no compiler
   runtime needed) and is compiled for baseline x86-64, so that it runs
   anywhere: the compiler predefines __AVX512F__ & co. for the target. */
#if defined(__x86_64__)
#include <cpuid.h>

__attribute__((target("arch=x86-64"))) static unsigned long long kiln_xgetbv(void) {
  unsigned int eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((unsigned long long)edx << 32) | eax;
}

/* The first feature the target needs that this CPU (or its OS) lacks, or
   NULL. */
__attribute__((target("arch=x86-64"), unused)) static const char *kiln_missing_cpu_feature(void) {
  unsigned int a, b, c, d;
  unsigned int c1 = 0, d1 = 0, b7 = 0, c7 = 0, c81 = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    c1 = c;
    d1 = d;
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    b7 = b;
    c7 = c;
  }
  if (__get_cpuid(0x80000001, &a, &b, &c, &d))
    c81 = c;
  /* Which of these a build reads depends on its target's extensions. */
  (void)d1;
  (void)b7;
  (void)c7;
  (void)c81;
  int osxsave = (c1 >> 27) & 1;
  unsigned long long xcr0 = osxsave ? kiln_xgetbv() : 0;
  int ymm_state = (xcr0 & 0x6) == 0x6;
  int zmm_state = (xcr0 & 0xe6) == 0xe6;
  (void)ymm_state;
  (void)zmm_state;
#ifdef __SSSE3__
  if (!((c1 >> 9) & 1)) return "ssse3";
#endif
#ifdef __SSE4_1__
  if (!((c1 >> 19) & 1)) return "sse4.1";
#endif
#ifdef __SSE4_2__
  if (!((c1 >> 20) & 1)) return "sse4.2";
#endif
#ifdef __POPCNT__
  if (!((c1 >> 23) & 1)) return "popcnt";
#endif
#ifdef __AVX__
  if (!((c1 >> 28) & 1) || !ymm_state) return "avx";
#endif
#ifdef __FMA__
  if (!((c1 >> 12) & 1)) return "fma";
#endif
#ifdef __F16C__
  if (!((c1 >> 29) & 1)) return "f16c";
#endif
#ifdef __MOVBE__
  if (!((c1 >> 22) & 1)) return "movbe";
#endif
#ifdef __AVX2__
  if (!((b7 >> 5) & 1) || !ymm_state) return "avx2";
#endif
#ifdef __BMI__
  if (!((b7 >> 3) & 1)) return "bmi";
#endif
#ifdef __BMI2__
  if (!((b7 >> 8) & 1)) return "bmi2";
#endif
#ifdef __LZCNT__
  if (!((c81 >> 5) & 1)) return "lzcnt";
#endif
#ifdef __AVX512F__
  if (!((b7 >> 16) & 1) || !zmm_state) return "avx512f";
#endif
#ifdef __AVX512DQ__
  if (!((b7 >> 17) & 1)) return "avx512dq";
#endif
#ifdef __AVX512CD__
  if (!((b7 >> 28) & 1)) return "avx512cd";
#endif
#ifdef __AVX512BW__
  if (!((b7 >> 30) & 1)) return "avx512bw";
#endif
#ifdef __AVX512VL__
  if (!((b7 >> 31) & 1)) return "avx512vl";
#endif
  return NULL;
}
#else
static const char *kiln_missing_cpu_feature(void) { return NULL; }
#endif

/* ---- arrays returned by compiled code: a buffer owner that frees the
   kernel's allocation when numpy's array (and every view of it) is gone.
   An array the function returned that is (a view of) one of its array
   arguments owns nothing: it keeps the argument alive instead (`base`),
   and is read-only when the argument is. */
typedef struct {
  PyObject_HEAD
  void *allocated;
  PyObject *base;
  int readonly;
  /* A view of an argument holds a buffer export of it, so that the
     argument's memory cannot move while the view lives (an array.array
     refuses to resize, as it does under a memoryview). */
  Py_buffer export;
  char *data;
  int ndim;
  Py_ssize_t itemsize;
  const char *format;
  Py_ssize_t shape[KILN_MAX_NDIM];
  Py_ssize_t strides[KILN_MAX_NDIM];
} kiln_owner;

static void kiln_owner_dealloc(PyObject *self) {
  kiln_owner *owner = (kiln_owner *)self;
  free(owner->allocated);
  if (owner->export.obj)
    PyBuffer_Release(&owner->export);
  Py_XDECREF(owner->base);
  Py_TYPE(self)->tp_free(self);
}

static int kiln_owner_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  kiln_owner *owner = (kiln_owner *)self;
  Py_ssize_t count = 1;
  for (int axis = 0; axis < owner->ndim; ++axis)
    count *= owner->shape[axis];
  if (!(flags & PyBUF_STRIDES)) {
    PyErr_SetString(PyExc_BufferError, "Kiln arrays are exported with strides");
    return -1;
  }
  view->buf = owner->data;
  view->obj = Py_NewRef(self);
  view->len = count * owner->itemsize;
  if (owner->readonly && (flags & PyBUF_WRITABLE)) {
    PyErr_SetString(PyExc_BufferError, "the array is read-only");
    return -1;
  }
  view->readonly = owner->readonly;
  view->itemsize = owner->itemsize;
  view->format = (flags & PyBUF_FORMAT) ? (char *)owner->format : NULL;
  view->ndim = owner->ndim;
  view->shape = owner->shape;
  view->strides = owner->strides;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

static PyBufferProcs kiln_owner_buffer = {kiln_owner_getbuffer, NULL};

static PyTypeObject kiln_owner_type = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "kiln.OwnedBuffer",
  .tp_basicsize = sizeof(kiln_owner),
  .tp_dealloc = kiln_owner_dealloc,
  .tp_as_buffer = &kiln_owner_buffer,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "Memory allocated by Kiln-compiled code, freed with its last view.",
};

static PyObject *kiln_numpy_asarray;

static PyObject *kiln_array_of(void *allocated, PyObject *base, Py_buffer *export,
                               int readonly, void *data, int ndim, const int64_t *shape,
                               const int64_t *strides, Py_ssize_t itemsize,
                               const char *format) {
  kiln_owner *owner = PyObject_New(kiln_owner, &kiln_owner_type);
  if (!owner) {
    free(allocated);
    if (export && export->obj)
      PyBuffer_Release(export);
    return NULL;
  }
  owner->allocated = allocated;
  owner->base = Py_XNewRef(base);
  owner->readonly = readonly;
  owner->export.obj = NULL;
  if (export)
    owner->export = *export;
  owner->data = (char *)data;
  owner->ndim = ndim;
  owner->itemsize = itemsize;
  owner->format = format;
  for (int axis = 0; axis < ndim; ++axis) {
    owner->shape[axis] = (Py_ssize_t)shape[axis];
    owner->strides[axis] = (Py_ssize_t)strides[axis] * itemsize;
  }
  if (!kiln_numpy_asarray) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy) {
      kiln_numpy_asarray = PyObject_GetAttrString(numpy, "asarray");
      Py_DECREF(numpy);
    }
    if (!kiln_numpy_asarray) {
      Py_DECREF(owner);
      return NULL;
    }
  }
  PyObject *array = PyObject_CallOneArg(kiln_numpy_asarray, (PyObject *)owner);
  Py_DECREF(owner);
  return array;
}

/* An array the compiled function allocated: numpy owns it now. */
KILN_HELPER PyObject *kiln_owned_array(void *allocated, void *data, int ndim, const int64_t *shape,
                                  const int64_t *strides, Py_ssize_t itemsize,
                                  const char *format) {
  return kiln_array_of(allocated, NULL, NULL, 0, data, ndim, shape, strides, itemsize, format);
}

/* A returned view of an argument that was copied for the call (not
   aligned, kiln_aligned_copy): the copy is freed after the call, so the
   result gets its own array. */
KILN_HELPER PyObject *kiln_copied_array(void *data, int ndim, const int64_t *shape,
                                   const int64_t *strides, Py_ssize_t itemsize,
                                   const char *format) {
  Py_ssize_t sizes[KILN_MAX_NDIM], from[KILN_MAX_NDIM], to[KILN_MAX_NDIM];
  int64_t c_strides[KILN_MAX_NDIM];
  Py_ssize_t count = 1;
  for (int axis = ndim - 1; axis >= 0; --axis) {
    sizes[axis] = (Py_ssize_t)shape[axis];
    from[axis] = (Py_ssize_t)strides[axis] * itemsize;
    to[axis] = count * itemsize;
    c_strides[axis] = count;
    count *= sizes[axis];
  }
  char *block = (char *)malloc((size_t)(count ? count : 1) * (size_t)itemsize);
  if (!block)
    return PyErr_NoMemory();
  kiln_copy_layout(block, to, (const char *)data, from, ndim, sizes, itemsize);
  return kiln_owned_array(block, block, ndim, shape, c_strides, itemsize, format);
}

/* A returned array whose buffer is the buffer of `argument` (the function
   returned its argument or a view of it): a view sharing its memory. */
KILN_HELPER PyObject *kiln_argument_view(PyObject *argument, void *data, int ndim,
                                    const int64_t *shape, const int64_t *strides,
                                    Py_ssize_t itemsize, const char *format) {
  Py_buffer export;
  int readonly = 0;
  if (PyObject_GetBuffer(argument, &export, PyBUF_WRITABLE | PyBUF_STRIDES) < 0) {
    PyErr_Clear();
    readonly = 1;
    if (PyObject_GetBuffer(argument, &export, PyBUF_STRIDES) < 0) {
      PyErr_Clear();
      export.obj = NULL;
    }
  }
  return kiln_array_of(NULL, argument, &export, readonly, data, ndim, shape, strides, itemsize,
                       format);
}

/* ---- lists, dicts and sets: the argument of a list[...], dict[..., ...]
   or set[...] parameter is read, in one pass, into a kiln_list or
   kiln_dict (a set is a kiln_dict without values) the
   wrapper makes as kiln_abi.h asks of a caller (malloc(), refcount 1).
   The wrapper records each such argument in a table (one
   kiln_container_argument per Python object): one list or dict passed for
   several parameters becomes one native container, so the function sees
   them as one, as CPython would. After the call each container the
   function changed (KILN_LIST_MODIFIED, KILN_DICT_MODIFIED) becomes the
   contents of the caller's object, also when it raised; then the wrapper
   frees every container it made, and a returned container that is an
   argument is the caller's own object.

   A list's items, a dict's keys and its values are each of one kind:
   kiln_abi.h's kiln_item_kind (KILN_ITEM_INT, KILN_ITEM_FLOAT,
   KILN_ITEM_BOOL, KILN_ITEM_STR). One item is handled here as its 8 bits
   (`bits`): the int64_t, the double's bits, 0/1, or a kiln_str * that the
   container holds a reference to (the wrapper copies each str it reads
   into a new kiln_str, which the container then owns; every one is given
   back when the container is freed, on error paths too). */

/* ---- strings: a str argument is copied into a kiln_str (kiln_abi.h's
   layout is CPython's PEP 393 storage: one memcpy of the code points) and
   dropped after the call; strings never change, so nothing is written
   back. A returned kiln_str becomes a new Python str of the same text. */
/* A new kiln_str of str `object`'s text, not in any journal (NULL: no
   memory, with MemoryError set). */
KILN_GENERAL kiln_str *kiln_str_of_python(PyObject *object) {
  Py_ssize_t length = PyUnicode_GET_LENGTH(object);
  int kind = PyUnicode_KIND(object);
  kiln_str *str = (kiln_str *)malloc(sizeof(kiln_str) + ((size_t)length + 1) * (size_t)kind);
  if (!str) {
    PyErr_NoMemory();
    return NULL;
  }
  str->refcount = 1;
  str->length = (int64_t)length;
  str->hash = -1;
  str->journal_index = -1;
  str->kind = kind;
  str->outside_references = 0;
  memcpy(kiln_str_data(str), PyUnicode_DATA(object), (size_t)length * (size_t)kind);
  memset(kiln_str_data(str) + (size_t)length * (size_t)kind, 0, (size_t)kind);
  return str;
}

KILN_GENERAL kiln_str *kiln_get_str(PyObject *object, const char *function,
                                    const char *parameter) {
  if (!PyUnicode_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be str, not %.200s", function,
                 parameter, Py_TYPE(object)->tp_name);
    return NULL;
  }
  return kiln_str_of_python(object);
}

/* Whether str `object` has the text of `str`. */
static inline int kiln_same_text(PyObject *object, const kiln_str *str) {
  return PyUnicode_GET_LENGTH(object) == (Py_ssize_t)str->length &&
         PyUnicode_KIND(object) == str->kind &&
         memcmp(PyUnicode_DATA(object), kiln_str_data(str),
                (size_t)str->length * (size_t)str->kind) == 0;
}

/* A Python str of a kiln_str's text (NULL with the error set). */
static inline PyObject *kiln_python_str(const kiln_str *str) {
  if (!str) {
    PyErr_SetString(PyExc_SystemError, "a compiled function returned no str");
    return NULL;
  }
  return PyUnicode_FromKindAndData(str->kind, kiln_str_data(str), (Py_ssize_t)str->length);
}

/* A returned str (a new reference) as a Python str; the reference is dropped. */
KILN_GENERAL PyObject *kiln_str_result(kiln_str *result) {
  PyObject *boxed = kiln_python_str(result);
  kiln_str_drop(result);
  return boxed;
}

/* A container's reference to a str item given back (kiln_str_drop, but
   an immortal string -- a literal compiled code stored -- is not written:
   it may be in data that other threads read). */
static inline void kiln_release_str(kiln_str *str) {
  kiln_str_drop(str);   /* kiln_abi.h: also a string the running call made */
}

/* The text of a str, a kiln_str's or a Python str's (any str, a subclass's
   too): both are PEP 393's canonical storage, so equal texts have equal
   kinds and bytes whichever side holds them. */
typedef struct {
  const uint8_t *data;
  int64_t length;
  int kind;
} kiln_text;

static inline kiln_text kiln_str_text(const kiln_str *str) {
  kiln_text text = {kiln_str_data(str), str->length, str->kind};
  return text;
}

static inline kiln_text kiln_object_text(PyObject *object) {
  kiln_text text = {(const uint8_t *)PyUnicode_DATA(object),
                    (int64_t)PyUnicode_GET_LENGTH(object), (int)PyUnicode_KIND(object)};
  return text;
}

static inline int kiln_texts_equal(kiln_text a, kiln_text b) {
  return a.length == b.length && a.kind == b.kind &&
         memcmp(a.data, b.data, (size_t)a.length * (size_t)a.kind) == 0;
}

/* A hash of a text for the wrapper's key tables (not the runtime's
   kiln_str.hash, which this never reads or writes): its bytes, 8 at a
   time, and its length and kind, mixed by odd multipliers and xor-shifts. */
static inline uint64_t kiln_text_hash(kiln_text text) {
  uint64_t hash = UINT64_C(0x243F6A8885A308D3) ^
                  ((uint64_t)text.length * 4 + (uint64_t)text.kind) * UINT64_C(0x9E3779B97F4A7C15);
  size_t size = (size_t)text.length * (size_t)text.kind;
  const uint8_t *bytes = text.data;
  for (; size >= 8; size -= 8, bytes += 8) {
    uint64_t word;
    memcpy(&word, bytes, sizeof word);
    hash = (hash ^ word) * UINT64_C(0xA24BAED4963EE407);
    hash ^= hash >> 29;
  }
  if (size) {
    uint64_t word = 0;
    memcpy(&word, bytes, size);
    hash = (hash ^ word ^ ((uint64_t)size << 59)) * UINT64_C(0xA24BAED4963EE407);
  }
  hash ^= hash >> 32;
  hash *= UINT64_C(0x9FB21C651E98DF25);
  hash ^= hash >> 29;
  return hash;
}

static inline const char *kiln_item_name(int kind) {
  return kind == KILN_ITEM_FLOAT ? "float"
         : kind == KILN_ITEM_INT ? "int"
         : kind == KILN_ITEM_STR ? "str"
                                 : "bool";
}

/* `object` read by the rules of the scalar parameter of its kind (what a
   float, int or bool parameter takes) into *bits. A KILN_READ_ status. */
KILN_GENERAL int kiln_read_item(PyObject *object, int kind, uint64_t *bits) {
  int status;
  if (kind == KILN_ITEM_STR) {
    /* a new kiln_str the container holds: dropped with it */
    if (!PyUnicode_Check(object))
      return KILN_READ_WRONG_TYPE;
    kiln_str *str = kiln_str_of_python(object);
    if (!str)
      return -1;
    *bits = (uint64_t)(uintptr_t)str;
    return KILN_READ_OK;
  }
  if (kind == KILN_ITEM_FLOAT) {
    double value = 0;
    status = kiln_read_double(object, &value);
    memcpy(bits, &value, sizeof value);
  } else if (kind == KILN_ITEM_INT) {
    int64_t value = 0;
    status = kiln_read_int64(object, &value);
    *bits = (uint64_t)value;
  } else {
    bool value = false;
    status = kiln_read_bool(object, &value);
    *bits = value;
  }
  return status;
}

/* The common case read inline: an exact float, a one-digit int, True or
   False for its kind. 0 (nothing read) otherwise. */
KILN_INLINE int kiln_read_exact_item(PyObject *object, int kind, uint64_t *bits) {
  if (kind == KILN_ITEM_STR)
    return 0;   /* kiln_read_item copies the text */
  if (kind == KILN_ITEM_FLOAT) {
    if (!PyFloat_CheckExact(object))
      return 0;
    double value = PyFloat_AS_DOUBLE(object);
    memcpy(bits, &value, sizeof value);
    return 1;
  }
  if (kind == KILN_ITEM_INT) {
    int64_t value;
    if (!kiln_read_small_int(object, &value))
      return 0;
    *bits = (uint64_t)value;
    return 1;
  }
  if (object != Py_True && object != Py_False)
    return 0;
  *bits = object == Py_True;
  return 1;
}

/* Whether reading `object` runs no Python code: an exact int or float, or
   a bool (their conversions are CPython's own C). Anything else may have
   a __float__ or __index__ that changes the container being read. */
static inline int kiln_reads_without_python_code(PyObject *object) {
  return PyFloat_CheckExact(object) || PyLong_CheckExact(object) || PyBool_Check(object) ||
         PyUnicode_Check(object);
}

/* An item of kind `kind` as a new Python object. */
static inline PyObject *kiln_item_object(int kind, uint64_t bits) {
  if (kind == KILN_ITEM_OBJECT)
    return Py_NewRef((PyObject *)(uintptr_t)bits);
  if (kind == KILN_ITEM_STR)
    return kiln_python_str((const kiln_str *)(uintptr_t)bits);
  if (kind == KILN_ITEM_FLOAT) {
    double value;
    memcpy(&value, &bits, sizeof value);
    return PyFloat_FromDouble(value);
  }
  if (kind == KILN_ITEM_INT)
    return PyLong_FromLongLong((long long)(int64_t)bits);
  return PyBool_FromLong(bits != 0);
}

/* Whether `previous`, an object of the caller's container, already is the
   item `bits`: an exact float of the same bits, an exact int or a bool of
   the same value (for a float item only an int of at most 2**53, which
   converts exactly), True or False for a bool item. Such an object is
   kept by write-back, as CPython keeps an item the function left alone
   (an int in a list[float] stays an int). */
static int kiln_item_unchanged(PyObject *previous, int kind, uint64_t bits) {
  if (kind == KILN_ITEM_OBJECT)
    return previous == (PyObject *)(uintptr_t)bits;
  if (kind == KILN_ITEM_STR)
    return PyUnicode_CheckExact(previous) &&
           kiln_same_text(previous, (const kiln_str *)(uintptr_t)bits);
  if (kind == KILN_ITEM_FLOAT && PyFloat_CheckExact(previous)) {
    double was = PyFloat_AS_DOUBLE(previous);
    return memcmp(&was, &bits, sizeof was) == 0;
  }
  if (kind == KILN_ITEM_BOOL)
    return previous == (bits ? Py_True : Py_False);
  int64_t integer = 0;
  if (previous == Py_True || previous == Py_False) {
    integer = previous == Py_True;
  } else if (!kiln_read_small_int(previous, &integer)) {
    int overflow = 0;
    if (!PyLong_CheckExact(previous))
      return 0;
    integer = PyLong_AsLongLongAndOverflow(previous, &overflow);
    if (overflow)
      return 0;
  }
  if (kind == KILN_ITEM_INT)
    return (uint64_t)integer == bits;
  if (integer < -(INT64_C(1) << 53) || integer > (INT64_C(1) << 53))
    return 0;
  double was = (double)integer;
  return memcmp(&was, &bits, sizeof was) == 0;
}

/* After a reader refused `item` (a KILN_READ_ status, or -1 with the
   object's own exception set, which is kept): the error, naming the item
   by `where` (a new reference: "'xs'[3]", "'d'['x']", "'d' key 'x'";
   NULL when making it failed, whose exception then stands). -1. */
KILN_COLD int kiln_item_refused(int status, PyObject *item, int kind, const char *function,
                                PyObject *where) {
  if (!where)
    return -1;
  if (status == KILN_READ_WRONG_TYPE)
    PyErr_Format(PyExc_TypeError, "%s() argument %U must be %s, not %.200s", function, where,
                 kiln_item_name(kind), Py_TYPE(item)->tp_name);
  else if (status == KILN_READ_OUT_OF_RANGE && kind == KILN_ITEM_FLOAT)
    PyErr_Format(PyExc_OverflowError, "%s() argument %U is too large to convert to float",
                 function, where);
  else if (status == KILN_READ_OUT_OF_RANGE)
    PyErr_Format(PyExc_OverflowError, "%s() argument %U does not fit in a 64-bit integer",
                 function, where);
  Py_DECREF(where);
  return -1;
}

/* One list, dict or set argument of a call: the caller's object
   (borrowed: the call's argument vector holds it), the native container
   made of it (a list, or a dict also for a set: the other is NULL), and
   the first parameter it was passed as, whose type says what it holds. */
typedef struct {
  PyObject *object;
  kiln_list *list;
  kiln_dict *dict;
  const char *parameter;
  int kind;         /* a list's items or a dict's keys: a kiln_item_kind */
  int value_kind;   /* a dict's values (KILN_ITEM_NONE for a list or a set) */
  int shared;       /* `list` is an instance's, passed through a view of it
                       (kiln_list_view): not written back, not freed */
} kiln_container_argument;

/* What a container argument is, for kiln_find_argument's message. */
enum kiln_container { KILN_CONTAINER_LIST, KILN_CONTAINER_DICT, KILN_CONTAINER_SET };

static inline const char *kiln_container_noun(int container) {
  return container == KILN_CONTAINER_DICT ? "dict"
         : container == KILN_CONTAINER_SET ? "set"
                                           : "list";
}

/* "list[int]", "dict[int, float]", "set[bool]". */
static void kiln_container_type_name(char *buffer, size_t size, int container, int kind,
                                     int value_kind) {
  if (container == KILN_CONTAINER_DICT)
    snprintf(buffer, size, "dict[%s, %s]", kiln_item_name(kind), kiln_item_name(value_kind));
  else
    snprintf(buffer, size, "%s[%s]", kiln_container_noun(container), kiln_item_name(kind));
}

/* The entry of `arguments` (the call's containers so far) for `object`:
   its index when it was already passed for a parameter of the same type,
   -1 when it was not passed yet, -2 with TypeError set when it was passed
   for a parameter of another type. That is refused: the function would
   see one container of two types, and neither copy written back would be
   what CPython's caller sees. */
KILN_GENERAL int kiln_find_argument(PyObject *object, int container, int kind, int value_kind,
                                    const kiln_container_argument *arguments, int count,
                                    const char *function, const char *parameter) {
  for (int i = 0; i < count; ++i) {
    if (arguments[i].object != object)
      continue;
    /* A Python object is one of a list, a dict and a set. */
    if (arguments[i].kind == kind && arguments[i].value_kind == value_kind)
      return i;
    char first[32], second[32];
    kiln_container_type_name(first, sizeof first, container, arguments[i].kind,
                             arguments[i].value_kind);
    kiln_container_type_name(second, sizeof second, container, kind, value_kind);
    const char *noun = kiln_container_noun(container);
    PyErr_Format(PyExc_TypeError, "%s() arguments '%s' and '%s' are the same %s, which "
                 "cannot be both %s and %s; pass a copy (%s(%s)) as one of them",
                 function, arguments[i].parameter, parameter, noun, first, second, noun,
                 parameter);
    return -2;
  }
  return -1;
}

/* Records a container made for `parameter` in arguments[*count]. */
static void kiln_record_argument(kiln_container_argument *arguments, int *count,
                                 PyObject *object, kiln_list *list, kiln_dict *dict,
                                 const char *parameter, int kind, int value_kind) {
  kiln_container_argument *argument = &arguments[(*count)++];
  argument->object = object;
  argument->list = list;
  argument->dict = dict;
  argument->parameter = parameter;
  argument->kind = kind;
  argument->value_kind = value_kind;
  argument->shared = 0;
}

/* Whether an argument is an instance's list passed through a view: shared
   with Python, so the call keeps the GIL (another thread could change the
   list through the view meanwhile). */
static inline int kiln_any_shared(const kiln_container_argument *arguments, int count) {
  for (int i = 0; i < count; ++i)
    if (arguments[i].shared)
      return 1;
  return 0;
}

/* The caller's object of a native container the function returned, when
   that is one of the arguments (borrowed), else NULL. */
static inline PyObject *kiln_argument_object(const void *native,
                                             const kiln_container_argument *arguments,
                                             int count) {
  for (int i = 0; i < count; ++i)
    if (native && (arguments[i].list == native || arguments[i].dict == native))
      return arguments[i].object;
  return NULL;
}

/* ---- lists */

/* ---- a list an instance's field holds, as Python sees it (issue 31)

   `obj.items` of a `list[T]` field is a kiln_list_view: a live view of the
   instance's native list (the same kiln_list compiled code reads), so
   what Python does through it -- `obj.items.append(3)`, `obj.items[0] = 1`,
   `obj.items.sort()` -- the instance sees, and what compiled code does,
   the view shows. It is a MutableSequence with list's methods and
   messages; items are checked as a list[T] argument's are. Operations that
   make a new list (slicing, `+`, `*`, copy()) make a Python list.
   kiln_get_list takes a view for a list parameter as the native list
   itself: no copy, nothing to write back. */
typedef struct {
  PyObject_HEAD
  kiln_list *list;               /* one reference to it (refcount) */
  int kind;                      /* KILN_ITEM_* of the items */
  void **item_slot;              /* a list of instances: its class's slot */
  void **const *subclass_slots;  /* ... and the slots of its compiled subclasses */
  const char *item_class;        /* ... and its name */
  const char *field;             /* the field, `Queue.items`, for messages */
} kiln_list_view;

#define KILN_LIST_VIEW_NAME "kiln.list_view"

static PyTypeObject kiln_list_view_type;

/* The argument the wrapper passes for a parameter left out whose default
   is a new empty list (kt.NEW_LIST_DEFAULT: a dataclass's
   field(default_factory=list)): a private object no caller can pass. */
static PyObject *kiln_new_list_marker(void) {
  static PyObject marker = {_PyObject_EXTRA_INIT 1, &PyBaseObject_Type};
  return &marker;
}

/* A view, also one another Kiln extension made (its type is that
   extension's, with this layout and name). */
static inline int kiln_is_list_view(PyObject *object) {
  PyTypeObject *type = Py_TYPE(object);
  return type == &kiln_list_view_type ||
         (type->tp_basicsize == (Py_ssize_t)sizeof(kiln_list_view) &&
          strcmp(type->tp_name, KILN_LIST_VIEW_NAME) == 0);
}


/* kiln_abi.h: int64_t for int, double for float, one byte 0/1 for bool. */
static inline size_t kiln_list_item_size(int kind) {
  return kind == KILN_ITEM_BOOL ? sizeof(unsigned char) : sizeof(int64_t);
}

/* Item `position` of `list` as its bits. */
static inline uint64_t kiln_list_item_bits(const kiln_list *list, int kind,
                                           Py_ssize_t position) {
  if (kind == KILN_ITEM_BOOL)
    return ((const unsigned char *)list->items)[position];
  uint64_t bits;
  memcpy(&bits, (const char *)list->items + position * (Py_ssize_t)sizeof bits, sizeof bits);
  return bits;
}

/* Item `position` of `list` when it is not of the item type exactly (an
   int in a list[float], numpy's scalars, a big int, and every error): read
   by the rules of the scalar parameter of that type. Its __float__ or
   __index__ may run Python code that changes the list: the item is held
   meanwhile, and a list whose length changed is refused. */
KILN_GENERAL int kiln_read_list_item(PyObject *list, Py_ssize_t position, Py_ssize_t length,
                                     int kind, void *items, const char *function,
                                     const char *parameter) {
  PyObject *item = PyList_GET_ITEM(list, position);
  Py_INCREF(item);
  uint64_t bits = 0;
  int status = kiln_read_item(item, kind, &bits);
  if (status != KILN_READ_OK)
    kiln_item_refused(status, item, kind, function,
                      PyUnicode_FromFormat("'%s'[%zd]", parameter, position));
  Py_DECREF(item);
  if (status != KILN_READ_OK)
    return -1;
  if (kind == KILN_ITEM_BOOL)
    ((unsigned char *)items)[position] = (unsigned char)bits;
  else
    memcpy((char *)items + position * (Py_ssize_t)sizeof bits, &bits, sizeof bits);
  if (PyList_GET_SIZE(list) != length) {
    PyErr_Format(PyExc_RuntimeError, "%s() argument '%s' changed size while it was read",
                 function, parameter);
    return -1;
  }
  return 0;
}

/* The items of Python list `object` into `list` (room for them made):
   one pass, each exact float, small int or bool read inline. */
KILN_GENERAL int kiln_read_list_items(PyObject *object, kiln_list *list, int kind,
                                      const char *function, const char *parameter) {
  Py_ssize_t length = (Py_ssize_t)list->length;
  if (kind == KILN_ITEM_FLOAT) {
    double *items = (double *)list->items;
    for (Py_ssize_t i = 0; i < length; ++i) {
      PyObject *item = PyList_GET_ITEM(object, i);
      if (KILN_LIKELY(PyFloat_CheckExact(item)))
        items[i] = PyFloat_AS_DOUBLE(item);
      else if (kiln_read_list_item(object, i, length, kind, items, function, parameter) < 0)
        return -1;
    }
  } else if (kind == KILN_ITEM_INT) {
    int64_t *items = (int64_t *)list->items;
    for (Py_ssize_t i = 0; i < length; ++i)
      if (!KILN_LIKELY(kiln_read_small_int(PyList_GET_ITEM(object, i), &items[i])) &&
          kiln_read_list_item(object, i, length, kind, items, function, parameter) < 0)
        return -1;
  } else if (kind == KILN_ITEM_OBJECT) {
    /* Instances are shared, each with one more reference the list holds;
       the wrapper checks their type next (kiln_check_list_instances, in
       the C of the module's classes: kiln/native/class_runtime.py). */
    PyObject **items = (PyObject **)list->items;
    for (Py_ssize_t i = 0; i < length; ++i)
      items[i] = Py_NewRef(PyList_GET_ITEM(object, i));
  } else if (kind == KILN_ITEM_STR) {
    kiln_str **items = (kiln_str **)list->items;
    for (Py_ssize_t i = 0; i < length; ++i)
      if (kiln_read_list_item(object, i, length, kind, items, function, parameter) < 0) {
        /* the strings read so far go */
        for (Py_ssize_t k = 0; k < i; ++k)
          kiln_str_drop(items[k]);
        return -1;
      }
  } else {
    unsigned char *items = (unsigned char *)list->items;
    for (Py_ssize_t i = 0; i < length; ++i) {
      PyObject *item = PyList_GET_ITEM(object, i);
      if (KILN_LIKELY(item == Py_True || item == Py_False))
        items[i] = item == Py_True;
      else if (kiln_read_list_item(object, i, length, kind, items, function, parameter) < 0)
        return -1;
    }
  }
  return 0;
}

/* The kiln_list of the argument `object` of a list parameter whose items
   are of kind `kind`, recorded in `arguments`, or NULL with an exception
   set. A list already passed for a parameter of the same type is that
   parameter's kiln_list (kiln_find_argument). A list subclass is read as
   a list (its overridden methods are not called). */
KILN_GENERAL kiln_list *kiln_get_list(PyObject *object, int kind,
                                      kiln_container_argument *arguments, int *count,
                                      const char *function, const char *parameter) {
  if (object == kiln_new_list_marker()) {
    /* A parameter left out whose default is a new list (a dataclass's
       field(default_factory=list)): an empty one, written back nowhere. */
    kiln_list *list = (kiln_list *)malloc(sizeof *list);
    void *items = malloc(kiln_list_item_size(kind));
    if (!list || !items) {
      free(list);
      free(items);
      PyErr_NoMemory();
      return NULL;
    }
    *list = (kiln_list){.length = 0, .capacity = 1, .items = items, .refcount = 1,
                        .journal_index = -1, .item_size = (int32_t)kiln_list_item_size(kind),
                        .flags = 0, .item_kind = kind, .field_references = 0};
    kiln_record_argument(arguments, count, NULL, list, NULL, parameter, kind, 0);
    return list;
  }
  if (kiln_is_list_view(object)) {
    /* An instance's list: the function works on it, as on the caller's
       list in CPython (one more reference while the call runs). */
    kiln_list_view *view = (kiln_list_view *)object;
    if (view->kind != kind) {
      PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be list[%s], not a list[%s] "
                   "(%s)", function, parameter, kiln_item_name(kind),
                   kiln_item_name(view->kind), view->field);
      return NULL;
    }
    int known = kiln_find_argument(object, KILN_CONTAINER_LIST, kind, KILN_ITEM_NONE,
                                   arguments, *count, function, parameter);
    if (known != -1)
      return known >= 0 ? arguments[known].list : NULL;
    ++view->list->refcount;
    kiln_record_argument(arguments, count, object, view->list, NULL, parameter, kind, 0);
    arguments[*count - 1].shared = 1;
    return view->list;
  }
  if (!PyList_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be list, not %.200s", function,
                 parameter, Py_TYPE(object)->tp_name);
    return NULL;
  }
  int known = kiln_find_argument(object, KILN_CONTAINER_LIST, kind, KILN_ITEM_NONE, arguments,
                                 *count, function, parameter);
  if (known != -1)
    return known >= 0 ? arguments[known].list : NULL;
  Py_ssize_t length = PyList_GET_SIZE(object);
  /* At least one item of room: the function may then always grow the
     items with realloc(). */
  int64_t capacity = length ? (int64_t)length : 1;
  size_t item_size = kiln_list_item_size(kind);
  kiln_list *list = (kiln_list *)malloc(sizeof *list);
  void *items = malloc((size_t)capacity * item_size);
  if (!list || !items) {
    free(list);
    free(items);
    PyErr_NoMemory();
    return NULL;
  }
  list->length = (int64_t)length;
  list->capacity = capacity;
  list->items = items;
  list->refcount = 1;
  list->journal_index = -1;
  list->item_size = (int32_t)item_size;
  list->flags = 0;
  list->item_kind = kind;
  list->field_references = 0;
  if (kiln_read_list_items(object, list, kind, function, parameter) < 0) {
    free(items);
    free(list);
    return NULL;
  }
  kiln_record_argument(arguments, count, object, list, NULL, parameter, kind, 0);
  return list;
}

/* A new Python list of items [first, last) of `list`. */
KILN_GENERAL PyObject *kiln_python_list(const kiln_list *list, int kind, Py_ssize_t first,
                                        Py_ssize_t last) {
  PyObject *result = PyList_New(last - first);
  if (!result)
    return NULL;
  for (Py_ssize_t i = first; i < last; ++i) {
    PyObject *item = kiln_item_object(kind, kiln_list_item_bits(list, kind, i));
    if (!item) {
      Py_DECREF(result);
      return NULL;
    }
    PyList_SET_ITEM(result, i - first, item);
  }
  return result;
}

/* An item of the caller's list replaced by write-back: its position, and
   first its new object, then (once swapped in) its old one. */
typedef struct {
  Py_ssize_t position;
  PyObject *item;
} kiln_replaced_item;

/* Writes the contents of a list argument the function changed into the
   caller's list object (the same object, as in CPython), touching only
   what changed: an item still of the same value keeps its object
   (kiln_item_unchanged), the others get new ones, and a length that
   changed is one slice assignment at the end, so one assignment or an
   append costs little on a long list. Every new object is made before the
   list is touched, so a MemoryError while boxing leaves it as it was; the
   replaced objects are released last, so code their release runs (a
   __del__) sees the list written back. -1 with an exception set. */
KILN_GENERAL int kiln_write_back_list(const kiln_container_argument *argument) {
  PyObject *object = argument->object;
  const kiln_list *list = argument->list;
  int kind = argument->kind;
  Py_ssize_t length = (Py_ssize_t)list->length;
  Py_ssize_t previous_length = PyList_GET_SIZE(object);
  Py_ssize_t common = length < previous_length ? length : previous_length;
  PyObject *tail = NULL;
  if (length > previous_length && !(tail = kiln_python_list(list, kind, previous_length, length)))
    return -1;
  kiln_replaced_item *replaced = NULL;
  Py_ssize_t count = 0, room = 0;
  for (Py_ssize_t i = 0; i < common; ++i) {
    uint64_t bits = kiln_list_item_bits(list, kind, i);
    if (kiln_item_unchanged(PyList_GET_ITEM(object, i), kind, bits))
      continue;
    PyObject *item = kiln_item_object(kind, bits);
    if (item && count == room) {
      room = room ? 2 * room : 64;
      kiln_replaced_item *grown =
          (kiln_replaced_item *)realloc(replaced, (size_t)room * sizeof *replaced);
      if (!grown) {
        Py_DECREF(item);
        item = PyErr_NoMemory();
      } else {
        replaced = grown;
      }
    }
    if (!item) {
      for (Py_ssize_t k = 0; k < count; ++k)
        Py_DECREF(replaced[k].item);
      free(replaced);
      Py_XDECREF(tail);
      return -1;
    }
    replaced[count].position = i;
    replaced[count++].item = item;
  }
  for (Py_ssize_t k = 0; k < count; ++k) {
    PyObject *previous = PyList_GET_ITEM(object, replaced[k].position);
    PyList_SET_ITEM(object, replaced[k].position, replaced[k].item);
    replaced[k].item = previous;
  }
  int status = 0;
  if (length != previous_length)    /* appends the new tail, or cuts the list short */
    status = PyList_SetSlice(object, common, previous_length, tail);
  Py_XDECREF(tail);
  for (Py_ssize_t k = 0; k < count; ++k)
    Py_DECREF(replaced[k].item);
  free(replaced);
  return status;
}

/* The Python object of a list the function returned: the caller's own
   object when it is one of the arguments (CPython's `return xs` returns
   the caller's list), else a new Python list of its items, and the
   returned reference is dropped. */
KILN_GENERAL PyObject *kiln_list_result(kiln_list *result, int kind,
                                        const kiln_container_argument *arguments, int count) {
  PyObject *argument = kiln_argument_object(result, arguments, count);
  if (argument)
    return Py_NewRef(argument);
  if (!result) {
    PyErr_SetString(PyExc_SystemError, "a compiled function returned no list");
    return NULL;
  }
  PyObject *boxed = kiln_python_list(result, kind, 0, (Py_ssize_t)result->length);
  kiln_list_drop(result);
  return boxed;
}

/* A returned list that is not boxed (writing the arguments back failed),
   or a second reference to one already boxed (`return ys, ys`): its
   reference is dropped, unless it is an argument, which the wrapper frees. */
KILN_HELPER void kiln_discard_list_result(kiln_list *result,
                                          const kiln_container_argument *arguments, int count) {
  if (!kiln_argument_object(result, arguments, count))
    kiln_list_drop(result);
}

/* ---- list views (declared above kiln_get_list) */

static inline Py_ssize_t kiln_view_length(const kiln_list_view *view) {
  return (Py_ssize_t)view->list->length;
}

/* `item` read as an item of the view's list into `bits` (a new kiln_str,
   a new reference to an instance), or -1 with TypeError/OverflowError. */
KILN_GENERAL int kiln_view_read_item(const kiln_list_view *view, PyObject *item, uint64_t *bits) {
  if (view->kind == KILN_ITEM_OBJECT) {
    void *type = view->item_slot ? *view->item_slot : NULL;
    int accepted = (type && Py_TYPE(item) == (PyTypeObject *)type);
    for (void **const *slots = view->subclass_slots; !accepted && slots && *slots; ++slots)
      accepted = **slots && Py_TYPE(item) == (PyTypeObject *)**slots;
    if (!accepted) {
      PyErr_Format(PyExc_TypeError, "an item of %s must be %s, not %.200s", view->field,
                   view->item_class, Py_TYPE(item)->tp_name);
      return -1;
    }
    *bits = (uint64_t)(uintptr_t)Py_NewRef(item);
    return 0;
  }
  int status = kiln_read_item(item, view->kind, bits);
  if (status == KILN_READ_OK)
    return 0;
  if (status == KILN_READ_WRONG_TYPE)
    PyErr_Format(PyExc_TypeError, "an item of %s must be %s, not %.200s", view->field,
                 kiln_item_name(view->kind), Py_TYPE(item)->tp_name);
  else if (status == KILN_READ_OUT_OF_RANGE && view->kind == KILN_ITEM_FLOAT)
    PyErr_Format(PyExc_OverflowError, "an item of %s is too large to convert to float",
                 view->field);
  else if (status == KILN_READ_OUT_OF_RANGE)
    PyErr_Format(PyExc_OverflowError, "an item of %s does not fit in a 64-bit integer",
                 view->field);
  return -1;
}

/* Gives back what item bits hold (a string, an instance). */
static inline void kiln_view_drop_bits(int kind, uint64_t bits) {
  if (kind == KILN_ITEM_STR)
    kiln_release_str((kiln_str *)(uintptr_t)bits);
  else if (kind == KILN_ITEM_OBJECT)
    Py_DECREF((PyObject *)(uintptr_t)bits);
}

static inline void kiln_view_put(kiln_list *list, int kind, Py_ssize_t position, uint64_t bits) {
  if (kind == KILN_ITEM_BOOL)
    ((unsigned char *)list->items)[position] = (unsigned char)bits;
  else
    memcpy((char *)list->items + position * (Py_ssize_t)sizeof bits, &bits, sizeof bits);
}

/* Room for `needed` items (the items stay malloc()ed: compiled code grows
   them with realloc()). */
KILN_GENERAL int kiln_view_reserve(kiln_list *list, int kind, int64_t needed) {
  if (needed <= list->capacity)
    return 0;
  int64_t capacity = list->capacity ? list->capacity : 4;
  while (capacity < needed)
    capacity += capacity / 2 + 4;
  void *items = realloc(list->items, (size_t)capacity * kiln_list_item_size(kind));
  if (!items) {
    PyErr_NoMemory();
    return -1;
  }
  list->items = items;
  list->capacity = capacity;
  return 0;
}

/* Python's index of `position` (negative from the end), or -1 with
   IndexError worded as list's. */
static Py_ssize_t kiln_view_index(const kiln_list_view *view, Py_ssize_t position,
                                  const char *message) {
  Py_ssize_t length = kiln_view_length(view);
  if (position < 0)
    position += length;
  if (position < 0 || position >= length) {
    PyErr_SetString(PyExc_IndexError, message);
    return -1;
  }
  return position;
}

/* The view's items as a new Python list. */
static PyObject *kiln_view_as_list(const kiln_list_view *view) {
  return kiln_python_list(view->list, view->kind, 0, kiln_view_length(view));
}

/* The view's list gets exactly the items of `sequence` (checked first:
   on an error it is left as it was). */
KILN_GENERAL int kiln_view_assign(kiln_list_view *view, PyObject *sequence) {
  PyObject *items = PySequence_Fast(sequence, "can only assign an iterable");
  if (!items)
    return -1;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
  uint64_t *bits = (uint64_t *)malloc((size_t)(count ? count : 1) * sizeof *bits);
  if (!bits) {
    Py_DECREF(items);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < count; ++i)
    if (kiln_view_read_item(view, PySequence_Fast_GET_ITEM(items, i), &bits[i]) < 0) {
      for (Py_ssize_t k = 0; k < i; ++k)
        kiln_view_drop_bits(view->kind, bits[k]);
      free(bits);
      Py_DECREF(items);
      return -1;
    }
  Py_DECREF(items);
  kiln_list *list = view->list;
  if (kiln_view_reserve(list, view->kind, count) < 0) {
    for (Py_ssize_t k = 0; k < count; ++k)
      kiln_view_drop_bits(view->kind, bits[k]);
    free(bits);
    return -1;
  }
  /* The old items go last: an instance's dealloc may run any code. */
  Py_ssize_t old_count = kiln_view_length(view);
  uint64_t *old = (uint64_t *)malloc((size_t)(old_count ? old_count : 1) * sizeof *old);
  if (!old) {
    for (Py_ssize_t k = 0; k < count; ++k)
      kiln_view_drop_bits(view->kind, bits[k]);
    free(bits);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < old_count; ++i)
    old[i] = kiln_list_item_bits(list, view->kind, i);
  for (Py_ssize_t i = 0; i < count; ++i)
    kiln_view_put(list, view->kind, i, bits[i]);
  list->length = count;
  list->flags |= KILN_LIST_MODIFIED;
  free(bits);
  for (Py_ssize_t i = 0; i < old_count; ++i)
    kiln_view_drop_bits(view->kind, old[i]);
  free(old);
  return 0;
}

/* Runs list's method `name` on a copy of the items with `args`, then
   assigns the copy back when `writes`: sort(), and slice assignment and
   deletion, with list's own semantics and messages. */
static PyObject *kiln_view_through_list(kiln_list_view *view, const char *name, PyObject *args,
                                        PyObject *kwargs, int writes) {
  PyObject *copy = kiln_view_as_list(view);
  if (!copy)
    return NULL;
  PyObject *method = PyObject_GetAttrString(copy, name);
  PyObject *result = method ? PyObject_Call(method, args, kwargs) : NULL;
  Py_XDECREF(method);
  if (result && writes && kiln_view_assign(view, copy) < 0)
    Py_CLEAR(result);
  Py_DECREF(copy);
  return result;
}

static Py_ssize_t kiln_view_len(PyObject *self) {
  return kiln_view_length((kiln_list_view *)self);
}

static PyObject *kiln_view_item(PyObject *self, Py_ssize_t position) {
  kiln_list_view *view = (kiln_list_view *)self;
  if (position < 0 || position >= kiln_view_length(view)) {
    PyErr_SetString(PyExc_IndexError, "list index out of range");
    return NULL;
  }
  return kiln_item_object(view->kind, kiln_list_item_bits(view->list, view->kind, position));
}

static PyObject *kiln_view_subscript(PyObject *self, PyObject *key) {
  kiln_list_view *view = (kiln_list_view *)self;
  if (PyIndex_Check(key)) {
    Py_ssize_t position = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (position == -1 && PyErr_Occurred())
      return NULL;
    position = kiln_view_index(view, position, "list index out of range");
    return position < 0 ? NULL : kiln_view_item(self, position);
  }
  if (PySlice_Check(key)) {
    PyObject *copy = kiln_view_as_list(view);
    PyObject *result = copy ? PyObject_GetItem(copy, key) : NULL;
    Py_XDECREF(copy);
    return result;
  }
  PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s",
               Py_TYPE(key)->tp_name);
  return NULL;
}

/* Removes item `position` (in range). */
static void kiln_view_remove_at(kiln_list_view *view, Py_ssize_t position) {
  kiln_list *list = view->list;
  uint64_t old = kiln_list_item_bits(list, view->kind, position);
  size_t size = kiln_list_item_size(view->kind);
  memmove((char *)list->items + (size_t)position * size,
          (char *)list->items + (size_t)(position + 1) * size,
          (size_t)(list->length - position - 1) * size);
  --list->length;
  list->flags |= KILN_LIST_MODIFIED;
  kiln_view_drop_bits(view->kind, old);
}

static int kiln_view_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  kiln_list_view *view = (kiln_list_view *)self;
  if (PyIndex_Check(key)) {
    Py_ssize_t position = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (position == -1 && PyErr_Occurred())
      return -1;
    position = kiln_view_index(view, position, value ? "list assignment index out of range"
                                                     : "list assignment index out of range");
    if (position < 0)
      return -1;
    if (!value) {
      kiln_view_remove_at(view, position);
      return 0;
    }
    uint64_t bits;
    if (kiln_view_read_item(view, value, &bits) < 0)
      return -1;
    uint64_t old = kiln_list_item_bits(view->list, view->kind, position);
    kiln_view_put(view->list, view->kind, position, bits);
    view->list->flags |= KILN_LIST_MODIFIED;
    kiln_view_drop_bits(view->kind, old);
    return 0;
  }
  if (PySlice_Check(key)) {
    PyObject *copy = kiln_view_as_list(view);
    if (!copy)
      return -1;
    int status = value ? PyObject_SetItem(copy, key, value) : PyObject_DelItem(copy, key);
    if (status == 0)
      status = kiln_view_assign(view, copy);
    Py_DECREF(copy);
    return status;
  }
  PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s",
               Py_TYPE(key)->tp_name);
  return -1;
}

/* The position of the first item equal to `value` (==, as list's), -1 when
   none, -2 with an exception. */
static Py_ssize_t kiln_view_find(kiln_list_view *view, PyObject *value, Py_ssize_t start,
                                 Py_ssize_t stop) {
  for (Py_ssize_t i = start; i < stop && i < kiln_view_length(view); ++i) {
    PyObject *item = kiln_view_item((PyObject *)view, i);
    if (!item)
      return -2;
    int equal = PyObject_RichCompareBool(item, value, Py_EQ);
    Py_DECREF(item);
    if (equal < 0)
      return -2;
    if (equal)
      return i;
  }
  return -1;
}

static int kiln_view_contains(PyObject *self, PyObject *value) {
  Py_ssize_t found = kiln_view_find((kiln_list_view *)self, value, 0, PY_SSIZE_T_MAX);
  return found == -2 ? -1 : found >= 0;
}

/* Inserts `value` before `position` (clamped as list.insert clamps). */
static int kiln_view_insert_at(kiln_list_view *view, Py_ssize_t position, PyObject *value) {
  uint64_t bits;
  if (kiln_view_read_item(view, value, &bits) < 0)
    return -1;
  kiln_list *list = view->list;
  Py_ssize_t length = kiln_view_length(view);
  if (kiln_view_reserve(list, view->kind, length + 1) < 0) {
    kiln_view_drop_bits(view->kind, bits);
    return -1;
  }
  if (position < 0)
    position = position + length < 0 ? 0 : position + length;
  if (position > length)
    position = length;
  size_t size = kiln_list_item_size(view->kind);
  memmove((char *)list->items + (size_t)(position + 1) * size,
          (char *)list->items + (size_t)position * size, (size_t)(length - position) * size);
  kiln_view_put(list, view->kind, position, bits);
  ++list->length;
  list->flags |= KILN_LIST_MODIFIED;
  return 0;
}

static PyObject *kiln_view_append(PyObject *self, PyObject *value) {
  kiln_list_view *view = (kiln_list_view *)self;
  if (kiln_view_insert_at(view, kiln_view_length(view), value) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyObject *kiln_view_insert(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "insert expected 2 arguments, got %zd", nargs);
    return NULL;
  }
  Py_ssize_t position = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
  if (position == -1 && PyErr_Occurred())
    return NULL;
  if (kiln_view_insert_at((kiln_list_view *)self, position, args[1]) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyObject *kiln_view_extend(PyObject *self, PyObject *iterable) {
  kiln_list_view *view = (kiln_list_view *)self;
  /* Read whole first (`v.extend(v)` doubles, as for a list). */
  PyObject *items = PySequence_List(iterable);
  if (!items)
    return NULL;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); ++i)
    if (kiln_view_insert_at(view, kiln_view_length(view), PyList_GET_ITEM(items, i)) < 0) {
      Py_DECREF(items);
      return NULL;
    }
  Py_DECREF(items);
  Py_RETURN_NONE;
}

static PyObject *kiln_view_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  kiln_list_view *view = (kiln_list_view *)self;
  if (nargs > 1) {
    PyErr_Format(PyExc_TypeError, "pop expected at most 1 argument, got %zd", nargs);
    return NULL;
  }
  if (kiln_view_length(view) == 0) {
    PyErr_SetString(PyExc_IndexError, "pop from empty list");
    return NULL;
  }
  Py_ssize_t position = -1;
  if (nargs == 1) {
    position = PyNumber_AsSsize_t(args[0], PyExc_OverflowError);
    if (position == -1 && PyErr_Occurred())
      return NULL;
  }
  position = kiln_view_index(view, position, "pop index out of range");
  if (position < 0)
    return NULL;
  PyObject *item = kiln_view_item(self, position);
  if (item)
    kiln_view_remove_at(view, position);
  return item;
}

static PyObject *kiln_view_remove(PyObject *self, PyObject *value) {
  kiln_list_view *view = (kiln_list_view *)self;
  Py_ssize_t found = kiln_view_find(view, value, 0, PY_SSIZE_T_MAX);
  if (found == -2)
    return NULL;
  if (found == -1) {
    PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    return NULL;
  }
  kiln_view_remove_at(view, found);
  Py_RETURN_NONE;
}

static PyObject *kiln_view_clear(PyObject *self, PyObject *unused) {
  (void)unused;
  PyObject *empty = PyTuple_New(0);
  int status = empty ? kiln_view_assign((kiln_list_view *)self, empty) : -1;
  Py_XDECREF(empty);
  if (status < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyObject *kiln_view_copy(PyObject *self, PyObject *unused) {
  (void)unused;
  return kiln_view_as_list((kiln_list_view *)self);
}

/* index, count, reverse and sort: list's own, on a copy (sort and
   reverse then assigned back). */
static PyObject *kiln_view_index_method(PyObject *self, PyObject *args) {
  return kiln_view_through_list((kiln_list_view *)self, "index", args, NULL, 0);
}

static PyObject *kiln_view_count(PyObject *self, PyObject *value) {
  PyObject *args = PyTuple_Pack(1, value);
  PyObject *result =
      args ? kiln_view_through_list((kiln_list_view *)self, "count", args, NULL, 0) : NULL;
  Py_XDECREF(args);
  return result;
}

static PyObject *kiln_view_reverse(PyObject *self, PyObject *unused) {
  (void)unused;
  PyObject *args = PyTuple_New(0);
  PyObject *result =
      args ? kiln_view_through_list((kiln_list_view *)self, "reverse", args, NULL, 1) : NULL;
  Py_XDECREF(args);
  return result;
}

static PyObject *kiln_view_sort(PyObject *self, PyObject *args, PyObject *kwargs) {
  return kiln_view_through_list((kiln_list_view *)self, "sort", args, kwargs, 1);
}

/* pickle and copy.deepcopy see a list (copy.copy of the instance shares
   the view's list: __reduce__ of the instance hands over the view). */
static PyObject *kiln_view_reduce(PyObject *self, PyObject *unused) {
  (void)unused;
  PyObject *copy = kiln_view_as_list((kiln_list_view *)self);
  return copy ? Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, copy) : NULL;
}

static PyObject *kiln_view_repr(PyObject *self) {
  PyObject *copy = kiln_view_as_list((kiln_list_view *)self);
  PyObject *text = copy ? PyObject_Repr(copy) : NULL;
  Py_XDECREF(copy);
  return text;
}

/* Compared as a list with lists and views (another object: NotImplemented). */
static PyObject *kiln_view_richcompare(PyObject *self, PyObject *other, int op) {
  if (!PyList_Check(other) && !kiln_is_list_view(other))
    Py_RETURN_NOTIMPLEMENTED;
  PyObject *mine = kiln_view_as_list((kiln_list_view *)self);
  PyObject *theirs = !mine ? NULL
                     : PyList_Check(other) ? Py_NewRef(other)
                                           : kiln_view_as_list((kiln_list_view *)other);
  PyObject *result = theirs ? PyObject_RichCompare(mine, theirs, op) : NULL;
  Py_XDECREF(mine);
  Py_XDECREF(theirs);
  return result;
}

/* `v + x`, `v * n`: new Python lists, as for a list. */
static PyObject *kiln_view_concat(PyObject *self, PyObject *other) {
  PyObject *mine = kiln_view_as_list((kiln_list_view *)self);
  PyObject *theirs = !mine ? NULL
                     : kiln_is_list_view(other) ? kiln_view_as_list((kiln_list_view *)other)
                                                : Py_NewRef(other);
  PyObject *result = theirs ? PySequence_Concat(mine, theirs) : NULL;
  Py_XDECREF(mine);
  Py_XDECREF(theirs);
  return result;
}

/* `x + v` with x a list (or v + x): list's concatenation of the items,
   through the number protocol, which Python tries on the right operand
   too (a list's own `+` takes only lists). */
static PyObject *kiln_view_add(PyObject *left, PyObject *right) {
  PyObject *a = kiln_is_list_view(left) ? kiln_view_as_list((kiln_list_view *)left)
                                        : Py_NewRef(left);
  PyObject *b = !a ? NULL
                : kiln_is_list_view(right) ? kiln_view_as_list((kiln_list_view *)right)
                                           : Py_NewRef(right);
  PyObject *result = NULL;
  if (b && !PyList_Check(a))
    result = Py_NewRef(Py_NotImplemented);
  else if (b)
    result = PySequence_Concat(a, b);
  Py_XDECREF(a);
  Py_XDECREF(b);
  return result;
}

/* `v *= n`: the items repeated in place, as list's. */
static PyObject *kiln_view_inplace_repeat(PyObject *self, Py_ssize_t count) {
  PyObject *mine = kiln_view_as_list((kiln_list_view *)self);
  PyObject *repeated = mine ? PySequence_Repeat(mine, count) : NULL;
  int status = repeated ? kiln_view_assign((kiln_list_view *)self, repeated) : -1;
  Py_XDECREF(mine);
  Py_XDECREF(repeated);
  return status < 0 ? NULL : Py_NewRef(self);
}

static PyObject *kiln_view_repeat(PyObject *self, Py_ssize_t count) {
  PyObject *mine = kiln_view_as_list((kiln_list_view *)self);
  PyObject *result = mine ? PySequence_Repeat(mine, count) : NULL;
  Py_XDECREF(mine);
  return result;
}

static PyObject *kiln_view_inplace_concat(PyObject *self, PyObject *other) {
  PyObject *done = kiln_view_extend(self, other);
  if (!done)
    return NULL;
  Py_DECREF(done);
  return Py_NewRef(self);
}

static void kiln_view_dealloc(PyObject *self) {
  kiln_list_view *view = (kiln_list_view *)self;
  kiln_list *list = view->list;
  Py_TYPE(self)->tp_free(self);
  kiln_list_drop(list);
}

static PySequenceMethods kiln_view_sequence = {
    .sq_length = kiln_view_len,
    .sq_concat = kiln_view_concat,
    .sq_repeat = kiln_view_repeat,
    .sq_item = kiln_view_item,
    .sq_contains = kiln_view_contains,
    .sq_inplace_concat = kiln_view_inplace_concat,
    .sq_inplace_repeat = kiln_view_inplace_repeat,
};

static PyNumberMethods kiln_view_number = {
    .nb_add = kiln_view_add,
    .nb_inplace_add = kiln_view_inplace_concat,   /* `v += x` extends v, as list's */
};

static PyMappingMethods kiln_view_mapping = {
    .mp_length = kiln_view_len,
    .mp_subscript = kiln_view_subscript,
    .mp_ass_subscript = kiln_view_ass_subscript,
};

static PyMethodDef kiln_view_methods[] = {
    {"append", kiln_view_append, METH_O, "Append object to the end of the list."},
    {"insert", (PyCFunction)(void (*)(void))kiln_view_insert, METH_FASTCALL,
     "Insert object before index."},
    {"extend", kiln_view_extend, METH_O, "Extend list by appending elements from the iterable."},
    {"pop", (PyCFunction)(void (*)(void))kiln_view_pop, METH_FASTCALL,
     "Remove and return item at index (default last)."},
    {"remove", kiln_view_remove, METH_O, "Remove first occurrence of value."},
    {"clear", kiln_view_clear, METH_NOARGS, "Remove all items from list."},
    {"copy", kiln_view_copy, METH_NOARGS, "Return a shallow copy of the list (a Python list)."},
    {"index", kiln_view_index_method, METH_VARARGS, "Return first index of value."},
    {"count", kiln_view_count, METH_O, "Return number of occurrences of value."},
    {"reverse", kiln_view_reverse, METH_NOARGS, "Reverse *IN PLACE*."},
    {"sort", (PyCFunction)(void (*)(void))kiln_view_sort, METH_VARARGS | METH_KEYWORDS,
     "Sort the list in ascending order and return None."},
    {"__reduce__", kiln_view_reduce, METH_NOARGS, "Pickled as a list of the items."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject kiln_list_view_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = KILN_LIST_VIEW_NAME,
    .tp_basicsize = sizeof(kiln_list_view),
    .tp_dealloc = kiln_view_dealloc,
    .tp_repr = kiln_view_repr,
    .tp_as_number = &kiln_view_number,
    .tp_as_sequence = &kiln_view_sequence,
    .tp_as_mapping = &kiln_view_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "A list an instance of a compiled class holds, seen from Python: changes "
              "through it are the instance's.",
    .tp_richcompare = kiln_view_richcompare,
    .tp_methods = kiln_view_methods,
};

/* A new view of `list` (one more reference to it); `field` names it in
   messages ("attribute 'items' of 'Queue'"). The type is readied, and
   registered as a collections.abc.MutableSequence, on first use. */
KILN_GENERAL PyObject *kiln_list_view_new(kiln_list *list, int kind, void **item_slot,
                                          void **const *subclass_slots, const char *item_class,
                                          const char *field) {
  static int ready;
  if (!ready) {
    if (PyType_Ready(&kiln_list_view_type) < 0)
      return NULL;
    PyObject *abc = PyImport_ImportModule("collections.abc");
    PyObject *sequence = abc ? PyObject_GetAttrString(abc, "MutableSequence") : NULL;
    PyObject *done = sequence ? PyObject_CallMethod(sequence, "register", "O",
                                                    (PyObject *)&kiln_list_view_type)
                              : NULL;
    Py_XDECREF(done);
    Py_XDECREF(sequence);
    Py_XDECREF(abc);
    PyErr_Clear();
    ready = 1;
  }
  kiln_list_view *view = PyObject_New(kiln_list_view, &kiln_list_view_type);
  if (!view)
    return NULL;
  ++list->refcount;
  view->list = list;
  view->kind = kind;
  view->item_slot = item_slot;
  view->subclass_slots = subclass_slots;
  view->item_class = item_class;
  view->field = field;
  return (PyObject *)view;
}

/* ---- dicts: a dict[K, V] argument (K and V int, float, bool or str) is
   read with PyDict_Next into a kiln_dict (kiln_abi.h): its entries in the
   dict's order, keys and values by the scalar rules of their types (a str
   or a str subclass as a new kiln_str of its text, which the kiln_dict
   holds), the lookup table left for the runtime to build. */

/* A kiln_dict as kiln_abi.h asks a caller to make one, with room for
   `capacity` entries (at least 1, so the function can always grow it with
   realloc()) and none used (a set's: value_kind KILN_ITEM_NONE, no
   values); NULL with MemoryError set. */
KILN_GENERAL kiln_dict *kiln_new_dict(Py_ssize_t capacity, int key_kind, int value_kind) {
  if (capacity < 1)
    capacity = 1;
  kiln_dict *dict = (kiln_dict *)calloc(1, sizeof *dict);
  uint64_t *keys = (uint64_t *)malloc((size_t)capacity * sizeof *keys);
  uint64_t *values = value_kind == KILN_ITEM_NONE
                         ? NULL
                         : (uint64_t *)malloc((size_t)capacity * sizeof *values);
  uint8_t *live = (uint8_t *)malloc((size_t)capacity);
  if (!dict || !keys || (!values && value_kind != KILN_ITEM_NONE) || !live) {
    free(dict);
    free(keys);
    free(values);
    free(live);
    PyErr_NoMemory();
    return NULL;
  }
  dict->capacity = (int64_t)capacity;
  dict->keys = keys;
  dict->values = values;
  dict->live = live;
  dict->hashes = NULL;
  dict->index = NULL;
  dict->index_mask = 0;
  dict->refcount = 1;
  dict->journal_index = -1;
  dict->key_kind = key_kind;
  dict->value_kind = value_kind;
  return dict;
}

/* The references a dict of str holds, to the keys and values of its live
   entries among the first `used`, given back. */
static void kiln_release_dict_items(kiln_dict *dict) {
  int str_keys = dict->key_kind == KILN_ITEM_STR;
  int str_values = dict->values && dict->value_kind == KILN_ITEM_STR;
  if (!str_keys && !str_values)
    return;
  for (int64_t slot = 0; slot < dict->used; ++slot) {
    if (!dict->live[slot])
      continue;
    if (str_keys)
      kiln_release_str((kiln_str *)(uintptr_t)dict->keys[slot]);
    if (str_values)
      kiln_release_str((kiln_str *)(uintptr_t)dict->values[slot]);
  }
}

/* Frees a dict the wrapper made, whatever its refcount, and gives back
   the references it holds (its live entries among the first `used`: a
   reader that fails sets `used` to the entries it read). */
static inline void kiln_free_dict(kiln_dict *dict) {
  if (!dict)
    return;
  kiln_release_dict_items(dict);
  free(dict->keys);
  free(dict->values);
  free(dict->live);
  free(dict->hashes);
  free(dict->index);
  free(dict);
}

/* kiln_dict_drop (kiln_abi.h), giving back a dict of str's references to
   its keys and values, which kiln_abi.h's does not: a dict or set a
   function returned. */
static inline void kiln_drop_dict(kiln_dict *dict) {
  if (dict && --dict->refcount == 0)
    kiln_free_dict(dict);
}

/* A key as compared for equality: 0.0 for -0.0 (one key in Python); a
   str key compares by its text (kiln_key_table_find). */
static inline uint64_t kiln_key_identity(int kind, uint64_t bits) {
  return kind == KILN_ITEM_FLOAT && bits == UINT64_C(0x8000000000000000) ? 0 : bits;
}

/* A float NaN equals no key, itself included (as the runtime's lookups
   compare with ==): it never matches. */
static inline int kiln_key_matches_nothing(int kind, uint64_t bits) {
  return kind == KILN_ITEM_FLOAT && (bits & UINT64_C(0x7fffffffffffffff)) >
                                        UINT64_C(0x7ff0000000000000);
}

/* A hash set of positions in an array of keys, by the keys' values: what
   finds keys that became one in conversion, and matches the caller's
   entries to the function's at write-back. Open addressing; slots hold
   position + 1 (0 is empty). Str keys are hashed and compared by their
   text: the array holds kiln_str pointers, or (`objects`) the caller's
   Python str objects, borrowed. */
typedef struct {
  int64_t *slots;
  uint64_t mask;
  int objects;
} kiln_key_table;

/* Room for `count` keys; -1 with MemoryError set. */
static int kiln_key_table_init(kiln_key_table *table, Py_ssize_t count) {
  size_t size = 8;
  while (size < 2 * (size_t)count)
    size *= 2;
  table->slots = (int64_t *)calloc(size, sizeof *table->slots);
  table->mask = size - 1;
  table->objects = 0;
  if (!table->slots) {
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

/* The text of a str key of the array a key table indexes. */
static inline kiln_text kiln_key_table_text(const kiln_key_table *table, uint64_t bits) {
  return table->objects ? kiln_object_text((PyObject *)(uintptr_t)bits)
                        : kiln_str_text((const kiln_str *)(uintptr_t)bits);
}

/* The position in `keys` (the array the table indexes) of a key equal to
   `bits`, or -1; when there is none and `position` is not -1, `position`
   (whose key is `bits`) is added. `bits` is a key of the array's form
   when `position` is not -1, else a native key (a kiln_str * for str). A
   key that matches nothing is neither found nor added. */
static int64_t kiln_key_table_find(kiln_key_table *table, const uint64_t *keys, int kind,
                                   uint64_t bits, int64_t position) {
  if (kiln_key_matches_nothing(kind, bits))
    return -1;
  uint64_t identity = 0, hash;
  kiln_text text = {NULL, 0, 0};
  if (kind == KILN_ITEM_STR) {
    text = position != -1 ? kiln_key_table_text(table, bits)
                          : kiln_str_text((const kiln_str *)(uintptr_t)bits);
    hash = kiln_text_hash(text);
  } else {
    identity = kiln_key_identity(kind, bits);
    hash = identity * UINT64_C(0x9E3779B97F4A7C15);
  }
  for (uint64_t slot = hash >> 17;; ++slot) {
    int64_t *entry = &table->slots[slot & table->mask];
    if (*entry == 0) {
      if (position != -1)
        *entry = position + 1;
      return -1;
    }
    uint64_t other = keys[*entry - 1];
    if (kind == KILN_ITEM_STR ? kiln_texts_equal(kiln_key_table_text(table, other), text)
                              : kiln_key_identity(kind, other) == identity)
      return *entry - 1;
  }
}

/* Whether converting `key` to `bits` kept it apart from every other key of
   its dict. Python's keys are distinct, and converting an exact float, an
   int to int64, a bool or an exact str keeps them so (an int and a float
   of one value are one Python key already); an int beyond 2**53 rounded
   to a float, an object's own __index__ or __float__, or a str subclass
   with its own __eq__ (two keys of one text), may not. */
static inline int kiln_key_stays_distinct(PyObject *key, int kind, uint64_t bits) {
  if (kind == KILN_ITEM_STR)
    return PyUnicode_CheckExact(key);
  if (PyBool_Check(key))
    return 1;
  if (kind == KILN_ITEM_FLOAT) {
    if (PyFloat_CheckExact(key))
      return 1;
    double value;
    memcpy(&value, &bits, sizeof value);
    /* below 2**53 in magnitude after rounding: converted exactly */
    return PyLong_CheckExact(key) && value > -9007199254740992.0 &&
           value < 9007199254740992.0;
  }
  return kind == KILN_ITEM_INT && PyLong_CheckExact(key);
}

/* Entry `position` of the dict being read: its key and value into the
   kiln_dict, or -1 with the error naming the parameter and the key (and
   nothing kept: a str key read before its value was refused is given
   back). */
static int kiln_read_dict_entry(PyObject *key, PyObject *value, kiln_dict *dict,
                                Py_ssize_t position, const char *function,
                                const char *parameter) {
  int status = kiln_read_item(key, dict->key_kind, &dict->keys[position]);
  if (status != KILN_READ_OK)
    return kiln_item_refused(status, key, dict->key_kind, function,
                             PyUnicode_FromFormat("'%s' key %R", parameter, key));
  status = kiln_read_item(value, dict->value_kind, &dict->values[position]);
  if (status != KILN_READ_OK) {
    if (dict->key_kind == KILN_ITEM_STR)
      kiln_release_str((kiln_str *)(uintptr_t)dict->keys[position]);
    return kiln_item_refused(status, value, dict->value_kind, function,
                             PyUnicode_FromFormat("'%s'[%R]", parameter, key));
  }
  return 0;
}

/* The first `count` entries of a dict being read are read: live, and
   what kiln_free_dict gives back if the reading then fails. */
static inline void kiln_dict_entries_read(kiln_dict *dict, Py_ssize_t count) {
  dict->length = dict->used = (int64_t)count;
  memset(dict->live, 1, (size_t)count);
}

/* Refuses a dict two of whose keys (a set two of whose elements)
   converted to one (kiln_abi.h: a kiln_dict's keys are distinct). -1 with
   ValueError set, 0 if none. */
static int kiln_check_distinct_keys(const kiln_dict *dict, const char *function,
                                    const char *parameter) {
  kiln_key_table table;
  if (kiln_key_table_init(&table, (Py_ssize_t)dict->used) < 0)
    return -1;
  int status = 0;
  for (int64_t i = 0; i < dict->used && status == 0; ++i) {
    if (kiln_key_table_find(&table, dict->keys, dict->key_kind, dict->keys[i], i) < 0)
      continue;
    PyObject *key = kiln_item_object(dict->key_kind, dict->keys[i]);
    if (key)
      PyErr_Format(PyExc_ValueError, "%s() argument '%s' has two %s that convert to the "
                   "same %s, %R", function, parameter,
                   dict->value_kind == KILN_ITEM_NONE ? "elements" : "keys",
                   kiln_item_name(dict->key_kind), key);
    Py_XDECREF(key);
    status = -1;
  }
  free(table.slots);
  return status;
}

/* The entries of Python dict `object` into `dict` (room for them made), in
   one pass of PyDict_Next, the common keys and values read inline. A key
   or value that may run Python code when read (its own __index__ or
   __float__) could change the dict under PyDict_Next: from the first such
   entry on, the rest are read from a snapshot of the items, and a dict
   whose size changed meanwhile is refused, as CPython's iteration would.
   -1 with an exception set: `used` then counts the entries read, which
   kiln_free_dict gives back. */
KILN_GENERAL int kiln_read_dict_entries(PyObject *object, kiln_dict *dict,
                                        const char *function, const char *parameter) {
  Py_ssize_t length = PyDict_GET_SIZE(object);
  Py_ssize_t next = 0, position = 0;
  PyObject *key, *value;
  int key_kind = dict->key_kind, value_kind = dict->value_kind;
  int check_keys = 0;
  while (position < length && PyDict_Next(object, &next, &key, &value)) {
    if (KILN_LIKELY(kiln_read_exact_item(key, key_kind, &dict->keys[position]) &&
                    kiln_read_exact_item(value, value_kind, &dict->values[position]))) {
      ++position;
      continue;
    }
    if (!kiln_reads_without_python_code(key) || !kiln_reads_without_python_code(value))
      break;
    if (kiln_read_dict_entry(key, value, dict, position, function, parameter) < 0) {
      kiln_dict_entries_read(dict, position);
      return -1;
    }
    check_keys |= !kiln_key_stays_distinct(key, key_kind, dict->keys[position]);
    ++position;
  }
  if (position < length) {
    PyObject *items = PyDict_Items(object);   /* the same order: nothing ran yet */
    if (!items) {
      kiln_dict_entries_read(dict, position);
      return -1;
    }
    for (; position < length; ++position) {
      PyObject *pair = PyList_GET_ITEM(items, position);
      key = PyTuple_GET_ITEM(pair, 0);
      value = PyTuple_GET_ITEM(pair, 1);
      if (kiln_read_dict_entry(key, value, dict, position, function, parameter) < 0) {
        Py_DECREF(items);
        kiln_dict_entries_read(dict, position);
        return -1;
      }
      check_keys |= !kiln_key_stays_distinct(key, key_kind, dict->keys[position]);
    }
    Py_DECREF(items);
    if (PyDict_GET_SIZE(object) != length) {
      kiln_dict_entries_read(dict, length);
      PyErr_Format(PyExc_RuntimeError, "%s() argument '%s' changed size while it was read",
                   function, parameter);
      return -1;
    }
  }
  kiln_dict_entries_read(dict, length);
  return check_keys ? kiln_check_distinct_keys(dict, function, parameter) : 0;
}

/* The kiln_dict of the argument `object` of a dict parameter (keys of kind
   `key_kind`, values of `value_kind`), recorded in `arguments`, or NULL
   with an exception set. A dict already passed for a parameter of the
   same type is that parameter's kiln_dict (kiln_find_argument). A dict
   subclass is read as a dict (its overridden methods are not called). */
KILN_GENERAL kiln_dict *kiln_get_dict(PyObject *object, int key_kind, int value_kind,
                                      kiln_container_argument *arguments, int *count,
                                      const char *function, const char *parameter) {
  if (!PyDict_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be dict, not %.200s", function,
                 parameter, Py_TYPE(object)->tp_name);
    return NULL;
  }
  if (PyODict_Check(object)) {
    /* An OrderedDict keeps its own order beside the dict's: read and
       written back as a dict, it would lose it. */
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be dict, not %.200s (pass "
                 "dict(%s))", function, parameter, Py_TYPE(object)->tp_name, parameter);
    return NULL;
  }
  int known = kiln_find_argument(object, KILN_CONTAINER_DICT, key_kind, value_kind, arguments,
                                 *count, function, parameter);
  if (known != -1)
    return known >= 0 ? arguments[known].dict : NULL;
  kiln_dict *dict = kiln_new_dict(PyDict_GET_SIZE(object), key_kind, value_kind);
  if (!dict)
    return NULL;
  if (kiln_read_dict_entries(object, dict, function, parameter) < 0) {
    kiln_free_dict(dict);
    return NULL;
  }
  kiln_record_argument(arguments, count, object, NULL, dict, parameter, key_kind, value_kind);
  return dict;
}

/* A new Python dict of the live entries of `dict`, in its order. */
KILN_GENERAL PyObject *kiln_python_dict(const kiln_dict *dict) {
#if PY_VERSION_HEX < 0x030D0000
  /* Sized once for all the entries (private in 3.13, where it is not
     exported). */
  PyObject *result = _PyDict_NewPresized((Py_ssize_t)dict->length);
#else
  PyObject *result = PyDict_New();
#endif
  if (!result)
    return NULL;
  for (int64_t i = 0; i < dict->used; ++i) {
    if (!dict->live[i])
      continue;
    PyObject *key = kiln_item_object(dict->key_kind, dict->keys[i]);
    PyObject *value = key ? kiln_item_object(dict->value_kind, dict->values[i]) : NULL;
    int status = value ? PyDict_SetItem(result, key, value) : -1;
    Py_XDECREF(key);
    Py_XDECREF(value);
    if (status < 0) {
      Py_DECREF(result);
      return NULL;
    }
  }
  return result;
}

/* Writes the contents of a dict argument the function changed into the
   caller's dict object (the same object, as in CPython): its keys, values
   and order become the kiln_dict's. A key of the caller's that is still a
   key keeps its object, and so does a value the function did not change
   (kiln_item_unchanged), as in CPython. When the caller's entries are
   still the first ones, in order (the function assigned values and added
   keys, deleted none), only the changed values and the new entries are
   stored; otherwise the dict is cleared and refilled in the function's
   order (CPython's order is insertion order: a key deleted and added
   again is last). Every new object is made before the dict is touched, so
   a MemoryError while boxing leaves it as it was, and the caller's old
   objects are released last. -1 with an exception set. */
KILN_GENERAL int kiln_write_back_dict(const kiln_container_argument *argument) {
  PyObject *object = argument->object;
  const kiln_dict *dict = argument->dict;
  int key_kind = dict->key_kind, value_kind = dict->value_kind;
  Py_ssize_t previous_length = PyDict_GET_SIZE(object);
  size_t room = previous_length ? (size_t)previous_length : 1;
  /* The caller's entries, held: their objects, and their keys as bits
     (`readable`: those that do not read as keys match nothing; a str key
     is the object itself, borrowed from `previous`, compared by text). */
  PyObject **previous = (PyObject **)malloc(2 * room * sizeof *previous);
  uint64_t *previous_keys = (uint64_t *)malloc(room * sizeof *previous_keys);
  unsigned char *readable = (unsigned char *)malloc(room);
  /* What the caller's dict gets: (key, value) new references, in order;
     an entry of the caller's whose value is kept has NULL for both. */
  size_t entries_room = dict->used ? (size_t)dict->used : 1;
  PyObject **entries = (PyObject **)calloc(2 * entries_room, sizeof *entries);
  kiln_key_table table = {NULL, 0, 0};
  Py_ssize_t held = 0;
  int64_t stored = 0;
  int status = -1;
  if (!previous || !previous_keys || !readable || !entries) {
    PyErr_NoMemory();
    goto done;
  }
  {
    Py_ssize_t next = 0;
    PyObject *key, *value;
    while (held < previous_length && PyDict_Next(object, &next, &key, &value)) {
      previous[2 * held] = Py_NewRef(key);
      previous[2 * held + 1] = Py_NewRef(value);
      ++held;
    }
  }
  for (Py_ssize_t i = 0; i < held; ++i) {
    if (key_kind == KILN_ITEM_STR) {
      previous_keys[i] = (uint64_t)(uintptr_t)previous[2 * i];
      readable[i] = PyUnicode_Check(previous[2 * i]) != 0;
      continue;
    }
    if (KILN_LIKELY(kiln_read_exact_item(previous[2 * i], key_kind, &previous_keys[i]))) {
      readable[i] = 1;
      continue;
    }
    int read = kiln_read_item(previous[2 * i], key_kind, &previous_keys[i]);
    if (read < 0)
      PyErr_Clear();
    readable[i] = read == KILN_READ_OK;
  }
  /* Whether the caller's entries lead the function's, in order: entry by
     entry the same key (a NaN key too: matched by its place, not looked
     up). */
  int kept_in_place = dict->used >= held;
  for (Py_ssize_t i = 0; kept_in_place && i < held; ++i)
    kept_in_place =
        dict->live[i] == 1 && readable[i] &&
        (key_kind == KILN_ITEM_STR
             ? kiln_same_text(previous[2 * i], (const kiln_str *)(uintptr_t)dict->keys[i])
             : dict->keys[i] == previous_keys[i]);
  if (!kept_in_place) {
    if (kiln_key_table_init(&table, held) < 0)
      goto done;
    table.objects = key_kind == KILN_ITEM_STR;
    for (Py_ssize_t i = 0; i < held; ++i)
      if (readable[i])
        kiln_key_table_find(&table, previous_keys, key_kind, previous_keys[i], i);
  }
  for (int64_t i = 0; i < dict->used; ++i) {
    if (!dict->live[i])
      continue;
    /* An entry the function added (its key deleted and added again, or
       new) has a new key object, as in CPython; only the caller's own
       entries keep theirs. */
    int64_t match = kept_in_place ? (i < held ? i : -1)
                    : (dict->live[i] & KILN_DICT_ADDED) == KILN_DICT_ADDED
                        ? -1
                        : kiln_key_table_find(&table, previous_keys, key_kind, dict->keys[i], -1);
    PyObject **entry = &entries[2 * stored++];
    int value_kept = match >= 0 && kiln_item_unchanged(previous[2 * match + 1], value_kind,
                                                       dict->values[i]);
    if (kept_in_place && value_kept)
      continue;    /* left as it is: entry stays NULL */
    entry[0] = match >= 0 ? Py_NewRef(previous[2 * match])
                          : kiln_item_object(key_kind, dict->keys[i]);
    entry[1] = value_kept ? Py_NewRef(previous[2 * match + 1])
                          : kiln_item_object(value_kind, dict->values[i]);
    if (!entry[0] || !entry[1])
      goto done;
  }
  if (!kept_in_place)
    PyDict_Clear(object);
  status = 0;
  for (int64_t k = 0; k < stored && status == 0; ++k)
    if (entries[2 * k])
      status = PyDict_SetItem(object, entries[2 * k], entries[2 * k + 1]);
done:
  if (entries)
    for (int64_t k = 0; k < 2 * stored; ++k)
      Py_XDECREF(entries[k]);
  for (Py_ssize_t i = 0; i < 2 * held; ++i)
    Py_DECREF(previous[i]);
  free(table.slots);
  free(entries);
  free(readable);
  free(previous_keys);
  free(previous);
  return status;
}

/* The Python object of a dict the function returned: the caller's own
   object when it is one of the arguments, else a new Python dict of its
   entries, and the returned reference is dropped. */
KILN_GENERAL PyObject *kiln_dict_result(kiln_dict *result,
                                        const kiln_container_argument *arguments, int count) {
  PyObject *argument = kiln_argument_object(result, arguments, count);
  if (argument)
    return Py_NewRef(argument);
  if (!result) {
    PyErr_SetString(PyExc_SystemError, "a compiled function returned no dict");
    return NULL;
  }
  PyObject *boxed = kiln_python_dict(result);
  kiln_drop_dict(result);
  return boxed;
}

/* kiln_discard_list_result, of a dict. */
KILN_HELPER void kiln_discard_dict_result(kiln_dict *result,
                                          const kiln_container_argument *arguments, int count) {
  if (!kiln_argument_object(result, arguments, count))
    kiln_drop_dict(result);
}

/* ---- sets: a set[K] argument (K int, float, bool or str; a set or a
   frozenset) is read into a kiln_dict without values, its elements in the
   set's iteration order. */

/* The kiln_dict of the argument `object` of a set parameter (elements of
   kind `kind`), recorded in `arguments`, or NULL with an exception set; as
   kiln_get_dict. Elements are read through the set's iterator: one whose
   own __index__ or __float__ changes the set stops the reading with
   CPython's RuntimeError. */
KILN_GENERAL kiln_dict *kiln_get_set(PyObject *object, int kind,
                                     kiln_container_argument *arguments, int *count,
                                     const char *function, const char *parameter) {
  if (!PyAnySet_Check(object)) {
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be set, not %.200s", function,
                 parameter, Py_TYPE(object)->tp_name);
    return NULL;
  }
  int known = kiln_find_argument(object, KILN_CONTAINER_SET, kind, KILN_ITEM_NONE, arguments,
                                 *count, function, parameter);
  if (known != -1)
    return known >= 0 ? arguments[known].dict : NULL;
  Py_ssize_t length = PySet_GET_SIZE(object);
  kiln_dict *set = kiln_new_dict(length, kind, KILN_ITEM_NONE);
  if (!set)
    return NULL;
  PyObject *iterator = PyObject_GetIter(object);
  if (!iterator) {
    kiln_free_dict(set);
    return NULL;
  }
  Py_ssize_t position = 0;
  int check_elements = 0, status = 0;
  PyObject *element;
  while (status == 0 && (element = PyIter_Next(iterator))) {
    if (position == length) {
      /* grew while read: its iterator raises at the next step */
      Py_DECREF(element);
      continue;
    }
    uint64_t *bits = &set->keys[position];
    if (!KILN_LIKELY(kiln_read_exact_item(element, kind, bits))) {
      int read = kiln_read_item(element, kind, bits);
      if (read == KILN_READ_OK)
        check_elements |= !kiln_key_stays_distinct(element, kind, *bits);
      else
        status = kiln_item_refused(read, element, kind, function,
                                   PyUnicode_FromFormat("'%s' element %R", parameter, element));
    }
    position += status == 0;
    Py_DECREF(element);
  }
  Py_DECREF(iterator);
  if (status == 0 && !PyErr_Occurred() && position != length) {
    PyErr_Format(PyExc_RuntimeError, "%s() argument '%s' changed size while it was read",
                 function, parameter);
  }
  /* the elements read: live, and given back by kiln_free_dict */
  kiln_dict_entries_read(set, position);
  if (status < 0 || PyErr_Occurred()) {
    kiln_free_dict(set);
    return NULL;
  }
  if (check_elements && kiln_check_distinct_keys(set, function, parameter) < 0) {
    kiln_free_dict(set);
    return NULL;
  }
  kiln_record_argument(arguments, count, object, NULL, set, parameter, kind, KILN_ITEM_NONE);
  return set;
}

/* A new Python set of the elements of `set`. */
KILN_GENERAL PyObject *kiln_python_set(const kiln_dict *set) {
  PyObject *result = PySet_New(NULL);
  if (!result)
    return NULL;
  for (int64_t i = 0; i < set->used; ++i) {
    if (!set->live[i])
      continue;
    PyObject *element = kiln_item_object(set->key_kind, set->keys[i]);
    int status = element ? PySet_Add(result, element) : -1;
    Py_XDECREF(element);
    if (status < 0) {
      Py_DECREF(result);
      return NULL;
    }
  }
  return result;
}

/* Writes the elements of a set argument the function changed into the
   caller's set (the same object, as in CPython): the caller's elements
   the function removed are discarded, and the ones it added are added as
   new objects (an element removed and added again too, as in CPython).
   The caller's elements that stayed keep their objects: they are the
   kiln_dict's entries with live[i] == 1, which keep the order they were
   read in (iteration order, which nothing changed during the call), so
   they are matched to the caller's elements in order, by their bits (a
   NaN element too; a str by its text). Every new object is made before the set is touched.
   A frozenset the function changed raises TypeError, as CPython would
   have raised at the change. -1 with an exception set. */
KILN_GENERAL int kiln_write_back_set(const kiln_container_argument *argument) {
  PyObject *object = argument->object;
  const kiln_dict *set = argument->dict;
  if (PyFrozenSet_Check(object)) {
    PyErr_Format(PyExc_TypeError, "argument '%s' is a frozenset, which the function changes "
                 "(pass set(%s))", argument->parameter, argument->parameter);
    return -1;
  }
  PyObject *previous = PySequence_List(object);
  Py_ssize_t added_count = 0;
  for (int64_t i = 0; i < set->used; ++i)
    added_count += set->live[i] == KILN_DICT_ADDED;
  PyObject **added = (PyObject **)calloc(added_count ? (size_t)added_count : 1, sizeof *added);
  int status = -1;
  Py_ssize_t made = 0;
  if (!previous || !added) {
    if (!added)
      PyErr_NoMemory();
    goto done;
  }
  for (int64_t i = 0; i < set->used; ++i)
    if (set->live[i] == KILN_DICT_ADDED &&
        !(added[made++] = kiln_item_object(set->key_kind, set->keys[i])))
      goto done;
  {
    /* The caller's elements that stayed, in order: those whose bits are
       the next kept entry's. */
    int64_t kept = 0;
    Py_ssize_t length = PyList_GET_SIZE(previous);
    for (Py_ssize_t i = 0; i < length; ++i) {
      while (kept < set->used && set->live[kept] != 1)
        ++kept;
      PyObject *element = PyList_GET_ITEM(previous, i);
      int same;
      if (set->key_kind == KILN_ITEM_STR) {
        /* compared by text, with no copy */
        same = kept < set->used && PyUnicode_Check(element) &&
               kiln_same_text(element, (const kiln_str *)(uintptr_t)set->keys[kept]);
      } else {
        uint64_t bits = 0;
        int readable = kiln_read_exact_item(element, set->key_kind, &bits);
        if (!readable) {
          int read = kiln_read_item(element, set->key_kind, &bits);
          if (read < 0)
            PyErr_Clear();
          readable = read == KILN_READ_OK;
        }
        same = readable && kept < set->used && set->keys[kept] == bits;
      }
      if (same) {
        ++kept;
        continue;
      }
      if (PySet_Discard(object, element) < 0)
        goto done;
    }
  }
  for (Py_ssize_t k = 0; k < made; ++k) {
    /* An element equal to one the caller still holds replaces it. */
    if (PySet_Discard(object, added[k]) < 0 || PySet_Add(object, added[k]) < 0)
      goto done;
  }
  status = 0;
done:
  for (Py_ssize_t k = 0; k < made; ++k)
    Py_XDECREF(added[k]);
  free(added);
  Py_XDECREF(previous);
  return status;
}

/* The Python object of a set the function returned: the caller's own
   object when it is one of the arguments, else a new Python set. */
KILN_GENERAL PyObject *kiln_set_result(kiln_dict *result,
                                       const kiln_container_argument *arguments, int count) {
  PyObject *argument = kiln_argument_object(result, arguments, count);
  if (argument)
    return Py_NewRef(argument);
  if (!result) {
    PyErr_SetString(PyExc_SystemError, "a compiled function returned no set");
    return NULL;
  }
  PyObject *boxed = kiln_python_set(result);
  kiln_drop_dict(result);
  return boxed;
}

/* kiln_discard_list_result, of a set. */
KILN_HELPER void kiln_discard_set_result(kiln_dict *result,
                                         const kiln_container_argument *arguments, int count) {
  if (!kiln_argument_object(result, arguments, count))
    kiln_drop_dict(result);
}

/* ---- after the call, for lists, dicts and sets alike */

/* Each list or dict argument the function changed is written back into
   the caller's object. -1 with an exception set when that fails. */
KILN_GENERAL int kiln_write_back_arguments(const kiln_container_argument *arguments,
                                           int count) {
  for (int i = 0; i < count; ++i) {
    const kiln_container_argument *argument = &arguments[i];
    int status = 0;
    if (argument->shared || !argument->object)
      continue;     /* the instance's own list, or a default's new one:
                       nothing to write back */
    if (argument->list && (argument->list->flags & KILN_LIST_MODIFIED))
      status = kiln_write_back_list(argument);
    else if (argument->dict && (argument->dict->flags & KILN_DICT_MODIFIED))
      status = argument->dict->value_kind == KILN_ITEM_NONE ? kiln_write_back_set(argument)
                                                           : kiln_write_back_dict(argument);
    if (status < 0)
      return -1;
  }
  return 0;
}

/* Frees the containers the wrapper made, whatever their refcount (but
   lists instance fields now hold, and instances' lists passed through a
   view): after a call that raised, the function's own references to them
   were never given back. The references they hold to strings are given back: those
   the wrapper read in, and those the function stored (taken out of the
   journal when stored: kiln_journal_adopt_str). */
KILN_HELPER void kiln_free_arguments(const kiln_container_argument *arguments, int count) {
  for (int i = 0; i < count; ++i) {
    if (arguments[i].shared) {
      /* The reference kiln_get_list took (the view and the instance hold
         theirs; after a raise the function's own may stay: a leak, never
         a free under them). */
      --arguments[i].list->refcount;
      continue;
    }
    if (arguments[i].list && arguments[i].list->field_references > 0) {
      /* The function stored the list into instances: they keep it, with
         their references only (the function's are gone, given back or
         lost to a raise). */
      arguments[i].list->refcount = arguments[i].list->field_references;
      continue;
    }
    if (arguments[i].list) {
      kiln_list *list = arguments[i].list;
      if (list->item_kind == KILN_ITEM_STR)
        for (int64_t k = 0; k < list->length; ++k)
          kiln_release_str(((kiln_str **)list->items)[k]);
      if (list->item_kind == KILN_ITEM_OBJECT)
        for (int64_t k = 0; k < list->length; ++k)
          Py_DECREF(((PyObject **)list->items)[k]);
      free(list->items);
      free(list);
    } else {
      kiln_free_dict(arguments[i].dict);
    }
  }
}

/* ---- exceptions raised by compiled code */
/* numpy.linalg.LinAlgError is numpy's class, not a CPython builtin: found
   the first time one is raised (numpy is imported by then: the function
   took arrays) and kept, as the PyExc_ objects are, for the process.
   RuntimeError if numpy.linalg cannot be imported. */
static inline PyObject *kiln_lin_alg_error(void) {
  static PyObject *lin_alg_error = NULL;
  if (!lin_alg_error) {
    PyObject *linalg = PyImport_ImportModule("numpy.linalg");
    lin_alg_error = linalg ? PyObject_GetAttrString(linalg, "LinAlgError") : NULL;
    Py_XDECREF(linalg);
    if (!lin_alg_error || !PyExceptionClass_Check(lin_alg_error)) {
      PyErr_Clear();
      Py_CLEAR(lin_alg_error);
      return PyExc_RuntimeError;
    }
  }
  return lin_alg_error;
}
/* KILN_ERROR_KINDS names each kind's exception PyExc_<name>. */
#define PyExc_LinAlgError kiln_lin_alg_error()

KILN_COLD PyObject *kiln_raise(kiln_error *error, const char *function,
                               const char *source_file) {
  PyObject *kind = PyExc_RuntimeError;
  switch (error->kind) {
#define KILN_RAISE_CASE(number, name, suffix)                                  \
  case KILN_##suffix:                                                          \
    kind = PyExc_##name;                                                       \
    break;
    KILN_ERROR_KINDS(KILN_RAISE_CASE)
#undef KILN_RAISE_CASE
  }
  if (error->kind == KILN_KEY_ERROR && error->num_args == 1) {
    /* CPython's KeyError carries the key itself (`KeyError: 5`); the
       message names its kind (kiln_abi.h, KILN_KEY_ERROR_INT ...). */
    PyObject *key = NULL;
    if (strcmp(error->message, KILN_KEY_ERROR_FLOAT) == 0) {
      double value;
      memcpy(&value, &error->args[0], sizeof value);
      key = PyFloat_FromDouble(value);
    } else if (strcmp(error->message, KILN_KEY_ERROR_BOOL) == 0) {
      key = PyBool_FromLong(error->args[0] != 0);
    } else if (strcmp(error->message, KILN_KEY_ERROR_STR) == 0) {
      key = kiln_python_str((const kiln_str *)(intptr_t)error->args[0]);
    } else {
      key = PyLong_FromLongLong((long long)error->args[0]);
    }
    if (key) {
      PyErr_SetObject(PyExc_KeyError, key);
      Py_DECREF(key);
    }
    kiln_error_clear(error);
    _PyTraceback_Add(function, source_file, (int)error->line);
    return NULL;
  }
  char message[512];
  size_t used = 0;
  int next = 0;
  for (const char *c = error->message; *c && used + 32 < sizeof message; ++c) {
    if (kiln_error_placeholder(c) == 4 && next < error->num_args) {
      /* A string's repr, cut at 200 characters as CPython's "%.200R". */
      PyObject *text = kiln_python_str((const kiln_str *)(intptr_t)error->args[next++]);
      PyObject *repr = text ? PyObject_Repr(text) : NULL;
      Py_XDECREF(text);
      if (repr) {
        Py_ssize_t size = 0;
        PyObject *cut = PyUnicode_Substring(repr, 0, 200);
        const char *utf8 = cut ? PyUnicode_AsUTF8AndSize(cut, &size) : NULL;
        if (utf8 && (size_t)size + 32 < sizeof message - used) {
          memcpy(message + used, utf8, (size_t)size);
          used += (size_t)size;
        }
        Py_XDECREF(cut);
        Py_DECREF(repr);
      }
      PyErr_Clear();
      c += 3;
    } else if (c[0] == '{' && c[1] == '}' && next < error->num_args) {
      used += (size_t)snprintf(message + used, sizeof message - used, "%lld",
                               (long long)error->args[next++]);
      ++c;
    } else {
      message[used++] = *c;
    }
  }
  message[used] = '\0';
  kiln_error_clear(error);
  PyErr_Format(kind, "%s (%s, line %d)", message, source_file, (int)error->line);
  /* A traceback entry at the Python line, as if the function had run in
     the interpreter. */
  _PyTraceback_Add(function, source_file, (int)error->line);
  return NULL;
}

/* ---- @kiln.vectorize arguments: a number, or an array of the parameter's
   dtype; both become 3-D strided views broadcast against each other. */
typedef struct {
  void *data;
  int ndim;
  int64_t shape[3];
  int64_t strides[3]; /* elements */
  Py_buffer view;
  int has_view;
  union { double f64; float f32; int64_t i64; int32_t i32; int16_t i16; int8_t i8;
          uint64_t u64; } scalar;
} kiln_operand;

KILN_HELPER int kiln_operand_get(PyObject *object, kiln_operand *operand, char kind, int bits,
                            const char *formats, const char *function, const char *parameter) {
  operand->has_view = 0;
  Py_ssize_t itemsize = bits / 8;
  if (PyObject_CheckBuffer(object) && !PyFloat_Check(object) && !PyLong_Check(object)) {
    if (PyObject_GetBuffer(object, &operand->view, PyBUF_RECORDS_RO) != 0)
      return -1;
    operand->has_view = 1;
    const char *format = operand->view.format ? operand->view.format : "B";
    if (*format == '@' || *format == '=' || *format == '<')
      ++format;
    if (format[0] == '\0' || format[1] != '\0' || !strchr(formats, format[0]) ||
        operand->view.itemsize != itemsize) {
      PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be a number or an array of "
                   "the matching dtype, not an array of format '%s'", function, parameter,
                   operand->view.format ? operand->view.format : "B");
      return -1;
    }
    if (operand->view.ndim > 3) {
      PyErr_Format(PyExc_ValueError, "%s() argument '%s' has more than 3 dimensions",
                   function, parameter);
      return -1;
    }
    if (((uintptr_t)operand->view.buf) % (uintptr_t)itemsize != 0) {
      PyErr_Format(PyExc_ValueError, "%s() argument '%s' is not aligned to its item size",
                   function, parameter);
      return -1;
    }
    operand->data = operand->view.buf;
    operand->ndim = operand->view.ndim;
    int64_t step = 1;
    for (int axis = operand->ndim - 1; axis >= 0; --axis) {
      operand->shape[axis] = operand->view.shape[axis];
      Py_ssize_t stride = operand->view.strides ? operand->view.strides[axis] : step * itemsize;
      if (stride % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s() argument '%s' has a stride that is not a multiple "
                     "of its item size", function, parameter);
        return -1;
      }
      operand->strides[axis] = stride / itemsize;
      step *= operand->view.shape[axis];
    }
    return 0;
  }
  operand->ndim = 0;
  operand->data = &operand->scalar;
  if (kind == 'f') {
    double value;
    if (kiln_as_double(object, &value, function, parameter) < 0)
      return -1;
    if (bits == 64) operand->scalar.f64 = value; else operand->scalar.f32 = (float)value;
  } else if (kind == 'u' && bits == 64) {
    if (kiln_as_uint64(object, &operand->scalar.u64, function, parameter) < 0)
      return -1;
  } else {
    /* kind 'i' (signed) or 'u' (unsigned) integers of `bits` bits. */
    int64_t value;
    int64_t low = kind == 'u' ? 0 : bits == 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
    int64_t high = bits == 64 ? INT64_MAX : kind == 'u' ? (INT64_C(1) << bits) - 1
                                                        : (INT64_C(1) << (bits - 1)) - 1;
    if (kiln_as_ranged_int(object, &value, low, high, "the parameter's dtype", function,
                           parameter) < 0)
      return -1;
    switch (bits) {
      case 64: operand->scalar.i64 = value; break;
      case 32: operand->scalar.i32 = (int32_t)value; break;
      case 16: operand->scalar.i16 = (int16_t)value; break;
      default: operand->scalar.i8 = (int8_t)value; break;
    }
  }
  return 0;
}

KILN_HELPER void kiln_operands_release(kiln_operand *operands, int count) {
  for (int i = 0; i < count; ++i)
    if (operands[i].has_view)
      PyBuffer_Release(&operands[i].view);
}

/* numpy's broadcasting of the operands' shapes, right-aligned, into 3 dims. */
KILN_HELPER int kiln_broadcast(kiln_operand *operands, int count, int64_t shape[3], int *ndim,
                          const char *function) {
  *ndim = 0;
  for (int i = 0; i < count; ++i)
    if (operands[i].ndim > *ndim)
      *ndim = operands[i].ndim;
  for (int axis = 0; axis < 3; ++axis)
    shape[axis] = 1;
  for (int i = 0; i < count; ++i)
    for (int k = 0; k < operands[i].ndim; ++k) {
      int axis = 3 - operands[i].ndim + k;
      int64_t size = operands[i].shape[k];
      if (size == shape[axis] || size == 1)
        continue;
      if (shape[axis] != 1) {
        PyErr_Format(PyExc_ValueError, "%s(): operands could not be broadcast together",
                     function);
        return -1;
      }
      shape[axis] = size;
    }
  return 0;
}

/* Fills a 3-D descriptor of `operand` seen with the broadcast `shape`. */
KILN_HELPER void kiln_operand_view(const kiln_operand *operand, const int64_t shape[3],
                              void *descriptor) {
  char **pointers = (char **)descriptor;
  int64_t *fields = (int64_t *)(pointers + 2);
  pointers[0] = pointers[1] = (char *)operand->data;
  fields[0] = 0;
  for (int axis = 0; axis < 3; ++axis) {
    int k = axis - (3 - operand->ndim);
    int64_t stride = 0;
    if (k >= 0 && operand->shape[k] != 1)
      stride = operand->strides[k];
    fields[1 + axis] = shape[axis];
    fields[4 + axis] = stride;
  }
}

#endif /* KILN_RUNTIME_H */
