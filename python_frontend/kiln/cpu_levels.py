"""The x86-64 microarchitecture levels of a portable build (`kiln build
--target-cpu=portable`, the default): which versions of the kernels an
artifact holds, and which one runs on this machine.

The artifact decides for itself at load time, by CPUID
(runtime/kiln_dispatch.c, `__kiln_cpu_level`). That C file is the one
source of the rule: this module asks the same code, built as
libkiln_cpu.so, through ctypes -- never /proc/cpuinfo, whose flag list
kernels and hypervisors edit (an AVX-512 EPYC's omits `abm`). kilnc links
the same file for its reports."""

import ctypes
import hashlib
import os

PORTABLE = ("x86-64-v2", "x86-64-v3", "x86-64-v4")
LIBRARY = "libkiln_cpu.so"


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


def library_path() -> str:
    """libkiln_cpu.so, built and installed beside kilnc (toolchain.find_kilnc
    says where that is: KILN_KILNC, the package's kiln/_bin, this checkout's
    build, PATH): in kilnc's folder (pip) or in ../lib beside it (a build
    tree, an install prefix)."""
    from .errors import KilnToolchainError
    from .toolchain import find_kilnc
    tools = os.path.dirname(find_kilnc())
    for candidate in (os.path.join(tools, LIBRARY), os.path.join(tools, "..", "lib", LIBRARY)):
        if os.path.exists(candidate):
            return os.path.normpath(candidate)
    raise KilnToolchainError(f"{LIBRARY} not found beside kilnc in {tools} (it is built with "
                             "kilnc): build Kiln (cmake --build build) or set KILN_KILNC")


_LIBRARY = None


def _library():
    global _LIBRARY
    if _LIBRARY is None:
        library = ctypes.CDLL(library_path())
        library.kiln_cpu_level_forced_to.argtypes = [ctypes.c_char_p]
        library.kiln_cpu_level_forced_to.restype = ctypes.c_int
        library.kiln_cpu_signature.argtypes = [ctypes.POINTER(ctypes.c_uint), ctypes.c_int]
        library.kiln_cpu_signature.restype = ctypes.c_int
        _LIBRARY = library
    return _LIBRARY


def detected_level() -> int:
    """The level this CPU and OS reach (1..4), KILN_CPU_LEVEL ignored: what
    `--target-cpu=native` code may use."""
    return _library().kiln_cpu_level_forced_to(None)


def host_level() -> int:
    """The level a portable artifact's resolvers pick here: detected_level()
    lowered by KILN_CPU_LEVEL (interpreted by the C code alone)."""
    forced = os.environ.get("KILN_CPU_LEVEL")
    return _library().kiln_cpu_level_forced_to(
        forced.encode("utf-8", "replace") if forced is not None else None)


def signature() -> str:
    """A key for code compiled for this CPU (`native`): CPUID's identity
    and feature words and the OS's saved register state."""
    words = (ctypes.c_uint * 12)()
    count = _library().kiln_cpu_signature(words, 12)
    return hashlib.sha256(bytes(memoryview(words))[:4 * count]).hexdigest()[:16]


def runs_here(cpu: str) -> bool:
    """Whether code built for `cpu` surely runs on this machine: `native`,
    or a level this CPU reaches. A named CPU (`skylake-avx512`, `Haswell`)
    is not known to: its features are LLVM's to tell."""
    return cpu == "native" or 0 < level_of(cpu) <= host_level()


def running_version(cpus: list):
    """Which of `cpus` runs here: the highest level this CPU reaches (the
    lowest when it reaches none); the one CPU of a single-version build."""
    if len(cpus) < 2:
        return cpus[0] if cpus else None
    reached = [c for c in cpus if level_of(c) <= host_level()]
    return reached[-1] if reached else cpus[0]
