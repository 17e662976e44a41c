"""@kiln.guvectorize makes a numpy generalized ufunc: checked against the
same Python function run through np.vectorize(signature=...) on edge
inputs, with numpy's core-dimension errors, the function's own
exceptions, pickling, the stubs and KILN_DISABLE's stand-in."""

import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("gufuncs")


def python(mod, name):
    """mod.python's function is np.vectorize(f, signature=...) already."""
    return getattr(mod.python, name)


def test_they_are_gufuncs(mod):
    assert isinstance(mod.native.dot, np.ufunc)
    assert mod.native.dot.signature == "(n),(n)->()"
    assert mod.native.matvec.signature == "(m,n),(n)->(m)"
    assert mod.native.dot.types == ["dd->d"] and mod.native.running_max.types == ["f->f"]
    assert "inner product" in mod.native.dot.__doc__
    assert isinstance(mod.python.dot, np.vectorize)


@pytest.mark.parametrize("shape_x, shape_y", [((5,), (5,)), ((3, 5), (5,)), ((2, 1, 4), (3, 4)),
                                              ((0, 4), (4,)), ((3, 0), (0,)), ((1,), (1,))])
def test_dot_matches_python(mod, shape_x, shape_y):
    rng = np.random.default_rng(sum(shape_x) + len(shape_y))
    x, y = rng.standard_normal(shape_x), rng.standard_normal(shape_y)
    np.testing.assert_array_equal(mod.native.dot(x, y), python(mod, "dot")(x, y))


def test_views_out_and_axes(mod):
    a = np.arange(60.0).reshape(3, 4, 5) / 7
    v = np.linspace(-1, 1, 5)
    for matrix, vector in [(a, v), (a[:, ::-1, ::-2], v[::2]), (a.transpose(0, 2, 1)[..., :5], v[:4])]:
        np.testing.assert_allclose(mod.native.matvec(matrix, vector),
                                   python(mod, "matvec")(matrix, vector), rtol=1e-14)
    out = np.zeros((3, 4))
    assert mod.native.matvec(a, v, out=out) is out
    np.testing.assert_allclose(out, a @ v, rtol=1e-14)
    np.testing.assert_array_equal(mod.native.dot(a, a, axes=[(0,), (0,), ()]),
                                  python(mod, "dot")(np.moveaxis(a, 0, -1), np.moveaxis(a, 0, -1)))
    x = np.random.default_rng(2).standard_normal((4, 9)).astype(np.float32)
    np.testing.assert_array_equal(mod.native.running_max(x[:, ::-1]),
                                  np.maximum.accumulate(x[:, ::-1], axis=1))
    np.testing.assert_array_equal(mod.native.running_max(x, axis=0),
                                  np.maximum.accumulate(x, axis=0))
    counts = mod.native.count_above(np.arange(20).reshape(4, 5), [[3], [10], [0]])
    np.testing.assert_array_equal(counts, python(mod, "count_above")(
        np.arange(20).reshape(4, 5), [[3], [10], [0]]))


def test_errors(mod):
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        mod.native.dot(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="more than 1000 above the limit"):
        mod.native.count_above(np.arange(5000).reshape(2, 2500), 0)
    with pytest.raises(ValueError, match="returned an array of another shape"):
        mod.native.halves(np.ones((2, 6)))
    with pytest.raises(TypeError, match="not supported for the input types"):
        mod.native.dot(np.array(["a"]), np.array(["b"]))


def test_pickle_and_stub(mod):
    assert pickle.loads(pickle.dumps(mod.native.matvec)) is mod.native.matvec
    pyi = open(mod.path("gufuncs.pyi"), encoding="utf-8").read()
    assert "dot: numpy.ufunc  # gufunc (n),(n)->(): dot(x: numpy.typing.NDArray[" \
           "numpy.float64], y: numpy.typing.NDArray[numpy.float64]) -> float" in pyi


def test_dask_applies_it_per_block(mod):
    dask_array = pytest.importorskip("dask.array")
    x = np.random.default_rng(4).standard_normal((30, 8))
    lazy = dask_array.apply_gufunc(mod.native.dot, "(n),(n)->()",
                                   dask_array.from_array(x, chunks=(7, 8)), x[0])
    np.testing.assert_array_equal(lazy.compute(), mod.native.dot(x, x[0]))


def test_compile_on_first_use(tmp_path):
    (tmp_path / "gumod.py").write_text(textwrap.dedent("""
        import kiln

        @kiln.guvectorize("(n)->()")
        def total(x: kiln.f64[:]) -> float:
            s = 0.0
            for v in x:
                s += v
            return s
    """))
    script = ("import numpy as np, pickle, gumod; print(type(gumod.total).__name__, "
              "gumod.total(np.ones((2, 3))).tolist(), "
              "pickle.loads(pickle.dumps(gumod.total)) is gumod.total)")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run([sys.executable, "-W", "error", "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["ufunc", "[3.0,", "3.0]", "True"]
