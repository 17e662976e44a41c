"""Each Python loop gets LLVM's vectorizer verdict in <mod>.kiln.json, and
vectorize="require" fails the build when a loop stays scalar."""

import json
import re
import textwrap

from conftest import kiln_build

SOURCE = textwrap.dedent("""
    import kiln

    @kiln.export(fastmath=True, vectorize="require")
    def fast_sum(x: kiln.f64[:]) -> float:
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return s

    @kiln.export
    def ordered_sum(x: kiln.f64[:]) -> float:
        s = 0.0
        for i in range(len(x)):
            s += x[i]
        return s

    @kiln.export
    def prefix(x: kiln.f64[:], out: kiln.f64[:]) -> None:
        s = 0.0
        for i in range(len(x)):
            s += x[i]
            out[i] = s
""")


def build(tmp_path, source):
    path = tmp_path / "verdicts.py"
    path.write_text(source)
    return kiln_build(str(path), tmp_path / "out")


def test_record_has_a_verdict_per_loop(tmp_path):
    result = build(tmp_path, SOURCE)
    assert result.returncode == 0, result.stderr
    record = json.load(open(tmp_path / "out" / "verdicts.kiln.json"))
    loops = {f["name"]: f["loops"] for f in record["functions"]}
    (fast,) = loops["fast_sum"]
    assert fast["line"] == 7 and fast["vectorized"] and fast["width"] >= 2
    assert fast["vectorizer"] == "kiln"
    (ordered,) = loops["ordered_sum"]
    assert not ordered["vectorized"]
    # Kiln's own reason comes first, LLVM's agrees.
    assert "needs fastmath=True" in ordered["reasons"][0]
    assert any("reorder floating-point" in reason for reason in ordered["reasons"])
    # The advice carries the gain measured on this CPU (report/fastmath_gain.py):
    # a number, not a speed the test could assert (a CI rehearsal measured
    # 1.0x under the sanitizers' instrumented build, where both loops crawl).
    gain = re.search(r"\(measured gain: (\d+\.\d)x for a float64 sum", ordered["verdict"])
    assert gain and float(gain.group(1)) > 0, ordered["verdict"]
    (scan,) = loops["prefix"]
    assert not scan["vectorized"] and scan["reasons"]
    assert any(r["pass"] == "loop-vectorize" for r in record["llvm_remarks"])
    assert any(r["pass"] == "kiln-vectorize" for r in record["llvm_remarks"])


def test_require_fails_on_a_scalar_loop(tmp_path):
    result = build(tmp_path, SOURCE.replace("@kiln.export\ndef prefix",
                                            '@kiln.export(vectorize="require")\ndef prefix'))
    assert result.returncode == 1
    assert "verdicts.py:21:5: error: loop in `prefix` stays scalar (vectorize=\"require\")" in \
        result.stderr
    assert "loop-carried dependence on `s`" in result.stderr


def test_require_value_is_checked(tmp_path):
    result = build(tmp_path, SOURCE.replace('vectorize="require"', 'vectorize="always"'))
    assert "falls back to Python" in result.stderr or result.returncode != 0
    assert '@kiln.export(vectorize=...) is "auto" or "require"' in result.stderr


ARRAY_STATEMENTS = textwrap.dedent("""
    import numpy as np
    import kiln

    @kiln.export
    def escape(c: kiln.c128[:, :], steps: int):
        z = np.zeros(c.shape, np.complex128)
        n = np.zeros(c.shape, dtype=np.int64)
        for k in range(steps):
            inside = np.abs(z) < 2.0
            n[inside] = k
            z[inside] = z[inside]**2 + c[inside]
        return z, n
""")


def test_array_statements_in_a_python_loop_have_their_own_verdicts(tmp_path):
    """The loops Kiln makes for array statements inside a Python loop are
    each a loop of its own line (vectorized by Kiln: complex and bool
    arrays), not the Python loop's; the Python loop itself is an outer loop."""
    path = tmp_path / "statements.py"
    path.write_text(ARRAY_STATEMENTS)
    result = kiln_build(str(path), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    record = json.load(open(tmp_path / "out" / "statements.kiln.json"))
    [function] = record["functions"]
    loops = {loop["line"]: loop for loop in function["loops"]}
    assert not loops[9]["vectorized"] and "outer loop" in loops[9]["verdict"], loops[9]
    for line in (10, 11, 12):
        assert loops[line]["vectorized"] and loops[line]["vectorizer"] == "kiln", loops[line]
