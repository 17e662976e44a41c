"""Everything the run measures, built at run time into build/bench/:
Kiln's module (and a boundscheck=False variant of the same source), the
peers from a fresh copy of the shared folder, the C batch timers and the
physical-limit probes. Peer builds that fail are recorded and their
columns stay empty; a Kiln build that fails (or falls back to Python)
stops the run."""

import os
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from . import layout

C_STRICT_FLAGS = ["-O3", "-march=native"]
C_FAST_FLAGS = ["-O3", "-march=native", "-ffast-math"]
# Kiln's float semantics in C: clang contracts a*b+c into an FMA by default
# (-ffp-contract=on); Kiln never does, so this variant computes the same bits.
C_EXACT_FLAGS = ["-O3", "-march=native", "-ffp-contract=off"]
C_VARIANTS = (("c_strict", C_STRICT_FLAGS), ("c_fast", C_FAST_FLAGS), ("c_exact", C_EXACT_FLAGS))
# The timing loop itself needs no -O3: it only calls the kernel.
TIMER_FLAGS = ["-O2", "-march=native", "-fPIC"]


class BuildError(RuntimeError):
    pass


@dataclass
class Build:
    peers_source: str = ""
    kiln: str = ""              # kiln build output of bench/kernels_kiln.py
    kiln_variants: dict = field(default_factory=dict)  # "nocheck"/"fastmath" -> build output
    timers: dict = field(default_factory=dict)   # variant -> batch-timer shared library
    objects: dict = field(default_factory=dict)  # variant -> object file with the kernels
    probes: dict = field(default_factory=dict)   # stream, peakflops, fma_peak_avx512
    python_dirs: dict = field(default_factory=dict)  # peer -> directory holding its module
    seconds: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)


def run_logged(command, log_name, cwd=None, env=None):
    """Runs a build command; its output goes to build/bench/logs/LOG_NAME.txt."""
    os.makedirs(layout.build_path("logs"), exist_ok=True)
    log_path = layout.build_path("logs", f"{log_name}.txt")
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    with open(log_path, "a", encoding="utf-8") as handle:
        handle.write("$ " + " ".join(command) + "\n" + result.stdout + result.stderr + "\n")
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-8:])
        raise BuildError(f"{' '.join(command[:3])} ... failed (log: {log_path}):\n{tail}")
    return result


def fresh_directory(*parts):
    path = layout.build_path(*parts)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def kiln_build(source, outdir, log_name):
    """`kiln build` of one source; a fallback to Python fails the run, since
    the suite would then time CPython under Kiln's name."""
    shutil.rmtree(outdir, ignore_errors=True)
    result = run_logged([layout.KILN, "build", source, "-o", outdir], log_name)
    fallbacks = [line for line in result.stderr.splitlines() if line.startswith("kiln: fallback:")]
    if fallbacks:
        raise BuildError("kiln build left functions to Python:\n" + "\n".join(fallbacks))
    return result


# Variants of bench/kernels_kiln.py with one option on every @kiln.export,
# built as modules of their own: what the bounds checks cost, and Kiln in
# the float mode of C -ffast-math and Numba fastmath.
VARIANTS = {"nocheck": "boundscheck=False", "fastmath": "fastmath=True"}


def variant_source(suffix, option, directory):
    with open(layout.KERNELS_SOURCE, encoding="utf-8") as handle:
        text = handle.read()
    variant, count = re.subn(r"^@kiln\.export$", f"@kiln.export({option})", text, flags=re.M)
    if count == 0:
        raise BuildError("no bare @kiln.export found in bench/kernels_kiln.py")
    path = os.path.join(directory, f"{layout.KILN_MODULE}_{suffix}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(variant)
    return path


def build_kiln(build):
    build.kiln = layout.build_path("kiln")
    kiln_build(layout.KERNELS_SOURCE, build.kiln, "kiln")
    sources = fresh_directory("kiln_variant_sources")
    for suffix, option in VARIANTS.items():
        outdir = layout.build_path(f"kiln_{suffix}")
        kiln_build(variant_source(suffix, option, sources), outdir, f"kiln_{suffix}")
        build.kiln_variants[suffix] = outdir


def copy_peers(build):
    """A fresh copy of the shared peer sources for this run (the shared
    folder is read-only and is never built in place)."""
    build.peers_source = layout.build_path("peers_source")
    shutil.rmtree(build.peers_source, ignore_errors=True)
    shutil.copytree(layout.PEERS_SOURCE, build.peers_source)
    for name in os.listdir(build.peers_source):
        os.chmod(os.path.join(build.peers_source, name), 0o644)


def build_c_timers(build):
    directory = fresh_directory("c")
    src = build.peers_source
    for variant, flags in C_VARIANTS:
        obj = os.path.join(directory, f"ckernels_{variant}.o")
        run_logged([layout.CLANG, *flags, "-fPIC", "-c", os.path.join(src, "ckernels.c"),
                    "-o", obj], "c_reference")
        build.objects[variant] = obj
    timer_obj = os.path.join(directory, "time_reference.o")
    run_logged([layout.CLANG, *TIMER_FLAGS, f"-I{layout.NATIVE_SOURCE}", f"-I{src}", "-c",
                os.path.join(layout.NATIVE_SOURCE, "time_reference.c"), "-o", timer_obj],
               "c_reference")
    for variant, _ in C_VARIANTS:
        library = os.path.join(directory, f"libtime_{variant}.so")
        # -Bsymbolic: the variants' libraries define the same k_* names;
        # each timer must call its own copy.
        run_logged([layout.CLANG, "-shared", "-Wl,-Bsymbolic", timer_obj, build.objects[variant],
                    "-o", library, "-lm"], "c_reference")
        build.timers[variant] = library
    kiln_obj = os.path.join(directory, "time_kiln.o")
    run_logged([layout.CLANG, *TIMER_FLAGS, f"-I{layout.NATIVE_SOURCE}", f"-I{build.kiln}", "-c",
                os.path.join(layout.NATIVE_SOURCE, "time_kiln.c"), "-o", kiln_obj], "kiln_timer")
    library = os.path.join(directory, "libtime_kiln.so")
    run_logged([layout.CLANG, "-shared", kiln_obj, f"-L{build.kiln}", f"-l{layout.KILN_MODULE}",
                f"-Wl,-rpath,{build.kiln}", "-o", library], "kiln_timer")
    build.timers["kiln_c_abi"] = library


def openmp_build(source, output, extra, log_name, build, key):
    """clang-22 with libomp when it is installed, else gcc's libgomp."""
    try:
        run_logged([layout.CLANG, "-O3", "-march=native", "-fopenmp", *extra, source, "-o", output],
                   log_name)
        build.notes[key] = "clang-22 -O3 -march=native -fopenmp"
    except BuildError:
        run_logged([layout.SYSTEM_CC, "-O3", "-march=native", "-fopenmp", *extra, source, "-o",
                    output], log_name)
        build.notes[key] = f"{layout.SYSTEM_CC} -O3 -march=native -fopenmp (no libomp for clang)"


def build_probes(build, stream_sizes):
    """stream_sizes: {name: bytes per array}; "stream" is the bandwidth
    limit, any other size shows how much of it the caches still serve."""
    directory = fresh_directory("limits")
    src = build.peers_source
    for name, array_bytes in stream_sizes.items():
        stream = os.path.join(directory, name)
        openmp_build(os.path.join(src, "stream.c"), stream, [f"-DNBYTES=({array_bytes}L)"],
                     "limits", build, "stream")
        build.probes[name] = stream
    peak = os.path.join(directory, "peakflops")
    openmp_build(os.path.join(src, "peakflops.c"), peak, [], "limits", build, "peakflops")
    build.probes["peakflops"] = peak
    zmm = os.path.join(directory, "fma_peak_avx512")
    openmp_build(os.path.join(layout.NATIVE_SOURCE, "fma_peak_avx512.c"), zmm, [], "limits",
                 build, "fma_peak_avx512")
    build.probes["fma_peak_avx512"] = zmm


def build_fastcall_extension(build):
    directory = fresh_directory("fastcall_ext")
    # The same compiler Kiln compiles its wrappers with (Clang 22, -O3), so
    # the comparison is of the code, not of the compilers.
    run_logged([layout.CLANG, "-O3", "-march=native", "-fPIC", "-shared",
                f"-I{layout.PYTHON_INCLUDE}", f"-I{np.get_include()}",
                os.path.join(build.peers_source, "fastcall_ext.c"),
                "-o", os.path.join(directory, "fastcall_ext" + layout.EXTENSION_SUFFIX)],
               "fastcall_ext")
    build.python_dirs["fastcall_ext"] = directory


def build_cython(build):
    directory = fresh_directory("cython")
    pyx = os.path.join(directory, "kernels_cy.pyx")
    shutil.copy(os.path.join(build.peers_source, "kernels_cy.pyx"), pyx)
    run_logged(["cython3", "-3", pyx, "-o", os.path.join(directory, "kernels_cy.c")], "cython")
    run_logged([layout.SYSTEM_CC, "-O3", "-march=native", "-fPIC", "-shared",
                f"-I{layout.PYTHON_INCLUDE}", os.path.join(directory, "kernels_cy.c"),
                "-o", os.path.join(directory, "kernels_cy" + layout.EXTENSION_SUFFIX)], "cython")
    build.python_dirs["cython"] = directory


def build_pythran(build):
    directory = fresh_directory("pythran")
    # The plain-loop kernels carry the `#pythran export` lines.
    shutil.copy(os.path.join(build.peers_source, "kernels.py"),
                os.path.join(directory, "kernels_pt.py"))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    run_logged(["pythran", "-O3", "-march=native", "kernels_pt.py",
                "-o", "kernels_pt" + layout.EXTENSION_SUFFIX], "pythran", cwd=directory, env=env)
    build.python_dirs["pythran"] = directory


def build_cffi(build):
    directory = fresh_directory("cffi")
    run_logged([layout.PYTHON, os.path.join(layout.BENCH, "harness", "cffi_build.py"), directory,
                os.path.join(build.kiln, f"{layout.KILN_MODULE}.h"), build.kiln,
                layout.KILN_MODULE], "cffi")
    build.python_dirs["cffi"] = directory


def timed_step(build, name, function, *args, required=False):
    start = time.perf_counter()
    try:
        function(build, *args)
    except (BuildError, OSError) as error:
        if required:
            raise
        build.errors[name] = str(error)
    finally:
        build.seconds[name] = round(time.perf_counter() - start, 2)


def build_all(log, stream_sizes) -> Build:
    os.makedirs(layout.BUILD, exist_ok=True)
    shutil.rmtree(layout.build_path("logs"), ignore_errors=True)
    build = Build()
    log("building Kiln's module (and its boundscheck=False and fastmath=True variants) ...")
    timed_step(build, "kiln", build_kiln, required=True)
    copy_peers(build)
    timed_step(build, "c_timers", build_c_timers, required=True)
    log("building peers and probes (two at a time) ...")
    steps = [("pythran", build_pythran, ()), ("cython", build_cython, ()),
             ("fastcall_ext", build_fastcall_extension, ()), ("cffi", build_cffi, ()),
             ("limits", build_probes, (stream_sizes,))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(timed_step, build, name, function, *args)
                       for name, function, args in steps]:
            future.result()
    for name, message in build.errors.items():
        log(f"  !! build of {name} failed: {message}")
    return build
