"""Exported classes in generated programs (docs/language.md, "Classes"): the
class constructs of `generator.FunctionGenerator`, and the classes
themselves.

Old seeds keep their programs: whether a program has classes is drawn from
its own stream (`random.Random(f"{seed}:{index}:classes")`, `--class-rate`,
30 % by default), and so is everything below (`class_stream`: `self.rng` is
swapped for it, fresh names count from 8000, statements do not count
against `max_statements`).

A program with classes defines one or two at module level (`ClassShape`,
`class_source`): a plain class with annotated fields and an `__init__`, or
a `@dataclass` (sometimes `order=True`) with field defaults; fields of
int, float and bool, and sometimes a link to an instance of the class
itself (`nxt: "C | None"`); methods that compute over the fields and their
arguments, one that changes the fields, bounded walks along the links, a
classmethod constructor (`C.make(a)`) and a property with a setter
(`twice`).
The function the program exports makes instances at the top level of its
body (positional and keyword arguments), relinks them (None, another
instance, a new one, itself: cycles included), changes fields directly and
through methods, and reads what they hold into its int and float
variables: fields, method results, `is`/`is None`, the walks, and `==`/`<`
of dataclasses without links. Reading a field through a link that may be
None raises CPython's AttributeError. The oracle runs the same classes
(their methods rewritten as functions are, oracle.py), so CPython itself
is the reference. Lists of the instances are class_list_constructs.py's,
from streams of their own.

List fields (`add_list_fields`, from a stream of their own,
`class_stream(seed, index, "listfields")`, LIST_FIELD_RATE of the plain
root classes; `--list-field-rate`): a `li: list[int]` and/or `lf:
list[float]` field and now and then `kids: "list[C]"` (instances of the
class's hierarchy), declared in the class body or annotated in `__init__`
(`self.li: list[int] = [...]`), set by `__init__` from its arguments;
methods that sum, append to (guarded), index, pop, rebind while
iterating and walk them (`li_sum`, `li_push`, `li_at`, `li_pop`,
`li_rebind`, `kids_sum`, `kids_adopt`, `kids_at`, `kids_grand`), and
module functions after the class taking the field's list as a `list[...]`
parameter (`C_li_total(o.li)`, `C_li_grow(o.li, v)`, `C_kids_total`).
list_field_constructs.py makes the statements of the exported function
that use them.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field

CLASS_PROGRAM_RATE = 0.3        # programs with classes: --class-rate
CLASS_STATEMENT_RATE = 0.4      # a class statement before a statement of a class program
CLASS_STATEMENTS = {"c_make": 2, "c_link": 1.5, "c_update": 2, "c_read": 5, "c_compare": 1}
INT_OPS = ["+", "-", "*"]
FLOAT_OPS = ["+", "-", "*"]


@dataclass
class ClassShape:
    name: str
    dataclass: bool
    order: bool
    linked: bool                       # has `nxt: "<name> | None"`
    int_methods: list = field(default_factory=list)     # (name, body expression)
    float_methods: list = field(default_factory=list)
    fields = ("a", "b", "flag")
    base: "ClassShape | None" = None   # a subclass's base class (inheritance)
    subclassed: bool = False           # another class of the program derives from it
    overrides: list = field(default_factory=list)   # a subclass's (name, kind, expression)
    # A root class's container protocols and class constants (add_protocols)
    protocols: dict = field(default_factory=dict)   # dunder -> body expression
    # A plain root class's list fields (add_list_fields): name -> "int",
    # "float" or "kids" (instances of its hierarchy), in declaration order
    list_fields: dict = field(default_factory=dict)
    list_fields_in_init: bool = False   # annotated in __init__, not the class body
    list_fields_init: dict = field(default_factory=dict)    # name -> __init__'s value

    @property
    def comparable(self) -> bool:
        """`==` of two instances is the fields' (a dataclass) and terminates
        (no link to recurse through); compiled code compares instances of a
        hierarchy by `is` only."""
        return self.dataclass and not self.linked and self.base is None and \
            not self.subclassed

    @property
    def root(self) -> "ClassShape":
        return self.base.root if self.base is not None else self

    def derives_from(self, other) -> bool:
        return self is other or (self.base is not None and self.base.derives_from(other))


def class_stream(seed, index, name):
    return random.Random(f"{seed}:{index}:classes:{name}")


def int_constant(rng):
    return str(rng.choice([0, 1, 2, 3, 7, -1, -5, 100, 2**40]))


def float_constant(rng):
    return repr(rng.choice([0.0, 0.5, -1.25, 3.0, 1e10, -0.0, 2.5]))


def make_shape(rng, name) -> ClassShape:
    shape = ClassShape(name, dataclass=rng.random() < 0.5, order=False,
                       linked=rng.random() < 0.6)
    shape.order = shape.dataclass and not shape.linked and rng.random() < 0.5
    for k in range(rng.randint(1, 2)):
        expr = f"self.a {rng.choice(INT_OPS)} x {rng.choice(INT_OPS)} {int_constant(rng)}"
        if rng.random() < 0.5:
            expr = f"({expr}) if self.flag else (x - self.a)"
        shape.int_methods.append((f"mi{k}", expr))
    for k in range(rng.randint(1, 2)):
        expr = f"self.b {rng.choice(FLOAT_OPS)} y {rng.choice(FLOAT_OPS)} {float_constant(rng)}"
        if rng.random() < 0.4:
            expr = f"{expr} + float(self.a)"
        shape.float_methods.append((f"mf{k}", expr))
    return shape


def make_subclass(rng, base: ClassShape, name) -> ClassShape:
    """A class deriving from `base` (drawn from the program's inheritance
    stream): a field `c` of its own, overrides of some of the int and float
    methods (calling the base's through super() now and then), and its own
    classmethod constructor (an inherited one would build the base)."""
    base.subclassed = True
    shape = ClassShape(name, dataclass=base.dataclass, order=False, linked=base.linked,
                       int_methods=list(base.int_methods), float_methods=list(base.float_methods),
                       base=base)
    for method, _ in base.int_methods:
        if rng.random() < 0.6:
            expr = f"self.c {rng.choice(INT_OPS)} x"
            if rng.random() < 0.5:
                expr = f"super().{method}(x) {rng.choice(INT_OPS)} {expr}"
            shape.overrides.append((method, "int", expr))
    for method, _ in base.float_methods:
        if rng.random() < 0.5:
            expr = f"y {rng.choice(FLOAT_OPS)} float(self.c)"
            if rng.random() < 0.5:
                expr = f"super().{method}(y) {rng.choice(FLOAT_OPS)} {expr}"
            shape.overrides.append((method, "float", expr))
    return shape


PROTOCOL_RATE = 0.5      # root classes with __len__/__getitem__/__contains__ and constants


def add_protocols(rng, shapes) -> None:
    """Now and then gives a root class `__len__` (negative sometimes:
    ValueError), `__getitem__` (IndexError out of 0..3), `__contains__` and
    the class constants K, KF, KS; a subclass of it may override
    `__getitem__`. Drawn from a stream of its own (`class_stream(seed,
    index, "protocols")`), so programs without them keep theirs."""
    for shape in shapes:
        if shape.base is None and rng.random() < PROTOCOL_RATE:
            shape.protocols = {
                "__len__": rng.choice(["abs(self.a) % 5", "self.a % 7 - 2", "int(self.flag)"]),
                "__getitem__": rng.choice(["self.a + x", "x * 2 - self.a % 3"]),
                "__contains__": rng.choice(["x % 3 == self.a % 3", "x > self.a"]),
                "K": int_constant(rng), "KF": float_constant(rng),
                "KS": repr(rng.choice(["", "ab", "k\u00e9y"]))}
        elif shape.base is not None and shape.root.protocols and rng.random() < 0.5:
            expr = rng.choice(["x * 3 + self.a", "super().__getitem__(x) + 1"])
            shape.overrides.append(("__getitem__", "int", expr))


LIST_FIELD_RATE = 0.6    # plain root classes with list fields: --list-field-rate


def add_list_fields(rng, shapes, rate=LIST_FIELD_RATE) -> None:
    """Gives plain root classes list fields (drawn from a stream of their
    own, so programs without them keep theirs): `li` (list[int]) and/or
    `lf` (list[float]), now and then `kids` (list of the class)."""
    for shape in shapes:
        if shape.base is not None or shape.dataclass or rng.random() >= rate:
            continue
        numbers = rng.choice([["li"], ["lf"], ["li", "lf"]])
        for name in numbers:
            shape.list_fields[name] = "int" if name == "li" else "float"
        if rng.random() < 0.5:
            shape.list_fields["kids"] = "kids"
        shape.list_fields_in_init = rng.random() < 0.3
        # how __init__ fills each (drawn here: the class text is fixed)
        shape.list_fields_init = {
            "li": rng.choice(["[a, a % 3]", "[0] * (a % 4)", "[]", "[a]"]),
            "lf": rng.choice(["[b, 0.5]", "[b] * (a % 3)", "[]", "[1.5, b, -0.0]"]),
            "kids": "[]"}


def list_field_type(shape: ClassShape, name: str) -> str:
    kind = shape.root.list_fields[name]
    return {"int": "list[int]", "float": "list[float]"}.get(kind) or \
        f"list[{shape.root.name}]"


def list_field_source(shape: ClassShape) -> tuple:
    """(class body declarations, __init__ lines, method lines) of a root
    class's list fields."""
    if not shape.list_fields:
        return [], [], []
    declarations, init, methods = [], [], []
    for name in shape.list_fields:
        annotation = list_field_type(shape, name)
        value = shape.list_fields_init[name]
        if shape.list_fields_in_init:
            init.append(f"        self.{name}: {annotation} = {value}")
        else:
            declarations.append(f'    {name}: "{annotation}"' if name == "kids"
                                else f"    {name}: {annotation}")
            init.append(f"        self.{name} = {value}")
    for name, kind in shape.list_fields.items():
        if kind == "kids":
            methods += [
                "", "    def kids_sum(self) -> int:", "        t = 0",
                "        for k in self.kids:", "            t += k.a % 1000", "        return t",
                "", f'    def kids_adopt(self, other: "{shape.name}") -> int:',
                "        if len(self.kids) < 24:", "            self.kids.append(other)",
                "        return len(self.kids)",
                "", "    def kids_at(self, i: int) -> int:", "        return self.kids[i].a",
                "", "    def kids_grand(self) -> int:", "        n = len(self.kids)",
                "        for k in self.kids:", "            n += len(k.kids)",
                "        return n"]
            continue
        t, zero = ("int", "0") if kind == "int" else ("float", "0.0")
        methods += [
            "", f"    def {name}_sum(self) -> {t}:", f"        t = {zero}",
            f"        for v in self.{name}:", "            t += v", "        return t",
            "", f"    def {name}_push(self, x: {t}) -> int:",
            f"        if len(self.{name}) < 24:", f"            self.{name}.append(x)",
            f"        return len(self.{name})",
            "", f"    def {name}_at(self, i: int) -> {t}:", f"        return self.{name}[i]",
            "", f"    def {name}_pop(self) -> {t}:", f"        if self.{name}:",
            f"            return self.{name}.pop()", f"        return {zero}",
            # the loop runs over the list it started with (CPython's iterator)
            "", f"    def {name}_rebind(self, x: {t}) -> int:", "        n = 0",
            f"        for v in self.{name}:", f"            self.{name} = [v, x]",
            "            n += 1", "        return n"]
    return declarations, init, methods


def list_field_functions(shape: ClassShape) -> list:
    """Module functions after the class that take its fields' lists as
    `list[...]` parameters (a field's list passed to them is shared)."""
    lines = []
    for name, kind in shape.list_fields.items():
        prefix = f"{shape.name}_{name}"
        if kind == "kids":
            lines += ["", "", f"def {prefix}_total(ks: list[{shape.name}]) -> int:",
                      "    t = 0", "    for k in ks:", "        t += k.a % 1000 + len(k.kids)",
                      "    return t"]
            continue
        t = "int" if kind == "int" else "float"
        lines += ["", "", f"def {prefix}_total(xs: list[{t}]) -> {t}:",
                  f"    t = {'0' if t == 'int' else '0.0'}", "    for x in xs:",
                  "        t += x", "    return t",
                  "", "", f"def {prefix}_grow(xs: list[{t}], v: {t}) -> int:",
                  "    if len(xs) < 24:", "        xs.append(v)", "    if xs:",
                  "        xs[0] = v", "    return len(xs)"]
    return lines


def protocol_source(shape: ClassShape) -> list:
    """The class body lines of `shape.protocols` (a root class's)."""
    if not shape.protocols:
        return []
    found = shape.protocols
    return [f"    K = {found['K']}", f"    KF = {found['KF']}", f"    KS = {found['KS']}",
            "", "    def __len__(self) -> int:", f"        return {found['__len__']}",
            "", "    def __getitem__(self, x: int) -> int:", "        if x < 0 or x > 3:",
            "            raise IndexError(\"index out of range\")",
            f"        return {found['__getitem__']}",
            "", "    def __contains__(self, x: int) -> bool:",
            f"        return {found['__contains__']}", ""]


def protocol_expressions(rng, name, shape) -> list:
    """int expressions over instance `name` through the protocols."""
    root = shape.root
    if not root.protocols:
        return []
    i = rng.choice([-1, 0, 1, 3, 4])
    return [f"len({name})", f"int(bool({name}))", f"{name}[{i}]", f"int({i} in {name})",
            f"int({i} not in {name})", f"{name}.K", f"{root.name}.K + len({name}.KS)",
            f"int({name}.KF > 0.0)"]


def subclass_source(shape: ClassShape) -> str:
    n, base = shape.name, shape.base.name
    own = "c" if shape.base.base is None else "d"     # a field of its own (a base's is not
    lines = ["@kiln.export"] + (["@dataclass"] if shape.dataclass else []) + \
        [f"class {n}({base}):"]                      # redeclared)
    if shape.dataclass:
        lines.append(f"    {own}: int = 3")
    else:
        lines += [f"    {own}: int", "",
                  "    def __init__(self, a: int, b: float, flag: bool = False):",
                  "        super().__init__(a, b, flag)", f"        self.{own} = a % 7 + 1"]
    for method, kind, expr in shape.overrides:
        parameter = "x: int" if kind == "int" else "y: float"
        lines += ["", f"    def {method}(self, {parameter}) -> {kind}:", f"        return {expr}"]
    args = "a, 0.5, False" if not shape.dataclass else "a"
    lines += ["", "    @classmethod", f"    def make(cls, a: int) -> \"{n}\":",
              f"        return cls({args})"]
    return "\n".join(lines)


def class_source(shape: ClassShape) -> str:
    if shape.base is not None:
        return subclass_source(shape)
    n = shape.name
    list_methods = []
    lines = ["@kiln.export"]
    if shape.dataclass:
        lines.append("@dataclass(order=True)" if shape.order else "@dataclass")
    lines.append(f"class {n}:")
    if shape.dataclass:
        lines += ["    a: int", "    b: float = 0.5", "    flag: bool = False"]
        if shape.linked:
            lines.append(f'    nxt: "{n} | None" = None')
        lines += ([""] + protocol_source(shape)[:-1]) if shape.protocols else []
    else:
        declarations, init, list_methods = list_field_source(shape)
        lines += ["    a: int", "    b: float", "    flag: bool"]
        if shape.linked:
            lines.append(f'    nxt: "{n} | None"')
        lines += declarations
        lines += ([""] + protocol_source(shape)[:-1] if shape.protocols else []) + \
            ["", "    def __init__(self, a: int, b: float, flag: bool = False):",
                  "        self.a = a", "        self.b = b", "        self.flag = flag"]
        if shape.linked:
            lines.append("        self.nxt = None")
        lines += init
    for name, expr in shape.int_methods:
        lines += ["", f"    def {name}(self, x: int) -> int:", f"        return {expr}"]
    for name, expr in shape.float_methods:
        lines += ["", f"    def {name}(self, y: float) -> float:", f"        return {expr}"]
    # A classmethod constructor and a property with a setter (the setter
    # keeps `a` as the property's half, rounding toward minus infinity).
    args = "a, 0.5, False" if not shape.dataclass else "a"
    lines += ["", "    @classmethod", f"    def make(cls, a: int) -> \"{n}\":",
              f"        return cls({args})",
              "", "    @property", "    def twice(self) -> int:", "        return self.a * 2",
              "", "    @twice.setter", "    def twice(self, value: int) -> None:",
              "        self.a = value // 2"]
    lines += ["", "    def bump(self, x: int) -> None:", "        self.a = self.a + x",
              "        self.b = self.b * 0.5 + 1.0", "        self.flag = not self.flag"]
    if shape.linked:
        lines += ["", "    def chain_length(self) -> int:", "        n = 0",
                  f'        cur: "{n} | None" = self',
                  "        while cur is not None and n < 40:", "            n += 1",
                  "            cur = cur.nxt", "        return n",
                  "", "    def chain_sum(self) -> int:", "        total = 0", "        n = 0",
                  f'        cur: "{n} | None" = self',
                  "        while cur is not None and n < 40:",
                  "            total += cur.a % 1000", "            n += 1",
                  "            cur = cur.nxt", "        return total",
                  # the truth of an Optional instance, and a tuple holding one
                  "", "    def chain_truthy(self) -> int:", "        n = 0",
                  f'        cur: "{n} | None" = self',
                  "        while cur and n < 40:", "            n += 1",
                  "            cur = cur.nxt", "        return n",
                  "", f'    def split(self) -> "tuple[int, {n} | None]":',
                  "        return self.a, self.nxt"]
    if shape.list_fields:
        lines += list_methods + list_field_functions(shape)
    return "\n".join(lines)


class ClassConstructs:
    """Mixed into FunctionGenerator. `self.crng` is None in a program
    without classes; `self.class_shapes` are the program's classes."""

    def init_classes(self, crng=None, shapes=()):
        self.crng = crng
        self.class_shapes = list(shapes)
        self.instances = []            # (name, shape), made at the top level
        self.ccounter = 0
        self.in_class_stream = False

    @contextlib.contextmanager
    def class_stream(self):
        """Draw from the class stream; the statements made do not count."""
        saved = (self.rng, self.statements, self.in_class_stream)
        self.rng, self.in_class_stream = self.crng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_class_stream = saved

    def class_hook(self, depth):
        """Before a statement of a class program: now and then a class
        statement."""
        if self.crng is None or self.in_class_stream or self.in_str_stream or \
                self.in_list_stream or self.in_dict_stream or self.in_tail_stream:
            return
        if self.crng.random() >= CLASS_STATEMENT_RATE:
            return
        with self.class_stream():
            for _ in range(10):
                choice = self.rng.choices(list(CLASS_STATEMENTS),
                                          list(CLASS_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    # ------------------------------------------------------------ helpers
    def class_name_fresh(self):
        self.ccounter += 1
        return f"o{8000 + self.ccounter}"

    def construct(self, shape):
        a, b = self.number("i64"), self.number("f64")
        flag = self.expr("bool", 2)
        form = self.rng.random()
        if form < 0.15:
            return f"{shape.name}.make({a})"                  # a classmethod
        if shape.dataclass and form < 0.3:
            return f"{shape.name}({a})"                       # the defaults
        if form < 0.6:
            return f"{shape.name}({a}, {b}, {flag})"
        return f"{shape.name}(b={b}, a={a}, flag={flag})"

    def instance(self, linked=None):
        pool = [(n, s) for n, s in self.instances if linked is None or s.linked == linked]
        return self.rng.choice(pool) if pool else None

    # --------------------------------------------------------- statements
    def s_c_make(self, depth):
        if depth or self.loop_depth or not self.class_shapes:
            return False              # bound once, at the top level: always bound after
        shape = self.rng.choice(self.class_shapes)
        name = self.class_name_fresh()
        subclasses = [s for s in self.class_shapes if s.base is not None and s.derives_from(shape)]
        if subclasses and self.rng.random() < 0.6:
            # typed as the base, holding a subclass's instance: calls dispatch
            made = self.rng.choice(subclasses)
            self.emit(depth, f"{name}: \"{shape.name}\" = {self.construct(made)}")
        else:
            self.emit(depth, f"{name} = {self.construct(shape)}")
        self.instances.append((name, shape))

    def s_c_link(self, depth):
        chosen = self.instance(linked=True)
        if chosen is None:
            return False
        name, shape = chosen
        others = [n for n, s in self.instances if s.derives_from(shape)]
        roll = self.rng.random()
        if roll < 0.2:
            value = "None"
        elif roll < 0.4:
            value = self.construct(shape)
        elif roll < 0.55:
            value = f"{name}.nxt"
        else:
            value = self.rng.choice(others)       # itself too: a cycle
        self.emit(depth, f"{name}.nxt = {value}")

    def s_c_update(self, depth):
        chosen = self.instance()
        if chosen is None:
            return False
        name, shape = chosen
        roll = self.rng.random()
        if roll < 0.25:
            self.emit(depth, f"{name}.a = {self.number('i64')}")
        elif roll < 0.45:
            self.emit(depth, f"{name}.b += {self.number('f64')}")
        elif roll < 0.55:
            self.emit(depth, f"{name}.flag = not {name}.flag")
        elif roll < 0.62:
            self.emit(depth, f"{name}.twice = {self.number('i64')}")   # the setter
        elif roll < 0.75 or not shape.linked:
            self.emit(depth, f"{name}.bump({self.small_int(5)})")
        else:
            # through a link that may be None: AttributeError as in CPython
            self.emit(depth, f"{name}.nxt.a = {self.number('i64')}")

    def class_int_expr(self, name, shape):
        options = [f"{name}.a", f"int({name}.flag)", f"{name}.twice",
                   f"{name}.{self.rng.choice(shape.int_methods)[0]}({self.number('i64')})"]
        if shape.linked:
            options += [f"{name}.chain_length()", f"{name}.chain_sum()",
                        f"{name}.chain_truthy()", f"{name}.split()[0]",
                        f"int({name}.split()[1] is None)",
                        f"int({name}.nxt is None)", f"int({name}.nxt is not None)",
                        f"int({name}.nxt is {name})"]
            if self.rng.random() < 0.15:
                options.append(f"{name}.nxt.a")       # AttributeError when None
        others = [n for n, s in self.instances if s.root is shape.root and n != name]
        if others:
            options.append(f"int({name} is {self.rng.choice(others)})")
        subclasses = [s for s in self.class_shapes if s.base is not None and s.derives_from(shape)]
        if subclasses:
            options.append(f"int(isinstance({name}, {self.rng.choice(subclasses).name}))")
        options += protocol_expressions(self.rng, name, shape)
        return self.rng.choice(options)

    def s_c_read(self, depth):
        chosen = self.instance()
        if chosen is None:
            return False
        name, shape = chosen
        target = self.tail_target(("i64", "f64"))
        if target is None:
            return False
        variable, kind = target
        if kind == "f64" and self.rng.random() < 0.5:
            method = self.rng.choice(shape.float_methods)[0]
            value = self.rng.choice([f"{name}.b", f"{name}.{method}({self.number('f64')})"])
        else:
            value = self.class_int_expr(name, shape)
        self.emit(depth, f"{variable} += {value}")

    def s_c_compare(self, depth):
        pairs = [(n, m) for n, s in self.instances for m, t in self.instances
                 if s is t and s.comparable]
        target = self.tail_target(("i64",))
        if not pairs or target is None:
            return False
        (a, b) = self.rng.choice(pairs)
        shape = next(s for n, s in self.instances if n == a)
        ops = ["==", "!="] + (["<", "<=", ">", ">="] if shape.order else [])
        self.emit(depth, f"{target[0]} += int({a} {self.rng.choice(ops)} {b})")
