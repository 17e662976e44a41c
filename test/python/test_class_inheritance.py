"""Single inheritance between compiled classes (issue 31;
modules/class_inheritance.py) built and run against CPython: overrides
through a base class's type, super() chains, isinstance() and narrowing,
subclass instances in fields, Optional fields, arguments and results,
dataclass inheritance, pickling, and the boundary's refusal of
subclasses defined in Python."""

import json
import pickle
import sys

import pytest

from conftest import assert_rss_flat, outcome

MODULE = "class_inheritance"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def same(mod, name, *args):
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert got == want, (name, args, got, want)
    return got


def test_every_class_and_function_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]


@pytest.mark.parametrize("n", [0, 1, 4, 9, 100])
def test_overrides_through_the_base_type(mod, n):
    same(mod, "total_area", n, 1.5)
    same(mod, "kinds", n)


@pytest.mark.parametrize("kind", [0, 1, 2, 3])
def test_each_kind_through_base_typed_values(mod, kind):
    same(mod, "held", kind, 2.0)
    same(mod, "moved_text", kind, 0.5)
    same(mod, "same_object", kind)


def test_super_chains_three_deep(mod):
    assert same(mod, "tile_area", 2.0, 5) == 18.0
    tile = mod.native.Tile(1.0, 2.0, 3.0, 4)
    assert (tile.area(), tile.name(), tile.describe()) == (13.0, 11, 133.0)
    assert mod.native.make_tile(2.0, 1).area() == 5.0


def test_isinstance_narrows(mod):
    for args in [(1.0, 2.0, 3.0), (1.0, 2.0, 5.0, 1)]:
        for cls in ("Circle", "Square", "Tile"):
            if cls == "Tile" and len(args) == 3 or cls != "Tile" and len(args) == 4:
                continue
            native = getattr(mod.native, cls)(*args)
            python = getattr(mod.python, cls)(*args)
            assert mod.native.narrowed(native) == mod.python.narrowed(python)
    assert mod.native.narrowed(mod.native.Shape(1.0, 1.0)) == -1.0


def test_instances_made_in_python_pass_as_their_base(mod):
    circle = mod.native.Circle(1.0, 2.0, 3.0)
    assert isinstance(circle, mod.native.Shape)
    assert type(circle).__mro__[1] is mod.native.Shape
    assert mod.native.area_of(circle) == 27.0
    assert mod.native.name_of(circle) == 2 and mod.native.name_of(None) == 0
    assert circle.describe() == 273.0 and circle.x == 1.0
    assert repr(circle) == repr(mod.python.Circle(1.0, 2.0, 3.0))
    holder = mod.native.Holder(circle)
    holder.spare = mod.native.Tile(0.0, 0.0, 1.0, 1)
    assert holder.shape is circle and type(holder.spare).__name__ == "Tile"
    with pytest.raises(TypeError, match="attribute 'shape' of 'Holder' must be Shape, not int"):
        holder.shape = 3


def test_dataclass_inheritance(mod):
    same(mod, "points", 1, -2, 3)
    same(mod, "point3_text", 1, 2, 3)
    native, python = mod.native.Point3(1, 2, 3), mod.python.Point3(1, 2, 3)
    assert repr(native) == repr(python) == "Point3(x=1, y=2, z=3)"
    assert mod.native.Point3(1, z=5) == mod.native.Point3(1, 0, 5)
    assert mod.native.Point3(1) != mod.native.Point(1)
    import dataclasses
    assert [f.name for f in dataclasses.fields(native)] == ["x", "y", "z"]
    for cls in (mod.native.Point3, mod.python.Point3):
        with pytest.raises(TypeError) as caught:
            cls()
    assert "missing 1 required positional argument: 'x'" in str(caught.value)


def test_pickling_a_subclass_instance(mod, monkeypatch):
    monkeypatch.setitem(sys.modules, mod.native.__name__, mod.native)   # as pickle finds it
    tile = mod.native.Tile(1.0, 2.0, 3.0, 4)
    loaded = pickle.loads(pickle.dumps(tile))
    assert type(loaded) is mod.native.Tile
    assert (loaded.x, loaded.y, loaded.side, loaded.depth) == (1.0, 2.0, 3.0, 4)
    point = pickle.loads(pickle.dumps(mod.native.Point3(1, 2, 3)))
    assert point == mod.native.Point3(1, 2, 3)


def test_errors_read_as_cpythons(mod):
    for side in (mod.native, mod.python):
        with pytest.raises(AttributeError, match="'Circle' object has no attribute 'side'"):
            side.Circle(1.0, 2.0, 3.0).side
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'r'"):
            side.Circle(1.0, 2.0)
    with pytest.raises(TypeError, match="argument 'shape' must be Shape, not Point"):
        mod.native.area_of(mod.native.Point(1))


def test_subclasses_defined_in_python_are_refused(mod):
    """Compiled code knows only the compiled classes: an instance of a
    subclass made in Python could override a method compiled code calls
    directly, so the boundary refuses it."""
    class Python(mod.native.Shape):
        def area(self):
            return 100.0

    with pytest.raises(TypeError, match="subclasses defined in Python are not accepted"):
        Python(1.0, 2.0)
    obj = Python.__new__(Python)
    with pytest.raises(TypeError, match="argument 'shape' must be Shape, not Python "
                                        r"\(subclasses defined in Python"):
        mod.native.area_of(obj)
    with pytest.raises(TypeError, match="descriptor 'describe' for 'Shape' objects doesn't "
                                        "apply to a 'Python' object"):
        obj.describe()
    with pytest.raises(TypeError, match="subclasses defined in Python"):
        mod.native.Holder(mod.native.Shape(0.0, 0.0)).shape = obj
    # A class no compiled class derives from stays no base class.
    with pytest.raises(TypeError, match="is not an acceptable base type"):
        type("Sub", (mod.native.Circle,), {})


def test_memory_stays_flat(mod):
    assert_rss_flat(mod.native, {"total_area": (8, 1.0), "held": (1, 1.0),
                                 "moved_text": (0, 1.0), "point3_text": (1, 2, 3)})


@pytest.mark.parametrize("kind, legs", [(1, 4), (0, 4), (1, -1), (1, 101), (0, -1)])
def test_abstract_methods_raise_not_implemented_error(mod, kind, legs):
    same(mod, "sound_of", kind, legs)
    if kind == 0:
        with pytest.raises(NotImplementedError):
            mod.native.sound_of(kind, legs)


@pytest.mark.parametrize("x, k", [(1.5, 2.0), (-3.0, 0.0), (0.1, 3.0)])
def test_method_aliases(mod, x, k):
    same(mod, "scaled", x, k)
    s = mod.native.Scale(x)
    assert (k * s).x == (s * k).x == mod.python.Scale(x).__rmul__(k).x
    assert s.twice() == s.doubled() and type(s).__rmul__ is not type(s).__mul__
