"""The wrapper of an exported function compiled with parameters fixed to
their function defaults (frontend/function_arguments.py: `mode=wrap`): the
Python signature keeps them, a call passing another function runs the
Python function, which `_kiln_bind_python` gives the extension at load
time (the built `<mod>.py`, or CompiledFunction on first call)."""

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


def bind_with_function_defaults(name: str, params, function_parameters, filled_default) -> list:
    """bind_arguments for a function whose Python signature also has
    parameters fixed to a function default: they are bound by position and
    name like the others; a call passing another function than the default
    runs the Python function (what the compiled code cannot), and the
    compiled parameters are then gathered into `bound`. `filled_default`:
    the wrapper's C giving a parameter left out its default."""
    fixed = {position: parameter for position, parameter, _, _ in function_parameters}
    total, defaults_count = function_parameters[0][2], function_parameters[0][3]
    compiled_params = iter(params)
    python_names, positions, defaults = [], [], []
    for position in range(total):
        if position in fixed:
            python_names.append(fixed[position])
            continue
        index = len(positions)
        param = next(compiled_params)
        positions.append(position)
        python_names.append(param.name)
        if param.default is not None:
            defaults += filled_default(f"keyword_bound[{position}]", index, param)
    names = ", ".join(c_string(n) for n in python_names)
    out = ["  PyObject *const *python_bound = args;",
           f"  PyObject *keyword_bound[{total}];",
           f"  if (!KILN_LIKELY(kwnames == NULL && nargs == {total})) {{",
           f"    static const char *const names[] = {{{names}}};",
           f"    if (kiln_bind_arguments(args, nargs, kwnames, keyword_bound, {total}, "
           f"{total - defaults_count}, names, {c_string(name)}) < 0)",
           "      return NULL;",
           *defaults,
           "    python_bound = keyword_bound;",
           "  }"]
    for slot, position in enumerate(sorted(fixed)):
        out += [f"  if (python_bound[{position}] && python_bound[{position}] != "
                f"kiln_fixed_{name}[{slot}])",
                f"    return kiln_call_python(kiln_python_{name}, {c_string(name)}, "
                f"{c_string(fixed[position])}, args, nargs, kwnames);"]
    gathered = ", ".join(f"python_bound[{p}]" for p in positions) or "NULL"
    return out + [f"  PyObject *const compiled_bound[{max(len(positions), 1)}] = {{{gathered}}};",
                  "  PyObject *const *bound = compiled_bound;"]


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
