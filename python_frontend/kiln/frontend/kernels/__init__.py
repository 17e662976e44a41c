"""numpy functions Kiln compiles from Python source of its own (linalg.py:
np.linalg.det, solve, inv, cholesky, norm, ..., np.trace, np.kron).

A kernel file is ordinary Python written against numpy, in the subset
Kiln compiles, with a few template names (FLOAT, TINY, RESULT) standing
for the types one use needs. `instantiate` parses it once, and for one
set of template values gives its functions as syntax trees ready to join
the calling module: each template name replaced by its value, `np` by
KERNEL_NUMPY (a name the module context always reads as numpy, whatever
the user's module imports), and every function renamed
`__kiln_<file>_<function>__<key>` (calls between them too), so copies for
different types, and the user's own names, never meet. Type inference and
code generation then treat them as the module's helpers: typed by their
first call, inlined when small, vectorized like user code. Their ops carry
the kernel file's locations (`kiln_source_path` on each function), and an
exception raised inside one is reported at the user's call
(kiln.propagate_error's `at_call`)."""

from __future__ import annotations

import ast
import copy
import functools
import os

from ..desugar import desugar_loops, mark_conditions

KERNEL_NUMPY = "__kiln_numpy__"
KERNEL_DIRECTORY = os.path.dirname(os.path.abspath(__file__))


def kernel_path(kernel_file: str) -> str:
    return os.path.join(KERNEL_DIRECTORY, f"{kernel_file}.py")


def kernel_function_name(kernel_file: str, function: str, key: str) -> str:
    return f"__kiln_{kernel_file}_{function}__{key}"


@functools.lru_cache(maxsize=None)
def parsed(kernel_file: str) -> ast.Module:
    path = kernel_path(kernel_file)
    with open(path, encoding="utf-8") as handle:
        return ast.parse(handle.read(), filename=path)


def template_value(value) -> ast.expr:
    """A template name's replacement: ("numpy", "float64") is np.float64,
    ("name", "abs") that name, a number is that literal."""
    if isinstance(value, tuple) and value[0] == "name":
        return ast.Name(id=value[1], ctx=ast.Load())
    if isinstance(value, tuple):
        return ast.Attribute(value=ast.Name(id=KERNEL_NUMPY, ctx=ast.Load()), attr=value[1],
                             ctx=ast.Load())
    return ast.Constant(value=value)


class Instantiation(ast.NodeTransformer):
    def __init__(self, kernel_file, key, shared_key, shared, values, functions):
        self.kernel_file, self.key, self.values, self.functions = \
            kernel_file, key, values, functions
        self.shared_key, self.shared = shared_key, shared

    def renamed(self, name):
        return kernel_function_name(self.kernel_file, name, self.shared_key
                                    if name in self.shared else self.key)

    def visit_Name(self, node):
        value = self.values.get(node.id)
        if isinstance(value, tuple) and value[0] == "name" and value[1] in self.functions:
            # A kernel function named by a template value: renamed as such.
            replacement = ast.Name(id=self.renamed(value[1]), ctx=node.ctx)
        elif node.id in self.values:
            replacement = template_value(self.values[node.id])
        elif node.id == "np":
            replacement = ast.Name(id=KERNEL_NUMPY, ctx=node.ctx)
        elif node.id in self.functions:
            replacement = ast.Name(id=self.renamed(node.id), ctx=node.ctx)
        else:
            return node
        for child in ast.walk(replacement):
            ast.copy_location(child, node)
            child.end_lineno, child.end_col_offset = node.end_lineno, node.end_col_offset
        return replacement

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        node.name = self.renamed(node.name)
        return node


def shared_functions(kernel_file: str) -> frozenset:
    """The functions the file's `SHARED = (...)` names: they see only
    arrays the kernels make (of FLOAT), so one copy per set of template
    values serves every argument type."""
    for node in parsed(kernel_file).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == \
                ["SHARED"]:
            return frozenset(element.value for element in node.value.elts)
    return frozenset()


def instantiate(kernel_file: str, key: str, shared_key: str, values: dict,
                text: str | None = None) -> dict:
    """name -> FunctionDef: every function of `kernel_file` for the
    template values `values` (template name -> ("numpy", dtype name) or a
    number), named with `key`, or `shared_key` for the SHARED ones (whose
    types depend on `values` alone). `text`: the kernel's source, generated
    for this use (einsum.py's), instead of the file's."""
    tree = copy.deepcopy(parsed(kernel_file)) if text is None else \
        ast.parse(text, filename=kernel_path(kernel_file))
    tree.body = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    functions = {node.name for node in tree.body}
    shared = shared_functions(kernel_file) if text is None else frozenset()
    tree = Instantiation(kernel_file, key, shared_key, shared, values, functions).visit(tree)
    ast.fix_missing_locations(tree)
    desugar_loops(tree)
    mark_conditions(tree)
    path = kernel_path(kernel_file)
    for node in tree.body:
        node.kiln_source_path = path
    return {node.name: node for node in tree.body}
