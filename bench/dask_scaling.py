"""The threaded scheduler's speed-up on Kiln kernels (docs/dask.md):
examples/dask_kernels.py's map_blocks on one thread (scheduler "sync") and
on the threaded scheduler with 2 threads, best of 5, at a few sizes; the
kernels release the GIL, so two blocks run at once on two cores.

    PYTHONPATH=python_frontend /usr/bin/python3 bench/dask_scaling.py

prints a markdown table (and writes it to bench/results/dask_scaling.md)."""
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))

import dask                    # noqa: E402
import dask.array as da        # noqa: E402

import dask_kernels            # noqa: E402


def best(compute, repeats=5):
    compute()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        compute()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    rows = ["| n (doubles) | blocks | one thread ms | 2 threads ms | speed-up |",
            "|---|---|---|---|---|"]
    for n, chunks in ((2_000_000, 8), (8_000_000, 8), (32_000_000, 16)):
        data = np.random.default_rng(0).standard_normal(n)
        energy = da.from_array(data, chunks=n // chunks).map_blocks(
            dask_kernels.smooth_energy, 0.5, dtype=np.float64)
        times = {}
        for scheduler, workers in (("sync", 1), ("threads", 2)):
            with dask.config.set(scheduler=scheduler, num_workers=workers):
                times[scheduler] = best(energy.compute)
        rows.append(f"| {n:,} | {chunks} | {times['sync'] * 1e3:.1f} | "
                    f"{times['threads'] * 1e3:.1f} | {times['sync'] / times['threads']:.2f}x |")
    text = "\n".join(rows) + "\n"
    print(text)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", "dask_scaling.md"), "w") as out:
        out.write(text)


if __name__ == "__main__":
    main()
