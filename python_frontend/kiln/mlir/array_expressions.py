"""Whole-array expressions as a mixin of FunctionCodeGenerator: numpy's
elementwise operators and ufuncs, with broadcasting, stored into new arrays
or into views (`x[1:-1] = ...`, `x += ...`).

An array expression is built in two steps. While the statement's
expression is generated, every operand that is not an array operation (a
view, a scalar, a call) is evaluated in Python's order, and each operation
checks that its operands' shapes broadcast (numpy's ValueError); the
operations themselves are only recorded, as an `ArrayExpr` tree. Once the
destination is known, the tree is emitted as one `linalg.generic` per
operation on tensors: every view is first re-strided to the destination's
shape (a broadcast axis gets stride 0, as numpy does it), so every map is
the identity and kilnc's `kiln-array-expressions` stage fuses the whole
tree into one loop nest that writes the destination directly
(docs/architecture.md, "Array expressions").

numpy reads the whole right side before writing (`x[1:] = x[:-1]` shifts).
When a view read by the expression may share memory with the destination,
a run-time test of their address ranges (numpy's own test) decides whether
the expression is computed into a temporary first.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from ..typecheck.typed_tree import known_literals
from .values import Value, mlir_type
from ..toolchain import kilnc_capabilities


@dataclass
class ArrayExpr:
    """An array expression not computed yet."""
    kind: str                   # "view", "scalar", "op", "reduce", "scan", "filled"
    dtype: kt.ScalarType
    shape: list                 # int64 Values, one per axis ([] for a scalar)
    value: object = None        # the view or scalar Value
    operands: list = field(default_factory=list)
    compute: object = None      # element Values -> element Value, in a linalg body
    node: object = None
    reduction: tuple = None     # kind "reduce": (name, axis, keepdims) along one axis
    # kind "filled" (array_shapes.py): fill(destination, operand views)
    # writes the whole array into a destination of its shape.
    fill: object = None


def shape_text(rank: int) -> str:
    """numpy's printing of a shape as a message template: (3,) or (2,3)."""
    return "(" + ",".join(["{}"] * rank) + ("," if rank == 1 else "") + ")"


def error_message_capacity() -> int:
    """How many integers an error message can carry (kiln_abi.h's record)."""
    return kilnc_capabilities()["abi"]["error_record"]["max_args"]


def may_share_memory(a: frozenset, b: frozenset) -> bool:
    """Whether views of these origins may overlap: the same array, or two
    parameters (a caller may pass one array twice); a local allocation is
    its own memory."""
    if not a or not b or a & b:
        return True
    return any(not o.startswith("alloc:") for o in a) and any(
        not o.startswith("alloc:") for o in b)


class ArrayExpressions:
    """Needs the generator's helpers (expression, convert, arith, unary,
    cmpi, select, check, dimension, allocate_array, typed_value, loc) and
    the library mixin's elementwise numpy functions."""

    # ------------------------------------------------------------ the tree
    def array_operand(self, value, node) -> ArrayExpr:
        if value.lazy is not None:
            return value.lazy
        if isinstance(value.type, kt.ArrayType):
            return ArrayExpr("view", value.type.dtype, self.shape_of(value, node), value=value,
                             node=node)
        return ArrayExpr("scalar", value.type, [], value=value, node=node)

    def cast_to(self, expr, dtype, node, shape=None) -> ArrayExpr:
        """`expr` converted elementwise to `dtype` as numpy casts on
        assignment (`astype`, stores, in-place results); of `shape` when it
        is broadcast to a destination's."""
        return ArrayExpr("op", dtype, expr.shape if shape is None else shape, operands=[expr],
                         node=node,
                         compute=lambda x: self.convert(x, dtype, node, explicit=True))

    def index_sizes_of(self, shape, node) -> list:
        """int64 sizes as index values (loop bounds, tensor sizes)."""
        location = self.loc(node)
        return [self.builder.cast("index_cast", size.ir, ir.index, location) for size in shape]

    def broadcast_shapes(self, operands, node, output=None) -> list:
        """numpy's broadcasting of the operands' shapes (right-aligned, a
        size 1 stretches); raises its ValueError when they do not fit.
        `output`: the shape of an in-place operator's target (`x += y`),
        which numpy lists too and which the result must have."""
        shaped = [o for o in operands if o.kind != "scalar"]
        rank = max(len(o.shape) for o in shaped)
        if len(shaped) == 1:
            return list(shaped[0].shape)
        one = self.constant(1, kt.i64, node)
        result, fits = [], None
        for axis in range(rank):
            size = None
            for operand in shaped:
                position = axis - (rank - len(operand.shape))
                if position < 0:
                    continue
                other = operand.shape[position]
                if size is None:
                    size = other
                    continue
                same = self.cmpi("eq", size, other, node)
                stretch = self.arith("ori", self.cmpi("eq", size, one, node),
                                     self.cmpi("eq", other, one, node), node)
                ok = self.arith("ori", same, stretch, node)
                fits = ok if fits is None else self.arith("andi", fits, ok, node)
                size = self.select(self.cmpi("eq", size, one, node), other, size, node)
                size.nonneg = True
            result.append(size)
        if fits is not None:
            shapes = [o.shape for o in shaped] + ([output] if output is not None else [])
            sizes = [s for shape in shapes for s in shape]
            message = "operands could not be broadcast together"
            if len(sizes) <= error_message_capacity():
                message += " with shapes " + " ".join(
                    shape_text(len(shape)) for shape in shapes) + " "
            else:
                sizes = []
            self.check(fits, "ValueError", message, sizes, node)
        if output is not None:
            same = None
            for size, wanted in zip(result, output):
                equal = self.cmpi("eq", size, wanted, node)
                same = equal if same is None else self.arith("andi", same, equal, node)
            message = (f"non-broadcastable output operand with shape {shape_text(len(output))} "
                       f"doesn't match the broadcast shape {shape_text(len(result))}")
            self.check(same, "ValueError", message, [*output, *result], node)
        return result

    def array_node(self, operands, compute, node):
        typed = self.typed_value(node)
        shape = self.broadcast_shapes(operands, node, self.in_place_output)
        self.in_place_output = None
        expr = ArrayExpr("op", typed.type.dtype, shape, operands=operands, compute=compute,
                         node=node)
        return self.lazy_array(typed.type, expr)

    # ------------------------------------------------------- operations
    def array_binary(self, symbol, left, right, node):
        dtype = self.typed_value(node).type.dtype
        common, _ = rules.operand_types(*self.element_operand(left),
                                        *self.element_operand(right))
        operands = []
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                value = self.convert(value, common, node)   # a literal's checks: once
            operands.append(self.array_operand(value, node))
        exponent = right.constant if not isinstance(right.type, kt.ArrayType) else None

        def compute(a, b):
            a, b = self.convert(a, common, node), self.convert(b, common, node)
            return self.elementwise_operator(symbol, a, b, dtype, exponent, node)

        result = self.array_node(operands, compute, node)      # shapes checked first
        if symbol == "**" and dtype.is_int and exponent is None and common.signed:
            self.check_exponents(operands[1], result.lazy.shape, common, node)
        return result

    def check_exponents(self, exponents, shape, dtype, node):
        """numpy's ValueError for an int array to a negative power (checked
        over every exponent before any result exists). An empty result
        raises nothing; a non-empty one uses every exponent, broadcasting
        only repeats them."""
        if exponents.kind == "scalar":
            smallest = self.convert(exponents.value, dtype, node)
        else:
            smallest = self.full_reduction("min", self.cast_to(exponents, dtype, node), dtype,
                                           node)
        ok = self.cmpi("sge", smallest, self.constant(0, dtype, node), node)
        empty = self.any_empty(shape, node)
        if empty is not None:       # a 0-d result is never empty
            ok = self.arith("ori", ok, empty, node)
        self.check(ok, "ValueError", "Integers to negative integer powers are not allowed.", [],
                   node)

    @staticmethod
    def element_operand(value):
        if isinstance(value.type, kt.ArrayType):
            return value.type.dtype, None
        return value.type, value.weak

    def elementwise_operator(self, symbol, a, b, dtype, exponent, node):
        """numpy's ufunc of an operator on two elements: no Python
        exceptions (x / 0 is inf, as numpy warns and goes on)."""
        if dtype.is_complex:
            return self.numpy_complex_operator(symbol, a, b, exponent, node, dtype)
        if symbol in ("&", "|", "^"):
            return self.arith({"&": "andi", "|": "ori", "^": "xori"}[symbol], a, b, node)
        if dtype.is_bool:       # numpy's bool add and multiply: logical or and and
            return self.arith({"+": "ori", "*": "andi"}[symbol], a, b, node)
        if symbol in ("<<", ">>"):
            return self.elementwise_shift(symbol, a, b, dtype, node)
        if symbol == "/":
            a, b = self.convert(a, dtype, node), self.convert(b, dtype, node)
            return self.arith("divf", a, b, node)
        if symbol == "**":
            return self.elementwise_power(a, b, dtype, exponent, node)
        if symbol in ("//", "%"):       # numpy's floor_divide/remainder: never raise
            return self.value_of(self.builder.binary(
                {"//": "floordiv", "%": "mod"}[symbol], a.ir, b.ir, self.loc(node),
                unsigned=dtype.is_unsigned, numpy=True), dtype)
        if dtype.is_int:
            return self.arith({"+": "addi", "-": "subi", "*": "muli"}[symbol], a, b, node)
        return self.arith({"+": "addf", "-": "subf", "*": "mulf"}[symbol], a, b, node)

    def elementwise_shift(self, symbol, a, b, dtype, node):
        """numpy's left_shift/right_shift: a count outside [0, width) (read
        unsigned, so a negative one too) shifts everything out: 0, or -1
        for a right shift of a negative signed value."""
        width = self.constant(dtype.bits, dtype, node)
        inside = self.cmpi("ult", b, width, node)
        safe = self.select(inside, b, self.constant(0, dtype, node), node)
        if symbol == "<<":
            return self.select(inside, self.arith("shli", a, safe, node),
                               self.constant(0, dtype, node), node)
        if dtype.signed:
            negative = self.cmpi("slt", a, self.constant(0, dtype, node), node)
            outside = self.select(negative, self.constant(-1, dtype, node),
                                  self.constant(0, dtype, node), node)
            return self.select(inside, self.arith("shrsi", a, safe, node), outside, node)
        return self.select(inside, self.arith("shrui", a, safe, node),
                           self.constant(0, dtype, node), node)

    def elementwise_power(self, a, b, dtype, exponent, node):
        if dtype.is_int:        # a constant exponent >= 0 (inference)
            return self.arith("pow", a, b, node, unsigned=dtype.is_unsigned)
        # numpy's fast paths for a scalar exponent (`x ** 2` is np.square,
        # which rounds differently from pow in the last bit, ...).
        if exponent == 2:
            return self.arith("mulf", a, a, node)
        if exponent == 0.5:
            return self.unary("sqrt", a, node)
        if exponent == 1:
            return a
        if exponent == -1:
            return self.arith("divf", self.constant(1.0, dtype, node), a, node)
        if exponent == 0:
            return self.constant(1.0, dtype, node)
        return self.arith("powf", a, b, node)

    def array_compare(self, op, left, right, node):
        """numpy's comparison ufuncs: in the operands' comparison type, NaN
        compares unequal to everything."""
        common = rules.comparison_type(
            (*self.element_operand(left), known_literals(left)),
            (*self.element_operand(right), known_literals(right)))
        operands = []
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                value = self.convert(value, common, node)
            operands.append(self.array_operand(value, node))

        def compute(a, b):
            # numpy compares in the common type: an int64 element against a
            # float is converted first (`x != 2.0**63` holds for no x near
            # INT64_MAX), where CPython's int/float comparison is exact.
            if common is not None:
                a, b = self.convert(a, common, node), self.convert(b, common, node)
            return self.compare(op, a, b, node)

        return self.array_node(operands, compute, node)

    def array_unary(self, op, operand, node):
        dtype = self.typed_value(node).type.dtype

        def compute(x):
            if isinstance(op, ast.UAdd):
                return x
            if isinstance(op, ast.USub) and dtype.is_complex:
                return self.complex_negate(x, node)
            if isinstance(op, ast.USub):
                if dtype.is_int:
                    return self.arith("subi", self.constant(0, dtype, node), x, node)
                return self.unary("negf", x, node)
            ones = self.constant(True if dtype.is_bool else -1, dtype, node)
            return self.arith("xori", x, ones, node)         # `~x`

        return self.array_node([self.array_operand(operand, node)], compute, node)

    def array_ufunc(self, name, args, node):
        dtype = self.typed_value(node).type.dtype
        if rules.is_operator_power(name, dtype):
            return self.array_binary("**", args[0], args[1], node)
        operands = []
        for value, target in zip(args, rules.ufunc_operand_types(name, dtype, len(args))):
            if not isinstance(value.type, kt.ArrayType):
                value = self.truthy(value, node) if target.is_bool else self.convert(
                    value, target, node)
            operands.append(self.array_operand(value, node))

        def compute(*elements):
            return self.numpy_elementwise(name, list(elements), dtype, node)

        return self.array_node(operands, compute, node)

    def array_method(self, name, base, node):
        """`x.copy()` and `x.astype(t)` (array expressions), `x.fill(v)`."""
        if name == "fill":
            self.array_store(base, self.expression(node.args[0]), node)
            return self.value_of(None, None)
        typed = self.typed_value(node).type
        return self.lazy_array(typed, self.cast_to(self.array_operand(base, node), typed.dtype,
                                                   node))

    def dot(self, args, node):
        """np.dot and `a @ b` of 1-D and 2-D arrays: numpy's shape check,
        then sums of products (reassociated like np.sum). A 1-D left operand
        is a row, a 1-D right one a column, and that axis is not in the
        result."""
        dtype = self.typed_value(node).type
        dtype = dtype.dtype if isinstance(dtype, kt.ArrayType) else dtype
        left, right = (self.array_operand(a, node) for a in args)
        inner_left = left.shape[-1]
        inner_right = right.shape[0]
        aligned = self.cmpi("eq", inner_left, inner_right, node)
        if isinstance(node, ast.BinOp) or getattr(node, "_kiln_matmul", False):   # np.matmul
            self.check(aligned, "ValueError",
                       "matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                       "gufunc signature (n?,k),(k,m?)->(n?,m?) (size {} is different from {})",
                       [inner_right, inner_left], node)
        else:
            shapes = (f"shapes {shape_text(len(left.shape))} and {shape_text(len(right.shape))}"
                      f" not aligned: {{}} (dim {len(left.shape) - 1}) != {{}} (dim 0)")
            self.check(aligned, "ValueError", shapes,
                       [*left.shape, *right.shape, inner_left, inner_right], node)
        reduction = "any" if dtype.is_bool else "sum"

        def product(a, b):
            a, b = self.convert(a, dtype, node), self.convert(b, dtype, node)
            if dtype.is_bool:
                return self.arith("andi", a, b, node)
            if dtype.is_complex:        # zgemm's products, summed as np.sum sums
                return self.complex_arithmetic("*", a, b, node)
            return self.arith("mulf" if dtype.is_float else "muli", a, b, node)

        if len(left.shape) == 1 and len(right.shape) == 1:
            products = ArrayExpr("op", dtype, left.shape, operands=[left, right],
                                 compute=product, node=node)
            return self.full_reduction(reduction, products, dtype, node)
        shape = list(left.shape[:-1]) + list(right.shape[1:])
        left_rows, right_columns = len(left.shape) == 2, len(right.shape) == 2

        def element(counters, views):
            a, b = views
            row = counters[:1] if left_rows else []
            column = counters[len(row):] if right_columns else []

            def step(inner, carried):
                [total] = carried
                x = self.load_at(a, row + inner, node)
                y = self.load_at(b, inner + column, node)
                return [self.combine(reduction, total, product(x, y), dtype, node)]

            initial = self.constant(self.reduction_identity(reduction, dtype), dtype, node)
            [total] = self.for_each_carrying([self.index_sizes(a, node)[-1]], [initial], step,
                                             node)
            return total

        array_type = self.typed_value(node).type
        if self.blocked_product_applies(left, right, dtype):
            return self.blocked_product(left, right, shape, reduction, dtype,
                                        self.element_fill(array_type, element, node), node)
        return self.indexed(array_type, shape, element, node, [left, right])

    @staticmethod
    def blocked_product_applies(left, right, dtype) -> bool:
        """2-D float matrices of the result's type: kilnc's kiln-tile-matmul
        computes them as a cache- and register-blocked vector kernel."""
        return (len(left.shape) == 2 and len(right.shape) == 2 and dtype.is_float
                and not dtype.is_complex and left.dtype == dtype and right.dtype == dtype)

    def blocked_product(self, left, right, shape, reduction, dtype, loops, node):
        """`a @ b` of 2-D float matrices: when both operands and the result
        have unit strides along their rows (C-ordered arrays and their row
        slices: what the vector kernel loads), a linalg.matmul on tensors;
        otherwise (a transpose, a strided view) `loops`, the fill of one
        sum of products per element."""
        location = self.loc(node)
        b = self.builder

        def unit_row_stride(view):
            metadata = b.extract_strided_metadata(view.ir, location)
            return b.cmpi("eq", metadata[2 + 2 + 1], self.index_constant(1, node), location)

        def kernel(destination, views):
            rows = ir.memref_type([None, None], self.element_type(dtype), contiguous_rows=True)
            a_rows, b_rows, out_rows = (b.cast("cast", v.ir, rows, location)
                                        for v in (*views, destination))
            sizes = self.index_sizes(destination, node)
            zero = self.constant(self.reduction_identity(reduction, dtype), dtype, node)
            init = b.linalg_fill(zero.ir, b.tensor_empty(sizes, self.element_type(dtype),
                                                         location), location)
            result = b.linalg_matmul(b.to_tensor(a_rows, location),
                                     b.to_tensor(b_rows, location), init, location,
                                     parallel=bool(self.options.get("parallel")))
            if self.options.get("parallel"):
                self.parallel_product = True
                self.note_shared_work(node, "parallel=True: matrix product",
                                      "8 slices of rows (kiln-tile-matmul), shared out between "
                                      "the threads")
            b.materialize_in_destination(result, out_rows, location)

        def fill(destination, views):
            contiguous = unit_row_stride(destination)
            for view in views:
                contiguous = b.binary("andi", contiguous, unit_row_stride(view), location)
            self.branch_on(contiguous, lambda: kernel(destination, views),
                           lambda: loops(destination, views), node)

        return self.filled(self.typed_value(node).type, shape, fill, node, [left, right])

    # ------------------------------------------------------ destinations
    def materialize(self, value, node):
        """An array expression stored in a variable or returned: computed
        into a new array of its shape."""
        expr = value.lazy
        destination = self.allocate_array(value.type, expr.shape, node)
        if expr.kind in ("reduce", "scan", "filled"):
            # Straight into the new array.
            expr = self.prepare_operands(expr, node, keep_top=True)
            if expr.kind == "filled":
                expr.fill(destination, [o.value for o in expr.operands])
            else:
                self.reduce_into(expr, destination, node)
        else:
            destination = self.in_operand_order(destination, expr, node)
            # Just allocated: it overlaps nothing (though an operand may
            # come from the same allocation site, in an earlier iteration).
            self.compute_into(expr, destination, node, fresh=True)
        return destination

    def in_operand_order(self, destination, expr, node):
        """A new array for an elementwise result laid out like its first
        operand of the same rank, as numpy's ufuncs do (order="K"): in
        Fortran order when that operand is (a transpose), else in C order.
        Then the loops read both in memory order (emit_tree_into)."""
        rank = destination.type.ndim
        same_rank = [v for v in self.views_of(expr) if v.type.ndim == rank]
        if rank < 2 or not same_rank:
            return destination
        fortran = self.fortran_like({"operand": same_rank[0].ir}, rank, node)
        location = self.loc(node)
        metadata = self.builder.extract_strided_metadata(destination.ir, location)
        sizes = metadata[2:2 + rank]
        one = self.index_constant(1, node)
        c_strides, f_strides = [one] * rank, [one] * rank
        for axis in range(rank - 2, -1, -1):
            c_strides[axis] = self.index_op("muli", c_strides[axis + 1], sizes[axis + 1], node)
        for axis in range(1, rank):
            f_strides[axis] = self.index_op("muli", f_strides[axis - 1], sizes[axis - 1], node)
        strides = [self.builder.select(fortran, f, c, location)
                   for f, c in zip(f_strides, c_strides)]
        view = self.builder.reinterpret_cast(metadata[0], metadata[1], sizes, strides, location)
        return Value(view, destination.type, origins=destination.origins)

    def augmented_array_store(self, view, operator, operand, node):
        """`x += y` for an array or view `x`: numpy's in-place ufunc (its
        result has x's shape, and is cast to x's dtype)."""
        self.in_place_output = self.shape_of(view, node)
        result = self.binary(operator, view, operand, node)
        self.in_place_output = None
        self.compute_into(self.cast_to(result.lazy, view.type.dtype, node), view, node)

    def array_store(self, target, value, node):
        """`target[...] = value` for a view target: numpy's assignment (the
        value cast to the view's dtype and broadcast to its shape)."""
        dtype = target.type.dtype
        shape = self.shape_of(target, node)
        if not isinstance(value.type, kt.ArrayType):
            element = self.stored_value(value, dtype, node)
            expr = ArrayExpr("op", dtype, shape, compute=lambda: element, node=node)
        else:
            source = self.array_operand(value, node)
            self.check_assignable(source.shape, shape, node)
            expr = self.cast_to(source, dtype, node, shape)
        self.compute_into(expr, target, node)

    def check_assignable(self, source, target, node):
        """numpy's rule for `view[...] = array`: each axis of the value (right-
        aligned) equals the view's or is 1."""
        one = self.constant(1, kt.i64, node)
        fits = None
        for position, size in enumerate(source):
            wanted = target[len(target) - len(source) + position]
            ok = self.arith("ori", self.cmpi("eq", size, wanted, node),
                            self.cmpi("eq", size, one, node), node)
            fits = ok if fits is None else self.arith("andi", fits, ok, node)
        if fits is not None:
            message = (f"could not broadcast input array from shape {shape_text(len(source))} "
                       f"into shape {shape_text(len(target))}")
            self.check(fits, "ValueError", message, [*source, *target], node)

    def compute_into(self, expr, destination, node, fresh=False):
        """Emits `expr` into the view `destination` (whose shape it has, or
        broadcasts to), through a temporary when a view it reads may
        overlap the destination."""
        expr = self.prepare_operands(expr, node)
        self.compute_prepared_into(expr, destination, node, fresh)

    def compute_prepared_into(self, expr, destination, node, fresh=False):
        location = self.loc(node)
        overlap = None
        for view in [] if fresh else self.views_of(expr):
            if view.ir is destination.ir or not may_share_memory(view.origins,
                                                                 destination.origins):
                continue
            test = self.overlaps(view, destination, node)
            overlap = test if overlap is None else self.arith("ori", overlap, test, node)
        if overlap is None:
            self.emit_tree_into(expr, destination, node)
            return
        buffer_type = self.element_type(destination.type)
        sizes = self.index_sizes(destination, node)
        temporary = self.builder.region()
        with self.builder.at_end(temporary.block):
            plain = ir.memref_type([None] * len(sizes), buffer_type.element)
            raw = self.builder.alloc(plain, sizes, 64, {}, location)
            self.builder.scf_yield([self.builder.cast("cast", raw, buffer_type, location)],
                                   location)
        direct = self.builder.region()
        with self.builder.at_end(direct.block):
            self.builder.scf_yield([destination.ir], location)
        buffer = self.builder.scf_if(overlap.ir, [buffer_type], temporary, direct, location)[0]
        target = self.value_of(buffer, destination.type)
        self.emit_tree_into(expr, target, node)
        copy_back = self.builder.region()
        with self.builder.at_end(copy_back.block):
            self.copy_elements(target, destination, node)
        self.builder.scf_if(overlap.ir, [], copy_back, None, location)

    def views_of(self, expr) -> list:
        if expr.kind == "view":
            return [expr.value]
        return [v for operand in expr.operands for v in self.views_of(operand)]

    def index_sizes(self, array, node) -> list:
        location = self.loc(node)
        return [self.builder.dim(array.ir, self.index_constant(axis, node), location)
                for axis in range(array.type.ndim)]

    @staticmethod
    def element_type(type_):
        return mlir_type(type_)

    @staticmethod
    def value_of(ir_value, type_):
        return Value(ir_value, type_)

    def overlaps(self, a, b, node):
        """Whether the memory spans of views `a` and `b` intersect (numpy's
        bounds test; empty views overlap nothing)."""
        (a_low, a_high, a_empty), (b_low, b_high, b_empty) = (
            self.memory_span(v, node) for v in (a, b))
        location = self.loc(node)
        below = self.builder.cmpi("ult", a_low, b_high, location)
        above = self.builder.cmpi("ult", b_low, a_high, location)
        either_empty = self.builder.binary("ori", a_empty, b_empty, location)
        nonempty = self.builder.binary("xori", either_empty,
                                       self.constant(True, kt.boolean, node).ir, location)
        both = self.builder.binary("andi", below, above, location)
        return self.value_of(self.builder.binary("andi", both, nonempty, location), kt.boolean)

    def memory_span(self, view, node):
        """(first byte, one past the last byte, empty) of a view, as index
        values."""
        location = self.loc(node)
        b = self.builder
        metadata = b.extract_strided_metadata(view.ir, location)
        rank = view.type.ndim
        offset, sizes, strides = metadata[1], metadata[2:2 + rank], metadata[2 + rank:]
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        itemsize = self.index_constant(view.type.dtype.itemsize, node)
        low = high = offset
        empty = self.constant(False, kt.boolean, node).ir
        for size, stride in zip(sizes, strides):
            empty = b.binary("ori", empty, b.cmpi("eq", size, zero, location), location)
            reach = b.binary("muli", b.binary("subi", size, one, location), stride, location)
            low = b.binary("addi", low, b.binary("minsi", reach, zero, location), location)
            high = b.binary("addi", high, b.binary("maxsi", reach, zero, location), location)
        start = b.aligned_pointer(view.ir, location)
        low = b.binary("addi", start, b.binary("muli", low, itemsize, location), location)
        high = b.binary("addi", start, b.binary(
            "muli", b.binary("addi", high, one, location), itemsize, location), location)
        return low, high, empty

    def copy_elements(self, source, destination, node):
        """destination[...] = source[...], both of one shape: a loop nest."""
        location = self.loc(node)

        def copy(counters):
            element = self.builder.load(source.ir, counters, location)
            self.builder.store(element, destination.ir, counters, location)

        self.for_each(self.index_sizes(destination, node), copy, node)

    # ---------------------------------------------------- linalg emission
    def emit_tree_into(self, expr, destination, node):
        sizes = self.index_sizes(destination, node)
        copied = self.copied_view(expr)
        if copied is not None:
            # `x[:] = y`, `u[:, :] = t[:, :]`: bufferization would make a
            # linalg op that only copies into memref.copy, a call into
            # MLIR's C runner library (not linked); a loop nest instead.
            source = self.broadcast_view(copied.value, sizes, node)
            self.copy_elements(self.value_of(source, destination.type), destination, node)
            return
        location = self.loc(node)
        reverse = self.fortran_like({"destination": destination.ir}, len(sizes), node)
        if reverse is None:
            tensor = self.emit_tensor(expr, sizes, {}, node)
            self.builder.materialize_in_destination(tensor, destination.ir, location)
            return
        # An elementwise statement computes the same elements in any order:
        # into a Fortran-ordered destination (a transpose, an F-ordered
        # result) it runs over the views with their axes reversed, so the
        # innermost loop walks memory in order.
        order = list(range(len(sizes)))[::-1]

        def in_order():
            tensor = self.emit_tensor(expr, sizes, {}, node)
            self.builder.materialize_in_destination(tensor, destination.ir, location)

        def backwards():
            tensor = self.emit_tensor(expr, [sizes[k] for k in order], {}, node, order)
            self.builder.materialize_in_destination(
                tensor, self.permuted_view(destination.ir, order, node), location)

        self.branch_on(reverse, backwards, in_order, node)

    def copied_view(self, expr):
        """The view `expr` only copies (itself, or an operation that yields
        its element unchanged), or None."""
        if expr.kind == "view":
            return expr
        if expr.kind != "op" or len(expr.operands) != 1 or expr.operands[0].kind != "view" \
                or expr.operands[0].dtype != expr.dtype:
            return None
        trial = self.builder.region([self.element_type(expr.dtype)])   # never attached
        with self.builder.at_end(trial.block):
            argument = trial.block.arguments[0]
            result = expr.compute(self.value_of(argument, expr.dtype))
        return expr.operands[0] if result.ir is argument else None

    def emit_tensor(self, expr, sizes, tensors, node, order=None):
        """`expr` as a tensor of `sizes`; with `order` (a permutation), over
        its views with their axes permuted so (`sizes` are permuted too)."""
        location = self.loc(expr.node or node)
        if expr.kind == "view":
            key = id(expr.value.ir)
            if key not in tensors:
                if order is None:
                    view = self.broadcast_view(expr.value, sizes, expr.node or node)
                else:
                    unpermuted = [None] * len(sizes)
                    for position, axis in enumerate(order):
                        unpermuted[axis] = sizes[position]
                    view = self.permuted_view(self.broadcast_view(
                        expr.value, unpermuted, expr.node or node), order, node)
                tensors[key] = self.builder.to_tensor(view, location)
            return tensors[key]
        inputs = [self.emit_tensor(o, sizes, tensors, node, order) for o in expr.operands
                  if o.kind != "scalar"]
        element = self.element_type(expr.dtype)
        empty = self.builder.tensor_empty(sizes, element, location)
        argument_types = [self.element_type(o.dtype) for o in expr.operands
                          if o.kind != "scalar"] + [element]
        body = self.builder.region(argument_types)
        with self.builder.at_end(body.block):
            arguments = iter(body.block.arguments)
            elements = [operand.value if operand.kind == "scalar" else
                        self.value_of(next(arguments), operand.dtype)
                        for operand in expr.operands]
            result = self.convert(expr.compute(*elements), expr.dtype, expr.node or node,
                                  explicit=True)
            self.builder.linalg_yield([result.ir], location)
        if self.options.get("parallel") and sizes:
            self.parallel_product = True
            self.note_shared_work(node, "parallel=True: whole-array statement",
                                  "8 slices of the outermost dimension (kiln-parallel-arrays), "
                                  "shared out between the threads")
        return self.builder.linalg_generic(inputs, [empty], len(sizes), body, location)[0]

    def broadcast_view(self, view, sizes, node):
        """`view` re-strided to `sizes`: missing leading axes and axes of
        size 1 get stride 0, as numpy broadcasts."""
        b = self.builder
        location = self.loc(node)
        metadata = b.extract_strided_metadata(view.ir, location)
        rank = view.type.ndim
        base, offset = metadata[0], metadata[1]
        own_sizes, own_strides = metadata[2:2 + rank], metadata[2 + rank:]
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        strides = []
        for axis in range(len(sizes)):
            position = axis - (len(sizes) - rank)
            if position < 0:
                strides.append(zero)
                continue
            single = b.cmpi("eq", own_sizes[position], one, location)
            strides.append(b.select(single, zero, own_strides[position], location))
        return b.reinterpret_cast(base, offset, sizes, strides, location)

    def leaf_views(self, expr, sizes, node) -> dict:
        """Each view of `expr`, re-strided to `sizes` (for element_at)."""
        views = {}
        for view in self.views_of(expr):
            if id(view.ir) not in views:
                views[id(view.ir)] = self.broadcast_view(view, sizes, node)
        return views

    def prepare_operands(self, expr, node, keep_top=False):
        """`expr` with each reduction along an axis and each "filled" array
        computed into a temporary array (freed by kilnc where it dies),
        read as a view; a "filled" array's operands
        become views too. With `keep_top`, `expr` itself stays as it is
        (its operands prepared): the caller computes it into its
        destination."""
        if expr.kind == "filled":
            operands = [self.as_view(self.prepare_operands(o, node), node) for o in expr.operands]
            prepared = ArrayExpr("filled", expr.dtype, expr.shape, operands=operands,
                                 node=expr.node, fill=expr.fill)
            if keep_top:
                return prepared
            view = self.temporary_array(expr, node)
            expr.fill(view, [o.value for o in operands])
            return ArrayExpr("view", expr.dtype, expr.shape, value=view, node=expr.node)
        if expr.kind in ("reduce", "scan"):
            source = self.prepare_operands(expr.operands[0], node)
            prepared = ArrayExpr(expr.kind, expr.dtype, expr.shape, operands=[source],
                                 node=expr.node, reduction=expr.reduction)
            if keep_top:
                return prepared
            view = self.temporary_array(expr, node)
            self.reduce_into(prepared, view, node)
            return ArrayExpr("view", expr.dtype, expr.shape, value=view, node=expr.node)
        if expr.kind == "op" and expr.operands:
            return ArrayExpr("op", expr.dtype, expr.shape, compute=expr.compute, node=expr.node,
                             operands=[self.prepare_operands(o, node)
                                       for o in expr.operands])
        return expr

    def as_view(self, expr, node):
        """A prepared operand as a view: itself, or computed into a
        temporary."""
        if expr.kind == "view":
            return expr
        view = self.temporary_array(expr, node)
        self.compute_prepared_into(expr, view, node)
        return ArrayExpr("view", expr.dtype, expr.shape, value=view, node=expr.node)

    def temporary_array(self, expr, node):
        """A new array of `expr`'s shape and dtype (kilnc frees it)."""
        location = self.loc(node)
        sizes = self.index_sizes_of(expr.shape, node)
        array_type = rules.array_type(expr.dtype, len(expr.shape))
        plain = ir.memref_type([None] * len(sizes), self.element_type(expr.dtype))
        raw = self.builder.alloc(plain, sizes, 64, {}, location)
        view = self.value_of(self.builder.cast("cast", raw, self.element_type(array_type),
                                               location), array_type)
        view.origins = frozenset(["alloc:temporary"])
        return view

    def permuted_view(self, view, order, node):
        """`view` (a memref value) with its axes in `order`: the same
        elements, element [c0, c1, ...] is view[c_order^-1 ...]."""
        location = self.loc(node)
        rank = len(order)
        metadata = self.builder.extract_strided_metadata(view, location)
        sizes, strides = metadata[2:2 + rank], metadata[2 + rank:]
        return self.builder.reinterpret_cast(metadata[0], metadata[1],
                                             [sizes[k] for k in order],
                                             [strides[k] for k in order], location)

    def stride_magnitude(self, stride, node):
        """|stride| of an index value."""
        location = self.loc(node)
        zero = self.index_constant(0, node)
        negative = self.builder.cmpi("slt", stride, zero, location)
        return self.builder.select(negative, self.index_op("subi", zero, stride, node), stride,
                                   location)

    def branch_on(self, condition, then_emit, else_emit, node, result_types=()):
        """scf.if on an i1: each emit function builds its branch and returns
        the values it yields (None without results)."""
        location = self.loc(node)
        regions = []
        for emit in (then_emit, else_emit):
            region = self.builder.region()
            with self.builder.at_end(region.block):
                self.builder.scf_yield([v.ir for v in emit() or []], location)
            regions.append(region)
        return self.builder.scf_if(condition, list(result_types), *regions, location)

    def fortran_like(self, views, rank, node):
        """An i1 that holds when the first view (a memref value of `rank`
        axes) has a smaller stride on its first axis than on its last, both
        nonzero and both axes longer than 1 (Fortran order, a transpose; a
        stride of an axis of one element means nothing, as for numpy's
        order "K"); None for fewer than 2 axes."""
        if rank < 2 or not views:
            return None
        location = self.loc(node)
        metadata = self.builder.extract_strided_metadata(next(iter(views.values())), location)
        sizes, strides = metadata[2:2 + rank], metadata[2 + rank:]
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        first, last = (self.stride_magnitude(strides[k], node) for k in (0, rank - 1))
        holds = self.builder.binary(
            "andi", self.builder.cmpi("ult", first, last, location),
            self.builder.cmpi("ne", first, zero, location), location)
        for size in (sizes[0], sizes[rank - 1]):
            holds = self.builder.binary("andi", holds,
                                        self.builder.cmpi("ugt", size, one, location), location)
        return holds

    def for_each(self, sizes, emit, node):
        """A loop nest over `sizes` (index values) calling emit(counters)."""
        location = self.loc(node)
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        counters = []

        def loop(axis):
            if axis == len(sizes):
                emit(list(counters))
                return
            body = self.builder.region([ir.index])
            counters.append(body.block.arguments[0])
            with self.builder.at_end(body.block):
                loop(axis + 1)
                self.builder.scf_yield([], location)
            counters.pop()
            self.builder.scf_for(zero, sizes[axis], one, [], body, location)

        loop(0)

    def element_at(self, expr, counters, views, node):
        """The element of `expr` at `counters` (inside the loop nest)."""
        if expr.kind == "scalar":
            return expr.value
        if expr.kind == "view":
            memref = views[id(expr.value.ir)]
            return self.value_of(self.builder.load(memref, counters, self.loc(node)),
                                 expr.dtype)
        elements = [self.element_at(o, counters, views, node) for o in expr.operands]
        return self.convert(expr.compute(*elements), expr.dtype, expr.node or node,
                            explicit=True)
