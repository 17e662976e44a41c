"""Vector math calls name only variants glibc's libmvec has (issue 27):
kiln-vectorize takes every `_ZGV` name from passes/LibmvecVariants.def, and
this checks that table against libmvec.so.1's dynamic symbols; a float32
math function in a loop sized for float64 lanes (2 lanes with SSE, where
libmvec has no `_ZGVbN2v_log10f`) builds, loads at every CPU level and
agrees with numpy; and a built module whose extension cannot load raises
ImportError naming it (never runs Python in its place)."""

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO, kiln_build
from kiln import cpu_levels

TABLE = os.path.join(REPO, "passes", "LibmvecVariants.def")
LIBMVEC = "/lib/x86_64-linux-gnu/libmvec.so.1"
NM = "/usr/lib/llvm-22/bin/llvm-nm"
FLOAT32_FUNCTIONS = ["exp", "log", "log2", "log10", "sin", "cos", "tan", "arcsin",
                     "arccos", "arctan", "sinh", "cosh", "tanh"]


def table():
    text = open(TABLE, encoding="utf-8").read()
    isas = re.findall(r"^LIBMVEC_ISA\('(\w)', \"(\w+)\", (\d+)\)", text, re.M)
    functions = re.findall(r"^LIBMVEC_FUNCTION\([\w:]+, (\w+), (\d)\)", text, re.M)
    assert isas and functions
    return isas, functions


@pytest.mark.skipif(not os.path.exists(LIBMVEC), reason="glibc's libmvec.so.1 is not here")
def test_every_variant_in_the_table_exists_in_libmvec():
    exported = subprocess.run([NM, "-D", "--defined-only", LIBMVEC], capture_output=True,
                              text=True, check=True).stdout
    names = {line.split()[-1].split("@")[0] for line in exported.splitlines() if line.strip()}
    isas, functions = table()
    implied = {f"_ZGV{letter}N{int(bits) // width}{'v' * int(operands)}_{name}{suffix}"
               for letter, _, bits in isas for name, operands in functions
               for width, suffix in ((64, ""), (32, "f"))}
    assert len(implied) == len(isas) * len(functions) * 2
    assert implied <= names, sorted(implied - names)


SOURCE = '''
import numpy as np
import kiln


@kiln.export
def mixed(a: kiln.f32[:], b: kiln.f64[:]) -> kiln.f64[:]:
    return np.{name}(a) + b


@kiln.export
def mixed_loop(a: kiln.f32[:], b: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(a)):
        out[i] = np.{name}(a[i]) + b[i]
'''

TWO_ARGUMENTS = '''

@kiln.export
def two(a: kiln.f32[:], c: kiln.f32[:], b: kiln.f64[:]) -> kiln.f64[:]:
    return np.arctan2(a, c) + np.power(a, c) + b
'''

CHECK = r"""
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
import mvec
a = np.linspace(0.05, 0.95, 37).astype(np.float32)
c = np.linspace(0.5, 2.5, 37).astype(np.float32)
b = np.arange(37.0)
out = np.zeros(37)
mvec.mixed_loop(a, b, out)
f = getattr(np, sys.argv[2])
expected = f(a) + b
tolerance = 8 * np.spacing(np.abs(f(a))).astype(np.float64)
assert np.all(np.abs(mvec.mixed(a, b) - expected) <= tolerance), sys.argv[2]
assert np.all(np.abs(out - expected) <= tolerance), sys.argv[2]
two = np.arctan2(a, c) + np.power(a, c) + b
assert np.allclose(mvec.two(a, c, b), two, rtol=1e-6, atol=1e-6)
print(mvec._kiln_native._kiln_cpu_version())
"""


@pytest.mark.parametrize("name", FLOAT32_FUNCTIONS)
def test_float32_math_beside_float64_loads_at_every_level(tmp_path, name):
    (tmp_path / "mvec.py").write_text(SOURCE.format(name=name) + TWO_ARGUMENTS)
    out = tmp_path / "out"
    result = kiln_build(str(tmp_path / "mvec.py"), out, "--target-cpu=portable")
    assert result.returncode == 0, result.stderr
    assert "fall back" not in result.stderr, result.stderr
    for level in range(2, cpu_levels.detected_level() + 1):
        env = dict(os.environ, KILN_CPU_LEVEL=f"v{level}")
        run = subprocess.run([sys.executable, "-c", CHECK, str(out), name],
                             capture_output=True, text=True, env=env)
        assert run.returncode == 0, (level, run.stderr[-3000:])
        assert run.stdout.strip() == f"x86-64-v{level}"


def test_a_module_whose_extension_cannot_load_says_so(tmp_path):
    shutil.copy(os.path.join(REPO, "examples", "kernels.py"), tmp_path / "kernels.py")
    out = tmp_path / "out"
    result = kiln_build(str(tmp_path / "kernels.py"), out)
    assert result.returncode == 0, result.stderr
    broken = tmp_path / "broken"
    shutil.copytree(out, broken)
    extension = next(p for p in broken.iterdir() if p.name.startswith("_kernels_kiln")
                     and p.name.endswith(".so"))
    extension.write_bytes(b"not an ELF file")
    run = subprocess.run([sys.executable, "-c", "import kernels; print(kernels.dot)"],
                         capture_output=True, text=True, cwd=broken,
                         env=dict(os.environ, PYTHONPATH=""))
    assert run.returncode != 0
    assert "ImportError: kernels was built by Kiln, but its native code" in run.stderr
    assert extension.name in run.stderr and "rebuild it with `kiln build`" in run.stderr
