"""Reliability on unusual input (issue 15): the first-call cache follows
imports and survives a file where an entry belongs; user names cannot
take runtime or libm symbols; deep expressions, invalid Python, bad bytes
and file names give file:line:col errors; and one function that the code
generator or kilnc fails on never takes the rest of its module down."""

import ctypes
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import REPO, import_from, kiln_build

from kiln.cache_dir import OWN_FOLDERS
from kiln.compiler import cache
from kiln.mlir import code_generator
from kiln.compiler.compiler import BuildOptions, build
from kiln.frontend.source import load_module
from kiln.errors import KilnCompileError


# ----------------------------------------------------------------- C1: cache

CACHE_SCRIPT = textwrap.dedent("""
    import warnings
    import jitmod
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = repr(jitmod.root(-1.0))
        except Exception as error:
            result = type(error).__name__
    print(result, jitmod.root.is_compiled)
""")


def run_cached(tmp_path, source):
    (tmp_path / "jitmod.py").write_text(source)
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}:{os.path.join(REPO, 'python_frontend')}",
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", CACHE_SCRIPT], capture_output=True,
                            text=True, env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def cache_entries(tmp_path):
    # The root's own folders (kilnc's probe answers & co.) are no entries.
    return sorted(e for e in os.listdir(tmp_path / "cache")
                  if not e.startswith(".") and e not in OWN_FOLDERS)


@pytest.mark.parametrize("imports, call", [
    (("from math import sqrt", "from numpy import sqrt"), "sqrt(x)"),
    (("import math as m", "import numpy as m"), "m.sqrt(x)"),
])
def test_cache_key_follows_imports(tmp_path, imports, call):
    # math.sqrt(-1) raises ValueError; numpy's gives nan: a reused entry
    # would keep raising.
    template = "import kiln\n{}\n\n\n@kiln.export\ndef root(x: float) -> float:\n" \
               "    return {}\n"
    assert run_cached(tmp_path, template.format(imports[0], call)) == "ValueError True"
    assert run_cached(tmp_path, template.format(imports[1], call)) == "nan True"
    assert len(cache_entries(tmp_path)) == 2
    # Back to the first import: its entry is reused, nothing new is built.
    assert run_cached(tmp_path, template.format(imports[0], call)) == "ValueError True"
    assert len(cache_entries(tmp_path)) == 2


def key_of(source_path, name="root"):
    context = load_module(str(source_path))
    return cache.cache_key(context, name, {}, "native")


def test_cache_key_covers_what_the_function_reads(tmp_path):
    base = "import kiln\nimport math\n{}\n\n@kiln.export\ndef root(x: float) -> float:\n" \
           "    return math.sqrt(x) * SCALE\n\n\ndef unrelated():\n    return {}\n"
    path = tmp_path / "jitmod.py"
    keys = []
    for binding, other in (("SCALE = 2.0", 1), ("SCALE = 3.0", 1), ("SCALE = 3.0", 2),
                           ("import numpy as math\nSCALE = 3.0", 2)):
        path.write_text(base.format(binding, other))
        keys.append(key_of(path))
    # The constant and the import count; a function `root` does not read
    # does not.
    assert keys[0] != keys[1]
    assert keys[1] == keys[2]
    assert keys[2] != keys[3]


def test_cache_key_covers_the_lines_in_the_code(tmp_path):
    # Exceptions carry `(jitmod.py, line N)`: moving the function moves N.
    source = "import kiln\n\n\n@kiln.export\ndef root(x: float) -> float:\n" \
             "    return 1.0 / x\n"
    path = tmp_path / "jitmod.py"
    path.write_text(source)
    before = key_of(path)
    path.write_text("\n" + source)
    assert key_of(path) != before


ROOT_MODULE = "import kiln\nimport math\n\n\n@kiln.export\ndef root(x: float) -> float:\n" \
              "    return math.sqrt(x)\n"


def test_file_where_an_entry_belongs_is_replaced(tmp_path):
    assert run_cached(tmp_path, ROOT_MODULE) == "ValueError True"
    [name] = cache_entries(tmp_path)
    entry = tmp_path / "cache" / name
    for path in entry.iterdir():
        path.unlink()
    entry.rmdir()
    entry.write_text("not a cache entry")
    # The next process rebuilds and compiles, and so does the one after.
    assert run_cached(tmp_path, ROOT_MODULE) == "ValueError True"
    assert entry.is_dir() and (entry / cache.MANIFEST).is_file()
    assert run_cached(tmp_path, ROOT_MODULE) == "ValueError True"


def test_entry_is_built_beside_what_cannot_be_removed(tmp_path, monkeypatch):
    source = tmp_path / "besidemod.py"
    source.write_text(ROOT_MODULE)
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "remove_entry", lambda path: None)
    key = key_of(source)
    entry = tmp_path / "cache" / f"besidemod.root.{key}"
    (tmp_path / "cache").mkdir()
    entry.write_text("not a cache entry")
    root = cache.compile_cached(str(source), "root", {})
    assert root(4.0) == 2.0
    assert entry.read_text() == "not a cache entry"
    assert (tmp_path / "cache" / f"besidemod.root.{key}.1" / cache.MANIFEST).is_file()
    # Found there the next time, without building.
    from kiln.compiler import compiler

    def no_build(*args, **kwargs):
        raise AssertionError("the entry beside was not found")

    monkeypatch.setattr(compiler, "build", no_build)
    assert cache.compile_cached(str(source), "root", {})(9.0) == 3.0


# -------------------------------------------------- P1: symbols and names

LIBC_NAMES = textwrap.dedent("""
    import math
    import numpy as np
    import kiln


    @kiln.export
    def hypot(x: float, y: float) -> float:
        return x + y


    @kiln.export
    def expm1(x: float) -> float:
        return x - 1.0


    def log1p(x: float) -> float:
        return x * 10.0


    @kiln.export
    def uses_libm(x: float) -> float:
        return math.hypot(x, 2.0) + math.expm1(x) + math.log1p(x) + log1p(x)


    @kiln.export
    def malloc(n: int) -> int:
        return n + 1


    @kiln.export
    def free(n: int) -> int:
        return n - 1


    @kiln.export
    def memcpy(n: int) -> kiln.f64[:]:
        a = np.zeros(n)
        for i in range(n):
            a[i] = i * 2.0
        return a
""")


def test_function_names_cannot_take_c_library_symbols(tmp_path):
    source = tmp_path / "libcnames.py"
    source.write_text(LIBC_NAMES)
    out = tmp_path / "out"
    result = kiln_build(str(source), out)
    assert result.returncode == 0, result.stderr
    assert "fallback" not in result.stderr
    native = import_from(str(out / "libcnames.py"), "kiln_built_libcnames")
    python = import_from(str(source), "kiln_plain_libcnames")
    for name in ("hypot", "expm1", "uses_libm", "malloc", "free", "memcpy"):
        assert type(getattr(native, name)).__name__ == "builtin_function_or_method", name
    assert native.hypot(1.0, 2.0) == 3.0
    assert native.expm1(3.0) == 2.0
    assert native.uses_libm(0.5) == python.uses_libm.py_func(0.5)
    assert native.malloc(3) == 4 and native.free(3) == 2
    assert np.array_equal(native.memcpy(5), np.arange(5) * 2.0)
    # The C ABI keeps `<mod>_<function>`.
    library = ctypes.CDLL(str(out / "liblibcnames.so"))
    library.libcnames_hypot.restype = ctypes.c_double
    library.libcnames_hypot.argtypes = [ctypes.c_double, ctypes.c_double]
    assert library.libcnames_hypot(2.0, 5.0) == 7.0
    header = (out / "libcnames.h").read_text()
    assert "libcnames_malloc(" in header and "libcnames_free(" in header


# ---------------------------------------------------- P2: deep expressions

def deep_module(terms=2000, negations=500):
    return (f"import kiln\n\n\n@kiln.export\ndef negated(x: float) -> float:\n"
            f"    return {'-' * negations}x\n\n\n"
            f"@kiln.export\ndef long_sum(x: float) -> float:\n"
            f"    return {' + '.join(['x'] * terms)}\n\n\n"
            f"@kiln.export\ndef fine(x: float) -> float:\n    return x * 2.0\n")


def test_deep_expressions_compile(tmp_path):
    source = tmp_path / "deepmod.py"
    source.write_text(deep_module())
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "fallback" not in result.stderr
    native = import_from(str(tmp_path / "out" / "deepmod.py"), "kiln_built_deepmod")
    assert native.negated(1.5) == 1.5
    assert native.long_sum(1.5) == 3000.0
    assert native.fine(2.0) == 4.0


def test_too_deep_for_kiln_falls_back_alone(tmp_path, monkeypatch):
    source = tmp_path / "deepmod.py"
    source.write_text(deep_module(terms=2500))
    # No deeper stack to retry on: the function falls back, the rest compiles.
    monkeypatch.setattr(code_generator, "DEEP_RECURSION_LIMIT", 0)
    context = load_module(str(source))
    _, signatures, failures = code_generator.generate_module(context,
                                                             context.exported_functions())
    assert "fine" in [s.name for s in signatures]
    [diagnostic] = failures["long_sum"].diagnostics
    assert (diagnostic.line, diagnostic.column) == (11, 5)
    assert diagnostic.message.startswith("expression nested too deeply")


def test_too_deep_for_cpython_is_an_error_at_its_line(tmp_path):
    # CPython cannot compile this either (RecursionError on import).
    source = tmp_path / "deepmod.py"
    source.write_text(deep_module(terms=5000))
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 1
    assert f"{source}:10:1: error: expression nested too deeply for CPython's parser" in result.stderr
    assert "internal error" not in result.stderr


# ------------------------------------------------------ P3: invalid Python

@pytest.mark.parametrize("body", [
    "@kiln.export\ndef f(n: int) -> int:\n    return n\n\n\nbreak\n",
    "@kiln.export\ndef f(n: int) -> int:\n    if n:\n        continue\n    return n\n",
    "@kiln.export\ndef f(x: int, x: int) -> int:\n    return x\n",
    "@kiln.export\ndef f(n: int) -> int:\n    return n\n\n\nreturn 1\n",
])
def test_cpython_syntax_errors_are_reported(tmp_path, body):
    source = tmp_path / "invalidmod.py"
    text = "import kiln\n\n\n" + body
    source.write_text(text)
    with pytest.raises(SyntaxError) as cpython:
        compile(text, str(source), "exec")
    expected = f"{source}:{cpython.value.lineno}:{cpython.value.offset}: error: syntax error: " \
               f"{cpython.value.msg}"
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 1
    assert expected in result.stderr
    assert not (tmp_path / "out" / "invalidmod.kiln.mlir").exists()


# ---------------------------------------------- P4: unreadable or unnamed

def test_zero_dimensional_annotation_falls_back_at_its_location(tmp_path):
    source = tmp_path / "annotmod.py"
    source.write_text("import kiln\n\n\n@kiln.export\ndef f(x: kiln.f64[()]) -> float:\n"
                      "    return 1.0\n\n\n@kiln.export\ndef g(x: float) -> float:\n"
                      "    return x\n")
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert f"{source}:5:10: warning: unsupported type annotation `kiln.f64[()]`" in result.stderr
    assert "built annotmod (g)" in result.stdout


@pytest.mark.parametrize("content, location, message", [
    (b"import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return x \0\n",
     "6:14", "cannot contain null bytes"),
    (b"import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return x  # \xff\n",
     "6:17", "byte 0xff is not valid utf-8"),
])
def test_unreadable_bytes_are_errors_at_their_location(tmp_path, content, location, message):
    source = tmp_path / "bytesmod.py"
    source.write_bytes(content)
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 1
    [line] = [l for l in result.stderr.splitlines() if str(source) in l and message in l]
    assert f"{source}:{location}: " in line


def test_file_name_that_is_not_a_module_name(tmp_path):
    source = tmp_path / "my-mod.py"
    source.write_text("import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n"
                      "    return x\n")
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 1
    assert f"{source}:1:1: error: `my-mod.py` cannot be built as a module: its name `my-mod` is " \
           "not a Python identifier" in result.stderr
    assert "my_mod.py" in result.stderr


# --------------------------------- P5/P6: one function never fails the rest

ISOLATION_MODULE = textwrap.dedent("""
    import kiln


    def helper(x: float) -> float:
        return x + 1.0


    @kiln.export
    def good(x: float) -> float:
        return x * 2.0


    @kiln.export
    def uses_helper(x: float) -> float:
        return helper(x) * 3.0


    @kiln.export(boundscheck=1)
    def bad_option(n: int) -> int:
        return n


    @kiln.export
    def counter(n: int) -> int:
        return n + 1


    @kiln.export
    def explodes(n: int) -> int:
        return n - 1
""")


@pytest.fixture
def faulty_generator(monkeypatch):
    """`explodes` makes the code generator raise; `helper` gets MLIR
    kilnc rejects."""
    original = code_generator.FunctionCodeGenerator.emit_function

    def emit_function(self, *args, **kwargs):
        if self.func.name == "explodes":
            raise TypeError("injected fault")
        function = original(self, *args, **kwargs)
        if self.func.name == "helper":
            # An op kilnc does not know (printed in the generic form): the
            # builder cannot tell, kilnc rejects it.
            next(op for op in function.walk() if op.name == "arith.addf").name = \
                "arith.not_an_op"
        return function

    monkeypatch.setattr(code_generator.FunctionCodeGenerator, "emit_function", emit_function)


def test_faulty_functions_fall_back_alone(tmp_path, faulty_generator):
    source = tmp_path / "isolated.py"
    source.write_text(ISOLATION_MODULE)
    out = tmp_path / "out"
    result = build(str(source), str(out))
    assert [s.name for s in result.signatures] == ["good", "counter"]
    reasons = {f["function"]: f for f in result.fallbacks}
    assert set(reasons) == {"uses_helper", "bad_option", "explodes"}
    assert reasons["explodes"]["reason"].startswith(
        "internal compiler error in `explodes`: TypeError: injected fault")
    assert reasons["explodes"]["line"] == 30
    assert "internal compiler error: kilnc rejected it" in reasons["uses_helper"]["reason"]
    assert "arith.not_an_op" in reasons["uses_helper"]["reason"]
    assert reasons["uses_helper"]["line"] == 15
    assert "must be a literal bool" in reasons["bad_option"]["reason"]
    # The MLIR kilnc rejected is kept, the module's MLIR is without it.
    assert "arith.not_an_op" in (out / "isolated.uses_helper.rejected.mlir").read_text()
    assert "not_an_op" not in (out / "isolated.kiln.mlir").read_text()
    native = import_from(str(out / "isolated.py"), "kiln_built_isolated")
    assert native.good(2.0) == 4.0 and native.counter(1) == 2
    assert native.uses_helper(1.0) == 6.0 and native.explodes(3) == 2  # as Python


PROTOCOL_ISOLATION_MODULE = textwrap.dedent("""
    from dataclasses import dataclass

    import kiln


    def helper(x: float) -> float:
        return x + 1.0


    @kiln.export
    def uses_helper(x: float) -> float:
        return helper(x) * 3.0


    @kiln.export
    @dataclass
    class C:
        a: int

        def __len__(self) -> int:
            return self.a

        def __getitem__(self, k: int) -> int:
            return self.a + k

        def __contains__(self, k: int) -> bool:
            return k == self.a

        def __add__(self, o: "C") -> int:
            return self.a + o.a

        @property
        def twice(self) -> int:
            return self.a * 2

        @twice.setter
        def twice(self, v: int) -> None:
            self.a = v // 2


    @kiln.export
    def protocols(n: int) -> tuple[bool, int, int, bool, int, int]:
        o = C(n)
        p = C(n)
        p.twice = 4
        return (bool(o), len(o), o[1], 3 in o, o + o, p.a)
""")


def test_protocol_calls_compile_in_an_isolated_rebuild(tmp_path, faulty_generator):
    """When kilnc rejects one function, the module is rebuilt a few functions
    at a time; methods reached only through protocols (`bool(o)`, `len(o)`,
    `o[k]`, `in`, `+`, a property's setter) must be generated there too (a
    parallel=True fuzz campaign found `func.call` to a missing `__len__`)."""
    source = tmp_path / "protocols.py"
    source.write_text(PROTOCOL_ISOLATION_MODULE)
    out = tmp_path / "out"
    result = build(str(source), str(out))
    reasons = {f["function"]: f["reason"] for f in result.fallbacks}
    assert set(reasons) == {"uses_helper"}, reasons
    assert "kilnc rejected it" in reasons["uses_helper"]
    native = import_from(str(out / "protocols.py"), "kiln_built_protocols")
    assert native.protocols(3) == (True, 3, 4, True, 6, 2)
    assert native.protocols(0) == (False, 0, 1, False, 0, 2)


def test_faulty_function_fails_a_strict_build_by_name(tmp_path, faulty_generator):
    source = tmp_path / "isolated.py"
    source.write_text(ISOLATION_MODULE)
    with pytest.raises(KilnCompileError) as error:
        build(str(source), str(tmp_path / "out"),
              BuildOptions(strict=True, functions=["good", "uses_helper"]))
    [diagnostic] = error.value.diagnostics
    assert diagnostic.function == "uses_helper"
    assert "internal compiler error: kilnc rejected it" in diagnostic.message


def test_first_call_of_a_faulty_function_runs_python(tmp_path, faulty_generator,
                                                      monkeypatch):
    import kiln

    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "isolated_jit.py"
    source.write_text(ISOLATION_MODULE)
    module = import_from(str(source), "isolated_jit")
    with pytest.warns(kiln.KilnFallbackWarning, match="internal compiler error"):
        assert module.uses_helper(1.0) == 6.0
    assert not module.uses_helper.is_compiled
    assert module.good(2.0) == 4.0 and module.good.is_compiled
    assert math.isclose(module.counter(41), 42)


def test_vectorized_function_whose_array_name_is_taken(tmp_path):
    source = tmp_path / "arraynames.py"
    source.write_text("import kiln\n\n\n@kiln.vectorize\ndef f(x: float) -> float:\n"
                      "    return x * 2.0\n\n\n@kiln.export\ndef f__array(x: float) -> float:\n"
                      "    return x\n")
    context = load_module(str(source))
    _, signatures, failures = code_generator.generate_module(context,
                                                             context.exported_functions())
    assert [s.name for s in signatures] == ["f__array"]
    assert "needs the name `f__array` for its array version" in str(failures["f"])


def test_first_call_survives_an_unexpected_exception(tmp_path, monkeypatch):
    import kiln

    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("KILN_DEBUG", raising=False)

    def broken(*args, **kwargs):
        raise ValueError("injected")

    monkeypatch.setattr(cache, "compile_cached", broken)
    source = tmp_path / "unexpected_jit.py"
    source.write_text(ROOT_MODULE)
    module = import_from(str(source), "unexpected_jit")
    with pytest.warns(kiln.KilnFallbackWarning, match="internal error: ValueError: injected"):
        assert module.root(4.0) == 2.0
    assert not module.root.is_compiled
