"""Kiln kernels on Dask (docs/dask.md): the same functions run in
`dask.array.map_blocks` on the threaded scheduler (they release the GIL, so
threads run them in parallel), and on a `distributed` cluster of worker
processes through `map_blocks` and `client.submit`. Each worker compiles a
kernel at its first call, or loads it from Kiln's cache (one machine: the
cache directory is shared; several machines: build the module into a wheel
and install it on the workers).

    PYTHONPATH=python_frontend /usr/bin/python3 examples/dask_kernels.py [n]

checks every result against numpy and prints the times."""
import sys
import time

import numpy as np

import kiln


@kiln.export
def smooth_energy(x: kiln.f64[:], alpha: float) -> kiln.f64[:]:
    """A blockwise kernel: a fused expression per element (no temporaries)."""
    return alpha * x * x + np.sqrt(np.abs(x)) - np.tanh(x)


@kiln.export
def block_norm(x: kiln.f64[:]) -> float:
    return np.sqrt(np.sum(x * x))


def numpy_smooth_energy(x, alpha):
    return alpha * x * x + np.sqrt(np.abs(x)) - np.tanh(x)


def main(n=4_000_000, chunks=8):
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    rng = np.random.default_rng(0)
    data = rng.standard_normal(n)
    expected = numpy_smooth_energy(data, 0.5)
    x = da.from_array(data, chunks=n // chunks)
    energy = x.map_blocks(smooth_energy, 0.5, dtype=np.float64)
    smooth_energy(data[:8], 0.5)       # compile (or load) in this process first

    timings = {}
    for scheduler, workers in (("sync", 1), ("threads", 2)):
        with dask.config.set(scheduler=scheduler, num_workers=workers):
            energy.compute()                                    # warm
            start = time.perf_counter()
            result = energy.compute()
            timings[scheduler] = time.perf_counter() - start
        np.testing.assert_allclose(result, expected, rtol=1e-13)
    print(f"map_blocks, {n} doubles in {chunks} blocks: one thread "
          f"{timings['sync'] * 1e3:.1f} ms, threaded scheduler (2 threads) "
          f"{timings['threads'] * 1e3:.1f} ms, {timings['sync'] / timings['threads']:.2f}x")

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        # Worker processes import this module by name and compile (or load
        # from the cache) at their first call; the functions pickle by
        # reference.
        result = energy.compute()
        np.testing.assert_allclose(result, expected, rtol=1e-13)
        blocks = client.scatter(np.array_split(data, chunks))   # data to the workers once
        futures = [client.submit(block_norm, block) for block in blocks]
        norms = client.gather(futures)
        np.testing.assert_allclose(norms, [np.linalg.norm(b) for b in
                                           np.array_split(data, chunks)], rtol=1e-12)
        print(f"distributed (2 worker processes): map_blocks and {len(futures)} submits "
              "match numpy")
    return timings


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000)
