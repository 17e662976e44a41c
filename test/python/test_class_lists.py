"""Lists of instances of compiled classes (modules/class_lists.py) built
and run against CPython: lists made, searched (by identity, Python's `==`
for a class without `__eq__`), sliced, concatenated and changed by compiled
code; lists passed in from Python (the caller's list changed in place,
its instances shared, never copied) and returned to it; references counted
(every instance's count back where it was after a call, also after a
raise), memory flat; what is refused, and why."""

import functools
import json
import sys

import pytest

from conftest import assert_rss_flat, run_on_both_sides

MODULE = "class_lists"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def shown(value):
    """A result as comparable data: instances by class and fields, lists
    item by item."""
    if isinstance(value, list):
        return [shown(v) for v in value]
    if isinstance(value, tuple):
        return tuple(shown(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    fields = [getattr(value, f) for f in ("value", "x", "v", "tag") if hasattr(value, f)]
    return (type(value).__name__, *fields)


def nodes(module, values):
    return [module.Node(v) for v in values]


run_both = functools.partial(run_on_both_sides, shown=shown)


def test_everything_but_the_eq_class_search_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]


@pytest.mark.parametrize("n, steps", [(0, 3), (1, 1), (2, 5), (7, 10), (33, 4)])
def test_simulation_over_a_list_of_bodies(mod, n, steps):
    assert mod.native.simulate(n, steps) == mod.python.simulate(n, steps)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 17])
def test_lists_made_and_returned(mod, n):
    got, _ = run_both(mod, "made", lambda m: (n,))
    assert all(type(x) is mod.native.Node for x in got)
    got, _ = run_both(mod, "linked", lambda m: (n,))
    for a, b in zip(got, got[1:]):
        assert a.next is b                  # the instances themselves, linked
    if got:
        assert got[-1].next is None


@pytest.mark.parametrize("n", [0, 1, 2, 3, 8])
def test_list_operations(mod, n):
    run_both(mod, "operations", lambda m: (n,))


@pytest.mark.parametrize("values", [[], [1], [1, 2, 3], list(range(40))])
def test_caller_list_changed_in_place_sharing_its_instances(mod, values):
    xs = nodes(mod.native, values)
    originals = list(xs)
    got, (changed,) = run_both(mod, "total_then_append", lambda m: (nodes(m, values),))
    assert got == sum(values)
    xs_again = nodes(mod.native, values)
    mod.native.total_then_append(xs_again)
    assert len(xs_again) == len(values) + 1 and type(xs_again[-1]) is mod.native.Node
    mod.native.bump_all(xs, 5)
    assert [x.value for x in originals] == [v + 5 for v in values]
    assert all(a is b for a, b in zip(xs, originals))


@pytest.mark.parametrize("values, i", [([1, 2, 3], 0), ([1, 2, 3], -1), ([5, 6], 0),
                                       ([1], 0), ([], 0), ([1, 2, 3], 7)])
def test_pop_store_insert(mod, values, i):
    run_both(mod, "pop_and_store", lambda m: (nodes(m, values), i))


def test_search_by_identity_and_errors(mod):
    xs = nodes(mod.native, [1, 2, 3])
    assert mod.native.index_of(xs, xs[2]) == 2
    assert mod.native.remove_from(xs, xs[1]) == 2
    # an equal but other instance is not in the list (no __eq__: identity)
    stranger = mod.native.Node(1)
    with pytest.raises(ValueError, match="Node object is not in list"):
        mod.native.index_of(xs, stranger)
    with pytest.raises(ValueError, match="list.remove"):
        mod.native.remove_from(xs, stranger)
    with pytest.raises(IndexError, match="list index out of range"):
        mod.native.item(xs, 5)
    assert mod.native.item(xs, -1) is xs[-1]
    run_both(mod, "item", lambda m: (nodes(m, [1, 2]), -3))
    run_both(mod, "pop_and_store", lambda m: ([], 0))


def test_names_keep_items_a_list_lets_go(mod):
    run_both(mod, "read_then_replace", lambda m: (m.Node(3),))
    z = mod.native.Node(3)
    before = sys.getrefcount(z)
    for _ in range(100):
        assert mod.native.read_then_replace(z) == 5054
    assert sys.getrefcount(z) == before


def test_fields_of_items(mod):
    got = mod.native.linked(4)
    assert mod.native.second_link(got, 0) == 1
    assert mod.native.second_link(got, 3) == -1


@pytest.mark.parametrize("values", [[], [1], [2, 3, 4]])
def test_methods_called_on_items(mod, values):
    """`xs[i].grow(by)`: a method call whose object is a list's item (an
    IndexError of xs[-1] when empty; the fuzzer's first campaign found
    such calls refused)."""
    run_both(mod, "grow_items", lambda m: (nodes(m, values), 5))
    run_both(mod, "pair_grown", lambda m: (len(values),))


def test_boundary_checks_each_item(mod):
    with pytest.raises(TypeError, match=r"total_then_append\(\) argument 'xs'\[1\] must be "
                                        r"Node, not int"):
        mod.native.total_then_append([mod.native.Node(1), 3])
    with pytest.raises(TypeError, match=r"argument 'xs'\[0\] must be Node, not Body"):
        mod.native.total_then_append([mod.native.Body(1.0, 2.0)])
    # a plain-Python Node is another class
    with pytest.raises(TypeError, match=r"must be Node"):
        mod.native.total_then_append([mod.python.Node(1)])
    with pytest.raises(TypeError, match="must be list, not tuple"):
        mod.native.total_then_append((mod.native.Node(1),))


def test_one_list_for_two_classes_is_refused(mod):
    shared = []
    with pytest.raises(TypeError, match="are one list, which cannot hold both Body and Node"):
        mod.native.bodies_and_nodes(shared, shared)
    assert shared == []
    bs, ns = [], []
    assert mod.native.bodies_and_nodes(bs, ns) == 4.0
    assert shown(bs) == [("Body", 1.0, 2.0)] and shown(ns) == [("Node", 3)]


def test_one_list_for_two_parameters_of_one_class(mod):
    run_both(mod, "swap_lists", lambda m: (nodes(m, [1, 2]), nodes(m, [3])))
    shared = nodes(mod.python, [1, 2])
    native_shared = nodes(mod.native, [1, 2])
    assert mod.native.swap_lists(native_shared, native_shared) == \
        mod.python.swap_lists(shared, shared)
    assert shown(native_shared) == shown(shared)


def test_references_counted(mod):
    x = mod.native.Node(9)
    xs = [x, x]
    before = sys.getrefcount(x)
    for _ in range(200):
        mod.native.total_then_append(xs)
        del xs[2:]
        mod.native.replace_same(xs, 0)
        mod.native.operations(3)
        got = mod.native.item(xs, 1)
        del got
        with pytest.raises(IndexError):
            mod.native.collect_then_fail(x, 5)      # the raise gives back the list's references
        assert mod.native.collect_then_fail(x, 3) == 9
    assert sys.getrefcount(x) == before


def test_class_with_eq_is_compared_in_a_loop(mod):
    run_both(mod, "tags_by_loop",
             lambda m: ([m.Tagged(1), m.Tagged(2), m.Tagged(1)], m.Tagged(1)))


def test_memory_stays_flat(mod):
    x = mod.native.Node(1)
    assert_rss_flat(mod.native, {"made": (20,), "linked": (20,), "operations": (5,),
                                 "collect_then_fail": (x, 9)}, expected=(IndexError,))


REFUSED = {
    "sorted_nodes": ("def sorted_nodes(xs: list[Node]) -> list[Node]:\n    return sorted(xs)",
                     "sorted() of a list[Node] is not supported yet"),
    "sort_nodes": ("def sort_nodes(xs: list[Node]) -> None:\n    xs.sort()",
                   "list.sort() of a list[Node] is not supported yet"),
    "max_node": ("def max_node(xs: list[Node]) -> Node:\n    return max(xs)",
                 "max() of a list[Node] is not supported yet"),
    "tag_in": ("def tag_in(xs: list[Tagged], t: Tagged) -> bool:\n    return t in xs",
               "class `Tagged` defines __eq__"),
    "tags_equal": ("def tags_equal(xs: list[Tagged], ys: list[Tagged]) -> bool:\n"
                   "    return xs == ys", "class `Tagged` defines __eq__"),
    "optional_items": ("def optional_items(xs: list[Node | None]) -> int:\n    return len(xs)",
                       "lists whose items may be None are not supported yet"),
    "store_optional": ("def store_optional(xs: list[Node], n: Node) -> None:\n"
                       "    xs.append(n.next)", "a list of Node holds instances, not None"),
    "mixed_items": ("def mixed_items(n: Node, b: Body) -> int:\n    xs = [n, b]\n"
                    "    return len(xs)", ""),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_a_reason(tmp_path, name):
    from conftest import kiln_build
    source, reason = REFUSED[name]
    header = open(__file__.replace("test_class_lists.py", "modules/class_lists.py")).read()
    path = tmp_path / "refused_lists.py"
    path.write_text(header + "\n\n@kiln.export\n" + source + "\n")
    result = kiln_build(str(path), str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "out" / "refused_lists.kiln.json").read_text())
    reasons = {f["function"]: f["reason"] for f in record["fallbacks"]}
    assert name in reasons, record["fallbacks"]
    assert reason in reasons[name], reasons[name]
    assert "internal compiler error" not in reasons[name]


@pytest.mark.parametrize("n", [0, 1, 4])
def test_lists_of_a_base_class_hold_subclass_instances(mod, n):
    got, _ = run_both(mod, "mixed_shapes", lambda m: (n,))
    assert [type(s).__name__ for s in got] == \
        [type(s).__name__ for s in mod.python.mixed_shapes(n)]
    run_both(mod, "total_area", lambda m: (m.mixed_shapes(n),))
    shapes = [mod.native.Circle(1.0), mod.native.Shape(2.0)]
    assert mod.native.total_area(shapes) == 7.0

    class PythonCircle(mod.native.Shape):
        pass
    with pytest.raises(TypeError, match=r"argument 'shapes'\[0\] must be Shape, not "
                                        r"PythonCircle"):
        mod.native.total_area([PythonCircle.__new__(PythonCircle)])
