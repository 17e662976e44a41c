"""A module compiled for a CPU refuses to import on one that lacks its
instruction set extensions, with an ImportError naming the missing one,
instead of dying of SIGILL at its first call (issue 14). Debian's
qemu-user runs the whole Python process as an older CPU: `-cpu Nehalem`
is an x86-64-v2 machine without AVX, `-cpu Haswell` an AVX2 one without
AVX-512. The targets are named (skylake-avx512, x86-64-v3, x86-64-v2), so
the test does not depend on the CPU it runs on."""

import glob
import os
import re
import shutil
import subprocess

import pytest

from conftest import kiln_build

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

QEMU = shutil.which("qemu-x86_64")
pytestmark = pytest.mark.skipif(QEMU is None, reason="scripts/setup.sh installs qemu-user")

CALL = ("import sys, numpy as np; sys.path.insert(0, {out!r}); import kernels; "
        "print(kernels.dot(np.arange(5.0), np.ones(5)))")


def run_as(cpu, out):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    return subprocess.run([QEMU, "-cpu", cpu, "/usr/bin/python3", "-c", CALL.format(out=out)],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("cpu_guard")
    source = root / "kernels.py"
    shutil.copy(os.path.join(REPO, "examples", "kernels.py"), source)
    outs = {}
    for target in ("skylake-avx512", "x86-64-v3", "x86-64-v2"):
        out = root / target
        result = kiln_build(str(source), out, f"--target-cpu={target}")
        assert result.returncode == 0, result.stderr
        outs[target] = str(out)
    return outs


@pytest.mark.parametrize("target, cpu, missing", [
    ("skylake-avx512", "Haswell", "avx512f"),
    ("skylake-avx512", "Nehalem", "avx"),
    ("x86-64-v3", "Nehalem", "avx"),
])
def test_cpu_without_the_targets_extensions_gets_an_import_error(builds, target, cpu, missing):
    result = run_as(cpu, builds[target])
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert (f"ImportError: kernels was compiled for a CPU with {missing}, which this CPU (or "
            "its operating system) does not support") in result.stderr, result.stderr
    assert "Illegal instruction" not in result.stderr


@pytest.mark.parametrize("target, cpu", [("x86-64-v3", "Haswell"), ("x86-64-v2", "Nehalem"),
                                         ("x86-64-v2", "Haswell")])
def test_cpu_with_the_targets_extensions_runs_it(builds, target, cpu):
    result = run_as(cpu, builds[target])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "10.0"


def test_the_check_itself_is_baseline_code(builds):
    """The module's init (with the CPU check inlined into it) holds no
    instruction beyond baseline x86-64: no VEX/EVEX (v-prefixed) mnemonic,
    no ymm/zmm register. Clang gives a `target("arch=x86-64")` function the
    command line's features too; kilnc drops them (prepareForTarget)."""
    [extension] = glob.glob(os.path.join(builds["skylake-avx512"], "_kernels_kiln*.so"))
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", extension],
                             capture_output=True, text=True, check=True).stdout
    body = re.search(r"<PyInit_\w+>:\n(.*?)\n\n", listing, re.S)
    assert body, "no PyInit_ in the extension"
    instructions = [line.split("\t")[-1] for line in body.group(1).splitlines() if "\t" in line]
    assert len(instructions) > 20
    wide = [i for i in instructions if re.match(r"v[a-z]", i) or re.search(r"[yz]mm", i)]
    assert not wide, wide
