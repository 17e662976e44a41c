"""Kiln: ahead-of-time compilation of annotated numeric Python.

    import kiln

    @kiln.export
    def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
        ...

`kiln build mod.py -o OUT` compiles every exported function of mod.py into
OUT/ (a C-ABI lib<mod>.so with <mod>.h, a CPython extension, <mod>.py and
<mod>.pyi). Undecorated, the functions stay ordinary Python.
"""

__version__ = "0.1.0"

from .errors import KilnCompileError, KilnToolchainError  # noqa: E402
from .typesystem import f32, f64, i32, i64  # noqa: E402

__all__ = ["export", "f64", "f32", "i64", "i32", "KilnCompileError", "KilnToolchainError",
           "__version__"]

_EXPORT_OPTIONS = {"boundscheck"}


def export(function=None, **options):
    """Marks a function for `kiln build`. Options: boundscheck (default True)."""
    unknown = set(options) - _EXPORT_OPTIONS
    if unknown:
        raise TypeError(f"unknown @kiln.export option(s): {', '.join(sorted(unknown))}")

    def mark(func):
        func.__kiln_export__ = dict(options)
        return func

    if function is None:
        return mark
    return mark(function)
