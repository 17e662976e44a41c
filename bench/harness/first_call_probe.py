"""Runs in a fresh interpreter for the compile-time table: imports a module
of kernels, calls one function once (the call that compiles, or loads the
cached build) and once more, and prints the times as JSON.

    python3 first_call_probe.py kiln  SOURCE.py FUNCTION
    python3 first_call_probe.py numba SOURCE.py FUNCTION [cache]

`kiln` imports SOURCE with its @kiln.export functions (compile on first
call, cached under $KILN_CACHE_DIR); `numba` applies numba.njit to
SOURCE's plain function (cache=True keeps it under $NUMBA_CACHE_DIR)."""

import importlib
import json
import os
import sys
import time


def arguments(function):
    import numpy as np
    if function == "dot":
        return (np.linspace(0.0, 1.0, 1000), np.linspace(1.0, 2.0, 1000))
    if function == "mandelbrot":
        return (-2.0, 0.5, -1.25, 1.25, 50, np.empty((16, 16), dtype=np.int64))
    if function == "add":
        return (1.5, 2.5)
    raise SystemExit(f"first_call_probe: no inputs defined for {function}")


def main():
    flavour, source, function = sys.argv[1:4]
    cache = len(sys.argv) > 4 and sys.argv[4] == "cache"
    args = arguments(function)
    start = time.perf_counter()
    if flavour == "numba":
        import numba
    # imported by name from its directory: Numba's cache finds the module again that way
    sys.path.insert(0, os.path.dirname(os.path.abspath(source)))
    module = importlib.import_module(os.path.splitext(os.path.basename(source))[0])
    target = getattr(module, function)
    if flavour == "numba":
        target = numba.njit(cache=cache)(target)
    imported = time.perf_counter()
    target(*args)
    first = time.perf_counter()
    target(*args)
    second = time.perf_counter()
    compiled = getattr(target, "is_compiled", True)
    print(json.dumps({"import_s": imported - start, "first_call_s": first - imported,
                      "second_call_s": second - first, "native": bool(compiled)}))


if __name__ == "__main__":
    main()
