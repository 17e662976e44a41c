"""Type inference of instances of the module's compiled classes
(frontend/classes.py): `None`, attribute reads and writes, constructor
calls, method, staticmethod, classmethod and property calls (a setter for
`o.p = v`), `is` / `is not`, `==` and
the ordering and arithmetic dunders, truth tests, isinstance() of a known
class, and the joins of an instance with None (an Optional). A mixin of
type_inference.FunctionTyping.

An instance value may be None when its type is Optional (`Node | None`);
a required `Node` may be None too when an Optional was passed for it
(Python does not check): every use of an instance is None-safe at run time
(reading an attribute of None raises AttributeError, as in CPython), so
typing accepts an Optional wherever the class is taken, except where the
value is stored into a field that is not Optional (checked when it runs,
TypeError, as the extension's setter does).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..frontend.classes import (common_base, is_class_isinstance, is_super_call,
                                isinstance_narrowing,
                                method_function_name,
                                overriding_subclasses, setter_method_name, subclasses_of)
from ..typing_rules import display, is_unknown
from .typed_values import TypedValue, _Abandon
from .typed_tree import is_str

# Python's operators and the methods that implement them on instances.
BINARY_DUNDERS = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__",
                  ast.Div: "__truediv__", ast.FloorDiv: "__floordiv__", ast.Mod: "__mod__",
                  ast.Pow: "__pow__", ast.MatMult: "__matmul__", ast.BitAnd: "__and__",
                  ast.BitOr: "__or__", ast.BitXor: "__xor__", ast.LShift: "__lshift__",
                  ast.RShift: "__rshift__"}
COMPARE_DUNDERS = {ast.Eq: "__eq__", ast.NotEq: "__ne__", ast.Lt: "__lt__", ast.LtE: "__le__",
                   ast.Gt: "__gt__", ast.GtE: "__ge__"}
# The dunder CPython tries second (on the right operand) for each ordering.
REFLECTED_COMPARISONS = {"__lt__": "__gt__", "__gt__": "__lt__", "__le__": "__ge__",
                         "__ge__": "__le__", "__eq__": "__eq__", "__ne__": "__ne__"}


def is_instance(type_) -> bool:
    return isinstance(type_, kt.ClassType)


def is_none_type(type_) -> bool:
    return isinstance(type_, kt.NoneType)


def truth_hook(info) -> str | None:
    """The method the truth of an instance calls: `__bool__`, else
    `__len__`, else None (always true)."""
    for hook in ("__bool__", "__len__"):
        if info.defining(hook) is not None:
            return hook
    return None


def str_method(info) -> str | None:
    """The method str() of an instance calls: `__str__`, else `__repr__`."""
    for method in ("__str__", "__repr__"):
        if info.defining(method) is not None:
            return method
    return None


def is_instance_like(type_) -> bool:
    """An instance or the None literal's type."""
    return isinstance(type_, (kt.ClassType, kt.NoneType))


class ClassTyping:
    # ------------------------------------------------------------ helpers
    def class_info(self, type_):
        return self.context.classes[type_.class_name]

    def is_open(self, type_) -> bool:
        """Whether a value typed class `type_` may be of another type (an
        exported subclass): else it is exactly of that class, or None."""
        return bool(subclasses_of(self.context.classes, type_.class_name))

    def derives(self, source, target) -> bool:
        """An instance of class type `source` is one of class `target`."""
        return self.class_info(source).is_subclass_of(target.class_name)

    def known_field_type(self, node):
        """The type of `o.field` (`self.name`, `a.b.c`) known without typing
        it: `o` a name bound to an instance, or such a field of one; None
        when it is not one."""
        if not isinstance(node, ast.Attribute):
            return None
        if isinstance(node.value, ast.Name):
            bound = self.symbols.get(node.value.id) or self.var_types.get(node.value.id)
            owner = bound.type if bound is not None else None
        elif isinstance(node.value, ast.Subscript):
            # `xs[i].children`, `self.children[0].value`: an item of a list
            # of instances
            items = node.value.value
            if isinstance(items, ast.Name):
                bound = self.symbols.get(items.id) or self.var_types.get(items.id)
                container = bound.type if bound is not None else None
            else:
                container = self.known_field_type(items)
            owner = container.item if isinstance(container, kt.ListType) and \
                not isinstance(node.value.slice, ast.Slice) else None
        else:
            owner = self.known_field_type(node.value)
        if not isinstance(owner, kt.ClassType) or owner.class_name not in self.context.classes:
            return None
        found = self.class_info(owner).field(node.attr)
        return found.type if found is not None else None

    def maybe_instance(self, node) -> bool:
        """Whether `node` may evaluate to an instance, judged without typing
        it (so that a call's object is typed once): a name bound to one, an
        attribute or method call of one, a constructor call."""
        if isinstance(node, ast.Name):
            value = self.symbols.get(node.id)
            return value is not None and is_instance_like(value.type)
        if isinstance(node, ast.Attribute):
            return self.maybe_instance(node.value)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                return func.id in self.context.classes
            return isinstance(func, ast.Attribute) and (
                self.maybe_instance(func.value) or (isinstance(func.value, ast.Name) and
                                                    func.value.id in self.context.classes))
        if isinstance(node, ast.IfExp):
            return self.maybe_instance(node.body) or self.maybe_instance(node.orelse)
        if isinstance(node, ast.Subscript):
            # `xs[i].m()`, `t[0].m()`; `xs[1:]` is a list (`xs != xs[::-1]`)
            return not isinstance(node.slice, ast.Slice) and self.holds_instances(node.value)
        return False

    def holds_instances(self, node) -> bool:
        """Whether `node` is a list of instances or a tuple holding one,
        judged without typing it: a name bound to one, or a slice of one
        (`xs[1:][0].m()`)."""
        if isinstance(node, ast.Subscript):
            return self.holds_instances(node.value)
        if isinstance(node, ast.Attribute):     # `self.children[i].m()`: a list field
            field = self.known_field_type(node)
            return isinstance(field, kt.ListType) and is_instance(field.item)
        if not isinstance(node, ast.Name) or self.symbols.get(node.id) is None:
            return False
        type_ = self.symbols[node.id].type
        if isinstance(type_, kt.ListType):
            return is_instance(type_.item)
        return isinstance(type_, kt.TupleType) and any(is_instance(e) for e in type_.elements)

    def refuse_stayed_python(self, name, node) -> None:
        fallback = self.context.class_fallbacks.get(name)
        if fallback is not None:
            self.fail(node, f"class `{name}` is not compiled ({fallback.message}), so compiled "
                            "code cannot make or use its instances")

    # -------------------------------------------------------------- None
    def none_value(self) -> TypedValue:
        """The `None` literal (weak "None": a variable only None so far is
        not, and waits for the next round, where it may have joined a
        class)."""
        return TypedValue(kt.none_type, weak="None")

    @staticmethod
    def provisional_none(value: TypedValue) -> bool:
        """A variable typed None in this round only (`x = None` before the
        loop that binds an instance to it): its uses wait, unreported."""
        return is_none_type(value.type) and value.weak != "None"

    def convert_instance(self, value: TypedValue, target, node) -> TypedValue:
        """An instance (or None) used as `target`."""
        source = value.type
        if self.provisional_none(value) and not (is_instance(target) and target.optional):
            raise _Abandon()
        if is_none_type(source):
            if is_instance(target) and target.optional:
                return TypedValue(target)
            if is_instance(target):
                self.fail(node, f"cannot use None as {target.display} (annotate it "
                                f"`{target.class_name} | None` where it may be None)")
            self.fail(node, f"cannot use None as {display(target)}")
        if is_instance(source) and is_instance(target):
            if not self.derives(source, target):
                self.fail(node, f"cannot use a {source.class_name} as {target.display}")
            return TypedValue(target)
        if is_instance(source):
            self.fail(node, f"cannot use a {source.display} as {display(target)}")
        self.fail(node, f"cannot use a {display(source)} value as {target.display}")

    def join_instances(self, current, value: TypedValue, node, name):
        """A variable bound to instances and None: one class, Optional when
        None is among them (`x = None` ... `x = Node()`)."""
        from .typed_tree import VariableType
        new = value.type
        if current is None or current.type == new:
            return VariableType(new)
        old = current.type
        if is_none_type(old) and is_instance(new):
            return VariableType(new.as_optional)
        if is_instance(old) and is_none_type(new):
            return VariableType(old.as_optional)
        if is_instance(old) and is_instance(new):
            shared = common_base(self.class_info(old), self.class_info(new))
            if shared is not None:
                joined = shared.type
                return VariableType(joined.as_optional if old.optional or new.optional else
                                    joined)
        self.fail(node, self.paths_disagree(node, name, old, new))

    # -------------------------------------------------------- attributes
    def instance_attribute(self, node: ast.Attribute, base: TypedValue) -> TypedValue:
        """`o.x`: a field (the instance's, borrowed), or a property's
        value."""
        info = self.class_info(base.type)
        self.raises = True          # None has no attributes: AttributeError
        found = info.field(node.attr)
        if found is not None:
            return TypedValue(found.type)
        if info.constant_owner(node.attr) is not None:
            return self.class_constant(info, node.attr)
        owner = info.defining(node.attr)
        if owner is not None and node.attr in owner.properties:
            return self.call_method(info, node.attr, base, node, [], [])
        if owner is not None:
            self.fail(node, f"the method `{node.attr}` of `{info.name}` is used as a value; "
                            "only calls of methods are supported (`o.m(...)`)")
        self.fail(node, f"'{info.name}' object has no attribute '{node.attr}'")

    def class_constant(self, info, name) -> TypedValue:
        """`C.NAME`, `o.NAME` of a class constant (`NAME = 0` in the class
        body): the literal, folded as a module constant is."""
        value = info.constant_owner(name).constants[name]
        if isinstance(value, str):
            return TypedValue(kt.string)        # a literal: never freed
        return self.constant_number(value)

    def class_attribute(self, node: ast.Attribute) -> TypedValue | None:
        """`C.NAME` of an exported class C: its class constant; None when
        `node` is no attribute of a class name."""
        if not (isinstance(node.value, ast.Name) and node.value.id in self.context.classes
                and node.value.id not in self.symbols):
            return None
        info = self.context.classes[node.value.id]
        if info.constant_owner(node.attr) is not None:
            return self.class_constant(info, node.attr)
        if info.defining(node.attr) is not None:
            self.fail(node, f"the method `{node.attr}` of `{info.name}` is used as a value; "
                            "only calls of methods are supported (`C.m(...)`)")
        self.fail(node, f"type object '{info.name}' has no attribute '{node.attr}'" + (
            " compiled code reads (fields are read from instances)" if info.field(node.attr)
            else ""))

    def refuse_constant_store(self, target: ast.Attribute, info) -> None:
        if info.constant_owner(target.attr) is not None:
            self.fail(target, f"`{ast.unparse(target)} = ...` assigns the class attribute "
                              f"`{target.attr}` of `{info.constant_owner(target.attr).name}`, "
                              "which compiled code reads as a constant: not compiled (assign "
                              "it from Python, or make it a field)")

    def store_attribute(self, target: ast.Attribute, value: TypedValue, node) -> None:
        """`o.x = v`: the field's type takes the value (converted as an
        argument would be); for a property with a setter, the setter's
        call."""
        if isinstance(target.value, ast.Name) and target.value.id in self.context.classes \
                and target.value.id not in self.symbols:
            info = self.context.classes[target.value.id]
            self.refuse_constant_store(target, info)
            self.fail(target, f"`{ast.unparse(target)} = ...` assigns an attribute of the class "
                              f"`{info.name}`: not compiled")
        base = self.expression(target.value)
        self.absorb(base, value)
        if self.provisional_none(base) or self.provisional_none(value):
            raise _Abandon()
        if not is_instance(base.type):
            self.fail(target, f"cannot assign to `{ast.unparse(target)}`: "
                              f"{display(base.type)} has no attributes Kiln can set")
        info = self.class_info(base.type)
        self.refuse_constant_store(target, info)
        found = info.field(target.attr)
        owner = info.defining(target.attr) or info
        if found is None and target.attr in owner.setters:
            if info.frozen:
                self.fail(target, f"cannot assign to field '{target.attr}' (`{info.name}` is a "
                                  "frozen dataclass; CPython raises FrozenInstanceError)")
            self.raises = True          # None has no attributes: AttributeError
            self.typed_dunder_call(owner, setter_method_name(target.attr), (base, value), node)
            return
        if found is None:
            if target.attr in owner.properties:
                self.fail(target, f"property '{target.attr}' of '{info.name}' object has no "
                                  "setter")
            self.fail(target, f"'{info.name}' object has no attribute '{target.attr}'")
        if info.frozen and not self.in_synthesized_init(info):
            self.fail(target, f"cannot assign to field '{target.attr}' (`{info.name}` is a "
                              "frozen dataclass; CPython raises FrozenInstanceError)")
        self.raises = True
        if is_instance_like(found.type) or is_instance_like(value.type):
            if is_instance(found.type) and is_instance(value.type) and \
                    self.derives(value.type, found.type):
                return
            if is_instance(found.type) and found.type.optional and is_none_type(value.type):
                return
        elif is_str(found.type):
            if is_str(value.type):
                return
        elif isinstance(found.type, kt.ListType):
            # `self.items = []` takes the field's item type; a list bound
            # elsewhere must already be of it (lists are shared, not
            # converted).
            value_node = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value.type, kt.ListType):     # an unsettled `[]` too
                self.settle_list(value_node, value, found.type, node)
                return
        else:
            from .. import typing_rules as rules
            if is_instance(value.type) is False and isinstance(value.type, kt.ScalarType) and \
                    rules.conversion_error(value.type, found.type, False,
                                           value.constant) is None:
                self.convert(value, found.type, node)
                return
        self.fail(node, f"attribute `{target.attr}` of `{info.name}` is {found.type.display}: "
                        f"it cannot be assigned a {display(value.type)}")

    def in_synthesized_init(self, info) -> bool:
        return getattr(self.func, "kiln_class", None) == info.name and \
            getattr(self.func, "kiln_method", None) == "__init__" and \
            "__init__" in info.synthesized

    # ------------------------------------------------------------- calls
    def class_call(self, node) -> TypedValue | None:
        """A call this mixin types: `C(...)`, `C.m(...)`, `o.m(...)`,
        `isinstance(o, C)`; None for any other call."""
        func = node.func
        classes = self.context.classes
        if isinstance(func, ast.Name) and func.id not in self.symbols:
            if func.id in classes:
                return self.construct(classes[func.id], node)
            self.refuse_stayed_python(func.id, node)
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
            if info.defining(func.attr) is None:
                self.fail(node, f"type object '{info.name}' has no attribute '{func.attr}'")
            if info.takes_no_instance(func.attr):
                return self.call_method(info, func.attr, None, node, node.args, node.keywords)
            if not node.args:
                self.fail(node, f"{info.name}.{func.attr}() needs the instance as its first "
                                "argument")
            receiver = self.expression(node.args[0])
            self.absorb(receiver)
            return self.call_method(info, func.attr, receiver, node, node.args[1:],
                                    node.keywords, node.args[0])
        if isinstance(func.value, ast.Name) and func.value.id in self.context.class_fallbacks \
                and func.value.id not in self.symbols:
            self.refuse_stayed_python(func.value.id, node)
        field_type = self.known_field_type(func.value)
        if not self.maybe_instance(func.value) or (
                field_type is not None and not is_instance_like(field_type)):
            return None         # `self.name.split()`: a method of the field's value
        base = self.expression(func.value)
        self.absorb(base)
        if self.provisional_none(base):
            raise _Abandon()
        if not is_instance(base.type):
            self.fail(node, f"`.{func.attr}()` of {display(base.type)} is not supported")
        info = self.class_info(base.type)
        called = info.field(func.attr)
        if called is not None:
            self.fail(node, f"'{called.type.display}' object is not callable (`{func.attr}` is "
                            f"an attribute of `{info.name}`)")
        owner = info.defining(func.attr)
        if owner is not None and func.attr in owner.properties:
            self.fail(node, f"`{func.attr}` is a property of `{info.name}`: read it without "
                            "calling it")
        if owner is None:
            self.fail(node, f"'{info.name}' object has no attribute '{func.attr}'")
        self.raises = True          # None has no methods: AttributeError
        if info.takes_no_instance(func.attr):
            return self.call_method(info, func.attr, None, node, node.args, node.keywords)
        result = self.call_method(info, func.attr, base, node, node.args, node.keywords,
                                  func.value)
        self.check_overrides(info, func.attr, node)
        return result

    def super_call(self, node) -> TypedValue:
        """`super().m(...)` in a method: the base class's `m` (found along
        its lineage) called directly with this method's `self`."""
        owner = getattr(self.func, "kiln_class", None)
        info = self.context.classes.get(owner) if owner else None
        if info is None or not self.func.args.args or \
                info.takes_no_instance(self.func.kiln_method):
            self.fail(node, "super() is compiled in the methods of a compiled class (taking "
                            "`self`)")
        method = node.func.attr
        defining = info.base.defining(method) if info.base is not None else None
        if defining is None:
            where = f"`{info.base.name}`" if info.base is not None else "object"
            self.fail(node, f"super().{method}(): {where} has no compiled `{method}` (`{info.name}`"
                            " derives from it)")
        if method in defining.properties:
            self.fail(node, f"super().{method} is a property: read it without calling it")
        receiver = self.expression(ast.copy_location(
            ast.Name(self.func.args.args[0].arg, ast.Load()), node))
        self.absorb(receiver)
        if defining.takes_no_instance(method):
            return self.call_method(defining, method, None, node, node.args, node.keywords)
        return self.call_method(defining, method, receiver, node, node.args, node.keywords)

    def check_overrides(self, info, method, node) -> None:
        """A call of `method` through a value typed `info` dispatches to
        the overrides in its subclasses: each takes the arguments as the
        method found on `info` does (same parameters and defaults) and
        returns its result type (or a subclass of it)."""
        overriders = overriding_subclasses(self.context.classes, info.name, method)
        if not overriders:
            return
        own = self.callees[method_function_name(info.defining(method).name, method)]
        for subclass, defining in overriders:
            name = method_function_name(defining.name, method)
            other = self.module_signature_for(name, node)
            same_params = len(other.params) == len(own.params) and all(
                (a.name, a.type, a.default) == (b.name, b.type, b.default)
                for a, b in zip(other.params[1:], own.params[1:]))
            results = (own.return_type, other.return_type)
            same_result = results[0] == results[1] or (
                all(is_instance(t) for t in results) and
                self.derives(results[1].required, results[0].required) and
                (results[0].optional or not results[1].optional))
            if not (same_params and same_result):
                self.fail(node, f"`{name}` overrides `{info.defining(method).name}.{method}` "
                                "with other parameters or another result type: a call through "
                                f"a `{info.name}` cannot dispatch to it")
            if other.raises:
                self.raises = True

    def construct(self, info, node) -> TypedValue:
        """`C(args)`: a new instance (every field zero, the literal defaults
        of a plain class's annotations set), then `C.__init__(new, args)`."""
        self.raises = True          # MemoryError
        if info.has_init:
            self.call_method(info, "__init__", TypedValue(info.type), node, node.args,
                             node.keywords)
        elif node.args or node.keywords:
            self.fail(node, f"{info.name}() takes no arguments")
        return TypedValue(info.type)

    def call_method(self, info, method, receiver, node, args, keywords,
                    receiver_node=None) -> TypedValue:
        """A call of method `method` of `info` (`receiver` its `self`, None
        for a staticmethod or classmethod): typed like a module function's call
        (call_typing.call_function) with the receiver bound first."""
        name = method_function_name((info.defining(method) or info).name, method)
        return self.call_function(name, node, args=args, keywords=keywords,
                                  receiver=receiver)

    def isinstance_call(self, node) -> TypedValue:
        """isinstance(o, C): folded when o's type says -- an instance of C
        or of a subclass of C is one unless None (an Optional: a None
        test), one of an unrelated class or a number never; an instance of
        a base class of C is tested at run time."""
        value = self.expression(node.args[0])
        self.absorb(value)
        wanted = node.args[1].id
        if is_instance(value.type) and wanted in self.context.classes and \
                self.derives(value.type, kt.ClassType(wanted)):
            if value.type.optional:
                return TypedValue(kt.boolean)
            return TypedValue(kt.boolean, constant=True)
        if is_instance(value.type) and wanted in self.context.classes and \
                self.derives(kt.ClassType(wanted), value.type):
            return TypedValue(kt.boolean)
        python_class = {kt.i64: "int", kt.f64: "float", kt.boolean: "bool"}.get(value.type)
        if python_class is not None and wanted in ("int", "float", "bool"):
            return TypedValue(kt.boolean, constant=python_class == wanted or (
                wanted == "int" and python_class == "bool"))
        return TypedValue(kt.boolean, constant=False)

    def narrowed(self, stmt, body: list, build):
        """Runs `build` (typing an `if`'s branch `body`) with the name that
        `if isinstance(x, C):` tests typed C when x's class is a base of C;
        x's own value again after it."""
        found = isinstance_narrowing(stmt, body, self.context.classes)
        value = self.symbols.get(found[0]) if found is not None else None
        if value is None or not is_instance(value.type) or value.type.class_name == found[1] or \
                not self.derives(kt.ClassType(found[1]), value.type):
            return build()

        def narrowed_build():
            self.symbols[found[0]] = TypedValue(kt.ClassType(found[1]))
            try:
                return build()
            finally:
                self.symbols[found[0]] = value
        return narrowed_build()

    # --------------------------------------------------------- operators
    def instance_comparison(self, op, left: TypedValue, right: TypedValue, node) -> TypedValue:
        """`a is b`, `a is None`, `a == b` (`__eq__`, else identity, as
        CPython's object.__eq__), `a < b` (`__lt__`, or the reflected
        `__gt__` of the right operand)."""
        self.absorb(left, right)
        if isinstance(op, (ast.Is, ast.IsNot)):
            for side in (left, right):
                if not is_instance_like(side.type):
                    self.fail(node, f"`is` compares instances and None here, not "
                                    f"{display(side.type)} (use ==)")
            return TypedValue(kt.boolean)
        dunder = COMPARE_DUNDERS.get(type(op))
        if dunder is None:
            self.fail(node, f"`{ast.unparse(node)}`: `in` does not take instances yet")
        if is_none_type(left.type) or is_none_type(right.type):
            if dunder in ("__eq__", "__ne__"):
                return TypedValue(kt.boolean)       # identity with None
            self.fail(node, f"'{type(op).__name__}' between None and an instance: CPython "
                            "raises TypeError")
        if not (is_instance(left.type) and is_instance(right.type)):
            other = right if is_instance(left.type) else left
            if dunder in ("__eq__", "__ne__"):
                return TypedValue(kt.boolean, constant=dunder == "__ne__")
            self.fail(node, f"`{ast.unparse(node)}` compares an instance with a "
                            f"{display(other.type)}: no compiled method does (CPython raises "
                            "TypeError)")
        related = self.derives(left.type, right.type) or self.derives(right.type, left.type)
        if related and (left.type.class_name != right.type.class_name or
                        self.is_open(left.type)):
            self.fail(node, f"`{ast.unparse(node)}` compares instances of `"
                            f"{left.type.class_name}` and `{right.type.class_name}`, which may "
                            "be of subclasses: not compiled yet (`is` is)")
        if left.type.class_name != right.type.class_name:
            if dunder in ("__eq__", "__ne__"):
                return TypedValue(kt.boolean, constant=dunder == "__ne__")
            self.fail(node, f"`{ast.unparse(node)}` compares a {left.type.class_name} with a "
                            f"{right.type.class_name}: not supported")
        info = self.class_info(left.type)
        method, receiver, other = self.comparison_method(info, dunder)
        if method is None:
            if dunder in ("__eq__", "__ne__"):
                return TypedValue(kt.boolean)       # identity
            self.fail(node, f"'{ast.unparse(node)}': `{info.name}` defines no `{dunder}` "
                            "(CPython raises TypeError)")
        self.raises = True
        operands = (left, right) if receiver == "left" else (right, left)
        self.typed_dunder_call(info, method, operands, node)
        return TypedValue(kt.boolean)

    @staticmethod
    def comparison_method(info, dunder):
        """(the method that answers `dunder`, which operand is its self,
        the other): the method itself, `__eq__` negated for `__ne__`, or
        the reflected one on the right operand."""
        if info.defining(dunder) is not None:
            return dunder, "left", "right"
        if dunder == "__ne__" and info.defining("__eq__") is not None:
            return "__eq__", "left", "right"
        reflected = REFLECTED_COMPARISONS[dunder]
        if info.defining(reflected) is not None:
            return reflected, "right", "left"
        return None, None, None

    def typed_dunder_call(self, info, method, operands, node):
        """A dunder's (or a property setter's) call on typed operands: the
        callee typed, the other operand converted to its parameter."""
        name = method_function_name((info.defining(method) or info).name, method)
        callee = self.module_signature_for(name, node)
        if len(callee.params) != 2:
            self.fail(node, f"`{info.name}.{method}` takes {len(callee.params)} parameters; "
                            "it needs self and one other")
        self.convert(operands[0], callee.params[0].type, node)
        self.convert(operands[1], callee.params[1].type, node)
        if callee.raises:
            self.raises = True
        return callee

    def module_signature_for(self, name, node):
        from ..errors import KilnCompileError
        from .recursion import RecursiveSignatureError
        try:
            callee = self.module.signature(name, node)
        except RecursiveSignatureError as error:
            self.fail(node, error.diagnostics[0].message)
        except KilnCompileError as error:
            first = error.diagnostics[0]
            self.fail(node, f"calls `{name}`, which cannot be compiled ({first.message}, line "
                            f"{first.line})")
        self.callees[name] = callee
        return callee

    def instance_binary(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`a + b` of instances: the class's `__add__` (or the right
        operand's reflected `__radd__`)."""
        self.absorb(left, right)
        dunder = BINARY_DUNDERS.get(type(node.op))
        for side in (left, right):
            if is_instance(side.type) and self.is_open(side.type):
                self.fail(node, f"`{ast.unparse(node)}` of a `{side.type.class_name}`, which may "
                                "be of a subclass: operators of such instances are not compiled "
                                "yet")
        if is_instance(left.type) and \
                self.class_info(left.type).defining(dunder) is not None:
            info, method, operands = self.class_info(left.type), dunder, (left, right)
        elif is_instance(right.type) and dunder is not None and \
                self.class_info(right.type).defining("__r" + dunder[2:]) is not None:
            info, method, operands = self.class_info(right.type), "__r" + dunder[2:], (right,
                                                                                        left)
        else:
            shown = [display(v.type) for v in (left, right)]
            self.fail(node, f"unsupported operand types for `{ast.unparse(node)}`: "
                            f"{shown[0]} and {shown[1]} (no compiled `{dunder}`)")
        self.raises = True
        callee = self.typed_dunder_call(info, method, operands, node)
        if callee.return_type is None:
            self.fail(node, f"`{info.name}.{method}` returns None")
        return TypedValue(callee.return_type)

    def instance_truthy(self, value: TypedValue, node) -> TypedValue:
        """The truth of an instance, as CPython's: its `__bool__`, else its
        `__len__` (!= 0), else true; None is false."""
        if is_none_type(value.type):
            return TypedValue(kt.boolean, constant=False)
        info = self.class_info(value.type)
        hook = truth_hook(info)
        family = [info] + subclasses_of(self.context.classes, info.name)
        if any(truth_hook(member) != hook for member in family):
            self.fail(node, f"the truth of a `{info.name}` calls `__bool__` or `__len__` in some "
                            "of its subclasses and not in others: not compiled yet")
        if hook is not None:
            callee = self.module_signature_for(
                method_function_name(info.defining(hook).name, hook), node)
            wanted = kt.boolean if hook == "__bool__" else kt.i64
            if len(callee.params) != 1 or callee.return_type != wanted:
                self.fail(node, f"the truth of a `{info.name}` calls its `{hook}`, which must "
                                f"take only self and return {display(wanted)}")
            if callee.raises or hook == "__len__":
                self.raises = True          # its own errors; a negative length
            self.check_overrides(info, hook, node)
        return TypedValue(kt.boolean)

    def fstring_instance(self, value: TypedValue, node) -> None:
        """`{o}` in an f-string: str(o), its `__str__` or `__repr__` ("None"
        for None)."""
        if is_none_type(value.type):
            return
        info = self.class_info(value.type)
        method = str_method(info)
        if any(str_method(member) != method for member in subclasses_of(self.context.classes,
                                                                           info.name)):
            self.fail(node, f"str() of a `{info.name}` calls `__str__` in some of its subclasses "
                            "and `__repr__` in others: not compiled yet")
        if method is None:
            self.fail(node, f"str() of a `{info.name}` without `__repr__` or `__str__` shows its "
                            "address, which compiled code does not; define `__repr__`")
        callee = self.module_signature_for(
            method_function_name(info.defining(method).name, method), node)
        if not isinstance(callee.return_type, kt.StrType):
            self.fail(node, f"`{info.name}.{method}` must return a str")
        self.raises = True
        self.check_overrides(info, method, node)

    # ----------------------------------------------------------- checks
    def check_instance_options(self) -> None:
        """Compiled code that touches instances holds the GIL: nogil=True
        and prange loops over them are refused."""
        uses = [p for p in self.params if is_instance(p.type)] or \
            is_instance(self.return_type()) or any(
                is_instance_like(v.type) for v in self.var_types.values())
        if not uses:
            return
        if self.options.get("nogil"):
            self.report(self.func, "nogil=True: this function uses class instances, which "
                                   "compiled code touches holding the GIL (their reference "
                                   "counts and allocation are CPython's)")
        for loop in self.context.parallel_loops:
            if any(loop is node for node in ast.walk(self.func)):
                for inner in ast.walk(loop):
                    value = self.values.get(inner)
                    if value is not None and is_instance_like(value.type):
                        self.report(loop, "a kiln.prange loop cannot use class instances (they "
                                          "are touched holding the GIL)")
                        break
        for name, variable in self.var_types.items():
            if is_none_type(variable.type):
                self.report(self.func, f"variable `{name}` is only ever None; annotate it "
                                       f"(`{name}: Node | None = None`)")

    def unknown_is_fine(self, *values) -> bool:
        return any(is_unknown(v.type) for v in values)
