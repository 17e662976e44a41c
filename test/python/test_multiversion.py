"""Portable artifacts by function multi-versioning (issue 14): `kiln build`
compiles every kernel for x86-64-v2, v3 and v4 into one library; each
public symbol is an IFUNC that picks, once, the highest version the CPU
reaches (runtime/kiln_dispatch.c), and KILN_CPU_LEVEL=v2|v3|v4 forces a
lower one. Checked here: the symbols, the choice on this CPU and under
each forced level (C and Python agree on it), the differential suites of
complex and bool array code run once per level, and, under qemu-user, the
same artifact on a CPU without AVX (Nehalem: v2) and one without AVX-512
(Haswell: v3)."""

import ctypes
import os
import shutil
import subprocess
import sys

import pytest

from conftest import kiln_build

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python_frontend"))

from kiln import cpu_levels  # noqa: E402

QEMU = shutil.which("qemu-x86_64")
KERNELS = ("dot", "saxpy", "count_positive", "collatz_steps", "clip", "sign")
VERSION = ("import sys, numpy as np; sys.path.insert(0, {out!r}); import kernels; "
           "print(kernels._kiln_native._kiln_cpu_version(), "
           "kernels.dot(np.arange(5.0), np.ones(5)), kernels.count_positive(np.arange(-3, 9)))")
EXPECTED = "10.0 8"


@pytest.fixture(scope="module")
def portable(tmp_path_factory):
    root = tmp_path_factory.mktemp("portable")
    source = root / "kernels.py"
    shutil.copy(os.path.join(REPO, "examples", "kernels.py"), source)
    out = root / "out"
    result = kiln_build(str(source), out, "--target-cpu=portable")
    assert result.returncode == 0, result.stderr
    return str(out)


def run(out, cpu_level=None, qemu_cpu=None):
    env = {k: v for k, v in os.environ.items() if k != "KILN_CPU_LEVEL"}
    if cpu_level:
        env["KILN_CPU_LEVEL"] = cpu_level
    command = ["/usr/bin/python3", "-c", VERSION.format(out=out)]
    if qemu_cpu:
        command = [QEMU, "-cpu", qemu_cpu] + command
        env.pop("LD_PRELOAD", None)     # (scripts/sanitize.sh's ASan runtime)
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    version, rest = result.stdout.strip().split(" ", 1)
    assert rest == EXPECTED
    return version


def test_every_kernel_is_one_dispatching_symbol(portable):
    """lib<mod>.so exports each kernel once, as an IFUNC (nm's `i`), plus
    kiln_cpu_version_<mod>; the three versions are local symbols."""
    library = os.path.join(portable, "libkernels.so")
    dynamic = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                             text=True, check=True).stdout.split("\n")
    # `kernels_dot@@KERNELS_1`: each symbol carries lib<mod>.so's version.
    kinds = {line.split()[-1].split("@")[0]: line.split()[1] for line in dynamic
             if line.strip()}
    for kernel in KERNELS:
        assert kinds.get(f"kernels_{kernel}") == "i", (kernel, kinds)
    assert kinds.get("kiln_cpu_version_kernels") == "T"
    local = subprocess.run(["nm", library], capture_output=True, text=True, check=True).stdout
    for kernel in KERNELS:
        for level in ("v2", "v3", "v4"):
            assert f"kernels_{kernel}.x86_64_{level}" in local
    with open(os.path.join(portable, "kernels.h"), encoding="utf-8") as header:
        assert "const char *kiln_cpu_version_kernels(void);" in header.read()


def test_this_cpu_runs_its_highest_level(portable):
    """The artifact's own choice equals the build record's and the
    report's: both ask the same CPUID code (runtime/kiln_dispatch.c)."""
    expected = cpu_levels.running_version(list(cpu_levels.PORTABLE))
    assert run(portable) == expected
    library = ctypes.CDLL(os.path.join(portable, "libkernels.so"))
    library.kiln_cpu_version_kernels.restype = ctypes.c_char_p
    if "KILN_CPU_LEVEL" not in os.environ:
        assert library.kiln_cpu_version_kernels().decode() == expected
    import json
    with open(os.path.join(portable, "kernels.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert record["cpu"]["versions"] == list(cpu_levels.PORTABLE)
    assert record["cpu"]["runs_here"] == cpu_levels.running_version(list(cpu_levels.PORTABLE))


@pytest.mark.parametrize("level", ["v2", "v3", "v4"])
def test_kiln_cpu_level_forces_a_lower_version(portable, level):
    host = cpu_levels.detected_level()
    want = f"x86-64-v{min(int(level[1]), max(host, 2))}"
    assert run(portable, cpu_level=level) == want


def test_c_programs_dispatch_too(portable, tmp_path):
    """A program linked with -lkernels runs the resolvers while the dynamic
    loader relocates, before libc has set `environ`: KILN_CPU_LEVEL must
    still count (runtime/kiln_dispatch.c reads /proc/self/environ then)."""
    program = tmp_path / "main.c"
    program.write_text('#include <stdio.h>\n#include "kernels.h"\n'
                       "int main(void) {\n"
                       "  int64_t xs[5] = {-2, -1, 0, 1, 2};\n"
                       "  kiln_i64_1d x = {xs, xs, 0, {5}, {1}};\n"
                       "  kiln_error error = {0};\n"
                       '  printf("%s %lld\\n", kiln_cpu_version_kernels(),\n'
                       "         (long long)kernels_count_positive(&x, &error));\n"
                       "  return 0;\n}\n")
    executable = tmp_path / "main"
    subprocess.run(["/usr/lib/llvm-22/bin/clang", "-Wall", "-Wextra", "-Werror", str(program),
                    "-I", portable, "-L", portable, "-lkernels", f"-Wl,-rpath,{portable}",
                    "-o", str(executable)], check=True)
    host = cpu_levels.detected_level()
    for level in ("", "v2", "v3", "v4"):
        env = {k: v for k, v in os.environ.items() if k not in ("KILN_CPU_LEVEL", "LD_PRELOAD")}
        if level:
            env["KILN_CPU_LEVEL"] = level
        want = f"x86-64-v{min(int(level[1]) if level else 4, max(host, 2))}"
        result = subprocess.run([str(executable)], capture_output=True, text=True, env=env,
                                check=True)
        assert result.stdout.split() == [want, "2"], (level, result.stdout)


def test_native_builds_have_one_version(tmp_path):
    source = tmp_path / "kernels.py"
    shutil.copy(os.path.join(REPO, "examples", "kernels.py"), source)
    result = kiln_build(str(source), tmp_path / "out", "--target-cpu=x86-64-v3")
    assert result.returncode == 0, result.stderr
    assert run(str(tmp_path / "out")) == "x86-64-v3"
    dynamic = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "out" /
                                                                 "libkernels.so")],
                             capture_output=True, text=True, check=True).stdout
    assert " T kernels_dot" in dynamic and " i " not in dynamic


@pytest.mark.skipif(QEMU is None, reason="scripts/setup.sh installs qemu-user")
@pytest.mark.parametrize("cpu, version", [("Nehalem", "x86-64-v2"), ("Haswell", "x86-64-v3")])
def test_one_artifact_runs_on_older_cpus(portable, cpu, version):
    """The default build, made on this (AVX-512) machine, runs on a CPU
    without AVX and on one without AVX-512, each with its own version."""
    assert run(portable, qemu_cpu=cpu) == version


@pytest.fixture(scope="module")
def builds_shared_by_levels(tmp_path_factory):
    return str(tmp_path_factory.mktemp("portable_builds"))


@pytest.mark.parametrize("level", ["v2", "v3", "v4"])
def test_differential_suites_per_level(level, builds_shared_by_levels):
    """Complex and bool array code (kiln-vectorize's scalar views), the
    array expressions, matrix products and parallel loops against numpy and
    CPython, with the kernels of one level; the
    conftest checks that each built module runs that level."""
    if cpu_levels.detected_level() < int(level[1]):
        pytest.skip(f"this CPU does not reach x86-64-{level}")
    # The plain run covers these suites' every case; the rerun per level
    # samples them (conftest.py, KILN_TEST_SAMPLE): every test function, on
    # its first, last and every third case, with each level's kernels. The
    # levels load the same portable builds (conftest.py,
    # KILN_TEST_SHARED_BUILDS): the first level's run makes them.
    env = dict(os.environ, KILN_CPU_LEVEL=level, KILN_TEST_TARGET_CPU="portable",
               KILN_TEST_EXPECT_CPU=f"x86-64-{level}",
               KILN_TEST_SAMPLE=os.environ.get("KILN_TEST_SAMPLE") or "3",
               KILN_TEST_SHARED_BUILDS=builds_shared_by_levels)
    files = [os.path.join(HERE, name) for name in (
        "test_complex_arrays.py", "test_array_shapes.py", "test_elementwise.py",
        "test_matmul.py", "test_prange.py")]
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             *files], capture_output=True, text=True, env=env, cwd=HERE,
                            timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
