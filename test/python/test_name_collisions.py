"""User names cannot collide with generated MLIR names (issue 11): the IR
builder assigns every SSA name itself, so a module whose parameters and
locals are called `out`, `one`, `arg0`, `error`, ... compiles completely
and agrees with CPython."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("name_collisions")


def test_every_function_is_compiled(mod):
    import json

    with open(mod.path("name_collisions.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert [f for f in record["fallbacks"] if f["kind"] == "function"] == []
    assert {f["name"]: f["compiled"] for f in record["functions"]} == {
        "blend": True, "pick": True, "guarded": True, "accumulate": True, "counted": True,
        "swapped": True}


def test_vectorized_functions_agree_with_cpython(mod):
    native, python = mod.native, mod.python
    for one, out in [(0.0, 1.5), (-2.25, 3.0), (1e300, -1e300)]:
        assert native.blend(one, out) == python.blend(one, out)
    x = np.linspace(-3, 3, 7)
    np.testing.assert_array_equal(native.blend(x, x[::-1]),
                                  np.vectorize(python.blend)(x, x[::-1]))
    for args in [(1, 2, 3, 4), (-5, 7, 0, 9), (10**6, 3, -2, 2)]:
        assert native.pick(*args) == python.pick(*args)
    a = np.arange(-4, 4)
    np.testing.assert_array_equal(native.pick(a, 2, a[::-1], 1),
                                  np.vectorize(python.pick)(a, 2, a[::-1], 1))
    assert native.guarded(3.0, 1.0, 2.0) == python.guarded(3.0, 1.0, 2.0)
    np.testing.assert_array_equal(native.guarded(x, 0.5, 4.0),
                                  np.vectorize(python.guarded)(x, 0.5, 4.0))
    with pytest.raises(ZeroDivisionError, match="error is zero"):
        native.guarded(1.0, 1.0, 0.0)
    with pytest.raises(ZeroDivisionError, match="error is zero"):
        native.guarded(x, 1.0, np.array([1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0]))


def test_exported_functions_agree_with_cpython(mod):
    native, python = mod.native, mod.python
    for error in (0.5, -2.0):
        one = np.arange(5.0)
        out_native, out_python = np.zeros(5), np.zeros(5)
        assert native.accumulate(out_native, one, error) == \
            python.accumulate(out_python, one, error)
        np.testing.assert_array_equal(out_native, out_python)
    for args in [(0, 1, 1), (10, 3, 2), (5000, 7, -1), (9, -4, 5)]:
        assert native.counted(*args) == python.counted(*args)
    for args in [(3, True, 1.5), (3, False, 1.5), (-7, True, -0.0)]:
        assert native.swapped(*args) == python.swapped(*args)
