"""`kiln` command line: `kiln build mod.py -o OUTDIR`."""

from __future__ import annotations

import argparse
import os
import sys

from .errors import KilnCompileError, KilnToolchainError


def report_compile_error(path: str, error: KilnCompileError) -> None:
    print(f"kiln: error: cannot compile {path}:", file=sys.stderr)
    for diagnostic in error.diagnostics:
        print(f"  {diagnostic}", file=sys.stderr)


def print_mlir(path: str) -> int:
    from .compiler.code_generator import generate_module
    from .compiler.source import load_module
    try:
        context = load_module(path)
        text, _, failures = generate_module(context, context.exported_functions())
    except KilnCompileError as error:
        report_compile_error(path, error)
        return 1
    except OSError as error:
        print(f"kiln: error: {error}", file=sys.stderr)
        return 1
    if failures:
        report_compile_error(path, KilnCompileError(
            [d for error in failures.values() for d in error.diagnostics]))
        return 1
    sys.stdout.write(text)
    return 0


def build_reporting_errors(module, outdir, options=None):
    """(build result, 0), or (None, exit status) with the error printed."""
    from .compiler.compiler import build
    try:
        return build(module, outdir, options), 0
    except KilnCompileError as error:
        report_compile_error(module, error)
        return None, 1
    except (KilnToolchainError, OSError, ValueError) as error:
        print(f"kiln: error: {error}", file=sys.stderr)
        return None, 1
    except Exception as error:  # noqa: BLE001 - a compiler bug must not look like user error
        if os.environ.get("KILN_DEBUG"):
            raise
        print(f"kiln: internal error while building {module}: {type(error).__name__}: "
              f"{error} (set KILN_DEBUG=1 for the traceback, and please report it)",
              file=sys.stderr)
        return None, 2


def report(args) -> int:
    import json
    import tempfile

    from .report import html, terminal

    if args.diff:
        before, after = (json.load(open(path, encoding="utf-8")) for path in args.diff)
        sys.stdout.write(terminal.diff(before, after))
        return 0
    if not args.target:
        print("kiln: error: kiln report needs a module or a .kiln.json", file=sys.stderr)
        return 2
    outdir = args.outdir
    if args.target.endswith(".json"):
        record = json.load(open(args.target, encoding="utf-8"))
        outdir = outdir or os.path.dirname(os.path.abspath(args.target))
    else:
        outdir = outdir or tempfile.mkdtemp(prefix="kiln-report-")
        result, status = build_reporting_errors(args.target, outdir)
        if result is None:
            return status
        record = json.load(open(result.artifacts["record"], encoding="utf-8"))
    if args.profile:
        from .report.profile import profile
        record["profile"] = profile(args.profile, outdir, record)
    sys.stdout.write(terminal.render(record, args.granularity))
    if args.profile:
        for name, entry in sorted(record["profile"]["functions"].items(),
                                  key=lambda item: -item[1]["share"]):
            where = "runs compiled" if entry["compiled"] else "falls back to Python"
            print(f"`{name}` {where}: {entry['share'] * 100:.0f} % of run time "
                  f"({entry['seconds']:.4f} s)")
    if args.html:
        with open(args.html, "w", encoding="utf-8") as handle:
            handle.write(html.render(record))
        print(f"kiln: wrote {args.html}")
    problems = terminal.gate(record, args.min_coverage, args.fail_on_fallback)
    for problem in problems:
        print(f"kiln: gate: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="kiln", description="Kiln: compile annotated numeric "
                                     "Python ahead of time")
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="compile a module's @kiln.export functions")
    build_parser.add_argument("module", help="path to the .py file")
    build_parser.add_argument("-o", "--outdir", required=True, help="output directory")
    build_parser.add_argument("-O", dest="opt_level", type=int, default=3, choices=range(4),
                              help="optimization level (default 3)")
    build_parser.add_argument("--target-cpu", default="native",
                              help="LLVM CPU name (default: native)")
    build_parser.add_argument("--strict", action="store_true",
                              help="fail when a function would fall back to Python")
    build_parser.add_argument("--release", action="store_true",
                              help="-O3, then strip debug info, unused C++ type information "
                                   "and dead declarations (kilnc --release)")
    report_parser = commands.add_parser(
        "report", help="how much of each function, loop and line became SIMD code")
    report_parser.add_argument("target", nargs="?", help="a module (.py, built first) or its "
                               "<mod>.kiln.json")
    report_parser.add_argument("--outdir", help="where to build a .py target (default: a "
                               "temporary directory)")
    report_parser.add_argument("--granularity", choices=("function", "basic_block",
                                                         "instruction"), default="function")
    report_parser.add_argument("--html", help="also write a self-contained HTML page")
    report_parser.add_argument("--diff", nargs=2, metavar=("A.kiln.json", "B.kiln.json"),
                               help="what got better or worse from build A to build B")
    report_parser.add_argument("--min-coverage", type=float,
                               help="exit 1 when module coverage is below this (0..1)")
    report_parser.add_argument("--fail-on-fallback", action="store_true",
                               help="exit 1 when a function falls back to Python")
    report_parser.add_argument("--profile", metavar="SCRIPT",
                               help="run SCRIPT against the built module and show each "
                                    "function's share of the run time")
    mlir_parser = commands.add_parser("mlir", help="print the MLIR Kiln emits for a module")
    mlir_parser.add_argument("module", help="path to the .py file")
    args = parser.parse_args(argv)

    if args.command == "mlir":
        return print_mlir(args.module)
    if args.command == "report":
        return report(args)

    from .compiler.compiler import BuildOptions
    result, status = build_reporting_errors(
        args.module, args.outdir, BuildOptions(opt_level=args.opt_level,
                                               target_cpu=args.target_cpu, strict=args.strict,
                                               release=args.release))
    if result is None:
        return status
    names = ", ".join(s.name for s in result.signatures) or "nothing compiled"
    print(f"kiln: built {result.module_name} ({names}) into {result.outdir}")
    for fallback in result.fallbacks:
        if fallback["kind"] != "function":
            continue  # code-level points are in the record and `kiln report`
        print(f"kiln: fallback: {fallback['function']} stays Python: {fallback['file']}:"
              f"{fallback['line']}:{fallback['column']}: {fallback['reason']}", file=sys.stderr)
    return 0
