"""@kiln.vectorize's numpy ufunc against the same loop as @kiln.export,
against Numba's @vectorize, and its call overhead against numpy's own
np.add, in one run, as ratios (issue 33).

    /usr/bin/python3 bench/ufuncs.py [--elements N] [--repeats R]

Builds a small module with `kiln build` into build/bench/ufuncs/ and
prints a table: seconds per call (the minimum of R batches) and the ratio
to the reference of each row (< 1: Kiln is faster).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import textwrap
import timeit

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODULE = textwrap.dedent("""
    import kiln


    @kiln.vectorize
    def blend(x: float, y: float) -> float:
        return x * y + 0.5 * x


    @kiln.vectorize(identity=0.0)
    def plus(x: float, y: float) -> float:
        return x + y


    @kiln.vectorize(identity=0.0, fastmath=True)
    def plus_fast(x: float, y: float) -> float:
        return x + y


    @kiln.export
    def blend_loop(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
        for i in range(len(x)):
            out[i] = x[i] * y[i] + 0.5 * x[i]
""")


def build(folder: str):
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(folder, "ufunc_bench.py")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(MODULE)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    subprocess.run([sys.executable, "-m", "kiln", "build", source, "-o",
                    os.path.join(folder, "out")], check=True, env=env)
    sys.path.insert(0, os.path.join(folder, "out"))
    import ufunc_bench
    return ufunc_bench


def batch_size(call) -> int:
    """Calls per batch: ~20 ms of them."""
    return max(1, int(0.02 / max(timeit.timeit(call, number=3) / 3, 1e-9)))


def best_of_pair(ours, theirs, repeats: int) -> tuple:
    """Seconds per call of each, the fastest of `repeats` batches, the two
    timed in turn (round-robin) so that a busy moment hits both."""
    numbers = batch_size(ours), batch_size(theirs)
    times = ([], [])
    for _ in range(repeats):
        for k, call in enumerate((ours, theirs)):
            times[k].append(timeit.timeit(call, number=numbers[k]) / numbers[k])
    return min(times[0]), min(times[1])


def numba_blend():
    try:
        import numba
    except ImportError:
        return None

    @numba.vectorize(["f8(f8, f8)"])
    def blend(x, y):
        return x * y + 0.5 * x
    return blend


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    mod = build(os.path.join(REPO, "build", "bench", "ufuncs"))
    rng = np.random.default_rng(1)
    x, y = rng.random(args.elements), rng.random(args.elements)
    out = np.empty_like(x)
    small_x, small_y = x[:10].copy(), y[:10].copy()
    rows = []

    def row(label, kiln_call, reference_label, reference_call):
        ours, theirs = best_of_pair(kiln_call, reference_call, args.repeats)
        rows.append((label, ours, reference_label, theirs, ours / theirs))

    row(f"ufunc blend(x, y, out=out), {args.elements} float64",
        lambda: mod.blend(x, y, out=out), "@kiln.export loop", lambda: mod.blend_loop(x, y, out))
    numba = numba_blend()
    if numba is not None:
        numba(x, y, out=out)            # compiled at decoration; warm the call path
        row(f"ufunc blend(x, y, out=out), {args.elements} float64",
            lambda: mod.blend(x, y, out=out), "Numba @vectorize", lambda: numba(x, y, out=out))
    row("ufunc blend(x, 2.0, out=out) (broadcast scalar)", lambda: mod.blend(x, 2.0, out=out),
        "@kiln.export loop (full y)", lambda: mod.blend_loop(x, y, out))
    row("ufunc plus(a, b), 10 float64", lambda: mod.plus(small_x, small_y),
        "np.add(a, b)", lambda: np.add(small_x, small_y))
    row(f"plus.reduce(x), {args.elements} float64", lambda: mod.plus.reduce(x),
        "np.add.reduce(x)", lambda: np.add.reduce(x))
    row(f"plus_fast.reduce(x) (fastmath=True), {args.elements} float64",
        lambda: mod.plus_fast.reduce(x), "np.add.reduce(x)", lambda: np.add.reduce(x))
    width = max(len(r[0]) for r in rows)
    print(f"{'Kiln':<{width}}  {'seconds':>10}  {'reference':<28} {'seconds':>10}  ratio")
    for label, ours, reference, theirs, ratio in rows:
        print(f"{label:<{width}}  {ours:10.3e}  {reference:<28} {theirs:10.3e}  {ratio:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
