"""Exported classes with str fields (modules/class_strings.py) against
CPython: fields set and read by compiled code and by Python, the strings
compiled code makes stored into instances Python keeps (also when the call
then raises), dataclasses' generated methods, pickling, memory flat."""

import copy
import functools
import json
import pickle
import sys

import pytest

from conftest import assert_rss_flat, run_on_both_sides

MODULE = "class_strings"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def shown(value):
    if isinstance(value, list):
        return [shown(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    fields = [getattr(value, f) for f in ("name", "age", "rank", "label", "count", "n")
              if hasattr(value, f)]
    return (type(value).__name__, *fields)


run_both = functools.partial(run_on_both_sides, shown=shown)


def test_every_class_and_function_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]


@pytest.mark.parametrize("first, n", [("ada", 3), ("", 0), ("Grace Hopper", -7),
                                      ("\u00e9t\u00e9 \U0001f600 x", 12)])
def test_fields_set_and_read_by_both_sides(mod, first, n):
    run_both(mod, "make_person", lambda m: (first, n))
    p = mod.native.Person(first, n)
    assert p.name == first and p.greeting() == mod.python.Person(first, n).greeting()
    p.name = "Alan Turing"
    assert p.initials() == "AT" and p.greeting() == f"Alan Turing ({n})"
    p.rename("!")
    assert p.name == "Alan Turing!"


def test_new_string_survives_a_raise(mod):
    run_both(mod, "rename_then_fail", lambda m: (m.Person("x", 1), 0))
    run_both(mod, "rename_then_fail", lambda m: (m.Person("x", 1), 4))
    run_both(mod, "set_name_then_fail", lambda m: (m.Person("x", 1), 4))
    p = mod.native.Person("kept", 1)
    for n in range(1, 30):
        with pytest.raises(IndexError):
            mod.native.rename_then_fail(p, n)
    assert p.name == "kept" + "".join(f"+{n}" for n in range(1, 30))


def test_lists_of_instances_with_strings(mod):
    run_both(mod, "names", lambda m: ([m.Person("a", 1), m.Person("bc", 2)],))
    run_both(mod, "names", lambda m: ([],))
    words = "the cat and the hat and the bat".split()
    got, _ = run_both(mod, "count_tags", lambda m: (words,))
    assert [t.label for t in got] == ["the", "cat", "and", "hat", "bat"]


@pytest.mark.parametrize("a, b", [((1, "x"), (2, "y")), ((2, "b"), (2, "a")),
                                  ((3, "same"), (3, "same")), ((1,), (1,))])
def test_dataclass_methods_over_strings(mod, a, b):
    run_both(mod, "strongest", lambda m: (m.Strength(*a), m.Strength(*b)))
    na, pa = mod.native.Strength(*a), mod.python.Strength(*a)
    assert repr(na) == repr(pa) and hash(na) == hash(pa)
    assert (na == mod.native.Strength(*b)) == (pa == mod.python.Strength(*b))
    assert (na < mod.native.Strength(*b)) == (pa < mod.python.Strength(*b))


def test_errors_as_cpython_gives_them(mod):
    p = mod.native.Person("a", 1)
    with pytest.raises(TypeError, match="attribute 'name' of 'Person' must be str, not int"):
        p.name = 3
    with pytest.raises(TypeError):
        mod.native.Person(3, 1)
    lazy = mod.native.Lazy(2)
    with pytest.raises(AttributeError, match="'Lazy' object has no attribute 'title'"):
        lazy.title
    run_both(mod, "read_title", lambda m: (m.Lazy(2),))
    lazy.set_title()
    assert lazy.title == "tt" and mod.native.read_title(lazy) == "tt"
    del lazy.title
    with pytest.raises(AttributeError):
        mod.native.read_title(lazy)
    with pytest.raises(Exception) as frozen:
        mod.native.Strength(1).name = "x"
    assert type(frozen.value).__name__ == "FrozenInstanceError"


def test_pickle_and_copy(mod, monkeypatch):
    # the built module importable by its name, as pickle finds classes
    monkeypatch.setitem(sys.modules, mod.native.__name__, mod.native)
    p = mod.native.Person("pickled \u00e9", 5)
    for other in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert type(other) is mod.native.Person and other.name == p.name and other.age == 5
    t = mod.native.Tag("x")
    assert pickle.loads(pickle.dumps(t)) == t


def test_swap_shares_strings_and_counts(mod):
    a, b = mod.native.Person("a" * 50, 1), mod.native.Person("b" * 50, 2)
    run_both(mod, "swap_names", lambda m: (m.Person("a", 1), m.Person("b", 2)))
    for _ in range(1001):
        mod.native.swap_names(a, b)
    assert a.name == "b" * 50 and b.name == "a" * 50
    before = sys.getrefcount(a)
    mod.native.names([a, b, a])
    assert sys.getrefcount(a) == before


def test_memory_stays_flat(mod):
    p = mod.native.Person("m", 1)
    assert_rss_flat(mod.native, {"make_person": ("somebody", 7),
                                 "set_name_then_fail": (mod.native.Person("x", 1), 3),
                                 "count_tags": ("a b a c".split(),),
                                 "swap_names": (p, mod.native.Person("n", 2))},
                    expected=(IndexError,))
