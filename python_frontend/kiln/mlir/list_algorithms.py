"""Lowering of heapq's and bisect's functions on lists
(library_functions.LIST_FUNCTIONS, typed by
typecheck/list_library_typing.py) to loops over `kiln.list.get`, `set`,
`append`, `pop` and `insert`. A mixin of code_generator.FunctionCodeGenerator.

Each is CPython's algorithm (Lib/heapq.py and Modules/_heapqmodule.c,
Lib/bisect.py and Modules/_bisectmodule.c): the same comparisons, `<` only,
between the same items in the same order, so a heap's layout after every
call is CPython's, also with NaNs among the items (which no `<` orders:
CPython's heap then is no heap, and neither is Kiln's, the same way).

* `_siftdown(heap, start, pos)` (here `sift_toward_root`): the item at pos
  moves up while it is `<` its parent;
* `_siftup(heap, pos)` (`sift_toward_leaves`): the smaller child moves up
  (the right one unless `left < right`) until a leaf is reached, then the
  item sifts toward the root from there;
* heapify sifts toward the leaves from n//2 - 1 down to 0 (CPython's
  cache-friendly order for large lists sifts the same nodes, each after its
  children, so the layout is the same);
* bisect halves [lo, hi) at (lo + hi) // 2, comparing `a[mid] < x`
  (left) or `x < a[mid]` (right).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value
from ..typecheck.list_library_typing import bounds_arguments


class ListAlgorithms:
    # ----------------------------------------------------------- helpers
    def position_constant(self, value, node) -> Value:
        return self.constant(value, kt.i64, node)

    def item_less(self, a: Value, b: Value, node) -> Value:
        """Python's `a < b` of two numbers (exact between int and float)."""
        return self.compare(ast.Lt(), a, b, node)

    def if_values(self, condition: Value, then_build, else_build, types, node) -> list:
        """scf.if whose branches each build and return the values yielded."""
        then_region, _ = self.region(lambda: self.yield_values(then_build(), node))
        else_region, _ = self.region(lambda: self.yield_values(else_build(), node))
        return self.scf_if(condition, types, then_region, else_region, node)

    def while_state(self, state, test, step, node) -> list:
        """A while loop over `state` (Values): `test(state)` says whether
        to go on; `step(state)` gives the next state. Returns the last
        state."""
        location = self.loc(node)
        types = [v.ir.type for v in state]

        def arguments(block):
            return [Value(a, v.type, nonneg=v.nonneg) for a, v in zip(block.arguments, state)]

        before = self.builder.region(types)
        with self.builder.at_end(before.block):
            current = arguments(before.block)
            self.builder.scf_condition(test(current).ir, [v.ir for v in current], location)
        after = self.builder.region(types)
        with self.builder.at_end(after.block):
            self.builder.scf_yield([v.ir for v in step(arguments(after.block))], location)
        results = self.builder.scf_while([v.ir for v in state], before, after, location)
        return [Value(r, v.type, nonneg=v.nonneg) for r, v in zip(results, state)]

    def parent_position(self, at: Value, node) -> Value:
        one = self.position_constant(1, node)
        return self.arith("shrsi", self.arith("subi", at, one, node), one, node)

    def sift_toward_root(self, heap: Value, start: Value, position: Value, node) -> None:
        """CPython's heapq._siftdown: the item at `position` moves toward
        the root while it is `<` its parent (positions above `start` only)."""
        new_item = self.list_get(heap, position, node)

        def test(state):
            [at] = state
            going = self.cmpi("sgt", at, start, node)
            # At `start` the parent read is of `at` itself, and ignored.
            parent = self.select(going, self.parent_position(at, node), at, node)
            parent_item = self.list_get(heap, parent, node)
            return self.arith("andi", going, self.item_less(new_item, parent_item, node), node)

        def step(state):
            [at] = state
            parent = self.parent_position(at, node)
            self.list_op("set", [heap, at, self.list_get(heap, parent, node)], node)
            return [parent]

        [final] = self.while_state([position], test, step, node)
        self.list_op("set", [heap, final, new_item], node)

    def sift_toward_leaves(self, heap: Value, position: Value, node) -> None:
        """CPython's heapq._siftup: the smaller child (the right one unless
        `left < right`) moves up until `position` is a leaf; then the item
        that was at `position` sifts toward the root from there."""
        end = self.list_length(heap, node)
        new_item = self.list_get(heap, position, node)
        one = self.position_constant(1, node)
        two = self.position_constant(2, node)

        def left_child(at):
            return self.arith("addi", self.arith("muli", at, two, node), one, node)

        def test(state):
            [at] = state
            return self.cmpi("slt", left_child(at), end, node)

        def step(state):
            [at] = state
            left = left_child(at)
            right = self.arith("addi", left, one, node)
            has_right = self.cmpi("slt", right, end, node)
            right = self.select(has_right, right, left, node)
            left_item = self.list_get(heap, left, node)
            right_item = self.list_get(heap, right, node)
            take_right = self.arith("andi", has_right, self.negate(
                self.item_less(left_item, right_item, node), node), node)
            child = self.select(take_right, right, left, node)
            self.list_op("set", [heap, at, self.select(take_right, right_item, left_item, node)],
                         node)
            return [child]

        [leaf] = self.while_state([position], test, step, node)
        self.list_op("set", [heap, leaf, new_item], node)
        self.sift_toward_root(heap, position, leaf, node)

    def list_arguments(self, node) -> list:
        """The call's positional arguments, evaluated in order."""
        return [self.expression(a) for a in node.args]

    def check_not_empty(self, heap: Value, node) -> None:
        length = self.list_length(heap, node)
        self.check(self.cmpi("sgt", length, self.position_constant(0, node), node), "IndexError",
                   "index out of range", [], node)

    # ------------------------------------------------------------- heapq
    def heap_push(self, function, node) -> Value:
        """heappush(heap, item): appended, then sifted toward the root."""
        heap, item = self.list_arguments(node)
        self.list_append(heap, self.convert(item, heap.type.item, node), node)
        last = self.arith("subi", self.list_length(heap, node), self.position_constant(1, node),
                          node)
        self.sift_toward_root(heap, self.position_constant(0, node), last, node)
        self.done_with(node, heap)
        return Value(None, None)

    def heap_pop(self, function, node) -> Value:
        """heappop(heap): IndexError("index out of range") when empty; the
        last item replaces the first, which is returned, and sifts down."""
        [heap] = self.list_arguments(node)
        self.check_not_empty(heap, node)
        last = self.list_op("pop", [heap, self.position_constant(-1, node)], node, heap.type.item)
        zero = self.position_constant(0, node)
        remaining = self.cmpi("sgt", self.list_length(heap, node), zero, node)

        def replace_first():
            first = self.list_get(heap, zero, node)
            self.list_op("set", [heap, zero, last], node)
            self.sift_toward_leaves(heap, zero, node)
            return [first]

        [result] = self.if_values(remaining, replace_first, lambda: [last], [heap.type.item],
                                  node)
        self.done_with(node, heap)
        return result

    def heap_replace(self, function, node) -> Value:
        """heapreplace(heap, item): the first item returned, `item` put in
        its place and sifted down (IndexError when empty)."""
        heap, item = self.list_arguments(node)
        item = self.convert(item, heap.type.item, node)
        self.check_not_empty(heap, node)
        zero = self.position_constant(0, node)
        first = self.list_get(heap, zero, node)
        self.list_op("set", [heap, zero, item], node)
        self.sift_toward_leaves(heap, zero, node)
        self.done_with(node, heap)
        return first

    def heap_push_pop(self, function, node) -> Value:
        """heappushpop(heap, item): `item` itself when the heap is empty or
        its first item is not `<` item; else the first item, replaced."""
        heap, item = self.list_arguments(node)
        item = self.convert(item, heap.type.item, node)
        zero = self.position_constant(0, node)
        nonempty = self.cmpi("sgt", self.list_length(heap, node), zero, node)

        def compare_first():
            first = self.list_get(heap, zero, node)
            return [self.item_less(first, item, node), first]

        false = self.constant(False, kt.boolean, node)
        replaces, first = self.if_values(nonempty, compare_first, lambda: [false, item],
                                         [kt.boolean, heap.type.item], node)

        def replace():
            self.list_op("set", [heap, zero, item], node)
            self.sift_toward_leaves(heap, zero, node)
            return []

        self.if_values(replaces, replace, lambda: [], [], node)
        self.done_with(node, heap)
        return self.select(replaces, first, item, node)

    def heapify(self, function, node) -> Value:
        """heapify(xs): sifts toward the leaves from n//2 - 1 down to 0."""
        [heap] = self.list_arguments(node)
        location = self.loc(node)
        one = self.position_constant(1, node)
        half = self.arith("shrsi", self.list_length(heap, node), one, node)
        body = self.builder.region([ir.i64])
        with self.builder.at_end(body.block):
            step = Value(body.block.arguments[0], kt.i64, nonneg=True)
            position = self.arith("subi", self.arith("subi", half, one, node), step, node)
            self.sift_toward_leaves(heap, position, node)
            self.builder.scf_yield([], location)
        self.builder.scf_for(self.position_constant(0, node).ir, half.ir, one.ir, [], body,
                             location)
        self.done_with(node, heap)
        return Value(None, None)

    def heap_select(self, function, node) -> Value:
        """nsmallest(n, xs) / nlargest(n, xs): the first max(n, 0) items of
        xs sorted (stably) up or down, which is what CPython's selection
        returns for numbers that `<` orders (docs/language.md: with NaNs
        the two may differ)."""
        count, container = self.list_arguments(node)
        count = self.convert(count, kt.i64, node)
        chosen = self.list_op("copy", [container], node, container.type)
        chosen.owned = True
        self.done_with(node, container)
        self.list_op("sort", [chosen], node, attributes={"reverse": ir.UNIT}
                     if function.name == "nlargest" else None)
        zero = self.position_constant(0, node)
        keep = self.select(self.cmpi("sgt", count, zero, node), count, zero, node)
        location = self.loc(node)
        one = self.position_constant(1, node)
        body = self.builder.region([ir.i64])
        with self.builder.at_end(body.block):
            self.list_op("pop", [chosen, self.position_constant(-1, node)], node,
                         container.type.item)
            self.builder.scf_yield([], location)
        length = self.list_length(chosen, node)
        start = self.select(self.cmpi("slt", keep, length, node), keep, length, node)
        self.builder.scf_for(start.ir, length.ir, one.ir, [], body, location)
        return chosen

    # ------------------------------------------------------------ bisect
    def bisect_bounds(self, container: Value, node) -> tuple:
        """(lo, hi) of a bisect call, its arguments evaluated after the
        list and x: ValueError("lo must be non-negative"); hi defaults to
        the length, and so does hi=-1 (CPython's C default)."""
        lo_node, hi_node = bounds_arguments(node)
        lo = self.convert(self.expression(lo_node), kt.i64, lo_node) if lo_node is not None \
            else self.position_constant(0, node)
        hi = self.convert(self.expression(hi_node), kt.i64, hi_node) if hi_node is not None \
            else None
        self.check(self.cmpi("sge", lo, self.position_constant(0, node), node), "ValueError",
                   "lo must be non-negative", [], node)
        length = self.list_length(container, node)
        if hi is None:
            return lo, length
        minus_one = self.cmpi("eq", hi, self.position_constant(-1, node), node)
        return lo, self.select(minus_one, length, hi, node)

    def bisect_position(self, function, container: Value, needle: Value, node) -> Value:
        lo, hi = self.bisect_bounds(container, node)
        left = function.name.endswith("_left")
        one = self.position_constant(1, node)

        def test(state):
            low, high = state
            return self.cmpi("slt", low, high, node)

        def step(state):
            low, high = state
            middle = self.arith("shrui", self.arith("addi", low, high, node), one, node)
            item = self.list_get(container, middle, node)
            # bisect_left: a[mid] < x moves lo; bisect_right: x < a[mid] moves hi.
            if left:
                moves_low = self.item_less(item, needle, node)
            else:
                moves_low = self.negate(self.item_less(needle, item, node), node)
            after_middle = self.arith("addi", middle, one, node)
            return [self.select(moves_low, after_middle, low, node),
                    self.select(moves_low, high, middle, node)]

        low, _ = self.while_state([lo, hi], test, step, node)
        return low

    def bisect_search(self, function, node) -> Value:
        """bisect_left/bisect_right/bisect(a, x, lo=0, hi=len(a))."""
        container, needle = [self.expression(a) for a in node.args[:2]]
        position = self.bisect_position(function, container, needle, node)
        self.done_with(node, container)
        return position

    def bisect_insert(self, function, node) -> Value:
        """insort_left/insort_right/insort: x inserted where bisect says
        (list.insert clamps a position past the end, as CPython's does)."""
        container, needle = [self.expression(a) for a in node.args[:2]]
        position = self.bisect_position(function, container, needle, node)
        self.list_op("insert", [container, position,
                                self.convert(needle, container.type.item, node)], node)
        self.done_with(node, container)
        return Value(None, None)
