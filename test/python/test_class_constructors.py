"""Classmethods and property setters of native classes (issue 31), built
and run against CPython running the same source
(modules/class_constructors.py): alternative constructors called on the
class and on an instance, from compiled code and from Python; setters
called by `o.p = v` and `o.p += v` in compiled code and by Python's
attribute assignment, their ValueError, a wrong type's TypeError, CPython's
messages for a property without a setter and for `del`; pickling, the
.pyi, memory flat over many calls."""

import copy
import inspect
import json
import math
import pickle
import sys

import pytest

from conftest import assert_rss_flat

MODULE = "class_constructors"


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
    assert got == want, (name, args, got, want)
    return got


def test_every_class_and_function_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]
    methods = {c["name"]: c["methods"] for c in built["classes"]}
    assert methods["Temperature"] == ["__init__", "celsius", "celsius.setter", "kelvin",
                                      "from_kelvin"]


@pytest.mark.parametrize("n", [0, 1, 5, 40])
def test_classmethods_on_the_class_and_on_an_instance(mod, n):
    same(mod, "polar_sum", n)


@pytest.mark.parametrize("r, phi", [(1.0, 0.0), (2.0, 0.5), (0.0, 3.0), (-1.5, -2.0)])
def test_a_classmethod_constructor_returns_the_native_instance(mod, r, phi):
    p = mod.native.make_polar(r, phi)
    q = mod.python.make_polar(r, phi)
    assert type(p) is mod.native.Point
    assert (p.x, p.y) == (q.x, q.y)


@pytest.mark.parametrize("start, step, n", [(20.0, 1.5, 10), (0.0, -100.0, 3),
                                            (-273.15, 0.0, 2), (10.0, -300.0, 1)])
def test_augmented_assignment_calls_getter_then_setter(mod, start, step, n):
    same(mod, "warming", start, step, n)


@pytest.mark.parametrize("start, value", [(1.0, 25.0), (1.0, -273.15), (1.0, -300.0)])
def test_setter_from_compiled_code_validates(mod, start, value):
    native = mod.native.Temperature(start)
    python = mod.python.Temperature(start)
    assert outcome(mod.native.set_celsius, native, value) == \
        outcome(mod.python.set_celsius, python, value)
    assert native.kelvin == python.kelvin       # unchanged after the ValueError


@pytest.mark.parametrize("kelvin", [300.0, 0.0, -1.0])
def test_classmethod_through_a_setter(mod, kelvin):
    same(mod, "from_kelvin", kelvin)


@pytest.mark.parametrize("radius, factor", [(1.0, 2.0), (3.0, 0.0), (2.0, -1.0)])
def test_setter_assigning_an_inferred_field(mod, radius, factor):
    same(mod, "grown_circle", radius, factor)


@pytest.mark.parametrize("dollars, spent", [(10.0, 2.5), (1.0, 1.0), (1.0, 2.0), (-1.0, 0.0)])
def test_dataclass_property_setter_and_classmethod(mod, dollars, spent):
    same(mod, "account_after", dollars, spent)


@pytest.mark.parametrize("n", [0, 3])
def test_setter_and_classmethod_of_none_raise_attribute_error(mod, n):
    same(mod, "setter_of_none", n)
    same(mod, "classmethod_of_none", n)


# ------------------------------------------------------------- from Python
def test_classmethods_from_python(mod):
    Point = mod.native.Point
    for make in (Point.from_polar, Point(5.0, 6.0).from_polar):
        p = make(2.0, 0.5)
        assert type(p) is Point
        assert (p.x, p.y) == (2.0 * math.cos(0.5), 2.0 * math.sin(0.5))
    assert (Point.unit().x, Point.unit(phi=math.pi).y) == (1.0, math.sin(math.pi))
    assert (Point.origin().x, Point(1.0, 2.0).origin().y) == (0.0, 0.0)
    assert Point.unit.__doc__.startswith("The point at distance 1")
    assert str(inspect.signature(Point.from_polar)) == "(r, phi)"
    assert type(mod.native.Temperature.from_kelvin(300.0)) is mod.native.Temperature
    assert type(mod.native.Account.opened_with(2.0)) is mod.native.Account


@pytest.mark.parametrize("call, args, kwargs", [
    ("from_polar", (1.0,), {}), ("from_polar", (1.0, 2.0, 3.0), {}), ("origin", (1,), {}),
    ("unit", (1.0, 2.0), {}), ("from_polar", (1.0,), {"r": 2.0}),
    ("from_polar", (1.0,), {"phi": 2.0, "z": 1})])
def test_classmethod_binding_errors_are_cpythons(mod, call, args, kwargs):
    """CPython's messages, which count `cls` as a positional parameter."""
    for on_instance in (False, True):
        messages = []
        for side in (mod.native, mod.python):
            owner = side.Point(1.0, 2.0) if on_instance else side.Point
            with pytest.raises(TypeError) as raised:
                getattr(owner, call)(*args, **kwargs)
            messages.append(str(raised.value))
        assert messages[0] == messages[1]


def test_classmethod_argument_of_a_wrong_type(mod):
    with pytest.raises(TypeError, match=r"^Point\.from_polar\(\) argument 'r' must be a float, "
                                        "not str$"):
        mod.native.Point.from_polar("a", 1.0)


def test_setters_from_python(mod):
    t = mod.native.Temperature(20.0)
    t.celsius = 30
    assert t.celsius == mod.python.Temperature(30).celsius
    with pytest.raises(ValueError, match="a temperature below absolute zero"):
        t.celsius = -500.0
    assert t.celsius == mod.python.Temperature(30).celsius
    # CPython does not check annotations; the compiled setter takes what a
    # float parameter takes.
    with pytest.raises(TypeError, match=r"^Temperature\.celsius\.setter\(\) argument 'value' "
                                        "must be a float, not str$"):
        t.celsius = "hot"
    with pytest.raises(ValueError, match="a temperature below absolute zero"):
        mod.native.Temperature(-300.0)
    with pytest.raises(AttributeError,
                       match="property 'kelvin' of 'Temperature' object has no setter"):
        t.kelvin = 1.0
    with pytest.raises(AttributeError,
                       match="property 'celsius' of 'Temperature' object has no deleter"):
        del t.celsius
    c = mod.native.Circle(2.0)
    c.radius = 3.0
    assert (c.radius, c._radius) == (3.0, 3.0)
    with pytest.raises(ValueError, match="radius must be non-negative"):
        c.radius = -1.0
    a = mod.native.Account(150)
    a.dollars = 2.5
    assert (a.cents, repr(a)) == (250, repr(mod.python.Account(250)))


@pytest.fixture
def registered(mod, monkeypatch):
    """The built module importable by its name, as pickle finds classes."""
    monkeypatch.setitem(sys.modules, mod.native.__name__, mod.native)
    return mod


def test_pickling_and_copying_keep_the_fields(registered):
    mod = registered
    t = mod.native.Temperature(21.5)
    for again in (pickle.loads(pickle.dumps(t)), copy.copy(t), copy.deepcopy(t)):
        assert type(again) is mod.native.Temperature and again.celsius == t.celsius
    a = mod.native.Account.opened_with(3.0)
    assert pickle.loads(pickle.dumps(a)) == a
    p = mod.native.Point.from_polar(1.0, 1.0)
    q = pickle.loads(pickle.dumps(p))
    assert (q.x, q.y) == (p.x, p.y)


def test_pyi_declares_classmethods_and_setters(mod):
    with open(mod.path(f"{MODULE}.pyi")) as stub:
        text = stub.read()
    assert "    @classmethod\n    def from_polar(cls, r: float, phi: float) -> Point: ..." in text
    assert "    @classmethod\n    def unit(cls, phi: float = ...) -> Point: ..." in text
    assert "    @property\n    def celsius(self) -> float: ...\n    @celsius.setter\n" \
           "    def celsius(self, value: float) -> None: ..." in text
    compile(text, "stub.pyi", "exec")


def test_memory_stays_flat(mod):
    assert_rss_flat(mod.native, {"polar_sum": (20,), "warming": (1.0, 0.5, 20),
                                 "account_after": (5.0, 1.0), "make_polar": (1.0, 2.0)})
