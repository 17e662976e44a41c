"""Type inference of statements: blocks and their exits (return, raise, break),
assignments and unpacking, augmented assignments, if, for and while with the
variables they carry. A mixin of type_inference.FunctionTyping."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..errors import KilnCompileError
from .. import typing_rules as rules
from .typed_values import MixedItems, TypedValue, _Abandon
from . import parallel_loops
from ..frontend.subset import RAISABLE, RAISED_MESSAGE, SUPPORTED_BINOPS, message_parts, raised_kind
from ..frontend.desugar import is_loop_iterable, literal_iterable, unsupported_iteration
from ..typing_rules import UNKNOWN, display, is_unknown
from .typed_tree import (ExitFrame, VariableType, assigned_names, contains_return, is_scalar_type,
                         loop_exits)
from .list_typing import holds_items, is_list, named
from .dict_typing import is_dict, is_dict_like, walked_dict
from .typed_tree import container_noun, is_container, is_range, is_set, is_str
from .class_typing import is_instance_like


# The ints a raised f-string may show (each an error record's `{}`, well
# below runtime/kiln_abi.h's KILN_ERROR_MAX_ARGS and its message buffer),
# and the bools (each one doubles the checks code generation emits, one per
# combination of their values).
MAX_MESSAGE_INTS = 12
MAX_MESSAGE_BOOLS = 3


class StatementTyping:
    def body(self, stmts, terminal=False) -> bool:
        """Types a statement list in the order code generation emits it;
        True when it ended in an exit (return, break, continue, raise)."""
        for position, stmt in enumerate(stmts):
            rest = stmts[position + 1:]
            if isinstance(stmt, ast.Return):
                self.guarded(self.exit_return, stmt)
                return True
            if isinstance(stmt, ast.Raise) and terminal:
                self.statement(stmt)
                self.guarded(self.exit_unreachable, stmt)
                return True
            if isinstance(stmt, (ast.Break, ast.Continue)):
                self.guarded(self.finish_loop, "break" if isinstance(stmt, ast.Break)
                             else "continue", stmt)
                return True
            if isinstance(stmt, ast.If) and self.has_exit([stmt]):
                self.exiting_if(stmt, rest)
                return True
            if isinstance(stmt, (ast.For, ast.While)) and contains_return(stmt.body):
                self.statement(stmt)
                self.after_returning_loop(stmt, rest)
                return True
            self.statement(stmt)
        if terminal:
            self.guarded(self.fall_off_end, stmts[-1] if stmts else self.func)
            return True
        return False

    def region(self, build, bind=None, frame=None):
        """Types `build` in a nested scope (a branch, a loop body, the lazy
        operand of `and`); returns its symbols. Arrays may be allocated
        anywhere: kilnc frees each where it dies."""
        saved_symbols, saved_undefined = self.symbols, set(self.maybe_undefined)
        saved_frame = self.frame
        self.symbols = dict(saved_symbols)
        if frame is not None:
            self.frame = frame
        try:
            if bind:
                bind()
            build()
        except _Abandon:
            pass
        finally:
            symbols = self.symbols
            self.symbols = saved_symbols
            self.region_undefined = self.maybe_undefined
            self.maybe_undefined = saved_undefined
            self.frame = saved_frame
        return symbols

    def has_exit(self, stmts) -> bool:
        if contains_return(stmts):
            return True
        return self.frame.kind == "loop" and any(
            loop_exits(stmt, (ast.Break, ast.Continue)) for stmt in stmts)

    def statement(self, stmt) -> None:
        method = getattr(self, "stmt_" + type(stmt).__name__, None)
        try:
            if method is None:
                self.fail(stmt, f"statement `{type(stmt).__name__}` is not supported")
            method(stmt)
        except _Abandon as abandoned:
            if isinstance(abandoned, MixedItems):
                self.report(stmt, abandoned.message)
            # An assignment whose value is not known yet (it reads a dict
            # typed by stores later in this round) still binds its names:
            # their uses wait for the next round, rather than being "used
            # before it is assigned" (fuzzer S4, S5).
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.For)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id not in self.symbols:
                            self.symbols[name.id] = TypedValue(UNKNOWN)
                            self.maybe_undefined.discard(name.id)

    # ------------------------------------------------------------ exits
    def exit_return(self, stmt: ast.Return) -> None:
        value = self.return_value(stmt)
        if self.frame.kind == "loop" and value is not None and is_container(value.type):
            # The loop state holds a new empty list or dict until a return
            # sets it (kiln.list.new, kiln.dict.new: MemoryError).
            self.raises = True
        if value is not None:
            parameters = {p.name for p in self.params if isinstance(p.type, kt.ArrayType)}
            elements = value.elements if isinstance(value.type, kt.TupleType) else [value]
            for position, element in enumerate(elements):
                if isinstance(element, TypedValue) and isinstance(element.type, kt.ArrayType):
                    self.returned_parameters.setdefault(position, set()).update(
                        element.origins & parameters)
        if self.frame.kind == "loop":
            self.finish_loop("return", stmt)

    def return_value(self, stmt: ast.Return):
        if stmt.value is not None and isinstance(self.expression(stmt.value).type, kt.DTypeValue):
            self.fail(stmt, "returning a dtype is not supported; return an array of it "
                            "or pass the dtype on")
        result = self.return_type()
        if stmt.value is None or (isinstance(stmt.value, ast.Constant)
                                  and stmt.value.value is None
                                  and not is_instance_like(result)):
            if result is not None and not is_unknown(result):
                self.fail(stmt, f"`{self.func.name}` returns None here but a value elsewhere")
            return None
        if isinstance(stmt.value, ast.Tuple):
            self.array_consumers.update(stmt.value.elts)
            elements = [self.returned_array(self.expression(e), e) for e in stmt.value.elts]
            for element, element_node in zip(elements, stmt.value.elts):
                if isinstance(element.type, kt.TupleType):
                    self.fail(element_node, "a tuple inside a returned tuple is not supported "
                                            "yet; return its elements one by one (`n, m = a.shape` "
                                            "and `return a, n, m`)")
                if is_container(element.type) or is_str(element.type):
                    what = "str" if is_str(element.type) else container_noun(element.type)
                    self.fail(element_node, f"returning a {what} in a tuple is not supported "
                                            "yet")
            value = self.tuple_value(elements)
            seen = set()
            for element, element_node in zip(elements, stmt.value.elts):
                if isinstance(element.type, kt.ArrayType):
                    if seen & element.origins:
                        self.fail(element_node, "returning the same array twice in a tuple is "
                                                "not supported yet; return a copy")
                    seen |= element.origins
        else:
            self.array_consumers.add(stmt.value)
            value = self.returned_array(self.expression(stmt.value), stmt)
            self.refuse_range(value, stmt, "returning a range")
        if value.type is None:
            self.fail(stmt, "this call returns None; it has no value to return")
        if self.func.returns is not None:
            if self.return_annotation is None:
                self.fail(stmt, f"`{self.func.name}` is annotated -> None but returns a value")
            target = self.return_annotation
            if is_unknown(target):
                return None
            if is_scalar_type(target) and target.is_bool and not (
                    is_scalar_type(value.type) and value.type.is_bool):
                self.fail(stmt, f"`{self.func.name}` is annotated -> bool but returns "
                                f"{named(value.type)}")
        else:
            target = self.join(self.inferred_return, value, self.func, "the result")
            if target != self.inferred_return:
                self.inferred_return = target
                self.changed = True
            target = target.type
        if holds_items(value.type) or holds_items(target):
            value = self.settle_list(stmt.value, value, target, stmt)      # lists and sets
        elif is_dict_like(value.type) or is_dict(target):
            value = self.settle_dict(stmt.value, value, target, stmt)
        return self.convert(value, target, stmt)

    def returned_array(self, value: TypedValue, node) -> TypedValue:
        """A returned value, or an element of a returned tuple: an array
        expression becomes a new array; an array may also be a parameter or
        a view of one (the caller gets a view of its argument)."""
        self.absorb(value)
        if value.fresh:
            value = self.new_array(value, node)
        return value

    def exit_unreachable(self, node) -> None:
        """The end of a region never reached (after a raise, an endless loop)."""
        if self.frame.kind == "loop":
            self.finish_loop("continue", node)
            return
        result = self.return_type()
        if result is None or is_unknown(result):
            return

    def fall_off_end(self, node) -> None:
        if self.frame.kind == "loop":
            self.finish_loop("continue", node)
            return
        result = self.return_type()
        if result is None or is_unknown(result):
            return
        if isinstance(result, kt.ClassType) and result.optional:
            return          # an Optional instance: falling off the end returns None
        if self.func.returns is not None:
            self.fail(node, f"`{self.func.name}` may end without returning a value "
                            f"(it is annotated -> {result.display})")
        self.fail(self.func, f"`{self.func.name}` returns a value on some paths and None on "
                             "others")

    def finish_loop(self, kind: str, node) -> None:
        """One path through a loop body ends: its carried variables must be bound."""
        frame = self.frame
        if kind != "continue" and not frame.has_flags:
            self.fail(node, f"internal: `{kind}` in a loop without exit flags")
        for name in frame.carried:
            if name not in self.symbols:
                self.fail(node, f"variable `{name}` is not defined on every path through the "
                                "loop body")

    def exiting_if(self, stmt: ast.If, rest) -> None:
        """An `if` that can exit: the statements after it run in both branches."""
        self.truthy(self.expression(stmt.test), stmt.test, quiet=True)
        frame = self.frame.for_branch()
        self.region(lambda: self.narrowed(stmt, stmt.body + rest, lambda: self.body(
            stmt.body + rest, terminal=True)), frame=frame)
        self.region(lambda: self.body(stmt.orelse + rest, terminal=True), frame=frame)

    def after_returning_loop(self, loop, rest) -> None:
        """After a loop that may return: return its value, or go on."""
        frame = self.frame.for_branch()
        endless = isinstance(loop, ast.While) and isinstance(loop.test, ast.Constant) and \
            bool(loop.test.value) and not loop_exits(loop)

        def returning():
            if self.frame.kind == "loop":
                self.finish_loop("return", loop)

        def after():
            if endless:
                self.exit_unreachable(loop)     # only a return leaves `while True`
            else:
                self.body(rest, terminal=True)

        self.region(returning, frame=frame)
        self.region(after, frame=frame)

    # ------------------------------------------------- simple statements
    def stmt_Import(self, stmt):
        pass            # numpy, math or kiln (the subset check): bound module-wide

    stmt_ImportFrom = stmt_Import

    def stmt_Pass(self, stmt):
        pass

    def stmt_Expr(self, stmt):
        if isinstance(stmt.value, ast.Constant):
            return      # a docstring
        self.allow_none_value = True
        try:
            self.expression(stmt.value)
        finally:
            self.allow_none_value = False

    def stmt_Assign(self, stmt):
        if isinstance(stmt.value, ast.Lambda):      # the subset check: `name = lambda ...`
            self.lambdas[stmt.targets[0].id] = stmt.value
            return
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Tuple, ast.List)):
            self.unpack(stmt.targets[0].elts, stmt.value, stmt)
            return
        if len(stmt.targets) == 1 and is_loop_iterable(stmt.targets[0]):
            self.loop_iterable(stmt)
            return
        # `a = b = value`: the value is computed once; each target, left to
        # right, gets the same object (a new array shared by every name).
        self.array_consumers.add(stmt.value)
        value = self.expression(stmt.value)
        if value.fresh and len(stmt.targets) > 1:
            self.absorb(value)
            value = self.new_array(value, stmt)
        if holds_items(value.type) and len(stmt.targets) > 1:
            value = self.shared_list_value(stmt.targets, stmt.value, value, stmt)
        for target in stmt.targets:
            self.guarded(self.assign_one_target, target, value, stmt)

    def assign_one_target(self, target, value, stmt):
        if isinstance(value.type, kt.TupleType):
            if isinstance(target, ast.Subscript) and self.is_view_subscript(target):
                value = self.tuple_as_array(value, stmt)   # `row[:] = 0, 0`: np.array((0, 0))
            else:
                self.check_tuple_binding(value, stmt)
        self.assign(target, value, stmt, value_node=stmt.value)

    def loop_iterable(self, stmt) -> None:
        """The iterable of a `for` loop over an array (desugar.py): an
        array, or the loop is refused at the iterable."""
        what, value = literal_iterable(stmt.value), TypedValue(UNKNOWN)
        if what is None or isinstance(stmt.value, ast.Tuple):
            value = self.guarded(self.expression, stmt.value) or TypedValue(UNKNOWN)
            if isinstance(value.type, kt.TupleType):
                # `for v in (a, b, 1.0)`, `for n in x.shape`: indexed by the counter
                if self.guarded(self.tuple_iterable, value, stmt.value) is None:
                    value = TypedValue(UNKNOWN)
            what = None if is_unknown(value.type) or isinstance(
                value.type, (kt.ArrayType, kt.TupleType)) or is_container(
                value.type) or is_range(value.type) or is_str(value.type) else \
                display(value.type)
        if what is not None and isinstance(value.type, kt.ClassType):
            self.report(stmt.value, f"`for` over a {value.type.class_name} instance is not "
                                    "compiled: it calls `__iter__` (generators are not compiled) "
                                    "or `__getitem__` until IndexError; loop over a range and "
                                    "index the instance, or over a list it holds")
            value = TypedValue(UNKNOWN)
        elif what is not None:
            self.report(stmt.value, unsupported_iteration(what))
            value = TypedValue(UNKNOWN)
        self.guarded(self.assign, stmt.targets[0], value, stmt, stmt.value)

    def unpack(self, targets, source, node):
        # Every right-hand value is computed before any name is bound.
        if isinstance(source, (ast.Tuple, ast.List)):
            values = [self.expression(e) for e in source.elts]
            # `z, c = z0.copy(), c0 * 2`: each array expression is stored.
            self.array_consumers.update(source.elts)
        else:
            self.array_consumers.add(source)
            value = self.expression(source)
            self.absorb(value)
            if is_unknown(value.type):
                values = [value] * len(targets)
            elif isinstance(value.type, kt.ArrayType) and value.type.ndim == 1:
                # `dx, dy = p[i] - p[i - 1]`: numpy iterates the array.
                self.raises = True          # another number of elements
                values = [TypedValue(value.type.dtype) for _ in targets]
            elif is_list(value.type):
                self.fail(node, "unpacking a list is not supported yet; index it (`a = xs[0]`)")
            elif is_dict_like(value.type) or is_set(value.type):
                self.fail(node, f"unpacking a {container_noun(value.type)} is not supported "
                                "yet")
            elif not isinstance(value.type, kt.TupleType):
                self.fail(node, f"cannot unpack a {getattr(value.type, 'display', 'None')}")
            else:
                values = value.elements
        if len(values) != len(targets):
            self.fail(node, f"cannot unpack {len(values)} values into {len(targets)} targets")
        sources = source.elts if isinstance(source, (ast.Tuple, ast.List)) else \
            [None] * len(targets)
        for target, value, value_node in zip(targets, values, sources):
            if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
                self.fail(target, "nested or starred unpacking is not supported")
            self.guarded(self.assign, target, value, node, value_node)

    def stmt_Raise(self, stmt):
        self.exception_of(stmt.exc, stmt)
        self.raises = True

    def stmt_Assert(self, stmt):
        if stmt.msg is not None and not (isinstance(stmt.msg, ast.Constant)
                                         and isinstance(stmt.msg.value, str)):
            self.fail(stmt.msg, "an assert message must be a constant string")
        condition = self.truthy(self.expression(stmt.test), stmt.test)
        if condition.constant is not True:
            self.raises = True

    def exception_of(self, exc, node):
        call = exc if isinstance(exc, ast.Call) else None
        if raised_kind(self.context, exc) is None:
            self.fail(node, f"raising `{ast.unparse(exc) if exc else 'bare raise'}` is not "
                            f"supported; raise one of {RAISABLE}")
        parts = message_parts(call)
        if parts is None:
            self.fail(call, RAISED_MESSAGE)
        shown = [self.shown_in_message(p) for p in parts if isinstance(p, ast.FormattedValue)]
        if shown.count("int") > MAX_MESSAGE_INTS:
            self.fail(call, f"a raised exception's message shows at most {MAX_MESSAGE_INTS} ints")
        if shown.count("bool") > MAX_MESSAGE_BOOLS:
            self.fail(call, f"a raised exception's message shows at most {MAX_MESSAGE_BOOLS} "
                            "bools")

    def shown_in_message(self, part) -> str:
        """What an f-string's `{value}` in a raised message is: "int" (the
        error record's integers show it, in decimal as CPython's str()
        does) or "bool" (True or False); anything else is refused."""
        value = self.expression(part.value)
        self.absorb(value)
        if is_scalar_type(value.type) and value.type.is_bool:
            return "bool"
        if is_scalar_type(value.type) and value.type.is_int and value.type != kt.u64:
            self.convert(value, kt.i64, part.value)
            return "int"
        why = "CPython's repr of a float is not computed by compiled code yet; show it as " \
              "an int, or raise a constant message" if is_scalar_type(value.type) and \
            value.type.is_float else "the error record holds signed 64-bit ints, and a " \
            "kiln.u64 may be 2**63 or more" if value.type == kt.u64 else \
            "a raised message shows ints and bools"
        self.fail(part, f"`{{{ast.unparse(part.value)}}}` of {named(value.type)} in a raised "
                        f"exception's message is not supported: {why}")

    def stmt_AnnAssign(self, stmt):
        if isinstance(stmt.target, ast.Attribute) and stmt.value is not None and \
                self.context.classes:
            # `self.items: list[int] = []` in a method: the annotation
            # declared the field (frontend/classes.py read it); the
            # statement stores as `self.items = []` does.
            self.array_consumers.add(stmt.value)
            self.assign(stmt.target, self.expression(stmt.value), stmt, stmt.value)
            return
        if not isinstance(stmt.target, ast.Name):
            self.fail(stmt.target, "annotated assignment needs a plain name")
        try:
            declared = self.context.resolve_annotation(stmt.annotation)
        except KilnCompileError as error:
            for diagnostic in error.diagnostics:
                self.record(diagnostic)
            declared = UNKNOWN
        name = stmt.target.id
        previous = self.declared.get(name)
        if previous is not None and previous != declared and not is_unknown(declared):
            self.fail(stmt, f"variable `{name}` is declared {display(previous)} and "
                            f"{display(declared)}")
        self.declared[name] = declared
        self.var_types[name] = VariableType(declared)
        if stmt.value is not None:
            self.array_consumers.add(stmt.value)
            self.assign(stmt.target, self.expression(stmt.value), stmt, stmt.value)

    def stmt_AugAssign(self, stmt):
        target = stmt.target
        self.refuse_store_through_parts(target)
        if isinstance(target, ast.Subscript) and self.context.classes and \
                self.is_instance_expression(target.value):
            self.refuse_instance_augmented_store(target)
        if isinstance(target, ast.Subscript) and self.is_dict_expression(target.value):
            self.augmented_dict_store(stmt)             # `d[k] += v`
            return
        if isinstance(target, ast.Name) and self.is_dict_expression(target):
            self.fail(stmt, f"`{ast.unparse(stmt)}` is not supported for dicts yet "
                            "(d.update(e) is)")
        if isinstance(target, ast.Subscript) and self.is_set_expression(target.value):
            self.refuse_set_store(target)
        if isinstance(target, ast.Name) and self.is_set_expression(target):
            self.augmented_set(stmt, self.load_name(target))   # `s |= t`, `s -= t`, ...
            return
        if isinstance(target, ast.Subscript) and self.is_list_expression(target.value):
            self.augmented_list_store(stmt)             # `xs[i] += v`
            return
        if isinstance(target, ast.Subscript) and self.is_str_expression(target.value):
            self.refuse_str_store(target)
        if isinstance(target, ast.Name) and self.is_str_expression(target):
            self.augmented_str(stmt, self.load_name(target))      # `s += t`, `s *= n`
            return
        if isinstance(target, ast.Name) and self.is_list_expression(target):
            self.augmented_list(stmt, self.load_name(target))     # `xs += ys`, `xs *= n`
            return
        if isinstance(target, ast.Attribute) and self.context.classes and \
                self.is_list_expression(target):
            # `o.items += ys`, `o.items *= n`: the field's list changed in
            # place (storing it back into the field changes nothing)
            self.augmented_list(stmt, self.expression(target))
            return
        if isinstance(target, ast.Subscript):
            self.expand_ellipsis(target)
        self.array_consumers.add(stmt.value)
        if isinstance(target, ast.Subscript) and self.is_array_index(target.slice):
            # `x[mask] += v`: numpy reads x[mask] (a new array), adds in place
            # (same_kind), and stores it back through the index.
            self.array_consumers.add(target)
            current = self.before_module_call(self.expression(target), [stmt.value], stmt)
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.values[stmt] = result
            self.array_consumers.add(stmt)
            if isinstance(result.type, kt.ArrayType):
                if not rules.same_kind_cast(result.type.dtype, current.type.dtype):
                    self.fail(stmt, f"cannot cast the result of "
                                    f"`{SUPPORTED_BINOPS[type(stmt.op)]}=` from "
                                    f"{result.type.dtype.numpy_name} to "
                                    f"{current.type.dtype.numpy_name} (numpy's same_kind rule "
                                    "for in-place operators)")
                if result.type.ndim != 1:
                    self.fail(stmt, "the value does not fit the selected elements")
            self.store_through_array_index(target, TypedValue(current.type), stmt)
            return
        if self.is_array_target(target):
            self.augmented_array_store(stmt)
            return
        if isinstance(target, ast.Name):
            current = self.load_name(target)
            value = self.expression(stmt.value)
            if is_scalar_type(current.type) and isinstance(value.type, kt.ArrayType):
                # `total += a[i]` of a 2-D `a`: numpy would make `total` an array
                hint = f"; `{ast.unparse(stmt.value)}` is a row: index every axis " \
                       f"or reduce it (`{ast.unparse(stmt.value)}.sum()`)" \
                    if isinstance(stmt.value, ast.Subscript) else ""
                self.fail(stmt, f"`{target.id}` is a {display(current.type)}, and "
                                f"`{ast.unparse(stmt)}` would make it a "
                                f"{display(value.type)} array{hint}")
            result = self.binary(stmt.op, current, value, stmt)
            self.values[stmt] = result      # `x += v`: the operation's type, for code generation
            self.assign(target, result, stmt)
            return
        if isinstance(target, ast.Subscript):
            array = self.subscript_parts(target)
            current = TypedValue(array.type.dtype)
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.values[stmt] = result
            self.store_element(array, result, target)
            return
        if isinstance(target, ast.Attribute) and self.context.classes:
            # `o.x += v`: o evaluated once in Python; here o is read twice,
            # which is the same unless o's expression has effects.
            current = self.expression(target)
            result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
            self.values[stmt] = result
            self.store_attribute(target, result, stmt)
            return
        self.fail(target, f"cannot assign to `{ast.unparse(target)}`")

    # ------------------------------------------------------------ names
    def refuse_store_through_parts(self, target) -> None:
        """`z.real[i] = x`: numpy writes into z through the view; Kiln reads
        `.real` as a new array, so such a store would be lost: refused."""
        base = target
        while isinstance(base, ast.Subscript):
            base = base.value
        if base is not target and isinstance(base, ast.Attribute) and \
                base.attr in ("real", "imag"):
            self.fail(target, f"writing through `.{base.attr}` is not supported yet; store "
                              "into the array itself (whole complex values)")

    def assign(self, target, value: TypedValue, node, value_node=None):
        """`target = value`; `value_node` is the expression of the value
        when it has one (`[]` and new lists take the target's type)."""
        self.refuse_store_through_parts(target)
        if isinstance(target, ast.Subscript) and self.context.classes and \
                self.is_instance_expression(target.value):
            self.instance_store(target, value, node)    # `o[k] = v`: class_protocols.py
            return
        if isinstance(target, ast.Subscript) and self.is_dict_expression(target.value):
            self.dict_store(target, value, node)        # `d[k] = v`
            return
        if isinstance(target, ast.Subscript) and self.is_list_expression(target.value):
            self.list_store(target, value, node)        # `xs[i] = v`
            return
        if isinstance(target, ast.Subscript) and self.is_set_expression(target.value):
            self.refuse_set_store(target)
        if isinstance(target, ast.Subscript) and self.is_str_expression(target.value):
            self.refuse_str_store(target)
        if isinstance(target, ast.Name) and (is_set(value.type) or is_set(
                self.declared.get(target.id)) or is_set(getattr(
                    self.var_types.get(target.id), "type", None))):
            self.assign_set(target.id, value, value_node, node)
            return
        if isinstance(target, ast.Name) and (is_dict_like(value.type) or is_dict(
                self.declared.get(target.id)) or is_dict_like(getattr(
                    self.var_types.get(target.id), "type", None))):
            self.assign_dict(target.id, value, value_node, node)
            return
        if isinstance(target, ast.Name) and (is_list(value.type) or is_list(
                self.declared.get(target.id)) or is_list(getattr(
                    self.var_types.get(target.id), "type", None))):
            self.assign_list(target.id, value, value_node, node)
            return
        if isinstance(target, ast.Subscript):
            self.expand_ellipsis(target)
        if isinstance(target, ast.Subscript) and self.is_array_index(target.slice):
            self.store_through_array_index(target, value, node)
            return
        if isinstance(target, ast.Subscript) and self.is_view_subscript(target):
            self.array_store(self.expression(target), value, node)
            return
        if isinstance(target, ast.Subscript):
            array = self.subscript_parts(target)
            self.store_element(array, value, target)
            return
        if isinstance(target, ast.Attribute) and self.context.classes:
            self.store_attribute(target, value, node)       # `o.x = v`: class_typing.py
            return
        if value.fresh:
            value = self.new_array(value, node, name=target.id)
        if not isinstance(target, ast.Name):
            self.fail(target, f"cannot assign to `{ast.unparse(target)}`")
        name = target.id
        if is_unknown(value.type) or value.type is None:
            # Bound, with whatever type is known, so later uses do not cascade.
            known = self.declared.get(name, self.var_types.get(name, VariableType(UNKNOWN)))
            known = known.type if isinstance(known, VariableType) else known
            self.symbols[name] = TypedValue(known)
            self.maybe_undefined.discard(name)
            return
        if name in self.declared:
            variable = VariableType(self.declared[name])
            if is_unknown(variable.type):
                self.symbols[name] = TypedValue(UNKNOWN)
                self.maybe_undefined.discard(name)
                return
            message = rules.declared_assignment_error(name, variable.type, value.type)
            if message:
                # bound with its declared type, so that its uses are not
                # reported too
                self.symbols[name] = TypedValue(variable.type)
                self.maybe_undefined.discard(name)
                self.fail(node, message)
        else:
            variable = self.join(self.var_types.get(name), value, node, name)
            if variable != self.var_types.get(name):
                self.var_types[name] = variable
                self.changed = True
        if isinstance(variable.type, kt.ArrayType):
            self.symbols[name] = TypedValue(value.type,
                                            origins=self.array_origins(name, value.origins))
        else:
            converted = self.convert(value, variable.type, node)
            if is_scalar_type(variable.type):
                self.symbols[name] = TypedValue(
                    converted.type, numpy_bool=self.numpy_bool_variable(name, variable, value))
            elif isinstance(variable.type, kt.TupleType):
                # A tuple of numbers: each element as a number variable
                # (its type only, no literal's value)
                self.symbols[name] = TypedValue(converted.type, elements=[
                    TypedValue(e.type) for e in converted.elements])
            else:
                self.symbols[name] = TypedValue(
                    converted.type, elements=converted.elements,
                    origins=self.array_origins(name, converted.origins))
        self.maybe_undefined.discard(name)

    def numpy_bool_variable(self, name, variable, value) -> bool:
        """Whether bool variable `name` holds numpy's bools: one value
        assigned to it is (over the whole function, as its type). Where
        Python's and numpy's meet (`acc = False`, then `acc = acc + m[i]` in
        a loop) numpy's win, as they do in `False + m[i]`: the two differ
        only for `True + True`, which a Python bool meeting a numpy one
        never computes as 2."""
        numpy_bool = variable.type.is_bool and (value.numpy_bool or
                                                self.numpy_bools.get(name, False))
        if self.numpy_bools.get(name) != numpy_bool:
            self.numpy_bools[name] = numpy_bool
            self.changed = True
        return numpy_bool

    def array_origins(self, name, origins) -> frozenset:
        """Everything variable `name` may view, over the whole function."""
        known = self.variable_origins.get(name, frozenset())
        merged = known | frozenset(origins)
        if merged != known:
            self.variable_origins[name] = merged
            self.changed = True
        return merged

    def paths_disagree(self, node, name, old, new) -> str:
        """Two assignments of one variable that meet (frontend/variable_webs.py
        keeps assignments apart unless a read may see either) disagree."""
        what = "the result" if name == "the result" else f"variable `{name}`"
        message = f"{what} is {display(old)} on one path and {display(new)} on another"
        first, line = self.assigned_at.get(name), getattr(node, "lineno", None)
        if first is not None and line is not None and first != line:
            message += f" (assigned at line {first} and at line {line}"
            meet = getattr(self.func, "kiln_web_meets", {}).get(name)
            message += f", both of which reach the read at line {meet})" if meet else ")"
        return message

    def join(self, current, value: TypedValue, node, name) -> VariableType:
        if current is None and hasattr(node, "lineno"):
            self.assigned_at.setdefault(name, node.lineno)
        if is_instance_like(value.type) or (current is not None and
                                            is_instance_like(current.type)):
            return self.join_instances(current, value, node, name)     # class_typing.py
        if holds_items(value.type) or (current is not None and holds_items(current.type)):
            return self.join_list(current, value, node, name)       # lists and sets
        if is_dict_like(value.type) or (current is not None and is_dict_like(current.type)):
            return self.join_dict(current, value, node, name)
        if is_str(value.type) or (current is not None and is_str(current.type)):
            if current is not None and current.type != value.type:
                self.fail(node, self.paths_disagree(node, name, current.type, value.type))
            return VariableType(kt.string)
        if is_range(value.type) or (current is not None and is_range(current.type)):
            if current is not None and current.type != value.type:
                self.fail(node, self.paths_disagree(node, name, current.type, value.type))
            return VariableType(value.type)
        if isinstance(value.type, kt.TupleType) or (
                current is not None and isinstance(current.type, kt.TupleType)):
            if any(is_unknown(e.type) for e in value.elements or ()):
                # `t = (1, w[k])` of a dict typed by its stores: its element
                # types are known in a later round (fuzzer S4); until then
                # the name is bound, its uses waiting too.
                if name.isidentifier() and name not in self.symbols:
                    self.symbols[name] = TypedValue(UNKNOWN)
                    self.maybe_undefined.discard(name)
                raise _Abandon()
            if current is None:
                return VariableType(kt.TupleType(tuple(
                    rules.default_for_kind(e.weak) if e.weak else e.type
                    for e in value.elements)))
            if not (isinstance(value.type, kt.TupleType) and isinstance(current.type, kt.TupleType)
                    and len(value.elements) == len(current.type.elements)):
                self.fail(node, self.paths_disagree(node, name, current.type, value.type))
            return VariableType(kt.TupleType(tuple(
                self.join(VariableType(t), e, node, name).type
                for t, e in zip(current.type.elements, value.elements))))
        joined, problem = rules.join_variable(
            None if current is None else (current.type, current.weak), value.type, value.weak,
            value.constant)
        if problem:
            self.fail(node, self.paths_disagree(node, name, current.type, value.type))
        return VariableType(*joined)

    def load_name(self, node: ast.Name) -> TypedValue:
        name = node.id
        if name in self.symbols:
            return self.symbols[name]
        if name in self.maybe_undefined or name in self.var_types:
            self.fail(node, f"variable `{name}` may be used before it is assigned (it is not "
                            "assigned on every path to this line)")
        if name in self.module.constants or name in self.context.constant_refusals:
            return self.module_constant(name, node)     # constant_typing.py
        if name in rules.DTYPE_BUILTINS and name not in self.module.functions:
            # `dtype=float` passed on: Python's type object, a dtype to numpy
            return TypedValue(kt.DTypeValue(rules.DTYPE_BUILTINS[name], "python"))
        self.fail(node, self.undefined_name(name))

    def undefined_name(self, name) -> str:
        """The message for a name with no value here, in the user's terms:
        a local read before its assignment, a module global that is not a
        constant, a builtin used as a value, or a typo (with the nearest
        name defined here)."""
        import builtins
        import difflib
        if name in assigned_names(self.func.body):
            return f"variable `{name}` is used before it is assigned"
        module_level = set()
        for stmt in self.context.tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
            for target in targets:
                module_level |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if name in module_level:
            return (f"global variable `{name}` is not supported yet (a module constant must be "
                    "bound once to a number, a str, a tuple of numbers, or a list or dict of "
                    "numbers or strs, that fits in 64 bits)")
        if name in self.module.functions or any(
                isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name
                for n in self.context.tree.body):
            return (f"`{name}` is a function: a function is supported as a value only as "
                    f"the argument of a call to a module function (`apply({name}, x)`) or "
                    "a parameter's default, not kept in a variable, stored, compared or "
                    "returned")
        if hasattr(builtins, name):
            return f"builtin `{name}` is not supported as a value here"
        known = [a.arg for a in self.func.args.args] + assigned_names(self.func.body) + \
            list(self.module.constants) + list(self.module.functions)
        close = difflib.get_close_matches(name, known, n=1)
        return f"name `{name}` is not defined" + (f"; did you mean `{close[0]}`?" if close else "")

    # ----------------------------------------------------------- merges
    def stmt_If(self, stmt):
        self.truthy(self.expression(stmt.test), stmt.test, quiet=True)
        before = dict(self.symbols)
        then_symbols = self.region(lambda: self.narrowed(stmt, stmt.body,
                                                         lambda: self.body(stmt.body)))
        then_undefined = self.region_undefined
        else_symbols = self.region(lambda: self.body(stmt.orelse))
        self.maybe_undefined |= then_undefined | self.region_undefined
        carried = []
        # A name rebound by some branch is merged; one new in only some
        # branches is undefined after the `if`.
        for name in dict.fromkeys(n for b in (then_symbols, else_symbols) for n in b):
            if not (name in then_symbols and name in else_symbols):
                self.maybe_undefined.add(name)
            elif then_symbols[name] is not before.get(name) or \
                    else_symbols[name] is not before.get(name):
                carried.append(name)
        for symbols in (then_symbols, else_symbols):
            self.refuse_carried_tuples(carried, symbols, stmt, "in a branch of this `if`")
        self.bind_merged(carried, [TypedValue(then_symbols[n].type, origins=then_symbols[n].origins
                                              | else_symbols[n].origins) for n in carried])

    def bind_merged(self, carried, exemplars):
        for name, exemplar in zip(carried, exemplars):
            origins = self.array_origins(name, exemplar.origins) if isinstance(
                exemplar.type, kt.ArrayType) else exemplar.origins
            self.symbols[name] = TypedValue(exemplar.type, origins=origins)
            self.maybe_undefined.discard(name)

    def loop_carried(self, body, extra=()) -> list:
        names = [n for n in list(extra) + assigned_names(body) if n in self.symbols]
        return list(dict.fromkeys(names))

    def range_bounds(self, call) -> bool:
        """Types the arguments of `range(...)`; False when they are not
        usable (reported)."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            self.report(call, "`for` loops need range(...)")
            return False
        if len(call.args) not in (1, 2, 3):
            self.report(call, "range() takes 1 to 3 arguments")
            return False
        args = [self.expression(a) for a in call.args]
        usable = True
        for arg, node in zip(args, call.args):
            if is_unknown(arg.type):
                usable = False
            elif not is_scalar_type(arg.type) or arg.type.is_float or arg.type.is_complex:
                self.report(node, f"range() arguments must be int, not {display(arg.type)}")
                usable = False
        if not usable:
            return False
        args = [self.guarded(self.convert, a, kt.i64, n) for a, n in zip(args, call.args)]
        if None in args:
            return False
        step = args[2] if len(args) == 3 else None
        step_value = 1 if step is None else step.constant
        if step_value is not None and step_value == 0:
            self.report(call, "range() arg 3 must not be zero")
            return False
        if step_value is None:
            self.raises = True      # checked against zero at run time
        return True

    def bind_loop_target(self, stmt) -> None:
        target = stmt.target.id
        value = TypedValue(kt.i64)
        declared = self.declared.get(target)
        if declared is not None and declared != kt.i64:
            if not is_unknown(declared):
                self.report(stmt.target, f"loop variable `{target}` is declared "
                                         f"{declared.display}, but range() yields int")
            self.symbols[target] = TypedValue(declared)
            self.maybe_undefined.discard(target)
            return
        if target in self.var_types:
            variable = self.guarded(self.join, self.var_types[target], value, stmt, target)
            if variable is not None:
                if variable != self.var_types[target]:
                    self.var_types[target] = variable
                    self.changed = True
                value = self.guarded(self.convert, value, variable.type, stmt) or value
        else:
            self.var_types[target] = VariableType(kt.i64)
        self.symbols[target] = value
        self.maybe_undefined.discard(target)

    def loop_frame(self, stmt, carried) -> ExitFrame:
        has_flags = bool(loop_exits(stmt)) or contains_return(stmt.body)
        return ExitFrame("loop", carried=carried, has_flags=has_flags)

    def bind_carried(self, carried, initial) -> None:
        """Loop-carried variables in a loop region: the types they enter with."""
        for name, value in zip(carried, initial):
            self.symbols[name] = TypedValue(value.type,
                                            origins=self.array_origins(name, value.origins))

    def stmt_For(self, stmt):
        if not isinstance(stmt.target, ast.Name):
            self.fail(stmt.target, "a `for` loop needs a plain name as its target")
        self.range_bounds(stmt.iter)
        walked = walked_dict(stmt, lambda n: getattr(self.var_types.get(n), "type", None))
        if walked is not None:
            # A loop over a dict or set (RuntimeError when its size
            # changes): its step reads the entry at the loop's slot
            # (dict_subscript).
            self.raises = True
            self.walked_dicts.add(walked)
        if not self.inside_parallel_loop and (stmt in self.context.parallel_loops
                                              or self.parallel_by_option(stmt)):
            self.parallel_loop(stmt)
            return
        self.loop_nesting += 1
        try:
            self.sequential_for(stmt)
        finally:
            self.loop_nesting -= 1

    def sequential_for(self, stmt):
        target = stmt.target.id
        carried = self.loop_carried(stmt.body, [target] if target in self.symbols else [])
        self.refuse_carried_tuples(carried, self.symbols, stmt, "inside this loop")
        self.carried_by_loop[stmt] = carried
        if loop_exits(stmt) or contains_return(stmt.body):
            self.loop_as_while(stmt, carried, with_counter=True)
            return
        frame = self.loop_frame(stmt, carried)
        initial = [self.symbols[n] for n in carried]

        def bind():
            self.bind_carried(carried, initial)
            self.bind_loop_target(stmt)

        self.region(lambda: self.body(stmt.body, terminal=True), bind, frame=frame)
        self.mark_loop_locals(stmt, carried)
        self.bind_merged(carried, initial)

    def parallel_by_option(self, stmt) -> bool:
        """`@kiln.export(parallel=True)`: an outermost loop whose iterations
        are independent (the rules of a prange loop) runs as one; any other
        stays sequential, its reason kept for the report."""
        if not self.options.get("parallel") or self.loop_nesting:
            return False
        target = stmt.target.id
        # Python keeps the loop variable's last value; a parallel loop has none.
        # (Loops that bind the same name first, `for i in ...` again, do not
        # read it.)
        uses = [n for n in ast.walk(self.func) if isinstance(n, ast.Name) and n.id == target]
        inside = {id(n) for loop in ast.walk(self.func)
                  if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                  and loop.target.id == target for n in ast.walk(loop)}
        reason = None
        if any(id(n) not in inside for n in uses):
            reason = f"the loop variable `{target}` is used outside the loop"
        elif self.uses_lists(stmt):
            reason = "the loop uses lists"
        else:
            try:
                parallel = parallel_loops.analyze(stmt, self.loop_carried(stmt.body))
            except parallel_loops.ParallelLoopError as error:
                reason = error.message
            else:
                for reduction in parallel.reductions:
                    value = self.symbols.get(reduction.name)
                    if value is None or not is_scalar_type(value.type) or \
                            value.type.is_complex:
                        reason = f"`{reduction.name}` is not a number"
                    elif value.type.is_float and any(
                            isinstance(u, ast.Call) and not (
                                isinstance(u.args[0], ast.Name)
                                and u.args[0].id == reduction.name)
                            for u in reduction.updates):
                        reason = f"`{reduction.name} = max/min(..., {reduction.name})`"
        if reason is not None:
            self.sequential_loops[stmt] = reason
            return False
        return True

    def parallel_loop(self, stmt) -> None:
        """A kiln.prange loop: a counted loop whose only carried variables
        are its reductions (parallel_loops.py), each a number."""
        # The loop variable is each iteration's own, never carried.
        carried = self.loop_carried(stmt.body)
        self.refuse_carried_tuples(carried, self.symbols, stmt, "inside this loop")
        try:
            parallel = parallel_loops.analyze(stmt, carried)
        except parallel_loops.ParallelLoopError as error:
            self.fail(error.node, error.message)
        self.carried_by_loop[stmt] = carried
        self.parallel_by_loop[stmt] = parallel
        if parallel.written_arrays:
            self.raises = True   # ValueError when a written array overlaps another one read
        frame = self.loop_frame(stmt, carried)
        initial = [self.symbols[n] for n in carried]
        for reduction, value in zip(parallel.reductions, initial):
            name = reduction.name
            if not is_unknown(value.type) and not (
                    is_scalar_type(value.type) and not value.type.is_complex):
                self.fail(stmt, f"`{name}` is a kiln.prange reduction of "
                                f"{display(value.type)}: reductions are of ints, floats "
                                "and bools")
            if is_scalar_type(value.type) and value.type.is_float:
                for update in reduction.updates:
                    if isinstance(update, ast.Call) and not (
                            isinstance(update.args[0], ast.Name) and update.args[0].id == name):
                        # max(e, s) keeps e unless s > e: a NaN among the e
                        # discards what came before it, so the result depends
                        # on the order the blocks are combined in.
                        self.fail(update, f"write `{name} = {update.func.id}({name}, ...)` in "
                                          f"a kiln.prange loop: with `{name}` second, a NaN "
                                          "makes the result depend on the order of the "
                                          "iterations")

        def bind():
            self.bind_carried(carried, initial)
            self.bind_loop_target(stmt)

        # A prange loop in this one's body runs as a plain loop on the
        # thread that reaches it (one team shares out one loop).
        self.inside_parallel_loop = True
        try:
            self.region(lambda: self.body(stmt.body, terminal=True), bind, frame=frame)
        finally:
            self.inside_parallel_loop = False
        self.mark_loop_locals(stmt, carried)
        self.bind_merged(carried, initial)

    def mark_loop_locals(self, stmt, carried) -> None:
        names = assigned_names(stmt.body)
        if isinstance(stmt, ast.For):
            names.append(stmt.target.id)
        self.maybe_undefined.update(n for n in names if n not in carried)

    def stmt_While(self, stmt):
        carried = self.loop_carried(stmt.body)
        self.refuse_carried_tuples(carried, self.symbols, stmt, "inside this loop")
        self.carried_by_loop[stmt] = carried
        self.loop_nesting += 1
        try:
            self.loop_as_while(stmt, carried, with_counter=False)
        finally:
            self.loop_nesting -= 1

    def loop_as_while(self, stmt, carried, with_counter) -> None:
        """A `while` loop, or a `for` loop that can exit early."""
        frame = self.loop_frame(stmt, carried)
        initial = [self.symbols[n] for n in carried]

        def condition():
            if isinstance(stmt, ast.While):
                self.truthy(self.expression(stmt.test), stmt.test, quiet=True)

        def bind_body():
            self.bind_carried(carried, initial)
            if with_counter:
                self.bind_loop_target(stmt)

        self.region(condition, lambda: self.bind_carried(carried, initial))
        self.region(lambda: self.body(stmt.body, terminal=True), bind_body, frame=frame)
        self.mark_loop_locals(stmt, carried)
        for name, value in zip(carried, initial):
            self.symbols[name] = TypedValue(value.type,
                                            origins=self.array_origins(name, value.origins))
            self.maybe_undefined.discard(name)
