#!/usr/bin/python3
"""Malformed-input checks for kilnc and kiln-opt (issue 15).

    mutate_mlir.py seeds OUTDIR
        Writes the fuzzer's seed corpus into OUTDIR/seeds (every lit input
        split at `// -----`, plus the MLIR `kiln mlir` prints for each
        test/python/modules/*.py) and an MLIR token dictionary OUTDIR/mlir.dict.

    mutate_mlir.py mutate --build BUILD --out DIR [--per-chunk N] [--seed S]
        Runs kilnc and kiln-opt on simple mutations (line deletions,
        duplications and swaps, truncations, token swaps, replacements and
        deletions) of every lit input. A run that ends by a signal (negative
        return code, or >= 128 through a shell) or prints a sanitizer report
        is a failure: its input, command and output are saved under
        DIR/failures. Diagnostics and exit code 1 are the expected outcome.
        Besides the raw edits, same-class ones (two SSA values swapped, a
        number replaced by an edge value) keep more mutants valid, so that
        they reach the passes.

Used by scripts/fuzz-mlir.sh. Python 3.9+, no dependencies.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPLIT = re.compile(r"^// -----\s*$", re.M)
# An operation's name where an op starts: `%x = arith.addi`, `scf.yield`,
# `"kiln.raise"(...)`.
OPERATION_NAME = re.compile(r'(?m)(?:=\s*|^\s+)"?([a-z_]+\.[a-z_.]+)')
# SSA values, block labels, symbols, attribute aliases, op names, keywords,
# types, numbers and punctuation: what a token swap exchanges.
TOKEN = re.compile(
    r"%[\w.$#-]+|\^[\w.$-]+|@[\w.$-]+|#[\w.$-]+|!?[A-Za-z_][\w.$]*"
    r"|-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|->|::|[(){}\[\]<>,:=?*+-]")
SANITIZER_REPORT = re.compile(
    r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
    r"UndefinedBehaviorSanitizer|PLEASE submit a bug report|Stack dump:")


def lit_inputs():
    return sorted(glob.glob(os.path.join(REPO, "test", "**", "*.mlir"), recursive=True))


def strip_comments(text):
    """Drops full-line `//` comments (RUN/CHECK lines, expected-* notes)."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return "\n".join(lines).strip() + "\n"


def chunks(path):
    with open(path) as handle:
        text = handle.read()
    return [strip_comments(part) for part in SPLIT.split(text) if strip_comments(part).strip()]


def run_lines(path):
    with open(path) as handle:
        return [line.split("RUN:", 1)[1].strip() for line in handle if "RUN:" in line]


def kiln_opt_flags(path):
    """The Kiln passes the file's RUN lines give kiln-opt, else the pipeline."""
    flags = []
    for line in run_lines(path):
        if "kiln-opt" not in line:
            continue
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        for word in words:
            if word == "|":
                break
            if re.match(r"--?(kiln-|canonicalize)", word) and word not in flags:
                flags.append(word)
    return flags or ["-kiln-lower-to-llvm"]


def python_module_mlir():
    """(name, MLIR text) of every test/python/modules/*.py `kiln mlir` accepts."""
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "test", "python", "modules", "*.py"))):
        result = subprocess.run([sys.executable, "-m", "kiln", "mlir", path],
                                capture_output=True, text=True, env=env, timeout=300)
        name = os.path.basename(path)[:-3]
        if result.returncode == 0 and result.stdout.strip():
            found.append((name, result.stdout))
            continue
        # A module with fallbacks: `kiln build` keeps the functions that
        # compile, in <mod>.kiln.mlir (needs a kilnc: KILN_KILNC or build/).
        with tempfile.TemporaryDirectory() as outdir:
            subprocess.run([sys.executable, "-m", "kiln", "build", path, "-o", outdir],
                           capture_output=True, env=env, timeout=600)
            built = os.path.join(outdir, name + ".kiln.mlir")
            if os.path.exists(built):
                with open(built) as handle:
                    found.append((name, handle.read()))
            else:
                print(f"note: no MLIR for {os.path.relpath(path, REPO)}; not a seed",
                      file=sys.stderr)
    return found


def split_module(text):
    """One small module per top-level function of a `kiln mlir` module, with
    the functions it calls: many small seeds run faster than one big one."""
    # Short file names: the absolute paths were most of the bytes.
    text = re.sub(r'loc\("[^"]*/([^"/]+)"', r'loc("\1"', text)
    lines = text.splitlines()
    if len(lines) < 3 or not lines[0].startswith("module"):
        return [text]
    functions, prelude, current = {}, [], None
    for line in lines[1:-1]:
        start = re.match(r"  func\.func (?:private )?@([\w.$-]+)", line)
        if current is None and start:
            current = start.group(1)
            functions[current] = []
        if current is None:
            prelude.append(line)
            continue
        functions[current].append(line)
        # A declaration is one line; a definition ends at its closing brace.
        if (start and not line.rstrip().endswith("{")) or re.match(r"  }( loc\(.*\))?$", line):
            current = None
    calls = {name: set(re.findall(r"call @([\w.$-]+)", "\n".join(body))) & set(functions)
             for name, body in functions.items()}
    pieces = []
    for name in functions:
        needed, todo = set(), [name]
        while todo:
            callee = todo.pop()
            if callee not in needed:
                needed.add(callee)
                todo.extend(calls[callee])
        body = [line for other in functions if other in needed for line in functions[other]]
        pieces.append("\n".join([lines[0], *prelude, *body, lines[-1]]) + "\n")
    return pieces or [text]


def write_seeds(outdir):
    seeds = os.path.join(outdir, "seeds")
    os.makedirs(seeds, exist_ok=True)
    texts = []
    for path in lit_inputs():
        stem = os.path.relpath(path, REPO).replace(os.sep, "_")[:-5]
        for index, chunk in enumerate(chunks(path)):
            texts.append((f"{stem}.{index}", chunk))
    # libFuzzer runs every seed before it mutates any, at ~14 a second under
    # the sanitizers: the ~1,900 one-function pieces of test/python/modules
    # took 146 s of a "60 s" run (2026-12-07). Kept: each piece that brings
    # an operation name no earlier seed has, and every eighth piece besides
    # (~350: all of their operations, a sample of the rest).
    # The dictionary still takes the tokens of every piece.
    seen_ops, tokens = set(), set()
    for text in [text for _, text in texts]:
        seen_ops |= set(OPERATION_NAME.findall(text))
    for name, text in python_module_mlir():
        tokens.update(t for t in TOKEN.findall(text) if not t.startswith("%") and len(t) <= 40)
        for index, piece in enumerate(split_module(text)):
            ops = set(OPERATION_NAME.findall(piece))
            if ops - seen_ops or index % 8 == 0:
                seen_ops |= ops
                texts.append((f"module_{name}.{index}", piece))
    for name, text in texts:
        with open(os.path.join(seeds, name + ".mlir"), "w") as handle:
            handle.write(text)
        tokens.update(t for t in TOKEN.findall(text) if not t.startswith("%") and len(t) <= 40)
    # libFuzzer dictionary: one quoted token a line, escaped: its parser
    # takes printable ASCII only, so every other byte of the UTF-8 (a
    # string literal's "héllo") is written as \xNN.
    with open(os.path.join(outdir, "mlir.dict"), "w") as handle:
        for token in sorted(tokens):
            escaped = "".join(
                "\\" + chr(byte) if chr(byte) in '\\"' else
                chr(byte) if 0x20 <= byte < 0x7f else f"\\x{byte:02X}"
                for byte in token.encode("utf-8"))
            handle.write(f'"{escaped}"\n')
    print(f"{len(texts)} seeds in {seeds}, {len(tokens)} dictionary tokens")


def mutations(text, rng, count):
    """`count` (kind, mutant) pairs of `text`, each one simple edit."""
    lines = text.splitlines(keepends=True)
    spans = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    results = []
    # Same-class edits keep more mutants parseable, so they reach the passes.
    values = [(m.start(), m.end()) for m in re.finditer(r"%[\w.$#-]+", text)]
    numbers = [(m.start(), m.end()) for m in re.finditer(r"(?<![\w.%#@^-])-?\d+(?:\.\d+)?(?![\w.])", text)]
    kinds = ["delete-line", "duplicate-line", "swap-lines", "truncate",
             "swap-tokens", "replace-token", "delete-token", "swap-values", "replace-number",
             "replace-number"]
    for _ in range(count):
        kind = rng.choice(kinds)
        if kind == "swap-values" and len(values) >= 2:
            i, j = sorted(rng.sample(range(len(values)), 2))
            (a0, a1), (b0, b1) = values[i], values[j]
            mutant = text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
            if mutant != text:
                results.append((kind, mutant))
            continue
        if kind == "replace-number" and numbers:
            a0, a1 = rng.choice(numbers)
            replacement = rng.choice(["0", "1", "-1", "2", "3", "7", "64", "4096", "-2147483648",
                                      "9223372036854775807", "-9223372036854775808",
                                      "18446744073709551616", "0.0", "-0.0", "1.0e308"])
            mutant = text[:a0] + replacement + text[a1:]
            if mutant != text:
                results.append((kind, mutant))
            continue
        if kind in ("swap-values", "replace-number"):
            kind = "truncate"
        if kind.endswith("line") or kind == "swap-lines":
            if len(lines) < 2:
                kind = "truncate"
        elif len(spans) < 2:
            kind = "truncate"
        if kind == "delete-line":
            i = rng.randrange(len(lines))
            mutant = "".join(lines[:i] + lines[i + 1:])
        elif kind == "duplicate-line":
            i = rng.randrange(len(lines))
            mutant = "".join(lines[:i + 1] + lines[i:])
        elif kind == "swap-lines":
            i, j = sorted(rng.sample(range(len(lines)), 2))
            swapped = list(lines)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            mutant = "".join(swapped)
        elif kind == "truncate":
            mutant = text[:rng.randrange(len(text) or 1)]
        else:
            i, j = sorted(rng.sample(range(len(spans)), 2))
            (a0, a1), (b0, b1) = spans[i], spans[j]
            first, second = text[a0:a1], text[b0:b1]
            if kind == "swap-tokens":
                mutant = text[:a0] + second + text[a1:b0] + first + text[b1:]
            elif kind == "replace-token":
                mutant = text[:a0] + second + text[a1:]
            else:
                mutant = text[:a0] + text[a1:]
        if mutant != text:
            results.append((kind, mutant))
    return results


def crashed(returncode, output):
    return returncode < 0 or returncode >= 128 or bool(SANITIZER_REPORT.search(output))


def run_one(job):
    command, input_path, timeout = job
    started = time.monotonic()
    try:
        result = subprocess.run(command + [input_path], capture_output=True, text=True,
                                errors="replace", timeout=timeout)
        return job, result.returncode, result.stdout[-2000:] + result.stderr[-20000:], \
            time.monotonic() - started
    except subprocess.TimeoutExpired:
        return job, None, "timeout", time.monotonic() - started


def mutate(args):
    rng = random.Random(args.seed)
    build = os.path.abspath(args.build)
    # As `kiln build` runs it (remarks on), with LLVM -O3 (--emit=llvm).
    kilnc = [os.path.join(build, "bin", "kilnc"), "--emit=llvm", "--target-cpu=x86-64-v3",
             "--kiln-remarks=" + os.devnull,
             "-o", os.devnull]
    kiln_opt = os.path.join(build, "bin", "kiln-opt")
    work = os.path.join(os.path.abspath(args.out), "mutants")
    failures = os.path.join(os.path.abspath(args.out), "failures")
    os.makedirs(work, exist_ok=True)
    jobs = []
    for path in lit_inputs():
        stem = os.path.relpath(path, REPO).replace(os.sep, "_")[:-5]
        opt = [kiln_opt, *kiln_opt_flags(path), "-o", os.devnull]
        for index, chunk in enumerate(chunks(path)):
            for number, (kind, mutant) in enumerate(mutations(chunk, rng, args.per_chunk)):
                name = f"{stem}.{index}.{number}.{kind}.mlir"
                mutant_path = os.path.join(work, name)
                with open(mutant_path, "w") as handle:
                    handle.write(mutant)
                jobs.append((kilnc, mutant_path, args.timeout))
                jobs.append((opt, mutant_path, args.timeout))
    print(f"{len(jobs)} runs of kilnc and kiln-opt on "
          f"{len(jobs) // 2} mutants of {len(lit_inputs())} lit inputs", flush=True)
    counts = {"rejected": 0, "accepted": 0, "crashed": 0, "timeout": 0}
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for job, returncode, output, _ in pool.map(run_one, jobs):
            command, input_path, _ = job
            if returncode is None:
                counts["timeout"] += 1
                outcome = "timeout"
            elif crashed(returncode, output):
                counts["crashed"] += 1
                outcome = "crash"
            else:
                counts["accepted" if returncode == 0 else "rejected"] += 1
                continue
            os.makedirs(failures, exist_ok=True)
            tool = os.path.basename(command[0])
            digest = hashlib.sha1(open(input_path, "rb").read()).hexdigest()[:12]
            base = os.path.join(failures, f"{outcome}-{tool}-{digest}")
            with open(input_path) as source, open(base + ".mlir", "w") as copy:
                copy.write(source.read())
            with open(base + ".txt", "w") as report:
                report.write(f"command: {shlex.join(command + [base + '.mlir'])}\n")
                report.write(f"exit: {returncode}\n\n{output}")
            print(f"{outcome.upper()}: {tool} on {os.path.basename(input_path)} "
                  f"(exit {returncode}) -> {base}.mlir", flush=True)
    print(f"mutation run: {sum(counts.values())} runs in {time.monotonic() - started:.0f} s: "
          f"{counts['rejected']} rejected, {counts['accepted']} accepted, "
          f"{counts['crashed']} crashed, {counts['timeout']} timed out")
    return 1 if counts["crashed"] or counts["timeout"] else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    seeds = sub.add_parser("seeds")
    seeds.add_argument("outdir")
    run = sub.add_parser("mutate")
    run.add_argument("--build", default=os.path.join(REPO, "build"))
    run.add_argument("--out", required=True)
    run.add_argument("--per-chunk", type=int, default=6,
                     help="mutants per `// -----` chunk of each lit input")
    run.add_argument("--seed", type=int, default=15)
    run.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    run.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    if args.command == "seeds":
        write_seeds(args.outdir)
        return 0
    return mutate(args)


if __name__ == "__main__":
    sys.exit(main())
