"""`pip install .` (issue 14): into a fresh venv (with the system's numpy),
offline, reusing the checkout's CMake build. The installed `kiln` command
and `python -m kiln` then work from another directory with no PYTHONPATH
and no KILN_KILNC: the package finds the kilnc it carries (kiln/_bin)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def test_pip_install_gives_a_working_kiln(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KILN_KILNC")}
    install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                              "--no-deps", "--no-index", "--quiet", REPO],
                             capture_output=True, text=True, env=env, timeout=1800)
    assert install.returncode == 0, install.stdout + install.stderr
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "kernels.py").write_text(open(os.path.join(REPO, "examples", "kernels.py")).read())
    env["KILN_CACHE_DIR"] = str(tmp_path / "cache")
    built = subprocess.run([str(venv / "bin" / "kiln"), "build", "kernels.py", "-o", "out"],
                           cwd=work, capture_output=True, text=True, env=env)
    assert built.returncode == 0, built.stderr
    check = subprocess.run([python, "-c", (
        "import sys, kiln, numpy as np; sys.path.insert(0, 'out'); import kernels; "
        "from kiln.toolchain import find_kilnc; "
        "print(kiln.__file__); print(find_kilnc()); "
        "print(kernels.dot(np.arange(4.0), np.ones(4)))")],
        cwd=work, capture_output=True, text=True, env=env)
    assert check.returncode == 0, check.stderr
    package, kilnc, dot = check.stdout.split()
    assert package.startswith(str(venv)) and kilnc.startswith(str(venv)), check.stdout
    assert kilnc.endswith(os.path.join("kiln", "_bin", "kilnc"))
    assert float(dot) == 6.0
    version = subprocess.run([python, "-m", "kiln", "--version"], cwd=work,
                             capture_output=True, text=True, env=env)
    assert version.returncode == 0 and version.stdout.startswith("kiln "), version.stderr
