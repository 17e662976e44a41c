"""The compiled half of `pip install .` (pyproject.toml holds the rest):
build Kiln's C++ tools with CMake and ship them inside the package, at
kiln/_bin, where kiln.toolchain looks first. The tools link the
system's LLVM/MLIR/Clang 22 shared libraries (Debian's llvm-22 packages),
so the wheel is for this platform only."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = {"bin/kilnc": "kilnc", "bin/kiln-opt": "kiln-opt",
         "lib/KilnLLVMPasses.so": "KilnLLVMPasses.so", "lib/libkiln_cpu.so": "libkiln_cpu.so"}


class BuildWithTools(build_py):
    def run(self):
        super().run()
        # ./build is CMake's (scripts/build.sh: configured once, then
        # incremental, so a checkout that is built already installs at once).
        subprocess.run(["sh", os.path.join(HERE, "scripts", "build.sh")], check=True)
        target = os.path.join(self.build_lib, "kiln", "_bin")
        os.makedirs(target, exist_ok=True)
        for source, name in TOOLS.items():
            shutil.copy2(os.path.join(HERE, "build", source), os.path.join(target, name))


class PlatformDistribution(Distribution):
    def has_ext_modules(self):
        return True     # binaries inside: a platform wheel, not a pure one


setup(cmdclass={"build_py": BuildWithTools}, distclass=PlatformDistribution,
      # setuptools' own build directory, apart from CMake's ./build tree
      options={"build": {"build_base": os.path.join("build", "setuptools")}})
