/* count_python_allocations: how many times CPython's allocators are called, in
 * all three domains (raw, mem, object), between start() and stop().
 * (bench/native/count_allocations.c counts libc's instead, for arrays.)
 * bench/containers.py builds it (gcc -O2 -shared) and counts the calls one
 * function call makes: tracemalloc shows how much memory a call holds at
 * its peak, not how many blocks it allocated and freed on the way.
 *
 *   import count_python_allocations as c
 *   c.start(); f(); n = c.stop()     # n: malloc + calloc + realloc calls
 *
 * The hooks wrap the allocators in place when start() is called and put
 * them back in stop(); blocks allocated in between are freed through the
 * same underlying allocator either way. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyMemAllocatorEx original[3];
static unsigned long long count;
static int active;

static void *hook_malloc(void *ctx, size_t size) {
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  PyMemAllocatorEx *inner = ctx;
  return inner->malloc(inner->ctx, size);
}

static void *hook_calloc(void *ctx, size_t n, size_t size) {
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  PyMemAllocatorEx *inner = ctx;
  return inner->calloc(inner->ctx, n, size);
}

static void *hook_realloc(void *ctx, void *pointer, size_t size) {
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
  PyMemAllocatorEx *inner = ctx;
  return inner->realloc(inner->ctx, pointer, size);
}

static void hook_free(void *ctx, void *pointer) {
  PyMemAllocatorEx *inner = ctx;
  inner->free(inner->ctx, pointer);
}

static const PyMemAllocatorDomain domains[3] = {PYMEM_DOMAIN_RAW, PYMEM_DOMAIN_MEM,
                                                PYMEM_DOMAIN_OBJ};

static PyObject *start(PyObject *self, PyObject *unused) {
  if (active) {
    PyErr_SetString(PyExc_RuntimeError, "count_python_allocations: already started");
    return NULL;
  }
  for (int i = 0; i < 3; ++i) {
    PyMem_GetAllocator(domains[i], &original[i]);
    PyMemAllocatorEx hook = {&original[i], hook_malloc, hook_calloc, hook_realloc, hook_free};
    PyMem_SetAllocator(domains[i], &hook);
  }
  active = 1;
  __atomic_store_n(&count, 0, __ATOMIC_RELAXED);
  Py_RETURN_NONE;
}

static PyObject *stop(PyObject *self, PyObject *unused) {
  unsigned long long calls = __atomic_load_n(&count, __ATOMIC_RELAXED);
  if (!active) {
    PyErr_SetString(PyExc_RuntimeError, "count_python_allocations: not started");
    return NULL;
  }
  for (int i = 0; i < 3; ++i) PyMem_SetAllocator(domains[i], &original[i]);
  active = 0;
  return PyLong_FromUnsignedLongLong(calls);
}

static PyMethodDef methods[] = {
    {"start", start, METH_NOARGS, "Counts allocator calls from now on."},
    {"stop", stop, METH_NOARGS, "Stops counting; returns the allocator calls since start()."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "count_python_allocations", NULL, -1,
                                    methods};

PyMODINIT_FUNC PyInit_count_python_allocations(void) { return PyModule_Create(&module); }
