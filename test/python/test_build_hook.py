"""The build hook (kiln.build_hook, issue 14): examples/kiln_package built
with `pip wheel` (offline, Kiln from this checkout), its wheel installed into
a fresh venv that has numpy but no Kiln, and its compiled module called
there: native functions, numpy's results. The same for
examples/kiln_meson_package, built by meson-python (Debian's meson and
python3-mesonpy) with a custom_target that runs `kiln build`."""

import os
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def wheel_runs_without_kiln(tmp_path, example, prefix, script):
    """Builds examples/<example>'s wheel offline (Kiln from this checkout),
    installs it into a fresh venv that has numpy but no Kiln, runs `script`
    there and returns (the wheel's file names, the script's output)."""
    project = tmp_path / example
    shutil.copytree(os.path.join(REPO, "examples", example), project)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    wheel = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
                            "--no-deps", "--no-index", "-q", "-w", str(tmp_path / "dist"), "."],
                           cwd=project, capture_output=True, text=True, env=env, timeout=900)
    assert wheel.returncode == 0, wheel.stdout + wheel.stderr
    [built] = os.listdir(tmp_path / "dist")
    assert built.startswith(f"{prefix}-1.0-cp3") and built.endswith("linux_x86_64.whl"), built
    with zipfile.ZipFile(tmp_path / "dist" / built) as archive:
        names = archive.namelist()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KILN_KILNC")}
    python = str(venv / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                              str(tmp_path / "dist" / built)],
                             capture_output=True, text=True, env=clean)
    assert install.returncode == 0, install.stderr
    check = subprocess.run([python, "-c", "import importlib.util\n"
                            "assert importlib.util.find_spec('kiln') is None, 'Kiln is importable'\n"
                            + script], cwd=tmp_path, capture_output=True, text=True, env=clean)
    assert check.returncode == 0, check.stdout + check.stderr
    return names, check.stdout.strip()


def test_wheel_of_a_users_package_runs_without_kiln(tmp_path):
    names, output = wheel_runs_without_kiln(tmp_path, "kiln_package", "mypkg", (
        "import numpy as np\n"
        "import mypkg.kernels as k\n"
        "assert type(k.rms).__name__ == 'builtin_function_or_method'\n"
        "x = np.sin(np.arange(50.0))\n"
        "for width in (1, 3, 50):\n"
        "    np.testing.assert_allclose(k.moving_average(x, width),\n"
        "                               np.convolve(x, np.ones(width) / width, 'valid'))\n"
        "np.testing.assert_allclose(k.moving_average(x), np.convolve(x, np.ones(3) / 3, 'valid'))\n"
        "assert abs(k.rms(x) - np.sqrt(np.mean(x * x))) < 1e-12\n"
        "big = np.sin(np.arange(100_000.0))\n"
        "assert abs(k.energy(big) - np.sum(big * big)) < 1e-9 * np.sum(big * big)\n"
        # The OpenMP runtime the wheel carries, found through $ORIGIN
        # before the system's.
        "maps = open('/proc/self/maps').read()\n"
        "assert '/mypkg/libomp.so.5' in maps, [l for l in maps.splitlines() if 'omp' in l]\n"
        "print('ok')\n"))
    assert output == "ok"
    assert any(n.startswith("mypkg/_kernels_kiln") and n.endswith(".so") for n in names)
    assert "mypkg/libomp.so.5" in names, names
    assert not any(n.endswith((".c", ".mlir", ".json", ".yaml")) for n in names), names


def test_meson_python_wheel_runs_without_kiln(tmp_path):
    import importlib.util
    if shutil.which("meson") is None or importlib.util.find_spec("mesonpy") is None:
        import pytest
        pytest.skip("scripts/setup.sh installs meson and python3-mesonpy")
    names, output = wheel_runs_without_kiln(tmp_path, "kiln_meson_package", "mesonpkg", (
        "import numpy as np\n"
        "import mesonpkg.kernels as k\n"
        "assert type(k.smooth).__name__ == 'builtin_function_or_method'\n"
        "x = np.sin(np.arange(40.0))\n"
        "y = np.empty_like(x); y[0] = x[0]\n"
        "for i in range(1, len(x)): y[i] = 0.25 * x[i] + 0.75 * y[i - 1]\n"
        "np.testing.assert_array_equal(k.smooth(x, 0.25), y)\n"
        "assert abs(k.total(x) - np.sum(x * x)) < 1e-12\n"
        "print(k._kiln_native._kiln_cpu_version())\n"))
    assert output.startswith("x86-64-v"), output
    assert any(n.startswith("mesonpkg/_kernels_kiln") and n.endswith(".so") for n in names)
    assert "mesonpkg/kernels.py" in names and "mesonpkg/kernels.pyi" in names
