"""Typing of the container protocols of instances of the module's compiled
classes: `len(o)` (`__len__`), `o[k]` (`__getitem__`), `o[k] = v`
(`__setitem__`) and `x in o` (`__contains__`). Each is a call of the
class's compiled method (dispatched to the overrides of compiled
subclasses, as `o.m()` is); a class without the method is an error
saying what CPython would raise. A mixin of type_inference.FunctionTyping
(beside class_typing.ClassTyping, whose helpers it uses).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..frontend.classes import method_function_name, subclasses_of
from ..typing_rules import display
from .class_typing import is_instance_like, is_none_type
from .typed_values import TypedValue, _Abandon

# CPython's TypeError for an object whose class lacks the method.
MISSING_PROTOCOL = {"__len__": "object of type '{}' has no len()",
                    "__getitem__": "'{}' object is not subscriptable",
                    "__setitem__": "'{}' object does not support item assignment",
                    "__contains__": "argument of type '{}' is not iterable"}


def protocol_error(method: str, class_name: str) -> str:
    """CPython's message for `method` missing on an object of `class_name`
    (`'NoneType' object is not subscriptable` for None)."""
    return MISSING_PROTOCOL[method].format(class_name)


class ClassProtocolTyping:
    def is_instance_expression(self, node) -> bool:
        """Whether `node` is an instance (or None) known before typing it,
        so that a subscript or store of it is the protocol's: a name bound
        to one, an instance field of such a name, a constructor call."""
        if isinstance(node, ast.Name):
            bound = self.symbols.get(node.id) or self.var_types.get(node.id)
            return bound is not None and is_instance_like(bound.type)
        if isinstance(node, ast.Attribute):
            found = self.known_field_type(node)
            return found is not None and is_instance_like(found)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id in self.context.classes and node.func.id not in self.symbols
        return False

    def protocol_call(self, receiver: TypedValue, method: str, operands: list, node):
        """The typed call of protocol method `method` on `receiver` with the
        typed `operands` (converted to its parameters): its callee's
        signature."""
        if self.provisional_none(receiver):
            raise _Abandon()
        if is_none_type(receiver.type):
            self.fail(node, f"{protocol_error(method, 'NoneType')} (CPython raises TypeError)")
        info = self.class_info(receiver.type)
        if info.defining(method) is None:
            defining = [c.name for c in subclasses_of(self.context.classes, info.name)
                        if method in c.methods]
            also = f"; its subclasses {', '.join(defining)} define `{method}`, which a value " \
                   f"typed `{info.name}` does not reach yet" if defining else ""
            self.fail(node, f"{protocol_error(method, info.name)}: `{info.name}` defines no "
                            f"`{method}` (CPython raises TypeError){also}")
        name = method_function_name(info.defining(method).name, method)
        callee = self.module_signature_for(name, node)
        if len(callee.params) != 1 + len(operands):
            self.fail(node, f"`{info.name}.{method}` takes {len(callee.params)} parameters; "
                            f"`{ast.unparse(node)}` passes {1 + len(operands)} (self included)")
        self.convert(receiver, callee.params[0].type, node)
        for operand, param in zip(operands, callee.params[1:]):
            self.convert(operand, param.type, node)
        self.raises = True          # None: TypeError; the method's own errors
        self.check_overrides(info, method, node)
        return callee

    def instance_len(self, value: TypedValue, node) -> TypedValue:
        """len(o): `__len__`, an int (ValueError when negative)."""
        callee = self.protocol_call(value, "__len__", [], node)
        if callee.return_type != kt.i64:
            self.fail(node, f"len() calls `{value.type.class_name}.__len__`, which must return "
                            f"an int, not {display(callee.return_type)}")
        return TypedValue(kt.i64)

    def instance_subscript(self, node: ast.Subscript) -> TypedValue:
        """`o[k]`: `__getitem__(o, k)`."""
        if isinstance(node.slice, ast.Slice):
            self.fail(node, f"`{ast.unparse(node)}`: a slice of an instance passes a slice "
                            "object to `__getitem__`, which compiled code does not make")
        base = self.expression(node.value)
        key = self.expression(node.slice)
        self.absorb(base, key)
        callee = self.protocol_call(base, "__getitem__", [key], node)
        if callee.return_type is None:
            self.fail(node, f"`{ast.unparse(node)}`: `__getitem__` returns None")
        return TypedValue(callee.return_type)

    def instance_store(self, target: ast.Subscript, value: TypedValue, node) -> None:
        """`o[k] = v`: `__setitem__(o, k, v)` (v evaluated first, as in
        Python)."""
        if isinstance(target.slice, ast.Slice):
            self.fail(target, f"`{ast.unparse(target)} = ...`: a slice of an instance passes a "
                              "slice object to `__setitem__`, which compiled code does not make")
        base = self.expression(target.value)
        key = self.expression(target.slice)
        self.absorb(base, key, value)
        self.protocol_call(base, "__setitem__", [key, value], node)

    def instance_contains(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`x in o`, `x not in o`: the truth of `__contains__(o, x)`."""
        callee = self.protocol_call(right, "__contains__", [left], node)
        if callee.return_type not in (kt.boolean, kt.i64, kt.f64):
            self.fail(node, f"`in` calls `{right.type.class_name}.__contains__`, which returns "
                            f"{display(callee.return_type)}: compiled code tests a bool, int or "
                            "float result")
        return TypedValue(kt.boolean)

    def refuse_instance_augmented_store(self, target: ast.Subscript) -> None:
        self.fail(target, f"`{ast.unparse(target)} op= ...` of an instance is not compiled yet; "
                          f"write `{ast.unparse(target)} = {ast.unparse(target)} op ...`")
