"""Builds test modules with `kiln build` once per session and imports both
the compiled stub and the plain-Python source, so tests can compare them."""

import importlib.util
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODULES = os.path.join(HERE, "modules")
sys.path.insert(0, os.path.join(REPO, "python_frontend"))


def import_from(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def import_plain_python(path, name):
    """The module as CPython runs it: @kiln.export left as a marker."""
    previous = os.environ.get("KILN_DISABLE")
    os.environ["KILN_DISABLE"] = "1"
    try:
        return import_from(path, name)
    finally:
        if previous is None:
            del os.environ["KILN_DISABLE"]
        else:
            os.environ["KILN_DISABLE"] = previous


class Built:
    def __init__(self, name, outdir):
        self.name = name
        self.outdir = outdir
        self.native = import_from(os.path.join(outdir, f"{name}.py"), f"kiln_built_{name}")
        self.python = import_plain_python(os.path.join(MODULES, f"{name}.py"),
                                          f"kiln_source_{name}")
        # test_multiversion.py runs suites with KILN_CPU_LEVEL: each module
        # must run the version it asks for.
        expected = os.environ.get("KILN_TEST_EXPECT_CPU")
        if expected:
            running = self.native._kiln_native._kiln_cpu_version()
            assert running == expected, (name, running, expected)

    def path(self, filename):
        return os.path.join(self.outdir, filename)


def kiln_build(source, outdir, *extra):
    # KILN_TEST_TARGET_CPU=x86-64-v3 runs the suite on AVX2 code on an
    # AVX-512 machine (the vector widths and libmvec variants change). By
    # default the suite builds for this machine only: a portable build
    # (kiln build's default) lowers every kernel three times, and
    # test_multiversion.py runs suites on portable builds, once per level.
    target = os.environ.get("KILN_TEST_TARGET_CPU", "native")
    if target and not any(e.startswith("--target-cpu") for e in extra):
        extra = (*extra, f"--target-cpu={target}")
    command = [sys.executable, "-m", "kiln", "build", source, "-o", str(outdir), *extra]
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    return subprocess.run(command, capture_output=True, text=True, env=env)


@pytest.fixture(scope="session")
def build_module(tmp_path_factory):
    cache = {}

    def build(name):
        if name not in cache:
            outdir = tmp_path_factory.mktemp(f"kiln_{name}")
            result = kiln_build(os.path.join(MODULES, f"{name}.py"), outdir)
            assert result.returncode == 0, result.stderr
            cache[name] = Built(name, str(outdir))
        return cache[name]

    return build
