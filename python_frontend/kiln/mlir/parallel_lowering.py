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
from ..errors import display_name
from . import ir_builder as ir
from .values import Value, mlir_type
from .array_expressions import may_share_memory

# Blocks a prange loop is cut into, at most: enough for every core of a
# large server to get several (balance), few enough that combining the
# partial results after the loop costs nothing.
BLOCKS = 256

# A whole-array reduction of a parallel=True function (np.sum(x)) is cut
# into blocks of at least this many elements: a smaller array is one block,
# which kiln-parallel-threads' `if` runs on the calling thread, so a small
# reduction never pays for waking the team (about a microsecond; a block
# this size takes several).
REDUCTION_BLOCK_ELEMENTS = 16384


def uses_parallel_loops(typed, seen=None) -> bool:
    """Whether a function runs kiln.prange loops, itself or in a callee."""
    seen = set() if seen is None else seen
    if id(typed) in seen:
        return False
    seen.add(id(typed))
    return bool(typed.parallel_loops) or any(
        uses_parallel_loops(callee, seen) for callee in typed.callees.values())


def describe_parallel_loop(loop, info) -> dict:
    """A kiln.prange loop as the record and the report show it."""
    return {"line": loop.lineno, "column": loop.col_offset + 1, "kind": "kiln.prange",
            "schedule": f"static: at most {BLOCKS} blocks of consecutive iterations, "
                        "shared out evenly between the threads",
            "reductions": [{"name": display_name(r.name), "operator": r.operator,
                            "line": r.first_update.lineno} for r in info.reductions]}


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
        self.parallel_depth += 1
        try:
            with self.builder.at_end(region.block):
                block_body(region.block.arguments)
        finally:
            self.parallel_depth -= 1
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

    # ------------------------------------------- parallel=True reductions
    def note_shared_work(self, node, kind, schedule, reduction=None) -> None:
        """Work of a parallel=True function shared out between the threads
        (an array statement, a product, a reduction), for the record's
        parallel_loops[] beside the kiln.prange loops."""
        line = getattr(node, "lineno", self.func.lineno)
        entry = {"line": line, "column": getattr(node, "col_offset", 0) + 1, "kind": kind,
                 "schedule": schedule,
                 "reductions": [{"name": reduction, "operator": reduction[3:], "line": line}]
                 if reduction else []}
        if entry not in self.shared_work:
            self.shared_work.append(entry)

    def shares_reductions(self) -> bool:
        """Whether a whole-array reduction here is shared out between the
        threads: in a parallel=True function, outside any parallel loop
        (whose iterations already have the threads)."""
        return bool(self.options.get("parallel")) and not self.parallel_depth

    def in_blocks_of_rows(self, rows: Value, row_elements: Value, emit, node) -> Value:
        """An scf.parallel over blocks of consecutive rows of `rows` (i64;
        each row `row_elements` elements of work): at most BLOCKS blocks, of
        at least REDUCTION_BLOCK_ELEMENTS elements each, so a small array is
        one block (run on the calling thread) and the blocks depend on the
        shape alone. emit(block, first, last) writes block `block`, rows
        [first, last) (index values). Returns the number of blocks (i64)."""
        location = self.loc(node)
        one = self.constant(1, kt.i64, node)
        # per_block = max(ceil(rows / BLOCKS), ceil(ELEMENTS / max(row_elements, 1)))
        widest = self.select(self.cmpi("sgt", row_elements, one, node), row_elements, one,
                             node)
        by_count = self.arith("ceildivsi", rows, self.constant(BLOCKS, kt.i64, node), node)
        by_size = self.arith("ceildivsi", self.constant(REDUCTION_BLOCK_ELEMENTS, kt.i64, node),
                             widest, node)
        per_block = self.select(self.cmpi("sgt", by_count, by_size, node), by_count, by_size,
                                node)
        blocks = self.arith("ceildivsi", rows, per_block, node)
        region = self.builder.region([ir.index])
        self.parallel_depth += 1
        try:
            with self.builder.at_end(region.block):
                block = region.block.arguments[0]
                first = self.arith("muli", self.as_i64(block, node), per_block, node)
                remaining = self.arith("subi", rows, first, node)
                size = self.select(self.cmpi("slt", remaining, per_block, node), remaining,
                                   per_block, node)
                last = self.arith("addi", first, size, node)
                emit(block, self.as_index(first, node), self.as_index(last, node))
                self.builder.op("scf.reduce", (), (), None, (), location)
        finally:
            self.parallel_depth -= 1
        self.builder.op("scf.parallel", (self.index_constant(0, node),
                                         self.as_index(blocks, node), self.index_constant(1, node)),
                        (), {"operandSegmentSizes": ir.dense_array_attr([1, 1, 1, 0], ir.i32)},
                        (region,), location)
        # Like an array statement shared out: the function releases the GIL
        # and its module links libomp.
        self.parallel_product = True
        return blocks

    def for_each_in_blocks(self, sizes, emit, node, elements_per_row: Value) -> None:
        """for_each (array_expressions.py) over `sizes` (index values) whose
        outermost loop is cut into blocks of rows shared out between the
        threads (in_blocks_of_rows): for loops whose iterations write
        distinct elements, such as a reduction along an axis, one result
        element each."""
        location = self.loc(node)
        one = self.index_constant(1, node)

        def rows(block, first, last):
            body = self.builder.region([ir.index])
            with self.builder.at_end(body.block):
                row = body.block.arguments[0]
                self.for_each(sizes[1:], lambda counters: emit([row] + counters), node)
                self.builder.scf_yield([], location)
            self.builder.scf_for(first, last, one, [], body, location)

        self.in_blocks_of_rows(self.as_i64(sizes[0], node), elements_per_row, rows, node)

    def blocked_reduction(self, initial: list, identity: list, rows: Value,
                          row_elements: Value, reduce_rows, combine, node,
                          reductions: list) -> list:
        """Reductions over `rows` (i64; each of `row_elements` elements) as
        an scf.parallel over blocks of consecutive rows, like a prange
        loop's: reduce_rows(accumulators, first, last) reduces rows [first,
        last) (index values) into them and returns them; each block starts
        from `identity`, and combine(accumulators, partials) folds the
        blocks' results into `initial` in block order after the loop
        (`reductions` names them in the record). The blocks depend on the
        shape alone (at most BLOCKS, each at least REDUCTION_BLOCK_ELEMENTS
        elements), so the results are the same at any thread count."""
        location = self.loc(node)
        types = [value.type for value in identity]
        partials = [self.builder.alloc(ir.memref_type([BLOCKS], mlir_type(type_)), [], 64, {},
                                       location) for type_ in types]

        def block_of_rows(block, first, last):
            results = reduce_rows(identity, first, last)
            for result, buffer in zip(results, partials):
                self.builder.store(result.ir, buffer, [block], location)

        blocks = self.in_blocks_of_rows(rows, row_elements, block_of_rows, node)
        index_zero = self.index_constant(0, node)
        index_one = self.index_constant(1, node)
        for reduction in reductions:
            self.note_shared_work(node, "parallel=True: whole-array reduction",
                                  f"static: at most {BLOCKS} blocks of consecutive rows of at "
                                  f"least {REDUCTION_BLOCK_ELEMENTS} elements, shared out evenly "
                                  "between the threads; the blocks' results combined in block "
                                  "order", f"np.{reduction}")
        body = self.builder.region([ir.index, *[value.ir.type for value in initial]])
        with self.builder.at_end(body.block):
            counter = body.block.arguments[0]
            accumulated = [Value(a, t) for a, t in zip(body.block.arguments[1:], types)]
            loaded = [Value(self.builder.load(buffer, [counter], location), t)
                      for buffer, t in zip(partials, types)]
            self.builder.scf_yield([v.ir for v in combine(accumulated, loaded)], location)
        totals = self.builder.scf_for(index_zero, self.as_index(blocks, node), index_one,
                                      [value.ir for value in initial], body, location)
        return [Value(total, t) for total, t in zip(totals, types)]
