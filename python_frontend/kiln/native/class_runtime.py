"""The C every extension with exported classes shares, written once
before the classes' own code (native/class_types.py generates each
class's): the generic parts of their slots (fields read and written as
Python objects, the dataclass methods, pickling, the cycle collector's
walk) and the binding of class slots between extensions. Static
functions only, like runtime/kiln_runtime.h's."""


# The C every extension with classes shares: written once, before the
# classes' own code. Static functions only, like kiln_runtime.h's.
CLASS_RUNTIME = r'''
/* ---- classes (@kiln.export on a class): kiln/native/class_types.py */
_Static_assert(offsetof(PyObject, ob_refcnt) == KILN_OBJECT_REFCOUNT_OFFSET,
               "kiln_abi.h's object layout disagrees with Python.h");
_Static_assert(offsetof(PyObject, ob_type) == KILN_OBJECT_TYPE_OFFSET,
               "kiln_abi.h's object layout disagrees with Python.h");
_Static_assert(sizeof(PyObject) == KILN_OBJECT_HEADER_SIZE,
               "kiln_abi.h's object header size disagrees with Python.h");
_Static_assert(offsetof(PyTypeObject, tp_dealloc) == KILN_PYTYPE_DEALLOC_OFFSET,
               "kiln_abi.h's PyTypeObject offsets disagree with Python.h");
_Static_assert(offsetof(PyTypeObject, tp_alloc) == KILN_PYTYPE_ALLOC_OFFSET,
               "kiln_abi.h's PyTypeObject offsets disagree with Python.h");
_Static_assert(sizeof(int64_t) == KILN_OBJECT_FIELD_SIZE &&
                   sizeof(double) == KILN_OBJECT_FIELD_SIZE &&
                   sizeof(PyObject *) == KILN_OBJECT_FIELD_SIZE,
               "a field's value must fill its slot");

enum { KILN_FIELD_INT, KILN_FIELD_FLOAT, KILN_FIELD_BOOL, KILN_FIELD_INSTANCE, KILN_FIELD_STR,
       KILN_FIELD_LIST };

/* One field of a class: the getset closure, and what __reduce__,
   __setstate__, tp_traverse and the dataclass methods walk. */
typedef struct {
  const char *name;
  Py_ssize_t offset;
  int kind;
  int optional;          /* an instance field that may be None (NULL) */
  void **type_slot;      /* an instance field: the class slot of its class */
  const char *type_name; /* an instance field: its class's name */
  void **const *subclass_slots; /* an instance field: the slots of its class's
                                   compiled subclasses (NULL-terminated), or NULL */
  int item_kind;         /* a list field: its items' KILN_ITEM_* (type_slot,
                            type_name and subclass_slots then are the item
                            class's, for a list of instances) */
  const char *described; /* "attribute 'items' of 'Queue'", for messages */
} kiln_field;

/* Why an object of a subclass of the compiled class `type` is refused
   (compiled code knows only the compiled classes: the subclass could
   override a method it calls directly), or "". */
static const char *kiln_python_subclass_note(PyObject *object, void *type) {
  return type && Py_TYPE(object) != (PyTypeObject *)type &&
                 PyType_IsSubtype(Py_TYPE(object), (PyTypeObject *)type)
             ? " (subclasses defined in Python are not accepted by compiled code)"
             : "";
}

/* Whether `object` is an instance of exactly one of the classes whose slots
   `slots` lists (NULL-terminated; NULL lists none): the compiled
   subclasses of a class, whose instances compiled code takes where it
   takes the class's. A subclass defined in Python is not among them. */
KILN_HELPER int kiln_of_subclass(PyObject *object, void **const *slots) {
  for (; slots && *slots; ++slots)
    if (**slots && Py_TYPE(object) == (PyTypeObject *)**slots)
      return 1;
  return 0;
}

/* Every item of a list of instances read from argument `parameter` is an
   instance of the class `type` or of one of its compiled subclasses, or
   TypeError naming the item, as for an instance argument. */
KILN_HELPER int kiln_check_list_instances(const kiln_list *list, void *type,
                                          void **const *subclass_slots,
                                          const char *class_name, const char *function,
                                          const char *parameter) {
  PyObject *const *items = (PyObject *const *)list->items;
  for (int64_t i = 0; i < list->length; ++i)
    if (!KILN_LIKELY((type && Py_TYPE(items[i]) == (PyTypeObject *)type) ||
                     kiln_of_subclass(items[i], subclass_slots))) {
      PyErr_Format(PyExc_TypeError, "%s() argument '%s'[%lld] must be %s, not %.200s%s",
                   function, parameter, (long long)i, class_name, Py_TYPE(items[i])->tp_name,
                   kiln_python_subclass_note(items[i], type));
      return -1;
    }
  return 0;
}

/* What the generic parts of a class's slots need to know of it. */
typedef struct {
  const kiln_field *fields;
  Py_ssize_t count;
} kiln_class;

#define KILN_SLOT(object, offset, type) (*(type *)((char *)(object) + (offset)))

/* A field's value as a Python object (a new reference); NULL with
   AttributeError for an instance field never set (as a `__slots__` class
   raises), None for an Optional one. */
KILN_HELPER PyObject *kiln_field_value(PyObject *self, const kiln_field *field) {
  switch (field->kind) {
  case KILN_FIELD_INT:
    return PyLong_FromLongLong((long long)KILN_SLOT(self, field->offset, int64_t));
  case KILN_FIELD_FLOAT:
    return PyFloat_FromDouble(KILN_SLOT(self, field->offset, double));
  case KILN_FIELD_BOOL:
    return PyBool_FromLong(KILN_SLOT(self, field->offset, uint8_t) != 0);
  case KILN_FIELD_LIST: {
    /* A live view of the instance's list (kiln_runtime.h). */
    kiln_list *list = KILN_SLOT(self, field->offset, kiln_list *);
    if (list)
      return kiln_list_view_new(list, field->item_kind, field->type_slot,
                                field->subclass_slots, field->type_name, field->described);
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'",
                 Py_TYPE(self)->tp_name, field->name);
    return NULL;
  }
  case KILN_FIELD_STR: {
    /* A new Python str of the kiln_str's code points (one copy). */
    const kiln_str *text = KILN_SLOT(self, field->offset, kiln_str *);
    if (text)
      return kiln_python_str(text);
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'",
                 Py_TYPE(self)->tp_name, field->name);
    return NULL;
  }
  default: {
    PyObject *value = KILN_SLOT(self, field->offset, PyObject *);
    if (value)
      return Py_NewRef(value);
    if (field->optional)
      return Py_NewRef(Py_None);
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'",
                 Py_TYPE(self)->tp_name, field->name);
    return NULL;
  }
  }
}

/* A list field lets go of its list (its instances may run any code). */
static inline void kiln_field_list_drop(kiln_list *list) {
  if (list) {
    --list->field_references;
    kiln_list_drop(list);
  }
}

/* The list a list field takes for `value` (a new reference): the list of
   a view of the same type itself -- a list another instance holds, shared
   as Python shares a list object -- or a new native list of a Python
   list's items, each checked as an item of a list[T] argument is (a copy:
   later changes to that Python list are not the instance's). NULL with
   TypeError/OverflowError. */
KILN_GENERAL kiln_list *kiln_field_list_of(PyObject *value, const kiln_field *field) {
  if (kiln_is_list_view(value)) {
    kiln_list_view *view = (kiln_list_view *)value;
    int same = view->kind == field->item_kind &&
               (field->item_kind != KILN_ITEM_OBJECT ||
                (view->item_slot && *view->item_slot == *field->type_slot));
    if (same) {
      ++view->list->refcount;
      return view->list;
    }
  }
  if (!PyList_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s must be list, not %.200s", field->described,
                 kiln_is_list_view(value) ? "a list of other items" : Py_TYPE(value)->tp_name);
    return NULL;
  }
  Py_ssize_t length = PyList_GET_SIZE(value);
  size_t item_size = kiln_list_item_size(field->item_kind);
  kiln_list *list = (kiln_list *)malloc(sizeof *list);
  void *items = malloc((size_t)(length ? length : 1) * item_size);
  if (!list || !items) {
    free(list);
    free(items);
    PyErr_NoMemory();
    return NULL;
  }
  *list = (kiln_list){.length = 0, .capacity = length ? length : 1, .items = items,
                      .refcount = 1, .journal_index = -1, .item_size = (int32_t)item_size,
                      .flags = 0, .item_kind = field->item_kind, .field_references = 0};
  /* Read as a view's items are, so the messages name the attribute. */
  kiln_list_view reader = {.list = list, .kind = field->item_kind,
                           .item_slot = field->type_slot,
                           .subclass_slots = field->subclass_slots,
                           .item_class = field->type_name, .field = field->described};
  for (Py_ssize_t i = 0; i < length && i < PyList_GET_SIZE(value); ++i) {
    uint64_t bits;
    if (kiln_view_read_item(&reader, PyList_GET_ITEM(value, i), &bits) < 0) {
      kiln_list_drop(list);
      return NULL;
    }
    kiln_view_put(list, field->item_kind, i, bits);
    list->length = i + 1;
  }
  return list;
}

/* Stores `value` into the field, converted and checked as a function
   argument of the field's type is (an int field takes what an int
   parameter takes, ...); TypeError or OverflowError naming the attribute.
   `unset_allowed`: None clears a non-Optional instance field (__setstate__
   of a field that was never set). */
KILN_HELPER int kiln_store_field(PyObject *self, const kiln_field *field, PyObject *value,
                            int unset_allowed) {
  const char *owner = Py_TYPE(self)->tp_name;
  switch (field->kind) {
  case KILN_FIELD_INT: {
    int64_t number = 0;
    int status = kiln_read_int64(value, &number);
    if (status == KILN_READ_WRONG_TYPE) {
      PyErr_Format(PyExc_TypeError, "attribute '%s' of '%.100s' must be an int, not %.200s",
                   field->name, owner, Py_TYPE(value)->tp_name);
      return -1;
    }
    if (status == KILN_READ_OUT_OF_RANGE) {
      PyErr_Format(PyExc_OverflowError, "attribute '%s' of '%.100s' does not fit in a 64-bit "
                   "integer", field->name, owner);
      return -1;
    }
    if (status != KILN_READ_OK)
      return -1;
    KILN_SLOT(self, field->offset, int64_t) = number;
    return 0;
  }
  case KILN_FIELD_FLOAT: {
    double number = 0.0;
    int status = kiln_read_double(value, &number);
    if (status == KILN_READ_WRONG_TYPE) {
      PyErr_Format(PyExc_TypeError, "attribute '%s' of '%.100s' must be a float, not %.200s",
                   field->name, owner, Py_TYPE(value)->tp_name);
      return -1;
    }
    if (status == KILN_READ_OUT_OF_RANGE) {
      PyErr_Format(PyExc_OverflowError, "attribute '%s' of '%.100s' is too large to convert "
                   "to float", field->name, owner);
      return -1;
    }
    if (status != KILN_READ_OK)
      return -1;
    KILN_SLOT(self, field->offset, double) = number;
    return 0;
  }
  case KILN_FIELD_BOOL: {
    bool truth = false;
    int status = kiln_read_bool(value, &truth);
    if (status == KILN_READ_WRONG_TYPE) {
      PyErr_Format(PyExc_TypeError, "attribute '%s' of '%.100s' must be a bool, not %.200s",
                   field->name, owner, Py_TYPE(value)->tp_name);
      return -1;
    }
    if (status != KILN_READ_OK)
      return -1;
    KILN_SLOT(self, field->offset, uint64_t) = 0;
    KILN_SLOT(self, field->offset, uint8_t) = truth ? 1 : 0;
    return 0;
  }
  case KILN_FIELD_LIST: {
    kiln_list *stored = NULL;
    if (value == Py_None && unset_allowed) {
      stored = NULL;
    } else if (!(stored = kiln_field_list_of(value, field))) {
      return -1;
    }
    if (stored)
      ++stored->field_references;
    kiln_list *old = KILN_SLOT(self, field->offset, kiln_list *);
    KILN_SLOT(self, field->offset, kiln_list *) = stored;
    kiln_field_list_drop(old);
    return 0;
  }
  case KILN_FIELD_STR: {
    kiln_str *stored = NULL;
    if (value == Py_None && unset_allowed) {
      stored = NULL;
    } else if (PyUnicode_Check(value)) {
      stored = kiln_str_of_python(value);
      if (!stored)
        return -1;
    } else {
      PyErr_Format(PyExc_TypeError, "attribute '%s' of '%.100s' must be str, not %.200s",
                   field->name, owner, Py_TYPE(value)->tp_name);
      return -1;
    }
    kiln_str *old = KILN_SLOT(self, field->offset, kiln_str *);
    KILN_SLOT(self, field->offset, kiln_str *) = stored;
    kiln_release_str(old);
    return 0;
  }
  default: {
    PyObject *stored;
    if (value == Py_None && (field->optional || unset_allowed)) {
      stored = NULL;
    } else if ((*field->type_slot && Py_TYPE(value) == (PyTypeObject *)*field->type_slot) ||
               kiln_of_subclass(value, field->subclass_slots)) {
      stored = Py_NewRef(value);
    } else {
      PyErr_Format(PyExc_TypeError, "attribute '%s' of '%.100s' must be %s%s, not %.200s%s",
                   field->name, owner, field->type_name, field->optional ? " or None" : "",
                   Py_TYPE(value)->tp_name, kiln_python_subclass_note(value, *field->type_slot));
      return -1;
    }
    /* The old value is released last: its dealloc may run any code. */
    PyObject *old = KILN_SLOT(self, field->offset, PyObject *);
    KILN_SLOT(self, field->offset, PyObject *) = stored;
    Py_XDECREF(old);
    return 0;
  }
  }
}

KILN_HELPER PyObject *kiln_field_get(PyObject *self, void *closure) {
  return kiln_field_value(self, (const kiln_field *)closure);
}

/* `del obj.field`: an instance field becomes unset again (reading it then
   raises AttributeError, as a deleted `__slots__` attribute does); an
   int, float or bool field always holds a value. */
KILN_HELPER int kiln_field_set(PyObject *self, PyObject *value, void *closure) {
  const kiln_field *field = (const kiln_field *)closure;
  if (value)
    return kiln_store_field(self, field, value, 0);
  if (field->kind == KILN_FIELD_LIST && KILN_SLOT(self, field->offset, kiln_list *)) {
    kiln_list *old = KILN_SLOT(self, field->offset, kiln_list *);
    KILN_SLOT(self, field->offset, kiln_list *) = NULL;
    kiln_field_list_drop(old);
    return 0;
  }
  if (field->kind == KILN_FIELD_STR && KILN_SLOT(self, field->offset, kiln_str *)) {
    kiln_str *old = KILN_SLOT(self, field->offset, kiln_str *);
    KILN_SLOT(self, field->offset, kiln_str *) = NULL;
    kiln_release_str(old);
    return 0;
  }
  if (field->kind == KILN_FIELD_INSTANCE && !field->optional &&
      KILN_SLOT(self, field->offset, PyObject *)) {
    Py_CLEAR(KILN_SLOT(self, field->offset, PyObject *));
    return 0;
  }
  if ((field->kind == KILN_FIELD_INSTANCE && !field->optional) || field->kind == KILN_FIELD_STR ||
      field->kind == KILN_FIELD_LIST)
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%s'",
                 Py_TYPE(self)->tp_name, field->name);
  else
    PyErr_Format(PyExc_AttributeError, "cannot delete attribute '%s' of '%.100s' object: "
                 "a compiled %s field always holds a value", field->name,
                 Py_TYPE(self)->tp_name,
                 field->kind == KILN_FIELD_INSTANCE ? "Optional" : "number");
  return -1;
}

/* A @property without a setter (or `del` of one), worded as CPython's. */
KILN_HELPER int kiln_property_set(PyObject *self, PyObject *value, void *closure) {
  PyErr_Format(PyExc_AttributeError, "property '%s' of '%.100s' object has no %s",
               (const char *)closure, Py_TYPE(self)->tp_name, value ? "setter" : "deleter");
  return -1;
}

/* @dataclass(frozen=True): every assignment and deletion raises
   dataclasses.FrozenInstanceError, as the frozen class's __setattr__ and
   __delattr__ do. */
KILN_HELPER int kiln_frozen_setattro(PyObject *self, PyObject *name, PyObject *value) {
  (void)self;
  PyObject *dataclasses = PyImport_ImportModule("dataclasses");
  if (!dataclasses)
    return -1;
  PyObject *frozen = PyObject_GetAttrString(dataclasses, "FrozenInstanceError");
  Py_DECREF(dataclasses);
  if (!frozen)
    return -1;
  PyErr_Format(frozen, value ? "cannot assign to field %R" : "cannot delete field %R", name);
  Py_DECREF(frozen);
  return -1;
}

KILN_HELPER int kiln_class_traverse(PyObject *self, visitproc visit, void *arg,
                               const kiln_class *info) {
  /* Instances of a heap type hold a reference to it. */
  Py_VISIT(Py_TYPE(self));
  for (Py_ssize_t i = 0; i < info->count; ++i) {
    if (info->fields[i].kind == KILN_FIELD_INSTANCE)
      Py_VISIT(KILN_SLOT(self, info->fields[i].offset, PyObject *));
    /* A list of instances the instance alone holds: its items are the
       instance's references. (A list held also elsewhere -- another
       instance, a view, compiled code -- is not walked: its items would be
       counted once per holder. A cycle through it is not collected.) */
    kiln_list *list = info->fields[i].kind == KILN_FIELD_LIST &&
                              info->fields[i].item_kind == KILN_ITEM_OBJECT
                          ? KILN_SLOT(self, info->fields[i].offset, kiln_list *)
                          : NULL;
    if (list && list->refcount == 1)
      for (int64_t k = 0; k < list->length; ++k)
        Py_VISIT(((PyObject **)list->items)[k]);
  }
  return 0;
}

KILN_HELPER int kiln_class_clear(PyObject *self, const kiln_class *info) {
  for (Py_ssize_t i = 0; i < info->count; ++i) {
    if (info->fields[i].kind == KILN_FIELD_INSTANCE)
      Py_CLEAR(KILN_SLOT(self, info->fields[i].offset, PyObject *));
    if (info->fields[i].kind == KILN_FIELD_LIST) {
      kiln_list *list = KILN_SLOT(self, info->fields[i].offset, kiln_list *);
      KILN_SLOT(self, info->fields[i].offset, kiln_list *) = NULL;
      kiln_field_list_drop(list);
    }
  }
  return 0;
}

/* The strings of str fields and the lists of list fields, given back when
   the instance goes (no Python objects: a list of instances is walked by
   kiln_class_traverse instead). */
KILN_HELPER void kiln_class_release_strings(PyObject *self, const kiln_class *info) {
  for (Py_ssize_t i = 0; i < info->count; ++i) {
    if (info->fields[i].kind == KILN_FIELD_STR) {
      kiln_str *text = KILN_SLOT(self, info->fields[i].offset, kiln_str *);
      KILN_SLOT(self, info->fields[i].offset, kiln_str *) = NULL;
      kiln_release_str(text);
    }
    if (info->fields[i].kind == KILN_FIELD_LIST) {
      kiln_list *list = KILN_SLOT(self, info->fields[i].offset, kiln_list *);
      KILN_SLOT(self, info->fields[i].offset, kiln_list *) = NULL;
      kiln_field_list_drop(list);
    }
  }
}

/* A tuple of the fields' values: the state __reduce__ pickles, and what
   the dataclass methods compare and hash. `unset_as_none`: a field never
   set is None in the state (pickling never fails on it). */
KILN_HELPER PyObject *kiln_field_tuple(PyObject *self, const kiln_class *info, int unset_as_none) {
  PyObject *values = PyTuple_New(info->count);
  if (!values)
    return NULL;
  for (Py_ssize_t i = 0; i < info->count; ++i) {
    const kiln_field *field = &info->fields[i];
    PyObject *value = (field->kind == KILN_FIELD_INSTANCE || field->kind == KILN_FIELD_STR ||
                       field->kind == KILN_FIELD_LIST) &&
                              unset_as_none && !KILN_SLOT(self, field->offset, PyObject *)
                          ? Py_NewRef(Py_None)
                          : kiln_field_value(self, field);
    if (!value) {
      Py_DECREF(values);
      return NULL;
    }
    PyTuple_SET_ITEM(values, i, value);
  }
  return values;
}

/* __reduce__: (copyreg.__newobj__, (cls,), state): unpickling and copying
   make the object with tp_new (no __init__ call, as for any class) and
   give it the fields through __setstate__. A cycle pickles: the object
   exists before its state is loaded. */
KILN_HELPER PyObject *kiln_class_reduce(PyObject *self, const kiln_class *info) {
  PyObject *copyreg = PyImport_ImportModule("copyreg");
  if (!copyreg)
    return NULL;
  PyObject *newobj = PyObject_GetAttrString(copyreg, "__newobj__");
  Py_DECREF(copyreg);
  if (!newobj)
    return NULL;
  PyObject *state = kiln_field_tuple(self, info, 1);
  if (!state) {
    Py_DECREF(newobj);
    return NULL;
  }
  PyObject *reduced = Py_BuildValue("(N(O)N)", newobj, (PyObject *)Py_TYPE(self), state);
  return reduced;
}

/* __setstate__(state): the fields from the tuple __reduce__ made, each
   checked as an assignment is (a pickle cannot make an ill-typed object);
   frozen classes too. */
KILN_HELPER PyObject *kiln_class_setstate(PyObject *self, PyObject *state, const kiln_class *info) {
  if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != info->count) {
    PyErr_Format(PyExc_TypeError, "%.100s.__setstate__() expects a tuple of %zd field values",
                 Py_TYPE(self)->tp_name, info->count);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < info->count; ++i)
    if (kiln_store_field(self, &info->fields[i], PyTuple_GET_ITEM(state, i), 1) < 0)
      return NULL;
  Py_RETURN_NONE;
}

/* A dataclass's __repr__ when the frontend compiled none: `P(x=1, y=2.0)`,
   the qualified name of the class, each field's repr, and `...` for an
   object already being printed (dataclasses' recursive_repr). */
KILN_HELPER PyObject *kiln_dataclass_repr(PyObject *self, const kiln_class *info) {
  int entered = Py_ReprEnter(self);
  if (entered != 0)
    return entered > 0 ? PyUnicode_FromString("...") : NULL;
  PyObject *qualname = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "__qualname__");
  PyObject *parts = PyList_New(0);
  PyObject *result = NULL;
  if (!qualname || !parts)
    goto done;
  for (Py_ssize_t i = 0; i < info->count; ++i) {
    PyObject *value = kiln_field_value(self, &info->fields[i]);
    if (!value)
      goto done;
    PyObject *part = PyUnicode_FromFormat("%s=%R", info->fields[i].name, value);
    Py_DECREF(value);
    if (!part || PyList_Append(parts, part) < 0) {
      Py_XDECREF(part);
      goto done;
    }
    Py_DECREF(part);
  }
  PyObject *separator = PyUnicode_FromString(", ");
  PyObject *joined = separator ? PyUnicode_Join(separator, parts) : NULL;
  Py_XDECREF(separator);
  if (joined)
    result = PyUnicode_FromFormat("%U(%U)", qualname, joined);
  Py_XDECREF(joined);
done:
  Py_XDECREF(qualname);
  Py_XDECREF(parts);
  Py_ReprLeave(self);
  return result;
}

/* A dataclass's comparison when the frontend compiled none: the field
   tuples compared, for another object of exactly this class only. */
KILN_HELPER PyObject *kiln_dataclass_compare(PyObject *self, PyObject *other, int op,
                                        const kiln_class *info) {
  if (Py_TYPE(other) != Py_TYPE(self))
    Py_RETURN_NOTIMPLEMENTED;
  PyObject *mine = kiln_field_tuple(self, info, 0);
  PyObject *theirs = mine ? kiln_field_tuple(other, info, 0) : NULL;
  PyObject *result = theirs ? PyObject_RichCompare(mine, theirs, op) : NULL;
  Py_XDECREF(mine);
  Py_XDECREF(theirs);
  return result;
}

/* A frozen dataclass's __hash__ when the frontend compiled none: the hash
   of the field tuple. */
KILN_HELPER Py_hash_t kiln_dataclass_hash(PyObject *self, const kiln_class *info) {
  PyObject *values = kiln_field_tuple(self, info, 0);
  if (!values)
    return -1;
  Py_hash_t hash = PyObject_Hash(values);
  Py_DECREF(values);
  return hash;
}

/* A compiled __hash__'s int as a hash (-1 is CPython's error value, so a
   hash of -1 becomes -2, as for a Python __hash__). */
KILN_HELPER Py_hash_t kiln_hash_of_result(PyObject *result) {
  if (!result)
    return -1;
  Py_hash_t hash = PyLong_Check(result) ? PyObject_Hash(result) : -1;
  if (hash == -1 && !PyErr_Occurred())
    hash = -2;
  if (!PyLong_Check(result))
    PyErr_SetString(PyExc_TypeError, "__hash__ method should return an integer");
  Py_DECREF(result);
  return hash;
}

/* A method called from Python on an instance of a subclass defined in
   Python: TypeError, as CPython's descriptors word a wrong `self`. */
KILN_COLD PyObject *kiln_self_refused(PyObject *self, const char *class_name,
                                      const char *method) {
  PyErr_Format(PyExc_TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%.100s' "
               "object (subclasses defined in Python are not accepted by compiled code)",
               method, class_name, Py_TYPE(self)->tp_name);
  return NULL;
}

/* Why an argument cannot be an instance parameter's: TypeError naming the
   parameter, or RuntimeError when the class slot was never set. */
KILN_COLD int kiln_instance_refused(PyObject *object, void *type, int optional,
                                    const char *class_name, const char *function,
                                    const char *parameter) {
  if (!type)
    PyErr_Format(PyExc_RuntimeError, "%s() argument '%s': class %s is not bound to a type "
                 "(its extension module was not initialized)", function, parameter,
                 class_name);
  else
    PyErr_Format(PyExc_TypeError, "%s() argument '%s' must be %s%s, not %.200s%s", function,
                 parameter, class_name, optional ? " or None" : "", Py_TYPE(object)->tp_name,
                 kiln_python_subclass_note(object, type));
  return -1;
}

/* The argument of an instance parameter: an object of exactly the class or
   of one of its compiled subclasses (`subclass_slots`; no conversion: the
   compiled code reads the caller's object), or None for an Optional one
   (NULL). */
KILN_INLINE int kiln_as_instance(PyObject *object, void *type, void **const *subclass_slots,
                                 int optional, void **out, const char *class_name,
                                 const char *function, const char *parameter) {
  if (KILN_LIKELY(type && Py_TYPE(object) == (PyTypeObject *)type) ||
      kiln_of_subclass(object, subclass_slots)) {
    *out = object;
    return 0;
  }
  if (optional && object == Py_None) {
    *out = NULL;
    return 0;
  }
  return kiln_instance_refused(object, type, optional, class_name, function, parameter);
}

/* A returned instance: the compiled function's new reference, or None for
   NULL (an Optional result). */
static inline PyObject *kiln_instance_result(void *result) {
  return result ? (PyObject *)result : Py_NewRef(Py_None);
}

/* `'x'`, `'x' and 'y'`, `'x', 'y', and 'z'`: the names of missing
   arguments as CPython lists them. */
KILN_HELPER PyObject *kiln_listed_names(const char *const *names, Py_ssize_t count) {
  PyObject *text = PyUnicode_FromString("");
  for (Py_ssize_t i = 0; text && i < count; ++i) {
    const char *separator = i == 0 ? "" : count == 2 ? " and " : i == count - 1 ? ", and " : ", ";
    PyObject *longer = PyUnicode_FromFormat("%U%s'%s'", text, separator, names[i]);
    Py_DECREF(text);
    text = longer;
  }
  return text;
}

/* Binds one keyword argument; -1 with CPython's TypeError when no
   parameter has its name, or the parameter was given already. */
KILN_HELPER int kiln_bind_keyword(PyObject *key, PyObject *value, PyObject **bound,
                             Py_ssize_t count, const char *const *names,
                             const char *function) {
  if (!PyUnicode_Check(key)) {
    PyErr_Format(PyExc_TypeError, "%s() keywords must be strings", function);
    return -1;
  }
  for (Py_ssize_t i = 0; i < count; ++i)
    if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
      if (bound[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", function,
                     names[i]);
        return -1;
      }
      bound[i] = value;
      return 0;
    }
  PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", function, key);
  return -1;
}

/* Binds a call of a method as CPython binds a call of a `def`, with its
   messages (`Node.__init__() missing 1 required positional argument:
   'y'`): the positional arguments, then the keywords (a vectorcall's
   `kwnames`, or tp_init's dict), then the checks of too many and of
   missing ones. bound[0, implicit) is given (`self`); the parameters from
   `required` on have defaults and stay NULL when not passed. `unseen`
   parameters come before bound[0] in the `def` but not in the compiled
   function (a classmethod's `cls`): CPython's counts include them. */
KILN_HELPER int kiln_bind_method_call(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                                 PyObject *kwargs, PyObject **bound, Py_ssize_t count,
                                 Py_ssize_t implicit, Py_ssize_t required, Py_ssize_t unseen,
                                 const char *const *names, const char *function) {
  Py_ssize_t explicit_count = count - implicit;
  for (Py_ssize_t i = implicit; i < count; ++i)
    bound[i] = i - implicit < nargs ? args[i - implicit] : NULL;
  if (kwnames)
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k)
      if (kiln_bind_keyword(PyTuple_GET_ITEM(kwnames, k), args[nargs + k], bound, count, names,
                            function) < 0)
        return -1;
  if (kwargs) {
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwargs, &position, &key, &value))
      if (kiln_bind_keyword(key, value, bound, count, names, function) < 0)
        return -1;
  }
  if (nargs > explicit_count) {
    Py_ssize_t given = nargs + implicit + unseen;
    required += unseen;
    count += unseen;
    if (required < count)
      PyErr_Format(PyExc_TypeError, "%s() takes from %zd to %zd positional arguments but %zd "
                   "%s given", function, required, count, given, given == 1 ? "was" : "were");
    else
      PyErr_Format(PyExc_TypeError, "%s() takes %zd positional argument%s but %zd %s given",
                   function, count, count == 1 ? "" : "s", given, given == 1 ? "was" : "were");
    return -1;
  }
  const char *missing[64];
  Py_ssize_t missing_count = 0;
  for (Py_ssize_t i = implicit; i < required; ++i)
    if (!bound[i] && missing_count < 64)
      missing[missing_count++] = names[i];
  if (missing_count) {
    PyObject *listed = kiln_listed_names(missing, missing_count);
    if (listed) {
      PyErr_Format(PyExc_TypeError, "%s() missing %zd required positional argument%s: %U",
                   function, missing_count, missing_count == 1 ? "" : "s", listed);
      Py_DECREF(listed);
    }
    return -1;
  }
  return 0;
}

/* `Node(1)` of a class without __init__: object.__init__'s rule. */
KILN_HELPER int kiln_init_without_arguments(PyObject *self, PyObject *args, PyObject *kwargs) {
  if (PyTuple_GET_SIZE(args) || (kwargs && PyDict_GET_SIZE(kwargs))) {
    PyErr_Format(PyExc_TypeError, "%.100s() takes no arguments", Py_TYPE(self)->tp_name);
    return -1;
  }
  return 0;
}

/* Sets a class slot: the extension's own type at init, or the type another
   extension made (_kiln_bind_class). The slot holds a reference. */
KILN_HELPER void kiln_set_class_slot(void **slot, PyObject *type) {
  PyObject *old = (PyObject *)*slot;
  *slot = Py_NewRef(type);
  Py_XDECREF(old);
}

/* The operators a class defines (`__add__`, `__neg__`, ...: methods in
   tp_methods) are made the type's slots too, so `a + b` calls them from
   Python: assigning a dunder to a type is what makes CPython update the
   matching slot, as class creation does for a class written in Python. */
KILN_HELPER int kiln_operator_slots(PyObject *type, const PyType_Spec *spec) {
  for (const PyType_Slot *slot = spec->slots; slot->slot; ++slot) {
    if (slot->slot != Py_tp_methods)
      continue;
    for (const PyMethodDef *method = slot->pfunc; method->ml_name; ++method) {
      size_t length = strlen(method->ml_name);
      if (length < 5 || strncmp(method->ml_name, "__", 2) != 0 ||
          strcmp(method->ml_name + length - 2, "__") != 0 ||
          strcmp(method->ml_name, "__reduce__") == 0 ||
          strcmp(method->ml_name, "__setstate__") == 0)
        continue;
      PyObject *descriptor =
          PyDict_GetItemString(((PyTypeObject *)type)->tp_dict, method->ml_name);
      if (descriptor && PyObject_SetAttrString(type, method->ml_name, descriptor) < 0)
        return -1;
    }
  }
  return 0;
}

/* Makes the type of a class: its Python name, qualified name and layout
   attribute set, added to the module, the class slot pointing at it. */
KILN_HELPER int kiln_make_class(PyObject *module, PyType_Spec *spec, const char *name,
                           const char *layout, void **slot, void **base_slot) {
  /* A subclass's type derives from its base class's, made before it. */
  PyObject *type = PyType_FromSpecWithBases(spec, base_slot ? (PyObject *)*base_slot : NULL);
  if (!type)
    return -1;
  /* The spec's "<extension>.<Class>" sets __module__; tp_name becomes the
     plain name, which CPython's messages about the object print
     ("'Node' object has no attribute 'z'"), as for a Python class. */
  PyObject *plain = PyUnicode_FromString(name);
  PyObject *layout_text = PyUnicode_FromString(layout);
  int status = plain && layout_text && PyObject_SetAttrString(type, "__name__", plain) == 0 &&
                       PyObject_SetAttrString(type, "__qualname__", plain) == 0 &&
                       PyObject_SetAttrString(type, "__kiln_layout__", layout_text) == 0 &&
                       PyModule_AddObjectRef(module, name, type) == 0
                   ? 0
                   : -1;
  Py_XDECREF(plain);
  Py_XDECREF(layout_text);
  if (status == 0)
    status = kiln_operator_slots(type, spec);
  if (status == 0)
    kiln_set_class_slot(slot, type);
  Py_DECREF(type);
  return status;
}

/* One class the extension's code uses: its name, its slot, the layout its
   compiled code reads. */
typedef struct {
  const char *name;
  void **slot;
  const char *layout;
} kiln_class_binding;
'''


BIND_FUNCTION = r'''/* _kiln_bind_class(name, type): points the class slot `name` at `type`, a
   type another Kiln extension made for the same class (compile on first
   call builds each function apart from the classes). The layout the
   compiled code here reads must be the type's. */
static PyObject *kiln_bind_class(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyType_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "_kiln_bind_class(name: str, type: type)");
    return NULL;
  }
  for (const kiln_class_binding *binding = kiln_class_bindings; binding->name; ++binding) {
    if (PyUnicode_CompareWithASCIIString(args[0], binding->name) != 0)
      continue;
    PyObject *layout = PyObject_GetAttrString(args[1], "__kiln_layout__");
    if (!layout) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "class %s: %R is not a class compiled by Kiln",
                   binding->name, args[1]);
      return NULL;
    }
    int same = binding->layout && PyUnicode_Check(layout) &&
               PyUnicode_CompareWithASCIIString(layout, binding->layout) == 0;
    if (!same) {
      PyErr_Format(PyExc_TypeError, "class %s: the compiled class has the layout %R, but this "
                   "code was compiled for %s%s%s", binding->name, layout,
                   binding->layout ? "'" : "", binding->layout ? binding->layout : "another",
                   binding->layout ? "'" : "");
      Py_DECREF(layout);
      return NULL;
    }
    Py_DECREF(layout);
    kiln_set_class_slot(binding->slot, args[1]);
    Py_RETURN_NONE;
  }
  PyErr_Format(PyExc_KeyError, "this extension uses no class %U", args[0]);
  return NULL;
}

/* _kiln_classes(): {name: layout} of the classes this extension's code
   uses, which _kiln_bind_class can bind. */
static PyObject *kiln_classes(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  PyObject *classes = PyDict_New();
  for (const kiln_class_binding *binding = kiln_class_bindings; classes && binding->name;
       ++binding) {
    PyObject *layout = binding->layout ? PyUnicode_FromString(binding->layout)
                                       : Py_NewRef(Py_None);
    if (!layout || PyDict_SetItemString(classes, binding->name, layout) < 0)
      Py_CLEAR(classes);
    Py_XDECREF(layout);
  }
  return classes;
}'''

BIND_METHODS = [
    "  {\"_kiln_bind_class\", (PyCFunction)(void (*)(void))kiln_bind_class, METH_FASTCALL, "
    "\"Points a class slot of this extension at the type another extension made.\"},",
    "  {\"_kiln_classes\", kiln_classes, METH_NOARGS, "
    "\"{name: layout} of the classes this extension's compiled code uses.\"},",
]
