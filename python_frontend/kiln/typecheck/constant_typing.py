"""Type inference of module constants read by compiled code (which names
qualify, and their values, is frontend/constants.py's): a number is a
Python literal (weak under NEP 50), a tuple of numbers a tuple of such
literals, a list or dict of numbers a list or dict whose item (key, value)
types join as a literal's do (`[1, 2.5]` is a list[float]). Each function
that reads a constant list or dict gets its own copy when it is called
(mlir/constant_lowering.py builds it): the module never changes it (or it
would not be a constant), and compiled code only reads it, so the copy
reads as CPython's module object does. A mixin of
type_inference.FunctionTyping."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .. import typing_rules as rules
from ..frontend.constants import int_out_of_range
from .typed_values import TypedValue
from .list_typing import join_items

READ_ONLY = "module lists and dicts are read-only in compiled code (a copy taken when the " \
            "function is called)"


def constant_type(value):
    """The list or dict type of a module constant list or dict."""
    if isinstance(value, dict):
        return kt.DictType(item_type(value.keys()), item_type(value.values()))
    return kt.ListType(item_type(value))


def item_type(values) -> kt.ScalarType:
    """The item type of a list (or a dict's keys or values) of these
    numbers: they join as a literal's items do."""
    item = None
    for value in values:
        item = join_items(item, kt.string if isinstance(value, str) else
                          rules.default_for_kind(rules.literal_kind(value)))
    return item


class ConstantTyping:
    def module_constant(self, name, node) -> TypedValue:
        """The value of module constant `name`, read at `node` (a list or
        dict the module may change: refused, saying where)."""
        if name in self.context.constant_refusals:
            value, _ = self.context.constant_refusals[name]
            message = self.changed_constant(name, node)
            if message:
                self.fail(node, message)
        else:
            value = self.module.constants[name]
        if int_out_of_range(value):
            self.fail(node, f"module constant `{name}` does not fit in 64 bits" if
                      isinstance(value, int) else f"module constant `{name}` holds an int "
                                                  "that does not fit in 64 bits")
        if isinstance(value, str):
            return TypedValue(kt.string)        # a literal: never freed
        if isinstance(value, tuple):
            return self.tuple_value([self.constant_number(v) for v in value])
        if isinstance(value, list):
            self.constant_containers.add(name)
            self.raises = True          # the copy: kiln.list.new (MemoryError)
            return TypedValue(constant_type(value))
        if isinstance(value, dict):
            self.constant_containers.add(name)
            self.raises = True          # the copy: kiln.dict.new (MemoryError)
            return TypedValue(constant_type(value))
        return self.constant_number(value)

    def constant_named(self, node):
        """The value of the module constant `node` names (a Name that is no
        local variable here), else None."""
        if not isinstance(node, ast.Name) or node.id in self.symbols or \
                node.id in self.var_types:
            return None
        if node.id in self.context.constant_refusals:
            return self.context.constant_refusals[node.id][0]
        return self.module.constants.get(node.id)

    def constant_number(self, value) -> TypedValue:
        kind = rules.literal_kind(value)
        return self.literal(value, rules.default_for_kind(kind), weak=kind)

    def changed_constant(self, name, node) -> str | None:
        """Why module list or dict `name` (read at `node`) is not a constant:
        the uses that may change it, in the user's terms; None when the only
        such uses are in this function, where the one at `node` is reported
        (a read elsewhere in it then reads the constant)."""
        _, changes = self.context.constant_refusals[name]
        inside = {id(n) for n in ast.walk(self.func)}
        here = [what for use, what in changes if use is node]
        if here:
            copy = "dict" if isinstance(self.context.constant_refusals[name][0], dict) else "list"
            return f"module constant `{name}` is changed or handed on here ({here[0]}): " \
                   f"{READ_ONLY}; read it, or take a copy (`{copy}({name})`)"
        outside = [(use, what) for use, what in changes if id(use) not in inside]
        if not outside:
            return None
        use, what = outside[0]
        return f"global variable `{name}` is not supported: compiled code reads module lists " \
               f"and dicts as constants taken at compile time, and line {use.lineno} may " \
               f"change this one ({what})"
