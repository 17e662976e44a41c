#!/usr/bin/python3
"""Container-heavy programs (issue 30, "Measure, in bench/"): Kiln beside
CPython, Numba, Pythran, Cython and mypyc, in one run, as ratios.

    KILN_KILNC=build/bin/kilnc /usr/bin/python3 bench/containers.py [--quick]

Each program of bench/container_programs/ is one module of plain annotated
Python, the same text for every implementation; only what each compiler
needs is added or removed, mechanically, by `variant()` below:

* CPython: the module as written.
* Kiln: `import kiln` and `@kiln.export` on the entry function (its helpers
  are compiled as its callees), `kiln build --target-cpu=native` (-O3).
  A program Kiln does not compile shows Kiln's reason (`<mod>.kiln.json`,
  `fallbacks[]`) instead of a time.
* Numba: `@numba.njit` on every function. The entry functions take only
  ints and build their lists inside, so no reflected list crosses the
  boundary (and no `numba.typed.List` is needed); Numba compiles on the
  first call, which is the check call, not timed. A `{}` in an njit
  function is a numba.typed.Dict typed from the stores into it (no
  `Dict.empty` in the source).
* Pythran 0.11: the `# pythran export` comments of the source;
  `pythran -O3 -march=native`, its compiler held to 6 GiB of address space. Annotated assignments (`xs: list[int] = []`)
  lose their annotation, which Pythran 0.11 cannot parse (its CFG pass
  raises TypeError on them); nothing else changes.
* Cython (pure-Python mode): `cython3 -3` on the `.py` itself, its
  annotations as the only declarations, then gcc -O3 -march=native. Cython
  0.29.32 evaluates a `list[int]` annotation at import with its own
  subscript helper, which ignores `__class_getitem__` (TypeError: 'type'
  object is not subscriptable); the generated C's module init is patched to
  call PyObject_GetItem there (import time only, no effect on the code
  timed). A missing cython3 is installed with apt-get (`--no-install`: not).
* mypyc (Debian's python3-mypy): `python3 -m mypyc` on the module, in a
  directory of its own.

Every implementation's result is checked against CPython's before any
timing (ints exactly, floats to 1e-9 relative); a mismatch stops the run
(`--keep-going` records it). Times: minimum over `--repeats` rounds, the
implementations round-robin in each round, calls batched to >= 20 ms per
sample. Then each program runs once more with CPython's allocators
counted (bench/native/count_python_allocations.c), once under tracemalloc
with a gc.callbacks counter: the allocator calls, the heap's peak above
entry and the collections of one call, the returned object's aside.

Writes build/bench/containers/ (sources, builds, results.json),
bench/results/containers.md and the section between its markers in
docs/performance.md (not with --quick, --only or another --frontend: those
write build/bench/containers/containers.md only). A benchmark, not a
test: nothing here asserts a time."""

import argparse
import gc
import importlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
PROGRAMS_DIR = os.path.join(BENCH, "container_programs")
sys.path.insert(0, BENCH)

from harness.doc_sections import replace_section, write_result  # noqa: E402

BEGIN = "<!-- bench/containers.py: begin -->"
END = "<!-- bench/containers.py: end -->"
PYTHON = sys.executable
EXT = sysconfig.get_config_var("EXT_SUFFIX")
PEERS = ["numba", "pythran", "cython", "mypyc"]
IMPLEMENTATIONS = ["cpython", "kiln"] + PEERS
TITLES = {"cpython": "CPython", "kiln": "Kiln", "numba": "Numba", "pythran": "Pythran",
          "cython": "Cython", "mypyc": "mypyc"}

# name, entry function, arguments of the full run, of --quick, what it is
# (formatted with the arguments).
# `temporaries`: lists (dicts: `kind`) CPython builds and drops per call (the
# scenario rows). `known_wrong`: a peer's known wrong result, with its cause:
# recorded (the cell shows the cause), not a reason to stop the run.
PROGRAMS = [
    dict(name="sieve", entry="sieve", args=(2_000_000,), quick=(20_000,),
         label="sieve of Eratosthenes, n = {0:,}"),
    dict(name="knapsack", entry="knapsack", args=(200, 10_000, 7), quick=(20, 500, 7),
         label="0/1 knapsack DP, {0:,} items, capacity {1:,}"),
    dict(name="next_greater", entry="run", args=(500_000, 7), quick=(5_000, 7),
         label="next greater element (stack), n = {0:,}"),
    dict(name="heap_queue", entry="run", args=(100_000, 7), quick=(2_000, 7),
         label="binary-heap priority queue, {0:,} pushes"),
    dict(name="spectral_norm", entry="spectral_norm", args=(160,), quick=(20,),
         label="spectral_norm (lists of float), n = {0:,}"),
    dict(name="fannkuch", entry="fannkuch", args=(9,), quick=(6,),
         label="fannkuch-redux, n = {0}"),
    dict(name="features", entry="features", args=(100_000, 7), quick=(1_000, 7),
         label="feature lists per record, {0:,} records",
         temporaries=lambda args: 3 * args[0], kind="lists"),
    # dicts of int/float keys and values (dict[int, int], dict[int, float])
    dict(name="collatz", entry="collatz", args=(150_000,), quick=(2_000,),
         label="longest Collatz chain, memo dict, n = {0:,}"),
    dict(name="knucleotide", entry="knucleotide", args=(100_000, 7), quick=(2_000, 7),
         label="k-nucleotide k-mer counts (dict), {0:,} bases"),
    dict(name="union_find", entry="union_find", args=(70_000, 70_000, 7),
         quick=(1_000, 1_000, 7),
         label="union-find, dicts of parents and sizes, {0:,} nodes",
         known_wrong={"pythran": "Pythran 0.11 generates no code for `del size[rb]` "
                                 "(`del d[k]` on a dict is dropped; `d.pop(k)` works)"}),
    dict(name="feature_dicts", entry="feature_dicts", args=(50_000, 7), quick=(1_000, 7),
         label="feature dict per record, {0:,} records",
         temporaries=lambda args: args[0], kind="dicts"),
    # dicts of str keys (dict[str, int]), str.split() and str.join()
    dict(name="word_freq", entry="word_freq", args=(500_000, 7), quick=(5_000, 7),
         label="word frequencies (dict[str, int]), {0:,} words"),
    # sets of int (set[int])
    dict(name="reachable", entry="reachable", args=(300_000, 11), quick=(3_000, 11),
         label="BFS reachability, visited set, {0:,} nodes",
         temporaries=lambda args: args[0], kind="lists"),
]


PROVISIONAL = ("**Provisional numbers**: measured on a busy machine (other builds and "
               "tests ran meanwhile; only the ratios within a round are comparable), to be "
               "re-run on an idle one.")


class NotBuilt(Exception):
    """An implementation that cannot run a program: the cell's text."""


# ----------------------------------------------------------------------------
# The variants: the program's text, mechanically adapted per compiler.

DEF = re.compile(r"^def (\w+)\(", re.M)


def decorated(text, decorator, names, header):
    """`header` on top, `decorator` above each top-level def in `names`
    (None: all). Returns the text and, per line of it, the source's line."""
    out, origin = header.splitlines(), [0] * len(header.splitlines())
    for number, line in enumerate(text.splitlines(), 1):
        match = DEF.match(line)
        if match and (names is None or match.group(1) in names):
            out.append(decorator)
            origin.append(number)
        out.append(line)
        origin.append(number)
    return "\n".join(out) + "\n", origin


ANNOTATED_ASSIGNMENT = re.compile(r"^(\s+\w+): [^=\n]+ = ", re.M)


def variant(text, implementation, entry):
    if implementation == "kiln":
        return decorated(text, "@kiln.export", {entry}, "import kiln  # added for Kiln\n")
    if implementation == "numba":
        return decorated(text, "@numba.njit", None, "import numba  # added for Numba\n")
    if implementation == "pythran":
        text = ANNOTATED_ASSIGNMENT.sub(r"\1 = ", text)
    return text, list(range(1, text.count("\n") + 2))


# ----------------------------------------------------------------------------
# Builds: each returns the directory to import `<program>_<implementation>`
# from, or raises NotBuilt.

# The address space of Pythran's C++ compiler: g++ on the C++ of some programs
# (feature_dicts) grows without end, and the machine is shared.
PYTHRAN_MEMORY = 6 << 30


def limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (PYTHRAN_MEMORY, PYTHRAN_MEMORY))


def run_logged(command, log, cwd=None, env=None, preexec_fn=None):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                            preexec_fn=preexec_fn)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write("$ " + " ".join(command) + "\n" + result.stdout + result.stderr + "\n")
    return result


def failure_tail(result, lines=3):
    text = [line for line in (result.stdout + result.stderr).strip().splitlines()
            if "Warning" not in line and not line.startswith("  ")]
    return " / ".join(text[-lines:]) or f"exit status {result.returncode}"


def build_kiln(directory, module, program, origin, frontend):
    out = os.path.join(directory, "out")
    env = dict(os.environ, PYTHONPATH=frontend)
    result = run_logged([PYTHON, "-m", "kiln", "build", os.path.join(directory, module + ".py"),
                         "-o", out, "--target-cpu=native", "--allow-empty", "-q"],
                        os.path.join(directory, "build.log"), env=env)
    report_path = os.path.join(out, module + ".kiln.json")
    if result.returncode != 0 or not os.path.exists(report_path):
        raise NotBuilt("kiln build failed: " + failure_tail(result))
    with open(report_path, encoding="utf-8") as handle:
        report = json.load(handle)
    compiled = {f["name"]: f["compiled"] for f in report.get("functions", [])}
    if not compiled.get(program["entry"]):
        reasons = [f"line {origin[r['line'] - 1]}: {r['reason']}"
                   for r in report.get("fallbacks", []) if r.get("function") == program["entry"]]
        raise NotBuilt("not compiled: " + ("; ".join(reasons) or "no reason in the report"))
    return out


def build_numba(directory, module, program, origin, frontend):
    return directory            # compiled by the check call


def build_pythran(directory, module, program, origin, frontend):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    result = run_logged(["pythran", "-O3", "-march=native", module + ".py", "-o", module + EXT],
                        os.path.join(directory, "build.log"), cwd=directory, env=env,
                        preexec_fn=limit_memory)
    if result.returncode != 0:
        raise NotBuilt("pythran failed: " + pythran_error(directory, module, result))
    os.remove(os.path.join(directory, module + ".py"))   # import the extension, not the source
    return directory


def pythran_error(directory, module, result):
    """Pythran's own message, or for C++ that does not compile (its output
    then shows only the failed command) the first error of g++ on it."""
    if "C++ errors" not in result.stdout + result.stderr:
        return failure_tail(result)
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    cpp = os.path.join(directory, module + ".cpp")
    subprocess.run(["pythran", "-E", module + ".py", "-o", cpp], cwd=directory, env=env,
                   capture_output=True)
    import pythran
    import numpy
    include = sysconfig.get_paths()["include"]
    compiled = subprocess.run(
        ["g++", "-std=c++11", "-fsyntax-only", "-DENABLE_PYTHON_MODULE", "-D__PYTHRAN__=3",
         f"-I{os.path.dirname(pythran.__file__)}", f"-I{numpy.get_include()}", f"-I{include}",
         cpp], capture_output=True, text=True, preexec_fn=limit_memory)
    if "memory exhausted" in compiled.stderr or "Killed signal" in compiled.stderr:
        return (f"g++ runs out of memory on its C++ (over {PYTHRAN_MEMORY >> 30} GiB of "
                "address space)")
    errors = [line for line in compiled.stderr.splitlines() if " error: " in line]
    return "its C++ does not compile: " + (errors[0].split(" error: ", 1)[1] if errors
                                           else "(no g++ error found)")


# Cython 0.29.32's __Pyx_PyObject_GetItem on a type object (the annotation
# `list[int]` evaluated at import) ignores __class_getitem__.
CYTHON_TYPE_SUBSCRIPT = re.compile(r"__Pyx_PyObject_GetItem\(\(\(PyObject \*\)\(&Py\w+_Type\)\)")


def build_cython(directory, module, program, origin, frontend):
    if not shutil.which("cython3"):
        raise NotBuilt("cython3 is not installed (apt-get install -y cython3)")
    log = os.path.join(directory, "build.log")
    c_file = os.path.join(directory, module + ".c")
    result = run_logged(["cython3", "-3", module + ".py", "-o", c_file], log, cwd=directory)
    if result.returncode != 0:
        raise NotBuilt("cython3 failed: " + failure_tail(result))
    with open(c_file, encoding="utf-8") as handle:
        code = handle.read()
    code = CYTHON_TYPE_SUBSCRIPT.sub(lambda m: m.group(0).replace("__Pyx_PyObject_GetItem",
                                                                  "PyObject_GetItem"), code)
    with open(c_file, "w", encoding="utf-8") as handle:
        handle.write(code)
    include = sysconfig.get_paths()["include"]
    result = run_logged(["gcc", "-O3", "-march=native", "-fPIC", "-shared", f"-I{include}",
                         c_file, "-o", os.path.join(directory, module + EXT)], log)
    if result.returncode != 0:
        raise NotBuilt("gcc of Cython's C failed: " + failure_tail(result))
    os.remove(os.path.join(directory, module + ".py"))
    return directory


def build_mypyc(directory, module, program, origin, frontend):
    result = run_logged([PYTHON, "-m", "mypyc", module + ".py"],
                        os.path.join(directory, "build.log"), cwd=directory)
    if result.returncode != 0:
        raise NotBuilt("mypyc failed: " + failure_tail(result))
    os.remove(os.path.join(directory, module + ".py"))
    return directory


BUILDERS = {"cpython": lambda directory, *rest: directory, "kiln": build_kiln,
            "numba": build_numba, "pythran": build_pythran, "cython": build_cython,
            "mypyc": build_mypyc}


def ensure_packages(log, allowed):
    """Installs the Debian packages of missing peers (cython3 above all:
    scripts/setup.sh lists it, a fresh machine may not have run it)."""
    wanted = {"cython3": "cython3", "pythran": "python3-pythran"}
    missing = [package for tool, package in wanted.items() if not shutil.which(tool)]
    if not missing or not allowed:
        return
    command = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]
    if os.geteuid() != 0:
        command = ["sudo", "-n", *command]
    log(f"installing {' '.join(missing)}: {' '.join(command)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(command, env=env, capture_output=True).returncode != 0:
        update = command[:command.index("install")] + ["update", "-qq"]
        subprocess.run(update, env=env, capture_output=True)
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            log(f"  !! could not install {' '.join(missing)}: {result.stderr.strip()[-300:]}")


def build_all(programs, implementations, workdir, frontend, log):
    """Every (program, implementation) built, two at a time: the module
    objects (or the NotBuilt reason) by [program name][implementation]."""
    jobs = []
    for program in programs:
        with open(os.path.join(PROGRAMS_DIR, program["name"] + ".py"), encoding="utf-8") as f:
            text = f.read()
        for implementation in implementations:
            module = f"{program['name']}_{implementation}"
            directory = os.path.join(workdir, implementation, program["name"])
            os.makedirs(directory)
            source, origin = variant(text, implementation, program["entry"])
            with open(os.path.join(directory, module + ".py"), "w", encoding="utf-8") as f:
                f.write(source)
            jobs.append((program, implementation, directory, module, origin))

    def build(job):
        program, implementation, directory, module, origin = job
        start = time.perf_counter()
        try:
            path = BUILDERS[implementation](directory, module, program, origin, frontend)
            outcome = (path, None)
        except NotBuilt as error:
            outcome = (None, str(error))
        return outcome + (time.perf_counter() - start,)

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(build, jobs))
    built = {program["name"]: {} for program in programs}
    for (program, implementation, _, module, _), (path, error, seconds) in zip(jobs, outcomes):
        if error is None:
            sys.path.insert(0, path)
            try:
                built[program["name"]][implementation] = importlib.import_module(module)
            except Exception as failure:  # noqa: BLE001 - a peer's broken import is its cell
                error = f"import failed: {type(failure).__name__}: {failure}"
            finally:
                sys.path.remove(path)
        if error is not None:
            built[program["name"]][implementation] = NotBuilt(error)
            log(f"  {program['name']:14s} {implementation:8s} {error}")
        else:
            log(f"  {program['name']:14s} {implementation:8s} built in {seconds:.1f} s")
    return built


# ----------------------------------------------------------------------------
# Checks, timing, the CPython heap.

def same(result, expected):
    if isinstance(expected, float):
        return isinstance(result, float) and (result == expected or
                                              abs(result - expected) <= 1e-9 * abs(expected))
    return type(result) is type(expected) and result == expected


def check(programs, built, keep_going, log):
    """Calls every implementation once (Numba compiles here) and compares
    with CPython; returns the functions to time and the mismatches."""
    functions, mismatches = {}, []
    for program in programs:
        name, args = program["name"], program["args"]
        expected = getattr(built[name]["cpython"], program["entry"])(*args)
        functions[name] = {}
        for implementation, module in built[name].items():
            if isinstance(module, NotBuilt):
                continue
            function = getattr(module, program["entry"])
            try:
                result = function(*args)
            except Exception as error:  # noqa: BLE001 - the peer's own failure is its cell
                first = str(error).strip().splitlines()
                reason = f"{type(error).__name__}: {first[0] if first else ''}"
                if implementation == "numba" and "Typing" in type(error).__name__:
                    lines = [line.strip() for line in
                             re.sub(r"\x1b\[[0-9;]*m", "", str(error)).splitlines()]
                    lines = [re.sub(r"location: \S*/", "location: ", line) for line in lines
                             if line and not line.startswith(("Failed in ", "- Resolution"))]
                    lines = [re.sub(r" at 0x[0-9a-f]+", "", line) for line in lines]
                    reason = "not compiled: " + (lines[0] if lines else type(error).__name__)
                    if lines and lines[0].startswith("No implementation of function"):
                        reason += " " + lines[1]
                        precise = [line for line in lines if line.startswith("non-precise")]
                        if precise:
                            reason += f" ({precise[0]})"
                built[name][implementation] = NotBuilt(reason)
                log(f"  {name:14s} {implementation:8s} {reason}")
                continue
            if not same(result, expected):
                known = program.get("known_wrong", {}).get(implementation)
                if known:
                    built[name][implementation] = NotBuilt(
                        f"wrong result, {result!r} (CPython: {expected!r}): {known}")
                    log(f"  {name:14s} {implementation:8s} known wrong result: {known}")
                    continue
                message = f"{name}: {implementation} returned {result!r}, CPython {expected!r}"
                mismatches.append(message)
                log("  !! " + message)
                if keep_going:
                    built[name][implementation] = NotBuilt(f"wrong result: {result!r}")
                continue
            functions[name][implementation] = (function, result)
    if mismatches and not keep_going:
        sys.exit("containers.py: results differ from CPython's, nothing timed:\n  "
                 + "\n  ".join(mismatches))
    return functions


def time_all(programs, functions, repeats, log):
    """Seconds per call: minimum over `repeats` rounds, each round timing
    every implementation of the program in turn (a busy moment of the
    machine hits them alike), calls batched to >= 20 ms per sample."""
    times = {}
    for program in programs:
        args = program["args"]
        batches = {}
        for implementation, (function, _) in functions[program["name"]].items():
            start = time.perf_counter()
            function(*args)
            once = time.perf_counter() - start
            batches[implementation] = max(1, math.ceil(0.02 / max(once, 1e-9)))
        best = {implementation: float("inf") for implementation in batches}
        for _ in range(repeats):
            for implementation, number in batches.items():
                function = functions[program["name"]][implementation][0]
                start = time.perf_counter()
                for _ in range(number):
                    function(*args)
                best[implementation] = min(best[implementation],
                                           (time.perf_counter() - start) / number)
        times[program["name"]] = best
        log(f"  {program['name']:14s} " + "  ".join(
            f"{implementation} {unit(seconds)}" for implementation, seconds in best.items()))
    return times


def heap_of_call(function, args):
    """(bytes, collections): how far above its level at entry the call took
    CPython's traced heap (tracemalloc's peak), less the returned object,
    and how many garbage collections started meanwhile."""
    collections = [0]

    def count(phase, info):
        if phase == "start":
            collections[0] += 1

    gc.collect()
    tracemalloc.start()
    gc.callbacks.append(count)
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        held = function(*args)   # alive until the peak is read, as the reference's
        peak = tracemalloc.get_traced_memory()[1]
        del held
    finally:
        gc.callbacks.remove(count)
        tracemalloc.stop()
    return peak - base, collections[0]


def build_counter(workdir):
    """bench/native/count_python_allocations.c, built with gcc: counts the
    calls of CPython's allocators (raw, mem and object domains)."""
    include = sysconfig.get_paths()["include"]
    subprocess.run(["gcc", "-O2", "-fPIC", "-shared", f"-I{include}",
                    os.path.join(BENCH, "native", "count_python_allocations.c"),
                    "-o", os.path.join(workdir, "count_python_allocations" + EXT)], check=True)
    sys.path.insert(0, workdir)
    try:
        return importlib.import_module("count_python_allocations")
    finally:
        sys.path.remove(workdir)


def allocations_of_call(counter, function, args):
    gc.collect()
    counter.start()
    try:
        function(*args)
    finally:
        calls = counter.stop()
    return calls


def heap_all(programs, functions, counter):
    """Per implementation: the calls of CPython's allocators one call makes,
    tracemalloc's peak above entry, the collections it starts. Each less the
    same figure of a call that only makes an object equal to the result
    (`operator.neg(-result)`): the measurement itself and the returned
    object's box."""
    import operator
    heaps = {}
    for program in programs:
        heaps[program["name"]] = {}
        for implementation, (function, result) in functions[program["name"]].items():
            reference = (-result,)
            calls = (allocations_of_call(counter, function, program["args"])
                     - allocations_of_call(counter, operator.neg, reference))
            size, collections = heap_of_call(function, program["args"])
            size -= heap_of_call(operator.neg, reference)[0]
            heaps[program["name"]][implementation] = (calls, size, collections)
    return heaps


# ----------------------------------------------------------------------------
# The report.

def unit(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def size_text(size):
    return f"{size} B" if size < 10_000 else f"{size / 1024:.0f} KiB"


def report(programs, implementations, built, times, heaps, versions):
    notes, note_of = [], {}

    def note(text):
        if text not in note_of:
            notes.append(text)
            note_of[text] = len(notes)
        return f"[{note_of[text]}]"

    columns = [i for i in implementations if i != "cpython"]
    head = ("| program | CPython | " + " | ".join(TITLES[i] for i in columns)
            + " | fastest peer | Kiln / fastest peer |")
    rows = [head, "|---" * (len(columns) + 4) + "|"]
    speedups = {i: [] for i in columns}
    for program in programs:
        name = program["name"]
        base = times[name].get("cpython")
        cells = [program["label"], unit(base)]
        for implementation in columns:
            module = built[name].get(implementation)
            if isinstance(module, NotBuilt):
                cells.append(f"-- {note(f'{TITLES[implementation]}, {name}: {module}')}")
                continue
            seconds = times[name][implementation]
            speedups[implementation].append(base / seconds)
            cells.append(f"{base / seconds:.1f}x ({unit(seconds)})")
        peers = {p: times[name][p] for p in PEERS if p in times[name]}
        if peers:
            fastest = min(peers, key=peers.get)
            cells.append(f"{TITLES[fastest]} {base / peers[fastest]:.1f}x")
            cells.append(f"{peers[fastest] / times[name]['kiln']:.2f}x"
                         if "kiln" in times[name] else "--")
        else:
            cells += ["--", "--"]
        rows.append("| " + " | ".join(cells) + " |")
    geomean = ["geometric mean (programs run)", ""]
    for implementation in columns:
        values = speedups[implementation]
        geomean.append(f"{math.exp(sum(map(math.log, values)) / len(values)):.1f}x "
                       f"({len(values)}/{len(programs)})" if values else f"-- (0/{len(programs)})")
    rows.append("| " + " | ".join(geomean + ["", ""]) + " |")

    heap_rows = ["| program | " + " | ".join(TITLES[i] for i in implementations) + " |",
                 "|---" * (len(implementations) + 1) + "|"]
    for program in programs:
        cells = [program["name"]]
        for implementation in implementations:
            if implementation in heaps[program["name"]]:
                calls, size, collections = heaps[program["name"]][implementation]
                cells.append(f"{calls:,} / {size_text(size)} / {collections}")
            else:
                cells.append("--")
        heap_rows.append("| " + " | ".join(cells) + " |")

    scenario = []
    for program in programs:
        if "temporaries" not in program or "cpython" not in times[program["name"]]:
            continue
        name = program["name"]
        count = program["temporaries"](program["args"])
        rate = count / times[name]["cpython"]
        line = (f"**The scenario** ({program['label']}): CPython builds and drops {count:,} "
                f"{program['kind']} per call, {rate / 1e6:.2f} million a second; ")
        cpython_calls = heaps[name]["cpython"][0]
        line += f"{cpython_calls:,} calls of CPython's allocators per call. "
        if "kiln" in heaps[name]:
            calls, size, collections = heaps[name]["kiln"]
            line += (f"While Kiln's compiled version runs: {calls} calls of CPython's "
                     f"allocators, {size} bytes of CPython heap (tracemalloc's peak above "
                     f"entry), {collections} garbage collections (gc.callbacks), the returned "
                     "object aside.")
        else:
            line += f"Kiln does not run it yet ({built[name]['kiln']})."
        scenario.append(line)

    text = "\n".join([
        (PROVISIONAL + " " if versions.get("provisional") else "") +
        f"Machine: {versions['machine']}. {versions['python']}; Kiln {versions['kiln']}; "
        f"{versions['peers']}.",
        "",
        "Speed-up over CPython (time per call in brackets; best of the rounds); "
        "\"Kiln / fastest peer\": the fastest peer's time over Kiln's (above 1.00x: Kiln "
        "is faster). `--`: the implementation does not run the program (notes below).",
        "", *rows, "", *[line for paragraph in scenario for line in (paragraph, "")],
        "CPython's memory during one call, the returned object aside: calls of its "
        "allocators (malloc, calloc and realloc of the raw, mem and object domains, "
        "counted by bench/native/count_python_allocations.c) / the heap's peak above "
        "entry (tracemalloc) / garbage collections started (gc.callbacks):", "",
        *heap_rows, "",
        *[f"[{number}] {text}" for number, text in enumerate(notes, 1)], ""])
    return text


def versions_of(frontend):
    def version(module):
        try:
            return importlib.import_module(module).__version__
        except Exception:  # noqa: BLE001
            return "missing"

    cython = subprocess.run(["cython3", "--version"], capture_output=True, text=True) \
        if shutil.which("cython3") else None
    kiln = subprocess.run([PYTHON, "-c", "import kiln; print(kiln.__version__)"],
                          env=dict(os.environ, PYTHONPATH=frontend), capture_output=True,
                          text=True).stdout.strip() or "missing"
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    cython_version = ((cython.stdout + cython.stderr).split()[-1] if cython else "missing")
    return dict(machine=f"{cpu}, {len(os.sched_getaffinity(0))} CPUs, "
                        f"{time.strftime('%Y-%m-%d')}",
                python=f"CPython {sys.version.split()[0]}", kiln=kiln,
                peers=f"Numba {version('numba')}, Pythran {version('pythran')}, "
                      f"Cython {cython_version}, mypyc {version('mypy.version')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 rounds, no docs")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", help="comma-separated programs (no docs written)")
    parser.add_argument("--keep-going", action="store_true",
                        help="record a result that differs from CPython's instead of stopping")
    parser.add_argument("--frontend", default=os.path.join(REPO, "python_frontend"),
                        help="the python_frontend directory Kiln builds with")
    parser.add_argument("--provisional", action="store_true",
                        help="mark the report's header: numbers of a busy machine")
    parser.add_argument("--no-install", action="store_true",
                        help="do not apt-get install a missing cython3 / pythran")
    args = parser.parse_args()

    def log(message):
        print(message, flush=True)

    programs = PROGRAMS
    if args.only:
        wanted = args.only.split(",")
        programs = [p for p in PROGRAMS if p["name"] in wanted]
    if args.quick:
        programs = [dict(p, args=p["quick"]) for p in programs]
        args.repeats = min(args.repeats, 3)
    programs = [dict(p, label=p["label"].format(*p["args"])) for p in programs]
    ensure_packages(log, not args.no_install)
    workdir = os.path.join(REPO, "build", "bench", "containers")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    log(f"building {len(programs)} programs x {len(IMPLEMENTATIONS)} implementations "
        f"into {workdir} ...")
    built = build_all(programs, IMPLEMENTATIONS, workdir, args.frontend, log)
    log("checking results against CPython ...")
    functions = check(programs, built, args.keep_going, log)
    log(f"timing, best of {args.repeats} rounds ...")
    times = time_all(programs, functions, args.repeats, log)
    log("CPython heap and collections per call ...")
    heaps = heap_all(programs, functions, build_counter(workdir))
    versions = dict(versions_of(args.frontend), provisional=args.provisional)
    text = report(programs, IMPLEMENTATIONS, built, times, heaps, versions)
    print(text)
    with open(os.path.join(workdir, "results.json"), "w", encoding="utf-8") as handle:
        json.dump({"times": times, "heaps": heaps,
                   "not_run": {p: {i: str(m) for i, m in row.items() if isinstance(m, NotBuilt)}
                               for p, row in built.items()}}, handle, indent=1)
    if args.quick or args.only or os.path.abspath(args.frontend) != os.path.join(
            REPO, "python_frontend"):
        with open(os.path.join(workdir, "containers.md"), "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    write_result("containers", text)
    section = (f"{BEGIN}\n## Container-heavy programs\n\nGenerated by `bench/containers.py` "
               "(issue 30): eleven programs, seven of lists of int, float and bool and four "
               "of dicts (`dict[int, int]`, `dict[int, float]`: a memo table, k-mer counts, "
               "union-find's parents and sizes, a feature dict per record), written once as "
               "annotated Python (bench/container_programs/) and compiled as written by each "
               "implementation. The entry functions take ints and build their lists and dicts "
               "inside (for Numba: lists made in compiled code, no reflected or typed list "
               "crosses the boundary; a `{}` becomes a `numba.typed.Dict` whose key and value "
               "types Numba infers from the stores into it, so the source needs no "
               "`Dict.empty(...)`). Cython compiles the `.py` in pure-Python mode: its only "
               "declarations are the annotations, and Cython 0.29 keeps `int` a Python int. "
               "What the memory table counts: CPython's own allocators. Kiln's lists and dicts "
               "come from libc's malloc (runtime/kiln_list.c, runtime/kiln_dict.c) and "
               "Pythran's from C++'s (its dict wraps a std::unordered_map), which it does not "
               "see; Numba's NRT allocates through PyMem_RawMalloc, so its lists and typed "
               "dicts are counted. CPython's collector does not run in these programs: it is "
               "triggered by container objects that stay alive, and their temporary lists and "
               "dicts die by reference counting first.\n\n"
               f"{text}{END}")
    replace_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
