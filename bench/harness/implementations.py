"""Every implementation of the kernels the suite times, behind one
interface: `runner(case)` gives an object with `once()` (the result of one
checked call) and `seconds_per_call(calls)` (one timed batch)."""

import importlib.machinery
import importlib.util
import os
import time
from itertools import repeat

from . import layout
from .native import BatchTimers


def load_module(path, name):
    if path.endswith(".py"):
        spec = importlib.util.spec_from_file_location(name, path)
    else:
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extension_path(directory, name):
    return os.path.join(directory, name + layout.EXTENSION_SUFFIX)


def shared_name(kernel):
    """The peers write one saxpy for both dtypes; Kiln and Cython need two."""
    return "saxpy" if kernel.startswith("saxpy_") else kernel


class PythonRunner:
    def __init__(self, function, case):
        self.function, self.case = function, case

    def once(self):
        return self.case.call(self.function)

    def seconds_per_call(self, calls):
        function, args = self.function, self.case.args
        start = time.perf_counter()
        for _ in repeat(None, calls):
            function(*args)
        return (time.perf_counter() - start) / calls


class Implementation:
    def __init__(self, key, label, source_order, timed_in, function_for=None, timers=None):
        self.key, self.label = key, label
        # IEEE float operations in the source's order, no FMA contraction
        self.source_order = source_order
        self.timed_in = timed_in
        self.function_for = function_for
        self.timers = timers
        self.compile_seconds = {}

    def runner(self, case):
        if self.timers is not None:
            return self.timers.runner(case)
        return PythonRunner(self.function_for(case), case)


class NumbaImplementation(Implementation):
    """Numba compiles on first call; the compile is done (and timed) here,
    per signature, before the first checked call."""

    def __init__(self, key, label, source_order, plain_kernels, **njit_options):
        import numba
        self.numba = numba
        self.dispatchers = {}
        self.plain_kernels = plain_kernels
        self.njit_options = njit_options
        super().__init__(key, label, source_order, "Python", self.dispatcher_for)

    def dispatcher_for(self, case):
        name = shared_name(case.kernel)
        if name not in self.dispatchers:
            self.dispatchers[name] = self.numba.njit(cache=False, **self.njit_options)(
                getattr(self.plain_kernels, name))
        dispatcher = self.dispatchers[name]
        signature = tuple(self.numba.typeof(value) for value in case.args)
        if signature not in dispatcher.overloads:
            start = time.perf_counter()
            dispatcher.compile(signature)
            self.compile_seconds[case.kernel] = time.perf_counter() - start
        return dispatcher


def available(build, log):
    """The implementations whose build (and import) succeeded, in table order;
    the failures; the loaded modules (the call-overhead table reuses them)."""
    failures = dict(build.errors)
    found = {}
    modules = {}
    plain = load_module(os.path.join(build.peers_source, "kernels.py"), "peer_kernels")
    vectorized = load_module(os.path.join(build.peers_source, "kernels_np.py"), "peer_kernels_np")

    def add(key, make):
        try:
            found[key] = make()
        except Exception as error:  # noqa: BLE001 - one broken peer must not stop the run
            failures[key] = f"{type(error).__name__}: {error}"
            log(f"  !! {key} unavailable: {failures[key]}")

    kiln = load_module(os.path.join(build.kiln, f"{layout.KILN_MODULE}.py"), layout.KILN_MODULE)
    variants = {}
    for suffix, directory in build.kiln_variants.items():
        name = f"{layout.KILN_MODULE}_{suffix}"
        variants[suffix] = load_module(os.path.join(directory, f"{name}.py"), name)
    add("c_strict", lambda: Implementation("c_strict", "C -O3 -march=native", False, "C",
                                           timers=BatchTimers(build.timers["c_strict"])))
    add("c_fast", lambda: Implementation("c_fast", "C -O3 -march=native -ffast-math", False, "C",
                                         timers=BatchTimers(build.timers["c_fast"])))
    add("c_exact", lambda: Implementation("c_exact", "C -O3 -march=native -ffp-contract=off", True,
                                          "C", timers=BatchTimers(build.timers["c_exact"])))
    add("kiln", lambda: Implementation("kiln", "Kiln", True, "Python",
                                       lambda case: getattr(kiln, case.kernel)))
    add("kiln_c_abi", lambda: Implementation("kiln_c_abi", "Kiln C ABI (timed in C)", True, "C",
                                             timers=BatchTimers(build.timers["kiln_c_abi"])))
    add("kiln_nocheck", lambda: Implementation(
        "kiln_nocheck", "Kiln boundscheck=False", True, "Python",
        lambda case: getattr(variants["nocheck"], case.kernel)))
    add("kiln_fastmath", lambda: Implementation(
        "kiln_fastmath", "Kiln fastmath=True", False, "Python",
        lambda case: getattr(variants["fastmath"], case.kernel)))
    add("numba", lambda: NumbaImplementation("numba", "Numba", True, plain))
    add("numba_fastmath", lambda: NumbaImplementation("numba_fastmath", "Numba fastmath", False,
                                                      plain, fastmath=True))

    def compiled_peer(key, label, module_name, naming):
        module = load_module(extension_path(build.python_dirs[key], module_name), module_name)
        modules[key] = module
        return Implementation(key, label, False, "Python",
                              lambda case: getattr(module, naming(case.kernel)))

    if "pythran" not in failures:
        add("pythran", lambda: compiled_peer("pythran", "Pythran", "kernels_pt", shared_name))
    if "cython" not in failures:
        # Cython's module has one function per kernel, under the kernel's name
        add("cython", lambda: compiled_peer("cython", "Cython", "kernels_cy", lambda k: k))
    add("numpy", lambda: Implementation("numpy", "numpy", False, "Python",
                                        lambda case: getattr(vectorized, shared_name(case.kernel))))
    add("cpython", lambda: Implementation("cpython", "CPython", True, "Python",
                                          lambda case: getattr(plain, shared_name(case.kernel))))
    modules.update(kiln=kiln, plain=plain, numpy=vectorized)
    return found, failures, modules
