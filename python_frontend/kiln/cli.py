"""`kiln` command line: `kiln build mod.py -o OUTDIR`, `kiln report`, `kiln mlir`."""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from .errors import (Diagnostic, KilnCompileError, KilnToolchainError, SourceLines, colour_wanted,
                     render_diagnostic)

# Exit statuses (documented in `kiln --help` and docs/cli.md).
EXIT_OK = 0
EXIT_FAILED = 1      # compile errors, an empty build, a failed report gate, a toolchain failure
EXIT_USAGE = 2       # bad options, an input that cannot be read, an output that would overwrite one
EXIT_INTERNAL = 3    # a bug in Kiln (KILN_DEBUG=1 shows the traceback)

EXIT_STATUS_HELP = """exit status:
  0  success
  1  compile errors, nothing compiled (without --allow-empty), a failed report gate,
     or the toolchain (kilnc) failed
  2  usage: bad options, an input that cannot be read, an output that would overwrite an input
  3  internal error in Kiln (please report it; KILN_DEBUG=1 shows the traceback)

Diagnostics print as `path:line:col: error: message` with the source line and a caret.
Colour is used on a terminal only (--color, NO_COLOR)."""


class UsageError(Exception):
    """The command line asks for something Kiln must not or cannot do."""


class Console:
    """Where the CLI's messages go: results on stdout (silenced by -q),
    diagnostics and errors on stderr, details with -v. Diagnostics name
    files as the user wrote them on the command line."""

    def __init__(self, verbosity: int = 0, colour: str = "auto"):
        self.verbosity = verbosity
        self.colour = colour_wanted(sys.stderr, colour)
        self.sources = SourceLines()
        self.shown_paths: dict = {}

    def name_as_given(self, path: str) -> None:
        self.shown_paths[os.path.abspath(path)] = path

    def diagnostic(self, diagnostic, severity="error", note="") -> None:
        if severity == "warning" and self.verbosity < 0:
            return
        shown = self.shown_paths.get(diagnostic.file) or self.shown_paths.get(
            os.path.abspath(diagnostic.file))
        print(render_diagnostic(diagnostic, severity, shown_path=shown, sources=self.sources,
                                colour=self.colour, note=note), file=sys.stderr)

    def error(self, message: str) -> None:
        print(f"kiln: {self._severity('error')} {message}", file=sys.stderr)

    def warning(self, message: str) -> None:
        if self.verbosity >= 0:
            print(f"kiln: {self._severity('warning')} {message}", file=sys.stderr)

    def result(self, message: str) -> None:
        if self.verbosity >= 0:
            print(message)

    def detail(self, message: str) -> None:
        if self.verbosity > 0:
            print(f"kiln: {message}", file=sys.stderr)

    def _severity(self, kind: str) -> str:
        from .errors import _STYLES
        return f"{_STYLES[kind]}{kind}:{_STYLES['reset']}" if self.colour else f"{kind}:"

    def compile_errors(self, path: str, error: KilnCompileError) -> None:
        for diagnostic in error.diagnostics:
            self.diagnostic(diagnostic, "error")
        count = len(error.diagnostics)
        self.error(f"cannot compile {self.shown_paths.get(os.path.abspath(path), path)}: "
                   f"{count} error{'s' if count != 1 else ''}")


# --- checks of the command line ---------------------------------------------

def fraction(text: str) -> float:
    """An argparse type: a number in 0..1 (`0.8` is 80 %; `80` is a mistake)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(
            f"{text} is not a fraction in 0..1 (for {text} % write {value / 100:g})"
            if 1.0 < value <= 100.0 else f"{text} is not a fraction in 0..1")
    return value


def require_readable_file(path: str, what: str) -> None:
    if os.path.isdir(path):
        raise UsageError(f"{what} {path} is a directory, not a file")
    if not os.path.exists(path):
        raise UsageError(f"{what} {path} does not exist")
    if not os.access(path, os.R_OK):
        raise UsageError(f"{what} {path} cannot be read (permission denied)")


def soversion_value(text: str) -> int:
    """--soversion: a non-negative integer (it ends the SONAME)."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return int(text)


def build_outputs(source: str, outdir: str, soversion: int = 1) -> list:
    """Every path `kiln build` writes for `source` into `outdir` (the build's
    own file list, compiler.native_artifacts, plus the module, its stubs, the
    record and the lib<mod>.so.<soversion> link; test_cli checks a real build
    writes nothing else)."""
    from .compiler.compiler import native_artifacts, soname
    module = os.path.splitext(os.path.basename(source))[0]
    paths = list(native_artifacts(outdir, module, f"_{module}_kiln").values())
    paths += [os.path.join(outdir, f"{module}{suffix}")
              for suffix in (".py", ".pyi", ".kiln.json")]
    paths.append(os.path.join(outdir, soname(module, soversion)))
    return paths + [path + ".tmp" for path in paths]


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_overwriting(inputs: list, outputs: list, option: str, remedy: str) -> None:
    """A UsageError when an output is one of the inputs (`kiln build m.py -o .`
    would otherwise replace the user's m.py with the generated module)."""
    for output in outputs:
        for source in inputs:
            if same_file(output, source):
                raise UsageError(f"{option} would overwrite the input {source} (as "
                                 f"{output}); {remedy}")


def check_target_cpu(target_cpu: str) -> None:
    """Asks kilnc about the CPU name up front: an unknown one is a usage
    error, not every function failing to compile."""
    if target_cpu == "native":
        return
    from .toolchain import target_cpu_rejection
    reason = target_cpu_rejection(target_cpu)
    if reason is not None:
        raise UsageError(f"--target-cpu={target_cpu}: {reason}")


# --- the commands -------------------------------------------------------------

def run_build(console, module, outdir, options=None):
    """(build result, EXIT_OK), or (None, exit status) with the error printed."""
    from .compiler.compiler import build
    try:
        return build(module, outdir, options), EXIT_OK
    except KilnCompileError as error:
        console.compile_errors(module, error)
        return None, EXIT_FAILED
    except (KilnToolchainError, OSError, ValueError) as error:
        console.error(str(error))
        return None, EXIT_FAILED


def exported_names(console, path):
    """The module's @kiln.export functions, or the exit status of a module
    that cannot even be read (its errors printed)."""
    from .frontend.source import load_module
    try:
        return [f.name for f in load_module(path).exported_functions()], EXIT_OK
    except KilnCompileError as error:
        console.compile_errors(path, error)
        return None, EXIT_FAILED


def command_build(console, args) -> int:
    from .compiler.compiler import BuildOptions

    require_readable_file(args.module, "the module")
    console.name_as_given(args.module)
    outputs = build_outputs(args.module, args.outdir, args.soversion)
    refuse_overwriting([args.module], outputs, f"-o {args.outdir}",
                       "build into another directory, e.g. -o build/")
    check_target_cpu(args.target_cpu)
    exported, status = exported_names(console, args.module)
    if exported is None:
        return status
    if not exported:
        status = empty_build(console, args, f"nothing to build: {args.module} has no "
                                            "@kiln.export function")
        if status != EXIT_OK:
            return status

    result, status = run_build(console, args.module, args.outdir, BuildOptions(
        opt_level=args.opt_level, target_cpu=args.target_cpu, strict=args.strict,
        release=args.release, soversion=args.soversion))
    if result is None:
        return status
    fell_back = []
    for fallback in result.fallbacks:
        if fallback["kind"] != "function":
            continue  # code-level points are in the record and `kiln report`
        console.diagnostic(Diagnostic(fallback["file"], fallback["line"], fallback["column"],
                                      fallback["reason"], fallback["function"]), "warning",
                           note=f"`{fallback['function']}` falls back to Python")
        if fallback["function"] not in fell_back:
            fell_back.append(fallback["function"])
    if not result.signatures and exported:
        plural = len(fell_back) != 1
        return empty_build(console, args, f"cannot compile {args.module}: no function compiled "
                                          f"({', '.join(fell_back)} fall{'' if plural else 's'} "
                                          "back to Python)")
    names = ", ".join(s.name for s in result.signatures) or "nothing compiled"
    console.result(f"kiln: built {result.module_name} ({names}) into {args.outdir}")
    if fell_back:
        plural = len(fell_back) != 1
        console.warning(f"{len(fell_back)} function{'s' if plural else ''} "
                        f"fall{'' if plural else 's'} back to Python: {', '.join(fell_back)}")
    for kind, path in sorted(result.artifacts.items()):
        if os.path.exists(path):
            console.detail(f"wrote {kind}: {path}")
    return EXIT_OK


def empty_build(console, args, why: str) -> int:
    """A build that compiled nothing fails, unless --allow-empty says it may."""
    if args.allow_empty:
        console.warning(f"{why} (accepted: --allow-empty)")
        return EXIT_OK
    console.error(f"{why}; --allow-empty accepts a build that compiles nothing")
    return EXIT_FAILED


def command_mlir(console, args) -> int:
    from .mlir.code_generator import generate_module
    from .frontend.source import load_module

    require_readable_file(args.module, "the module")
    console.name_as_given(args.module)
    try:
        context = load_module(args.module)
        from .compiler.compiler import class_methods
        text, _, failures = generate_module(context, context.exported_functions()
                                            + class_methods(context))
    except KilnCompileError as error:
        console.compile_errors(args.module, error)
        return EXIT_FAILED
    if failures:
        console.compile_errors(args.module, KilnCompileError(
            [d for error in failures.values() for d in error.diagnostics]))
        return EXIT_FAILED
    sys.stdout.write(text)
    return EXIT_OK


def read_record(path: str) -> dict:
    import json
    require_readable_file(path, "the record")
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except (ValueError, UnicodeDecodeError) as error:
        raise UsageError(f"{path} is not a Kiln build record (.kiln.json): {error}") from None
    if not isinstance(record, dict) or not str(record.get("schema", "")).startswith(
            "kiln-report/"):
        raise UsageError(f"{path} is not a Kiln build record (.kiln.json): no kiln-report schema")
    return record


def report_options(cpu_record: dict, cpu: str, target: str):
    """Build options describing version `cpu` of a build for
    cpu_record["target"] (a UsageError when the build has no such version)."""
    from . import cpu_levels
    from .compiler.compiler import BuildOptions
    target_cpu = cpu_record.get("target") or "native"
    versions = cpu_levels.versions(target_cpu)
    if cpu not in versions or len(versions) < 2:
        raise UsageError(f"--cpu {cpu}: the build of {target} has "
                         + (f"versions for {', '.join(versions)}" if len(versions) > 1
                            else f"one version (--target-cpu={target_cpu})"))
    return BuildOptions(target_cpu=target_cpu, report_cpu=cpu)


def command_report(console, args) -> int:
    import json
    import tempfile

    from .report import html, terminal

    if args.diff:
        before, after = (read_record(path) for path in args.diff)
        sys.stdout.write(terminal.diff(before, after))
        return EXIT_OK
    if not args.target:
        raise UsageError("kiln report needs a module (.py) or its .kiln.json")
    if args.profile:
        require_readable_file(args.profile, "the profile script")
    inputs = [args.target] + ([args.profile] if args.profile else [])
    if args.html:
        refuse_overwriting(inputs, [args.html], f"--html {args.html}",
                           "name the page, e.g. --html report.html")
    outdir = args.outdir
    options = None
    if args.target.endswith(".json"):
        record = read_record(args.target)
        outdir = outdir or os.path.dirname(os.path.abspath(args.target))
        cpu = record.get("cpu") or {}
        if args.cpu and args.cpu != cpu.get("described", cpu.get("runs_here")):
            # Another version of the same build: built again, described for it.
            options = report_options(record.get("cpu") or {}, args.cpu, args.target)
            source = record.get("source", "")
            require_readable_file(source, "the record's module")
            outdir = tempfile.mkdtemp(prefix="kiln-report-")
            result, status = run_build(console, source, outdir, options)
            if result is None:
                return status
            record = json.load(open(result.artifacts["record"], encoding="utf-8"))
    else:
        require_readable_file(args.target, "the module")
        console.name_as_given(args.target)
        if args.cpu:
            options = report_options({"target": "portable"}, args.cpu, args.target)
        if outdir:
            refuse_overwriting(inputs, build_outputs(args.target, outdir), f"--outdir {outdir}",
                               "build into another directory")
        outdir = outdir or tempfile.mkdtemp(prefix="kiln-report-")
        result, status = run_build(console, args.target, outdir, options)
        if result is None:
            return status
        record = json.load(open(result.artifacts["record"], encoding="utf-8"))
    if args.profile:
        record["profile"], status = run_profile(console, args.profile, outdir, record)
        if record["profile"] is None:
            return status
    sys.stdout.write(terminal.render(record, args.granularity,
                                     use_colour=colour_wanted(sys.stdout, args.colour),
                                     remarks=args.remarks))
    if args.profile:
        for name, entry in sorted(record["profile"]["functions"].items(),
                                  key=lambda item: -item[1]["share"]):
            where = "runs compiled" if entry["compiled"] else "falls back to Python"
            print(f"`{name}` {where}: {entry['share'] * 100:.0f} % of run time "
                  f"({entry['seconds']:.4f} s)")
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as handle:
                handle.write(html.render(record))
        except OSError as error:
            raise UsageError(f"cannot write --html {args.html}: {error.strerror}") from None
        console.result(f"kiln: wrote {args.html}")
    problems = terminal.gate(record, args.min_coverage, args.fail_on_fallback)
    if args.fail_on_fallback:
        for entry in terminal.function_fallbacks(record):
            console.diagnostic(Diagnostic(entry["file"], entry["line"], entry["column"],
                                          entry["reason"], entry["function"]), "error",
                               note=f"`{entry['function']}` falls back to Python")
    for problem in problems:
        print(f"kiln: gate: {problem}", file=sys.stderr)
    return EXIT_FAILED if problems else EXIT_OK


def size_option(text: str) -> int:
    """An argparse type: a size such as 500M or 2G."""
    from .compiler.cache import parse_size
    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def command_cache(console, args) -> int:
    import time

    from .compiler import cache
    if args.action == "list":
        entries = cache.cache_entries()
        for entry in reversed(entries):  # most recently used first
            used = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry["last_used"]))
            state = "" if entry["valid"] else "  (broken: rebuilt on next use)"
            console.result(f"{cache.format_size(entry['size']):>9}  {used}  "
                           f"{entry['module']}.{entry['function']}  {entry['source']}{state}")
        total = sum(entry["size"] for entry in entries)
        console.result(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}, "
                       f"{cache.format_size(total)} in {cache.cache_root()}")
        return EXIT_OK
    if args.action == "clear":
        removed, freed = cache.clear_cache()
    else:
        limit = args.max_size if args.max_size is not None else cache.configured_max_size()
        removed, freed = cache.prune_cache(limit)
    console.result(f"kiln: removed {removed} entr{'y' if removed == 1 else 'ies'} "
                   f"({cache.format_size(freed)}) from {cache.cache_root()}")
    return EXIT_OK


def run_profile(console, script, outdir, record):
    """(the profile, EXIT_OK), or (None, EXIT_FAILED) when the user's script
    fails: its own traceback is shown (it is the user's code), then why."""
    import traceback

    from .report.profile import profile
    try:
        return profile(script, outdir, record), EXIT_OK
    except SystemExit as stop:
        console.error(f"--profile {script} exited with status {stop.code}: no profile")
    except Exception as error:  # noqa: BLE001 - the user's script, not Kiln, failed
        # The traceback from the script's own frames on: Kiln's and runpy's
        # frames above them are no help to its author.
        frames = error.__traceback__
        while frames is not None and not same_file(frames.tb_frame.f_code.co_filename,
                                                   script):
            frames = frames.tb_next
        traceback.print_exception(type(error), error, frames or error.__traceback__,
                                  file=sys.stderr)
        console.error(f"--profile {script} raised an exception (above): no profile")
    return None, EXIT_FAILED


# --- the parser ---------------------------------------------------------------

def make_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_const", dest="verbosity", const=-1,
                        default=0, help="print errors only")
    common.add_argument("-v", "--verbose", action="store_const", dest="verbosity", const=1,
                        help="also print what was written where")
    common.add_argument("--color", "--colour", dest="colour", default="auto",
                        choices=("auto", "always", "never"),
                        help="colour diagnostics (default: auto, on a terminal without "
                             "NO_COLOR)")
    parser = argparse.ArgumentParser(
        prog="kiln", description="Kiln: compile annotated numeric Python ahead of time",
        epilog=EXIT_STATUS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"kiln {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name, help_text):
        return commands.add_parser(name, help=help_text, parents=[common], epilog=EXIT_STATUS_HELP,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)

    build_parser = command("build", "compile a module's @kiln.export functions")
    build_parser.add_argument("module", help="path to the .py file")
    build_parser.add_argument("-o", "--outdir", required=True,
                              help="output directory (never the module's own file)")
    build_parser.add_argument("-O", dest="opt_level", type=int, default=3, choices=range(4),
                              help="optimization level (default 3)")
    build_parser.add_argument("--target-cpu", default="portable",
                              help="`portable` (default): every kernel for x86-64-v2, v3 and "
                                   "v4, picked at load time by the CPU (KILN_CPU_LEVEL=v2|v3|v4 "
                                   "forces a lower one); `native` for this machine only; or an "
                                   "LLVM CPU name, e.g. x86-64-v3")
    build_parser.add_argument("--strict", action="store_true",
                              help="fail when a function would fall back to Python")
    build_parser.add_argument("--allow-empty", action="store_true",
                              help="a module in which nothing compiles is a warning, not an "
                                   "error")
    build_parser.add_argument("--soversion", type=soversion_value, default=1,
                              help="ABI version of lib<mod>.so: its DT_SONAME is "
                                   "lib<mod>.so.N and its symbols are versioned <MOD>_N "
                                   "(default 1; raise it when a signature changes)")
    build_parser.add_argument("--release", action="store_true",
                              help="-O3, then strip debug info, unused C++ type information "
                                   "and dead declarations (kilnc --release)")
    report_parser = command("report", "how much of each function, loop and line became SIMD "
                                      "code")
    report_parser.add_argument("target", nargs="?", help="a module (.py, built first) or its "
                               "<mod>.kiln.json")
    report_parser.add_argument("--outdir", help="where to build a .py target (default: a "
                               "temporary directory)")
    report_parser.add_argument("--granularity", choices=("function", "basic_block",
                                                         "instruction"), default="function")
    report_parser.add_argument("--html", help="also write a self-contained HTML page")
    report_parser.add_argument("--remarks", action="store_true",
                               help="also print LLVM's vectorizer remarks of each loop and the "
                                    "minor findings (remainder loops, scalar work)")
    report_parser.add_argument("--diff", nargs=2, metavar=("A.kiln.json", "B.kiln.json"),
                               help="what got better or worse from build A to build B")
    report_parser.add_argument("--min-coverage", type=fraction, metavar="FRACTION",
                               help="exit 1 when module coverage is below this fraction "
                                    "(0..1, e.g. 0.8)")
    report_parser.add_argument("--fail-on-fallback", action="store_true",
                               help="exit 1 when a function falls back to Python")
    report_parser.add_argument("--cpu", metavar="CPU",
                               help="describe this version of a portable build (x86-64-v2, "
                                    "-v3 or -v4) instead of the one this CPU runs; a .py "
                                    "target is then built portable")
    report_parser.add_argument("--profile", metavar="SCRIPT",
                               help="run SCRIPT against the built module and show each "
                                    "function's share of the run time")
    mlir_parser = command("mlir", "print the MLIR Kiln emits for a module")
    mlir_parser.add_argument("module", help="path to the .py file")
    cache_parser = command("cache", "list, clear or prune the compile-on-first-call cache "
                                    "(KILN_CACHE_DIR, default ~/.cache/kiln)")
    cache_parser.add_argument("action", choices=("list", "clear", "prune"),
                              help="list: entries, most recently used first; clear: remove "
                                   "all; prune: remove broken entries and the least recently "
                                   "used until the cache fits --max-size")
    cache_parser.add_argument("--max-size", type=size_option, metavar="SIZE",
                              help="for prune: e.g. 500M or 2G (default: KILN_CACHE_MAX_SIZE, "
                                   "else 1G, the cap every new entry enforces)")
    return parser


COMMANDS = {"build": command_build, "report": command_report, "mlir": command_mlir,
            "cache": command_cache}


class PipeTolerantStream:
    """stdout that goes quiet once its reader has gone (`kiln report m.py |
    head`): the command still finishes and exits with its own status."""

    def __init__(self, stream):
        self._stream = stream
        self._closed = False

    def write(self, text):
        if self._closed:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._go_quiet()
            return len(text)

    def flush(self):
        if not self._closed:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._go_quiet()

    def _go_quiet(self):
        self._closed = True
        # Python flushes stdout at exit: point the descriptor at /dev/null
        # so that flush has nowhere to fail.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv=None) -> int:
    if not isinstance(sys.stdout, PipeTolerantStream):
        sys.stdout = PipeTolerantStream(sys.stdout)
    args = make_parser().parse_args(argv)
    console = Console(args.verbosity, args.colour)
    try:
        return COMMANDS[args.command](console, args)
    except UsageError as error:
        console.error(str(error))
        return EXIT_USAGE
    except KilnToolchainError as error:
        console.error(str(error))
        return EXIT_FAILED
    except KeyboardInterrupt:
        console.error("interrupted")
        return 130
    except Exception as error:  # noqa: BLE001 - a compiler bug must not look like user error
        if os.environ.get("KILN_DEBUG"):
            raise
        console.error(f"internal error in kiln {args.command}: {type(error).__name__}: "
                      f"{error} (set KILN_DEBUG=1 for the traceback, and please report it)")
        return EXIT_INTERNAL
