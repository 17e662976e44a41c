"""Classes at the boundary (issue 31): instances of compiled classes, used
from Python, against CPython running the same source
(modules/class_boundary.py): construction with positional, keyword and
default arguments and CPython's messages for every binding error; field
reads and writes (type-checked: TypeError naming the attribute); methods,
static methods and properties; dataclass repr, eq, order and hash, frozen
assignment; user __eq__/__lt__/__hash__/__repr__; pickle and copy round
trips (cycles too); compiled functions taking and returning instances
(the same objects, references counted right); the garbage collector
freeing parent <-> child cycles; memory flat over many instances; the
stubs and the header; and @kiln.export on a class compiled on first use."""

import copy
import gc
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO

MODULE = "class_boundary"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


@pytest.fixture
def registered(mod, monkeypatch):
    """The built module importable by its name, as pickle finds classes."""
    monkeypatch.setitem(sys.modules, mod.native.__name__, mod.native)
    for name in ("Vec", "Node", "Point", "Key", "Money", "Parent", "Child", "Holder", "Config"):
        assert getattr(mod.native, name).__module__ == mod.native.__name__
    return mod.native


def outcome(call):
    """(result, exception type and message) of one call; a compiled
    function's messages end with the source location, left out."""
    try:
        return call(), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (/")[0])


def state(obj):
    """What an instance holds, comparable between CPython and Kiln."""
    if obj is None or isinstance(obj, (int, float, bool, str)):
        return obj
    names = [n for n in ("x", "y", "tag", "value", "left", "right", "flag", "a", "b", "cents",
                         "ident", "scale", "steps", "verbose", "count") if hasattr(obj, n)]
    return (type(obj).__name__,) + tuple((n, state(getattr(obj, n))) for n in names)


def both(mod, call):
    """`call(module)` on the built and the plain module: same outcome."""
    got, want = outcome(lambda: call(mod.native)), outcome(lambda: call(mod.python))
    assert (state(got[0]), got[1]) == (state(want[0]), want[1])
    return got[0]


def test_the_classes_are_native_types(mod):
    for name in ("Vec", "Node", "Point", "Key", "Money", "Parent", "Child", "Holder", "Config"):
        native = getattr(mod.native, name)
        assert isinstance(native, type) and native.__name__ == native.__qualname__ == name
        assert native.__module__ == mod.native.__name__
        assert isinstance(native.__kiln_layout__, str)
    assert mod.native.Vec.__kiln_layout__ == "tag:i64@16,x:f64@24,y:f64@32"
    assert mod.native.Vec.__doc__.startswith("A 2-D vector.")
    # No base class of a compiled class: a subclass could override what
    # compiled code calls directly.
    with pytest.raises(TypeError, match="is not an acceptable base type"):
        type("Sub", (mod.native.Vec,), {})


CONSTRUCTIONS = [
    lambda m: m.Vec(3.0, 4.0), lambda m: m.Vec(3.0), lambda m: m.Vec(y=2.0, x=1.0),
    lambda m: m.Vec(1, 2), lambda m: m.Vec(), lambda m: m.Vec(1.0, 2.0, 3.0),
    lambda m: m.Vec(1.0, 2.0, 3.0, 4.0), lambda m: m.Vec(1.0, z=3.0),
    lambda m: m.Vec(1.0, x=2.0), lambda m: m.Vec(1.0, y=2.0, x=3.0),
    lambda m: m.Vec(**{"x": 1.0, "y": 5.0}), lambda m: m.Vec(*[1.0], **{"y": 5.0}),
    lambda m: m.Node(), lambda m: m.Node(1), lambda m: m.Node(-1),
    lambda m: m.Node(1, None, m.Node(2)), lambda m: m.Node(value=4, right=m.Node(5)),
    lambda m: m.Node(1, 2, 3, 4, 5),
    lambda m: m.Point(), lambda m: m.Point(1), lambda m: m.Point(1, 2.0, True),
    lambda m: m.Point(y=1.0), lambda m: m.Point(1, flag=True), lambda m: m.Point(1, 2, 3, 4),
    lambda m: m.Key(1), lambda m: m.Key(1, b=2.0), lambda m: m.Key(a=1, c=2),
    lambda m: m.Money(5), lambda m: m.Money(), lambda m: m.Money(1, 2),
    lambda m: m.Config(), lambda m: m.Config(1), lambda m: m.Config(scale=1.0),
    lambda m: m.Holder(3), lambda m: m.Parent(1),
]


@pytest.mark.parametrize("index", range(len(CONSTRUCTIONS)))
def test_construction_as_cpython(mod, index):
    """Positional, keyword and default arguments; a missing, extra,
    unexpected or doubled argument raises CPython's own TypeError
    (`Vec.__init__() missing 1 required positional argument: 'x'`), and an
    exception __init__ raises comes out of the call."""
    both(mod, CONSTRUCTIONS[index])


def test_construction_messages(mod):
    messages = {
        lambda m: m.Vec(): "Vec.__init__() missing 1 required positional argument: 'x'",
        lambda m: m.Node(1, 2, 3, 4, 5): "Node.__init__() takes from 2 to 4 positional "
                                         "arguments but 6 were given",
        lambda m: m.Money(1, 2): "Money.__init__() takes 2 positional arguments but 3 were given",
        lambda m: m.Key(a=1, c=2): "Key.__init__() got an unexpected keyword argument 'c'",
        lambda m: m.Vec(1.0, x=2.0): "Vec.__init__() got multiple values for argument 'x'",
        lambda m: m.Config(1): "Config() takes no arguments",
    }
    for call, message in messages.items():
        assert outcome(lambda: call(mod.native))[1][1] == message
        assert outcome(lambda: call(mod.python))[1][1] == message
    missing = outcome(lambda: mod.native.Key())[1]
    assert missing == ("TypeError", "Key.__init__() missing 1 required positional argument: 'a'")


def test_constructor_argument_types(mod):
    """Arguments convert as a function's do (CPython itself would store
    anything): the message names the method and the parameter."""
    m = mod.native
    with pytest.raises(TypeError, match=r"^Vec.__init__\(\) argument 'x' must be a float, "
                                        r"not str$"):
        m.Vec("1")
    with pytest.raises(TypeError, match=r"argument 'left' must be Node or None, not Vec"):
        m.Node(1, m.Vec(1.0))
    with pytest.raises(OverflowError, match="'a' does not fit in a 64-bit integer"):
        m.Key(2 ** 64)


def test_fields_read_and_write(mod):
    m = mod.native
    v = m.Vec(3.0, 4.0)
    assert (v.x, v.y, v.tag) == (3.0, 4.0, 7)
    v.x, v.tag = 5, 9            # an int into a float field: 5.0, as a float parameter
    assert (v.x, type(v.x), v.tag) == (5.0, float, 9)
    v.tag = True                 # int takes what an int parameter takes
    assert v.tag == 1 and type(v.tag) is int
    p = m.Point(1)
    p.flag = True
    assert p.flag is True
    n = m.Node(1)
    n.left = m.Node(2)
    assert n.left.value == 2 and n.right is None
    n.left = None
    assert n.left is None
    c = m.Config()
    assert (c.scale, c.steps, c.verbose) == (2.5, 3, True)
    c.steps = -4
    assert c.steps == -4


FIELD_ERRORS = [
    ("Vec", (1.0,), "x", "a", TypeError, "attribute 'x' of 'Vec' must be a float, not str"),
    ("Vec", (1.0,), "tag", 1.5, TypeError, "attribute 'tag' of 'Vec' must be an int, not float"),
    ("Vec", (1.0,), "tag", 2 ** 63, OverflowError,
     "attribute 'tag' of 'Vec' does not fit in a 64-bit integer"),
    ("Point", (1,), "flag", 1, TypeError, "attribute 'flag' of 'Point' must be a bool, not int"),
    ("Node", (1,), "left", 3, TypeError,
     "attribute 'left' of 'Node' must be Node or None, not int"),
    ("Holder", (1,), "item", None, TypeError,
     "attribute 'item' of 'Holder' must be Node, not NoneType"),
]


@pytest.mark.parametrize("case", FIELD_ERRORS, ids=[c[2] + "-" + repr(c[3]) for c in FIELD_ERRORS])
def test_field_type_errors(mod, case):
    """A value of another type is refused, the message naming the
    attribute; the field keeps its value."""
    class_name, args, field, value, error, message = case
    obj = getattr(mod.native, class_name)(*args)
    before = outcome(lambda: getattr(obj, field))
    with pytest.raises(error) as raised:
        setattr(obj, field, value)
    assert str(raised.value) == message
    assert outcome(lambda: getattr(obj, field)) == before


def test_unset_and_unknown_attributes(mod):
    """A field never set and a name that is no field raise CPython's
    AttributeError; there is no __dict__, so a new attribute is refused too
    (where CPython's plain class would take it)."""
    for m in (mod.native, mod.python):
        h = m.Holder(2)
        assert outcome(lambda: h.item) == (None, (
            "AttributeError", "'Holder' object has no attribute 'item'"))
        assert outcome(lambda: m.Vec(1.0).nope) == (None, (
            "AttributeError", "'Vec' object has no attribute 'nope'"))
    h = mod.native.Holder(2)
    h.item = mod.native.Node(3)
    assert h.item.value == 3
    del h.item
    assert outcome(lambda: h.item)[1][0] == "AttributeError"
    with pytest.raises(AttributeError, match="'Vec' object has no attribute 'nope'"):
        mod.native.Vec(1.0).nope = 1


def test_methods_as_cpython(mod):
    calls = [lambda m: m.Vec(3.0, 4.0).norm2(), lambda m: m.Vec(1.0, 2.0).scaled(3.0),
             lambda m: m.Vec(1.0, 2.0).scaled(k=-1.0), lambda m: m.Vec(1.0).plus(m.Vec(2.0, 5.0)),
             lambda m: m.Vec.unit(0), lambda m: m.Vec.unit(axis=1), lambda m: m.Vec(1.0).unit(1),
             lambda m: m.Vec(0.0).is_zero, lambda m: m.Vec(1.0).is_zero,
             lambda m: m.Vec(1.0).norm2(2), lambda m: m.Vec(1.0).scaled(),
             lambda m: m.Vec(1.0).scaled(1.0, k=2.0), lambda m: m.Vec.unit(),
             lambda m: m.Node(1, m.Node(2, m.Node(3)), m.Node(4)).sum_values(),
             lambda m: m.Vec(1.0, 2.0) + m.Vec(3.0), lambda m: m.Vec(1.0, 2.0) * 3.0,
             lambda m: -m.Vec(1.0, 2.0), lambda m: m.Vec(1.0).__add__(m.Vec(2.0))]
    for call in calls:
        both(mod, call)
    assert outcome(lambda: mod.native.Vec(1.0).norm2(2))[1] == (
        "TypeError", "Vec.norm2() takes 1 positional argument but 2 were given")
    with pytest.raises(AttributeError, match="property 'is_zero' of 'Vec' object has no setter"):
        mod.native.Vec(1.0).is_zero = True
    with pytest.raises(TypeError, match=r"argument 'other' must be Vec, not Node"):
        mod.native.Vec(1.0).plus(mod.native.Node(1))
    import inspect
    assert str(inspect.signature(mod.native.Vec.scaled)) == "(self, /, k)"
    assert str(inspect.signature(mod.native.Node)) == "(value, left=None, right=None)"
    assert str(inspect.signature(mod.native.Key)) == "(a, b=1.5)"
    assert mod.native.Key.__doc__ == "Compiled by Kiln from class_boundary.py:94."
    assert mod.native.Vec.scaled.__doc__.strip().endswith("A new vector, k times this one.")


def test_dataclass_protocols_as_cpython(mod):
    import dataclasses

    calls = [lambda m: repr(m.Point(1)), lambda m: repr(m.Point(-3, 2.5, True)),
             lambda m: m.Point(1) == m.Point(1, 0.0), lambda m: m.Point(1) == m.Point(2),
             lambda m: m.Point(1) != m.Point(1), lambda m: m.Point(1) == 1,
             lambda m: m.Point(1) == m.Key(1), lambda m: hash(m.Point(1)),
             lambda m: m.Point(1) < m.Point(2),
             lambda m: repr(m.Key(2, 0.5)), lambda m: m.Key(1) < m.Key(2),
             lambda m: m.Key(1, 2.0) <= m.Key(1, 1.0), lambda m: m.Key(2) > m.Key(1, 9.0),
             lambda m: m.Key(1) >= m.Key(1), lambda m: m.Key(1) == m.Key(1, 1.5),
             lambda m: m.Key(1) < 3, lambda m: hash(m.Key(3, 0.25)) == hash((3, 0.25)),
             lambda m: [repr(k) for k in sorted([m.Key(3), m.Key(1, 9.0), m.Key(1)])],
             lambda m: len({m.Key(1), m.Key(1), m.Key(2)}),
             lambda m: setattr(m.Key(1), "a", 2), lambda m: delattr(m.Key(1), "b"),
             lambda m: setattr(m.Key(1), "other", 2),
             lambda m: [f.name for f in dataclasses.fields(m.Point)],
             lambda m: dataclasses.asdict(m.Point(2, 0.5)),
             lambda m: dataclasses.astuple(m.Key(4)),
             lambda m: dataclasses.replace(m.Key(1), b=3.0),
             lambda m: dataclasses.is_dataclass(m.Point(1)), lambda m: m.Point.__match_args__]
    for call in calls:
        both(mod, call)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        mod.native.Key(1).a = 2
    assert mod.native.Point.__hash__ is None


def test_user_dunders_as_cpython(mod):
    calls = [lambda m: repr(m.Money(5)), lambda m: m.Money(5) == m.Money(5),
             lambda m: m.Money(5) == m.Money(6), lambda m: m.Money(5) != m.Money(5),
             lambda m: m.Money(1) < m.Money(2), lambda m: m.Money(3) > m.Money(2),
             lambda m: hash(m.Money(7)), lambda m: len({m.Money(1), m.Money(1), m.Money(2)}),
             lambda m: repr(sorted([m.Money(3), m.Money(1)])), lambda m: hash(m.Vec(1.0)) != 0]
    for call in calls:
        both(mod, call)
    # A compiled comparison takes its own class only: another object gets
    # NotImplemented, so == falls back to identity and < raises CPython's
    # TypeError (CPython would run the method and fail on `other.cents`).
    m = mod.native
    assert (m.Money(5) == 5) is False and (m.Money(5) != 5) is True
    with pytest.raises(TypeError, match="'<' not supported between instances of 'Money' and "
                                        "'int'"):
        m.Money(1) < 2


def test_pickle_and_copy_round_trips(registered):
    m = registered
    objects = [m.Vec(1.5, -2.0), m.Point(3, 4.5, True), m.Key(7, 0.5), m.Money(12),
               m.Node(1, m.Node(2), m.Node(3, m.Node(4))), m.Config(), m.Holder(5)]
    for obj in objects:
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            loaded = pickle.loads(pickle.dumps(obj, protocol))
            assert type(loaded) is type(obj) and loaded is not obj
            assert state(loaded) == state(obj)
        assert state(copy.copy(obj)) == state(obj) and state(copy.deepcopy(obj)) == state(obj)
    tree = objects[4]
    assert copy.copy(tree).left is tree.left and copy.deepcopy(tree).left is not tree.left
    assert pickle.loads(pickle.dumps(m.Key(1))) == m.Key(1)
    # A cycle made by compiled code: the object exists before its state loads.
    parent = m.family(10)
    for again in (pickle.loads(pickle.dumps(parent)), copy.deepcopy(parent)):
        assert again.child.parent is again and again.child.ident == 11
    # The state is checked as assignments are: a pickle cannot make an
    # ill-typed object.
    with pytest.raises(TypeError, match="attribute 'x' of 'Vec' must be a float, not str"):
        m.Vec.__new__(m.Vec).__setstate__((7, "a", 1.0))
    with pytest.raises(TypeError, match="expects a tuple of 3 field values"):
        m.Vec.__new__(m.Vec).__setstate__((1,))


def test_functions_take_and_return_instances(mod):
    calls = [lambda m: m.sum_tree(m.Node(1, m.Node(2))), lambda m: m.sum_tree(None),
             lambda m: m.chain(0), lambda m: m.chain(4), lambda m: m.sum_tree(m.chain(100)),
             lambda m: m.graft(m.Node(1), m.Node(5)), lambda m: m.graft(m.Node(1), None),
             lambda m: m.family(3).child.parent.ident,
             lambda m: m.longest(m.Vec(1.0), m.Vec(0.5, 2.0))]
    for call in calls:
        both(mod, call)
    m = mod.native
    a, b = m.Vec(1.0), m.Vec(0.5)
    assert m.longest(a, b) is a and m.same(a, a) and not m.same(a, b) and m.same(None, None)
    tree = m.Node(1)
    assert m.graft(tree, m.Node(2)) is tree and tree.left.value == 2
    with pytest.raises(TypeError, match=r"^sum_tree\(\) argument 'node' must be Node or None, "
                                        r"not Vec$"):
        m.sum_tree(a)
    with pytest.raises(TypeError, match=r"^graft\(\) argument 'tree' must be Node, not NoneType$"):
        m.graft(None, None)
    with pytest.raises(TypeError, match=r"argument 'a' must be Vec, not Vec"):
        m.longest(mod.python.Vec(1.0), b)
    # Borrowed in, a new reference out: nothing gained or lost per call.
    counts = sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(tree)
    for _ in range(1000):
        m.longest(a, b)
        m.same(a, b)
        m.graft(tree, tree.left)
        m.sum_tree(tree)
    assert (sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(tree)) == counts
    assert sys.getrefcount(m.chain(3)) == 2


def test_a_raising_call_releases_its_instance_arguments(mod):
    """A compiled __init__ that raises leaves the new instance unreferenced
    (CPython frees it), and a function raising before it returns gives back
    the references it took to its instance arguments
    and the instances its names hold (passes/LowerObjects.cpp)."""
    m = mod.native
    gc.collect()
    before = live(m.Node)
    left = m.Node(1)
    count = sys.getrefcount(left)
    for _ in range(500):
        with pytest.raises(ValueError, match="never negative"):
            m.Node(-1, left)
    assert sys.getrefcount(left) == count
    gc.collect()
    assert live(m.Node) == before + 1
    # A raise inside a loop gives back what the loop's name held (the
    # kiln.owned markers of passes/LowerObjects.cpp).
    chain = m.Node(1, m.Node(2, m.Node(3)))
    middle = chain.left
    counts = sys.getrefcount(chain), sys.getrefcount(middle)
    for _ in range(500):
        with pytest.raises(IndexError, match="deeper than the limit"):
            chain.depth_at_most(1)
        with pytest.raises(IndexError, match="deeper than the limit"):
            chain.depth_at_most(2)
    assert chain.depth_at_most(3) == 3
    assert (sys.getrefcount(chain), sys.getrefcount(middle)) == counts


def live(cls) -> int:
    return sum(1 for obj in gc.get_objects() if type(obj) is cls)


def test_gc_collects_cycles(mod):
    """Instances are tracked by CPython's collector: a parent <-> child
    cycle, made by Python or by compiled code, is freed once unreachable."""
    m = mod.native
    gc.collect()
    parents, children = live(m.Parent), live(m.Child)
    for ident in range(200):
        parent = m.family(ident)
        other = m.Parent(ident)
        other.child = m.Child(ident)
        other.child.parent = other
        loop = m.Node(1)
        loop.left = loop
    del parent, other, loop
    gc.collect()
    assert (live(m.Parent), live(m.Child)) == (parents, children)
    assert live(m.Node) <= 1
    # A long chain is freed without a C recursion as deep as it.
    head = m.chain(200_000)
    assert head.value == 199_999
    del head


MEMORY_SCRIPT = textwrap.dedent('''\
    import gc, sys, tracemalloc
    sys.path.insert(0, sys.argv[1])
    import class_boundary as m

    def churn():
        for i in range(20_000):
            v = m.Vec(float(i), 1.0).scaled(2.0).plus(m.Vec(1.0))
            n = m.Node(i, m.Node(1), None)
            n.right = m.chain(3)
            n.left = None
            p = m.family(i)
            k = m.Key(i) < m.Key(i, 2.0), hash(m.Key(i)), repr(m.Point(i))
            for bad in ((lambda: m.Vec()), (lambda: m.Key("a")), (lambda: setattr(v, "x", "a"))):
                try:
                    bad()
                except (TypeError, ValueError):
                    pass
        gc.collect()

    def pages():
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1])

    churn()
    tracemalloc.start()
    churn()
    first, rss = tracemalloc.get_traced_memory()[0], pages()
    churn()
    churn()
    grown = tracemalloc.get_traced_memory()[0] - first
    print(grown, pages() - rss)
''')


def test_memory_stays_flat(mod):
    """Many instances made and dropped (by Python and by compiled code,
    with cycles and refused calls among them) leave nothing behind."""
    result = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, mod.outdir],
                            capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert result.returncode == 0, result.stderr
    traced, pages = map(int, result.stdout.split())
    assert traced < 64 * 1024, traced
    assert pages < 256, pages        # 1 MiB of 4 KiB pages


def test_stubs_and_header(mod):
    import ast

    stub = open(mod.path(f"{MODULE}.py")).read()
    assert "\nVec = _kiln_native.Vec\n" in stub and "\nclass Vec" not in stub
    pyi = open(mod.path(f"{MODULE}.pyi")).read()
    ast.parse(pyi)
    for line in ["class Vec:", "    x: float", "    tag: int",
                 "    def __init__(self, x: float, y: float = ...) -> None: ...",
                 "    def scaled(self, k: float) -> Vec: ...",
                 "    @staticmethod", "    def unit(axis: int) -> Vec: ...",
                 "    @property", "    def is_zero(self) -> bool: ...",
                 "    left: Node | None",
                 "    __hash__: typing.ClassVar[None]  # type: ignore[assignment]",
                 "def sum_tree(node: Node | None) -> int: ...",
                 "def family(ident: int) -> Parent: ..."]:
        assert line in pyi.splitlines(), line
    header = open(mod.path(f"{MODULE}.h")).read()
    assert "typedef struct class_boundary_Vec {" in header
    assert "int64_t class_boundary_sum_tree(void *node, kiln_error *error);" in header


FIRST_CALL_MODULE = textwrap.dedent('''\
    from dataclasses import dataclass
    from typing import Optional

    import kiln


    @kiln.export
    @dataclass(order=True)
    class Item:
        weight: int
        value: float = 1.0


    @kiln.export
    class Bag:
        best: Optional[Item]

        def __init__(self, capacity: int):
            self.capacity = capacity
            self.best = None

        def offer(self, item: Item) -> bool:
            if item.weight > self.capacity:
                return False
            if self.best is None or item.value > self.best.value:
                self.best = item
            return True


    @kiln.export
    class Named:
        label: dict[str, int]


    @kiln.export
    def heaviest(a: Item, b: Item) -> Item:
        if a.weight >= b.weight:
            return a
        return b


    @kiln.export
    def fill(bag: Bag, n: int) -> int:
        taken = 0
        for i in range(n):
            if bag.offer(Item(i, float(i % 7))):
                taken += 1
        return taken
''')

FIRST_CALL_SCRIPT = textwrap.dedent('''\
    import pickle, sys, warnings
    warnings.simplefilter("error", DeprecationWarning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import firstcall as f
    print([str(w.message) for w in caught])
    print(hasattr(f.Item, "__kiln_layout__"), hasattr(f.Bag, "__kiln_layout__"),
          hasattr(f.Named, "__kiln_layout__"))
    print(f.Item.__module__, f.Item.__qualname__, repr(f.Item(3)))
    import dataclasses
    print(dataclasses.asdict(f.Item(1)), dataclasses.replace(f.Item(1), value=2.0))
    a, b = f.Item(2, 5.0), f.Item(4)
    print(f.heaviest(a, b) is b, f.heaviest.is_compiled, a < b)
    bag = f.Bag(10)
    print(f.fill(bag, 20), repr(bag.best), bag.offer(f.Item(11)))
    print(pickle.loads(pickle.dumps(a)) == a)
    try:
        f.heaviest(a, 3)
    except TypeError as error:
        print(error)
''')


def test_compile_on_first_call(tmp_path):
    """@kiln.export on a class compiles it (with the module's other
    classes) when the decorator runs and gives the native type in its
    place, named as the class was; a function using it compiles on its
    first call and takes those very types; a class Kiln cannot compile
    stays Python with a KilnFallbackWarning. A second process loads it all
    from the cache."""
    (tmp_path / "firstcall.py").write_text(FIRST_CALL_MODULE)
    env = dict(os.environ, KILN_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.path.join(REPO, "python_frontend")]))
    env.pop("KILN_DISABLE", None)
    for run in range(2):
        result = subprocess.run([sys.executable, "-c", FIRST_CALL_SCRIPT], cwd=tmp_path,
                                capture_output=True, text=True, env=env)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0].startswith("['kiln: class Named runs as Python: ") and \
            "`label`" in lines[0], lines[0]
        assert lines[1:] == [
            "True True False",
            "firstcall Item Item(weight=3, value=1.0)",
            "{'weight': 1, 'value': 1.0} Item(weight=1, value=2.0)",
            "True True True",
            "11 Item(weight=6, value=6.0) False",
            "True",
            "heaviest() argument 'b' must be Item, not int"], (run, lines)


def test_a_class_of_python_dash_c_compiles(tmp_path):
    """A class without a source file (`python -c`, as a notebook cell's)
    compiles from the source its methods were compiled from."""
    code = textwrap.dedent('''\
        import kiln


        @kiln.export
        class Acc:
            def __init__(self, start: int):
                self.amount = start

            def add(self, k: int) -> int:
                self.amount += k
                return self.amount


        print(hasattr(Acc, "__kiln_layout__"), Acc(3).add(4))
    ''')
    env = dict(os.environ, KILN_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.path.join(REPO, "python_frontend"))
    env.pop("KILN_DISABLE", None)
    result = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True 7\n"


def test_binding_checks_the_layout(mod):
    """A function's extension binds a class slot only to a type of the
    layout its code reads; compile on first call says which class and
    both layouts."""
    from kiln.compiler.cache import bind_classes
    from kiln.errors import KilnCompileError

    native = mod.native._kiln_native
    assert native._kiln_classes()["Vec"] == "tag:i64@16,x:f64@24,y:f64@32"
    with pytest.raises(TypeError, match="class Vec: the compiled class has the layout "
                                        "'value:i64@16,left:Node\\?@24,right:Node\\?@32'"):
        native._kiln_bind_class("Vec", mod.native.Node)
    native._kiln_bind_class("Vec", mod.native.Vec)      # its own type: no change
    assert mod.native.longest(mod.native.Vec(1.0), mod.native.Vec(2.0)).x == 2.0
    other = type("Vec", (), {"__kiln_layout__": "x:f64@16"})
    with pytest.raises(KilnCompileError, match="`longest` was compiled for class `Vec` with the "
                                               "layout 'tag:i64@16,x:f64@24,y:f64@32', but `Vec` "
                                               "in its module has 'x:f64@16'"):
        bind_classes(native, "longest", {"Vec": other}, "class_boundary.py")
