"""Lowering of list, dict and set comprehensions and of generator
expressions handed to sum(), min(), max(), any(), all(), sorted(), list(),
dict() and set() (typed by typecheck/generator_typing.py): one walk of
their `for`s and `if`s (fold_clauses, each `for` a fold_clause over a
range, a list, a 1-D array, a dict or view, a set, zip() or enumerate()).
list(), sorted(), dict() and set() build the comprehension's container.
The folds keep what they compute in values carried by the loops (scf.for,
or scf.while where the loop re-reads a list's length or may stop early)
and the `if`s (scf.if yielding them), so no list is made: sum() adds left
to right from its start, min() and max() keep the first element unless a
later one is strictly smaller (larger), as CPython compares them, and raise
its ValueError when there is none; any() and all() stop at the first
element that decides them: no element after it is computed, and a loop
over a range, a list or an array ends there (a dict or set walk goes on to
its end without computing anything). A mixin of
code_generator.FunctionCodeGenerator."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .values import Value, tuple_value
from ..frontend.desugar import zipped_call
from ..typecheck.generator_typing import consumed_generator, generator_node_as
from ..typecheck.typed_tree import is_range, is_str, is_table, iteration_kind
from .dict_lowering import contains_call


class GeneratorLowering:
    def generator_call(self, name, node) -> Value:
        generator = consumed_generator(node)
        if name == "tuple":
            return self.expression(node._kiln_tuple)    # unrolled by type inference
        if name in ("list", "sorted"):
            made = self.expression(generator_node_as(generator, "list"))
            if name == "sorted":
                self.sort_list(made, node)
            return made
        if name in ("dict", "set"):
            return self.expression(generator_node_as(generator, name))
        typed = self.typed_value(node)
        if name in ("any", "all"):
            decided = self.fold_generator(generator, [self.constant(False, kt.boolean, node)],
                                          lambda element, carried: [self.decides(
                                              name, element, generator.elt)], node,
                                          stop=lambda carried: carried[0])[0]
            result = decided if name == "any" else self.negate(decided, node)
            return Value(result.ir, kt.boolean, weak=typed.weak)
        if name == "sum":
            return self.generator_sum(generator, typed.type, node)
        return self.generator_min_max(generator, name, typed, node)

    def decides(self, name, element: Value, node) -> Value:
        """Whether `element` ends any() (it is true) or all() (false)."""
        truth = self.truthy(element, node)
        return truth if name == "any" else self.negate(truth, node)

    def generator_sum(self, generator, total_type, node) -> Value:
        # (the start is evaluated before the generator's first iterable,
        # which CPython evaluates first: they differ only when both call
        # functions that see each other's effects)
        start = self.expression(node.args[1]) if len(node.args) == 2 else None
        return self.fold_sum(lambda initial, step: self.fold_generator(
            generator, initial, step, node), start, node)

    def generator_min_max(self, generator, name, typed, node) -> Value:
        best = self.fold_extreme(lambda initial, step: self.fold_generator(
            generator, initial, step, node), typed.type, name, node)
        return Value(best.ir, typed.type, weak=typed.weak)

    # ------------------------------------------- sum(), min(), max() folds
    def fold_sum(self, fold, start, node) -> Value:
        """sum() of what `fold(initial, step)` walks (`step(item, carried)`)
        from `start` (0 when None), left to right, each item converted to
        the total's type (inference's; ints wrap as Kiln ints do)."""
        total_type = self.typed_value(node).type
        start = self.convert(start, total_type, node) if start is not None else \
            self.constant(0, total_type, node)
        add = "addf" if total_type.is_float else "addi"
        [total] = fold([Value(start.ir, total_type)], lambda item, carried: [self.arith(
            add, carried[0], self.convert(item, total_type, node), node)])
        return total

    def fold_extreme(self, fold, item_type, name, node) -> Value:
        """min()/max() of what `fold(initial, step)` walks: the first item
        unless a later one is strictly smaller (larger), as CPython keeps it
        (a NaN stays where it comes first); ValueError when there is none."""
        op = ast.Lt() if name == "min" else ast.Gt()

        def better(item, carried):
            best, seen = carried
            item = self.convert(item, item_type, node)
            take = self.arith("ori", self.negate(seen, node),
                              self.compare(op, item, best, node), node)
            return [self.select(take, item, best, node), self.constant(True, kt.boolean, node)]

        nothing = self.str_constant("", node) if is_str(item_type) else \
            self.constant(0, item_type, node)
        initial = [nothing, self.constant(False, kt.boolean, node)]
        best, seen = fold([Value(v.ir, v.type) for v in initial], better)  # not constants
        self.check(seen, "ValueError", f"{name}() arg is an empty sequence", [], node)
        return best

    # ------------------------------------------------------------ folds
    def fold_generator(self, generator, initial, step, node, stop=None) -> list:
        """Values carried through the elements of `generator` (`step(element,
        carried)` -> the new carried values); their final values. With
        `stop(carried)` (a flag), no element is computed once it holds."""
        return self.fold_clauses(generator, initial, lambda carried: step(
            self.expression(generator.elt), carried), node, stop,
            rereads=contains_call(generator))

    def comprehension(self, node, make, store) -> Value:
        """A list, dict or set comprehension: fold_clauses carrying nothing.
        `make(hint)` makes the container once the first iterable is
        evaluated (`hint`: its length when there is one `for` and no `if`,
        else -1); `store(container)` adds what one step makes."""
        generators = node.generators
        made = {}
        sized = len(generators) == 1 and not generators[0].ifs

        def start(length):
            made["container"] = make(length if sized else self.constant(-1, kt.i64, node))

        def innermost(carried):
            store(made["container"])
            return []

        self.fold_clauses(node, [], innermost, node, started=start)
        return made["container"]

    def fold_clauses(self, node, initial, innermost, location_node, stop=None, rereads=True,
                     started=None) -> list:
        """The one walk of a comprehension's or generator expression's
        `for`s (`node.generators`), nested, each under its `if`s (tested as
        Python does, each only when the ones before it hold), carrying
        values (`innermost(carried)` -> the new ones, at each element);
        their final values. With `stop(carried)` (a flag), nothing more is
        computed once it holds. A list's length is re-read at each step
        when `rereads` (as Python's list iterator does; a generator only
        when it calls functions, which may change the list).
        `started(length)` runs once the first iterable is evaluated."""
        generators = node.generators

        def level(position, carried):
            if position == len(generators):
                if stop is None:
                    return innermost(carried)
                return self.carried_if(self.negate(stop(carried), location_node), carried,
                                       innermost, location_node)
            clause = generators[position]
            return self.fold_clause(clause, carried, lambda c: self.when_all_carrying(
                clause.ifs, c, lambda inner: level(position + 1, inner), location_node),
                location_node, stop, rereads, started if position == 0 else None)

        return level(0, initial)

    def iterate(self, generator, build, node, started=None) -> None:
        """One `for` clause, `build()` at each element (fold_clause,
        carrying nothing; a list's length re-read at every step, as
        Python's list iterator does). `started(length)` runs once the
        iterable is evaluated, before the loop."""
        self.fold_clause(generator, [], lambda carried: build() or [], node, None, True,
                         started)

    def carried_if(self, condition: Value, carried, build, node) -> list:
        """scf.if yielding the carried values: `build(carried)`'s when
        `condition` holds, else the values unchanged."""
        then_region, _ = self.region(lambda: self.yield_values(build(carried), node))
        else_region = self.region(lambda: self.yield_values(carried, node))[0] if carried \
            else None
        return self.scf_if(condition, [v.type for v in carried], then_region, else_region, node)

    def when_all_carrying(self, conditions, carried, build, node) -> list:
        """`build(carried)` under a comprehension's `if`s (each tested only
        when the ones before it hold)."""
        if not conditions:
            return build(carried)
        test = self.truthy(self.expression(conditions[0]), conditions[0])
        return self.carried_if(test, carried, lambda c: self.when_all_carrying(
            conditions[1:], c, build, node), node)

    def fold_clause(self, clause, carried, build, node, stop, rereads, started=None) -> list:
        """One `for` of a generator or comprehension: binds its target (its
        own name: restored after) at each element and carries the values
        through `build`. A list's length is re-read at each step when
        `rereads` (the generator calls functions, which may change it).
        `started(length)` runs once the iterable is evaluated."""
        saved = self.symbols
        self.symbols = dict(saved)
        try:
            return self.fold_iterable(clause, carried, build, stop, rereads, started)
        finally:
            self.symbols = saved

    def fold_iterable(self, clause, carried, build, stop, rereads, started) -> list:
        iterator = clause.iter
        names = [clause.target.id] if isinstance(clause.target, ast.Name) else \
            [e.id for e in clause.target.elts]

        def bound(element, values):
            for name, value in zip(names, element.elements if len(names) > 1 else [element]):
                self.symbols[name] = value
                self.maybe_undefined.discard(name)
            return build(values)

        if zipped_call(iterator) and self.typed.values.get(iterator) is None:
            return self.fold_zipped(iterator, carried, bound, stop, rereads, started)
        if isinstance(iterator, ast.Call) and isinstance(iterator.func, ast.Name) and \
                iterator.func.id == "range" and self.typed.values.get(iterator) is None:
            bounds, container = self.range_bounds(iterator), None
        else:
            container = self.expression(iterator)
            bounds = self.counted_bounds(*container.elements, iterator, checked=True) \
                if is_range(container.type) else None
        if bounds is not None:
            lower, upper, _, normalized = bounds
            if started:
                started(upper if normalized is not None else self.select(
                    self.cmpi("sgt", upper, lower, iterator),
                    self.arith("subi", upper, lower, iterator),
                    self.constant(0, kt.i64, iterator), iterator))
            return self.counted_carrying(lower, upper, carried, lambda k, values: bound(
                self.counted_element(k, normalized, iterator), values), iterator, stop)
        if started:
            started(self.length_of(container, iterator))
        if is_table(container.type):        # a dict, a view or a set: its slots
            dictionary = self.as_dict(container)
            kind = iteration_kind(container.type)

            def walk_step(slot, values):
                if stop is None:
                    return bound(self.entry(dictionary, slot, kind, iterator), values)
                return self.carried_if(self.negate(stop(values), iterator), values,
                                       lambda c: bound(self.entry(dictionary, slot, kind,
                                                                  iterator), c), iterator)

            results = self.walk_dict(dictionary, carried, walk_step, iterator)
        elif is_str(container.type):
            def character_step(k, values):
                # Each character is bound to the target for one step, then
                # released (a string never changes: its length is read once).
                character = self.new_str("char_at", [container, k], iterator)
                results = bound(Value(character.ir, character.type), values)
                self.release(character, iterator)
                return results

            results = self.counted_carrying(
                self.constant(0, kt.i64, iterator), self.str_length(container, iterator),
                carried, character_step, iterator, stop)
        elif isinstance(container.type, kt.ArrayType):
            results = self.counted_carrying(
                self.constant(0, kt.i64, iterator), self.dimension(container, 0, iterator),
                carried, lambda k, values: bound(self.load_element(container, [
                    self.element_index(container, 0, k, iterator)], iterator), values),
                iterator, stop)
        else:
            length = (lambda: self.list_length(container, iterator)) if rereads else \
                self.list_length(container, iterator)
            def item_step(k, values):
                item = self.list_get(container, k, iterator)
                if not is_str(item.type):
                    return bound(item, values)
                # A str item is held for the step (the body may change the
                # list), then released.
                item = self.own(item, iterator)
                results = bound(Value(item.ir, item.type), values)
                self.release(item, iterator)
                return results

            results = self.counted_carrying(
                self.constant(0, kt.i64, iterator), length, carried, item_step, iterator, stop)
        self.done_with(iterator, container)
        return results

    def fold_zipped(self, call, carried, bound, stop, rereads, started) -> list:
        """`for a, b in zip(xs, ys)` (as long as the shortest) and `for i, v
        in enumerate(xs[, start])` in a generator or comprehension: one
        counter indexes every iterable (a range, a list, a 1-D array; a
        list's length re-read at each step when `rereads`)."""
        counting = call.func.id == "enumerate"
        sources = [self.zipped_source(a, rereads) for a in call.args[:1 if counting else None]]
        start = self.convert(self.expression(call.args[1]), kt.i64, call.args[1]) \
            if counting and len(call.args) == 2 else self.constant(0, kt.i64, call)

        def shortest():
            lengths = [length() if callable(length) else length for length, _, _ in sources]
            result = lengths[0]
            for length in lengths[1:]:
                result = self.select(self.cmpi("slt", length, result, call), length, result,
                                     call)
            return result

        fixed = not any(callable(length) for length, _, _ in sources)
        upper = shortest() if fixed else shortest
        if started:
            started(upper if fixed else shortest())

        def step(k, values):
            items = [element(k) for _, element, _ in sources]
            if counting:
                items = [self.arith("addi", start, k, call)] + items
            return bound(tuple_value(items), values)

        results = self.counted_carrying(self.constant(0, kt.i64, call), upper, carried, step,
                                        call, stop)
        for _, _, container in sources:
            self.done_with(call, container)
        return results

    def zipped_source(self, iterable, rereads):
        """(its length, a Value or a function re-reading it; its element at
        k; the container to release after the loop) of one iterable of
        zip() or enumerate()."""
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and \
                iterable.func.id == "range" and self.typed.values.get(iterable) is None:
            container = self.range_value(iterable)
        else:
            container = self.expression(iterable)
        if is_range(container.type):
            return (self.range_length(container, iterable, checked=False),
                    lambda k: self.range_item(container, k, iterable, checked=False), None)
        if isinstance(container.type, kt.ArrayType):
            return (self.dimension(container, 0, iterable),
                    lambda k: self.load_element(container, [self.element_index(
                        container, 0, k, iterable)], iterable), container)
        length = (lambda: self.list_length(container, iterable)) if rereads else \
            self.list_length(container, iterable)
        return length, lambda k: self.list_get(container, k, iterable), container

    def length_of(self, container: Value, node) -> Value:
        """The length of a dict (or view), a set, a 1-D array or a list."""
        if is_table(container.type):
            return self.dict_length(container, node)
        if isinstance(container.type, kt.ArrayType):
            return self.dimension(container, 0, node)
        if is_str(container.type):
            return self.str_length(container, node)
        return self.list_length(container, node)

    def counted_carrying(self, lower: Value, upper, carried, body, node, stop=None) -> list:
        """for k in [lower, upper) by 1 carrying `carried` (`body(k,
        carried)` -> the new values). `upper` is a Value, or a function
        evaluated before each step (a list's length, re-read); with
        `stop(carried)` the loop ends once it holds. scf.for when the bound
        is fixed and nothing stops it, else scf.while."""
        if not callable(upper) and stop is None:
            return self.counted_fold(lower, upper, self.constant(1, kt.i64, node), carried,
                                     body, node)
        location = self.loc(node)
        types = [kt.i64] + [v.type for v in carried]

        def condition():
            arguments = self.builder.block.arguments
            counter = Value(arguments[0], kt.i64)
            going = self.cmpi("slt", counter, upper() if callable(upper) else upper, node)
            if stop is not None:
                values = [Value(a, v.type) for a, v in zip(arguments[1:], carried)]
                going = self.arith("andi", going, self.negate(stop(values), node), node)
            self.builder.scf_condition(going.ir, list(arguments), location)

        def step():
            arguments = self.builder.block.arguments
            counter = Value(arguments[0], kt.i64, nonneg=bool(lower.nonneg))
            values = body(counter, [Value(a, v.type) for a, v in zip(arguments[1:], carried)])
            following = self.arith("addi", counter, self.constant(1, kt.i64, node), node)
            self.builder.scf_yield([following.ir] + [v.ir for v in values], location)

        before, _ = self.region(condition, argument_types=types)
        after, _ = self.region(step, argument_types=types)
        results = self.builder.scf_while([lower.ir] + [v.ir for v in carried], before, after,
                                         location)
        return [Value(r, v.type) for r, v in zip(results[1:], carried)]
