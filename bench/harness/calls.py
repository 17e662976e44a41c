"""Call overhead: nanoseconds per call of `add(a, b)` (two floats) and
`add1(x, y)` (x[0] + y[0] of two 1-element float64 arrays) through every
way of reaching native code from CPython. Each callable is bound to a
plain name, so no statement pays for an attribute lookup the others do
not. Times come from timeit (minimum over the repeats); the empty
statement's time is the loop's own cost, subtracted in the "net" column."""

import ctypes
import os
import shutil
import sys
import timeit

import numpy as np

from . import layout
from .implementations import extension_path, load_module
from .kiln_header import ctypes_struct, error_record_struct, prototype, struct_declaration

A, B = 1.5, 2.5


def kiln_ctypes(build):
    """ctypes against lib<mod>.so, with the descriptor structs the header
    declares."""
    with open(os.path.join(build.kiln, f"{layout.KILN_MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    library = ctypes.CDLL(os.path.join(build.kiln, f"lib{layout.KILN_MODULE}.so"))
    vector = ctypes_struct(header, "kiln_f64_1d")
    error_record = error_record_struct(header, layout.KILNC)
    add = getattr(library, f"{layout.KILN_MODULE}_add")
    add.argtypes, add.restype = [ctypes.c_double, ctypes.c_double], ctypes.c_double
    add1 = getattr(library, f"{layout.KILN_MODULE}_add1")
    add1.argtypes = [ctypes.POINTER(vector)] * 2 + [ctypes.POINTER(error_record)]
    add1.restype = ctypes.c_double
    double_pointer = ctypes.POINTER(ctypes.c_double)

    def describe(array):
        data = ctypes.cast(array.ctypes.data, double_pointer)
        return vector(data, data, 0, (array.shape[0],), (array.strides[0] // array.itemsize,))

    def add1_from_arrays(x, y):
        # what a ctypes user writes: views described on every call, error checked
        error = error_record()
        value = add1(ctypes.byref(describe(x)), ctypes.byref(describe(y)), ctypes.byref(error))
        if error.kind:
            raise RuntimeError("add1 failed")
        return value
    return header, add, add1, add1_from_arrays, describe, error_record


def kiln_cffi_abi(build, header):
    import cffi
    ffi = cffi.FFI()
    ffi.cdef("\n".join([struct_declaration(header, "kiln_error"),
                        struct_declaration(header, "kiln_f64_1d"),
                        prototype(header, f"{layout.KILN_MODULE}_add"),
                        prototype(header, f"{layout.KILN_MODULE}_add1")]))
    library = ffi.dlopen(os.path.join(build.kiln, f"lib{layout.KILN_MODULE}.so"))
    return ffi, library


def cffi_descriptor(ffi, array):
    data = ffi.cast("double *", ffi.from_buffer(array))
    return ffi.new("kiln_f64_1d *", {"allocated": data, "data": data, "offset": 0,
                                     "shape": [array.shape[0]], "strides": [1]})


def statements(build, implementations, modules, log):
    """(label, statement) rows per table, and the namespace they run in."""
    x, y = np.array([1.5]), np.array([2.5])
    names = {"a": A, "b": B, "x": x, "y": y}
    scalar = [("empty statement (timeit loop)", "pass")]
    array = [("empty statement (timeit loop)", "pass")]
    plain = modules["plain"]
    names.update(py_add=plain.add, py_add1=plain.add1)
    scalar.append(("CPython def", "py_add(a, b)"))
    array.append(("CPython def (numpy indexing)", "py_add1(x, y)"))

    def row(key, label_scalar, label_array, add, add1):
        names[f"{key}_add"], names[f"{key}_add1"] = add, add1
        scalar.append((label_scalar, f"{key}_add(a, b)"))
        array.append((label_array, f"{key}_add1(x, y)"))

    if "fastcall_ext" in build.python_dirs:
        hand = load_module(extension_path(build.python_dirs["fastcall_ext"], "fastcall_ext"),
                           "fastcall_ext")
        row("hand", "hand-written METH_FASTCALL extension",
            "hand-written METH_FASTCALL extension (numpy C-API checks)", hand.add, hand.add1)
    row("kiln", "Kiln (built module)", "Kiln (built module)",
        modules["kiln"].add, modules["kiln"].add1)
    decorated = kiln_decorated(log)
    if decorated is not None:
        row("kiln_decorated", "Kiln @kiln.export object (compile on first call, warm)",
            "Kiln @kiln.export object (compile on first call, warm)", decorated.add,
            decorated.add1)
    header, c_add, c_add1, add1_from_arrays, describe, error_record = kiln_ctypes(build)
    names.update(ctypes_add=c_add, ctypes_add1=add1_from_arrays, ctypes_raw_add1=c_add1,
                 x_ref=ctypes.byref(describe(x)), y_ref=ctypes.byref(describe(y)),
                 error_ref=ctypes.byref(error_record()))
    scalar.append(("ctypes -> Kiln C ABI (argtypes set)", "ctypes_add(a, b)"))
    array.append(("ctypes -> Kiln C ABI, views described per call", "ctypes_add1(x, y)"))
    array.append(("ctypes -> Kiln C ABI, views described once (lower bound)",
                  "ctypes_raw_add1(x_ref, y_ref, error_ref)"))
    try:
        ffi, abi = kiln_cffi_abi(build, header)
        names.update(cffi_abi=abi, ffi=ffi, cffi_x=cffi_descriptor(ffi, x),
                     cffi_y=cffi_descriptor(ffi, y), cffi_error=ffi.new("kiln_error *"),
                     cffi_describe=lambda array: cffi_descriptor(ffi, array))
        scalar.append(("cffi ABI mode -> Kiln C ABI", f"cffi_abi.{layout.KILN_MODULE}_add(a, b)"))
        array.append(("cffi ABI mode -> Kiln C ABI, views described per call",
                      f"cffi_abi.{layout.KILN_MODULE}_add1(cffi_describe(x), cffi_describe(y), "
                      "ffi.new('kiln_error *'))"))
        array.append(("cffi ABI mode -> Kiln C ABI, views described once (lower bound)",
                      f"cffi_abi.{layout.KILN_MODULE}_add1(cffi_x, cffi_y, cffi_error)"))
    except Exception as error:  # noqa: BLE001 - cffi is optional
        log(f"  !! cffi ABI mode unavailable: {error}")
    if "cffi" in build.python_dirs:
        try:
            api = load_module(extension_path(build.python_dirs["cffi"], "_kiln_cffi"), "_kiln_cffi")
            names.update(cffi_api=api.lib, cffi_api_x=cffi_descriptor(api.ffi, x),
                         cffi_api_y=cffi_descriptor(api.ffi, y),
                         cffi_api_error=api.ffi.new("kiln_error *"))
            scalar.append(("cffi API mode (compiled) -> Kiln C ABI",
                           f"cffi_api.{layout.KILN_MODULE}_add(a, b)"))
            array.append(("cffi API mode (compiled) -> Kiln C ABI, views described once",
                          f"cffi_api.{layout.KILN_MODULE}_add1(cffi_api_x, cffi_api_y, "
                          "cffi_api_error)"))
        except Exception as error:  # noqa: BLE001
            log(f"  !! cffi API mode unavailable: {error}")
    if "numba" in implementations:
        numba = implementations["numba"].numba
        row("numba", "Numba @njit dispatcher", "Numba @njit dispatcher",
            numba.njit(plain.add), numba.njit(plain.add1))
    for key, label, array_label in (("pythran", "Pythran", "Pythran"),
                                    ("cython", "Cython cpdef", "Cython cpdef (typed memoryviews)")):
        if key in modules:
            row(key, label, array_label, modules[key].add, modules[key].add1)
    return {"scalar_add": scalar, "array_add1": array}, names


def kiln_decorated(log):
    """bench/kernels_kiln.py imported as source: its functions are
    @kiln.export objects that compile on first call (into a cache under
    build/bench/)."""
    # A fresh cache every run: the cache key does not cover Kiln's own code,
    # so entries from an older Kiln would be loaded and measured instead.
    cache = layout.build_path("kiln_cache")
    shutil.rmtree(cache, ignore_errors=True)
    os.environ["KILN_CACHE_DIR"] = cache
    if layout.PYTHON_FRONTEND not in sys.path:
        sys.path.insert(0, layout.PYTHON_FRONTEND)
    try:
        module = load_module(layout.KERNELS_SOURCE, "kernels_kiln_decorated")
        module.add(A, B)
        module.add1(np.array([1.0]), np.array([2.0]))
        if not (module.add.is_compiled and module.add1.is_compiled):
            raise RuntimeError("add/add1 fell back to Python")
        return module
    except Exception as error:  # noqa: BLE001 - the row is left out, and said so
        log(f"  !! Kiln compile-on-first-call unavailable: {error}")
        return None


def nanoseconds_per_call(statement, names, repeats, quick):
    timer = timeit.Timer(statement, globals=names)
    number = 20_000 if quick else timer.autorange()[0]
    return min(timer.repeat(repeat=repeats, number=number)) / number * 1e9, number


def measure(build, implementations, modules, settings, log):
    tables, names = statements(build, implementations, modules, log)
    expected = {"scalar_add": A + B, "array_add1": 1.5 + 2.5}
    results = {}
    for table, rows in tables.items():
        results[table] = []
        empty = None
        for label, statement in rows:
            if statement != "pass":
                value = eval(statement, names)  # noqa: S307 - our own statements
                if abs(float(value) - expected[table]) > 1e-12:
                    raise RuntimeError(f"{label}: {statement} gave {value}")
            ns, number = nanoseconds_per_call(statement, names, settings.call_repeats,
                                              settings.quick)
            if statement == "pass":
                empty = ns
            results[table].append({"label": label, "statement": statement, "ns": ns,
                                   "net_ns": ns - empty, "number": number,
                                   "repeats": settings.call_repeats})
            log(f"  {table:<10} {label:<66} {ns:8.1f} ns")
    return results
