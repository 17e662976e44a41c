"""Where compiled code makes lists, dicts, sets and strings, and what becomes of them: the
build record's `functions[].allocations` (issue 30: "say in the report, per
allocation site, where it went and why"; sites inside loops are marked on
the heatmap, as fallback points are).

A site is an expression that makes a new container: a literal, a
comprehension, `sorted(...)`, `list(...)`/`dict(...)`/`set(...)`, `.copy()`,
`xs[:]`, `xs + ys`, `xs * n`, `s | t` (and `s.union(t)`, ...). Its storage
follows from the runtime (runtime/kiln_list.c, kiln_dict.c, whose dicts
sets are): every container is on the heap, freed
where its last reference goes; a small list (items up to 1 KiB) reuses one
the thread freed before, so in a loop it costs no malloc after the first
iterations. Its fate is read from the function's syntax: returned, passed
to a call, stored into another container, or local (freed in the
function, at the latest when its name is rebound or the function returns).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt

# Bytes of items a list may hold and still be kept in the thread's cache of
# freed lists (runtime/kiln_list.c, KILN_LIST_CACHED_BYTES).
CACHED_LIST_BYTES = 1024

MAKERS = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)
MAKING_CALLS = {"sorted", "list", "dict", "set"}
# Methods that return a new container of their receiver's kind.
MAKING_METHODS = {"copy", "union", "intersection", "difference", "symmetric_difference"}
# What makes a new str (a literal is the module's, never allocated): str(),
# chr(), f-strings, and the methods that return one.
STR_MAKING_CALLS = {"str", "chr"}
STR_MAKING_METHODS = {"strip", "lstrip", "rstrip", "replace", "lower", "upper"}


def makes_str(node) -> bool:
    """Whether `node` (of type str) makes a new string."""
    if isinstance(node, (ast.JoinedStr, ast.BinOp, ast.Subscript)):
        return True                                     # f"..", a + b, s * n, s[i], s[a:b]
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in STR_MAKING_CALLS:
            return True
        return isinstance(node.func, ast.Attribute) and node.func.attr in STR_MAKING_METHODS
    return False


def makes_container(node) -> bool:
    """Whether `node` (of a list, dict or set type) is a new container
    rather than a name for an existing one."""
    if isinstance(node, MAKERS):
        return True
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id in MAKING_CALLS:
            return True
        return isinstance(node.func, ast.Attribute) and node.func.attr in MAKING_METHODS
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Slice)        # xs[:]
    return isinstance(node, ast.BinOp)                  # xs + ys, xs * n


def container_kind(type_) -> str | None:
    if isinstance(type_, kt.ListType):
        return "list"
    if isinstance(type_, kt.DictType):
        return "dict"
    if isinstance(type_, kt.SetType):
        return "set"
    if isinstance(type_, kt.StrType):
        return "str"
    return None


def enclosing_loops(function: ast.FunctionDef) -> dict:
    """node -> the line of the innermost loop (or comprehension) whose body
    evaluates it more than once."""
    inside: dict = {}
    # A stack, not recursion: expressions may nest thousands deep
    # (test_reliability_input's 2,000-term sums).
    pending = [(function, None)]
    while pending:
        node, loop_line = pending.pop()
        for child in ast.iter_child_nodes(node):
            line = loop_line
            if isinstance(node, (ast.For, ast.While)) and child not in (
                    getattr(node, "iter", None), getattr(node, "test", None)):
                line = node.lineno
            inside[child] = line
            pending.append((child, line))
    return inside


def returned_names(value) -> list:
    """The names a return statement hands back themselves (`return xs`,
    `return xs, n`), not those it only reads (`return len(xs)`)."""
    parts = value.elts if isinstance(value, ast.Tuple) else [value]
    return [part for part in parts if isinstance(part, ast.Name)]


def fate(node, parents: dict, function: ast.FunctionDef) -> tuple:
    """(fate, why) of the container `node` makes."""
    parent = parents.get(node)
    if isinstance(parent, ast.Return):
        return "returned", "returned to the caller, which owns it"
    if isinstance(parent, ast.Call) and node in parent.args:
        callee = ast.unparse(parent.func)
        return "argument", (f"a temporary passed to `{callee}` (borrowed there), freed after "
                            "the call")
    names = []
    if isinstance(parent, (ast.Assign, ast.AnnAssign)):
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
    if not names:
        return "temporary", "a temporary, freed right after its last use"
    for other in ast.walk(function):
        if isinstance(other, ast.Return) and other.value is not None and any(
                isinstance(n, ast.Name) and n.id in names for n in returned_names(other.value)):
            return "returned", (f"bound to `{names[0]}`, which may be returned: the caller "
                                "then owns it")
    return "local", (f"bound to `{names[0]}`: freed when its last name goes (the name rebound, "
                     "or the function returning)")


def allocation_sites(typed) -> list:
    """The container allocation sites of one typed function, in source order."""
    function = typed.node
    parents = {child: node for node in ast.walk(function)
               for child in ast.iter_child_nodes(node)}
    loops = enclosing_loops(function)
    sites = []
    for node in ast.walk(function):
        try:
            type_ = typed.type_of(node)
        except (KeyError, TypeError):
            continue
        kind = container_kind(type_)
        if kind is None or not (makes_str(node) if kind == "str" else makes_container(node)):
            continue
        parent = parents.get(node)
        if kind == "str" and isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
                and parent.func.id == "ord" and isinstance(node, ast.Subscript):
            continue        # ord(s[i]) reads the code point: no string is made
        where, why = fate(node, parents, function)
        loop_line = loops.get(node)
        if kind == "str" and isinstance(node, ast.Subscript) and \
                not isinstance(node.slice, ast.Slice):
            storage = "none for a character below U+0100 (a shared string); else heap (malloc)"
        elif kind in ("dict", "set", "str"):
            storage = "heap (malloc)"
        elif loop_line:
            storage = (f"heap; with items in {CACHED_LIST_BYTES} bytes it reuses a list the "
                       "thread freed, so no malloc after the first iterations")
        else:
            storage = (f"heap (malloc, or with items in {CACHED_LIST_BYTES} bytes a list the "
                       "thread freed before)")
        sites.append({"line": node.lineno, "column": node.col_offset + 1, "kind": kind,
                      "type": type_.name, "in_loop": loop_line, "storage": storage,
                      "fate": where, "reason": why})
    sites += constant_copies(typed)
    sites.sort(key=lambda site: (site["line"], site["column"]))
    return sites


def constant_copies(typed) -> list:
    """The copies of the module lists and dicts the function reads, made
    when it is called (mlir/constant_lowering.py): a site each, at the
    `def`."""
    sites = []
    for name in sorted(typed.constant_containers):
        type_ = next((typed.type_of(n) for n in ast.walk(typed.node)
                      if isinstance(n, ast.Name) and n.id == name and n in typed.values and
                      container_kind(typed.type_of(n))), None)
        if type_ is None:
            continue
        sites.append({"line": typed.node.lineno, "column": typed.node.col_offset + 1,
                      "kind": container_kind(type_), "type": type_.name, "in_loop": None,
                      "storage": "heap (malloc)", "fate": "local",
                      "reason": f"the copy of module constant `{name}` the function reads, "
                                "made when it is called and freed when it returns"})
    return sites
