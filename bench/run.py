#!/usr/bin/python3
"""Kiln's performance suite, in one run (see docs/performance.md):

    /usr/bin/python3 bench/run.py            # full run, ~10 min: bench/results/latest.{json,md},
                                             # docs/performance.md and its plots
    /usr/bin/python3 bench/run.py --quick    # smoke test, ~1 min: tiny sizes, few repeats,
                                             # written under build/bench/quick/
    /usr/bin/python3 bench/run.py --report-only bench/results/latest.json   # redo the report

`sh bench/run.sh` builds Kiln first. Builds go to build/bench/. This is a
benchmark, not a test: nothing in .ci/ runs it."""

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import layout  # noqa: E402
from harness.cases import KERNELS, KiB, MiB  # noqa: E402

STARTED = time.time()


def log(message):
    print(f"[{time.time() - STARTED:6.1f}s] {message}", flush=True)


@dataclass
class Settings:
    quick: bool = False
    kernels: tuple = KERNELS
    tiers: tuple = ("L1", "L2", "DRAM")
    # L1 is 48 KiB and L2 1 MiB here. getconf's last level (508 MiB) is the
    # socket's; one core sees far less (STREAM with 32 MiB arrays still runs
    # partly from cache), so the DRAM size is 256 MiB.
    working_sets: dict = field(default_factory=lambda: {"L1": 16 * KiB, "L2": 256 * KiB,
                                                        "DRAM": 256 * MiB})
    repeats: int = 9
    target_seconds: float = 0.01
    cpython_repeats: int = 3
    cpython_budget_seconds: float = 0.25
    call_repeats: int = 5
    compile_repeats: int = 3
    cache_repeats: int = 5
    compile_functions: tuple = ("add", "dot", "mandelbrot")
    first_call_functions: tuple = ("dot", "mandelbrot")
    batch_elements: int = 100_000
    thread_calls: int = 4
    thread_repeats: int = 5
    # bytes per STREAM array: the limit, and a size the last level still partly holds
    stream_sizes: dict = field(default_factory=lambda: {"stream": 256 * MiB,
                                                        "stream_cached": 8 * MiB})
    keep_going: bool = False


QUICK = dict(quick=True, tiers=("L1", "L2"), repeats=3, target_seconds=0.002, cpython_repeats=1,
             cpython_budget_seconds=0.02, call_repeats=3, compile_repeats=1, cache_repeats=1,
             compile_functions=("dot",), first_call_functions=("dot",), thread_calls=1,
             batch_elements=10_000,
             thread_repeats=1, stream_sizes={"stream": 32 * MiB})


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes and few repeats")
    parser.add_argument("--out", help="where docs/performance.md and its plots go "
                        "(default: docs/, or build/bench/quick/ with --quick)")
    parser.add_argument("--results", help="where latest.json and latest.md go "
                        "(default: bench/results/, or build/bench/quick/ with --quick)")
    parser.add_argument("--kernels", help="comma-separated subset of the kernels")
    parser.add_argument("--keep-going", action="store_true",
                        help="record a mismatching implementation and go on without it "
                        "(default: stop the run)")
    parser.add_argument("--max-wait", type=float, default=1800,
                        help="seconds to wait for running builds (ninja, make) to end "
                        "before timing (default 1800)")
    parser.add_argument("--report-only", metavar="JSON",
                        help="write the report from an earlier run's JSON and stop")
    return parser.parse_args()


def output_directories(args):
    quick_dir = layout.build_path("quick")
    docs = args.out or (quick_dir if args.quick else os.path.join(layout.REPO, "docs"))
    results = args.results or (quick_dir if args.quick else os.path.join(layout.BENCH, "results"))
    os.makedirs(docs, exist_ok=True)
    os.makedirs(results, exist_ok=True)
    return docs, results


def command_line(args):
    shown = ["/usr/bin/python3", "bench/run.py"]
    if args.quick:
        shown.append("--quick")
    if args.kernels:
        shown.append(f"--kernels {args.kernels}")
    return " ".join(shown)


def measure(settings, args):
    import importlib.util
    if importlib.util.find_spec("numpy") is None:
        raise SystemExit("numpy is missing: sh scripts/setup.sh installs it")

    from harness import (batching, builds, calls, codeshape, compile_times, implementations,
                         kernels_bench, limits, machine, threads)

    results = {"schema": "kiln-bench/1", "command": command_line(args),
               "started": time.strftime("%Y-%m-%d %H:%M:%S"), "settings": asdict(settings),
               "machine": machine.describe()}
    build = builds.build_all(log, settings.stream_sizes)
    results["build"] = {"seconds": build.seconds, "errors": build.errors, "notes": build.notes}
    log("loading the implementations (Numba imports) ...")
    found, failures, modules = implementations.available(build, log)
    results["unavailable"] = failures
    quiet = results["quiet"] = {}
    allowed = sorted(os.sched_getaffinity(0))
    kernel_cpu = allowed[-1]

    attempts = results["attempts"] = {}

    def quietly(label, measure):
        value, attempts[label] = machine.measure_quietly(label, measure, log, args.max_wait)
        return value

    quiet["start"] = machine.wait_until_quiet(log, args.max_wait)
    limits_before, stream_sizes, stream_errors = quietly(
        "STREAM", lambda: limits.bandwidth_runs(build, kernel_cpu, log))
    peaks, peak_errors = quietly("FMA peak", lambda: limits.measure_peaks(build, log))
    log("two threads against one ...")
    results["threads"] = quietly("two threads",
                                 lambda: threads.measure(found, modules, settings, log))

    machine.pin_to(kernel_cpu)
    results["pinned_cpu"] = kernel_cpu
    guard = machine.BuildGuard(log, args.max_wait)
    try:
        log(f"kernels, pinned to CPU {kernel_cpu} ...")
        results["kernels"] = kernels_bench.bench_kernels(found, settings, log, guard)
        log("call overhead ...")
        results["calls"] = quietly("call overhead",
                                   lambda: calls.measure(build, found, modules, settings, log))
        log("batching: one call per element against one per array ...")
        results["batching"] = quietly("batching",
                                      lambda: batching.measure(modules, settings, log))
    finally:
        machine.unpin(allowed)
    quiet["paused_during_kernels_s"] = round(guard.paused_seconds, 1)
    quiet["kernel_cases_measured_again"] = guard.repeated
    limits_after, _, more_errors = quietly(
        "STREAM again", lambda: limits.bandwidth_runs(build, kernel_cpu, log))
    stream_runs = limits.combine(limits_before, limits_after)
    results["limits"] = dict(
        peaks, stream_array_bytes=stream_sizes, stream_before=limits_before,
        stream_after=limits_after, stream_runs=stream_runs, stream=stream_runs.get("stream", {}),
        errors={**stream_errors, **more_errors, **peak_errors},
        fma_f64_gflops_1core=max(peaks.get("peak_ymm", {}).get("fma_f64_gflops_1core", 0.0),
                                 peaks.get("peak_zmm", {}).get("zmm_f64_gflops_1core", 0.0))
        or None)
    numba_compiles = {}
    for key in ("numba", "numba_fastmath"):
        if key in found:
            numba_compiles.update({f"{key}:{kernel}": seconds for kernel, seconds
                                   in found[key].compile_seconds.items()})
    results["compile"] = quietly(
        "compile times", lambda: compile_times.measure(build, settings, numba_compiles, log))
    results["waited_seconds"] = round(machine.total_wait_seconds(), 1)
    results["code_shape"] = codeshape.describe(build, settings.kernels)
    results["loop_verdicts"] = codeshape.loop_verdicts(build)
    results["wall_seconds"] = round(time.time() - STARTED, 1)
    return results


def main():
    args = parse_arguments()
    from harness import report

    docs, results_dir = output_directories(args)
    if args.report_only:
        with open(args.report_only, encoding="utf-8") as handle:
            results = json.load(handle)
    else:
        settings = Settings(**QUICK) if args.quick else Settings()
        if args.kernels:
            unknown = set(args.kernels.split(",")) - set(KERNELS)
            if unknown:
                raise SystemExit(f"unknown kernels: {', '.join(sorted(unknown))}")
            settings.kernels = tuple(k for k in KERNELS if k in args.kernels.split(","))
        settings.keep_going = args.keep_going
        try:
            results = measure(settings, args)
        except Exception as error:  # noqa: BLE001 - say loudly what stopped the run
            from harness.builds import BuildError
            from harness.kernels_bench import MismatchError
            if isinstance(error, (BuildError, MismatchError)):
                log(f"FAILED: {error}")
                return 1
            raise
        path = os.path.join(results_dir, "latest.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1, default=float)
        log(f"wrote {path}")
    report.write(results, docs, results_dir, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
