"""numpy's reductions and scans, as a mixin of FunctionCodeGenerator (their
typing: typecheck/array_typing.py's `reduction`): np.sum(a), a.max(axis=1,
keepdims=True), np.var, np.mean, ... over every element (a scalar,
`full_reduction`) or along one axis (an array expression of kind "reduce",
computed into its destination by `reduce_into`), and np.cumsum/np.cumprod
(kind "scan", `scan_into`, sequential as numpy's).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from ..library_functions import is_scan
from .array_expressions import ArrayExpr


# Reductions of one array that one statement may compute in one pass.
FUSED_FUNCTIONS = {"sum", "prod", "max", "min", "amax", "amin", "mean", "average", "any",
                   "all"}
FUSED_METHODS = {"sum", "prod", "max", "min", "mean", "any", "all"}
# numpy's aliases of reductions, by the name Kiln lowers them under.
FUSED_NAMES = {"amax": "max", "amin": "min", "average": "mean"}
# numpy functions that write an array argument (no fusion across them).
ARRAY_WRITING_FUNCTIONS = {"copyto", "put", "place", "putmask", "fill_diagonal"}
READING_BUILTINS = {"abs", "min", "max", "float", "int", "bool", "len", "round", "complex",
                    "sum"}


class ArrayReductions:
    """Needs the generator's and ArrayExpressions' helpers."""

    # --------------------------------------------------------- reductions
    def reduce(self, name, value, node, options=(), keywords=()):
        """np.sum(a), a.max(axis=1), np.mean(x * y, keepdims=True), ...:
        over every element a scalar (`full_reduction`); along one axis an
        array expression of kind "reduce", computed when its destination is
        known (`reduce_into`)."""
        name = FUSED_NAMES.get(name, name)
        typed = self.typed_value(node).type
        expr = self.array_operand(value, node)
        keywords = {k.arg: k.value for k in keywords}
        if is_scan(name):
            axis, _ = rules.reduction_options(len(expr.shape), options, keywords, "scan")
            return self.lazy_array(typed, ArrayExpr(
                "scan", typed.dtype, expr.shape, operands=[expr], node=node,
                reduction=(name[3:], len(expr.shape) - 1 if axis is None else axis, False)))
        axis, keepdims = rules.reduction_options(len(expr.shape), options, keywords, name)
        dtype = typed.dtype if isinstance(typed, kt.ArrayType) else typed
        if name in ("var", "std"):
            return self.variance(name, expr, axis, keepdims, rules.reduction_ddof(keywords),
                                 typed, dtype, node)
        if name in ("max", "min"):
            empty = self.any_empty(expr.shape if axis is None else [expr.shape[axis]], node)
            label = {"max": "maximum", "min": "minimum"}[name]
            self.check(self.negate(empty, node), "ValueError",
                       f"zero-size array to reduction operation {label} which has no identity",
                       [], node)
        fused = getattr(self, "fused_reductions", {}).get(id(node))
        if fused is not None:
            return fused
        if axis is None:
            total = self.full_reduction(name, expr, dtype, node)
            if not keepdims:
                return total
            one = self.constant(1, kt.i64, node)
            result = ArrayExpr("op", dtype, [one] * len(expr.shape), compute=lambda: total,
                               node=node)
            return self.lazy_array(typed, result)
        if not isinstance(typed, kt.ArrayType):         # a 1-D array along its axis
            return self.full_reduction(name, expr, dtype, node)
        one = self.constant(1, kt.i64, node)
        shape = [size if k != axis else one if keepdims else None
                 for k, size in enumerate(expr.shape)]
        result = ArrayExpr("reduce", dtype, [s for s in shape if s is not None],
                           operands=[expr], node=node, reduction=(name, axis, keepdims))
        return self.lazy_array(typed, result)

    def any_empty(self, lengths, node):
        """Whether any of these sizes is 0 (a bool Value)."""
        zero = self.constant(0, kt.i64, node)
        empty = None
        for size in lengths:
            test = self.cmpi("eq", size, zero, node)
            empty = test if empty is None else self.arith("ori", empty, test, node)
        return empty

    def variance(self, name, expr, axis, keepdims, ddof, typed, dtype, node):
        """np.var/np.std as numpy computes them: the mean first, then the
        sum of squared deviations divided by max(n - ddof, 0)."""
        x = self.cast_to(expr, dtype, node)
        count = self.constant(1, kt.i64, node)
        for size in (expr.shape if axis is None else [expr.shape[axis]]):
            count = self.arith("muli", count, size, node)
        zero = self.constant(0, kt.i64, node)
        divisor = self.convert(self.arith("maxsi", self.arith(
            "subi", count, self.constant(ddof, kt.i64, node), node), zero, node), dtype, node)

        def finish(total):
            result = self.arith("divf", total, divisor, node)
            return self.unary("sqrt", result, node) if name == "std" else result

        if axis is None:
            mean = self.arith("divf", self.full_reduction("sum", x, dtype, node),
                              self.convert(count, dtype, node), node)

            def squared(e):
                deviation = self.arith("subf", e, mean, node)
                return self.arith("mulf", deviation, deviation, node)

            deviations = ArrayExpr("op", dtype, expr.shape, operands=[x], compute=squared,
                                   node=node)
            result = finish(self.full_reduction("sum", deviations, dtype, node))
            if not keepdims:
                return result
            one = self.constant(1, kt.i64, node)
            return self.lazy_array(typed, ArrayExpr("op", dtype, [one] * len(expr.shape),
                                                    compute=lambda: result, node=node))
        one = self.constant(1, kt.i64, node)
        kept = [size if k != axis else one for k, size in enumerate(expr.shape)]
        mean = ArrayExpr("reduce", dtype, kept, operands=[x], node=node,
                         reduction=("mean", axis, True))

        def squared_deviation(e, m):
            deviation = self.arith("subf", e, m, node)
            return self.arith("mulf", deviation, deviation, node)

        deviations = ArrayExpr("op", dtype, expr.shape, operands=[x, mean], node=node,
                               compute=squared_deviation)
        shape = kept if keepdims else [s for k, s in enumerate(expr.shape) if k != axis]
        total = ArrayExpr("reduce", dtype, shape, operands=[deviations], node=node,
                          reduction=("sum", axis, keepdims))
        return self.lazy_array(typed, ArrayExpr("op", dtype, shape, operands=[total],
                                                compute=finish, node=node))

    def full_reduction(self, name, expr, dtype, node):
        return self.full_reductions([(name, dtype)], expr, node)[0]

    def full_reductions(self, reductions, expr, node):
        """The reductions (name, dtype) of every element of one expression,
        in one loop nest whose iteration arguments carry an accumulator
        each, computing the expression's element on the fly (so `np.sum(x *
        y)` makes no array, and `np.max(x) - np.min(x)` reads x once). The
        combining ops are ones kiln-vectorize recognises: sums and products
        are marked reassociable (numpy's own pairwise sums round differently
        from a sequential loop anyway), max/min are arith.maximumf/minimumf
        (NaN propagates, as in numpy)."""
        expr = self.prepare_operands(expr, node)
        location = self.loc(node)
        sizes = self.index_sizes_of(expr.shape, node)
        views = self.leaf_views(expr, sizes, node)
        initial = [self.constant(self.reduction_identity(name, dtype), dtype, node)
                   for name, dtype in reductions]
        types = [value.ir.type for value in initial]
        zero_index = self.index_constant(0, node)
        one_index = self.index_constant(1, node)
        counters = []

        def values(raw):
            return [self.value_of(r, dtype) for r, (_, dtype) in zip(raw, reductions)]

        def combine(accumulated, elements):
            return [self.combine(name, acc, element, dtype, node)
                    for (name, dtype), acc, element in zip(reductions, accumulated, elements)]

        def counted(first, last, accumulated, emit):
            """scf.for over [first, last) carrying the accumulators."""
            body = self.builder.region([ir.index, *types])
            counters.append(body.block.arguments[0])
            with self.builder.at_end(body.block):
                carried = values(body.block.arguments[1:])
                self.builder.scf_yield([v.ir for v in emit(carried)], location)
            counters.pop()
            return values(self.builder.scf_for(first, last, one_index,
                                               [a.ir for a in accumulated], body, location))

        def loop(axis, accumulated, sizes, views):
            if axis == len(sizes):
                element = self.element_at(expr, counters, views, node)
                return combine(accumulated, [element] * len(reductions))
            return counted(zero_index, sizes[axis], accumulated,
                           lambda carried: loop(axis + 1, carried, sizes, views))

        def nest(sizes, shape, views):
            if not sizes or not self.shares_reductions():
                return loop(0, initial, sizes, views)
            # parallel=True: blocks of rows of the outermost axis (in memory
            # order), one partial result each, combined in block order.
            row_elements = self.constant(1, kt.i64, node)
            for size in shape[1:]:
                row_elements = self.arith("muli", row_elements, size, node)
            return self.blocked_reduction(
                initial, initial, shape[0], row_elements,
                lambda accumulated, first, last: counted(
                    first, last, accumulated, lambda carried: loop(1, carried, sizes, views)),
                combine, node, [name for name, _ in reductions])

        # Every reduction here gives the same result in any order (sums are
        # reassociated anyway), so the loops follow memory: reversed axes
        # when the operands are laid out in Fortran order (a transpose).
        reverse = self.fortran_like(views, len(sizes), node)
        if reverse is None:
            totals = nest(sizes, expr.shape, views)
        else:
            order = list(range(len(sizes)))[::-1]
            reversed_views = {key: self.permuted_view(view, order, node)
                              for key, view in views.items()}
            totals = values(self.branch_on(
                reverse, lambda: nest(sizes[::-1], expr.shape[::-1], reversed_views),
                lambda: nest(sizes, expr.shape, views), node, types))
        results = []
        for (name, dtype), total in zip(reductions, totals):
            if name == "mean":
                count = self.constant(1, kt.i64, node)
                for size in expr.shape:
                    count = self.arith("muli", count, size, node)
                total = self.arith("divf", total, self.convert(count, dtype, node), node)
            results.append(total)
        return results

    # ------------------------------------------ reductions of one array, fused
    def fuse_statement_reductions(self, stmt) -> None:
        """Whole-array reductions of one array variable in one statement
        (`np.max(x) - np.min(x) + x.mean()`) computed in one pass over it,
        before the statement; `reduce` then takes each result from
        `fused_reductions`. Only where nothing in the statement can change
        the array between the calls: every other call is a numpy, math or
        cmath function that writes no argument, or a pure builtin."""
        self.fused_reductions = {}
        value = getattr(stmt, "value", None)
        if value is None:
            return
        groups = {}
        for node in ast.walk(value):
            if isinstance(node, (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.SetComp,
                                 ast.DictComp, ast.GeneratorExp)):
                return
            if not isinstance(node, ast.Call):
                continue
            operand = self.fusable_reduction_operand(node)
            if operand is not None:
                groups.setdefault(operand, []).append(node)
            elif not self.leaves_arrays_alone(node):
                return
        for name, calls in groups.items():
            if len(calls) < 2:
                continue
            first = calls[0]
            operand = first.args[0] if first.args else first.func.value
            expr = self.array_operand(self.expression(operand), first)
            reductions = [(FUSED_NAMES.get(call.func.attr, call.func.attr),
                           self.typed_value(call).type) for call in calls]
            for call, result in zip(calls, self.full_reductions(reductions, expr, first)):
                self.fused_reductions[id(call)] = result

    def fusable_reduction_operand(self, call):
        """The array variable a whole-array reduction call without options
        reads (`np.sum(x)`, `x.max()`), or None."""
        if call.keywords or getattr(call, "_kiln_class_call", False) or \
                not isinstance(call.func, ast.Attribute):
            return None
        qualified = self.context.qualified_name(call.func)
        if qualified is not None:
            if qualified[0] != "numpy" or qualified[1] not in FUSED_FUNCTIONS or \
                    len(call.args) != 1:
                return None
            operand = call.args[0]
        else:
            if call.func.attr not in FUSED_METHODS or call.args:
                return None
            operand = call.func.value
        if not isinstance(operand, ast.Name):
            return None
        try:
            if not isinstance(self.typed_value(operand).type, kt.ArrayType) or \
                    isinstance(self.typed_value(call).type, kt.ArrayType) or \
                    self.typed_value(operand).type.dtype.is_complex:
                return None
        except Exception:       # a name typing did not record (a class attribute, ...)
            return None
        return operand.id

    def leaves_arrays_alone(self, call) -> bool:
        """Whether a call is known not to write any array: numpy, math and
        cmath functions but those that write an argument, and builtins that
        only read."""
        qualified = self.context.qualified_name(call.func)
        if qualified is not None:
            return qualified[0] in ("numpy", "math", "cmath") and \
                qualified[1] not in ARRAY_WRITING_FUNCTIONS and \
                not any(k.arg == "out" for k in call.keywords)
        return isinstance(call.func, ast.Name) and call.func.id in READING_BUILTINS and \
            call.func.id not in self.module.functions

    def reduce_into(self, expr, destination, node):
        """Computes a reduction along one axis into `destination` (of its
        shape), in one of two loop nests chosen by the operands' strides at
        run time (smallest_stride_axis): each result element a loop over
        the axis carrying its accumulator, or the destination accumulating
        while the axis runs outermost (out[j] += a[i, j]); either way the
        innermost loop reads memory in order and vectorizes."""
        name, axis, keepdims = expr.reduction
        source = expr.operands[0]
        dtype = expr.dtype
        location = self.loc(node)
        sizes = self.index_sizes_of(source.shape, node)
        views = self.leaf_views(source, sizes, node)
        zero = self.index_constant(0, node)
        rank = len(sizes)
        if expr.kind == "scan":
            self.scan_into(name, axis, source, views, sizes, destination, dtype, node)
            return

        def target(counters):
            if keepdims:
                return [zero if k == axis else c for k, c in enumerate(counters)]
            return [c for k, c in enumerate(counters) if k != axis]

        count = self.convert(source.shape[axis], dtype, node) if name == "mean" else None

        def finish(value):
            return self.arith("divf", value, count, node) if name == "mean" else value

        identity = self.constant(self.reduction_identity(name, dtype), dtype, node)
        one = self.index_constant(1, node)
        output_sizes = [size for k, size in enumerate(sizes) if k != axis]

        def with_axis(counters, k):
            """Source counters from output counters and a position on `axis`."""
            return counters[:axis] + [k] + counters[axis:]

        def along_axis():
            """Each result element is a loop over `axis` carrying its
            accumulator: the reduced axis runs innermost, read through views
            that put it last (kiln-vectorize vectorizes a loop over the last
            axis, checking its stride at run time)."""
            order = [k for k in range(rank) if k != axis] + [axis]
            moved = views if axis == rank - 1 else {
                key: self.permuted_view(view, order, node) for key, view in views.items()}

            def per_result(counters):
                body = self.builder.region([ir.index, identity.ir.type])
                with self.builder.at_end(body.block):
                    element = self.element_at(source, counters + [body.block.arguments[0]],
                                              moved, node)
                    acc = self.value_of(body.block.arguments[1], dtype)
                    self.builder.scf_yield([self.combine(name, acc, element, dtype,
                                                         node).ir], location)
                [total] = self.builder.scf_for(zero, sizes[axis], one, [identity.ir], body,
                                               location)
                self.builder.store(finish(self.value_of(total, dtype)).ir, destination.ir,
                                   target(with_axis(counters, zero)), location)

            if output_sizes and self.shares_reductions():
                # parallel=True: blocks of rows of the result, each result
                # element reduced by one thread, in order.
                work = self.as_i64(sizes[axis], node)
                for size in output_sizes[1:]:
                    work = self.arith("muli", work, self.as_i64(size, node), node)
                self.for_each_in_blocks(output_sizes, per_result, node, work)
                self.note_shared_work(node, "parallel=True: reduction along an axis",
                                      "blocks of rows of the result (the reduced axis "
                                      "innermost), each result element reduced in order by one "
                                      "thread", f"np.{name}")
                return
            self.for_each(output_sizes, per_result, node)

        def across_axis():
            """The destination accumulates while `axis` runs outermost, so
            the innermost loop is another axis of the source
            (out[j] += a[i, j])."""
            def initialise(counters):
                self.builder.store(identity.ir, destination.ir,
                                   target(with_axis(counters, zero)), location)

            def accumulate(counters):
                place = target(with_axis(counters[1:], counters[0]))
                acc = self.value_of(self.builder.load(destination.ir, place, location), dtype)
                element = self.element_at(source, with_axis(counters[1:], counters[0]), views,
                                          node)
                self.builder.store(self.combine(name, acc, element, dtype, node).ir,
                                   destination.ir, place, location)

            def divide(counters):
                place = target(with_axis(counters, zero))
                total = self.value_of(self.builder.load(destination.ir, place, location), dtype)
                self.builder.store(finish(total).ir, destination.ir, place, location)

            self.for_each(output_sizes, initialise, node)
            self.for_each([sizes[axis]] + output_sizes, accumulate, node)
            if name == "mean":
                self.for_each(output_sizes, divide, node)

        # Which loop nest reads memory in order depends on the layout, known
        # at run time (numpy's iterator also follows the strides): the
        # reduced axis innermost when it has the smallest stride (a's last
        # axis in C order, its first in Fortran order), outermost otherwise.
        innermost = self.smallest_stride_axis(views, rank, axis, node)
        if innermost is None:
            (along_axis if axis == rank - 1 else across_axis)()
            return
        self.branch_on(innermost, along_axis, across_axis, node)

    def smallest_stride_axis(self, views, rank, axis, node):
        """An i1 that holds when `axis` of the first operand view (re-strided
        to the source's shape by leaf_views) has the smallest stride in
        magnitude (broadcast axes, stride 0, aside); None when there is
        nothing to choose (1-D, no view)."""
        if rank == 1 or not views:
            return None
        location = self.loc(node)
        metadata = self.builder.extract_strided_metadata(next(iter(views.values())), location)
        strides = metadata[2 + rank:]
        zero = self.index_constant(0, node)

        mine = self.stride_magnitude(strides[axis], node)
        holds = None
        for k, stride in enumerate(strides):
            if k == axis:
                continue
            other = self.stride_magnitude(stride, node)
            smaller = self.builder.binary("ori", self.builder.cmpi("ule", mine, other, location),
                                          self.builder.cmpi("eq", other, zero, location),
                                          location)
            holds = smaller if holds is None else self.builder.binary("andi", holds, smaller,
                                                                      location)
        return holds

    def scan_into(self, name, axis, source, views, sizes, destination, dtype, node):
        """np.cumsum/np.cumprod along `axis` into `destination` (the
        source's shape): along the last axis a loop carrying the running
        value; along another, each element adds the previous one along the
        axis (read back from the destination), the source read in order."""
        location = self.loc(node)
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        identity = self.constant(self.reduction_identity(name, dtype), dtype, node)
        if name == "sum" and dtype.is_float:     # np.cumsum (scan_into gets "sum")
            # numpy's first element is the source's own: -0.0 + x is x for
            # every x (0.0 + -0.0 would be +0.0; fuzzer seed 502856263, f8921)
            identity = self.constant(-0.0, dtype, node)
        if axis == len(sizes) - 1:
            def along_last(counters):
                body = self.builder.region([ir.index, identity.ir.type])
                with self.builder.at_end(body.block):
                    place = counters + [body.block.arguments[0]]
                    element = self.element_at(source, place, views, node)
                    acc = self.value_of(body.block.arguments[1], dtype)
                    running = self.combine(name, acc, element, dtype, node)
                    self.builder.store(running.ir, destination.ir, place, location)
                    self.builder.scf_yield([running.ir], location)
                self.builder.scf_for(zero, sizes[axis], one, [identity.ir], body, location)

            self.for_each(sizes[:axis], along_last, node)
            return

        def step(counters):
            first = self.builder.cmpi("eq", counters[axis], zero, location)
            before = self.builder.binary("maxsi", self.builder.binary(
                "subi", counters[axis], one, location), zero, location)
            previous = list(counters)
            previous[axis] = before
            loaded = self.value_of(self.builder.load(destination.ir, previous, location), dtype)
            running = self.select(self.value_of(first, kt.boolean), identity, loaded, node)
            element = self.element_at(source, counters, views, node)
            self.builder.store(self.combine(name, running, element, dtype, node).ir,
                               destination.ir, counters, location)

        self.for_each(sizes, step, node)

    @staticmethod
    def reduction_identity(name, type_):
        if name in ("sum", "mean"):
            return False if type_.is_bool else 0
        if name == "prod":
            return 1
        if name == "any":
            return False
        if name == "all":
            return True
        if type_.is_bool:
            return name == "min"
        if type_.is_float:
            return -float("inf") if name == "max" else float("inf")
        return type_.min_value if name == "max" else type_.max_value

    def combine(self, name, acc, element, type_, node):
        if name in ("any", "all"):
            truth = self.truthy(element, node)
            return self.arith("ori" if name == "any" else "andi", acc, truth, node)
        x = self.convert(element, type_, node, explicit=True)
        if type_.is_complex:        # np.sum: each part a reassociable float sum
            parts = [self.value_of(self.builder.binary(
                "addf", a.ir, b.ir, self.loc(node), ir.FASTMATH_REASSOC_CONTRACT), type_.part)
                for a, b in zip(self.complex_parts(acc, node), self.complex_parts(x, node))]
            return self.make_complex(*parts, node)
        if name in ("sum", "mean", "prod"):
            if type_.is_float:
                operation = "addf" if name != "prod" else "mulf"
                return self.value_of(self.builder.binary(
                    operation, acc.ir, x.ir, self.loc(node), ir.FASTMATH_REASSOC_CONTRACT), type_)
            return self.arith("muli" if name == "prod" else "addi", acc, x, node)
        if type_.is_bool:
            return self.arith("ori" if name == "max" else "andi", acc, x, node)
        if type_.is_float:
            return self.arith("maximumf" if name == "max" else "minimumf", acc, x, node)
        suffix = "si" if type_.signed else "ui"
        return self.arith(("max" if name == "max" else "min") + suffix, acc, x, node)
