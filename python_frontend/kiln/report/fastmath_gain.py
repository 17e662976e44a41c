"""How much `fastmath=True` gains on this CPU, measured: the number the
report puts beside the advice to add it ("float reduction on `s` ...
(measured gain: 11.0x ...)").

A loop that adds floats keeps CPython's order of operations, so it cannot
be vectorized (issue 13). Whether reassociating pays depends on the CPU and
on where the data lives, so the gain is measured, not assumed: Kiln compiles
the same float64 sum loop twice, in order and with `fastmath=True`, and
times both on an array that fits in L2 (where the gain is largest; data
streamed from memory gains less, which the report says). The result is
cached per CPU and Kiln build under the compile cache (KILN_CACHE_DIR), so a
machine measures once.

The pair is lowered by the MLIR stage and compiled by kilnc into a bare
shared library called through its C ABI (kiln_abi.h's strided view and
error record): measuring is not a build, so a build that needs the number
for its verdicts never runs a second build inside itself. It is measured
only when a verdict advising fastmath=True is written."""

import ctypes
import json
import os
import subprocess
import tempfile
import time

ELEMENTS = 32768          # 256 KiB of float64: in L2 on current x86 CPUs
REPEATS = 7

SOURCE = '''import kiln


@kiln.export
def ordered_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for v in x:
        s += v
    return s


@kiln.export(fastmath=True)
def reassociated_sum(x: kiln.f64[:]) -> float:
    s = 0.0
    for v in x:
        s += v
    return s
'''

MODULE = "kiln_fastmath_gain"


def gain_note(target_cpu: str = "native") -> str:
    """" (measured gain: 11.0x ...)", or "" when it cannot be measured."""
    gain = measured_gain(target_cpu)
    if gain is None:
        return ""
    return (f" (measured gain: {gain:.1f}x for a float64 sum of {ELEMENTS} elements on this "
            "CPU; less when the data streams from memory)")


def measured_gain(target_cpu: str = "native"):
    if os.environ.get("KILN_NO_FASTMATH_MEASURE"):
        return None
    from .. import cpu_levels
    from ..cache_dir import MEASUREMENTS, cache_root
    from ..toolchain import compiler_fingerprint
    # A portable build runs one version here: measure that one, alone. Code
    # for a CPU this one may not be (`--target-cpu=skylake-avx512` on an
    # AVX2 machine) is not run: it would die of SIGILL.
    target_cpu = cpu_levels.running_version(cpu_levels.versions(target_cpu)) or target_cpu
    if not cpu_levels.runs_here(target_cpu):
        return None
    name = f"fastmath-{cpu_levels.signature()}-{target_cpu}-{compiler_fingerprint()}.json"
    record = os.path.join(cache_root(), MEASUREMENTS, name)
    try:
        with open(record, encoding="utf-8") as handle:
            return float(json.load(handle)["gain"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        gain = _measure(target_cpu)
    except Exception:  # noqa: BLE001 - a failed measurement only drops the number
        return None
    try:
        os.makedirs(os.path.dirname(record), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(record))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"gain": gain, "elements": ELEMENTS, "target_cpu": target_cpu}, handle)
        os.replace(temporary, record)
    except OSError:
        pass
    return gain


class StridedView1D(ctypes.Structure):
    """kiln_abi.h's kiln_f64_1d: a 1-D strided view of double."""
    _fields_ = [("allocated", ctypes.c_void_p), ("data", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("shape", ctypes.c_int64 * 1),
                ("strides", ctypes.c_int64 * 1)]


def kernel_library(directory: str, target_cpu: str) -> str:
    """lib<MODULE>.so holding the two sums, lowered by the MLIR stage and
    compiled by kilnc for `target_cpu`."""
    from ..frontend.source import load_module
    from ..mlir.code_generator import generate_module
    from ..toolchain import find_kilnc

    path = os.path.join(directory, f"{MODULE}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(SOURCE)
    context = load_module(path)
    text, _, failures = generate_module(context, context.exported_functions())
    if failures:
        raise RuntimeError(f"the kernel pair did not lower: {sorted(failures)}")
    mlir = os.path.join(directory, f"{MODULE}.mlir")
    with open(mlir, "w", encoding="utf-8") as handle:
        handle.write(text)
    library = os.path.join(directory, f"lib{MODULE}.so")
    subprocess.run([find_kilnc(), mlir, "--emit=shared", "-O3", f"--target-cpu={target_cpu}",
                    "-o", library], check=True, capture_output=True)
    return library


def _measure(target_cpu: str) -> float:
    import numpy as np

    from ..toolchain import kilnc_capabilities

    with tempfile.TemporaryDirectory(prefix="kiln-fastmath-") as directory:
        library = ctypes.CDLL(kernel_library(directory, target_cpu))
        x = np.random.default_rng(13).random(ELEMENTS)
        address = x.ctypes.data
        view = StridedView1D(address, address, 0, (ELEMENTS,), (1,))
        # The sums cannot raise; the record is there because the ABI passes one.
        error = ctypes.create_string_buffer(kilnc_capabilities()["abi"]["error_record"]["size"])

        def kernel(name):
            function = getattr(library, f"{MODULE}_{name}")
            function.restype = ctypes.c_double
            function.argtypes = [ctypes.POINTER(StridedView1D), ctypes.c_void_p]
            return lambda: function(ctypes.byref(view), error)

        def best(function):
            calls = 50
            times = []
            for _ in range(REPEATS):
                start = time.perf_counter()
                for _ in range(calls):
                    function()
                times.append(time.perf_counter() - start)
            return min(times)

        ordered, reassociated = kernel("ordered_sum"), kernel("reassociated_sum")
        best(ordered), best(reassociated)               # warm up
        return best(ordered) / best(reassociated)
