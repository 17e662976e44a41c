"""The files `kiln build` writes: the C ABI library and header (used from a
C program), its dependencies, the stub and the type stubs."""

import os
import re
import subprocess
import textwrap

import pytest

from conftest import MODULES, kiln_build

CLANG = "/usr/lib/llvm-22/bin/clang"


@pytest.fixture(scope="module")
def built(build_module):
    return build_module("e2e_kernels")


def needed_libraries(path):
    dynamic = subprocess.run(["readelf", "-d", path], capture_output=True, text=True,
                             check=True).stdout
    return sorted(line.split("[")[1].rstrip("]") for line in dynamic.splitlines()
                  if "(NEEDED)" in line)


def test_c_library_needs_only_libc_and_libm(built):
    assert set(needed_libraries(built.path("libe2e_kernels.so"))) <= {"libc.so.6", "libm.so.6"}


def test_extension_needs_no_compiler_runtime(built):
    extension = [f for f in os.listdir(built.outdir) if f.startswith("_e2e_kernels_kiln")
                 and f.endswith(".so")][0]
    assert set(needed_libraries(built.path(extension))) <= {"libc.so.6", "libm.so.6"}
    symbols = subprocess.run(["nm", "-D", "--defined-only", built.path(extension)],
                             capture_output=True, text=True, check=True).stdout
    assert [line.split()[-1] for line in symbols.splitlines()] == ["PyInit__e2e_kernels_kiln"]


def test_c_program_uses_header_and_library(built, tmp_path):
    program = tmp_path / "main.c"
    program.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include "e2e_kernels.h"
        int main(void) {
          double xs[4] = {1, 2, 3, 4}, ys[4] = {10, 20, 30, 40};
          /* every second element, reversed: 4, 2 and 40, 20 */
          kiln_f64_1d x = {xs, xs, 3, {2}, {-2}}, y = {ys, ys, 3, {2}, {-2}};
          kiln_error error = {0};
          double d = e2e_kernels_dot(&x, &y, &error);
          printf("dot %g kind %d\\n", d, error.kind);
          long long q = e2e_kernels_floordiv(7, 0, &error);
          printf("floordiv %lld kind %d line %d: %s\\n", q, error.kind, error.line,
                 error.message);
          printf("collatz %lld\\n", (long long)e2e_kernels_collatz_steps(27));
          /* a message with {} placeholders, ready to print */
          kiln_f64_1d shorter = {ys, ys, 0, {1}, {1}};
          kiln_error bounds = {0};
          char text[128];
          e2e_kernels_dot(&x, &shorter, &bounds);
          printf("dot kind %d: %s\\n", bounds.kind, kiln_error_text(&bounds, text, sizeof text));
          printf("cut: %s\\n", kiln_error_text(&bounds, text, 12));
          return 0;
        }
    """))
    executable = tmp_path / "main"
    subprocess.run([CLANG, "-std=c11", "-Wall", "-Wextra", "-Werror", str(program), "-I",
                    built.outdir, "-L", built.outdir, "-le2e_kernels",
                    f"-Wl,-rpath,{built.outdir}", "-o", str(executable)], check=True)
    # the library names itself with its ABI version (DT_SONAME), the program
    # needs it by that name, and every symbol it calls carries the version
    dynamic = subprocess.run(["/usr/lib/llvm-22/bin/llvm-readelf", "-d", str(executable)],
                             capture_output=True, text=True, check=True).stdout
    assert "Shared library: [libe2e_kernels.so.1]" in dynamic
    library = subprocess.run(["/usr/lib/llvm-22/bin/llvm-readelf", "-d",
                              built.path("libe2e_kernels.so")],
                             capture_output=True, text=True, check=True).stdout
    assert "Library soname: [libe2e_kernels.so.1]" in library
    assert os.readlink(built.path("libe2e_kernels.so.1")) == "libe2e_kernels.so"
    needed = subprocess.run(["/usr/lib/llvm-22/bin/llvm-objdump", "-T", str(executable)],
                            capture_output=True, text=True, check=True).stdout
    assert re.search(r"\(E2E_KERNELS_1\)\s+e2e_kernels_dot", needed), needed
    output = subprocess.run([str(executable)], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert output[0] == "dot 200 kind 0"
    assert output[1].startswith("floordiv 0 kind 1 line ")
    assert output[1].endswith("integer division or modulo by zero")
    assert output[2] == "collatz 111"
    assert output[3] == "dot kind 2: index 1 is out of bounds for axis 0 with size 1"
    assert output[4] == "cut: index 1 is "


def test_header_declares_every_function(built):
    header = open(built.path("e2e_kernels.h")).read()
    assert "double e2e_kernels_dot(kiln_f64_1d *x, kiln_f64_1d *y, kiln_error *error);" in header
    assert "int64_t e2e_kernels_collatz_steps(int64_t n);" in header
    assert "void e2e_kernels_nothing(void);" in header


def test_type_stubs(built):
    stubs = open(built.path("e2e_kernels.pyi")).read()
    assert ("def dot(x: numpy.typing.NDArray[numpy.float64], "
            "y: numpy.typing.NDArray[numpy.float64]) -> float: ...") in stubs
    assert "def logic(p: bool, q: bool, r: bool) -> bool: ..." in stubs


def test_stub_exposes_compiled_functions(built):
    assert type(built.native.dot).__name__ == "builtin_function_or_method"
    assert built.native.dot is built.native._kiln_native.dot
    assert "dot(x, y)" in built.native.dot.__doc__ or built.native.dot.__text_signature__


def test_strict_build_reports_unsupported_code(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("import kiln\n\n@kiln.export\ndef f(x: float) -> float:\n"
                      "    return b'x' and x\n")
    result = kiln_build(str(source), tmp_path / "out", "--strict")
    assert result.returncode == 1
    assert f"{source}:5:12: error: bytes is not supported yet" in result.stderr
    assert "Traceback" not in result.stderr
    # Without --strict the function falls back; as nothing else compiles,
    # the build still fails unless --allow-empty accepts it.
    empty = kiln_build(str(source), tmp_path / "out")
    assert empty.returncode == 1
    assert "no function compiled (f falls back to Python)" in empty.stderr
    relaxed = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert relaxed.returncode == 0
    assert f"{source}:5:12: warning: bytes is not supported yet" in relaxed.stderr
    assert f"{source}:5:12: note: `f` falls back to Python" in relaxed.stderr


def test_build_of_the_bundled_example(tmp_path):
    result = kiln_build(os.path.join(MODULES, "..", "..", "..", "examples", "kernels.py"),
                        tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "kernels.py").exists()
