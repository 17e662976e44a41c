"""Matrix products (issue 28): compiled `a @ b` against numpy on one thread,
on Debian's reference netlib BLAS (libblas3, what numpy uses on a machine
set up by scripts/setup.sh) and on OpenBLAS (`apt-get install
libopenblas0-pthread` for that column), each loaded with LD_LIBRARY_PATH in
a child process, OPENBLAS_NUM_THREADS=1, in GFLOP/s and as ratios, with the
machine's 1-core FMA peak measured in the same run.

    PYTHONPATH=python_frontend /usr/bin/python3 bench/matmul.py

prints a markdown table, writes bench/results/matmul.md and the section
between its markers in docs/performance.md. Rows: float64 and float32 at
n = 64 ... 1024, n = 511 (edge tiles), an MLP layer
`np.maximum(x @ w + b, 0)`, kernels built on `@` (a GEMM-style
`alpha * (a @ b) + beta * c`, a chain `a @ (b @ c)`, a rank-k update
`c - a @ a.T`, matrix-vector sweeps in a Python loop) and `a @ x` at DRAM
size against STREAM's read rate (from bench/run.py's last results)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python_frontend"))

from harness.doc_sections import replace_section, write_result  # noqa: E402
from harness.machine import machine_line  # noqa: E402
BEGIN = "<!-- bench/matmul.py: begin -->"
END = "<!-- bench/matmul.py: end -->"
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
# Debian's reference BLAS and LAPACK (libblas3, liblapack3): both named, as
# liblapack.so.3 would otherwise be whichever the system's alternative is
# (OpenBLAS's once libopenblas0-pthread is installed).
NETLIB = "/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack"

SOURCE = '''import numpy as np
import kiln


@kiln.export
def product(a: kiln.f64[:, :], b: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return a @ b


@kiln.export
def product32(a: kiln.f32[:, :], b: kiln.f32[:, :]) -> kiln.f32[:, :]:
    return a @ b


@kiln.export
def layer(x: kiln.f64[:, :], w: kiln.f64[:, :], bias: kiln.f64[:]) -> kiln.f64[:, :]:
    return np.maximum(x @ w + bias, 0.0)


@kiln.export
def matvec(a: kiln.f64[:, :], x: kiln.f64[:]) -> kiln.f64[:]:
    return a @ x


@kiln.export
def gemm(alpha: float, a: kiln.f64[:, :], b: kiln.f64[:, :], beta: float,
         c: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return alpha * (a @ b) + beta * c


@kiln.export
def chain(a: kiln.f64[:, :], b: kiln.f64[:, :], c: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return a @ (b @ c)


@kiln.export
def rank_k(c: kiln.f64[:, :], a: kiln.f64[:, :]) -> kiln.f64[:, :]:
    return c - a @ a.T


@kiln.export
def sweeps(a: kiln.f64[:, :], x: kiln.f64[:], steps: int) -> kiln.f64[:]:
    # power-iteration style: a matrix-vector product per step, in a loop
    for _ in range(steps):
        x = a @ x
        x = x / np.sqrt(np.dot(x, x))
    return x
'''

# Timed in a child process so that numpy's BLAS can be chosen per run.
CHILD = r'''
import json, sys, timeit
import numpy as np
sys.path.insert(0, sys.argv[1])
import mm
rng = np.random.default_rng(0)
rows = []
def best(call, n):
    number = max(1, int(3e8 / max(n, 8) ** 3))
    return min(timeit.repeat(call, number=number, repeat=5)) / number
for dtype, name in ((np.float64, "product"), (np.float32, "product32")):
    for n in (64, 128, 256, 511, 512, 1024):
        a = rng.normal(size=(n, n)).astype(dtype); b = rng.normal(size=(n, n)).astype(dtype)
        f = getattr(mm, name)
        rows.append((np.dtype(dtype).name, f"a @ b, n = {n}", 2 * n ** 3,
                     best(lambda: f(a, b), n), best(lambda: a @ b, n)))
n = 256
x = rng.normal(size=(n, n)); w = rng.normal(size=(n, n)); bias = rng.normal(size=n)
rows.append(("float64", f"np.maximum(x @ w + b, 0), n = {n}", 2 * n ** 3,
             best(lambda: mm.layer(x, w, bias), n),
             best(lambda: np.maximum(x @ w + bias, 0.0), n)))
a, b, c = (rng.normal(size=(n, n)) for _ in range(3))
rows.append(("float64", f"1.5 * (a @ b) + 0.5 * c, n = {n}", 2 * n ** 3,
             best(lambda: mm.gemm(1.5, a, b, 0.5, c), n),
             best(lambda: 1.5 * (a @ b) + 0.5 * c, n)))
rows.append(("float64", f"a @ (b @ c), n = {n}", 4 * n ** 3,
             best(lambda: mm.chain(a, b, c), n), best(lambda: a @ (b @ c), n)))
k = 32
tall = rng.normal(size=(512, k)); square = rng.normal(size=(512, 512))
rows.append(("float64", f"c - a @ a.T (rank {k}), n = 512", 2 * 512 * 512 * k,
             best(lambda: mm.rank_k(square, tall), 256),
             best(lambda: square - tall @ tall.T, 256)))
n = 512
a = rng.normal(size=(n, n)); v = rng.normal(size=n)
def numpy_sweeps(a, x, steps):
    for _ in range(steps):
        x = a @ x
        x = x / np.sqrt(np.dot(x, x))
    return x
rows.append(("float64", f"50 sweeps x = a @ x / norm, n = {n}", 50 * 2 * n * n,
             best(lambda: mm.sweeps(a, v, 50), 300), best(lambda: numpy_sweeps(a, v, 50), 300)))
# a @ x at DRAM size: bound by reading a (8 n^2 bytes), compared with
# STREAM's read rate below.
n = 6144
a = rng.normal(size=(n, n)); v = rng.normal(size=n)
rows.append(("float64", f"a @ x, n = {n} (288 MiB)", 2 * n * n,
             min(timeit.repeat(lambda: mm.matvec(a, v), number=3, repeat=5)) / 3,
             min(timeit.repeat(lambda: a @ v, number=3, repeat=5)) / 3))
print(json.dumps(rows))
'''


PEAK_C = r"""
#include <stdio.h>
#include <time.h>
typedef double v __attribute__((vector_size(WIDTH)));
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
                          return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
  long n = argc > 1 ? 0 : 100000000;
  v acc[CHAINS], x, y;
  for (int k = 0; k < CHAINS; ++k) acc[k] = (v){} + 1.0 + k;
  x = (v){} + 0.9999999; y = (v){} + 1e-9;
  double best = 1e9;
  for (int r = 0; r < 3; ++r) {
    double t = now();
    for (long i = 0; i < n; ++i) {
#pragma clang loop unroll(full)
      for (int k = 0; k < CHAINS; ++k) acc[k] = acc[k] * x + y;
    }
    t = now() - t;
    if (t < best) best = t;
  }
  double s = 0; for (int k = 0; k < CHAINS; ++k) s += acc[k][0];
  printf("%f %g\n", (double)CHAINS * n * 2 * (WIDTH / 8) / best / 1e9, s);
}
"""


def fma_peak_gflops():
    """1-core float64 FMA peak, measured: independent chains of vector
    FMAs as wide as this CPU's (asked of CPUID through cpu_levels),
    compiled by clang -O3 -march=native (the chains unrolled, in registers:
    16 of AVX-512's 32 registers, 12 of AVX2's 16, which 16 chains and the
    two operands would overflow into the stack, halving the rate)."""
    from kiln import cpu_levels
    level = cpu_levels.detected_level()
    width = {4: 64, 3: 32}.get(level, 16)
    chains = 16 if level >= 4 else 12
    with tempfile.TemporaryDirectory() as scratch:
        source, program = os.path.join(scratch, "peak.c"), os.path.join(scratch, "peak")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(PEAK_C)
        subprocess.run(["/usr/lib/llvm-22/bin/clang", "-O3", "-march=native",
                        "-mprefer-vector-width=512", "-ffp-contract=fast", f"-DWIDTH={width}",
                        f"-DCHAINS={chains}",
                        source, "-o", program], check=True)
        output = subprocess.run([program], capture_output=True, text=True, check=True).stdout
    return float(output.split()[0])


def stream_read_gbs():
    """STREAM's 1-thread read rate on the DRAM-sized arrays from the last
    bench/run.py (bench/results/latest.json: the better of its runs before
    and after the kernels), and when it ran; None when there is none."""
    try:
        with open(os.path.join(HERE, "results", "latest.json"), encoding="utf-8") as handle:
            results = json.load(handle)
    except (OSError, ValueError):
        return None
    limits = results.get("limits", {})
    rates = [limits.get(run, {}).get("stream", {}).get("read@1")
             for run in ("stream_before", "stream_after")]
    rates = [r for r in rates if r]
    return (max(rates), results.get("started", "?")) if rates else None


def run(out, blas, child=CHILD):
    """The rows `child` prints (timed in a child process importing the
    built module from `out`) with numpy on `blas` ("netlib" or "openblas")."""
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    # numpy loads libblas.so.3: the directory on LD_LIBRARY_PATH picks which
    # (whatever the system's alternative is).
    env["LD_LIBRARY_PATH"] = OPENBLAS if blas == "openblas" else NETLIB
    result = subprocess.run([sys.executable, "-c", child, out], capture_output=True,
                            text=True, env=env, check=True)
    return json.loads(result.stdout)


def main():
    work = tempfile.mkdtemp(prefix="kiln-matmul-")
    with open(os.path.join(work, "mm.py"), "w", encoding="utf-8") as handle:
        handle.write(SOURCE)
    out = os.path.join(work, "out")
    subprocess.run([sys.executable, "-m", "kiln", "build", os.path.join(work, "mm.py"),
                    "-o", out, "-q"], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    netlib = run(out, "netlib")
    openblas = run(out, "openblas") if os.path.isdir(OPENBLAS) else None
    peak = fma_peak_gflops()
    text = ("| dtype | what | Kiln GFLOP/s | numpy (reference BLAS) | Kiln / it |"
            + (" numpy (OpenBLAS, 1 thread) | Kiln / it |" if openblas else "")
            + "\n|---|---|---|---|---|" + ("---|---|" if openblas else "") + "\n")
    for k, (dtype, what, flops, kiln_s, numpy_s) in enumerate(netlib):
        line = (f"| {dtype} | {what} | {flops / kiln_s / 1e9:.1f} | "
                f"{flops / numpy_s / 1e9:.1f} | {numpy_s / kiln_s:.2f}x |")
        if openblas:
            other = openblas[k][4]
            line += f" {flops / other / 1e9:.1f} | {other / kiln_s:.2f}x |"
        text += line + "\n"
    if peak:
        text += (f"\nFloat64 FMA peak of one core, measured in the same run: {peak:.0f} "
                 f"GFLOP/s; the best float64 product above reaches "
                 f"{max(f / k / 1e9 for d, _, f, k, _ in netlib if d == 'float64') / peak:.0%} "
                 "of it.\n")
    stream = stream_read_gbs()
    for dtype, what, flops, kiln_s, numpy_s in netlib:
        if what.startswith("a @ x, n = ") and stream:
            n = int(what.split("n = ")[1].split()[0])
            read = 8 * n * n / kiln_s / 1e9
            text += (f"\n`a @ x` at n = {n} streams `a` at {read:.1f} GB/s: {read / stream[0]:.0%} "
                     f"of STREAM's 1-thread read on this machine ({stream[0]:.1f} GB/s, "
                     f"bench/run.py of {stream[1]}).\n")
    print(text)
    write_result("matmul", text)
    section = (f"{BEGIN}\n## Matrix products\n\nGenerated by `bench/matmul.py` ({machine_line()}; "
               "a portable build, the version this CPU runs): `a @ b` of C-ordered matrices through "
               "kiln-tile-matmul's blocked kernel, against numpy on Debian's reference netlib "
               "BLAS (what numpy uses on a machine set up by scripts/setup.sh) and on "
               "single-threaded OpenBLAS, in one run. Short of OpenBLAS at n >= 512: Kiln does not pack "
               "operands into panels yet, so large products run out of the TLB and L2; "
               "n = 511 pays for its edge tiles, which run as scalar loops. The rows after the "
               "products are kernels built on `@`: the elementwise work around a product (the "
               "MLP layer's bias and ReLU, a GEMM's scalings) runs as separate passes over the "
               "result, not yet fused into the product's epilogue, and matrix-vector work streams "
               "the matrix at memory speed.\n\n"
               f"{text}{END}")
    replace_section(BEGIN, END, section)


if __name__ == "__main__":
    main()
