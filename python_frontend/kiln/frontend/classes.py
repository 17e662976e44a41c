"""The native classes of a module (issue 31): which classes marked
@kiln.export compile, their fields and layout, and their methods as the
functions typing and MLIR generation see.

One source of the layout, read by typing, MLIR generation and the
extension's wrapper: an instance is a CPython object whose header
(refcount, type pointer: OBJECT_HEADER_SIZE bytes) is followed by one
FIELD_SIZE-byte slot per field, in declaration order -- int as int64,
float as double, bool as one byte, an instance (or None) as a PyObject
pointer (NULL for None). runtime/kiln_abi.h has the same constants
(test_classes_frontend.py compares them).

What a class's fields are: its class-level annotations (`x: int`, `x: float
= 0.0`, `left: Optional["Node"] = None`), in order, then the attributes
`__init__` assigns (`self.x = x` of a parameter with an annotation or a
literal default, or `self.n = 0`), in the order it first assigns them.

A class stays Python (a fallback with the reason, naming the construct)
when it uses what this slice does not compile: a base class that is
not an exported class of the module, several bases, a metaclass, `__slots__`, `__getattr__` and the other attribute hooks, class
attributes without annotation, fields of other types (str, containers,
...), property deleters, other decorators, dataclass options beyond
frozen/order/eq/init/repr. A field whose type cannot be found (or
is given two ways) is a compile error of the class, naming the attribute
and its lines. Either way, every exported function naming such a class
falls back too (typing reports it where the name is used).

A classmethod compiles as a function without its `cls` parameter, every
`cls` of its body read as the class itself: a subclass must override
the classmethods it would inherit, so `cls` can be no other class
(`cls(...)` is the constructor, `cls.other(...)` another classmethod).

Single inheritance: a class may derive from one exported class of the
module read before it (`ClassInfo.base`). Its fields are the base's, at
the same offsets, then its own; its methods are its own, the others found
along `ClassInfo.lineage` (`defining`). A call through a value typed
class C goes to C's method, or -- when compiled subclasses override it
(`overriding_subclasses`) -- to the one of the instance's class, tested
by type. A hierarchy compiles or stays Python as a whole
(`staying_python_with`): a subclass compiled code could not see might
override what it calls directly. A property's setter
is the method `<name>.setter` (setter_method_name); a plain class's
fields include the attributes its setters assign, as `__init__`'s are
(`self._r = value` with `value: float`).

Dataclasses get their generated methods as syntax trees (parsed from
generated source, every node at the `class` line): `__init__` (fields in
order, literal defaults), `__repr__` (`Node(x=1, y=2.0)`), `__eq__` (field
by field) and with order=True `__lt__`, `__le__`, `__gt__`, `__ge__`
(lexicographic over the fields, as tuple comparison).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

from .. import typesystem as kt
from ..errors import Diagnostic, KilnCompileError
from .constants import int_out_of_range, is_number, is_text, literal_constant
from .ufunc_signatures import KILN_DECORATORS

OBJECT_HEADER_SIZE = 16
FIELD_SIZE = 8


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT = _NoDefault()

# Methods whose presence changes how CPython finds attributes or makes
# instances: a class defining one stays Python.
ATTRIBUTE_HOOKS = ("__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__new__",
                   "__init_subclass__", "__class_getitem__", "__set_name__", "__get__",
                   "__set__", "__delete__", "__slots__", "__dict__", "__weakref__")
# The keyword arguments of @dataclass(...) this slice compiles.
DATACLASS_OPTIONS = ("frozen", "order", "eq", "init", "repr")
ORDER_METHODS = {"__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">="}


@dataclass(frozen=True)
class ClassField:
    name: str
    type: object          # kt.i64 / kt.f64 / kt.boolean / kt.ClassType
    offset: int
    default: object       # a Python literal, or NO_DEFAULT
    line: int


@dataclass
class ClassInfo:
    name: str
    node: ast.ClassDef
    fields: list          # [ClassField] in declaration order
    methods: dict         # name -> ast.FunctionDef (synthesized ones included)
    static_methods: frozenset
    properties: frozenset
    dataclass: bool
    frozen: bool
    order: bool
    eq: bool
    module: str = ""
    line: int = 0
    method_order: list = field(default_factory=list)
    # The names of the methods generated for a dataclass (the others are
    # written in the class).
    synthesized: frozenset = frozenset()
    # A dataclass's generated __repr__ the extension writes in C instead
    # (one of a class with str fields).
    repr_in_extension: bool = False
    options: dict = field(default_factory=dict)   # @kiln.export(...) options
    class_methods: frozenset = frozenset()
    # The properties with a `@<name>.setter`; the setter is the method
    # setter_method_name(name).
    setters: frozenset = frozenset()
    # The exported class of the module it derives from (single
    # inheritance), None for `object`; its fields come first, at the same
    # offsets, and its methods are this class's unless overridden.
    base: "ClassInfo | None" = field(default=None, repr=False, compare=False)
    # Class-level assignments of int, float, bool and str literals (`NONE =
    # 0`): name -> value. Compiled code folds them; the extension sets them
    # on the type, where Python reads them.
    constants: dict = field(default_factory=dict)

    @property
    def lineage(self) -> list:
        """The class, then its base, its base's base, ... (the MRO)."""
        chain, current = [], self
        while current is not None:
            chain.append(current)
            current = current.base
        return chain

    def defining(self, method) -> "ClassInfo | None":
        """The class of the lineage whose own method `method` is (the one
        CPython's attribute lookup finds), or None."""
        return next((c for c in self.lineage if method in c.methods), None)

    def constant_owner(self, name) -> "ClassInfo | None":
        """The class of the lineage whose class constant `name` is, or None."""
        return next((c for c in self.lineage if name in c.constants), None)

    def is_subclass_of(self, other_name: str) -> bool:
        return any(c.name == other_name for c in self.lineage)

    @property
    def basicsize(self) -> int:
        return OBJECT_HEADER_SIZE + FIELD_SIZE * len(self.fields)

    @property
    def type(self) -> kt.ClassType:
        return kt.ClassType(self.name)

    @property
    def slot_symbol(self) -> str:
        return class_slot_symbol(self.module, self.name)

    @property
    def has_init(self) -> bool:
        return self.defining("__init__") is not None

    @property
    def hash_is_none(self) -> bool:
        """CPython sets `__hash__ = None` on a class defining `__eq__`
        without `__hash__` (a dataclass with eq=True and frozen=False too)."""
        return "__eq__" in self.methods and "__hash__" not in self.methods

    def field(self, name) -> ClassField | None:
        return next((f for f in self.fields if f.name == name), None)

    def layout_signature(self) -> str:
        """`x:i64@16,y:f64@24,left:Node?@32`: what compiled code assumes of
        the layout; the class object carries it as `__kiln_layout__`, and
        a function's extension checks it before binding the class."""
        return ",".join(f"{f.name}:{type_code(f.type)}@{f.offset}" for f in self.fields)

    def method_kind(self, name) -> str:
        owner = self.defining(name)
        if owner is not None and owner is not self:
            return owner.method_kind(name)
        if name in self.static_methods:
            return "staticmethod"
        if name in self.class_methods:
            return "classmethod"
        if name in self.properties:
            return "property"
        if name.endswith(SETTER_SUFFIX) and name[:-len(SETTER_SUFFIX)] in self.setters:
            return "setter"
        return "method"

    def takes_no_instance(self, name) -> bool:
        """A staticmethod or classmethod: its compiled function has no
        `self` (a classmethod's `cls` is the class, known when compiling)."""
        owner = self.defining(name) or self
        return name in owner.static_methods or name in owner.class_methods

    def function_name(self, method) -> str:
        return method_function_name(self.name, method)


SETTER_SUFFIX = ".setter"


def setter_method_name(property_name: str) -> str:
    """The key of a property's setter among a class's methods (`x.setter`;
    the getter is `x`): a name no `def` can take."""
    return property_name + SETTER_SUFFIX


def is_list_field_type(type_) -> bool:
    """A list a field may hold: of int, float, bool, str or instances of an
    exported class (not Optional ones: a list item is never None here)."""
    if not isinstance(type_, kt.ListType):
        return False
    item = type_.item
    return item in (kt.i64, kt.f64, kt.boolean, kt.string) or (
        isinstance(item, kt.ClassType) and not item.optional)


def is_list_factory(node) -> bool:
    """`field(default_factory=list)` (also `dataclasses.field(...)`)."""
    return isinstance(node, ast.Call) and not node.args and (
        (isinstance(node.func, ast.Name) and node.func.id == "field") or
        (isinstance(node.func, ast.Attribute) and node.func.attr == "field")) and \
        len(node.keywords) == 1 and node.keywords[0].arg == "default_factory" and \
        isinstance(node.keywords[0].value, ast.Name) and node.keywords[0].value.id == "list"


def literal_list_type(node: ast.List):
    """The list type of `[0.0] * n`'s or `[1, 2]`'s literal items, None
    when it cannot tell (`[]`, names, mixed types)."""
    kinds = set()
    for item in node.elts:
        value = item.operand if isinstance(item, ast.UnaryOp) and \
            isinstance(item.op, ast.USub) else item
        if not isinstance(value, ast.Constant) or value.value is None:
            return None
        kinds.add(kt.boolean if isinstance(value.value, bool) else
                  kt.i64 if isinstance(value.value, int) else
                  kt.f64 if isinstance(value.value, float) else
                  kt.string if isinstance(value.value, str) else None)
    if len(kinds) != 1 or None in kinds:
        return None
    return kt.ListType(kinds.pop())


def type_code(type_) -> str:
    if isinstance(type_, kt.ClassType):
        return type_.class_name + ("?" if type_.optional else "")
    return type_.name


def is_class_isinstance(node: ast.Call, classes) -> bool:
    """`isinstance(o, C)` of a compiled class C (or int/float/bool), which
    typing folds and generation lowers: both recognise it here."""
    return node.func.id == "isinstance" and len(node.args) == 2 and not node.keywords and \
        isinstance(node.args[1], ast.Name) and (
            node.args[1].id in classes or node.args[1].id in ("int", "float", "bool"))


def is_super_call(node) -> bool:
    """`super()` (with no arguments), as in `super().__init__(x)`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "super" and not node.args and not node.keywords


def isinstance_narrowing(stmt: ast.If, body: list, classes) -> tuple | None:
    """(name, class name) when `stmt` is `if isinstance(x, C):` of a
    compiled class C and `body` (its branch) never rebinds x: there x is a
    C (typing and generation both narrow it so)."""
    test = stmt.test
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and
            is_class_isinstance(test, classes) and isinstance(test.args[0], ast.Name) and
            test.args[1].id in classes):
        return None
    name = test.args[0].id
    for node in (n for part in body for n in ast.walk(part)):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return None
        if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.Global, ast.Nonlocal)):
            return None
    return name, test.args[1].id


def class_slot_symbol(module: str, class_name: str) -> str:
    """The weak global holding the class's type object pointer, which the
    extension sets at import (compiled code reads it to make instances)."""
    return f"{module}_{class_name}__kiln_type"


def method_function_name(class_name: str, method: str) -> str:
    """The name a method has as a function of the module in typing, MLIR
    generation and FunctionSignature.name (no Python function can be named
    with a `.`)."""
    return f"{class_name}.{method}"


def method_symbol(module: str, class_name: str, method: str) -> str:
    """The C symbol of a compiled method: what values.symbol_name gives its
    function name (the `.` becomes `__`)."""
    return f"{module}_{class_name}__{method}"


def split_method_name(name: str):
    """(class name, method) of a method's function name; None for a
    module function."""
    if "." not in name:
        return None
    class_name, _, method = name.partition(".")
    return class_name, method


# ----------------------------------------------------------------- analysis
class ClassFallback(Exception):
    """The class stays Python: `diagnostic` says why."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass
class ClassAnalysis:
    classes: dict           # name -> ClassInfo, module order
    fallbacks: dict         # name -> Diagnostic
    # name -> KilnCompileError: classes whose fields are wrong (missing or
    # conflicting types); they stay Python too (their diagnostic is the
    # fallback's reason).
    errors: dict


def analyse_classes(context) -> ClassAnalysis:
    """The exported classes of the module: those that compile, and why the
    others stay Python. A class whose field names another exported class
    that stays Python stays Python too, and so does a whole hierarchy one
    class of which stays Python (base or subclass)."""
    nodes = [node for node in context.tree.body
             if isinstance(node, ast.ClassDef) and context.is_exported(node)]
    candidates = {node.name for node in nodes}
    fallbacks, errors, infos = {}, {}, {}
    # Compiled code knows only the exported classes: one it cannot see
    # could override what it calls directly, so a class of the module that
    # is not exported and derives from an exported one keeps it Python.
    for other in ast.walk(context.tree):
        if not isinstance(other, ast.ClassDef) or other in nodes:
            continue
        for base in other.bases:
            if isinstance(base, ast.Name) and base.id in candidates and \
                    base.id not in fallbacks:
                fallbacks[base.id] = context.diagnostic(
                    next(n for n in nodes if n.name == base.id),
                    f"class `{base.id}` stays Python: `{other.name}` (line {other.lineno}) "
                    "derives from it and is not exported (compiled code would not see its "
                    "overrides)", base.id)
    for node in nodes:
        if node.name in fallbacks:
            continue
        try:
            infos[node.name] = ClassReader(context, node, candidates, infos, fallbacks).read()
        except ClassFallback as fallback:
            fallbacks[node.name] = fallback.diagnostic
        except KilnCompileError as error:
            errors[node.name] = error
            fallbacks[node.name] = error.diagnostics[0]
    changed = True
    while changed:
        changed = False
        for name, info in list(infos.items()):
            why = staying_python_with(context, info, infos, fallbacks, nodes)
            if why is not None:
                fallbacks[name] = why
                del infos[name]
                changed = True
                break
    return ClassAnalysis(infos, fallbacks, errors)


def staying_python_with(context, info, compiled: dict, fallbacks: dict, nodes=None):
    """Why class `info` stays Python because another class does (None if
    it does not): a field's class, its base, or a subclass of it (an
    exported class deriving from it that stays Python would be a subclass
    compiled code cannot see)."""
    for class_field in info.fields:
        if isinstance(class_field.type, kt.ClassType) and \
                class_field.type.class_name not in compiled:
            other = class_field.type.class_name
            return context.diagnostic(
                info.node, f"class `{info.name}` stays Python: its attribute "
                           f"`{class_field.name}` (line {class_field.line}) is a `{other}`, "
                           f"which stays Python ({fallbacks[other].message})", info.name)
    if info.base is not None and info.base.name not in compiled:
        return context.diagnostic(
            info.node, f"class `{info.name}` stays Python: its base class `{info.base.name}` "
                       f"stays Python ({fallbacks[info.base.name].message})", info.name)
    for node in nodes if nodes is not None else [c.node for c in compiled.values()]:
        if node.name in compiled or node.name not in fallbacks:
            continue
        if any(isinstance(b, ast.Name) and b.id == info.name for b in node.bases):
            return context.diagnostic(
                info.node, f"class `{info.name}` stays Python: its subclass `{node.name}` "
                           f"(line {node.lineno}) stays Python "
                           f"({fallbacks[node.name].message})", info.name)
    return None


def subclasses_of(classes: dict, name: str) -> list:
    """The compiled classes deriving from class `name` (directly or not),
    most derived first: the other types a value typed `name` may have."""
    found = [info for info in classes.values()
             if info.name != name and info.is_subclass_of(name)]
    return sorted(found, key=lambda info: -len(info.lineage))


def overriding_subclasses(classes: dict, name: str, method: str) -> list:
    """(subclass, the class defining `method` for it) for each compiled
    subclass of `name` on whose instances `method` is another function
    than on a `name`'s, most derived first: where a call through a `name`
    dispatches. Empty: the call is direct."""
    own = classes[name].defining(method)
    found = []
    for info in subclasses_of(classes, name):
        defining = info.defining(method)
        if defining is not own:
            found.append((info, defining))
    return found


def common_base(first, second):
    """The nearest class both derive from (ClassInfos), or None."""
    names = {c.name for c in second.lineage}
    return next((c for c in first.lineage if c.name in names), None)


def with_locations(tree, node: ast.AST):
    """Every node of a generated tree at `node`'s line and column."""
    for child in ast.walk(tree):
        if hasattr(child, "lineno"):
            child.lineno = child.end_lineno = node.lineno
            child.col_offset = child.end_col_offset = node.col_offset
    return tree


class ClassReader:
    """Reads one class: its options, fields and methods, or the reason it
    stays Python."""

    def __init__(self, context, node: ast.ClassDef, candidates: set, compiled=None,
                 fallbacks=None):
        self.context = context
        self.node = node
        self.candidates = candidates
        self.name = node.name
        self.compiled = compiled if compiled is not None else {}   # the classes read so far
        self.fallbacks = fallbacks if fallbacks is not None else {}
        self.base = None         # the ClassInfo of its base class, None for object
        self.list_assigned = set()    # attributes some method assigns a list literal

    def stays_python(self, where, what: str):
        raise ClassFallback(self.context.diagnostic(
            where, f"class `{self.name}` stays Python: {what}", self.name))

    def error(self, where, message: str):
        raise KilnCompileError(self.context.diagnostic(where, message, self.name))

    # ------------------------------------------------------------ options
    def decorators(self):
        """(is a dataclass, its options, the @kiln.export options)."""
        dataclass_options, is_dataclass, export = {}, False, {}
        for decorator in self.node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            qualified = self.context.qualified_name(target)
            if qualified in KILN_DECORATORS:
                if qualified[1] == "vectorize":
                    self.stays_python(decorator, "@kiln.vectorize is for functions")
                export = self.context.export_options(self.node) or {}
                continue
            if self.is_dataclass_decorator(target):
                is_dataclass = True
                for keyword in getattr(decorator, "keywords", []):
                    if keyword.arg not in DATACLASS_OPTIONS:
                        self.stays_python(keyword, f"@dataclass({keyword.arg}=...) is not "
                                                   "compiled yet")
                    if not (isinstance(keyword.value, ast.Constant)
                            and isinstance(keyword.value.value, bool)):
                        self.stays_python(keyword, f"@dataclass({keyword.arg}=...) takes True "
                                                   "or False written in the source")
                    dataclass_options[keyword.arg] = keyword.value.value
                if isinstance(decorator, ast.Call) and decorator.args:
                    self.stays_python(decorator, "@dataclass takes keyword options only")
                continue
            self.stays_python(decorator, f"its decorator `@{ast.unparse(decorator)}` is not "
                                         "compiled (@kiln.export and @dataclass are)")
        return is_dataclass, dataclass_options, export

    def is_dataclass_decorator(self, target) -> bool:
        if isinstance(target, ast.Name):
            return self.context.dataclass_names.get(target.id) == "dataclass"
        return isinstance(target, ast.Attribute) and target.attr == "dataclass" and \
            isinstance(target.value, ast.Name) and target.value.id in \
            self.context.dataclass_module_aliases

    # -------------------------------------------------------------- shape
    def check_shape(self) -> None:
        node = self.node
        bases = [b for b in node.bases if not (isinstance(b, ast.Name) and b.id == "object")]
        if len(bases) > 1:
            shown = ", ".join(f"`{ast.unparse(b)}`" for b in bases)
            self.stays_python(bases[1], f"it has several base classes ({shown}; multiple "
                                        "inheritance is not compiled)")
        for base in bases:
            if not (isinstance(base, ast.Name) and base.id in self.candidates):
                self.stays_python(base, f"its base class `{ast.unparse(base)}` is not an "
                                        "exported class of the module (a compiled class "
                                        "derives from one of those, or from object)")
            if base.id in self.fallbacks:
                self.stays_python(base, f"its base class `{base.id}` stays Python "
                                        f"({self.fallbacks[base.id].message})")
            if base.id not in self.compiled:
                self.stays_python(base, f"its base class `{base.id}` is defined after it")
            self.base = self.compiled[base.id]
        for keyword in node.keywords:
            what = "a metaclass" if keyword.arg == "metaclass" else \
                f"the class keyword `{keyword.arg}=`"
            self.stays_python(keyword, f"{what} is not compiled")
        if node.type_params if hasattr(node, "type_params") else False:
            self.stays_python(node, "type parameters are not compiled")

    # ------------------------------------------------------------ reading
    def read(self) -> ClassInfo:
        self.check_shape()
        is_dataclass, options, export = self.decorators()
        methods, static, properties = {}, set(), set()
        class_methods, setters = set(), set()
        constants = {}           # name -> (literal value, statement)
        declared = []            # (name, annotation node, default node, statement)
        for stmt in self.node.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
                    isinstance(stmt.value.value, str):
                continue                                # the docstring
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                declared.append((stmt.target.id, stmt.annotation, stmt.value, stmt))
                continue
            if isinstance(stmt, ast.FunctionDef):
                if stmt.name in ATTRIBUTE_HOOKS:
                    self.stays_python(stmt, f"it defines `{stmt.name}`")
                kind = self.method_decorators(stmt, properties)
                key = setter_method_name(stmt.name) if kind == "setter" else stmt.name
                if key in methods:
                    what = f"a second setter of `{stmt.name}`" if kind == "setter" else \
                        f"`{stmt.name}` twice"
                    self.stays_python(stmt, f"it defines {what}")
                methods[key] = stmt
                if kind == "staticmethod":
                    static.add(stmt.name)
                elif kind == "classmethod":
                    self.check_classmethod(stmt)
                    class_methods.add(stmt.name)
                elif kind == "property":
                    properties.add(stmt.name)
                elif kind == "setter":
                    self.check_setter(stmt)
                    setters.add(stmt.name)
                continue
            if isinstance(stmt, ast.AsyncFunctionDef):
                self.stays_python(stmt, f"its async method `{stmt.name}`")
            if isinstance(stmt, ast.ClassDef):
                self.stays_python(stmt, f"its nested class `{stmt.name}`")
            if isinstance(stmt, ast.Assign):
                names = [ast.unparse(t) for t in stmt.targets]
                if "__slots__" in names:
                    self.stays_python(stmt, "it defines `__slots__`")
                if "__hash__" in names and isinstance(stmt.value, ast.Constant) and \
                        stmt.value.value is None:
                    self.stays_python(stmt, "`__hash__ = None` is not compiled yet")
                alias = self.method_alias(stmt, methods, static | class_methods | properties)
                if alias is not None:
                    methods[alias.name] = alias     # `__rmul__ = __mul__`
                    continue
                constants[names[0]] = (self.class_constant(stmt, names), stmt)
                continue
            self.stays_python(stmt, f"the statement `{ast.unparse(stmt).splitlines()[0]}` in "
                                    "its body is not compiled")
        self.check_method_names(methods, properties, setters, declared)
        if self.base is not None:
            self.check_against_base(is_dataclass, options, methods, declared)
        # A dataclass's fields are its annotations; a plain class's also
        # what `__init__` and the property setters assign.
        assigners = [] if is_dataclass else \
            [methods[name] for name in methods if name == "__init__" or
             name.endswith(SETTER_SUFFIX)]
        inherited_properties = {p for c in (self.base.lineage if self.base else [])
                                for p in c.properties}
        fields = self.fields(declared, assigners, is_dataclass,
                             properties | inherited_properties)
        self.check_constant_names(constants, methods, properties, fields)
        info = ClassInfo(
            name=self.name, node=self.node, fields=fields, methods=methods,
            static_methods=frozenset(static), properties=frozenset(properties),
            dataclass=is_dataclass, frozen=bool(options.get("frozen", False)),
            order=bool(options.get("order", False)), eq=bool(options.get("eq", True)),
            module=self.context.module_name, line=self.node.lineno, options=export,
            class_methods=frozenset(class_methods), setters=frozenset(setters),
            base=self.base, constants={name: value for name, (value, _) in constants.items()})
        synthesized = []
        if is_dataclass:
            synthesized = self.synthesize(info, options)
        info.method_order = [name for name in methods if name not in synthesized] + synthesized
        info.synthesized = frozenset(synthesized)
        for name in list(info.methods):
            info.methods[name] = method_function(info, name, info.methods[name])
        return info

    def method_decorators(self, stmt: ast.FunctionDef, properties) -> str:
        """The method's kind: "method", "staticmethod", "classmethod",
        "property" or "setter" (`@<property>.setter` of a property defined
        above it, under the same name)."""
        kinds = []
        for decorator in stmt.decorator_list:
            if isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "property",
                                                                    "classmethod"):
                kinds.append(decorator.id)
            elif isinstance(decorator, ast.Attribute) and decorator.attr == "setter" and \
                    isinstance(decorator.value, ast.Name):
                owner = decorator.value.id
                if owner not in properties:
                    self.stays_python(decorator, f"`@{owner}.setter` of its method "
                                                 f"`{stmt.name}` names no property defined "
                                                 "above it")
                if owner != stmt.name:
                    self.stays_python(decorator, f"the setter of property `{owner}` is named "
                                                 f"`{stmt.name}` (a setter named as its "
                                                 "property is compiled)")
                kinds.append("setter")
            elif isinstance(decorator, ast.Attribute) and decorator.attr in ("deleter",
                                                                            "getter"):
                self.stays_python(decorator, f"the property {decorator.attr} of `{stmt.name}` "
                                             "(getters and setters are compiled, deleters "
                                             "not yet)")
            else:
                self.stays_python(decorator, f"the decorator `@{ast.unparse(decorator)}` of "
                                             f"its method `{stmt.name}`")
        if len(kinds) > 1:
            self.stays_python(stmt, f"its method `{stmt.name}` is both a "
                                    f"{kinds[0]} and a {kinds[1]}")
        return kinds[0] if kinds else "method"

    def check_classmethod(self, stmt: ast.FunctionDef) -> None:
        """Its body reads `cls` as the class itself: `cls` must be a
        parameter that nothing rebinds."""
        if not stmt.args.args:
            self.stays_python(stmt, f"its classmethod `{stmt.name}` takes no `cls` parameter")
        parameter = stmt.args.args[0].arg
        for node in ast.walk(stmt):
            rebound = (isinstance(node, ast.Name) and node.id in (parameter, self.name) and
                       not isinstance(node.ctx, ast.Load)) or (
                isinstance(node, ast.arg) and node is not stmt.args.args[0] and
                node.arg in (parameter, self.name)) or (
                isinstance(node, (ast.Global, ast.Nonlocal)) and parameter in node.names)
            if rebound:
                self.stays_python(node, f"its classmethod `{stmt.name}` rebinds `{parameter}` "
                                        f"or `{self.name}` (line {node.lineno})")

    def check_setter(self, stmt: ast.FunctionDef) -> None:
        args = stmt.args
        if len(args.args) != 2 or args.defaults or args.vararg or args.kwarg or \
                args.kwonlyargs or args.posonlyargs:
            self.stays_python(stmt, f"the setter of property `{stmt.name}` takes other "
                                    "parameters than (self, value)")

    def check_against_base(self, is_dataclass, options, methods, declared) -> None:
        """What a subclass may do with its base's attributes: override a
        method by one of the same kind, not turn a field into a method or
        a method into a field; a dataclass derives from a dataclass with
        the same `frozen`, a plain class from a plain class. A classmethod
        it inherits would get it as `cls`, which a compiled classmethod
        (compiled for its own class) does not take."""
        base = self.base
        if is_dataclass != base.dataclass:
            what = ("a dataclass", "a plain class") if is_dataclass else \
                ("a plain class", "a dataclass")
            self.stays_python(self.node, f"it is {what[0]} deriving from {what[1]} (`{base.name}`; "
                                         "not compiled yet)")
        if is_dataclass and bool(options.get("frozen", False)) != base.frozen:
            self.stays_python(self.node, f"its `frozen` differs from its base dataclass "
                                         f"`{base.name}`'s (CPython raises TypeError)")
        base_fields = {f.name for f in base.fields}
        for name, stmt in methods.items():
            if name in base_fields:
                self.stays_python(stmt, f"its method `{name}` would hide the attribute `{name}` of "
                                        f"its base class `{base.name}`")
            defining = base.defining(name)
            if defining is not None and defining.method_kind(name) != \
                    self.kind_of(name, stmt):
                self.stays_python(stmt, f"its method `{name}` overrides the "
                                        f"{defining.method_kind(name)} of `{defining.name}` "
                                        f"with a {self.kind_of(name, stmt)}")
        for name, _, _, stmt in declared:
            if base.defining(name) is not None:
                self.stays_python(stmt, f"its attribute `{name}` would hide the method `{name}` of "
                                        f"its base class `{base.name}`")
        for ancestor in base.lineage:
            for name in ancestor.class_methods:
                if name not in methods and base.defining(name) is ancestor:
                    self.stays_python(self.node, f"it inherits the classmethod `{name}` of "
                                                 f"`{ancestor.name}`, which is compiled for "
                                                 f"`{ancestor.name}` as its `cls` (override it)")

    @staticmethod
    def kind_of(name, stmt) -> str:
        """A method's kind as ClassInfo.method_kind says it, from its
        decorators (read already)."""
        if name.endswith(SETTER_SUFFIX):
            return "setter"
        names = {d.id for d in stmt.decorator_list if isinstance(d, ast.Name)}
        for kind in ("staticmethod", "classmethod", "property"):
            if kind in names:
                return kind
        return "method"

    def method_alias(self, stmt: ast.Assign, methods: dict, special: set):
        """`__rmul__ = __mul__`: a second name for a plain method written
        above it in the class (its copy under the new name), or None."""
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or \
                not isinstance(stmt.value, ast.Name) or stmt.value.id not in methods:
            return None
        name, original = stmt.targets[0].id, stmt.value.id
        if original in special or name in methods:
            self.stays_python(stmt, f"`{name} = {original}` names a static method, class "
                                    "method or property, or redefines a method (a plain "
                                    "method alias is compiled)")
        alias = copy.deepcopy(methods[original])
        alias.name = name
        return alias

    def class_constant(self, stmt: ast.Assign, names: list):
        """The value of a class attribute assigned without annotation: an
        int (64-bit), float, bool or str literal, else the class stays
        Python saying what it is."""
        shown = ", ".join(names)
        if len(names) != 1 or not isinstance(stmt.targets[0], ast.Name):
            self.stays_python(stmt, f"its class attribute assignment `{shown} = ...` (class "
                                    "constants are compiled one name at a time)")
        value = literal_constant(stmt.value)
        if not (is_number(value) or is_text(value)):
            self.stays_python(stmt, f"its class attribute `{shown}` is "
                                    f"`{ast.unparse(stmt.value)}`: class attributes without an "
                                    "annotation are compiled when they are int, float, bool or "
                                    "str literals (constants) yet")
        if int_out_of_range(value):
            self.stays_python(stmt, f"its class attribute `{shown}` does not fit in 64 bits")
        return value

    def check_constant_names(self, constants, methods, properties, fields) -> None:
        """A class constant is the only attribute of its name along the
        lineage: compiled code folds `o.NAME`, so no subclass may redefine
        it, and no field, method or property may share it."""
        lineage = self.base.lineage if self.base is not None else []
        taken = {f.name for f in fields} | set(methods) | set(properties) | {
            name for c in lineage for name in (*c.methods, *c.properties, *c.constants)}
        for name, (_, stmt) in constants.items():
            if name in taken:
                self.stays_python(stmt, f"its class attribute `{name}` is also a field, method, "
                                        "property or class attribute of it or of a base class "
                                        "(not compiled yet)")
        inherited = {name: c.name for c in lineage for name in c.constants}
        for name in [f.name for f in fields] + list(methods):
            if name in inherited:
                self.stays_python(self.node, f"its attribute `{name}` hides the class attribute "
                                             f"`{name}` of `{inherited[name]}` (not compiled yet)")

    def check_method_names(self, methods, properties, setters, declared) -> None:
        """A setter's symbol is `<Class>__<name>__setter`: a method named
        `<name>__setter` would take it too. A property is no field."""
        for name in setters:
            clash = f"{name}__setter"
            if clash in methods:
                self.stays_python(methods[clash], f"its method `{clash}` would share the "
                                                  f"compiled symbol of the setter of `{name}`")
        for name, _, _, stmt in declared:
            if name in properties:
                self.stays_python(stmt, f"its attribute `{name}` is also a property")

    # ------------------------------------------------------------- fields
    def field_type(self, annotation, name, line):
        """The type of field `name` annotated `annotation`, or stays Python."""
        if self.is_class_var(annotation):
            self.stays_python(annotation, f"its class variable `{name}` (ClassVar is not "
                                          "compiled yet)")
        try:
            type_ = self.context.resolve_annotation(annotation, classes=self.candidates)
        except KilnCompileError:
            type_ = None
        if isinstance(type_, kt.ClassType) or type_ in (kt.i64, kt.f64, kt.boolean, kt.string):
            return type_
        if is_list_field_type(type_):
            return type_
        shown = getattr(type_, "display", None) or ast.unparse(annotation)
        self.stays_python(annotation, f"its attribute `{name}` (line {line}) is {shown}: fields "
                                      "are int, float, bool, str, exported classes of the "
                                      "module, Optional[...] of them and lists of them yet")

    def is_class_var(self, annotation) -> bool:
        base = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        return (isinstance(base, ast.Name) and base.id == "ClassVar") or (
            isinstance(base, ast.Attribute) and base.attr == "ClassVar")

    def default_of(self, node, name, type_, is_dataclass=False):
        """A field's default: a literal of its type (None for an Optional),
        or kt.NEW_LIST_DEFAULT for a dataclass's list field with
        `field(default_factory=list)`."""
        if node is None:
            return NO_DEFAULT
        if is_dataclass and isinstance(type_, kt.ListType) and is_list_factory(node):
            return kt.NEW_LIST_DEFAULT
        if isinstance(type_, kt.ListType):
            self.stays_python(node, f"the default of its attribute `{name}` is "
                                    f"`{ast.unparse(node)}`: a list default is one list "
                                    "every instance shares (a class attribute); set "
                                    f"`self.{name}` in __init__ instead")
        if isinstance(node, ast.Call):
            self.stays_python(node, f"the default of its attribute `{name}` is "
                                    f"`{ast.unparse(node)}` (dataclasses.field() and other "
                                    "calls are not compiled yet)")
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError):
            self.stays_python(node, f"the default of its attribute `{name}` is "
                                    f"`{ast.unparse(node)}` (a literal is compiled)")
        if value is None and isinstance(type_, kt.ClassType) and type_.optional:
            return None
        fits = (type_ == kt.boolean and isinstance(value, bool)) or (
            type_ == kt.i64 and isinstance(value, int) and not isinstance(value, bool)
            and -2**63 <= value < 2**63) or (
            type_ == kt.f64 and isinstance(value, (int, float)) and not isinstance(value, bool)) \
            or (type_ == kt.string and isinstance(value, str))
        if not fits:
            self.error(node, f"attribute `{name}` of `{self.name}` is {type_.display}, and its "
                             f"default `{ast.unparse(node)}` is not")
        return float(value) if type_ == kt.f64 else value

    def fields(self, declared, assigners, is_dataclass, properties=frozenset()) -> list:
        types, lines, defaults, order = {}, {}, {}, []
        inherited = self.base.fields if self.base is not None else []
        for class_field in inherited:       # first, at the base's offsets
            types[class_field.name], lines[class_field.name] = class_field.type, class_field.line
            defaults[class_field.name] = class_field.default
            order.append(class_field.name)
        for name, annotation, default, stmt in declared:
            if name in types and name in {f.name for f in inherited}:
                self.stays_python(stmt, f"its attribute `{name}` redeclares the attribute of "
                                        f"its base class `{self.base.name}` (line "
                                        f"{lines[name]}; not compiled yet)")
            if name in types:
                self.error(stmt, f"attribute `{name}` of `{self.name}` is annotated twice "
                                 f"(lines {lines[name]} and {stmt.lineno})")
            types[name] = self.field_type(annotation, name, stmt.lineno)
            lines[name] = stmt.lineno
            defaults[name] = self.default_of(default, name, types[name], is_dataclass)
            order.append(name)
        if is_dataclass:
            seen_default = None
            for name in order:
                if defaults[name] is not NO_DEFAULT:
                    seen_default = name
                elif seen_default is not None:
                    self.error(self.node, f"non-default argument '{name}' follows default "
                                          f"argument (dataclass `{self.name}`; CPython raises "
                                          "TypeError)")
        if assigners:
            for name, type_, line in self.inferred_fields(assigners, types, properties):
                if name not in types:
                    types[name], lines[name], defaults[name] = type_, line, NO_DEFAULT
                    order.append(name)
        return [ClassField(name, types[name], OBJECT_HEADER_SIZE + FIELD_SIZE * position,
                           defaults[name], lines[name])
                for position, name in enumerate(order)]

    def inferred_fields(self, assigners: list, declared: dict, properties=frozenset()) -> list:
        """(name, type, line) of each attribute `__init__` or a property
        setter (`assigners`) assigns that the class does not annotate,
        typed by what is assigned: a parameter with an annotation or a
        literal default, a literal, or a constructor call of an exported
        class; `None` with one of those makes it Optional. `self.p = v` of
        a property `p` calls its setter: no field."""
        found = {}          # name -> [(type or "None" or None, line)]
        order = []
        where = []          # the methods that assign attributes, as messages name them
        for function in assigners:
            if self.assignments(function, declared, properties, found, order):
                shown = "`__init__`" if function.name == "__init__" else \
                    f"the setter of `{function.name}`"
                if shown not in where:
                    where.append(shown)
        if not order:
            return []
        where = " and ".join(where)
        init = assigners[0]         # where errors point
        result = []
        for name in order:
            kinds = found[name]
            lines = ", ".join(str(line) for _, line in kinds)
            known = {kind for kind, _ in kinds if kind not in (None, "None")}
            if any(kind is None for kind, _ in kinds) or not known:
                example = "list[int]" if name in self.list_assigned else "float"
                self.error(init, f"the type of attribute `{name}` of `{self.name}` cannot be "
                                 f"inferred from {where} (line{'s' if len(kinds) > 1 else ''} "
                                 f"{lines}); annotate it in the class body (`{name}: "
                                 f"{example}`)")
            if len(known) > 1:
                shown = " and ".join(sorted(t.display for t in known))
                self.error(init, f"attribute `{name}` of `{self.name}` is assigned {shown} in "
                                 f"{where} (lines {lines}); annotate it in the class body")
            [type_] = known
            if any(kind == "None" for kind, _ in kinds):
                if not isinstance(type_, kt.ClassType):
                    self.error(init, f"attribute `{name}` of `{self.name}` is assigned None and "
                                     f"a {type_.display} in {where} (lines {lines}); only "
                                     "class instances may be None")
                type_ = type_.as_optional
            result.append((name, type_, kinds[0][1]))
        return result

    def assignments(self, function, declared, properties, found, order) -> bool:
        """Adds the `self.<name> = ...` of `function` to `found` (name ->
        [(type or "None" or None, line)]) and `order`; whether it has any."""
        if not function.args.args:
            return False
        self_name = function.args.args[0].arg
        parameters = {}
        defaults = [None] * (len(function.args.args) - len(function.args.defaults)) + \
            list(function.args.defaults)
        for arg, default in zip(function.args.args[1:], defaults[1:]):
            parameters[arg.arg] = (arg.annotation, default)
        assigned = False
        for stmt in ast.walk(function):
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets, value = [stmt.target], stmt.value
            else:
                continue
            for target in targets:
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == self_name) or target.attr in declared or \
                        target.attr in properties:
                    continue
                if isinstance(stmt, ast.AnnAssign):
                    kind = self.field_type(stmt.annotation, target.attr, stmt.lineno)
                else:
                    kind = self.assigned_type(value, parameters, target.attr, stmt.lineno)
                if target.attr not in found:
                    found[target.attr] = []
                    order.append(target.attr)
                found[target.attr].append((kind, stmt.lineno))
                assigned = True
        return assigned

    def assigned_type(self, value, parameters, name, line):
        """The field type `self.<name> = value` gives, "None" for None, or
        None when it cannot tell."""
        if isinstance(value, ast.Constant):
            if value.value is None:
                return "None"
            if isinstance(value.value, bool):
                return kt.boolean
            if isinstance(value.value, int):
                return kt.i64
            if isinstance(value.value, float):
                return kt.f64
            if isinstance(value.value, str):
                return kt.string
            self.stays_python(value, f"its attribute `{name}` (line {line}) is a "
                                     f"{type(value.value).__name__}: fields are int, float, "
                                     "bool, str and exported classes yet")
        if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant) and \
                isinstance(value.operand.value, (int, float)):
            return self.assigned_type(value.operand, parameters, name, line)
        if isinstance(value, ast.Name) and value.id in parameters:
            annotation, default = parameters[value.id]
            if annotation is not None:
                return self.field_type(annotation, name, line)
            if default is not None:
                return self.assigned_type(default, {}, name, line)
            return None
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                value.func.id in self.candidates:
            return kt.ClassType(value.func.id)
        if isinstance(value, (ast.List, ast.ListComp)) or (
                isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult) and
                isinstance(value.left, ast.List)):
            self.list_assigned.add(name)
            if isinstance(value, ast.ListComp):
                return None
            return literal_list_type(value if isinstance(value, ast.List) else value.left)
        if isinstance(value, (ast.Dict, ast.Set, ast.JoinedStr,
                              ast.DictComp, ast.SetComp, ast.Tuple)):
            if isinstance(value, ast.JoinedStr):
                return kt.string
            what = {ast.List: "a list", ast.Dict: "a dict", ast.Set: "a set",
                    ast.ListComp: "a list", ast.DictComp: "a dict",
                    ast.SetComp: "a set", ast.Tuple: "a tuple"}[type(value)]
            self.stays_python(value, f"its attribute `{name}` (line {line}) is {what}: fields "
                                     "are int, float, bool, str and exported classes yet")
        return None

    # ------------------------------------------------------- dataclasses
    def synthesize(self, info: ClassInfo, options) -> list:
        """The methods @dataclass generates (those the class does not write
        itself), parsed from generated source: their names."""
        made = []
        fields = info.fields

        def annotation(class_field):
            return annotation_text(class_field.type)

        def add(name, text):
            if name in info.methods:
                return
            function = with_locations(ast.parse(text).body[0], self.node)
            # `= []` in the generated __init__ stands for a field's
            # default_factory=list: a new list per call, which
            # subset.default_value reads from this mark.
            for default in function.args.defaults:
                if isinstance(default, ast.List) and not default.elts:
                    default.kiln_new_list = True
            info.methods[name] = function
            made.append(name)

        if options.get("init", True):
            params = "".join(
                f", {f.name}: {annotation(f)}" + (
                    "" if f.default is NO_DEFAULT else " = []"
                    if f.default is kt.NEW_LIST_DEFAULT else f" = {f.default!r}")
                for f in fields)
            body = "".join(f"\n    self.{f.name} = {f.name}" for f in fields)
            if info.defining("__post_init__") is not None:
                body += "\n    self.__post_init__()"
            add("__init__", f"def __init__(self{params}) -> None:{body or chr(10) + '    pass'}")
        if options.get("repr", True) and any(f.type == kt.string or
                                             isinstance(f.type, kt.ListType) for f in fields):
            # A str field shows quoted (its repr), which compiled f-strings
            # cannot write yet: the extension's C makes this __repr__
            # (native/class_types.py, kiln_dataclass_repr), which compiled
            # code then does not call.
            info.repr_in_extension = "__repr__" not in info.methods
        elif options.get("repr", True):
            parts = ", ".join(f"{f.name}={{self.{f.name}}}" for f in fields)
            add("__repr__", f"def __repr__(self) -> str:\n    return f\"{self.name}({parts})\"")
        # CPython compares the fields' tuples, whose items are equal when
        # they are one object: an instance equals itself even with a NaN
        # field, and `o <= o` holds.
        if info.eq:
            compared = " and ".join(f"self.{f.name} == other.{f.name}" for f in fields) or "True"
            add("__eq__", f"def __eq__(self, other: \"{self.name}\") -> bool:\n"
                          f"    return self is other or ({compared})")
        if info.order:
            for name, symbol in ORDER_METHODS.items():
                lines = [f"def {name}(self, other: \"{self.name}\") -> bool:",
                         "    if self is other:",
                         f"        return {symbol in ('<=', '>=')}"]
                for f in fields:
                    lines.append(f"    if self.{f.name} != other.{f.name}:")
                    lines.append(f"        return self.{f.name} {symbol} other.{f.name}")
                lines.append(f"    return {symbol in ('<=', '>=')}")
                add(name, "\n".join(lines))
        return made


def annotation_text(type_) -> str:
    if isinstance(type_, kt.ClassType):
        return f"\"{type_.class_name} | None\"" if type_.optional else f"\"{type_.class_name}\""
    return type_.display


class ClassParameterAsClass(ast.NodeTransformer):
    """A classmethod's body with every `cls` read as the class's name."""

    def __init__(self, parameter: str, class_name: str):
        self.parameter = parameter
        self.class_name = class_name

    def visit_Name(self, node):
        if node.id == self.parameter:
            return ast.copy_location(ast.Name(self.class_name, node.ctx), node)
        return node


def method_function(info: ClassInfo, name: str, method: ast.FunctionDef) -> ast.FunctionDef:
    """The method as a module function: named `Class.method`, without its
    decorators, its first parameter (not of a staticmethod) annotated with
    the class. The body is the method's own (shared, not copied), except a
    classmethod's: its `cls` parameter is dropped and its body (a copy)
    names the class instead."""
    function = copy.copy(method)
    function.name = method_function_name(info.name, name)
    function.decorator_list = []
    function.args = copy.copy(method.args)
    function.args.args = list(method.args.args)
    if name in info.class_methods:
        parameter = function.args.args.pop(0).arg
        rewrite = ClassParameterAsClass(parameter, info.name)
        function.body = [rewrite.visit(stmt) for stmt in copy.deepcopy(method.body)]
    elif name not in info.static_methods and function.args.args:
        first = copy.copy(function.args.args[0])
        if first.annotation is None:
            first.annotation = ast.copy_location(ast.Constant(info.name), first)
        function.args.args[0] = first
    function.kiln_class = info.name
    function.kiln_method = name
    function.kiln_method_kind = info.method_kind(name)
    return function


def names_classes(node: ast.AST, class_names) -> list:
    """The class names of `class_names` that a function's annotations or
    body name (in source order, each once)."""
    found = []
    for child in ast.walk(node):
        names = []
        if isinstance(child, ast.Name) and child.id in class_names:
            names = [child.id]
        elif isinstance(child, ast.Constant) and isinstance(child.value, str) and child.value:
            try:
                parsed = ast.parse(child.value, mode="eval")
            except SyntaxError:
                continue
            names = [n.id for n in ast.walk(parsed) if isinstance(n, ast.Name)
                     and n.id in class_names]
        for name in names:
            if name not in found:
                found.append(name)
    return found


def drop_class(context, name: str, diagnostic: Diagnostic) -> list:
    """Class `name` stays Python after all (a method of it did not
    compile): it leaves `context.classes` with `diagnostic` as the reason,
    with every class whose fields name it and its whole hierarchy
    (staying_python_with). The names of the classes dropped."""
    analysis = context.class_analysis()
    if name not in analysis.classes:
        return []
    nodes = [info.node for info in analysis.classes.values()]
    del analysis.classes[name]
    analysis.fallbacks[name] = diagnostic
    dropped = [name]
    changed = True
    while changed:
        changed = False
        for other, info in list(analysis.classes.items()):
            why = staying_python_with(context, info, analysis.classes, analysis.fallbacks, nodes)
            if why is not None:
                del analysis.classes[other]
                analysis.fallbacks[other] = why
                dropped.append(other)
                changed = True
                break
    return dropped


def method_failure(name: str, error: KilnCompileError) -> Diagnostic:
    """Why a class stays Python when its method `name` (a method's function
    name) does not compile: the method's first diagnostic, said of the
    class."""
    class_name, method = split_method_name(name)
    first = error.diagnostics[0]
    return Diagnostic(first.file, first.line, first.column,
                      f"class `{class_name}` stays Python: its method `{method}` does not "
                      f"compile: {first.message}", class_name)
