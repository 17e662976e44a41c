"""Every compiled function against CPython running the same source, on
random and edge inputs: sizes 0, 1, VF-1, VF, VF+1 and large, strided,
negative-stride and offset views, NaN/inf, and the same exceptions."""

import array
import inspect
import math

import numpy as np
import pytest

SIZES = [0, 1, 3, 4, 5, 7, 8, 9, 1000]
rng = np.random.default_rng(20261202)


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("e2e_kernels")


def same_scalar(a, b):
    if isinstance(b, float) and isinstance(a, float):
        if math.isnan(b):
            return math.isnan(a)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return type(a) is type(b) and a == b


def same_result(name, native, expected):
    """A result equal to CPython's: arrays of the same dtype and values
    (NaN where NaN), numbers by same_scalar, tuples element by element."""
    if isinstance(expected, tuple):
        assert isinstance(native, tuple) and len(native) == len(expected), (name, native)
        for got, want in zip(native, expected):
            same_result(name, got, want)
    elif isinstance(expected, np.ndarray):
        assert isinstance(native, np.ndarray) and native.dtype == expected.dtype, name
        np.testing.assert_array_equal(native, expected)
    else:
        if isinstance(expected, (np.floating, np.integer)):
            expected = expected.item()
        assert same_scalar(native, expected), (name, native, expected)


def compare(mod, name, make_args):
    """Calls native and Python versions on two identical fresh argument
    sets; results, mutated arrays and exceptions must agree."""
    native_args, python_args = make_args(), make_args()
    outcomes = []
    for function, args in ((getattr(mod.native, name), native_args),
                           (getattr(mod.python, name), python_args)):
        try:
            with np.errstate(all="ignore"):
                outcomes.append(("value", function(*args)))
        except Exception as error:  # noqa: BLE001 - the type is what we compare
            outcomes.append(("error", error))
    (native_kind, native), (python_kind, expected) = outcomes
    assert native_kind == python_kind, (name, native, expected)
    if native_kind == "error":
        assert type(native) is type(expected), (name, native, expected)
        assert str(native).startswith(str(expected)), (name, str(native), str(expected))
    else:
        same_result(name, native, expected)
    for got, want in zip(native_args, python_args):
        if isinstance(got, np.ndarray):
            base_got = got.base if got.base is not None else got
            base_want = want.base if want.base is not None else want
            np.testing.assert_array_equal(base_got, base_want)


def views(base_factory):
    """Fresh views of one base array: contiguous, strided, reversed, offset."""
    return {
        "contiguous": lambda: base_factory(),
        "strided": lambda: base_factory(2)[::2],
        "reversed": lambda: base_factory()[::-1],
        "offset": lambda: base_factory(1, 1)[1:],
        "reversed-strided": lambda: base_factory(3)[::-3],
    }


def float_base(n, seed, special=False):
    def make(factor=1, extra=0):
        values = np.random.default_rng(seed).standard_normal(n * factor + extra) * 10
        if special and values.size >= 3:
            values[0], values[values.size // 2], values[-1] = np.nan, np.inf, -np.inf
        return values
    return make


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "reversed", "offset",
                                    "reversed-strided"])
def test_array_reductions_and_maps(mod, n, layout):
    x = views(float_base(n, n))[layout]
    y = views(float_base(n, n + 1))[layout]
    compare(mod, "dot", lambda: (x(), y()))
    compare(mod, "unchecked_sum", lambda: (x(),))
    compare(mod, "count_in_range", lambda: (x(), -1.0, 5.0))
    compare(mod, "saxpy", lambda: (1.5, x(), y(), views(float_base(n, 7))[layout]()))
    ints = views(lambda f=1, e=0: np.random.default_rng(n).integers(-50, 50, n * f + e))[layout]
    compare(mod, "total_int", lambda: (ints(),))
    f32 = views(lambda f=1, e=0: float_base(n, 3)(f, e).astype(np.float32))[layout]
    compare(mod, "total_f32", lambda: (f32(),))
    compare(mod, "clip_f32", lambda: (f32(), -2.0, 3.5))
    i32 = views(lambda f=1, e=0: np.arange(n * f + e, dtype=np.int32) * 3 - 7)[layout]
    compare(mod, "reverse_copy", lambda: (i32(), np.zeros(n, dtype=np.int32)))


@pytest.mark.parametrize("n", [0, 1, 4, 5, 100])
def test_nan_and_inf(mod, n):
    x = float_base(n, 11, special=True)
    compare(mod, "dot", lambda: (x(), x()))
    compare(mod, "count_in_range", lambda: (x(), -np.inf, np.inf))


def test_indexing_and_bounds(mod):
    for n in [0, 1, 5]:
        for i in [-6, -5, -1, 0, 1, 4, 5, 100, -(2**62)]:
            compare(mod, "get", lambda: (np.arange(n, dtype=np.int64) * 10, i))
            compare(mod, "put", lambda: (np.zeros(n, dtype=np.int64), i, 42))
        compare(mod, "last", lambda: (np.linspace(0, 1, n),))


def test_index_error_names_the_python_line(mod):
    lines, start = inspect.getsourcelines(mod.python.get)
    line = start + next(i for i, text in enumerate(lines) if "return x[i]" in text)
    with pytest.raises(IndexError) as info:
        mod.native.get(np.zeros(3, dtype=np.int64), 3)
    assert "index 3 is out of bounds for axis 0 with size 3" in str(info.value)
    assert f"e2e_kernels.py, line {line})" in str(info.value)
    frames = [(str(entry.path), entry.lineno + 1) for entry in info.traceback]
    assert any(path.endswith("e2e_kernels.py") and number == line for path, number in frames)


INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10**12, -(10**12), 2**62, -(2**63), 2**63 - 1]


def test_integer_division_and_modulo(mod):
    for a in INTS:
        for b in INTS:
            if a == -(2**63) and b == -1:
                continue  # CPython leaves the 64-bit range; see the next test
            compare(mod, "floordiv", lambda: (a, b))
            compare(mod, "modulo", lambda: (a, b))
            compare(mod, "ratio", lambda: (a, b))


def test_integers_wrap_at_64_bits(mod):
    assert mod.native.floordiv(-(2**63), -1) == -(2**63)
    assert mod.native.modulo(-(2**63), -1) == 0
    assert mod.native.total_int(np.array([2**62, 2**62], dtype=np.int64)) == -(2**63)


FLOATS = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, 1e-300, 1e300, -7.75, math.inf, -math.inf,
          math.nan, 0.1]


def test_float_floor_division_and_modulo(mod):
    for a in FLOATS:
        for b in FLOATS:
            compare(mod, "float_floordiv", lambda: (a, b))
            compare(mod, "float_modulo", lambda: (a, b))


def test_scalar_functions(mod):
    values = [-3, -1, 0, 1, 2, 5, 17]
    for a in values:
        for b in values:
            compare(mod, "arithmetic", lambda: (a, b, a * 0.37 - b))
            compare(mod, "either", lambda: (a, b))
            compare(mod, "range_sum", lambda: (a, b * 3, b if b else 1))
            compare(mod, "range_sum", lambda: (b * 3, a, -(abs(b) or 1)))
        compare(mod, "collatz_steps", lambda: (a,))
        compare(mod, "last_index", lambda: (a,))
    for p in (False, True):
        for q in (False, True):
            for r in (False, True):
                compare(mod, "logic", lambda: (p, q, r))
        compare(mod, "pick", lambda: (p, 1.5, -2.0))
    for x in FLOATS:
        compare(mod, "classify", lambda: (x,))
        if not math.isfinite(x) or abs(x) < 2.0**63:
            compare(mod, "truncate", lambda: (x,))
        else:
            # Kiln integers are 64-bit: CPython would return a big int.
            with pytest.raises(OverflowError, match="64-bit"):
                mod.native.truncate(x)
        compare(mod, "extremes", lambda: (x, 1.0, -x))
        compare(mod, "extremes", lambda: (1.0, x, 2.0))
        if math.isfinite(x) and abs(x) < 1e18:
            compare(mod, "conversions", lambda: (x, 3, True))
    compare(mod, "collatz_steps", lambda: (27,))
    assert mod.native.nothing() is None


def test_range_step_zero(mod):
    compare(mod, "range_sum", lambda: (0, 10, 0))


def test_two_dimensional_views(mod):
    base = np.arange(30.0).reshape(5, 6)
    for make in [lambda: base.copy(), lambda: base.copy().T, lambda: base.copy()[::2, ::-1],
                 lambda: base.copy()[1:, 2:], lambda: np.zeros((0, 3))]:
        compare(mod, "matrix_trace", lambda: (make(),))
        compare(mod, "size_info", lambda: (make(),))
        compare(mod, "scale_rows", lambda: (make(), np.arange(1.0, 7.0)))


def test_buffers_are_zero_copy(mod):
    out = np.zeros(4)
    mod.native.saxpy(2.0, np.ones(4), np.arange(4.0), out)
    np.testing.assert_array_equal(out, [2.0, 3.0, 4.0, 5.0])
    backing = array.array("d", [0.0] * 3)
    mod.native.saxpy(1.0, array.array("d", [1, 2, 3]), memoryview(np.ones(3)), backing)
    assert list(backing) == [2.0, 3.0, 4.0]
    values = np.zeros(6, dtype=np.int64)
    mod.native.put(values[::2], 1, 9)
    assert values.tolist() == [0, 0, 9, 0, 0, 0]


def test_keyword_arguments(mod):
    assert mod.native.get(i=1, x=np.arange(3, dtype=np.int64)) == 1
    with pytest.raises(TypeError, match="got multiple values for argument 'x'"):
        mod.native.get(np.arange(3), x=np.arange(3))


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m.dot([1.0, 2.0], np.ones(2)), TypeError,
     "dot() argument 'x' must be a 1-D float64 array (f64[:]), not list"),
    (lambda m: m.dot(np.ones(2, dtype=np.float32), np.ones(2)), TypeError, "argument 'x'"),
    (lambda m: m.dot(np.ones(2), np.arange(2)), TypeError, "argument 'y'"),
    (lambda m: m.dot(np.ones((2, 2)), np.ones(2)), ValueError,
     "dot() argument 'x' must be 1-dimensional, not 2-dimensional"),
    (lambda m: m.dot(np.ones(2).astype(">f8"), np.ones(2)), TypeError, "argument 'x'"),
    (lambda m: m.dot(np.ones(2)), TypeError, "dot() missing required argument 'y' (pos 2)"),
    (lambda m: m.dot(np.ones(2), np.ones(2), np.ones(2)), TypeError,
     "dot() takes 2 positional arguments but 3 were given"),
    (lambda m: m.dot(np.ones(2), z=np.ones(2)), TypeError, "unexpected keyword argument 'z'"),
    (lambda m: m.saxpy("2", np.ones(1), np.ones(1), np.ones(1)), TypeError,
     "saxpy() argument 'a' must be a float, not str"),
    (lambda m: m.get(np.ones(1, dtype=np.int64), 1.5), TypeError,
     "get() argument 'i' must be an int, not float"),
    (lambda m: m.get(np.ones(1, dtype=np.int64), 2**70), OverflowError,
     "get() argument 'i' does not fit in a 64-bit integer"),
    (lambda m: m.logic(1.0, True, True), TypeError, "logic() argument 'p' must be a bool"),
    (lambda m: m.matrix_trace(np.ones(3)), ValueError, "must be 2-dimensional"),
])
def test_bad_arguments(mod, call, error, message):
    with pytest.raises(error) as info:
        call(mod.native)
    assert message in str(info.value)


def test_read_only_output_is_refused(mod):
    out = np.zeros(3)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="argument 'out' is read-only, but saxpy\\(\\) writes"):
        mod.native.saxpy(1.0, np.ones(3), np.ones(3), out)
    # Read-only inputs are fine.
    x = np.ones(3)
    x.setflags(write=False)
    assert mod.native.dot(x, x) == 3.0
    assert mod.native.dot(memoryview(bytes(16)).cast("d"), np.ones(2)) == 0.0


def test_numpy_scalars_are_accepted(mod):
    assert mod.native.get(np.arange(5, dtype=np.int64), np.int32(3)) == 3
    assert mod.native.pick(np.bool_(True), np.float32(1.5), np.float64(2.0)) == 1.5
    assert mod.native.classify(3) == 1


def test_versioned_loops_raise_at_the_cpython_iteration(mod):
    # In bounds: the unchecked copy runs.
    compare(mod, "shift_left", lambda: (np.arange(6.0), np.zeros(5)))
    # Out of bounds at the last iteration: CPython has written out[0..3]
    # when it raises, and so has Kiln.
    compare(mod, "shift_left", lambda: (np.arange(5.0), np.zeros(5)))
    for n in [0, 1, 2]:
        compare(mod, "shift_left", lambda: (np.arange(float(n)), np.zeros(n)))
    compare(mod, "gather", lambda: (np.arange(4.0), np.array([3, -1, 0, 2]), np.zeros(4)))
    compare(mod, "gather", lambda: (np.arange(4.0), np.array([3, 1, 4, 2]), np.zeros(4)))


@pytest.mark.parametrize("n", SIZES + [10**6 + 3])
def test_fastmath_reduction_is_close(mod, n):
    x = np.random.default_rng(n).standard_normal(n)
    y = np.random.default_rng(n + 1).standard_normal(n)
    exact = mod.python.fast_dot(x, y)
    fast = mod.native.fast_dot(x, y)
    # Reassociation changes the rounding, not the value beyond it.
    assert abs(fast - exact) <= 1e-12 * max(1.0, float(np.abs(x * y).sum()))
    assert mod.native.fast_dot(x[::-1], y[::-1]) == pytest.approx(exact, rel=1e-12, abs=1e-9)
