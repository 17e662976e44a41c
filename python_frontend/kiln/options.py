"""The options of `@kiln.export(...)`: name -> the type of its literal value.

Read by the decorator (`kiln.export` rejects an unknown option when the
module is imported) and by the build (`source.ModuleContext.export_options`
reads them from the source, which it never runs).

- boundscheck: False drops the IndexError checks of array indexing.
- nogil: release the GIL around the native call.
- fastmath: let float + - * / reassociate and contract (FMAs).
- vectorize: "auto" or "require" (a loop left scalar fails the build).
- parallel: run the function's outermost loops on all cores where their
  iterations are independent (as kiln.prange would; others stay sequential).
- strict: a function that cannot be compiled is an error (KilnCompileError
  on its first call, a failed `kiln build`) instead of running as Python.
"""

EXPORT_OPTIONS = {"boundscheck": bool, "nogil": bool, "fastmath": bool, "vectorize": str,
                  "strict": bool, "parallel": bool}
