"""The C that makes each `@kiln.vectorize` function a real `numpy.ufunc`.

numpy's C API (`PyUFunc_FromFuncAndDataAndSignatureAndIdentity`) builds
the ufunc around one inner loop per signature: numpy then does any rank,
broadcasting, casting, `out=`, `where=`, `dtype=`, `.reduce`, `.outer`, ...
and calls the loop on 1-D strided runs (numpy's `PyUFuncGenericFunction`).

The loop hands a run to the compiled array kernel `<name>__array`
(mlir/elementwise_kernels.py) as 1 x 1 x n views, where kiln-vectorize's
unit-stride version is the SIMD code; an operand numpy broadcasts (step 0)
is first spread into a unit-stride block on the stack, so `f(x, 2.0)`
stays SIMD. Runs the views cannot express (a step that is no multiple of
the item size) and runs whose output overlaps an input other than in
place (`.reduce` keeps its running value in the output with step 0,
`.accumulate` reads the element it wrote just before) call the scalar
function element by element, in order, as numpy's own loops do.

Only modules with ufuncs include numpy's headers and import its C API.
"""

from __future__ import annotations

from ..mlir.elementwise_kernels import ELEMENTWISE_RANK, has_reduction_kernel
from .c_text import c_string
from .gufuncs import gufunc_types, strided_view

# Elements per block of a broadcast operand spread out on the stack: the
# kernel is called once per block, so a block must dwarf the call.
SPREAD_BLOCK = 512


def uses_ufuncs(signatures) -> bool:
    return any(is_ufunc(s) for s in signatures)


def is_ufunc(signature) -> bool:
    """A @kiln.vectorize or @kiln.guvectorize function: its name is bound
    to a numpy ufunc, not to a wrapper."""
    return signature.elementwise or bool(signature.gufunc_signature)


def numpy_type_number(type_) -> str:
    return "NPY_BOOL" if type_.is_bool else f"NPY_{type_.numpy_name.upper()}"


def array_struct(type_) -> str:
    return f"kiln_{type_.name}_{ELEMENTWISE_RANK}d"


NUMPY_INCLUDES = [
    "/* numpy's C API: this module makes numpy ufuncs (@kiln.vectorize). */",
    "#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION",
    "#include <numpy/arrayobject.h>",
    "#include <numpy/ufuncobject.h>",
    "",
    "/* Whether the inputs of a run can go to the array kernel: each either is",
    "   the output itself (same start and step: in place) or does not overlap",
    "   it. numpy hands reduce and accumulate runs whose output is read back",
    "   by the next element; those run element by element. */",
    "static int kiln_ufunc_independent(char **args, npy_intp const *steps, npy_intp n, "
    "int inputs, npy_intp itemsize) {",
    "  char *out = args[inputs];",
    "  npy_intp out_step = steps[inputs];",
    "  if (out_step == 0 && n > 1)",
    "    return 0;",
    "  char *out_low = out_step < 0 ? out + (n - 1) * out_step : out;",
    "  char *out_high = (out_step < 0 ? out : out + (n - 1) * out_step) + itemsize;",
    "  for (int k = 0; k < inputs; ++k) {",
    "    if (args[k] == out && steps[k] == out_step)",
    "      continue;",
    "    npy_intp step = steps[k];",
    "    char *low = step < 0 ? args[k] + (n - 1) * step : args[k];",
    "    char *high = (step < 0 ? args[k] : args[k] + (n - 1) * step) + itemsize;",
    "    if (low < out_high && out_low < high)",
    "      return 0;",
    "  }",
    "  return 1;",
    "}",
    "",
    "/* numpy releases the GIL around a loop unless the loop says it needs",
    "   Python; a function that can raise says so (it sets the exception after",
    "   the run, holding the GIL, and releases it itself around the run). */",
    "static PyUFunc_LegacyInnerLoopSelectionFunc *kiln_default_loop_selector;",
    "static int kiln_raising_loop_selector(PyUFuncObject *ufunc, PyArray_Descr **dtypes,",
    "                                      PyUFuncGenericFunction *loop, void **data,",
    "                                      int *needs_api) {",
    "  int status = kiln_default_loop_selector(ufunc, (void *)dtypes, loop, data, needs_api);",
    "  *needs_api = 1;",
    "  return status;",
    "}",
    "",
]


def generate_ufunc_loop(module_name: str, signature) -> list:
    """`kiln_ufunc_loop_<name>`: numpy's inner loop for one signature."""
    name = signature.name
    params = signature.params
    inputs = len(params)
    result = signature.return_type
    types = [p.type for p in params] + [result]
    widest = max(t.itemsize for t in types)
    out = [f"static void kiln_ufunc_loop_{name}(char **args, npy_intp const *dimensions, "
           "npy_intp const *steps, void *data) {",
           "  (void)data;",
           "  npy_intp n = dimensions[0];",
           "  if (n <= 0)",
           "    return;"]
    if signature.raises:
        out += ["  kiln_error error;",
                "  error.kind = 0;   /* the kernel fills the record only when it raises */",
                "  PyThreadState *kiln_thread = n >= 500 ? PyEval_SaveThread() : NULL;"]
    error_argument = ", &error" if signature.raises else ""
    divisible = " && ".join(f"steps[{k}] % {t.itemsize} == 0" for k, t in enumerate(types))
    if has_reduction_kernel(signature):
        # numpy's .reduce: the running value is the output, read as the
        # first input (both step 0).
        operand = params[1].type
        out += [f"  if (n > 1 && args[0] == args[2] && steps[0] == 0 && steps[2] == 0 && "
                f"steps[1] % {operand.itemsize} == 0) {{",
                f"    kiln_{operand.name}_1d view = {{({operand.c_type} *)args[1], "
                f"({operand.c_type} *)args[1], 0, {{n}}, {{steps[1] / {operand.itemsize}}}}};",
                f"    *({result.c_type} *)args[2] = {module_name}_{name}__reduce(&view, "
                f"*({result.c_type} *)args[0]);",
                "    return;",
                "  }"]
    out += [f"  if ({divisible} && kiln_ufunc_independent(args, steps, n, {inputs}, "
            f"{widest})) {{"]
    # Spread blocks of the broadcast inputs, then views of SPREAD_BLOCK
    # elements at most, as long as any input is broadcast; else one view.
    for k, param in enumerate(params):
        c_type = param.type.c_type
        out += [f"    {c_type} spread_{k}[{SPREAD_BLOCK}];",
                f"    int broadcast_{k} = steps[{k}] == 0 && n > 1;",
                f"    if (broadcast_{k})",
                f"      for (int j = 0; j < {SPREAD_BLOCK}; ++j)",
                f"        spread_{k}[j] = *({c_type} *)args[{k}];"]
    any_broadcast = " || ".join(f"broadcast_{k}" for k in range(inputs)) or "0"
    out += [f"    npy_intp block = ({any_broadcast}) ? {SPREAD_BLOCK} : n;",
            "    for (npy_intp start = 0; start < n; start += block) {",
            "      npy_intp count = n - start < block ? n - start : block;"]
    call = []
    for k, type_ in enumerate(types):
        c_type = type_.c_type
        pointer = f"({c_type} *)(args[{k}] + start * steps[{k}])"
        stride = f"steps[{k}] / {type_.itemsize}"
        if k < inputs:
            pointer = f"broadcast_{k} ? spread_{k} : {pointer}"
            stride = f"broadcast_{k} ? 1 : {stride}"
        out += strided_view("      ", array_struct(type_), c_type, f"view_{k}", pointer,
                            "1, 1, count", f"0, 0, {stride}")
        call.append(f"&view_{k}")
    out.append(f"      {module_name}_{name}__array({', '.join(call)}{error_argument});")
    if signature.raises:
        out += ["      if (error.kind != 0)", "        break;"]
    out += ["    }", "  } else {",
            "    for (npy_intp i = 0; i < n; ++i) {"]
    for k, param in enumerate(params):
        c_type = param.type.c_type
        out.append(f"      {c_type} in_{k};")
        out.append(f"      memcpy(&in_{k}, args[{k}] + i * steps[{k}], sizeof in_{k});")
    arguments = ", ".join(f"in_{k}" for k in range(inputs))
    out.append(f"      {result.c_type} value = {module_name}_{name}({arguments}"
               f"{error_argument if inputs else error_argument[2:]});")
    if signature.raises:
        out += ["      if (error.kind != 0)", "        break;"]
    out += [f"      memcpy(args[{inputs}] + i * steps[{inputs}], &value, sizeof value);",
            "    }", "  }"]
    if signature.raises:
        out += ["  if (kiln_thread)", "    PyEval_RestoreThread(kiln_thread);",
                "  if (error.kind != 0)",
                f"    kiln_raise(&error, {c_string(name)}, kiln_source_file);"]
    out += ["}", ""]
    return out


def identity_code(identity) -> tuple:
    """numpy's identity constant and value object (C expressions) for the
    decorator's `identity=`: None (no identity: reducing nothing raises),
    "reorderable" (none, but reduce may reorder), or a number."""
    if identity is None:
        return "PyUFunc_None", "NULL"
    if identity == "reorderable":
        return "PyUFunc_ReorderableNone", "NULL"
    if isinstance(identity, bool):
        return "PyUFunc_IdentityValue", f"PyBool_FromLong({int(identity)})"
    if isinstance(identity, int):
        return "PyUFunc_IdentityValue", f"PyLong_FromLongLong({identity}LL)"
    return "PyUFunc_IdentityValue", f"PyFloat_FromDouble({float(identity)!r})"


def ufunc_init(name: str, signatures, doc: str) -> list:
    """PyInit's lines making ufunc `name` of the loops of `signatures`, in
    their order, and adding it to the module under its name (pickle finds
    it by that name)."""
    first = signatures[0]
    gufunc = first.gufunc_signature or None
    types = [numpy_type_number(t) for s in signatures
             for t in (gufunc_types(s) if gufunc else [p.type for p in s.params] + [s.return_type])]
    identity, value = identity_code(first.ufunc_identity)
    loops = ", ".join(f"kiln_{'gufunc' if gufunc else 'ufunc'}_loop_{s.name}" for s in signatures)
    nulls = ", ".join("NULL" for _ in signatures)
    out = ["  {",
           f"    static PyUFuncGenericFunction loops[] = {{{loops}}};",
           f"    static void *loop_data[] = {{{nulls}}};",
           f"    static char loop_types[] = {{{', '.join(types)}}};",
           f"    PyObject *identity_value = {value};",
           f"    PyObject *ufunc = PyUFunc_FromFuncAndDataAndSignatureAndIdentity(loops, "
           f"loop_data, loop_types, {len(signatures)}, {len(first.params)}, 1, {identity}, "
           f"{c_string(name)}, {c_string(doc)}, 0, {c_string(gufunc) if gufunc else 'NULL'}, "
           "identity_value);",
           "    Py_XDECREF(identity_value);",
           "    if (!ufunc || PyModule_AddObject(module, " + c_string(name) + ", ufunc) < 0) {",
           "      Py_XDECREF(ufunc);",
           "      Py_DECREF(module);",
           "      return NULL;",
           "    }"]
    if gufunc or any(s.raises for s in signatures):
        out += ["    kiln_default_loop_selector = "
                "((PyUFuncObject *)ufunc)->legacy_inner_loop_selector;",
                "    ((PyUFuncObject *)ufunc)->legacy_inner_loop_selector = "
                "kiln_raising_loop_selector;"]
    return out + ["  }"]


NUMPY_IMPORT = [
    "  if (_import_array() < 0 || _import_umath() < 0) {",
    "    Py_DECREF(module);",
    "    return NULL;",
    "  }",
]
