"""The kernel table: for each kernel and size, check every implementation,
then time them side by side. CPython is timed apart (a round-robin with a
thousand-times-slower member would take minutes) and only while a call is
cheap; past that its time is scaled by the work from the largest size it
ran at, and marked as scaled."""

import time

from . import cases as kc
from .checks import check_case, same_algorithm
from .timing import batch_size, side_by_side


class MismatchError(RuntimeError):
    pass


def work_rate(case, seconds):
    if case.flops:
        return {"gflops": case.flops / seconds / 1e9}
    if case.bytes_moved:
        return {"gbytes_per_s": case.bytes_moved / seconds / 1e9}
    return {}


def time_cpython(runner, target_seconds, repeats):
    calls = batch_size(runner, target_seconds, max_calls=1 << 12)
    values = sorted(runner.seconds_per_call(calls) for _ in range(repeats))
    return {"seconds": values[0], "median_seconds": values[len(values) // 2],
            "repeats": repeats, "calls_per_batch": calls}


def run_case(case, implementations, settings, cpython_anchor, log):
    record = {"kernel": case.kernel, "tier": case.tier, "size": case.size,
              "working_set_bytes": case.working_set, "limit": case.limit, "results": {},
              "failures": {}, "notes": {}}
    runners, outputs = {}, {}
    for key, implementation in implementations.items():
        if key == "cpython":
            continue
        try:
            runner = implementation.runner(case)
            outputs[key] = runner.once()
            runners[key] = runner
        except Exception as error:  # noqa: BLE001 - recorded; a Kiln failure stops the run below
            record["failures"][key] = f"{type(error).__name__}: {error}"[:300]
    for key in ("kiln", "numpy"):
        if key in record["failures"]:
            raise MismatchError(f"{case.kernel} [{case.size}]: {key} failed: "
                                f"{record['failures'][key]}")
    if case.kernel == "mandelbrot":
        kc.account_mandelbrot(case, outputs["kiln"])
        record["iterations"] = case.extra["iterations"]
    problems = check_case(case, outputs, implementations)

    cpython = implementations.get("cpython")
    if cpython is not None:
        predicted = (cpython_anchor["seconds"] * case.work_units / cpython_anchor["work_units"]
                     if cpython_anchor else 0.0)
        if predicted <= settings.cpython_budget_seconds:
            runner = cpython.runner(case)
            got = runner.once()
            if not same_algorithm(case, got, outputs["kiln"]):
                problems.append(("kiln", "differs from CPython running the same algorithm"))
            else:
                measured = time_cpython(runner, settings.target_seconds, settings.cpython_repeats)
                record["results"]["cpython"] = dict(measured, scaled=False)
                cpython_anchor = {"seconds": measured["seconds"], "work_units": case.work_units,
                                  "size": case.size}
        else:
            record["results"]["cpython"] = {
                "seconds": predicted, "scaled": True, "scaled_from": cpython_anchor["size"],
                "repeats": settings.cpython_repeats}

    for key, message in problems:
        record["failures"][key] = "MISMATCH: " + message
        runners.pop(key, None)
        log(f"  !! {case.kernel} [{case.size}] {key}: {message}")
    if problems and not settings.keep_going:
        raise MismatchError(f"{case.kernel} [{case.size}]: " + "; ".join(
            f"{key}: {message}" for key, message in problems))

    record["results"].update(side_by_side(runners, settings.repeats, settings.target_seconds))
    for key, result in record["results"].items():
        result.update(work_rate(case, result["seconds"]))
    record["bytes_moved"], record["flops"] = case.bytes_moved, case.flops
    return record, cpython_anchor


def bench_kernels(implementations, settings, log, guard):
    records = []
    for kernel in settings.kernels:
        cpython_anchor = None
        for tier in settings.tiers:
            start = time.perf_counter()
            for attempt in range(2):
                guard.before_case()
                case = kc.make_case(kernel, tier, settings.working_sets)
                record, anchor = run_case(case, implementations, settings, cpython_anchor, log)
                del case  # the DRAM-sized inputs go before the next case allocates its own
                if attempt == 1 or not guard.disturbed(f"{kernel} [{tier}]"):
                    break
            cpython_anchor = anchor
            record["wall_seconds"] = round(time.perf_counter() - start, 2)
            records.append(record)
            results = record["results"]
            shown = "  ".join(f"{key}={results[key]['seconds'] * 1e6:.3g}"
                              for key in ("c_strict", "kiln", "kiln_c_abi", "numba", "cython")
                              if key in results)
            log(f"{kernel:<11} {tier:<4} {record['size']:<24} us: {shown}")
    return records
