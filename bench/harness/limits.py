"""Physical limits measured in the same run: memory bandwidth (the peers'
STREAM-like stream.c, 1 and 2 threads) and FMA peak (the peers'
peakflops.c for 256-bit FMAs, bench/native/fma_peak_avx512.c for 512-bit
ones).

Bandwidth is measured twice, before and after the kernel timings, and the
better figure of the two is the limit: on a shared machine a single
measurement can land in a slow moment and make kernels look faster than
the memory. The 1-thread runs are pinned to the CPU the kernels run on."""

import json
import os
import subprocess


def run_json(command, cpu=None, timeout=600):
    env = dict(os.environ, OMP_PROC_BIND="spread")
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                            check=True, preexec_fn=pin)
    return json.loads(result.stdout)


def bandwidth_runs(build, cpu, log):
    """{probe: {"op@threads": GB/s}} and each probe's array size."""
    measured, sizes, errors = {}, {}, {}
    for name in sorted(key for key in build.probes if key.startswith("stream")):
        try:
            log(f"STREAM bandwidth, {name} (1 thread on CPU {cpu}, then 2 threads) ...")
            rows = {}
            for threads, pinned in ((1, cpu), (2, None)):
                output = run_json([build.probes[name], str(threads)], cpu=pinned)
                sizes[name] = output["array_bytes"]
                rows.update({f"{row['op']}@{row['threads']}": row["GBps"]
                             for row in output["results"]})
            measured[name] = rows
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            errors[name] = repr(error)
    return measured, sizes, errors


def measure_peaks(build, log):
    peaks, errors = {}, {}
    for key, probe, label in (("peak_ymm", "peakflops", "256-bit, peers' peakflops"),
                              ("peak_zmm", "fma_peak_avx512", "512-bit")):
        try:
            log(f"FMA peak ({label}) ...")
            peaks[key] = run_json([build.probes[probe]])
        except (KeyError, OSError, ValueError, subprocess.SubprocessError) as error:
            errors[key] = repr(error)
    return peaks, errors


def combine(before, after):
    """The limit: per STREAM probe and operation, the better of the two runs."""
    combined = {}
    for name in set(before) | set(after):
        first, second = before.get(name, {}), after.get(name, {})
        combined[name] = {key: max(first.get(key, 0.0), second.get(key, 0.0))
                          for key in set(first) | set(second)}
    return combined


def bandwidth(limits, operation, threads=1):
    return limits.get("stream", {}).get(f"{operation}@{threads}")
