"""Kiln's Python boundary around kernels written by hand in C.

`build_extension` generates `<mod>.h` and the extension's C from
`FunctionSignature`s made by hand, exactly as `kiln build` does
(`kiln.native.wrapper`), compiles kernels with the same C ABI into
`lib<mod>.so` -- written in C, or in MLIR that kilnc lowers -- and the
extension against it with Clang 22 and this tree's runtime/, and imports
the extension. The boundary -- argument conversion, write-back, results,
errors -- is then tested (and timed, bench/lists.py) on its own, whatever
the frontend and the lowering can compile.
"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sysconfig
import types

from kiln import typesystem as kt
from kiln.mlir.code_generator import FunctionSignature
from kiln.native.wrapper import generate_extension, generate_header
from kiln.toolchain import find_kilnc
from kiln.typecheck.typed_tree import Parameter

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNTIME = os.path.join(REPO, "runtime")
CLANG = "/usr/lib/llvm-22/bin/clang"
# As kilnc compiles the extension (lib/Emitter/CCompiler.cpp), optimized.
EXTENSION_FLAGS = ["-std=gnu11", "-O2", "-march=native", "-fPIC", "-fwrapv",
                   "-fno-strict-aliasing", "-Wall", "-Wextra", "-Werror",
                   "-Wno-unused-parameter", "-Wno-unused-const-variable"]


def signature(name, params, return_type=None, raises=False, **fields) -> FunctionSignature:
    """A FunctionSignature as the frontend would make it; `params` are
    (name, type) pairs."""
    return FunctionSignature(name=name, params=[Parameter(n, t) for n, t in params],
                             return_type=return_type, raises=raises, written_arrays=set(),
                             line=1, source_line=f"def {name}(...)", **fields)


def abi_header() -> str:
    with open(os.path.join(RUNTIME, "kiln_abi.h"), encoding="utf-8") as handle:
        return handle.read()


def generate_sources(directory, module, signatures) -> tuple:
    """Writes `<mod>.h` and `_<mod>_kiln.c` into `directory`: their paths."""
    extension = f"_{module}_kiln"
    source = os.path.join(directory, f"{module}.py")
    context = types.SimpleNamespace(package_path=f"{module}.py", path=source,
                                    module_functions=lambda: {})
    header = os.path.join(directory, f"{module}.h")
    wrapper = os.path.join(directory, f"{extension}.c")
    with open(header, "w", encoding="utf-8") as handle:
        handle.write(generate_header(module, f"{module}.py", signatures, abi_header()))
    with open(wrapper, "w", encoding="utf-8") as handle:
        handle.write(generate_extension(module, extension, context, signatures))
    return header, wrapper


def build_extension(directory, module, signatures, kernels_c: str = None,
                    kernels_mlir: str = None):
    """The extension module of `signatures` around `lib<mod>.so`, built
    from `kernels_c` (C that includes `<mod>.h`; the CPU-version function
    is added here) or from `kernels_mlir` (the kernels as MLIR, function
    `f` named `@<mod>_f`, compiled by kilnc as `kiln build` does)."""
    directory = str(directory)
    _, wrapper = generate_sources(directory, module, signatures)
    library = os.path.join(directory, f"lib{module}.so")
    if kernels_mlir is not None:
        source = os.path.join(directory, f"{module}.mlir")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(kernels_mlir)
        subprocess.run([find_kilnc(), source, "--emit=shared", "--target-cpu=native",
                        f"--cpu-version-symbol=kiln_cpu_version_{module}", "-o", library],
                       check=True)
    else:
        kernels = os.path.join(directory, f"{module}_kernels.c")
        with open(kernels, "w", encoding="utf-8") as handle:
            handle.write(f'#include "{module}.h"\n{kernels_c}\nconst char '
                         f'*kiln_cpu_version_{module}(void) {{ return "handwritten"; }}\n')
        subprocess.run([CLANG, "-std=c11", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra",
                        "-Werror", "-I", directory, kernels, "-o", library], check=True)
    extension = f"_{module}_kiln"
    shared = os.path.join(directory, extension + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([CLANG, *EXTENSION_FLAGS, "-shared", "-I", sysconfig.get_paths()["include"],
                    "-I", directory, "-I", RUNTIME, wrapper, "-L", directory, f"-l{module}",
                    f"-Wl,-rpath,{directory}", "-o", shared], check=True)
    loader = importlib.machinery.ExtensionFileLoader(extension, shared)
    spec = importlib.util.spec_from_file_location(extension, shared, loader=loader)
    loaded = importlib.util.module_from_spec(spec)
    loader.exec_module(loaded)
    return loaded


FLOATS, INTS, BOOLS = kt.ListType(kt.f64), kt.ListType(kt.i64), kt.ListType(kt.boolean)
