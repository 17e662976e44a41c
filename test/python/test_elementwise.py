"""@kiln.vectorize: a numpy ufunc over whole arrays, with numpy's
broadcasting; numbers give numpy's scalars, as any ufunc does."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("elementwise")


def test_numbers_give_numbers(mod):
    assert mod.native.smooth(3.0, 7.0) == mod.python.smooth(3.0, 7.0)
    assert mod.native.idiv(-7, 2) == -4
    assert isinstance(mod.native.idiv(7, 2), np.int64)
    assert isinstance(mod.native.smooth(3.0, 7.0), float)


@pytest.mark.parametrize("shape_x, shape_y", [((0,), ()), ((1,), ()), ((7,), ()), ((7,), (7,)),
                                              ((3, 1), (7,)), ((2, 3, 4), (4,)),
                                              ((2, 1, 4), (3, 1))])
def test_broadcasting_matches_numpy(mod, shape_x, shape_y):
    rng = np.random.default_rng(len(shape_x) + len(shape_y))
    x = rng.random(shape_x) * 4
    y = rng.random(shape_y) * 4 if shape_y else 1.5
    result = mod.native.smooth(x, y)
    expected = np.vectorize(mod.python.smooth, otypes=[np.float64])(x, y)
    assert result.shape == np.broadcast(x, y).shape
    np.testing.assert_array_equal(result, expected)


def test_views_and_dtypes(mod):
    x = np.arange(20.0).reshape(4, 5)
    np.testing.assert_array_equal(mod.native.smooth(x.T[::-1], x.T),
                                  np.vectorize(mod.python.smooth)(x.T[::-1], x.T))
    a = np.arange(-6, 6, dtype=np.int64)
    np.testing.assert_array_equal(mod.native.idiv(a, 4), a // 4)
    f = np.linspace(-2, 2, 9, dtype=np.float32)
    result = mod.native.clamp32(f, np.float32(-1), 1.0)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, np.clip(f, -1, 1))


def test_errors(mod):
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        mod.native.idiv(np.arange(3), np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="could not be broadcast"):
        mod.native.smooth(np.ones(3), np.ones(4))
    # numpy's casting: float32 arrays are cast to the float64 loop; a str
    # matches no loop.
    np.testing.assert_array_equal(mod.native.smooth(np.ones(3, dtype=np.float32), 1.0),
                                  mod.native.smooth(np.ones(3), 1.0))
    with pytest.raises(TypeError, match="ufunc 'smooth' not supported for the input types"):
        mod.native.smooth(1.0, "two")
