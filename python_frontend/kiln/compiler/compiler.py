"""`kiln build`: the stages of a build, in order, are `STAGES` below (and
the table at the top of docs/architecture.md)."""

from __future__ import annotations

import ast
import json
import keyword
import os
import re
import sysconfig
from dataclasses import dataclass, field

from ..version import __version__
from ..errors import Diagnostic, KilnCompileError
from ..frontend.classes import drop_class, method_failure, split_method_name

from ..mlir.code_generator import generate_module, nested_too_deeply, run_with_deep_stack
from ..mlir.values import symbol_name
from ..frontend.subset import SubsetChecker
from ..typecheck.type_inference import infer_module
from ..typecheck.specialization import specialized_calls
from .allocation_sites import allocation_sites
from ..report.model import enrich
from ..native.ufuncs import is_ufunc, uses_ufuncs
from ..report.remarks import (add_fastmath_gain, loop_verdicts, parse_remarks, require_vectorized,
                      with_python_names)
from ..frontend.source import load_module
from ..native.stubs import generate_pyi, generate_stub
from ..toolchain import KilncFailed, kilnc_capabilities, kilnc_supports, start_kilnc, wait_kilnc
from ..native.wrapper import (OPENMP_RUNTIME, cpu_version_symbol, generate_extension,
                              generate_header)
from .. import cpu_levels


@dataclass
class BuildOptions:
    opt_level: int = 3
    target_cpu: str = "native"
    strict: bool = False     # a function that cannot compile fails the build
    functions: list = None   # compile only these exported functions (default: all)
    extension_name: str = None  # module name of the CPython extension
    release: bool = False    # kilnc --release: -O3 plus the metadata and RTTI strips
    soversion: int = 1       # lib<mod>.so's DT_SONAME is lib<mod>.so.<soversion>
    report_cpu: str = None   # the version the record describes (default: the one run here)
    export_defaults: dict = None  # options of every exported function its decorator does not set


@dataclass
class BuildResult:
    module_name: str
    outdir: str
    artifacts: dict = field(default_factory=dict)
    signatures: list = field(default_factory=list)
    fallbacks: list = field(default_factory=list)
    classes: list = field(default_factory=list)     # frontend.classes.ClassInfo, compiled


def fallback_records(failures: dict, context=None) -> list:
    """One record per unsupported construct of each function left to Python,
    and one per exported class that stays Python (frontend/classes.py: the
    reason names the construct)."""
    records = [{"kind": "function", "function": name, "file": d.file, "line": d.line,
                "column": d.column, "reason": d.message}
               for name, error in failures.items() for d in error.diagnostics
               if split_method_name(name) is None]
    if context is not None:
        records += [{"kind": "class", "function": name, "file": d.file, "line": d.line,
                     "column": d.column, "reason": d.message}
                    for name, d in context.class_fallbacks.items()]
    return records


def kernel_calls(context, function) -> list:
    """The calls of Kiln's kernels (np.linalg.solve, ...) in `function`:
    their lines, and the symbols of the kernel functions each reaches (the
    report counts those functions' code at that line)."""
    kernels = context.kernel_functions
    calls = []
    for node in ast.walk(function):
        call = getattr(node, "_kiln_kernel_call", None)
        if call is None:
            continue
        reached, pending = [], [call.func.id]
        while pending:
            name = pending.pop()
            if name in reached or name not in kernels:
                continue
            reached.append(name)
            pending += [inner.func.id for inner in ast.walk(kernels[name])
                        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)]
        calls.append({"line": node.lineno,
                      "kernels": sorted(symbol_name(context, name) for name in reached)})
    return sorted(calls, key=lambda c: c["line"])


def build_record(context, signatures, fallbacks, verdicts, remarks, types=None) -> dict:
    compiled = {s.name for s in signatures}
    typed = types.functions if types is not None else {}
    parallel = {s.name: s.parallel_loops for s in signatures if s.parallel}
    sequential = {s.name: s.sequential_loops for s in signatures}
    classes = [{"name": node.name, "line": node.lineno,
                "compiled": node.name in context.classes,
                "fields": [{"name": f.name, "type": f.type.display, "offset": f.offset}
                           for f in context.classes[node.name].fields]
                if node.name in context.classes else [],
                "methods": list(context.classes[node.name].method_order)
                if node.name in context.classes else []}
               for node in context.exported_classes()]
    functions = [{"name": f.name, "compiled": f.name in compiled, "line": f.lineno,
                  "kernel_calls": kernel_calls(context, typed[f.name].node)
                  if f.name in compiled and f.name in typed else [],
                  "specialized_calls": [
                      dict(call, symbol=symbol_name(context, call["function"]))
                      for call in specialized_calls(types, typed[f.name])]
                  if f.name in compiled and f.name in typed else [],
                  "loops": verdicts.get(f.name, []),
                  "parallel_loops": parallel.get(f.name, []),
                  "sequential_loops": sequential.get(f.name, []),
                  "allocations": allocation_sites(typed[f.name])
                  if f.name in compiled and f.name in typed else []}
                 for f in context.exported_functions()]
    raw = [{"kind": r["kind"], "pass": r.get("pass", ""), "name": r.get("name", ""),
            "function": r.get("function", ""), "line": r["line"], "column": r["column"],
            "message": r["message"]} for r in remarks]
    return {"schema": "kiln-report/1", "kiln_version": __version__,
            "module": context.module_name, "source": context.path,
            # the text itself, so that the report works where the file is not
            "source_text": context.source,
            "functions": functions, "classes": classes, "fallbacks": fallbacks,
            "llvm_remarks": raw,
            # What the artifacts need where they run, besides libc and libm.
            "runtime_libraries": [OPENMP_RUNTIME] if parallel else []}


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


@dataclass
class BuildState:
    """What the stages of one build share: each reads what earlier ones set."""
    path: str
    outdir: str
    options: BuildOptions
    context: object = None
    module: str = ""
    extension: str = ""
    exported: list = field(default_factory=list)
    to_compile: list = field(default_factory=list)  # exported, minus those left to Python
    types: object = None                            # type_inference.ModuleTypes
    artifacts: dict = field(default_factory=dict)
    signatures: list = field(default_factory=list)
    failures: dict = field(default_factory=dict)
    remarks: list = field(default_factory=list)
    verdicts: dict = field(default_factory=dict)
    record: dict = None
    # An error of the generator outside any one function: native code looks
    # for the functions responsible, as it does when kilnc rejects the module.
    generation_error: Exception = None
    classes: list = field(default_factory=list)     # the compiled ClassInfos


def class_methods(context) -> list:
    """The methods of the compiled classes, as functions (`Class.method`),
    in module order."""
    return [info.methods[name] for info in context.classes.values()
            for name in info.method_order]


def drop_failed_classes(state: BuildState, failures: dict) -> bool:
    """A class one of whose methods failed stays Python (with every class
    naming it in a field): its methods leave the build, and their failures
    become the class's fallback. Under --strict (or strict=True on the
    class) that is the build's error. True when a class was dropped: the
    functions typed with it must be typed again."""
    dropped = False
    for name in list(failures):
        owner = split_method_name(name)
        if owner is None:
            continue
        error = failures.pop(name)
        info = state.context.classes.get(owner[0])
        if info is None:
            continue
        reason = method_failure(name, error)
        if state.options.strict or info.options.get("strict"):
            raise KilnCompileError([reason])
        drop_class(state.context, owner[0], reason)
        dropped = True
    if dropped:
        remaining = {f.name for f in class_methods(state.context)}
        state.exported = [f for f in state.exported
                          if split_method_name(f.name) is None or f.name in remaining]
        state.to_compile = [f for f in state.to_compile
                            if split_method_name(f.name) is None or f.name in remaining]
        for name in list(state.failures):
            if split_method_name(name) is not None:
                del state.failures[name]
    return dropped


def refuse_class_fallbacks_when_strict(state: BuildState) -> None:
    """--strict, or strict=True on the class: a class that stays Python is
    the build's error."""
    strict = [d for name, d in state.context.class_fallbacks.items()
              if state.options.strict or class_marked_strict(state.context, name)]
    if strict:
        raise KilnCompileError(strict)


def class_marked_strict(context, name) -> bool:
    node = next((n for n in context.exported_classes() if n.name == name), None)
    try:
        return node is not None and bool((context.export_options(node) or {}).get("strict"))
    except KilnCompileError:
        return False


def parse(state: BuildState) -> None:
    """mod.py -> syntax tree, imports, constants, the functions to compile
    (source.py); the module is never executed."""
    state.context = load_module(state.path)
    state.context.export_defaults = dict(state.options.export_defaults or {})
    state.module = state.context.module_name
    check_module_name(state.context)
    os.makedirs(state.outdir, exist_ok=True)
    state.outdir = os.path.abspath(state.outdir)
    state.exported = state.context.exported_functions()
    if state.options.functions is not None:
        # (a ufunc's per-signature copies with it: frontend/ufunc_signatures.py)
        state.exported = [f for f in state.exported if f.name in state.options.functions
                          or getattr(f, "kiln_ufunc", None) in state.options.functions]
    refuse_class_fallbacks_when_strict(state)
    # Every method of a compiled class is compiled (the extension's type
    # calls them), after the module's functions.
    state.exported += class_methods(state.context)
    state.to_compile = list(state.exported)
    state.extension = state.options.extension_name or f"_{state.module}_kiln"
    state.artifacts = native_artifacts(state.outdir, state.module, state.extension)
    state.artifacts.update({
        "stub": os.path.join(state.outdir, f"{state.module}.py"),
        "pyi": os.path.join(state.outdir, f"{state.module}.pyi"),
        "record": os.path.join(state.outdir, f"{state.module}.kiln.json"),
    })


def left_to_python(state: BuildState, failures: dict) -> None:
    """Functions that cannot be compiled: a fallback each (all of their
    diagnostics), or the build's error under --strict or for a function
    marked @kiln.export(strict=True)."""
    def marked_strict(name):
        try:
            return bool((state.context.export_options(functions[name]) or {}).get("strict"))
        except KilnCompileError:        # its options are its failure
            return False

    functions = state.context.module_functions()
    strict = {name: error for name, error in failures.items()
              if split_method_name(name) is None and (
                  state.options.strict or (name in functions and marked_strict(name)))}
    drop_failed_classes(state, failures)
    if strict:
        raise KilnCompileError([d for error in strict.values() for d in error.diagnostics])
    state.failures.update(failures)
    state.to_compile = [f for f in state.to_compile if f.name not in failures]


def subset_check(state: BuildState) -> None:
    """Every construct outside the documented subset, in each exported
    function (subset.py); type inference checks the helpers it reaches."""
    def check(func):
        try:
            SubsetChecker(state.context, func.name).check_function(func)
        except KilnCompileError as error:
            return error
        return None

    failures = {}
    for func in state.to_compile:
        try:
            error = check(func)
        except RecursionError:
            # A 2,000-term sum: the checker's recursion needs the deep stack
            # that inference and generation also use.
            try:
                error = run_with_deep_stack(check, func)
            except RecursionError:
                error = nested_too_deeply(state.context, func)
            except (RuntimeError, MemoryError, ValueError):
                error = nested_too_deeply(state.context, func)
        if error is not None:
            failures[func.name] = with_type_errors(state.context, func, error)
    left_to_python(state, failures)


def with_type_errors(context, func, error: KilnCompileError) -> KilnCompileError:
    """All the errors of a function that fails the subset check, in one
    build, in source order: inference reports the subset errors again and
    goes on typing the rest of the function (TypeInference.run: an
    unsupported construct types as UNKNOWN, which no rule reports again, and
    a type error at a position the subset check reported is dropped)."""
    try:
        typed = infer_module(context, [func])
    except Exception:  # noqa: BLE001 - the subset errors are the failure either way
        return error
    every = typed.failures.get(func.name)
    if every is None:
        return error
    return KilnCompileError(sorted(every.diagnostics, key=lambda d: (d.line, d.column)))


def type_inference(state: BuildState) -> None:
    """A type for every expression and variable of the functions to compile
    and their callees, all type errors of a function at once
    (type_inference.py, rules in typing_rules.py)."""
    while True:
        state.types = infer_module(state.context, state.to_compile)
        if state.types.hit_recursion_limit:
            try:
                state.types = run_with_deep_stack(infer_module, state.context,
                                                  state.to_compile)
            except (RuntimeError, MemoryError, ValueError):
                pass  # no thread for it: those functions stay "nested too deeply"
        failures = dict(state.types.failures)
        # A method that does not type makes its class Python: what was
        # typed with the class is typed again without it.
        if not drop_failed_classes(state, failures):
            break
    left_to_python(state, failures)


def mlir_generation(state: BuildState) -> None:
    """The typed functions -> <mod>.kiln.mlir (code_generator.py, library.py,
    through ir_builder.py); a function the generator cannot build is left
    to Python (a fallback)."""
    try:
        while True:
            state.signatures, failures = generate_mlir(state.context, state.to_compile,
                                                       state.artifacts, state.options,
                                                       state.types)
            if not drop_failed_classes(state, failures):
                break
            type_inference(state)       # without the classes dropped
        state.failures.update(failures)
    except REJECTIONS as error:
        if os.environ.get("KILN_DEBUG"):
            raise
        state.generation_error = error
    # Fallbacks in the order the module defines the functions.
    state.failures = {f.name: state.failures[f.name] for f in state.exported
                      if f.name in state.failures}
    state.classes = list(state.context.classes.values())


def native_code(state: BuildState) -> None:
    """<mod>.h and the extension's C (wrapper.py), then one kilnc run: the
    MLIR is lowered and optimized once into lib<mod>.so and the extension.
    When kilnc (or the wrapper generator) fails, the functions responsible
    are found, left to Python, and the rest is generated and built again."""
    try:
        if state.generation_error is not None:
            raise state.generation_error
        build_native(state.context, state.signatures, state.artifacts, state.extension,
                     state.options)
    except REJECTIONS as error:
        if os.environ.get("KILN_DEBUG") and not isinstance(error, KilncFailed):
            raise
        rejected = isolate_rejected(state.context, state.exported, state.outdir,
                                    state.extension, state.options)
        if not rejected:
            raise error
        if state.options.strict:
            raise KilnCompileError([d for e in rejected.values() for d in e.diagnostics])
        remaining = [f for f in state.exported if f.name not in rejected]
        state.signatures, state.failures = compile_functions(
            state.context, remaining, state.artifacts, state.extension, state.options)
        state.failures.update(rejected)
    if state.signatures:
        state.remarks = with_python_names(
            state.context, parse_remarks(state.artifacts["kiln_remarks"])
            + parse_remarks(state.artifacts["remarks"]))
        state.verdicts = loop_verdicts(state.context, state.remarks)
        scalar_loops = require_vectorized(state.context, state.signatures, state.verdicts,
                                          state.options.target_cpu)
        if scalar_loops:
            raise KilnCompileError(scalar_loops)


def stubs_and_record(state: BuildState) -> None:
    """<mod>.py (the user's module with compiled functions swapped in) and
    <mod>.pyi (stubs.py); the build record's functions, loops and fallbacks."""
    context, artifacts = state.context, state.artifacts
    extension_file = state.extension + sysconfig.get_config_var("EXT_SUFFIX")
    # A ufunc once, however many signatures it was compiled for.
    compiled = list(dict.fromkeys(s.ufunc_name or s.name for s in state.signatures
                                  if s.class_name is None))
    classes = with_classes(context)
    write_text(artifacts["stub"], generate_stub(
        context, state.extension, extension_file, compiled,
        ufuncs=list(dict.fromkeys(s.ufunc_name or s.name for s in state.signatures
                                  if s.class_name is None and is_ufunc(s))),
        **({"classes": [info.name for info in classes["classes"]]} if classes else {})))
    write_text(artifacts["pyi"], generate_pyi(context, state.signatures, list(state.failures),
                                              **classes))
    state.record = build_record(context, state.signatures,
                                fallback_records(state.failures, context),
                                state.verdicts, state.remarks, state.types)
    # Which versions of the kernels the artifacts hold, and which one runs
    # here (the one the rest of the record describes).
    cpus = cpu_levels.versions(state.options.target_cpu)
    runs_here = cpu_levels.running_version(cpus)
    state.record["cpu"] = {"target": state.options.target_cpu, "versions": cpus,
                           "runs_here": runs_here,
                           "described": state.options.report_cpu or runs_here}


def report(state: BuildState) -> None:
    """The record's vectorization metrics and IR statistics (report/model.py,
    from kilnc's --vector-report and --ir-stats), written as <mod>.kiln.json."""
    built = bool(state.signatures)
    # The record's advice to add fastmath=True carries the gain measured on
    # this CPU (measured here, once per CPU and Kiln build, not by the build).
    add_fastmath_gain(state.verdicts, state.options.target_cpu)
    try:
        enrich(state.record, state.context,
               state.artifacts["vector_report"] if built else None,
               state.artifacts["library"] if built else None)
        add_ir_stats(state.record, state.artifacts["ir_stats"] if built else None,
                     state.module)
    except (OSError, ValueError, LookupError, TypeError, AttributeError,
            ArithmeticError) as error:
        # The native code is built: a report that cannot be made is noted
        # in the record, not a failed build.
        if os.environ.get("KILN_DEBUG"):
            raise
        state.record["report_error"] = f"{type(error).__name__}: {error}"
    write_text(state.artifacts["record"], json.dumps(state.record, indent=2) + "\n")


# The build, in order (docs/architecture.md has the same table). A function
# that fails a stage is left to Python from then on (a fallback record).
STAGES = (
    ("parse", parse),
    ("subset check", subset_check),
    ("type inference", type_inference),
    ("MLIR generation", mlir_generation),
    ("native code", native_code),
    ("stubs and record", stubs_and_record),
    ("report", report),
)


def build(path: str, outdir: str, options: BuildOptions | None = None) -> BuildResult:
    state = BuildState(path, outdir, options or BuildOptions())
    for _name, run in STAGES:
        run(state)
    return BuildResult(state.module, state.outdir, state.artifacts, state.signatures,
                       fallback_records(state.failures, state.context), state.classes)


def with_classes(context) -> dict:
    """`classes=` for the boundary's generators (header, extension, stubs):
    the compiled classes, passed only when the module has some."""
    classes = list(context.classes.values())
    return {"classes": classes} if classes else {}


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


def generate_mlir(context, functions, artifacts, options, types=None):
    """MLIR for `functions`, written to artifacts["mlir"]: (signatures of
    those compiled, failures of those left to Python). `types` is type
    inference's result for them (inferred here when None)."""
    mlir_text, signatures, failures = generate_module(context, functions, types)
    if failures and options.strict:
        raise KilnCompileError([d for error in failures.values() for d in error.diagnostics])
    write_text(artifacts["mlir"], mlir_text)
    return signatures, failures


def compile_functions(context, functions, artifacts, extension, options):
    """MLIR generation and native code for `functions` alone."""
    signatures, failures = generate_mlir(context, functions, artifacts, options)
    build_native(context, signatures, artifacts, extension, options)
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


def build_native(context, signatures, artifacts, extension, options) -> None:
    """<mod>.h and the wrapper C, then one kilnc run: the module is lowered
    and optimized once; its object is linked into lib<mod>.so and, with the
    wrappers, into the extension."""
    module = context.module_name
    abi_header = kilnc_capabilities()["abi"]["header"]["text"]
    # The header names the source as `pkg/mod.py`, not by a build-machine path.
    classes = with_classes(context)
    write_text(artifacts["header"], generate_header(module, context.package_path, signatures,
                                                    abi_header, options.soversion, **classes))
    write_text(artifacts["wrapper_source"],
               generate_extension(module, extension, context, signatures,
                                  portable_paths=options.release, **classes))
    if not signatures:
        return
    command = [artifacts["mlir"], "--emit=shared", f"-O{options.opt_level}",
               f"--target-cpu={options.target_cpu}",
               f"--cpu-version-symbol={cpu_version_symbol(module)}",
               f"--soname={soname(module, options.soversion)}",
               f"--symbol-version={symbol_version(module, options.soversion)}",
               "-o", artifacts["library"],
               f"--remarks={artifacts['remarks']}", f"--ir-stats={artifacts['ir_stats']}"]
    if options.release:
        command.append("--release")
    if options.report_cpu:
        command.append(f"--report-cpu={options.report_cpu}")
    # lib<mod>.so holds each kernel once: its remarks and reports are the record's.
    if kilnc_supports("vector-report"):
        command.append(f"--vector-report={artifacts['vector_report']}")
    if kilnc_supports("kiln-remarks"):
        command.append(f"--kiln-remarks={artifacts['kiln_remarks']}")
    python_include = sysconfig.get_paths()["include"]
    command += [f"--extension={artifacts['extension']}",
                f"--extension-source={artifacts['wrapper_source']}",
                f"--extension-export=PyInit_{extension}",
                f"-I{python_include}", f"-I{os.path.dirname(artifacts['header'])}"]
    if uses_ufuncs(signatures):
        import numpy    # the build's own: the ufuncs are made with its C API
        command.append(f"-I{numpy.get_include()}")
    wait_kilnc(start_kilnc(command), f"{artifacts['library']} and {artifacts['extension']}")
    # What a C program linked with -l<mod> needs at run time, by its SONAME.
    versioned = os.path.join(os.path.dirname(artifacts["library"]),
                             soname(module, options.soversion))
    link = f"{versioned}.{os.getpid()}.tmp"
    os.symlink(os.path.basename(artifacts["library"]), link)
    os.replace(link, versioned)


def soname(module: str, soversion: int) -> str:
    return f"lib{module}.so.{soversion}"


def symbol_version(module: str, soversion: int) -> str:
    """The version node of lib<mod>.so's symbols (`kernels_dot@@KERNELS_1`)."""
    return f"{module.upper()}_{soversion}"
