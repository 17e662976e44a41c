"""Lowering of instances of the module's compiled classes
(frontend/classes.py, typed by typecheck/class_typing.py) to the
`kiln.object.*` ops: `kiln.object.new` of the class's type slot and a call
of the compiled `__init__` for `C(...)`, `kiln.object.get`/`set` at the
field's offset for attributes, `kiln.object.none`, `is_none` and `same`
for None and `is`, and `func.call`s of the methods (self first; none for
a staticmethod or classmethod) and of property getters and setters. A mixin
of code_generator.FunctionCodeGenerator.

Ownership is the containers' (mlir/ownership.py): a new instance and a
call's instance result are owned; a name's, a parameter's and a field's
value is borrowed (a field read of an owned temporary is retained before
the temporary is released). `kiln.object.set` retains the value it stores
and releases what the field held.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from ..frontend.classes import (NO_DEFAULT, common_base, is_class_isinstance,
                                isinstance_narrowing,
                                method_function_name, overriding_subclasses, setter_method_name,
                                subclasses_of)
from ..typecheck.class_typing import (BINARY_DUNDERS, COMPARE_DUNDERS, ClassTyping,
                                      is_instance, is_none_type, is_super_call, str_method,
                                      truth_hook)
from ..typecheck.typed_tree import is_counted
from .values import Value, mlir_type


def holds_instances(type_) -> bool:
    """Whether values of `type_` are, or contain, instances of a compiled
    class (a list, dict, set or tuple of them)."""
    if isinstance(type_, (kt.ClassType, kt.NoneType)):
        return True
    if isinstance(type_, kt.ListType):
        return holds_instances(type_.item)
    if isinstance(type_, kt.SetType):
        return holds_instances(type_.key)
    if isinstance(type_, kt.DictType):
        return holds_instances(type_.key) or holds_instances(type_.value)
    if isinstance(type_, kt.TupleType):
        return any(holds_instances(t) for t in type_.elements)
    return False


def uses_instances(typed, seen=None) -> bool:
    """Whether a function or a function it calls handles instances of a
    compiled class -- in its parameters, result, variables, or the items of
    its containers: it then holds the GIL (making, freeing and counting
    references to CPython objects needs it; fuzzer S9: a parallel=True
    function making instances into a list ran without it and crashed)."""
    seen = set() if seen is None else seen
    if id(typed) in seen:
        return False
    seen.add(id(typed))
    # (`values`: every expression's, so that `Vec(x).norm()`, an instance
    # no variable holds, counts too)
    types = [p.type for p in typed.params] + [typed.return_type] + [
        v.type for v in typed.variables.values()] + [
        getattr(v, "type", None) for v in typed.values.values()]
    return any(holds_instances(t) for t in types) or any(
        uses_instances(callee, seen) for callee in typed.callees.values())


def slot_global(symbol: str) -> ir.Operation:
    """The weak global holding a class's type object pointer (NULL until
    the extension sets it at import):
    `llvm.mlir.global weak @<mod>_<Class>__kiln_type() : !llvm.ptr`."""
    location = ir.UNKNOWN_LOCATION
    body = ir.Region([ir.Block()])
    builder = ir.Builder(body.block)
    zero = builder.op("llvm.mlir.zero", (), (ir.llvm_pointer,), None, (), location).result
    builder.op("llvm.return", (zero,), (), None, (), location)
    attributes = {"sym_name": ir.string_attr(symbol),
                  "global_type": ir.type_attr(ir.llvm_pointer),
                  "linkage": ir.Attribute("#llvm.linkage<weak>"),
                  "addr_space": ir.integer_attr(0, ir.i32)}
    return ir.Operation("llvm.mlir.global", [], attributes, [body], location)


class ClassLowering:
    # ------------------------------------------------------------ helpers
    def class_info(self, type_):
        return self.context.classes[type_.class_name]

    def uses_class(self, info) -> None:
        """The module needs the class's type slot (generate_module emits it)."""
        self.used_classes.add(info.name)

    def object_op(self, name, operands, result_type, attributes, node) -> Value | None:
        results = (mlir_type(result_type),) if result_type is not None else ()
        op = self.builder.op(name, [v.ir for v in operands], results, attributes, (),
                             self.loc(node))
        return Value(op.result, result_type) if result_type is not None else None

    def none_of(self, type_, node) -> Value:
        """None as a value of instance type `type_` (a NULL reference: owned,
        releasing it does nothing)."""
        return Value(self.object_op("kiln.object.none", [], type_, None, node).ir, type_,
                     owned=True)

    def is_none(self, value: Value, node) -> Value:
        if is_none_type(value.type):
            return self.constant(True, kt.boolean, node)
        return self.object_op("kiln.object.is_none", [value], kt.boolean, None, node)

    def convert_instance(self, value: Value, target, node) -> Value:
        """An instance (or None) as `target` (typing allowed it): the same
        reference -- a subclass's instance cast to its base class --, or a
        None of the target type."""
        if is_none_type(value.type):
            return self.none_of(target, node)
        if value.type.class_name != target.class_name:
            return self.instance_cast(value, target, node)
        return Value(value.ir, target, owned=value.owned)

    def instance_cast(self, value: Value, target, node) -> Value:
        """`kiln.object.cast`: the same object (and reference) as a value of
        another class of its hierarchy."""
        target = kt.ClassType(target.class_name, value.type.optional or target.optional)
        op = self.builder.op("kiln.object.cast", [value.ir], (mlir_type(target),), None, (),
                             self.loc(node))
        return Value(op.result, target, owned=value.owned)

    def has_type(self, value: Value, info, node) -> Value:
        """`type(o) is C` (False for None)."""
        self.uses_class(info)
        return self.object_op("kiln.object.has_type", [value], kt.boolean,
                              {"slot": ir.symbol_ref(info.slot_symbol)}, node)

    def is_instance_of(self, value: Value, info, node) -> Value:
        """isinstance(o, C): o's type is C or one of its compiled subclasses
        (no other type reaches compiled code)."""
        tests = [self.has_type(value, member, node)
                 for member in [info] + subclasses_of(self.context.classes, info.name)]
        result = tests[0]
        for test in tests[1:]:
            result = self.arith("ori", result, test, node)
        return result

    # ------------------------------------------------------ construction
    def construct(self, info, node) -> Value:
        """`C(args)`: kiln.object.new (fields zero), the literal defaults of
        a plain class's annotations (a dataclass's __init__ sets its own),
        then `C.__init__(new, args)`."""
        self.uses_class(info)
        self.may_raise = True
        created = self.builder.op("kiln.object.new", (), (mlir_type(info.type),),
                                  {"slot": ir.symbol_ref(info.slot_symbol)}, (), self.loc(node))
        instance = Value(created.result, info.type, owned=True)
        if not info.dataclass:
            for class_field in info.fields:
                default = class_field.default
                if isinstance(class_field.type, kt.ScalarType) and \
                        default is not NO_DEFAULT and default != 0:
                    value = self.constant(default, class_field.type, node)
                    self.set_field(instance, class_field, value, node)
        if info.has_init:
            # The instance is passed borrowed: the call must not release it.
            self.call_function(method_function_name(info.defining("__init__").name, "__init__"),
                               node, receiver=Value(instance.ir, instance.type))
        return instance

    # -------------------------------------------------------- attributes
    def get_field(self, base: Value, class_field, node) -> Value:
        self.may_raise = True
        attributes = {"field": ir.string_attr(class_field.name),
                      "offset": ir.integer_attr(class_field.offset)}
        if is_instance(class_field.type) and class_field.type.optional:
            attributes["nullable"] = ir.UNIT
        return self.object_op("kiln.object.get", [base], class_field.type, attributes, node)

    def set_field(self, base: Value, class_field, value: Value, node) -> None:
        self.may_raise = True
        self.builder.op("kiln.object.set", [base.ir, value.ir], (),
                        {"field": ir.string_attr(class_field.name),
                         "offset": ir.integer_attr(class_field.offset)}, (), self.loc(node))

    def instance_attribute(self, base: Value, node: ast.Attribute) -> Value:
        """`o.x`: the field (borrowed from `o`), or the property's value."""
        info = self.class_info(base.type)
        class_field = info.field(node.attr)
        if class_field is None and info.constant_owner(node.attr) is not None:
            self.require_instance(base, node.attr, node)        # None.NAME raises
            self.done_with(node, base)
            return self.class_constant(info, node)
        if class_field is None:         # a property (typing checked)
            self.require_instance(base, node.attr, node)
            return self.method_call(info, node.attr, node, base, args=[], keywords=[])
        value = self.get_field(base, class_field, node)
        if (base.owned and is_counted(value.type)) or isinstance(value.type, kt.ListType):
            # Outlives the temporary it was read from; a list is held while
            # it is used (`for x in self.items:` whose body rebinds
            # `self.items`, or calls a method that does, must not free it
            # under the loop, as CPython's iterator keeps it).
            value = self.own(value, node)
        self.done_with(node, base)
        return value

    def class_constant(self, info, node: ast.Attribute) -> Value:
        """`C.NAME` / `o.NAME` of a class constant: its literal."""
        value = info.constant_owner(node.attr).constants[node.attr]
        if isinstance(value, str):
            return self.str_constant(value, node)
        typed = self.typed_value(node)
        return self.constant(value, typed.type, node, weak=typed.weak)

    def store_attribute(self, target: ast.Attribute, value: Value, node) -> None:
        """`o.x = v`: o is evaluated after v, as in Python."""
        base = self.expression(target.value)
        info = self.class_info(base.type)
        class_field = info.field(target.attr)
        if class_field is None:         # a property's setter (typing checked)
            self.call_setter(info, base, target.attr, value, node)
            return
        if is_instance(class_field.type) or is_none_type(value.type):
            stored = self.convert(value, class_field.type, node)
            if is_instance(class_field.type) and not class_field.type.optional and \
                    (is_none_type(value.type) or value.type.optional):
                present = self.negate(self.is_none(stored, node), node)
                self.check(present, "TypeError",
                           f"attribute '{target.attr}' of '{info.name}' must be "
                           f"{class_field.type.class_name}, not None", [], node)
        else:
            stored = self.convert(value, class_field.type, node)
        self.set_field(base, class_field, stored, node)
        self.done_with(node, base, value if value.owned else None)

    def call_setter(self, info, base: Value, name, value: Value, node) -> None:
        """`o.p = v` of a property: `C.p.setter(o, v)`, v converted to the
        setter's parameter (AttributeError first when o is None)."""
        self.require_instance(base, name, node)
        setter = method_function_name(info.defining(name).name, setter_method_name(name))
        result = self.call_with_values(setter, self.typed.callees[setter], [base, value], node,
                                       release_arguments=False)
        self.done_with(node, base, value if value.owned else None,
                       result if result is not None and result.owned else None)

    # ------------------------------------------------------------- calls
    def class_call(self, node) -> Value | None:
        """`C(...)`, `C.m(...)`, `o.m(...)`, isinstance(): what
        ClassTyping.class_call typed; None for any other call."""
        func = node.func
        classes = self.context.classes
        if isinstance(func, ast.Name) and func.id not in self.symbols:
            if func.id in classes:
                return self.construct(classes[func.id], node)
            if is_class_isinstance(node, classes):
                return self.isinstance_call(node)
            return None
        if not isinstance(func, ast.Attribute):
            return None
        if is_super_call(func.value):
            return self.super_call(node)
        if isinstance(func.value, ast.Name) and func.value.id in classes and \
                func.value.id not in self.symbols:
            info = classes[func.value.id]
            name = method_function_name(info.defining(func.attr).name, func.attr)
            if info.takes_no_instance(func.attr):
                return self.call_function(name, node)
            receiver = self.expression(node.args[0])
            return self.call_function(name, node, args=node.args[1:], receiver=receiver)
        base = self.expression(func.value)
        if not is_instance(base.type):
            raise self.missed(node, f"`{ast.unparse(func.value)}` is not an instance")
        info = self.class_info(base.type)
        name = method_function_name(info.defining(func.attr).name, func.attr)
        if info.takes_no_instance(func.attr):
            # Evaluated for its effects, and looked up: None has no methods.
            self.require_instance(base, func.attr, node)
            self.done_with(node, base)
            return self.call_function(name, node)
        self.require_instance(base, func.attr, node)
        return self.method_call(info, func.attr, node, base)

    def super_call(self, node) -> Value:
        """`super().m(...)`: the base class's `m`, called directly."""
        info = self.context.classes[self.func.kiln_class]
        defining = info.base.defining(node.func.attr)
        name = method_function_name(defining.name, node.func.attr)
        if defining.takes_no_instance(node.func.attr):
            return self.call_function(name, node)
        receiver = self.symbols[self.func.args.args[0].arg]
        return self.call_function(name, node, receiver=Value(receiver.ir, receiver.type))

    def method_call(self, info, method, node, receiver: Value, args=None, keywords=None):
        """`o.m(...)` with `o` typed class `info`: the method found on
        `info`, or -- when compiled subclasses override it -- the one of
        o's type, chosen by a chain of type tests (most derived first)."""
        name = method_function_name(info.defining(method).name, method)
        overriders = overriding_subclasses(self.context.classes, info.name, method)
        if not overriders:
            return self.call_function(name, node, args=args, keywords=keywords,
                                      receiver=receiver)
        signature, values, value_nodes = self.evaluated_arguments(name, node, args, keywords,
                                                                  receiver)
        result = self.dispatch(name, overriders, values, value_nodes, node)
        self.done_with(node, *values)
        return result

    def dispatch(self, name, overriders, values, value_nodes, node) -> Value:
        """The call of method function `name`, or of the override of the
        first of `overriders` ((subclass, its defining class)) whose type
        the receiver `values[0]` has; the arguments stay the caller's."""
        result_type = self.typed.callees[name].return_type
        types = [] if result_type is None else [result_type]
        receiver = Value(values[0].ir, values[0].type)
        method = name.partition(".")[2]

        def call(function, arguments):
            result = self.call_with_values(function, self.typed.callees[function], arguments,
                                           node, value_nodes, release_arguments=False)
            if result_type is None:
                self.yield_values([], node)
                return
            result = self.convert(result, result_type, node)
            self.yield_values([self.own(result, node) if is_counted(result_type) else result],
                              node)

        def tests_from(position) -> list:
            """The scf.if testing overriders[position] (its results)."""
            subclass, defining = overriders[position]
            test = self.has_type(receiver, subclass, node)
            override = method_function_name(defining.name, method)
            then_region, _ = self.region(lambda: call(
                override, [self.instance_cast(receiver, defining.type, node)] + values[1:]))
            if position + 1 < len(overriders):
                else_region, _ = self.region(lambda: self.yield_values(
                    tests_from(position + 1), node))
            else:
                else_region, _ = self.region(lambda: call(name, values))
            return self.scf_if(test, types, then_region, else_region, node)

        results = tests_from(0)
        if result_type is None:
            return Value(None, None)
        [value] = results
        value.owned = is_counted(result_type)
        return value

    def require_instance(self, base: Value, attribute, node) -> None:
        """A method of None: AttributeError, as CPython's lookup raises
        (before the arguments are evaluated)."""
        if not base.type.optional and base.constant is not None:
            return
        present = self.negate(self.is_none(base, node), node)
        self.check(present, "AttributeError",
                   f"'NoneType' object has no attribute '{attribute}'", [], node)

    def isinstance_call(self, node) -> Value:
        value = self.expression(node.args[0])
        typed = self.typed_value(node)
        if typed.constant is not None:
            self.done_with(node, value)
            return self.constant(typed.constant, kt.boolean, node)
        wanted = self.context.classes.get(node.args[1].id)
        if is_instance(value.type) and wanted is not None and wanted.name != \
                value.type.class_name and wanted.is_subclass_of(value.type.class_name):
            result = self.is_instance_of(value, wanted, node)
            self.done_with(node, value)
            return result
        result = self.negate(self.is_none(value, node), node)
        self.done_with(node, value)
        return result

    def narrowed(self, stmt, body: list, build):
        """Runs `build` (generating an `if`'s branch `body`) with the name
        that `if isinstance(x, C):` tests bound to x cast to C, as typing
        narrowed it (class_typing.narrowed); x's own value again after it."""
        found = isinstance_narrowing(stmt, body, self.context.classes)
        value = self.symbols.get(found[0]) if found is not None else None
        if value is None or not is_instance(value.type) or value.type.class_name == found[1] or \
                not self.context.classes[found[1]].is_subclass_of(value.type.class_name):
            return build()

        def narrowed_build():
            self.symbols[found[0]] = self.instance_cast(
                Value(value.ir, value.type), kt.ClassType(found[1]), stmt)
            try:
                return build()
            finally:
                self.symbols[found[0]] = value
        return narrowed_build()

    # --------------------------------------------------------- operators
    def instance_compare_node(self, node) -> Value:
        left = self.expression(node.left)
        right = self.expression(node.comparators[0])
        op = node.ops[0]
        instance_like = (kt.ClassType, kt.NoneType)
        if not (isinstance(left.type, instance_like) or isinstance(right.type, instance_like)
                or isinstance(op, (ast.Is, ast.IsNot))):
            result = self.compare(op, left, right, node)        # `o.x == 1`
            self.done_with(node, left, right)
            result.weak = self.typed_value(node).weak
            return result
        typed = self.typed_value(node)
        if typed.constant is not None:
            result = self.constant(typed.constant, kt.boolean, node)
        elif isinstance(op, (ast.Is, ast.IsNot)) or isinstance(
                left.type, kt.NoneType) or isinstance(right.type, kt.NoneType):
            result = self.identical(left, right, node)
            if isinstance(op, (ast.IsNot, ast.NotEq)):
                result = self.negate(result, node)
        else:
            result = self.rich_comparison(op, left, right, node)
        self.done_with(node, left, right)
        return result

    def identical(self, left: Value, right: Value, node) -> Value:
        """`a is b`: None tests, the same reference, or False for
        instances of two classes."""
        if is_none_type(left.type) and is_none_type(right.type):
            return self.constant(True, kt.boolean, node)
        if is_none_type(left.type):
            return self.is_none(right, node)
        if is_none_type(right.type):
            return self.is_none(left, node)
        if left.type.class_name != right.type.class_name:
            shared = common_base(self.class_info(left.type), self.class_info(right.type))
            if shared is None:
                return self.arith("andi", self.is_none(left, node), self.is_none(right, node),
                                  node)
            left, right = (self.instance_cast(Value(v.ir, v.type), shared.type, node)
                           if v.type.class_name != shared.name else v for v in (left, right))
        return self.object_op("kiln.object.same", [left, right], kt.boolean, None, node)

    def rich_comparison(self, op, left: Value, right: Value, node) -> Value:
        """`a == b` (`__eq__`, else identity), `a < b` (`__lt__` or the
        reflected `__gt__`). For `==`/`!=`, a None operand compares by
        identity (a dataclass's `__eq__` returns NotImplemented for it)."""
        info = self.class_info(left.type)
        dunder = COMPARE_DUNDERS[type(op)]
        method, receiver, _ = ClassTyping.comparison_method(info, dunder)
        if method is None:
            same = self.identical(left, right, node)
            return same if dunder == "__eq__" else self.negate(same, node)
        operands = (left, right) if receiver == "left" else (right, left)
        name = method_function_name(info.defining(method).name, method)
        if dunder in ("__eq__", "__ne__"):
            either_none = self.arith("ori", self.is_none(left, node), self.is_none(right, node),
                                     node)

            def by_method():
                self.yield_values([self.dunder_call(name, operands, node)], node)

            def by_identity():
                self.yield_values([self.identical(left, right, node)], node)

            method_region, _ = self.region(by_method)
            identity_region, _ = self.region(by_identity)
            [equal] = self.scf_if(either_none, [kt.boolean], identity_region, method_region,
                                  node)
            if dunder == "__ne__" and method == "__eq__":
                return self.negate(equal, node)
            return equal
        for operand in operands:
            self.require_instance(operand, method, node)
        return self.dunder_call(name, operands, node)

    def dunder_call(self, name, operands, node) -> Value:
        """A call of a dunder method on two evaluated operands."""
        callee = self.typed.callees[name]
        return self.call_with_values(name, callee, list(operands), node,
                                     release_arguments=False)

    def instance_binary(self, node, left: Value, right: Value) -> Value:
        dunder = BINARY_DUNDERS.get(type(node.op))
        if is_instance(left.type) and self.class_info(left.type).defining(dunder) is not None:
            info, method, operands = self.class_info(left.type), dunder, (left, right)
        else:
            info, method, operands = self.class_info(right.type), "__r" + dunder[2:], (right,
                                                                                        left)
        self.require_instance(operands[0], method, node)
        result = self.dunder_call(method_function_name(info.defining(method).name, method),
                                  operands, node)
        self.done_with(node, left, right)
        return result

    def instance_truthy(self, value: Value, node) -> Value:
        """`if o:`: None is false; an instance calls its `__bool__`, else
        its `__len__` (!= 0, ValueError when negative), else is true."""
        if is_none_type(value.type):
            return self.constant(False, kt.boolean, node)
        info = self.class_info(value.type)
        hook = truth_hook(info)
        if hook is None:
            result = self.negate(self.is_none(value, node), node)
            self.done_with(node, value)
            return result
        name = method_function_name(info.defining(hook).name, hook)
        overriders = overriding_subclasses(self.context.classes, info.name, hook)

        def truth_of_instance() -> Value:
            answer = self.dispatch(name, overriders, [value], [node], node) if overriders else \
                self.call_with_values(name, self.typed.callees[name], [value], node,
                                      release_arguments=False)
            if hook == "__bool__":
                return answer
            zero = self.constant(0, kt.i64, node)
            self.check(self.cmpi("sge", answer, zero, node), "ValueError",
                       "__len__() should return >= 0", [], node)
            return self.cmpi("ne", answer, zero, node)

        if not value.type.optional:
            result = truth_of_instance()
        else:
            none_region, _ = self.region(lambda: self.yield_values(
                [self.constant(False, kt.boolean, node)], node))
            instance_region, _ = self.region(lambda: self.yield_values(
                [truth_of_instance()], node))
            [result] = self.scf_if(self.is_none(value, node), [kt.boolean], none_region,
                                   instance_region, node)
        self.done_with(node, value)
        return result

    def str_of_instance(self, value: Value, node) -> Value:
        """str(o): its `__str__` or `__repr__`, "None" for None."""
        if is_none_type(value.type):
            return self.str_constant("None", node)
        info = self.class_info(value.type)
        method = str_method(info)
        name = method_function_name(info.defining(method).name, method)
        overriders = overriding_subclasses(self.context.classes, info.name, method)
        missing = self.is_none(value, node)

        def text_of_none():
            self.yield_values([self.own(self.str_constant("None", node), node)], node)

        def text_of_instance():
            text = self.dispatch(name, overriders, [value], [node], node) if overriders else \
                self.call_with_values(name, self.typed.callees[name], [value], node,
                                      release_arguments=False)
            self.yield_values([self.own(text, node)], node)

        none_region, _ = self.region(text_of_none)
        instance_region, _ = self.region(text_of_instance)
        [text] = self.scf_if(missing, [kt.string], none_region, instance_region, node)
        text.owned = True
        self.done_with(node, value)
        return text
