"""Container protocols and class constants of compiled classes
(modules/class_protocols.py) built and run against CPython: len(o) and
bool(o), o[k], o[k] = v, `x in o` / `x not in o` calling the compiled
dunders (overrides through a base-typed value too), None receivers,
negative lengths, IndexError from __getitem__; class constants folded in
compiled code and read from Python; what is refused at compile time,
with CPython's message and the source position."""

import json

import pytest

from conftest import outcome

MODULE = "class_protocols"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def shown(value):
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return (type(value).__name__, *[getattr(value, f) for f in ("width", "height", "marked",
                                                                  "n", "name", "size")
                                    if hasattr(value, f)])


def run_both(mod, name, make_args):
    native_args, python_args = make_args(mod.native), make_args(mod.python)
    got, got_error = outcome(getattr(mod.native, name), *native_args)
    want, want_error = outcome(getattr(mod.python, name), *python_args)
    assert got_error == want_error, (name, got_error, want_error)
    assert shown(got) == shown(want) and type(got) is type(want), (name, got, want)
    assert shown(list(native_args)) == shown(list(python_args)), name
    return got


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as record:
        built = json.load(record)
    assert built["fallbacks"] == []
    assert all(c["compiled"] for c in built["classes"]), built["classes"]


@pytest.mark.parametrize("w, h", [(0, 0), (1, 3), (3, 2), (-1, 2), (2, -5)])
def test_len_and_bool(mod, w, h):
    run_both(mod, "grid_len", lambda m: (w, h))
    run_both(mod, "grid_truth", lambda m: (w, h))


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 4])
def test_len_bool_and_truthy_contains_of_counter(mod, n):
    run_both(mod, "counter_len", lambda m: (n,))
    run_both(mod, "counter_bool", lambda m: (m.Counter(n),))
    for x in (-2, 0, 1, 3, 5):
        run_both(mod, "counter_has", lambda m: (m.Counter(n), x))
        run_both(mod, "counter_lacks", lambda m: (m.Counter(n), x))


@pytest.mark.parametrize("n", [0, 2, 6, 7, 9])
def test_getitem_raising_index_error(mod, n):
    run_both(mod, "grid_cells", lambda m: (m.Grid(3, 2), n))


@pytest.mark.parametrize("i, v", [(0, 1), (3, 2), (4, 5), (5, 1), (9, 1)])
def test_setitem(mod, i, v):
    run_both(mod, "grid_mark", lambda m: (m.Grid(2, 3), i, v))


@pytest.mark.parametrize("v", [-1, 0, 1, 2])
def test_contains(mod, v):
    run_both(mod, "grid_has", lambda m: (m.Grid(2, 2), v))


@pytest.mark.parametrize("name", ["maybe_len", "maybe_bool", "maybe_item", "maybe_store",
                                  "maybe_in"])
def test_none_receivers(mod, name):
    arguments = (None,) if name in ("maybe_len", "maybe_bool") else (None, 1)
    run_both(mod, name, lambda m: arguments)
    if name in ("maybe_len", "maybe_bool"):
        run_both(mod, name, lambda m: (m.Counter(2),))
    else:
        run_both(mod, name, lambda m: (m.Grid(2, 2), 1))


@pytest.mark.parametrize("key", ["", "a", "ame", "é"])
def test_str_keys(mod, key):
    run_both(mod, "named_item", lambda m: (m.Named("name"), key))
    run_both(mod, "named_has", lambda m: (m.Named("name"), key))


@pytest.mark.parametrize("kind", ["Shelf", "WideShelf"])
@pytest.mark.parametrize("size", [0, 1, 3])
def test_instance_keys_and_overrides_through_the_base(mod, kind, size):
    run_both(mod, "shelf_item", lambda m: (getattr(m, kind)(size), 4))
    run_both(mod, "shelf_last_width", lambda m: (getattr(m, kind)(size),))
    run_both(mod, "constants", lambda m: (m.Grid(3, 1), getattr(m, kind)(size)))


def test_constants_read_from_python(mod):
    native, python = mod.native, mod.python
    for name in ("EMPTY", "WALL", "SCALE", "OPEN", "LABEL"):
        got, want = getattr(native.Grid, name), getattr(python.Grid, name)
        assert got == want and type(got) is type(want), name
        assert getattr(native.Grid(1, 1), name) == want
    assert native.WideShelf.KIND == "shelf" == native.WideShelf(1).KIND
    run_both(mod, "label", lambda m: (m.Grid(1, 1),))


def test_protocols_from_python(mod):
    g = mod.native.Grid(2, 2)
    assert len(g) == 4 and g[0] == 1 and g[1] == 0 and 1 in g and 5 not in g
    g[1] = 3
    assert g.marked == 3
    with pytest.raises(IndexError):
        g[4]


REFUSED = {
    "no_len": ("def no_len(p: Plain) -> int:\n    return len(p)",
               "object of type 'Plain' has no len()"),
    "no_getitem": ("def no_getitem(p: Plain) -> int:\n    return p[0]",
                   "'Plain' object is not subscriptable"),
    "no_setitem": ("def no_setitem(c: Counter) -> None:\n    c[0] = 1",
                   "'Counter' object does not support item assignment"),
    "no_contains": ("def no_contains(p: Plain) -> bool:\n    return 1 in p",
                    "argument of type 'Plain' is not iterable"),
    "over_instance": ("def over_instance(g: Grid) -> int:\n    t = 0\n    for x in g:\n"
                      "        t += x\n    return t",
                      "`for` over a Grid instance is not compiled"),
    "store_constant": ("def store_constant(g: Grid) -> None:\n    g.WALL = 2",
                       "assigns the class attribute `WALL` of `Grid`"),
    "store_class_constant": ("def store_class_constant() -> None:\n    Grid.WALL = 2",
                             "assigns the class attribute `WALL` of `Grid`"),
    "augmented_item": ("def augmented_item(g: Grid) -> None:\n    g[0] += 1",
                       "of an instance is not compiled yet"),
    "wrong_key": ("def wrong_key(g: Grid) -> int:\n    return g['a']",
                  "cannot use a str"),
}


def built_with(tmp_path, source: str):
    """(the build record of the test module with `source` exported after
    it, the number of lines before `source`)."""
    from conftest import kiln_build
    header = open(__file__.replace("test_class_protocols.py",
                                   "modules/class_protocols.py")).read()
    path = tmp_path / "refused.py"
    path.write_text(header + "\n\n@kiln.export\n" + source + "\n")
    result = kiln_build(str(path), str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "out" / "refused.kiln.json").read_text())
    return record, header.count("\n") + 3


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_a_reason_at_its_position(tmp_path, name):
    source, reason = REFUSED[name]
    record, line = built_with(tmp_path, source)
    found = {f["function"]: f for f in record["fallbacks"]}
    assert name in found, record["fallbacks"]
    assert reason in found[name]["reason"], found[name]["reason"]
    assert "internal compiler error" not in found[name]["reason"]
    assert found[name]["line"] > line and found[name]["column"] > 0


CLASS_REFUSED = {
    "instance_attribute": ("class Level:\n    TOP = Plain(1)\n",
                           "class attributes without an annotation are compiled when they "
                           "are int, float, bool or str literals"),
    "redefined": ("class Low(Grid):\n    WALL = 2\n", "is also a field, method, property or "
                  "class attribute"),
    "field_too": ("class Both:\n    N = 1\n\n    def __init__(self):\n        self.N = 2\n",
                  "is also a field"),
    "too_big": ("class Big:\n    N = 18446744073709551616\n", "does not fit in 64 bits"),
}


@pytest.mark.parametrize("name", sorted(CLASS_REFUSED))
def test_class_attributes_out_of_scope_keep_the_class_python(tmp_path, name):
    source, reason = CLASS_REFUSED[name]
    record, line = built_with(tmp_path, source)
    # A hierarchy stays Python as a whole: the new class is the one the
    # reason names, at its attribute's line.
    found = [f for f in record["fallbacks"] if f["kind"] == "class" and reason in f["reason"]]
    assert found, record["fallbacks"]
    assert found[0]["line"] > line, found[0]
