"""Lowering of Python lists (typed by typecheck/list_typing.py) to the kiln
dialect's list ops (`kiln.list.*`; their semantics are in
lib/Dialect/KilnOps.td). A mixin of code_generator.FunctionCodeGenerator.

The reference counting that keeps each list alive exactly as long as a
name or a temporary holds it (owned and borrowed values, `kiln.retain`,
`kiln.release`) is ownership.py's, shared with dicts.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value
from ..typecheck.list_typing import is_list, is_list_iteration
from ..typecheck.typed_tree import is_dict, is_dict_view, is_range, is_set, is_str

# The list ops that can raise (IndexError, MemoryError: every op that
# allocates or writes): the function then gets an error record, as for
# kiln.check. len, count, find, equal, retain and release cannot raise.
RAISING_LIST_OPS = frozenset(["new", "get", "set", "append", "pop", "insert", "clear",
                              "reverse", "sort", "extend", "copy", "concat", "repeat",
                              "slice", "assign_slice", "delete_slice"])


class ListLowering:
    # ------------------------------------------------------- list ops
    def list_op(self, mnemonic, operands, node, result_type=None, attributes=None):
        """One `kiln.list.<mnemonic>` op; its result as a Value of
        `result_type` (a Kiln type) when it has one."""
        return self.container_op(f"kiln.list.{mnemonic}", mnemonic in RAISING_LIST_OPS,
                                 operands, node, result_type, attributes)

    def new_list(self, list_type, capacity: Value, node) -> Value:
        made = self.list_op("new", [capacity], node, list_type)
        made.owned = True
        return made

    def list_length(self, container: Value, node) -> Value:
        length = self.list_op("len", [container], node, kt.i64)
        length.nonneg = True
        return length

    def list_get(self, container: Value, index: Value, node) -> Value:
        return self.list_op("get", [container, index], node, container.type.item)

    def list_append(self, container: Value, value: Value, node) -> None:
        """The list takes a reference of its own to a str item: a
        temporary's is released after."""
        self.list_op("append", [container, value], node)
        self.done_with(node, value)

    def empty_list(self, list_type, node) -> Value:
        """A new empty list (the loop state of a list result before a
        `return` sets it)."""
        return self.new_list(list_type, self.constant(0, kt.i64, node), node)

    # ------------------------------------------------------ expressions
    def expr_List(self, node):
        list_type = self.typed_value(node).type
        return self.build_list(list_type, [self.convert(self.expression(e), list_type.item, e)
                                           for e in node.elts], node)

    def build_list(self, list_type, items, node) -> Value:
        """A new list of these items (of its item type)."""
        made = self.new_list(list_type, self.constant(len(items), kt.i64, node), node)
        for item in items:
            self.list_append(made, item, node)
        return made

    def expr_ListComp(self, node):
        """Nested loops appending to a new list; each `for` binds its name
        in its loop's scope only (Python 3: the names do not leak)."""
        list_type = self.typed_value(node).type
        return self.comprehension(node, lambda hint: self.new_list(list_type, hint, node),
                                  lambda made: self.list_append(made, self.convert(
                                      self.expression(node.elt), list_type.item, node.elt),
                                      node))

    def list_subscript(self, node) -> Value:
        """`xs[i]` (kiln.list.get wraps a negative index and raises
        IndexError), `xs[:]` (a copy) and `xs[a:b:c]` (a new list)."""
        container = self.expression(node.value)
        if isinstance(node.slice, ast.Slice):
            if (node.slice.lower, node.slice.upper, node.slice.step) == (None, None, None):
                result = self.list_op("copy", [container], node, container.type)
            else:
                result = self.list_slice_op("slice", container, node.slice, [], node,
                                            container.type)
            result.owned = True
        else:
            index = self.convert(self.expression(node.slice), kt.i64, node.slice)
            result = self.list_get(container, index, node)
            if is_str(result.type):
                # kiln.list.get lends the list's reference: owned here, so
                # the string outlives a temporary list and any later change
                # of the list.
                result = self.own(result, node)
        self.done_with(node, container)
        return result

    def list_slice_op(self, mnemonic, container: Value, part: ast.Slice, values, node,
                      result_type=None):
        """kiln.list.slice / assign_slice / delete_slice of `part`: its start
        and stop where given (the op's optional operands), its step (1 when
        not given), evaluated left to right as CPython does."""
        bounds = [None if bound is None else
                  self.convert(self.expression(bound), kt.i64, bound)
                  for bound in (part.lower, part.upper, part.step)]
        start, stop, step = bounds
        if step is None:
            step = self.constant(1, kt.i64, node)
        operands = [container] + [b for b in (start, stop) if b is not None] + [step] + values
        segments = [1, int(start is not None), int(stop is not None), 1] + [1] * len(values)
        return self.list_op(mnemonic, operands, node, result_type,
                            {"operandSegmentSizes": ir.dense_array_attr(segments, ir.i32)})

    def delete_list_item(self, target: ast.Subscript, container: Value, node) -> None:
        """`del xs[a:b:c]`, and `del xs[i]`: IndexError("list assignment
        index out of range") outside [-len, len), then the one-item slice."""
        if isinstance(target.slice, ast.Slice):
            self.list_slice_op("delete_slice", container, target.slice, [], node)
        else:
            index = self.convert(self.expression(target.slice), kt.i64, target.slice)
            length = self.list_length(container, node)
            zero = self.constant(0, kt.i64, node)
            from_end = self.arith("addi", index, length, node)
            position = self.select(self.cmpi("slt", index, zero, node), from_end, index, node)
            inside = self.arith("andi", self.cmpi("sge", position, zero, node),
                                self.cmpi("slt", position, length, node), node)
            self.check(inside, "IndexError", "list assignment index out of range", [], node)
            following = self.arith("addi", position, self.constant(1, kt.i64, node), node)
            step = self.constant(1, kt.i64, node)
            self.list_op("delete_slice", [container, position, following, step], node, None,
                         {"operandSegmentSizes": ir.dense_array_attr([1, 1, 1, 1], ir.i32)})
        self.done_with(node, container)

    def list_store(self, target: ast.Subscript, value: Value, node) -> None:
        """`xs[i] = v`, `xs[a:b:c] = ys`: the value was evaluated first, as
        in Python."""
        container = self.expression(target.value)
        if isinstance(target.slice, ast.Slice):
            self.list_slice_op("assign_slice", container, target.slice, [value], node)
            self.done_with(node, value)
            self.done_with(node, container)
            return
        index = self.convert(self.expression(target.slice), kt.i64, target.slice)
        item = self.convert(value, container.type.item, node)
        self.list_op("set", [container, index, item], node)
        self.done_with(node, item, container)

    def augmented_list_store(self, stmt) -> None:
        """`xs[i] += v`: xs and i once, the item read, combined, stored."""
        target = stmt.target
        container = self.expression(target.value)
        index = self.convert(self.expression(target.slice), kt.i64, target.slice)
        current = self.list_get(container, index, stmt)
        if is_str(current.type):
            # `xs[i] += t`: a new str (xs[i] stays the list's until the
            # store replaces it).
            operation = ast.copy_location(ast.BinOp(left=target, op=stmt.op,
                                                    right=stmt.value), stmt)
            result = self.str_binary(operation, current, self.expression(stmt.value))
        else:
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        result = self.convert(result, container.type.item, stmt)
        self.list_op("set", [container, index, result], stmt)
        self.done_with(stmt, result, container)

    def augmented_list(self, stmt) -> None:
        """`xs += ys` extends xs in place; `xs *= n` repeats it in place
        (both keep the list every other name of it sees). `o.items += ys`:
        the field's list (read first, as CPython reads it, and held while
        ys is evaluated)."""
        current = self.load_name(stmt.target) if isinstance(stmt.target, ast.Name) else \
            self.expression(stmt.target)
        value = self.expression(stmt.value)
        if isinstance(stmt.op, ast.Add):
            self.list_op("extend", [current, value], stmt)
            self.done_with(stmt, value)
        else:
            count = self.convert(value, kt.i64, stmt.value)
            repeated = self.list_op("repeat", [current, count], stmt, current.type)
            self.list_op("clear", [current], stmt)
            self.list_op("extend", [current, repeated], stmt)
            self.release(repeated, stmt)
        if not isinstance(stmt.target, ast.Name):
            self.done_with(stmt, current)

    def list_binary(self, node, left: Value, right: Value) -> Value:
        """`xs + ys`, `xs * n`, `n * xs`: new lists."""
        if isinstance(node.op, ast.Add):
            result = self.list_op("concat", [left, right], node, left.type)
        else:
            container, count = (left, right) if is_list(left.type) else (right, left)
            count = self.convert(count, kt.i64, node)
            result = self.list_op("repeat", [container, count], node, container.type)
        result.owned = True
        self.done_with(node, left, right)
        return result

    def list_unary(self, node, operand: Value) -> Value:
        return self.negate(self.truthy(operand, node), node)        # `not xs`

    def list_truthy(self, value: Value, node) -> Value:
        length = self.list_length(value, node)
        self.done_with(node, value)
        return self.cmpi("ne", length, self.constant(0, kt.i64, node), node)

    def list_compare(self, node) -> Value:
        """`v in xs` (kiln.list.find >= 0), `xs == ys`, and their negations."""
        op = node.ops[0]
        left = self.expression(node.left)
        right = self.expression(node.comparators[0])
        if is_set(right.type) or (is_set(left.type) and not isinstance(op, (ast.In,
                                                                             ast.NotIn))):
            return self.set_compare(node, left, right)
        if any(is_dict(v.type) or is_dict_view(v.type) for v in (left, right)):
            return self.dict_compare(node, left, right)
        if is_range(right.type):
            result = self.range_contains(node, left, right)     # `i in r`
            return result if isinstance(op, ast.In) else self.negate(result, node)
        if isinstance(right.type, (kt.ClassType, kt.NoneType)) and isinstance(op, (ast.In,
                                                                                   ast.NotIn)):
            return self.instance_contains(node, left, right)    # `x in o`: class_protocols.py
        if is_str(right.type) and isinstance(op, (ast.In, ast.NotIn)):
            return self.str_membership(node, left, right)       # `c in s`
        if is_str(left.type) and is_str(right.type):
            result = self.str_compare(op, left, right, node)
            self.done_with(node, left, right)
            return result
        if isinstance(op, (ast.In, ast.NotIn)):
            needle = self.convert(left, right.type.item, node)
            position = self.list_op("find", [right, needle], node, kt.i64)
            zero = self.constant(0, kt.i64, node)
            result = self.cmpi("sge" if isinstance(op, ast.In) else "slt", position, zero, node)
        else:
            result = self.list_op("equal", [left, right], node, kt.boolean)
            if isinstance(op, ast.NotEq):
                result = self.negate(result, node)
        self.done_with(node, left, right)
        return result

    # ------------------------------------------------------------ calls
    def is_list_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and is_list(typed.type)

    def list_method(self, func: ast.Attribute, node) -> Value:
        name = func.attr
        container = self.expression(func.value)
        args = [self.expression(a) for a in node.args]
        item_type = container.type.item
        result = Value(None, None)
        if name == "append":
            self.list_append(container, self.convert(args[0], item_type, node), node)
        elif name == "insert":
            index = self.convert(args[0], kt.i64, node.args[0])
            self.list_op("insert", [container, index, self.convert(args[1], item_type, node)],
                         node)
            self.done_with(node, args[1])
        elif name == "pop":
            index = self.convert(args[0], kt.i64, node.args[0]) if args else \
                self.constant(-1, kt.i64, node)
            result = self.list_op("pop", [container, index], node, item_type)
            result.owned = True         # a str item: the list's reference moves out
        elif name == "extend":
            self.list_op("extend", [container, args[0]], node)
            self.done_with(node, args[0])
        elif name in ("clear", "reverse"):
            self.list_op(name, [container], node)
        elif name == "sort":
            self.sort_list(container, node)
        elif name == "copy":
            result = self.list_op("copy", [container], node, container.type)
            result.owned = True
        elif name == "count":
            result = self.list_op("count", [container, self.convert(args[0], item_type, node)],
                                  node, kt.i64)
            self.done_with(node, args[0])
        else:
            result = self.find_or_raise(container, self.convert(args[0], item_type, node), name,
                                        node)
            if name == "remove":
                popped = self.list_op("pop", [container, result], node, item_type)
                popped.owned = True
                self.done_with(node, popped, args[0])
                result = Value(None, None)
            else:
                self.done_with(node, args[0])
        self.done_with(node, container)
        return result

    def find_or_raise(self, container: Value, needle: Value, name, node) -> Value:
        """The first index of `needle`; ValueError with CPython's message
        when it is missing (`remove`'s, or `index`'s `{x} is not in list`:
        the message can only show i64 values, so a float is exact when it
        is whole (`2.0`), ±inf, nan or -0.0, and `float value is not in
        list` otherwise; docs/language.md)."""
        position = self.list_op("find", [container, needle], node, kt.i64)
        found = self.cmpi("sge", position, self.constant(0, kt.i64, node), node)
        if name == "remove":
            self.check(found, "ValueError", "list.remove(x): x not in list", [], node)
            return position
        item = container.type.item
        if isinstance(item, kt.ClassType):
            # CPython shows the instance's repr, which compiled code cannot
            # make (docs/language.md).
            self.check(found, "ValueError", f"{item.class_name} object is not in list", [],
                       node)
        elif is_str(item):
            # kiln.check's operands are i64s: the text cannot be quoted
            # (CPython: `'x' is not in list`; docs/language.md).
            self.check(found, "ValueError", "str value is not in list", [], node)
        elif item.is_bool:
            for shown, when in (("True", needle), ("False", self.negate(needle, node))):
                self.check(self.arith("ori", found, self.negate(when, node), node), "ValueError",
                           f"{shown} is not in list", [], node)
        elif item.is_int:
            self.check(found, "ValueError", "{} is not in list", [needle], node)
        else:
            self.float_not_in_list(found, needle, node)
        return position

    def float_not_in_list(self, found: Value, needle: Value, node) -> None:
        """index()'s ValueError for a float: CPython's repr where an i64
        can spell it, one check per form (at most one fails)."""
        zero = self.constant(0.0, kt.f64, node)
        limit = self.constant(1e16, kt.f64, node)       # repr switches to 1e+16
        whole = self.cmpf("oeq", self.unary("floor", needle, node), needle, node)
        small = self.cmpf("olt", self.unary("absf", needle, node), limit, node)
        negative_zero = self.arith("andi", self.cmpf("oeq", needle, zero, node), self.cmpf(
            "olt", self.builder_copysign(needle, node), zero, node), node)
        plain = self.arith("andi", self.arith("andi", whole, small, node),
                           self.negate(negative_zero, node), node)
        safe = self.select(plain, needle, zero, node)
        shown = self.cast("fptosi", safe, kt.i64, node)
        infinity = self.constant(float("inf"), kt.f64, node)
        forms = [(plain, "{}.0 is not in list", [shown]),
                 (negative_zero, "-0.0 is not in list", []),
                 (self.cmpf("oeq", needle, infinity, node), "inf is not in list", []),
                 (self.cmpf("oeq", needle, self.constant(-float("inf"), kt.f64, node), node),
                  "-inf is not in list", []),
                 (self.cmpf("uno", needle, needle, node), "nan is not in list", [])]
        other = self.constant(True, kt.boolean, node)
        for condition, message, args in forms:
            self.check(self.arith("ori", found, self.negate(condition, node), node),
                       "ValueError", message, args, node)
            other = self.arith("andi", other, self.negate(condition, node), node)
        self.check(self.arith("ori", found, self.negate(other, node), node), "ValueError",
                   "float value is not in list", [], node)

    def builder_copysign(self, value: Value, node) -> Value:
        """copysign(1.0, value): -1.0 for -0.0 (the sign bit alone)."""
        one = self.constant(1.0, kt.f64, node)
        return self.arith("copysign", one, value, node)

    def sort_list(self, container: Value, node) -> None:
        """`sort()`, `sort(reverse=r)`: the order known at compile time is
        an attribute; else the two sorts under an scf.if."""
        reverse = next((k.value for k in node.keywords if k.arg == "reverse"), None)
        if reverse is None:
            self.list_op("sort", [container], node)
            return
        flag = self.truthy(self.expression(reverse), reverse)
        if flag.constant is not None:
            self.list_op("sort", [container], node,
                         attributes={"reverse": ir.UNIT} if flag.constant else None)
            return
        descending, _ = self.region(lambda: self.list_op(
            "sort", [container], node, attributes={"reverse": ir.UNIT}))
        ascending, _ = self.region(lambda: self.list_op("sort", [container], node))
        self.scf_if(flag, [], descending, ascending, node)

    def list_builtin(self, name, node) -> Value:
        """`sorted(xs)`, `list(xs)` (copies), `list()`, `list(range(...))`;
        those of a dict or set, `dict(...)` and `set(...)` are theirs."""
        if name == "set":
            return self.set_builtin(node)
        if name == "dict" or any(self.is_dict_valued(a) or self.is_set_valued(a)
                                 for a in node.args):
            return self.dict_builtin(name, node)
        list_type = self.typed_value(node).type
        if not node.args:
            return self.empty_list(list_type, node)
        if self.is_str_valued(node.args[0]):
            copy = self.list_of_items(node.args[0], list_type, node)  # `list(s)`: characters
            if name == "sorted":
                self.sort_list(copy, node)
            return copy
        container = self.expression(node.args[0])
        if is_range(container.type):
            copy = self.range_list(container, node)         # `list(range(n))`
        else:
            copy = self.list_op("copy", [container], node, list_type)
            copy.owned = True
            self.done_with(node, container)
        if name == "sorted":
            self.sort_list(copy, node)
        return copy

    def list_of_items(self, iterable_node, list_type, node) -> Value:
        """A new list of what iterating `iterable_node` visits (a str's
        characters), in order."""
        made = {}

        def start(length):
            made["list"] = self.new_list(list_type, length, node)

        generator = ast.comprehension(target=ast.Name(id="$item", ctx=ast.Store()),
                                      iter=iterable_node, ifs=[], is_async=0)
        self.iterate(generator, lambda: self.list_append(made["list"], self.symbols["$item"],
                                                         node), node, start)
        return made["list"]

    def fold_items(self, container: Value, initial, step, node, first=0) -> list:
        """Values carried through the items `first`.. of a list, in order
        (its length read once: nothing in `step` changes the list)."""
        length = self.list_length(container, node)
        return self.counted_fold(self.constant(first, kt.i64, node), length,
                                 self.constant(1, kt.i64, node), initial,
                                 lambda counter, carried: step(
                                     self.list_get(container, counter, node), carried), node)

    def builtin_sum(self, args, node) -> Value:
        """Left to right from `start` (0) over a list, or over a dict's keys
        (a view's values, a set's elements) in insertion order: ints wrap
        as Kiln ints do."""
        container = args[0]
        total = self.fold_sum(lambda initial, step: self.fold_container(
            container, initial, step, node), args[1] if len(args) == 2 else None, node)
        self.done_with(node, container)
        return total

    def fold_container(self, container: Value, initial, step, node) -> list:
        """Values carried through the items of a list, the elements of a
        range, or the entries a walk of a dict (view, set) visits, in order
        (`step(item, carried)` -> the new carried values); their final
        values."""
        if isinstance(container.type, kt.ListType):
            return self.fold_items(container, initial, step, node)
        if is_range(container.type):
            return self.fold_range(container, initial, step, node)
        return self.walk_entries(container, initial, step, node)

    def list_min_max(self, container: Value, node, name) -> Value:
        """`min(xs)`/`max(xs)`: the first item unless a later one is
        strictly smaller (larger), as CPython keeps it (so NaN stays
        where it comes first)."""
        length = self.list_length(container, node)
        nonempty = self.cmpi("sgt", length, self.constant(0, kt.i64, node), node)
        self.check(nonempty, "ValueError", f"{name}() arg is an empty sequence", [], node)
        first = self.list_get(container, self.constant(0, kt.i64, node), node)
        op = ast.Lt() if name == "min" else ast.Gt()

        def better(item, carried):
            [best] = carried
            return [self.select(self.compare(op, item, best, node), item, best, node)]

        [best] = self.fold_items(container, [Value(first.ir, first.type)], better, node, first=1)
        if is_str(best.type):
            best = self.own(best, node)     # a str item outlives a temporary list
        self.done_with(node, container)
        return best

    def list_loop_range(self, stmt):
        """(lower, upper, step, normalized) of a `for` loop over a list
        (typing's is_list_iteration), its upper bound a function that
        re-reads the length at every step; None for other loops."""
        def variable_type(name):
            variable = self.typed.variables.get(name)
            return variable.type if variable is not None else None

        if not is_list_iteration(stmt, variable_type):
            return None
        bound = stmt.iter.args[0]
        return (self.constant(0, kt.i64, stmt.iter),
                lambda: self.convert(self.expression(bound), kt.i64, bound),
                self.constant(1, kt.i64, stmt.iter), None)
