"""AST -> MLIR for the functions of a module, built through ir_builder.

Types come from the type-inference stage (`type_inference.py`): the
generator walks each function's syntax tree once and reads the type of
every expression, variable, loop-carried value, merge and callee from the
function's `TypedFunction`; it applies no typing rule of its own (where it
converts operands it asks `typing_rules`). A type the values it builds
disagree with is a bug of one of the two stages: an internal compiler
error, not a user error. Every op carries the Python file, line and column
it came from.

Control flow is structured: ``if`` becomes ``scf.if`` yielding the
variables it changes, ``for ... in range`` becomes ``scf.for`` carrying
them, ``while`` becomes ``scf.while``. An early ``return`` inside ``if``
moves the statements after the ``if`` into the branch that does not
return, so every path ends in a single ``func.return``.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import os
import re
import sys
from dataclasses import dataclass, field

from .. import typesystem as kt
from ..errors import KilnCompileError
from . import ir_builder as ir
from .. import typing_rules as rules
from .array_expressions import ArrayExpressions
from .array_shapes import ArrayShapes
from .complex_numbers import ComplexNumbers
from .library import LibraryCalls
from .values import COMPLEX64_ABI, Value, abi_type, flatten, mlir_type, tuple_value  # noqa: F401
from ..frontend.source import deepest_statement
from ..frontend.subset import SUPPORTED_BINOPS
from ..typecheck.type_inference import (  # noqa: F401 - Parameter stays importable from here
    known_literals,
    Parameter, assigned_names, complex_power_exponent, contains_return, infer_module,
    loop_exits)
from ..typing_rules import INT64_MIN


@dataclass
class FunctionSignature:
    """What the wrapper and header generators need to know of a function."""
    name: str
    params: list
    return_type: object          # ScalarType, or None for None
    raises: bool
    written_arrays: set
    line: int
    source_line: str = ""
    # Per position of the returned values: the array parameters it may view.
    returned_parameters: dict = field(default_factory=dict)
    exported: bool = True
    # Array functions do enough work that releasing the GIL pays; scalar
    # ones would spend more on the release than on the call.
    release_gil: bool = False
    elementwise: bool = False   # @kiln.vectorize: also an array kernel <name>__array
    options_given: frozenset = frozenset()


def symbol_name(context, name: str) -> str:
    """The MLIR symbol of module function `name`: `<mod>_<name>`. Every
    user function is named this way, so no Python name can take a symbol
    the runtime or libm needs (`malloc`, `free`, `hypot`, `memcpy`, ...):
    those never start with the module's prefix. An exported function's C
    interface keeps the same name, which is its public C ABI symbol
    (kilnc runs without --symbol-prefix). `kiln build` accepts only
    modules named by identifiers; for `kiln mlir my-mod.py` the prefix is
    `my_mod`."""
    module = context.module_name
    if not module.isidentifier():
        module = re.sub(r"[^A-Za-z0-9_]", "_", module)
    return f"{module}_{name}"


class InferenceMismatch(Exception):
    """Code generation met a type (or a typing error) the inference stage
    did not give it: a compiler bug, reported as an internal compiler error
    of the function."""


@dataclass
class ExitMode:
    """What ends a region: see FunctionCodeGenerator.generate_body."""
    kind: str                      # "function" or "loop"
    in_branch: bool = False        # function mode inside an exiting `if`
    carried: list = field(default_factory=list)
    has_flags: bool = False
    types: list = field(default_factory=list)
    next_counter: object = None
    return_value: object = None

    def for_branch(self) -> "ExitMode":
        if self.kind == "function":
            return ExitMode("function", in_branch=True)
        return self


class FunctionCodeGenerator(LibraryCalls, ArrayExpressions, ArrayShapes, ComplexNumbers):
    """Builds one function's MLIR in one walk, reading its types from the
    function's `TypedFunction` (`typed`)."""

    def __init__(self, context, typed, module):
        self.context = context
        self.typed = typed
        self.func = typed.node
        self.options = typed.options
        self.module = module
        self.exported = typed.exported
        self.external_functions: set = set()
        self.boundscheck = self.options.get("boundscheck", True)
        # Reassociation (and FMA contraction) only when the user allows it:
        # it changes results. NaN and infinity keep their meaning.
        self.fastmath = ir.FASTMATH_REASSOC_CONTRACT if self.options.get("fastmath") else None
        # Whether the IR built can raise (checks, Python-semantics ops,
        # calls of raising functions): inference must have said so.
        self.may_raise = False
        self.locations: dict = {}        # (line, column) -> ir.Location

    # ------------------------------------------------------------------ api
    def generate(self) -> tuple[ir.Operation, FunctionSignature]:
        function = self.emit_function()
        if self.may_raise and not self.typed.raises:
            raise InferenceMismatch(f"`{self.func.name}` can raise, but type inference says "
                                    "it cannot")
        return function, self.signature()

    def signature(self) -> FunctionSignature:
        typed = self.typed
        return FunctionSignature(
            name=self.func.name, params=list(typed.params), return_type=typed.return_type,
            raises=typed.raises, written_arrays=set(typed.written_arrays),
            returned_parameters=dict(typed.returned_parameters),
            line=self.func.lineno, exported=self.exported,
            release_gil=self.options.get("nogil", any(
                isinstance(p.type, kt.ArrayType) for p in typed.params)),
            elementwise=bool(self.options.get("elementwise")),
            options_given=frozenset(self.options))

    # ------------------------------------------------------------ utilities
    def error(self, node, message) -> KilnCompileError:
        return KilnCompileError(self.context.diagnostic(node, message, self.func.name))

    def missed(self, node, message) -> InferenceMismatch:
        """A typing error type inference should have reported: a bug."""
        line = getattr(node, "lineno", self.func.lineno)
        return InferenceMismatch(f"type inference missed, line {line}: {message}")

    def typed_value(self, node):
        """What inference found for `node` (an expression, or an augmented
        assignment's operation)."""
        try:
            return self.typed.value_of(node)
        except KeyError:
            raise self.missed(node, f"`{ast.unparse(node)}` was not typed") from None

    def variable_type(self, name):
        return self.typed.variables[name].type

    def loc(self, node) -> ir.Location:
        line = getattr(node, "lineno", self.func.lineno)
        column = getattr(node, "col_offset", 0) + 1
        location = self.locations.get((line, column))
        if location is None:
            location = ir.file_location(self.context.path, line, column)
            self.locations[line, column] = location
        return location

    # IR through the builder: each helper makes one op and wraps its result
    # in a typed Value.
    def arith(self, opname, a: Value, b: Value, node, unsigned=False, **attrs) -> Value:
        """A same-typed binary op; float arithmetic gets the fastmath flags."""
        fastmath = self.fastmath if opname in FASTMATH_OPS else None
        extra = {"unsigned": True} if unsigned else {}
        return Value(self.builder.binary(opname, a.ir, b.ir, self.loc(node), fastmath, **extra),
                     a.type, **attrs)

    def unary(self, opname, x: Value, node, **attrs) -> Value:
        return Value(self.builder.unary(opname, x.ir, self.loc(node)), x.type, **attrs)

    def cast(self, opname, value: Value, target, node, **attrs) -> Value:
        return Value(self.builder.cast(opname, value.ir, mlir_type(target), self.loc(node)),
                     target, **attrs)

    def cmpi(self, predicate, a: Value, b: Value, node) -> Value:
        return Value(self.builder.cmpi(predicate, a.ir, b.ir, self.loc(node)), kt.boolean)

    def cmpf(self, predicate, a: Value, b: Value, node) -> Value:
        return Value(self.builder.cmpf(predicate, a.ir, b.ir, self.loc(node)), kt.boolean)

    def select(self, condition: Value, a: Value, b: Value, node, **attrs) -> Value:
        return Value(self.builder.select(condition.ir, a.ir, b.ir, self.loc(node)), a.type,
                     **attrs)

    def call_external(self, function, args, node) -> Value:
        """A call of an external function (libm) returning the first
        argument's type."""
        result_type = args[0].type
        [result] = self.builder.call(function, [self.to_abi(a, node) for a in args],
                                     [abi_type(result_type)], self.loc(node))
        return self.from_abi(result, result_type, node)

    def to_abi(self, value: Value, node) -> ir.Value:
        """`value` as it crosses a function boundary (abi_type)."""
        if isinstance(value.type, kt.ScalarType) and value.type.is_bool:
            return self.builder.cast("extui", value.ir, ir.i8, self.loc(node))
        if value.type == kt.c64:
            real, imag = self.complex_parts(value, node)
            return self.builder.op("vector.from_elements", (real.ir, imag.ir), (COMPLEX64_ABI,),
                                   None, (), self.loc(node)).result
        return value.ir

    def from_abi(self, abi_value: ir.Value, type_, node) -> Value:
        """The value of `type_` that crossed a function boundary as `abi_value`."""
        location = self.loc(node)
        if isinstance(type_, kt.ScalarType) and type_.is_bool:
            return Value(self.builder.cast("trunci", abi_value, ir.i1, location), kt.boolean)
        if type_ == kt.c64:
            parts = [self.value_of(self.builder.op(
                "vector.extract", (abi_value,), (ir.f32,),
                {"static_position": ir.dense_array_attr([position])}, (), location).result,
                kt.f32) for position in (0, 1)]
            return self.make_complex(*parts, node)
        return Value(abi_value, type_)

    def region(self, build, bind=None, mode=None, argument_types=()):
        """Runs `build` into a new one-block region (its arguments of
        `argument_types`, handed to `bind` first) and symbol scope; returns
        (region, symbols). Arrays allocated in it may flow out through the
        region's results: kilnc frees each where it dies (ownership-based
        buffer deallocation), so the generator writes no free."""
        saved_symbols = self.symbols
        saved_undefined = set(self.maybe_undefined)
        saved_mode = self.mode
        self.symbols = dict(saved_symbols)
        if mode is not None:
            self.mode = mode
        region = self.builder.region([mlir_type(t) for t in argument_types])
        try:
            with self.builder.at_end(region.block):
                if bind:
                    bind(region.block.arguments)
                build()
            return region, self.symbols
        finally:
            self.symbols = saved_symbols
            self.region_undefined = self.maybe_undefined
            self.maybe_undefined = saved_undefined
            self.mode = saved_mode

    def scf_if(self, condition: Value, types, then_region, else_region, node) -> list:
        """An scf.if; its results as Values of `types` (Kiln types)."""
        results = self.builder.scf_if(condition.ir, [mlir_type(t) for t in types], then_region,
                                      else_region, self.loc(node))
        return [Value(r, t) for r, t in zip(results, types)]

    def return_type(self):
        return self.typed.return_type

    # ------------------------------------------------------------ constants
    def constant(self, python_value, type_: kt.ScalarType, node, weak=None) -> Value:
        location = self.loc(node)
        if type_.is_bool:
            return Value(self.builder.integer_constant(bool(python_value), ir.i1, location),
                         type_, weak=weak, constant=bool(python_value), nonneg=True)
        if type_.is_int:
            value = int(python_value)
            return Value(self.builder.integer_constant(value, mlir_type(type_), location), type_,
                         weak=weak, constant=value, nonneg=value >= 0)
        if type_.is_complex:
            return self.complex_constant(python_value, node, weak=weak, type_=type_)
        value = float(python_value) if type_ != kt.f32 else rules.round_to_f32(python_value)
        return Value(self.builder.float_constant(value, mlir_type(type_), location), type_,
                     weak=weak, constant=value)

    def index_constant(self, value: int, node) -> ir.Value:
        return self.builder.index_constant(value, self.loc(node))

    # ---------------------------------------------------------- conversions
    def convert(self, value: Value, target, node, explicit=False) -> Value:
        """`value` as a `target` (assignments, arguments, operands); which
        conversions are allowed is inference's business."""
        source = value.type
        if source == target:
            return value
        if isinstance(target, kt.TupleType):
            return tuple_value([self.convert(e, t, node, explicit)
                                for e, t in zip(value.elements, target.elements)])
        if isinstance(source, (kt.ArrayType, kt.TupleType)) or isinstance(target, kt.ArrayType):
            raise self.missed(node, f"cannot use a {rules.display(source)} value as "
                                    f"{rules.display(target)}")
        if value.constant is not None:
            folded = value.constant
            if value.weak == "int" and not rules.literal_fits(folded, target):
                # NEP 50 (numpy 2): a Python int that does not fit the
                # dtype raises, where numpy 1 warned and wrapped.
                self.check(self.constant(False, kt.boolean, node), "OverflowError",
                           f"Python integer {folded} out of bounds for {target.numpy_name}",
                           [], node)
            folded = rules.fold_conversion(folded, target)
            if folded is not None:
                return self.constant(folded, target, node)
        if target.is_bool:
            return self.truthy(value, node)
        if target.is_complex and source.is_complex:
            return self.complex_cast(value, target, node)
        if target.is_complex:
            return self.complex_from_real(value, node, target)
        if source.is_bool:
            opname = "extui" if target.is_int else "uitofp"
            return self.cast(opname, value, target, node)
        if source.is_int and target.is_int:
            if value.weak == "int" and target.bits < source.bits:
                # A Python int computed from literals: it must fit (NEP 50).
                narrow = self.cast("trunci", value, target, node)
                back = self.cast("extsi" if target.signed else "extui", narrow, source, node)
                fits = self.cmpi("eq", back, value, node)
                self.check(fits, "OverflowError",
                           f"Python integer {{}} out of bounds for {target.numpy_name}", [value],
                           node)
                return narrow
            if target.bits == source.bits:      # int64 <-> uint64: the same bits
                return Value(value.ir, target, nonneg=value.nonneg and source.signed)
            widen = "extsi" if source.signed else "extui"
            opname = widen if target.bits > source.bits else "trunci"
            return self.cast(opname, value, target, node,
                             nonneg=(value.nonneg or not source.signed)
                             and target.bits > source.bits)
        if source.is_int and target.is_float:
            if not source.signed:
                return self.cast("uitofp", value, target, node)
            return self.cast("to_float", value, target, node)
        if source.is_float and target.is_float:
            opname = "extf" if target.bits > source.bits else "truncf"
            return self.cast(opname, value, target, node)
        if source.is_float and target.is_int and explicit:
            return self.float_to_int(value, target, node)
        raise self.missed(node, f"cannot convert {source.display} to {target.display}")

    def float_to_int(self, value: Value, target, node,
                     too_large="float is too large for a 64-bit integer "
                               "(Kiln integers are 64-bit)") -> Value:
        """int(x): truncation toward zero, with CPython's errors for NaN/inf.
        `too_large` is the OverflowError text beyond the 64-bit range (a
        documented difference for int(); numpy's own text for array stores)."""
        is_nan = self.cmpf("uno", value, value, node)
        not_nan = self.negate(is_nan, node)
        self.check(not_nan, "ValueError", "cannot convert float NaN to integer", [], node)
        # Finite values beyond the 64-bit range would be undefined in LLVM.
        # The range is [-2**63, 2**63): -2**63 itself fits.
        limit = self.constant(2.0 ** 63, value.type, node)
        low = self.constant(-2.0 ** 63, value.type, node)
        magnitude = self.unary("absf", value, node)
        below = self.cmpf("olt", value, limit, node)
        above = self.cmpf("oge", value, low, node)
        in_range = self.arith("andi", below, above, node)
        is_inf = self.cmpf("oeq", magnitude, self.constant(math.inf, value.type, node), node)
        self.check(self.negate(is_inf, node), "OverflowError",
                   "cannot convert float infinity to integer", [], node)
        self.check(in_range, "OverflowError", too_large, [], node)
        # i64, or u64 (the same MLIR type; floats >= 2**63 raised above)
        whole = self.cast("fptosi", value, target if target.bits == 64 else kt.i64, node)
        if target.bits == 64:
            return whole
        # fptosi straight to i32 is poison beyond the int32 range; going
        # through i64 wraps, as an int64 stored into an int32 array does.
        return self.cast("trunci", whole, target, node)

    def negate(self, flag: Value, node) -> Value:
        true = self.constant(True, kt.boolean, node)
        return self.arith("xori", flag, true, node)

    def truthy(self, value: Value, node) -> Value:
        scalar = value.type
        if isinstance(scalar, kt.ArrayType):
            raise self.missed(node, "the truth value of an array")
        if scalar.is_bool:
            return value
        if value.constant is not None:
            return self.constant(bool(value.constant), kt.boolean, node)
        if scalar.is_complex:
            return self.complex_truthy(value, node)
        return Value(self.builder.kiln_truthy(value.ir, self.loc(node)), kt.boolean)

    # --------------------------------------------------------------- checks
    def check(self, condition: Value, kind: str, message: str, args, node) -> None:
        if condition.constant is True:
            return
        self.may_raise = True
        self.builder.kiln_check(condition.ir, kind, message, [a.ir for a in args], self.loc(node))

    # ------------------------------------------------------------- function
    def result_abi_types(self) -> list:
        result = self.return_type()
        if result is None:
            return []
        if isinstance(result, kt.TupleType):
            return [abi_type(e) for e in result.elements]
        return [abi_type(result)]

    def emit_function(self) -> ir.Operation:
        params = self.typed.params
        self.symbols: dict[str, Value] = {}
        self.maybe_undefined: set[str] = set()
        self.mode = ExitMode("function")
        self.allocation_count = 0
        self.in_place_output = None     # the target's shape while `x op= y` is built

        entry = ir.Block([abi_type(p.type) for p in params])
        self.builder = ir.Builder(entry)
        # The caller's error record, for calls and checks; dropped at the
        # end when nothing can raise (then nothing used it).
        self.error_slot = entry.add_argument(ir.llvm_pointer)
        for param, argument in zip(params, entry.arguments):
            value = Value(argument, param.type, origins=frozenset([param.name]))
            if abi_type(param.type) is not mlir_type(param.type):   # bool, complex64
                value = self.from_abi(argument, param.type, self.func)
            self.symbols[param.name] = value
        self.generate_body(self.func.body, terminal=True)

        argument_attributes = None
        if self.typed.raises:
            argument_attributes = {len(params): {"kiln.error_slot": ir.UNIT}}
        else:
            entry.erase_argument(self.error_slot)
        attributes = {"kiln.export": ir.UNIT, "llvm.emit_c_interface": ir.UNIT} \
            if self.exported else None
        return self.builder.func(symbol_name(self.context, self.func.name), ir.Region([entry]),
                                 self.result_abi_types(), self.loc(self.func),
                                 private=not self.exported, attributes=attributes,
                                 argument_attributes=argument_attributes)

    # ----------------------------------------------------------- statements
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
                self.exit_return(stmt)
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
        (an array must be a buffer the caller can own and free)."""
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
        if self.return_type() is not None:
            raise self.missed(node, f"`{self.func.name}` may end without returning a value")
        self.finish_return(None, node)

    def return_value(self, stmt: ast.Return):
        if stmt.value is None or (isinstance(stmt.value, ast.Constant)
                                  and stmt.value.value is None):
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
        if self.mode.kind == "loop":
            self.finish_loop("return", stmt, value)
        else:
            self.finish_return(value, stmt)

    def finish_return(self, value: Value | None, node):
        """Leaves the function (function mode) with `value`."""
        values = flatten(value)
        if self.mode.in_branch:
            self.yield_values(values, node)
            return
        self.builder.func_return([self.to_abi(element, node) for element in values],
                                 self.loc(node))

    def finish_loop(self, kind: str, node, value: Value | None = None):
        """Ends one path through a loop body: continue, break or return."""
        frame = self.mode
        if kind != "continue" and not frame.has_flags:
            raise self.missed(node, f"`{kind}` in a loop without exit flags")
        values = []
        if frame.next_counter is not None:
            values.append(frame.next_counter)
        for name in frame.carried:
            if name not in self.symbols:
                raise self.missed(node, f"variable `{name}` is not defined on every path "
                                        "through the loop body")
            values.append(self.symbols[name])
        if frame.has_flags:
            values.append(self.constant(kind in ("break", "return"), kt.boolean, node))
            values.append(self.constant(kind == "return", kt.boolean, node))
            if frame.return_value is not None:
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
        then_region, _ = self.region(lambda: self.generate_body(stmt.body + rest, terminal=True),
                                     mode=branch_mode)
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
                self.finish_return(value, node)

        endless = isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and \
            bool(node.test.value) and not loop_exits(node)

        def after_loop():
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
        return method(stmt)

    def stmt_Import(self, stmt):
        pass            # numpy, math or kiln (the subset check): bound module-wide

    stmt_ImportFrom = stmt_Import

    def stmt_Pass(self, stmt):
        pass

    def stmt_Expr(self, stmt):
        if isinstance(stmt.value, ast.Constant):
            return
        self.expression(stmt.value)

    def stmt_Assign(self, stmt):
        if isinstance(stmt.value, ast.Lambda):
            return          # inlined at each call (typed.inlined)
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Tuple, ast.List)):
            self.unpack(stmt.targets[0].elts, stmt.value, stmt)
            return
        if len(stmt.targets) == 1 and self.masked_assignment(stmt.targets[0], stmt.value, stmt):
            return                                  # `x[m] = x[m]**2 + y[m]` in one pass
        if isinstance(stmt.value, ast.Tuple):
            value = tuple_value([self.expression(e) for e in stmt.value.elts])
        else:
            value = self.expression(stmt.value)
        if isinstance(value.type, kt.TupleType):
            # `row[:] = 0, 0` (inference allowed it): numpy's np.array((0, 0)).
            value = self.numbers_array(value.elements,
                                       rules.numbers_array_dtype(value.elements), stmt)
        for target in stmt.targets:
            self.assign(target, value, stmt)

    def unpack(self, targets, source, node):
        # Every right-hand value is computed before any name is bound, so
        # `a, b = b, a` swaps.
        if isinstance(source, (ast.Tuple, ast.List)):
            # Array expressions computed now, whole: a later target may be
            # an array an earlier value reads (`x[:], y[:] = y * 2, x * 2`).
            values = [self.materialize(v, node) if v.lazy is not None else v
                      for v in (self.expression(e) for e in source.elts)]
        else:
            value = self.expression(source)
            if isinstance(value.type, kt.ArrayType):
                values = self.array_elements(value, len(targets), node)
            else:
                values = value.elements
        for target, value in zip(targets, values):
            self.assign(target, value, node)

    def stmt_Raise(self, stmt):
        kind, message = self.exception_of(stmt.exc)
        self.check(self.constant(False, kt.boolean, stmt), kind, message, [], stmt)

    def stmt_Assert(self, stmt):
        message = stmt.msg.value if stmt.msg is not None else ""
        condition = self.truthy(self.expression(stmt.test), stmt.test)
        self.check(condition, "AssertionError", message, [], stmt)

    @staticmethod
    def exception_of(exc):
        """(exception name, message) of `raise E` / `raise E("message")`."""
        call = exc if isinstance(exc, ast.Call) else None
        name_node = call.func if call else exc
        message = call.args[0].value if call and call.args else ""
        return name_node.id, message.replace("{}", "{ }")

    def stmt_AnnAssign(self, stmt):
        if stmt.value is not None:
            self.assign(stmt.target, self.expression(stmt.value), stmt)

    def stmt_AugAssign(self, stmt):
        target = stmt.target
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
        array, indices = self.subscript_parts(target)
        current = self.load_element(array, indices, target)
        result = self.binary(stmt.op, current, self.expression(stmt.value), stmt)
        self.store_element(array, indices, result, target)

    def assign(self, target, value: Value, node):
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
        typed = self.typed_value(node)      # a module constant: a Python literal
        return self.constant(self.module.constants[name], typed.type, node, weak=typed.weak)

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
        then_region, then_symbols = self.region(lambda: self.generate_body(stmt.body))
        then_undefined = self.region_undefined
        else_region, else_symbols = self.region(lambda: self.generate_body(stmt.orelse))
        self.maybe_undefined |= then_undefined | self.region_undefined
        carried = self.carried_after(before, [then_symbols, else_symbols])
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
        """(lower, upper, step, normalized) of a range() call; `normalized` is
        (start, step) when the loop runs a counter k in [0, trips) and the
        target is start + k * step (negative or unknown steps)."""
        args = [self.expression(a) for a in call.args]
        args = [self.convert(a, kt.i64, n) for a, n in zip(args, call.args)]
        if len(args) == 1:
            start, stop, step = self.constant(0, kt.i64, call), args[0], None
        else:
            start, stop = args[0], args[1]
            step = args[2] if len(args) == 3 else None
        step_value = 1 if step is None else step.constant
        if step_value == 0:
            raise self.missed(call, "range() arg 3 must not be zero")
        if step_value == 1 or step is None:
            return start, stop, step or self.constant(1, kt.i64, call), None
        if step_value is None:
            zero = self.constant(0, kt.i64, call)
            nonzero = self.cmpi("ne", step, zero, call)
            self.check(nonzero, "ValueError", "range() arg 3 must not be zero", [], call)
            positive = self.cmpi("sgt", step, zero, call)
            up = self.arith("subi", stop, start, call)
            down = self.arith("subi", start, stop, call)
            distance = self.select(positive, up, down, call)
            negated = self.arith("subi", zero, step, call)
            magnitude = self.select(positive, step, negated, call)
        else:
            positive = self.constant(step_value > 0, kt.boolean, call)
            if step_value > 0:
                distance = self.arith("subi", stop, start, call)
            else:
                distance = self.arith("subi", start, stop, call)
            magnitude = self.constant(abs(step_value) if step_value != INT64_MIN
                                      else INT64_MIN, kt.i64, call)
        # The distance and |step| are read as unsigned: exact for any bounds,
        # where signed arithmetic would overflow.
        up = self.cmpi("slt", start, stop, call)
        down = self.cmpi("sgt", start, stop, call)
        moves = self.select(positive, up, down, call)
        trips = self.arith("ceildivui", distance, magnitude, call)
        zero = self.constant(0, kt.i64, call)
        trips = self.select(moves, trips, zero, call)
        return zero, trips, self.constant(1, kt.i64, call), (start, step)

    def bind_loop_target(self, stmt, counter: Value, normalized):
        target = stmt.target.id
        if normalized is None:
            value = counter
        else:
            start, step_value = normalized
            offset = self.arith("muli", counter, step_value, stmt)
            value = self.arith("addi", start, offset, stmt)
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
                        types=([kt.i64] if with_counter else []) + types + (
                            [kt.boolean, kt.boolean] if has_flags else []) + (
                            [v.type for v in return_values] if return_values else []))
        return mode, return_values

    def stmt_For(self, stmt):
        lower, upper, step, normalized = self.range_bounds(stmt.iter)
        carried = self.loop_carried(stmt)
        if loop_exits(stmt) or contains_return(stmt.body):
            return self.emit_loop_as_while(stmt, carried, (lower, upper, step, normalized))
        mode, _ = self.loop_state(stmt, carried, with_counter=False)
        initial = [self.symbols[n] for n in carried]
        nonneg = bool(lower.nonneg) and normalized is None

        def bind(arguments):
            for name, value, argument in zip(carried, initial, arguments[1:]):
                self.symbols[name] = Value(argument, value.type, origins=self.array_origins(name))
            self.bind_loop_target(stmt, Value(arguments[0], kt.i64, nonneg=nonneg), normalized)

        body, _ = self.region(lambda: self.generate_body(stmt.body, terminal=True), bind,
                              mode=mode, argument_types=[kt.i64] + [v.type for v in initial])
        self.mark_loop_locals(stmt, carried)
        attributes = None
        if carried:
            # Names of the carried variables, for kiln-vectorize's remarks
            # ("loop-carried dependence on `s`").
            attributes = {"kiln.carried": ir.array_attr([ir.string_attr(n) for n in carried])}
        results = self.builder.scf_for(lower.ir, upper.ir, step.ir, [v.ir for v in initial],
                                       body, self.loc(stmt), attributes)
        if carried:
            self.bind_results([Value(r, v.type) for r, v in zip(results, initial)], carried,
                              initial)
        return None, None

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
        with_counter = range_info is not None
        mode, return_value = self.loop_state(stmt, carried, with_counter)
        initial = [self.symbols[n] for n in carried]
        if with_counter:
            lower, upper, step, normalized = range_info
            initial = [lower] + initial
        if mode.has_flags:
            false = self.constant(False, kt.boolean, stmt)
            initial += [false, false]
            if return_value is not None:
                initial += return_value
        types = [v.type for v in initial]
        offset = 1 if with_counter else 0

        def bind(arguments):
            for index, name in enumerate(carried):
                exemplar = initial[offset + index]
                self.symbols[name] = Value(arguments[offset + index], exemplar.type,
                                           origins=self.array_origins(name))

        def build_condition():
            arguments = self.builder.block.arguments
            go = None
            if with_counter:
                go = self.cmpi("slt", Value(arguments[0], kt.i64), upper, stmt)
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
            self.builder.scf_condition(go.ir, arguments, self.loc(stmt))

        condition, _ = self.region(build_condition, bind, argument_types=types)

        def bind_body(arguments):
            bind(arguments)
            if with_counter:
                counter = Value(arguments[0], kt.i64, nonneg=bool(lower.nonneg)
                                and normalized is None)
                mode.next_counter = self.arith("addi", counter, step, stmt)
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

    # ---------------------------------------------------------- expressions
    def expression(self, node) -> Value:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.missed(node, f"expression `{ast.unparse(node)}`")
        value = method(node)
        # The value built must have the type inference gave the node.
        typed = self.typed_value(node)
        if value.type != typed.type or value.weak != typed.weak:
            raise self.missed(node, f"`{ast.unparse(node)}` is built as "
                                    f"{rules.display(value.type)} (weak {value.weak}), inferred "
                                    f"{rules.display(typed.type)} (weak {typed.weak})")
        return value

    def expr_Constant(self, node):
        typed = self.typed_value(node)
        return self.constant(node.value, typed.type, node, weak=typed.weak)

    def expr_Name(self, node):
        return self.load_name(node)

    def before_module_call(self, value: Value, later_nodes, node) -> Value:
        """The array operation `value` computed now when a later operand of
        the same expression calls a function of the module (type inference's
        rule of the same name)."""
        if value.lazy is not None and rules.calls_module_function(later_nodes,
                                                                  self.module.functions):
            return self.materialize(value, node)
        return value

    def expr_BinOp(self, node):
        left = self.before_module_call(self.expression(node.left), [node.right], node)
        right = self.expression(node.right)
        if isinstance(node.op, ast.MatMult):       # `a @ b`: np.dot
            return self.dot([left, right], node)
        return self.binary(node.op, left, right, node)

    def binary(self, op, left: Value, right: Value, node) -> Value:
        """`left <op> right` in the type inference gave the operation (a
        BinOp, or the statement of `x op= v`)."""
        symbol = SUPPORTED_BINOPS[type(op)]
        result = self.typed_value(node)
        if isinstance(result.type, kt.ArrayType):
            return self.array_binary(symbol, left, right, node)
        if result.constant is not None:
            # Python int literals folded exactly (`2**40 + 1`).
            return self.constant(result.constant, result.type, node, weak=result.weak)
        common, weak = result.type, result.weak
        a = self.convert(left, common, node)
        b = self.convert(right, common, node)
        # CPython says "division by zero" for int / int, "float division by
        # zero" once a float is involved.
        integer_true_division = symbol == "/" and not (
            left.type.is_float or right.type.is_float)
        if common.is_complex:
            result = self.complex_arithmetic(symbol, a, b, node,
                                             complex_power_exponent(right))
        else:
            result = self.arithmetic(symbol, a, b, common, node, integer_true_division)
        result.weak = weak
        result.candidates = self.typed_value(node).candidates
        return result

    def arithmetic(self, symbol, a: Value, b: Value, type_, node,
                   integer_true_division=False) -> Value:
        if symbol in ("&", "|", "^"):
            return self.arith({"&": "andi", "|": "ori", "^": "xori"}[symbol],
                              a, b, node)
        if symbol in ("//", "%", "**"):
            # Python semantics (signs, zero divisors, overflow) live in the
            # kiln dialect; kiln-lower-to-std expands them.
            if b.constant is None or b.constant == 0 or symbol == "**":
                self.may_raise = True
            return self.arith({"//": "floordiv", "%": "mod", "**": "pow"}[symbol],
                              a, b, node, unsigned=type_.is_unsigned)
        if symbol in ("<<", ">>"):
            return self.shift(symbol, a, b, type_, node)
        if type_.is_int:
            return self.arith({"+": "addi", "-": "subi", "*": "muli"}[symbol],
                              a, b, node)
        if symbol in ("+", "-", "*"):
            return self.arith({"+": "addf", "-": "subf", "*": "mulf"}[symbol],
                              a, b, node)
        return self.float_division(symbol, a, b, type_, node, integer_true_division)

    def shift(self, symbol, a: Value, count: Value, type_, node) -> Value:
        """`a << count`, `a >> count` in `type_` (docs/language.md, Shifts):
        a negative count raises ValueError (CPython); a count of the width
        or more gives what shifting one bit at a time would: 0 for `<<`,
        0 or -1 (by the sign) for `>>`. LLVM's shl/ashr/lshr by the width
        or more are poison, so the count is clamped before the shift."""
        if type_.signed and (count.constant is None or count.constant < 0):
            zero = self.constant(0, type_, node)
            self.check(self.cmpi("sge", count, zero, node), "ValueError",
                       "negative shift count", [], node)
        width = self.constant(type_.bits, type_, node)
        # Unsigned compare: a negative count (already raised) is huge too.
        in_range = self.cmpi("ult", count, width, node)
        if symbol == ">>" and type_.signed:
            # An arithmetic shift by width-1 is the sign fill that larger
            # counts give.
            last = self.constant(type_.bits - 1, type_, node)
            return self.arith("shrsi", a, self.select(in_range, count, last, node), node)
        zero = self.constant(0, type_, node)
        safe = self.select(in_range, count, zero, node)
        shifted = self.arith("shli" if symbol == "<<" else "shrui", a, safe, node)
        return self.select(in_range, shifted, zero, node)

    def float_division(self, symbol, a, b, type_, node, integer_true_division=False) -> Value:
        zero = self.constant(0.0, type_, node)
        nonzero = self.cmpf("une", b, zero, node)
        message = "division by zero" if integer_true_division else "float division by zero"
        if b.constant is None or b.constant == 0.0:
            self.check(nonzero, "ZeroDivisionError", message, [], node)
        return self.arith("divf", a, b, node)

    def expr_UnaryOp(self, node):
        operand = self.expression(node.operand)
        if isinstance(operand.type, kt.ArrayType):
            return self.array_unary(node.op, operand, node)
        if isinstance(node.op, ast.Not):
            return self.negate(self.truthy(operand, node), node)
        typed = self.typed_value(node)
        if typed.constant is not None:      # `-5`, `~7`, `+True`: folded
            return self.constant(typed.constant, typed.type, node, weak=typed.weak)
        scalar = typed.type
        operand = self.convert(operand, scalar, node)
        if isinstance(node.op, ast.UAdd):
            result = operand
        elif isinstance(node.op, ast.USub) and scalar.is_complex:
            result = self.complex_negate(operand, node)
        elif isinstance(node.op, ast.USub):
            if scalar.is_int:
                zero = self.constant(0, scalar, node)
                result = self.arith("subi", zero, operand, node)
            else:
                result = self.unary("negf", operand, node)
        else:                               # `~x`
            minus_one = self.constant(-1, scalar, node)
            result = self.arith("xori", operand, minus_one, node)
        result.weak = typed.weak
        return result

    def needs_exact_compare(self, value: Value) -> bool:
        """An i64 that a double may not hold exactly (beyond 2**53)."""
        if not isinstance(value.type, kt.ScalarType) or value.type != kt.i64:
            return False
        if value.constant is not None:
            return abs(int(value.constant)) > 2**53
        return not value.weak

    def exact_compare(self, op, integer: Value, number: Value, integer_on_left, node) -> Value:
        """CPython compares an int with a float exactly, not after rounding
        the int to a float."""
        f = self.convert(number, kt.f64, node)
        rounded = self.cast("to_float", integer, kt.f64, node)

        def fcmp(predicate, a, b):
            return self.cmpf(predicate, a, b, node)

        def icmp(predicate, a, b):
            return self.cmpi(predicate, a, b, node)

        def both(a, b):
            return self.arith("andi", a, b, node)

        def either(a, b):
            return self.arith("ori", a, b, node)

        limit = self.constant(9.223372036854775808e18, kt.f64, node)
        in_range = both(fcmp("olt", f, limit), fcmp("oge", f, self.constant(
            -9.223372036854775808e18, kt.f64, node)))
        safe = self.select(in_range, f, self.constant(0.0, kt.f64, node), node)
        whole = self.cast("fptosi", safe, kt.i64, node)
        tie = fcmp("oeq", rounded, f)
        tie_in_range = both(tie, in_range)
        less = either(fcmp("olt", rounded, f), both(tie, either(
            self.negate(in_range, node), icmp("slt", integer, whole))))
        greater = either(fcmp("ogt", rounded, f), both(tie_in_range, icmp("sgt", integer,
                                                                            whole)))
        equal = both(tie_in_range, icmp("eq", integer, whole))
        kind = type(op)
        if not integer_on_left:
            kind = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}.get(
                kind, kind)
        if kind is ast.Lt:
            return less
        if kind is ast.Gt:
            return greater
        if kind is ast.LtE:
            return either(less, equal)
        if kind is ast.GtE:
            return either(greater, equal)
        if kind is ast.Eq:
            return equal
        return self.negate(equal, node)

    def compare(self, op, left: Value, right: Value, node) -> Value:
        common = rules.comparison_type((left.type, left.weak, known_literals(left)),
                                       (right.type, right.weak, known_literals(right)))
        if common.is_complex:
            equal = self.complex_equal(left, right, common, node)
            return equal if isinstance(op, ast.Eq) else self.negate(equal, node)
        if common.is_float and isinstance(left.type, kt.ScalarType) and isinstance(
                right.type, kt.ScalarType):
            if self.needs_exact_compare(left) and right.type.is_float:
                return self.exact_compare(op, left, right, True, node)
            if self.needs_exact_compare(right) and left.type.is_float:
                return self.exact_compare(op, right, left, False, node)
        a = self.convert(left, common, node)
        b = self.convert(right, common, node)
        if common.is_float:
            predicate = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge",
                         ast.Eq: "oeq", ast.NotEq: "une"}[type(op)]
            return self.cmpf(predicate, a, b, node)
        signed = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge",
                  ast.Eq: "eq", ast.NotEq: "ne"}
        unsigned = {ast.Lt: "ult", ast.LtE: "ule", ast.Gt: "ugt", ast.GtE: "uge",
                    ast.Eq: "eq", ast.NotEq: "ne"}
        predicate = (signed if common.is_int and common.signed else unsigned)[type(op)]
        return self.cmpi(predicate, a, b, node)

    def expr_Compare(self, node):
        left = self.compared(node.left, node)
        if len(node.ops) == 1:
            left = self.before_module_call(left, node.comparators, node)
        if isinstance(self.typed_value(node).type, kt.ArrayType):
            return self.array_compare(node.ops[0], left, self.expression(node.comparators[0]),
                                      node)
        if len(node.ops) == 1 and isinstance(left.type, kt.TupleType):
            return self.tuple_compare(node.ops[0], left, self.compared(node.comparators[0], node),
                                      node)
        if len(node.ops) == 1:
            result = self.compare(node.ops[0], left, self.expression(node.comparators[0]), node)
        else:
            # a < b < c: each operand evaluated once, later ones only when needed.
            result = self.chained_compare(left, list(zip(node.ops, node.comparators)), node)
        result.weak = self.typed_value(node).weak    # Python bool of Python numbers
        return result

    def compared(self, operand, node) -> Value:
        if isinstance(operand, ast.Tuple) and len(node.ops) == 1:
            return tuple_value([self.expression(e) for e in operand.elts])
        return self.expression(operand)

    def tuple_compare(self, op, left, right, node) -> Value:
        same = self.constant(len(left.elements) == len(right.elements), kt.boolean, node)
        for a, b in zip(left.elements, right.elements):
            same = self.arith("andi", same, self.compare(ast.Eq(), a, b, node), node)
        return same if isinstance(op, ast.Eq) else self.negate(same, node)

    def chained_compare(self, left, rest, node) -> Value:
        op, comparator = rest[0]
        right = self.expression(comparator)
        result = self.compare(op, left, right, node)
        if len(rest) == 1:
            return result
        then_region, _ = self.region(lambda: self.yield_values(
            [self.chained_compare(right, rest[1:], node)], node))
        false = self.constant(False, kt.boolean, node)
        else_region, _ = self.region(lambda: self.yield_values([false], node))
        [value] = self.scf_if(result, [kt.boolean], then_region, else_region, node)
        return value

    def expr_BoolOp(self, node):
        values = node.values
        return self.bool_op(isinstance(node.op, ast.And), values, node)

    def bool_op(self, is_and, operands, node) -> Value:
        first = self.expression(operands[0])
        if len(operands) == 1:
            return first
        # `a or b or c` is `a or (b or c)`: each tail's type is inference's
        # join of its operands (Python literals on both sides stay a weak
        # Python number, a literal beside a typed operand adapts to it).
        result = self.typed.tail_value(node, len(operands))
        condition = self.truthy(first, node)

        def rest_build():
            value = self.bool_op(is_and, operands[1:], node)
            self.yield_values([self.convert(value, result.type, node)], node)

        def keep_build():
            self.yield_values([self.convert(first, result.type, node)], node)

        rest_region, _ = self.region(rest_build)
        keep_region, _ = self.region(keep_build)
        if is_and:
            [value] = self.scf_if(condition, [result.type], rest_region, keep_region, node)
        else:
            [value] = self.scf_if(condition, [result.type], keep_region, rest_region, node)
        value.weak = result.weak
        return value

    def expr_IfExp(self, node):
        test = self.expression(node.test)
        folded = self.typed.value_of(node.test).constant
        if folded is not None:      # the branch that runs, alone (type inference)
            return self.expression(node.body if folded else node.orelse)
        condition = self.truthy(test, node.test)
        result_type = self.typed.type_of(node)
        holder = {}

        def branch(expr, slot):
            def build():
                value = self.expression(expr)
                holder[slot] = value
                converted = value if value.type == result_type else self.convert(
                    value, result_type, node)
                self.yield_values([converted], node)
            return build

        then_region, _ = self.region(branch(node.body, "then"))
        else_region, _ = self.region(branch(node.orelse, "else"))
        [value] = self.scf_if(condition, [result_type], then_region, else_region, node)
        value.weak = self.typed.value_of(node).weak
        value.candidates = self.typed.value_of(node).candidates
        value.origins = holder["then"].origins | holder["else"].origins
        return value

    # ---------------------------------------------------------------- calls
    def expr_Call(self, node):
        func = node.func
        qualified = self.context.qualified_name(func)
        if qualified is not None and qualified[0] == "numpy" and qualified[1] in \
                rules.ALLOCATORS:
            return self.allocate(qualified[1], node)
        if qualified is not None and qualified[0] == "numpy" and \
                qualified[1] in rules.NUMPY_REDUCTIONS | rules.NUMPY_SCANS:
            return self.reduce(qualified[1], self.expression(node.args[0]), node,
                               node.args[1:], node.keywords)
        if rules.is_positions_call(node, qualified) and qualified is not None:
            return self.shape_function("nonzero", node)         # np.where(a) too
        if qualified is not None and qualified[0] == "numpy" and \
                qualified[1] in rules.SHAPE_FUNCTIONS:
            return self.shape_function(qualified[1], node)
        if qualified is None and isinstance(func, ast.Attribute) and \
                func.attr in rules.SHAPE_METHODS:
            return self.shape_function(func.attr, node, func.value)
        if qualified is not None:
            args = [self.before_module_call(self.expression(arg), node.args[position + 1:], node)
                    for position, arg in enumerate(node.args)]
            keyword_values, _ = rules.keyword_only_arguments(qualified, node.keywords)
            args += [None if v is None else self.expression(v) for v in keyword_values]
            return self.library_call(qualified, args, node)
        if isinstance(func, ast.Attribute) and func.attr in ("copy", "astype", "fill"):
            return self.array_method(func.attr, self.expression(func.value), node)
        if isinstance(func, ast.Attribute) and func.attr == "conjugate":
            z = self.expression(func.value)
            conjugate = self.complex_conjugate(z, node)
            conjugate.weak = z.weak
            return conjugate
        if isinstance(func, ast.Attribute):         # `x.sum(axis=1)`
            return self.reduce(func.attr, self.expression(func.value), node, node.args,
                               node.keywords)
        name = func.id
        if node in self.typed.inlined:
            return self.call_lambda(node)
        if name in self.module.functions:
            return self.call_function(name, node)
        handler = getattr(self, "builtin_" + name)
        return handler([self.expression(a) for a in node.args], node)

    # ------------------------------------------------------------ allocation
    def allocate(self, name, node):
        """np.empty/zeros/ones(shape, dtype) and the *_like forms: a new
        contiguous array owned by this call until it is returned; its type
        (dtype, rank) is inference's."""
        array_type = self.typed.type_of(node)
        keywords = {k.arg: k.value for k in node.keywords}
        args = list(node.args)
        if name.endswith("_like"):
            prototype = self.expression(args[0])
            sizes = [self.dimension(prototype, axis, node)
                     for axis in range(prototype.type.ndim)]
        else:
            shape_node = args[0] if args else keywords.get("shape")
            parts = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
                shape_node]
            if isinstance(shape_node, ast.Attribute) and shape_node.attr == "shape":
                parts = []
                sizes = list(self.expression(shape_node).elements)    # np.zeros(a.shape)
            else:
                sizes = []
            for part in parts:
                size = self.convert(self.expression(part), kt.i64, part)
                if not size.nonneg and not (size.constant is not None and size.constant >= 0):
                    zero = self.constant(0, kt.i64, part)
                    ok = self.cmpi("sge", size, zero, part)
                    self.check(ok, "ValueError", "negative dimensions are not allowed", [], part)
                sizes.append(size)
        view = self.allocate_array(array_type, sizes, node, zeroed=name.startswith("zeros"))
        if name.startswith("ones"):
            self.fill(view, 1, node)
        elif name.startswith("zeros"):
            # A large block fresh from calloc is zero already (kiln_alloc.c).
            location = self.loc(node)
            address = self.builder.cast("index_cast", self.builder.aligned_pointer(
                view.ir, location), ir.i64, location)
            self.external_functions.add("kiln_alloc_zeroed")
            [zeroed] = self.builder.call("kiln_alloc_zeroed", [address], [ir.i64], location)
            clear = self.cmpi("eq", Value(zeroed, kt.i64), self.constant(0, kt.i64, node), node)
            region = self.builder.region()
            with self.builder.at_end(region.block):
                self.fill(view, 0, node)
                self.builder.scf_yield([], location)
            self.builder.scf_if(clear.ir, [], region, None, location)
        return view

    def allocate_array(self, array_type, sizes, node, zeroed=False) -> Value:
        """A new contiguous array of these (int64, >= 0) sizes, owned by
        this call until it is returned."""
        dtype = array_type.dtype
        # numpy's limit: the byte size must fit in a signed 64-bit integer.
        total = self.constant(dtype.itemsize, kt.i64, node)
        fits = self.constant(True, kt.boolean, node)
        location = self.loc(node)
        for size in sizes:
            low, high = self.builder.mului_extended(total.ir, size.ir, location)
            zero = self.constant(0, kt.i64, node)
            no_carry = self.cmpi("eq", Value(high, kt.i64), zero, node)
            positive = self.cmpi("sge", Value(low, kt.i64), zero, node)
            fits = self.arith("andi", fits, no_carry, node)
            fits = self.arith("andi", fits, positive, node)
            total = Value(low, kt.i64)
        self.check(fits, "ValueError", "array is too big; `arr.size * arr.dtype.itemsize` is "
                   "larger than the maximum possible size.", [], node)
        dims = [self.builder.cast("index_cast", size.ir, ir.index, location)
                for size in sizes]
        plain = ir.memref_type([None] * len(sizes), mlir_type(dtype))
        self.allocation_count += 1
        identity = f"alloc:{self.allocation_count}"
        if zeroed:      # np.zeros: large blocks from calloc (kiln_alloc.c)
            self.external_functions.add("kiln_alloc_zeroed_next")
            self.builder.call("kiln_alloc_zeroed_next", [], [], location)
        raw = self.builder.alloc(plain, dims, 64, {}, location)
        address = self.builder.aligned_pointer(raw, location)
        null = self.index_constant(0, node)
        allocated = Value(self.builder.cmpi("ne", address, null, location), kt.boolean)
        self.check(allocated, "MemoryError", "cannot allocate the array", [], node)
        return Value(self.builder.cast("cast", raw, mlir_type(array_type), location),
                     array_type, origins=frozenset([identity]))

    def fill(self, array: Value, value, node):
        """Stores `value` into every element: a loop nest over the axes."""
        fill_value = self.constant(value, array.type.dtype, node)
        location = self.loc(node)
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        counters = []

        def loop(axis):
            if axis == array.type.ndim:
                self.builder.store(fill_value.ir, array.ir, counters, location)
                return
            axis_index = self.index_constant(axis, node)
            size = self.builder.dim(array.ir, axis_index, location)
            body = self.builder.region([ir.index])
            counters.append(body.block.arguments[0])
            with self.builder.at_end(body.block):
                loop(axis + 1)
            self.builder.scf_for(zero, size, one, [], body, location)

        loop(0)

    def call_lambda(self, node):
        parameters, body = self.typed.inlined[node]
        values = [self.expression(arg) for arg in node.args]
        values = [self.materialize(v, arg) if v.lazy is not None else v
                  for v, arg in zip(values, node.args)]
        saved = {p: self.symbols.get(p) for p in parameters}
        self.symbols.update(zip(parameters, values))
        try:
            return self.expression(body)
        finally:
            for parameter, value in saved.items():
                if value is None:
                    self.symbols.pop(parameter, None)
                else:
                    self.symbols[parameter] = value

    def call_function(self, name, node):
        """A call to another function of the module, compiled alongside;
        its signature is the callee's inferred one."""
        try:
            self.module.signature(name)
        except KilnCompileError as error:
            # Code generation of the callee failed (inference accepted it).
            first = error.diagnostics[0]
            raise self.error(node, f"calls `{name}`, which cannot be compiled "
                                   f"({first.message}, line {first.line})")
        signature = self.typed.callees[name]
        params = signature.params
        bound = list(node.args) + [None] * (len(params) - len(node.args))
        for keyword in node.keywords:
            slot = next(i for i, p in enumerate(params) if p.name == keyword.arg)
            bound[slot] = keyword.value
        operands = []
        arguments = {}
        for param, arg_node in zip(params, bound):
            # A missing argument is the parameter's default (a number).
            value = self.expression(arg_node) if arg_node is not None else self.constant(
                param.default, param.type, node)
            arguments[param.name] = value
            if not isinstance(param.type, kt.ArrayType):
                value = self.convert(value, param.type, arg_node)
            operands.append(self.to_abi(value, arg_node))
        if signature.raises:
            self.may_raise = True
            operands.append(self.error_slot)
        result = signature.return_type
        elements = [] if result is None else (
            list(result.elements) if isinstance(result, kt.TupleType) else [result])
        location = self.loc(node)
        results = self.builder.call(symbol_name(self.context, name), operands,
                                    [abi_type(t) for t in elements], location)
        if signature.raises:
            self.builder.kiln_propagate_error(location)
        converted = [self.from_abi(result, type_, node) for result, type_ in zip(results, elements)]
        if not converted:
            return Value(None, None)
        for position, element in enumerate(converted):
            if isinstance(element.type, kt.ArrayType):
                # A new array, the caller's, or a view of an argument
                # (kiln-buffer-deallocation tells which at run time).
                self.allocation_count += 1
                origins = {f"alloc:{self.allocation_count}"}
                for parameter in signature.returned_parameters.get(position, ()):
                    origins |= arguments[parameter].origins
                element.origins = frozenset(origins)
        return converted[0] if len(converted) == 1 else tuple_value(converted)

    def builtin_len(self, args, node):
        if isinstance(args[0].type, kt.TupleType):
            return self.constant(len(args[0].elements), kt.i64, node)      # len(a.shape)
        return self.dimension(args[0], 0, node)

    def dimension(self, array: Value, axis: int, node) -> Value:
        axis_index = self.index_constant(axis, node)
        location = self.loc(node)
        size = self.builder.dim(array.ir, axis_index, location)
        return Value(self.builder.cast("index_cast", size, ir.i64, location), kt.i64,
                     nonneg=True)

    def shape_of(self, array: Value, node) -> list:
        """The sizes of an array's axes, as int64 values."""
        return [self.dimension(array, axis, node) for axis in range(array.type.ndim)]

    def builtin_abs(self, args, node):
        if isinstance(args[0].type, kt.ArrayType):
            return self.array_ufunc("absolute", args, node)     # ndarray.__abs__
        typed = self.typed_value(node)
        if typed.constant is not None:          # abs of a Python literal: folded
            return self.constant(typed.constant, typed.type, node, weak=typed.weak)
        if args[0].type == kt.c64:
            # numpy's complex64 scalar __abs__ is npy_hypotf, glibc's hypotf
            # (np.abs of one runs the ufunc loop: numpy_abs_complex64)
            return self.libm_call("hypotf", list(self.complex_parts(args[0], node)), node)
        if args[0].type.is_complex:
            magnitude = self.complex_abs(args[0], node)
            magnitude.weak = "float" if args[0].weak else None
            return magnitude
        value = self.convert(args[0], rules.abs_type(args[0].type), node)
        if value.type.is_unsigned:
            return value       # numpy: the absolute value of an unsigned int is itself
        return self.unary("absf" if value.type.is_float else "absi", value, node,
                          weak=value.weak)

    def builtin_min(self, args, node):
        return self.min_max(args, node, ast.Lt(), "min")

    def builtin_max(self, args, node):
        return self.min_max(args, node, ast.Gt(), "max")

    def min_max(self, args, node, op, name):
        result = args[0]
        for candidate in args[1:]:
            pair = ((result.type, result.weak, known_literals(result)),
                    (candidate.type, candidate.weak, known_literals(candidate)))
            static = rules.static_min_max(name, *pair)
            if static is not None:
                result = (result, candidate)[static]
                continue
            # The type of each step is the type the two are compared in.
            common = rules.comparison_type(*pair)
            weak = rules.operand_types(result.type, result.weak, candidate.type,
                                       candidate.weak)[1]
            known = rules.python_int_min_max(
                name, (result.weak, result.constant, result.candidates),
                (candidate.weak, candidate.constant, candidate.candidates))
            if known and known[0] == "constant":
                result = self.constant(known[1], common, node, weak="int")
                continue
            a = self.convert(result, common, node)
            b = self.convert(candidate, common, node)
            # CPython keeps the earlier argument unless the later one is
            # strictly smaller (larger), which fixes what NaN gives.
            better = self.compare(op, b, a, node)
            result = self.select(better, b, a, node, weak=weak)
            result.candidates = known[1] if known else None
        return result

    def builtin_float(self, args, node):
        # A Python float is a double: float(x) of a float32 is exact in f64.
        return self.python_number(self.convert(args[0], kt.f64, node), node)

    def builtin_int(self, args, node):
        # A Python int: int(x) of an int32 is 64-bit (int(x) * 2**40 does
        # not wrap at 32 bits).
        return self.python_number(self.convert(args[0], kt.i64, node, explicit=True), node)

    def python_number(self, converted, node):
        """float()/int() of a Python number stays weak (type inference's
        python_number_conversion decides; its constant is folded there)."""
        typed = self.typed_value(node)
        if not typed.weak:
            return converted
        if typed.constant is not None:
            return self.constant(typed.constant, typed.type, node, weak=typed.weak)
        return dataclasses.replace(converted, weak=typed.weak, candidates=typed.candidates)

    def builtin_bool(self, args, node):
        return self.truthy(args[0], node)

    # ------------------------------------------------------- array elements
    def expr_Attribute(self, node):
        qualified = self.context.qualified_name(node)
        if qualified is not None:
            module, name = qualified
            constants = {"math": rules.MATH_CONSTANTS, "numpy": rules.NUMPY_CONSTANTS}[module]
            typed = self.typed_value(node)
            return self.constant(constants[name], typed.type, node, weak=typed.weak)
        base = self.expression(node.value)
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
        callee = self.context.qualified_name(node.value.func) \
            if isinstance(node.value, ast.Call) else None
        if rules.is_positions_call(node.value, callee) or rules.is_tuple_call(node.value, callee):
            return self.expression(node.value).elements[rules.constant_int(node.slice)]
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


class ModuleCompiler:
    """Generates the functions of one module on demand from their typed
    trees (`types`, a type_inference.ModuleTypes): the requested ones, and
    the helpers they call (generated as private functions)."""

    def __init__(self, context, types):
        self.context = context
        self.types = types
        self.functions = context.module_functions()
        self.constants = types.constants
        self.results: dict = {}          # name -> (func op, signature) | KilnCompileError
        self.in_progress: list = []
        self.order: list = []
        self.hit_recursion_limit = False

    def signature(self, name) -> FunctionSignature:
        if name in self.results:
            result = self.results[name]
            if isinstance(result, KilnCompileError):
                raise result
            return result[1]
        return self.compile(name)[1]

    def compile(self, name):
        func = self.functions[name]
        self.in_progress.append(name)
        try:
            typed = self.types.functions[name]
            if not typed.ok or len(self.in_progress) != len(set(self.in_progress)):
                # Inference rejects both (recursion included): a caller
                # that reaches here is a bug.
                raise InferenceMismatch(f"`{name}` is generated but did not type")
            generator = FunctionCodeGenerator(self.context, typed, self)
            function, signature = generator.generate()
            signature.external_functions = generator.external_functions
        except KilnCompileError as error:
            self.results[name] = error
            raise
        except ir.IRError as invalid:
            if os.environ.get("KILN_DEBUG"):
                raise
            error = invalid_ir_error(self.context, func, invalid)
            self.results[name] = error
            raise error from None
        except RecursionError:
            # Python's recursion limit while walking the syntax tree: the
            # function alone falls back (generate_module retries on a
            # deeper stack first).
            self.hit_recursion_limit = True
            error = nested_too_deeply(self.context, func)
            self.results[name] = error
            raise error from None
        except Exception as exception:  # noqa: BLE001 - a compiler bug stays in its function
            if os.environ.get("KILN_DEBUG"):
                raise
            error = internal_compiler_error(self.context, func, exception)
            self.results[name] = error
            raise error from None
        finally:
            self.in_progress.remove(name)
        lines = self.context.source.splitlines()
        signature.source_line = lines[func.lineno - 1].strip() if func.lineno <= len(lines) else ""
        self.results[name] = (function, signature)
        self.order.append(name)
        return function, signature


# The libm functions generated code calls: name -> (parameter types, result).
# Functions the kernels call outside the module: libm's, and Kiln's runtime
# (kiln_reshape_stride: runtime/kiln_shapes.c; kiln_alloc_zeroed[_next]: kiln_alloc.c;
# linked by kilnc).
EXTERNAL_SIGNATURES = {
    "hypot": ((kt.f64, kt.f64), kt.f64), "hypotf": ((kt.f32, kt.f32), kt.f32),
    "expm1": ((kt.f64,), kt.f64), "expm1f": ((kt.f32,), kt.f32),
    "log1p": ((kt.f64,), kt.f64), "log1pf": ((kt.f32,), kt.f32),
    "kiln_reshape_stride": ((kt.i64,) * (3 + 3 * rules.MAX_ARRAY_NDIM), kt.i64),
    "kiln_alloc_zeroed": ((kt.i64,), kt.i64), "kiln_alloc_zeroed_next": ((), None),
    # glibc's complex functions (np.exp of complex numbers): a complex<f64>
    # argument and result are the two-double struct of the C ABI
    **{name: ((kt.c128,), kt.c128) for name in rules.COMPLEX_LIBM.values()},
    # ... and their float _Complex versions (cexpf, ...), a <2 x float> in
    # and out (abi_type)
    **{name + "f": ((kt.c64,), kt.c64) for name in rules.COMPLEX_LIBM.values()}}
FASTMATH_OPS = frozenset(["addf", "subf", "mulf", "divf"])


def nested_too_deeply(context, func) -> KilnCompileError:
    depth, statement = deepest_statement(func)
    return KilnCompileError(context.diagnostic(
        statement, f"expression nested too deeply ({depth} levels) for Kiln; split it into "
                   "several statements", func.name))


def internal_compiler_error(context, func, exception) -> KilnCompileError:
    """An unexpected exception while generating `func`: only `func` falls
    back (KILN_DEBUG=1 raises it instead)."""
    return KilnCompileError(context.diagnostic(
        func, f"internal compiler error in `{func.name}`: {type(exception).__name__}: "
              f"{exception} (please report it; set KILN_DEBUG=1 for the traceback)", func.name))


def invalid_ir_error(context, func, invalid: ir.IRError) -> KilnCompileError:
    """MLIR generation built IR that would not verify (the builder's
    checks): an internal compiler error of `func` alone, with the IR built
    so far saved for the report."""
    import tempfile

    saved = ""
    try:
        descriptor, path = tempfile.mkstemp(prefix=f"kiln-{context.module_name}.{func.name}.",
                                            suffix=".invalid.mlir")
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(f"// {invalid}\n{invalid.ir_text}")
        saved = f"; the IR is saved in {path}"
    except OSError:
        pass
    return KilnCompileError(context.diagnostic(
        func, f"internal compiler error in `{func.name}` during MLIR generation: the generated "
              f"MLIR is invalid: {invalid}{saved} (please report it; set KILN_DEBUG=1 for the "
              "traceback)", func.name))


# Retrying a module whose syntax tree is too deep for Python's default
# recursion limit: on a thread with this stack and this limit, every
# nesting CPython itself compiles (its parser and compiler stop near 3,000
# levels at the default limit) compiles; a deeper one falls back with
# `nested_too_deeply`.
DEEP_STACK_BYTES = 512 << 20
DEEP_RECURSION_LIMIT = 60000


def run_with_deep_stack(function, *args):
    import threading

    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args)
        except BaseException as exception:  # noqa: BLE001 - re-raised in the caller
            outcome["error"] = exception

    previous_limit = sys.getrecursionlimit()
    previous_stack = threading.stack_size()
    try:
        threading.stack_size(DEEP_STACK_BYTES)
        worker = threading.Thread(target=run, name="kiln-deep-codegen")
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(max(previous_limit, DEEP_RECURSION_LIMIT))
        worker.start()
        worker.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def generate_module(context, functions, typed=None):
    """MLIR for the given exported functions and everything they call.

    `typed` is the type-inference stage's result (type_inference.ModuleTypes)
    for these functions; it is inferred here when None. Returns (text,
    signatures of the compiled exported functions, failures: name ->
    KilnCompileError with every diagnostic for the exported functions that
    cannot be compiled). A function that hits Python's recursion limit (a
    2,000-term sum), in inference or here, makes both run again on a deep
    stack."""
    text, signatures, failures, deep = generate_module_once(context, functions, typed)
    if deep:
        try:
            text, signatures, failures, _ = run_with_deep_stack(
                generate_module_once, context, functions, None)
        except (RuntimeError, MemoryError, ValueError):
            pass  # no thread for it: keep the first result's fallbacks
    return text, signatures, failures


def generate_module_once(context, functions, typed=None):
    if typed is None or typed.hit_recursion_limit:
        typed = infer_module(context, functions)
    compiler = ModuleCompiler(context, typed)
    failures = dict(typed.failures)
    for func in functions:
        if func.name in failures:
            continue    # every type error of it is reported; it is not generated
        try:
            compiler.signature(func.name)
        except KilnCompileError as error:
            failures[func.name] = error
    failures = {f.name: failures[f.name] for f in functions if f.name in failures}
    compiled = [compiler.results[name] for name in compiler.order
                if not isinstance(compiler.results[name], KilnCompileError)]
    module = ir.Module(ir.file_location(context.path, 1, 1))
    builder = ir.Builder()
    for external in sorted({f for _, sig in compiled for f in sig.external_functions}):
        inputs, result = EXTERNAL_SIGNATURES[external]
        module.add(builder.func_declaration(external, [abi_type(t) for t in inputs],
                                            [] if result is None else [abi_type(result)]))
    for function, _ in compiled:
        module.add(function)
    wanted = [f.name for f in functions]
    signatures = [sig for _, sig in compiled
                  if sig.exported and sig.name in wanted and sig.name not in failures]
    signatures.sort(key=lambda sig: wanted.index(sig.name))
    for signature in list(signatures):
        if not signature.elementwise:
            continue
        node = context.module_functions()[signature.name]
        if f"{signature.name}__array" in context.module_functions():
            # Its array version would take that function's symbol.
            failures[signature.name] = KilnCompileError(context.diagnostic(
                node, f"@kiln.vectorize `{signature.name}` needs the name "
                      f"`{signature.name}__array` for its array version, and the module has a "
                      "function of that name; rename one of them", signature.name))
            signatures.remove(signature)
            continue
        try:
            module.add(elementwise_kernel(context, signature))
        except ir.IRError as invalid:
            if os.environ.get("KILN_DEBUG"):
                raise
            failures[signature.name] = invalid_ir_error(context, node, invalid)
            signatures.remove(signature)
        except Exception as exception:  # noqa: BLE001 - a compiler bug stays in its function
            if os.environ.get("KILN_DEBUG"):
                raise
            failures[signature.name] = internal_compiler_error(context, node, exception)
            signatures.remove(signature)
    return module.print(), signatures, failures, \
        compiler.hit_recursion_limit or typed.hit_recursion_limit


ELEMENTWISE_RANK = 3


def elementwise_kernel(context, signature) -> ir.Operation:
    """`<name>__array(x..., out)`: the scalar function applied to every
    element of 3-D strided views (stride 0 broadcasts). The wrapper pads
    lower-rank and scalar arguments to this shape."""
    location = ir.file_location(context.path, signature.line, 1)
    rank = ELEMENTWISE_RANK
    result = signature.return_type
    inputs = [mlir_type(kt.ArrayType(p.type, rank)) for p in signature.params]
    entry = ir.Block(inputs + [mlir_type(kt.ArrayType(result, rank))])
    if signature.raises:
        error_slot = entry.add_argument(ir.llvm_pointer)
    arrays, out = entry.arguments[:len(inputs)], entry.arguments[len(inputs)]
    builder = ir.Builder(entry)
    axes = [builder.index_constant(k, location) for k in range(rank)]
    one = builder.index_constant(1, location)
    sizes = [builder.dim(out, axes[k], location) for k in range(rank)]
    counters = []

    def loop(axis):
        if axis == rank:
            operands = [builder.load(array, counters, location) for array in arrays]
            if signature.raises:
                operands.append(error_slot)
            [value] = builder.call(symbol_name(context, signature.name), operands,
                                   [mlir_type(result)], location)
            if signature.raises:
                builder.kiln_propagate_error(location)
            builder.store(value, out, counters, location)
            return
        body = builder.region([ir.index])
        counters.append(body.block.arguments[0])
        with builder.at_end(body.block):
            loop(axis + 1)
        builder.scf_for(axes[0], sizes[axis], one, [], body, location)

    loop(0)
    builder.func_return([], location)
    argument_attributes = {len(inputs) + 1: {"kiln.error_slot": ir.UNIT}} \
        if signature.raises else None
    return builder.func(symbol_name(context, signature.name + "__array"), ir.Region([entry]), [],
                        location, attributes={"kiln.export": ir.UNIT,
                                              "llvm.emit_c_interface": ir.UNIT},
                        argument_attributes=argument_attributes)
