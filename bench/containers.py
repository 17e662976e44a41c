#!/usr/bin/python3
"""Container-heavy programs (issue 30, "Measure, in bench/"): Kiln beside
CPython, Numba, Pythran, Cython and mypyc, in one run, as ratios. With
`--suite classes`, the programs built on classes (issue 31,
bench/class_programs/), through the same code.

    KILN_KILNC=build/bin/kilnc /usr/bin/python3 bench/containers.py [--quick]
    KILN_KILNC=build/bin/kilnc /usr/bin/python3 bench/containers.py --suite classes [--quick]

Each program of bench/container_programs/ (bench/class_programs/) is one module of plain annotated
Python, the same text for every implementation; only what each compiler
needs is added or removed, mechanically, by `variant()` below:

* CPython: the module as written.
* Kiln: `import kiln` and `@kiln.export` on the entry function (its helpers
  are compiled as its callees) and, in the classes suite, on every
  top-level class; `kiln build --target-cpu=native` (-O3).
  A program Kiln does not compile shows Kiln's reason (`<mod>.kiln.json`,
  `fallbacks[]`) instead of a time.
* Numba: `@numba.njit` on every function. The entry functions take only
  ints and build their lists inside, so no reflected list crosses the
  boundary (and no `numba.typed.List` is needed); Numba compiles on the
  first call, which is the check call, not timed. A `{}` in an njit
  function is a numba.typed.Dict typed from the stores into it (no
  `Dict.empty` in the source). Classes: `@jitclass(spec)`, the spec
  written from the class-level annotations (`jitclass_variant()`); a
  program jitclass cannot express (inheritance) shows why instead.
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
* The classes suite leaves Pythran out (it compiles no classes) and adds a
  second table: an exported class used from Python (attribute access
  against a `__slots__` class, a method call against a compiled function;
  class_programs/boundary.py).

Every implementation's result is checked against CPython's before any
timing (ints exactly, floats to 1e-9 relative); a mismatch stops the run
(`--keep-going` records it). Then `gc.freeze()`: the objects alive at that
point (the harness's, the compilers' modules, Numba's types) are left out
of the collections a program starts (binary-trees starts thousands), as in
a program's own process. Times: minimum over `--repeats` rounds, the
implementations round-robin in each round, calls batched to >= 20 ms per
sample. Then each program runs once more with CPython's allocators
counted (bench/native/count_python_allocations.c), once under tracemalloc
with a gc.callbacks counter: the allocator calls, the heap's peak above
entry and the collections of one call, the returned object's aside.

Writes build/bench/<suite>/ (sources, builds, results.json),
bench/results/<suite>.md and the suite's section between its markers in
docs/performance.md (not with --quick, --only or another --frontend: those
write build/bench/<suite>/<suite>.md only). A benchmark, not a
test: nothing here asserts a time."""

import argparse
import ast
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
sys.path.insert(0, BENCH)

from harness.doc_sections import replace_section, write_result  # noqa: E402
from harness.machine import machine_line  # noqa: E402

PYTHON = sys.executable
EXT = sysconfig.get_config_var("EXT_SUFFIX")
PEERS = ["numba", "pythran", "cython", "mypyc"]
TITLES = {"cpython": "CPython", "kiln": "Kiln", "numba": "Numba", "pythran": "Pythran",
          "cython": "Cython", "mypyc": "mypyc"}

# name, entry function, arguments of the full run, of --quick, what it is
# (formatted with the arguments).
# `temporaries`: lists (dicts: `kind`) CPython builds and drops per call (the
# scenario rows). `known_wrong`: a peer's known wrong result, with its cause:
# recorded (the cell shows the cause), not a reason to stop the run.
# `known_failure`: the cause of a peer's known exception, added to its cell.
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


def tree_nodes(max_depth):
    """The Node objects binary_trees(max_depth) makes (and drops)."""
    max_depth = max(6, max_depth)
    count = (1 << (max_depth + 2)) - 1 + (1 << (max_depth + 1)) - 1
    for depth in range(4, max_depth + 1, 2):
        count += (1 << (max_depth - depth + 4)) * ((1 << (depth + 1)) - 1)
    return count


# The programs of `--suite classes` (issue 31): bench/class_programs/.
CLASS_PROGRAMS = [
    dict(name="binary_trees", entry="binary_trees", args=(14,), quick=(6,),
         label="binary-trees, max depth {0}",
         temporaries=lambda args: tree_nodes(args[0]), kind="Node objects"),
    dict(name="nbody", entry="nbody", args=(100_000,), quick=(1_000,),
         label="n-body, 5 Body instances, {0:,} steps"),
    dict(name="nbody_list", entry="nbody_list", args=(100_000,), quick=(1_000,),
         label="n-body, list[Body], {0:,} steps"),
    dict(name="linked_queue", entry="linked_queue", args=(300_000, 7), quick=(3_000, 7),
         label="linked queue and stack, {0:,} pushes",
         temporaries=lambda args: 2 * args[0], kind="Node objects"),
    dict(name="linked_deque", entry="linked_deque", args=(300_000, 7), quick=(3_000, 7),
         label="doubly linked deque (cycles), {0:,} pushes",
         temporaries=lambda args: args[0], kind="Node objects"),
    dict(name="vector_ops", entry="vector_ops", args=(320, 240), quick=(32, 24),
         label="Vec3 dataclass ray math, {0}x{1} rays",
         known_failure={"cython": "Cython 0.29 gives its compiled class no `__annotations__`, "
                                  "so @dataclass finds no fields and writes an `__init__` "
                                  "taking none"}),
    dict(name="richards", entry="richards", args=(3,), quick=(1,),
         label="pyperformance richards, {0} iterations"),
    dict(name="deltablue", entry="deltablue", args=(1_000,), quick=(100,),
         label="pyperformance deltablue, n = {0:,}"),
    dict(name="raytrace", entry="raytrace", args=(100, 100), quick=(20, 15),
         label="pyperformance raytrace, {0}x{1}"),
    dict(name="chaos", entry="chaos", args=(5_000, 256), quick=(500, 64),
         label="pyperformance chaos, {0:,} iterations"),
    dict(name="float_points", entry="float_points", args=(100_000,), quick=(2_000,),
         label="pyperformance float, {0:,} points"),
]


PROVISIONAL = ("**Provisional numbers**: measured on a busy machine (other builds and "
               "tests ran meanwhile; only the ratios within a round are comparable), to be "
               "re-run on an idle one.")


class NotBuilt(Exception):
    """An implementation that cannot run a program: the cell's text."""


# ----------------------------------------------------------------------------
# The variants: the program's text, mechanically adapted per compiler.

TOP_LEVEL = re.compile(r"^(def|class) (\w+)\b")


def decorated(text, decorator, names, header, classes=False):
    """`header` on top, `decorator` above each top-level def in `names`
    (None: all) and, with `classes`, above every top-level class (and its
    own decorators; a set: the classes named). Returns the text and, per
    line of it, the source's line."""
    out, origin = header.splitlines(), [0] * len(header.splitlines())
    pending = []                       # the decorator lines above a def or class
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("@"):
            pending.append((number, line))
            continue
        match = TOP_LEVEL.match(line)
        if match and ((match.group(1) == "class" and (
                classes is True or (classes and match.group(2) in classes))) or (
                match.group(1) == "def" and (names is None or match.group(2) in names))):
            out.append(decorator)
            origin.append(pending[0][0] if pending else number)
        for above in pending:
            out.append(above[1])
            origin.append(above[0])
        pending = []
        out.append(line)
        origin.append(number)
    return "\n".join(out) + "\n", origin


ANNOTATED_ASSIGNMENT = re.compile(r"^(\s+\w+): [^=\n]+ = ", re.M)


def variant(text, implementation, entry, suite):
    if implementation == "kiln":
        return decorated(text, "@kiln.export", {entry}, "import kiln  # added for Kiln\n",
                         classes=suite["export_classes"])
    if implementation == "numba":
        return jitclass_variant(text)
    if implementation == "pythran":
        text = ANNOTATED_ASSIGNMENT.sub(r"\1 = ", text)
    return text, list(range(1, text.count("\n") + 2))


# Numba's jitclass spec, written from a field's annotation.
NUMBA_SCALARS = {"int": "numba.int64", "float": "numba.float64", "bool": "numba.boolean"}


def numba_field_type(annotation, classes):
    """The jitclass spec type of an annotation (`_<C>_type`, the deferred
    type of the module's class C), or raises NotBuilt naming it."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    if isinstance(annotation, ast.Name) and annotation.id in NUMBA_SCALARS:
        return NUMBA_SCALARS[annotation.id]
    if isinstance(annotation, ast.Name) and annotation.id in classes:
        return f"_{annotation.id}_type"
    inner = None
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) \
            and annotation.value.id == "Optional":
        inner = annotation.slice
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr) and \
            isinstance(annotation.right, ast.Constant) and annotation.right.value is None:
        inner = annotation.left
    if inner is not None:
        return f"numba.optional({numba_field_type(inner, classes)})"
    raise NotBuilt(f"no jitclass field type written for `{ast.unparse(annotation)}`")


def jitclass_variant(text):
    """Numba: `@numba.njit` on every top-level function and
    `@jitclass(spec)` on every class, the spec written from the class-level
    field annotations (which are taken out of the class body: jitclass
    would evaluate them while the class is not yet bound; a `__slots__`
    goes too). Every class gets
    a `numba.deferred_type()`, defined after the class, so that fields can
    name classes (their own included). A `@dataclass` gets its `__init__`
    written out (jitclass does not run the dataclass decorator). A class
    jitclass cannot express (a base class, a field type without a Numba
    counterpart, a class-level default of a plain class) raises NotBuilt."""
    tree = ast.parse(text)
    lines = text.splitlines()
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    names = {node.name for node in classes}
    before, replace, after = {}, {}, {}      # line number -> lines to add / put instead
    for node in classes:
        bases = [ast.unparse(base) for base in node.bases]
        if [base for base in bases if base != "object"] or node.keywords:
            raise NotBuilt(f"jitclass has no inheritance (`class {node.name}"
                           f"({', '.join(bases)})`)")
    for node in classes:
        dataclass = False
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if ast.unparse(target) in ("dataclass", "dataclasses.dataclass"):
                dataclass = True
                for number in range(decorator.lineno, decorator.end_lineno + 1):
                    replace[number] = []
            else:
                raise NotBuilt(f"class {node.name}: decorator `@{ast.unparse(decorator)}`")
        spec, fields = [], []
        for statement in node.body:
            if isinstance(statement, ast.Assign) and [ast.unparse(t) for t in
                                                      statement.targets] == ["__slots__"]:
                # jitclass instances hold exactly the spec's fields already
                indent = lines[statement.lineno - 1][:statement.col_offset]
                replace[statement.lineno] = [indent + "pass"]
                for number in range(statement.lineno + 1, statement.end_lineno + 1):
                    replace[number] = []
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                name = statement.target.id
                spec.append(f"({name!r}, {numba_field_type(statement.annotation, names)})")
                if statement.value is not None and not dataclass:
                    raise NotBuilt(f"class {node.name}: class-level default of `{name}`")
                default = "" if statement.value is None else f"={ast.unparse(statement.value)}"
                fields.append((name, default))
                indent = lines[statement.lineno - 1][:statement.col_offset]
                replace[statement.lineno] = [indent + "pass"]
                for number in range(statement.lineno + 1, statement.end_lineno + 1):
                    replace[number] = []
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        before[first] = [f"@_jitclass([{', '.join(spec)}])"]
        generated = []
        if dataclass:
            indent = " " * (node.body[-1].col_offset)
            generated = [f"{indent}def __init__(self, "
                         + ", ".join(name + default for name, default in fields) + "):"]
            generated += [f"{indent}    self.{name} = {name}" for name, _ in fields]
        after[node.end_lineno] = generated + [
            f"_{node.name}_type.define({node.name}.class_type.instance_type)"]
    header = ["import numba  # added for Numba", "from numba.experimental import jitclass as "
              "_jitclass  # added for Numba"] + [
        f"_{node.name}_type = numba.deferred_type()  # added for Numba" for node in classes]
    out, origin = list(header), [0] * len(header)
    for number, line in enumerate(lines, 1):
        if number in before:
            out += before[number]
            origin += [number] * len(before[number])
        elif DEF_LINE.match(line):
            out.append("@numba.njit")
            origin.append(number)
        added = replace.get(number, [line])
        out += added
        origin += [number] * len(added)
        if number in after:
            out += after[number]
            origin += [number] * len(after[number])
    return "\n".join(out) + "\n", origin


DEF_LINE = re.compile(r"^def \w+\(")


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


MAX_REASONS = 6     # Kiln's fallback reasons shown in a cell's note


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
    fallbacks = report.get("fallbacks", [])
    if not compiled.get(program["entry"]):
        # The classes that stay Python first (the entry then names one of them).
        reasons = [f"line {origin[r['line'] - 1]}: {r['reason']}"
                   for r in fallbacks if r.get("kind") == "class"]
        reasons += [f"line {origin[r['line'] - 1]}: {r['reason']}"
                    for r in fallbacks if r.get("function") == program["entry"]
                    and r.get("kind") != "class"]
        if len(reasons) > MAX_REASONS:
            reasons[MAX_REASONS:] = [f"and {len(reasons) - MAX_REASONS} more reasons in "
                                     f"{module}.kiln.json"]
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


def build_all(programs, suite, workdir, frontend, log):
    """Every (program, implementation) built, two at a time: the module
    objects (or the NotBuilt reason) by [program name][implementation]."""
    jobs = []
    for program in programs:
        with open(os.path.join(suite["directory"], program["name"] + ".py"),
                  encoding="utf-8") as f:
            text = f.read()
        for implementation in suite["implementations"]:
            module = f"{program['name']}_{implementation}"
            directory = os.path.join(workdir, implementation, program["name"])
            os.makedirs(directory)
            try:
                source, origin = variant(text, implementation, program["entry"], suite)
            except NotBuilt as error:        # a program the compiler cannot express
                source, origin = text, error
            with open(os.path.join(directory, module + ".py"), "w", encoding="utf-8") as f:
                f.write(source)
            jobs.append((program, implementation, directory, module, origin))

    def build(job):
        program, implementation, directory, module, origin = job
        start = time.perf_counter()
        if isinstance(origin, NotBuilt):
            return (None, f"cannot be written for it: {origin}", 0.0)
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
                root = error      # an extension's SystemError wraps the exception it lost
                while root.__cause__ is not None:
                    root = root.__cause__
                first = str(root).strip().splitlines()
                reason = f"{type(root).__name__}: {first[0] if first else ''}"
                if root is not error:
                    reason += f" (raised as {type(error).__name__})"
                if implementation == "numba" and "Typing" in type(error).__name__:
                    lines = [line.strip() for line in
                             re.sub(r"\x1b\[[0-9;]*m", "", str(error)).splitlines()]
                    lines = [re.sub(r"location: \S*/", "location: ", line) for line in lines
                             if line and not line.startswith(("Failed in ", "- Resolution"))]
                    lines = [re.sub(r" at 0x[0-9a-f]+", "", line) for line in lines]
                    lines = [re.sub(r"#\d+|(?<=jitclass\.)(\w+?)[0-9a-f]{9,}(?=<)", r"\1",
                                    line) for line in lines]   # type ids, addresses
                    reason = "not compiled: " + (lines[0] if lines else type(error).__name__)
                    if lines and lines[0].startswith("No implementation of function"):
                        reason += " " + lines[1]
                        precise = [line for line in lines if line.startswith("non-precise")]
                        if precise:
                            reason += f" ({precise[0]})"
                cause = program.get("known_failure", {}).get(implementation)
                if cause:
                    reason += f" ({cause})"
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
        peers = {p: times[name][p] for p in implementations
                 if p not in ("cpython", "kiln") and p in times[name]}
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
    cython_version = ((cython.stdout + cython.stderr).split()[-1] if cython else "missing")
    return dict(machine=machine_line(),
                python=f"CPython {sys.version.split()[0]}", kiln=kiln,
                peers=f"Numba {version('numba')}, Pythran {version('pythran')}, "
                      f"Cython {cython_version}, mypyc {version('mypy.version')}")


# ----------------------------------------------------------------------------
# --suite classes: an exported class seen from Python (class_programs/boundary.py).

BOUNDARY_CASES = [
    # what, Kiln's statement, the reference, its statement, the target
    ("attribute read", "p.x", "`__slots__` class", "s.x", 1.2),
    ("attribute read", "p.x", "mypyc's native class", "m.x", None),
    ("attribute write", "p.x = 1.5", "`__slots__` class", "s.x = 1.5", None),
    ("attribute write", "p.x = 1.5", "mypyc's native class", "m.x = 1.5", None),
    ("method call", "p.norm2()", "compiled function", "point_norm2(p)", 1.2),
    ("method call", "p.norm2()", "`__slots__` class's method", "s.norm2()", None),
    ("method call", "p.norm2()", "mypyc's native class", "m.norm2()", None),
    ("construction", "Point(1.0, 2.0)", "`__slots__` class", "SlotsPoint(1.0, 2.0)", None),
    ("construction", "Point(1.0, 2.0)", "mypyc's native class", "MypycPoint(1.0, 2.0)", None),
]
UNROLL = 10     # statements per timeit loop iteration: the loop's own cost / 10


def boundary_report(workdir, frontend, repeats, log):
    """The table of BOUNDARY_CASES: nanoseconds per statement (each
    repeated UNROLL times in timeit's loop; the minimum over `repeats`
    rounds of >= 20 ms samples, the statements round-robin) and their
    ratio; or the reason Kiln does not build the class. mypyc's build of
    the same module gives the rows of its native class (left out, with
    the reason, when it fails)."""
    import timeit
    with open(os.path.join(BENCH, "class_programs", "boundary.py"), encoding="utf-8") as f:
        text = f.read()
    modules = {}
    for implementation in ("kiln", "mypyc"):
        directory = os.path.join(workdir, implementation, "boundary")
        os.makedirs(directory)
        source, origin = (decorated(text, "@kiln.export", {"point_norm2"},
                                    "import kiln  # added for Kiln\n", classes={"Point"})
                          if implementation == "kiln" else (text, None))
        with open(os.path.join(directory, f"boundary_{implementation}.py"), "w",
                  encoding="utf-8") as f:
            f.write(source)
        try:
            path = BUILDERS[implementation](directory, f"boundary_{implementation}",
                                            dict(entry="point_norm2"), origin, frontend)
            sys.path.insert(0, path)
            try:
                module = importlib.import_module(f"boundary_{implementation}")
            finally:
                sys.path.remove(path)
            if implementation == "kiln" and "__kiln_layout__" not in vars(module.Point):
                raise NotBuilt("`Point` is not a compiled class: " + (
                    "; ".join(r["reason"] for r in fallbacks_of(path, "boundary_kiln")
                              if r.get("kind") == "class") or "no reason"))
            modules[implementation] = module
        except NotBuilt as error:
            modules[implementation] = error
            log(f"  boundary, {implementation}: {error}")
    title = ("An exported class from Python (bench/class_programs/boundary.py: `Point`, "
             "compiled by Kiln, beside a `__slots__` class, a compiled function and mypyc's "
             "native class of the same source); ns per statement, best of the rounds:")
    if isinstance(modules["kiln"], NotBuilt):
        return f"{title}\n\n-- Kiln: {modules['kiln']}\n"
    module = modules["kiln"]
    names = dict(Point=module.Point, point_norm2=module.point_norm2,
                 SlotsPoint=module.SlotsPoint, p=module.Point(1.0, 2.0),
                 s=module.SlotsPoint(1.0, 2.0))
    if module.Point(1.0, 2.0).norm2() != 5.0 or module.point_norm2(names["p"]) != 5.0:
        return f"{title}\n\n-- Kiln: wrong result of `Point(1.0, 2.0).norm2()`\n"
    cases, notes = BOUNDARY_CASES, ""
    if isinstance(modules["mypyc"], NotBuilt):
        cases = [case for case in cases if not case[2].startswith("mypyc")]
        notes = f"\nmypyc's rows left out: {modules['mypyc']}\n"
    else:
        names.update(MypycPoint=modules["mypyc"].Point, m=modules["mypyc"].Point(1.0, 2.0))
    statements = sorted({case[1] for case in cases} | {case[3] for case in cases})
    timers = {stmt: timeit.Timer("; ".join([stmt] * UNROLL), globals=names)
              for stmt in statements}
    numbers = {}
    for stmt, timer in timers.items():
        number = 1
        while timer.timeit(number) < 0.02:
            number *= 2
        numbers[stmt] = number
    best = {stmt: float("inf") for stmt in statements}
    for _ in range(repeats):
        for stmt, timer in timers.items():
            best[stmt] = min(best[stmt], timer.timeit(numbers[stmt]) / numbers[stmt] / UNROLL)
    rows = ["| what | Kiln | ns | reference | ns | Kiln / reference | target |",
            "|---|---|---|---|---|---|---|"]
    for what, kiln_stmt, reference, reference_stmt, target in cases:
        kiln_ns, reference_ns = best[kiln_stmt] * 1e9, best[reference_stmt] * 1e9
        rows.append(f"| {what} | `{kiln_stmt}` | {kiln_ns:.1f} | {reference}: "
                    f"`{reference_stmt}` | {reference_ns:.1f} | {kiln_ns / reference_ns:.2f}x | "
                    + (f"<= {target}x" if target else "") + " |")
        log(f"  {what:16s} Kiln {kiln_ns:.1f} ns, {reference} {reference_ns:.1f} ns")
    return f"{title}\n\n" + "\n".join(rows) + "\n" + notes


def fallbacks_of(out, module):
    try:
        with open(os.path.join(out, module + ".kiln.json"), encoding="utf-8") as handle:
            return json.load(handle).get("fallbacks", [])
    except OSError:
        return []


CONTAINERS_INTRO = (
    "## Container-heavy programs\n\nGenerated by `bench/containers.py` "
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
    "dicts die by reference counting first.\n\n")

CLASSES_INTRO = (
    "## Programs built on classes\n\nGenerated by `bench/containers.py --suite classes` "
    "(issue 31; regenerate with `KILN_KILNC=build/bin/kilnc /usr/bin/python3 "
    "bench/containers.py --suite classes`, `--quick` for a smoke test that writes only "
    "build/bench/classes/classes.md): programs whose state lives in small classes (bench/class_programs/: "
    "binary-trees' `Node`, n-body with a `Body` class as five instances and as a "
    "`list[Body]`, a linked queue and stack, a doubly linked deque (its neighbours are "
    "reference cycles), a `@dataclass` Vec3 in ray-tracing math, and "
    "pyperformance's richards, deltablue, raytrace, chaos and float ported by adding "
    "annotations only), one "
    "module of annotated Python each, the same text for every implementation. Kiln: "
    "`@kiln.export` on every class and on the entry function. Numba: `@jitclass` with "
    "the spec written from the class-level annotations (`Optional[C]` as "
    "`optional(deferred_type)`; a dataclass's `__init__` written out), `@njit` on the "
    "functions; programs with inheritance are not expressible. Cython compiles the "
    "`.py` in pure-Python mode (its classes stay Python classes: no `cdef class` without "
    "Cython-specific declarations); mypyc makes its native classes from the "
    "annotations, and compiles only what mypy type-checks: the pyperformance ports keep "
    "their originals' idioms (an Optional read without a None test, class attributes set "
    "after the class), which it refuses. Pythran has no classes and is left out. Kiln compiles the first slice of "
    "issue 31 (fields of int, float, bool and instances, methods, dataclasses; no "
    "inheritance, no lists of instances, no str fields yet): the notes give its reasons for "
    "the programs it does not compile yet. Instances of Kiln's classes with a field of an "
    "instance type, and of mypyc's and Cython's classes, are tracked by CPython's cycle "
    "collector (Kiln's classes of numbers only are not), Numba's are not: a program keeping many "
    "objects alive (binary-trees) starts thousands of collections, which the harness keeps "
    "from traversing its own objects with `gc.freeze()` before timing. The second table: "
    "the costs of an exported class seen from Python.\n\n")

SUITES = {
    "containers": dict(directory=os.path.join(BENCH, "container_programs"),
                       programs=PROGRAMS, export_classes=False,
                       implementations=["cpython", "kiln"] + PEERS, intro=CONTAINERS_INTRO),
    "classes": dict(directory=os.path.join(BENCH, "class_programs"),
                    programs=CLASS_PROGRAMS, export_classes=True,
                    implementations=["cpython", "kiln", "numba", "cython", "mypyc"],
                    intro=CLASSES_INTRO),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="containers",
                        help="the programs: container_programs/ (default) or class_programs/")
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

    suite = SUITES[args.suite]
    programs = suite["programs"]
    if args.only:
        wanted = args.only.split(",")
        programs = [p for p in programs if p["name"] in wanted]
    if args.quick:
        programs = [dict(p, args=p["quick"]) for p in programs]
        args.repeats = min(args.repeats, 3)
    programs = [dict(p, label=p["label"].format(*p["args"])) for p in programs]
    implementations = suite["implementations"]
    ensure_packages(log, not args.no_install)
    workdir = os.path.join(REPO, "build", "bench", args.suite)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    log(f"building {len(programs)} programs x {len(implementations)} implementations "
        f"into {workdir} ...")
    built = build_all(programs, suite, workdir, args.frontend, log)
    log("checking results against CPython ...")
    functions = check(programs, built, args.keep_going, log)
    # The harness's own objects (the compilers' modules, Numba's types) out of
    # the collector's way: a collection a program starts traverses its objects.
    gc.collect()
    gc.freeze()
    log(f"timing, best of {args.repeats} rounds ...")
    times = time_all(programs, functions, args.repeats, log)
    log("CPython heap and collections per call ...")
    heaps = heap_all(programs, functions, build_counter(workdir))
    versions = dict(versions_of(args.frontend), provisional=args.provisional)
    text = report(programs, implementations, built, times, heaps, versions)
    if args.suite == "classes":
        log(f"exported classes from Python, best of {args.repeats} rounds ...")
        text += "\n" + boundary_report(workdir, args.frontend, args.repeats, log)
    print(text)
    with open(os.path.join(workdir, "results.json"), "w", encoding="utf-8") as handle:
        json.dump({"times": times, "heaps": heaps,
                   "not_run": {p: {i: str(m) for i, m in row.items() if isinstance(m, NotBuilt)}
                               for p, row in built.items()}}, handle, indent=1)
    if args.quick or args.only or os.path.abspath(args.frontend) != os.path.join(
            REPO, "python_frontend"):
        with open(os.path.join(workdir, args.suite + ".md"), "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    write_result(args.suite, text)
    marker = "bench/containers.py" + ("" if args.suite == "containers"
                                      else " --suite " + args.suite)
    begin, end = f"<!-- {marker}: begin -->", f"<!-- {marker}: end -->"
    replace_section(begin, end, f"{begin}\n{suite['intro']}{text}{end}")


if __name__ == "__main__":
    main()
