"""The x86-64 microarchitecture levels of a portable build (`kiln build
--target-cpu=portable`, the default): which versions of the kernels an
artifact holds, and which one runs on this machine. The artifact decides
for itself at load time (runtime/kiln_dispatch.c, `__kiln_cpu_level`); this
is the same rule, read from /proc/cpuinfo, for the build record and the
report (test_multiversion.py checks that both agree)."""

import os

PORTABLE = ("x86-64-v2", "x86-64-v3", "x86-64-v4")

# /proc/cpuinfo flags each level adds (lzcnt shows as `abm`).
LEVEL_FLAGS = {
    2: {"ssse3", "sse4_1", "sse4_2", "popcnt", "cx16"},
    3: {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe"},
    4: {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
}


def level_of(cpu: str) -> int:
    """2, 3 or 4 for x86-64-v2..v4, else 0."""
    if cpu.startswith("x86-64-v") and cpu[-1:] in "234" and len(cpu) == len("x86-64-v2"):
        return int(cpu[-1])
    return 0


def versions(target_cpu: str) -> list:
    """The CPUs an artifact built with `--target-cpu=target_cpu` has code for."""
    if target_cpu == "portable":
        return list(PORTABLE)
    cpus = [c for c in target_cpu.split(",") if c]
    if len(cpus) > 1:
        return sorted(set(cpus), key=level_of)
    return cpus


def host_level() -> int:
    flags = set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        return 2
    level = 1
    for candidate in (2, 3, 4):
        if not LEVEL_FLAGS[candidate] <= flags:
            break
        level = candidate
    forced = os.environ.get("KILN_CPU_LEVEL", "")
    if len(forced) == 2 and forced[0] == "v" and forced[1] in "1234":
        level = min(level, int(forced[1]))
    return level


def running_version(cpus: list):
    """Which of `cpus` runs here: the highest level this CPU reaches (the
    lowest when it reaches none); the one CPU of a single-version build."""
    if len(cpus) < 2:
        return cpus[0] if cpus else None
    reached = [c for c in cpus if level_of(c) <= host_level()]
    return reached[-1] if reached else cpus[0]
