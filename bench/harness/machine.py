"""The machine and software a run measured, and keeping the machine quiet
while it measures."""

import os
import platform
import subprocess
import time

from . import layout


def cpuinfo() -> dict:
    fields = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if ":" not in line:
                    if fields:
                        break  # the first processor describes them all here
                    continue
                key, value = (part.strip() for part in line.split(":", 1))
                fields.setdefault(key, value)
    except OSError:
        pass
    return fields


def cache_sizes() -> dict:
    sizes = {}
    for name in ("LEVEL1_DCACHE_SIZE", "LEVEL2_CACHE_SIZE", "LEVEL3_CACHE_SIZE"):
        try:
            value = subprocess.run(["getconf", name], capture_output=True, text=True).stdout.strip()
            sizes[name] = int(value) if value.isdigit() else None
        except OSError:
            sizes[name] = None
    return sizes


def memory_bytes():
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def first_line(command: list) -> str:
    try:
        output = subprocess.run(command, capture_output=True, text=True, timeout=60)
        text = (output.stdout or output.stderr).strip()
        return text.splitlines()[0] if text else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def module_version(name: str):
    try:
        return __import__(name).__version__
    except Exception:  # noqa: BLE001 - a missing peer is reported, not fatal
        return None


def kiln_revision() -> dict:
    def git(*args):
        return subprocess.run(["git", "-C", layout.REPO, *args], capture_output=True,
                              text=True).stdout.strip()
    return {"commit": git("rev-parse", "--short", "HEAD"),
            "dirty_files": len([line for line in git("status", "--porcelain").splitlines()
                                if line.strip()])}


def describe() -> dict:
    info = cpuinfo()
    flags = set(info.get("flags", "").split())
    return {
        "cpu_model": info.get("model name", platform.processor()),
        "cpu_family": info.get("cpu family"), "cpu_model_number": info.get("model"),
        "logical_cpus": os.cpu_count(),
        "isa": {name: name in flags for name in ("sse4_2", "avx", "avx2", "fma", "avx512f",
                                                 "avx512vl", "avx512dq", "avx512bw")},
        "caches": cache_sizes(),
        "memory_bytes": memory_bytes(),
        "kernel": platform.release(),
        "software": {
            "python": platform.python_version(),
            "numpy": module_version("numpy"), "numba": module_version("numba"),
            "pythran": module_version("pythran"), "cython": module_version("Cython"),
            "cffi": module_version("cffi"), "matplotlib": module_version("matplotlib"),
            "clang": first_line([layout.CLANG, "--version"]),
            "system_cc": first_line([layout.SYSTEM_CC, "--version"]),
            "kiln": kiln_revision(),
        },
    }


def busy_builds() -> list:
    """Compiler jobs that would make timings noisy (the lead builds Kiln on
    this machine): a running ninja or make."""
    found = []
    for name in ("ninja", "make"):
        result = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True)
        found += [f"{name}:{pid}" for pid in result.stdout.split()]
    return found


def wait_until_quiet(log, max_wait_seconds: float) -> dict:
    """Waits for running builds to end (up to max_wait_seconds) and reports
    how quiet the machine was when timing started."""
    start = time.time()
    announced = False
    while True:
        busy = busy_builds()
        if not busy or time.time() - start >= max_wait_seconds:
            break
        if not announced:
            log(f"waiting for {', '.join(busy)} to finish before timing "
                f"(up to {max_wait_seconds:.0f} s; --max-wait changes it)")
            announced = True
        time.sleep(5)
    return {"waited_s": round(time.time() - start, 1), "builds_running": busy,
            "load_average_1min": os.getloadavg()[0]}


def pin_to_one_cpu():
    """Timings run on one CPU (the last), so the scheduler never moves a
    batch mid-way; children (the C timers live in this process) inherit it."""
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1]
    os.sched_setaffinity(0, {chosen})
    return allowed, chosen


def unpin(allowed):
    os.sched_setaffinity(0, set(allowed))
