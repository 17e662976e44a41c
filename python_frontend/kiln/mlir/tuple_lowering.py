"""Lowering of tuples as values (typed by typecheck/tuple_typing.py): a tuple
is the list of its elements' values, so `t = (n, m, 1)`, `s = x.shape` and
passing them on cost nothing; `t[k]` with k written in the source is the
element itself, and with k known only at run time a chain of selects among
elements of one type, after CPython's IndexError check. A mixin of
code_generator.FunctionCodeGenerator."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .. import typing_rules as rules
from .values import Value, tuple_value


class TupleLowering:
    def expr_Tuple(self, node):
        return tuple_value([self.expression(e) for e in node.elts])

    def is_tuple_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and isinstance(typed.type, kt.TupleType)

    def tuple_subscript(self, node) -> Value:
        value = self.expression(node.value)
        count = len(value.elements)
        k = rules.constant_int(node.slice)
        if k is not None:
            chosen = value.elements[k]
            # `split(v)[0]`: the temporary tuple's other instances end here.
            self.done_with(node, *(e for e in value.elements if e is not chosen))
            return chosen
        index = self.convert(self.expression(node.slice), kt.i64, node.slice)
        zero = self.constant(0, kt.i64, node)
        length = self.constant(count, kt.i64, node)
        # t[-1] counts from the end, as in Python
        index = self.select(self.cmpi("slt", index, zero, node),
                            self.arith("addi", index, length, node), index, node)
        inside = self.arith("andi", self.cmpi("sge", index, zero, node),
                            self.cmpi("slt", index, length, node), node)
        self.check(inside, "IndexError", "tuple index out of range", [], node)
        element_type = self.typed_value(node).type
        elements = [self.convert(e, element_type, node) for e in value.elements]
        chosen = elements[-1]
        for position in range(count - 2, -1, -1):
            here = self.cmpi("eq", index, self.constant(position, kt.i64, node), node)
            chosen = self.select(here, elements[position], chosen, node)
        return Value(chosen.ir, element_type)

    def tuple_variable(self, converted: Value) -> Value:
        """A tuple bound to a name: each element as a number variable holds
        it (its value known only at run time)."""
        return tuple_value([Value(e.ir, e.type, nonneg=e.nonneg) for e in converted.elements])

    def shape_sizes(self, shape_node, nonnegative=True) -> list | None:
        """The sizes of a shape argument given as one tuple-valued
        expression (`x.shape`, a variable holding a tuple), checked as
        numpy's allocators check them (reshape takes one -1); None for a
        tuple written out or one int."""
        if isinstance(shape_node, (ast.Tuple, ast.List)) or not self.is_tuple_valued(shape_node):
            return None
        shape = self.expression(shape_node)
        if isinstance(shape_node, ast.Attribute) and shape_node.attr == "shape":
            return list(shape.elements)         # an array's sizes: never negative
        sizes = [self.convert(e, kt.i64, shape_node) for e in shape.elements]
        if nonnegative:
            self.check_nonnegative(sizes, shape_node)
            sizes = [Value(size.ir, size.type, nonneg=True) for size in sizes]
        return sizes

    # ------------------------------------------------- positions as tuples
    def position_tuple_call(self, name, node) -> Value:
        """np.unravel_index(k, shape) (numpy's ValueError for an index
        outside the shape's size), and the number of positions of
        np.ndindex(shape) (numpy's ValueError for a negative size)."""
        if name == "ndindex":
            return self.positions_size(node.args[0], node, "negative dimensions are not "
                                                          "allowed")
        index = self.convert(self.expression(node.args[0]), kt.i64, node)
        sizes = self.position_sizes(node.args[1], node)
        size = self.positions_size(node.args[1], node, None, sizes)
        zero = self.constant(0, kt.i64, node)
        inside = self.arith("andi", self.cmpi("sge", index, zero, node),
                            self.cmpi("slt", index, size, node), node)
        self.check(inside, "ValueError", "index {} is out of bounds for array with size {}",
                   [index, size], node)
        # From the last axis: every size is positive once the index is inside.
        position = []
        rest = index
        for axis in range(len(sizes) - 1, -1, -1):
            if axis == 0:
                position.append(rest)
                break
            position.append(self.arith("remsi", rest, sizes[axis], node))
            rest = self.arith("divsi", rest, sizes[axis], node)
        elements = []
        for element in reversed(position):
            element.nonneg = True
            elements.append(Value(element.ir, kt.i64, nonneg=True))
        return tuple_value(elements)

    def position_sizes(self, shape_node, node) -> list:
        shape = self.expression(shape_node)
        if isinstance(shape.type, kt.TupleType):
            return [self.convert(e, kt.i64, node) for e in shape.elements]
        return [self.convert(shape, kt.i64, node)]

    def positions_size(self, shape_node, node, negative_message, sizes=None) -> Value:
        """The product of a shape's sizes; with `negative_message`, each
        size checked to be >= 0 first."""
        sizes = self.position_sizes(shape_node, node) if sizes is None else sizes
        size = self.constant(1, kt.i64, node)
        zero = self.constant(0, kt.i64, node)
        fits = self.constant(True, kt.boolean, node)
        location = self.loc(node)
        sign = self.constant(63, kt.i64, node)
        for axis_size in sizes:
            if negative_message is not None:
                self.check(self.cmpi("sge", axis_size, zero, node), "ValueError",
                           negative_message, [], node)
            # numpy's intp product: an overflow is its ValueError
            low, high = self.builder.mulsi_extended(size.ir, axis_size.ir, location)
            size = Value(low, kt.i64)
            extended = self.arith("shrsi", size, sign, node)
            fits = self.arith("andi", fits, self.cmpi("eq", Value(high, kt.i64), extended, node),
                              node)
        self.check(fits, "ValueError", "dimensions are too large; arrays and shapes with a "
                   "total size greater than 'intp' are not supported.", [], node)
        return Value(size.ir, kt.i64)
