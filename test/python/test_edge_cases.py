"""Regression tests for memory safety and CPython's edge semantics."""

import math

import numpy as np
import pytest

from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("edge_cases")


def test_loop_carried_alias_is_not_freed(mod):
    for _ in range(500):
        result = mod.native.returns_loop_alias(1000)
        [np.full(1000, 7.0) for _ in range(3)]
        assert (result == 1.0).all()


def test_write_through_loop_alias_checks_writability(mod):
    frozen = bytes(24)
    with pytest.raises(ValueError, match="argument 'x' is read-only"):
        mod.native.writes_through_loop_alias(memoryview(frozen).cast("d"), np.zeros(3))
    assert frozen == bytes(24)


def test_huge_allocations_raise(mod):
    with pytest.raises(ValueError, match="array is too big"):
        mod.native.big_array(2**60)
    with pytest.raises(MemoryError):
        mod.native.big_array(2**41)
    with pytest.raises(ValueError, match="negative dimensions"):
        mod.native.big_array(-1)


def test_power_and_fmod_edges(mod):
    for a, b in [(0.0, -math.inf), (-0.0, -math.inf), (0.0, -1.0), (2.0, 0.5), (10.0, 400.0)]:
        compare(mod, "power", lambda: (a, b))
    for a, b in [(0, -1), (0, 0), (2, 10), (-3, 3)]:
        compare(mod, "int_power", lambda: (a, b))
    for x, y in [(math.nan, 0.0), (1.0, 0.0), (math.inf, 1.0), (5.0, math.nan)]:
        compare(mod, "fmod", lambda: (x, y))


def test_int_float_comparisons_are_exact(mod):
    for a, b in [(2**63 - 1, 2.0**63), (2**53 + 1, 2.0**53), (2**53 + 1, 9007199254740993.0),
                 (-2**63, -2.0**63), (5, 5.0), (5, math.nan), (-3, -2.5), (2**62, math.inf)]:
        compare(mod, "equal_mixed", lambda: (a, b))
        compare(mod, "less_mixed", lambda: (a, b))


def test_ranges_whose_span_overflows(mod):
    for a, b, c in [(-1, 2**63 - 1, 2**62), (-5, 2**63 - 1, 2**63 - 1), (2**63 - 1, -2, -2**62),
                    (0, 10, 3), (10, 0, -3), (5, 5, 1)]:
        compare(mod, "wide_range", lambda: (a, b, c))


def test_functions_ending_in_raise_or_endless_loops_compile(mod):
    assert type(mod.native.ends_in_raise).__name__ == "builtin_function_or_method"
    compare(mod, "ends_in_raise", lambda: (3,))
    compare(mod, "ends_in_raise", lambda: (-3,))
    assert type(mod.native.endless).__name__ == "builtin_function_or_method"
    compare(mod, "endless", lambda: (3,))


def test_parameters_named_like_c_keywords(mod):
    compare(mod, "keyword_names", lambda: (7, 2, 1))
    header = open(mod.path("edge_cases.h")).read()
    assert "int64_t error_arg, int64_t result_arg, int64_t char_arg" in header


def test_bool_parameters_take_only_booleans(build_module):
    logic = build_module("e2e_kernels").native.logic
    with pytest.raises(TypeError, match="argument 'p' must be a bool"):
        logic(2, True, True)
    assert logic(np.bool_(True), False, False) is True


def test_scatter_indexes_wrap_and_raise_as_python(mod):
    # In range, negative in range (wraps), exactly -size, one past either
    # end, and the int64 extremes: the counts written before an IndexError
    # must be CPython's too (compare checks the mutated arrays).
    size = 5
    cases = [[0, 4, 2, 2], [-1, -5, 3], [1, 5, 0], [2, -6, 1], [2**63 - 1], [-2**63, 0], []]
    for bins in cases:
        compare(mod, "scatter_counts",
                lambda: (np.array(bins, dtype=np.int64), np.zeros(size, dtype=np.int64)))
    # A strided, negative-stride view of the counts.
    for bins in ([0, 1, -1, -3], [3, 0]):
        compare(mod, "scatter_counts",
                lambda: (np.array(bins, dtype=np.int64), np.zeros(6, dtype=np.int64)[::-2]))


def test_float_histogram_bins_and_errors_are_python_s(mod):
    # int() of the scaled value: negative bins wrap; NaN and the infinities
    # raise CPython's errors, huge bins IndexError. (Beyond 64 bits Kiln's
    # int() raises OverflowError where numpy's index does: docs/language.md.)
    for values in ([0.1, 0.95, -0.1, -0.99], [0.5, math.nan], [0.2, math.inf],
                   [-math.inf], [-2.0**59], [2.0**59], [0.99999] * 9):
        compare(mod, "float_histogram",
                lambda: (np.array(values), 10, np.zeros(10, dtype=np.int64)))
