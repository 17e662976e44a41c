"""Functions as values, np.ndindex and np.unravel_index, tuples as indices
(modules/function_values.py), against CPython; the refusals' messages."""

import json

import numpy as np
import pytest

from conftest import kiln_mlir_errors
from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("function_values")


def test_everything_compiles(mod):
    with open(mod.path("function_values.kiln.json")) as record:
        assert json.load(record)["fallbacks"] == []


@pytest.mark.parametrize("n", [0, 1, 7, 33])
def test_functions_passed_to_helpers(mod, n):
    make = lambda: np.linspace(-3.0, 3.0, n)       # noqa: E731
    compare(mod, "module_function", lambda: (make(),))
    compare(mod, "lambda_with_capture", lambda: (make(), 0.5))
    compare(mod, "lambda_with_capture", lambda: (make(), np.nan))
    compare(mod, "library_functions", lambda: (make(),))
    compare(mod, "capture_named_like_helper", lambda: (make(),))
    compare(mod, "folds", lambda: (np.arange(n, dtype=np.int64) - 3,))


@pytest.mark.parametrize("i, x", [(0, 0.0), (-9, 1.5), (2**40, -np.inf), (3, np.nan)])
def test_functions_bound_to_names(mod, i, x):
    compare(mod, "aliases", lambda: (i, x))


@pytest.mark.parametrize("v, s", [(0.0, 0.0), (2.0, 0.5), (-1.5, np.inf), (np.nan, 1.0)])
def test_lambdas_bound_to_names(mod, v, s):
    compare(mod, "named_lambdas", lambda: (v, s))


@pytest.mark.parametrize("n", [0, 1, 5, 40])
def test_recursion_passes_the_function_on(mod, n):
    compare(mod, "recursion", lambda: (n, 0.25))


@pytest.mark.parametrize("i, n", [(0, 5), (4, 5), (-3, 7), (9, 3)])
def test_function_defaults(mod, i, n):
    compare(mod, "defaults_of_helpers", lambda: (i, n))
    compare(mod, "with_mode", lambda: (i, n))
    compare(mod, "with_mode", lambda: (i, n, mod.python.wrap, 3))


def test_an_exported_function_default_replaced_from_python(mod):
    """Another function than the default runs the Python function; the
    default passed again stays compiled. Both agree with CPython."""
    for args, kwargs in [((4, 5, mod.native.clamp), {}), ((4, 5), {"mode": mod.native.reflect}),
                         ((4, 5), {"mode": mod.native.wrap, "k": -9}),
                         ((4, 5, lambda p, o, b: p * o - b), {})]:
        python_args = tuple(getattr(mod.python, a.__name__) if callable(a) and a.__name__ !=
                            "<lambda>" else a for a in args)
        python_kwargs = {k: getattr(mod.python, v.__name__) if callable(v) else v
                         for k, v in kwargs.items()}
        assert mod.native.with_mode(*args, **kwargs) == \
            mod.python.with_mode(*python_args, **python_kwargs)
    with pytest.raises(TypeError, match="missing required argument 'i'"):
        mod.native.with_mode(n=3)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        mod.native.with_mode(1, 2, 3)


@pytest.mark.parametrize("shape", [(0, 2, 2), (1, 1, 1), (2, 3, 4), (3, 1, 5)])
def test_local_maxima(mod, shape):
    size = int(np.prod(shape))
    compare(mod, "local_maxima", lambda: ((np.arange(size) * 7 % 11).astype(np.float64)
                                          .reshape(shape),))
    compare(mod, "local_maxima", lambda: (np.full(shape, np.nan),))
    compare(mod, "local_maxima", lambda: ((np.arange(size, dtype=np.float64) % 3).reshape(shape),
                                          mod.native.clamp if False else mod.python.wrap))


@pytest.mark.parametrize("n, m", [(0, 3), (3, 0), (1, 1), (3, 4), (-1, 2), (2, -1)])
def test_ndindex(mod, n, m):
    compare(mod, "positions", lambda: (n, m))
    compare(mod, "one_axis", lambda: (n,))


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (3, 4)])
def test_ndindex_of_a_shape(mod, shape):
    compare(mod, "positions_of_shape", lambda: (np.arange(np.prod(shape), dtype=np.float64)
                                                .reshape(shape),))


@pytest.mark.parametrize("k, a, b, c", [(0, 1, 1, 1), (23, 2, 3, 4), (24, 2, 3, 4),
                                        (-1, 2, 3, 4), (0, 0, 3, 4), (0, -1, 2, 3),
                                        (5, 1, 1, 9), (2**62, 2**31, 2**31, 2)])
def test_unravel_index(mod, k, a, b, c):
    compare(mod, "unravel", lambda: (k, a, b, c))


@pytest.mark.parametrize("k", [0, 5, 11, 12, -1])
def test_a_tuple_variable_as_an_index(mod, k):
    compare(mod, "unravel_into", lambda: (np.arange(12.0).reshape(3, 4), k))
    compare(mod, "unravel_into", lambda: (np.arange(24.0).reshape(3, 8)[:, ::-2], k))


@pytest.mark.parametrize("shape", [(0, 1, 2), (3, 4, 5)])
def test_tuple_of_a_generator(mod, shape):
    compare(mod, "unrolled_tuples", lambda: (np.zeros(shape),))


@pytest.mark.parametrize("rows", [0, 1, 9])
def test_tuple_parameters(mod, rows):
    """A tuple parameter (a tuple default without annotation, or
    `tuple[int, float]`) takes a tuple or list of that many numbers."""
    make = lambda: np.arange(rows * 4, dtype=np.int64).reshape(rows, 4) * 7 % 3 % 2  # noqa: E731
    compare(mod, "check_mask", lambda: (make(),))
    compare(mod, "check_mask", lambda: (make(), (1, 1, 1)))
    compare(mod, "check_mask", lambda: (make(), [0, 1, 0]))
    compare(mod, "tuple_parameters", lambda: ((2, 0.5), 3.0))
    compare(mod, "tuple_parameters", lambda: ((-2**62, np.nan), -9.5, mod.python.clamp, (3, -1.0)))
    assert mod.native.tuple_parameters((1, 1.0), 2.0, shift=[0, 0.0]) == \
        mod.python.tuple_parameters((1, 1.0), 2.0, shift=[0, 0.0])


@pytest.mark.parametrize("args, error, message", [
    (((1, 2),), ValueError, "check_mask() argument 'mask' must hold 3 numbers, not 2"),
    ((5,), TypeError, "check_mask() argument 'mask' must be a tuple of 3 numbers, not int"),
    (((1, "a", 1),), TypeError, "check_mask() argument 'mask[1]' must be an int, not str"),
    (((1, 2.5, 1),), TypeError, "check_mask() argument 'mask[1]' must be an int"),
])
def test_tuple_parameters_refuse_other_arguments(mod, args, error, message):
    with pytest.raises(error) as raised:
        mod.native.check_mask(np.zeros((2, 4), dtype=np.int64), *args)
    assert str(raised.value).startswith(message), str(raised.value)


def test_the_stub_shows_the_python_signature(mod):
    with open(mod.path("function_values.pyi")) as handle:
        stub = handle.read()
    assert "def check_mask(db: numpy.typing.NDArray[numpy.int64], mask: tuple[int, int, int] " \
        "= ...)" in stub
    assert "mode: typing.Callable[..., typing.Any] = ..., shift: tuple[int, float] = ...)" in stub


def test_the_copies_are_named_after_the_functions(mod):
    with open(mod.path("function_values.kiln.json")) as handle:
        names = {f["name"] for f in json.load(handle)["functions"]}
    assert {"module_function", "local_maxima"} <= names


REFUSED = {
    "chosen": ("def wrap(p: int, b: int) -> int:\n    return p % b\n"
               "def clamp(p: int, b: int) -> int:\n    return min(b - 1, max(0, p))\n"
               "def apply(f, v: int) -> int:\n    return f(v, 3)\n"
               "@kiln.export\ndef chosen(v: int, c: bool) -> int:\n"
               "    g = wrap if c else clamp\n    return apply(g, v)\n",
               ":12:9: error: `wrap` is a function: a function is supported as a value only"),
    "returned": ("def wrap(p: int, b: int) -> int:\n    return p % b\n"
                 "def give(f):\n    return f\n"
                 "@kiln.export\ndef returned(v: int) -> int:\n    h = give(wrap)\n"
                 "    return h(v, 2)\n",
                 "calls `give`, which cannot be compiled (`wrap` is a function"),
    "compared": ("def wrap(p: int, b: int) -> int:\n    return p % b\n"
                 "@kiln.export\ndef compared(v: int) -> bool:\n    return wrap == wrap\n",
                 ":8:12: error: `wrap` is a function"),
    "ndindex_value": ("@kiln.export\ndef ndindex_value(n: int) -> int:\n"
                      "    it = np.ndindex(n)\n    return n\n",
                      ":6:10: error: np.ndindex(...) is supported as the iterable of a `for` loop"),
    "unravel_array": ("@kiln.export\ndef unravel_array(k: kiln.i64[:]) -> int:\n"
                      "    i, j = np.unravel_index(k, (2, 3))\n    return 0\n",
                      ":6:29: error: np.unravel_index of an array of indices is not supported"),
    "error_in_a_copy": ("def apply(f, x):\n    return f(x)\n"
                        "@kiln.export\ndef error_in_a_copy(x: float, s: str) -> float:\n"
                        "    return apply(lambda v: v + s, x)\n",
                        ":8:12: error: calls `apply`, which cannot be compiled (`+` of a str "
                        "and a float"),
    "tuple_filter": ("@kiln.export\ndef tuple_filter(x: kiln.f64[:, :]) -> int:\n"
                     "    s = x.shape\n    t = tuple(v for v in s if v > 1)\n    return len(t)\n",
                     "error: tuple() of a generator expression is supported over tuples"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refusals_name_the_construct(tmp_path, name):
    body, expected = REFUSED[name]
    stderr = kiln_mlir_errors(tmp_path, name, "import numpy as np\nimport kiln\n\n" + body)
    assert expected in stderr, stderr
    # the names the rewrites make never reach a message
    assert "__kf_" not in stderr and "__kc" not in stderr and "__t0" not in stderr, stderr
