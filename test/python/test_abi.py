"""One C/Python ABI: the exception kinds and the error record are declared in
runtime/kiln_abi.h and in the kiln dialect's ODS (tied by static_asserts in
lib/Dialect/KilnAbi.h); kilnc prints them (--print-capabilities). These
tests fail when the Python side, kilnc and the header disagree."""

import glob
import os
import re
import subprocess

import pytest

from conftest import REPO, MODULES, import_from, kiln_build

from kiln import typing_rules
from kiln.frontend import subset
from kiln.mlir.code_generator import generate_module
from kiln.frontend.source import load_module
from kiln.toolchain import find_kilnc, kilnc_capabilities

HEADER = os.path.join(REPO, "runtime", "kiln_abi.h")


def header_kinds():
    """name -> number, read from KILN_ERROR_KINDS in runtime/kiln_abi.h
    (the X lines of that macro only: KILN_SET_OPERATIONS has its own)."""
    with open(HEADER, encoding="utf-8") as handle:
        text = handle.read()
    macro = re.search(r"#define KILN_ERROR_KINDS\(X\)((?:.*\\\n)*.*)", text).group(1)
    return {name: int(number) for number, name in
            re.findall(r"X\((\d+),\s*(\w+),\s*\w+\)", macro)}


@pytest.fixture(scope="module")
def abi():
    return kilnc_capabilities()["abi"]


def test_kilnc_carries_the_header_as_it_is_in_the_tree(abi):
    # A kilnc built from other sources would give generated code another ABI.
    with open(HEADER, encoding="utf-8") as handle:
        assert abi["header"]["text"] == handle.read()


def test_header_and_dialect_list_the_same_kinds(abi):
    kinds = header_kinds()
    assert len(kinds) >= 9
    assert abi["error_kinds"] == kinds


def test_error_record_layout_is_the_header_s(abi, tmp_path):
    # The layout kilnc's C++ uses, against the layout a C compiler gives the
    # header.
    program = tmp_path / "layout.c"
    fields = [f["name"] for f in abi["error_record"]["fields"]]
    program.write_text('#include <stddef.h>\n#include <stdio.h>\n#include "kiln_abi.h"\n'
                       "int main(void) {\n"
                       + "".join(f'  printf("%zu %zu\\n", offsetof(kiln_error, {f}), '
                                 f"sizeof(((kiln_error *)0)->{f}));\n" for f in fields)
                       + '  printf("%zu %zu\\n", sizeof(kiln_error), (size_t)KILN_ERROR_MAX_ARGS);\n'
                       "  return 0;\n}\n")
    binary = tmp_path / "layout"
    subprocess.run(["/usr/lib/llvm-22/bin/clang", "-std=c11", "-I", os.path.dirname(HEADER),
                    str(program), "-o", str(binary)], check=True)
    lines = subprocess.run([str(binary)], capture_output=True, text=True,
                           check=True).stdout.split("\n")
    expected = [f"{f['offset']} {f['size']}" for f in abi["error_record"]["fields"]]
    expected.append(f"{abi['error_record']['size']} {abi['error_record']['max_args']}")
    assert lines[:len(expected)] == expected


def test_raisable_exceptions_are_abi_kinds(abi):
    # `raise X(...)` in compiled code is accepted for subset.EXCEPTION_TYPES.
    assert set(subset.EXCEPTION_TYPES) <= set(abi["error_kinds"])


def test_frontend_writes_only_abi_kinds(abi):
    # Every kiln.check the frontend emits for the test modules names a kind
    # the dialect (and so the C runtime) knows.
    written = set()
    for path in sorted(glob.glob(os.path.join(MODULES, "*.py"))):
        context = load_module(path)
        text, _, _ = generate_module(context, context.exported_functions())
        written |= set(re.findall(r'kiln\.check [^,]+, "?(\w+)"?,', text))
    assert written, "no kiln.check in the test modules"
    assert written <= set(abi["error_kinds"]), written - set(abi["error_kinds"])


def test_each_raisable_exception_reaches_python_as_itself(tmp_path):
    # End to end: the kind the lowering stores and the one the extension's
    # runtime maps back to a Python exception are the same.
    names = list(subset.EXCEPTION_TYPES)
    source = tmp_path / "raising.py"
    source.write_text("import kiln\n\n" + "".join(
        f"@kiln.export\ndef raise_{name}(x: int) -> int:\n"
        f"    if x > 0:\n        raise {name}('from {name}')\n    return x\n\n"
        for name in names))
    result = kiln_build(str(source), tmp_path / "out", "--strict")
    assert result.returncode == 0, result.stderr
    module = import_from(str(tmp_path / "out" / "raising.py"), "kiln_abi_raising")
    for name in names:
        function = getattr(module, f"raise_{name}")
        assert function(0) == 0
        with pytest.raises(BaseException) as caught:
            function(1)
        assert type(caught.value).__name__ == name
        assert f"from {name}" in str(caught.value)


def test_capabilities_replace_help_parsing():
    capabilities = kilnc_capabilities()
    assert capabilities["schema"] == "kilnc-capabilities/1"
    assert "shared" in capabilities["emit"]
    assert {"extension", "extension-source", "extension-export"} <= set(capabilities["options"])
    # One question per process and kilnc.
    assert kilnc_capabilities() is capabilities
    assert find_kilnc()


def test_array_rank_limit_is_the_header_s(abi):
    """typing_rules.MAX_ARRAY_NDIM is kiln_abi.h's KILN_MAX_NDIM (the
    runtime's buffers and kiln_reshape_stride are sized by it)."""
    from kiln import typing_rules
    assert abi["max_ndim"] == typing_rules.MAX_ARRAY_NDIM


def test_a_kilnc_from_another_tree_is_refused(tmp_path, monkeypatch):
    """A kilnc whose runtime disagrees with the frontend (another tree's
    build) is a clear toolchain error, not wrong strides at run time."""
    import json
    import stat
    from kiln import toolchain
    from kiln.errors import KilnToolchainError
    real = toolchain.kilnc_capabilities()
    other = dict(real, abi=dict(real["abi"], max_ndim=3))
    fake = tmp_path / "kilnc"
    fake.write_text("#!/bin/sh\ncat <<'EOF'\n" + json.dumps(other) + "\nEOF\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("KILN_KILNC", str(fake))
    with pytest.raises(KilnToolchainError, match="up to 3 dimensions, this frontend makes up "
                                                 f"to {typing_rules.MAX_ARRAY_NDIM}"):
        toolchain.kilnc_capabilities()
