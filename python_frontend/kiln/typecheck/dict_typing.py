"""Type inference of Python dicts of numbers (`kt.DictType`: int, float or
bool keys and values, kt.DICT_ITEM_TYPES): literals and comprehensions,
`{}` whose types come from their context, lookups and stores, `in`, `==`,
the methods, the views (keys(), values(), items()) and the builtins that
take a dict, iteration and the prange refusal. Lowered by
mlir/dict_lowering.py. A mixin of type_inference.FunctionTyping.

The key and value types of a dict settle as a list's item type does
(list_typing.py): a literal's keys join and its values join (`{1: 2,
2.5: 3}` is dict[float, int]); `{}` (`UnsettledDict`) takes its types where
a dict type is expected (an annotation, a parameter, the result, the other
operand of `==`/`update`), or from the first `d[k] = v` into a variable
that is not declared, which widens the variable to hold k and v (the next
round types the function again); a *new* dict (a literal, a
comprehension) may be retyped to wider types where it is used, converting
its keys and values; any other dict is shared between its names, so it
never converts.

A key looked up converts to the dict's key type as Python's equal hashes
make it find the same entry: a bool among int keys, an int among float
keys. A float looked up among int keys, or a number among bool keys, is
refused (Python would compare across types)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .. import typesystem as kt
from ..frontend.desugar import ITERABLE_ROLE
from .list_typing import join_items, named
from .typed_values import TypedValue, _Abandon
from ..typing_rules import UNKNOWN, display, is_unknown
from .typed_tree import (DictViewType, VariableType, container_noun, dict_of, is_dict,
                         is_dict_view, is_scalar_type, is_set, is_str, is_table,
                         iteration_kind)


@dataclass(frozen=True)
class UnsettledDict(kt.DictType):
    """The type of `{}` (and of what holds it) before typing knows its
    keys and values."""
    key: object = None
    value: object = None

    @property
    def name(self) -> str:
        if self.dict_class == "Counter":
            return "Counter[?]"
        if self.dict_class == "defaultdict":
            return f"defaultdict[?, {display(self.value)}]"
        return "dict[?, ?]"


UNSETTLED_DICT = UnsettledDict()
# dict methods that only read the dict (the others may allocate or raise).
DICT_READS = ("get", "keys", "values", "items")
# The positional arguments each dict method takes.
DICT_ARITY = {"get": (1, 2), "setdefault": (1, 2), "pop": (1, 2), "popitem": (0,), "keys": (0,),
              "values": (0,),
              "items": (0,), "update": (1,), "copy": (0,), "clear": (0,)}
# Containers a dict cannot hold yet, by the annotation word a message uses.
UNSUPPORTED_ITEMS = "; a dict's keys and values are int, float, bool or str (dict[str, int], " \
    "...)"
# The same for a set's elements.
UNSUPPORTED_ELEMENTS = "; a set's elements are int, float, bool or str (set[int], set[float], " \
    "set[bool], set[str])"


def mixed(a, b) -> bool:
    """A str and a number (None: not known yet): no container type holds both."""
    return a is not None and b is not None and is_str(a) != is_str(b)


def is_unsettled_dict(type_) -> bool:
    return isinstance(type_, UnsettledDict)


def is_dict_like(type_) -> bool:
    return is_dict(type_) or is_dict_view(type_)


def is_new_dict(node) -> bool:
    """A dict made here and bound nowhere yet (its items may still convert)."""
    return isinstance(node, (ast.Dict, ast.DictComp))


def is_hidden_iterable(node) -> bool:
    """A loop's iterable as desugar.py binds it (`for$iterableN`)."""
    return isinstance(node, ast.Name) and node.id.startswith(f"for${ITERABLE_ROLE}")


def walked_dict(loop, variable_type):
    """The name of the dict (or view, or set) a desugared `for` loop walks,
    or None: `for i in range(len(for$iterableN))` where for$iterableN is a
    dict, a view of one or a set. `variable_type(name)` is a variable's
    type."""
    iterator = loop.iter
    if not (isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name)
            and iterator.func.id == "range" and len(iterator.args) == 1):
        return None
    bound = iterator.args[0]
    if isinstance(bound, ast.Call) and isinstance(bound.func, ast.Name) and \
            bound.func.id == "len" and len(bound.args) == 1 and \
            is_hidden_iterable(bound.args[0]) and \
            is_table(variable_type(bound.args[0].id)):
        return bound.args[0].id
    return None


def iteration_item(type_):
    """The type one step of iterating over a dict, view or set binds."""
    walked = dict_of(type_)
    kind = iteration_kind(type_)
    if kind == "items":
        return kt.TupleType((walked.key, walked.value))
    return walked.value if kind == "values" else walked.key


class DictTyping:
    # ------------------------------------------------- keys and values
    def dict_item_type(self, value: TypedValue, node, role: str, noun="dict") -> kt.ScalarType:
        """The key or value type (`role`: "keys", "values") a dict needs to
        hold `value` (the element type a set needs: noun "set", role
        "elements"): int, float or bool; anything else is refused."""
        hint = UNSUPPORTED_ELEMENTS if noun == "set" else UNSUPPORTED_ITEMS
        type_ = value.type
        if value.weak:
            from ..typing_rules import default_for_kind
            type_ = default_for_kind(value.weak)
        if is_str(type_):
            return kt.string
        if isinstance(type_, kt.ScalarType):
            if type_.is_bool:
                return kt.boolean
            if type_.is_complex:
                self.fail(node, f"{noun}s with complex {role} are not supported yet" + hint)
            if type_.is_float:
                return kt.f64
            if type_ == kt.u64:
                holder = "set[int]" if noun == "set" else "dict[int, ...]"
                self.fail(node, f"a kiln.u64 does not fit a {noun} (a {holder} holds 64-bit "
                                "signed ints); convert it: int(v)")
            return kt.i64
        what = container_noun(type_) if isinstance(type_, (kt.ListType, kt.SetType)) or \
            is_dict_like(type_) else "array" if isinstance(type_, kt.ArrayType) else "tuple" \
            if isinstance(type_, kt.TupleType) else display(type_)
        self.fail(node, f"{noun}s with {what} {role} are not supported yet" + hint)

    def refuse_text_item(self, node, role, noun="dict") -> None:
        """`{"a": 1}` (`{"a"}`): a str key or value (element), refused
        before the constant is typed (whose own message would not say
        dicts, or sets)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            self.fail(node, f"{noun}s with {type(node.value).__name__} {role} are not "
                            "supported yet" + (UNSUPPORTED_ELEMENTS if noun == "set"
                                               else UNSUPPORTED_ITEMS))

    def looked_up_key(self, key: TypedValue, container_type, node, what) -> TypedValue:
        """A key searched for (`d[k]`, `k in d`, get, pop, ...) as the
        dict's key type (an element as a set's: `x in s`, discard,
        remove): a bool among ints, an int among floats convert (the same
        entry in Python); a float among ints, a number among bools are
        refused."""
        self.absorb(key)
        key_type = dict_of(container_type).key
        if key_type is None:
            return key
        noun, role = ("set", "element") if is_set(container_type) else ("dict", "key")
        if is_str(key_type) or is_str(key.type):
            if not (is_str(key_type) and is_str(key.type)):
                self.fail(node, f"{what} of a {container_type.display} takes {named(key_type)} "
                                f"{role}, not {named(key.type)} (it is never found there; "
                                "Kiln refuses the search)")
            return key
        if not is_scalar_type(key.type):
            self.fail(node, f"{what} of a {container_type.display} takes a number {role}, not "
                            f"{named(key.type)}")
        needed = self.dict_item_type(key, node, role + "s", noun)
        if join_items(key_type, needed) != key_type:
            self.fail(node, f"{what} of a {container_type.display} takes {named(key_type)} "
                            f"{role}, not {named(needed)} (convert it first)")
        return self.convert(key, key_type, node)

    def stored_entry(self, dict_node, container: TypedValue, key: TypedValue,
                     value: TypedValue, node):
        """`d[k] = v`, `d.setdefault(k, v)`: k and v as the dict's types. A
        dict variable that is not declared widens to hold them."""
        self.absorb(container, key, value)
        key_needed = self.dict_item_type(key, node, "keys")
        value_needed = self.dict_item_type(value, node, "values")
        current = container.type
        if mixed(current.key, key_needed) or mixed(current.value, value_needed):
            where = f"`{dict_node.id}`, a {current.display}" \
                if isinstance(dict_node, ast.Name) else f"a {current.display}"
            self.fail(node, f"cannot store {named(key_needed)} key and {named(value_needed)} "
                            f"value into {where}: a dict's keys are of one type and its values "
                            "of one type")
        if current.key is not None and join_items(current.key, key_needed) == current.key \
                and join_items(current.value, value_needed) == current.value:
            self.convert(key, current.key, node)
            self.convert(value, current.value, node)
            return
        if self.widen_dict_variable(dict_node, key_needed, value_needed):
            return
        if current.key is None:
            return          # `{}[k] = v`: unsettled, reported at the end
        wanted = f"dict[{display(join_items(current.key, key_needed))}, " \
                 f"{display(join_items(current.value, value_needed))}]"
        where = f"`{dict_node.id}`, a {current.display}" if isinstance(dict_node, ast.Name) \
            else f"a {current.display}"
        self.fail(node, f"cannot store {named(key_needed)} key and {named(value_needed)} value "
                        f"into {where}: a dict's keys are of one type and its values of one "
                        f"type (declare it {wanted} to hold both)")

    def widen_dict_variable(self, dict_node, key, value) -> bool:
        if not isinstance(dict_node, ast.Name) or dict_node.id in self.declared:
            return False
        current = self.var_types.get(dict_node.id)
        if current is None or not is_dict(current.type):
            return False
        widened = current.type.with_items(join_items(current.type.key, key),
                                          join_items(current.type.value, value))
        if widened.key is None:
            return True         # still unsettled: nothing new
        if widened != current.type:
            self.var_types[dict_node.id] = VariableType(widened)
            self.changed = True
        return True

    # --------------------------------------------------- settling types
    def settle_dict(self, node, value: TypedValue, target, where) -> TypedValue:
        """`value` used where a `target` dict is expected: `{}` takes its
        types, a new dict converts to wider ones; a bound dict never converts."""
        if value.type == target or is_unknown(value.type) or is_unknown(target) or \
                is_unsettled_dict(target):
            return value
        if not is_dict(value.type) or not is_dict(target):
            self.fail(where, f"cannot use {named(value.type)} value as {display(target)}")
        self.same_dict_class(value.type, target, where)
        if node is None and is_unsettled_dict(value.type):
            return TypedValue(target)
        if node is not None and (is_unsettled_dict(value.type) or (
                is_new_dict(node) and join_items(value.type.key, target.key) == target.key
                and join_items(value.type.value, target.value) == target.value)):
            self.retype_new_dict(node, target)
            return TypedValue(target)
        self.fail(where, f"a {value.type.display} is used as a {target.display}: a dict is "
                         "shared, not converted, so its keys and values keep their types; "
                         f"make it a {target.display} where it is created")

    def same_dict_class(self, value_type, target, where) -> None:
        """A dict, a defaultdict (of one default) and a Counter read a
        missing key each their own way, so none is used as another."""
        if (value_type.dict_class, value_type.default) == (target.dict_class, target.default):
            return
        remedy = "pass dict(d), a plain copy, where a dict is wanted" \
            if target.dict_class is None else f"make it a {target.display} where it is created"
        self.fail(where, f"a {value_type.display} is used as a {target.display}: reading a "
                         "missing key differs between them (KeyError, the factory's default "
                         f"inserted, or 0 for a Counter); {remedy}")

    def retype_new_dict(self, node, target) -> None:
        self.values[node] = TypedValue(target)
        if isinstance(node, ast.Dict):
            pairs = list(zip(node.keys, node.values))
        elif isinstance(node, ast.DictComp):
            pairs = [(node.key, node.value)]
        else:
            return
        for key_node, value_node in pairs:
            for part, type_ in ((key_node, target.key), (value_node, target.value)):
                known = self.values.get(part)
                if known is not None and not is_unknown(known.type):
                    self.guarded(self.convert, known, type_, part)

    def unify_dicts(self, left_node, left, right_node, right, where, what):
        """The one dict type of `d == e`, `d.update(e)`: `{}` and new dicts
        adapt to the other."""
        if left.type == right.type:
            return left.type
        if not is_unsettled_dict(left.type) and not is_unsettled_dict(right.type) and \
                left.type.plain == right.type.plain:
            return left.type        # a Counter and a dict of the same types
        if is_unsettled_dict(left.type) and is_unsettled_dict(right.type):
            return UNSETTLED_DICT
        settled = left.type if not is_unsettled_dict(left.type) else right.type
        joined = settled if is_unsettled_dict(left.type) or is_unsettled_dict(right.type) \
            else kt.DictType(join_items(left.type.key, right.type.key),
                             join_items(left.type.value, right.type.value))
        for node, value in ((left_node, left), (right_node, right)):
            if value.type != joined and not (is_new_dict(node) or
                                             is_unsettled_dict(value.type)):
                self.fail(where, f"{what} a {left.type.display} and a {right.type.display} is "
                                 "not supported: build both as " + joined.display)
        for node, value in ((left_node, left), (right_node, right)):
            self.settle_dict(node, value, joined, where)
        return joined

    def join_dict(self, current, value: TypedValue, node, name) -> VariableType:
        if current is None:
            return VariableType(value.type)
        if not is_dict(current.type) or not is_dict(value.type) or \
                (current.type.dict_class, current.type.default) != \
                (value.type.dict_class, value.type.default):
            self.fail(node, self.paths_disagree(node, name, current.type, value.type))
        key = join_items(current.type.key, value.type.key)
        item = join_items(current.type.value, value.type.value)
        base = current.type
        return VariableType(UnsettledDict(None, item, base.dict_class, base.default)
                            if key is None else base.with_items(key, item))

    def assign_dict(self, name, value: TypedValue, value_node, node) -> None:
        """`d = value` where the variable or the value is a dict (or, for
        a loop's hidden iterable, a view)."""
        if is_dict_view(value.type) and "$" not in name:
            self.symbols[name] = TypedValue(UNKNOWN)
            self.maybe_undefined.discard(name)
            self.fail(node, f"binding `{ast.unparse(value_node)}` to a name is not supported "
                            f"yet; iterate over it or pass it to list() (`{name} = "
                            f"list({ast.unparse(value_node)})`)")
        if is_dict_view(value.type):
            self.var_types[name] = VariableType(value.type)
            self.symbols[name] = value
            self.maybe_undefined.discard(name)
            return
        self.assign_container(name, value, value_node, node, is_dict, self.join_dict,
                              self.settle_dict)

    def report_unsettled_dicts(self) -> None:
        for name, variable in self.var_types.items():
            if is_unsettled_dict(variable.type) and "$" not in name:
                self.report(self.list_bindings.get(name, self.func),
                            f"cannot tell what dict `{name}` holds: nothing is stored into "
                            f"it; annotate it (`{name}: dict[int, float] = {{}}`)")
                return
        for node, value in list(self.values.items()):
            if isinstance(node, ast.Dict) and is_unsettled_dict(value.type):
                self.report(node, "cannot tell what this empty dict holds; bind it to an "
                                  "annotated variable (`d: dict[int, float] = {}`)")
                return

    def is_dict_expression(self, node) -> bool:
        """Whether `node` is dict-valued, known before it is typed here."""
        if isinstance(node, (ast.Dict, ast.DictComp)):
            return True
        if isinstance(node, ast.Call) and self.context.qualified_name(node.func) in (
                ("collections", "defaultdict"), ("collections", "Counter")):
            return True
        known = self.known_container(node, is_dict_like, ("dict",), dict)
        if known is not None:
            return known
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr in ("copy", "keys", "values", "items") and \
                self.is_dict_expression(node.func.value)
        return False

    # ------------------------------------------------------ expressions
    def expr_Dict(self, node):
        self.raises = True          # kiln.dict.new, set: MemoryError
        if not node.keys:
            return TypedValue(UNSETTLED_DICT)
        key_type = value_type = None
        pairs = []
        for key_node, value_node in zip(node.keys, node.values):
            if key_node is None:
                self.fail(value_node, "`**` in a dict literal is not supported yet; "
                                      "use d.update(e)")
            self.refuse_text_item(key_node, "keys")
            self.refuse_text_item(value_node, "values")
            key, value = self.expression(key_node), self.expression(value_node)
            self.absorb(key, value)
            key_type = join_items(key_type, self.dict_item_type(key, key_node, "keys"))
            value_type = join_items(value_type, self.dict_item_type(value, value_node,
                                                                    "values"))
            pairs.append((key, key_node, value, value_node))
        for key, key_node, value, value_node in pairs:
            self.convert(key, key_type, key_node)
            self.convert(value, value_type, value_node)
        return TypedValue(kt.DictType(key_type, value_type))

    def expr_DictComp(self, node):
        """`{k: v for x in it if c ...}`: each `for` as a list
        comprehension's; its names are the comprehension's own."""
        def entry(found):
            self.refuse_text_item(node.key, "keys")
            self.refuse_text_item(node.value, "values")
            key, value = self.expression(node.key), self.expression(node.value)
            self.absorb(key, value)
            found["key"] = self.dict_item_type(key, node.key, "keys")
            found["value"] = self.dict_item_type(value, node.value, "values")
            self.convert(key, found["key"], node.key)
            self.convert(value, found["value"], node.value)

        found = self.comprehension(node, entry)
        if "key" not in found:
            raise _Abandon()
        return TypedValue(kt.DictType(found["key"], found["value"]))

    def dict_subscript(self, node, container: TypedValue) -> TypedValue:
        """`d[k]` (KeyError when k is missing), and the entry a dict loop's
        step is at (`k = for$iterable1[for$index2]`, desugar.py)."""
        self.absorb(container)
        self.raises = True
        if is_hidden_iterable(node.value):
            if node.value.id not in self.walked_dicts:
                noun = container_noun(container.type)
                self.fail(node.value, f"zip() of a {noun} is not supported yet; iterate over "
                                      f"the {noun} alone (or over list({noun[0]}))")
            self.expression(node.slice)
            if dict_of(container.type).key is None:
                return TypedValue(UNKNOWN)
            item = iteration_item(container.type)
            if isinstance(item, kt.TupleType):
                return self.tuple_value([TypedValue(e) for e in item.elements])
            return TypedValue(item)
        if is_dict_view(container.type):
            self.fail(node, f"'dict_{container.type.kind}' object is not subscriptable")
        if isinstance(node.slice, ast.Slice):
            self.fail(node, "a dict cannot be sliced")
        key = self.expression(node.slice)
        if container.type.dict_class == "defaultdict":
            self.inserted_key(node.value, container, key, node)
        self.looked_up_key(key, container.type, node, "a lookup")
        return TypedValue(UNKNOWN) if container.type.value is None \
            else TypedValue(container.type.value)

    def inserted_key(self, dict_node, container: TypedValue, key: TypedValue, node) -> None:
        """A key a defaultdict's read or a Counter's `c[k] += v` may insert:
        a variable whose key type is not known yet takes it (the next round
        types the function again)."""
        self.absorb(key)
        if container.type.key is None:
            needed = self.dict_item_type(key, node, "keys")
            if self.widen_dict_variable(dict_node, needed, None):
                raise _Abandon()

    def dict_store(self, target: ast.Subscript, value: TypedValue, node) -> None:
        """`d[k] = v`: a new entry at the end, or a new value for k."""
        container = self.expression(target.value)
        self.absorb(container)
        if not is_dict(container.type):
            self.fail(target, f"`{ast.unparse(target.value)}` is not a dict")
        if isinstance(target.slice, ast.Slice):
            self.fail(target, "a dict cannot be sliced")
        self.raises = True
        self.refuse_text_item(target.slice, "keys")
        key = self.expression(target.slice)
        self.stored_entry(target.value, container, key, value, node)

    def augmented_dict_store(self, stmt) -> None:
        """`d[k] += v`: one lookup (KeyError), the value combined, stored."""
        target = stmt.target
        container = self.expression(target.value)
        self.absorb(container)
        if not is_dict(container.type):
            self.fail(target, f"`{ast.unparse(target.value)}` is not a dict")
        self.raises = True
        key = self.expression(target.slice)
        if container.type.dict_class is not None:
            self.inserted_key(target.value, container, key, target)
        self.looked_up_key(key, container.type, target, "a lookup")
        if container.type.value is None or container.type.key is None:
            raise _Abandon()
        current = TypedValue(container.type.value)
        if is_str(current.type):
            operation = ast.copy_location(ast.BinOp(left=target, op=stmt.op,
                                                    right=stmt.value), stmt)
            result = self.str_binary(operation, current, self.expression(stmt.value))
        else:
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        self.values[stmt] = result
        needed = self.dict_item_type(result, stmt, "values")
        if join_items(container.type.value, needed) != container.type.value:
            if not self.widen_dict_variable(target.value, container.type.key, needed):
                self.fail(stmt, f"`{ast.unparse(stmt)}` makes {named(needed)} value, which "
                                f"a {container.type.display} cannot hold (declare it "
                                f"dict[{display(container.type.key)}, {display(needed)}])")
            return
        self.convert(result, container.type.value, stmt)

    def stmt_Delete(self, stmt):
        """`del d[k]` (KeyError when k is missing), and a list's `del xs[i]`
        and `del xs[a:b:c]` (list_typing.py)."""
        supported = "`del` is supported as `del d[k]` of a dict and `del xs[i]`, `del xs[a:b]` " \
                    "of a list"
        for target in stmt.targets:
            if not isinstance(target, ast.Subscript):
                self.fail(stmt, f"{supported} only yet")
            container = self.expression(target.value)
            self.absorb(container)
            if isinstance(container.type, kt.ListType):
                self.delete_list_item(target, container)
                continue
            if isinstance(container.type, kt.StrType):
                self.fail(target, "'str' object doesn't support item deletion (a str never "
                                  "changes)")
            if not is_dict(container.type) or isinstance(target.slice, ast.Slice):
                self.fail(target, f"{supported} only yet, not of {named(container.type)}"
                          if not is_dict(container.type) else f"{supported}; a dict has no "
                          "slices")
            self.raises = True
            self.looked_up_key(self.expression(target.slice), container.type, target, "`del`")

    def dict_compare(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`k in d`, `k in d.keys()`, `d == e`, `d != e`, negations."""
        op, right_node = node.ops[0], node.comparators[0]
        self.absorb(left, right)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not is_dict_like(right.type):
                self.fail(node, f"`in` takes a dict on its right here, not {named(right.type)}")
            if iteration_kind(right.type) != "keys":
                self.fail(node, f"`in` of a dict's {right.type.kind}() is not supported yet; "
                                "test the keys (`k in d`)")
            self.looked_up_key(left, right.type, node, "`in`")
            return TypedValue(kt.boolean)
        if not (is_dict(left.type) and is_dict(right.type)):
            self.fail(node, f"a dict compares only with a dict here, not with "
                            f"{named(right.type if is_dict_like(left.type) else left.type)}")
        if "Counter" in (left.type.dict_class, right.type.dict_class):
            self.fail(node, "`==` of a Counter (which counts a missing key as 0 since Python "
                            "3.10) is not supported yet; compare dict(c) == dict(e) (without "
                            "zero counts)")
        if not isinstance(op, (ast.Eq, ast.NotEq)):
            self.fail(node, "dicts compare with == and != only (CPython does not order dicts)")
        self.unify_dicts(node.left, left, right_node, right, node, "comparing")
        return TypedValue(kt.boolean)

    # ------------------------------------------------------------ calls
    def dict_method(self, func: ast.Attribute, container: TypedValue, node) -> TypedValue:
        """`d.get(k, default)`, `d.pop(k)`, `d.items()`, ..."""
        name = func.attr
        self.absorb(container)
        if is_dict_view(container.type):
            self.fail(node, f"`.{name}()` of a dict's {container.type.kind}() is not supported")
        self.method_arguments(f"dict.{name}", node, DICT_ARITY.get(name, False),
                              "list and array methods do not apply to a dict")
        if name not in DICT_READS:
            self.raises = True      # allocates (MemoryError) or raises KeyError
        dict_type = container.type
        if name in ("keys", "values", "items"):
            return TypedValue(DictViewType(dict_type, name))
        if name in ("copy", "clear"):
            return TypedValue(dict_type) if name == "copy" else TypedValue(None)
        if name == "popitem":
            # (key, value) of the last entry (LIFO, as CPython); KeyError
            # when empty. A str key or value is owned by the tuple, so the
            # tuple is unpacked (`k, v = d.popitem()`) or dropped, never
            # indexed (`d.popitem()[0]` is refused as any tuple-valued
            # method call is: "... is a tuple[str, int], not an array").
            self.raises = True
            if dict_type.key is None:
                return TypedValue(UNKNOWN)
            return self.tuple_value([TypedValue(dict_type.key), TypedValue(dict_type.value)])
        if name == "update" and dict_type.dict_class == "Counter":
            self.fail(node, "Counter.update() adds counts (dict.update replaces values), "
                            "which is not supported yet; add them in a loop (`for k, v in "
                            "e.items(): c[k] += v`)")
        if name == "update":
            other = self.expression(node.args[0])
            self.absorb(other)
            if not is_dict(other.type):
                self.fail(node, f"dict.update() takes a dict here, not {named(other.type)}")
            self.unify_dicts(func.value, container, node.args[0], other, node, "updating")
            return TypedValue(None)
        if name == "get" and len(node.args) == 1:
            self.fail(node, "d.get(k) without a default returns None when k is missing, and "
                            "Kiln has no None value: give the default (`d.get(k, 0)`)")
        if name == "setdefault" and len(node.args) == 1:
            self.fail(node, "d.setdefault(k) stores None when k is missing, and Kiln has no "
                            "None value: give the default (`d.setdefault(k, 0)`)")
        self.refuse_text_item(node.args[0], "keys")
        key = self.expression(node.args[0])
        if name == "setdefault":
            default = self.expression(node.args[1])
            self.stored_entry(func.value, container, key, default, node)
        else:
            self.looked_up_key(key, dict_type, node, f"dict.{name}()")
        if name == "pop":
            self.raises = True      # KeyError without a default
        if dict_type.value is None and len(node.args) == 2 and name != "setdefault":
            # `d[k] = d.get(k, 0) + 1` into `{}`: the default's type, until
            # the store settles the dict (the next round converts).
            default = self.expression(node.args[1])
            self.absorb(default)
            return TypedValue(self.dict_item_type(default, node.args[1], "values"))
        if dict_type.value is None:
            return TypedValue(UNKNOWN)
        if len(node.args) == 2 and name != "setdefault":
            default = self.expression(node.args[1])
            self.absorb(default)
            if not (is_scalar_type(default.type) or is_str(default.type)) or \
                    is_str(default.type) != is_str(dict_type.value) or join_items(
                    dict_type.value, self.dict_item_type(default, node.args[1], "values")) \
                    != dict_type.value:
                self.fail(node.args[1], f"the default of dict.{name}() of a "
                                        f"{dict_type.display} must be {named(dict_type.value)}"
                                        f" here, not {named(default.type)} (the result has "
                                        "one type)")
            self.convert(default, dict_type.value, node.args[1])
        return TypedValue(dict_type.value)

    def method_arguments(self, label, node, arity, others) -> None:
        """A dict's or set's method call (`label`: "dict.get"): no keyword
        arguments, and one of the counts of positional ones in `arity`
        (None: any count; False: the method is not supported, `others`
        says why)."""
        if node.keywords:
            self.fail(node, f"{label}() takes no keyword arguments")
        if arity is False:
            self.fail(node, f"{label}() is not supported ({others})")
        if arity is not None and len(node.args) not in arity:
            self.fail(node, f"{label}() takes {' or '.join(map(str, arity))} "
                            f"argument{'s' if max(arity) != 1 else ''}")

    def dict_builtin(self, name, node, value: TypedValue) -> TypedValue:
        """`list(d)`, `list(d.values())`, `sorted(d)`, `dict(d)`: new
        containers of a dict's keys, values (or a copy of the dict)."""
        self.raises = True
        if name == "dict" and value is None:
            return TypedValue(UNSETTLED_DICT)       # `dict()`
        if name == "dict":
            if not is_dict(value.type):
                self.fail(node, f"dict() takes a dict here, not {named(value.type)}")
            if is_unsettled_dict(value.type):
                return TypedValue(UNSETTLED_DICT if value.type.dict_class else value.type)
            return TypedValue(value.type.plain)
        if iteration_kind(value.type) == "items":
            self.fail(node, f"{name}() of a dict's items() is not supported yet (a list holds "
                            "numbers or strs, not tuples)")
        if dict_of(value.type).key is None:
            return TypedValue(UNKNOWN)
        if name == "sorted":
            self.sort_order(node)
        return TypedValue(kt.ListType(iteration_item(value.type)))

    def dict_sum(self, args, node) -> TypedValue:
        """`sum(d)` (of the keys), `sum(d.values())`, with an optional start."""
        if len(args) not in (1, 2):
            self.fail(node, "sum() takes a dict's keys or values and an optional start")
        self.absorb(*args)
        if iteration_kind(args[0].type) == "items":
            self.fail(node, "sum() of a dict's items() is not supported (CPython cannot add "
                            "tuples to 0)")
        self.raises = True
        item = iteration_item(args[0].type) if dict_of(args[0].type).key is not None else None
        if item is None:
            return TypedValue(UNKNOWN)
        return self.sum_total(item, args[1] if len(args) == 2 else None, node)

    def dict_min_max(self, container: TypedValue, node, name) -> TypedValue:
        """`min(d)`, `max(d.values())`: ValueError when the dict is empty."""
        self.absorb(container)
        if iteration_kind(container.type) == "items":
            self.fail(node, f"{name}() of a dict's items() is not supported yet")
        self.raises = True
        if dict_of(container.type).key is None:
            return TypedValue(UNKNOWN)
        return TypedValue(iteration_item(container.type))

    def dict_truthy_check(self, value: TypedValue, node) -> None:
        if is_dict_view(value.type):
            self.fail(node, "the truth value of a dict view is not supported yet; test the "
                            "dict itself")

    def dict_iteration(self, iterable: TypedValue, node) -> TypedValue:
        """What one step of a comprehension's `for` over a dict (or view) binds."""
        self.raises = True          # RuntimeError when the dict changes size
        if dict_of(iterable.type).key is None:
            return TypedValue(UNKNOWN)
        item = iteration_item(iterable.type)
        if isinstance(item, kt.TupleType):
            return self.tuple_value([TypedValue(e) for e in item.elements])
        return TypedValue(item)

    # ------------------------------------- collections.defaultdict, Counter
    def dict_class_call(self, name, node) -> TypedValue:
        """`defaultdict(int)` (float, bool, or `lambda: c` of a number
        constant c), `Counter()`, `Counter(xs)` of a list: a new dict of
        that class, whose key type (and a defaultdict's value type, when
        its factory is a lambda) the first stores settle."""
        self.raises = True          # kiln.dict.new: MemoryError
        if node.keywords:
            self.fail(node, f"{name}() takes no keyword arguments here")
        if name == "Counter":
            return self.counter_call(node)
        if len(node.args) != 1:
            self.fail(node, "defaultdict() is supported with its factory alone "
                            "(`defaultdict(int)`, `defaultdict(float)`, `defaultdict(bool)`, "
                            "`defaultdict(lambda: 0)`)" if node.args else
                      "defaultdict() without a factory raises KeyError as a dict does; use a "
                      "dict (`{}`)")
        value_type, default = self.default_factory(node.args[0])
        return TypedValue(UnsettledDict(None, value_type, "defaultdict", default))

    def default_factory(self, factory):
        """(value type, default) of a defaultdict's factory."""
        if isinstance(factory, ast.Name) and factory.id in ("int", "float", "bool") and \
                factory.id not in self.symbols and factory.id not in self.module.functions:
            value_type = kt.PYTHON_SCALARS[factory.id]
            return value_type, {"int": 0, "float": 0.0, "bool": False}[factory.id]
        if isinstance(factory, ast.Lambda) and not factory.args.args and \
                not factory.args.vararg and not factory.args.kwarg:
            constant = literal_number(factory.body)
            if constant is not None:
                return kt.PYTHON_SCALARS[type(constant).__name__], constant
        what = "list" if isinstance(factory, ast.Name) and factory.id == "list" else \
            f"`{ast.unparse(factory)}`"
        self.fail(factory, f"defaultdict({what}) is not supported: a dict's values are int, "
                           "float or bool, so its factory is int, float, bool or a lambda "
                           "returning a number written in the source (`lambda: 1`)")

    def counter_call(self, node) -> TypedValue:
        """`Counter()`, `Counter(xs)` (each item of the list counted)."""
        if not node.args:
            return TypedValue(UnsettledDict(None, kt.i64, "Counter", 0))
        if len(node.args) != 1:
            self.fail(node, "Counter() takes one list here")
        counted = self.expression(node.args[0])
        self.absorb(counted)
        if not isinstance(counted.type, kt.ListType):
            self.fail(node.args[0], f"Counter() counts the items of a list here, not of "
                                    f"{named(counted.type)}")
        if counted.type.item is None:
            return TypedValue(UnsettledDict(None, kt.i64, "Counter", 0))
        return TypedValue(kt.DictType(counted.type.item, kt.i64, "Counter", 0))


def literal_number(node):
    """The int, float or bool a literal (`1`, `-2.5`, `True`) is, else None."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    inner = node.operand if negative else node
    if not isinstance(inner, ast.Constant) or type(inner.value) not in (int, float, bool) or \
            (negative and type(inner.value) is bool):
        return None
    if type(inner.value) is int and not -2**63 <= (-inner.value if negative else inner.value) \
            < 2**63:
        return None
    return -inner.value if negative else inner.value
