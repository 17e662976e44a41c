"""Turns a run's JSON into docs/performance.md (with its PNG plots) and
bench/results/latest.md (the tables alone). Everything here is derived
from the JSON, so `run.py --report-only` rebuilds the report of any run."""

import os

from . import findings
from .cases import COMPUTE_BOUND, KiB, MiB, STREAMING

COLUMNS = [  # implementation, column title
    ("c_strict", "C -O3 -march=native"), ("c_fast", "C -ffast-math"),
    ("c_exact", "C -ffp-contract=off"), ("kiln", "Kiln"),
    ("kiln_c_abi", "Kiln C ABI, timed in C"), ("kiln_nocheck", "Kiln boundscheck=False"),
    ("kiln_fastmath", "Kiln fastmath=True"),
    ("numba", "Numba"), ("numba_fastmath", "Numba fastmath"), ("pythran", "Pythran"),
    ("cython", "Cython"), ("numpy", "numpy"), ("cpython", "CPython"),
]
PEERS = ("numba", "numba_fastmath", "pythran", "cython", "numpy")
RATIO_COLUMNS = [("c_strict", "C"), ("c_fast", "C -ffast-math"), ("c_exact", "C no-contract"),
                 ("numba", "Numba"),
                 ("numba_fastmath", "Numba fastmath"), ("pythran", "Pythran"),
                 ("cython", "Cython"), ("numpy", "numpy"), ("cpython", "CPython")]
SHORT_OF_C = 0.9
TIER_TITLES = {"L1": "L1", "L2": "L2", "DRAM": "DRAM"}


def microseconds(seconds):
    value = seconds * 1e6
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def ratio_text(value):
    if value is None:
        return "–"
    text = f"{value:,.0f}" if value >= 100 else (f"{value:.1f}" if value >= 10 else f"{value:.2f}")
    return f"**{text}**" if value < SHORT_OF_C else text


def size_text(nbytes):
    if nbytes >= MiB:
        return f"{nbytes / MiB:.0f} MiB"
    return f"{nbytes / KiB:.0f} KiB" if nbytes >= KiB else f"{nbytes} B"


def seconds_of(record, key):
    result = record["results"].get(key)
    return result["seconds"] if result else None


def speed_ratio(record, other, mine="kiln"):
    """Kiln's speed relative to `other`: time(other) / time(Kiln); above 1
    Kiln is faster."""
    a, b = seconds_of(record, other), seconds_of(record, mine)
    return a / b if a and b else None


def best_peer(record):
    timed = [(seconds_of(record, key), key) for key in PEERS if seconds_of(record, key)]
    return min(timed) if timed else (None, None)


def label_of(key):
    return dict(COLUMNS).get(key, key)


def table(header, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


# ------------------------------------------------------------------ sections
def machine_section(results):
    m = results["machine"]
    isa = m["isa"]
    caches = m["caches"]
    software = m["software"]
    flags = ", ".join(name for name, present in isa.items() if present)
    l3 = caches.get("LEVEL3_CACHE_SIZE")
    lines = [
        "## Machine",
        "",
        f"- CPU: {m['cpu_model']} (family {m['cpu_family']}, model {m['cpu_model_number']}), "
        f"{m['logical_cpus']} logical CPUs, {m['memory_bytes'] / 2**30:.0f} GiB memory, "
        f"Linux {m['kernel']}.",
        f"- ISA reported by /proc/cpuinfo: {flags}.",
    ]
    if isa.get("avx512f"):
        lines.append("- **This machine reports AVX-512** although the project brief describes an "
                     "AVX2 machine. Everything here is compiled for `native` (Kiln's "
                     "`--target-cpu=native`, clang's `-march=native`, Numba, Pythran and Cython "
                     "with `-march=native`), so every implementation may use 512-bit `zmm` "
                     "registers, and the FMA peak below is measured with them too.")
    lines += [
        f"- Caches (getconf): L1d {size_text(caches['LEVEL1_DCACHE_SIZE'] or 0)}, "
        f"L2 {size_text(caches['LEVEL2_CACHE_SIZE'] or 0)}, last level "
        f"{size_text(l3 or 0)} as reported (that is the whole socket's: the bandwidth table "
        "below shows how little of it one core sees).",
        f"- Software: Python {software['python']}, numpy {software['numpy']}, Numba "
        f"{software['numba']}, Pythran {software['pythran']}, Cython {software['cython']}, cffi "
        f"{software['cffi']}; {software['clang']}; {software['system_cc']}.",
        f"- Kiln: commit {software['kiln']['commit']}"
        + (f" with {software['kiln']['dirty_files']} files changed in the working tree"
           if software['kiln']['dirty_files'] else "") + ".",
    ]
    quiet = results.get("quiet", {})
    again = quiet.get("kernel_cases_measured_again", [])
    retried = [label for label, count in results.get("attempts", {}).items() if count > 1]
    measured_again = [f"kernel case {label}" for label in again] + retried
    lines.append(
        f"- A shared machine: the run waited {results.get('waited_seconds', 0):.0f} s in all "
        "for other builds and tests (ninja, clang, lit, pytest) to end before measuring, and "
        "measured again whatever other work overlapped: "
        + (", ".join(measured_again) if measured_again else "nothing this time") + ".")
    return "\n".join(lines)


def method_section(results):
    s = results["settings"]
    ws = s["working_sets"]
    tiers = ", ".join(f"{tier} {size_text(ws[tier])}" for tier in s["tiers"])
    return "\n".join([
        "## Method",
        "",
        f"- Sizes by working set (all arrays one call touches): {tiers}. Matmul and mandelbrot "
        "are compute-bound and scaled down instead (matmul n = 32/128/512, mandelbrot "
        "32²/128²/512² pixels, 200 iterations at most): a DRAM-sized naive matmul takes "
        "seconds per call. Pairwise stops at 2048 points (numpy's version builds an m·m·3 temporary).",
        "- Every implementation is checked before it is timed: against numpy (exact for integer "
        "results; relative tolerance 1e-9, 1e-6 for float32, where reassociation or FMA "
        "contraction changes the rounding; at most 0.2 % of mandelbrot pixels), and bit for bit "
        "against Kiln for the implementations that keep float operations in source order (Kiln "
        "through Python and through its C ABI, Kiln without bounds checks, C with "
        "`-ffp-contract=off`, Numba without fastmath) and against CPython wherever CPython runs. "
        "A mismatch stops the run.",
        "- Three C builds of the peers' `ckernels.c`: `-O3 -march=native` (the reference; clang "
        "contracts `a*b+c` into FMAs by default), `-O3 -march=native -ffast-math`, and "
        "`-O3 -march=native -ffp-contract=off`, which computes exactly Kiln's bits (IEEE, source "
        "order, no contraction) and is therefore the like-for-like comparison for Kiln today.",
        f"- Times are the **minimum over {s['repeats']} repeats** of a batch of calls lasting at "
        f"least {s['target_seconds'] * 1e3:.0f} ms (the batch size is chosen per implementation "
        "and shown in the JSON). Within a repeat every implementation runs one batch, in an "
        "order that rotates between repeats. The process is pinned to one CPU "
        f"(CPU {results.get('pinned_cpu')}).",
        "- Python-callable implementations (Kiln, Numba, Pythran, Cython, numpy, CPython) are "
        "timed from Python and include the call from Python. The C reference (`ckernels.c` of "
        "the peers, compiled with clang-22) and Kiln's C ABI (`libkernels_kiln.so`) are timed "
        "inside C by `bench/native/time_*.c` (one ctypes call per batch): they contain no Python "
        "call overhead. *Kiln C ABI, timed in C* against *C* compares generated code alone; "
        "*Kiln* against *C* adds Kiln's Python boundary.",
        f"- CPython is timed apart, {s['cpython_repeats']} repeats, while a call takes at most "
        f"{s['cpython_budget_seconds'] * 1e3:.0f} ms; larger sizes are scaled by the work "
        "(elements, n³, pairs, mandelbrot iterations) from the largest size measured, marked †.",
        "- Ratios are Kiln's **speed** relative to an implementation: time(other) / time(Kiln). "
        "Above 1 Kiln is faster; **bold** marks below 0.9.",
    ])


def limits_section(results):
    limits = results["limits"]
    lines = ["## Physical limits (measured in this run)", ""]
    operations = ["copy", "scale", "add", "triad", "read", "triad_nt"]
    rows = []
    for name in ("stream", "stream_cached"):
        measured = limits.get("stream_runs", {}).get(name)
        if not measured:
            continue
        arrays = f"3 x {size_text(limits['stream_array_bytes'][name])}"
        for threads in (1, 2):
            rows.append([arrays, threads] + [f"{measured.get(f'{op}@{threads}', 0):.1f}"
                                             for op in operations])
    if rows:
        lines += ["Memory bandwidth, GB/s: the peers' STREAM-like `stream.c`, STREAM's byte "
                  "convention (copy 16 B per element, triad 24 B, read 8 B; write-allocate "
                  "traffic not counted; `triad_nt` stores non-temporally). Each figure is the "
                  "better of two runs, before and after the kernel timings; the 1-thread runs "
                  "are pinned to the kernels' CPU. The first array size is the limit the "
                  "DRAM-sized kernels are compared with; a smaller, cache-sized run is shown for "
                  "contrast.",
                  "", table(["arrays", "threads"] + operations, rows,
                            ["---", "---:"] + ["---:"] * len(operations)), ""]
    ymm, zmm = limits.get("peak_ymm", {}), limits.get("peak_zmm", {})
    if ymm or zmm:
        rows = []
        if ymm:
            rows.append(["256-bit (ymm), peers' `peakflops.c`",
                         f"{ymm['fma_f64_gflops_1core']:.1f}", f"{ymm['fma_f32_gflops_1core']:.1f}",
                         f"{ymm['fma_f64_gflops_all']:.1f}"])
        if zmm.get("isa") == "avx512f":
            rows.append(["512-bit (zmm), `bench/native/fma_peak_avx512.c`",
                         f"{zmm['zmm_f64_gflops_1core']:.1f}", f"{zmm['zmm_f32_gflops_1core']:.1f}",
                         f"{zmm['zmm_f64_gflops_all']:.1f}"])
        lines += ["FMA peak, GFLOP/s (an FMA counts two flops):", "",
                  table(["", "f64, 1 core", "f32, 1 core", "f64, all cores"], rows), ""]
        if ymm:
            lines.append(f"Estimated clock {ymm['clock_ghz_est']:.2f} GHz (dependent integer "
                         "adds). Compute-bound kernels below are compared with the 1-core f64 "
                         f"peak, {limits['fma_f64_gflops_1core']:.1f} GFLOP/s.")
    if limits.get("errors"):
        failures = "; ".join(f"{key}: {value}" for key, value in limits["errors"].items())
        lines += ["", "Probe failures: " + failures]
    return "\n".join(lines)


def kernel_tables(results):
    records = results["kernels"]
    present = [(key, title) for key, title in COLUMNS
               if any(key in record["results"] for record in records)]
    time_rows, ratio_rows = [], []
    for record in records:
        row = [record["kernel"], record["tier"], record["size"]]
        for key, _ in present:
            result = record["results"].get(key)
            if result is None:
                row.append("fail" if key in record["failures"] else "–")
            else:
                scaled = "†" if result.get("scaled") else ""
                row.append(microseconds(result["seconds"]) + scaled)
        time_rows.append(row)
        peer_seconds, peer = best_peer(record)
        ratios = [ratio_text(speed_ratio(record, key)) for key, _ in RATIO_COLUMNS]
        ratios.append(f"{ratio_text(speed_ratio(record, peer))} ({label_of(peer)})"
                      if peer else "–")
        ratios.append(ratio_text(speed_ratio(record, "c_strict", "kiln_c_abi")))
        ratios.append(ratio_text(speed_ratio(record, "c_exact", "kiln_c_abi")))
        ratios.append(ratio_text(speed_ratio(record, "c_fast", "kiln_fastmath")))
        ratios.append(ratio_text(speed_ratio(record, "numba_fastmath", "kiln_fastmath")))
        ratio_rows.append([record["kernel"], record["tier"], record["size"]] + ratios)
    times = table(["kernel", "tier", "size"] + [title for _, title in present], time_rows,
                  ["---", "---", "---"] + ["---:"] * len(present))
    ratio_header = (["kernel", "tier", "size"] + [f"vs {title}" for _, title in RATIO_COLUMNS]
                    + ["vs best peer", "C ABI vs C", "C ABI vs C no-contract",
                       "fastmath=True vs C -ffast-math", "fastmath=True vs Numba fastmath"])
    ratios = table(ratio_header, ratio_rows,
                   ["---", "---", "---"] + ["---:"] * (len(ratio_header) - 3))
    return times, ratios


def fraction_rows(results):
    limits = results["limits"]
    stream = limits.get("stream", {})
    peak = limits.get("fma_f64_gflops_1core")
    rows = []
    for record in results["kernels"]:
        kernel, tier = record["kernel"], record["tier"]
        kiln, c = record["results"].get("kiln"), record["results"].get("c_strict")
        if not kiln or not c:
            continue
        if kernel in COMPUTE_BOUND and peak:
            rows.append([kernel, tier, record["size"], "GFLOP/s", f"{kiln['gflops']:.2f}",
                         f"{c['gflops']:.2f}", f"FMA peak {peak:.1f}",
                         f"{kiln['gflops'] / peak:.1%}", f"{c['gflops'] / peak:.1%}"])
        elif record.get("bytes_moved") and tier == "DRAM" and stream:
            operation = STREAMING.get(kernel, (None, "copy"))[1]
            bandwidth = stream.get(f"{operation}@1")
            if bandwidth:
                rows.append([kernel, tier, record["size"], "GB/s", f"{kiln['gbytes_per_s']:.1f}",
                             f"{c['gbytes_per_s']:.1f}", f"STREAM {operation} {bandwidth:.1f}",
                             f"{kiln['gbytes_per_s'] / bandwidth:.0%}",
                             f"{c['gbytes_per_s'] / bandwidth:.0%}"])
    return rows


def fractions_section(results):
    rows = fraction_rows(results)
    if not rows:
        return ""
    return "\n".join([
        "## Fraction of the physical limit", "",
        "Streaming kernels at the DRAM size: bytes the kernel names (STREAM convention: "
        "saxpy 24 B per element, maps and stencils 16 B, reductions 8 B per input array) per "
        "second, against the single-thread STREAM operation with the same pattern. "
        "Compute-bound kernels: flops per second (matmul 2n³, pairwise 3·d per pair without the "
        "square root, mandelbrot 8 per iteration run) against the 1-core FMA peak — a kernel "
        "without FMAs (Kiln never contracts, C at `-O3` does) can reach half of it at most. "
        "Above 100 % the kernel streams faster than STREAM's own loop of the same pattern did "
        "on this machine: the limit is a measurement (its best of two runs), not a bound.", "",
        table(["kernel", "tier", "size", "unit", "Kiln", "C -O3", "limit", "Kiln / limit",
               "C / limit"], rows, ["---", "---", "---", "---"] + ["---:"] * 5)])


def calls_section(results, plot_name):
    calls = results.get("calls")
    if not calls:
        return ""
    lines = ["## Call overhead", "",
             "Nanoseconds per call from CPython (timeit, minimum of "
             f"{calls['scalar_add'][0]['repeats']} repeats); *net* subtracts the empty "
             "statement, the timeit loop's own cost.", ""]
    for key, title in (("scalar_add", "`add(a: float, b: float) -> float`"),
                       ("array_add1", "`add1(x: f64[:], y: f64[:]) -> float` (x[0] + y[0], "
                                      "1-element arrays)")):
        rows = calls[key]
        hand = next((row for row in rows if row["label"].startswith("hand-written")), None)
        table_rows = []
        for row in rows:
            relative = (f"{row['net_ns'] / hand['net_ns']:.2f}" if hand and hand["net_ns"] > 0
                        and row["statement"] != "pass" else "")
            table_rows.append([row["label"], f"`{row['statement']}`", f"{row['ns']:.1f}",
                               f"{row['net_ns']:.1f}", relative])
        lines += [f"### {title}", "",
                  table(["binding", "statement", "ns/call", "net ns", "net / hand-written"],
                        table_rows, ["---", "---", "---:", "---:", "---:"]), ""]
    lines.append(f"![call overhead]({plot_name})")
    return "\n".join(lines)


def compile_section(results):
    compile_ = results.get("compile")
    if not compile_:
        return ""
    module = compile_["kiln_module"]
    count = len(results.get("loop_verdicts", {})) or "all"
    rows = [[f"`kiln build bench/kernels_kiln.py` ({count} functions), cold",
             f"{module['seconds']:.2f}", module["repeats"]]]
    for name, entry in compile_["kiln_function"].items():
        rows.append([f"`kiln build` of a module holding only `{name}`, cold",
                     f"{entry['seconds']:.2f}", entry["repeats"]])
    for name, entry in compile_["first_call"].items():
        cold, warm = entry["kiln_cold_cache"], entry["kiln_warm_cache"]
        rows.append([f"`{name}`: first call of the `@kiln.export` function, empty cache",
                     f"{cold['seconds']:.3f}", cold["repeats"]])
        rows.append([f"`{name}`: first call, warm `KILN_CACHE_DIR` (cache hit), fresh process",
                     f"{warm['seconds']:.4f}", warm["repeats"]])
        rows.append([f"`{name}`: Numba `@njit` first call (compile), fresh process",
                     f"{entry['numba']['seconds']:.3f}", entry["numba"]["repeats"]])
        rows.append([f"`{name}`: Numba `@njit(cache=True)` first call, warm cache, fresh process",
                     f"{entry['numba_cache_warm']['seconds']:.4f}",
                     entry["numba_cache_warm"]["repeats"]])
    numba = compile_.get("numba_in_process", {})
    strict = {k.split(":", 1)[1]: v for k, v in numba.items() if k.startswith("numba:")}
    if strict:
        rows.append([f"Numba, all {len(strict)} kernel signatures compiled in the benchmark "
                     "process (sum)", f"{sum(strict.values()):.2f}", 1])
    imports = next(iter(compile_["first_call"].values()), {})
    notes = ""
    if imports:
        notes = (f"\n\nImport before the first call, fresh process: Kiln source module "
                 f"{imports['kiln_warm_cache']['import_seconds'] * 1e3:.0f} ms, "
                 "`import numba` plus the module "
                 f"{imports['numba']['import_seconds'] * 1e3:.0f} ms "
                 "(not included above).")
    return "\n".join(["## Compile time", "",
                      "Wall seconds, minimum over the repeats shown. *Cold* is a build into an "
                      "empty directory (Kiln has no build cache for `kiln build`).", "",
                      table(["what", "seconds", "repeats"], rows, ["---", "---:", "---:"])]) + notes


def batching_section(results):
    batching = results.get("batching")
    if not batching:
        return ""
    rows = batching["rows"]
    vectorized = next((row for row in rows if "vectorize" in row["label"]), None)
    table_rows = [[row["label"], f"`{row['statement']}`", f"{row['seconds'] * 1e6:,.1f}",
                   f"{row['ns_per_element']:.1f}",
                   f"{row['seconds'] / vectorized['seconds']:.1f}" if vectorized else ""]
                  for row in rows]
    return "\n".join([
        "## Batching: one call per element against one per array", "",
        f"`logistic(v, k) = 1 / (1 + exp(-k v))` over {batching['elements']:,} float64 values "
        f"(timeit, minimum of {rows[0]['repeats']} repeats). `@kiln.vectorize` compiles the "
        "function of numbers and also accepts arrays (numpy broadcasting), so the loop over the "
        "elements runs in one native call.", "",
        table(["how", "statement", "µs per array", "ns per element", "time / vectorized call"],
              table_rows, ["---", "---", "---:", "---:", "---:"])])


def threads_section(results):
    threads = results.get("threads")
    if not threads:
        return ""
    rows = [[entry["label"], f"{entry['serial_seconds'] * 1e3:.1f}",
             f"{entry['parallel_seconds'] * 1e3:.1f}", f"{entry['speedup']:.2f}"]
            for entry in threads.values()]
    controls = [entry["speedup"] for key, entry in threads.items() if key != "kiln"]
    verdict = ""
    if controls and max(controls) < 1.5:
        verdict = ("\n\nThe controls (calls that release the GIL) did not scale either: during "
                   "this measurement the machine did not give two cores' worth of compute (a "
                   "shared virtual machine), so this table says nothing about Kiln.")
    repeats = next(iter(threads.values()))["repeats"]
    return "\n".join([
        "## Two threads", "",
        "Mandelbrot, 192² pixels per call, each thread on its own output: one thread making both "
        f"threads' calls against two threads (ms, minimum of {repeats}). The issue's target is "
        "≥ 1.8x; the ctypes and Numba `nogil=True` rows are controls that show what the two "
        "CPUs allow.", "",
        table(["kernel called through", "1 thread", "2 threads", "speed-up"], rows)]) + verdict


def failures_section(results):
    lines = []
    for key, message in results.get("unavailable", {}).items():
        lines.append(f"- {key}: not available ({message.splitlines()[0][:200]})")
    for record in results["kernels"]:
        for key, message in record.get("failures", {}).items():
            lines.append(f"- {record['kernel']} [{record['size']}] {key}: {message[:200]}")
    if not lines:
        return ""
    return "## Failures and exclusions\n\n" + "\n".join(lines)


def write_plots(results, docs_dir, ratio_name, calls_name):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = results["kernels"]
    kernels = list(dict.fromkeys(record["kernel"] for record in records))
    tiers = results["settings"]["tiers"]
    figure, axes = plt.subplots(2, 1, figsize=(12, 8), sharex=True)
    width = 0.8 / len(tiers)
    for axis, (mine, title) in zip(axes, (("kiln", "Kiln called from Python"),
                                          ("kiln_c_abi", "Kiln's C ABI, timed in C"))):
        for index, tier in enumerate(tiers):
            values = []
            for kernel in kernels:
                record = next((r for r in records if r["kernel"] == kernel and r["tier"] == tier),
                              None)
                values.append((speed_ratio(record, "c_strict", mine) if record else None) or 0)
            axis.bar([k + (index - (len(tiers) - 1) / 2) * width for k in range(len(kernels))],
                     values, width, label=tier)
        axis.axhline(1.0, color="black", linewidth=0.8)
        axis.axhline(SHORT_OF_C, color="red", linewidth=0.8, linestyle="--")
        axis.set_yscale("log")
        shown = [v for v in (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
                 if axis.get_ylim()[0] <= v <= axis.get_ylim()[1]]
        axis.set_yticks(shown)
        axis.set_yticklabels([f"{v:g}" for v in shown])
        axis.minorticks_off()
        axis.set_ylabel("speed vs C -O3 -march=native")
        axis.set_title(title + ": time(C) / time(Kiln), above 1 is faster than C")
        axis.legend(title="working set")
    axes[-1].set_xticks(range(len(kernels)))
    axes[-1].set_xticklabels(kernels, rotation=30, ha="right")
    figure.tight_layout()
    figure.savefig(os.path.join(docs_dir, ratio_name), dpi=110)
    plt.close(figure)

    calls = results.get("calls")
    if calls:
        figure, axes = plt.subplots(1, 2, figsize=(14, 6))
        for axis, key, title in ((axes[0], "scalar_add", "add(a, b)"),
                                 (axes[1], "array_add1", "add1(x, y)")):
            rows = [row for row in calls[key] if row["statement"] != "pass"]
            labels = [row["label"] for row in rows]
            values = [row["ns"] for row in rows]
            colors = ["tab:orange" if row["label"].startswith("Kiln")
                      else "tab:green" if row["label"].startswith("hand") else "tab:blue"
                      for row in rows]
            axis.barh(range(len(rows)), values, color=colors)
            for index, value in enumerate(values):
                axis.text(value * 1.05, index, f"{value:,.0f}", va="center", fontsize=7)
            axis.set_yticks(range(len(rows)))
            axis.set_yticklabels(labels, fontsize=7)
            axis.invert_yaxis()
            axis.set_xscale("log")
            axis.set_xlim(5, max(values) * 3)
            ticks = [t for t in (10, 30, 100, 300, 1000, 3000, 10000)
                     if t <= max(values) * 3]
            axis.set_xticks(ticks)
            axis.set_xticklabels([f"{t:,}" for t in ticks])
            axis.minorticks_off()
            axis.set_xlabel("ns per call, log scale (orange: Kiln, green: hand-written)")
            axis.set_title(title)
        figure.tight_layout()
        figure.savefig(os.path.join(docs_dir, calls_name), dpi=110)
        plt.close(figure)


def write(results, docs_dir, results_dir, log):
    ratio_name, calls_name = "performance-ratio.png", "performance-calls.png"
    write_plots(results, docs_dir, ratio_name, calls_name)
    times, ratios = kernel_tables(results)
    s = results["settings"]
    tables = "\n\n".join(filter(None, [
        "## Kernels: time per call (µs)",
        f"Minimum of {s['repeats']} repeats; † scaled from a smaller size; *fail*: see below.",
        times,
        "## Kernels: Kiln's speed relative to each implementation",
        "time(other) / time(Kiln): above 1 Kiln is faster, **bold** is below 0.9. *C ABI* "
        "columns compare Kiln's C ABI timed in C with the C reference timed in C (no Python "
        "boundary on either side). The last two compare Kiln built with "
        "`@kiln.export(fastmath=True)` with the peers in the same float mode.",
        ratios,
        f"![Kiln's speed relative to C per kernel and size]({ratio_name})",
        fractions_section(results),
        calls_section(results, calls_name),
        batching_section(results),
        compile_section(results),
        threads_section(results),
    ]))
    header = "\n".join([
        "# Kiln performance",
        "",
        "Generated by `bench/run.py` (issue 7's suite): the peers' reference kernels written once "
        "as Kiln Python (`bench/kernels_kiln.py`), measured side by side in one run against the "
        "same algorithm in C, Numba, Pythran, Cython, numpy and CPython, with the machine's "
        "bandwidth and FMA peak, call overhead and compile time. Regenerate it with:",
        "",
        "```sh",
        "sh bench/run.sh            # builds Kiln (scripts/build.sh), then the command below",
        results["command"] + "   # full run; --quick for a one-minute smoke test",
        "```",
        "",
        f"This run: {results['started']}, {results['wall_seconds'] / 60:.1f} minutes, of "
        f"which {results.get('waited_seconds', 0) / 60:.1f} waiting for other builds and tests "
        "to finish. Raw figures: `bench/results/latest.json` (medians and batch sizes too).",
    ])
    shortfalls = findings.section(results, speed_ratio, best_peer, label_of, SHORT_OF_C)
    document = "\n\n".join(filter(None, [header, machine_section(results), method_section(results),
                                         limits_section(results), tables, shortfalls,
                                         failures_section(results)])) + "\n"
    path = os.path.join(docs_dir, "performance.md")
    relative = os.path.relpath(docs_dir, results_dir)
    document += kept_sections(path)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(document)
    with open(os.path.join(results_dir, "latest.md"), "w", encoding="utf-8") as handle:
        handle.write("# Latest benchmark run (tables)\n\n" + f"`{results['command']}`, "
                     f"{results['started']}; the full report is docs/performance.md.\n\n"
                     + tables.replace(f"]({ratio_name})", f"]({relative}/{ratio_name})")
                     .replace(f"]({calls_name})", f"]({relative}/{calls_name})") + "\n")
    log(f"wrote {path} and {os.path.join(results_dir, 'latest.md')}")


ARRAYS_BEGIN = "<!-- bench/arrays.py: begin -->"


def kept_sections(path) -> str:
    """Everything docs/performance.md holds after this suite's own part:
    the sections the other scripts of bench/ write between their markers
    (bench/arrays.py first, then multiversion, traps, matmul, linalg,
    parallel, containers) and the hand-written ones between them, carried
    over unchanged (each script regenerates its own)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return ""
    start = text.find(ARRAYS_BEGIN)
    if start < 0:
        return ""
    return "\n" + text[start:].rstrip("\n") + "\n"
