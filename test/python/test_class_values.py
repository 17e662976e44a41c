"""Instances of compiled classes as values (modules/class_values.py) built
and run against CPython: tuples of instances returned (by functions and
methods), unpacked, kept in locals and indexed, their references counted
(an argument's count unchanged after the call, memory flat); the truth of
instances (None, `__bool__`, `__len__`)."""

import json
import sys

import pytest

from conftest import assert_rss_flat, outcome

MODULE = "class_values"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def test_every_class_and_function_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]


def shown(value):
    """A result as comparable data: instances by their class and fields."""
    if isinstance(value, tuple):
        return tuple(shown(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return (type(value).__name__, *(getattr(value, f) for f in ("value", "x", "y")
                                    if hasattr(value, f)))


def same(mod, name, *args):
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert shown(got) == shown(want), (name, args, got, want)
    return got, want


@pytest.mark.parametrize("x, y", [(1.0, 2.0), (-0.0, 3.5), (0.0, 0.0)])
def test_tuples_of_instances_returned_and_unpacked(mod, x, y):
    same(mod, "unpacked", x, y)
    same(mod, "halves_sum", x, y)
    got = mod.native.split(mod.native.Vec(x, y))
    assert type(got) is tuple and [type(v).__name__ for v in got] == ["Vec", "Vec"]
    assert shown(got) == shown(mod.python.split(mod.python.Vec(x, y)))
    assert shown(mod.native.Vec(x, y).halves()) == shown(mod.python.Vec(x, y).halves())


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_tuple_locals_and_indexing(mod, n):
    same(mod, "tuple_locals", n)
    same(mod, "node_and_next", n)
    same(mod, "drain", n)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_optional_elements(mod, n):
    native_head, python_head = mod.native.chain(n), mod.python.chain(n)
    assert shown(mod.native.pop_front(native_head)) == shown(mod.python.pop_front(python_head))


def test_elements_keep_their_identity_and_counts(mod):
    a, b, n = mod.native.shared_twice(5)
    assert a is b and n == 5 and sys.getrefcount(a) == 3    # a, b and the call's argument
    node, v = mod.native.Node(1), mod.native.Vec(1.0)
    before = sys.getrefcount(node), sys.getrefcount(v)
    for _ in range(100):
        got_v, got_node = mod.native.pass_through(node, v)
        assert got_v is v and got_node is node
        mod.native.pop_front(node)
        del got_v, got_node
    assert (sys.getrefcount(node), sys.getrefcount(v)) == before
    same_v, norm = v.with_norm()
    assert same_v is v and norm == 1.0


@pytest.mark.parametrize("i, n", [(0, 0), (0, 1), (2, 0), (-3, 1), (3, 1), (-4, 1)])
def test_raising_after_a_wrapped_index(mod, i, n):
    same(mod, "raising_after_index", [1.0, 2.0, 3.0], i, n)


def test_raising_after_a_wrapped_index_releases_the_instance(mod):
    # Each call makes a Vec and raises after `xs[i - 1]` (i = 0 wraps): an
    # exit that forgot the Vec leaked one CPython block per call.
    def run(times):
        for _ in range(times):
            with pytest.raises(ZeroDivisionError):
                mod.native.raising_after_index([1.0, 2.0, 3.0], 0, 0)
    run(500)
    before = sys.getallocatedblocks()
    run(5000)
    assert sys.getallocatedblocks() - before < 100


@pytest.mark.parametrize("n", [0, 3])
@pytest.mark.parametrize("size", [0, 1, 5])
def test_raising_after_an_array_expression(mod, n, size):
    import numpy as np
    results = [outcome(side.raising_after_array_expression, [side.Vec(1.0), side.Vec(3.5)],
                       np.arange(float(size)), n) for side in (mod.native, mod.python)]
    assert results[0] == results[1]


def test_raising_after_an_array_expression_releases_the_instances(mod):
    import numpy as np
    vs = [mod.native.Vec(1.0), mod.native.Vec(3.5)]
    a = np.arange(5.0)

    def run(times):
        for _ in range(times):
            with pytest.raises(ZeroDivisionError):
                mod.native.raising_after_array_expression(vs, a, 0)
    run(500)
    references, before = sys.getrefcount(vs[1]), sys.getallocatedblocks()
    run(5000)
    # (a reference per call would be 5,000; the last exception may keep one)
    assert sys.getrefcount(vs[1]) - references < 10
    assert sys.getallocatedblocks() - before < 100


@pytest.mark.parametrize("n", [0, 1, 40])
def test_functions_that_make_instances_keep_the_gil(mod, n):
    import numpy as np
    a = np.arange(float(n))
    same(mod, "instances_in_a_parallel_function", a, n)
    same(mod, "helper_makes_instances", a)
    same(mod, "temporary_instance", 0.5, a)
    # and the wrapper never lets the GIL go around them
    with open(mod.path("_class_values_kiln.c")) as source:
        wrapper = source.read()
    for name in ("instances_in_a_parallel_function", "helper_makes_instances",
                 "temporary_instance"):
        body = wrapper[wrapper.index(f"kiln_wrap_{name}("):]
        body = body[:body.index("\n}\n")]
        assert "Py_BEGIN_ALLOW_THREADS" not in body, name


@pytest.mark.parametrize("n", [0, 2])
def test_raising_after_unpacking(mod, n):
    same(mod, "raising_after_tuple", n)


@pytest.mark.parametrize("n", [0, 1, 2, 30])
def test_truth_of_optional_instances_walks_chains(mod, n):
    same(mod, "walk_by_truth", n)
    same(mod, "truth_of_nodes", n)


@pytest.mark.parametrize("count", [0, 1, 5, -1])
def test_truth_calls_len(mod, count):
    # A __len__ of 0 is false; a negative one raises ValueError, as in CPython.
    same(mod, "bag_truth", count)
    same(mod, "maybe_bag_truth", count)


@pytest.mark.parametrize("on, fail", [(True, False), (False, False), (True, True)])
def test_truth_calls_bool(mod, on, fail):
    same(mod, "flag_truth", on, fail)       # a raising __bool__ raises through `if`
    same(mod, "maybe_flag_truth", on, not fail)


@pytest.mark.parametrize("n, wanted", [(0, 0), (1, 0), (5, 3), (5, 9)])
def test_falling_off_the_end_returns_none(mod, n, wanted):
    same(mod, "find_value", n, wanted)
    assert shown(mod.native.find(mod.native.chain(n), wanted)) == \
        shown(mod.python.find(mod.python.chain(n), wanted))


def test_memory_stays_flat(mod):
    assert_rss_flat(mod.native, {"unpacked": (1.0, 2.0), "tuple_locals": (3,),
                                 "drain": (20,), "halves_sum": (1.0, 2.0),
                                 "raising_after_tuple": (0,), "walk_by_truth": (20,),
                                 "raising_after_index": ([1.0, 2.0, 3.0], 0, 0),
                                 "maybe_bag_truth": (-1,), "flag_truth": (True, True),
                                 "find_value": (20, 99)},
                    expected=(ZeroDivisionError, ValueError))
