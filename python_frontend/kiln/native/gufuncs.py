"""The C that makes each `@kiln.guvectorize` function a numpy generalized
ufunc (`PyUFunc_FromFuncAndDataAndSignatureAndIdentity` with its
signature, `"(n),(n)->()"`).

numpy broadcasts the outer (loop) dimensions and calls the inner loop
once for all of them: per outer index the loop makes strided views of the
core dimensions of each input (numpy's sizes and byte steps, as element
counts), calls the compiled function, and stores its result -- a number,
or the array it returned, copied into the output's core dimensions (a
ValueError when its shape is not the one numpy allotted) and then freed.
The loop asks numpy to keep the GIL (it may raise) and releases it around
the calls itself.
"""

from __future__ import annotations

from .. import typesystem as kt
from ..frontend.ufunc_signatures import gufunc_core_dimensions
from .c_text import c_string


def view_struct(type_) -> str:
    return f"kiln_{type_.dtype.name}_{type_.ndim}d"


def strided_view(indent: str, struct: str, c_type: str, name: str, pointer: str, sizes: str,
                 strides: str) -> list:
    """C declaring view `name` (a `struct`, kiln_abi.h's strided view) of
    the `c_type` elements at `pointer`: `sizes` and `strides` (in elements)
    are C initializer lists' contents."""
    return [f"{indent}{c_type} *{name}_data = {pointer};",
            f"{indent}{struct} {name} = {{{name}_data, {name}_data, 0, {{{sizes}}}, "
            f"{{{strides}}}}};"]


def generate_gufunc_loop(module_name: str, signature) -> list:
    """`kiln_gufunc_loop_<name>`: numpy's inner loop of the gufunc."""
    name = signature.name
    inputs, output = gufunc_core_dimensions(signature.gufunc_signature)
    order = list(dict.fromkeys(d for core in inputs + [output] for d in core))
    params = signature.params
    operands = len(params) + 1
    result = signature.return_type
    core_steps = []          # per operand, the index into steps[] of each core axis
    position = operands
    for core in inputs + [output]:
        core_steps.append(list(range(position, position + len(core))))
        position += len(core)

    def size(dimension):
        return f"dimensions[{1 + order.index(dimension)}]"

    out = [f"static void kiln_gufunc_loop_{name}(char **args, npy_intp const *dimensions, "
           "npy_intp const *steps, void *data) {",
           "  (void)data;",
           "  kiln_error error;",
           "  error.kind = 0;   /* the function fills the record only when it raises */",
           "  int wrong_shape = 0;",
           "  PyThreadState *kiln_thread = PyEval_SaveThread();",
           "  for (npy_intp i = 0; i < dimensions[0]; ++i) {"]
    arguments = []
    views = []
    for k, (param, core) in enumerate(zip(params, inputs)):
        if not core:
            out.append(f"    {param.type.c_type} in_{k} = *({param.type.c_type} *)"
                       f"(args[{k}] + i * steps[{k}]);")
            arguments.append(f"in_{k}")
            continue
        c_type = param.type.dtype.c_type
        itemsize = param.type.dtype.itemsize
        sizes = ", ".join(size(d) for d in core)
        strides = ", ".join(f"steps[{s}] / {itemsize}" for s in core_steps[k])
        out += strided_view("    ", view_struct(param.type), c_type, f"view_{k}",
                            f"({c_type} *)(args[{k}] + i * steps[{k}])", sizes, strides)
        arguments.append(f"&view_{k}")
        views.append(f"view_{k}")
    if signature.raises:
        arguments.append("&error")
    target = f"args[{len(params)}] + i * steps[{len(params)}]"
    if not output:
        out += [f"    {result.c_type} value = {module_name}_{name}({', '.join(arguments)});",
                "    if (error.kind != 0)", "      break;",
                f"    *({result.c_type} *)({target}) = value;"]
    else:
        out += [f"    {view_struct(result)} result;",
                f"    {module_name}_{name}({', '.join(['&result'] + arguments)});",
                "    if (error.kind != 0)", "      break;"]
        same = " && ".join(f"result.shape[{j}] == {size(d)}" for j, d in enumerate(output))
        borrowed = " || ".join(f"result.allocated == {v}.allocated" for v in views) or "0"
        out += [f"    wrong_shape = !({same});"]
        indent = "    "
        out.append(f"{indent}if (!wrong_shape) {{")
        for j, dimension in enumerate(output):
            indent += "  "
            out.append(f"{indent}for (int64_t j{j} = 0; j{j} < {size(dimension)}; ++j{j}) {{")
        source = " + ".join(["result.offset"] + [f"j{j} * result.strides[{j}]"
                                                 for j in range(len(output))])
        offset = " + ".join(f"j{j} * steps[{s}]" for j, s in enumerate(core_steps[-1]))
        out.append(f"{indent}  *({result.dtype.c_type} *)({target} + {offset}) = "
                   f"result.data[{source}];")
        for _ in output:
            out.append(f"{indent}}}")
            indent = indent[:-2]
        out += [f"{indent}}}",
                f"    if (!({borrowed}))",
                "      free(result.allocated);",
                "    if (wrong_shape)",
                "      break;"]
    out += ["  }", "  PyEval_RestoreThread(kiln_thread);",
            "  if (error.kind != 0)",
            f"    kiln_raise(&error, {c_string(name)}, kiln_source_file);"]
    if output:
        out += ["  else if (wrong_shape)",
                f"    PyErr_SetString(PyExc_ValueError, {c_string(name)} \" returned an array of "
                f"another shape than its gufunc signature \" "
                f"{c_string(repr(signature.gufunc_signature))} \" gives its output\");"]
    return out + ["}", ""]


def gufunc_types(signature) -> list:
    """The dtypes of the loop: each operand's element type."""
    return [t.dtype if isinstance(t, kt.ArrayType) else t
            for t in [p.type for p in signature.params] + [signature.return_type]]
