"""Functions outside the subset stay Python; the module works as a whole and
the build record lists every unsupported construct with its location."""

import json
import os

import numpy as np
import pytest

from conftest import MODULES, kiln_build


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("mixed")


def test_compiled_and_fallback_functions(mod):
    native = mod.native
    assert type(native.uses_helper).__name__ == "builtin_function_or_method"
    assert type(native.compiled_core).__name__ == "builtin_function_or_method"
    assert native.uses_helper(3.0, 4.0) == mod.python.uses_helper(3.0, 4.0) == 11.0
    # Fallbacks are the user's Python functions, and they call compiled code.
    assert type(native.needs_a_string).__name__ == "function"
    assert native.python_driver(4) == [0, 0, 1, 5]
    assert native.compiled_core is native._kiln_native.compiled_core
    x = np.array([3.0, 4.0])
    assert native.needs_a_string(x) == mod.python.needs_a_string(x) == 8.0
    assert native.calls_a_fallback(x) == 16.0
    assert native.global_scale(2.0) == 6.0
    assert type(native.global_scale).__name__ == "builtin_function_or_method"
    assert native.helper(3.0, 4.0) == 10.0


def test_build_record_lists_every_construct(mod):
    record = json.load(open(mod.path("mixed.kiln.json")))
    assert record["schema"] == "kiln-report/1"
    compiled = {f["name"]: f["compiled"] for f in record["functions"]}
    assert compiled == {"uses_helper": True, "needs_a_string": False, "calls_a_fallback": False,
                        "global_scale": True, "compiled_core": True, "python_driver": False}
    reasons = {(r["function"], r["line"], r["reason"]) for r in record["fallbacks"]
               if r["kind"] == "function"}
    source = open(os.path.join(MODULES, "mixed.py")).read().splitlines()
    string_line = next(i for i, t in enumerate(source, 1) if 'label = b"3.0"' in t)
    assert ("needs_a_string", string_line, "bytes is not supported yet") in reasons
    assert ("needs_a_string", string_line + 1, "call to `np.linalg.norm` is not supported yet") \
        in reasons
    assert any(f == "calls_a_fallback" and "calls `needs_a_string`, which cannot be compiled" in r
               for f, _, r in reasons)
    for entry in record["fallbacks"]:
        assert entry["file"].endswith("mixed.py")
        assert entry["column"] >= 1


def test_strict_mode_fails(tmp_path):
    result = kiln_build(os.path.join(MODULES, "mixed.py"), tmp_path, "--strict")
    assert result.returncode == 1
    assert "bytes is not supported yet" in result.stderr


def test_stub_runs_without_kiln(mod, tmp_path):
    import subprocess
    import sys
    script = (f"import sys; sys.path.insert(0, {mod.outdir!r}); import mixed; "
              "print(mixed.uses_helper(3.0, 4.0), mixed.python_driver(3))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, cwd=str(tmp_path))
    assert output.returncode == 0, output.stderr
    assert output.stdout.split() == ["11.0", "[0,", "0,", "1]"]
