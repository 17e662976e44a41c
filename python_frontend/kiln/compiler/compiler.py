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
import os
import sysconfig
from dataclasses import dataclass, field

from .. import __version__
from ..errors import KilnCompileError

from .code_generator import generate_module
from ..report.model import enrich
from .remarks import loop_verdicts, parse_remarks, require_vectorized
from .toolchain import kilnc_supports
from .source import load_module
from .stubs import generate_pyi, generate_stub
from .toolchain import start_kilnc, wait_kilnc
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


def build(path: str, outdir: str, options: BuildOptions | None = None) -> BuildResult:
    options = options or BuildOptions()
    context = load_module(path)
    module = context.module_name
    if not module.isidentifier():
        raise ValueError(f"module name {module!r} is not a Python identifier")
    os.makedirs(outdir, exist_ok=True)
    outdir = os.path.abspath(outdir)

    exported = context.exported_functions()
    if options.functions is not None:
        exported = [f for f in exported if f.name in options.functions]
    mlir_text, signatures, failures = generate_module(context, exported)
    if failures and options.strict:
        raise KilnCompileError([d for error in failures.values() for d in error.diagnostics])
    fallbacks = fallback_records(failures)

    extension = options.extension_name or f"_{module}_kiln"
    extension_file = extension + sysconfig.get_config_var("EXT_SUFFIX")
    artifacts = {
        "mlir": os.path.join(outdir, f"{module}.kiln.mlir"),
        "header": os.path.join(outdir, f"{module}.h"),
        "library": os.path.join(outdir, f"lib{module}.so"),
        "wrapper_source": os.path.join(outdir, f"{extension}.c"),
        "extension": os.path.join(outdir, extension_file),
        "stub": os.path.join(outdir, f"{module}.py"),
        "pyi": os.path.join(outdir, f"{module}.pyi"),
        "record": os.path.join(outdir, f"{module}.kiln.json"),
    }
    write_text(artifacts["mlir"], mlir_text)
    write_text(artifacts["header"], generate_header(module, context.path, signatures))
    write_text(artifacts["wrapper_source"],
               generate_extension(module, extension, context.path, signatures))

    artifacts["remarks"] = os.path.join(outdir, f"{module}.remarks.yaml")
    artifacts["kiln_remarks"] = os.path.join(outdir, f"{module}.kiln-remarks.yaml")
    artifacts["vector_report"] = os.path.join(outdir, f"{module}.vector.json")
    artifacts["ir_stats"] = os.path.join(outdir, f"{module}.irstats.json")
    remarks, verdicts = [], {}
    if signatures:
        build_native(artifacts, module, extension, options)
        remarks = parse_remarks(artifacts["kiln_remarks"]) + parse_remarks(artifacts["remarks"])
        verdicts = loop_verdicts(context, remarks)
        scalar_loops = require_vectorized(context, signatures, verdicts)
        if scalar_loops:
            raise KilnCompileError(scalar_loops)
    compiled = [s.name for s in signatures]
    write_text(artifacts["stub"], generate_stub(context, extension, extension_file, compiled))
    write_text(artifacts["pyi"], generate_pyi(context, signatures, list(failures)))
    record = build_record(context, signatures, fallbacks, verdicts, remarks)
    enrich(record, context, artifacts["vector_report"] if signatures else None,
           artifacts["library"] if signatures else None)
    add_ir_stats(record, artifacts["ir_stats"] if signatures else None, module)
    write_text(artifacts["record"], json.dumps(record, indent=2) + "\n")
    return BuildResult(module, outdir, artifacts, signatures, fallbacks)


def build_native(artifacts, module, extension, options) -> None:
    common = [artifacts["mlir"], "--emit=shared", f"-O{options.opt_level}",
              f"--target-cpu={options.target_cpu}", f"--symbol-prefix={module}_"]
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
