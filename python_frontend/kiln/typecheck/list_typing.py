"""Type inference of Python lists of numbers (`kt.ListType`: int, float or
bool items, kt.LIST_ITEM_TYPES): literals and comprehensions, `[]` whose
item type comes from its context, indexing and stores, the methods, the
builtins that take a list, `+`, `*`, `==`, `in`, truthiness and the
prange refusal. Lowered by mlir/list_lowering.py, one function there per
function here. A mixin of type_inference.FunctionTyping.

The item type of a list is settled as variables are (in rounds):

* a literal's items join (`[1, 2.5]` is list[float], `[True, 1]` list[int];
  docs/language.md lists it as a difference);
* `[]` has no item type of its own (`UnsettledList`): where a list type is
  expected (an annotated or already typed variable, a parameter, the
  result, the other operand of `+`/`==`/`extend`) it takes that type;
* a value stored into a list variable that is not declared (`xs.append(v)`,
  `xs[i] = v`, `xs.insert(i, v)`, `xs += ys`) widens the variable's item
  type to hold it, and the next round types the function again;
* a *new* list (a literal, a comprehension, `+`/`*` of new lists) may be
  retyped to a wider item type where it is used (`xs: list[float] = [0] * n`),
  converting its items; any other list is shared between the names that
  refer to it, so it never converts: using a list[int] variable as a
  list[float] is an error.

After the last round, a list whose item type is still unknown is an error
naming the variable and how to annotate it."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .. import typesystem as kt
from .. import typing_rules as rules
from ..frontend.classes import common_base, subclasses_of
from ..frontend.desugar import ITERABLE_ROLE, zipped_call
from ..frontend.subset import SUPPORTED_BINOPS
from .class_typing import is_instance_like
from .typed_values import MixedItems, TypedValue, _Abandon
from ..typing_rules import UNKNOWN, display, is_unknown
from .typed_tree import (VariableType, container_noun, is_container, is_dict, is_dict_view,
                         is_counted, is_range, is_scalar_type, is_set, is_str)


@dataclass(frozen=True)
class UnsettledList(kt.ListType):
    """The type of `[]` (and of what holds it) before typing knows its items."""
    item: object = None

    @property
    def name(self) -> str:
        return "list[?]"


@dataclass(frozen=True)
class UnsettledSet(kt.SetType):
    """The type of `set()` (and of what holds it) before typing knows its
    elements. Here beside UnsettledList: a set's element type settles by
    the rules of a list's item type (set_typing.py)."""
    key: object = None

    @property
    def name(self) -> str:
        return "set[?]"


UNSETTLED_LIST = UnsettledList()
UNSETTLED_SET = UnsettledSet()
# The list methods that only read the list (the others change it and may
# raise: IndexError, MemoryError; index() raises ValueError itself).
SEARCHES = ("count", "index")
ITEM_ORDER = (kt.boolean, kt.i64, kt.f64)       # bool < int < float: how items join


def named(type_) -> str:
    """A type's name with its article: `an int`, `a list[float]`."""
    text = display(type_)
    return f"{'an' if str(text)[:1] in 'aeiou' else 'a'} {text}"


def is_list(type_) -> bool:
    return isinstance(type_, kt.ListType)


def holds_items(type_) -> bool:
    """A list or a set: a container of one item type (a set's elements),
    whose type settles by the rules below."""
    return isinstance(type_, (kt.ListType, kt.SetType))


def same_kind(a, b) -> bool:
    """Both lists or both sets."""
    return holds_items(a) and holds_items(b) and is_set(a) == is_set(b)


def item_words(type_) -> tuple:
    """(noun, what it holds) in messages: ("list", "items"), ("set", "elements")."""
    return ("set", "elements") if is_set(type_) else ("list", "items")


def with_item(type_, item):
    """The list or set type like `type_` holding `item` (unsettled: None)."""
    if item is None:
        return UNSETTLED_SET if is_set(type_) else UNSETTLED_LIST
    return type_.with_item(item)


def is_unsettled(type_) -> bool:
    return isinstance(type_, (UnsettledList, UnsettledSet))


def join_items(a, b):
    """The item type holding both (None: not known yet)."""
    if a is None:
        return b
    if b is None:
        return a
    if a == b:
        return a
    if item_family(a) != item_family(b):
        raise MixedItems(a, b)      # a str and a number: no item type holds both
    return max(a, b, key=ITEM_ORDER.index)


def item_family(type_):
    """Which items may share a list: numbers (an int widens to a float),
    strings, or instances of one class."""
    if is_str(type_):
        return "str"
    if isinstance(type_, kt.ClassType):
        return ("class", type_.class_name)
    return "number"


def is_new_list(node) -> bool:
    """A list (or set) made here and bound nowhere yet, so that its items
    may still convert (`[0] * n` used as a list[float], `{1} | {2}` as a
    set[float])."""
    if isinstance(node, (ast.List, ast.ListComp, ast.Set, ast.SetComp)):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.BitOr, ast.BitAnd,
                                                            ast.Sub, ast.BitXor)):
        return is_new_list(node.left) and is_new_list(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return is_new_list(node.left) or is_new_list(node.right)
    return False


def is_list_iteration(loop, variable_type) -> bool:
    """A `for` loop over a list (rewritten by desugar.py as a counted loop
    over `range(len(for$iterableN))`, or `min(...)` of several for zip):
    Python's list iterator reads the length at every step, so the loop is
    lowered as a while loop that does too. `variable_type(name)` is the
    type of a variable."""
    iterator = loop.iter
    if not (isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name)
            and iterator.func.id == "range" and len(iterator.args) == 1):
        return False
    for node in ast.walk(iterator.args[0]):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "len" and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Name) and \
                node.args[0].id.startswith(f"for${ITERABLE_ROLE}") and \
                is_list(variable_type(node.args[0].id)):
            return True
    return False


class ListTyping:
    # ------------------------------------------------------- item types
    def list_item_type(self, value: TypedValue, node) -> kt.ScalarType:
        """The item type a list needs to hold `value` (a Python literal at
        its own type): int, float or bool; anything else is refused."""
        type_ = rules.default_for_kind(value.weak) if value.weak else value.type
        if is_str(type_):
            return kt.string
        if isinstance(type_, kt.ClassType):
            if type_.optional:
                self.fail(node, f"a list of {type_.class_name} holds instances, not None: "
                                f"this value is {type_.display} (test it with `is not None` "
                                "first)")
            return type_
        if isinstance(type_, kt.ScalarType):
            if type_.is_bool:
                return kt.boolean
            if type_.is_complex:
                self.fail(node, "lists of complex numbers are not supported yet; a list holds "
                                "int, float, bool or str items")
            if type_.is_float:
                return kt.f64
            if type_ == kt.u64:
                self.fail(node, "a kiln.u64 does not fit a list item (a list[int] holds 64-bit "
                                "signed ints); convert it: int(v)")
            return kt.i64
        what = f"{container_noun(type_)}s" if is_container(type_) else "arrays" \
            if isinstance(type_, kt.ArrayType) else "tuples" \
            if isinstance(type_, kt.TupleType) else display(type_)
        self.fail(node, f"lists of {what} are not supported yet; a list holds int, float, "
                        "bool or str items")

    def stored_item(self, list_node, container: TypedValue, value: TypedValue, node):
        """`value` stored into the list `container` (`xs.append(v)`,
        `xs[i] = v`, `xs.insert(i, v)`) or added to the set `container`
        (`s.add(v)`), converted to its item type. A list or set variable
        that is not declared widens to hold it."""
        self.absorb(container, value)
        noun, items = item_words(container.type)
        needed = self.set_element_type(value, node) if noun == "set" else \
            self.list_item_type(value, node)
        item = container.type.item
        if item is not None and self.item_family_of(item) != self.item_family_of(needed):
            what = f"`{list_node.id}`, a {container.type.display}" \
                if isinstance(list_node, ast.Name) else f"a {container.type.display}"
            verb = "add {} to" if noun == "set" else "store {} into"
            self.fail(node, f"cannot {verb.format(named(needed))} {what}: a {noun} holds "
                            f"{items} of one type" + (" (convert it: str(x))"
                                                      if is_str(item) else ""))
        if item is not None and self.join_list_items(item, needed) == item:
            return self.convert(value, item, node)
        if self.widen_list_variable(list_node, needed):
            return TypedValue(needed)
        if item is None:
            return TypedValue(needed)       # `[].append(1)`: unsettled, reported at the end
        where = f"`{list_node.id}`, a {container.type.display}" \
            if isinstance(list_node, ast.Name) else f"a {container.type.display}"
        verb = "add {} to" if noun == "set" else "store {} into"
        self.fail(node, f"cannot {verb.format(named(needed))} {where}: a {noun} holds {items} "
                        f"of one type (declare it {noun}[{display(self.join_list_items(item, needed))}] "
                        "to hold both)")

    def join_list_items(self, a, b):
        """join_items, where instances of two classes of one hierarchy join
        as their nearest common base (a list[Shape] holds a Circle)."""
        if isinstance(a, kt.ClassType) and isinstance(b, kt.ClassType) and \
                a.class_name != b.class_name:
            classes = self.context.classes
            base = common_base(classes[a.class_name], classes[b.class_name]) \
                if a.class_name in classes and b.class_name in classes else None
            if base is None:
                raise MixedItems(a, b)
            return kt.ClassType(base.name)
        return join_items(a, b)

    def item_family_of(self, type_):
        """item_family, one for every class of a hierarchy (its root)."""
        if isinstance(type_, kt.ClassType) and type_.class_name in self.context.classes:
            return ("class", self.context.classes[type_.class_name].lineage[-1].name)
        return item_family(type_)

    def searched_instance(self, value: TypedValue, container: TypedValue, node, what: str):
        """An instance looked for in a list of instances: compared by
        identity, which is Python's `==` for a class without `__eq__` (the
        only kind compiled: calling a compiled `__eq__` per item is not)."""
        item = container.type.item
        if not isinstance(value.type, kt.ClassType) or \
                self.item_family_of(value.type) != self.item_family_of(item):
            self.fail(node, f"{what} of a {container.type.display} looks for "
                            f"{named(item)}, not {named(value.type)}")
        self.refuse_instance_equality(container.type, node, what)
        return value

    def widen_list_variable(self, list_node, needed) -> bool:
        """Makes the list (or set) variable `list_node` (not declared, not
        a parameter) hold `needed` items too; False when it cannot."""
        if not isinstance(list_node, ast.Name) or list_node.id in self.declared:
            return False
        current = self.var_types.get(list_node.id)
        if current is None or not holds_items(current.type):
            return False
        widened = current.type.with_item(self.join_list_items(current.type.item, needed))
        if widened != current.type:
            self.var_types[list_node.id] = VariableType(widened)
            self.changed = True
        return True

    def searched_value(self, value: TypedValue, container: TypedValue, node, what: str):
        """The value `in`, count(), index() and remove() look for, as an
        item: a bool among ints and an int among floats convert (as Python
        compares them); a float among ints or a number among bools is
        refused (the search would need Python's mixed comparisons)."""
        self.absorb(value)
        item = container.type.item
        if item is None:
            return value
        if isinstance(item, kt.ClassType) or isinstance(value.type, kt.ClassType):
            return self.searched_instance(value, container, node, what)
        if is_str(item) or is_str(value.type):
            if not (is_str(item) and is_str(value.type)):
                self.fail(node, f"{what} of a {container.type.display} looks for "
                                f"{named(item)}, not {named(value.type)} (it is never found "
                                "there; Kiln refuses the search)")
            return value
        if not is_scalar_type(value.type):
            self.fail(node, f"{what} of a {container.type.display} looks for a number, not "
                            f"{named(value.type)}")
        needed = self.list_item_type(value, node)
        if self.join_list_items(item, needed) != item:
            self.fail(node, f"{what} of a {container.type.display} needs {named(item)} "
                            f"value, not {named(needed)} (convert it first)")
        return self.convert(value, item, node)

    # --------------------------------------------------- settling types
    def settle_list(self, node, value: TypedValue, target, where) -> TypedValue:
        """`value` (of expression `node`) used where a `target` list (or
        set) is expected: `[]` (`set()`) takes its item type, a new list
        converts its items to a wider one; a list already bound to a name
        never converts."""
        if value.type == target or is_unknown(value.type) or is_unknown(target) or \
                (is_unsettled(target) and (same_kind(value.type, target) or
                                           not holds_items(value.type))):
            return value
        if not same_kind(value.type, target):
            self.fail(where, f"cannot use {named(value.type)} value as {display(target)}")
        if node is None and is_unsettled(value.type):
            return TypedValue(target)       # an unsettled list is reported at the end
        if node is not None and (is_unsettled(value.type) or (
                is_new_list(node) and self.join_list_items(value.type.item, target.item) == target.item)):
            self.retype_new_list(node, target)
            return TypedValue(target)
        noun, items = item_words(target)
        self.fail(where, f"a {value.type.display} is used as a {target.display}: a {noun} is "
                         f"shared, not converted, so its {items} keep their type; make it a "
                         f"{target.display} where it is created")

    def retype_new_list(self, node, target) -> None:
        """Gives a new list or set (or `[]`, `set()`) the type `target`, its
        items converted."""
        previous = self.values.get(node)
        self.values[node] = TypedValue(target)
        if isinstance(node, (ast.List, ast.Set)):
            for element in node.elts:
                known = self.values.get(element)
                if known is not None and not is_unknown(known.type):
                    self.guarded(self.convert, known, target.item, element)
        elif isinstance(node, (ast.ListComp, ast.SetComp)):
            known = self.values.get(node.elt)
            if known is not None and not is_unknown(known.type):
                self.guarded(self.convert, known, target.item, node.elt)
        elif isinstance(node, ast.BinOp):
            for operand in (node.left, node.right):
                known = self.values.get(operand)
                if known is not None and holds_items(known.type) and known.type != target:
                    self.retype_new_list(operand, target)
        elif previous is not None and not is_unsettled(previous.type):
            self.values[node] = previous

    def unify_lists(self, left_node, left, right_node, right, where, what):
        """The one list (or set) type of two operands (`xs + ys`, `xs ==
        ys`, `xs.extend(ys)`, `s | t`): `[]`, `set()` and new ones adapt to
        the other."""
        if left.type == right.type:
            return left.type
        joined = with_item(left.type, self.join_list_items(left.type.item, right.type.item))
        noun, items = item_words(joined)
        for node, value in ((left_node, left), (right_node, right)):
            if value.type != joined and not (is_new_list(node) or is_unsettled(value.type)):
                self.fail(where, f"{what} a {left.type.display} and a {right.type.display} is "
                                 f"not supported: a {noun} holds {items} of one type (build "
                                 f"both with {display(joined.item)} {items})")
        for node, value in ((left_node, left), (right_node, right)):
            self.settle_list(node, value, joined, where)
        return joined

    def join_list(self, current, value: TypedValue, node, name) -> VariableType:
        """A variable (or the result) that is a list (or a set) on some path."""
        if current is None:
            return VariableType(value.type)
        if not same_kind(current.type, value.type):
            self.fail(node, self.paths_disagree(node, name, current.type, value.type))
        return VariableType(with_item(current.type, self.join_list_items(current.type.item,
                                                               value.type.item)))

    def assign_list(self, name, value: TypedValue, value_node, node) -> None:
        """`xs = value` where the variable or the value is a list."""
        self.assign_container(name, value, value_node, node, is_list, self.join_list,
                              self.settle_list)

    def assign_set(self, name, value: TypedValue, value_node, node) -> None:
        """`s = value` where the variable or the value is a set."""
        self.assign_container(name, value, value_node, node, is_set, self.join_list,
                              self.settle_list)

    def assign_container(self, name, value: TypedValue, value_node, node, is_kind, join,
                         settle) -> None:
        """`x = value` where the variable or the value is a list or a dict:
        the rules lists and dicts share; `is_kind`, `join` and `settle` are
        the container's own (assign_list, DictTyping.assign_dict)."""
        declared = self.declared.get(name)
        if is_unknown(value.type):
            # Bound with what is known, so that its uses do not cascade.
            known = declared if declared is not None else getattr(
                self.var_types.get(name), "type", UNKNOWN)
            self.symbols[name] = TypedValue(known)
            self.maybe_undefined.discard(name)
            return
        if declared is not None:
            if is_unknown(declared):
                self.symbols[name] = TypedValue(UNKNOWN)
                self.maybe_undefined.discard(name)
                return
            target = declared
            if not is_kind(declared) or not is_kind(value.type):
                self.symbols[name] = TypedValue(declared)
                self.maybe_undefined.discard(name)
                self.fail(node, f"variable `{name}` is declared {display(declared)} but is "
                                f"assigned {named(value.type)}")
        else:
            if name not in self.var_types and hasattr(node, "lineno"):
                self.assigned_at.setdefault(name, node.lineno)
            variable = join(self.var_types.get(name), value, node, name)
            if variable != self.var_types.get(name):
                self.var_types[name] = variable
                self.changed = True
            target = variable.type
        self.list_bindings.setdefault(name, node)
        self.symbols[name] = TypedValue(target)
        self.maybe_undefined.discard(name)
        settle(value_node, value, target, node)

    def shared_list_value(self, targets, value_node, value: TypedValue, node) -> TypedValue:
        """`a = b = []` (`a = b = set()`): one list under several names, so
        one item type for all of them (what any of them is declared or
        stores decides)."""
        joined = value.type
        for target in targets:
            if isinstance(target, ast.Name):
                known = self.declared.get(target.id) or getattr(
                    self.var_types.get(target.id), "type", None)
                if same_kind(known, joined) and joined.item is None:
                    joined = known
                elif same_kind(known, joined) and known.item is not None:
                    joined = joined.with_item(self.join_list_items(joined.item, known.item))
        return self.settle_list(value_node, value, joined, node)

    def report_unsettled_lists(self) -> None:
        """After the last round: a list (or set) whose items are still
        unknown."""
        named = False
        for name, variable in self.var_types.items():
            if is_unsettled(variable.type) and "$" not in name:
                named = True
                self.report(self.list_bindings.get(name, self.func), (
                    f"cannot tell what set `{name}` holds: nothing is added to it; annotate "
                    f"it (`{name}: set[int] = set()`)") if is_set(variable.type) else (
                    f"cannot tell what list `{name}` holds: nothing is appended or "
                    f"stored into it; annotate it (`{name}: list[float] = []`)"))
        if named:
            return
        for node, value in list(self.values.items()):
            if isinstance(node, ast.List) and is_unsettled(value.type):
                self.report(node, "cannot tell what this empty list holds; bind it to an "
                                  "annotated variable (`xs: list[float] = []`)")
                return
            if isinstance(node, ast.Call) and is_set(value.type) and is_unsettled(value.type):
                self.report(node, "cannot tell what this empty set holds; bind it to an "
                                  "annotated variable (`s: set[int] = set()`)")
                return

    def refuse_list_in_parallel_loop(self, node, value: TypedValue) -> TypedValue:
        """Lists in a kiln.prange loop body: not supported yet (the
        references would be counted by several threads at once)."""
        if self.inside_parallel_loop and (is_container(value.type) or is_str(value.type)):
            what = "strings" if is_str(value.type) else f"{container_noun(value.type)}s"
            self.report(node, f"{what} are not supported inside a kiln.prange loop yet")
            return TypedValue(UNKNOWN)
        return value

    def uses_lists(self, stmt) -> bool:
        """Whether a loop body builds or reads lists (or dicts, sets,
        strings: parallel=True leaves such a loop sequential)."""
        # A string literal is a str value where an operator, a method or a
        # string builtin takes it (a raised message, a docstring or a dtype
        # name is text, but no value).
        texts = set()
        raised = {id(n) for r in ast.walk(stmt) if isinstance(r, (ast.Raise, ast.Assert))
                  for n in ast.walk(r)}
        for node in ast.walk(stmt):
            operands = [node.left, *node.comparators] if isinstance(node, ast.Compare) else \
                [node.left, node.right] if isinstance(node, ast.BinOp) else \
                [node.value] if isinstance(node, (ast.Subscript, ast.Attribute)) else \
                node.args if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("len", "ord", "str", "int", "float") else \
                [node.value] if isinstance(node, ast.Assign) else []
            texts |= {id(o) for o in operands if isinstance(o, ast.Constant) and
                      isinstance(o.value, str)}
        for node in ast.walk(stmt):
            if isinstance(node, (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set,
                                 ast.SetComp)) or id(node) in texts or (
                    isinstance(node, ast.JoinedStr) and id(node) not in raised) or (
                    isinstance(node, ast.Name) and is_counted(getattr(
                        self.var_types.get(node.id), "type", None))):
                return True
        return False

    def is_list_expression(self, node) -> bool:
        """Whether `node` is list-valued, known before it is typed here
        (which subscript or store it is): literals, comprehensions, list
        variables, `+`/`*` of lists, copies, sorted(), list()."""
        if isinstance(node, (ast.List, ast.ListComp)):
            return True
        known = self.known_container(node, is_list, ("sorted", "list"), list)
        if known is not None:
            return known
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
            return self.is_list_expression(node.left) or self.is_list_expression(node.right)
        if isinstance(node, ast.Subscript):
            return isinstance(node.slice, ast.Slice) and self.is_list_expression(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return (node.func.attr == "copy" and self.is_list_expression(node.func.value)) or \
                (node.func.attr == "split" and self.is_str_expression(node.func.value))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            # `self.items`: a list field of an instance a name holds
            known = self.symbols.get(node.value.id) or self.var_types.get(node.value.id)
            type_ = getattr(known, "type", None)
            info = self.context.classes.get(type_.class_name) \
                if isinstance(type_, kt.ClassType) else None
            field = info.field(node.attr) if info is not None else None
            return field is not None and isinstance(field.type, kt.ListType)
        return False

    def known_container(self, node, is_kind, builtins, constant=None):
        """For a name or a call of a name: whether it is a container of the
        kind `is_kind` tells (a variable's, a module constant of Python
        type `constant`, a module function's result, one of the `builtins`
        that make one), known before `node` is typed here; None for any
        other node."""
        if isinstance(node, ast.Name):
            known = self.symbols.get(node.id) or self.var_types.get(node.id)
            return known is not None and is_kind(known.type) or constant is not None and \
                isinstance(self.constant_named(node), constant)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in self.symbols or name in self.lambdas:
                return False
            if name in self.module.functions:
                typed = self.module.results.get(name)
                return typed is not None and typed.ok and is_kind(typed.return_type)
            return name in builtins
        if isinstance(node, ast.Attribute) and self.context.classes and \
                is_kind(self.known_field_type(node)):
            return True         # `self.items`: a list field of an instance
        return None

    # ------------------------------------------------------ expressions
    def expr_List(self, node):
        self.raises = True          # kiln.list.new: MemoryError
        if not node.elts:
            return TypedValue(UNSETTLED_LIST)
        values = [self.expression(e) for e in node.elts]
        return TypedValue(kt.ListType(self.joined_item(values, node.elts,
                                                       self.list_item_type)))

    def joined_item(self, values, nodes, item_type):
        """The one item type of a literal's items (a list's, a set's): each
        value's `item_type(value, node)`, joined; each converted to it."""
        self.absorb(*values)
        item = None
        for value, node in zip(values, nodes):
            item = self.join_list_items(item, item_type(value, node))
        for value, node in zip(values, nodes):
            self.convert(value, item, node)
        return item

    def expr_ListComp(self, node):
        """`[e for v in it if c ...]`: each `for` over range(...), a list, a
        dict, a set or a 1-D array; its names are the comprehension's own
        (Python 3)."""
        def element(found):
            value = self.expression(node.elt)
            self.absorb(value)
            found["item"] = self.list_item_type(value, node.elt)
            self.convert(value, found["item"], node.elt)

        found = self.comprehension(node, element)
        if "item" not in found:
            raise _Abandon()
        return TypedValue(kt.ListType(found["item"]))

    def comprehension(self, node, innermost) -> dict:
        """Types a list, dict or set comprehension (in_comprehension):
        `innermost(found)` types what each step makes, recording its types
        in `found` (returned; empty when the typing stopped)."""
        self.raises = True          # a new container: MemoryError
        found = {}
        self.in_comprehension(node, lambda: innermost(found))
        return found

    def in_comprehension(self, node, innermost) -> None:
        """Types the `for`s and `if`s of a comprehension (or generator
        expression) in its own scope, each `for` binding its names, then
        `innermost()` where its element is computed."""
        def generate(level):
            if level == len(node.generators):
                innermost()
                return
            generator = node.generators[level]
            self.bind_comprehension_target(generator)
            for condition in generator.ifs:
                self.truthy(self.expression(condition), condition, quiet=True)
            generate(level + 1)

        self.region(lambda: generate(0))

    def bind_comprehension_target(self, generator) -> None:
        """A comprehension's `for` binds one name, or `k, v` of a dict's
        items(), or one name per iterable of zip() (`i, v` of enumerate()),
        in the comprehension's own scope."""
        item = self.comprehension_item(generator.iter)
        target = generator.target
        if isinstance(target, ast.Name):
            bound = [(target.id, item)]
        elif isinstance(target, ast.Tuple) and item.elements is not None and \
                len(item.elements) == len(target.elts):
            bound = [(e.id, v) for e, v in zip(target.elts, item.elements)]
        else:
            self.fail(target, "a comprehension's `for` target must be a single name (or "
                              "`k, v` over a dict's items(), one name per iterable of zip(), "
                              "`i, v` of enumerate())")
        for name, value in bound:
            self.symbols[name] = value
            self.maybe_undefined.discard(name)

    def comprehension_item(self, iterator, dicts=True) -> TypedValue:
        """What a comprehension's `for` binds, one iteration at a time
        (`dicts`: a dict may be iterated; not in zip() and enumerate())."""
        if zipped_call(iterator, self.symbols, self.module.functions):
            if not dicts:
                self.fail(iterator, "zip() and enumerate() inside zip() or enumerate() are not "
                                    "supported yet in a comprehension")
            return self.zipped_items(iterator)         # generator_typing.py
        if isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name) and \
                iterator.func.id == "range" and "range" not in self.symbols:
            self.range_bounds(iterator)
            return TypedValue(kt.i64)
        iterable = self.expression(iterator)
        self.absorb(iterable)
        if (is_dict(iterable.type) or is_dict_view(iterable.type) or is_set(iterable.type)) \
                and not dicts:
            noun = container_noun(iterable.type)
            self.fail(iterator, f"zip() and enumerate() of a {noun} in a comprehension are not "
                                f"supported yet; iterate over " + (
                                    "list(d) (or d.items())" if noun == "dict" else "list(s)"))
        if is_dict(iterable.type) or is_dict_view(iterable.type) or is_set(iterable.type):
            return self.dict_iteration(iterable, iterator)      # a walk of its slots
        if is_range(iterable.type):
            return TypedValue(kt.i64)
        if is_str(iterable.type):
            self.raises = True          # kiln.str.char_at
            return TypedValue(kt.string)
        if is_list(iterable.type):
            self.raises = True          # kiln.list.get
            return TypedValue(UNKNOWN) if iterable.type.item is None \
                else TypedValue(iterable.type.item)
        if isinstance(iterable.type, kt.ArrayType) and iterable.type.ndim == 1 and \
                not iterable.fresh:
            self.raises = self.raises or self.boundscheck
            return TypedValue(iterable.type.dtype, numpy_bool=iterable.type.dtype.is_bool)
        self.fail(iterator, f"a comprehension's `for` goes over a range, a list, a dict, a "
                            f"set, a str or a 1-D array variable, not {named(iterable.type)}")

    def list_subscript(self, node, container: TypedValue) -> TypedValue:
        """`xs[i]` (a negative i counts from the end) and `xs[a:b:c]` (a new
        list; `xs[:]` a copy)."""
        self.absorb(container)
        self.raises = True          # IndexError, MemoryError, ValueError (step 0)
        if isinstance(node.slice, ast.Slice):
            self.slice_bounds(node.slice)
            return TypedValue(container.type)
        self.list_index(node.slice)
        return TypedValue(UNKNOWN) if container.type.item is None \
            else TypedValue(container.type.item)

    def list_index(self, index_node, what="list indices") -> None:
        """The index of `xs[i]` (of a range's `r[i]`, a slice's bounds:
        `what` names them in messages)."""
        if isinstance(index_node, ast.Tuple):
            self.fail(index_node, f"{what} must be integers, not tuple")
        self.list_index_value(self.expression(index_node), index_node, what)

    def slice_bounds(self, part: ast.Slice) -> None:
        """A list slice's start, stop and step: ints (or bools) where given
        (CPython also takes None and __index__ objects)."""
        for bound in (part.lower, part.upper, part.step):
            if bound is not None:
                self.list_index(bound, "slice indices")

    def list_store(self, target: ast.Subscript, value: TypedValue, node) -> None:
        """`xs[i] = v` (IndexError outside [-len, len))."""
        container = self.expression(target.value)
        self.absorb(container)
        if not is_list(container.type):
            self.fail(target, f"`{ast.unparse(target.value)}` is not a list")
        self.raises = True
        if isinstance(target.slice, ast.Slice):
            # `xs[a:b] = ys`: ys a list of xs's item type (CPython takes any
            # iterable).
            if not is_list(value.type):
                self.fail(node, f"assigning to a slice of a list takes a list here, not "
                                f"{named(value.type)}")
            self.slice_bounds(target.slice)
            self.absorb(value)
            self.extended(target.value, container, node.value, value, node,
                          "assigning to a slice of")
            return
        self.list_index(target.slice)
        self.stored_item(target.value, container, value, node)

    def delete_list_item(self, target: ast.Subscript, container: TypedValue) -> None:
        """`del xs[i]` (IndexError outside [-len, len)) and `del xs[a:b:c]`."""
        self.raises = True
        if isinstance(target.slice, ast.Slice):
            self.slice_bounds(target.slice)
        else:
            self.list_index(target.slice)

    def augmented_list_store(self, stmt) -> None:
        """`xs[i] += v`: the item, the operation, the item stored back."""
        target = stmt.target
        container = self.expression(target.value)
        self.absorb(container)
        if isinstance(target.slice, ast.Slice):
            self.fail(target, f"`{ast.unparse(target)} {SUPPORTED_BINOPS.get(type(stmt.op), '?')}= "
                              f"...` of a list slice is not supported; assign the slice "
                              f"(`{ast.unparse(target)} = ...`)")
        self.list_index(target.slice)
        self.raises = True
        if container.type.item is None:
            raise _Abandon()
        current = TypedValue(container.type.item)
        if is_str(current.type):
            operation = ast.copy_location(ast.BinOp(left=target, op=stmt.op,
                                                    right=stmt.value), stmt)
            result = self.str_binary(operation, current, self.expression(stmt.value))
        else:
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        self.values[stmt] = result
        self.stored_item(target.value, container, result, stmt)

    def augmented_list(self, stmt, current: TypedValue) -> None:
        """`xs += ys` (extends xs in place) and `xs *= n` (repeats it in place)."""
        value = self.expression(stmt.value)
        self.absorb(current, value)
        self.raises = True
        if isinstance(stmt.op, ast.Add):
            if not is_list(value.type):
                self.fail(stmt, f"`+=` on a list takes a list here, not {named(value.type)}")
            self.extended(stmt.target, current, stmt.value, value, stmt)
            return
        if isinstance(stmt.op, ast.Mult):
            self.repeat_count(value, stmt.value)
            return
        self.fail(stmt, f"unsupported operand for lists: `{ast.unparse(stmt)}`")

    def extended(self, list_node, container, other_node, other, node,
                 what="extending") -> None:
        """`xs.extend(ys)`, `xs += ys`, `xs[a:b] = ys`: ys's items into xs
        (same item type; a list variable that is not declared widens, `[]`
        adapts)."""
        if other.type.item is not None and (container.type.item is None or self.join_list_items(
                container.type.item, other.type.item) != container.type.item):
            if self.widen_list_variable(list_node, other.type.item):
                return
        self.unify_lists(list_node, container, other_node, other, node, what)

    def repeat_count(self, count: TypedValue, node) -> None:
        self.absorb(count)
        if not is_scalar_type(count.type) or not (count.type.is_int or count.type.is_bool):
            self.fail(node, f"a list is repeated by an int, not {named(count.type)}")
        self.convert(count, kt.i64, node)

    def list_binary(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`xs + ys` (a new list), `xs * n` and `n * xs` (a new list, empty
        for n <= 0)."""
        self.absorb(left, right)
        self.raises = True
        if isinstance(node.op, ast.Add):
            if not (is_list(left.type) and is_list(right.type)):
                self.fail(node, f"`+` of {named(left.type)} and {named(right.type)} is "
                                "not supported (a list concatenates with a list)")
            return TypedValue(self.unify_lists(node.left, left, node.right, right, node,
                                               "concatenating"))
        if isinstance(node.op, ast.Mult):
            container, count, count_node = (left, right, node.right) if is_list(left.type) \
                else (right, left, node.left)
            if is_list(count.type):
                self.fail(node, "a list cannot be multiplied by a list")
            self.repeat_count(count, count_node)
            return TypedValue(container.type)
        symbol = SUPPORTED_BINOPS.get(type(node.op), "@")
        self.fail(node, f"operator `{symbol}` does not take a list (lists take + and *)")

    def list_unary(self, node, operand: TypedValue) -> TypedValue:
        if isinstance(node.op, ast.Not):
            return TypedValue(kt.boolean)
        self.fail(node, f"unary operator in `{ast.unparse(node)}` does not take a list")

    def list_compare(self, node) -> TypedValue:
        """`v in xs`, `v not in xs`, `xs == ys`, `xs != ys`."""
        if len(node.ops) != 1:
            self.fail(node, "chained comparisons with lists or `in` are not supported yet; "
                            "combine two comparisons with `and`")
        op, right_node = node.ops[0], node.comparators[0]
        left = self.expression(node.left)
        right = self.expression(right_node)
        self.absorb(left, right)
        if is_set(right.type) or (is_set(left.type) and not isinstance(op, (ast.In,
                                                                             ast.NotIn))):
            return self.set_compare(node, left, right)
        if is_dict(left.type) or is_dict(right.type) or is_dict_view(right.type) or \
                is_dict_view(left.type):
            return self.dict_compare(node, left, right)
        if is_range(left.type) or is_range(right.type):
            return self.range_compare(node, left, right)        # `i in r`
        if isinstance(op, (ast.In, ast.NotIn)) and is_instance_like(right.type):
            return self.instance_contains(node, left, right)    # `x in o`: class_protocols.py
        if isinstance(op, (ast.In, ast.NotIn)) and is_str(right.type):
            return self.str_membership(node, left, right)       # `c in s`
        if is_str(left.type) and is_str(right.type):
            return self.str_comparison(op, left, right, node)
        if isinstance(op, (ast.In, ast.NotIn)):
            if not is_list(right.type):
                self.fail(node, f"`in` takes a list on its right here, not "
                                f"{named(right.type)}")
            self.searched_value(left, right, node, "`in`")
            return TypedValue(kt.boolean)
        if not (is_list(left.type) and is_list(right.type)):
            self.fail(node, f"a list compares only with a list here, not with "
                            f"{named(right.type if is_list(left.type) else left.type)}")
        if not isinstance(op, (ast.Eq, ast.NotEq)):
            self.fail(node, "lists compare with == and != only here (ordering lists is not "
                            "supported yet)")
        self.unify_lists(node.left, left, right_node, right, node, "comparing")
        self.refuse_instance_equality(left.type, node, "`==` of lists")
        return TypedValue(kt.boolean)

    def refuse_instance_equality(self, type_, node, what: str) -> None:
        """Items compared by identity: Python's `==` for a class without
        its own `__eq__`; a class with one is refused (its `__eq__` per item
        is not compiled)."""
        item = getattr(type_, "item", None)
        if not isinstance(item, kt.ClassType):
            return
        classes = self.context.classes
        for info in [classes[item.class_name], *subclasses_of(classes, item.class_name)]:
            owner = info.defining("__eq__")
            if owner is not None:
                self.fail(node, f"{what} of a {type_.display}: class `{owner.name}` defines "
                                "__eq__, which comparing items would call per item; that is "
                                "not compiled yet (loop over the list and compare)")

    def refuse_instance_order(self, type_, node, what: str) -> None:
        """Ordering instances (sort, sorted, min, max, sum) would call their
        `__lt__` or `__add__` per item: not compiled yet."""
        item = getattr(type_, "item", None)
        if isinstance(item, kt.ClassType):
            self.fail(node, f"{what} of a {type_.display} is not supported yet (it calls the "
                            f"items' methods; loop over the list, or sort their keys)")

    # ------------------------------------------------------------ calls
    def list_method(self, func: ast.Attribute, container: TypedValue, node) -> TypedValue:
        """`xs.append(v)`, `xs.pop()`, `xs.sort(reverse=True)`, ..."""
        name = func.attr
        self.absorb(container)
        if name != "sort" and node.keywords:
            self.fail(node, f"list.{name}() takes no keyword arguments")
        arity = {"append": (1,), "pop": (0, 1), "insert": (2,), "extend": (1,), "clear": (0,),
                 "reverse": (0,), "sort": (0,), "copy": (0,), "count": (1,), "index": (1,),
                 "remove": (1,)}[name]
        if len(node.args) not in arity:
            if name == "index":
                self.fail(node, "list.index() with start and stop is not supported yet")
            self.fail(node, f"list.{name}() takes {' or '.join(map(str, arity))} "
                            f"argument{'s' if max(arity) != 1 else ''}")
        args = [self.expression(a) for a in node.args]
        item = container.type.item
        if name not in SEARCHES:
            self.raises = True      # the list changes or grows: IndexError, MemoryError
        if name == "append":
            self.stored_item(func.value, container, args[0], node)
            return TypedValue(None)
        if name == "insert":
            self.list_index_value(args[0], node.args[0])
            self.stored_item(func.value, container, args[1], node)
            return TypedValue(None)
        if name == "pop":
            if args:
                self.list_index_value(args[0], node.args[0])
            return TypedValue(UNKNOWN) if item is None else TypedValue(item)
        if name == "extend":
            self.absorb(args[0])
            if not is_list(args[0].type):
                self.fail(node, f"list.extend() takes a list here, not {named(args[0].type)}")
            self.extended(func.value, container, node.args[0], args[0], node)
            return TypedValue(None)
        if name in ("count", "index", "remove"):
            self.searched_value(args[0], container, node, f"list.{name}()")
            if name == "index":
                self.raises = True  # ValueError
            return TypedValue(None) if name == "remove" else TypedValue(kt.i64)
        if name == "sort":
            self.refuse_instance_order(container.type, node, "list.sort()")
            self.sort_order(node)
        return TypedValue(container.type) if name == "copy" else TypedValue(None)

    def list_index_value(self, value: TypedValue, node, what="list indices") -> None:
        self.absorb(value)
        if not is_scalar_type(value.type) or not (value.type.is_int or value.type.is_bool):
            self.fail(node, f"{what} must be integers, not {display(value.type)}")
        self.convert(value, kt.i64, node)

    def sort_order(self, node) -> None:
        """`reverse=` of sort() and sorted(): any truth value; `key=` is
        not supported yet."""
        for keyword in node.keywords:
            if keyword.arg != "reverse":
                self.fail(keyword, f"`{keyword.arg}=` of sorting is not supported yet (only "
                                   "reverse=)")
            self.truthy(self.expression(keyword.value), keyword.value)

    def list_builtin(self, name, node) -> TypedValue:
        """`sorted(xs[, reverse=...])`, `list(xs)`, `list()`, `list(range(...))`;
        those of a dict or set, `dict(...)` and `set(...)` are theirs."""
        if name == "set":
            return self.set_builtin(node)
        if name == "list" and node.keywords:
            self.fail(node, "list() takes no keyword arguments")
        if name == "list" and not node.args:
            self.raises = True
            return TypedValue(UNSETTLED_LIST)
        if name == "dict" and (node.keywords or len(node.args) > 1):
            self.fail(node, "dict() takes a dict here (no keywords, no pairs yet)")
        if name == "dict" and not node.args:
            return self.dict_builtin(name, node, None)
        if len(node.args) != 1:
            self.fail(node, f"{name}() takes one list")
        self.raises = True
        argument = node.args[0]
        value = self.expression(argument)
        self.absorb(value)
        if is_dict(value.type) or is_dict_view(value.type) or is_set(value.type) or \
                name == "dict":
            return self.dict_builtin(name, node, value)     # a walk of its slots
        if is_range(value.type):
            if name == "sorted":
                self.sort_order(node)
            return TypedValue(kt.ListType(kt.i64))     # `list(range(n))`, `sorted(r)`
        if is_str(value.type):
            if name == "sorted":
                self.sort_order(node)
            return TypedValue(kt.ListType(kt.string))  # `list(s)`, `sorted(s)`: characters
        if not is_list(value.type):
            what = "range(...) or a list" if name == "list" else "a list"
            self.fail(node, f"{name}() takes {what} here, not {named(value.type)}")
        if name == "sorted":
            self.refuse_instance_order(value.type, node, "sorted()")
            self.sort_order(node)
        return TypedValue(value.type)

    def builtin_sum(self, args, node):
        """`sum(xs)`, `sum(xs, start)`: an int list sums to an int (64-bit,
        wrapping as Kiln ints do), a float list to a float, left to right."""
        if len(args) not in (1, 2):
            self.fail(node, "sum() takes a list and an optional start")
        self.absorb(*args)
        if is_dict(args[0].type) or is_dict_view(args[0].type) or is_set(args[0].type):
            return self.dict_sum(args, node)                # a walk of its slots
        if not is_list(args[0].type) and not is_range(args[0].type):
            self.fail(node, "sum() takes a list here" + (
                "; of an array use np.sum(a) or a.sum()"
                if isinstance(args[0].type, kt.ArrayType) else ""))
        self.raises = True          # kiln.list.get
        item = kt.i64 if is_range(args[0].type) else args[0].type.item
        if item is None:
            return TypedValue(UNKNOWN)
        self.refuse_instance_order(args[0].type, node, "sum()")
        return self.sum_total(item, args[1] if len(args) == 2 else None, node)

    def sum_total(self, item, start: TypedValue | None, node) -> TypedValue:
        """The total of sum() of `item`s from `start`: a float when either
        is one, else an int (64-bit, wrapping as Kiln ints do)."""
        if is_str(item):
            self.fail(node, "sum() of strs is not supported (CPython raises TypeError: it adds "
                            "them to 0); join them: ''.join(xs)")
        total = kt.f64 if item.is_float else kt.i64
        if start is not None:
            if not is_scalar_type(start.type) or start.type.is_complex:
                self.fail(node, "sum()'s start must be an int or a float")
            if self.list_item_type(start, node).is_float:
                total = kt.f64
            self.convert(start, total, node)
        return TypedValue(total)

    def list_min_max(self, container: TypedValue, node, name) -> TypedValue:
        """`min(xs)`, `max(xs)`: ValueError on an empty list."""
        self.absorb(container)
        self.refuse_instance_order(container.type, node, f"{name}()")
        self.raises = True
        return TypedValue(UNKNOWN) if container.type.item is None \
            else TypedValue(container.type.item)
