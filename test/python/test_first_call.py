"""Compile on first call: the cache is reused across processes, invalidated
by a changed helper, verified before loading, and KILN_DISABLE=1 opts out."""

import os
import subprocess
import sys
import textwrap

from conftest import REPO

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
    def uses_a_list(n: int) -> int:
        return len([n])
""")

SCRIPT = textwrap.dedent("""
    import warnings
    import numpy as np
    import jitmod
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(jitmod.scaled_sum(np.arange(4.0)), getattr(jitmod.scaled_sum, "is_compiled", False))
        print(jitmod.uses_a_list(3), getattr(jitmod.uses_a_list, "is_compiled", False))
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
    return sorted(e for e in os.listdir(tmp_path / "cache") if not e.startswith("."))


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
