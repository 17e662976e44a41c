"""One typed copy of a helper per distinct signature of its arguments, as
Numba's dispatcher compiles one per signature.

A module function without annotations on (some of) its parameters is typed
by the arguments of the calls that reach it. Its first call's types keep
the helper's own name; a call passing other types gets a copy of the
helper named after them (`relu__ks_f64_2d` for a 2-D float64 array),
typed and compiled like any function: a C symbol `<mod>_relu__ks_f64_2d`
per specialization. The name depends only on the types, so a rebuild of a
few functions (compiler.isolate_rejected) finds the same copy for the same
types. Annotated parameters stay exactly as annotated.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import re

from .. import typesystem as kt
from ..errors import SPECIALIZATION_SUFFIX
from ..typing_rules import display

# A helper called at more signatures than this is refused at the next one
# (each is a whole function compiled into the module).
MAX_SPECIALIZATIONS = 16


def type_tag(type_) -> str:
    """A part of a symbol naming one argument type: `f64`, `i32_2d` (a 2-D
    int32 array), or for other types their display, made an identifier and
    told apart from others that would read the same by a digest."""
    if isinstance(type_, kt.ScalarType):
        return type_.name
    if isinstance(type_, kt.ArrayType):
        return f"{type_.dtype.name}_{type_.ndim}d"
    if isinstance(type_, kt.DTypeValue):
        return type_.name                       # `dtype_f32`
    shown = str(display(type_))
    digest = hashlib.sha1(shown.encode()).hexdigest()[:6]
    return f"{re.sub(r'[^A-Za-z0-9]+', '_', shown).strip('_')}_{digest}"


def signature_key(hints: dict) -> tuple:
    """The types passed to the parameters without annotations, in order."""
    return tuple((name, type_tag(type_)) for name, type_ in hints.items())


class Specializations:
    """The signatures each helper is typed at in one module's typing, and
    the function (the helper or a copy of it) typing each."""

    def __init__(self, context, functions: dict):
        self.context = context
        self.functions = functions          # the module typing's name -> FunctionDef
        self.by_helper: dict = {}           # name -> {signature key: function name}
        # A helper's tree as it was before its first signature typed it:
        # typing hangs facts on syntax nodes (`_kiln_kernel_call`, ...), and
        # a copy made later would start with the first signature's.
        self.untyped: dict = {}

    def function_for(self, name: str, hints: dict) -> str:
        """The function to type and call for helper `name` called with
        `hints` (parameter -> type of what the call passes)."""
        key = signature_key(hints)
        known = self.by_helper.setdefault(name, {})
        if key in known:
            return known[key]
        if not known:
            known[key] = name               # the first call's types: the helper itself
            self.untyped[name] = copy.deepcopy(self.functions[name])
            return name
        if len(known) >= MAX_SPECIALIZATIONS:
            raise TooManySpecializations(name)
        special = name + SPECIALIZATION_SUFFIX + "__".join(tag for _, tag in key)
        if special not in self.context.specialized_functions:
            function = copy.deepcopy(self.untyped[name])
            function.name = special
            self.context.specialized_functions[special] = function
        self.functions[special] = self.context.specialized_functions[special]
        known[key] = special
        return special

    def several(self) -> dict:
        """helper -> its functions, for the helpers typed at more than one
        signature (the build record lists them)."""
        return {name: list(known.values()) for name, known in self.by_helper.items()
                if len(known) > 1}


def specialized_calls(types, function) -> list:
    """The calls in `function` (a TypedFunction) of helpers typed at several
    signatures: their lines, the helper, the signature this call typed it at
    and the function (a symbol of the module) that computes it."""
    calls = []
    for node in ast.walk(function.node):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and
                node.func.id in types.specializations):
            continue
        target = function.call_targets.get(node, node.func.id)
        typed = types.functions.get(target)
        if typed is None or not typed.ok:
            continue
        parameters = ", ".join(f"{p.name}: {display(p.type)}" for p in typed.params)
        calls.append({"line": node.lineno, "helper": node.func.id,
                      "signature": f"{node.func.id}({parameters})", "function": target})
    return sorted(calls, key=lambda c: c["line"])


class TooManySpecializations(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.message = (f"`{name}` is called with more than {MAX_SPECIALIZATIONS} different "
                        "argument types; annotate its parameters")
