"""Indexing with arrays, as a mixin of FunctionCodeGenerator (its typing:
typecheck/shape_typing.py, "indexing with arrays"): `x[mask]` and `x[idx]`
read into new arrays, `x[mask] = v`, `x[idx] = v` and `x[mask] += v` store
through them, and `x[m] = f(x[m], y[m])` with one mask on both sides runs
in one pass (masked_assignment).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from ..library_functions import OPERATOR_AND_COMPARISON_UFUNCS
from .array_expressions import ArrayExpr, may_share_memory


class ArrayIndexing:
    """Needs the generator's, ArrayExpressions' and ArrayShapes' helpers."""

    # ------------------------------------------------- indexing with arrays
    def is_array_index(self, index_node) -> bool:
        if isinstance(index_node, (ast.Tuple, ast.Slice)):
            return False
        typed = self.typed.values.get(index_node)
        return typed is not None and isinstance(typed.type, kt.ArrayType)

    def for_each_carrying(self, sizes, initial, emit, node):
        """A loop nest over `sizes` whose iterations carry values:
        emit(counters, carried) returns the next carried values."""
        location = self.loc(node)
        counters = []

        def loop(level, state):
            if level == len(sizes):
                return emit(list(counters), state)
            body = self.builder.region([ir.index] + [s.ir.type for s in state])
            counters.append(body.block.arguments[0])
            with self.builder.at_end(body.block):
                carried = [self.value_of(a, s.type)
                           for a, s in zip(body.block.arguments[1:], state)]
                result = loop(level + 1, carried)
                self.builder.scf_yield([r.ir for r in result], location)
            counters.pop()
            results = self.builder.scf_for(self.index_constant(0, node), sizes[level],
                                           self.index_constant(1, node), [s.ir for s in state],
                                           body, location)
            return [self.value_of(r, s.type) for r, s in zip(results, state)]

        return loop(0, list(initial))

    def when(self, condition, emit, node, carried=()):
        """scf.if running emit() when `condition` holds; with `carried`
        values, emit returns their new values (kept otherwise)."""
        location = self.loc(node)
        then_region = self.builder.region()
        with self.builder.at_end(then_region.block):
            results = emit()
            self.builder.scf_yield([r.ir for r in results or []], location)
        else_region = None
        if carried:
            else_region = self.builder.region()
            with self.builder.at_end(else_region.block):
                self.builder.scf_yield([c.ir for c in carried], location)
        outputs = self.builder.scf_if(condition.ir, [c.ir.type for c in carried], then_region,
                                      else_region, location)
        return [self.value_of(o, c.type) for o, c in zip(outputs, carried)]

    def check_mask_shape(self, base_shape, mask_shape, node):
        for axis, (size, mask_size) in enumerate(zip(base_shape, mask_shape)):
            self.check(self.cmpi("eq", size, mask_size, node), "IndexError",
                       f"boolean index did not match indexed array along dimension {axis}; "
                       "dimension is {} but corresponding boolean dimension is {}",
                       [size, mask_size], node)

    def count_true(self, mask, node):
        def as_int(x):
            return self.convert(x, kt.i64, node)

        counted = ArrayExpr("op", kt.i64, mask.shape, operands=[mask], compute=as_int, node=node)
        total = self.full_reduction("sum", counted, kt.i64, node)
        total.nonneg = True
        return total

    def position_in(self, index, size, axis, node, checked=True):
        """An int array's element as a position along an axis of `size`
        (negative counts from the end), with numpy's IndexError (unless
        `checked` is False: the caller checked every position already)."""
        position = self.convert(index, kt.i64, node)
        zero = self.constant(0, kt.i64, node)
        wrapped = self.select(self.cmpi("slt", position, zero, node),
                              self.arith("addi", position, size, node), position, node)
        if not checked:
            return self.as_index(wrapped, node)
        inside = self.arith("andi", self.cmpi("sge", wrapped, zero, node),
                            self.cmpi("slt", wrapped, size, node), node)
        self.check(inside, "IndexError",
                   f"index {{}} is out of bounds for axis {axis} with size {{}}",
                   [position, size], node)
        return self.as_index(wrapped, node)

    def indexed_by_array(self, node):
        typed = self.typed_value(node).type
        base = self.array_operand(self.expression(node.value), node.value)
        index = self.array_operand(self.expression(node.slice), node.slice)
        location = self.loc(node)
        if index.dtype.is_bool:
            self.check_mask_shape(base.shape, index.shape, node)
            count = self.count_true(index, node)

            def fill(destination, views):
                source, mask = views

                def step(counters, carried):
                    [k] = carried
                    selected = self.load_at(mask, counters, node)

                    def take():
                        element = self.builder.load(source.ir, counters, location)
                        self.builder.store(element, destination.ir, [self.as_index(k, node)],
                                           location)
                        return [self.arith("addi", k, self.constant(1, kt.i64, node), node)]

                    return self.when(selected, take, node, [k])

                self.for_each_carrying(self.index_sizes(source, node),
                                       [self.constant(0, kt.i64, node)], step, node)

            return self.filled(typed, [count], fill, node, [base, index])
        size = base.shape[0]
        shape = list(index.shape) + list(base.shape[1:])

        def element(counters, views):
            source, positions = views
            rank = positions.type.ndim
            position = self.position_in(self.load_at(positions, counters[:rank], node), size, 0,
                                        node, checked=not checked_now)
            return self.load_at(source, [position] + counters[rank:], node)

        # numpy reads `x[idx]` where the expression has it: an index out of
        # bounds raises before any operand to its right is evaluated
        # (`x[idx] * y[n % 0]`: IndexError, not ZeroDivisionError). An index
        # that is an array already is checked now; one still to be computed
        # is checked as it is read.
        checked_now = index.kind == "view"
        if checked_now:
            def check():
                self.for_each(self.index_sizes(index.value, node),
                              lambda counters: self.position_in(
                                  self.load_at(index.value, counters, node), size, 0, node),
                              node)

            if len(base.shape) == 1:
                check()
            else:
                # numpy 1.24 checks no position when the result has no
                # element (a deprecation warning, not an IndexError).
                zero = self.constant(0, kt.i64, node)
                rows = self.constant(1, kt.i64, node)
                for extent in base.shape[1:]:
                    rows = self.arith("muli", rows, extent, node)
                self.when(self.cmpi("ne", rows, zero, node), check, node)
        return self.indexed(typed, shape, element, node, [base, index])

    # Operators a masked update computes in one pass: no error depends on
    # which elements the mask selects (`**` checks negative int exponents).
    MASKED_UPDATE_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)

    def simple_mask(self, mask_node) -> bool:
        """Whether a mask expression is elementwise over names and numbers
        (comparisons, operators, numpy ufuncs): evaluating it allocates
        nothing, and its element i reads its operands at position i only."""
        for n in ast.walk(mask_node):
            if isinstance(n, ast.Subscript):
                return False
            if isinstance(n, ast.Call):
                qualified = self.context.qualified_name(n.func)
                if qualified is None or qualified[0] != "numpy" or \
                        qualified[1] not in rules.ARRAY_UFUNCS or n.keywords:
                    return False
        return True

    def masked_update(self, target, op, operand_node, node) -> bool:
        """`x[m] = x[m] - L` and `x[m] -= L` (m a boolean mask of x's shape,
        L a number) in one pass: where m[i], x[i] = x[i] - L. numpy computes
        m, gathers x[m], subtracts, computes m again and scatters; that is
        the same when m[i] reads x only at i (or memory other than x's),
        which simple_mask and the views' origins guarantee. False (nothing
        emitted) when the statement is not of that form."""
        if not isinstance(op, self.MASKED_UPDATE_OPERATORS) or \
                not isinstance(target.value, ast.Name) or \
                not self.simple_mask(target.slice) or \
                rules.calls_module_function([operand_node], self.module.functions):
            return False        # (numpy gathers x[m] before a helper could write x)
        base_type = self.typed_value(target.value).type
        mask_type = self.typed_value(target.slice).type
        operand_type = self.typed_value(operand_node).type
        if not isinstance(base_type, kt.ArrayType) or not isinstance(mask_type, kt.ArrayType) \
                or not mask_type.dtype.is_bool or mask_type.ndim != base_type.ndim or \
                isinstance(operand_type, (kt.ArrayType, kt.TupleType)):
            return False
        base = self.expression(target.value)
        mask = self.array_operand(self.expression(target.slice), target.slice)
        if base.lazy is not None or any(
                v.ir is not base.ir and may_share_memory(v.origins, base.origins)
                for v in self.views_of(mask)):
            return False
        self.check_mask_shape(self.shape_of(base, node), mask.shape, node)
        operand = self.expression(operand_node)
        result = self.binary(op, base, operand, node)
        stored = self.cast_to(result.lazy, base.type.dtype, node)
        self.store_where(mask, stored, base, node)
        return True

    def store_where(self, mask, stored, base, node) -> None:
        """One pass over `base`: where mask[i], base[i] = stored[i] (both
        array expressions of base's shape, read at i only)."""
        sizes = self.index_sizes(base, node)
        mask_views = self.leaf_views(mask, sizes, node)
        value_views = self.leaf_views(stored, sizes, node)
        location = self.loc(node)

        def update(counters):
            selected = self.element_at(mask, counters, mask_views, node)

            def put():
                value = self.element_at(stored, counters, value_views, node)
                self.builder.store(value.ir, base.ir, counters, location)

            self.when(selected, put, node)

        self.for_each(sizes, update, node)

    # Operators of a masked assignment's right side that raise nothing,
    # whichever elements the mask selects (`**` of ints checks every
    # exponent; shifts are left to the general path).
    MASKED_ASSIGNMENT_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod,
                                   ast.Pow, ast.BitAnd, ast.BitOr, ast.BitXor)

    def masked_assignment(self, target, value_node, node) -> bool:
        """`x[m] = f(y[m], z[m], ..., numbers)` (`Z[I] = Z[I]**2 + C[I]`) in
        one pass: where m[i], x[i] = f(y[i], z[i], ...). numpy evaluates
        each y[m] (a gather), computes f on the gathered elements and
        scatters them into x[m]; that gives the same array when f is
        elementwise (operators, comparisons, numpy ufuncs), raises nothing
        that depends on which elements m selects (nor does the cast to x's
        dtype), and neither m nor any y
        shares memory with x unless it is x itself (then element i is read
        before it is written, and by nobody else). False (nothing emitted)
        when the statement is not of that form."""
        if not isinstance(target, ast.Subscript) or not isinstance(target.value, ast.Name) or \
                not self.is_array_index(target.slice) or not self.simple_mask(target.slice) or \
                rules.calls_module_function([value_node], self.module.functions):
            return False
        base_type = self.typed_value(target.value).type
        mask_type = self.typed_value(target.slice).type
        if not isinstance(base_type, kt.ArrayType) or not isinstance(mask_type, kt.ArrayType) \
                or not mask_type.dtype.is_bool or mask_type.ndim != base_type.ndim or \
                not isinstance(self.typed_value(value_node).type, kt.ArrayType):
            return False
        mask_text = ast.dump(target.slice)
        leaves = []

        def elementwise(n) -> bool:
            typed = self.typed_value(n).type
            if not isinstance(typed, kt.ArrayType):
                return True                         # a number, computed once
            if isinstance(n, ast.Subscript):
                if not isinstance(n.value, ast.Name) or ast.dump(n.slice) != mask_text:
                    return False
                leaf = self.typed_value(n.value).type
                if not isinstance(leaf, kt.ArrayType) or leaf.ndim != base_type.ndim:
                    return False
                leaves.append(n)
                return True
            if isinstance(n, ast.BinOp):
                if not isinstance(n.op, self.MASKED_ASSIGNMENT_OPERATORS) or (
                        isinstance(n.op, ast.Pow) and typed.dtype.is_int):
                    return False
                return elementwise(n.left) and elementwise(n.right)
            if isinstance(n, ast.UnaryOp):
                return isinstance(n.op, (ast.USub, ast.UAdd, ast.Invert)) and \
                    elementwise(n.operand)
            if isinstance(n, ast.Compare):
                return len(n.ops) == 1 and elementwise(n.left) and \
                    elementwise(n.comparators[0])
            if isinstance(n, ast.Call):
                qualified = self.context.qualified_name(n.func)
                if qualified is None or qualified[0] != "numpy" or n.keywords or \
                        any(isinstance(a, ast.Starred) for a in n.args):
                    return False
                name = qualified[1]
                if name in ("left_shift", "right_shift") or (
                        name == "power" and typed.dtype.is_int) or not (
                        name in rules.ARRAY_UFUNCS or name in OPERATOR_AND_COMPARISON_UFUNCS):
                    return False
                return all(elementwise(a) for a in n.args)
            return False

        if not elementwise(value_node) or not leaves:
            return False
        result_type = self.typed_value(value_node).type
        if rules.conversion_raises(result_type.dtype, base_type.dtype, None, None, True):
            return False        # numpy casts every value before it stores one
        base = self.expression(target.value)
        if base.lazy is not None:
            return False
        arrays = {id(leaf): self.expression(leaf.value) for leaf in leaves}
        if any(a.lazy is not None or (a.ir is not base.ir and
                                      may_share_memory(a.origins, base.origins))
               for a in arrays.values()):
            return False
        for name in ast.walk(target.slice):
            if not isinstance(name, ast.Name):
                continue
            try:
                typed = self.typed.value_of(name)        # not modules (`np`)
            except KeyError:
                continue
            if isinstance(typed.type, kt.ArrayType):
                view = self.expression(name)
                if view.ir is not base.ir and may_share_memory(view.origins, base.origins):
                    return False
        masks = []

        def build(n):
            if not isinstance(self.typed_value(n).type, kt.ArrayType):
                return self.expression(n)
            if isinstance(n, ast.Subscript):
                # The mask is computed where Python first computes it: at
                # the first y[m] (numbers left of it come first).
                if not masks:
                    masks.append(self.array_operand(self.expression(target.slice),
                                                    target.slice))
                # y[m]'s element k is y's element at the k-th position m
                # selects: y whole, read where m holds.
                whole = arrays[id(n)]
                self.check_mask_shape(self.shape_of(whole, n), masks[0].shape, n)
                return whole
            if isinstance(n, ast.BinOp):
                return self.binary(n.op, build(n.left), build(n.right), n)
            if isinstance(n, ast.UnaryOp):
                return self.array_unary(n.op, build(n.operand), n)
            if isinstance(n, ast.Compare):
                return self.array_compare(n.ops[0], build(n.left), build(n.comparators[0]), n)
            return self.numpy_call(self.context.qualified_name(n.func)[1],
                                   [build(a) for a in n.args], n)

        result = build(value_node)
        [mask] = masks
        self.check_mask_shape(self.shape_of(base, node), mask.shape, node)
        stored = self.cast_to(self.array_operand(result, node), base.type.dtype, node)
        self.store_where(mask, stored, base, node)
        return True

    def store_through_array_index(self, target, value, node):
        """`x[mask] = v`, `x[idx] = v` (value evaluated already): the index
        and the value are read whole before anything is written."""
        base = self.expression(target.value)
        index = self.array_operand(self.expression(target.slice), target.slice)
        dtype = base.type.dtype
        location = self.loc(node)

        def whole(expr):
            """`expr` as a view that no store below can change."""
            view = self.as_view(self.prepare_operands(expr, node), node)
            if view.value.origins != frozenset(["alloc:temporary"]) and may_share_memory(
                    view.value.origins, base.origins):
                copy = self.temporary_array(view, node)
                self.copy_elements(view.value, copy, node)
                return copy
            return view.value

        if isinstance(value.type, kt.ArrayType):
            # Python computes the value before numpy looks at the index: its
            # errors (broadcasting, shift counts) come first.
            values = self.array_operand(value, node)
            source = whole(self.cast_to(values, dtype, node))
        if index.dtype.is_bool:
            base_shape = self.shape_of(base, node)
            self.check_mask_shape(base_shape, index.shape, node)
        if isinstance(value.type, kt.ArrayType):
            length = values.shape[0]
            selected = self.count_true(index, node) if index.dtype.is_bool else index.shape[0]
            one = self.constant(1, kt.i64, node)
            fits = self.arith("ori", self.cmpi("eq", length, selected, node),
                              self.cmpi("eq", length, one, node), node)
            if index.dtype.is_bool:
                self.check(fits, "ValueError", "NumPy boolean array indexing assignment cannot "
                           "assign {} input values to the {} output values where the mask is "
                           "true", [length, selected], node)
            else:
                self.check(fits, "ValueError", "shape mismatch: value array of shape ({},) "
                           "could not be broadcast to indexing result of shape ({},)",
                           [length, selected], node)
            single = self.cmpi("eq", length, one, node)

            def value_at(k):
                at = self.select(single, self.constant(0, kt.i64, node), k, node)
                return self.load_at(source, [self.as_index(at, node)], node)
        else:
            stored = self.stored_value(value, dtype, node)

            def value_at(k):
                return stored
        chooser = whole(index)
        if index.dtype.is_bool:
            def step(counters, carried):
                [k] = carried

                def put():
                    self.builder.store(value_at(k).ir, base.ir, counters, location)
                    return [self.arith("addi", k, self.constant(1, kt.i64, node), node)]

                return self.when(self.load_at(chooser, counters, node), put, node, [k])

            self.for_each_carrying(self.index_sizes(base, node), [self.constant(0, kt.i64, node)],
                                   step, node)
        else:
            size = self.dimension(base, 0, node)
            positions = self.index_sizes(chooser, node)
            # numpy checks every position before it writes any.
            self.for_each(positions, lambda counters: self.position_in(
                self.load_at(chooser, counters, node), size, 0, node), node)

            def put(counters):
                k = self.as_i64(counters[0], node)
                position = self.position_in(self.load_at(chooser, counters, node), size, 0, node)
                self.builder.store(value_at(k).ir, base.ir, [position], location)

            self.for_each(positions, put, node)
