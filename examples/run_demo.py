"""Builds examples/kernels.py with `kiln build`, imports the compiled module
and runs each function beside CPython on the same inputs: results must
match; timings are the best of several repeats."""

import importlib.util
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_time(function, args, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build", "examples")
    kiln = os.path.join(REPO, "build", "bin", "kiln")
    subprocess.run([kiln, "build", os.path.join(HERE, "kernels.py"), "-o", outdir], check=True)
    native = load(os.path.join(outdir, "kernels.py"), "kernels_native")
    sys.path.insert(0, os.path.join(REPO, "python_frontend"))
    # The same source as CPython runs it: the decorator only marks it.
    os.environ["KILN_DISABLE"] = "1"
    python = load(os.path.join(HERE, "kernels.py"), "kernels_python")

    rng = np.random.default_rng(0)
    n = 200_000
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    ints = rng.integers(-100, 100, n)
    f32 = (rng.standard_normal(n) * 3).astype(np.float32)
    cases = [
        ("dot", lambda: (x, y), 5),
        ("saxpy", lambda: (2.5, x, y, np.empty(n)), 3),
        ("count_positive", lambda: (ints,), 5),
        ("collatz_steps", lambda: (837799,), 5),
        ("clip", lambda: (f32.copy(), -1.0, 1.0), 3),
        ("sign", lambda: (-2.5,), 5),
    ]
    print(f"{'function':<16}{'result (Kiln)':>22}{'CPython s':>12}{'Kiln s':>12}{'speed-up':>10}")
    failures = 0
    for name, make_args, repeats in cases:
        native_args, python_args = make_args(), make_args()
        got = getattr(native, name)(*native_args)
        want = getattr(python, name)(*python_args)
        same = got == want if not isinstance(got, float) else abs(got - want) <= 1e-9 * max(
            1.0, abs(want))
        arrays_same = all(np.array_equal(a, b) for a, b in zip(native_args, python_args)
                          if isinstance(a, np.ndarray))
        if not (same and arrays_same):
            failures += 1
        python_time = best_time(getattr(python, name), make_args(), max(1, repeats // 2))
        native_time = best_time(getattr(native, name), make_args(), repeats * 10)
        shown = f"{got:.6g}" if isinstance(got, float) else str(got)
        print(f"{name:<16}{shown:>22}{python_time:>12.2e}{native_time:>12.2e}"
              f"{python_time / native_time:>9.0f}x" + ("" if same and arrays_same else "  MISMATCH"))
    print("all results match CPython" if not failures else f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
