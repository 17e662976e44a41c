"""Type inference of Python sets of numbers (`kt.SetType`: int, float or
bool elements, kt.SET_ITEM_TYPES): literals and comprehensions, `set(...)`
of a list, a set, a dict (its keys, or a view's values) or range(...),
membership, the methods, the operators `| & - ^` and their in-place
forms, the comparisons (`<=` is subset), and the refusals. Lowered by
mlir/set_lowering.py. A mixin of type_inference.FunctionTyping.

A set's element type settles by a list's rules (list_typing.py, whose
functions take sets: UnsettledSet, stored_item, settle_list, unify_lists,
join_list): a literal's elements join (`{1, 2.5}` is set[float], `{True,
1}` set[int]); `set()` takes its type where a set type is expected (an
annotation, a parameter, the result, the other operand of `|` or `==`) or
from the first `s.add(v)` of a variable that is not declared, which
widens the variable; a *new* set (a literal, a comprehension, an operator
of new sets) may be retyped to a wider type where it is used; any other
set is shared between its names, so it never converts.

An element looked up (`x in s`, discard, remove) converts as a dict's key
does (dict_typing.looked_up_key): a bool among ints, an int among floats;
a float among ints or a number among bools is refused. Walking a set
(`for`, comprehensions, sorted, list, sum, min, max, any, all) is walking
a dict's keys: dict_typing's walks take sets (typed_tree.dict_of).

The methods that take another iterable (union, update, issubset, ...)
take a set, a list, a dict (its keys or a view's values) or range(...);
what is not a set becomes a temporary set of the receiver's element type,
so its items must fit that type. The operators take sets only (CPython
raises TypeError for `s | xs`)."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..frontend.subset import SUPPORTED_BINOPS
from .dict_typing import is_hidden_iterable
from .list_typing import UNSETTLED_SET, is_list, join_items, named
from .typed_values import TypedValue, _Abandon
from ..typing_rules import UNKNOWN, display
from .typed_tree import is_dict, is_dict_view, is_range, is_set, is_str, iteration_kind

# `a <op> b` of two sets, as the kiln.set.combine operation it is.
SET_OPERATORS = {ast.BitOr: "union", ast.BitAnd: "intersection", ast.Sub: "difference",
                 ast.BitXor: "symmetric_difference"}
# The methods that make a new set of the receiver and other iterables.
COMBINING = ("union", "intersection", "difference", "symmetric_difference")
# The methods that change the receiver with other iterables, by operation.
UPDATING = {"update": "union", "intersection_update": "intersection",
            "difference_update": "difference",
            "symmetric_difference_update": "symmetric_difference"}
PREDICATES = ("issubset", "issuperset", "isdisjoint")
# Positional arguments each method takes (None: any number of iterables).
ARITY = {"add": (1,), "discard": (1,), "remove": (1,), "pop": (0,), "clear": (0,),
         "copy": (0,), "union": None, "intersection": None, "difference": None,
         "symmetric_difference": (1,), "update": None, "intersection_update": None,
         "difference_update": None, "symmetric_difference_update": (1,), "issubset": (1,),
         "issuperset": (1,), "isdisjoint": (1,)}
# The set methods that only read the set (the others may allocate or raise).
SET_READS = ("issubset", "issuperset", "isdisjoint")


def is_range_call(node, symbols) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == "range" and "range" not in symbols


def adds_elements(operation) -> bool:
    """Whether an in-place operation may add the other's elements (then a
    set variable that is not declared widens to hold them)."""
    return operation in ("union", "symmetric_difference")


class SetTyping:
    # ------------------------------------------------------ elements
    def set_element_type(self, value: TypedValue, node) -> kt.ScalarType:
        """The element type a set needs to hold `value`: int, float or
        bool; anything else is refused."""
        return self.dict_item_type(value, node, "elements", "set")

    def is_set_expression(self, node) -> bool:
        """Whether `node` is set-valued, known before it is typed here."""
        if isinstance(node, (ast.Set, ast.SetComp)):
            return True
        known = self.known_container(node, is_set, ("set",))
        if known is not None:
            return known
        if isinstance(node, ast.BinOp) and type(node.op) in SET_OPERATORS:
            return self.is_set_expression(node.left) or self.is_set_expression(node.right)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr in ("copy",) + COMBINING and \
                self.is_set_expression(node.func.value)
        return False

    # ------------------------------------------------------ expressions
    def expr_Set(self, node):
        """`{a, b, c}`: the elements join (a bool among ints is an int)."""
        self.raises = True          # kiln.set.new, add: MemoryError
        values = []
        for element in node.elts:
            self.refuse_text_item(element, "elements", "set")
            values.append(self.expression(element))
        return TypedValue(kt.SetType(self.joined_item(values, node.elts,
                                                      self.set_element_type)))

    def expr_SetComp(self, node):
        """`{e for x in it if c ...}`: each `for` as a list comprehension's;
        its names are the comprehension's own."""
        def element(found):
            self.refuse_text_item(node.elt, "elements", "set")
            value = self.expression(node.elt)
            self.absorb(value)
            found["key"] = self.set_element_type(value, node.elt)
            self.convert(value, found["key"], node.elt)

        found = self.comprehension(node, element)
        if "key" not in found:
            raise _Abandon()
        return TypedValue(kt.SetType(found["key"]))

    def set_builtin(self, node) -> TypedValue:
        """`set()` (its type settles later), `set(x)` of a set (a copy), a
        list, a dict (its keys), a view (`set(d.values())`) or range(...)."""
        self.raises = True          # kiln.set.new, add: MemoryError
        if node.keywords:
            self.fail(node, "set() takes no keyword arguments")
        if not node.args:
            return TypedValue(UNSETTLED_SET)
        if len(node.args) != 1:
            self.fail(node, "set() takes one list, set, dict or range(...)")
        item = self.iterable_item(node.args[0], node, "set()")
        if item is UNKNOWN:
            return TypedValue(UNKNOWN)
        return TypedValue(UNSETTLED_SET if item is None else kt.SetType(item))

    def iterable_item(self, iterable_node, node, what):
        """The items `set(...)` and the set methods take from an iterable
        that is a list, a set, a dict or view, or range(...): their type,
        None when not known yet (`[]`), UNKNOWN after an error."""
        if is_range_call(iterable_node, self.symbols):
            self.range_bounds(iterable_node)
            return kt.i64
        value = self.expression(iterable_node)
        self.absorb(value)
        if is_dict(value.type) or is_dict_view(value.type):
            if iteration_kind(value.type) == "items":
                self.fail(iterable_node, f"{what} of a dict's items() is not supported yet (a "
                                         "set holds numbers or strs, not tuples)")
            return self.dict_iteration(value, iterable_node).type
        if is_list(value.type) or is_set(value.type):
            return value.type.item
        if is_range(value.type):
            return kt.i64           # a range value: `set(r)`
        if is_str(value.type) and what == "set()":
            self.raises = True      # kiln.str.char_at
            return kt.string        # `set(s)`: its characters
        self.fail(iterable_node, f"{what} takes a list, a set, a dict or range(...) here, not "
                                 f"{named(value.type)}")

    # ------------------------------------------------------------ calls
    def set_method(self, func: ast.Attribute, container: TypedValue, node) -> TypedValue:
        """`s.add(x)`, `s.union(t)`, `s.issubset(t)`, ..."""
        name = func.attr
        self.absorb(container)
        self.method_arguments(f"set.{name}", node, ARITY.get(name, False),
                              "list and dict methods do not apply to a set")
        if name not in SET_READS:
            self.raises = True      # allocates (MemoryError) or raises KeyError
        set_type = container.type
        if name in ("add", "discard", "remove"):
            self.refuse_text_item(node.args[0], "elements", "set")
        if name == "add":
            self.stored_item(func.value, container, self.expression(node.args[0]), node)
            return TypedValue(None)
        if name in ("discard", "remove"):
            self.looked_up_key(self.expression(node.args[0]), set_type, node, f"set.{name}()")
            return TypedValue(None)
        if name == "pop":
            return TypedValue(UNKNOWN) if set_type.key is None else TypedValue(set_type.key)
        if name in ("clear", "copy"):
            return TypedValue(set_type) if name == "copy" else TypedValue(None)
        self.raises = True          # a lookup builds the table: MemoryError
        result = set_type
        for argument in node.args:
            result = self.other_operand(func.value, container, argument, node, name)
        if name in COMBINING:
            return TypedValue(result)
        return TypedValue(kt.boolean) if name in PREDICATES else TypedValue(None)

    def other_operand(self, set_node, container: TypedValue, other_node, node, name,
                      other=None):
        """The other iterable of `s.<name>(t)` (`other`: its value when it
        is typed already): a set unifies with the receiver (as `s | t`
        does); a list, dict or range(...) becomes a temporary set of the
        receiver's type, so its items must fit it. An in-place method that
        may add elements to a set variable that is not declared widens it
        to hold them. Returns the result's type."""
        operation = UPDATING.get(name, name)
        widens = name in UPDATING and (adds_elements(operation) or container.type.key is None)
        label = f"set.{name}()"
        if other is not None or not is_range_call(other_node, self.symbols):
            other = other or self.expression(other_node)
            self.absorb(other)
            if is_set(other.type):
                if widens and other.type.key is not None and (
                        container.type.key is None or
                        join_items(container.type.key, other.type.key) != container.type.key):
                    if self.widen_list_variable(set_node, other.type.key):
                        return container.type
                return self.unify_lists(set_node, container, other_node, other, node,
                                        "combining")
        item = self.iterable_item(other_node, node, label)
        key = container.type.key
        if item is None or item is UNKNOWN or (key is not None and
                                               join_items(key, item) == key):
            return container.type
        if widens and self.widen_list_variable(set_node, item):
            return container.type
        if key is None:
            return container.type
        self.fail(node, f"{label} of a {container.type.display} takes {display(key)} items "
                        f"here, not {display(item)} ones (a set holds elements of one type; "
                        f"make it a set[{display(join_items(key, item))}] where it is created)")

    # -------------------------------------------------------- operators
    def set_binary(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`s | t`, `s & t`, `s - t`, `s ^ t`: a new set, of two sets."""
        self.absorb(left, right)
        self.raises = True
        symbol = SUPPORTED_BINOPS.get(type(node.op), "@")
        if type(node.op) not in SET_OPERATORS:
            self.fail(node, f"operator `{symbol}` does not take a set (sets take |, &, - and ^)")
        if not (is_set(left.type) and is_set(right.type)):
            other = right.type if is_set(left.type) else left.type
            self.fail(node, f"`{symbol}` of a set and {named(other)} is not supported (CPython "
                            f"raises TypeError; a set combines with a set, or use "
                            f"s.{SET_OPERATORS[type(node.op)]}(...))")
        return TypedValue(self.unify_lists(node.left, left, node.right, right, node,
                                           "combining"))

    def augmented_set(self, stmt, current: TypedValue) -> None:
        """`s |= t`, `s &= t`, `s -= t`, `s ^= t`: s changed in place (every
        name of it sees the change), t a set."""
        value = self.expression(stmt.value)
        self.absorb(current, value)
        self.raises = True
        operation = SET_OPERATORS.get(type(stmt.op))
        if operation is None:
            symbol = SUPPORTED_BINOPS.get(type(stmt.op), "@")
            self.fail(stmt, f"`{symbol}=` does not take a set (sets take |=, &=, -= and ^=)")
        if not is_set(value.type):
            symbol = SUPPORTED_BINOPS[type(stmt.op)]
            self.fail(stmt, f"`{symbol}=` on a set takes a set here, not {named(value.type)} "
                            "(CPython raises TypeError)")
        method = next(name for name, done in UPDATING.items() if done == operation)
        self.other_operand(stmt.target, current, stmt.value, stmt, method, value)

    def set_compare(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`x in s`, `x not in s`, `s == t`, `s != t`, `s <= t` (subset),
        `s < t` (proper subset), `s >= t`, `s > t`."""
        op, right_node = node.ops[0], node.comparators[0]
        self.absorb(left, right)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not is_set(right.type):
                self.fail(node, f"`in` takes a set on its right here, not {named(right.type)}")
            self.raises = True      # the lookup builds the table: MemoryError
            self.looked_up_key(left, right.type, node, "`in`")
            return TypedValue(kt.boolean)
        if not (is_set(left.type) and is_set(right.type)):
            other = right.type if is_set(left.type) else left.type
            self.fail(node, f"a set compares only with a set here, not with {named(other)}")
        self.raises = True
        self.unify_lists(node.left, left, right_node, right, node, "comparing")
        return TypedValue(kt.boolean)

    def set_subscript(self, node, container: TypedValue) -> TypedValue:
        """The element a set loop's step is at (`x = for$iterable1[k]`,
        desugar.py); a set is not indexed otherwise."""
        if not is_hidden_iterable(node.value):
            self.absorb(container)
            self.fail(node, "'set' object is not subscriptable (a set has no order to index; "
                            "iterate over it, or index sorted(s))")
        return self.dict_subscript(node, container)

    def refuse_set_store(self, target) -> None:
        """`s[k] = v`, `s[k] += v`: CPython's TypeError, at compile time."""
        self.fail(target, "'set' object does not support item assignment (add elements with "
                          "s.add(x))")
