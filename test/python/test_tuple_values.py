"""Chained assignment (`a = b = v`, `c[i + 1:, i] = c[i, i + 1:] = v`) and
tuples as values (a shape kept in a variable and passed on, `t[0]`, `t[-1]`,
`t[k]`, `len(t)`, `for v in t`, a helper's tuple indexed, `x.shape ==
(3, 4)`): the native functions agree with CPython, edge inputs included,
and what is still refused says so with its line."""

import json

import numpy as np
import pytest

from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

from conftest import outcome

MODULE = "tuple_values"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def same(mod, name, *args):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *copies)
    assert got_error == want_error, (name, args)
    if isinstance(want, np.ndarray):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype and got.shape == want.shape
    else:
        # numpy scalars come back as the Python numbers of their kind
        want = want.item() if isinstance(want, np.generic) else want
        assert got == want and type(got) is type(want), (name, got, want)
    for native_arg, python_arg in zip(args, copies):
        if isinstance(python_arg, np.ndarray):
            np.testing.assert_array_equal(native_arg, python_arg)


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert record["fallbacks"] == []


@pytest.mark.parametrize("x", [0.0, 1.5, -3.0, 2.9])
def test_chained_numbers(mod, x):
    same(mod, "chained_numbers", x)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_chained_stores(mod, n):
    same(mod, "chained_store_and_name", np.arange(float(n)), 2.0)
    same(mod, "chained_views_read_before_write", np.arange(float(n)), np.zeros(n))
    same(mod, "chained_array_expression", np.arange(float(n)))
    same(mod, "chained_view_names", np.arange(float(n)))
    same(mod, "chained_row_tuple", np.zeros((n, 2)))
    same(mod, "chained_row_tuple", np.zeros((n, 3)))      # numpy's ValueError


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (5, 4), (6, 1), (3, 0)])
def test_chained_correlation(mod, shape):
    data = np.random.default_rng(sum(shape)).normal(size=shape)
    got, want = np.full((shape[1],) * 2, -9.0), np.full((shape[1],) * 2, -9.0)
    mod.native.chained_correlation(data, got)
    mod.python.chained_correlation(data, want)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_chained_new_array_is_one_array(mod, n):
    same(mod, "chained_new_array", n)
    same(mod, "chained_new_array", -1)        # numpy's ValueError


def test_chained_tuple(mod):
    same(mod, "chained_tuple", 7)


@pytest.mark.parametrize("shape", [(0, 0), (0, 4), (1, 1), (3, 4), (2, 5)])
def test_shapes_as_values(mod, shape):
    x = np.arange(float(np.prod(shape))).reshape(shape)
    same(mod, "shape_kept", x)
    same(mod, "shape_variable", x)
    same(mod, "shape_equals", x)
    same(mod, "tuple_read_in_loops", x)
    same(mod, "shape_loop", x.reshape(*shape, 1))
    for width in (1, 2, 4, 0, -1, 3):
        same(mod, "reshape_by_variable", x, width)


@pytest.mark.parametrize("n, m", [(0, 0), (2, 3), (-1, 2), (2, -5)])
def test_shape_from_numbers(mod, n, m):
    same(mod, "shape_of_variable_sizes", n, m)


def test_tuple_elements_and_loops(mod):
    for a, b in [(0, 0), (2, 3), (-5, 9)]:
        same(mod, "tuple_elements", a, b)
        same(mod, "enumerate_tuple", a, b)
        same(mod, "tuple_rebound_in_order", a)
        same(mod, "tuple_loop", float(a), b + 0.5)
    for k in range(-4, 4):
        same(mod, "tuple_index_at_run_time", 1.5, -2.0, k)     # IndexError beyond
        same(mod, "helper_tuple_run_time_index", 6, k)
    for n in (0, 1, 2, 3, 5):
        same(mod, "zip_tuple", np.arange(float(n)) + 1)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_helper_tuple_indexed(mod, n):
    same(mod, "helper_tuple_indexed", np.arange(float(n)) + 0.5, 0)      # IndexError at 0


REFUSED = '''import numpy as np
import kiln


@kiln.export
def out_of_range(n: int) -> int:
    t = (n, 2, 3)
    return t[5]


@kiln.export
def mixed_run_time_index(n: int, i: int) -> float:
    t = (n, 2.0)
    return t[i]


@kiln.export
def mixed_loop(n: int) -> float:
    s = 0.0
    for v in (n, 2.0):
        s += v
    return s


@kiln.export
def rebound_in_loop(x: kiln.f64[:, :]) -> int:
    t = x.shape
    for i in range(3):
        t = (t[1], t[0])
    return t[0]


@kiln.export
def arrays_in_variable(x: kiln.f64[:]) -> float:
    t = (x, x)
    return 0.0


@kiln.export
def tuple_arithmetic(n: int) -> int:
    t = (n, 2)
    return len(t * 2)


@kiln.export
def truth_of_tuple(n: int) -> int:
    t = (n, 2)
    if t:
        return 1
    return 0


@kiln.export
def sliced(n: int) -> int:
    t = (n, 2)
    return t[1:][0]
'''


def test_refused_tuples_say_why(tmp_path):
    path = tmp_path / "refused_tuples.py"
    path.write_text(REFUSED)
    failures = infer_module(load_module(str(path))).failures
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].message)
             for name, error in failures.items()}
    assert first == {
        "out_of_range": (8, "IndexError: tuple index out of range (index 5 of a tuple of 3 "
                            "elements)"),
        "mixed_run_time_index": (14, "a tuple of different types (int, float) is indexed by "
                                     "an int known only at run time; index it with an int "
                                     "written in the source"),
        "mixed_loop": (20, "a tuple of different types (int, float) is iterated over; `for` "
                           "over a tuple needs numbers of one type"),
        "rebound_in_loop": (28, "variable `t` holds a tuple and is rebound inside this loop; "
                                "a tuple variable is supported in straight-line code only "
                                "yet: unpack it instead (`n, m = x.shape`)"),
        "arrays_in_variable": (35, "a tuple holding arrays can only be unpacked (a, b = ...), "
                                   "indexed where it is made or returned"),
        "tuple_arithmetic": (42, "a tuple[int, int] is a tuple, not a number or an array: "
                                 "`t * 2` does not take it"),
        "truth_of_tuple": (48, "the truth value of a tuple is not supported; use len(t)"),
        "sliced": (56, "slicing a tuple is not supported yet; index it with an int"),
    }
