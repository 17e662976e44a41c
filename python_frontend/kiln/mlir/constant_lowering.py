"""Lowering of module constants read by compiled code (typed by
typecheck/constant_typing.py): numbers, tuples of numbers and strings are
constants in the IR; a function that reads a module list or dict builds its own copy
when it is called, bound to the constant's name for the whole call (the
ownership protocol of ownership.py releases it at every return, the
runtime's journal when the function raises). Compiled code only reads it,
and the module never changes it, so the copy reads as CPython's module
object does. A mixin of code_generator.FunctionCodeGenerator."""

from __future__ import annotations

from .values import Value, tuple_value
from ..typecheck.constant_typing import constant_type


class ConstantLowering:
    def module_constant(self, name, node) -> Value:
        """A number or a tuple of numbers, as inference typed it."""
        value = self.module.constants[name]
        typed = self.typed_value(node)
        if isinstance(value, str):
            return self.str_constant(value, node)
        if isinstance(value, tuple):
            return tuple_value([self.constant(v, e.type, node, weak=e.weak)
                                for v, e in zip(value, typed.elements)])
        return self.constant(value, typed.type, node, weak=typed.weak)

    def build_constant_containers(self) -> None:
        """The copies of the module lists and dicts the function reads."""
        node = self.func
        for name in sorted(self.typed.constant_containers):
            value = self.module.constants[name]
            container_type = constant_type(value)
            if isinstance(value, dict):
                made = self.build_dict(container_type, [
                    (self.constant_item(k, container_type.key, node),
                     self.constant_item(v, container_type.value, node))
                    for k, v in value.items()], node)
            else:
                made = self.build_list(container_type, [
                    self.constant_item(v, container_type.item, node) for v in value], node)
            self.symbols[name] = Value(made.ir, made.type)      # the name's reference

    def constant_item(self, value, type_, node) -> Value:
        """An item of a module list or dict: a number, or a str literal."""
        if isinstance(value, str):
            return self.str_constant(value, node)
        return self.constant(value, type_, node)
