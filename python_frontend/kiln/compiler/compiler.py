"""The build, as ordered stages:

1. parse    -- read the module's syntax tree and imports (source.py)
2. mlir     -- emit MLIR for every exported function (code_generator.py)
3. c-abi    -- header for lib<mod>.so (wrapper.py)
4. native   -- kilnc: lib<mod>.so, and the CPython extension with the
               wrappers compiled by Clang into the kernels' LLVM module
5. stubs    -- <mod>.py and <mod>.pyi (stubs.py)
"""

from __future__ import annotations

import os
import sysconfig
from dataclasses import dataclass, field

from .code_generator import generate_module
from .source import load_module
from .stubs import generate_pyi, generate_stub
from .toolchain import start_kilnc, wait_kilnc
from .wrapper import generate_extension, generate_header


@dataclass
class BuildOptions:
    opt_level: int = 3
    target_cpu: str = "native"


@dataclass
class BuildResult:
    module_name: str
    outdir: str
    artifacts: dict = field(default_factory=dict)
    signatures: list = field(default_factory=list)


def write_text(path: str, text: str) -> None:
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def build(path: str, outdir: str, options: BuildOptions | None = None) -> BuildResult:
    options = options or BuildOptions()
    context = load_module(path)
    module = context.module_name
    if not module.isidentifier():
        raise ValueError(f"module name {module!r} is not a Python identifier")
    os.makedirs(outdir, exist_ok=True)
    outdir = os.path.abspath(outdir)

    mlir_text, signatures = generate_module(context, context.exported_functions())

    extension = f"_{module}_kiln"
    extension_file = extension + sysconfig.get_config_var("EXT_SUFFIX")
    artifacts = {
        "mlir": os.path.join(outdir, f"{module}.kiln.mlir"),
        "header": os.path.join(outdir, f"{module}.h"),
        "library": os.path.join(outdir, f"lib{module}.so"),
        "wrapper_source": os.path.join(outdir, f"{extension}.c"),
        "extension": os.path.join(outdir, extension_file),
        "stub": os.path.join(outdir, f"{module}.py"),
        "pyi": os.path.join(outdir, f"{module}.pyi"),
    }
    write_text(artifacts["mlir"], mlir_text)
    write_text(artifacts["header"], generate_header(module, context.path, signatures))
    write_text(artifacts["wrapper_source"],
               generate_extension(module, extension, context.path, signatures))

    common = [artifacts["mlir"], "--emit=shared", f"-O{options.opt_level}",
              f"--target-cpu={options.target_cpu}", f"--symbol-prefix={module}_"]
    # The two links are independent: run them side by side.
    library = start_kilnc(common + ["-o", artifacts["library"]])
    python_include = sysconfig.get_paths()["include"]
    ext = start_kilnc(common + [f"--c-source={artifacts['wrapper_source']}",
                                f"-I{python_include}", f"-I{outdir}",
                                f"--export=PyInit_{extension}",
                                "-o", artifacts["extension"]])
    wait_kilnc(library, artifacts["library"])
    wait_kilnc(ext, artifacts["extension"])

    write_text(artifacts["stub"], generate_stub(module, extension, extension_file,
                                                context.path, signatures))
    write_text(artifacts["pyi"], generate_pyi(module, context.path, signatures))
    return BuildResult(module, outdir, artifacts, signatures)
