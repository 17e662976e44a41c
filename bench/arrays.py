#!/usr/bin/python3
"""Array programming, side by side with numpy and Numba in one run
(issue 12; docs/performance.md, "Array programming"):

1. the fused chain `a * b + np.sqrt(c) - d / 2` at an L2 and a DRAM size,
   returned (a new array) and stored into an existing one, with the
   array-sized allocations of one call counted (an LD_PRELOAD shim over
   malloc/calloc/realloc, bench/native/count_allocations.c);
2. a streaming expression (`out[:] = b + s * c`) against STREAM's triad
   measured in the same run (the peers' stream.c);
3. sums and maxima along each axis of C- and F-ordered 2-D arrays;
4. the outside corpus (`run_corpus.py` of ../shared/corpus, on a copy).

    /usr/bin/python3 bench/arrays.py [--quick] [--no-corpus]

Writes bench/results/arrays.{json,md} (--quick: build/bench/arrays-quick/).
Ratios are time(other) / time(Kiln): above 1 Kiln is faster. This is a
benchmark, not a test: nothing in .ci/ runs it."""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import layout, machine  # noqa: E402
from harness.builds import BuildError, kiln_build, openmp_build, run_logged  # noqa: E402
from harness.limits import run_json  # noqa: E402
from harness.timing import side_by_side  # noqa: E402

SOURCE = os.path.join(layout.BENCH, "array_kernels.py")
CORPUS = os.environ.get("KILN_BENCH_CORPUS", "/work/shared/corpus")
STARTED = time.time()
FUSED = ("fused", "fused_into")
REDUCTIONS = ("sum_axis0", "sum_axis1", "max_axis0", "max_axis1")
NOTES = {}      # "kernel@implementation" -> why that implementation has no figure


def log(message):
    print(f"[{time.time() - STARTED:6.1f}s] {message}", flush=True)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def implementations(kiln_dir):
    """{"kiln"|"numpy"|"numba": module-like object with the kernels}."""
    os.environ["KILN_DISABLE"] = "1"
    plain = load(SOURCE, "array_kernels_plain")
    del os.environ["KILN_DISABLE"]
    found = {"kiln": load(os.path.join(kiln_dir, "array_kernels.py"), "array_kernels"),
             "numpy": plain}
    try:
        import numba
    except ImportError:
        return found, "Numba is not installed (python3-numba)"

    class Jitted:
        pass

    jitted = Jitted()
    for name in FUSED + ("triad",) + REDUCTIONS:
        setattr(jitted, name, numba.njit(cache=False)(getattr(plain, name)))
    found["numba"] = jitted
    return found, f"Numba {numba.__version__}, njit of the same source"


class Call:
    def __init__(self, function, args):
        self.function, self.args = function, args

    def seconds_per_call(self, calls):
        function, args = self.function, self.args
        start = time.perf_counter()
        for _ in range(calls):
            function(*args)
        return (time.perf_counter() - start) / calls


def fused_inputs(n, np):
    rng = np.random.default_rng(n)
    a, b, c, d = (rng.random(n) for _ in range(4))
    return a, b, c, d, np.empty(n)


def fused_args(name, inputs):
    a, b, c, d, out = inputs
    return (a, b, c, d) if name == "fused" else (out, a, b, c, d)


def working(impls, name, args, notes):
    """The implementations that run `name` on `args` (Numba refuses some
    numpy calls, e.g. `m.max(axis=0)`): {key: function}, reasons in notes."""
    usable = {}
    for key, impl in impls.items():
        try:
            getattr(impl, name)(*args)
        except Exception as error:  # noqa: BLE001 - recorded, the column stays empty
            if key == "kiln" or key == "numpy":
                raise
            notes[f"{name}@{key}"] = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
            continue
        usable[key] = getattr(impl, name)
    return usable


def check_same(results, label):
    import numpy as np
    want = results["numpy"]
    for key, got in results.items():
        if not np.allclose(got, want, rtol=1e-12, atol=0):
            raise RuntimeError(f"{label}: {key} differs from numpy")


def time_fused(impls, sizes, repeats, target):
    import numpy as np
    rows = []
    for tier, n in sizes.items():
        inputs = fused_inputs(n, np)
        for name in FUSED:
            args = fused_args(name, inputs)
            outputs = {}
            for key, impl in impls.items():
                result = getattr(impl, name)(*args)
                outputs[key] = result if name == "fused" else inputs[4].copy()
            check_same(outputs, f"{name} at {tier}")
            log(f"timing {name} at {tier} (n={n:,}) ...")
            timings = side_by_side({key: Call(getattr(impl, name), args)
                                    for key, impl in impls.items()}, repeats, target)
            rows.append({"kernel": name, "tier": tier, "n": n,
                         "seconds": {k: v["seconds"] for k, v in timings.items()}})
    return rows


def time_triad(impls, n, repeats, target):
    import numpy as np
    rng = np.random.default_rng(3)
    b, c, out = rng.random(n), rng.random(n), np.empty(n)
    log(f"timing triad (n={n:,}) ...")
    timings = side_by_side({key: Call(impl.triad, (out, b, c, 3.0)) for key, impl in impls.items()},
                           repeats, target)
    seconds = {k: v["seconds"] for k, v in timings.items()}
    return {"n": n, "seconds": seconds,
            "GBps": {k: 24 * n / s / 1e9 for k, s in seconds.items()}}


def time_reductions(impls, shape, repeats, target):
    import numpy as np
    rng = np.random.default_rng(5)
    c_order = rng.random(shape)
    layouts = {"C": c_order, "F": np.asfortranarray(c_order)}
    rows = []
    for order, m in layouts.items():
        for name in REDUCTIONS:
            functions = working(impls, name, (m,), NOTES)
            results = {key: function(m) for key, function in functions.items()}
            check_same(results, f"{name} of a {order}-ordered array")
            log(f"timing {name}, {order} order {shape} ...")
            timings = side_by_side({key: Call(function, (m,))
                                    for key, function in functions.items()}, repeats, target)
            rows.append({"kernel": name, "order": order, "shape": list(shape),
                         "seconds": {k: v["seconds"] for k, v in timings.items()}})
    return rows


def count_allocations(shim, kiln_dir, sizes):
    """Array-sized allocations (>= half an array) of one call, per
    implementation and size: a subprocess with the shim preloaded; each
    implementation is called once on tiny arrays first (Numba compiles)."""
    script = f"""
import ctypes, json, sys
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import numpy as np
import arrays as bench
impls, _ = bench.implementations({kiln_dir!r})
libc = ctypes.CDLL(None)
counter = ctypes.c_ulong.in_dll(libc, "kiln_bench_big_allocations")
threshold = ctypes.c_size_t.in_dll(libc, "kiln_bench_threshold")
counts = {{}}
for tier, n in {sizes!r}.items():
    for name in bench.FUSED:
        for key, impl in impls.items():
            function = getattr(impl, name)
            function(*bench.fused_args(name, bench.fused_inputs(16, np)))
            args = bench.fused_args(name, bench.fused_inputs(n, np))
            threshold.value = n * 8 // 2
            counter.value = 0
            result = function(*args)
            counts[f"{{name}}@{{tier}}@{{key}}"] = counter.value
            threshold.value = 2**63
            del result
print(json.dumps(counts))
"""
    env = dict(os.environ, LD_PRELOAD=shim, PYTHONPATH=layout.PYTHON_FRONTEND)
    result = subprocess.run([layout.PYTHON, "-c", script], capture_output=True, text=True,
                            env=env, timeout=1800)
    if result.returncode != 0:
        raise RuntimeError("allocation count failed:\n" + result.stderr[-2000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def stream_triad(directory, peers_source, array_bytes):
    """STREAM's triad, 1 thread, pinned like the kernels: GB/s (best of 2)."""
    probe = os.path.join(directory, "stream")

    class Notes:
        notes = {}

    openmp_build(os.path.join(peers_source, "stream.c"), probe, [f"-DNBYTES=({array_bytes}L)"],
                 "arrays_limits", Notes, "stream")
    best = 0.0
    for _ in range(2):
        output = run_json([probe, "1"], cpu=os.sched_getaffinity(0).__iter__().__next__())
        for row in output["results"]:
            if row["op"] == "triad":
                best = max(best, row["GBps"])
    return best


def run_corpus(out_dir, quick):
    work = tempfile.mkdtemp(prefix="kiln-corpus-")
    try:
        copy = os.path.join(work, "corpus")
        shutil.copytree(CORPUS, copy)
        result_json = os.path.join(out_dir, "corpus.json")
        command = [layout.PYTHON, os.path.join(copy, "run_corpus.py"), layout.REPO,
                   "--json", result_json] + (["--no-time"] if quick else [])
        log("the outside corpus (run_corpus.py on a copy) ...")
        result = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=3600)
        with open(os.path.join(out_dir, "corpus.txt"), "w", encoding="utf-8") as handle:
            handle.write(result.stdout + result.stderr)
        with open(result_json, encoding="utf-8") as handle:
            return json.load(handle)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def ratio(seconds, other):
    return seconds[other] / seconds["kiln"] if other in seconds and seconds.get("kiln") else None


def cell(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}x"


def report(data):
    lines = ["# Array programming: Kiln beside numpy and Numba", "",
             f"{data['machine']}; {data['numba']}; generated by `bench/arrays.py` "
             f"({data['seconds']:.0f} s). Ratios are time(other) / time(Kiln): above 1 Kiln "
             "is faster.", ""]
    lines += ["## Fused expression `a * b + np.sqrt(c) - d / 2`", "",
              "Allocations: blocks of at least half an array allocated by one call "
              "(malloc/calloc/realloc, counted by an LD_PRELOAD shim).", "",
              "| kernel | size | Kiln µs | numpy µs | Numba µs | vs numpy | vs Numba | "
              "allocations Kiln / numpy / Numba |", "|---|---|---|---|---|---|---|---|"]
    for row in data["fused"]:
        s = row["seconds"]
        counts = [data["allocations"].get(f"{row['kernel']}@{row['tier']}@{k}", "-")
                  for k in ("kiln", "numpy", "numba")]
        lines.append(f"| `{row['kernel']}` | {row['tier']} (n={row['n']:,}) | "
                     f"{s['kiln'] * 1e6:.1f} | {s['numpy'] * 1e6:.1f} | "
                     f"{s['numba'] * 1e6:.1f} | " if "numba" in s else
                     f"| `{row['kernel']}` | {row['tier']} (n={row['n']:,}) | "
                     f"{s['kiln'] * 1e6:.1f} | {s['numpy'] * 1e6:.1f} | - | ")
        lines[-1] += (f"{cell(ratio(s, 'numpy'))} | {cell(ratio(s, 'numba'))} | "
                      f"{' / '.join(str(c) for c in counts)} |")
    triad = data["triad"]
    lines += ["", "## Streaming: `out[:] = b + s * c` against STREAM's triad", "",
              f"n={triad['n']:,} (24 bytes per element); STREAM triad, 1 thread, same run: "
              f"{data['stream_triad_GBps']:.1f} GB/s.", "",
              "| implementation | GB/s | of STREAM triad |", "|---|---|---|"]
    for key, rate in triad["GBps"].items():
        lines.append(f"| {key} | {rate:.1f} | {rate / data['stream_triad_GBps']:.0%} |")
    lines += ["", "## Reductions along an axis", "",
              "| kernel | order | shape | Kiln µs | numpy µs | vs numpy | vs Numba |",
              "|---|---|---|---|---|---|---|"]
    for row in data["reductions"]:
        s = row["seconds"]
        lines.append(f"| `{row['kernel']}` | {row['order']} | {tuple(row['shape'])} | "
                     f"{s['kiln'] * 1e6:.1f} | {s['numpy'] * 1e6:.1f} | "
                     f"{cell(ratio(s, 'numpy'))} | {cell(ratio(s, 'numba'))} |")
    short = []
    for row in data["fused"]:
        r = ratio(row["seconds"], "numpy")
        if r is not None and r < 2:
            short.append(f"`{row['kernel']}` at {row['tier']}: {r:.2f}x numpy (target 2x)")
        r = ratio(row["seconds"], "numba")
        if r is not None and r < 1:
            short.append(f"`{row['kernel']}` at {row['tier']}: {r:.2f}x Numba")
    if triad["GBps"]["kiln"] < 0.9 * data["stream_triad_GBps"]:
        short.append(f"streaming: {triad['GBps']['kiln'] / data['stream_triad_GBps']:.0%} of "
                     "STREAM triad (target 90 %)")
    for row in data["reductions"]:
        r = ratio(row["seconds"], "numpy")
        if r is not None and r < 1:
            short.append(f"`{row['kernel']}`, {row['order']} order: {r:.2f}x numpy")
    for r in data.get("corpus") or []:
        times = {"kiln": r.get("t_kiln"), "numpy": r.get("t_numpy"), "numba": r.get("t_numba")}
        times = {k: v for k, v in times.items() if v}
        for other in ("numpy", "numba"):
            value = ratio(times, other)
            if r["outcome"] == "full" and value is not None and value < 1:
                short.append(f"corpus `{r['name']}`: {value:.2f}x {other}")
    lines += ["", "## Short of the targets in this run", ""]
    lines += [f"- {item}" for item in short] or ["- nothing"]
    for key, note in data.get("notes", {}).items():
        lines.append(f"\n`{key}`: no figure ({note}).")
    if data.get("corpus"):
        rows = data["corpus"]
        full = [r for r in rows if r["outcome"] == "full"]
        wrong = [r for r in rows if r.get("correct") is False or r.get("matches_numpy") is False]
        lines += ["", "## The outside corpus (numpy-benchmarks ports, ../shared/corpus)", "",
                  f"{len(full)} of {len(rows)} compile fully; {len(wrong)} differ from CPython "
                  "or from the numpy original.", "",
                  "| kernel | outcome | = numpy original | Kiln s | vs numpy | vs Numba |",
                  "|---|---|---|---|---|---|"]
        for r in sorted(rows, key=lambda r: r["name"]):
            times = {"kiln": r.get("t_kiln"), "numpy": r.get("t_numpy"), "numba": r.get("t_numba")}
            times = {k: v for k, v in times.items() if v}
            exact = "exact" if r.get("numpy_exact") else (
                "yes" if r.get("matches_numpy") else ("-" if r["outcome"] != "full" else "NO"))
            kiln_s = f"{times['kiln']:.2e}" if "kiln" in times else "-"
            lines.append(f"| {r['name']} | {r['outcome']} | {exact} | {kiln_s} | "
                         f"{cell(ratio(times, 'numpy'))} | {cell(ratio(times, 'numba'))} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, few repeats")
    parser.add_argument("--no-corpus", action="store_true", help="skip the outside corpus")
    options = parser.parse_args()
    out_dir = layout.build_path("arrays-quick") if options.quick else \
        os.path.join(layout.BENCH, "results")
    os.makedirs(out_dir, exist_ok=True)
    work = layout.build_path("arrays")
    os.makedirs(work, exist_ok=True)
    sizes = {"L2": 4096, "DRAM": 1 << 16} if options.quick else \
        {"L2": 24 * 1024, "DRAM": 1 << 24}          # L2 is 2 MiB here; 5 arrays of n doubles
    repeats, target = (3, 0.01) if options.quick else (9, 0.2)
    cpu = sorted(os.sched_getaffinity(0))[0]
    os.sched_setaffinity(0, {cpu})
    log(f"kiln build {SOURCE} ...")
    kiln_dir = os.path.join(work, "kiln")
    kiln_build(SOURCE, kiln_dir, "arrays_kiln")
    shim = os.path.join(work, "count_allocations.so")
    run_logged([layout.CLANG, "-O2", "-shared", "-fPIC",
                os.path.join(layout.NATIVE_SOURCE, "count_allocations.c"), "-o", shim, "-ldl"],
               "arrays_shim")
    sys.path.insert(0, kiln_dir)
    impls, numba_note = implementations(kiln_dir)
    described = machine.describe()
    data = {"machine": f"{described['cpu_model']}, {described['logical_cpus']} CPUs, numpy "
                       f"{described['software']['numpy']}",
            "numba": numba_note, "sizes": sizes}
    data["allocations"] = count_allocations(shim, kiln_dir, sizes)
    data["fused"] = time_fused(impls, sizes, repeats, target)
    data["triad"] = time_triad(impls, sizes["DRAM"], repeats, target)
    data["stream_triad_GBps"] = stream_triad(work, layout.PEERS_SOURCE, sizes["DRAM"] * 8)
    data["reductions"] = time_reductions(impls, (64, 4096) if options.quick else (2048, 2048),
                                         repeats, target)
    data["corpus"] = None if options.no_corpus else run_corpus(out_dir, options.quick)
    data["notes"] = NOTES
    data["seconds"] = time.time() - STARTED
    with open(os.path.join(out_dir, "arrays.json"), "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
    text = report(data)
    with open(os.path.join(out_dir, "arrays.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    log(f"wrote {out_dir}/arrays.md and arrays.json")
    if not options.quick:
        into_performance_doc(text)


def into_performance_doc(text):
    """docs/performance.md's array section (between report.py's markers,
    which bench/run.py keeps when it rewrites the rest)."""
    from harness.report import ARRAYS_BEGIN, ARRAYS_END
    path = os.path.join(layout.REPO, "docs", "performance.md")
    with open(path, encoding="utf-8") as handle:
        document = handle.read()
    section = (f"{ARRAYS_BEGIN}\n" + text.replace("# Array programming:", "## Array programming:", 1)
               .replace("\n## ", "\n### ").replace("\n### Array programming:",
                                                   "\n## Array programming:")
               + f"\nRegenerate this section with `/usr/bin/python3 bench/arrays.py` "
               f"(bench/results/arrays.md, arrays.json).\n{ARRAYS_END}")
    start, end = document.find(ARRAYS_BEGIN), document.find(ARRAYS_END)
    if start >= 0 and end > start:
        document = document[:start] + section + document[end + len(ARRAYS_END):]
    else:
        document = document.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(document)
    log(f"wrote the array section of {path}")


if __name__ == "__main__":
    try:
        main()
    except BuildError as error:
        sys.exit(f"bench/arrays.py: {error}")
