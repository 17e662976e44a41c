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
    assert ("needs_a_string", string_line + 1, "call to `np.linalg.multi_dot` is not supported yet") \
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


CLASS_MODULE = '''\
import kiln


@kiln.export
class Shape:
    def area(self) -> float:
        return 0.0


class Circle(Shape):
    def __init__(self, r: float):
        self.r = r

    def area(self) -> float:
        return 3.0 * self.r * self.r


@kiln.export
def double(x: float) -> float:
    return 2 * x
'''


def test_an_exported_class_stays_a_python_class(tmp_path, monkeypatch):
    """@kiln.export on a class that stays Python (a Python class of the
    module derives from it) keeps the module working: the class is returned as it is, so a subclass in the same
    module and isinstance work; the warning says why; `kiln build` records
    the class as a fallback at its line; strict=True raises the reason."""
    import importlib
    import warnings

    import kiln

    source = tmp_path / "shapes_module.py"
    source.write_text(CLASS_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shapes = importlib.import_module("shapes_module")
    messages = [str(w.message) for w in caught if issubclass(w.category, kiln.KilnFallbackWarning)]
    # A Python class deriving from it keeps it Python (a compiled type is
    # no base class): the reason names that class.
    assert len(messages) == 1 and messages[0].startswith("kiln: class Shape runs as Python: ")
    assert "class `Shape` stays Python: `Circle` (line 10) derives from it" in messages[0]
    assert isinstance(shapes.Shape, type) and shapes.Shape.__kiln_export__ == {}
    assert shapes.Circle(2.0).area() == 12.0 and isinstance(shapes.Circle(1.0), shapes.Shape)

    out = tmp_path / "built"
    kiln_build(str(source), str(out))
    record = json.load(open(out / "shapes_module.kiln.json"))
    assert record["fallbacks"] == [{
        "kind": "class", "function": "Shape", "file": str(source), "line": 5, "column": 1,
        "reason": "class `Shape` stays Python: `Circle` (line 10) derives from it and is "
                  "not exported (compiled code would not see its overrides)"}]
    assert [f["name"] for f in record["functions"] if f["compiled"]] == ["double"]

    with pytest.raises(kiln.KilnCompileError, match=r"shapes_module.py:5:1: class `Shape` "
                                                    r"stays Python: `Circle` \(line 10\)"):
        kiln.export(strict=True)(shapes.Shape)
