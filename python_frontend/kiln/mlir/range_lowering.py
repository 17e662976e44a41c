"""Lowering of range objects kept as values (typed by
typecheck/range_typing.py) and of the counted loops every `for` over a
range becomes. A range is the three int64 Values of its start, stop and
step (`Value.elements`, as a tuple's), so it costs nothing at run time; a
step known only at run time is checked against zero where the range is
made, as CPython's range() raises there. Its length is CPython's
(`compute_range_length`): the distance between the bounds and the step's
magnitude read as unsigned numbers, exact for any int64 bounds; `len(r)`
raises OverflowError beyond 2**63 - 1 elements, a loop over such a range
runs over its first 2**63 - 1. `r[i]`, `i in r`, `min(r)` and `max(r)` are
computed from the three numbers; `sum(r)`, `list(r)` and comprehensions
loop over the elements. A mixin of code_generator.FunctionCodeGenerator."""

from __future__ import annotations

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value
from ..typecheck.typed_tree import RANGE, is_range
from ..typecheck.dict_typing import is_hidden_iterable
from ..typing_rules import INT64_MAX, INT64_MIN

TOO_LONG = "Python int too large to convert to C ssize_t"


class RangeLowering:
    # -------------------------------------------------- counted loops
    def range_arguments(self, call):
        """(start, stop, step or None) of `range(...)` as int64 Values,
        evaluated left to right."""
        args = [self.convert(self.expression(a), kt.i64, a) for a in call.args]
        if len(args) == 1:
            return self.constant(0, kt.i64, call), args[0], None
        return args[0], args[1], args[2] if len(args) == 3 else None

    def counted_bounds(self, start, stop, step, node, checked=False):
        """(lower, upper, step, normalized) of a counted loop over range(start,
        stop, step); `normalized` is (start, step) when the loop runs a
        counter k in [0, trips) and the target is start + k * step (negative
        or unknown steps). A step known only at run time is checked against
        zero unless the range was (`checked`)."""
        step_value = 1 if step is None else step.constant
        if step_value == 0:
            raise self.missed(node, "range() arg 3 must not be zero")
        if step_value == 1 or step is None:
            return start, stop, step or self.constant(1, kt.i64, node), None
        if step_value is None and not checked:
            self.check_range_step(step, node)
        trips = self.range_trips(start, stop, step, node)
        # More than 2**63 - 1 trips: the loop's counter is an int64, and no
        # loop runs that long anyway.
        trips = self.select(self.cmpi("slt", trips, self.constant(0, kt.i64, node), node),
                            self.constant(INT64_MAX, kt.i64, node), trips, node)
        return self.constant(0, kt.i64, node), trips, self.constant(1, kt.i64, node), \
            (start, step)

    def check_range_step(self, step: Value, node) -> None:
        zero = self.constant(0, kt.i64, node)
        self.check(self.cmpi("ne", step, zero, node), "ValueError",
                   "range() arg 3 must not be zero", [], node)

    def range_trips(self, start, stop, step, node) -> Value:
        """How many elements range(start, stop, step) has (step != 0), as
        the bits of an unsigned int64: up to 2**64 - 1."""
        step_value = 1 if step is None else step.constant
        zero = self.constant(0, kt.i64, node)
        if step_value is None:
            positive = self.cmpi("sgt", step, zero, node)
            up = self.arith("subi", stop, start, node)
            down = self.arith("subi", start, stop, node)
            distance = self.select(positive, up, down, node)
            negated = self.arith("subi", zero, step, node)
            magnitude = self.select(positive, step, negated, node)
        else:
            positive = self.constant(step_value > 0, kt.boolean, node)
            if step_value > 0:
                distance = self.arith("subi", stop, start, node)
            else:
                distance = self.arith("subi", start, stop, node)
            magnitude = self.constant(abs(step_value) if step_value != INT64_MIN
                                      else INT64_MIN, kt.i64, node)
        # The distance and |step| are read as unsigned: exact for any bounds,
        # where signed arithmetic would overflow.
        up = self.cmpi("slt", start, stop, node)
        down = self.cmpi("sgt", start, stop, node)
        moves = self.select(positive, up, down, node)
        trips = self.arith("ceildivui", distance, magnitude, node)
        return self.select(moves, trips, zero, node)

    # ------------------------------------------------ range values
    def range_value(self, node) -> Value:
        """`range(...)`: its start, stop and step (ValueError for a zero
        step here, as CPython's range() raises when it is made)."""
        start, stop, step = self.range_arguments(node)
        if step is None:
            step = self.constant(1, kt.i64, node)
        elif step.constant is None:
            self.check_range_step(step, node)
        # int64s (a Python literal argument is no longer one: `r.stop` is typed)
        return Value(None, RANGE, elements=[Value(e.ir, kt.i64, constant=e.constant,
                                                  nonneg=e.nonneg) for e in (start, stop, step)])

    def is_range_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and is_range(typed.type)

    def range_variable(self, value: Value) -> Value:
        """A range bound to a name keeps its three numbers."""
        return Value(None, RANGE, elements=list(value.elements))

    def range_length(self, value: Value, node, checked=True) -> Value:
        """`len(r)`: OverflowError beyond 2**63 - 1 elements (CPython's
        message); unchecked (a loop's own), the count of a loop over it."""
        trips = self.range_trips(*value.elements, node)
        if not checked:
            negative = self.cmpi("slt", trips, self.constant(0, kt.i64, node), node)
            return self.select(negative, self.constant(INT64_MAX, kt.i64, node), trips, node,
                               nonneg=True)
        self.check(self.cmpi("sge", trips, self.constant(0, kt.i64, node), node),
                   "OverflowError", TOO_LONG, [], node)
        return Value(trips.ir, kt.i64, nonneg=True)

    def range_item(self, value: Value, index: Value, node, checked=True) -> Value:
        """r[index] = start + index * step; checked, a negative index counts
        from the end and one outside raises CPython's IndexError (compared as
        unsigned numbers: a range may hold up to 2**64 - 1 elements)."""
        start, stop, step = value.elements
        if checked:
            trips = self.range_trips(start, stop, step, node)
            zero = self.constant(0, kt.i64, node)
            below = self.cmpi("ult", index, trips, node)
            if index.nonneg or (index.constant is not None and index.constant >= 0):
                inside = below
            else:
                negative = self.cmpi("slt", index, zero, node)
                back = self.arith("subi", zero, index, node)
                inside = self.select(negative, self.cmpi("ule", back, trips, node), below, node)
                index = self.select(negative, self.arith("addi", index, trips, node), index,
                                    node)
            self.check(inside, "IndexError", "range object index out of range", [], node)
        return self.arith("addi", start, self.arith("muli", index, step, node), node)

    def range_subscript(self, node) -> Value:
        """`r[i]`; the element a loop over r binds (`for$iterableN[k]`,
        desugar.py) is not checked: k runs over the range's length."""
        value = self.expression(node.value)
        index = self.convert(self.expression(node.slice), kt.i64, node.slice)
        return self.range_item(value, index, node, checked=not is_hidden_iterable(node.value))

    def range_contains(self, node, needle: Value, value: Value) -> Value:
        """`needle in r` (CPython's range_contains_long: between the bounds
        and a whole number of steps from the start; a float is found when
        it is a whole number the range holds, as CPython's == finds it)."""
        start, stop, step = value.elements
        zero = self.constant(0, kt.i64, node)
        found = self.constant(True, kt.boolean, node)
        if needle.type.is_float:
            x = self.convert(needle, kt.f64, node)
            whole = self.cmpf("oeq", self.unary("floor", x, node), x, node)
            fits = self.arith("andi", self.cmpf("oge", x, self.constant(-2.0 ** 63, kt.f64, node),
                                                node),
                              self.cmpf("olt", x, self.constant(2.0 ** 63, kt.f64, node), node),
                              node)
            found = self.arith("andi", whole, fits, node)
            safe = self.select(found, x, self.constant(0.0, kt.f64, node), node)
            number = self.cast("fptosi", safe, kt.i64, node)
        else:
            number = self.convert(needle, kt.i64, node)
            if needle.type == kt.u64:       # 2**63 and beyond: no range holds them
                found = self.cmpi("sge", number, zero, node)
        positive = self.cmpi("sgt", step, zero, node)
        up = self.arith("andi", self.cmpi("sle", start, number, node),
                        self.cmpi("slt", number, stop, node), node)
        down = self.arith("andi", self.cmpi("slt", stop, number, node),
                          self.cmpi("sle", number, start, node), node)
        inside = self.select(positive, up, down, node)
        distance = self.select(positive, self.arith("subi", number, start, node),
                               self.arith("subi", start, number, node), node)
        magnitude = self.select(positive, step, self.arith("subi", zero, step, node), node)
        one = self.constant(1, kt.i64, node)
        magnitude = self.select(self.cmpi("eq", magnitude, zero, node), one, magnitude, node)
        remainder = self.arith("remui", distance, magnitude, node)
        on_step = self.cmpi("eq", remainder, zero, node)
        return self.arith("andi", found, self.arith("andi", inside, on_step, node), node)

    def range_truthy(self, value: Value, node) -> Value:
        trips = self.range_trips(*value.elements, node)
        return self.cmpi("ne", trips, self.constant(0, kt.i64, node), node)

    def range_attribute(self, value: Value, node) -> Value:
        """`r.start`, `r.stop`, `r.step`."""
        return value.elements[("start", "stop", "step").index(node.attr)]

    def range_min_max(self, value: Value, node, name) -> Value:
        """`min(r)`, `max(r)`: the first or the last element by the step's
        sign (CPython walks the range; the same element); ValueError when
        it is empty."""
        start, stop, step = value.elements
        trips = self.range_trips(start, stop, step, node)
        zero = self.constant(0, kt.i64, node)
        self.check(self.cmpi("ne", trips, zero, node), "ValueError",
                   f"{name}() arg is an empty sequence", [], node)
        last = self.range_item(value, self.arith("subi", trips, self.constant(1, kt.i64, node),
                                                 node), node, checked=False)
        rising = self.cmpi("sgt", step, zero, node)
        if name == "min":
            return self.select(rising, start, last, node)
        return self.select(rising, last, start, node)

    def fold_range(self, value: Value, initial, step, node) -> list:
        """Values carried through the elements of a range, in order
        (`step(element, carried)` -> the new carried values)."""
        lower, upper, one, normalized = self.counted_bounds(*value.elements, node, checked=True)
        return self.counted_fold(lower, upper, one, initial, lambda counter, carried: step(
            self.counted_element(counter, normalized, node), carried), node)

    def counted_element(self, counter: Value, normalized, node) -> Value:
        """The element of a counted loop at `counter` (counted_bounds)."""
        if normalized is None:
            return counter
        start, step = normalized
        return self.arith("addi", start, self.arith("muli", counter, step, node), node)

    def counted_fold(self, lower, upper, step, initial, body_step, node) -> list:
        """scf.for counter in [lower, upper) by `step`, carrying `initial`
        (`body_step(counter, carried)` -> the new carried values); their
        final values."""
        location = self.loc(node)
        body = self.builder.region([ir.i64] + [v.ir.type for v in initial])
        with self.builder.at_end(body.block):
            counter = Value(body.block.arguments[0], kt.i64,
                            nonneg=bool(lower.nonneg) and step.constant == 1)
            carried = [Value(argument, v.type) for argument, v in
                       zip(body.block.arguments[1:], initial)]
            updated = body_step(counter, carried)
            self.builder.scf_yield([v.ir for v in updated], location)
        results = self.builder.scf_for(lower.ir, upper.ir, step.ir, [v.ir for v in initial],
                                       body, location)
        return [Value(r, v.type) for r, v in zip(results, initial)]

    def range_list(self, value: Value, node) -> Value:
        """`list(r)`, `sorted(r)`: a new list[int] of its elements
        (OverflowError beyond 2**63 - 1 of them, as CPython's list())."""
        made = self.new_list(kt.ListType(kt.i64), self.range_length(value, node), node)
        self.fold_range(value, [], lambda item, carried: self.list_append(made, item, node)
                        or [], node)
        return made
