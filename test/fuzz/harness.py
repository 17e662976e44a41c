"""Build generated programs, run them natively and under the oracle, classify.

Classes of result (docs/fuzzing.md):

* ``mismatch``   -- a return value, exception type or array argument differs;
* ``crash``      -- the native call died by a signal or hung (worker restarts);
* ``build``      -- `kiln build` failed: kilnc rejected the MLIR or crashed, or
                    the frontend had an internal error. A module that fails is
                    rebuilt program by program to attribute the failure;
* ``fallback``   -- a function the generator believes is in the documented
                    subset stayed Python (counted, reasons grouped, reported);
* ``message``    -- same exception type, different message (a warning count);
* ``discarded``  -- inputs outside the documented domain (semantics.py).
"""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field

from . import generator, inputs
from .compare import compare, outcome_key
from .instances import canonical
from .oracle import OracleModule
from .semantics import OracleTimeout, OutsideDomain
from .worker import Worker

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONTEND = os.path.join(REPO, "python_frontend")
FAILING = ("mismatch", "crash", "build")


@dataclass
class BuildOutcome:
    status: str             # ok | rejected | build
    detail: str = ""
    record: dict = None
    outdir: str = ""


@dataclass
class Failure:
    cls: str                # mismatch | crash | build | fallback
    seed: int
    index: int
    function: str
    source: str             # the module source of this program alone
    detail: str
    key: tuple
    recipe: dict = None
    input_index: int = -1
    repro: str = ""
    tolerant: bool = False
    reduced_source: str = ""


@dataclass
class Report:
    seed: int
    count: int = 0
    calls: int = 0
    compared: int = 0
    discarded: int = 0
    discard_reasons: collections.Counter = field(default_factory=collections.Counter)
    counts: collections.Counter = field(default_factory=collections.Counter)
    failures: list = field(default_factory=list)
    fallback_reasons: collections.Counter = field(default_factory=collections.Counter)
    messages: collections.Counter = field(default_factory=collections.Counter)
    message_examples: dict = field(default_factory=dict)    # detail -> first function
    known: collections.Counter = field(default_factory=collections.Counter)
    seconds: dict = field(default_factory=lambda: collections.defaultdict(float))

    def summary(self):
        lines = [f"seed {self.seed}: {self.count} functions, {self.calls} calls "
                 f"({self.compared} compared, {self.discarded} discarded as outside the "
                 "documented domain)"]
        for cls in ("mismatch", "crash", "build", "known", "fallback", "message", "inexact",
                    "compiled", "module_builds", "bisected"):
            lines.append(f"  {cls:14} {self.counts.get(cls, 0)}")
        lines.append("  time: " + ", ".join(f"{k} {v:.1f} s" for k, v in self.seconds.items()))
        return "\n".join(lines)


def kiln_build(path, outdir, timeout=600):
    env = dict(os.environ, PYTHONPATH=FRONTEND)
    env.pop("KILN_DISABLE", None)
    command = [sys.executable, "-m", "kiln", "build", path, "-o", outdir]
    # One version, for this machine (as the test suite's conftest): a
    # portable build would lower every program three times.
    command.append(f"--target-cpu={os.environ.get('KILN_TEST_TARGET_CPU', 'native')}")
    try:
        result = subprocess.run(command, capture_output=True, text=True, env=env,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return BuildOutcome("build", f"kiln build hung (> {timeout} s)")
    if result.returncode < 0:
        return BuildOutcome("build", f"kiln build killed by signal {-result.returncode}: "
                                     f"{result.stderr[-2000:]}")
    if result.returncode != 0:
        text = result.stderr.strip()
        if "cannot compile" in text and "kilnc failed" not in text:
            return BuildOutcome("rejected", text)
        return BuildOutcome("build", text[-4000:])
    name = os.path.splitext(os.path.basename(path))[0]
    with open(os.path.join(outdir, f"{name}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    problem = load_problem(outdir, name, env)
    if problem:
        return BuildOutcome("build", problem)
    return BuildOutcome("ok", result.stderr, record, outdir)


LOADER = """
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("kiln_fuzz_load_check", os.path.join(*sys.argv[1:]))
module = importlib.util.module_from_spec(spec)
# as an import does: a dataclass that stays Python resolves its string
# annotations through sys.modules[its __module__]
sys.modules[spec.name] = module
spec.loader.exec_module(module)
"""


def load_problem(outdir, name, env):
    """Why the built module cannot be imported (an extension with an
    undefined symbol, ...), or "": a build failure, not a crash of every
    call."""
    try:
        result = subprocess.run([sys.executable, "-c", LOADER, outdir, f"{name}.py"],
                                capture_output=True, text=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        return "error: the built module does not load: importing it hung (> 120 s)"
    if result.returncode == 0:
        return ""
    last = (result.stderr.strip().splitlines() or ["?"])[-1]
    last = re.sub(r"/\S+: ", "", last)       # paths differ from build to build
    return f"error: the built module does not load: {last}"


def build_key(detail):
    """A coarse signature of a build failure, for grouping and reduction."""
    if "internal compiler error" in detail:
        text = detail.split("internal compiler error", 1)[1]
        text = text.split("; its MLIR is in")[0]
        return ("build", text.split("'")[0][:80])
    for line in detail.splitlines():
        if "the built module does not load" in line:
            return ("build", line.split("error:", 1)[1].strip()[:120])
        if "error:" in line and "kiln: error: kilnc failed" not in line:
            text = line.split("error:", 1)[1].strip()
            return ("build", text.split("'")[0][:60])
    return ("build", detail.splitlines()[0][:60] if detail else "?")


def fallback_functions(record):
    out = {}
    for f in record.get("fallbacks", []):
        if f.get("kind") == "function":
            out.setdefault(f["function"], []).append(f["reason"])
    return out


def vectorized_functions(record):
    return {f["name"] for f in record.get("functions", [])
            if any(loop.get("vectorized") for loop in f.get("loops", []))}


class Runner:
    """Runs (program, built module) pairs and collects a Report."""

    def __init__(self, workdir, report, log=None, timeout=10.0, avoid=()):
        self.workdir = workdir
        self.report = report
        self.log = log or (lambda text: None)
        self.timeout = timeout
        # build failures of known defects the generator was told to avoid but
        # cannot leave out entirely (their signature is unmistakable)
        self.known = {switch: generator.KNOWN_DEFECT_SIGNATURES[switch] for switch in avoid
                      if switch in generator.KNOWN_DEFECT_SIGNATURES}

    def build(self, programs, name):
        path = os.path.join(self.workdir, f"{name}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(generator.module_source(programs))
        started = time.monotonic()
        outcome = kiln_build(path, os.path.join(self.workdir, name))
        self.report.seconds["build"] += time.monotonic() - started
        return outcome

    def run_batch(self, programs, name):
        self.report.counts["module_builds"] += 1
        outcome = self.build(programs, name)
        if outcome.status == "ok":
            self.test_module(programs, name, outcome)
            return
        if len(programs) == 1:
            self.build_failed(programs[0], outcome)
            return
        # attribute the failure: rebuild the programs one by one
        self.log(f"{name}: module build failed ({outcome.detail.splitlines()[-1][:100]}); "
                 "rebuilding its functions one by one")
        for program in programs:
            self.report.counts["bisected"] += 1
            self.run_batch([program], f"{name}_{program.index}")

    def build_failed(self, program, outcome):
        if outcome.status == "rejected":
            self.report.counts["fallback"] += 1
            reasons = [line.split("warning: ", 1)[1] for line in outcome.detail.splitlines()
                       if "warning: " in line]
            reason = reasons[0] if reasons else outcome.detail.splitlines()[-1]
            self.report.fallback_reasons[normalize_reason(reason)] += 1
            return
        known = [switch for switch, text in self.known.items() if text in outcome.detail]
        if known:
            self.report.counts["known"] += 1
            self.report.known[known[0]] += 1
            self.log(f"known defect {known[0]} (avoided, not failing): {program.main.name}")
            return
        self.report.counts["build"] += 1
        self.report.failures.append(Failure(
            "build", program.seed, program.index, program.main.name,
            generator.module_source([program]), outcome.detail, build_key(outcome.detail)))

    def test_module(self, programs, name, outcome):
        record = outcome.record
        fallbacks = fallback_functions(record)
        vectorized = vectorized_functions(record)
        source = generator.module_source(programs)
        try:
            oracle = OracleModule(source, f"{name}.py")
        except Exception as error:  # noqa: BLE001
            raise RuntimeError(f"oracle cannot load generated module {name}: {error}")
        worker = Worker(outcome.outdir, name, self.timeout)
        try:
            for program in programs:
                self.report.count += 1
                main = program.main.name
                ice = [r for f in program.functions() for r in fallbacks.get(f.name, [])
                       if "internal compiler error" in r]
                if ice:
                    # kilnc rejected the MLIR (or crashed) and the frontend
                    # kept the function as Python: a build failure, not a fallback
                    self.report.counts["build"] += 1
                    self.report.failures.append(Failure(
                        "build", program.seed, program.index, main,
                        generator.module_source([program]), ice[0], build_key(ice[0])))
                    self.log(f"build: {main}: {ice[0][:200]}")
                    continue
                if main in fallbacks:
                    self.report.counts["fallback"] += 1
                    for reason in fallbacks[main]:
                        self.report.fallback_reasons[normalize_reason(reason)] += 1
                    continue
                self.report.counts["compiled"] += 1
                # libmvec in vectorized loops may differ from libm in the
                # last bits (docs/language.md); scalar code must be exact
                tolerant = getattr(program.main, "uses_transcendental", False) and bool(
                    vectorized & {f.name for f in program.functions()})
                if tolerant:
                    # in ulps of float32 when float32 values may carry the error
                    text = program.source()
                    tolerant = "f32" if ("f32" in text or "float32" in text) else "f64"
                self.test_program(program, oracle, worker, tolerant)
        finally:
            worker.close()

    def test_program(self, program, oracle, worker, tolerant):
        main = program.main
        for k in range(inputs.PER_FUNCTION):
            recipe = inputs.make_recipe(program.seed, program.index, main.params, k)
            self.report.calls += 1
            # An IndexError from any boundscheck=False function it calls
            # (exported helpers may be unchecked) has no defined result.
            unchecked = any(f.unchecked for f in program.functions())
            verdict = run_one(oracle, worker, main.name, recipe, tolerant, self.report,
                              unchecked=unchecked,
                              parallel=any(runs_in_parallel(f.source)
                                           for f in program.functions()))
            if verdict is None:
                self.report.discarded += 1
                continue
            self.report.compared += 1
            cls, detail, key = verdict
            if cls == "message":
                self.report.counts["message"] += 1
                self.report.messages[detail] += 1
                self.report.message_examples.setdefault(detail, f"{main.name} (program "
                                                                f"{program.index}, input {k})")
                continue
            if cls == "inexact":
                self.report.counts["inexact"] += 1
                continue
            if cls in FAILING:
                self.report.counts[cls] += 1
                self.report.failures.append(Failure(
                    cls, program.seed, program.index, main.name,
                    generator.module_source([program]), detail, key, recipe, k,
                    tolerant=tolerant))
                self.log(f"{cls}: {main.name} input {k}: {detail[:200]}")
                return


def normalize_reason(reason):
    import re
    return re.sub(r"`[^`]*`", "`…`", reason)[:160]


# A kiln.prange loop that raises has run its other blocks' iterations too
# (docs/language.md, "Parallel loops"): the arrays it wrote are unspecified
# then, the exception is not.
PRANGE = "kiln.prange("
PARALLEL_OPTION = "parallel=True"


def runs_in_parallel(source: str) -> bool:
    """Whether a function of `source` may run iterations on several threads
    (a prange loop, or parallel=True's loops): then a raising call's other
    iterations may have written their elements, and only the exception is
    compared."""
    return PRANGE in source or PARALLEL_OPTION in source


def run_one(oracle, worker, function, recipe, tolerant, report=None, unchecked=False,
            parallel=False):
    """(class, detail, key) for one call, or None when discarded. `parallel`:
    the program has a prange loop (arrays after an exception are not
    compared)."""
    started = time.monotonic()
    try:
        args, bases = inputs.realize(recipe, oracle.make_instance)
        expected = oracle.call(function, args)
        if unchecked and expected[0] == "raise" and "IndexError" in (
                expected[1], getattr(oracle, "body_error", None)):
            # boundscheck=False: an index out of bounds is the user's error,
            # with no defined result (the compiled call is never made)
            raise OutsideDomain("IndexError under boundscheck=False")
    except (OutsideDomain, OracleTimeout) as error:
        if report is not None:
            report.discard_reasons[str(error)[:80] or type(error).__name__] += 1
        return None
    finally:
        if report is not None:
            report.seconds["oracle"] += time.monotonic() - started
    started = time.monotonic()
    got, got_bases = worker.call(function, recipe)
    if report is not None:
        report.seconds["native"] += time.monotonic() - started
    if got == "crash":
        return "crash", got_bases_reason(got_bases), ("crash",)
    if got[0] == "crash":
        return "crash", got[1], ("crash", got[1].split(" (")[0])
    if got[0] == "leak":
        return "mismatch", got[1], ("mismatch", "reference counts")
    # the instances described as the worker describes its own (one
    # numbering for the result, then the arguments: sharing is compared)
    seen = {}
    if expected[0] == "ok":
        expected = ("ok", canonical(expected[1], seen))
    bases = [canonical(b, seen) for b in bases]
    if parallel and expected[0] == "raise":
        bases, got_bases = [], []
    if parallel and got[0] == "raise" and got[1] == "ValueError" and \
            "shares memory with another array it reads" in got[2]:
        # Kiln refuses a prange loop over overlapping arrays (the oracle runs
        # it in order): outside the documented domain.
        if report is not None:
            report.discard_reasons["kiln.prange over overlapping arrays"] += 1
        return None
    verdict, detail = compare(expected, got, bases, got_bases, tolerant)
    if verdict == "same":
        return "same", "", ("same",)
    if verdict in ("message", "inexact"):
        return verdict, detail, (verdict,)
    return "mismatch", detail, ("mismatch", outcome_key(expected), outcome_key(got),
                                "arrays" if detail.startswith("array") else "")


def got_bases_reason(x):
    return str(x)


def run_campaign(seed, count, workdir, config=None, per_module=25, log=print,
                 reduce=True, reduce_budget=120.0, max_reduce=None, repro_dir=None):
    config = config or generator.Config()
    report = Report(seed)
    os.makedirs(workdir, exist_ok=True)
    runner = Runner(workdir, report, log, avoid=config.avoid)
    campaign_start = started = time.monotonic()
    programs = [generator.generate_program(seed, i, config) for i in range(count)]
    report.seconds["generate"] = time.monotonic() - started
    for start in range(0, count, per_module):
        batch = programs[start:start + per_module]
        runner.run_batch(batch, f"fz_{seed}_{start}")
        # progress, so that a campaign stopped early still has its numbers
        log(f"progress: {start + len(batch)} of {count} functions, {report.calls} calls "
            f"({report.compared} compared, {report.discarded} discarded), " + ", ".join(
                f"{c} {report.counts.get(c, 0)}" for c in ("mismatch", "crash", "build",
                                                           "fallback", "message")))
    if reduce and report.failures:
        from .reducer import reduce_failure, write_repro
        started = time.monotonic()
        groups = {}
        for failure in report.failures:
            groups.setdefault(failure.key, []).append(failure)
        chosen = [min(g, key=lambda f: len(f.source)) for g in groups.values()]
        if max_reduce is not None:
            chosen = chosen[:max_reduce]
        for failure in chosen:
            reduce_failure(failure, os.path.join(workdir, "reduce"), reduce_budget, log)
            if repro_dir:
                write_repro(failure, repro_dir)
        report.seconds["reduce"] = time.monotonic() - started
    report.seconds["total"] = time.monotonic() - campaign_start
    return report
