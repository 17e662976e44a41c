"""Lowering of Python dicts (typed by typecheck/dict_typing.py) to the kiln
dialect's dict ops (`kiln.dict.*`; their semantics are in
lib/Dialect/KilnOps.td). A mixin of code_generator.FunctionCodeGenerator.

Entries are addressed by their slot (their place in insertion order):
`find`/`require` look a key up once, then `value_at`, `set_value_at` and
`erase_at` use the slot, so `d[k] += v`, `d.pop(k)` and `del d[k]` hash k
once. Iteration walks the slots 0 .. used-1 in order, skipping those not
`live_at`, and raises CPython's RuntimeError at the next step when the
dict's size changed since the walk began (CPython's dict iterator does).
A dict's views (`keys()`, `values()`, `items()`) are the dict itself,
walked for its keys, values or both. A set is walked as a dict's keys
(set_lowering.py): the walks here take one, `dict_op` then building the
`kiln.set` op of the same name (len, used, live_at, key_at).

The reference counting (owned and borrowed values, `kiln.retain`,
`kiln.release`) is ownership.py's, shared with lists.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .. import typesystem as kt
from .values import Value, tuple_value
from ..typecheck.dict_typing import is_dict_like, is_hidden_iterable, iteration_item, walked_dict
from ..typecheck.typed_tree import dict_of, is_set, is_str, iteration_kind

# The dict ops that can raise: KeyError (`require`), MemoryError (every op
# that allocates: a new dict, a copy, a store, and the first lookup of a
# dict, which builds its table). len, used, live_at, key_at, value_at,
# set_value_at, erase_at and clear cannot.
RAISING_DICT_OPS = frozenset(["new", "find", "require", "set", "copy", "update", "equal"])
SIZE_CHANGED = "dictionary changed size during iteration"
SET_SIZE_CHANGED = "Set changed size during iteration"      # CPython's words


@dataclass
class DictWalk:
    """A `for` loop over a dict (or view) held by the hidden name `name`
    (desugar.py's for$iterableN): its state carries the slot and the count
    of entries visited (the loop target, which enumerate() reads)."""
    name: str
    expected_length: Value = None


def contains_call(node) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


class DictLowering:
    # ------------------------------------------------------- dict ops
    def dict_op(self, mnemonic, operands, node, result_type=None) -> Value | None:
        """One `kiln.dict.<mnemonic>` op; its result as a Value of
        `result_type` (a Kiln type) when it has one. Of a set (the first
        operand), the `kiln.set` op of that name (the walks' ops)."""
        if operands and is_set(operands[0].type):
            return self.set_op(mnemonic, operands, node, result_type)
        return self.container_op(f"kiln.dict.{mnemonic}", mnemonic in RAISING_DICT_OPS,
                                 operands, node, result_type)

    def new_dict(self, dict_type, capacity: Value, node) -> Value:
        made = self.dict_op("new", [capacity], node, dict_type)
        made.owned = True
        return made

    def empty_dict(self, dict_type, node) -> Value:
        return self.new_dict(dict_type, self.constant(0, kt.i64, node), node)

    def dict_length(self, container: Value, node) -> Value:
        length = self.dict_op("len", [self.as_dict(container)], node, kt.i64)
        length.nonneg = True
        return length

    @staticmethod
    def as_dict(value: Value) -> Value:
        """A view's dict (the same reference, typed as the dict)."""
        return Value(value.ir, dict_of(value.type), owned=value.owned)

    def is_dict_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and is_dict_like(typed.type)

    def key_of(self, container: Value, key: Value, node) -> Value:
        return self.convert(key, dict_of(container.type).key, node)

    def entry(self, container: Value, slot: Value, kind, node) -> Value:
        """What a walk binds at `slot`: the key, the value, or both."""
        if kind == "values":
            return self.dict_op("value_at", [container, slot], node, container.type.value)
        key = self.dict_op("key_at", [container, slot], node, container.type.key)
        if kind == "items":
            value = self.dict_op("value_at", [container, slot], node, container.type.value)
            return tuple_value([key, value])
        return key

    def when_found(self, slot: Value, found_build, missing_build, result_type, node) -> Value:
        """scf.if on `slot >= 0` (a `find`'s): each branch yields one value."""
        found = self.cmpi("sge", slot, self.constant(0, kt.i64, node), node)
        then_region, _ = self.region(lambda: self.yield_values([found_build()], node))
        else_region, _ = self.region(lambda: self.yield_values([missing_build()], node))
        [result] = self.scf_if(found, [result_type], then_region, else_region, node)
        return result

    # ------------------------------------------------------ expressions
    def expr_Dict(self, node):
        dict_type = self.typed_value(node).type
        return self.build_dict(dict_type, [(self.convert(self.expression(k), dict_type.key, k),
                                            self.convert(self.expression(v), dict_type.value, v))
                                           for k, v in zip(node.keys, node.values)], node)

    def build_dict(self, dict_type, pairs, node) -> Value:
        """A new dict of these (key, value) pairs, set in order."""
        made = self.new_dict(dict_type, self.constant(len(pairs), kt.i64, node), node)
        for key, value in pairs:
            self.dict_op("set", [made, key, value], node)
            self.done_with(node, key, value)    # the dict holds its own references
        return made

    def expr_DictComp(self, node):
        """Nested loops setting entries of a new dict, the key evaluated
        before the value (Python 3.8); the names are the comprehension's."""
        dict_type = self.typed_value(node).type

        def store(made):
            key = self.convert(self.expression(node.key), dict_type.key, node.key)
            value = self.convert(self.expression(node.value), dict_type.value, node.value)
            self.dict_op("set", [made, key, value], node)
            self.done_with(node, key, value)

        return self.comprehension(node, lambda hint: self.new_dict(dict_type, hint, node),
                                  store)

    def dict_subscript(self, node) -> Value:
        """`d[k]` (`require` raises KeyError(k)), or the entry at the slot
        of the dict loop walking this hidden iterable."""
        if is_hidden_iterable(node.value) and node.value.id in self.walk_slots:
            container, slot = self.walk_slots[node.value.id]
            return self.entry(self.as_dict(container), slot, iteration_kind(container.type),
                              node)
        container = self.expression(node.value)
        key = self.key_of(container, self.expression(node.slice), node.slice)
        if container.type.dict_class is not None:
            result = self.missing_key_read(container, key, node)
        else:
            slot = self.dict_op("require", [container, key], node, kt.i64)
            result = self.dict_op("value_at", [container, slot], node, container.type.value)
            if is_str(result.type):
                result = self.own(result, node)     # value_at lends the dict's reference
        self.done_with(node, key, container)
        return result

    def dict_default(self, container: Value, node) -> Value:
        """What a defaultdict's factory (or a Counter) gives for a missing key."""
        return self.constant(container.type.default, container.type.value, node)

    def missing_key_read(self, container: Value, key: Value, node) -> Value:
        """`d[k]` of a defaultdict (a missing k is inserted with the
        default, which is read) or of a Counter (0, nothing inserted)."""
        slot = self.dict_op("find", [container, key], node, kt.i64)

        def missing():
            default = self.dict_default(container, node)
            if container.type.dict_class == "defaultdict":
                self.dict_op("set", [container, key, default], node)
            return default

        return self.when_found(slot, lambda: self.dict_op(
            "value_at", [container, slot], node, container.type.value), missing,
            container.type.value, node)

    def inserted_slot(self, container: Value, key: Value, node) -> Value:
        """The slot of k in a defaultdict, inserted with the default when
        missing (at the end: the last slot used)."""
        slot = self.dict_op("find", [container, key], node, kt.i64)

        def missing():
            self.dict_op("set", [container, key, self.dict_default(container, node)], node)
            return self.arith("subi", self.dict_op("used", [container], node, kt.i64),
                              self.constant(1, kt.i64, node), node)

        return self.when_found(slot, lambda: slot, missing, kt.i64, node)

    def dict_store(self, target: ast.Subscript, value: Value, node) -> None:
        """`d[k] = v`: the value was evaluated first, as in Python."""
        container = self.expression(target.value)
        key = self.key_of(container, self.expression(target.slice), target.slice)
        item = self.convert(value, container.type.value, node)
        self.dict_op("set", [container, key, item], node)
        self.done_with(node, key, item, container)

    def augmented_dict_store(self, stmt) -> None:
        """`d[k] += v`: d and k once, one lookup (KeyError), the value
        combined and stored into the slot. When `v` calls a function (which
        may change d and move its entries), the store looks k up again."""
        target = stmt.target
        container = self.expression(target.value)
        key = self.key_of(container, self.expression(target.slice), target.slice)
        if container.type.dict_class == "Counter":
            # Counter.__missing__ gives 0 and inserts nothing: the store does.
            current = self.missing_key_read(container, key, stmt)
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.dict_op("set", [container, key, self.convert(result, container.type.value,
                                                                stmt)], stmt)
            self.done_with(stmt, key, container)
            return
        if container.type.dict_class == "defaultdict":
            # Inserted by the read, before `v` is evaluated (as in CPython).
            slot = self.inserted_slot(container, key, stmt)
        else:
            slot = self.dict_op("require", [container, key], stmt, kt.i64)
        current = self.dict_op("value_at", [container, slot], stmt, container.type.value)
        if is_str(current.type):
            # `d[k] += t`: a new str; the dict's old one is released by the
            # store. Held over `t`'s evaluation, which may change the dict.
            current = self.own(current, stmt)
            operation = ast.copy_location(ast.BinOp(left=target, op=stmt.op,
                                                    right=stmt.value), stmt)
            result = self.str_binary(operation, current, self.expression(stmt.value))
        else:
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        result = self.convert(result, container.type.value, stmt)
        if contains_call(stmt.value):
            self.dict_op("set", [container, key, result], stmt)
        else:
            self.dict_op("set_value_at", [container, slot, result], stmt)
        self.done_with(stmt, result, key, container)

    def stmt_Delete(self, stmt):
        """`del d[k]`: KeyError when k is missing; a list's `del xs[i]` and
        `del xs[a:b:c]` are list_lowering.py's."""
        for target in stmt.targets:
            container = self.expression(target.value)
            if isinstance(container.type, kt.ListType):
                self.delete_list_item(target, container, stmt)
                continue
            key = self.key_of(container, self.expression(target.slice), target.slice)
            if container.type.dict_class == "Counter":
                # Counter.__delitem__ ignores a missing key.
                slot = self.dict_op("find", [container, key], stmt, kt.i64)
                found = self.cmpi("sge", slot, self.constant(0, kt.i64, stmt), stmt)
                erase, _ = self.region(lambda: self.dict_op("erase_at", [container, slot],
                                                            stmt))
                self.scf_if(found, [], erase, None, stmt)
            else:
                slot = self.dict_op("require", [container, key], stmt, kt.i64)
                self.dict_op("erase_at", [container, slot], stmt)
            self.done_with(stmt, key, container)

    def dict_truthy(self, value: Value, node) -> Value:
        length = self.dict_length(value, node)
        self.done_with(node, value)
        return self.cmpi("ne", length, self.constant(0, kt.i64, node), node)

    def dict_compare(self, node, left: Value, right: Value) -> Value:
        """`k in d` (`find` >= 0), `d == e` (`equal`), and negations."""
        op = node.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)):
            container = self.as_dict(right)
            slot = self.dict_op("find", [container, self.key_of(right, left, node)], node,
                                kt.i64)
            zero = self.constant(0, kt.i64, node)
            result = self.cmpi("sge" if isinstance(op, ast.In) else "slt", slot, zero, node)
        else:
            result = self.dict_op("equal", [left, right], node, kt.boolean)
            if isinstance(op, ast.NotEq):
                result = self.negate(result, node)
        self.done_with(node, left, right)
        return result

    # ------------------------------------------------------------ calls
    def dict_method(self, func: ast.Attribute, node) -> Value:
        name = func.attr
        container = self.expression(func.value)
        result = Value(None, None)
        if name in ("keys", "values", "items"):
            # The view is the dict: it takes over a temporary's reference.
            return Value(container.ir, self.typed_value(node).type, owned=container.owned)
        value_type = container.type.value
        if name == "copy":
            result = self.dict_op("copy", [container], node, container.type)
            result.owned = True
        elif name == "clear":
            self.dict_op("clear", [container], node)
        elif name == "popitem":
            result = self.dict_popitem(container, node)
        elif name == "update":
            other = self.expression(node.args[0])
            self.dict_op("update", [container, other], node)
            self.done_with(node, other)
        else:
            key = self.key_of(container, self.expression(node.args[0]), node.args[0])
            default = self.convert(self.expression(node.args[1]), value_type, node.args[1]) \
                if len(node.args) == 2 else None
            result = getattr(self, f"dict_{name}")(container, key, default, node)
            self.done_with(node, key)
        self.done_with(node, container)
        return result

    def found_value(self, container, slot, default, node) -> Value:
        """The value at `slot` (a found key), owned when it is a str (either
        branch of get/setdefault/pop yields an owned one); a temporary
        default, unused, is released."""
        value = self.dict_op("value_at", [container, slot], node, container.type.value)
        if is_str(value.type):
            self.done_with(node, default)
            return self.own(value, node)
        return value

    def default_value(self, default, node) -> Value:
        return self.own(default, node) if is_str(default.type) else default

    def dict_get(self, container, key, default, node) -> Value:
        slot = self.dict_op("find", [container, key], node, kt.i64)
        result = self.when_found(slot, lambda: self.found_value(container, slot, default, node),
                                 lambda: self.default_value(default, node),
                                 container.type.value, node)
        return Value(result.ir, result.type, owned=is_str(result.type))

    def dict_setdefault(self, container, key, default, node) -> Value:
        slot = self.dict_op("find", [container, key], node, kt.i64)

        def missing():
            self.dict_op("set", [container, key, default], node)
            return self.default_value(default, node)

        result = self.when_found(slot, lambda: self.found_value(container, slot, default, node),
                                 missing, container.type.value, node)
        return Value(result.ir, result.type, owned=is_str(result.type))

    def dict_popitem(self, container, node) -> Value:
        """`d.popitem()`: the last entry (CPython's LIFO order: the last
        live slot), erased; KeyError when the dict is empty. A str key or
        value is owned before erase_at releases the dict's reference."""
        length = self.dict_length(container, node)
        self.check(self.cmpi("sgt", length, self.constant(0, kt.i64, node), node), "KeyError",
                   "popitem(): dictionary is empty", [], node)
        location = self.loc(node)

        def condition():
            at = Value(self.builder.block.arguments[0], kt.i64)
            live = self.dict_op("live_at", [container, at], node, kt.boolean)
            self.builder.scf_condition(self.negate(live, node).ir, [at.ir], location)

        def step():
            at = Value(self.builder.block.arguments[0], kt.i64)
            self.builder.scf_yield([self.arith("subi", at, self.constant(1, kt.i64, node),
                                               node).ir], location)

        last = self.arith("subi", self.dict_op("used", [container], node, kt.i64),
                          self.constant(1, kt.i64, node), node)
        before, _ = self.region(condition, argument_types=[kt.i64])
        after, _ = self.region(step, argument_types=[kt.i64])
        [found] = self.builder.scf_while([last.ir], before, after, location)
        slot = Value(found, kt.i64, nonneg=True)
        parts = [self.dict_op(op, [container, slot], node, type_) for op, type_ in
                 (("key_at", container.type.key), ("value_at", container.type.value))]
        parts = [self.own(p, node) if is_str(p.type) else p for p in parts]
        self.dict_op("erase_at", [container, slot], node)
        return tuple_value(parts)

    def dict_pop(self, container, key, default, node) -> Value:
        """`d.pop(k)` (KeyError) and `d.pop(k, default)`; a str value is
        owned before erase_at releases the dict's reference."""
        def take(slot):
            value = self.found_value(container, slot, default, node)
            self.dict_op("erase_at", [container, slot], node)
            return value

        if default is None:
            return take(self.dict_op("require", [container, key], node, kt.i64))
        slot = self.dict_op("find", [container, key], node, kt.i64)
        result = self.when_found(slot, lambda: take(slot),
                                 lambda: self.default_value(default, node),
                                 container.type.value, node)
        return Value(result.ir, result.type, owned=is_str(result.type))

    def dict_builtin(self, name, node) -> Value:
        """`dict()`, `dict(d)` (a copy), `list(d)`, `list(d.values())`,
        `sorted(d)`: new containers."""
        result_type = self.typed_value(node).type
        if not node.args:
            return self.empty_dict(result_type, node)
        source = self.expression(node.args[0])
        if name == "dict":
            made = self.dict_op("copy", [source], node, result_type)
            made.owned = True
            self.done_with(node, source)
            return made
        made = self.new_list(result_type, self.dict_length(source, node), node)
        kind = iteration_kind(source.type)
        container = self.as_dict(source)
        self.walk_dict(container, [], lambda slot, carried: self.list_append(
            made, self.entry(container, slot, kind, node), node) or [], node)
        self.done_with(node, source)
        if name == "sorted":
            self.sort_list(made, node)
        return made

    def dict_min_max(self, source: Value, node, name) -> Value:
        """`min(d)`, `max(d.values())`: the first entry unless a later one
        is strictly smaller (larger), as CPython keeps it; ValueError when
        the dict is empty."""
        best = self.fold_extreme(lambda initial, step: self.walk_entries(source, initial, step,
                                                                         node),
                                 iteration_item(source.type), name, node)
        if is_str(best.type):
            best = self.own(best, node)     # a key outlives a temporary dict
        self.done_with(node, source)
        return best

    def walk_entries(self, source: Value, initial, step, node) -> list:
        """walk_dict over what iterating a dict, view or set visits
        (`step(entry, carried)`: the key, the value or both; a set's
        element)."""
        container = self.as_dict(source)
        kind = iteration_kind(source.type)
        return self.walk_dict(container, initial, lambda slot, carried: step(
            self.entry(container, slot, kind, node), carried), node)

    # -------------------------------------------------------- iteration
    def next_live_slot(self, container: Value, slot: Value, node) -> Value:
        """The first slot from `slot` on that holds an entry (`used` when
        none does)."""
        location = self.loc(node)

        def condition():
            at = Value(self.builder.block.arguments[0], kt.i64, nonneg=True)
            inside = self.cmpi("slt", at, self.dict_op("used", [container], node, kt.i64), node)
            live, _ = self.region(lambda: self.yield_values(
                [self.dict_op("live_at", [container, at], node, kt.boolean)], node))
            outside, _ = self.region(lambda: self.yield_values(
                [self.constant(False, kt.boolean, node)], node))
            [here] = self.scf_if(inside, [kt.boolean], live, outside, node)
            dead = self.arith("andi", inside, self.negate(here, node), node)
            self.builder.scf_condition(dead.ir, [at.ir], location)

        def step():
            at = Value(self.builder.block.arguments[0], kt.i64, nonneg=True)
            self.builder.scf_yield([self.arith("addi", at, self.constant(1, kt.i64, node),
                                               node).ir], location)

        before, _ = self.region(condition, argument_types=[kt.i64])
        after, _ = self.region(step, argument_types=[kt.i64])
        [found] = self.builder.scf_while([slot.ir], before, after, location)
        return Value(found, kt.i64, nonneg=True)

    def next_step(self, container: Value, slot: Value, expected: Value, node):
        """(the next live slot, whether there is one) of a walk, after
        CPython's check that the dict (set) kept its size."""
        same = self.cmpi("eq", self.dict_length(container, node), expected, node)
        self.check(same, "RuntimeError", SET_SIZE_CHANGED if is_set(container.type)
                   else SIZE_CHANGED, [], node)
        found = self.next_live_slot(container, slot, node)
        going = self.cmpi("slt", found, self.dict_op("used", [container], node, kt.i64), node)
        return found, going

    def walk_dict(self, container: Value, initial, step, node) -> list:
        """Values carried through the entries of a dict in insertion order
        (`step(slot, carried)` -> the new carried values); their final
        values."""
        location = self.loc(node)
        expected = self.dict_length(container, node)
        types = [kt.i64] + [v.type for v in initial]

        def condition():
            arguments = self.builder.block.arguments
            slot = Value(arguments[0], kt.i64, nonneg=True)
            found, going = self.next_step(container, slot, expected, node)
            self.builder.scf_condition(going.ir, [found.ir] + list(arguments[1:]), location)

        def body():
            arguments = self.builder.block.arguments
            slot = Value(arguments[0], kt.i64, nonneg=True)
            carried = [Value(a, v.type) for a, v in zip(arguments[1:], initial)]
            updated = step(slot, carried)
            following = self.arith("addi", slot, self.constant(1, kt.i64, node), node)
            self.builder.scf_yield([following.ir] + [v.ir for v in updated], location)

        before, _ = self.region(condition, argument_types=types)
        after, _ = self.region(body, argument_types=types)
        results = self.builder.scf_while([self.constant(0, kt.i64, node).ir] +
                                         [v.ir for v in initial], before, after, location)
        return [Value(r, v.type) for r, v in zip(results[1:], initial)]

    def dict_walk_of(self, stmt) -> DictWalk | None:
        """The walk of a `for` loop over a dict (typing's walked_dict)."""
        def variable_type(name):
            variable = self.typed.variables.get(name)
            return variable.type if variable is not None else None

        name = walked_dict(stmt, variable_type)
        return DictWalk(name) if name is not None else None

    def start_walk(self, walk: DictWalk, stmt) -> list:
        """The walk's initial state: slot 0, none visited."""
        container = self.as_dict(self.symbols[walk.name])
        walk.expected_length = self.dict_length(container, stmt)
        zero = self.constant(0, kt.i64, stmt)
        return [Value(zero.ir, kt.i64, nonneg=True), Value(zero.ir, kt.i64, nonneg=True)]

    def walk_condition(self, walk: DictWalk, arguments, running, stmt):
        """(go, the slot the body gets) of a dict loop's step; after a
        break or return (`running` false) no step is taken (CPython's
        iterator is not called again)."""
        container = self.as_dict(self.symbols[walk.name])
        slot = Value(arguments[0], kt.i64, nonneg=True)
        if running is None:
            found, going = self.next_step(container, slot, walk.expected_length, stmt)
            return going, found

        def step():
            found, going = self.next_step(container, slot, walk.expected_length, stmt)
            self.yield_values([found, going], stmt)

        stepping, _ = self.region(step)
        stopped, _ = self.region(lambda: self.yield_values(
            [slot, self.constant(False, kt.boolean, stmt)], stmt))
        found, going = self.scf_if(running, [kt.i64, kt.boolean], stepping, stopped, stmt)
        return going, found

    def bind_walk(self, walk: DictWalk, arguments, stmt) -> list:
        """In the body: the slot for the entry reads, the count of entries
        visited as the loop target; the next state."""
        slot = Value(arguments[0], kt.i64, nonneg=True)
        visited = Value(arguments[1], kt.i64, nonneg=True)
        self.walk_slots[walk.name] = (self.symbols[walk.name], slot)
        self.bind_loop_target(stmt, visited, None)
        one = self.constant(1, kt.i64, stmt)
        return [self.arith("addi", slot, one, stmt), self.arith("addi", visited, one, stmt)]

    # ------------------------------------- collections.defaultdict, Counter
    def dict_class_call(self, name, node) -> Value:
        """`defaultdict(int)`, `Counter()`: a new empty dict (its class is
        its type's); `Counter(xs)`: each item counted, in the order items
        first appear (CPython's _count_elements)."""
        dict_type = self.typed_value(node).type
        if name == "defaultdict" or not node.args:
            return self.empty_dict(dict_type, node)
        counted = self.expression(node.args[0])
        made = self.empty_dict(dict_type, node)
        one = self.constant(1, kt.i64, node)

        def count(item, carried):
            key = self.convert(item, dict_type.key, node)
            current = self.missing_key_read(made, key, node)
            self.dict_op("set", [made, key, self.arith("addi", current, one, node)], node)
            self.done_with(node, key)
            return []

        self.fold_items(counted, [], count, node)
        self.done_with(node, counted)
        return made
