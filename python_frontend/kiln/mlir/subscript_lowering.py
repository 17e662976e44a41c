"""Lowering of attributes and subscripts: .shape/.T/.real and friends, element
loads and stores with their bounds checks, and views (slices, np.newaxis,
Ellipsis) as strided memrefs. A mixin of
code_generator.FunctionCodeGenerator."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from .values import Value, mlir_type, tuple_value
from ..typecheck.typed_tree import is_range


class SubscriptLowering:
    # ------------------------------------------------------- array elements
    def expr_Attribute(self, node):
        qualified = self.context.qualified_name(node)
        if qualified is not None:
            module, name = qualified
            constants = {"math": rules.MATH_CONSTANTS, "numpy": rules.NUMPY_CONSTANTS}[module]
            typed = self.typed_value(node)
            return self.constant(constants[name], typed.type, node, weak=typed.weak)
        if isinstance(node.value, ast.Name) and node.value.id in self.context.classes and \
                node.value.id not in self.symbols:
            return self.class_constant(self.context.classes[node.value.id], node)   # `C.NAME`
        base = self.expression(node.value)
        if isinstance(base.type, kt.ClassType):
            return self.instance_attribute(base, node)  # `o.x`: class_lowering.py
        if is_range(base.type):
            return self.range_attribute(base, node)     # `r.start`
        if node.attr in ("real", "imag") and isinstance(base.type, kt.ArrayType):
            attribute, dtype = node.attr, base.type.dtype
            if not dtype.is_complex and attribute == "real":
                return base                 # a real array's real part is itself
            if not dtype.is_complex:
                return self.array_node([self.array_operand(base, node)],
                                       lambda x: self.constant(0, dtype, node), node)
            return self.array_node([self.array_operand(base, node)],
                                   lambda z: self.complex_part(z, attribute, node), node)
        if node.attr in ("real", "imag") and not base.type.is_complex:
            return base if node.attr == "real" else \
                self.constant(0, base.type, node, weak=base.weak)
        if node.attr in ("real", "imag"):           # of a complex scalar
            return self.python_part(base, node.attr, node)
        if node.attr == "ndim":
            return self.constant(base.type.ndim, kt.i64, node)
        if node.attr == "shape":
            return tuple_value(self.shape_of(base, node))
        if node.attr == "T":
            return self.transpose(self.materialize(base, node) if base.lazy is not None else base,
                                  node)
        size = self.constant(1, kt.i64, node)     # `.size`
        for axis in range(base.type.ndim):
            size = self.arith("muli", size, self.dimension(base, axis, node), node,
                              nonneg=True)
        return size

    def expr_Subscript(self, node):
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.expression(value.value)
            index = rules.constant_int(node.slice)
            axis = index + array.type.ndim if index < 0 else index
            return self.dimension(array, axis, node)
        if self.is_instance_valued(node.value):
            return self.instance_subscript(node)        # `o[k]`: class_protocols.py
        callee = self.context.qualified_name(node.value.func) \
            if isinstance(node.value, ast.Call) else None
        if rules.is_positions_call(node.value, callee) or rules.is_tuple_call(node.value, callee):
            return self.expression(node.value).elements[rules.constant_int(node.slice)]
        if self.is_range_valued(node.value):
            return self.range_subscript(node)           # r[i], a range loop's element
        if self.is_dict_valued(node.value) or self.is_set_valued(node.value):
            return self.dict_subscript(node)            # d[k], a dict or set loop's entry
        if self.is_list_valued(node.value):
            return self.list_subscript(node)            # xs[i], xs[:], helper(x)[i]
        if self.is_str_valued(node.value):
            return self.str_subscript(node)             # s[i], s[a:b:c]
        if self.is_tuple_valued(node.value):
            return self.tuple_subscript(node)           # t[0], t[k], helper(x)[1]
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.is_array_index(node.slice):
            return self.indexed_by_array(node)
        if self.is_view(node):
            return self.slice_view(node, parts)
        array, indices = self.subscript_parts(node)
        return self.load_element(array, indices, node)

    def transpose(self, array: Value, node) -> Value:
        """`x.T`: the view with its axes reversed (strides swapped)."""
        ndim = array.type.ndim
        if ndim == 1:
            return array
        permutation = ir.affine_map_attr(ndim, list(reversed(range(ndim))))
        view = self.builder.op("memref.transpose", (array.ir,), (mlir_type(array.type),),
                               {"permutation": permutation}, (), self.loc(node)).result
        return Value(view, array.type, origins=array.origins)

    def is_view(self, node) -> bool:
        """x[1:], A[i] of a 2-D A (inference typed the subscript a view)."""
        typed = self.typed.values.get(node)
        return typed is not None and isinstance(typed.type, kt.ArrayType)

    def lazy_array(self, array_type, expr) -> Value:
        return Value(None, array_type, lazy=expr)

    def slice_view(self, node, parts):
        """x[a:b:c], x[i, :], m[1:-1, ::2]: a strided view, never a copy,
        with Python's clamping of slice bounds."""
        array = self.expression(node.value)
        if array.lazy is not None:
            array = self.materialize(array, node)
        ndim = array.type.ndim
        # Where `None`/`np.newaxis` put axes of size 1 among the result's axes.
        layout, position = [], 0
        for part in parts:
            if self.context.is_new_axis(part):
                layout.append(None)
            elif isinstance(part, ast.Slice):
                layout.append(position)
                position += 1
        parts = [p for p in parts if not self.context.is_new_axis(p)]
        layout += list(range(position, position + ndim - len(parts)))
        parts = parts + [ast.Slice()] * (ndim - len(parts))
        # Every index and bound expression runs before numpy checks any.
        evaluated = []
        for part in parts:
            if isinstance(part, ast.Slice):
                evaluated.append(self.slice_bound_values(part))
                continue
            evaluated.append(self.convert(self.expression(part), kt.i64, part))
        offsets, sizes, strides, kept = [], [], [], 0
        for axis, (part, values) in enumerate(zip(parts, evaluated)):
            if not isinstance(part, ast.Slice):
                offsets.append(self.element_index(array, axis, values, part))
                # A static 1 lets the verifier see the dropped dimension.
                sizes.append(1)
                strides.append(1)
                continue
            kept += 1
            start, length, step = self.slice_bounds(array, axis, part, values)
            for value, bucket in ((start, offsets), (length, sizes), (step, strides)):
                bucket.append(self.builder.cast("index_cast", value.ir, ir.index,
                                                self.loc(part)))
        result_type = self.typed.type_of(node)
        sliced_type = rules.array_type(result_type.dtype,
                                       sum(1 for axis in layout if axis is not None))
        view = Value(self.builder.subview(array.ir, offsets, sizes, strides,
                                          mlir_type(sliced_type), self.loc(node)),
                     sliced_type, origins=array.origins)
        if None in layout:
            view = self.insert_unit_axes(view, layout, result_type, node)
        return view

    def insert_unit_axes(self, view, layout, result_type, node) -> Value:
        """`x[:, None]`: the view with axes of size 1 (stride 0) inserted."""
        location = self.loc(node)
        metadata = self.builder.extract_strided_metadata(view.ir, location)
        rank = view.type.ndim
        sizes, strides = metadata[2:2 + rank], metadata[2 + rank:]
        one = self.index_constant(1, node)
        zero = self.index_constant(0, node)
        new_sizes = [one if axis is None else sizes[axis] for axis in layout]
        new_strides = [zero if axis is None else strides[axis] for axis in layout]
        result = self.builder.reinterpret_cast(metadata[0], metadata[1], new_sizes, new_strides,
                                               location)
        return Value(result, result_type, origins=view.origins)

    def slice_bound_values(self, part: ast.Slice):
        """The slice's lower, upper and step values (None where omitted)."""
        def bound(node):
            if node is None:
                return None
            return self.convert(self.expression(node), kt.i64, node)

        return bound(part.lower), bound(part.upper), bound(part.step)

    def slice_bounds(self, array, axis, part: ast.Slice, values):
        """(start, length, step) of a slice on an axis, as slice.indices()."""
        size = self.dimension(array, axis, part)
        zero = self.constant(0, kt.i64, part)
        one = self.constant(1, kt.i64, part)
        lower, upper, step = values
        step_value = 1 if step is None else step.constant
        if step_value == 0:
            raise self.missed(part, "slice step cannot be zero")
        if step is None:
            step = one
        if step_value is None:
            nonzero = self.cmpi("ne", step, zero, part)
            self.check(nonzero, "ValueError", "slice step cannot be zero", [], part)

        def select(condition, a, b):
            return self.select(condition, a, b, part)

        def cmp(predicate, a, b):
            return self.cmpi(predicate, a, b, part)

        def subtract(a, b):
            return self.arith("subi", a, b, part)

        def clamp(value, low, high):
            value = self.arith("maxsi", value, low, part)
            return self.arith("minsi", value, high, part)

        def wrap(value):
            negative = cmp("slt", value, zero)
            return select(negative, self.arith("addi", value, size, part), value)

        minus_one = self.constant(-1, kt.i64, part)
        size_minus_one = subtract(size, one)
        positive = cmp("sgt", step, zero) if step_value is None else self.constant(
            step_value > 0, kt.boolean, part)
        # Bounds clamp to [0, n] going up and to [-1, n - 1] going down.
        low_limit = select(positive, zero, minus_one)
        high_limit = select(positive, size, size_minus_one)
        start = clamp(wrap(lower), low_limit, high_limit) if lower is not None else select(
            positive, zero, size_minus_one)
        stop = clamp(wrap(upper), low_limit, high_limit) if upper is not None else select(
            positive, size, minus_one)
        distance = select(positive, subtract(stop, start), subtract(start, stop))
        magnitude = select(positive, step, subtract(zero, step))
        length = self.arith("ceildivsi", distance, magnitude, part)
        length = self.arith("maxsi", length, zero, part)
        # An empty view may start anywhere; keep its offset inside the array.
        empty = cmp("eq", length, zero)
        start = select(empty, zero, start)
        return start, length, step

    def subscript_parts(self, node: ast.Subscript):
        array = self.expression(node.value)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        # Python evaluates every index expression before numpy checks any:
        # m[i, f()] calls f() even when i is out of range.
        values = [self.convert(self.expression(part), kt.i64, part) for part in parts]
        indices = [self.element_index(array, axis, index, part)
                   for axis, (index, part) in enumerate(zip(values, parts))]
        return array, indices

    def element_index(self, array: Value, axis: int, index: Value, node) -> ir.Value:
        size = self.dimension(array, axis, node)
        nonnegative = bool(index.nonneg or (index.constant is not None and index.constant >= 0))
        if self.boundscheck:
            self.may_raise = True
        return self.builder.kiln_index(index.ir, size.ir, axis, nonnegative,
                                       not self.boundscheck, self.loc(node))

    def load_element(self, array: Value, indices, node) -> Value:
        return Value(self.builder.load(array.ir, indices, self.loc(node)), array.type.dtype)

    def store_element(self, array: Value, indices, value: Value, node):
        converted = self.stored_value(value, array.type.dtype, node)
        self.builder.store(converted.ir, array.ir, indices, self.loc(node))

    def stored_value(self, value: Value, dtype, node) -> Value:
        """A number as an element of a `dtype` array. numpy stores a float
        into an int array as int(value) (so NaN, inf and values beyond the
        64-bit range raise, with numpy's texts) wrapped to the array's width:
        3e9 into an int32 array is -1294967296, not INT_MIN."""
        if isinstance(value.type, kt.ScalarType) and value.type.is_float and dtype.is_int:
            return self.float_to_int(value, dtype, node,
                                     too_large="Python int too large to convert to C long")
        return self.convert(value, dtype, node, explicit=True)
