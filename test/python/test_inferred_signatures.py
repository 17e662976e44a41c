"""Parameters without annotations (modules/inferred_signatures.py): typed
from `#pythran export` comments and from a helper's first call, compiled
and compared with CPython+numpy on sizes 0, 1, 7, 8, 9 and 100 and on
reversed and strided views; then the messages when that typing cannot
work."""

import numpy as np
import pytest

from conftest import kiln_build

SIZES = [0, 1, 7, 8, 9, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("inferred_signatures")


def views(n, dtype=np.float64):
    base = (np.sin(np.arange(2 * n + 3) * 0.9) * 4.0).astype(dtype)
    return [base[:n], base[::-1][:n], base[::2][:n]]


def same(native, python):
    if isinstance(python, np.ndarray):
        assert isinstance(native, np.ndarray) and native.dtype == python.dtype
        np.testing.assert_allclose(native, python, rtol=1e-12)
    else:
        assert native == pytest.approx(python, rel=1e-12)


def test_everything_compiles(mod):
    with open(mod.path("inferred_signatures.kiln.json")) as record:
        text = record.read()
    assert '"fallbacks": []' in text


def test_signatures_from_pythran_comments(mod):
    for n in SIZES:
        for x in views(n):
            m = np.arange(12.0).reshape(3, 4)
            same(mod.native.weighted(x, m, 3), mod.python.weighted(x, m, 3))
            same(mod.native.weighted(x, m.T, -2), mod.python.weighted(x, m.T, -2))
            same(mod.native.partly(x, 0.5), mod.python.partly(x, 0.5))
            z = (x + 1j * x[::-1]).reshape(-1, 1)
            same(mod.native.complex_total(z), mod.python.complex_total(z))
    with pytest.raises(TypeError, match="x"):
        mod.native.weighted(np.arange(3), np.ones((2, 2)), 1)       # int64, not float64
    with pytest.raises(ValueError, match="m"):
        mod.native.weighted(np.ones(3), np.ones(3), 1)              # 1-D, not 2-D


def test_helpers_typed_by_their_first_call(mod):
    for n in SIZES:
        for x in views(n):
            for limit in (0.5, 1e300):
                same(mod.native.through_helpers(x, limit), mod.python.through_helpers(x, limit))
    rng = np.random.default_rng(7)
    for n in (1, 8, 100):
        e = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        symbols = rng.standard_normal(5) + 1j * rng.standard_normal(5)
        np.testing.assert_array_equal(mod.native.nearest_symbols(e, symbols),
                                      mod.python.nearest_symbols(e, symbols))


def test_default_parameter_values(mod):
    for n in (0, 1, 9):
        for x in views(n):
            for args, keywords in [((), {}), ((0.25,), {}), ((0.1, 2, True), {}),
                                   ((), {"steps": 1}), ((), {"flip": True, "alpha": 2.0}),
                                   ((0.5,), {"steps": 0})]:
                same(mod.native.damped(x, *args, **keywords),
                     mod.python.damped(x, *args, **keywords))
    for v in (0.0, -1.5, 1e300):
        same(mod.native.helper_defaults(v), mod.python.helper_defaults(v))
    for args in [(), (2j,), (1 + 1j, 3), (1j, -2, 0.5)]:
        assert mod.native.complex_default(*args) == mod.python.complex_default(*args)
    assert mod.native.complex_default(n=2) == mod.python.complex_default(n=2)
    for args in [(1.5,), (1.5, True), (1.5, True, 2.0), (1.5, False, 2.0, 200)]:
        assert mod.native.converted_defaults(*args) == mod.python.converted_defaults(*args)
    with pytest.raises(TypeError, match=r"damped\(\) missing required argument 'x'"):
        mod.native.damped()
    with pytest.raises(TypeError, match="takes 4 positional arguments but 5 were given"):
        mod.native.damped(np.ones(2), 1.0, 2, True, 5)
    with pytest.raises(TypeError, match="multiple values for argument 'alpha'"):
        mod.native.damped(np.ones(2), 1.0, alpha=2.0)
    with pytest.raises(TypeError, match="steps"):
        mod.native.damped(np.ones(2), steps=1.5)


WRONG = '''import numpy as np
import kiln


def scaled(values, factor):
    return values * factor


@kiln.export
def two_calls(x: kiln.f64[:], n: kiln.i64[:]) -> float:
    return scaled(x, 2.0).sum() + scaled(n, 2.0).sum()


#pythran export strings(str, float64[])
@kiln.export
def strings(name, x):
    return x.sum()


@kiln.export
def no_comment(x):
    return x
'''


def test_what_cannot_be_typed_says_why(tmp_path):
    source = tmp_path / "wrong.py"
    source.write_text(WRONG)
    result = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert result.returncode == 0, result.stderr
    # a helper called at two array types compiles once for each
    # (test_helper_specializations.py): no message
    assert "wrong.py:11:" not in result.stderr, result.stderr
    for line, column, message in [
            (16, 13, "parameter `name` has the Pythran type `str`, which Kiln has no type "
                     "for; annotate it"),
            (21, 16, "parameter `x` needs a type annotation")]:
        assert f"wrong.py:{line}:{column}: warning: {message}" in result.stderr, result.stderr
