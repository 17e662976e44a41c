"""Module constants: the module-level names compiled code reads as values
taken at compile time (source.ModuleContext.module_constants finds the
names bound once; this file says which values qualify).

A constant is bound once, by a plain assignment at the top of the module,
to a number (`GAMES = 10`, `SCALE = -2.5`, `FLAG = True`), a tuple of
numbers (`SHAPE = (3, 4)`), a list of numbers (`TABLE = [1, 2, 3]`) or a
dict of numbers (`WEIGHTS = {1: 2.0}`). A list or dict is also an object
the module could change while it runs, so it is a constant only when no
code of the module changes it or hands it to code that could: every use
must only read it (an index, `len`, `in`, a loop or comprehension over it,
the read-only builtins and methods: `container_changes` lists the others,
which the error at a compiled read names)."""

from __future__ import annotations

import ast

from ..typing_rules import INT64_MAX, INT64_MIN
from .desugar import is_condition, is_loop_iterable

# Builtins that only read the container they are given (or copy it).
READING_BUILTINS = frozenset([
    "len", "sum", "min", "max", "sorted", "list", "tuple", "dict", "set", "frozenset", "any",
    "all", "enumerate", "zip", "iter", "reversed", "print", "repr", "str", "bool", "isinstance",
    "hash", "id", "type", "map", "filter"])
# Library functions that only read a list (bisect's searches, heapq's selections).
READING_FUNCTIONS = frozenset([("bisect", "bisect"), ("bisect", "bisect_left"),
                               ("bisect", "bisect_right"), ("heapq", "nsmallest"),
                               ("heapq", "nlargest")])
READING_METHODS = frozenset(["count", "index", "copy", "get", "keys", "values", "items"])


def literal_constant(node):
    """The value of a constant's right-hand side: a number (int, float,
    bool), a str, or a non-empty tuple of numbers, list of numbers or of
    strs, dict of numbers or strs (keys of one kind, values of one); None for
    anything else (complex numbers, nested containers, names, calls)."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if is_number(value):
        return value
    if isinstance(value, str) and not any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        return value            # a str (Unicode text: no lone surrogate)
    if isinstance(value, (tuple, list)) and value and all(is_number(v) for v in value):
        return value
    if isinstance(value, list) and value and all(is_text(v) for v in value):
        return value            # a list of str (`WORDS = ["a", "b"]`)
    if isinstance(value, dict) and value and all(
            (is_number(k) or is_text(k)) and (is_number(v) or is_text(v))
            for k, v in value.items()) and len({is_text(k) for k in value}) == 1 and \
            len({is_text(v) for v in value.values()}) == 1:
        return value            # keys all numbers or all str, values too
    return None


def is_text(value) -> bool:
    """A str a constant may hold (Unicode text: no lone surrogate)."""
    return isinstance(value, str) and not any(0xD800 <= ord(c) <= 0xDFFF for c in value)


def is_number(value) -> bool:
    return isinstance(value, (bool, int, float))


def int_out_of_range(value) -> bool:
    """A constant holding an int that no 64-bit int holds."""
    items = list(value.items()) if isinstance(value, dict) else \
        value if isinstance(value, (tuple, list)) else [value]
    flat = [v for item in items for v in (item if isinstance(item, tuple) else (item,))]
    return any(isinstance(v, int) and not isinstance(v, bool) and
               not INT64_MIN <= v <= INT64_MAX for v in flat)


def container_changes(context, name: str) -> list:
    """The uses of module list or dict `name` that may change it or hand it
    on (`(node, what)` each, `what` as a message says it: "`TABLE.append(...)`
    changes it"), in the module's own code outside the functions that bind
    a local of that name; empty when every use only reads it."""
    parents = parent_map(context)
    found = []
    for scope in scopes(context.tree):
        if scope is not context.tree and binds_locally(scope, name):
            continue
        for node in scope_nodes(scope):
            if isinstance(node, ast.Name) and node.id == name and \
                    isinstance(node.ctx, ast.Load):
                what = changing_use(context, node, parents)
                if what is not None:
                    found.append((node, what))
    return found


def parent_map(context) -> dict:
    parents = getattr(context, "_kiln_parents", None)
    if parents is None:
        parents = {}
        for node in ast.walk(context.tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
        context._kiln_parents = parents
    return parents


def scopes(tree) -> list:
    """The module and every function in it (lambdas are read with the
    scope around them)."""
    return [tree] + [n for n in ast.walk(tree)
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def scope_nodes(scope):
    """The nodes of a scope, not those of the functions nested in it."""
    pending = list(scope.body) if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) \
        else list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pending.extend(node.decorator_list + node.args.defaults)
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


def binds_locally(function, name) -> bool:
    """Whether `name` is a local variable of `function` (assigned in it
    without `global`)."""
    declared = any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names
                   for n in scope_nodes(function))
    return not declared and (any(a.arg == name for a in ast.walk(function.args)
                                 if isinstance(a, ast.arg)) or any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in scope_nodes(function)))


def changing_use(context, node, parents) -> str | None:
    """What this read of the container does that may change it or hand it
    on, or None when it only reads it."""
    parent = parents.get(node)
    spelled = node.id
    if isinstance(parent, ast.Subscript) and parent.value is node:
        if isinstance(parent.ctx, ast.Load):
            return None
        return f"`{ast.unparse(parent)}` is assigned or deleted"
    if isinstance(parent, ast.Attribute) and parent.value is node:
        call = parents.get(parent)
        if isinstance(call, ast.Call) and call.func is parent and parent.attr in READING_METHODS:
            return None
        return f"`{spelled}.{parent.attr}` may change it"
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        if isinstance(func, ast.Name) and func.id in READING_BUILTINS and \
                func.id not in context.module_functions():
            return None
        if context.qualified_name(func) in READING_FUNCTIONS and parent.args[0] is node:
            return None
        return f"it is passed to `{ast.unparse(func)}()`, which may change it"
    if isinstance(parent, ast.Compare) or isinstance(parent, ast.BinOp) or (
            isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        return None             # `x in TABLE`, `TABLE == xs`, `TABLE + xs`: new values
    if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
        return None
    if isinstance(parent, (ast.If, ast.While, ast.Assert, ast.IfExp)) and parent.test is node:
        return None
    if isinstance(parent, ast.BoolOp) and is_condition(parent):
        return None
    if isinstance(parent, (ast.Expr, ast.FormattedValue, ast.Starred)):
        return None
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and \
            is_loop_iterable(parent.targets[0]):
        return None             # a loop over it (desugar.py)
    if isinstance(parent, ast.Return):
        return "it is returned"
    if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
        return "it is bound to another name"
    if isinstance(parent, ast.arguments):
        return "it is a parameter's default value"
    if isinstance(parent, ast.keyword):
        return f"it is passed as `{parent.arg}=`"
    return f"`{ast.unparse(parent)}` holds it"
