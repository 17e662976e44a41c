"""C sources Kiln generates around the compiled kernels.

* ``<mod>.h`` declares the C ABI of ``lib<mod>.so``: one function per
  exported Python function, arrays as strided-view structs (MLIR's memref
  descriptor layout) passed by pointer, and a ``kiln_error`` record for
  functions that can raise (a verbatim copy of ``runtime/kiln_abi.h``, as
  kilnc carries it: ``kilnc --print-capabilities``).
  A list is a ``kiln_list *``, and a dict and a set (a dict without
  values) a ``kiln_dict *`` (``runtime/kiln_abi.h``), borrowed as an
  argument and a new reference as a result.
* ``_<mod>_kiln.c`` is the CPython extension: one METH_FASTCALL wrapper per
  function that converts arguments without copying (arrays through the
  buffer protocol), calls the kernel directly and turns a filled
  ``kiln_error`` into the matching Python exception. Lists, dicts and
  sets are the exception to "without copying": a Python list, dict or set
  of objects is read into a ``kiln_list`` or ``kiln_dict`` of unboxed items
  for the call, and what the function changed in it is written back into
  the caller's object after it.
  The code every wrapper shares is ``runtime/kiln_runtime.h``, which kilnc
  gives the in-process Clang that compiles the extension.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..version import __version__
from ..mlir.elementwise_kernels import ELEMENTWISE_RANK, has_reduction_kernel
from .c_text import c_double, c_string
from .class_types import BIND_METHODS, generate_classes, subclass_slots_name, uses_classes
from .function_defaults import (CALL_PYTHON, UNPACK_TUPLE, bind_python_method,
                                bind_python_signature, function_parameter_slots)
from .gufuncs import generate_gufunc_loop
from .ufuncs import NUMPY_IMPORT, NUMPY_INCLUDES, generate_ufunc_loop, ufunc_init, uses_ufuncs

def array_struct_name(array: kt.ArrayType) -> str:
    return f"kiln_{array.dtype.name}_{array.ndim}d"


C_RESERVED = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
    "error", "result", "out", "int8_t", "int32_t", "int64_t", "uint8_t",
}


def c_name(name: str) -> str:
    """A parameter name that cannot collide with C or with Kiln's own names."""
    if name in C_RESERVED or name.startswith("kiln_") or name.startswith("_"):
        return name + "_arg"
    return name


LIST_C_TYPE = "kiln_list *"
DICT_C_TYPE = "kiln_dict *"
STR_C_TYPE = "kiln_str *"


def is_container(type_) -> bool:
    """A list, a dict or a set: held natively as a kiln_list / kiln_dict,
    passed and returned by pointer, read in and written back by the
    wrapper."""
    return isinstance(type_, (kt.ListType, kt.DictType, kt.SetType))


def container_noun(type_) -> str:
    """"list", "dict" or "set": the runtime's functions for the type are
    named by it (kiln_get_set, kiln_set_result, ...)."""
    return "list" if isinstance(type_, kt.ListType) else \
        "set" if isinstance(type_, kt.SetType) else "dict"


def container_c_type(type_) -> str:
    return LIST_C_TYPE if isinstance(type_, kt.ListType) else DICT_C_TYPE


def is_str(type_) -> bool:
    """A str: a kiln_str copied in by the wrapper (kiln_get_str) and
    dropped after the call; strings never change, so nothing is written
    back."""
    return isinstance(type_, kt.StrType)


def c_param_type(type_) -> str:
    if isinstance(type_, kt.ArrayType):
        return f"{array_struct_name(type_)} *"
    if is_container(type_):
        return container_c_type(type_)
    if is_str(type_):
        return STR_C_TYPE
    return type_.c_type


def c_declaration(c_type: str, name: str) -> str:
    """`double x`, `kiln_list *xs`: a pointer's star stays with the name."""
    return f"{c_type}{'' if c_type.endswith('*') else ' '}{name}"


def returns_through_pointer(type_) -> bool:
    # MLIR's C interface returns several results, memref descriptors and a
    # complex128 (an LLVM struct of two doubles) through a pointer passed
    # first; a complex64 comes back in a register, as C returns a
    # `float _Complex` (code_generator.abi_type).
    return isinstance(type_, (kt.TupleType, kt.ArrayType)) or type_ == kt.c128


def c_return_type(type_) -> str:
    # A list, dict or set comes back as the pointer itself (MLIR's `!llvm.ptr`
    # result).
    if type_ is None or returns_through_pointer(type_):
        return "void"
    if is_container(type_):
        return container_c_type(type_)
    if is_str(type_):
        return STR_C_TYPE
    return type_.c_type


def elementwise_prototype(module_name: str, signature) -> str:
    params = [f"{array_struct_name(kt.ArrayType(p.type, ELEMENTWISE_RANK))} *{c_name(p.name)}"
              for p in signature.params]
    params.append(f"{array_struct_name(kt.ArrayType(signature.return_type, ELEMENTWISE_RANK))}"
                  " *out")
    if signature.raises:
        params.append("kiln_error *error")
    return f"void {module_name}_{signature.name}__array({', '.join(params)})"


def reduction_prototype(module_name: str, signature) -> str:
    result = signature.return_type
    view = array_struct_name(kt.ArrayType(signature.params[1].type, 1))
    return (f"{result.c_type} {module_name}_{signature.name}__reduce({view} *x, "
            f"{result.c_type} initial)")


def c_symbol(prefix: str, signature) -> str:
    """The C symbol of a compiled function: `<mod>_<name>`, or a method's
    `<mod>_<Class>__<method>` (the frontend's `signature.symbol`)."""
    return getattr(signature, "symbol", None) or f"{prefix}{signature.name}"


def result_struct_name(prefix: str, signature) -> str:
    return f"{c_symbol(prefix, signature)}_result"


def c_prototype(prefix: str, signature) -> str:
    params = [c_declaration(c_param_type(p.type), c_name(p.name)) for p in signature.params]
    if isinstance(signature.return_type, kt.TupleType):
        params.insert(0, f"{result_struct_name(prefix, signature)} *result")
    elif isinstance(signature.return_type, kt.ArrayType):
        params.insert(0, f"{array_struct_name(signature.return_type)} *result")
    elif returns_through_pointer(signature.return_type):
        params.insert(0, f"{signature.return_type.c_type} *result")
    if signature.raises:
        params.append("kiln_error *error")
    return c_declaration(c_return_type(signature.return_type),
                         f"{c_symbol(prefix, signature)}({', '.join(params) or 'void'})")


def generate_header(module_name: str, source_path: str, signatures, abi_header: str,
                    soversion: int = 1, classes=()) -> str:
    """`abi_header` is the text of kiln_abi.h (the error record and the
    exception kinds), copied in so that the header stands alone.
    `classes`: the ClassInfos of the compiled classes, whose instance
    layouts the header declares."""
    guard = f"KILN_GENERATED_{module_name.upper()}_H"
    out = [
        f"/* Generated by Kiln {__version__} from {source_path}. Do not edit. */",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        "#include <stdbool.h>",
        "#include <stdint.h>",
        "",
        f"/* Link with -l{module_name}: lib{module_name}.so names itself "
        f"lib{module_name}.so.{soversion} (DT_SONAME),",
        f"   the name a program records and loads; its symbols carry the version "
        f"{module_name.upper()}_{soversion}. */",
        f"#define KILN_{module_name.upper()}_SOVERSION {soversion}",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        "/* ---- kiln_abi.h, shared by every Kiln-generated header */",
        abi_header.rstrip("\n"),
        "/* ---- end of kiln_abi.h */",
        "",
    ]
    seen = []
    for signature in signatures:
        types = [p.type for p in signature.params] + (
            list(signature.return_type.elements)
            if isinstance(signature.return_type, kt.TupleType) else [signature.return_type])
        if signature.elementwise:
            types = types + [kt.ArrayType(t, ELEMENTWISE_RANK) for t in types]
            if has_reduction_kernel(signature):
                types.append(kt.ArrayType(signature.params[1].type, 1))
        for type_ in types:
            if isinstance(type_, kt.ArrayType) and type_ not in seen:
                seen.append(type_)
    for info in classes:
        out += class_layout_struct(module_name, source_path, info)
    for array in seen:
        name = array_struct_name(array)
        out += [
            f"#ifndef {name.upper()}_DEFINED",
            f"#define {name.upper()}_DEFINED",
            f"/* A {array.ndim}-D strided view of {array.dtype.c_type}: element",
            "   (i0, i1, ...) is data[offset + i0*strides[0] + i1*strides[1] + ...].",
            "   offset and strides count elements (not bytes) and strides may be",
            "   negative; `allocated` is the start of the underlying buffer. */",
            f"typedef struct {name} {{",
            f"  {array.dtype.c_type} *allocated;",
            f"  {array.dtype.c_type} *data;",
            "  int64_t offset;",
            f"  int64_t shape[{array.ndim}];",
            f"  int64_t strides[{array.ndim}];",
            f"}} {name};",
            "#endif",
            "",
        ]
    for signature in signatures:
        if isinstance(signature.return_type, kt.TupleType):
            name = result_struct_name(f"{module_name}_", signature)
            out.append(f"typedef struct {name} {{")
            out += [f"  {result_field_alignment(element)}"
                    f"{c_declaration(c_field_type(element), f'r{index}')};"
                    for index, element in enumerate(signature.return_type.elements)]
            out += [f"}} {name};", ""]
        out.append(f"/* {signature.source_line}  ({source_path}:{signature.line}) */")
        out += container_ownership_comment(signature)
        views = sorted({name for names in signature.returned_parameters.values()
                        for name in names})
        view_rule = (" unless it equals the `allocated` of the array you passed as "
                     + " or ".join(f"`{c_name(v)}`" for v in views)
                     + " (then it is a view of that argument: it owns nothing)") if views else ""
        if isinstance(signature.return_type, kt.ArrayType):
            out.append(f"/* The returned array is the caller's: free(result->allocated) when "
                       f"done{view_rule}. When error->kind is set, *result is undefined: do "
                       "not free it. */")
        elif isinstance(signature.return_type, kt.TupleType) and any(
                isinstance(e, kt.ArrayType) for e in signature.return_type.elements):
            out.append(f"/* The returned arrays are the caller's: free each rN.allocated when "
                       f"done (no two share a buffer){view_rule}. When error->kind is set, "
                       "*result is undefined: do not free it. */")
        if signature.parallel:
            out.append("/* Runs parallel loops (kiln.prange, parallel=True) on "
                       + OPENMP_RUNTIME + "'s threads: KILN_NUM_THREADS of them, else "
                       "OMP_NUM_THREADS, else the CPUs the process may run on. */")
        out.append(c_prototype(f"{module_name}_", signature) + ";")
        if signature.elementwise:
            out.append(f"/* {signature.name} on {ELEMENTWISE_RANK}-D views (stride 0 broadcasts); "
                       "out's shape is the iteration space. */")
            out.append(elementwise_prototype(module_name, signature) + ";")
            if has_reduction_kernel(signature):
                out.append(f"/* {signature.name} folded over x in order from initial "
                           "(numpy's ufunc.reduce). */")
                out.append(reduction_prototype(module_name, signature) + ";")
        out.append("")
    if any(s.parallel for s in signatures):
        out += [f"/* lib{module_name}.so needs {OPENMP_RUNTIME} (LLVM's OpenMP runtime; on "
                "Debian, package libomp5-22) where it runs. */",
                f"#define KILN_{module_name.upper()}_NEEDS_OPENMP 1", ""]
    out += [f"/* Which version of the kernels runs on this CPU: \"x86-64-v2\", \"x86-64-v3\" or",
            "   \"x86-64-v4\" in a portable build (chosen once, when the library is loaded;",
            "   KILN_CPU_LEVEL=v2|v3|v4 forces a lower one), else the one CPU it was built for. */",
            f"const char *{cpu_version_symbol(module_name)}(void);", ""]
    out += ["#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
    return "\n".join(out)


def class_layout_struct(module_name: str, source_path: str, info) -> list:
    """The C view of an instance of a compiled class (kiln_abi.h's object
    layout, this class's fields)."""
    name = f"{module_name}_{info.name}"
    out = [f"/* An instance of class {info.name} ({source_path}:{getattr(info, 'line', 0)}): a",
           "   CPython object of the type the extension makes (methods take it as",
           "   `void *`, borrowed; a returned one is a new reference). Only code",
           "   holding the GIL may touch it. */",
           f"typedef struct {name} {{",
           "  intptr_t ob_refcnt;",
           "  void *ob_type;"]
    for field in info.fields:
        type_ = field.type
        if isinstance(type_, kt.ClassType):
            out.append(f"  void *{field.name};   /* {type_.name}: "
                       f"{'NULL is None' if type_.optional else 'NULL until set'} */")
        elif type_ == kt.string:
            out.append(f"  kiln_str *{field.name};   /* str: NULL until set */")
        elif isinstance(type_, kt.ListType):
            out.append(f"  kiln_list *{field.name};   /* {type_.display}: NULL until set; "
                       "the field's reference is counted in field_references */")
        elif type_.is_bool:
            out += [f"  bool {field.name};", f"  uint8_t {field.name}_padding[7];"]
        else:
            out.append(f"  {type_.c_type} {field.name};")
    return out + [f"}} {name};", ""]


def returned_types(signature) -> list:
    result = signature.return_type
    return list(result.elements) if isinstance(result, kt.TupleType) else [result]


def container_parameters(signature) -> list:
    """The list, dict and set parameters."""
    return [p for p in signature.params if is_container(p.type)]


def returns_containers(signature) -> bool:
    return any(is_container(t) for t in returned_types(signature))


def container_ownership_comment(signature) -> list:
    """The header's word on who allocates and frees the function's lists,
    dicts, sets and strings (kiln_abi.h's rules, said for this function's
    parameters)."""
    return ownership_comment(signature, kt.ListType, "list", LIST_BORROWED, LIST_RETURNED) + \
        ownership_comment(signature, kt.DictType, "dict", DICT_BORROWED, DICT_RETURNED) + \
        ownership_comment(signature, kt.SetType, "set", SET_BORROWED, SET_RETURNED) + \
        ownership_comment(signature, kt.StrType, "str", STR_BORROWED, STR_RETURNED) + \
        text_items_comment(signature)


def holds_text(type_) -> bool:
    """A list, dict or set whose items, keys or values are str."""
    return any(isinstance(getattr(type_, part, None), kt.StrType)
               for part in ("item", "key", "value")) and is_container(type_)


def text_items_comment(signature) -> list:
    """The header's word on the strings a list, dict or set parameter or
    result holds."""
    names = [f"`{c_name(p.name)}`" for p in signature.params if holds_text(p.type)]
    returned = any(holds_text(t) for t in returned_types(signature))
    if not names and not returned:
        return []
    who = ", ".join(names) + (" and the result" if names and returned else "") \
        if names else "The result"
    return [f"/* {who}: strings held by reference (item, key or value kind",
            "   KILN_ITEM_STR): each a kiln_str * made as a str argument is, whose",
            "   reference (refcount 1) the container holds; the function may store,",
            "   replace and drop strings in them. kiln_list_drop()/kiln_dict_drop()",
            "   give every string back; after a call that raised, kiln_str_drop()",
            "   each string a container still holds before freeing its arrays. */"]


def ownership_comment(signature, kind, noun, borrowed, returned) -> list:
    """The comment lines of the containers of type `kind`: `borrowed` when
    the function takes some (`{names}` in its first line: theirs),
    `returned` when it returns some (`{where}`: the result, or each
    returned one of a tuple)."""
    names = [f"`{c_name(p.name)}`" for p in signature.params if isinstance(p.type, kind)]
    lines = []
    if names:
        lines += [borrowed[0].format(names=", ".join(names))] + borrowed[1:]
    if any(isinstance(t, kind) for t in returned_types(signature)):
        where = "result" if not isinstance(signature.return_type, kt.TupleType) else \
            f"each returned {noun} (rN)"
        lines += [returned[0].format(where=where)] + returned[1:]
    return lines


LIST_BORROWED = ["/* {names}: borrowed. Make each kiln_list and its items with",
                 "   malloc() (refcount 1, journal_index -1, flags 0, item_kind and",
                 "   field_references 0, capacity >= 1): the",
                 "   function may grow the items with realloc(), so read `items`, `length`",
                 "   and `capacity` again after the call; it sets KILN_LIST_MODIFIED in",
                 "   `flags` when it changed the list. One list may be passed for several",
                 "   parameters: the function sees one list, as Python would. Free your",
                 "   lists with kiln_list_drop() after a call that returned, with",
                 "   free(list->items); free(list) after one that raised (it keeps no",
                 "   reference, but may have left its own counted in `refcount`). */"]
LIST_RETURNED = ["/* The {where} is a new reference: kiln_list_drop() it when done; it may",
                 "   be a list you passed (then the function took a reference of its own,",
                 "   which the drop gives back). When error->kind is set, no list was",
                 "   returned: there is nothing to drop. */"]
DICT_BORROWED = ["/* {names}: borrowed. Make each kiln_dict and its `keys`,",
                 "   `values` and `live` with malloc() (refcount 1, journal_index -1, flags",
                 "   0, capacity >= 1, `hashes` and `index` NULL, index_mask 0; distinct",
                 "   keys, entries in order, live[i] = 1): the function may grow the arrays",
                 "   with realloc() and builds its lookup table in `hashes`/`index`, so read",
                 "   the entries again after the call; it sets KILN_DICT_MODIFIED in",
                 "   `flags` when it changed the dict (entries with live[i] = 0 are",
                 "   deleted). One dict may be passed for several parameters. Free your",
                 "   dicts with kiln_dict_drop() after a call that returned; after one",
                 "   that raised free keys, values, live, hashes, index and the dict",
                 "   (it keeps no reference, but may have left its own counted in",
                 "   `refcount`). */"]
DICT_RETURNED = ["/* The {where} is a new reference: kiln_dict_drop() it when done; it may",
                 "   be a dict you passed (then the function took a reference of its own,",
                 "   which the drop gives back). Its live entries (live[i] = 1 among the",
                 "   first `used`) are the dict, in order. When error->kind is set, no dict",
                 "   was returned: there is nothing to drop. */"]
SET_BORROWED = ["/* {names}: borrowed. Make each set a kiln_dict without values",
                "   (value_kind KILN_ITEM_NONE, `values` NULL), it and its `keys` and",
                "   `live` with malloc() (refcount 1, journal_index -1, flags 0,",
                "   capacity >= 1, `hashes` and `index` NULL, index_mask 0; distinct",
                "   elements, live[i] = 1): the function may grow the arrays with",
                "   realloc() and builds its lookup table in `hashes`/`index`, so read",
                "   the elements again after the call; it sets KILN_DICT_MODIFIED in",
                "   `flags` when it changed the set (elements with live[i] = 0 are",
                "   removed). One set may be passed for several parameters. Free your",
                "   sets with kiln_dict_drop() after a call that returned; after one",
                "   that raised free keys, live, hashes, index and the set (it keeps no",
                "   reference, but may have left its own counted in `refcount`). */"]
STR_BORROWED = ["/* {names}: borrowed strings. Make each kiln_str with malloc() as",
                "   one block of sizeof(kiln_str) + (length + 1) * kind bytes (refcount",
                "   1, hash -1, journal_index -1, outside_references 0; at",
                "   kiln_str_data(str), `length` code points of `kind` bytes each, 1, 2",
                "   or 4 as the largest needs, then `kind` zero bytes). The function",
                "   never changes a string and keeps no reference after it returns or",
                "   raises: kiln_str_drop() yours after a call that returned, free() it",
                "   after one that raised (it may have left its own reference counted in",
                "   `refcount`), once the containers that may hold it are dropped. */"]
STR_RETURNED = ["/* The {where} is a new reference (a kiln_str, never changed):",
                "   kiln_str_drop() it when done. When error->kind is set, no string",
                "   was returned: there is nothing to drop. */"]
SET_RETURNED = ["/* The {where} is a new reference (a kiln_dict without values):",
                "   kiln_dict_drop() it when done; it may be a set you passed (then the",
                "   function took a reference of its own, which the drop gives back). Its",
                "   live elements (live[i] != 0 among the first `used`) are the set, in",
                "   the order they were added. When error->kind is set, no set was",
                "   returned: there is nothing to drop. */"]


# The library kilnc links artifacts with parallel loops against (DT_NEEDED).
OPENMP_RUNTIME = "libomp.so.5"


def cpu_version_symbol(module_name: str) -> str:
    """The C function saying which version of the kernels runs (kilnc
    --cpu-version-symbol): not `<mod>_...`, the kernels' own prefix."""
    return f"kiln_cpu_version_{module_name}"




def _release_all(arrays) -> list:
    """`arrays`: (parameter name, whether the function may write it)."""
    return [f"  kiln_release_array(&view_{name}, &array_{name}, {int(written)});"
            for name, written in arrays]


def generate_extension(module_name: str, extension_name: str, context, signatures,
                       portable_paths: bool = False, classes=()) -> str:
    """The extension's C. Docstrings and the C file name the source as its
    package does (`pa/kernels.py`), never by a path of the build machine.
    Exception messages and traceback frames name the file by its absolute
    path, so that tracebacks show its lines on the build machine (its debug
    information holds the path anyway), except in a --release build
    (`portable_paths`), whose artifacts hold no build-machine path."""
    source_path = context.package_path
    traceback_path = source_path if portable_paths else context.path
    functions = context.module_functions()
    ufuncs = uses_ufuncs(signatures)
    out = [
        f"/* Generated by Kiln {__version__} from {source_path}. Do not edit. */",
        "#define PY_SSIZE_T_CLEAN",
        "/* As CPython builds its own extensions: no assertions in its inline",
        "   functions on the call path. */",
        "#ifndef NDEBUG",
        "#define NDEBUG",
        "#endif",
        "#include <Python.h>",
        "#include \"kiln_runtime.h\"",
        f'#include "{module_name}.h"',
        "",
        f"static const char kiln_source_file[] = {c_string(traceback_path)};",
        "",
    ] + (NUMPY_INCLUDES if ufuncs else [])
    methods = []
    class_init = []
    ufunc_inits = NUMPY_IMPORT if ufuncs else []
    if uses_classes(classes, signatures):
        # Before the functions: their wrappers check and box instances.
        class_code, class_init = generate_classes(module_name, classes, signatures, source_path,
                                                     generate_wrapper)
        out += class_code
        methods += BIND_METHODS
    if any(getattr(s, "function_parameters", None) for s in signatures):
        out += CALL_PYTHON
    if any(getattr(s, "tuple_parameters", None) for s in signatures):
        out += UNPACK_TUPLE
    for signature in signatures:
        if getattr(signature, "class_name", None) is not None:
            continue        # a method: its class's tp_methods wrap it
        params = ", ".join(p.name for p in signature.params)
        user_doc = ast.get_docstring(functions[signature.name]) \
            if signature.name in functions else None
        if signature.gufunc_signature:
            out += generate_gufunc_loop(module_name, signature)
            ufunc_inits = ufunc_inits + ufunc_init(signature.name, [signature], (
                f"{user_doc}\n\n" if user_doc else "") + "A numpy generalized ufunc compiled "
                f"by Kiln from {source_path}:{signature.line}.")
            continue
        if signature.elementwise:
            # A loop of a numpy ufunc, made in PyInit once its last loop is
            # written (numpy writes its own signature line atop the doc).
            out += generate_ufunc_loop(module_name, signature)
            ufunc = signature.ufunc_name or signature.name
            loops = [s for s in signatures if s.elementwise and (s.ufunc_name or s.name) == ufunc]
            if signature is loops[-1]:
                user_doc = ast.get_docstring(functions[ufunc]) if ufunc in functions else None
                ufunc_inits = ufunc_inits + ufunc_init(ufunc, loops, (
                    f"{user_doc}\n\n" if user_doc else "") + "A numpy ufunc compiled by Kiln "
                    f"from {source_path}:{signature.line}.")
            continue
        out += generate_wrapper(module_name, signature)
        doc = f"{signature.name}({params})\n--\n\n" + (f"{user_doc}\n\n" if user_doc else "") + \
            f"Compiled by Kiln from {source_path}:{signature.line}."
        methods.append(f"  {{{c_string(signature.name)}, (PyCFunction)(void (*)(void))"
                       f"kiln_wrap_{signature.name}, METH_FASTCALL | METH_KEYWORDS, "
                       f"{c_string(doc)}}},")
    out += [
        "static PyObject *kiln_cpu_version(PyObject *self, PyObject *unused) {",
        "  (void)self;",
        "  (void)unused;",
        f"  return PyUnicode_FromString({cpu_version_symbol(module_name)}());",
        "}",
        "",
    ]
    if any(getattr(s, "function_parameters", None) for s in signatures):
        out += bind_python_method(signatures)
        methods.append("  {\"_kiln_bind_python\", (PyCFunction)(void (*)(void))kiln_bind_python, "
                       "METH_FASTCALL, \"Binds a compiled function's Python function, which "
                       "runs the calls passing another function than a default.\"},")
    methods.append("  {\"_kiln_cpu_version\", kiln_cpu_version, METH_NOARGS, "
                   "\"Which version of the kernels runs on this CPU (x86-64-v2, -v3, -v4, or "
                   "the build's one CPU).\"},")
    out += [
        "static PyMethodDef kiln_methods[] = {",
        *methods,
        "  {NULL, NULL, 0, NULL}",
        "};",
        "",
        "static struct PyModuleDef kiln_module = {",
        f"  PyModuleDef_HEAD_INIT, {c_string(extension_name)},",
        f"  {c_string('Kiln-compiled functions of ' + source_path)}, 0, kiln_methods,",
        "  NULL, NULL, NULL, NULL};",
        "",
        # Baseline x86-64 code: it must run on a CPU the kernels cannot.
        "__attribute__((target(\"arch=x86-64\")))",
        f"PyMODINIT_FUNC PyInit_{extension_name}(void) {{",
        "  const char *missing = kiln_missing_cpu_feature();",
        "  if (missing) {",
        "    PyErr_Format(PyExc_ImportError, \"%s was compiled for a CPU with %s, which this "
        "CPU (or its operating system) does not support: build it for this machine, or with "
        "an older --target-cpu (x86-64-v2 runs on any x86-64 CPU of the last 15 years)\", "
        f"{c_string(module_name)}, missing);",
        "    return NULL;",
        "  }",
        "  if (PyType_Ready(&kiln_owner_type) < 0)",
        "    return NULL;",
        "  PyObject *module = PyModule_Create(&kiln_module);",
        "  if (!module)",
        "    return NULL;",
        *class_init,
        *ufunc_inits,
        "  return module;",
        "}",
        "",
    ]
    return "\n".join(out)




def integer_argument(type_, target: str, argument: str, label: str) -> list:
    """C declaring `target` and reading Python int `argument` into it,
    range-checked against the dtype (OverflowError naming the parameter);
    0 on success like the runtime's readers."""
    if type_.signed and type_.bits >= 32:    # int64 and int32: the inline fast path
        low, high = ("INT64_MIN", "INT64_MAX") if type_.bits == 64 else ("INT32_MIN", "INT32_MAX")
        return [f"int64_t {target};",
                f"int {target}_status = kiln_as_int64({argument}, &{target}, {low}, {high}, "
                f"{label});"]
    if type_.bits == 64:
        return [f"uint64_t {target};",
                f"int {target}_status = kiln_as_uint64({argument}, &{target}, {label});"]
    low = "INT64_MIN" if type_.bits == 64 else f"{type_.min_value}LL"
    high = "INT64_MAX" if type_.bits == 64 else f"{type_.max_value}LL"
    return [f"int64_t {target};",
            f"int {target}_status = kiln_as_ranged_int({argument}, &{target}, {low}, {high}, "
            f"\"{type_.numpy_name}\", {label});"]


def result_field_alignment(type_) -> str:
    """A complex64 in a tuple's result struct crosses as MLIR's
    vector<2xf32>, which LLVM aligns to 8 bytes in a struct where C aligns
    a `float _Complex` to 4: the field is declared 8-aligned, so C's
    layout is LLVM's (a (complex64, float32) tuple is 16 bytes on both
    sides, and a float32 before a complex64 leaves the same gap)."""
    return "_Alignas(8) " if type_ == kt.c64 else ""


def c_field_type(type_) -> str:
    if isinstance(type_, kt.ArrayType):
        return array_struct_name(type_)
    if is_container(type_):
        return container_c_type(type_)
    if is_str(type_):
        return STR_C_TYPE
    return type_.c_type


def box(type_, expression: str, arguments=()) -> str:
    """The Python object of a result. `arguments` are (parameter name,
    Python object) of the array parameters the result may view."""
    if is_container(type_):
        return box_container(type_, expression)
    if is_str(type_):
        return f"kiln_str_result({expression})"      # a new Python str; the reference dropped
    if isinstance(type_, kt.ClassType):
        return f"kiln_instance_result({expression})"   # the function's new reference
    if isinstance(type_, kt.ArrayType):
        # The compiled code hands the caller its allocation: numpy owns it now.
        # Its format is numpy's dtype.char ("l" for int64 on LP64, not "q"):
        # numpy prints an int64 array made from "q" with `dtype=int64`.
        layout = (f"{expression}.data + {expression}.offset, {type_.ndim}, {expression}.shape, "
                  f"{expression}.strides, {type_.dtype.itemsize}, "
                  f"\"{type_.dtype.result_format}\"")
        boxed = f"kiln_owned_array({expression}.allocated, {layout})"
        # Unless its buffer is an argument's: the function returned (a view
        # of) its argument, which the result shares (kiln-buffer-deallocation).
        for name, obj in reversed(arguments):
            # An argument copied for the call (not aligned) is freed after
            # it: the view becomes an array of its own.
            copied = f"(view_{name}.obj && array_{name}.allocated != view_{name}.buf)"
            boxed = (f"({expression}.allocated == (void *)array_{name}.allocated ? "
                     f"({copied} ? kiln_copied_array({layout}) : "
                     f"kiln_argument_view({obj}, {layout})) : {boxed})")
        return boxed
    if type_.is_complex:
        return f"PyComplex_FromDoubles(__real__ ({expression}), __imag__ ({expression}))"
    if type_.is_float:
        return f"PyFloat_FromDouble((double){expression})"
    if type_.is_int and not type_.signed:
        return f"PyLong_FromUnsignedLongLong((unsigned long long){expression})"
    if type_.is_int:
        return f"PyLong_FromLongLong((long long){expression})"
    return f"PyBool_FromLong({expression})"



def bind_arguments(name: str, params, signature=None) -> list:
    """The wrapper's prologue: `bound[i]` is parameter i's argument. A call
    passing exactly the parameters positionally (the common case) uses the
    caller's argument vector as is; keyword calls and wrong counts are
    matched by name out of line."""
    if signature is not None and signature.python_parameters:
        return bind_python_signature(name, signature, filled_default)
    count = len(params)
    if not count:
        return ["  if (nargs != 0 || (kwnames && PyTuple_GET_SIZE(kwnames))) {",
                f"    PyErr_Format(PyExc_TypeError, \"{name}() takes no arguments\");",
                "    return NULL;",
                "  }"]
    names = ", ".join(c_string(p.name) for p in params)
    required = sum(1 for p in params if p.default is None)
    # A parameter with a default left out gets the default as a Python
    # number, made once, then converted like any argument.
    defaults = []
    for index, param in enumerate(params):
        if param.default is None:
            continue
        defaults += filled_default(f"keyword_bound[{index}]", index, param)
    return ["  PyObject *const *bound = args;",
            f"  PyObject *keyword_bound[{count}];",
            f"  if (!KILN_LIKELY(kwnames == NULL && nargs == {count})) {{",
            f"    static const char *const names[] = {{{names}}};",
            f"    if (kiln_bind_arguments(args, nargs, kwnames, keyword_bound, {count}, "
            f"{required}, names, {c_string(name)}) < 0)",
            "      return NULL;",
            *defaults,
            "    bound = keyword_bound;",
            "  }"]


def filled_default(target: str, index: int, param, indent: str = "    ") -> list:
    """C giving a parameter left out its default: a Python object made
    once (a number, a str, or None for a class parameter `= None`), then
    converted like any argument."""
    if isinstance(param.type, kt.ClassType):
        return [f"{indent}if (!{target})", f"{indent}  {target} = Py_None;"]
    if param.default is kt.NEW_LIST_DEFAULT:
        # kiln_get_list makes a new empty list for this marker.
        return [f"{indent}if (!{target})", f"{indent}  {target} = kiln_new_list_marker();"]
    return [f"{indent}if (!{target}) {{",
            f"{indent}  static PyObject *default_{index};",
            f"{indent}  if (!default_{index} && !(default_{index} = "
            f"{python_number(default_of_type(param.default, param.type))}))",
            f"{indent}    return NULL;",
            f"{indent}  {target} = default_{index};",
            f"{indent}}}"]


def class_slot(module_name: str, type_) -> str:
    """The C name of the class slot holding a class's type."""
    from ..frontend.classes import class_slot_symbol
    return class_slot_symbol(module_name, type_.class_name)


def python_parameter_name(signature, name: str) -> str:
    """How messages name a parameter: an element of a tuple parameter as
    `mask[1]`."""
    for python_name, elements in getattr(signature, "tuple_parameters", {}).items():
        if name in elements:
            return f"{python_name}[{elements.index(name)}]"
    return name


def bind_method_arguments(signature) -> list:
    """A method wrapper's prologue: `bound[i]` is parameter i's argument,
    bound[0] the caller's `self`. The common call, exactly the parameters
    positionally, takes the argument vector as it is; others bind through
    kiln_bind_method_call (CPython's rules and messages for a `def`)."""
    params = signature.params
    count = len(params)
    implicit = 1 if takes_self(signature) else 0
    # A classmethod's `cls` is no parameter of its compiled function, but
    # CPython's messages count it.
    unseen = 1 if getattr(signature, "method_kind", "") == "classmethod" else 0
    required = next((i for i, p in enumerate(params) if p.default is not None), count)
    names = ", ".join(c_string(p.name) for p in params) or "NULL"
    out = [f"  PyObject *bound[{max(count, 1)}];"]
    if implicit:
        out.append("  bound[0] = self;")
    else:
        out.append("  (void)self;")
    fast = [f"    bound[{implicit + k}] = args[{k}];" for k in range(count - implicit)]
    out += [f"  if (KILN_LIKELY(kwnames == NULL && kwargs == NULL && nargs == {count - implicit})) {{",
            *(fast or ["    (void)args;"]),
            "  } else {",
            f"    static const char *const names[] = {{{names}}};",
            f"    if (kiln_bind_method_call(args, nargs, kwnames, kwargs, bound, {count}, "
            f"{implicit}, {required}, {unseen}, names, {c_string(signature.name)}) < 0)",
            "      return NULL;"]
    for index, param in enumerate(params):
        if index >= implicit and param.default is not None:
            out += filled_default(f"bound[{index}]", index, param)
    out.append("  }")
    return out


def default_of_type(value, type_):
    """A default literal as its parameter's type holds it (`flag: bool = 0`
    is False, `x: float = 1` is 1.0), as Kiln callers get it."""
    if is_str(type_):
        return value
    if isinstance(type_, kt.ClassType):
        return None
    if type_.is_bool:
        return bool(value)
    if type_.is_complex:
        return complex(value)
    if type_.is_float:
        return float(value.real if isinstance(value, complex) else value)
    value = int(value)
    if not type_.signed:
        value %= 2 ** (type_.itemsize * 8)
    return value


def python_number(value) -> str:
    """C that makes the Python object of a default parameter value (a
    number, or a str from its UTF-8)."""
    if isinstance(value, str):
        text = value.encode("utf-8")
        escaped = "".join(f"\\x{byte:02x}" for byte in text)
        # Each byte escaped, in literals of one byte each ("\x61" "\x62"):
        # a hex escape would run on into a following hex digit.
        literal = " ".join(f'"{escaped[k:k + 4]}"' for k in range(0, len(escaped), 4)) or '""'
        return f"PyUnicode_DecodeUTF8({literal}, {len(text)}, NULL)"
    if isinstance(value, bool):
        return f"PyBool_FromLong({int(value)})"
    if isinstance(value, int):
        return (f"PyLong_FromLongLong({value}LL)" if -2**63 < value < 2**63 else
                f"PyLong_FromString({c_string(str(value))}, NULL, 10)")
    if isinstance(value, complex):
        return f"PyComplex_FromDoubles({c_double(value.real)}, {c_double(value.imag)})"
    return f"PyFloat_FromDouble({c_double(value)})"


def convert_array(signature, index: int, param, cleanup: list) -> list:
    """Fills `array_<name>` for an array parameter: inline for an exact numpy
    array of the expected layout, through kiln_get_array otherwise."""
    name, pname, type_ = signature.name, param.name, param.type
    struct = array_struct_name(type_)
    itemsize = type_.dtype.itemsize
    expected = f"a {type_.ndim}-D {type_.dtype.numpy_name} array ({type_.name})"
    # Also through the functions it calls: an array stored into must be writable.
    writes = pname in signature.written_arrays
    flags = "KILN_NPY_ALIGNED | KILN_NPY_WRITEABLE" if writes else "KILN_NPY_ALIGNED"
    formats = "".join(type_.dtype.buffer_formats)
    argument = f"bound[{index}]"
    numpy = f"numpy_{pname}"
    # numpy aligns a complex array to its part's size only.
    whole_strides = (f" && kiln_whole_strides({argument}, {type_.ndim}, {itemsize})"
                     if type_.dtype.is_complex else "")
    fill = [f"    array_{pname}.allocated = array_{pname}.data = "
            f"({type_.dtype.c_type} *){numpy}->data;",
            f"    array_{pname}.offset = 0;"]
    for axis in range(type_.ndim):
        fill += [f"    array_{pname}.shape[{axis}] = {numpy}->dimensions[{axis}];",
                 f"    array_{pname}.strides[{axis}] = {numpy}->strides[{axis}] / {itemsize};"]
    return [
        f"  Py_buffer view_{pname};",
        f"  view_{pname}.obj = NULL;",
        f"  {struct} array_{pname};",
        f"  if (KILN_LIKELY(kiln_plain_ndarray({argument}, {type_.ndim}, "
        # The inline fast path compares numpy's dtype.char (the table's
        # `char`); arrays whose dtype is spelled otherwise still pass,
        # through kiln_get_array (which also copies what is not aligned).
        f"'{type_.dtype.char}', {flags}){whole_strides})) {{",
        f"    const kiln_numpy_array *{numpy} = (const kiln_numpy_array *){argument};",
        *fill,
        f"  }} else if (kiln_get_array({argument}, &view_{pname}, &array_{pname}, "
        f"{type_.ndim}, {c_string(formats)}, {itemsize}, {int(writes)}, "
        f"{c_string(name)}, {c_string(pname)}, {c_string(expected)}) < 0) {{",
        *["  " + line for line in cleanup],
        "    return NULL;",
        "  }",
    ]


def viewed_arguments(signature, position) -> list:
    """(parameter name, Python object) of each array parameter the result
    at `position` may be a view of."""
    viewed = signature.returned_parameters.get(position, ())
    return [(p.name, f"bound[{index}]") for index, p in enumerate(signature.params)
            if p.name in viewed and isinstance(p.type, kt.ArrayType)]


ITEM_KINDS = {"float": "KILN_ITEM_FLOAT", "int": "KILN_ITEM_INT", "bool": "KILN_ITEM_BOOL",
              "str": "KILN_ITEM_STR", "object": "KILN_ITEM_OBJECT"}


def item_kind(type_) -> str:
    """kiln_abi.h's kiln_item_kind of a list's items, a dict's keys or values."""
    return ITEM_KINDS[type_.kind]


# The wrapper's record of its list and dict arguments (kiln_runtime.h's
# kiln_container_argument): what it writes back and frees after the call,
# and what tells a returned argument from a new container.
CONTAINER_ARGUMENTS = "container_arguments, container_count"
FREE_CONTAINERS = f"kiln_free_arguments({CONTAINER_ARGUMENTS});"
WRITE_BACK = f"kiln_write_back_arguments({CONTAINER_ARGUMENTS})"


def box_container(type_, expression: str) -> str:
    """The Python object of a returned list, dict or set: the caller's own
    object when it is one of the arguments, else a new one (the reference
    dropped)."""
    if isinstance(type_, kt.ListType):
        return f"kiln_list_result({expression}, {item_kind(type_.item)}, {CONTAINER_ARGUMENTS})"
    return f"kiln_{container_noun(type_)}_result({expression}, {CONTAINER_ARGUMENTS})"


def discard_container(type_, expression: str) -> str:
    return f"kiln_discard_{container_noun(type_)}_result({expression}, {CONTAINER_ARGUMENTS});"


def box_tuple_item(element, index: int, elements, viewed) -> list:
    """`items[index] = ...` for element `index` of a returned tuple. A list
    or dict returned twice (`return ys, ys`) is one Python object twice, as
    in CPython."""
    expression = f"result.r{index}"
    if not is_container(element):
        return [f"  items[{index}] = {box(element, expression, viewed)};"]
    out = []
    for earlier in range(index):
        if elements[earlier] == element:
            out += [f"  {'else ' if out else ''}if ({expression} == result.r{earlier}) {{",
                    f"    items[{index}] = Py_XNewRef(items[{earlier}]);",
                    f"    {discard_container(element, expression)}",
                    "  }"]
    if out:
        return out + ["  else", f"    items[{index}] = {box_container(element, expression)};"]
    return [f"  items[{index}] = {box_container(element, expression)};"]


def instance_list_checks(module_name: str, signature, index: int, variable: str, label: str,
                         fail: list) -> list:
    """A list[C] argument holds instances of C only; and it is no list an
    earlier list[D] parameter got too (the wrapper passes one list object
    once: a function appending a D through one name would hand the other
    a D it reads as a C)."""
    item = signature.params[index].type.item
    out = [f"  if (kiln_check_list_instances({variable}, {class_slot(module_name, item)}, "
           f"{subclass_slots_name(item.class_name)}, {c_string(item.class_name)}, "
           f"{label}) < 0) {{"] + fail
    for earlier in signature.params[:index]:
        other = earlier.type
        if isinstance(other, kt.ListType) and isinstance(other.item, kt.ClassType) and \
                other.item.class_name != item.class_name:
            message = c_string(f"%s() arguments '{earlier.name}' and "
                               f"'{signature.params[index].name}' are one list, which cannot "
                               f"hold both {other.item.class_name} and {item.class_name}")
            out += [f"  if ((void *){variable} == (void *)list_{earlier.name}) {{",
                    f"    PyErr_Format(PyExc_TypeError, {message}, {c_string(signature.name)});"
                    ] + fail
    return out


def takes_self(signature) -> bool:
    """A method called on an instance: parameter 0 is `self` (a
    classmethod's compiled function has no `cls`: frontend/classes.py)."""
    return getattr(signature, "class_name", None) is not None and \
        getattr(signature, "method_kind", "") not in ("staticmethod", "classmethod")


def generate_wrapper(module_name: str, signature, owner=None, checks_self=False) -> list:
    """The C function converting a call's arguments, calling the compiled
    function and boxing its result. A module function's is METH_FASTCALL
    (`kiln_wrap_<name>`); a method's (`owner`: its ClassInfo) also takes
    tp_init's keyword dict, gets `self` from its caller and binds the
    arguments as CPython binds a `def`'s (class_types.py); `checks_self`:
    the class is a base class, and Python may derive its own subclasses of
    it, whose instances compiled code does not take."""
    name = signature.name
    if owner is None:
        out = function_parameter_slots(signature)
        out += [f"static PyObject *kiln_wrap_{name}(PyObject *self, PyObject *const *args, "
                "Py_ssize_t nargs, PyObject *kwnames) {"]
        out += bind_arguments(name, signature.params, signature)
    else:
        from .class_types import method_wrapper_name
        out = [f"static PyObject *{method_wrapper_name(signature)}(PyObject *self, "
               "PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, "
               "PyObject *kwargs) {"]
        out += bind_method_arguments(signature)
    containers = container_parameters(signature)
    # Lists, dicts or sets in or out: one epilogue boxes the result, then
    # writes back.
    with_containers = bool(containers) or returns_containers(signature)
    if with_containers:
        out += [f"  kiln_container_argument container_arguments[{max(len(containers), 1)}];",
                "  int container_count = 0;"]
    call_args = []
    acquired = []
    strings = []

    def released(raised=False) -> list:
        """What every path after the call releases besides the containers:
        the arrays acquired, and the str arguments' copies (dropped; freed
        after the function raised, which keeps no reference to them but may
        have left its own counted, as it may a list's)."""
        return _release_all(acquired) + dropped_strings(raised)

    def dropped_strings(raised=False) -> list:
        return [f"  free(str_{p});" if raised else f"  kiln_str_drop(str_{p});"
                for p in strings]

    def cleanup(raised=False) -> list:
        """What a failure releases: the arrays acquired so far, the lists,
        dicts and sets made so far (container_count of them), then the
        strings copied so far. The containers go first: a str argument the
        function stored into a list, dict or set argument is held by it
        (and written back from it) until then; after them only the wrapper
        and, after a raise, the callee's own entry reference (never
        released on the error path) hold it, so free() is right there."""
        return _release_all(acquired) + ([f"  {FREE_CONTAINERS}"] if containers else []) + \
            dropped_strings(raised)

    for index, param in enumerate(signature.params):
        pname = param.name
        type_ = param.type
        label = f"{c_string(name)}, {c_string(python_parameter_name(signature, pname))}"
        if index == 0 and owner is not None and takes_self(signature):
            # The method descriptor (or the slot) checked that self is an
            # instance of the class.
            if checks_self:
                out += [f"  if (Py_TYPE(self) != (PyTypeObject *){class_slot(module_name, type_)}"
                        f" && !kiln_of_subclass(self, {subclass_slots_name(type_.class_name)}))",
                        f"    return kiln_self_refused(self, {c_string(owner.name)}, "
                        f"{c_string(signature.method_name)});"]
            call_args.append("self")
            continue
        if isinstance(type_, kt.ArrayType):
            out += convert_array(signature, index, param, cleanup())
            acquired.append((pname, pname in signature.written_arrays))
            call_args.append(f"&array_{pname}")
            continue
        fail = ["  " + line for line in cleanup()] + ["    return NULL;", "  }"]
        if is_str(type_):
            # A copy of the text (one memcpy of CPython's code points),
            # dropped after the call on every path.
            out += [f"  kiln_str *str_{pname} = kiln_get_str(bound[{index}], {label});",
                    f"  if (!str_{pname}) {{"] + fail
            strings.append(pname)
            call_args.append(f"str_{pname}")
        elif isinstance(type_, kt.ClassType):
            # The caller's object itself, borrowed for the call.
            out += [f"  void *object_{pname};",
                    f"  if (kiln_as_instance(bound[{index}], {class_slot(module_name, type_)}, "
                    f"{subclass_slots_name(type_.class_name)}, "
                    f"{int(type_.optional)}, &object_{pname}, "
                    f"{c_string(type_.class_name)}, {label}) < 0) {{"] + fail
            call_args.append(f"object_{pname}")
        elif is_container(type_):
            # kiln_get_list(object, item kind, ...), kiln_get_dict(object,
            # key kind, value kind, ...), kiln_get_set(object, kind, ...)
            noun = container_noun(type_)
            kinds = [type_.key, type_.value] if isinstance(type_, kt.DictType) else [type_.item]
            variable = f"{noun}_{pname}"
            out += [f"  {c_declaration(container_c_type(type_), variable)} = kiln_get_{noun}("
                    f"bound[{index}], {', '.join(item_kind(k) for k in kinds)}, "
                    f"container_arguments, &container_count, {label});",
                    f"  if (!{variable}) {{"] + fail
            if isinstance(type_, kt.ListType) and isinstance(type_.item, kt.ClassType):
                out += instance_list_checks(module_name, signature, index, variable, label,
                                            fail)
            call_args.append(variable)
        elif type_.is_complex:
            out += [f"  double arg_{pname}_real, arg_{pname}_imag;",
                    f"  if (kiln_as_complex(bound[{index}], &arg_{pname}_real, "
                    f"&arg_{pname}_imag, {label}) < 0) {{"] + fail
            part = type_.part.c_type        # complex64: each part rounded to float
            call_args.append(f"__builtin_complex(({part})arg_{pname}_real, "
                             f"({part})arg_{pname}_imag)")
        elif type_.is_float:
            out += [f"  double arg_{pname};",
                    f"  if (kiln_as_double(bound[{index}], &arg_{pname}, {label}) < 0) {{"] + fail
            call_args.append(f"({type_.c_type})arg_{pname}")
        elif type_.is_int:
            out += ["  " + line for line in integer_argument(
                type_, f"arg_{pname}", f"bound[{index}]", label)]
            out += [f"  if (arg_{pname}_status < 0) {{"] + fail
            call_args.append(f"({type_.c_type})arg_{pname}")
        else:
            out += [f"  bool arg_{pname};",
                    f"  if (kiln_as_bool(bound[{index}], &arg_{pname}, {label}) < 0) {{"] + fail
            call_args.append(f"arg_{pname}")
    if signature.raises:
        out.append("  kiln_error error;")
        out.append("  error.kind = 0;   /* the kernel fills the record only when it raises */")
        call_args.append("&error")
    result = signature.return_type
    if isinstance(result, kt.TupleType):
        out.append(f"  {result_struct_name(module_name + '_', signature)} result;")
        call_args.insert(0, "&result")
    elif isinstance(result, kt.ArrayType):
        out.append(f"  {array_struct_name(result)} result;")
        call_args.insert(0, "&result")
    elif returns_through_pointer(result):        # a complex number
        out.append(f"  {result.c_type} result;")
        call_args.insert(0, "&result")
    call = f"{c_symbol(module_name + '_', signature)}({', '.join(call_args)})"
    if not (result is None or returns_through_pointer(result)):
        out.append(f"  {c_declaration(c_return_type(result), 'result')};")
    invoke = f"{call};" if result is None or returns_through_pointer(result) else \
        f"result = {call};"
    arrays = [p for p in signature.params if isinstance(p.type, kt.ArrayType)]
    if signature.release_gil and (arrays or containers) and \
            "nogil" not in signature.options_given and not signature.parallel:
        # Releasing and retaking the GIL costs tens of ns: worth it only when
        # the arrays and containers are large enough for the call to take
        # longer.
        sizes = " + ".join(["(" + " * ".join(f"array_{p.name}.shape[{k}]"
                                               for k in range(p.type.ndim)) + ")"
                            for p in arrays] +
                           [f"{container_noun(p.type)}_{p.name}->length" for p in containers])
        # An instance's list passed through a view (kiln_list_view) is
        # shared with Python, which could change it meanwhile: the GIL stays.
        shared = f" && !kiln_any_shared({CONTAINER_ARGUMENTS})" if containers else ""
        out += [f"  if ({sizes} >= KILN_GIL_RELEASE_ELEMENTS{shared}) {{",
                "    Py_BEGIN_ALLOW_THREADS", f"    {invoke}", "    Py_END_ALLOW_THREADS",
                "  } else {", f"    {invoke}", "  }"]
    elif signature.release_gil and containers:
        # As above: a list shared with Python through a view keeps the GIL.
        out += [f"  if (!kiln_any_shared({CONTAINER_ARGUMENTS})) {{",
                "    Py_BEGIN_ALLOW_THREADS", f"    {invoke}", "    Py_END_ALLOW_THREADS",
                "  } else {", f"    {invoke}", "  }"]
    elif signature.release_gil:
        # The kernel touches only the buffers' memory (and the lists and
        # dicts the wrapper made), never Python objects.
        out += ["  Py_BEGIN_ALLOW_THREADS", f"  {invoke}", "  Py_END_ALLOW_THREADS"]
    else:
        out.append(f"  {invoke}")
    if signature.raises:
        out.append("  if (error.kind != 0) {")
        if containers:
            # What the function changed before it raised stays changed, as
            # in CPython.
            out += [f"    int written = {WRITE_BACK};",
                    *["  " + line for line in cleanup(raised=True)],
                    "    if (written < 0)",
                    "      return NULL;"]
        else:
            out += ["  " + line for line in released(raised=True)]
        out += [f"    return kiln_raise(&error, {c_string(name)}, kiln_source_file);",
                "  }"]
    if with_containers:
        out += container_epilogue(signature, containers, cleanup())
    elif result is None:
        out += released()
        out.append("  Py_RETURN_NONE;")
    elif isinstance(result, kt.ArrayType):
        # Boxed before the arguments are released: a view of one that was
        # copied for the call (not aligned) copies it first.
        out.append(f"  PyObject *boxed = {box(result, 'result', viewed_arguments(signature, 0))};")
        out += released()
        out.append("  return boxed;")
    elif isinstance(result, kt.TupleType):
        count = len(result.elements)
        out.append(f"  PyObject *items[{count}];")
        for index, element in enumerate(result.elements):
            viewed = viewed_arguments(signature, index)
            out.append(f"  items[{index}] = {box(element, f'result.r{index}', viewed)};")
        out += released()
        out += [f"  for (int i = 0; i < {count}; ++i)",
                "    if (!items[i]) {",
                f"      for (int j = 0; j < {count}; ++j) Py_XDECREF(items[j]);",
                "      return NULL;",
                "    }",
                f"  PyObject *tuple = PyTuple_New({count});",
                "  if (!tuple) {",
                f"    for (int j = 0; j < {count}; ++j) Py_DECREF(items[j]);",
                "    return NULL;",
                "  }",
                f"  for (int i = 0; i < {count}; ++i) PyTuple_SET_ITEM(tuple, i, items[i]);",
                "  return tuple;"]
    elif is_str(result):
        out.append(f"  PyObject *boxed = {box(result, 'result')};")
        out += released()
        out.append("  return boxed;")
    else:
        out += released()
        out.append(f"  return {box(result, 'result')};")
    out += ["}", ""]
    return out


def container_epilogue(signature, containers, release: list) -> list:
    """After a call that returned, in a function with lists, dicts or sets in or
    out: the result is boxed first (a returned argument is the caller's own
    object, which gets its new contents next), then the changed lists and
    dicts are written back into the caller's objects, then arrays, lists and
    dicts are released."""
    result = signature.return_type
    out = []
    if result is None:
        out.append("  PyObject *boxed = Py_NewRef(Py_None);")
    elif isinstance(result, kt.TupleType):
        count = len(result.elements)
        out.append(f"  PyObject *items[{count}];")
        for index, element in enumerate(result.elements):
            out += box_tuple_item(element, index, result.elements,
                                  viewed_arguments(signature, index))
        out += ["  int boxed_all = 1;",
                f"  for (int i = 0; i < {count}; ++i)",
                "    boxed_all &= items[i] != NULL;",
                f"  PyObject *boxed = boxed_all ? PyTuple_New({count}) : NULL;",
                f"  for (int i = 0; i < {count}; ++i) {{",
                "    if (boxed)",
                "      PyTuple_SET_ITEM(boxed, i, items[i]);",
                "    else",
                "      Py_XDECREF(items[i]);",
                "  }"]
    else:
        out.append(f"  PyObject *boxed = "
                   f"{box(result, 'result', viewed_arguments(signature, 0))};")
    if containers:
        out += [f"  if ({WRITE_BACK} < 0)",
                "    Py_CLEAR(boxed);"]
    out += release
    out.append("  return boxed;")
    return out
