"""Lowering of statements: blocks and their exits (an early return or break
becomes structured control flow), assignments and unpacking, augmented
assignments, if as scf.if, for as scf.for and while as scf.while with the
variables they carry. A mixin of code_generator.FunctionCodeGenerator."""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

from .. import typesystem as kt
from . import ir_builder as ir
from .. import typing_rules as rules
from .values import Value, flatten, tuple_value
from ..typecheck.typed_tree import assigned_names, contains_return, loop_exits
from ..typecheck.typed_tree import is_counted, is_dict, is_range, is_set, is_str
from .dict_lowering import DictWalk
from .ownership import holds_counted_elements
from ..frontend.subset import message_parts, raised_kind


@dataclass
class ExitMode:
    """What ends a region: see StatementLowering.generate_body."""
    kind: str                      # "function" or "loop"
    in_branch: bool = False        # function mode inside an exiting `if`
    carried: list = field(default_factory=list)
    has_flags: bool = False
    types: list = field(default_factory=list)
    next_counter: object = None
    return_value: object = None
    # A loop body's: the names bound when it starts (the body's own lists,
    # the others, are released at each end of it: list_lowering.py).
    scope: frozenset | None = None

    def for_branch(self) -> "ExitMode":
        if self.kind == "function":
            return ExitMode("function", in_branch=True)
        return self


class StatementLowering:
    # ------------------------------------------------ exits: return, break
    # Each statement list is generated under an exit mode that says what
    # falling off its end, `return`, `break` and `continue` produce:
    #   function mode: func.return (or scf.yield of the return value when the
    #     list is a branch of an `if` that returns);
    #   loop mode: scf.yield of the loop's state tuple (carried variables,
    #     then done/returned flags and the return value when the loop has a
    #     `break` or `return`).
    # An `if` with an exit in a branch moves the statements after it into
    # both branches, so every path ends in exactly one yield or return.

    def generate_body(self, stmts, terminal=False) -> bool:
        """Emits a statement list; True when it ended in an exit. A terminal
        list is the rest of its region: falling off its end is an exit."""
        for position, stmt in enumerate(stmts):
            rest = stmts[position + 1:]
            if isinstance(stmt, ast.Return):
                self.fuse_statement_reductions(stmt)        # reductions.py
                try:
                    self.exit_return(stmt)
                finally:
                    self.fused_reductions = {}
                return True
            if isinstance(stmt, ast.Raise) and terminal:
                self.statement(stmt)
                self.exit_unreachable(stmt)
                return True
            if isinstance(stmt, (ast.Break, ast.Continue)):
                self.finish_loop("break" if isinstance(stmt, ast.Break) else "continue", stmt)
                return True
            if isinstance(stmt, ast.If) and self.has_exit([stmt]):
                self.emit_exiting_if(stmt, rest)
                return True
            if isinstance(stmt, (ast.For, ast.While)) and contains_return(stmt.body):
                returned, value = self.statement(stmt)
                self.emit_conditional_return(returned, value, rest, stmt)
                return True
            self.statement(stmt)
        if terminal:
            self.fall_off_end(stmts[-1] if stmts else self.func)
            return True
        return False

    def exit_unreachable(self, node):
        """Ends a region whose end is never reached (after a raise, or after
        an endless loop) with whatever its exit needs: zeros, never used."""
        if self.mode.kind == "loop":
            self.finish_loop("continue", node)
            return
        result = self.return_type()
        if result is None:
            self.finish_return(None, node)
            return
        elements = result.elements if isinstance(result, kt.TupleType) else [result]
        values = [self.empty_placeholder(e, node) for e in elements]
        self.finish_return(values[0] if len(values) == 1 else tuple_value(values), node)

    def empty_placeholder(self, type_, node) -> Value:
        """A value of `type_` that is never used: zero, or an empty array
        (an array must be a buffer the caller can own and free), or an
        empty list (released unless a `return` replaced it)."""
        if isinstance(type_, kt.ListType):
            return self.empty_list(type_, node)
        if is_dict(type_):
            return self.empty_dict(type_, node)
        if is_set(type_):
            return self.empty_set(type_, node)
        if is_str(type_):
            return self.str_constant("", node)     # a literal: never freed
        if isinstance(type_, kt.ClassType):
            return self.none_of(type_, node)
        if isinstance(type_, kt.ArrayType):
            return self.allocate_array(type_, [self.constant(0, kt.i64, node)] * type_.ndim, node)
        return self.constant(0, type_, node)

    def has_exit(self, stmts) -> bool:
        """True when the statements can leave the current region early."""
        if contains_return(stmts):
            return True
        if self.mode.kind != "loop":
            return False
        return any(loop_exits(stmt, (ast.Break, ast.Continue)) for stmt in stmts)

    def fall_off_end(self, node):
        if self.mode.kind == "loop":
            self.finish_loop("continue", node)
            return
        result = self.return_type()
        if isinstance(result, kt.ClassType) and result.optional:
            self.release_all_containers(node)       # the implicit `return None`
            self.finish_return(self.none_of(result, node), node)
            return
        if result is not None:
            raise self.missed(node, f"`{self.func.name}` may end without returning a value")
        self.release_all_containers(node)
        self.finish_return(None, node)

    def return_value(self, stmt: ast.Return):
        if stmt.value is None or (isinstance(stmt.value, ast.Constant)
                                  and stmt.value.value is None
                                  and not isinstance(self.return_type(), kt.ClassType)):
            return None
        if isinstance(stmt.value, ast.Tuple):
            value = tuple_value([self.returned_array(self.expression(e), e)
                                 for e in stmt.value.elts])
        else:
            value = self.returned_array(self.expression(stmt.value), stmt)
        return self.convert(value, self.return_type(), stmt)

    def returned_array(self, value: Value, node) -> Value:
        return self.materialize(value, node) if value.lazy is not None else value

    def exit_return(self, stmt: ast.Return):
        value = self.return_value(stmt)
        moved = None
        if value is not None and is_counted(value.type):
            value, moved = self.returned_container(value, stmt)   # a new reference
        elif value is not None and holds_counted_elements(value.type):
            # `return a, n`: a new reference per instance element (the names'
            # own are released with the function's).
            value = tuple_value([self.own(e, stmt) if is_counted(e.type) else e
                                 for e in value.elements])
        if self.mode.kind == "loop":
            self.finish_loop("return", stmt, value, moved)
        else:
            self.release_all_containers(stmt, moved)
            self.finish_return(value, stmt)

    def finish_return(self, value: Value | None, node):
        """Leaves the function (function mode) with `value`."""
        values = flatten(value)
        if self.mode.in_branch:
            self.yield_values(values, node)
            return
        self.builder.func_return([self.to_abi(element, node) for element in values],
                                 self.loc(node))

    def finish_loop(self, kind: str, node, value: Value | None = None, moved=None):
        """Ends one path through a loop body: continue, break or return
        (`moved`: the body's name whose list became the returned value)."""
        frame = self.mode
        if kind != "continue" and not frame.has_flags:
            raise self.missed(node, f"`{kind}` in a loop without exit flags")
        values = []
        if frame.next_counter is not None:
            values += frame.next_counter     # the counter (a dict walk's: slot and count)
        for name in frame.carried:
            if name not in self.symbols:
                raise self.missed(node, f"variable `{name}` is not defined on every path "
                                        "through the loop body")
            values.append(self.symbols[name])
        self.release_loop_locals(node, moved)
        if frame.has_flags:
            values.append(self.constant(kind in ("break", "return"), kt.boolean, node))
            values.append(self.constant(kind == "return", kt.boolean, node))
            if frame.return_value is not None:
                if value is not None:
                    # The empty list the state held until this return.
                    for previous in frame.return_value:
                        if is_counted(previous.type):
                            self.release(previous, node)
                values += flatten(value) if value is not None else frame.return_value
        self.yield_values(values, node)

    def yield_values(self, values, node):
        self.builder.scf_yield([v.ir for v in values], self.loc(node))

    def exit_types(self):
        if self.mode.kind == "loop":
            return self.mode.types
        result = self.return_type()
        if result is None:
            return []
        return list(result.elements) if isinstance(result, kt.TupleType) else [result]

    def finish_with(self, results, node):
        """Leaves the current region with the results of an exiting `if`."""
        if self.mode.kind == "loop":
            self.yield_values(results, node)
        elif len(results) == 1:
            self.finish_return(results[0], node)
        elif len(results) > 1:
            self.finish_return(tuple_value(results), node)
        else:
            self.finish_return(None, node)

    def emit_exiting_if(self, stmt: ast.If, rest):
        condition = self.truthy(self.expression(stmt.test), stmt.test)
        branch_mode = self.mode.for_branch()
        then_region, _ = self.region(lambda: self.narrowed(stmt, stmt.body + rest, lambda: (
            self.generate_body(stmt.body + rest, terminal=True))), mode=branch_mode)
        else_region, _ = self.region(lambda: self.generate_body(stmt.orelse + rest,
                                                                terminal=True),
                                     mode=branch_mode)
        self.emit_if_with_exit_results(condition, then_region, else_region, stmt, branch_mode)

    def emit_if_with_exit_results(self, condition, then_region, else_region, node,
                                  branch_mode=None):
        results = self.scf_if(condition, self.exit_types(), then_region, else_region, node)
        self.finish_with(results, node)

    def emit_conditional_return(self, returned: Value, value: Value | None, rest, node):
        """After a loop that may have returned: return its value, or go on."""
        branch_mode = self.mode.for_branch()

        def returning():
            if self.mode.kind == "loop":
                self.finish_loop("return", node, value)
            else:
                self.release_all_containers(node)
                self.finish_return(value, node)

        endless = isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and \
            bool(node.test.value) and not loop_exits(node)

        def after_loop():
            if value is not None and is_counted(value.type):
                self.release(value, node)       # the empty container no return replaced
            if endless:
                self.exit_unreachable(node)  # only a return leaves `while True`
            else:
                self.generate_body(rest, terminal=True)

        then_region, _ = self.region(returning, mode=branch_mode)
        else_region, _ = self.region(after_loop, mode=branch_mode)
        self.emit_if_with_exit_results(returned, then_region, else_region, node)

    def statement(self, stmt):
        method = getattr(self, "stmt_" + type(stmt).__name__, None)
        if method is None:
            raise self.missed(stmt, f"statement `{type(stmt).__name__}`")
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Expr)):
            self.fuse_statement_reductions(stmt)        # reductions.py
        try:
            return method(stmt)
        finally:
            self.fused_reductions = {}

    def stmt_Import(self, stmt):
        pass            # numpy, math or kiln (the subset check): bound module-wide

    stmt_ImportFrom = stmt_Import

    def stmt_Pass(self, stmt):
        pass

    def stmt_Expr(self, stmt):
        if isinstance(stmt.value, ast.Constant):
            return
        self.release_unused(self.expression(stmt.value), stmt)

    def stmt_Assign(self, stmt):
        if isinstance(stmt.value, ast.Lambda):
            return          # inlined at each call (typed.inlined)
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Tuple, ast.List)):
            self.unpack(stmt.targets[0].elts, stmt.value, stmt)
            return
        if len(stmt.targets) == 1 and self.masked_assignment(stmt.targets[0], stmt.value, stmt):
            return                                  # `x[m] = x[m]**2 + y[m]` in one pass
        value = self.expression(stmt.value)
        if value.lazy is not None and len(stmt.targets) > 1:
            # `a = b = x + 1`, `c[1:, 0] = c[0, 1:] = v`: computed once, into
            # one new array every target gets
            value = self.materialize(value, stmt)
        for target in stmt.targets:
            if isinstance(value.type, kt.TupleType) and isinstance(target, ast.Subscript) and \
                    self.is_view(target):
                # `row[:] = 0, 0` (inference allowed it): numpy's np.array((0, 0)).
                self.assign(target, self.numbers_array(
                    value.elements, rules.numbers_array_dtype(value.elements), stmt), stmt)
            else:
                self.assign(target, value, stmt)
            if value.owned and isinstance(target, ast.Name):
                # `a = b = [1]`: the first name took the new list; the next
                # ones share it (a borrowed read of the first).
                value = Value(value.ir, value.type)

    def unpack(self, targets, source, node):
        # Every right-hand value is computed before any name is bound, so
        # `a, b = b, a` swaps.
        if isinstance(source, (ast.Tuple, ast.List)):
            # Array expressions computed now, whole: a later target may be
            # an array an earlier value reads (`x[:], y[:] = y * 2, x * 2`).
            values = [self.materialize(v, node) if v.lazy is not None else v
                      for v in (self.expression(e) for e in source.elts)]
            # `a, b = b, a`: each list held before any name is rebound
            # (binding `a` first must not free the list `b` takes).
            values = [self.own(v, node) if is_counted(v.type) else v
                      for v in values]
        else:
            value = self.expression(source)
            if isinstance(value.type, kt.ArrayType):
                values = self.array_elements(value, len(targets), node)
            else:
                values = value.elements
        for target, value in zip(targets, values):
            self.assign(target, value, node)

    def stmt_Raise(self, stmt):
        """`raise E`, `raise E("text")`, `raise E(f"bad n {n} ({flag})")`: the
        f-string's values evaluated in order, an int shown by the error
        record (`{}`), a bool by one check per combination of the bools'
        values, each with its text (the last always raises)."""
        exc = stmt.exc
        call = exc if isinstance(exc, ast.Call) else None
        kind = raised_kind(self.context, exc)
        pieces, ints, flags = [], [], []
        for part in message_parts(call):
            if isinstance(part, str):
                pieces.append(part.replace("{}", "{ }"))
                continue
            value = self.expression(part.value)
            if value.type.is_bool:
                pieces.append(len(flags))
                flags.append(value)
            else:
                pieces.append("{}")
                ints.append(self.convert(value, kt.i64, part.value))
        combinations = list(itertools.product((True, False), repeat=len(flags)))
        for position, combination in enumerate(combinations):
            text = "".join(str(combination[p]) if isinstance(p, int) else p for p in pieces)
            # Raised unless the check holds: when the bools are these (the
            # last combination is the only one left: always).
            differs = self.constant(False, kt.boolean, stmt)
            if position < len(combinations) - 1:
                for flag, wanted in zip(flags, combination):
                    differs = self.arith("ori", differs, self.negate(flag, stmt) if wanted
                                         else flag, stmt)
            self.check(differs, kind, text, ints, stmt)

    def stmt_Assert(self, stmt):
        message = stmt.msg.value if stmt.msg is not None else ""
        condition = self.truthy(self.expression(stmt.test), stmt.test)
        self.check(condition, "AssertionError", message, [], stmt)

    def stmt_AnnAssign(self, stmt):
        if stmt.value is not None:
            self.assign(stmt.target, self.expression(stmt.value), stmt)

    def stmt_AugAssign(self, stmt):
        target = stmt.target
        if isinstance(target, ast.Subscript) and self.is_dict_valued(target.value):
            self.augmented_dict_store(stmt)                 # `d[k] += v`
            return
        if isinstance(target, ast.Subscript) and self.is_list_valued(target.value):
            self.augmented_list_store(stmt)                 # `xs[i] += v`
            return
        if isinstance(target, ast.Name) and isinstance(self.variable_type(target.id),
                                                       kt.ListType):
            self.augmented_list(stmt)                       # `xs += ys`, `xs *= n`
            return
        if isinstance(target, ast.Attribute) and self.is_list_valued(target):
            self.augmented_list(stmt)                       # `o.items += ys`
            return
        if isinstance(target, ast.Name) and is_set(self.variable_type(target.id)):
            self.augmented_set(stmt)                        # `s |= t`, `s -= t`, ...
            return
        if isinstance(target, ast.Name) and is_str(self.variable_type(target.id)):
            self.augmented_str(stmt)                        # `s += t`, `s *= n`
            return
        if isinstance(target, ast.Subscript) and self.is_array_index(target.slice):
            if self.masked_update(target, stmt.op, stmt.value, stmt):
                return                                      # `x[mask] += 1.0` in one pass
            current = self.indexed_by_array(target)            # `x[mask] += v`
            shape = current.lazy.shape
            # numpy gathers x[mask] before `v` runs (A3: a helper may write x).
            current = self.before_module_call(current, [stmt.value], stmt)
            self.in_place_output = shape
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.in_place_output = None
            self.store_through_array_index(target, self.lazy_array(current.type, self.cast_to(
                result.lazy, current.type.dtype, stmt)), stmt)
            return
        if self.is_view(target):
            # `x += y`, `x[1:] *= 2`: in place, through the target's view.
            view = self.expression(target)
            self.augmented_array_store(view, stmt.op, self.expression(stmt.value), stmt)
            return
        if isinstance(target, ast.Name):
            current = self.load_name(target)
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.assign(target, result, stmt)
            return
        if isinstance(target, ast.Attribute):
            current = self.expression(target)               # `o.x += v`
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.store_attribute(target, result, stmt)
            return
        array, indices = self.subscript_parts(target)
        current = self.load_element(array, indices, target)
        result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        self.store_element(array, indices, result, target)

    def assign(self, target, value: Value, node):
        if isinstance(target, ast.Subscript) and self.is_instance_valued(target.value):
            self.instance_store(target, value, node)        # `o[k] = v`: class_protocols.py
            return
        if isinstance(target, ast.Subscript) and self.is_dict_valued(target.value):
            self.dict_store(target, value, node)            # `d[k] = v`
            return
        if isinstance(target, ast.Subscript) and self.is_list_valued(target.value):
            self.list_store(target, value, node)            # `xs[i] = v`
            return
        if isinstance(target, ast.Name) and is_counted(self.variable_type(target.id)):
            if isinstance(self.variable_type(target.id), kt.ClassType):
                value = self.convert(value, self.variable_type(target.id), node)
            self.bind_container(target.id, value, node)
            return
        if isinstance(target, ast.Name) and holds_counted_elements(self.variable_type(target.id)):
            self.bind_tuple(target.id, self.convert(value, self.variable_type(target.id), node),
                            node)
            return
        if isinstance(target, ast.Attribute):
            self.store_attribute(target, value, node)       # `o.x = v`: class_lowering.py
            return
        if isinstance(target, ast.Subscript) and self.is_array_index(target.slice):
            self.store_through_array_index(target, value, node)
            return
        if isinstance(target, ast.Subscript) and self.is_view(target):
            self.array_store(self.expression(target), value, node)
            return
        if value.lazy is not None:
            value = self.materialize(value, node)
        if isinstance(target, ast.Subscript):
            array, indices = self.subscript_parts(target)
            self.store_element(array, indices, value, target)
            return
        name = target.id
        variable = self.variable_type(name)
        if isinstance(variable, kt.ArrayType):
            converted = Value(value.ir, value.type, origins=self.array_origins(name))
        else:
            converted = self.convert(value, variable, node)
            if isinstance(variable, kt.ScalarType):
                converted = Value(converted.ir, converted.type, nonneg=converted.nonneg)
            elif isinstance(variable, kt.TupleType):
                converted = self.tuple_variable(converted)
            elif is_range(variable):
                converted = self.range_variable(converted)
            else:
                converted = Value(converted.ir, converted.type,
                                  origins=self.array_origins(name))
        self.symbols[name] = converted
        self.maybe_undefined.discard(name)

    def array_origins(self, name) -> frozenset:
        """Everything variable `name` may view over the whole function:
        loop-carried and merged values must not lose an alias (frees depend
        on it). Inference collects it."""
        return self.typed.variable_origins.get(name, frozenset())

    def load_name(self, node: ast.Name) -> Value:
        name = node.id
        if name in self.symbols:
            return self.symbols[name]
        if name in self.maybe_undefined or name in self.typed.variables or \
                name not in self.module.constants:
            raise self.missed(node, f"variable `{name}` is not bound here")
        return self.module_constant(name, node)     # constant_lowering.py

    def carried_after(self, before, branches):
        """Variables an `if` must yield: those some branch rebinds. A name
        new in only some branches is undefined after the `if`."""
        carried = []
        for name in dict.fromkeys(n for b in branches for n in b):
            if not all(name in b for b in branches):
                self.maybe_undefined.add(name)
            elif any(b[name] is not before.get(name) for b in branches):
                carried.append(name)
        return carried

    def stmt_If(self, stmt):
        condition = self.truthy(self.expression(stmt.test), stmt.test)
        before = dict(self.symbols)
        then_region, then_symbols = self.region(lambda: self.narrowed(
            stmt, stmt.body, lambda: self.generate_body(stmt.body)))
        then_undefined = self.region_undefined
        else_region, else_symbols = self.region(lambda: self.generate_body(stmt.orelse))
        self.maybe_undefined |= then_undefined | self.region_undefined
        carried = self.carried_after(before, [then_symbols, else_symbols])
        for region, symbols in ((then_region, then_symbols), (else_region, else_symbols)):
            self.release_branch_locals(region, symbols, before, carried, stmt)
        if not carried:
            self.scf_if(condition, [], then_region, else_region, stmt)
            return
        for region, symbols in ((then_region, then_symbols), (else_region, else_symbols)):
            with self.builder.at_end(region.block):
                self.yield_values([symbols[n] for n in carried], stmt)
        results = self.scf_if(condition, [then_symbols[n].type for n in carried], then_region,
                              else_region, stmt)
        self.bind_results(results, carried, [
            Value(None, then_symbols[n].type, origins=then_symbols[n].origins
                  | else_symbols[n].origins) for n in carried])

    def bind_results(self, results, carried, exemplars):
        for result, variable, exemplar in zip(results, carried, exemplars):
            origins = self.array_origins(variable) if isinstance(
                exemplar.type, kt.ArrayType) else exemplar.origins
            self.symbols[variable] = Value(result.ir, exemplar.type, origins=origins)
            self.maybe_undefined.discard(variable)

    def loop_carried(self, loop) -> list:
        """The variables `loop` carries (bound before it, rebound in it)."""
        return self.typed.loop_carried[loop]

    def range_bounds(self, call):
        """(lower, upper, step, normalized) of a range() call
        (range_lowering.counted_bounds)."""
        return self.counted_bounds(*self.range_arguments(call), call)

    def bind_loop_target(self, stmt, counter: Value, normalized):
        target = stmt.target.id
        value = self.counted_element(counter, normalized, stmt)
        # The target may be a wider variable (a float assigned elsewhere).
        value = self.convert(value, self.variable_type(target), stmt)
        self.symbols[target] = value
        self.maybe_undefined.discard(target)

    def loop_state(self, stmt, carried, with_counter):
        """Loop mode for a body, and the initial state tuple (while form)."""
        has_flags = bool(loop_exits(stmt)) or contains_return(stmt.body)
        types = [self.symbols[n].type for n in carried]
        return_values = None
        if has_flags and contains_return(stmt.body):
            result = self.return_type()
            if result is not None:
                elements = result.elements if isinstance(result, kt.TupleType) else [result]
                # Until a return sets them: zeros, and for an array an empty
                # one (freed when the loop ends without returning it).
                return_values = [self.empty_placeholder(t, stmt) for t in elements]
        mode = ExitMode("loop", carried=carried, has_flags=has_flags,
                        scope=frozenset(self.symbols) | {getattr(stmt, "target", None) and
                                                         getattr(stmt.target, "id", None)},
                        types=[kt.i64] * int(with_counter) + types + (
                            [kt.boolean, kt.boolean] if has_flags else []) + (
                            [v.type for v in return_values] if return_values else []))
        return mode, return_values

    def stmt_For(self, stmt):
        parallel = self.typed.parallel_loops.get(stmt)
        if parallel is not None:
            return self.emit_parallel_loop(stmt, parallel)
        carried = self.loop_carried(stmt)
        over_list = self.list_loop_range(stmt)
        if over_list is not None:       # re-reads the list's length at every step
            return self.emit_loop_as_while(stmt, carried, over_list)
        walk = self.dict_walk_of(stmt)
        if walk is not None:            # the slots of a dict, in insertion order
            return self.emit_loop_as_while(stmt, carried, walk)
        lower, upper, step, normalized = self.range_bounds(stmt.iter)
        if loop_exits(stmt) or contains_return(stmt.body):
            return self.emit_loop_as_while(stmt, carried, (lower, upper, step, normalized))
        initial = [self.symbols[n] for n in carried]
        results = self.emit_counted_loop(stmt, lower, upper, step, normalized, carried, initial)
        self.mark_loop_locals(stmt, carried)
        if carried:
            self.bind_results(results, carried, initial)
        return None, None

    def emit_counted_loop(self, stmt, lower, upper, step, normalized, carried, initial,
                          extra_attributes=None) -> list:
        """The scf.for of a `for` loop without exits, its carried variables
        entering as `initial`; their values after it."""
        mode, _ = self.loop_state(stmt, carried, with_counter=False)
        nonneg = bool(lower.nonneg) and normalized is None

        def bind(arguments):
            for name, value, argument in zip(carried, initial, arguments[1:]):
                self.symbols[name] = Value(argument, value.type, origins=self.array_origins(name))
            self.bind_loop_target(stmt, Value(arguments[0], kt.i64, nonneg=nonneg), normalized)

        body, _ = self.region(lambda: self.generate_body(stmt.body, terminal=True), bind,
                              mode=mode, argument_types=[kt.i64] + [v.type for v in initial])
        attributes = dict(extra_attributes or {})
        if carried:
            # Names of the carried variables, for kiln-vectorize's remarks
            # ("loop-carried dependence on `s`").
            attributes["kiln.carried"] = ir.array_attr([ir.string_attr(n) for n in carried])
        results = self.builder.scf_for(lower.ir, upper.ir, step.ir, [v.ir for v in initial],
                                       body, self.loc(stmt), attributes or None)
        return [Value(r, v.type) for r, v in zip(results, initial)]

    def mark_loop_locals(self, stmt, carried):
        names = assigned_names(stmt.body)
        if isinstance(stmt, ast.For):
            names.append(stmt.target.id)
        for name in names:
            if name not in carried:
                self.maybe_undefined.add(name)

    def stmt_While(self, stmt):
        carried = self.loop_carried(stmt)
        return self.emit_loop_as_while(stmt, carried, None)

    def emit_loop_as_while(self, stmt, carried, range_info):
        """scf.while for `while` loops and for `for` loops that can exit
        early. The state is (counter?, carried..., done?, returned?, value?)."""
        walk = range_info if isinstance(range_info, DictWalk) else None
        # The counters the state starts with: a range's, or a dict walk's
        # slot and count of entries visited.
        with_counter = 2 if walk is not None else int(range_info is not None)
        mode, return_value = self.loop_state(stmt, carried, with_counter)
        initial = [self.symbols[n] for n in carried]
        if walk is not None:
            initial = self.start_walk(walk, stmt) + initial
        elif with_counter:
            lower, upper, step, normalized = range_info
            initial = [lower] + initial
        if mode.has_flags:
            false = self.constant(False, kt.boolean, stmt)
            initial += [false, false]
            if return_value is not None:
                initial += return_value
        types = [v.type for v in initial]
        offset = with_counter

        def bind(arguments):
            for index, name in enumerate(carried):
                exemplar = initial[offset + index]
                self.symbols[name] = Value(arguments[offset + index], exemplar.type,
                                           origins=self.array_origins(name))

        def build_condition():
            arguments = self.builder.block.arguments
            go = None
            forwarded = list(arguments)
            if walk is not None:
                running = self.negate(Value(arguments[offset + len(carried)], kt.boolean),
                                      stmt) if mode.has_flags else None
                go, slot = self.walk_condition(walk, arguments, running, stmt)
                forwarded[0] = slot.ir
            elif with_counter:
                bound = upper() if callable(upper) else upper
                go = self.cmpi("slt", Value(arguments[0], kt.i64), bound, stmt)
            if mode.has_flags:
                done = Value(arguments[offset + len(carried)], kt.boolean)
                running = self.negate(done, stmt)
                go = running if go is None else self.arith("andi", go, running, stmt)
            if isinstance(stmt, ast.While):
                if go is None:
                    go = self.truthy(self.expression(stmt.test), stmt.test)
                else:
                    # After a break the condition must not run (it may raise).
                    test, _ = self.region(lambda: self.yield_values(
                        [self.truthy(self.expression(stmt.test), stmt.test)], stmt))
                    false = self.constant(False, kt.boolean, stmt)
                    skip, _ = self.region(lambda: self.yield_values([false], stmt))
                    [go] = self.scf_if(go, [kt.boolean], test, skip, stmt)
            self.builder.scf_condition(go.ir, forwarded, self.loc(stmt))

        condition, _ = self.region(build_condition, bind, argument_types=types)

        def bind_body(arguments):
            bind(arguments)
            if walk is not None:
                mode.next_counter = self.bind_walk(walk, arguments, stmt)
            elif with_counter:
                counter = Value(arguments[0], kt.i64, nonneg=bool(lower.nonneg)
                                and normalized is None)
                mode.next_counter = [self.arith("addi", counter, step, stmt)]
                self.bind_loop_target(stmt, counter, normalized)
            if return_value is not None:
                count = len(return_value)
                mode.return_value = [Value(argument, v.type) for argument, v in
                                     zip(arguments[-count:], return_value)]

        body, _ = self.region(lambda: self.generate_body(stmt.body, terminal=True),
                              bind_body, mode=mode, argument_types=types)
        self.mark_loop_locals(stmt, carried)
        results = [Value(r, t) for r, t in zip(
            self.builder.scf_while([v.ir for v in initial], condition, body, self.loc(stmt)),
            types)]

        for index, name in enumerate(carried):
            exemplar = initial[offset + index]
            self.symbols[name] = Value(results[offset + index].ir, exemplar.type,
                                       origins=self.array_origins(name))
            self.maybe_undefined.discard(name)
        if mode.has_flags and contains_return(stmt.body):
            returned = results[offset + len(carried) + 1]
            value = None
            if return_value is not None:
                count = len(return_value)
                values = results[len(initial) - count:]
                value = values[0] if count == 1 else tuple_value(values)
            return returned, value
        return None, None
