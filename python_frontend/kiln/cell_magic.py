"""The `%%kiln` cell magic (`%load_ext kiln`), as Cython's `%%cython`: the
cell runs in the notebook's namespace and its `@kiln.export` functions
compile at once, with the cell's options; `-a` shows the report below the
cell (report_targets.report: the same heatmap as `kiln report --html`).

A cell has no file, and the frontend reads source files: the cell's text is
saved under the compile cache (compiler/cache.saved_source), so the same
text is the same file and a re-run or a new kernel finds its compiled
functions in the cache. Diagnostics name the cell, `<cell In[3]>:4:9`, not
that file. Only this module imports IPython, and only `%load_ext kiln`
imports this module."""

from __future__ import annotations

import ast
import warnings

from IPython.core import magic_arguments
from IPython.core.magic import Magics, cell_magic, magics_class

from .errors import Diagnostic, KilnCompileError, KilnFallbackWarning
from .compiler.cache import saved_source
from .report_targets import is_compiled_function, report


def register(ipython) -> None:
    ipython.register_magics(KilnMagics)


@magics_class
class KilnMagics(Magics):
    @magic_arguments.magic_arguments()
    @magic_arguments.argument("-a", "--annotate", action="store_true",
                              help="show the cell's report (SIMD coverage heatmap) below it")
    @magic_arguments.argument("--fastmath", action="store_true",
                              help="@kiln.export(fastmath=True) for the cell's functions")
    @magic_arguments.argument("--parallel", action="store_true",
                              help="@kiln.export(parallel=True) for the cell's functions")
    @magic_arguments.argument("--no-boundscheck", dest="boundscheck", action="store_false",
                              default=None, help="@kiln.export(boundscheck=False)")
    @magic_arguments.argument("--strict", action="store_true",
                              help="a function that cannot compile is an error, "
                                   "not Python")
    @cell_magic
    def kiln(self, line, cell):
        """Compile the cell's @kiln.export functions into the notebook.

        The options apply to every function of the cell whose decorator
        does not set them itself. Functions Kiln cannot compile run as
        Python, with a KilnFallbackWarning saying why (an error with
        --strict)."""
        __tracebackhide__ = True    # IPython shows the error, not the magic's frames
        args = magic_arguments.parse_argstring(self.kiln, line)
        defaults = {name: True for name in ("fastmath", "parallel", "strict")
                    if getattr(args, name)}
        if args.boundscheck is False:
            defaults["boundscheck"] = False
        name = f"<cell In[{self.shell.execution_count}]>"
        # a SyntaxError naming the cell, which IPython shows as one of its own
        tree = compile(cell, name, "exec", ast.PyCF_ONLY_AST)
        path = saved_source(cell)
        exec(compile(cell, path, "exec"), self.shell.user_ns)       # noqa: S102
        functions = cell_functions(tree, self.shell.user_ns, path)
        for function in functions:
            function.__kiln_export__ = {**defaults, **function.__kiln_export__}
        compile_functions(functions, path, name)
        if args.annotate and functions:
            return report(*functions, source_name=name)
        return None


def cell_functions(tree: ast.Module, namespace: dict, path: str) -> list:
    """The @kiln.export functions the cell defined, in the cell's order."""
    found = []
    for node in tree.body:
        value = namespace.get(getattr(node, "name", None))
        if isinstance(node, ast.FunctionDef) and is_compiled_function(value) \
                and value.py_func.__code__.co_filename == path:
            found.append(value)
    return found


def compile_functions(functions: list, path: str, name: str) -> None:
    """Compiles each function now, its fallback warning or (strict) error
    naming the cell instead of the file it was saved to."""
    __tracebackhide__ = True
    for function in functions:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", KilnFallbackWarning)
            try:
                function._compile()
            except KilnCompileError as error:
                raise KilnCompileError([renamed(d, path, name) for d in error.diagnostics]) \
                    from None
        for warning in caught:
            # warn_explicit without a registry: shown on every run of the
            # cell, and still subject to the user's warning filters
            warnings.warn_explicit(str(warning.message).replace(path, name), warning.category,
                                   name, function.py_func.__code__.co_firstlineno)


def renamed(diagnostic: Diagnostic, path: str, name: str) -> Diagnostic:
    if diagnostic.file != path:
        return diagnostic
    return Diagnostic(name, diagnostic.line, diagnostic.column, diagnostic.message,
                      diagnostic.function)
