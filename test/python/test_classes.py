"""Native classes (issue 31) built and run against CPython running the same
source (modules/classes.py): trees built and walked through recursive
methods, linked lists through Optional fields, dataclasses with their
generated __init__/__repr__/__eq__/orderings, dunders called by
operators, properties and staticmethods, instances crossing the boundary
both ways, AttributeError of None, memory flat over many calls. The
frontend alone is tested in test_classes_frontend.py."""

import math

import pytest

from conftest import assert_rss_flat

MODULE = "classes"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0])


def same(mod, name, *args):
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert type(got) is type(want) or type(got).__name__ == type(want).__name__, (got, want)
    if isinstance(want, float) and math.isnan(want):
        assert math.isnan(got)
    elif isinstance(want, (int, float, bool, str, tuple, type(None))):
        assert got == want, (name, args, got, want)
    return got, want


@pytest.mark.parametrize("n, seed", [(0, 1), (1, 7), (10, 3), (200, 42), (600, 9)])
def test_trees_through_recursive_methods(mod, n, seed):
    same(mod, "tree_stats", n, seed)


@pytest.mark.parametrize("n, probe", [(0, 500), (5, 37), (5, 38), (100, 999), (300, 74)])
def test_tree_search_loop_over_optional_links(mod, n, probe):
    same(mod, "tree_contains", n, probe)


@pytest.mark.parametrize("n", [0, 1, 2, 50, 1000])
def test_linked_lists(mod, n):
    same(mod, "linked_sum", n)
    native_head = mod.native.build_links(n)
    python_head = mod.python.build_links(n)
    assert (native_head is None) == (python_head is None)
    assert mod.native.walk(native_head) == mod.python.walk(python_head)
    if n:
        assert type(native_head).__name__ == "Link"
        assert (native_head.value, native_head.next is None) == (python_head.value,
                                                                 python_head.next is None)


@pytest.mark.parametrize("n", [0, 1, 10, 100])
def test_dataclass_arithmetic_and_properties(mod, n):
    same(mod, "point_sum", n)


@pytest.mark.parametrize("a, b", [((1.0, 2.0), (1.0, 2.0)), ((1.0, 2.0), (1.0, 3.0)),
                                  ((2.0, 0.0), (1.0, 9.0)), ((math.nan, 1.0), (1.0, 1.0)),
                                  ((-0.0, 1.0), (0.0, 1.0))])
def test_dataclass_orderings_and_equality(mod, a, b):
    same(mod, "point_order", *a, *b)


@pytest.mark.parametrize("x, y", [(1.0, 2.5), (-0.0, 1e300), (math.inf, math.nan), (3.0, 0.1)])
def test_dataclass_repr_in_fstrings(mod, x, y):
    same(mod, "point_text", x, y)


def test_instances_cross_the_boundary(mod):
    made = mod.native.make_point(3.0)
    assert type(made) is mod.native.Point and (made.x, made.y) == (3.0, 1.5)
    assert repr(made) == repr(mod.python.make_point(3.0))
    scaled = mod.native.scale(made, 2.0)
    assert scaled is made and (made.x, made.y) == (6.0, 3.0)
    p = mod.native.Point(1.0, y=2.0)
    assert mod.native.scale(p, -1.0) is p and (p.x, p.y) == (-1.0, -2.0)


@pytest.mark.parametrize("a, b", [(1, 1), (1, 2), (-5, -5)])
def test_frozen_dataclass_equality(mod, a, b):
    same(mod, "pair_eq", a, b)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_plain_class_defaults_and_augmented_fields(mod, n):
    same(mod, "bumps", n)


@pytest.mark.parametrize("n", [0, 3])
def test_attribute_of_none_raises_attribute_error(mod, n):
    same(mod, "none_attribute", n)


@pytest.mark.parametrize("n", [0, 7])
def test_identity(mod, n):
    same(mod, "same_or_not", n)


@pytest.mark.parametrize("x, y", [(1, 3), (0, 3), (2, 0), (0, 0)])
def test_keyword_arguments_are_evaluated_as_written(mod, x, y):
    same(mod, "keyword_order", x, y)


@pytest.mark.parametrize("x", [1.5, math.nan, -0.0])
def test_an_instance_compares_equal_to_itself(mod, x):
    same(mod, "compared_with_itself", x)


def test_memory_stays_flat(mod):
    assert_rss_flat(mod.native, {"tree_stats": (30, 5), "linked_sum": (30,),
                                 "point_sum": (10,), "build_links": (5,),
                                 "point_text": (1.0, 2.0)})
