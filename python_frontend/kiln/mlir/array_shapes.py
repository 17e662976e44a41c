"""numpy's shape and creation functions, as a mixin of
FunctionCodeGenerator (their typing: shape_typing.py).

Views stay views: `np.flip`, `x.T`/`np.transpose` and, when numpy's rule
allows it, `x.reshape(...)`/`x.ravel()` re-stride the array
(memref.reinterpret_cast). Whether a reshape can be a view depends on the
run-time strides (runtime/kiln_shapes.c has numpy's rule); when it cannot,
the elements are copied into an array of the function, as numpy copies.

Everything else makes a new array and is an array expression of kind
"filled": a function that fills a destination of the expression's shape
(a loop nest, or stores into slices for np.concatenate). Stored in a
variable or returned, the destination is the new array itself; inside a
larger expression (`np.roll(g, 1, 0) + np.roll(g, -1, 0)`) it is a
temporary read as a view (array_expressions.prepare_operands).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from .values import Value, tuple_value
from .array_expressions import ArrayExpr
from ..typing_rules import bound_arguments, constant_int, normalized_axis

RESHAPE_COPY = -(1 << 63)       # kiln_reshape_stride's "needs a copy"


class ArrayShapes:
    """Needs the generator's and ArrayExpressions' helpers."""

    # ------------------------------------------------------------ helpers
    def index_op(self, name, a, b, node):
        return self.builder.binary(name, a, b, self.loc(node))

    def as_index(self, value, node):
        return self.builder.cast("index_cast", value.ir, ir.index, self.loc(node))

    def as_i64(self, index_value, node):
        return Value(self.builder.cast("index_cast", index_value, ir.i64, self.loc(node)),
                     kt.i64)

    def nonzero_divisor(self, size, node):
        """`size`, or 1 when it is 0: a divisor safe to compute outside the
        loops that run only when it is not 0."""
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        return self.builder.select(self.builder.cmpi("eq", size, zero, self.loc(node)), one,
                                   size, self.loc(node))

    def floor_mod(self, a, n, node):
        """a mod n in [0, n) for index values (n > 0)."""
        remainder = self.index_op("remsi", a, n, node)
        zero = self.index_constant(0, node)
        negative = self.builder.cmpi("slt", remainder, zero, self.loc(node))
        return self.builder.select(negative, self.index_op("addi", remainder, n, node),
                                   remainder, self.loc(node))

    def filled(self, array_type, shape, fill, node, operands=()):
        """A lazy new array made by `fill(destination, operand views)`."""
        expr = ArrayExpr("filled", array_type.dtype, list(shape), operands=list(operands),
                         node=node, fill=fill)
        return self.lazy_array(array_type, expr)

    def indexed(self, array_type, shape, element, node, operands=()):
        """A new array whose element at the counters is element(counters,
        operand views): a loop nest."""
        return self.filled(array_type, shape, self.element_fill(array_type, element, node),
                           node, operands)

    def element_fill(self, array_type, element, node):
        """fill(destination, views): a loop nest storing element(counters,
        views) at each position of the destination."""
        location = self.loc(node)

        def fill(destination, views):
            def store(counters):
                value = self.convert(element(counters, views), array_type.dtype, node,
                                     explicit=True)
                self.builder.store(value.ir, destination.ir, counters, location)

            self.for_each(self.index_sizes(destination, node), store, node)

        return fill

    def load_at(self, view, counters, node):
        return self.value_of(self.builder.load(view.ir, counters, self.loc(node)),
                             view.type.dtype)

    def check_nonnegative(self, sizes, node):
        zero = self.constant(0, kt.i64, node)
        ok = None
        for size in sizes:
            test = self.cmpi("sge", size, zero, node)
            ok = test if ok is None else self.arith("andi", ok, test, node)
        if ok is not None:
            self.check(ok, "ValueError", "negative dimensions are not allowed", [], node)

    def flat_index(self, counters, sizes, node):
        """The C-order position of `counters` in an array of `sizes`."""
        flat = self.index_constant(0, node)
        for counter, size in zip(counters, sizes):
            flat = self.index_op("addi", self.index_op("muli", flat, size, node), counter, node)
        return flat

    def unflatten(self, flat, sizes, node):
        """The counters of C-order position `flat` (sizes not 0)."""
        counters = []
        for size in reversed(sizes):
            divisor = self.nonzero_divisor(size, node)
            counters.append(self.index_op("remui", flat, divisor, node))
            flat = self.index_op("divui", flat, divisor, node)
        return list(reversed(counters))

    def restrided(self, view, offset, sizes, strides, array_type, node, origins=None):
        metadata = self.builder.extract_strided_metadata(view.ir, self.loc(node))
        result = self.builder.reinterpret_cast(metadata[0], offset, sizes, strides,
                                               self.loc(node))
        return self.value_of_view(result, array_type, view.origins if origins is None
                                  else origins)

    @staticmethod
    def value_of_view(ir_value, array_type, origins):
        return Value(ir_value, array_type, origins=origins)

    def layout(self, view, node):
        """(offset, sizes, strides) of a view, as index values."""
        metadata = self.builder.extract_strided_metadata(view.ir, self.loc(node))
        rank = view.type.ndim
        return metadata[1], list(metadata[2:2 + rank]), list(metadata[2 + rank:])

    def materialized(self, value, node):
        return self.materialize(value, node) if value.lazy is not None else value

    # ---------------------------------------------------------- dispatch
    def shape_function(self, name, node, base_node=None):
        if name in ("concatenate", "hstack", "vstack", "stack"):
            return self.joined(name, node)
        if name == "outer":
            return self.outer(node)
        if name in ("arange", "linspace", "full", "full_like", "eye", "identity", "array"):
            return getattr(self, "creation_" + name)(node)
        leading = 0
        if base_node is None:
            base_node, leading = node.args[0], 1
        base = self.expression(base_node)
        if name in ("reshape", "ravel", "flip", "fliplr", "flipud", "transpose"):
            base = self.materialized(base, node)
        if name == "reshape" and leading == 0 and len(node.args) > 1:
            parts = [self.convert(self.expression(p), kt.i64, p) for p in node.args]
            return self.reshape(base, parts, [constant_int(p) for p in node.args], node)
        bound, _ = bound_arguments(name, node, leading)
        typed = self.typed_value(node).type
        if name == "reshape":
            shape_node = bound["shape"]
            parts = self.shape_sizes(shape_node, nonnegative=False)
            if parts is not None:
                written = [None] * len(parts)
            else:
                nodes = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
                    shape_node]
                parts = [self.convert(self.expression(p), kt.i64, p) for p in nodes]
                written = [constant_int(p) for p in nodes]
            return self.reshape(base, parts, written, node)
        if name == "ravel":
            return self.reshape(base, [self.constant(-1, kt.i64, node)], [-1], node,
                                ravel=True)
        if name == "flatten":
            return self.flatten(base, typed, node)
        if name in ("flip", "fliplr", "flipud"):
            ndim = base.type.ndim
            axes = {"fliplr": [1], "flipud": [0]}.get(name)
            if axes is None:
                axis = self.typing_axis(bound["axis"], ndim)
                axes = list(range(ndim)) if axis is None else [axis]
            return self.flip(base, axes, node)
        if name == "transpose":
            return self.transpose(base, node)
        operand = self.array_operand(base, node)
        if name == "roll":
            shift = self.convert(self.expression(bound["shift"]), kt.i64, bound["shift"])
            return self.roll(operand, shift, self.typing_axis(bound["axis"], typed.ndim),
                             typed, node)
        if name == "tile":
            reps = bound["reps"]
            nodes = reps.elts if isinstance(reps, (ast.Tuple, ast.List)) else [reps]
            counts = [self.convert(self.expression(p), kt.i64, p) for p in nodes]
            return self.tile(operand, counts, typed, node)
        if name == "repeat":
            count = self.convert(self.expression(bound["repeats"]), kt.i64, bound["repeats"])
            axis = self.typing_axis(bound["axis"], len(operand.shape))
            return self.repeat(operand, count, axis, typed, node)
        if name == "diff":
            order = 1 if bound["n"] is None else constant_int(bound["n"])
            if order == 0:
                return base         # numpy returns the array itself (the same memory)
            axis = normalized_axis(-1 if bound["axis"] is None else constant_int(bound["axis"]),
                                   typed.ndim)
            return self.diff(operand, order, axis, typed, node)
        if name in ("tril", "triu"):
            k = self.constant(0, kt.i64, node) if bound["k"] is None else self.convert(
                self.expression(bound["k"]), kt.i64, bound["k"])
            return self.triangle(name, operand, k, typed, node)
        if name in ("argmin", "argmax"):
            axis = self.typing_axis(bound["axis"], len(operand.shape))
            return self.arg_extremum(name, operand, axis, typed, node)
        if name in ("nonzero", "flatnonzero"):
            return self.positions(name, operand, node)
        raise self.missed(node, f"np.{name}")

    @staticmethod
    def typing_axis(axis_node, ndim):
        if axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None):
            return None
        return normalized_axis(constant_int(axis_node), ndim)

    # -------------------------------------------------------------- views
    def flip(self, view, axes, node):
        offset, sizes, strides = self.layout(view, node)
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        for axis in axes:
            last = self.builder.binary("maxsi", self.index_op("subi", sizes[axis], one, node),
                                       zero, self.loc(node))
            offset = self.index_op("addi", offset, self.index_op("muli", last, strides[axis],
                                                                   node), node)
            strides[axis] = self.index_op("subi", zero, strides[axis], node)
        return self.restrided(view, offset, sizes, strides, view.type, node)

    def reshape(self, view, parts, written, node, ravel=False):
        """numpy's reshape: one unknown size (a negative one) is inferred;
        the sizes must multiply to the array's size; a view when
        kiln_reshape_stride finds strides for it, else a copy. numpy's
        ravel is a view only of a C-contiguous array."""
        array_type = self.typed_value(node).type
        total = self.constant(1, kt.i64, node)
        for axis in range(view.type.ndim):
            total = self.arith("muli", total, self.dimension(view, axis, node), node)
        zero = self.constant(0, kt.i64, node)
        one = self.constant(1, kt.i64, node)
        unknown_count = self.constant(0, kt.i64, node)
        known = one
        negatives = []
        for part in parts:
            negative = self.cmpi("slt", part, zero, node)
            negatives.append(negative)
            unknown_count = self.arith("addi", unknown_count,
                                       self.cast("extui", negative, kt.i64, node), node)
            known = self.arith("muli", known, self.select(negative, one, part, node), node)
        self.check(self.cmpi("sle", unknown_count, one, node), "ValueError",
                   "can only specify one unknown dimension", [], node)
        safe_known = self.select(self.cmpi("eq", known, zero, node), one, known, node)
        inferred = self.arith("divsi", total, safe_known, node)
        has_unknown = self.cmpi("eq", unknown_count, one, node)
        fits_unknown = self.arith("andi", self.cmpi("ne", known, zero, node), self.cmpi(
            "eq", self.arith("remsi", total, safe_known, node), zero, node), node)
        fits = self.select(has_unknown, fits_unknown, self.cmpi("eq", known, total, node), node)
        # numpy's message names the unknown size "newaxis", except that a
        # leading unknown size is left out: one check per place of it.
        for unknown in [None] + list(range(len(parts))):
            if unknown is None:
                fails = self.negate(self.arith("ori", fits, has_unknown, node), node)
            else:
                fails = self.arith("andi", self.negate(fits, node), negatives[unknown], node)
            shown = ["newaxis" if k == unknown else "{}" for k in range(len(parts))]
            shown = shown[1:] if unknown == 0 else shown
            sizes_shown = [p for k, p in enumerate(parts) if k != unknown]
            self.check(self.negate(fails, node), "ValueError",
                       f"cannot reshape array of size {{}} into shape ({','.join(shown)})",
                       [total] + sizes_shown, node)
        sizes = [self.select(negative, inferred, part, node)
                 for negative, part in zip(negatives, parts)]
        for size in sizes:
            size.nonneg = True
        # numpy's view-or-copy rule.
        if ravel:
            strides, copy = [self.constant(1, kt.i64, node)], self.negate(
                self.c_contiguous(view, node), node)
        else:
            strides, copy = self.reshape_strides(view, sizes, node)
        return self.reshaped_or_copied(view, sizes, strides, copy, total, array_type, node)

    def c_contiguous(self, view, node):
        """numpy's C-contiguous flag: each axis longer than 1 steps over
        the later ones exactly (any array without elements is)."""
        _, sizes, strides = self.layout(view, node)
        one = self.index_constant(1, node)
        contiguous = self.constant(True, kt.boolean, node)
        empty = self.constant(False, kt.boolean, node)
        expected = one
        location = self.loc(node)
        for size, stride in reversed(list(zip(sizes, strides))):
            fits = self.builder.binary("ori", self.builder.cmpi("sle", size, one, location),
                                       self.builder.cmpi("eq", stride, expected, location),
                                       location)
            contiguous = self.arith("andi", contiguous, self.value_of(fits, kt.boolean), node)
            empty = self.arith("ori", empty, self.value_of(self.builder.cmpi(
                "eq", size, self.index_constant(0, node), location), kt.boolean), node)
            expected = self.index_op("muli", expected, size, node)
        return self.arith("ori", contiguous, empty, node)

    def reshape_strides(self, view, sizes, node):
        """kiln_reshape_stride per new axis: (strides, whether to copy)."""
        location = self.loc(node)
        _, old_sizes, old_strides = self.layout(view, node)
        padding = [self.constant(1, kt.i64, node)] * (rules.MAX_ARRAY_NDIM - view.type.ndim)
        arguments = [self.constant(view.type.ndim, kt.i64, node)]
        arguments += [self.as_i64(s, node) for s in old_sizes] + padding
        arguments += [self.as_i64(s, node) for s in old_strides] + padding
        arguments += [self.constant(len(sizes), kt.i64, node)] + sizes + \
            [self.constant(1, kt.i64, node)] * (rules.MAX_ARRAY_NDIM - len(sizes))
        self.external_functions.add("kiln_reshape_stride")
        strides = []
        copy = None
        for axis in range(len(sizes)):
            [stride] = self.builder.call("kiln_reshape_stride", [self.constant(
                axis, kt.i64, node).ir] + [a.ir for a in arguments], [ir.i64], location)
            stride = self.value_of(stride, kt.i64)
            strides.append(stride)
            needs = self.cmpi("eq", stride, self.constant(RESHAPE_COPY, kt.i64, node), node)
            copy = needs if copy is None else self.arith("ori", copy, needs, node)
        return strides, copy

    def reshaped_or_copied(self, view, sizes, strides, copy, total, array_type, node):
        """The view of `view` with these sizes and strides, or (when `copy`)
        its elements copied in C order into a new array of the function."""
        location = self.loc(node)
        one = self.constant(1, kt.i64, node)
        offset, _, _ = self.layout(view, node)
        # The copy's storage, an array of the function like np.empty's (one
        # element when the reshape is a view: nothing to copy).
        storage = self.allocate_array(rules.array_type(view.type.dtype, 1),
                                      [self.select(copy, total, one, node)], node)
        index_sizes = [self.as_index(s, node) for s in sizes]
        copied = self.builder.region()
        with self.builder.at_end(copied.block):
            storage_offset, _, _ = self.layout(storage, node)
            source_sizes = self.index_sizes(view, node)

            def copy_element(counters):
                element = self.builder.load(view.ir, counters, location)
                flat = self.flat_index(counters, source_sizes, node)
                self.builder.store(element, storage.ir, [flat], location)

            self.for_each(source_sizes, copy_element, node)
            contiguous = []
            stride = self.index_constant(1, node)
            for size in reversed(index_sizes):
                contiguous.insert(0, stride)
                stride = self.index_op("muli", stride, size, node)
            result = self.restrided(storage, storage_offset, index_sizes, contiguous,
                                    array_type, node)
            self.builder.scf_yield([result.ir], location)
        viewed = self.builder.region()
        with self.builder.at_end(viewed.block):
            result = self.restrided(view, offset, index_sizes,
                                    [self.as_index(s, node) for s in strides], array_type, node)
            self.builder.scf_yield([result.ir], location)
        [result] = self.builder.scf_if(copy.ir, [result.ir.type], copied, viewed, location)
        return self.value_of_view(result, array_type, view.origins | storage.origins)

    # ----------------------------------------------------- new arrays
    def flatten(self, view, typed, node):
        operand = self.array_operand(view, node)
        total = self.constant(1, kt.i64, node)
        for size in operand.shape:
            total = self.arith("muli", total, size, node)
        location = self.loc(node)

        def fill(destination, views):
            [source] = views
            sizes = self.index_sizes(source, node)

            def copy(counters):
                element = self.builder.load(source.ir, counters, location)
                self.builder.store(element, destination.ir,
                                   [self.flat_index(counters, sizes, node)], location)

            self.for_each(sizes, copy, node)

        return self.filled(typed, [total], fill, node, [operand])

    def roll(self, operand, shift, axis, typed, node):
        """np.roll: element i comes from i - shift (mod the length), along
        `axis` or over the flattened array."""
        def element(counters, views):
            [source] = views
            sizes = self.index_sizes(source, node)
            amount = self.as_index(shift, node)
            if axis is None:
                total = self.index_constant(1, node)
                for size in sizes:
                    total = self.index_op("muli", total, size, node)
                length = self.nonzero_divisor(total, node)
                steps = self.floor_mod(amount, length, node)
                flat = self.flat_index(counters, sizes, node)
                moved = self.shifted_back(flat, steps, length, node)
                return self.load_at(source, self.unflatten(moved, sizes, node), node)
            length = self.nonzero_divisor(sizes[axis], node)
            steps = self.floor_mod(amount, length, node)
            moved = list(counters)
            moved[axis] = self.shifted_back(counters[axis], steps, length, node)
            return self.load_at(source, moved, node)

        return self.indexed(typed, operand.shape, element, node, [operand])

    def shifted_back(self, position, steps, length, node):
        """(position - steps) mod length, for both in [0, length)."""
        back = self.index_op("subi", position, steps, node)
        zero = self.index_constant(0, node)
        below = self.builder.cmpi("slt", back, zero, self.loc(node))
        return self.builder.select(below, self.index_op("addi", back, length, node), back,
                                   self.loc(node))

    def negative_count_check(self, count, length, node):
        """numpy's repeat/tile refuse a negative count only when there is
        something to repeat."""
        zero = self.constant(0, kt.i64, node)
        wrong = self.arith("andi", self.cmpi("slt", count, zero, node),
                           self.cmpi("sgt", length, zero, node), node)
        self.check(self.negate(wrong, node), "ValueError", "negative dimensions are not allowed",
                   [], node)

    def tile(self, operand, counts, typed, node):
        total = self.constant(1, kt.i64, node)
        for size in operand.shape:
            total = self.arith("muli", total, size, node)
        for count in counts:
            self.negative_count_check(count, total, node)
        rank = typed.ndim
        one = self.constant(1, kt.i64, node)
        zero = self.constant(0, kt.i64, node)
        counts = [one] * (rank - len(counts)) + counts
        own = [one] * (rank - len(operand.shape)) + list(operand.shape)
        shape = [self.arith("maxsi", self.arith("muli", a, r, node), zero, node)
                 for a, r in zip(own, counts)]
        for size in shape:
            size.nonneg = True
        padding = rank - len(operand.shape)

        def element(counters, views):
            [source] = views
            sizes = self.index_sizes(source, node)
            at = [self.index_op("remui", counters[padding + k],
                                self.nonzero_divisor(sizes[k], node), node)
                  for k in range(len(sizes))]
            return self.load_at(source, at, node)

        return self.indexed(typed, shape, element, node, [operand])

    def repeat(self, operand, count, axis, typed, node):
        zero = self.constant(0, kt.i64, node)
        if axis is None:
            total = self.constant(1, kt.i64, node)
            for size in operand.shape:
                total = self.arith("muli", total, size, node)
            self.negative_count_check(count, total, node)
            shape = [self.arith("maxsi", self.arith("muli", total, count, node), zero, node)]
        else:
            self.negative_count_check(count, operand.shape[axis], node)
            shape = list(operand.shape)
            shape[axis] = self.arith("maxsi", self.arith("muli", shape[axis], count, node), zero,
                                     node)
        for size in shape:
            size.nonneg = True

        def element(counters, views):
            [source] = views
            times = self.nonzero_divisor(self.as_index(count, node), node)
            if axis is None:
                flat = self.index_op("divui", counters[0], times, node)
                return self.load_at(source, self.unflatten(
                    flat, self.index_sizes(source, node), node), node)
            at = list(counters)
            at[axis] = self.index_op("divui", counters[axis], times, node)
            return self.load_at(source, at, node)

        return self.indexed(typed, shape, element, node, [operand])

    def diff(self, operand, order, axis, typed, node):
        """np.diff: a[..., 1:] - a[..., :-1] along `axis`, `order` times
        (for bools, numpy's not_equal)."""
        one = self.constant(1, kt.i64, node)
        zero = self.constant(0, kt.i64, node)
        dtype = typed.dtype
        for _ in range(order):
            shape = list(operand.shape)
            shape[axis] = self.arith("maxsi", self.arith("subi", shape[axis], one, node), zero,
                                     node)
            shape[axis].nonneg = True

            def element(counters, views):
                [source] = views
                after = list(counters)
                after[axis] = self.index_op("addi", counters[axis],
                                            self.index_constant(1, node), node)
                a, b = self.load_at(source, after, node), self.load_at(source, counters, node)
                if dtype.is_bool:
                    return self.arith("xori", a, b, node)
                return self.arith("subi" if dtype.is_int else "subf", a, b, node)

            operand = self.indexed(typed, shape, element, node, [operand]).lazy
        return self.lazy_array(typed, operand)

    def triangle(self, name, operand, k, typed, node):
        """np.tril/np.triu: the elements below/above diagonal k, zeros
        elsewhere."""
        def element(counters, views):
            [source] = views
            row, column = (self.as_i64(c, node) for c in counters)
            offset = self.arith("subi", column, row, node)
            keep = self.cmpi("sle" if name == "tril" else "sge", offset, k, node)
            return self.select(keep, self.load_at(source, counters, node),
                               self.constant(0, typed.dtype, node), node)

        return self.indexed(typed, operand.shape, element, node, [operand])

    def outer(self, node):
        typed = self.typed_value(node).type
        a, b = (self.materialized(self.expression(arg), arg) for arg in node.args)
        one = self.index_constant(1, node)
        zero = self.index_constant(0, node)
        columns = []
        for view, axis in ((a, 0), (b, 1)):
            offset, sizes, strides = self.layout(view, node)
            shape = [sizes[0], one] if axis == 0 else [one, sizes[0]]
            steps = [strides[0], zero] if axis == 0 else [zero, strides[0]]
            columns.append(self.array_operand(self.restrided(
                view, offset, shape, steps, rules.array_type(view.type.dtype, 2), node), node))

        def compute(x, y):
            x, y = self.convert(x, typed.dtype, node), self.convert(y, typed.dtype, node)
            return self.elementwise_operator("*", x, y, typed.dtype, None, node)

        shape = [self.dimension(a, 0, node), self.dimension(b, 0, node)]
        return self.lazy_array(typed, ArrayExpr("op", typed.dtype, shape, operands=columns,
                                                compute=compute, node=node))

    def arg_extremum(self, name, operand, axis, typed, node):
        """np.argmin/np.argmax: the first position of the smallest/largest
        element (a NaN counts as both, as in numpy); along `axis`, an array
        of them."""
        label = name[3:]
        empty = self.any_empty(operand.shape if axis is None else [operand.shape[axis]], node)
        self.check(self.negate(empty, node), "ValueError",
                   f"attempt to get {name} of an empty sequence", [], node)
        dtype = operand.dtype

        def better(x, best):
            if dtype.is_float:
                ordered = self.cmpf("ogt" if label == "max" else "olt", x, best, node)
                x_nan = self.cmpf("uno", x, x, node)
                best_number = self.cmpf("ord", best, best, node)
                return self.arith("ori", ordered, self.arith("andi", x_nan, best_number, node),
                                  node)
            if dtype.is_bool:
                return self.cmpi("ugt" if label == "max" else "ult", x, best, node)
            signed = "s" if dtype.signed else "u"
            return self.cmpi(signed + ("gt" if label == "max" else "lt"), x, best, node)

        def scan(sizes, element_at, outer_counters):
            """The position of the best element over the loop nest of `sizes`."""
            first = element_at([self.index_constant(0, node)] * len(sizes), outer_counters)

            def step(counters, state):
                best, where, position = state
                x = element_at(counters, outer_counters)
                take = better(x, best)
                following = self.arith("addi", position, self.constant(1, kt.i64, node), node)
                return [self.select(take, x, best, node),
                        self.select(take, position, where, node), following]

            return self.for_each_carrying(sizes, [first, self.constant(0, kt.i64, node),
                                                  self.constant(0, kt.i64, node)], step, node)[1]

        if axis is None or len(operand.shape) == 1:
            expr = self.prepare_operands(operand, node)
            sizes = self.index_sizes_of(expr.shape, node)
            views = self.leaf_views(expr, sizes, node)
            position = scan(sizes, lambda c, _: self.element_at(expr, c, views, node), None)
            return position
        shape = [s for k, s in enumerate(operand.shape) if k != axis]

        def element(counters, views):
            [source] = views
            length = self.index_sizes(source, node)[axis]

            def along(inner, outer):
                at = list(outer)
                at.insert(axis, inner[0])
                return self.load_at(source, at, node)

            return scan([length], along, counters)

        return self.indexed(typed, shape, element, node, [operand])

    def positions(self, name, operand, node):
        """np.nonzero (a tuple: per axis, the positions of the true
        elements in C order) and np.flatnonzero (their flat positions)."""
        truth = ArrayExpr("op", kt.boolean, operand.shape, operands=[operand], node=node,
                          compute=lambda x: self.truthy(x, node))
        count = self.count_true(truth, node)
        location = self.loc(node)
        positions_type = rules.array_type(kt.i64, 1)

        def filler(axis):
            def fill(destination, views):
                [source] = views
                sizes = self.index_sizes(source, node)

                def step(counters, carried):
                    [k] = carried

                    def take():
                        position = counters[axis] if axis is not None else self.flat_index(
                            counters, sizes, node)
                        self.builder.store(self.as_i64(position, node).ir, destination.ir,
                                           [self.as_index(k, node)], location)
                        return [self.arith("addi", k, self.constant(1, kt.i64, node), node)]

                    selected = self.truthy(self.load_at(source, counters, node), node)
                    return self.when(selected, take, node, [k])

                self.for_each_carrying(sizes, [self.constant(0, kt.i64, node)], step, node)

            return self.filled(positions_type, [count], fill, node, [operand])

        if name == "flatnonzero":
            return filler(None)
        return tuple_value([filler(axis) for axis in range(len(operand.shape))])

    # ---------------------------------------------------- joining arrays
    def joined_operand(self, element_node):
        if isinstance(element_node, (ast.List, ast.Tuple)):
            return self.number_list(element_node).lazy
        return self.array_operand(self.expression(element_node), element_node)

    def number_list(self, node):
        """A list of numbers inside np.concatenate: an array of numpy's
        dtype for them, the numbers evaluated now."""
        values = [self.expression(e) for e in node.elts]
        return self.numbers_array(values, rules.numbers_array_dtype(values), node)

    def array_elements(self, value, count, node):
        """The elements of a 1-D array (`a, b = p - q`), after numpy's
        check that there are `count` of them."""
        expr = self.array_operand(value, node)
        length = expr.shape[0]
        wanted = self.constant(count, kt.i64, node)
        self.check(self.cmpi("sle", length, wanted, node), "ValueError",
                   f"too many values to unpack (expected {count})", [], node)
        self.check(self.cmpi("sge", length, wanted, node), "ValueError",
                   f"not enough values to unpack (expected {count}, got {{}})", [length], node)
        expr = self.prepare_operands(expr, node)
        sizes = self.index_sizes_of(expr.shape, node)
        views = self.leaf_views(expr, sizes, node)
        elements = [self.element_at(expr, [self.index_constant(k, node)], views, node)
                    for k in range(count)]
        return elements

    def numbers_array(self, values, dtype, node):
        """A new 1-D array of these numbers (already evaluated)."""
        stored = [self.stored_value(v, dtype, node) for v in values]
        location = self.loc(node)

        def fill(destination, views):
            for position, value in enumerate(stored):
                self.builder.store(value.ir, destination.ir,
                                   [self.index_constant(position, node)], location)

        array_type = rules.array_type(dtype, 1)
        return self.filled(array_type, [self.constant(len(stored), kt.i64, node)], fill, node)

    def axis_part(self, destination, axis, start, length, node, keep=True):
        """The view of `destination` at positions [start, start + length)
        of `axis`; without the axis when not `keep` (length 1)."""
        offset, sizes, strides = self.layout(destination, node)
        offset = self.index_op("addi", offset, self.index_op("muli", start, strides[axis], node),
                               node)
        if keep:
            sizes[axis] = length
        else:
            del sizes[axis]
            del strides[axis]
        array_type = rules.array_type(destination.type.dtype, len(sizes))
        return self.restrided(destination, offset, sizes, strides, array_type, node)

    def joined(self, name, node):
        typed = self.typed_value(node).type
        keywords = {k.arg: k.value for k in node.keywords}
        operands = [self.joined_operand(e) for e in node.args[0].elts]
        # np.vstack concatenates along axis 0 after numpy's atleast_2d: a 1-D
        # operand of n is a row (1, n), written by broadcasting.
        shapes = [[self.constant(1, kt.i64, node), *o.shape]
                  if name == "vstack" and len(o.shape) == 1 else list(o.shape)
                  for o in operands]
        ndim = len(shapes[0])
        stacking = name == "stack"
        if stacking:
            axis = self.typing_axis(keywords.get("axis"), ndim + 1)
            axis = 0 if axis is None else axis
        elif name == "hstack":
            axis = 0 if ndim == 1 else 1
        elif name == "vstack":
            axis = 0
        else:
            axis = self.typing_axis(keywords.get("axis"), ndim)
            axis = 0 if axis is None else axis
        first = shapes[0]
        for index, operand_shape in enumerate(shapes[1:], 1):
            for k in range(ndim):
                if k == axis and not stacking:
                    continue
                same = self.cmpi("eq", operand_shape[k], first[k], node)
                if stacking:
                    self.check(same, "ValueError", "all input arrays must have the same shape",
                               [], node)
                else:
                    self.check(same, "ValueError",
                               "all the input array dimensions except for the concatenation "
                               f"axis must match exactly, but along dimension {k}, the array "
                               f"at index 0 has size {{}} and the array at index {index} has "
                               "size {}", [first[k], operand_shape[k]], node)
        if stacking:
            shape = list(first)
            shape.insert(axis, self.constant(len(operands), kt.i64, node))
        else:
            shape = list(first)
            for operand_shape in shapes[1:]:
                shape[axis] = self.arith("addi", shape[axis], operand_shape[axis], node)
        for size in shape:
            size.nonneg = True

        def fill(destination, views):
            start = self.index_constant(0, node)
            for position, (operand, operand_shape) in enumerate(zip(operands, shapes)):
                if stacking:
                    part = self.axis_part(destination, axis, self.index_constant(position, node),
                                          None, node, keep=False)
                else:
                    length = self.as_index(operand_shape[axis], node)
                    part = self.axis_part(destination, axis, start, length, node)
                    start = self.index_op("addi", start, length, node)
                self.compute_into(self.cast_to(operand, typed.dtype, node), part, node)

        return self.filled(typed, shape, fill, node)

    # ----------------------------------------------------------- creation
    def creation_sizes(self, shape_node):
        sizes = self.shape_sizes(shape_node)
        if sizes is not None:
            return sizes
        nodes = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
            shape_node]
        sizes = [self.convert(self.expression(p), kt.i64, p) for p in nodes]
        self.check_nonnegative(sizes, shape_node)
        for size in sizes:
            size.nonneg = True
        return sizes

    def constant_fill(self, typed, shape, value, node):
        def element(counters, views):
            return value

        return self.indexed(typed, shape, element, node)

    def creation_array(self, node):
        typed = self.typed_value(node).type
        rows = node.args[0].elts
        if typed.ndim == 1:
            values = [self.expression(e) for e in rows]
            elements = [[self.stored_value(v, typed.dtype, e) for v, e in zip(values, rows)]]
        else:
            elements = []
            for row in rows:
                values = [self.expression(e) for e in row.elts]
                elements.append([self.stored_value(v, typed.dtype, e)
                                 for v, e in zip(values, row.elts)])
        location = self.loc(node)

        def fill(destination, views):
            for r, row in enumerate(elements):
                for c, value in enumerate(row):
                    at = [self.index_constant(c, node)] if typed.ndim == 1 else [
                        self.index_constant(r, node), self.index_constant(c, node)]
                    self.builder.store(value.ir, destination.ir, at, location)

        shape = [self.constant(len(elements[0]), kt.i64, node)] if typed.ndim == 1 else [
            self.constant(len(elements), kt.i64, node),
            self.constant(len(elements[0]), kt.i64, node)]
        return self.filled(typed, shape, fill, node)

    def creation_full(self, node):
        typed = self.typed_value(node).type
        keywords = {k.arg: k.value for k in node.keywords}
        shape_node = node.args[0] if node.args else keywords["shape"]
        sizes = self.creation_sizes(shape_node)
        fill_node = node.args[1] if len(node.args) > 1 else keywords["fill_value"]
        value = self.stored_value(self.expression(fill_node), typed.dtype, fill_node)
        return self.constant_fill(typed, sizes, value, node)

    def creation_full_like(self, node):
        typed = self.typed_value(node).type
        keywords = {k.arg: k.value for k in node.keywords}
        prototype = self.array_operand(self.expression(node.args[0]), node.args[0])
        fill_node = node.args[1] if len(node.args) > 1 else keywords["fill_value"]
        value = self.stored_value(self.expression(fill_node), typed.dtype, fill_node)
        return self.constant_fill(typed, prototype.shape, value, node)

    def creation_eye(self, node):
        typed = self.typed_value(node).type
        keywords = {k.arg: k.value for k in node.keywords}
        args = list(node.args) + [None] * (3 - len(node.args))
        rows_node = args[0]
        columns_node = args[1] if args[1] is not None else keywords.get("M")
        k_node = args[2] if args[2] is not None else keywords.get("k")
        rows = self.convert(self.expression(rows_node), kt.i64, rows_node)
        if columns_node is None or (isinstance(columns_node, ast.Constant)
                                    and columns_node.value is None):
            columns = rows
        else:
            columns = self.convert(self.expression(columns_node), kt.i64, columns_node)
        k = self.constant(0, kt.i64, node) if k_node is None else self.convert(
            self.expression(k_node), kt.i64, k_node)
        return self.diagonal_ones(typed, rows, columns, k, node)

    def creation_identity(self, node):
        typed = self.typed_value(node).type
        n = self.convert(self.expression(node.args[0]), kt.i64, node.args[0])
        return self.diagonal_ones(typed, n, n, self.constant(0, kt.i64, node), node)

    def diagonal_ones(self, typed, rows, columns, k, node):
        self.check_nonnegative([rows, columns], node)
        rows.nonneg = columns.nonneg = True
        one = self.constant(1, typed.dtype, node)
        zero = self.constant(0, typed.dtype, node)

        def element(counters, views):
            row, column = (self.as_i64(c, node) for c in counters)
            on = self.cmpi("eq", self.arith("subi", column, row, node), k, node)
            return self.select(on, one, zero, node)

        return self.indexed(typed, [rows, columns], element, node)

    def creation_arange(self, node):
        """numpy's arange: the length is ceil((stop - start) / step); the
        elements are start, start + step, then start + i * delta with
        delta = (start + step) - start, computed in the result's dtype."""
        typed = self.typed_value(node).type
        dtype = typed.dtype
        values = [self.expression(a) for a in node.args]
        compute = kt.f64 if any(v.type.is_float for v in values) else kt.i64
        values = [self.convert(v, compute, a) for v, a in zip(values, node.args)]
        if len(values) == 1:
            start, stop, step = self.constant(0, compute, node), values[0], \
                self.constant(1, compute, node)
        else:
            start, stop = values[:2]
            step = values[2] if len(values) == 3 else self.constant(1, compute, node)
        zero = self.constant(0, compute, node)
        nonzero = self.cmpi("ne", step, zero, node) if compute.is_int else \
            self.cmpf("une", step, zero, node)
        self.check(nonzero, "ZeroDivisionError",
                   "division by zero" if compute.is_int else "float division by zero", [], node)
        span = self.arith("subf", self.convert(stop, kt.f64, node),
                          self.convert(start, kt.f64, node), node) if compute.is_int else \
            self.arith("subf", stop, start, node)
        safe_step = self.select(nonzero, self.convert(step, kt.f64, node),
                                self.constant(1.0, kt.f64, node), node)
        quotient = self.unary("ceil", self.arith("divf", span, safe_step, node), node)
        self.check(self.cmpf("ord", quotient, quotient, node), "ValueError",
                   "arange: cannot compute length", [], node)
        limit = self.constant(float(1 << 62), kt.f64, node)
        self.check(self.cmpf("olt", quotient, limit, node), "ValueError",
                   "Maximum allowed size exceeded", [], node)
        clamped = self.arith("maximumf", quotient, self.constant(0.0, kt.f64, node), node)
        length = self.cast("fptosi", clamped, kt.i64, node)
        length.nonneg = True
        first = self.convert(start, dtype, node, explicit=True)
        second = self.convert(self.arith("addi" if compute.is_int else "addf", start, step,
                                         node), dtype, node, explicit=True)
        delta = self.arith("subi" if dtype.is_int else "subf", second, first, node)

        def element(counters, views):
            position = self.as_i64(counters[0], node)
            scaled = self.convert(position, dtype, node, explicit=True)
            if dtype.is_int:
                value = self.arith("addi", first, self.arith("muli", scaled, delta, node), node)
            else:
                value = self.arith("addf", first, self.arith("mulf", scaled, delta, node), node)
            is_first = self.cmpi("eq", position, self.constant(0, kt.i64, node), node)
            is_second = self.cmpi("eq", position, self.constant(1, kt.i64, node), node)
            return self.select(is_first, first, self.select(is_second, second, value, node),
                               node)

        return self.indexed(typed, [length], element, node)

    def creation_linspace(self, node):
        """numpy's linspace: y = i * step + start (i / div * delta when the
        step underflows to 0), the last element exactly `stop`."""
        typed = self.typed_value(node).type
        keywords = {k.arg: k.value for k in node.keywords}
        start = self.convert(self.expression(node.args[0]), kt.f64, node.args[0])
        stop = self.convert(self.expression(node.args[1]), kt.f64, node.args[1])
        num_node = node.args[2] if len(node.args) == 3 else keywords.get("num")
        num = self.constant(50, kt.i64, node) if num_node is None else self.convert(
            self.expression(num_node), kt.i64, num_node)
        endpoint = keywords.get("endpoint")
        endpoint = True if endpoint is None else endpoint.value
        zero = self.constant(0, kt.i64, node)
        self.check(self.cmpi("sge", num, zero, node), "ValueError",
                   "Number of samples, {}, must be non-negative.", [num], node)
        num.nonneg = True
        one = self.constant(1, kt.i64, node)
        div = self.arith("subi", num, one, node) if endpoint else num
        div_float = self.convert(div, kt.f64, node)
        delta = self.arith("subf", stop, start, node)
        positive_div = self.cmpi("sgt", div, zero, node)
        step = self.arith("divf", delta, div_float, node)
        step_zero = self.cmpf("oeq", step, self.constant(0.0, kt.f64, node), node)

        def element(counters, views):
            position = self.as_i64(counters[0], node)
            i = self.convert(position, kt.f64, node)
            by_step = self.arith("mulf", i, step, node)
            by_parts = self.arith("mulf", self.arith("divf", i, div_float, node), delta, node)
            by_delta = self.arith("mulf", i, delta, node)
            scaled = self.select(positive_div, self.select(step_zero, by_parts, by_step, node),
                                 by_delta, node)
            value = self.arith("addf", scaled, start, node)
            if endpoint:
                last = self.arith("andi", self.cmpi("eq", position, div, node),
                                  self.cmpi("sgt", num, one, node), node)
                value = self.select(last, stop, value, node)
            if typed.dtype.is_int:
                # numpy floors the samples for an int dtype, then casts them
                # as astype does (Kiln's ValueError for NaN, as astype's)
                return self.convert(self.unary("floor", value, node), typed.dtype, node,
                                    explicit=True)
            return value

        return self.indexed(typed, [num], element, node)
