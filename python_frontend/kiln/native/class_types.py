"""The CPython face of the classes a module exports (`@kiln.export` on a
class, issue 31): the C, inside the extension, that makes one heap type
per class and exposes its compiled methods.

An instance is a CPython object whose fields sit unboxed in 8-byte slots
after the object header (kiln/frontend/classes.py computes the layout,
runtime/kiln_abi.h names the sizes, and the C static_asserts both against
Python.h). Compiled code allocates instances through the type's tp_alloc
and frees them through its tp_dealloc, which it finds in the class slot
`<mod>_<Class>__kiln_type`: a weak global of the kernels that the module's
init sets to the type made here (or that `_kiln_bind_class` points at the
type another extension made, when functions are compiled one by one).

Python reaches the fields through one getset per field that converts and
type-checks as function arguments are, the methods through tp_methods
wrappers (wrapper.generate_wrapper, with `self` first; METH_STATIC and
METH_CLASS ones without: a classmethod's compiled function has no `cls`),
the properties through getsets calling the getter and the setter, and construction
through tp_init, which binds arguments with CPython's own messages for a
`def __init__`. Dataclass behaviour the frontend did not compile
(`__repr__`, `__eq__`, ordering, the frozen `__hash__`) is done here with
CPython's semantics, reading the fields as Python objects.
"""

from __future__ import annotations

import ast
import math

from .. import typesystem as kt
from ..frontend.classes import NO_DEFAULT, setter_method_name
from .c_text import c_double, c_string
from .class_runtime import BIND_FUNCTION, BIND_METHODS, CLASS_RUNTIME

# Field kinds of kiln_field.kind: how a slot holds its value.
FIELD_KINDS = {"int": "KILN_FIELD_INT", "float": "KILN_FIELD_FLOAT", "bool": "KILN_FIELD_BOOL",
               "object": "KILN_FIELD_INSTANCE", "str": "KILN_FIELD_STR"}

# Comparison methods and the richcompare op each one answers.
COMPARISONS = {"__eq__": "Py_EQ", "__ne__": "Py_NE", "__lt__": "Py_LT", "__le__": "Py_LE",
               "__gt__": "Py_GT", "__ge__": "Py_GE"}

# Methods tp_init, tp_repr, tp_richcompare and tp_hash call: not listed in
# tp_methods (CPython exposes each slot as its own `__init__`, `__repr__`,
# ... wrapper).
SLOT_METHODS = {"__init__", "__repr__", "__hash__", *COMPARISONS}


def is_instance_type(type_) -> bool:
    return isinstance(type_, kt.ClassType)


def field_kind(type_) -> str:
    if isinstance(type_, kt.ListType):
        return "KILN_FIELD_LIST"
    return FIELD_KINDS[type_.kind]


# KILN_ITEM_* (runtime/kiln_abi.h) of a list field's items.
ITEM_KINDS = {"int": "KILN_ITEM_INT", "float": "KILN_ITEM_FLOAT", "bool": "KILN_ITEM_BOOL",
              "str": "KILN_ITEM_STR", "object": "KILN_ITEM_OBJECT"}


def method_wrapper_name(signature) -> str:
    """The C function wrapping a compiled method: `kiln_method_Node__area`
    (a setter `x.setter`: `kiln_method_Node__x__setter`)."""
    return f"kiln_method_{signature.class_name}__{signature.method_name.replace('.', '__')}"


def class_c_name(info) -> str:
    return info.name


def holds_references(info) -> bool:
    """Whether instances of class `info` hold references (a field of an
    instance type, or a list of instances): only those can be in a cycle,
    and take part in CPython's cycle collector."""
    return any(isinstance(f.type, kt.ClassType) or (
        isinstance(f.type, kt.ListType) and isinstance(f.type.item, kt.ClassType))
        for f in info.fields)


def class_methods(info, signatures) -> dict:
    """method name -> signature of the compiled methods of class `info`."""
    return {s.method_name: s for s in signatures
            if getattr(s, "class_name", None) == info.name}


def c_literal(value) -> str:
    """A C literal of a field default (an int, float or bool literal)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return f"INT64_C({value})" if -2 ** 63 < value < 2 ** 63 else "INT64_MIN"
    return c_double(float(value))




def _field_table(info, module: str) -> list:
    from ..frontend.classes import class_slot_symbol

    name = class_c_name(info)
    rows = []
    for field in info.fields:
        type_ = field.type
        described = c_string(f"attribute '{field.name}' of '{info.name}'")
        if is_instance_type(type_):
            slot = f"&{class_slot_symbol(module, type_.class_name)}"
            rows.append(f"  {{\"{field.name}\", {field.offset}, KILN_FIELD_INSTANCE, "
                        f"{int(type_.optional)}, {slot}, \"{type_.class_name}\", "
                        f"{subclass_slots_name(type_.class_name)}, 0, {described}}},")
        elif isinstance(type_, kt.ListType):
            item = type_.item
            if is_instance_type(item):
                item_class = (f"&{class_slot_symbol(module, item.class_name)}, "
                              f"\"{item.class_name}\", {subclass_slots_name(item.class_name)}")
            else:
                item_class = "NULL, NULL, NULL"
            rows.append(f"  {{\"{field.name}\", {field.offset}, KILN_FIELD_LIST, 0, "
                        f"{item_class}, {ITEM_KINDS[item.kind]}, {described}}},")
        else:
            rows.append(f"  {{\"{field.name}\", {field.offset}, {field_kind(type_)}, 0, NULL, "
                        f"NULL, NULL, 0, {described}}},")
    out = [f"static const kiln_field kiln_fields_{name}[] = {{"]
    out += rows or ["  {NULL, 0, 0, 0, NULL, NULL, NULL, 0, NULL},"]
    out += ["};",
            f"static const kiln_class kiln_class_{name} = {{kiln_fields_{name}, "
            f"{len(info.fields)}}};", ""]
    return out


def _layout_asserts(info) -> list:
    from ..frontend.classes import FIELD_SIZE, OBJECT_HEADER_SIZE

    out = [f"_Static_assert({info.basicsize} == KILN_OBJECT_HEADER_SIZE + {len(info.fields)} * "
           f"KILN_OBJECT_FIELD_SIZE, \"class {info.name}: size disagrees with kiln_abi.h\");"]
    for index, field in enumerate(info.fields):
        out.append(f"_Static_assert({field.offset} == KILN_OBJECT_HEADER_SIZE + {index} * "
                   f"KILN_OBJECT_FIELD_SIZE, \"{info.name}.{field.name}: offset disagrees "
                   "with kiln_abi.h\");")
    assert OBJECT_HEADER_SIZE == 16 and FIELD_SIZE == 8, "kiln/frontend/classes.py changed"
    return out


def _docstring_of(info) -> str | None:
    node = getattr(info, "node", None)
    return ast.get_docstring(node) if isinstance(node, ast.ClassDef) else None


def _text_signature(signature, kind: str) -> str:
    """The `__text_signature__` line of a method's doc, which
    inspect.signature reads: `area($self, k)`, a classmethod's
    `from_polar($type, r, phi)` (its compiled function has no `cls`)."""
    implicit = {"staticmethod": None, "classmethod": "$type"}.get(kind, "$self")
    params = [p.name for p in signature.params[0 if implicit != "$self" else 1:]]
    if implicit:
        params.insert(0, implicit)
    return f"{signature.method_name}({', '.join(params)})\n--\n\n"


def subclass_slots_name(class_name: str) -> str:
    """The C array of the class slots of a class's compiled subclasses
    (NULL-terminated), which the boundary's checks accept besides the
    class's own type."""
    return f"kiln_subclasses_{class_name}"


def subclass_names(classes, name: str) -> list:
    """The compiled classes of `classes` (ClassInfos) deriving from `name`."""
    return [info.name for info in classes
            if info.name != name and any(c.name == name for c in info.lineage)]


def generate_class(module: str, info, methods: dict, source_path: str,
                   generate_wrapper, is_base=False) -> list:
    """The C of one class: its field table, slots (tp_init, tp_dealloc, ...),
    method table and spec. `generate_wrapper` is wrapper.py's function
    wrapper generator, which also writes each method's wrapper (passed in:
    wrapper.py builds the extension and calls this module, not the other
    way round)."""
    name = class_c_name(info)
    out = [f"/* ---- class {info.name} ({source_path}:{getattr(info, 'line', 0)}) */"]
    out += _layout_asserts(info)
    out += _field_table(info, module)
    # Python may derive classes from a base class's type: its methods
    # check that `self` is of a compiled class.
    wrapper_options = {"checks_self": True} if is_base else {}
    info_ref = f"&kiln_class_{name}"
    # Every compiled method's wrapper: tp_methods, properties and the slots
    # below call them.
    for method in methods.values():
        out += generate_wrapper(module, method, owner=info, **wrapper_options)
    slots = []

    def slot(kind: str, function: str):
        slots.append(f"  {{{kind}, (void *){function}}},")

    # Allocation: fields zero (tp_alloc); a plain class's class-level
    # defaults written before __init__ runs, as reading the class attribute
    # would give them in CPython.
    defaults = [] if info.dataclass else [f for f in info.fields if f.default is not NO_DEFAULT
                                          and not is_instance_type(f.type)]
    if defaults:
        out += [f"static PyObject *kiln_new_{name}(PyTypeObject *type, PyObject *args, "
                "PyObject *kwargs) {",
                "  (void)args;",
                "  (void)kwargs;",
                "  PyObject *self = type->tp_alloc(type, 0);",
                "  if (!self)",
                "    return NULL;"]
        for field in defaults:
            c_type = {"KILN_FIELD_INT": "int64_t", "KILN_FIELD_FLOAT": "double",
                      "KILN_FIELD_BOOL": "uint8_t"}[field_kind(field.type)]
            out.append(f"  KILN_SLOT(self, {field.offset}, {c_type}) = "
                       f"{c_literal(field.default)};")
        out += ["  return self;", "}", ""]
        slot("Py_tp_new", f"kiln_new_{name}")
    else:
        slot("Py_tp_new", "PyType_GenericNew")
    init = methods.get("__init__")
    inherits_init = init is None and info.defining("__init__") is not None
    if inherits_init:
        pass        # the base class's tp_init, inherited
    elif init is not None:
        out += [f"static int kiln_init_{name}(PyObject *self, PyObject *args, PyObject *kwargs) {{",
                f"  PyObject *result = {method_wrapper_name(init)}(self, "
                "&PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args), NULL, kwargs);",
                "  if (!result)",
                "    return -1;",
                "  Py_DECREF(result);",
                "  return 0;",
                "}", ""]
        slot("Py_tp_init", f"kiln_init_{name}")
    else:
        slot("Py_tp_init", "kiln_init_without_arguments")
    # A class whose fields are all numbers holds no references: its
    # instances can be in no cycle, so they stay out of CPython's cycle
    # collector (no GC header, no tracking, no collection started by making
    # them: a Vec3 made per ray costs a plain allocation). Otherwise
    # deallocation goes through the trashcan: dropping the head of a long
    # linked list frees its nodes without a C recursion as deep as it.
    collected = holds_references(info)
    strings = [f"  kiln_class_release_strings(self, {info_ref});"] \
        if any(f.type == kt.string or isinstance(f.type, kt.ListType)
               for f in info.fields) else []
    if collected:
        out += [f"static int kiln_traverse_{name}(PyObject *self, visitproc visit, void *arg) {{",
                f"  return kiln_class_traverse(self, visit, arg, {info_ref});",
                "}",
                "",
                f"static int kiln_clear_{name}(PyObject *self) {{",
                f"  return kiln_class_clear(self, {info_ref});",
                "}",
                "",
                f"static void kiln_dealloc_{name}(PyObject *self) {{",
                "  PyTypeObject *type = Py_TYPE(self);",
                "  PyObject_GC_UnTrack(self);",
                f"  Py_TRASHCAN_BEGIN(self, kiln_dealloc_{name})",
                f"  kiln_class_clear(self, {info_ref});",
                *strings,
                "  type->tp_free(self);",
                "  Py_DECREF(type);",
                "  Py_TRASHCAN_END",
                "}",
                ""]
        slot("Py_tp_traverse", f"kiln_traverse_{name}")
        slot("Py_tp_clear", f"kiln_clear_{name}")
    else:
        out += [f"static void kiln_dealloc_{name}(PyObject *self) {{",
                "  PyTypeObject *type = Py_TYPE(self);",
                *strings,
                "  type->tp_free(self);",
                "  Py_DECREF(type);",
                "}",
                ""]
    out += [f"static PyObject *kiln_reduce_{name}(PyObject *self, PyObject *unused) {{",
            "  (void)unused;",
            f"  return kiln_class_reduce(self, {info_ref});",
            "}",
            "",
            f"static PyObject *kiln_setstate_{name}(PyObject *self, PyObject *state) {{",
            f"  return kiln_class_setstate(self, state, {info_ref});",
            "}",
            ""]
    slot("Py_tp_dealloc", f"kiln_dealloc_{name}")
    out += _special_slots(info, methods, slot)
    if info.frozen:
        slot("Py_tp_setattro", "kiln_frozen_setattro")
    # Methods, static methods and properties.
    table = []
    getset = [f"  {{\"{f.name}\", kiln_field_get, kiln_field_set, NULL, "
              f"(void *)&kiln_fields_{name}[{i}]}}," for i, f in enumerate(info.fields)]
    for method_name in _method_order(info, methods):
        signature = methods[method_name]
        kind = getattr(signature, "method_kind", "method")
        user_doc = _method_doc(info, method_name)
        if kind == "setter":
            continue            # in its property's getset
        if kind == "property":
            out += [f"static PyObject *kiln_property_{name}__{method_name}(PyObject *self, "
                    "void *closure) {",
                    "  (void)closure;",
                    f"  return {method_wrapper_name(signature)}(self, NULL, 0, NULL, NULL);",
                    "}", ""]
            setter = methods.get(setter_method_name(method_name))
            store = "kiln_property_set"
            if setter is not None:
                store = f"kiln_property_store_{name}__{method_name}"
                out += _property_setter(store, setter)
            getset.append(f"  {{\"{method_name}\", kiln_property_{name}__{method_name}, "
                          f"{store}, {c_string(user_doc) if user_doc else 'NULL'}, "
                          f"(void *){c_string(method_name)}}},")
            continue
        if method_name in SLOT_METHODS:
            continue
        doc = _text_signature(signature, kind) + (user_doc or "")
        out += [f"static PyObject *kiln_fastcall_{name}__{method_name}(PyObject *self, "
                "PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {",
                f"  return {method_wrapper_name(signature)}(self, args, nargs, kwnames, NULL);",
                "}", ""]
        # A METH_CLASS function gets the type as `self`, which the wrapper
        # does not pass on: the type is the class the method was compiled for.
        flags = "METH_FASTCALL | METH_KEYWORDS" + {"staticmethod": " | METH_STATIC",
                                                   "classmethod": " | METH_CLASS"}.get(kind, "")
        table.append(f"  {{\"{method_name}\", (PyCFunction)(void (*)(void))"
                     f"kiln_fastcall_{name}__{method_name}, {flags}, {c_string(doc)}}},")
    table += [f"  {{\"__reduce__\", kiln_reduce_{name}, METH_NOARGS, "
              "\"Pickling and copying: the class and the fields' values.\"},",
              f"  {{\"__setstate__\", kiln_setstate_{name}, METH_O, "
              "\"Restores the fields from __reduce__'s state.\"},"]
    out += [f"static PyMethodDef kiln_methods_{name}[] = {{", *table,
            "  {NULL, NULL, 0, NULL}", "};", "",
            f"static PyGetSetDef kiln_getset_{name}[] = {{", *getset,
            "  {NULL, NULL, NULL, NULL, NULL}", "};", ""]
    slot("Py_tp_methods", f"kiln_methods_{name}")
    slot("Py_tp_getset", f"kiln_getset_{name}")
    doc = _docstring_of(info)
    class_doc = _constructor_signature(info, init) + (f"{doc}\n\n" if doc else "") + \
        f"Compiled by Kiln from {source_path}:{getattr(info, 'line', 0)}."
    slots.append(f"  {{Py_tp_doc, (void *){c_string(class_doc)}}},")
    out += [f"static PyType_Slot kiln_slots_{name}[] = {{", *slots, "  {0, NULL}", "};", "",
            f"static PyType_Spec kiln_spec_{name} = {{",
            f"  \"{module}.{info.name}\", {info.basicsize}, 0,",
            # BASETYPE only for a base of compiled classes: a subclass made
            # in Python could override what compiled code calls directly,
            # and the boundary refuses its instances.
            "  Py_TPFLAGS_DEFAULT" + (" | Py_TPFLAGS_HAVE_GC" if collected else "") +
            (" | Py_TPFLAGS_BASETYPE," if is_base else ","),
            f"  kiln_slots_{name}}};", ""]
    return out


def _property_setter(function: str, setter) -> list:
    """The getset setter of a property with a compiled setter: `o.p = v`
    calls it with v (converted and type-checked as its parameter);
    `del o.p` raises CPython's "has no deleter"."""
    return [f"static int {function}(PyObject *self, PyObject *value, void *closure) {{",
            "  if (!value)",
            "    return kiln_property_set(self, value, closure);",
            f"  PyObject *result = {method_wrapper_name(setter)}(self, &value, 1, NULL, NULL);",
            "  if (!result)",
            "    return -1;",
            "  Py_DECREF(result);",
            "  return 0;",
            "}", ""]


def _constructor_signature(info, init) -> str:
    """The first lines of the class's doc that CPython reads as its
    `__text_signature__` (inspect.signature(Node) gives `(value,
    left=None)`): `__init__`'s parameters after self, with their
    defaults."""
    params = []
    for param in (init.params[1:] if init is not None else []):
        default = param.default
        if default is None:
            params.append(param.name)
        elif isinstance(default, (bool, int)) or (isinstance(default, float) and
                                                   math.isfinite(default)):
            params.append(f"{param.name}={default!r}")
        elif is_instance_type(param.type):
            params.append(f"{param.name}=None")
        else:
            return ""       # a default CPython's signature parser may not read
                            # (a default_factory's `<factory>` too)
    return f"{info.name}({', '.join(params)})\n--\n\n"


def _method_order(info, methods: dict) -> list:
    order = [m for m in getattr(info, "method_order", []) if m in methods]
    return order + [m for m in methods if m not in order]


def _method_doc(info, method_name: str) -> str | None:
    node = info.methods.get(method_name) if isinstance(getattr(info, "methods", None),
                                                       dict) else None
    return ast.get_docstring(node) if isinstance(node, (ast.FunctionDef,)) else None


def _special_slots(info, methods: dict, slot) -> list:
    """tp_repr, tp_richcompare and tp_hash: from the compiled methods, else
    (dataclasses) done here as CPython's dataclass module does."""
    name = class_c_name(info)
    info_ref = f"&kiln_class_{name}"
    out = []
    repr_method = methods.get("__repr__")
    if repr_method is not None:
        out += [f"static PyObject *kiln_repr_{name}(PyObject *self) {{",
                f"  return {method_wrapper_name(repr_method)}(self, NULL, 0, NULL, NULL);",
                "}", ""]
        slot("Py_tp_repr", f"kiln_repr_{name}")
    elif "__repr__" in dataclass_methods(info):
        out += [f"static PyObject *kiln_repr_{name}(PyObject *self) {{",
                f"  return kiln_dataclass_repr(self, {info_ref});", "}", ""]
        slot("Py_tp_repr", f"kiln_repr_{name}")
    compiled = {m: s for m, s in methods.items() if m in COMPARISONS}
    synthesized = dataclass_methods(info) & set(COMPARISONS)
    if compiled or synthesized:
        body = [f"static PyObject *kiln_richcompare_{name}(PyObject *self, PyObject *other, "
                "int op) {",
                "  switch (op) {"]
        for method, op in COMPARISONS.items():
            if method in compiled:
                signature = compiled[method]
                other_type = signature.params[1].type if len(signature.params) > 1 else None
                body.append(f"  case {op}:")
                if is_instance_type(other_type) and other_type.class_name == info.name:
                    # Another type: NotImplemented, so Python tries the
                    # reflected method, then identity (==) or TypeError (<).
                    body += ["    if (Py_TYPE(other) != Py_TYPE(self))",
                             "      Py_RETURN_NOTIMPLEMENTED;"]
                body.append(f"    return {method_wrapper_name(signature)}(self, &other, 1, "
                            "NULL, NULL);")
            elif method in synthesized:
                body += [f"  case {op}:",
                         f"    return kiln_dataclass_compare(self, other, op, {info_ref});"]
        if "__ne__" not in compiled and ("__eq__" in compiled or "__eq__" in synthesized):
            # object.__ne__: the inverse of __eq__ unless that is NotImplemented.
            body += ["  case Py_NE: {",
                     f"    PyObject *equal = kiln_richcompare_{name}(self, other, Py_EQ);",
                     "    if (!equal || equal == Py_NotImplemented)",
                     "      return equal;",
                     "    int truth = PyObject_IsTrue(equal);",
                     "    Py_DECREF(equal);",
                     "    if (truth < 0)",
                     "      return NULL;",
                     "    return PyBool_FromLong(!truth);",
                     "  }"]
        body += ["  default:", "    Py_RETURN_NOTIMPLEMENTED;", "  }", "}", ""]
        out += body
        slot("Py_tp_richcompare", f"kiln_richcompare_{name}")
    hash_method = methods.get("__hash__")
    if hash_method is not None:
        out += [f"static Py_hash_t kiln_hash_{name}(PyObject *self) {{",
                f"  return kiln_hash_of_result({method_wrapper_name(hash_method)}(self, NULL, "
                "0, NULL, NULL));",
                "}", ""]
        slot("Py_tp_hash", f"kiln_hash_{name}")
    elif info.dataclass and info.eq and info.frozen:
        out += [f"static Py_hash_t kiln_hash_{name}(PyObject *self) {{",
                f"  return kiln_dataclass_hash(self, {info_ref});", "}", ""]
        slot("Py_tp_hash", f"kiln_hash_{name}")
    # Otherwise a class with a tp_richcompare and no tp_hash gets
    # `__hash__ = None` from PyType_Ready (unhashable, as CPython makes a
    # class defining __eq__ without __hash__), and one without keeps
    # object's identity hash.
    return out


def dataclass_methods(info) -> set:
    """The methods @dataclass generates for the class (`repr=False` makes
    no `__repr__`, ...): the frontend's list when it gives one."""
    if not info.dataclass:
        return set()
    given = getattr(info, "synthesized", None)
    if given or getattr(info, "repr_in_extension", False):
        return set(given or ()) | ({"__repr__"} if info.repr_in_extension else set())
    return {"__init__", "__repr__"} | ({"__eq__"} if info.eq else set()) | \
        ({"__lt__", "__le__", "__gt__", "__ge__"} if info.order else set())


def generate_classes(module: str, classes, signatures, source_path: str,
                     generate_wrapper) -> tuple:
    """(C before the module's methods, C lines of the module init making
    the types, the binding table's name) for `classes`."""
    from ..frontend.classes import class_slot_symbol

    used = used_class_names(classes, signatures)
    out = [CLASS_RUNTIME]
    # The slots: weak globals of the kernels (kilnc keeps them public).
    out += [f"extern void *{class_slot_symbol(module, n)};" for n in used]
    out.append("")
    for name in used:
        out += [f"static void **const {subclass_slots_name(name)}[] = {{"] + [
            f"  &{class_slot_symbol(module, sub)}," for sub in subclass_names(classes, name)] + [
            "  NULL};"]
    out.append("")
    for info in classes:
        out += generate_class(module, info, class_methods(info, signatures), source_path,
                              generate_wrapper, is_base=bool(subclass_names(classes, info.name)))
    layouts = {info.name: info.layout_signature() for info in classes}
    out += ["static const kiln_class_binding kiln_class_bindings[] = {"]
    out += [f"  {{\"{n}\", &{class_slot_symbol(module, n)}, "
            f"{c_string(layouts[n]) if n in layouts else 'NULL'}}}," for n in used]
    out += ["  {NULL, NULL, NULL}", "};", "",
            BIND_FUNCTION, ""]
    init = []
    for info in classes:
        name = class_c_name(info)
        base = f"&{info_slot(module, info.base)}" if info.base is not None else "NULL"
        init += [f"  if (kiln_make_class(module, &kiln_spec_{name}, \"{info.name}\", "
                 f"{c_string(info.layout_signature())}, &{info_slot(module, info)}, "
                 f"{base}) < 0) {{",
                 "    Py_DECREF(module);",
                 "    return NULL;",
                 "  }"]
        init += _constant_assignments(info, info_slot(module, info))
    return out, init


def _constant_value(value) -> str:
    """C making a new reference to the Python object of a class constant."""
    if isinstance(value, bool):
        return f"Py_NewRef({'Py_True' if value else 'Py_False'})"
    if isinstance(value, int):
        return f"PyLong_FromLongLong({c_literal(value)})"
    if isinstance(value, float):
        return f"PyFloat_FromDouble({c_double(value)})"
    data = value.encode("utf-8")
    # Octal escapes for every byte outside printable ASCII: the text may
    # hold NULs, newlines or any code point.
    escaped = "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\?' else f"\\{b:03o}"
                      for b in data)
    return f'PyUnicode_DecodeUTF8("{escaped}", {len(data)}, NULL)'


def _constant_assignments(info, slot: str) -> list:
    """Module-init C setting the class constants (`NONE = 0`) on the
    type made for `info`, where Python reads them as `C.NONE` and `o.NONE`."""
    out = []
    for name, value in info.constants.items():
        out += ["  {",
                f"    PyObject *kiln_value = {_constant_value(value)};",
                f"    int kiln_status = kiln_value ? PyObject_SetAttrString((PyObject *){slot}, "
                f"{c_string(name)}, kiln_value) : -1;",
                "    Py_XDECREF(kiln_value);",
                "    if (kiln_status < 0) {",
                "      Py_DECREF(module);",
                "      return NULL;",
                "    }",
                "  }"]
    return out


def info_slot(module: str, info) -> str:
    from ..frontend.classes import class_slot_symbol
    return class_slot_symbol(module, info.name)




def used_class_names(classes, signatures) -> list:
    """Every class whose slot the extension's C names: the classes made
    here, and the classes of fields and of parameters and results."""
    names = [info.name for info in classes]

    def add(type_):
        if is_instance_type(type_) and type_.class_name not in names:
            names.append(type_.class_name)
        for element in getattr(type_, "elements", ()) or ():
            add(element)
        if isinstance(type_, kt.ListType):
            add(type_.item)

    for info in classes:
        for field in info.fields:
            add(field.type)
    for signature in signatures:
        for param in signature.params:
            add(param.type)
        add(signature.return_type)
    # A class's compiled subclasses: the boundary takes their instances too.
    for name in list(names):
        for sub in subclass_names(classes, name):
            if sub not in names:
                names.append(sub)
    return names


def uses_classes(classes, signatures) -> bool:
    return bool(used_class_names(classes, signatures))
