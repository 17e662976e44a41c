"""Kiln: ahead-of-time compilation of annotated numeric Python.

    import kiln

    @kiln.export
    def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
        ...

`kiln build mod.py -o OUT` compiles every exported function of mod.py into
OUT/ (a C-ABI lib<mod>.so with <mod>.h, a CPython extension, <mod>.py and
<mod>.pyi). Undecorated, the functions stay ordinary Python.
"""

from .version import __version__  # noqa: E402
from .errors import (CLASS_FALLBACK, Diagnostic, KilnCompileError, KilnFallbackWarning,  # noqa: E402
                     KilnToolchainError)
from .typesystem import b1, c64, c128, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64  # noqa: E402
from .options import EXPORT_OPTIONS  # noqa: E402

__all__ = ["export", "vectorize", "guvectorize", "prange", "set_num_threads", "get_num_threads", "f64", "f32", "i64", "i32", "i16", "i8", "u64", "u32",
           "u16", "u8", "b1", "c64", "c128", "KilnCompileError", "KilnToolchainError",
           "KilnFallbackWarning", "CompiledFunction", "report", "load_ipython_extension",
           "__version__"]



class CompiledFunction:
    """What `@kiln.export` returns: calls compile the function on first use
    (cached on disk, see kiln/compiler/cache.py) and then run native code.
    `kiln build` reads the source instead and never calls this."""

    # `__call__` is a slot of each object, not a method: CPython calls an
    # instance through its type's `__call__`, here the slot's descriptor,
    # which yields what this object's slot holds, and calls that with the
    # arguments. It holds `_first_call` until the first call has compiled,
    # then the native function itself, or the Python function when
    # compiling failed -- so a warm call runs no Python code at all (a
    # `def __call__` forwarding `*args, **kwargs` made every call build a
    # frame, a tuple and a dict, and cost ~8x the native function's).
    __slots__ = ("__call__", "__dict__", "__weakref__")

    def __init__(self, function, options):
        import functools
        import threading

        functools.update_wrapper(self, function)
        self.py_func = function
        self.__kiln_export__ = dict(options)
        self._native = None
        self._lock = threading.Lock()
        self._failed = False
        self._error = None          # what a strict function raises on every call
        self.__call__ = self._first_call

    def _first_call(self, *args, **kwargs):
        # Also reached by calls that started before another thread's
        # compile finished: _compile then returns what that one made.
        return self._compile()(*args, **kwargs)

    @property
    def is_compiled(self) -> bool:
        return self._native is not None

    def _compile(self):
        import inspect
        import warnings

        with self._lock:
            if self._native is not None:
                return self._native
            if self._failed:
                return self.py_func
            if self._error is not None:
                raise self._error
            try:
                from .compiler.cache import compile_cached, source_path

                path = source_path(self.py_func)
                self._native = compile_cached(path, self.py_func.__name__, self.__kiln_export__,
                                              namespace=self.py_func.__globals__,
                                              python_function=self.py_func)
                self.__call__ = self._native
                return self._native
            except Exception as error:  # noqa: BLE001 - the call must still run
                import os

                internal = not isinstance(error, (KilnCompileError, KilnToolchainError, OSError))
                if internal and os.environ.get("KILN_DEBUG"):
                    raise
                if self.__kiln_export__.get("strict"):
                    # @kiln.export(strict=True): this call, and every later
                    # one, raises the reason instead of running Python
                    self._error = error
                    raise
                self._failed = True
                self.__call__ = self.py_func
                reason = f"internal error: {type(error).__name__}: {error}" if internal \
                    else error
                warnings.warn(f"kiln: {self.py_func.__qualname__} runs as Python: {reason}",
                              KilnFallbackWarning, stacklevel=3)
                return self.py_func

    async def aio(self, *args, **kwargs):
        """Runs the call in a worker thread; compiled code with array
        arguments releases the GIL, so the event loop keeps serving."""
        import asyncio
        import functools

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(self, *args, **kwargs))

    def __reduce__(self):
        # Pickled by reference, as functions (and Numba's dispatchers) are:
        # `mod.f`, found again by importing mod in the loading process,
        # where the decorator made that process's own CompiledFunction (and
        # its native code, compiled there or taken from the disk cache).
        # pickle checks that `mod.f` is this very object.
        return self.__qualname__

    def __get__(self, instance, owner=None):
        return self if instance is None else self.py_func.__get__(instance, owner)

    def __repr__(self) -> str:
        state = "native" if self._native else ("python" if self._failed else "not yet compiled")
        return f"<kiln function {self.py_func.__qualname__} ({state})>"


def prange(*args):
    """`range(...)` whose iterations a compiled function runs on all cores
    (OpenMP threads; see set_num_threads). As Python, plain `range`. The
    loop's variables are each iteration's own, except reductions
    (`s += x[i]`, `m = max(m, x[i])`, ...) and writes to elements the
    iteration indexes by its loop variable (`out[i] = ...`)."""
    return range(*args)


def set_num_threads(count: int) -> None:
    """The threads kiln.prange loops use from now on, in this process (and
    its children): sets KILN_NUM_THREADS, which every Kiln artifact reads at
    each parallel loop. By default: OMP_NUM_THREADS, else the CPUs the
    process may run on."""
    import operator
    import os
    try:
        count = operator.index(count)
    except TypeError:
        raise TypeError("set_num_threads() argument 'count' must be int, not "
                        f"{type(count).__name__}") from None
    if count < 1:
        raise ValueError(f"set_num_threads() argument 'count' must be at least 1, not {count}")
    os.environ["KILN_NUM_THREADS"] = str(count)


def get_num_threads() -> int:
    """The threads a kiln.prange loop started now would use (the rule of
    runtime/kiln_parallel.c, which the artifacts run)."""
    from .threads import thread_count
    return thread_count()


def vectorize(function=None, **options):
    """Makes a function of numbers a numpy ufunc (`isinstance(f,
    np.ufunc)`): numpy then applies it to arrays of any rank with
    broadcasting, `out=`, `where=`, `dtype=`, and gives it `.reduce`,
    `.accumulate`, `.reduceat`, `.outer` and `.at`; its inner loop is the
    compiled function. It compiles now, when the module defines it (cached
    on disk). `@kiln.vectorize(["f8(f8, f8)", "i8(i8, i8)"])` compiles one
    loop per signature (numpy picks the first its inputs cast to safely)
    in place of the annotations. Options: those of @export, and identity
    (None, "reorderable" or a number: what `.reduce` of nothing gives, and
    where it starts). With KILN_DISABLE=1, or
    when it cannot compile (a KilnFallbackWarning says why), it is a Python
    stand-in built on np.frompyfunc (kiln/python_ufuncs.py)."""
    signatures = None
    if isinstance(function, (str, list, tuple)):
        signatures, function = function, None
    unknown = set(options) - set(EXPORT_OPTIONS) - {"identity"}
    if unknown:
        raise TypeError(f"unknown @kiln.vectorize option(s): {', '.join(sorted(unknown))}")

    def mark(func):
        from .python_ufuncs import PythonUfunc

        def python_version():
            return PythonUfunc(func, options.get("identity"), signatures)

        # The signatures are read from the source, as the options are.
        return compiled_ufunc(func, options, python_version)

    if function is None:
        return mark
    return mark(function)


def guvectorize(signature: str, **options):
    """Makes a function over core dimensions a numpy generalized ufunc:
    `@kiln.guvectorize("(n),(n)->()")` on `def dot(x: kiln.f64[:], y:
    kiln.f64[:]) -> float` gives `dot(a, b)` over the last axis of arrays
    of any rank (numpy broadcasts the others; `out=`, `axes=`, `axis=`).
    The body returns its output (an array for `->(m)`). Compiles now, as
    @kiln.vectorize does; as Python (KILN_DISABLE=1, or a fallback) it is
    `np.vectorize(f, signature=...)`. Options: those of @export."""
    unknown = set(options) - set(EXPORT_OPTIONS)
    if unknown or not isinstance(signature, str):
        raise TypeError("@kiln.guvectorize takes a gufunc signature (\"(n),(n)->()\") and "
                        "@kiln.export's options" + (f"; unknown: {', '.join(sorted(unknown))}"
                                                    if unknown else ""))

    def python_gufunc(func):
        import numpy as np

        from .python_ufuncs import result_dtype

        dtype = result_dtype(func)      # also for size-0 inputs, which call it never
        return np.vectorize(func, signature=signature, otypes=[dtype] if dtype else None)

    def mark(func):
        return compiled_ufunc(func, dict(options, gufunc=signature),
                              lambda: python_gufunc(func))

    return mark


def compiled_ufunc(func, options, python_version):
    """The numpy ufunc of a @kiln.vectorize or @kiln.guvectorize function,
    compiled now (cached on disk); `python_version()` with KILN_DISABLE=1,
    or with a KilnFallbackWarning when it cannot compile (strict=True
    raises instead)."""
    import os

    if os.environ.get("KILN_DISABLE") == "1":
        return python_version()
    try:
        from .compiler.cache import compile_cached, source_path

        return compile_cached(source_path(func), func.__name__, options,
                              namespace=func.__globals__)
    except Exception as error:  # noqa: BLE001 - the function must still run
        internal = not isinstance(error, (KilnCompileError, KilnToolchainError, OSError))
        if (internal and os.environ.get("KILN_DEBUG")) or options.get("strict"):
            raise
        import warnings

        reason = f"internal error: {type(error).__name__}: {error}" if internal else error
        warnings.warn(f"kiln: {func.__qualname__} runs as Python: {reason}",
                      KilnFallbackWarning, stacklevel=3)
        return python_version()


def compiled_class(cls, options):
    """@kiln.export on a class: the class compiles now, with every exported
    class of its module (cached on disk, see kiln/compiler/cache.py), and
    the native type takes its place, named as the class was (`__module__`,
    `__qualname__`, `__doc__`: pickle finds it where the class was). When
    it cannot compile, the class is returned as it is -- still a class, so
    subclasses, isinstance and its instances work as in Python -- with a
    KilnFallbackWarning (or, with strict=True, the KilnCompileError)."""
    import os

    try:
        from .compiler.cache import class_source_path, compile_class_cached

        native = compile_class_cached(class_source_path(cls), cls.__name__)
    except Exception as error:  # noqa: BLE001 - the class must still be usable
        internal = not isinstance(error, (KilnCompileError, KilnToolchainError, OSError))
        if internal and os.environ.get("KILN_DEBUG"):
            raise
        return python_class(cls, options, error, internal)
    native.__module__ = cls.__module__
    native.__qualname__ = cls.__qualname__
    native.__doc__ = cls.__doc__
    native.__kiln_export__ = dict(options)
    # A dataclass's description: dataclasses.fields(), asdict(), replace()
    # and `match` read it.
    for name in ("__dataclass_fields__", "__dataclass_params__", "__match_args__"):
        if name in vars(cls):
            setattr(native, name, vars(cls)[name])
    return native


def python_class(cls, options, error, internal=False):
    """The class left to Python: a KilnFallbackWarning saying why, once,
    here, or with strict=True the KilnCompileError."""
    import warnings

    import inspect

    cls.__kiln_export__ = dict(options)
    if options.get("strict"):
        if isinstance(error, KilnCompileError):
            raise error
        try:
            # the `class` line, as `kiln build`'s record says (the lines
            # start at the decorators)
            lines, first = inspect.getsourcelines(cls)
            line = first + next((i for i, text in enumerate(lines)
                                 if text.lstrip().startswith("class ")), 0)
            file = inspect.getsourcefile(cls) or "<unknown>"
        except (OSError, TypeError):
            file, line = "<unknown>", 0
        raise KilnCompileError(Diagnostic(file, line, 1, f"{error}", cls.__qualname__))
    reason = f"internal error: {type(error).__name__}: {error}" if internal else error
    warnings.warn(f"kiln: class {cls.__qualname__} runs as Python: {reason}",
                  KilnFallbackWarning, stacklevel=3)
    return cls


def export(function=None, **options):
    """Marks a function for Kiln. `kiln build` compiles it ahead of time;
    called directly, it compiles on first call (KILN_DISABLE=1 keeps plain
    Python). Options: boundscheck (default True); nogil (release the GIL
    around the native call: default True when the function takes arrays);
    fastmath (let float + - * / reassociate and contract into FMAs, so float
    reductions vectorize; results may differ from CPython in the last bits);
    vectorize="require" (fail the build if a loop of the function stays scalar);
    strict (raise KilnCompileError instead of running as Python)."""
    import os

    unknown = set(options) - set(EXPORT_OPTIONS)
    if unknown:
        raise TypeError(f"unknown @kiln.export option(s): {', '.join(sorted(unknown))}")

    def mark(func):
        if os.environ.get("KILN_DISABLE") == "1":
            func.__kiln_export__ = dict(options)
            return func
        if isinstance(func, type):
            return compiled_class(func, options)
        return CompiledFunction(func, options)

    if function is None:
        return mark
    return mark(function)


def load_ipython_extension(ipython) -> None:
    """`%load_ext kiln`: registers the `%%kiln` cell magic (kiln/cell_magic.py).
    IPython is imported there, so `import kiln` never needs it."""
    from .cell_magic import register

    register(ipython)


# `kiln.report` is the report stage's package (`kiln.report.html`, ...) and,
# since notebooks, also callable: `kiln.report(f)` returns f's report, which
# Jupyter shows as the heatmap and print() as the terminal view
# (kiln/report_targets.py). A module cannot be a function, so the package
# module gets a class whose instances are callable; its submodules, and every
# `from kiln.report import ...`, stay as they were.
from . import report as _report_package  # noqa: E402


class _CallableReportPackage(type(_report_package)):
    def __call__(self, *targets, source_name=None):
        """kiln.report(f): the report of a function marked @kiln.export (compiled
        now if no call has), of a module or function built by `kiln build`, or
        of a .kiln.json record; several targets of one source make one report."""
        from .report_targets import report as report_of

        return report_of(*targets, source_name=source_name)


_report_package.__class__ = _CallableReportPackage
report = _report_package
