"""@kiln.vectorize makes a real numpy ufunc: every feature numpy gives a
ufunc, checked against the same Python function run through
np.frompyfunc / np.vectorize on edge inputs; several signatures; pickling;
the stubs; compile on first call; KILN_DISABLE's Python stand-in; and the
array libraries that call ufuncs on their own blocks (dask, xarray,
pandas)."""

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
    return build_module("ufuncs")


def reference(mod, name, dtype):
    """The Python function as numpy runs any Python function elementwise."""
    function = getattr(mod.python, name)
    return np.vectorize(getattr(function, "py_func", function), otypes=[dtype])


def test_they_are_ufuncs(mod):
    for name in ("soft_plus", "plus", "largest", "floor_div", "scaled"):
        assert isinstance(getattr(mod.native, name), np.ufunc), name
    assert mod.native.soft_plus.nin == 2 and mod.native.soft_plus.nout == 1
    assert mod.native.soft_plus.__name__ == "soft_plus"
    assert "smooth maximum" in mod.native.soft_plus.__doc__
    assert mod.native.plus.types == ["ll->l", "ff->f", "dd->d"]
    assert mod.native.plus.identity == 0 and mod.native.soft_plus.identity is None


SHAPES = [((0,), ()), ((), ()), ((1,), ()), ((7,), (7,)), ((3, 1), (7,)), ((2, 3, 4), (4,)),
          ((2, 1, 4, 1, 3), (5, 1)), ((1000,), (1,)), ((3, 0), (1,))]


@pytest.mark.parametrize("shape_x, shape_y", SHAPES)
def test_broadcasting_matches_python(mod, shape_x, shape_y):
    rng = np.random.default_rng(len(shape_x) * 7 + len(shape_y))
    x = rng.standard_normal(shape_x) * 4
    y = rng.standard_normal(shape_y) * 4
    result = mod.native.soft_plus(x, y)
    expected = reference(mod, "soft_plus", np.float64)(x, y)
    assert np.shape(result) == np.broadcast(x, y).shape
    np.testing.assert_allclose(result, expected, rtol=1e-15, atol=0)


def test_views_negative_strides_and_scalars(mod):
    x = np.arange(60.0).reshape(6, 10) / 7
    for a, b in [(x[::-1], x.T.T), (x[:, ::-3], x[::2, :4][:, ::-1][:, :4].sum()),
                 (x.T, 1.5), (2.0, x[::-2, ::-1])]:
        np.testing.assert_allclose(mod.native.soft_plus(a, b),
                                   reference(mod, "soft_plus", np.float64)(a, b), rtol=1e-15)
    assert isinstance(mod.native.soft_plus(1.0, 2.0), np.float64)
    ints = np.arange(-20, 20)
    np.testing.assert_array_equal(mod.native.floor_div(ints[::-1], 3), ints[::-1] // 3)
    f = np.linspace(-2, 2, 9, dtype=np.float32)
    assert mod.native.scaled(f).dtype == np.float32
    np.testing.assert_array_equal(mod.native.scaled(f), f * np.float32(2.5) - np.float32(1))


def test_out_where_dtype_casting(mod):
    x = np.arange(10.0)
    y = np.linspace(1, 3, 10)
    expected = reference(mod, "soft_plus", np.float64)(x, y)
    out = np.full(10, -1.0)
    assert mod.native.soft_plus(x, y, out=out) is out
    np.testing.assert_allclose(out, expected, rtol=1e-15)
    aliased = x.copy()                                  # out= aliasing an input
    mod.native.soft_plus(aliased, y, out=aliased)
    np.testing.assert_allclose(aliased, expected, rtol=1e-15)
    shifted = x.copy()                                  # ... partially: numpy copies
    mod.native.plus(shifted[1:], shifted[:-1], out=shifted[:-1])
    np.testing.assert_array_equal(shifted[:-1], x[1:] + x[:-1])
    mask = x % 2 == 0
    out = np.zeros(10)
    mod.native.soft_plus(x, y, out=out, where=mask)
    np.testing.assert_allclose(out, np.where(mask, expected, 0.0), rtol=1e-15)
    assert mod.native.plus(np.arange(3), np.arange(3), dtype=np.float32).dtype == np.float32
    assert mod.native.plus(np.arange(3), 1).dtype == np.int64
    assert mod.native.plus(np.ones(3, np.float32), np.ones(3, np.float32)).dtype == np.float32
    with pytest.raises(TypeError, match="ufunc 'plus' not supported for the input types"):
        mod.native.plus(np.array(["a"]), 1)
    with pytest.raises(np.core._exceptions.UFuncTypeError):
        mod.native.plus(np.ones(3), 1.0, out=np.zeros(3, np.int64))     # casting='same_kind'
    with pytest.raises(ValueError, match="could not be broadcast"):
        mod.native.soft_plus(np.ones(3), np.ones(4))


def test_reduce_accumulate_reduceat_outer_at(mod):
    python = np.frompyfunc(reference(mod, "plus", np.int64).pyfunc, 2, 1, identity=0)
    a = np.arange(1, 25).reshape(4, 6)
    for axis in (0, 1, None):
        np.testing.assert_array_equal(mod.native.plus.reduce(a, axis=axis),
                                      np.asarray(python.reduce(a, axis=axis), np.int64))
    assert mod.native.plus.reduce(np.array([], dtype=np.int64)) == 0        # the identity
    with pytest.raises(ValueError, match="zero-size array to reduction operation"):
        mod.native.largest.reduce(np.array([]))
    x = np.random.default_rng(3).standard_normal(1000)
    assert mod.native.largest.reduce(x) == x.max()
    assert mod.native.largest.reduce(x[::-3]) == x[::-3].max()
    # A float fold runs in order, as Python's would (numpy's add sums pairwise).
    import functools
    for values in (x, x[::-2], x.reshape(40, 25).T):
        for axis in (0, -1):
            sequential = np.apply_along_axis(
                lambda v: functools.reduce(lambda s, e: s + e, v, 0.0), axis, values)
            np.testing.assert_array_equal(mod.native.plus.reduce(values, axis=axis), sequential)
    np.testing.assert_array_equal(mod.native.plus.reduce(x.astype(np.float32)),
                                  functools.reduce(np.add, x.astype(np.float32), np.float32(0)))
    np.testing.assert_array_equal(mod.native.plus.accumulate(a, axis=1), np.cumsum(a, axis=1))
    np.testing.assert_array_equal(mod.native.plus.accumulate(x[::-1]), np.cumsum(x[::-1]))
    np.testing.assert_array_equal(mod.native.plus.reduceat(np.arange(10), [0, 4, 5]),
                                  np.add.reduceat(np.arange(10), [0, 4, 5]))
    np.testing.assert_allclose(mod.native.soft_plus.outer(x[:5], x[5:9]),
                               reference(mod, "soft_plus", np.float64)(x[:5, None], x[5:9]),
                               rtol=1e-15)
    counts = np.zeros(5, dtype=np.int64)
    mod.native.plus.at(counts, [0, 1, 1, 4, 1], 2)
    np.testing.assert_array_equal(counts, [2, 6, 0, 0, 2])


def test_raising_function_raises_from_numpy(mod):
    for n in (3, 5000):                    # under and over numpy's GIL threshold
        b = np.ones(n, dtype=np.int64)
        b[-2] = 0
        with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
            mod.native.floor_div(np.arange(n), b)
    with pytest.raises(ZeroDivisionError):
        mod.native.floor_div.reduce(np.array([7, 0, 2]))
    assert mod.native.floor_div(7, 2) == 3


def test_pickles_by_module_and_name(mod):
    assert pickle.loads(pickle.dumps(mod.native.soft_plus)) is mod.native.soft_plus
    assert pickle.loads(pickle.dumps(mod.native.plus)) is mod.native.plus


def test_stub_and_header(mod):
    pyi = open(mod.path("ufuncs.pyi"), encoding="utf-8").read()
    assert "soft_plus: numpy.ufunc  # loops: (float64, float64) -> float64" in pyi
    assert ("plus: numpy.ufunc  # loops: (int64, int64) -> int64, (float32, float32) -> "
            "float32, (float64, float64) -> float64") in pyi
    header = open(mod.path("ufuncs.py"), encoding="utf-8").read().split("\n\n")[0]
    assert "# Needs numpy at run time: soft_plus, plus, largest, floor_div, scaled are numpy " \
           "ufuncs." in header


def test_modules_without_ufuncs_keep_clear_of_numpy_c_api(build_module):
    built = build_module("tuple_values")
    wrappers = [f for f in os.listdir(built.outdir) if f.endswith(".c")]
    for name in wrappers:
        text = open(os.path.join(built.outdir, name), encoding="utf-8").read()
        assert "numpy/" not in text and "_import_umath" not in text
    assert "Needs numpy" not in open(built.path("tuple_values.py"), encoding="utf-8").read()


FIRST_CALL = textwrap.dedent("""
    import math
    import kiln

    @kiln.vectorize(identity=0.0)
    def hyp(x: float, y: float) -> float:
        return math.sqrt(x * x + y * y)

    @kiln.vectorize(["f4(f4)", "f8(f8)"])
    def half(x):
        return x / 2
""")

FIRST_CALL_SCRIPT = textwrap.dedent("""
    import pickle, warnings
    import numpy as np
    warnings.simplefilter("error")
    import firstmod
    print(type(firstmod.hyp).__name__, firstmod.hyp(np.array([3.0, 5.0]), 4.0).tolist(),
          firstmod.hyp.reduce(np.array([])), pickle.loads(pickle.dumps(firstmod.hyp)) is
          firstmod.hyp, firstmod.half(np.float32(3)).dtype, firstmod.half(3.0))
""")


@pytest.mark.parametrize("disabled", ["0", "1"])
def test_compile_on_first_use_and_kiln_disable(tmp_path, disabled):
    (tmp_path / "firstmod.py").write_text(FIRST_CALL)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               KILN_CACHE_DIR=str(tmp_path / "cache"), KILN_DISABLE=disabled)
    run = subprocess.run([sys.executable, "-c", FIRST_CALL_SCRIPT], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    kind = "ufunc" if disabled == "0" else "PythonUfunc"
    assert run.stdout.split() == [kind, "[5.0,", "6.4031242374328485]", "0.0", "True", "float32",
                                  "1.5"]


def test_python_stand_in_behaves_like_the_ufunc(mod):
    stand_in, native = mod.python.plus, mod.native.plus
    a = np.arange(12).reshape(3, 4)
    for call in (lambda f: f(a, 2), lambda f: f.reduce(a, axis=1), lambda f: f.accumulate(a[0]),
                 lambda f: f.outer(a[0], a[1]), lambda f: f(a, a, where=a > 3, out=np.zeros_like(a))):
        np.testing.assert_array_equal(call(stand_in), call(native))
    counts = [np.zeros(4, dtype=np.int64) for _ in range(2)]
    stand_in.at(counts[0], [0, 0, 3], 5)
    native.at(counts[1], [0, 0, 3], 5)
    np.testing.assert_array_equal(*counts)


def test_dask_xarray_pandas(mod):
    dask_array = pytest.importorskip("dask.array")
    x = np.random.default_rng(5).standard_normal((40, 30))
    lazy = mod.native.soft_plus(dask_array.from_array(x, chunks=(16, 7)), 0.5)
    assert isinstance(lazy, dask_array.Array)
    np.testing.assert_array_equal(lazy.compute(), mod.native.soft_plus(x, 0.5))
    pandas = pytest.importorskip("pandas")
    series = pandas.Series([1.0, -2.0, 3.5], index=["a", "b", "c"])
    result = mod.native.soft_plus(series, 1.0)
    assert isinstance(result, pandas.Series) and list(result.index) == ["a", "b", "c"]
    np.testing.assert_array_equal(result.to_numpy(), mod.native.soft_plus(series.to_numpy(), 1.0))
    xarray = pytest.importorskip("xarray")
    data = xarray.DataArray(x, dims=("t", "s")).chunk({"t": 10})
    applied = xarray.apply_ufunc(mod.native.soft_plus, data, 0.25, dask="parallelized",
                                 output_dtypes=[np.float64])
    np.testing.assert_array_equal(applied.compute().values, mod.native.soft_plus(x, 0.25))
