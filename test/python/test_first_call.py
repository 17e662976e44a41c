"""Compile on first call: the cache is reused across processes, invalidated
by a changed helper, verified before loading, and KILN_DISABLE=1 opts out."""

import os
import subprocess
import sys
import textwrap

from conftest import REPO

from kiln.cache_dir import OWN_FOLDERS

MODULE = textwrap.dedent("""
    import kiln

    def helper(x: float) -> float:
        return x * FACTOR

    FACTOR = 2.0

    @kiln.export
    def scaled_sum(x: kiln.f64[:]) -> float:
        s = 0.0
        for i in range(len(x)):
            s += helper(x[i])
        return s

    @kiln.export
    def uses_a_string(n: int) -> int:
        return len(b'n')
""")

SCRIPT = textwrap.dedent("""
    import warnings
    import numpy as np
    import jitmod
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(jitmod.scaled_sum(np.arange(4.0)), getattr(jitmod.scaled_sum, "is_compiled", False))
        print(jitmod.uses_a_string(3), getattr(jitmod.uses_a_string, "is_compiled", False))
    print(";".join(str(w.message).split(":")[0] for w in caught))
""")


def run(tmp_path, **env_overrides):
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}:{os.path.join(REPO, 'python_frontend')}",
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    env.update(env_overrides)
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def entries(tmp_path):
    # The root's own folders (kilnc's probe answers & co.) are no entries.
    return sorted(e for e in os.listdir(tmp_path / "cache")
                  if not e.startswith(".") and e not in OWN_FOLDERS)


def test_first_call_compiles_and_caches(tmp_path):
    (tmp_path / "jitmod.py").write_text(MODULE)
    first = run(tmp_path)
    assert first[0] == "12.0 True"
    # A function outside the subset runs as Python, with a warning.
    assert first[1] == "1 False"
    assert "kiln" in first[2]
    assert len(entries(tmp_path)) == 1

    # A later process loads the entry without compiling: nothing in the
    # cache is rewritten.
    entry = tmp_path / "cache" / entries(tmp_path)[0]
    stamps = {p.name: p.stat().st_mtime_ns for p in entry.iterdir()}
    assert run(tmp_path)[0] == "12.0 True"
    assert {p.name: p.stat().st_mtime_ns for p in entry.iterdir()} == stamps
    assert len(entries(tmp_path)) == 1

    # Changing the helper gives a new entry.
    (tmp_path / "jitmod.py").write_text(MODULE.replace("x * FACTOR", "x * FACTOR + 1.0"))
    assert run(tmp_path)[0] == "16.0 True"
    assert len(entries(tmp_path)) == 2


def test_tampered_entry_is_rebuilt(tmp_path):
    (tmp_path / "jitmod.py").write_text(MODULE)
    run(tmp_path)
    entry = tmp_path / "cache" / entries(tmp_path)[0]
    extension = next(p for p in entry.iterdir() if p.name.startswith("_kiln_") and p.suffix == ".so")
    extension.write_bytes(extension.read_bytes()[:100])
    assert run(tmp_path)[0] == "12.0 True"
    assert len(extension.read_bytes()) > 100


def test_kiln_disable_runs_python(tmp_path):
    (tmp_path / "jitmod.py").write_text(MODULE)
    output = run(tmp_path, KILN_DISABLE="1")
    assert output[0] == "12.0 False" or output[0].startswith("12.0")
    assert not (tmp_path / "cache").exists()


def run_code(tmp_path, code):
    """`python -c code` in a fresh process with its own cache."""
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code],
                            capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_source_without_a_file_compiles(tmp_path):
    """`python -c`, and exec of a Jupyter/IPython cell (its source in
    linecache, its file name `<ipython-input-...>`): compiled, not a fallback
    (a KilnFallbackWarning would be an error here)."""
    assert run_code(tmp_path, textwrap.dedent("""
        import kiln

        @kiln.export
        def f(x: float) -> float:
            return x * 2 + 1

        print(f(2.0), f.is_compiled)
    """)) == ["5.0 True"]
    assert run_code(tmp_path, textwrap.dedent('''
        import linecache
        cell = """
        import kiln

        @kiln.export
        def g(x: float) -> float:
            return x * 3
        """
        name = "<ipython-input-7-0123abcd>"
        linecache.cache[name] = (len(cell), None, cell.splitlines(True), name)
        namespace = {}
        exec(compile(cell, name, "exec"), namespace)
        print(namespace["g"](2.0), namespace["g"].is_compiled)
    ''')) == ["6.0 True"]


def test_strict_functions_raise_instead_of_falling_back(tmp_path):
    assert run_code(tmp_path, textwrap.dedent("""
        import kiln

        @kiln.export(strict=True)
        def h(x: float) -> float:
            return b'x' and x

        for attempt in range(2):
            try:
                h(1.0)
            except kiln.KilnCompileError as error:
                print(type(error).__name__, str(error).endswith("bytes is not supported yet"))
    """)) == ["KilnCompileError True", "KilnCompileError True"]
    module = tmp_path / "strictmod.py"
    module.write_text(textwrap.dedent("""
        import kiln

        @kiln.export(strict=True)
        def h(x: float) -> float:
            return b'x' and x

        @kiln.export
        def fine(x: float) -> float:
            return x + 1
    """))
    result = subprocess.run([sys.executable, "-m", "kiln", "build", str(module), "-o",
                             str(tmp_path / "out")], capture_output=True, text=True,
                            env=dict(os.environ,
                                     PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert result.returncode == 1
    assert "strictmod.py:6:12: error: bytes is not supported yet" in result.stderr
