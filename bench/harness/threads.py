"""Two threads calling a compiled kernel on separate data, against one
thread making both calls: the speed-up shows whether the call releases
the GIL. ctypes releases it around every foreign call, and Numba with
nogil=True does too, so those rows show what the two cores allow."""

import threading
import time

import numpy as np

from . import cases as kc

SIZE = 192  # mandelbrot pixels per side: ~10 ms per call, compute-bound


def mandelbrot_job(function, out, calls):
    for _ in range(calls):
        function(*kc.MANDELBROT_WINDOW, kc.MANDELBROT_MAXITER, out)


def speedup(function, calls, repeats):
    outputs = [kc.aligned_empty((SIZE, SIZE), np.int64) for _ in range(2)]
    mandelbrot_job(function, outputs[0], 1)
    serial, parallel = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        for out in outputs:
            mandelbrot_job(function, out, calls)
        serial.append(time.perf_counter() - start)
        workers = [threading.Thread(target=mandelbrot_job, args=(function, out, calls))
                   for out in outputs]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        parallel.append(time.perf_counter() - start)
    if not np.array_equal(outputs[0], outputs[1]):
        raise RuntimeError("the two threads computed different images")
    return {"serial_seconds": min(serial), "parallel_seconds": min(parallel),
            "speedup": min(serial) / min(parallel), "calls_per_thread": calls,
            "repeats": repeats}


def measure(implementations, modules, settings, log):
    results = {}
    rows = {"kiln": ("Kiln (built module)", modules["kiln"].mandelbrot)}
    if "c_strict" in implementations:
        timers = implementations["c_strict"].timers

        def c_reference(*args):
            call = kc.Case("mandelbrot", "", "", 0, args, output_index=5)
            timers.runner(call).seconds_per_call(1)
        rows["c_strict_ctypes"] = ("C reference through ctypes (releases the GIL)", c_reference)
    if "numba" in implementations:
        numba = implementations["numba"].numba
        rows["numba_nogil"] = ("Numba @njit(nogil=True)",
                               numba.njit(nogil=True)(modules["plain"].mandelbrot))
    for key, (label, function) in rows.items():
        results[key] = dict(speedup(function, settings.thread_calls, settings.thread_repeats),
                            label=label)
        log(f"  two threads, {label}: {results[key]['speedup']:.2f}x")
    return results
