"""The generated `<mod>.pyi` accepts every documented call of a built module
and rejects wrong ones, as mypy sees them: a compiled function's types, a
@kiln.vectorize function as a numpy.ufunc (whose calls numpy's own stubs
type loosely), `await mod.aio.f()`,
and functions left to Python with their defaults and return types."""

import importlib.util
import os
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import kiln_build

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (Debian: python3-mypy)")

MODULE = textwrap.dedent('''\
    import kiln


    @kiln.export
    def dot(x: kiln.f64[:], y: kiln.f64[:]) -> float:
        s = 0.0
        for i in range(len(x)):
            s += x[i] * y[i]
        return s


    @kiln.vectorize
    def hypot2(a: float, b: float) -> float:
        return a * a + b * b


    @kiln.export
    def stringy(n: int, scale: float = 2.0, *, name: str = "x") -> int:
        return len(f'{n}')
''')

# Lines marked `# E` must each be a mypy error; no other line may be.
CALLS = textwrap.dedent('''\
    import numpy as np
    import typedmod

    x = np.ones(3)
    a: float = typedmod.dot(x, x)
    b: float = typedmod.hypot2(1.0, 2.0)
    c: np.ndarray = typedmod.hypot2(x, 2.0)
    d: np.ndarray = typedmod.hypot2([1.0, 2.0], x)
    u: np.ndarray = typedmod.hypot2([[1, 2], [3, 4]], (0.5, 1.5))
    v: np.ndarray = typedmod.hypot2(np.float32(2.0), x[::2])
    e: int = typedmod.stringy(3)
    f: int = typedmod.stringy(3, 1.5, name="y")


    async def main() -> None:
        g: float = await typedmod.aio.dot(x, x)
        h = await typedmod.aio.hypot2(x, 1.0)


    typedmod.dot(x)  # E
    typedmod.dot(1.0, x)  # E
    s: str = typedmod.dot(x, x)  # E
    z: np.ufunc = typedmod.hypot2
    typedmod.hypot2.nonesuch  # E
    typedmod.stringy()  # E
    typedmod.stringy(1, 2.0, 3)  # E
    typedmod.aio.stringy(1)  # E
''')


def test_mypy_accepts_the_documented_calls_and_rejects_wrong_ones(tmp_path):
    source = tmp_path / "src" / "typedmod.py"
    source.parent.mkdir()
    source.write_text(MODULE)
    outdir = tmp_path / "out"
    result = kiln_build(str(source), outdir)
    assert result.returncode == 0, result.stderr
    (outdir / "calls.py").write_text(CALLS)
    checked = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                              "--cache-dir", os.devnull, "--no-error-summary",
                              "--hide-error-context", "calls.py"],
                             cwd=outdir, capture_output=True, text=True)
    errors = {int(m.group(1)) for m in re.finditer(r"^calls\.py:(\d+): error:",
                                                  checked.stdout, re.MULTILINE)}
    expected = {number for number, line in enumerate(CALLS.splitlines(), 1)
                if line.endswith("# E")}
    assert errors == expected, checked.stdout


# The user's own Kiln source, and calls of its functions, checked by mypy
# against the `kiln` package itself (its py.typed and __init__.pyi): the
# annotations are valid types and the decorators keep the signatures.
USER_SOURCE = textwrap.dedent('''\
    import numpy as np
    import kiln


    @kiln.export
    def scale(x: kiln.f64[:], a: kiln.f32, n: kiln.i64) -> kiln.f64[:]:
        return x * a + n


    @kiln.export(fastmath=True, strict=True)
    def total(z: kiln.c128[:, :], flags: kiln.b1[:]) -> complex:
        return complex(0)


    @kiln.vectorize
    def twice(v: float) -> float:
        return 2 * v


    y = scale(np.ones(3), 2.0, 3)
    w: complex = total(np.zeros((2, 2), complex), np.zeros(2, bool))
    t: float = twice(1.5)
    scale(np.ones(3), 2.0)  # E
    s: str = total(np.zeros((2, 2), complex), np.zeros(2, bool))  # E
    kiln.export(bogus=True)  # E
''')


def test_mypy_accepts_the_users_kiln_source(tmp_path):
    (tmp_path / "usermod.py").write_text(USER_SOURCE)
    frontend = os.path.join(os.path.dirname(__file__), "..", "..", "python_frontend")
    checked = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental",
                              "--cache-dir", os.devnull, "--no-error-summary",
                              "--hide-error-context", "usermod.py"],
                             cwd=tmp_path, capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=os.path.abspath(frontend)))
    errors = {int(m.group(1)) for m in re.finditer(r"^usermod\.py:(\d+): error:",
                                                  checked.stdout, re.MULTILINE)}
    expected = {number for number, line in enumerate(USER_SOURCE.splitlines(), 1)
                if line.endswith("# E")}
    assert errors == expected, checked.stdout
