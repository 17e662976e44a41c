/* Instances of exported classes, as compiled code handles them
   (runtime/kiln_abi.h gives the layout). kilnc links this file into a
   module whose lowered code calls it (kiln-lower-containers,
   passes/LowerObjects.cpp); the functions are internal there, so LLVM
   inlines the reference counting into the kernels.

   Every function here runs with the GIL held: an instance is a CPython
   object, made and freed by its type's own tp_alloc and tp_dealloc, which
   this file reaches through PyTypeObject's offsets instead of Python.h (the
   kernels' library must load without libpython; the extension checks the
   offsets against Python.h). */
#include "kiln_abi.h"

#include <stdint.h>

/* CPython's allocfunc and destructor, spelled with the struct tags
   Python.h gives PyObject and PyTypeObject (and Py_ssize_t's type): called
   through a pointer of another function type, the call would be undefined
   (UBSan's -fsanitize=function says so). */
struct _object;
struct _typeobject;
typedef struct _object *(*kiln_type_alloc)(struct _typeobject *type, intptr_t items);
typedef void (*kiln_type_dealloc)(struct _object *object);

static void *kiln_type_field(void *type, int64_t offset) {
  return *(void **)((char *)type + offset);
}

/* A new instance of `type` (its tp_alloc: tracked by the cycle collector,
   every field zero), or NULL when there is no memory -- CPython has set
   MemoryError then, which the wrapper replaces with the same kind. */
void *kiln_object_new(void *type) {
  kiln_type_alloc alloc = (kiln_type_alloc)kiln_type_field(type, KILN_PYTYPE_ALLOC_OFFSET);
  return alloc((struct _typeobject *)type, 0);
}

void kiln_object_retain(void *object) {
  if (object)
    ++*(intptr_t *)((char *)object + KILN_OBJECT_REFCOUNT_OFFSET);
}

/* The last reference: the object's own type frees it (its fields' objects
   released by its tp_dealloc), wherever that type was made. Kept out of
   line so that the inlined release is a decrement and a test. */
__attribute__((noinline, cold)) void kiln_object_dealloc(void *object) {
  void *type = *(void **)((char *)object + KILN_OBJECT_TYPE_OFFSET);
  kiln_type_dealloc dealloc =
      (kiln_type_dealloc)kiln_type_field(type, KILN_PYTYPE_DEALLOC_OFFSET);
  dealloc((struct _object *)object);
}

void kiln_object_release(void *object) {
  if (object && --*(intptr_t *)((char *)object + KILN_OBJECT_REFCOUNT_OFFSET) == 0)
    kiln_object_dealloc(object);
}
