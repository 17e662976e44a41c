"""`kiln.report(target, ...)`: finds the build record of what the user holds
-- a decorated function, a function or module of a `kiln build` output, a
`.kiln.json` file or its dict -- and returns it as a report/view.py
ReportView (`_repr_html_` in Jupyter, the terminal view under print()).
The record is always the one of the code that runs: a compiled function's
comes from its compile-cache entry, which holds the build's record."""

from __future__ import annotations

import glob
import json
import os
import tempfile

from .report.view import ReportView, merged_record

SCHEMA_PREFIX = "kiln-report/"


def report(*targets, source_name: str | None = None) -> ReportView:
    """The report of one or more targets of the same source (several are
    merged: a notebook cell's functions, each compiled apart)."""
    if not targets:
        raise TypeError("kiln.report() needs a compiled function, a built module or a "
                        ".kiln.json record")
    records = [record_of(target) for target in targets]
    sources = {record.get("source") for record in records}
    if len(sources) > 1:
        raise ValueError("kiln.report() of several targets needs them from one source, not "
                         + ", ".join(sorted(map(str, sources))))
    return ReportView(merged_record(records), source_name=source_name)


def is_compiled_function(value) -> bool:
    """Whether `value` is what @kiln.export makes of a function (a
    kiln.CompiledFunction: kiln/__init__.py imports this module, hence the
    test by its attributes, not its class)."""
    return hasattr(value, "py_func") and hasattr(value, "_compile") and \
        hasattr(value, "__kiln_export__")


def record_of(target) -> dict:
    if isinstance(target, ReportView):
        return target.record
    if isinstance(target, dict):
        if not str(target.get("schema", "")).startswith(SCHEMA_PREFIX):
            raise ValueError("not a Kiln build record: no kiln-report schema")
        return target
    if isinstance(target, (str, os.PathLike)):
        return read_record(os.fspath(target))
    if is_compiled_function(target):
        return record_of_function(target)
    if callable(target) and hasattr(target, "__kiln_export__"):
        return record_of_python_function(target)    # KILN_DISABLE=1 kept it Python
    module = getattr(target, "__self__", None) if callable(target) else target
    path = getattr(module, "__file__", None)
    if path:                # a built module, or its extension (a native function's __self__)
        return record_in(os.path.dirname(os.path.abspath(path)), getattr(module, "__name__", ""))
    raise TypeError(f"kiln.report() takes a function marked @kiln.export, a module or function "
                    f"built by `kiln build`, or a .kiln.json record, not {type(target).__name__}")


def read_record(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        record = json.load(handle)
    if not str(record.get("schema", "")).startswith(SCHEMA_PREFIX):
        raise ValueError(f"{path} is not a Kiln build record (.kiln.json): no kiln-report schema")
    return record


def record_in(folder: str, module_name: str) -> dict:
    """The record in a build's output folder: `<mod>.kiln.json` for module
    `mod`, else the folder's only record (beside an extension or a cache
    entry, whose own names differ from the module's)."""
    own = os.path.join(folder, f"{module_name.rpartition('.')[2]}.kiln.json")
    if os.path.isfile(own):
        return read_record(own)
    found = glob.glob(os.path.join(glob.escape(folder), "*.kiln.json"))
    if len(found) != 1:
        raise FileNotFoundError(f"no single Kiln build record (.kiln.json) in {folder}")
    return read_record(found[0])


def record_of_function(function) -> dict:
    """The record of the build that compiled `function` (compiling it now
    if no call has: with the warning a first call gives when it stays
    Python); for a function left to Python, a build of it alone saying why."""
    from .errors import KilnCompileError, KilnToolchainError

    try:
        function._compile()
    except (KilnCompileError, KilnToolchainError, OSError):
        pass            # strict=True: the reasons are in the record built below
    if function.is_compiled:
        return record_of(function._native)
    return record_of_python_function(function.py_func, function.__kiln_export__)


def record_of_python_function(function, options: dict | None = None) -> dict:
    from .compiler.cache import source_path
    from .compiler.compiler import BuildOptions, build

    path = source_path(function)
    options = getattr(function, "__kiln_export__", {}) if options is None else options
    with tempfile.TemporaryDirectory(prefix="kiln-report-") as outdir:
        result = build(path, outdir, BuildOptions(functions=[function.__name__],
                                                  export_defaults=options))
        return read_record(result.artifacts["record"])
