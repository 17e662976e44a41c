"""Builds the cffi API-mode (compiled) binding of Kiln's C ABI for the
call-overhead table. Run in its own process by builds.py, because cffi's
compile step goes through setuptools and prints as it goes:

    python3 cffi_build.py OUTDIR HEADER LIBRARY_DIR MODULE
"""

import os
import sys

import cffi

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.kiln_header import prototype, struct_declaration  # noqa: E402


def main():
    outdir, header_path, library_dir, module = sys.argv[1:5]
    prefix = module + "_"
    with open(header_path, encoding="utf-8") as handle:
        header = handle.read()
    declarations = "\n".join([struct_declaration(header, "kiln_error"),
                              struct_declaration(header, "kiln_f64_1d"),
                              prototype(header, f"{prefix}add"),
                              prototype(header, f"{prefix}add1")])
    ffi = cffi.FFI()
    ffi.cdef(declarations)
    ffi.set_source("_kiln_cffi", f'#include "{os.path.basename(header_path)}"',
                   include_dirs=[os.path.dirname(header_path)], library_dirs=[library_dir],
                   runtime_library_dirs=[library_dir], libraries=[module],
                   extra_compile_args=["-O3", "-march=native"])
    ffi.compile(tmpdir=outdir, verbose=False)


if __name__ == "__main__":
    main()
