"""The build, as ordered stages:

1. parse    -- read the module's syntax tree and imports (source.py)
2. mlir     -- emit MLIR for every exported function (code_generator.py)
3. c-abi    -- header for lib<mod>.so (wrapper.py)
4. native   -- kilnc: lib<mod>.so, and the CPython extension with the
               wrappers compiled by Clang into the kernels' LLVM module
5. stubs    -- <mod>.py and <mod>.pyi (stubs.py)
"""

from __future__ import annotations

import json
import keyword
import os
import re
import sysconfig
from dataclasses import dataclass, field

from .. import __version__
from ..errors import Diagnostic, KilnCompileError

from .code_generator import generate_module
from ..report.model import enrich
from .remarks import loop_verdicts, parse_remarks, require_vectorized, with_python_names
from .toolchain import kilnc_supports
from .source import load_module
from .stubs import generate_pyi, generate_stub
from .toolchain import KilncFailed, start_kilnc, wait_kilnc
from .wrapper import generate_extension, generate_header


@dataclass
class BuildOptions:
    opt_level: int = 3
    target_cpu: str = "native"
    strict: bool = False     # a function that cannot compile fails the build
    functions: list = None   # compile only these exported functions (default: all)
    extension_name: str = None  # module name of the CPython extension
    release: bool = False    # kilnc --release: -O3 plus the metadata and RTTI strips


@dataclass
class BuildResult:
    module_name: str
    outdir: str
    artifacts: dict = field(default_factory=dict)
    signatures: list = field(default_factory=list)
    fallbacks: list = field(default_factory=list)


def fallback_records(failures: dict) -> list:
    """One record per unsupported construct of each function left to Python."""
    return [{"kind": "function", "function": name, "file": d.file, "line": d.line,
             "column": d.column, "reason": d.message}
            for name, error in failures.items() for d in error.diagnostics]


def build_record(context, signatures, fallbacks, verdicts, remarks) -> dict:
    compiled = {s.name for s in signatures}
    functions = [{"name": f.name, "compiled": f.name in compiled, "line": f.lineno,
                  "loops": verdicts.get(f.name, [])}
                 for f in context.exported_functions()]
    raw = [{"kind": r["kind"], "pass": r.get("pass", ""), "name": r.get("name", ""),
            "function": r.get("function", ""), "line": r["line"], "column": r["column"],
            "message": r["message"]} for r in remarks]
    return {"schema": "kiln-report/1", "kiln_version": __version__,
            "module": context.module_name, "source": context.path,
            "functions": functions, "fallbacks": fallbacks, "llvm_remarks": raw}


def add_ir_stats(record, path, module) -> None:
    """IR statistics of each function's C-ABI body (the kernel inlined into
    it), before and after the release strips (equal unless --release)."""
    if not path or not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as handle:
        stats = json.load(handle)
    by_name = {phase: {f["name"]: f for f in stats.get(phase, {}).get("per_function", [])}
               for phase in ("before", "after")}
    for function in record["functions"]:
        symbol = f"{module}_{function['name']}"
        entry = {phase: by_name[phase][symbol] for phase in by_name if symbol in by_name[phase]}
        if entry:
            function["ir_stats"] = entry
    record["ir_stats"] = {phase: {k: v for k, v in stats[phase].items() if k != "per_function"}
                          for phase in ("before", "after") if phase in stats}


def write_text(path: str, text: str) -> None:
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def check_module_name(context) -> None:
    """The file's name is the module's: `import my-mod` cannot be written,
    and the C symbols and the extension are named after it."""
    module = context.module_name
    file = os.path.basename(context.path)
    why = None
    if not module.isidentifier():
        why = f"`{module}` is not a Python identifier"
    elif keyword.iskeyword(module):
        why = f"`{module}` is a Python keyword"
    if why:
        suggestion = re.sub(r"\W", "_", module)
        suggestion = suggestion if suggestion.isidentifier() and not keyword.iskeyword(
            suggestion) else f"_{suggestion}"
        raise KilnCompileError(Diagnostic(
            context.path, 1, 1, f"`{file}` cannot be built as a module: its name {why}, so "
                                f"it cannot be imported; rename the file (e.g. `{suggestion}.py`)"))


def build(path: str, outdir: str, options: BuildOptions | None = None) -> BuildResult:
    options = options or BuildOptions()
    context = load_module(path)
    module = context.module_name
    check_module_name(context)
    os.makedirs(outdir, exist_ok=True)
    outdir = os.path.abspath(outdir)

    exported = context.exported_functions()
    if options.functions is not None:
        exported = [f for f in exported if f.name in options.functions]

    extension = options.extension_name or f"_{module}_kiln"
    extension_file = extension + sysconfig.get_config_var("EXT_SUFFIX")
    artifacts = native_artifacts(outdir, module, extension)
    artifacts.update({
        "stub": os.path.join(outdir, f"{module}.py"),
        "pyi": os.path.join(outdir, f"{module}.pyi"),
        "record": os.path.join(outdir, f"{module}.kiln.json"),
    })
    try:
        signatures, failures = compile_functions(context, exported, artifacts, extension,
                                                 options)
    except REJECTIONS as error:
        # kilnc rejected the MLIR (or the wrapper C) of some function: find
        # which, leave them to Python and compile the rest.
        if os.environ.get("KILN_DEBUG") and not isinstance(error, KilncFailed):
            raise
        rejected = isolate_rejected(context, exported, outdir, extension, options)
        if not rejected:
            raise error
        if options.strict:
            raise KilnCompileError([d for e in rejected.values() for d in e.diagnostics])
        remaining = [f for f in exported if f.name not in rejected]
        signatures, failures = compile_functions(context, remaining, artifacts, extension,
                                                 options)
        failures.update(rejected)
    fallbacks = fallback_records(failures)

    remarks, verdicts = [], {}
    if signatures:
        remarks = with_python_names(context, parse_remarks(artifacts["kiln_remarks"])
                                    + parse_remarks(artifacts["remarks"]))
        verdicts = loop_verdicts(context, remarks)
        scalar_loops = require_vectorized(context, signatures, verdicts)
        if scalar_loops:
            raise KilnCompileError(scalar_loops)
    compiled = [s.name for s in signatures]
    write_text(artifacts["stub"], generate_stub(context, extension, extension_file, compiled))
    write_text(artifacts["pyi"], generate_pyi(context, signatures, list(failures)))
    record = build_record(context, signatures, fallbacks, verdicts, remarks)
    try:
        enrich(record, context, artifacts["vector_report"] if signatures else None,
               artifacts["library"] if signatures else None)
        add_ir_stats(record, artifacts["ir_stats"] if signatures else None, module)
    except (OSError, ValueError, LookupError, TypeError, AttributeError,
            ArithmeticError) as error:
        # The native code is built: a report that cannot be made is noted
        # in the record, not a failed build.
        if os.environ.get("KILN_DEBUG"):
            raise
        record["report_error"] = f"{type(error).__name__}: {error}"
    write_text(artifacts["record"], json.dumps(record, indent=2) + "\n")
    return BuildResult(module, outdir, artifacts, signatures, fallbacks)


# What makes a build look for the functions responsible: kilnc rejecting
# (or crashing on) the module, or the wrapper generator failing. Not a
# KilnCompileError (the user's code), an OSError or a missing kilnc.
REJECTIONS = (KilncFailed, ArithmeticError, AssertionError, AttributeError, LookupError,
              NameError, RuntimeError, TypeError, ValueError)


def native_artifacts(outdir, module, extension) -> dict:
    extension_file = extension + sysconfig.get_config_var("EXT_SUFFIX")
    return {
        "mlir": os.path.join(outdir, f"{module}.kiln.mlir"),
        "header": os.path.join(outdir, f"{module}.h"),
        "library": os.path.join(outdir, f"lib{module}.so"),
        "wrapper_source": os.path.join(outdir, f"{extension}.c"),
        "extension": os.path.join(outdir, extension_file),
        "remarks": os.path.join(outdir, f"{module}.remarks.yaml"),
        "kiln_remarks": os.path.join(outdir, f"{module}.kiln-remarks.yaml"),
        "vector_report": os.path.join(outdir, f"{module}.vector.json"),
        "ir_stats": os.path.join(outdir, f"{module}.irstats.json"),
    }


def compile_functions(context, functions, artifacts, extension, options):
    """MLIR, header, wrapper C and the two kilnc links for `functions`:
    (signatures of those compiled, failures of those left to Python)."""
    module = context.module_name
    mlir_text, signatures, failures = generate_module(context, functions)
    if failures and options.strict:
        raise KilnCompileError([d for error in failures.values() for d in error.diagnostics])
    write_text(artifacts["mlir"], mlir_text)
    # The header names the source as `pkg/mod.py`, not by a build-machine path.
    write_text(artifacts["header"], generate_header(module, context.package_path, signatures))
    write_text(artifacts["wrapper_source"],
               generate_extension(module, extension, context.path, signatures))
    if signatures:
        build_native(artifacts, module, extension, options)
    return signatures, failures


def rejection_reason(error) -> str:
    if isinstance(error, KilncFailed):
        lines = [line.strip() for line in error.output.splitlines() if line.strip()]
        first = next((line for line in lines if "error:" in line), lines[0] if lines else "")
        return f"kilnc rejected it: {first}" if first else "kilnc failed on it"
    return f"{type(error).__name__}: {error}"


def isolate_rejected(context, functions, outdir, extension, options) -> dict:
    """name -> KilnCompileError ("internal compiler error") for each
    exported function kilnc (or the wrapper generator) fails on when built
    alone, found by building halves of the module apart. Each one's MLIR is
    saved as <mod>.<name>.rejected.mlir in outdir. Empty when every part
    builds apart (then the failure is not any one function's)."""
    import shutil
    import tempfile

    module = context.module_name
    rejected = {}

    def fails(group):
        with tempfile.TemporaryDirectory(prefix=f"kiln-isolate-{module}-") as scratch:
            artifacts = native_artifacts(scratch, module, extension)
            try:
                compile_functions(context, group, artifacts, extension,
                                  BuildOptions(opt_level=options.opt_level,
                                               target_cpu=options.target_cpu,
                                               release=options.release))
                return None
            except REJECTIONS as error:
                if len(group) == 1 and os.path.exists(artifacts["mlir"]):
                    saved = os.path.join(outdir, f"{module}.{group[0].name}.rejected.mlir")
                    shutil.copyfile(artifacts["mlir"], saved)
                    if isinstance(error, KilncFailed):
                        error.output = error.output.replace(artifacts["mlir"], saved)
                return error

    def search(group):
        error = fails(group)
        if error is None:
            return
        if len(group) == 1:
            func = group[0]
            saved = os.path.join(outdir, f"{module}.{func.name}.rejected.mlir")
            where = f"; its MLIR is in {saved}" if os.path.exists(saved) else ""
            rejected[func.name] = KilnCompileError(context.diagnostic(
                func, f"internal compiler error: {rejection_reason(error)}{where} (please "
                      "report it)", func.name))
            return
        middle = len(group) // 2
        search(group[:middle])
        search(group[middle:])

    if len(functions) > 1:
        middle = len(functions) // 2
        search(functions[:middle])
        search(functions[middle:])
    else:
        search(functions)
    return rejected


def build_native(artifacts, module, extension, options) -> None:
    common = [artifacts["mlir"], "--emit=shared", f"-O{options.opt_level}",
              f"--target-cpu={options.target_cpu}"]
    if options.release:
        common.append("--release")
    # The two links are independent: run them side by side.
    # The C ABI library holds each kernel once: its remarks are the record's.
    report = [f"--vector-report={artifacts['vector_report']}"] if kilnc_supports(
        "--vector-report") else []
    report.append(f"--ir-stats={artifacts['ir_stats']}")
    if kilnc_supports("--kiln-remarks"):
        report.append(f"--kiln-remarks={artifacts['kiln_remarks']}")
    library = start_kilnc(common + ["-o", artifacts["library"],
                                    f"--remarks={artifacts['remarks']}"] + report)
    python_include = sysconfig.get_paths()["include"]
    ext = start_kilnc(common + [f"--c-source={artifacts['wrapper_source']}",
                                f"-I{python_include}", f"-I{os.path.dirname(artifacts['header'])}",
                                f"--export=PyInit_{extension}",
                                "-o", artifacts["extension"]])
    wait_kilnc(library, artifacts["library"])
    wait_kilnc(ext, artifacts["extension"])
