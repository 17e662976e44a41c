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
machine measures once."""

import importlib.util
import json
import os
import sys
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

# Measuring builds a module whose own ordered loop gets the same advice:
# that build must not measure again.
_measuring = False


def gain_note(target_cpu: str = "native") -> str:
    """" (measured gain: 11.0x ...)", or "" when it cannot be measured."""
    gain = measured_gain(target_cpu)
    if gain is None:
        return ""
    return (f" (measured gain: {gain:.1f}x for a float64 sum of {ELEMENTS} elements on this "
            "CPU; less when the data streams from memory)")


def measured_gain(target_cpu: str = "native"):
    global _measuring
    if _measuring or os.environ.get("KILN_NO_FASTMATH_MEASURE"):
        return None
    from .. import cpu_levels
    from ..compiler.cache import cache_root, compiler_fingerprint, cpu_fingerprint
    # A portable build runs one version here: measure that one, alone.
    target_cpu = cpu_levels.running_version(cpu_levels.versions(target_cpu)) or target_cpu
    record = os.path.join(cache_root(), "measurements",
                          f"fastmath-{cpu_fingerprint()}-{target_cpu}-{compiler_fingerprint()}"
                          ".json")
    try:
        with open(record, encoding="utf-8") as handle:
            return float(json.load(handle)["gain"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    _measuring = True
    try:
        gain = _measure(target_cpu)
    except Exception:  # noqa: BLE001 - a failed measurement only drops the number
        return None
    finally:
        _measuring = False
    try:
        os.makedirs(os.path.dirname(record), exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(record))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"gain": gain, "elements": ELEMENTS, "target_cpu": target_cpu}, handle)
        os.replace(temporary, record)
    except OSError:
        pass
    return gain


def _measure(target_cpu: str) -> float:
    import numpy as np

    from ..compiler.compiler import BuildOptions, build

    with tempfile.TemporaryDirectory(prefix="kiln-fastmath-") as directory:
        path = os.path.join(directory, "kiln_fastmath_gain.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(SOURCE)
        result = build(path, os.path.join(directory, "out"),
                       BuildOptions(target_cpu=target_cpu))
        extension = result.artifacts["extension"]
        name = os.path.basename(extension).split(".")[0]
        spec = importlib.util.spec_from_file_location(name, extension)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules.pop(name, None)
        x = np.random.default_rng(13).random(ELEMENTS)

        def best(function):
            calls = 50
            times = []
            for _ in range(REPEATS):
                start = time.perf_counter()
                for _ in range(calls):
                    function(x)
                times.append(time.perf_counter() - start)
            return min(times)

        ordered, reassociated = module.ordered_sum, module.reassociated_sum
        best(ordered), best(reassociated)               # warm up
        return best(ordered) / best(reassociated)
