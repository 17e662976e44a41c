"""MLIR generation of `for i in kiln.prange(...)`: an scf.parallel over
blocks of iterations, which kilnc gives to OpenMP (convert-scf-to-openmp).
A mixin of code_generator.FunctionCodeGenerator.

    s = 0.0                          partials = memref.alloc() : memref<256xf64>
    for i in kiln.prange(n):         scf.parallel (%b) = (0) to (%blocks) step (1) {
        s += x[i]                      %p = scf.for %i = lo(%b) to hi(%b) iter_args(%s = -0.0) {
                                         ... s += x[i] ...        (the body, as a range loop)
                                       }
                                       memref.store %p, %partials[%b]
                                     }
                                     s = s + partials[0] + partials[1] + ... (in block order)

The iterations are cut into at most BLOCKS blocks whose number depends on
the trip count alone, each run in order by one thread; a reduction starts
each block from its operator's identity and the blocks' results are
combined in block order after the loop. So the result is the same at any
thread count (for floats it is a blocked sum, not the sequential one,
documented in docs/language.md), and an error raised by the body is the
one of the first failing block, which is also that of the first failing
iteration: a block stops at its first error (kiln-lower-checks).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value, mlir_type
from .array_expressions import may_share_memory

# Blocks a prange loop is cut into, at most: enough for every core of a
# large server to get several (balance), few enough that combining the
# partial results after the loop costs nothing.
BLOCKS = 256


class ParallelLowering:
    def emit_parallel_loop(self, stmt, parallel) -> None:
        lower, upper, step, normalized = self.range_bounds(stmt.iter)
        self.refuse_overlaps(stmt, parallel)
        reductions = parallel.reductions
        carried = [r.name for r in reductions]
        initial = [self.symbols[n] for n in carried]
        node = stmt.iter
        # trips = max(upper - lower, 0); block = max(ceil(trips / BLOCKS), 1)
        zero = self.constant(0, kt.i64, node)
        one = self.constant(1, kt.i64, node)
        distance = self.arith("subi", upper, lower, node)
        trips = self.select(self.cmpi("sgt", distance, zero, node), distance, zero, node)
        per_block = self.arith("ceildivsi", trips, self.constant(BLOCKS, kt.i64, node), node)
        per_block = self.select(self.cmpi("sgt", per_block, one, node), per_block, one, node)
        blocks = self.arith("ceildivsi", trips, per_block, node)
        partials = [self.builder.alloc(ir.memref_type([BLOCKS], mlir_type(v.type)), [], 64, {},
                                       self.loc(stmt)) for v in initial]

        def block_body(arguments):
            block_index = self.as_i64(arguments[0], node)
            first = self.arith("addi", lower, self.arith("muli", block_index, per_block, node),
                               node)
            # first + min(per_block, upper - first): never past INT64_MAX
            remaining = self.arith("subi", upper, first, node)
            size = self.select(self.cmpi("slt", remaining, per_block, node), remaining,
                               per_block, node)
            last = self.arith("addi", first, size, node)
            identities = [self.prange_identity(r, v.type, stmt)
                          for r, v in zip(reductions, initial)]
            results = self.emit_counted_loop(stmt, first, last, step, normalized, carried,
                                             identities, {"kiln.parallel_block": ir.UNIT})
            for result, buffer in zip(results, partials):
                self.builder.store(result.ir, buffer, [arguments[0]], self.loc(stmt))
            self.builder.op("scf.reduce", (), (), None, (), self.loc(stmt))

        # The block counter is an index (scf.parallel's), so not a region()
        # of Kiln-typed arguments; the same scoping of symbols.
        saved_symbols, saved_undefined = self.symbols, set(self.maybe_undefined)
        self.symbols = dict(saved_symbols)
        region = self.builder.region([ir.index])
        try:
            with self.builder.at_end(region.block):
                block_body(region.block.arguments)
        finally:
            self.symbols, self.maybe_undefined = saved_symbols, saved_undefined
        index_zero = self.index_constant(0, node)
        index_one = self.index_constant(1, node)
        self.builder.op("scf.parallel", (index_zero, self.as_index(blocks, node), index_one), (),
                        {"operandSegmentSizes": ir.dense_array_attr([1, 1, 1, 0], ir.i32),
                         "kiln.prange": ir.UNIT}, (region,), self.loc(stmt))
        self.mark_loop_locals(stmt, carried)
        if not reductions:
            return
        self.combine_partials(stmt, reductions, initial, partials, blocks)

    def refuse_overlaps(self, stmt, parallel) -> None:
        """ValueError before the loop when an array it writes shares memory
        with another array it reads (a parameter passed twice, a view of
        the other): the iterations would read each other's elements in no
        set order. numpy's bounds test, as for array statements."""
        condition = None
        for written in parallel.written_arrays:
            target = self.symbols.get(written)
            if target is None or not isinstance(target.type, kt.ArrayType):
                continue
            for name in sorted(parallel.names_read - {written}):
                other = self.symbols.get(name)
                if other is None or not isinstance(other.type, kt.ArrayType) or \
                        not may_share_memory(target.origins, other.origins):
                    continue
                overlap = self.overlaps(target, other, stmt)
                condition = overlap if condition is None else Value(
                    self.builder.binary("ori", condition.ir, overlap.ir, self.loc(stmt)),
                    kt.boolean)
        if condition is None:
            return
        separate = Value(self.builder.binary(
            "xori", condition.ir, self.constant(True, kt.boolean, stmt).ir, self.loc(stmt)),
            kt.boolean)
        self.check(separate, "ValueError",
                   f"kiln.prange loop (line {stmt.lineno}): an array it writes shares memory "
                   "with another array it reads, so its iterations would race; pass separate "
                   "arrays or use range(...)", [], stmt)

    def combine_partials(self, stmt, reductions, initial, partials, blocks) -> None:
        """carried = carried <op> partials[0] <op> partials[1] ..., in block
        order, with the operator's Python semantics (an int sum that
        overflows raises as the sequential loop would)."""
        node = stmt.iter
        mode, _ = self.loop_state(stmt, [r.name for r in reductions], with_counter=False)

        def bind(arguments):
            counter = self.as_index(Value(arguments[0], kt.i64), node)
            for reduction, value, accumulated, buffer in zip(reductions, initial,
                                                             arguments[1:], partials):
                partial = Value(self.builder.load(buffer, [counter], self.loc(stmt)), value.type)
                combined = self.prange_combine(reduction, Value(accumulated, value.type), partial)
                self.symbols[reduction.name] = self.convert(combined, value.type,
                                                            reduction.first_update)

        def build():
            self.finish_loop("continue", stmt)

        body, _ = self.region(build, bind, mode=mode,
                              argument_types=[kt.i64] + [v.type for v in initial])
        results = self.builder.scf_for(self.constant(0, kt.i64, node).ir, blocks.ir,
                                       self.constant(1, kt.i64, node).ir,
                                       [v.ir for v in initial], body, self.loc(stmt))
        names = [r.name for r in reductions]
        self.bind_results([Value(r, v.type) for r, v in zip(results, initial)], names, initial)

    def prange_combine(self, reduction, accumulated: Value, partial: Value) -> Value:
        node = reduction.first_update
        if reduction.operator in ("max", "min"):
            return self.min_max([accumulated, partial], node,
                                ast.Gt() if reduction.operator == "max" else ast.Lt(),
                                reduction.operator)
        operator = {"add": ast.Add(), "mul": ast.Mult(), "or": ast.BitOr(),
                    "and": ast.BitAnd(), "xor": ast.BitXor()}[reduction.operator]
        return self.binary(operator, accumulated, partial, node)

    def prange_identity(self, reduction, type_, stmt) -> Value:
        """The value a block's copy of the reduction starts from."""
        operator = reduction.operator
        if type_.is_float:
            value = {"add": 0.0, "mul": 1.0, "max": -float("inf"),
                     "min": float("inf")}[operator]
            if operator == "add" and all(isinstance(u, ast.AugAssign) and
                                         isinstance(u.op, ast.Add) for u in reduction.updates):
                value = -0.0        # x + -0.0 is x for every x, -0.0 included
            return self.constant(value, type_, stmt)
        if type_.is_bool:
            value = {"or": False, "xor": False, "and": True, "max": False, "min": True,
                     "add": 0, "mul": 1}[operator]
            return self.constant(value, type_, stmt)
        value = {"add": 0, "mul": 1, "or": 0, "xor": 0, "and": -1,
                 "max": type_.min_value, "min": type_.max_value}[operator]
        return self.constant(value, type_, stmt)
