"""kiln.prange against one thread and against Numba's parallel=True
(issue 29), side by side in one run: the same source compiled by Kiln (its
`prange` is kiln.prange) and by Numba (`numba.prange`, `@njit(parallel=True)`,
`fastmath` where Kiln's has it).

    PYTHONPATH=python_frontend /usr/bin/python3 bench/parallel.py

Each row is the best of 7 repeats; Kiln runs with KILN_NUM_THREADS=1 and
with every CPU this process may use, Numba with all of them (its default).
The overhead row times a prange sum of 10 elements: the cost of entering a
parallel region. Prints a markdown table, writes bench/results/parallel.md
and the section between its markers in docs/performance.md."""
import json
import os
import subprocess
import sys
import tempfile
import timeit

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python_frontend"))

from harness.doc_sections import replace_section, write_result  # noqa: E402
from harness.machine import machine_line  # noqa: E402

BEGIN = "<!-- bench/parallel.py: begin -->"
END = "<!-- bench/parallel.py: end -->"

# {export} and {export_fast} are the decorators; `prange` is kiln's or numba's.
SOURCE = '''import math
import numpy as np
{imports}


{export_fast}
def total(x{f64_1d}){to_float}:
    s = 0.0
    for i in prange(len(x)):
        s += x[i]
    return s


{export}
def saxpy(a{float_}, x{f64_1d}, y{f64_1d}, out{f64_1d}){to_none}:
    for i in prange(len(x)):
        out[i] = a * x[i] + y[i]


{export}
def mandelbrot(out{i64_2d}, maxit{int_}){to_none}:
    h = out.shape[0]
    w = out.shape[1]
    for y in prange(h):
        for x in range(w):
            cr = -2.0 + 3.0 * x / w
            ci = -1.5 + 3.0 * y / h
            zr = 0.0
            zi = 0.0
            n = 0
            while n < maxit and zr * zr + zi * zi < 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                n += 1
            out[y, x] = n


{export_fast}
def pairwise(p{f64_2d}, d{f64_2d}){to_none}:
    n = p.shape[0]
    for i in prange(n):
        for j in range(n):
            s = 0.0
            for k in range(p.shape[1]):
                t = p[i, k] - p[j, k]
                s += t * t
            d[i, j] = math.sqrt(s)


{export_fast}
def matmul(a{f64_2d}, b{f64_2d}, c{f64_2d}){to_none}:
    for i in prange(a.shape[0]):
        for j in range(b.shape[1]):
            c[i, j] = 0.0
        for k in range(a.shape[1]):
            aik = a[i, k]
            for j in range(b.shape[1]):
                c[i, j] += aik * b[k, j]


{export_parallel}
def blend(a{float_}, x{f64_1d}, y{f64_1d}, out{f64_1d}){to_none}:
    out[:] = a * x + np.sin(y) * np.exp(-x)


{export_parallel}
def inner(x{f64_1d}, y{f64_1d}){to_float}:
    return np.sum(x * y)


{export_parallel}
def spread(x{f64_1d}){to_float}:
    return np.max(x) - np.min(x) + x.mean()


{export_parallel}
def grown(m{f64_2d}){f64_2d_out}:
    return np.sqrt(np.abs(m)) * 2.0 + m
'''

KILN = dict(imports="import kiln\nfrom kiln import prange", export="@kiln.export",
            export_fast="@kiln.export(fastmath=True)",
            export_parallel="@kiln.export(parallel=True)", f64_1d=": kiln.f64[:]",
            f64_2d=": kiln.f64[:, :]", i64_2d=": kiln.i64[:, :]", float_=": float",
            int_=": int", to_float=" -> float", to_none=" -> None",
            f64_2d_out=" -> kiln.f64[:, :]")
NUMBA = dict(imports="from numba import njit, prange", export="@njit(parallel=True)",
             export_fast="@njit(parallel=True, fastmath=True)",
             export_parallel="@njit(parallel=True)", f64_1d="", f64_2d="",
             i64_2d="", float_="", int_="", to_float="", to_none="", f64_2d_out="")
# The array-expression kernels as plain Python: numpy runs them.
NUMPY = dict(NUMBA, imports="prange = range", export="", export_fast="", export_parallel="")


def cases():
    rng = np.random.default_rng(29)
    big = rng.random(1 << 25)            # 256 MiB: DRAM, not cache
    y = rng.random(1 << 25)
    out = np.empty_like(big)
    sums = rng.random(1 << 22)
    image = np.zeros((600, 800), dtype=np.int64)
    points = rng.random((2000, 3))
    distances = np.empty((2000, 2000))
    a, b = rng.random((384, 384)), rng.random((384, 384))
    c = np.empty((384, 384))
    tiny = rng.random(10)
    return [
        ("sum, 4 Mi float64 (L3/DRAM)", "total", (sums,), 20),
        ("saxpy, 32 Mi float64 (DRAM)", "saxpy", (2.5, big, y, out), 3),
        ("mandelbrot 600 x 800, 200 iterations", "mandelbrot", (image, 200), 3),
        ("pairwise distances, 2000 points", "pairwise", (points, distances), 3),
        ("i-k-j matmul, n = 384", "matmul", (a, b, c), 3),
        ("entering a parallel region: sum of 10", "total", (tiny,), 20000),
    ]


def array_cases():
    """parallel=True on array expressions, against numpy and Numba."""
    rng = np.random.default_rng(30)
    x, y = rng.random(1 << 22), rng.random(1 << 22)
    out = np.empty_like(x)
    big_x, big_y = rng.random(1 << 25), rng.random(1 << 25)
    m = rng.normal(size=(2000, 2000))
    return [
        ("`out[:] = a * x + np.sin(y) * np.exp(-x)`, 4 Mi", "blend", (2.5, x, y, out), 5),
        ("`np.sum(x * y)`, 32 Mi (DRAM)", "inner", (big_x, big_y), 3),
        ("`np.max(x) - np.min(x) + x.mean()`, 4 Mi", "spread", (x,), 10),
        ("`np.sqrt(np.abs(m)) * 2.0 + m`, 2000 x 2000 (a new array)", "grown", (m,), 5),
    ]


def best(call, number):
    return min(timeit.repeat(call, number=number, repeat=7)) / number


def build(workdir):
    source = os.path.join(workdir, "parallel_kernels.py")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(SOURCE.format(**KILN))
    with open(os.path.join(workdir, "numba_kernels.py"), "w", encoding="utf-8") as handle:
        handle.write(SOURCE.format(**NUMBA))
    with open(os.path.join(workdir, "numpy_kernels.py"), "w", encoding="utf-8") as handle:
        handle.write(SOURCE.format(**NUMPY))
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    subprocess.run([sys.executable, "-m", "kiln", "build", source, "-o",
                    os.path.join(workdir, "out"), "--target-cpu=native", "-q"],
                   check=True, env=env)
    sys.path.insert(0, os.path.join(workdir, "out"))
    sys.path.insert(0, workdir)
    import numba_kernels
    import numpy_kernels
    import parallel_kernels
    return parallel_kernels, numba_kernels, numpy_kernels


def unit(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    return f"{seconds * 1e3:.2f} ms"


def fma_peaks(workdir):
    """GFLOP/s of 512-bit float64 FMAs on one thread and on all (the
    machine's limit for compute-bound kernels: two vCPUs that share one
    core's FMA units add nothing to it), or None without AVX-512."""
    from kiln import cpu_levels
    if cpu_levels.detected_level() < 4:
        return None
    binary = os.path.join(workdir, "fma_peak")
    subprocess.run(["clang-22", "-O2", "-march=native", "-fopenmp", "-o", binary,
                    os.path.join(HERE, "native", "fma_peak_avx512.c")], check=True)
    peaks = []
    for threads in ("1", str(len(os.sched_getaffinity(0)))):
        out = subprocess.run([binary], env=dict(os.environ, OMP_NUM_THREADS=threads),
                             capture_output=True, text=True, check=True).stdout
        peaks.append(json.loads(out)["zmm_f64_gflops_all"])
    return peaks


def main():
    import kiln
    workdir = tempfile.mkdtemp(prefix="kiln-parallel-bench-")
    peaks = fma_peaks(workdir)
    kiln_module, numba_module, numpy_module = build(workdir)
    threads = len(os.sched_getaffinity(0))
    rows = []
    for label, name, args, number in cases():
        kernel, peer = getattr(kiln_module, name), getattr(numba_module, name)
        peer(*args)          # Numba compiles on its first call
        kiln.set_num_threads(1)
        one = best(lambda: kernel(*args), number)
        kiln.set_num_threads(threads)
        many = best(lambda: kernel(*args), number)
        numba = best(lambda: peer(*args), number)
        rows.append(f"| {label} | {unit(one)} | {unit(many)} | {one / many:.2f}x | "
                    f"{unit(numba)} | {numba / many:.2f}x |")
    machine = f"Machine: {machine_line()}."
    table = "\n".join([
        machine, "",
        f"Kiln `kiln.prange` at 1 and {threads} threads, Numba 0.56 `parallel=True` at "
        f"{threads} (its default); best of 7. Speed-up: 1 thread / {threads} threads; "
        "vs Numba: Numba's time / Kiln's (above 1.00x: Kiln is faster).",
        "" if peaks is None else
        f"Machine: float64 FMA peak {peaks[0]:.0f} GFLOP/s on 1 thread, {peaks[1]:.0f} on "
        f"{threads} ({peaks[1] / peaks[0]:.2f}x): what threads can add to compute-bound "
        "kernels here.", "",
        f"| kernel | Kiln, 1 thread | Kiln, {threads} threads | speed-up | Numba | vs Numba |",
        "|---|---|---|---|---|---|", *rows])
    array_rows = []
    for label, name, args, number in array_cases():
        kernel, peer = getattr(kiln_module, name), getattr(numba_module, name)
        plain = getattr(numpy_module, name)
        peer(*args)
        kiln.set_num_threads(1)
        one = best(lambda: kernel(*args), number)
        kiln.set_num_threads(threads)
        many = best(lambda: kernel(*args), number)
        numba = best(lambda: peer(*args), number)
        numpy_time = best(lambda: plain(*args), number)
        array_rows.append(f"| {label} | {unit(one)} | {unit(many)} | {one / many:.2f}x | "
                          f"{unit(numpy_time)} | {numpy_time / many:.2f}x | {unit(numba)} | "
                          f"{numba / many:.2f}x |")
    table += "\n".join([
        "", "", "`@kiln.export(parallel=True)` on whole-array code (statements, a new array, "
        "whole-array reductions), against numpy (one thread) and Numba `parallel=True` on "
        "the same source; best of 7. The reductions of one array in one statement are one "
        "pass over it (one parallel region), as Numba fuses them.", "",
        f"| statement | Kiln, 1 thread | Kiln, {threads} threads | speed-up | numpy | vs numpy "
        "| Numba | vs Numba |",
        "|---|---|---|---|---|---|---|---|", *array_rows])
    print(table)
    write_result("parallel", table)
    section = (f"{BEGIN}\n## Multi-core: kiln.prange\n\nGenerated by `bench/parallel.py` "
               "(docs/language.md, \"Parallel loops\", says what runs where).\n\n"
               f"{table}\n{END}")
    replace_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
