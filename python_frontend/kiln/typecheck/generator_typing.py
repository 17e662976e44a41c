"""Type inference of generator expressions handed to a builtin that consumes
them (`sum(x * x for x in xs)`, `any(v > 3 for v in d.values())`,
`sorted(k for k in d if d[k] > 0)`): their `for`s and `if`s are a
comprehension's (list_typing.in_comprehension). sum(), min(), max(), any()
and all() fold the elements as they come, without a list (any() and all()
stop at the first element that decides them, as CPython's do); list(),
sorted(), dict() and set() build what the comprehension `[...]`,
`{k: v ...}` or `{...}` would (generator_node_as). tuple() of one is
refused: a Kiln tuple's length is known at compile time. any() and all()
of one other argument walk it as a generator (consumed_generator). Lowered
by mlir/generator_lowering.py. A mixin of type_inference.FunctionTyping."""

from __future__ import annotations

import ast
import copy

from .. import typesystem as kt
from .. import typing_rules as rules
from .typed_values import TypedValue, _Abandon
from ..typing_rules import display
from .typed_tree import is_scalar_type
from ..frontend.function_arguments import substituted

# The element types sum() adds as CPython does: Python's int, float and bool
# (a numpy-typed element, kiln.f32 or an int32, would add in its own dtype).
SUMMED = (kt.i64, kt.f64, kt.boolean)


def generator_node_as(node: ast.GeneratorExp, kind: str):
    """The comprehension a generator expression handed to list(), sorted()
    (`kind` "list"), set() ("set") or dict() ("dict": its element a (key,
    value) tuple) builds, made once per node and kept on it (typing and code generation
    read the same one; its parts are the generator expression's own)."""
    made = getattr(node, f"_kiln_{kind}", None)
    if made is None:
        if kind == "list":
            made = ast.ListComp(elt=node.elt, generators=node.generators)
        elif kind == "set":
            made = ast.SetComp(elt=node.elt, generators=node.generators)
        else:
            key, value = node.elt.elts
            made = ast.DictComp(key=key, value=value, generators=node.generators)
        ast.copy_location(made, node)
        setattr(node, f"_kiln_{kind}", made)
    return made


def consumed_generator(call: ast.Call):
    """The generator expression call `name(...)` consumes: its argument, or
    for `any(xs)` and `all(xs)` the generator `($v for $v in xs)` they
    walk (made once per call; `$` keeps its name from the user's); None
    when the call takes none."""
    if call.args and isinstance(call.args[0], ast.GeneratorExp):
        return call.args[0]
    if call.func.id not in ("any", "all") or len(call.args) != 1 or call.keywords:
        return None
    made = getattr(call, "_kiln_generator", None)
    if made is None:
        iterable = call.args[0]
        target = ast.copy_location(ast.Name(id="$item", ctx=ast.Store()), iterable)
        made = ast.copy_location(ast.GeneratorExp(
            elt=ast.copy_location(ast.Name(id="$item", ctx=ast.Load()), iterable),
            generators=[ast.comprehension(target=target, iter=iterable, ifs=[], is_async=0)]),
            iterable)
        call._kiln_generator = made
    return made


TUPLE_GENERATOR_USE = ("tuple() of a generator expression is supported over tuples (a tuple "
                       "variable, `x.shape`, zip() or enumerate() of them), without `if`: a "
                       "tuple's length is known at compile time in Kiln; use list(...)")


def is_pair(node) -> bool:
    return isinstance(node, ast.Tuple) and len(node.elts) == 2


class GeneratorTyping:
    def unrolled_tuple(self, node, generator) -> ast.Tuple:
        """`tuple(f(p, o) for p, o in zip(pos, offset))` over tuples of
        known lengths: the tuple `(f(pos[0], offset[0]), ...)`, made once
        per call and kept on it (code generation evaluates the same). The
        tuples are named (variables, `x.shape`), so reading them again per
        element evaluates nothing twice."""
        made = getattr(node, "_kiln_tuple", None)
        if made is not None:
            return made
        comprehension = generator.generators[0]
        if len(generator.generators) != 1 or comprehension.ifs or len(node.args) != 1 or \
                node.keywords:
            self.fail(node, TUPLE_GENERATOR_USE)
        iterable = comprehension.iter
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and \
                iterable.func.id in ("zip", "enumerate") and not iterable.keywords and \
                iterable.func.id not in self.symbols and iterable.func.id not in \
                self.module.functions:
            sources = list(iterable.args)
            if iterable.func.id == "enumerate":
                if len(sources) != 1:
                    self.fail(iterable, TUPLE_GENERATOR_USE)
                sources = [None] + sources          # the counter
            targets = comprehension.target.elts if isinstance(
                comprehension.target, ast.Tuple) else None
            if targets is None or len(targets) != len(sources):
                self.fail(comprehension.target, "unpack each element of the zip() or "
                                                "enumerate() into names: `for a, b in zip(s, t)`")
        else:
            sources, targets = [iterable], [comprehension.target]
        if not all(isinstance(t, ast.Name) for t in targets):
            self.fail(comprehension.target, TUPLE_GENERATOR_USE)
        lengths = []
        for source in sources:
            if source is None:
                continue
            if not (isinstance(source, ast.Name) or isinstance(source, ast.Attribute) and
                    source.attr == "shape"):
                self.fail(source, "tuple() of a generator expression reads its tuples by "
                                  "name: assign this one to a variable first")
            value = self.expression(source)
            self.absorb(value)
            if not isinstance(value.type, kt.TupleType):
                self.fail(source, f"tuple() of a generator expression over "
                                  f"{display(value.type)} is not supported: {TUPLE_GENERATOR_USE}")
            lengths.append(len(value.type.elements))
        elements = []
        for k in range(min(lengths)):
            values = {}
            for target, source in zip(targets, sources):
                values[target.id] = ast.Constant(k) if source is None else ast.Subscript(
                    value=copy.deepcopy(source), slice=ast.Constant(k), ctx=ast.Load())
            elements.append(substituted(generator.elt, values))
        made = ast.copy_location(ast.Tuple(elts=elements, ctx=ast.Load()), node)
        ast.fix_missing_locations(made)
        node._kiln_tuple = made
        return made

    def generator_call(self, name, node) -> TypedValue:
        """`name(<generator expression>[, start])`, `any(xs)`, `all(xs)`."""
        generator = consumed_generator(node)
        if name == "tuple":
            return self.expression(self.unrolled_tuple(node, generator))
        extra = node.args[1:]
        if len(extra) > (1 if name == "sum" else 0):
            self.fail(node, f"{name}() takes the generator expression alone here" + (
                " (and a start)" if name == "sum" else ""))
        if name in ("list", "sorted"):
            if name == "sorted":
                self.sort_order(node)
            return self.expression(generator_node_as(generator, "list"))
        if name == "set":
            return self.expression(generator_node_as(generator, "set"))
        if name == "dict":
            if not is_pair(generator.elt):
                self.fail(generator.elt, "dict() of a generator expression takes (key, value) "
                                         "pairs written as a tuple: dict((k, v) for ...)")
            return self.expression(generator_node_as(generator, "dict"))
        found = {}

        def element():
            value = self.expression(generator.elt)
            self.absorb(value)
            found["element"] = value
            if name in ("any", "all"):
                self.truthy(value, generator.elt)
            else:
                self.folded_element(name, value, generator.elt)

        self.raises = True          # a list's items, an empty min()/max(): IndexError, ValueError
        self.in_comprehension(generator, element)
        if "element" not in found:
            raise _Abandon()
        value = found["element"]
        if name in ("any", "all"):
            return TypedValue(kt.boolean, weak="bool")
        if name == "sum":
            return self.generator_sum(value, extra, node)
        return TypedValue(rules.default_for_kind(value.weak) if value.weak else value.type,
                          weak=value.weak)

    def builtin_any(self, args, node):
        return self.one_iterable("any", args, node)

    def builtin_all(self, args, node):
        return self.one_iterable("all", args, node)

    def one_iterable(self, name, args, node):
        """any() and all() of other than one argument (consumed_generator
        takes one): CPython's TypeError, at compile time."""
        self.absorb(*args)
        self.fail(node, f"{name}() takes exactly one argument ({len(args)} given)")

    def zipped_items(self, call) -> TypedValue:
        """What one step of `zip(a, b, ...)` (a tuple of their items) or
        `enumerate(a[, start])` ((the count, a's item)) binds in a
        comprehension: a, b, ... are ranges, lists or 1-D arrays."""
        if call.func.id == "enumerate":
            if len(call.args) > 2:
                self.fail(call, "enumerate() takes an iterable and a start")
            item = self.comprehension_item(call.args[0], dicts=False)
            if len(call.args) == 2:
                start = self.expression(call.args[1])
                self.absorb(start)
                if not is_scalar_type(start.type) or not (start.type.is_int or
                                                          start.type.is_bool):
                    self.fail(call.args[1], f"enumerate()'s start must be an int, not "
                                            f"{display(start.type)}")
                self.convert(start, kt.i64, call.args[1])
            return self.tuple_value([TypedValue(kt.i64), item])
        return self.tuple_value([self.comprehension_item(a, dicts=False) for a in call.args])

    def folded_element(self, name, value: TypedValue, node) -> None:
        """An element sum(), min() or max() takes: a number (sum(): of
        Python's own types; min(), max(): not complex, not ordered)."""
        if not is_scalar_type(value.type):
            self.fail(node, f"{name}() of a generator expression takes numbers, not "
                            f"{display(value.type)}")
        if value.type.is_complex:
            self.fail(node, f"{name}() of complex numbers is not supported" + (
                "" if name == "sum" else " (they are not ordered)"))
        if name == "sum" and not value.weak and value.type not in SUMMED:
            self.fail(node, f"sum() of {value.type.display} values is not supported yet (it "
                            f"adds in the values' own dtype); convert them: "
                            f"`float(...)` or `int(...)`")

    def generator_sum(self, value: TypedValue, extra, node) -> TypedValue:
        """sum()'s total (list_typing.sum_total)."""
        start = self.expression(extra[0]) if extra else None
        if start is not None:
            self.absorb(start)
        element = rules.default_for_kind(value.weak) if value.weak else value.type
        return self.sum_total(element, start, node)
