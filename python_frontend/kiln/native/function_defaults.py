"""The wrapper of an exported function whose Python signature is not its
compiled one (frontend/function_arguments.py): parameters compiled as
their function defaults (`mode=wrap`: the Python signature keeps them, a
call passing another function runs the Python function, which
`_kiln_bind_python` gives the extension at load time -- the built
`<mod>.py`, or CompiledFunction on first call), and tuple parameters
(`mask=(1, 0, 1)`: one argument from Python, one C parameter per
element)."""

from __future__ import annotations

from .c_text import c_string


def function_parameter_slots(signature) -> list:
    """For a function compiled with parameters fixed to their function
    defaults (frontend/function_arguments.py): the Python function and
    those defaults, set at load time by `_kiln_bind_python`."""
    if not signature.function_parameters:
        return []
    return [f"static PyObject *kiln_python_{signature.name};",
            f"static PyObject *kiln_fixed_{signature.name}[{len(signature.function_parameters)}];",
            ""]


def bind_python_signature(name: str, signature, filled_default) -> list:
    """bind_arguments for a function whose Python signature differs from
    its compiled one (frontend/function_arguments.py): parameters fixed to
    a function default (a call passing another function than the default
    runs the Python function, which the compiled code cannot), and tuple
    parameters, whose elements the C ABI takes one by one (unpacked here:
    a tuple or list of that many numbers). The arguments are bound by the
    Python signature's positions and names, then the compiled parameters'
    gathered into `bound`. `filled_default`: the wrapper's C giving a
    parameter left out its default."""
    params = signature.params
    python_names, required = signature.python_parameters
    total = len(python_names)
    compiled = {p.name: index for index, p in enumerate(params)}
    fixed = {parameter: slot for slot, (_, parameter, _, _) in
             enumerate(sorted(signature.function_parameters))}
    tuples = signature.tuple_parameters
    defaults = []
    for position, python_name in enumerate(python_names):
        if python_name in compiled and params[compiled[python_name]].default is not None:
            index = compiled[python_name]
            defaults += filled_default(f"keyword_bound[{position}]", index, params[index])
    names = ", ".join(c_string(n) for n in python_names)
    out = ["  PyObject *const *python_bound = args;",
           f"  PyObject *keyword_bound[{total}];",
           f"  if (!KILN_LIKELY(kwnames == NULL && nargs == {total})) {{",
           f"    static const char *const names[] = {{{names}}};",
           f"    if (kiln_bind_arguments(args, nargs, kwnames, keyword_bound, {total}, "
           f"{required}, names, {c_string(name)}) < 0)",
           "      return NULL;",
           *defaults,
           "    python_bound = keyword_bound;",
           "  }"]
    for position, python_name in enumerate(python_names):
        if python_name in fixed:
            out += [f"  if (python_bound[{position}] && python_bound[{position}] != "
                    f"kiln_fixed_{name}[{fixed[python_name]}])",
                    f"    return kiln_call_python(kiln_python_{name}, {c_string(name)}, "
                    f"{c_string(python_name)}, args, nargs, kwnames);"]
    gathered = {}
    for position, python_name in enumerate(python_names):
        if python_name in compiled:
            gathered[python_name] = f"python_bound[{position}]"
        elif python_name in tuples:
            elements = tuples[python_name]
            items = f"items_{python_name}"
            out += [f"  PyObject *{items}[{len(elements)}] = {{NULL}};",
                    f"  if (python_bound[{position}] && kiln_unpack_tuple(python_bound["
                    f"{position}], {len(elements)}, {items}, {c_string(name)}, "
                    f"{c_string(python_name)}) < 0)",
                    "    return NULL;"]
            for k, element in enumerate(elements):
                index = compiled[element]
                if params[index].default is not None:
                    out += filled_default(f"{items}[{k}]", index, params[index], "  ")
                gathered[element] = f"{items}[{k}]"
    listed = ", ".join(gathered[p.name] for p in params) or "NULL"
    return out + [f"  PyObject *const compiled_bound[{max(len(params), 1)}] = {{{listed}}};",
                  "  PyObject *const *bound = compiled_bound;"]


# A tuple parameter's argument: a tuple (or list) of as many numbers as
# the function takes; its items are borrowed for the call.
UNPACK_TUPLE = [
    "static int kiln_unpack_tuple(PyObject *object, Py_ssize_t count, PyObject **items,",
    "                             const char *function, const char *parameter) {",
    "  if (!PyTuple_Check(object) && !PyList_Check(object)) {",
    "    PyErr_Format(PyExc_TypeError, \"%s() argument '%s' must be a tuple of %zd numbers, "
    "not %.200s\", function, parameter, count, Py_TYPE(object)->tp_name);",
    "    return -1;",
    "  }",
    "  if (PySequence_Fast_GET_SIZE(object) != count) {",
    "    PyErr_Format(PyExc_ValueError, \"%s() argument '%s' must hold %zd numbers, not %zd\", "
    "function, parameter, count, PySequence_Fast_GET_SIZE(object));",
    "    return -1;",
    "  }",
    "  PyObject **source = PySequence_Fast_ITEMS(object);",
    "  for (Py_ssize_t i = 0; i < count; ++i)",
    "    items[i] = source[i];",
    "  return 0;",
    "}",
    "",
]


# Calls a compiled function cannot run (another function than the default
# its parameter was compiled with) go to the Python function.
CALL_PYTHON = [
    "static PyObject *kiln_call_python(PyObject *function, const char *name,",
    "                                  const char *parameter, PyObject *const *args,",
    "                                  Py_ssize_t nargs, PyObject *kwnames) {",
    "  if (!function) {",
    "    PyErr_Format(PyExc_TypeError, \"%s() was compiled with `%s` fixed to its default "
    "function, and its Python function, which takes any other, is not bound here\", name, "
    "parameter);",
    "    return NULL;",
    "  }",
    "  return PyObject_Vectorcall(function, args, (size_t)nargs, kwnames);",
    "}",
    "",
]


def bind_python_method(signatures) -> list:
    """`_kiln_bind_python(name, function)`: gives a function compiled with
    fixed function parameters its Python function and that function's
    defaults (compared by identity on each call). False for other names."""
    out = ["static PyObject *kiln_bind_python(PyObject *self, PyObject *const *args, "
           "Py_ssize_t nargs) {",
           "  (void)self;",
           "  if (nargs != 2 || !PyUnicode_Check(args[0])) {",
           "    PyErr_SetString(PyExc_TypeError, \"_kiln_bind_python(name, function)\");",
           "    return NULL;",
           "  }",
           "  const char *name = PyUnicode_AsUTF8(args[0]);",
           "  if (!name)",
           "    return NULL;"]
    for signature in signatures:
        if not getattr(signature, "function_parameters", None):
            continue
        count = signature.function_parameters[0][3]
        total = signature.function_parameters[0][2]
        out += [f"  if (strcmp(name, {c_string(signature.name)}) == 0) {{",
                "    PyObject *defaults = PyObject_GetAttrString(args[1], \"__defaults__\");",
                "    if (!defaults)",
                "      return NULL;",
                f"    if (!PyTuple_Check(defaults) || PyTuple_GET_SIZE(defaults) != {count}) {{",
                "      Py_DECREF(defaults);",
                f"      PyErr_SetString(PyExc_TypeError, \"_kiln_bind_python: the function "
                f"has not the defaults {signature.name}() was compiled with\");",
                "      return NULL;",
                "    }",
                f"    Py_XSETREF(kiln_python_{signature.name}, Py_NewRef(args[1]));"]
        for slot, (position, _, _, _) in enumerate(sorted(signature.function_parameters)):
            out.append(f"    Py_XSETREF(kiln_fixed_{signature.name}[{slot}], Py_NewRef("
                       f"PyTuple_GET_ITEM(defaults, {position - (total - count)})));")
        out += ["    Py_DECREF(defaults);", "    Py_RETURN_TRUE;", "  }"]
    return out + ["  Py_RETURN_FALSE;", "}", ""]
