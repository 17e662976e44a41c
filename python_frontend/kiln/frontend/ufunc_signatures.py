"""`@kiln.vectorize(["f8(f8, f8)", "f4(f4, f4)"])`: one ufunc, one compiled
loop per signature.

Each signature becomes a copy of the function whose annotations are that
signature's types, named `<f>__<params>__<result>` (`add__f64_f64__f64`)
and marked `kiln_ufunc = "<f>"`: typing, code generation and
kiln-vectorize see ordinary annotated @kiln.vectorize functions, and the
extension (native/ufuncs.py) makes one numpy ufunc `<f>` of all the
copies' loops, in the order written (numpy takes the first loop the
inputs cast to safely). The function itself is left out of compilation
(`kiln_ufunc_loops` lists its copies).

Type names: numpy's short codes (`f8`, `f4`, `i8`, `i4`, `i2`, `i1`, `u8`
... `u1`, `b1`), Kiln's (`f64`, `i32`, ...), numpy's (`float64`, `int32`,
`bool`) and Python's `float`, `int`, `bool` (bool loops are refused by
typing, as bool parameters of @kiln.vectorize are).
"""

from __future__ import annotations

import ast
import copy
import re

from .. import typesystem as kt

SHORT_CODES = {"f8": "f64", "f4": "f32", "i8": "i64", "i4": "i32", "i2": "i16", "i1": "i8",
               "u8": "u64", "u4": "u32", "u2": "u16", "u1": "u8", "b1": "b1"}
PYTHON_NAMES = {"float": "f64", "int": "i64", "bool": "b1", "bool_": "b1"}
SIGNATURE = re.compile(r"\s*(\w+)\s*\((.*)\)\s*")
# The decorators that mark a function for Kiln.
KILN_DECORATORS = (("kiln", "export"), ("kiln", "vectorize"), ("kiln", "guvectorize"))
CORE = re.compile(r"\(\s*(\w+(?:\s*,\s*\w+)*)?\s*\)")


def gufunc_core_dimensions(text: str) -> tuple:
    """numpy's gufunc signature `(m,n),(n)->(m)` -> (inputs, output): the
    core dimension names of each input and of the one output. ValueError
    saying what is wrong."""
    inputs, arrow, output = text.replace(" ", "").partition("->")
    parts = re.findall(r"\([^()]*\)", inputs)
    if not arrow or ",".join(parts) != inputs or \
            not CORE.fullmatch(output):
        raise ValueError(f"cannot read the gufunc signature {text!r}: write numpy's form, "
                         "\"(m,n),(n)->(m)\", with one output")

    def names(part):
        inner = part[1:-1]
        return [name for name in inner.split(",") if name]
    return [names(p) for p in parts], names(output)


def kiln_type_name(text: str):
    """The kiln.<name> of a type name in a signature, None if unknown."""
    text = text.strip()
    # Kiln's `i8`/`u8` (8 bits) are left out: in a signature they are
    # numpy's codes, int64 and uint64, as in Numba's.
    if text in ("f64", "f32", "i64", "i32", "i16", "u64", "u32", "u16", "b1"):
        return text
    if text in SHORT_CODES:      # `i8` is numpy's int64 here, as in Numba's signatures
        return SHORT_CODES[text]
    if text in PYTHON_NAMES:
        return PYTHON_NAMES[text]
    numpy_type = kt.BY_NUMPY_NAME.get(text)
    if numpy_type is not None and not numpy_type.is_complex:
        return "b1" if numpy_type.is_bool else numpy_type.name
    return None


def signature_list(decorator: ast.expr):
    """The signature strings of `@kiln.vectorize([...])` (or of one string),
    None when the decorator gives none."""
    if not isinstance(decorator, ast.Call) or not decorator.args:
        return None
    given = decorator.args[0]
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return [given]
    if isinstance(given, (ast.List, ast.Tuple)):
        return list(given.elts)
    return None


def expand_ufunc_signatures(context, error) -> None:
    """Adds the per-signature copies of every vectorize function given a
    signature list to the module's tree (see the module's doc). `error(node,
    message)` makes the KilnCompileError of a signature Kiln cannot read."""
    alias = next(iter(sorted(context.kiln_aliases)), "kiln")
    body = []
    for node in context.tree.body:
        body.append(node)
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if context.qualified_name(target) != ("kiln", "vectorize"):
                continue
            signatures = signature_list(decorator)
            if signatures is None:
                continue
            copies = [signature_copy(node, decorator, text, alias, error) for text in signatures]
            node.kiln_ufunc_loops = [c.name for c in copies]
            body += copies
    context.tree.body[:] = body


def signature_copy(function: ast.FunctionDef, decorator: ast.Call, text: ast.expr, alias: str,
                   error) -> ast.FunctionDef:
    if not isinstance(text, ast.Constant) or not isinstance(text.value, str):
        raise error(text, "a @kiln.vectorize signature is a string such as \"f8(f8, f8)\"")
    found = SIGNATURE.fullmatch(text.value)
    names = [kiln_type_name(t) for t in found.group(2).split(",") if t.strip()] \
        if found else []
    result = kiln_type_name(found.group(1)) if found else None
    if not found or result is None or None in names:
        raise error(text, f"cannot read the @kiln.vectorize signature {text.value!r}: write "
                          "\"result(param, ...)\" with number types such as f8, f4, i8, i4, "
                          "u1 (or float64, int32, float, int)")
    params = function.args.args
    if len(names) != len(params) or function.args.vararg or function.args.kwonlyargs:
        raise error(text, f"the signature {text.value!r} has {len(names)} parameter types; "
                          f"`{function.name}` takes {len(params)} parameters")
    clone = copy.deepcopy(function)
    clone.name = f"{function.name}__{'_'.join(names)}__{result}"
    clone.kiln_ufunc = function.name

    def annotation(name):
        return ast.copy_location(ast.Attribute(value=ast.Name(id=alias, ctx=ast.Load()),
                                               attr=name, ctx=ast.Load()), text)

    for param, name in zip(clone.args.args, names):
        param.annotation = annotation(name)
    clone.returns = annotation(result)
    clone.decorator_list = [ast.copy_location(
        ast.Call(func=copy.deepcopy(decorator.func), args=[], keywords=decorator.keywords),
        decorator)]
    return clone
