"""Kiln as a build step of the user's package: setuptools' `build_py` that
compiles every module with `@kiln.export` or `@kiln.vectorize` functions as
`kiln build --release` does, so that `pip wheel .` gives a wheel whose
modules import without Kiln installed (as Cython's `cythonize` and
Pythran's `PythranExtension` do for theirs). In the user's setup.py:

    from setuptools import setup
    from kiln.build_hook import KilnBuildPy, KilnDistribution

    setup(cmdclass={"build_py": KilnBuildPy}, distclass=KilnDistribution)

with `kiln` among `[build-system] requires` (or installed, with
`pip wheel --no-build-isolation`). examples/kiln_package is a whole
project; docs/cli.md ("Building a wheel") says more."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

# What a wheel keeps of `kiln build`'s output: the module (its compiled
# stand-in), its stubs, its header and the native libraries; the rest
# (C of the wrapper, MLIR, remarks, the report's record) stays out.
SHIPPED_SUFFIXES = (".py", ".pyi", ".so", ".h")


def exports_functions(path: str) -> bool:
    """Whether the module has a function decorated `@kiln.export` or
    `@kiln.vectorize` (`@export` after `from kiln import export` too)."""
    try:
        with open(path, "rb") as source:
            tree = ast.parse(source.read(), path)
    except (OSError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(
                    target, "id", "")
                if name in ("export", "vectorize", "guvectorize"):
                    return True
    return False


def carry_runtime_libraries(outdir: str, module: str) -> None:
    """Copies the runtime libraries the module's record names (libomp.so.5
    for parallel loops) from where this machine's loader finds them into
    `outdir`, beside the module's libraries, whose DT_RUNPATH $ORIGIN finds
    them there first: the wheel runs where no libomp is installed."""
    import json
    import shutil
    with open(os.path.join(outdir, f"{module}.kiln.json"), encoding="utf-8") as handle:
        needed = json.load(handle).get("runtime_libraries", [])
    if not needed:
        return
    library = os.path.join(outdir, f"lib{module}.so")
    listing = subprocess.run(["ldd", library], capture_output=True, text=True,
                             check=True).stdout
    found = dict(re.findall(r"^\s*(\S+) => (/\S+)", listing, re.MULTILINE))
    for name in needed:
        if name not in found:
            raise RuntimeError(f"kiln: {library} needs {name}, which this machine's loader "
                               "does not find; install it (Debian: libomp5-22)")
        if not os.path.exists(os.path.join(outdir, name)):
            shutil.copy2(found[name], os.path.join(outdir, name))


class KilnBuildPy(build_py):
    """build_py, then each Kiln module of the packages compiled in place of
    its copy in the build directory."""

    def run(self):
        super().run()
        for package, module, source in self.find_all_modules():
            if exports_functions(source):
                self.compile_module(package, module, source)

    def compile_module(self, package, module, source):
        outdir = os.path.join(self.build_lib, *package.split(".")) if package else \
            self.build_lib
        before = set(os.listdir(outdir))
        command = [sys.executable, "-m", "kiln", "build", source, "-o", outdir, "--release",
                   "-q"]
        self.announce(f"kiln: compiling {source}", level=2)
        subprocess.run(command, check=True)
        carry_runtime_libraries(outdir, module)
        for name in set(os.listdir(outdir)) - before:
            # lib<mod>.so.N: what a C program linked with -l<mod> loads.
            if not name.endswith(SHIPPED_SUFFIXES) and not re.search(r"\.so\.\d+$", name):
                os.remove(os.path.join(outdir, name))


class KilnDistribution(Distribution):
    """A distribution with native libraries inside: its wheel is for this
    platform (and Python ABI), not a pure-Python one."""

    def has_ext_modules(self):
        return True
