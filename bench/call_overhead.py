#!/usr/bin/python3
"""The call-overhead comparison alone, in seconds: Kiln's wrappers against
the hand-written METH_FASTCALL extension, measured in the same run.

    /usr/bin/python3 bench/call_overhead.py [--repeats 200] [--number 20000] [--keep]
    /usr/bin/python3 bench/call_overhead.py --instructions [--keep]
    /usr/bin/python3 bench/call_overhead.py --frontend OTHER/python_frontend --out DIR

It builds `add` and `add1` of bench/kernels_kiln.py (copied alone into a
module of their own, so no other kernel slows or breaks the build) with
`kiln build`, and the peers' fastcall_ext.c with the compiler Kiln's
wrappers are compiled with (Clang 22, -O3 -march=native, as
harness/builds.py does), into build/bench/call_overhead/ (or --out), then
measures `add(a, b)` (two floats) and `add1(x, y)` (two 1-element float64
arrays) through:

* the hand-written extension (the reference),
* Kiln's built module (`<mod>.py` re-exports the extension's functions),
* the `@kiln.export` objects of the source, compiled on first call.

Every repeat times each statement once, in turn, so a slow moment of the
machine hits all of them alike; the figure is the minimum over the
repeats. "net" subtracts the empty statement (the timeit loop itself).

On a shared or virtual machine the times move by tens of percent between
runs; `--instructions` counts instead, under valgrind's callgrind:
instructions per call, from two runs of each statement that differ only
in the number of calls, so the interpreter's start-up cancels out.
`--frontend` measures another copy of Kiln's Python package (an older
wrapper generator, say) against the same hand-written extension.

`bench/run.py` makes the full table with every peer; this is the quick
loop for working on the boundary."""

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import timeit
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import layout  # noqa: E402
from harness.implementations import extension_path, load_module  # noqa: E402

A, B = 1.5, 2.5
MODULE = "calls_kiln"
FUNCTIONS = ("add", "add1")
ROWS = [("empty statement", "pass"),
        ("hand-written add", "hand_add(a, b)"),
        ("Kiln built add", "kiln_add(a, b)"),
        ("@kiln.export add", "export_add(a, b)"),
        ("hand-written add1", "hand_add1(x, y)"),
        ("Kiln built add1", "kiln_add1(x, y)"),
        ("@kiln.export add1", "export_add1(x, y)")]


def write_call_kernels(path):
    """`add` and `add1` exactly as bench/kernels_kiln.py writes them."""
    with open(layout.KERNELS_SOURCE, encoding="utf-8") as handle:
        source = handle.read()
    lines = source.splitlines()
    parts = ['"""add and add1 of bench/kernels_kiln.py, for bench/call_overhead.py."""',
             "import kiln"]
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name in FUNCTIONS:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            parts += ["", "", *lines[first - 1:node.end_lineno]]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts) + "\n")


def source_path(directory):
    return os.path.join(directory, f"{MODULE}.py")


def pin_kilnc(directory):
    """Every build of the run, and the processes callgrind runs, use one
    copy of kilnc ($KILN_KILNC, or this checkout's), kept in `directory`:
    the compile-on-first-call cache keys on kilnc's identity, so a kilnc
    relinked meanwhile would otherwise make them rebuild instead of load."""
    pinned = os.path.join(directory, "kilnc")
    if not os.path.exists(pinned):
        shutil.copy2(os.environ.get("KILN_KILNC", layout.KILNC), pinned)
    os.environ["KILN_KILNC"] = pinned


def build(directory, frontend, keep):
    kiln_dir = os.path.join(directory, "kiln")
    hand_dir = os.path.join(directory, "fastcall_ext")
    if not keep:
        shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)
    pin_kilnc(directory)
    if not os.path.isdir(kiln_dir):
        write_call_kernels(source_path(directory))
        subprocess.run([layout.PYTHON, "-m", "kiln", "build", source_path(directory),
                        "-o", kiln_dir], check=True, env=dict(os.environ, PYTHONPATH=frontend))
    if not os.path.isdir(hand_dir):
        os.makedirs(hand_dir)
        subprocess.run([layout.CLANG, "-O3", "-march=native", "-fPIC", "-shared",
                        f"-I{layout.PYTHON_INCLUDE}", f"-I{np.get_include()}",
                        os.path.join(layout.PEERS_SOURCE, "fastcall_ext.c"),
                        "-o", extension_path(hand_dir, "fastcall_ext")], check=True)


def decorated_module(directory, frontend):
    """The module imported as source: its functions are @kiln.export
    objects, compiled on first call into a cache of this directory's own."""
    os.environ["KILN_CACHE_DIR"] = os.path.join(directory, "kiln_cache")
    sys.path.insert(0, frontend)
    module = load_module(source_path(directory), f"{MODULE}_decorated")
    module.add(A, B)
    module.add1(np.array([1.0]), np.array([2.0]))
    if not (module.add.is_compiled and module.add1.is_compiled):
        raise SystemExit("add/add1 fell back to Python")
    return module


def namespace(directory, frontend):
    """The callables of every row, each bound to a plain global name so no
    statement pays for an attribute lookup the others do not."""
    hand = load_module(extension_path(os.path.join(directory, "fastcall_ext"), "fastcall_ext"),
                       "fastcall_ext")
    built = load_module(os.path.join(directory, "kiln", f"{MODULE}.py"), MODULE)
    decorated = decorated_module(directory, frontend)
    names = {"a": A, "b": B, "x": np.array([1.5]), "y": np.array([2.5]),
             "hand_add": hand.add, "hand_add1": hand.add1,
             "kiln_add": built.add, "kiln_add1": built.add1,
             "export_add": decorated.add, "export_add1": decorated.add1}
    for label, statement in ROWS[1:]:
        value = eval(statement, names)  # noqa: S307 - our own statements
        if value != A + B:
            raise SystemExit(f"{label}: {statement} gave {value}")
    return names


def strip_debug_info(directory, frontend):
    """valgrind 3.19 gives up on the DWARF 5 that Kiln's extensions carry:
    strip it from this directory's builds (the code is untouched), and
    record the new digests in the cache manifests so the cache still loads
    them instead of rebuilding."""
    sys.path.insert(0, frontend)
    from kiln.compiler.cache import MANIFEST, file_sha256

    strip = os.path.join(os.path.dirname(os.path.realpath(layout.CLANG)), "llvm-strip")
    for root, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".so"):
                subprocess.run([strip, "--strip-debug", os.path.join(root, name)], check=True)
        if MANIFEST in files:
            path = os.path.join(root, MANIFEST)
            with open(path, encoding="utf-8") as handle:
                manifest = json.load(handle)
            manifest["sha256"] = file_sha256(os.path.join(root, manifest["extension"]))
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(manifest, handle, indent=2)


def instructions_of(statement, calls, directory, frontend):
    """Instructions callgrind counts in a whole interpreter run that makes
    `calls` calls of `statement`."""
    output = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                             layout.PYTHON, os.path.abspath(__file__), "--out", directory,
                             "--frontend", frontend, "--run-calls", statement, str(calls)],
                            capture_output=True, text=True, check=True,
                            env=dict(os.environ, PYTHONHASHSEED="0"))  # same dict work every run
    return int(re.search(r"Collected : (\d+)", output.stderr).group(1))


def count_instructions(directory, frontend, calls=20_000):
    strip_debug_info(directory, frontend)

    def per_call(statement):
        few = instructions_of(statement, 1_000, directory, frontend)
        many = instructions_of(statement, 1_000 + calls, directory, frontend)
        return (many - few) / calls

    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        return list(pool.map(per_call, [statement for _, statement in ROWS]))


def best_times(names, repeats, number):
    timers = [timeit.Timer(statement, globals=names) for _, statement in ROWS]
    best = [float("inf")] * len(ROWS)
    for _ in range(repeats):
        for index, timer in enumerate(timers):
            best[index] = min(best[index], timer.timeit(number) / number * 1e9)
    return best


def print_table(values, unit):
    loop = values[0]
    net = {label: value - loop for (label, _), value in zip(ROWS, values)}
    print(f"{'':<20} {unit:>10} {'net':>8} {'net / hand-written':>19}")
    for (label, _), value in zip(ROWS, values):
        reference = net.get(f"hand-written {label.split()[-1]}")
        ratio = f"{net[label] / reference:19.2f}" if reference and label != "empty statement" \
            else ""
        print(f"{label:<20} {value:10.1f} {net[label]:8.1f} {ratio}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--number", type=int, default=20_000, help="calls per timing")
    parser.add_argument("--keep", action="store_true",
                        help="reuse the builds of an earlier run instead of rebuilding")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per call under callgrind instead of timing")
    parser.add_argument("--frontend", default=layout.PYTHON_FRONTEND,
                        help="the directory holding the `kiln` package to measure "
                        "(default: this checkout's python_frontend)")
    parser.add_argument("--out", default=layout.build_path("call_overhead"),
                        help="where the builds go (default: build/bench/call_overhead)")
    parser.add_argument("--run-calls", nargs=2, metavar=("STATEMENT", "CALLS"),
                        help=argparse.SUPPRESS)  # the process callgrind runs
    args = parser.parse_args()
    directory, frontend = os.path.abspath(args.out), os.path.abspath(args.frontend)
    if args.run_calls:
        statement, calls = args.run_calls
        timeit.Timer(statement, globals=namespace(directory, frontend)).timeit(int(calls))
        return 0
    build(directory, frontend, args.keep)
    names = namespace(directory, frontend)
    if args.instructions:
        print_table(count_instructions(directory, frontend), "instr/call")
    else:
        print_table(best_times(names, args.repeats, args.number), "ns/call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
