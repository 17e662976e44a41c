"""Native classes in the frontend (issue 31), without building: the class
model of frontend/classes.py (fields, layout, dataclass methods), the
classes that stay Python and why, the typing of instances (errors at
file:line:col), and the kiln.object ops MLIR generation emits. The
end-to-end tests (built, compared with CPython) are test_classes.py."""

import ast
import os
import re
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python_frontend"))

from kiln import typesystem as kt  # noqa: E402
from kiln.compiler.compiler import (BuildOptions, BuildState, class_methods,  # noqa: E402
                                    parse, subset_check, type_inference)
from kiln.errors import KilnCompileError  # noqa: E402
from kiln.frontend import classes  # noqa: E402
from kiln.frontend.source import load_module  # noqa: E402
from kiln.mlir.code_generator import generate_module  # noqa: E402
from kiln.typecheck.type_inference import infer_module  # noqa: E402

HEADER = """\
from __future__ import annotations
import dataclasses
from dataclasses import dataclass
from typing import Optional
import kiln
"""


def module(tmp_path, body, name="mod"):
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    return load_module(str(path))


def line_of(context, text):
    """The 1-based line of the first source line containing `text`."""
    return next(n for n, line in enumerate(context.source.splitlines(), 1) if text in line)


def typing_errors(context):
    """Every diagnostic of the exported functions and the methods, as
    `line:column: message`."""
    functions = context.exported_functions() + class_methods(context)
    result = infer_module(context, functions)
    return [f"{d.line}:{d.column}: {d.message}" for error in result.failures.values()
            for d in error.diagnostics]


def mlir_of(context):
    text, signatures, failures = generate_module(
        context, context.exported_functions() + class_methods(context))
    assert not failures, failures
    return text, signatures


# ------------------------------------------------------------ the model
def test_layout_constants_match_the_abi_header():
    header = open(os.path.join(REPO, "runtime", "kiln_abi.h"), encoding="utf-8").read()
    found = dict(re.findall(r"#define (KILN_OBJECT_\w+) (\d+)", header))
    assert int(found["KILN_OBJECT_HEADER_SIZE"]) == classes.OBJECT_HEADER_SIZE == 16
    assert int(found["KILN_OBJECT_FIELD_SIZE"]) == classes.FIELD_SIZE == 8


def test_fields_from_annotations_and_init(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        class Node:
            left: Optional["Node"] = None
            right: "Node | None" = None
            scale: float = 1.5

            def __init__(self, value: int, weight=2.0, flag: bool = False):
                self.value = value
                self.weight = weight
                self.count = 0
                self.flag = flag
                self.parent = None
                if value > 0:
                    self.parent = Node(0)
    """)
    info = context.classes["Node"]
    assert info.layout_signature() == ("left:Node?@16,right:Node?@24,scale:f64@32,value:i64@40,"
                                       "weight:f64@48,count:i64@56,flag:bool@64,"
                                       "parent:Node?@72")
    assert info.basicsize == 16 + 8 * 8
    assert info.field("scale").default == 1.5 and info.field("left").default is None
    assert info.field("value").default is classes.NO_DEFAULT
    assert info.slot_symbol == "mod_Node__kiln_type" == classes.class_slot_symbol("mod", "Node")
    assert info.type == kt.ClassType("Node") and info.has_init and not info.dataclass
    assert info.method_order == ["__init__"]
    assert classes.method_symbol("mod", "Node", "size") == "mod_Node__size"


def test_dataclass_generated_methods(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        @dataclass(order=True, frozen=True)
        class Point:
            x: float
            y: float = 0.0
            n: int = 3

            def norm(self) -> float:
                return self.x * self.y


        @kiln.export
        @dataclasses.dataclass(eq=False, repr=False)
        class Plain:
            a: int
    """)
    point = context.classes["Point"]
    assert point.dataclass and point.frozen and point.order and point.eq
    assert point.method_order == ["norm", "__init__", "__repr__", "__eq__", "__lt__", "__le__",
                                  "__gt__", "__ge__"]
    assert point.synthesized == {"__init__", "__repr__", "__eq__", "__lt__", "__le__", "__gt__",
                                 "__ge__"}
    init = point.methods["__init__"]
    assert init.name == "Point.__init__" and init.lineno == point.line
    assert [a.arg for a in init.args.args] == ["self", "x", "y", "n"]
    assert point.hash_is_none
    plain = context.classes["Plain"]
    assert plain.method_order == ["__init__"] and not plain.eq
    # Their signatures: defaults, self first, the class and method named.
    _, signatures = mlir_of(context)
    by_name = {s.name: s for s in signatures}
    init = by_name["Point.__init__"]
    assert (init.class_name, init.method_name, init.method_kind) == ("Point", "__init__",
                                                                     "method")
    assert [(p.name, p.type, p.default) for p in init.params] == [
        ("self", kt.ClassType("Point"), None), ("x", kt.f64, None), ("y", kt.f64, 0.0),
        ("n", kt.i64, 3)]
    assert init.symbol == "mod_Point____init__" and init.return_type is None
    assert not init.release_gil and init.exported
    assert by_name["Point.__repr__"].return_type == kt.string
    assert by_name["Point.__lt__"].return_type == kt.boolean


def test_optional_default_is_the_none_type(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        @dataclass
        class Node:
            value: int
            next: Optional[Node] = None
    """)
    _, signatures = mlir_of(context)
    init = next(s for s in signatures if s.name == "Node.__init__")
    assert init.params[2].type == kt.ClassType("Node", True)
    assert init.params[2].default is kt.none_type


# ----------------------------------------------------- staying Python
@pytest.mark.parametrize("body, reason", [
    ("class Base:\n    pass\n\n@kiln.export\nclass C(Base):\n    x: int",
     "its base class `Base` is not an exported class of the module"),
    ("@kiln.export\nclass A:\n    x: int\n\n@kiln.export\nclass B:\n    y: int\n\n"
     "@kiln.export\nclass C(A, B):\n    z: int",
     "it has several base classes (`A`, `B`; multiple inheritance is not compiled)"),
    ("@kiln.export\nclass A:\n    x: int\n\n@kiln.export\nclass C(A):\n    x: int",
     "its attribute `x` redeclares the attribute of its base class `A`"),
    ("@kiln.export\n@dataclass\nclass A:\n    x: int\n\n@kiln.export\nclass C(A):\n"
     "    z: int",
     "it is a plain class deriving from a dataclass (`A`; not compiled yet)"),
    ("@kiln.export\nclass C(metaclass=type):\n    x: int", "a metaclass is not compiled"),
    ("@kiln.export\nclass C:\n    __slots__ = ('x',)", "it defines `__slots__`"),
    ("@kiln.export\nclass C:\n    x: int\n    def __getattr__(self, name):\n        return 0",
     "it defines `__getattr__`"),
    ("@kiln.export\nclass C:\n    names: dict[str, int]",
     "its attribute `names` (line 8) is dict[str, int]"),
    ("@kiln.export\nclass C:\n    def __init__(self):\n        self.items = {}",
     "its attribute `items` (line 9) is a dict"),
    ("@kiln.export\nclass C:\n    names: list[list[int]]", "is list[list[int]]"),
    ("@kiln.export\nclass C:\n    names: list[int] = []",
     "a list default is one list every instance shares"),
    ("@kiln.export\nclass C:\n    count = []", "its class attribute `count` is `[]`"),
    ("@kiln.export\nclass C:\n    a = b = 0", "its class attribute assignment `a, b = ...`"),
    ("@kiln.export\nclass C:\n    x: int\n    @property\n    def p(self) -> int:\n"
     "        return 1\n    @p.deleter\n    def p(self):\n        pass",
     "the property deleter of `p` (getters and setters are compiled, deleters not yet)"),
    ("@kiln.export\nclass C:\n    x: int\n    @property\n    def p(self) -> int:\n"
     "        return 1\n    @p.setter\n    def set_p(self, v: int):\n        pass",
     "the setter of property `p` is named `set_p`"),
    ("@kiln.export\nclass C:\n    x: int\n    @property\n    def p(self) -> int:\n"
     "        return 1\n    @p.setter\n    def p(self, v: int, w: int = 0):\n        pass",
     "the setter of property `p` takes other parameters than (self, value)"),
    ("@kiln.export\nclass C:\n    x: int\n    @classmethod\n    def make(cls):\n"
     "        cls = 3\n        return cls", "its classmethod `make` rebinds `cls` or `C`"),
    ("@kiln.export\nclass C:\n    x: int\n    @classmethod\n    def make():\n"
     "        return 1", "its classmethod `make` takes no `cls` parameter"),
    ("@kiln.export\n@dataclass(slots=True)\nclass C:\n    x: int",
     "@dataclass(slots=...) is not compiled yet"),
    ("@kiln.export\n@dataclass\nclass C:\n    x: int = dataclasses.field(default=0)",
     "the default of its attribute `x` is `dataclasses.field(default=0)`"),
    ("@kiln.export\nclass C:\n    x: int\n\nclass D(C):\n    pass",
     "`D` (line 10) derives from it"),
])
def test_classes_that_stay_python(tmp_path, body, reason):
    context = module(tmp_path, body)
    assert "C" not in context.classes
    message = context.class_fallbacks["C"].message
    assert message.startswith("class `C` stays Python: ") and reason in message, message


def test_a_field_of_a_class_that_stays_python(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        class Named:
            names: dict[str, int]

        @kiln.export
        class Holder:
            item: Named
    """)
    assert not context.classes
    assert "`Named`, which stays Python" in context.class_fallbacks["Holder"].message


def test_field_type_errors_name_the_attribute_and_lines(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        class Mixed:
            def __init__(self, a: int, b: float):
                self.v = a
                if b > 0:
                    self.v = b

        @kiln.export
        class Unknown:
            def __init__(self, data):
                self.data = data

        @kiln.export
        class Bag:
            def __init__(self):
                self.items = []
    """)
    mixed = context.class_fallbacks["Mixed"]
    assert mixed.message == ("attribute `v` of `Mixed` is assigned float and int in `__init__` "
                             "(lines 10, 12); annotate it in the class body")
    unknown = context.class_fallbacks["Unknown"]
    assert unknown.message.startswith("the type of attribute `data` of `Unknown` cannot be "
                                      "inferred from `__init__` (line 17)")
    bag = context.class_fallbacks["Bag"]
    assert bag.message == ("the type of attribute `items` of `Bag` cannot be inferred from "
                           "`__init__` (line 22); annotate it in the class body "
                           "(`items: list[int]`)")
    assert context.class_analysis().errors.keys() == {"Mixed", "Unknown", "Bag"}


def test_functions_naming_a_class_that_stays_python_fall_back(tmp_path):
    context = module(tmp_path, """
        @kiln.export
        class Named:
            names: dict[str, int]

        @kiln.export
        def make() -> int:
            n = Named()
            return 1

        @kiln.export
        def take(n: Named) -> int:
            return 1
    """)
    errors = typing_errors(context)
    assert any("class `Named` is not compiled (class `Named` stays Python: its attribute `names`"
               in e for e in errors), errors
    assert sum("Named" in e for e in errors) == 2


# ------------------------------------------------------------- typing
CLASSES = """
    @kiln.export
    class Node:
        value: int
        weight: float
        next: Optional[Node]

        def __init__(self, value: int, weight: float = 1.0):
            self.value = value
            self.weight = weight
            self.next = None

        def total(self) -> int:
            return self.value + (self.next.total() if self.next is not None else 0)

        @staticmethod
        def twice(x: int) -> int:
            return 2 * x

        @property
        def heavy(self) -> bool:
            return self.weight > 1.0

        @property
        def weighed(self) -> float:
            return self.weight

        @weighed.setter
        def weighed(self, value: float) -> None:
            self.weight = value

        @classmethod
        def make(cls, value: int) -> Node:
            return cls(value, weight=0.5)

    @kiln.export
    @dataclass(frozen=True)
    class Frozen:
        x: int
"""


@pytest.mark.parametrize("statement, message", [
    ("n.z", "'Node' object has no attribute 'z'"),
    ("n.z = 1", "'Node' object has no attribute 'z'"),
    ("n.value = 1.5", "attribute `value` of `Node` is int: it cannot be assigned a float"),
    ("n.next = 3", "attribute `next` of `Node` is Node | None: it cannot be assigned a int"),
    ("f.x = 2", "cannot assign to field 'x' (`Frozen` is a frozen dataclass; CPython raises "
                "FrozenInstanceError)"),
    ("n.heavy = True", "property 'heavy' of 'Node' object has no setter"),
    ("n.weighed = 'a'", "cannot use a str value as float"),
    ("Node.make('a')", "cannot use a str value as int"),
    ("Node()", "Node() is missing argument `value`"),
    ("Node(1, 2.0, 3)", "Node() takes 2 arguments but 3 were given"),
    ("Node(1, size=2.0)", "Node() got an unexpected or repeated argument `size`"),
    ("Node('a')", "cannot use a str value as int"),
    ("n.total(1)", "Node.total() takes 0 arguments but 1 were given"),
    ("n.missing()", "'Node' object has no attribute 'missing'"),
    ("n + n", "unsupported operand types for `n + n`: Node and Node (no compiled `__add__`)"),
    ("n < n", "'n < n': `Node` defines no `__lt__` (CPython raises TypeError)"),
    ("x: Node = None", "cannot use None as Node (annotate it `Node | None` where it may be "
                       "None)"),
    ("n.total", "the method `total` of `Node` is used as a value; only calls of methods are "
                "supported (`o.m(...)`)"),
])
def test_typing_errors_at_their_position(tmp_path, statement, message):
    context = module(tmp_path, CLASSES + f"""
    @kiln.export
    def use(n: Node, f: Frozen) -> int:
        {statement}
        return 0
    """)
    line = line_of(context, statement)
    errors = typing_errors(context)
    assert any(e.startswith(f"{line}:") and message in e for e in errors), errors


def test_instances_type_through_locals_joins_and_methods(tmp_path):
    context = module(tmp_path, CLASSES + """
    @kiln.export
    def chain(k: int) -> Optional[Node]:
        head = None
        for i in range(k):
            node = Node(i, weight=0.5)
            node.next = head
            head = node
        return head

    @kiln.export
    def measure(head: Node | None) -> float:
        total = 0.0
        node = head
        while node is not None:
            total += node.weight * Node.twice(node.value)
            if node.heavy:
                total += 1
            node = node.next
        same = head is head and isinstance(head, Node)
        return total + (1.0 if same else 0.0)
    """)
    assert typing_errors(context) == []
    result = infer_module(context, context.exported_functions())
    chain = result.functions["chain"]
    assert chain.return_type == kt.ClassType("Node", True)
    assert chain.variables["head"].type == kt.ClassType("Node", True)
    assert chain.variables["node"].type == kt.ClassType("Node")
    assert result.functions["measure"].variables["same"].type == kt.boolean


def test_recursion_through_methods(tmp_path):
    context = module(tmp_path, """
    @kiln.export
    class Tree:
        left: Optional["Tree"] = None
        right: Optional["Tree"] = None

        def size(self) -> int:
            return 1 + (self.left.size() if self.left is not None else 0) + \\
                (self.right.size() if self.right is not None else 0)

        def depth(self) -> int:
            a = self.left.depth() if self.left is not None else 0
            b = self.right.depth() if self.right is not None else 0
            return 1 + max(a, b)
    """)
    assert typing_errors(context) == []
    text, _ = mlir_of(context)
    assert "func.func private @mod_Tree__size.recursive(" in text
    assert "func.func @mod_Tree__size(" in text


def test_nogil_and_prange_with_instances_are_refused(tmp_path):
    context = module(tmp_path, CLASSES + """
    @kiln.export(nogil=True)
    def held(n: Node) -> int:
        return n.value

    @kiln.export
    def parallel(n: Node, k: int) -> float:
        total = 0.0
        for i in kiln.prange(k):
            total += n.weight
        return total
    """)
    errors = typing_errors(context)
    assert any("nogil=True: this function uses class instances" in e for e in errors), errors
    assert any("a kiln.prange loop cannot use class instances" in e for e in errors), errors


def test_a_method_that_does_not_type_keeps_its_class_python(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(HEADER + textwrap.dedent("""
        @kiln.export
        class Good:
            x: int

        @kiln.export
        class Bad:
            x: int

            def oops(self) -> int:
                return self.y

        @kiln.export
        def use_good(g: Good) -> int:
            return g.x

        @kiln.export
        def use_bad(b: Bad) -> int:
            return b.x
    """))
    state = BuildState(str(path), str(tmp_path / "out"), BuildOptions())
    for stage in (parse, subset_check, type_inference):
        stage(state)
    assert list(state.context.classes) == ["Good"]
    reason = state.context.class_fallbacks["Bad"]
    assert reason.message == ("class `Bad` stays Python: its method `oops` does not compile: "
                              "'Bad' object has no attribute 'y'")
    assert reason.line == 16
    assert [f.name for f in state.to_compile] == ["use_good"]
    assert "class `Bad` is not compiled" in str(state.failures["use_bad"])


# --------------------------------------------------------------- MLIR
def test_the_mlir_of_instances(tmp_path):
    context = module(tmp_path, CLASSES + """
    @kiln.export
    def chain(k: int) -> Optional[Node]:
        head = None
        for i in range(k):
            node = Node(i)
            node.next = head
            head = node
        return head

    @kiln.export
    def same(a: Node, b: Node | None) -> bool:
        return a is b or b is None
    """)
    text, signatures = mlir_of(context)
    assert 'llvm.mlir.global"() ({' in text and 'sym_name = "mod_Node__kiln_type"' in text
    assert "linkage = #llvm.linkage<weak>" in text
    assert text.count('sym_name = "mod_Node__kiln_type"') == 1
    assert '"kiln.object.new"() {slot = @mod_Node__kiln_type} : () -> !kiln.object<"Node">' \
        in text
    assert 'func.call @mod_Node____init__(' in text
    assert '"kiln.object.set"(' in text and '{field = "next", offset = 32 : i64}' in text
    assert '"kiln.object.get"(' in text and 'nullable}' in text
    assert '"kiln.object.none"() : () -> !kiln.object<"Node">' in text
    assert '"kiln.object.same"(' in text and '"kiln.object.is_none"(' in text
    assert '"kiln.retain"' in text and '"kiln.release"' in text
    chain = next(s for s in signatures if s.name == "chain")
    assert chain.class_name is None and chain.symbol == "mod_chain" and not chain.release_gil
    assert chain.return_type == kt.ClassType("Node", True)
    methods = {s.name: s for s in signatures if s.class_name}
    assert set(methods) == {"Node.__init__", "Node.total", "Node.twice", "Node.heavy",
                            "Node.weighed", "Node.weighed.setter", "Node.make",
                            "Frozen.__init__", "Frozen.__repr__", "Frozen.__eq__"}
    assert methods["Node.twice"].method_kind == "staticmethod"
    assert [p.name for p in methods["Node.twice"].params] == ["x"]
    assert methods["Node.heavy"].method_kind == "property"
    # A classmethod's function has no `cls`; a setter is `<property>.setter`.
    assert methods["Node.make"].method_kind == "classmethod"
    assert [p.name for p in methods["Node.make"].params] == ["value"]
    assert methods["Node.weighed.setter"].method_kind == "setter"
    assert methods["Node.weighed.setter"].symbol == "mod_Node__weighed__setter"
    assert [p.name for p in methods["Node.weighed.setter"].params] == ["self", "value"]


def test_classmethods_and_setters_in_compiled_code(tmp_path):
    context = module(tmp_path, CLASSES + """
    @kiln.export
    def build(k: int) -> float:
        a = Node.make(k)
        b = a.make(k + 1)               # on an instance: no self passed
        b.weighed = k                   # the setter, the int converted
        b.weighed += 0.5
        return a.weight + b.weighed
    """)
    assert typing_errors(context) == []
    text, _ = mlir_of(context)
    body = text[text.index("func.func @mod_build"):]
    assert body.count("func.call @mod_Node__make(") == 2
    assert body.count("func.call @mod_Node__weighed__setter(") == 2
    assert body.count("func.call @mod_Node__weighed(") == 2
    make = text[text.index("func.func @mod_Node__make"):]
    make = make[:make.index("func.func", 10)]
    assert '"kiln.object.new"() {slot = @mod_Node__kiln_type}' in make


def test_the_model_of_classmethods_and_setters(tmp_path):
    context = module(tmp_path, """
    @kiln.export
    class Circle:
        def __init__(self, radius: float):
            self.radius = radius

        @property
        def radius(self) -> float:
            return self._radius

        @radius.setter
        def radius(self, value: float) -> None:
            self._radius = value

        @classmethod
        def unit(cls) -> Circle:
            return cls(1.0)
    """)
    info = context.classes["Circle"]
    # `self.radius = ...` calls the setter; the setter's `_radius` is the field.
    assert [(f.name, f.type) for f in info.fields] == [("_radius", kt.f64)]
    assert info.method_order == ["__init__", "radius", "radius.setter", "unit"]
    assert info.setters == {"radius"} and info.class_methods == {"unit"}
    assert [info.method_kind(m) for m in info.method_order] == ["method", "property", "setter",
                                                                "classmethod"]
    unit = info.methods["unit"]
    assert unit.name == "Circle.unit" and unit.args.args == []
    assert ast.unparse(unit.body[0]) == "return Circle(1.0)"
    assert typing_errors(context) == []


def test_plain_class_defaults_are_set_before_init(tmp_path):
    context = module(tmp_path, """
    @kiln.export
    class Counter:
        step: int = 2
        zero: float = 0.0

    @kiln.export
    def make() -> int:
        c = Counter()
        return c.step
    """)
    text, _ = mlir_of(context)
    body = text[text.index("func.func @mod_make"):]
    assert '{field = "step", offset = 16 : i64}' in body
    assert body.count('"kiln.object.set"') == 1        # 0.0 is already there
