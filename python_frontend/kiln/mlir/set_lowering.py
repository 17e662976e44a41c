"""Lowering of Python sets (typed by typecheck/set_typing.py) to the kiln
dialect's set ops (`kiln.set.*`; their semantics are in
lib/Dialect/KilnOps.td). A mixin of code_generator.FunctionCodeGenerator.

A set is a dict without values: walking one (for loops, comprehensions,
sorted, list, sum, min, max, any, all, truthiness, len) is dict_lowering's
walk of a dict's keys, whose ops (`len`, `used`, `live_at`, `key_at`) are
built as set ops for a set (DictLowering.dict_op), with CPython's
"Set changed size during iteration". The rest is here: literals,
comprehensions, `set(...)`, the methods, the operators (`kiln.set.combine`,
a new set; `kiln.set.update`, in place) and the comparisons.

Another iterable a method takes (a list, a dict, range(...)) becomes a
temporary set of the receiver's element type first, released after the
op. The reference counting (owned and borrowed values, `kiln.retain`,
`kiln.release`) is ownership.py's, shared with lists and dicts.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value
from ..typecheck.set_typing import COMBINING, SET_OPERATORS, UPDATING
from ..typecheck.typed_tree import is_set

# The set ops that can raise: KeyError (remove, pop), MemoryError (every op
# that allocates: a new set, a copy, a combination, an add or update, and
# every lookup, which may build the table). len, used, live_at, key_at and
# clear cannot.
RAISING_SET_OPS = frozenset(["new", "contains", "add", "discard", "remove", "pop", "copy",
                             "combine", "update", "subset", "equal", "disjoint"])
# The `kind` of kiln.set.combine and kiln.set.update: the dialect's
# SetOperation, numbered as runtime/kiln_abi.h's KILN_SET_OPERATIONS
# (kiln-opt prints them back as `kiln.set.combine union ...`: test_sets.py).
SET_OPERATION_KINDS = {"union": 0, "intersection": 1, "difference": 2,
                       "symmetric_difference": 3}


class SetLowering:
    # -------------------------------------------------------- set ops
    def set_op(self, mnemonic, operands, node, result_type=None, operation=None):
        """One `kiln.set.<mnemonic>` op (`operation`: combine's and
        update's union, intersection, ...); its result as a Value of
        `result_type` (a Kiln type) when it has one."""
        attributes = {"kind": ir.integer_attr(SET_OPERATION_KINDS[operation], ir.i32)} \
            if operation else None
        return self.container_op(f"kiln.set.{mnemonic}", mnemonic in RAISING_SET_OPS, operands,
                                 node, result_type, attributes)

    def new_set(self, set_type, capacity: Value, node) -> Value:
        made = self.set_op("new", [capacity], node, set_type)
        made.owned = True
        return made

    def empty_set(self, set_type, node) -> Value:
        return self.new_set(set_type, self.constant(0, kt.i64, node), node)

    def owned_result(self, mnemonic, operands, node, set_type, operation=None) -> Value:
        """A new set (a copy, a combination): one reference, owned here."""
        made = self.set_op(mnemonic, operands, node, set_type, operation)
        made.owned = True
        return made

    def is_set_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and is_set(typed.type)

    def set_add(self, made: Value, value: Value, node) -> None:
        """The set takes a reference of its own to a str: a temporary's is
        released after."""
        element = self.convert(value, made.type.key, node)
        self.set_op("add", [made, element], node)
        self.done_with(node, element)

    def element_of(self, container: Value, value: Value, node) -> Value:
        return self.convert(value, container.type.key, node)

    # ------------------------------------------------------ expressions
    def expr_Set(self, node):
        """`{a, b, c}`: the elements evaluated left to right, then added in
        that order (the first of equal ones stays, as in CPython)."""
        set_type = self.typed_value(node).type
        elements = [self.convert(self.expression(e), set_type.key, e) for e in node.elts]
        made = self.new_set(set_type, self.constant(len(elements), kt.i64, node), node)
        for element in elements:
            self.set_op("add", [made, element], node)
            self.done_with(node, element)
        return made

    def expr_SetComp(self, node):
        """Nested loops adding to a new set; the names are the
        comprehension's."""
        set_type = self.typed_value(node).type
        return self.comprehension(node, lambda hint: self.new_set(set_type, hint, node),
                                  lambda made: self.set_add(made, self.expression(node.elt),
                                                            node.elt))

    def set_builtin(self, node) -> Value:
        """`set()`, `set(s)` (a copy), `set(xs)`, `set(d)`, `set(range(n))`."""
        set_type = self.typed_value(node).type
        if not node.args:
            return self.empty_set(set_type, node)
        if self.is_set_valued(node.args[0]):
            source = self.expression(node.args[0])
            made = self.owned_result("copy", [source], node, set_type)
            self.done_with(node, source)
            return made
        return self.set_of_items(node.args[0], set_type, node)

    def set_of_items(self, iterable_node, set_type, node) -> Value:
        """A new set of `set_type` holding the items of a list, a dict (its
        keys, a view's values) or range(...), in their order, converted."""
        made = {}

        def start(length):
            made["set"] = self.new_set(set_type, length, node)

        # `{v for v in iterable}`, its name spelled with `$` (no source can),
        # bound in the loop's scope only.
        generator = ast.comprehension(target=ast.Name(id="$item", ctx=ast.Store()),
                                      iter=iterable_node, ifs=[], is_async=0)
        self.iterate(generator, lambda: self.set_add(made["set"], self.symbols["$item"], node),
                     node, start)
        return made["set"]

    def other_set(self, other_node, set_type, node) -> Value:
        """The other operand of a method: a set as it is, anything else as
        a new temporary set of `set_type` (owned: released after use)."""
        if self.is_set_valued(other_node):
            return self.expression(other_node)
        return self.set_of_items(other_node, set_type, node)

    # ------------------------------------------------------------ calls
    def set_method(self, func: ast.Attribute, node) -> Value:
        name = func.attr
        container = self.expression(func.value)
        result = Value(None, None)
        if name in ("add", "discard", "remove"):
            element = self.element_of(container, self.expression(node.args[0]), node.args[0])
            self.set_op(name, [container, element], node,
                        kt.boolean if name == "discard" else None)
            self.done_with(node, element)
        elif name == "pop":
            result = self.set_op("pop", [container], node, container.type.key)
            result.owned = True         # a str element: the set's reference moves out
        elif name == "clear":
            self.set_op("clear", [container], node)
        elif name == "copy":
            result = self.owned_result("copy", [container], node, container.type)
        elif name in COMBINING:
            result = self.combined(container, node.args, name, node)
        elif name in UPDATING:
            # Every argument is evaluated before the method runs, as in
            # CPython (`s.update({n}, {len(s)})` reads len(s) before adding n).
            others = [self.other_set(argument, container.type, node) for argument in node.args]
            for other in others:
                self.set_op("update", [container, other], node, operation=UPDATING[name])
            for other in others:
                self.done_with(node, other)
        else:
            result = self.set_predicate(name, container, self.other_set(
                node.args[0], container.type, node), node)
        self.done_with(node, container)
        return result

    def combined(self, container: Value, arguments, operation, node) -> Value:
        """`s.union(t, u, ...)`: a new set, one combination per argument
        (a copy of s without any)."""
        set_type = self.typed_value(node).type
        if not arguments:
            return self.owned_result("copy", [container], node, set_type)
        result = container
        for argument in arguments:
            other = self.other_set(argument, set_type, node)
            combined = self.owned_result("combine", [result, other], node, set_type, operation)
            if result is not container:
                self.done_with(node, result)
            self.done_with(node, other)
            result = combined
        return result

    def set_predicate(self, name, container: Value, other: Value, node) -> Value:
        """issubset, issuperset, isdisjoint (`other` released after)."""
        operands = [other, container] if name == "issuperset" else [container, other]
        mnemonic = {"issubset": "subset", "issuperset": "subset",
                    "isdisjoint": "disjoint"}[name]
        result = self.set_op(mnemonic, operands, node, kt.boolean)
        self.done_with(node, other)
        return result

    # -------------------------------------------------------- operators
    def set_binary(self, node, left: Value, right: Value) -> Value:
        """`s | t`, `s & t`, `s - t`, `s ^ t`: a new set."""
        result = self.owned_result("combine", [left, right], node,
                                   self.typed_value(node).type,
                                   SET_OPERATORS[type(node.op)])
        self.done_with(node, left, right)
        return result

    def augmented_set(self, stmt) -> None:
        """`s |= t` (`&=`, `-=`, `^=`): s changed in place, as every name
        of it sees; t may be s itself."""
        current = self.load_name(stmt.target)
        value = self.expression(stmt.value)
        self.set_op("update", [current, value], stmt, operation=SET_OPERATORS[type(stmt.op)])
        self.done_with(stmt, value)

    def set_compare(self, node, left: Value, right: Value) -> Value:
        """`x in s`, `x not in s`, `s == t`, `s != t`, `s <= t` (subset),
        `s < t` (and smaller), `s >= t`, `s > t`."""
        op = node.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            result = self.set_op("contains", [right, self.element_of(right, left, node)], node,
                                 kt.boolean)
            if isinstance(op, ast.NotIn):
                result = self.negate(result, node)
        elif isinstance(op, (ast.Eq, ast.NotEq)):
            result = self.set_op("equal", [left, right], node, kt.boolean)
            if isinstance(op, ast.NotEq):
                result = self.negate(result, node)
        else:
            smaller, larger = (left, right) if isinstance(op, (ast.Lt, ast.LtE)) else \
                (right, left)
            result = self.set_op("subset", [smaller, larger], node, kt.boolean)
            if isinstance(op, (ast.Lt, ast.Gt)):
                proper = self.cmpi("slt", self.dict_length(smaller, node),
                                   self.dict_length(larger, node), node)
                result = self.arith("andi", result, proper, node)
        self.done_with(node, left, right)
        return result
