"""Arrays under control flow (modules/array_control.py): compiled and run by
CPython+numpy on sizes 0, 1, 7, 8, 9 and 100, on reversed, strided and
2-D views; results, the arrays written, which results share memory with
which arguments, and the exceptions compared. Then 10^5 calls of each
allocating shape, normal and raising, with the process's resident memory
measured: every array is freed exactly once (a double free aborts under
glibc's checks; a leak grows the RSS)."""

import math
import re

import numpy as np
import pytest

SIZES = [0, 1, 7, 8, 9, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("array_control")


def test_everything_compiles(mod):
    """No function of the module falls back to Python (else the
    comparisons below would compare CPython with itself)."""
    with open(mod.path("array_control.kiln.json")) as record:
        assert '"fallbacks": []' in record.read()


def views(n):
    base = np.sin(np.arange(2 * n + 3) * 0.7) * 3.0
    return [base[:n], base[::-1][:n], base[::2][:n], base[1:n + 1][::-1]]


def same_value(native, python):
    if isinstance(python, tuple):
        return isinstance(native, tuple) and len(native) == len(python) and all(
            same_value(a, b) for a, b in zip(native, python))
    if isinstance(python, np.ndarray):
        return isinstance(native, np.ndarray) and native.dtype == python.dtype and \
            native.shape == python.shape and np.allclose(native, python, rtol=1e-12,
                                                         atol=0, equal_nan=True)
    return native == pytest.approx(python, rel=1e-12) or (
        math.isnan(python) and math.isnan(native))


def sharing(result, args):
    """Which arguments each returned array shares memory with."""
    results = result if isinstance(result, tuple) else (result,)
    return [[isinstance(r, np.ndarray) and isinstance(a, np.ndarray) and
             np.shares_memory(r, a) for a in args] for r in results]


def check(mod, name, *args):
    # An array passed twice is one copy passed twice (aliasing kept).
    copied = {}
    copies = [copied.setdefault(id(a), a.copy()) if isinstance(a, np.ndarray) else a
              for a in args]
    try:
        expected = getattr(mod.python, name)(*copies)
    except Exception as error:  # noqa: BLE001 - the type and message are compared
        with pytest.raises(type(error), match=re.escape(str(error))):
            getattr(mod.native, name)(*args)
        return
    got = getattr(mod.native, name)(*args)
    assert same_value(got, expected), (name, args, got, expected)
    assert sharing(got, args) == sharing(expected, copies), name
    for written, reference in zip(args, copies):
        if isinstance(written, np.ndarray):
            np.testing.assert_array_equal(written, reference, err_msg=name)


def test_arrays_allocated_in_branches_and_loops(mod):
    for n in SIZES:
        for flag in (True, False):
            check(mod, "branch_allocation", n, flag)
        for x in views(n):
            for steps in (0, 1, 2, 5):
                check(mod, "reassigned_in_loop", x, steps)
                if n >= 2:
                    check(mod, "swapped_buffers", x, steps)
            for flag in (True, False):
                check(mod, "pair_of_new_arrays", x, flag)
            check(mod, "first_negative_prefix", x)
            check(mod, "first_negative_prefix", np.abs(x))
            for limit in (-1.0, 50.0, 1e9):
                check(mod, "while_growth", np.abs(x) + 0.5, limit)
        for k in (0, 1, 4):
            check(mod, "allocated_each_iteration", n, k)


def test_other_dtypes_ranks_and_loops(mod):
    for n in (1, 2, 3, 8):
        m = np.cos(np.arange(n * n).reshape(n, n) * 0.3)
        for view in (m, m.T, m[::-1]):
            for steps in (0, 1, 3):
                check(mod, "matrix_power_steps", view, steps)
    for n in SIZES:
        ints = (np.arange(n) * 7) % 11 - 5
        for rounds in (0, 1, 3):
            check(mod, "int_histogram_rounds", ints, rounds)
            check(mod, "int_histogram_rounds", ints[::-1], rounds)
        for x in views(n):
            z = x + 1j * x[::-1]
            for turns in (0, 1, 5):
                check(mod, "complex_rotations", z, turns)
            for limit in (-1.0, 0.0, 5.0, 1e9):
                check(mod, "search_with_break", x, limit)
            check(mod, "helper_tuple", x)


def test_helpers_return_new_arrays_or_their_arguments(mod):
    for n in SIZES:
        for x in views(n):
            for k in (0, 1, 3, 200):
                check(mod, "helpers_in_loop", x, k)
            if n:
                check(mod, "helper_returns_its_argument", x)
            for first in (True, False):
                if n:
                    check(mod, "helper_returns_either", x, x[::-1].copy(), first)
                    check(mod, "helper_returns_either", x, x, first)


def test_parameters_returned_as_themselves_or_views(mod):
    """Python returns the argument object (or a view of it): Kiln returns a
    view sharing its memory, read-only when the argument is."""
    for n in SIZES:
        for x in views(n):
            check(mod, "scaled_in_place", x, 2.0)
            if n:
                check(mod, "tail_view", x)
            for first in (True, False):
                check(mod, "parameter_or_new", x, x[::-1].copy(), first)
            check(mod, "swapped_parameters", x, x * 2.0)
    m = np.arange(12.0).reshape(3, 4)
    for view in (m, m.T, m[::-1, ::2]):
        check(mod, "identity", view)
        check(mod, "column_view", view, 1)
    returned = mod.native.tail_view(m[0])
    returned[0] = 99.0
    assert m[0, 1] == 99.0, "the returned view writes the argument's memory"
    frozen = np.arange(5.0)
    frozen.flags.writeable = False
    assert not mod.native.tail_view(frozen).flags.writeable


def test_errors_after_allocations(mod):
    for n in SIZES:
        for x in views(n):
            for k in (0, n, n + 1, n + 3):
                check(mod, "raises_midway", x, k)
                check(mod, "raises_in_helper", x, k)
    for n in (0, 5):
        for fail in (True, False):
            check(mod, "raises_after_returning_array", n, fail)


def test_errors_free_only_what_the_function_owns(mod):
    """An array a previous call returned to Python (owned by Python now)
    passed to a function that gets a view of it from a Kiln call and then
    raises: the array survives, intact, and is freed once when Python drops
    it (blocks of 800 kB: the allocator's cache would hand a wrongly freed
    one out again)."""
    for _ in range(300):
        kept = mod.native.branch_allocation(100_000, True)
        with pytest.raises(ValueError, match="k"):
            mod.native.raises_after_a_view_call(kept, 1)
        other = mod.native.branch_allocation(100_000, False)
        assert kept.sum() == 300_000.0 and other[0] == 6.0
    assert mod.native.raises_after_a_view_call(np.arange(3.0), 0) == 1.0


def test_a_returned_view_keeps_its_argument_in_place(mod):
    """A view of an array.array argument holds a buffer export of it: the
    array cannot be resized (and its memory moved) while the view lives."""
    import array
    import gc
    values = array.array("d", [1.0, 2.0, 3.0])
    view = mod.native.tail_view(values)
    with pytest.raises(BufferError):
        values.extend([4.0] * 1000)
    np.testing.assert_array_equal(view, [2.0, 3.0])
    del view
    gc.collect()
    values.extend([4.0])
    assert len(values) == 4


def resident_mib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


def test_no_leak_under_many_calls(mod):
    """10^5 calls of each shape, with arrays of 2,000 doubles (16 kB: a leak
    of one array per call would be 1.6 GB); the resident memory grows by
    less than 32 MiB after a warm-up."""
    native = mod.native
    x = np.linspace(-1.0, 1.0, 2000)
    y = x[::-1].copy()
    calls = [
        lambda i: native.branch_allocation(2000, i % 2 == 0),
        lambda i: native.reassigned_in_loop(x, 2),
        lambda i: native.swapped_buffers(x, 2),
        lambda i: native.allocated_each_iteration(2000, 3),
        lambda i: native.pair_of_new_arrays(x, i % 2 == 0),
        lambda i: native.first_negative_prefix(x),
        lambda i: native.helpers_in_loop(x, 2),
        lambda i: native.helper_returns_either(x, y, i % 2 == 0),
        lambda i: native.parameter_or_new(x, y, i % 2 == 0),
        lambda i: native.while_growth(np.abs(x) + 0.5, 5e3),
    ]

    def raising(function, *args):
        def call(i):
            try:
                function(*args)
            except (IndexError, ValueError):
                pass
        return call

    calls += [raising(native.raises_midway, x[:50], 60),
              raising(native.raises_in_helper, x[:50], 60),
              raising(native.raises_after_returning_array, 2000, True)]
    for call in calls:
        for i in range(2000):
            call(i)
        before = resident_mib()
        for i in range(100_000):
            call(i)
        assert resident_mib() - before < 32, call
