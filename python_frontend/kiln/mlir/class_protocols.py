"""Lowering of the container protocols of instances (typed by
typecheck/class_protocols.py): `len(o)`, `o[k]`, `o[k] = v` and `x in o`
are calls of the class's compiled `__len__`, `__getitem__`,
`__setitem__` and `__contains__` on the evaluated operands, dispatched
to compiled subclasses' overrides as method calls are
(class_lowering.dispatch). A None receiver raises CPython's TypeError
before the call. A mixin of code_generator.FunctionCodeGenerator.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..frontend.classes import method_function_name, overriding_subclasses
from ..typecheck.class_protocols import protocol_error
from ..typecheck.class_typing import is_instance, is_none_type
from .values import Value


class ClassProtocolLowering:
    def is_instance_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and (is_instance(typed.type) or is_none_type(typed.type))

    def protocol_call(self, method: str, values: list, value_nodes: list, node) -> Value:
        """`method` of `values[0]`'s class called with `values` (the
        receiver first); the operands stay the caller's, and are released
        here when they are temporaries."""
        receiver = values[0]
        info = self.class_info(receiver.type)
        present = self.negate(self.is_none(receiver, node), node)
        self.check(present, "TypeError", protocol_error(method, "NoneType"), [], node)
        name = method_function_name(info.defining(method).name, method)
        overriders = overriding_subclasses(self.context.classes, info.name, method)
        if overriders:
            result = self.dispatch(name, overriders, values, value_nodes, node)
        else:
            result = self.call_with_values(name, self.typed.callees[name], values, node,
                                           value_nodes, release_arguments=False)
        self.done_with(node, *values)
        return result

    def instance_len(self, value: Value, node) -> Value:
        """len(o): `__len__`, ValueError when it is negative (as CPython)."""
        length = self.protocol_call("__len__", [value], [node.args[0]], node)
        zero = self.constant(0, kt.i64, node)
        self.check(self.cmpi("sge", length, zero, node), "ValueError",
                   "__len__() should return >= 0", [], node)
        return Value(length.ir, kt.i64, nonneg=True)

    def instance_subscript(self, node: ast.Subscript) -> Value:
        """`o[k]`: o, then k, then `__getitem__(o, k)`."""
        base = self.expression(node.value)
        key = self.expression(node.slice)
        return self.protocol_call("__getitem__", [base, key], [node.value, node.slice], node)

    def instance_store(self, target: ast.Subscript, value: Value, node) -> None:
        """`o[k] = v` (v already evaluated): `__setitem__(o, k, v)`."""
        base = self.expression(target.value)
        key = self.expression(target.slice)
        self.protocol_call("__setitem__", [base, key, value], [target.value, target.slice, node],
                           node)

    def instance_contains(self, node, left: Value, right: Value) -> Value:
        """`x in o`: the truth of `__contains__(o, x)`; negated for `not in`."""
        answer = self.protocol_call("__contains__", [right, left],
                                    [node.comparators[0], node.left], node)
        result = answer if answer.type == kt.boolean else self.truthy(answer, node)
        return self.negate(result, node) if isinstance(node.ops[0], ast.NotIn) else result
