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
import math
import os
import sys
from .function_signature import FunctionSignature  # noqa: F401 - the generators' record

from .. import typesystem as kt
from ..errors import Diagnostic, KilnCompileError, display_name
from . import ir_builder as ir
from .. import typing_rules as rules
from ..library_functions import COMPLEX_LIBM, LIBM_CALLS
from .array_expressions import ArrayExpressions
from .reductions import ArrayReductions
from .array_shapes import ArrayShapes
from .array_indexing import ArrayIndexing
from .complex_numbers import ComplexNumbers
from .library import LibraryCalls
from .parallel_lowering import ParallelLowering, describe_parallel_loop, uses_parallel_loops
from .call_lowering import NOT_INLINED, CallLowering
from .statement_lowering import ExitMode, StatementLowering
from .subscript_lowering import SubscriptLowering
from .tuple_lowering import TupleLowering
from .list_lowering import ListLowering
from .dict_lowering import DictLowering
from .set_lowering import SetLowering
from .str_lowering import StrLowering
from .list_algorithms import ListAlgorithms
from .range_lowering import RangeLowering
from .constant_lowering import ConstantLowering
from .generator_lowering import GeneratorLowering
from .ownership import ContainerOwnership
from .class_lowering import ClassLowering, slot_global, uses_instances
from .class_protocols import ClassProtocolLowering
from .elementwise_kernels import elementwise_kernel, has_reduction_kernel, reduction_kernel
# The generator's values stay importable from here.
from .values import (COMPLEX64_ABI, Value, abi_type, flatten, mlir_type,  # noqa: F401
                     recursive_body_symbol, symbol_name, tuple_value)
from ..frontend.source import deepest_statement
from ..frontend.subset import SUPPORTED_BINOPS
from ..typecheck.type_inference import infer_module
from ..typecheck.typed_tree import is_container, is_counted, is_range, is_set, is_str
from ..typecheck.dict_typing import is_dict_like
from ..typecheck.typed_tree import (  # noqa: F401 - Parameter stays importable from here
    Parameter, complex_power_exponent, known_literals)


class InferenceMismatch(Exception):
    """Code generation met a type (or a typing error) the inference stage
    did not give it: a compiler bug, reported as an internal compiler error
    of the function."""


class FunctionCodeGenerator(StatementLowering, ParallelLowering, CallLowering, SubscriptLowering,
                            LibraryCalls, ArrayExpressions, ArrayReductions, ArrayShapes,
                            ArrayIndexing, ComplexNumbers, TupleLowering, ListLowering,
                            DictLowering, SetLowering, StrLowering, ListAlgorithms,
                            ContainerOwnership, ClassLowering, ClassProtocolLowering,
                            RangeLowering, ConstantLowering, GeneratorLowering):
    """Builds one function's MLIR in one walk, reading its types from the
    function's `TypedFunction` (`typed`). This class lowers expressions; the
    mixins lower statements, calls, subscripts, library calls, whole-array
    expressions, reductions, shape functions, indexing with arrays,
    complex numbers, tuples, lists, dicts, sets, ranges, module constants
    and generator expressions."""

    def __init__(self, context, typed, module):
        self.context = context
        self.typed = typed
        self.func = typed.node
        self.options = typed.options
        self.module = module
        self.exported = typed.exported
        self.external_functions: set = set()
        self.used_classes: set = set()      # whose type slot it reads (class_lowering.py)
        self.boundscheck = self.options.get("boundscheck", True)
        # Reassociation (and FMA contraction) only when the user allows it:
        # it changes results. NaN and infinity keep their meaning.
        self.fastmath = ir.FASTMATH_REASSOC_CONTRACT if self.options.get("fastmath") else None
        # Whether the IR built can raise (checks, Python-semantics ops,
        # calls of raising functions): inference must have said so.
        self.may_raise = False
        self.locations: dict = {}        # (line, column) -> ir.Location
        # An array statement or matrix product shared out between threads
        # (parallel=True).
        self.parallel_product = False
        # Parallel loops (prange blocks, shared reductions) the IR being
        # built is inside: a reduction there stays on its thread.
        self.parallel_depth = 0
        # What parallel=True shared out beside the prange loops (the
        # record's parallel_loops[]).
        self.shared_work: list = []

    # ------------------------------------------------------------------ api
    def generate(self) -> tuple[ir.Operation, FunctionSignature]:
        function = self.emit_function()
        if self.may_raise and not self.typed.raises:
            raise InferenceMismatch(f"`{self.func.name}` can raise, but type inference says "
                                    "it cannot")
        return function, self.signature()

    def signature(self) -> FunctionSignature:
        typed = self.typed
        owner = getattr(self.func, "kiln_class", None)
        instances = uses_instances(typed)
        return FunctionSignature(
            class_name=owner, method_name=getattr(self.func, "kiln_method", None),
            method_kind=getattr(self.func, "kiln_method_kind", ""),
            symbol=symbol_name(self.context, self.func.name),
            name=self.func.name, params=list(typed.params), return_type=typed.return_type,
            raises=typed.raises, written_arrays=set(typed.written_arrays),
            returned_parameters=dict(typed.returned_parameters),
            line=self.func.lineno, exported=self.exported,
            release_gil=not instances and self.options.get("nogil", uses_parallel_loops(
                typed) or any(isinstance(p.type, kt.ArrayType) for p in typed.params)),
            parallel=uses_parallel_loops(typed) or self.parallel_product,
            parallel_loops=[describe_parallel_loop(loop, info)
                            for loop, info in typed.parallel_loops.items()] + self.shared_work,
            sequential_loops=[{"line": loop.lineno, "reason": display_name(reason)}
                              for loop, reason in typed.sequential_loops.items()],
            elementwise=bool(self.options.get("elementwise")),
            ufunc_identity=self.options.get("identity"),
            ufunc_name=getattr(self.func, "kiln_ufunc", self.func.name),
            gufunc_signature=self.options.get("gufunc", ""),
            options_given=frozenset(self.options),
            function_parameters=list(getattr(self.func, "kiln_function_parameters", [])),
            tuple_parameters=dict(getattr(self.func, "kiln_tuple_parameters", {})),
            python_parameters=getattr(self.func, "kiln_python_parameters", ()))

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
            # Kiln's kernels (frontend/kernels) carry their own file.
            location = ir.file_location(getattr(self.func, "kiln_source_path",
                                                self.context.path), line, column)
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
        if is_str(a.type):
            # kiln-lower-containers converts no arith.select of a !kiln.str:
            # an scf.if yields one of the two.
            then_region, _ = self.region(lambda: self.yield_values([a], node))
            else_region, _ = self.region(lambda: self.yield_values([b], node))
            [chosen] = self.scf_if(condition, [a.type], then_region, else_region, node)
            return Value(chosen.ir, a.type, **attrs)
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
        if isinstance(source, (kt.ClassType, kt.NoneType)) or isinstance(target, kt.ClassType):
            return self.convert_instance(value, target, node)       # class_lowering.py
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
        # Finite values beyond the 64-bit range would be undefined in LLVM.
        # The range is [-2**63, 2**63): -2**63 itself fits. The hot test is
        # one ordered compare of the magnitude (false for NaN and the
        # infinities too; a mask and a compare, where both bounds took two
        # compares: histogram loops ran 8 % faster); -2**63 fails it and
        # passes the cold path's exact test. Which error it is (NaN,
        # infinity, too large) is worked out only on the cold path.
        limit = self.constant(2.0 ** 63, value.type, node)
        low = self.constant(-2.0 ** 63, value.type, node)
        surely_in_range = self.cmpf("olt", self.unary("absf", value, node), limit, node)

        def explain():
            is_nan = self.cmpf("uno", value, value, node)
            self.check(self.negate(is_nan, node), "ValueError",
                       "cannot convert float NaN to integer", [], node)
            magnitude = self.unary("absf", value, node)
            is_inf = self.cmpf("oeq", magnitude, self.constant(math.inf, value.type, node), node)
            self.check(self.negate(is_inf, node), "OverflowError",
                       "cannot convert float infinity to integer", [], node)
            below = self.cmpf("olt", value, limit, node)
            above = self.cmpf("oge", value, low, node)
            in_range = self.arith("andi", below, above, node)
            self.check(in_range, "OverflowError", too_large, [], node)
            self.yield_values([], node)

        explained, _ = self.region(explain)
        nothing, _ = self.region(lambda: self.yield_values([], node))
        self.scf_if(self.negate(surely_in_range, node), [], explained, nothing, node)
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
        if isinstance(scalar, kt.ListType):
            return self.list_truthy(value, node)
        if is_dict_like(scalar) or is_set(scalar):
            return self.dict_truthy(value, node)
        if is_range(scalar):
            return self.range_truthy(value, node)
        if is_str(scalar):
            return self.str_truthy(value, node)
        if isinstance(scalar, (kt.ClassType, kt.NoneType)):
            return self.instance_truthy(value, node)
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
        # The dict loops being built: hidden iterable -> (its dict, the slot).
        self.walk_slots: dict = {}

        entry = ir.Block([abi_type(p.type) for p in params])
        self.builder = ir.Builder(entry)
        # A function in a recursion cycle: how many recursive calls deep
        # this call is (the hidden argument; 0 from outside the cycles).
        recursive = bool(self.typed.recursion_cycle)
        self.recursion_depth = entry.add_argument(ir.i64) if recursive else None
        # The caller's error record, for calls and checks; dropped at the
        # end when nothing can raise (then nothing used it).
        self.error_slot = entry.add_argument(ir.llvm_pointer)
        for param, argument in zip(params, entry.arguments):
            value = Value(argument, param.type, origins=frozenset([param.name]))
            if abi_type(param.type) is not mlir_type(param.type):   # bool, complex64
                value = self.from_abi(argument, param.type, self.func)
            self.symbols[param.name] = value
        self.retain_container_parameters()
        self.build_constant_containers()
        self.generate_body(self.func.body, terminal=True)

        argument_attributes = None
        if self.typed.raises:
            argument_attributes = {len(params) + recursive: {"kiln.error_slot": ir.UNIT}}
        else:
            entry.erase_argument(self.error_slot)
        # A recursive function's body is private: its C ABI, when exported,
        # is the entry `exported_entry` builds.
        public = self.exported and not recursive
        attributes = {"kiln.export": ir.UNIT, "llvm.emit_c_interface": ir.UNIT} \
            if public else None
        if self.options.get("parallel"):
            # kiln-parallel-arrays shares its array statements out.
            attributes = {**(attributes or {}), "kiln.parallel": ir.UNIT}
        symbol = recursive_body_symbol(self.context, self.func.name) if recursive else \
            symbol_name(self.context, self.func.name)
        return self.builder.func(symbol, ir.Region([entry]), self.result_abi_types(),
                                 self.loc(self.func), private=not public, attributes=attributes,
                                 argument_attributes=argument_attributes)

    def exported_entry(self) -> ir.Operation:
        """The C ABI function of an exported recursive function: its own
        signature (the hidden depth argument does not leak into `<mod>.h` or
        the wrapper), calling the body at depth 0."""
        params = self.typed.params
        entry = ir.Block([abi_type(p.type) for p in params])
        error_slot = entry.add_argument(ir.llvm_pointer)
        location = self.loc(self.func)
        builder = ir.Builder(entry)
        depth = builder.integer_constant(0, ir.i64, location)
        results = builder.call(recursive_body_symbol(self.context, self.func.name),
                               [*entry.arguments[:len(params)], depth, error_slot],
                               self.result_abi_types(), location, NOT_INLINED)
        builder.kiln_propagate_error(location)
        builder.func_return(results, location)
        return builder.func(symbol_name(self.context, self.func.name), ir.Region([entry]),
                            self.result_abi_types(), location,
                            attributes={"kiln.export": ir.UNIT, "llvm.emit_c_interface": ir.UNIT},
                            argument_attributes={len(params): {"kiln.error_slot": ir.UNIT}})

    # ---------------------------------------------------------- expressions
    def expression(self, node) -> Value:
        typed = self.typed.values.get(node)
        if typed is not None and isinstance(typed.type, kt.DTypeValue):
            return self.dtype_constant(typed.type, node)
        if isinstance(node, ast.Compare) and isinstance(
                getattr(self.typed.values.get(node.left), "type", None), kt.DTypeValue):
            return self.constant(typed.constant, kt.boolean, node)      # known when typed
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

    def dtype_constant(self, dtype: kt.DTypeValue, node) -> Value:
        """A dtype as a value: its code, which nothing reads (the type says
        which dtype it is)."""
        return Value(self.builder.integer_constant(dtype.code, ir.i8, self.loc(node)), dtype)

    def expr_Constant(self, node):
        typed = self.typed_value(node)
        if is_str(typed.type):
            return self.str_constant(node.value, node)
        if isinstance(typed.type, kt.NoneType):
            return Value(None, kt.none_type, weak="None")   # made of the type it is used as
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
        if isinstance(left.type, (kt.ClassType, kt.NoneType)) or isinstance(
                right.type, (kt.ClassType, kt.NoneType)):
            return self.instance_binary(node, left, right)      # `a + b`: __add__
        if isinstance(node.op, ast.MatMult) and hasattr(node, "_kiln_kernel_call"):
            return self.linalg_call("matmul", node)     # stacks of matrices: a kernel
        if isinstance(node.op, ast.MatMult):       # `a @ b`: np.dot
            return self.dot([left, right], node)
        if is_set(left.type) or is_set(right.type):
            return self.set_binary(node, left, right)
        if isinstance(left.type, kt.ListType) or isinstance(right.type, kt.ListType):
            return self.list_binary(node, left, right)
        if is_str(left.type) or is_str(right.type):
            return self.str_binary(node, left, right)
        return self.binary(node.op, left, right, node)

    def binary(self, op, left: Value, right: Value, node, typed=None) -> Value:
        """`left <op> right` in the type inference gave the operation (a
        BinOp, or the statement of `x op= v`; `typed` when the operation is
        part of the node's value, as `divmod(a, b)`'s quotient)."""
        symbol = SUPPORTED_BINOPS[type(op)]
        result = typed = self.typed_value(node) if typed is None else typed
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
        result.candidates = typed.candidates
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
        if type_.is_bool:       # numpy's bools (type inference): a logical or and and
            return self.arith({"+": "ori", "*": "andi"}[symbol], a, b, node)
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
        if is_container(operand.type) or is_str(operand.type):
            return self.list_unary(node, operand)          # `not xs`, `not s`
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
        if is_str(left.type):
            return self.str_compare(op, left, right, node)
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
        if getattr(node, "_kiln_instance_compare", False):
            return self.instance_compare_node(node)             # class_lowering.py
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) or any(
                self.is_list_valued(n) or self.is_dict_valued(n) or self.is_set_valued(n)
                for n in [node.left, *node.comparators]):
            return self.list_compare(node)
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
            right = self.expression(node.comparators[0])
            result = self.compare(node.ops[0], left, right, node)
            self.done_with(node, left, right)       # temporary strings
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
        # A temporary string is released after its last comparison: the
        # middle operand of `a < b < c` after the second, or where the
        # chain stops.
        self.done_with(node, left)
        if len(rest) == 1:
            self.done_with(node, right)
            return result
        then_region, _ = self.region(lambda: self.yield_values(
            [self.chained_compare(right, rest[1:], node)], node))
        false = self.constant(False, kt.boolean, node)

        def stop():
            self.done_with(node, right)
            self.yield_values([false], node)

        else_region, _ = self.region(stop)
        [value] = self.scf_if(result, [kt.boolean], then_region, else_region, node)
        return value

    def expr_BoolOp(self, node):
        values = node.values
        return self.bool_op(isinstance(node.op, ast.And), values, node)

    def bool_op(self, is_and, operands, node) -> Value:
        first = self.expression(operands[0])
        if is_container(first.type) or is_range(first.type) or is_str(first.type) or \
                isinstance(first.type, (kt.ClassType, kt.NoneType)):
            first = self.truthy(first, operands[0])     # only tested (is_condition)
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
                if is_counted(result_type):
                    converted = self.own(converted, node)   # the result is owned
                self.yield_values([converted], node)
            return build

        then_region, _ = self.region(branch(node.body, "then"))
        else_region, _ = self.region(branch(node.orelse, "else"))
        [value] = self.scf_if(condition, [result_type], then_region, else_region, node)
        value.owned = is_counted(result_type)
        value.weak = self.typed.value_of(node).weak
        value.candidates = self.typed.value_of(node).candidates
        value.origins = holder["then"].origins | holder["else"].origins
        return value

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

    def signature(self, name) -> FunctionSignature | None:
        """The compiled function `name`'s signature (compiled now if need
        be), or None for a recursive call of a function being compiled
        (the caller reads the callee's typed signature either way)."""
        if name in self.in_progress and self.types.functions[name].recursion_cycle:
            return None
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
            signature.used_classes = generator.used_classes
            functions = [function]
            if typed.recursion_cycle and typed.exported:
                functions.append(generator.exported_entry())
        except KilnCompileError as error:
            self.results[name] = error
            self.abandon_cycle(name, error)
            raise
        except ir.IRError as invalid:
            if os.environ.get("KILN_DEBUG"):
                raise
            error = invalid_ir_error(self.context, func, invalid)
            self.results[name] = error
            self.abandon_cycle(name, error)
            raise error from None
        except RecursionError:
            # Python's recursion limit while walking the syntax tree: the
            # function alone falls back (generate_module retries on a
            # deeper stack first).
            self.hit_recursion_limit = True
            error = nested_too_deeply(self.context, func)
            self.results[name] = error
            self.abandon_cycle(name, error)
            raise error from None
        except Exception as exception:  # noqa: BLE001 - a compiler bug stays in its function
            if os.environ.get("KILN_DEBUG"):
                raise
            error = internal_compiler_error(self.context, func, exception)
            self.results[name] = error
            self.abandon_cycle(name, error)
            raise error from None
        finally:
            self.in_progress.remove(name)
        lines = self.context.source.splitlines()
        signature.source_line = lines[func.lineno - 1].strip() if func.lineno <= len(lines) else ""
        self.results[name] = (functions, signature)
        self.order.append(name)
        return functions, signature

    def abandon_cycle(self, name, error: KilnCompileError) -> None:
        """`name` failed: the functions of its recursion cycle compiled so
        far (they call it) fail with it. Those still being compiled fail on
        their own, at their call of it."""
        first = error.diagnostics[0]
        for member in sorted(self.types.functions[name].recursion_cycle - {name}):
            if member in self.in_progress or not isinstance(self.results.get(member), tuple):
                continue
            member_node = self.functions[member]
            self.results[member] = KilnCompileError(self.context.diagnostic(
                member_node, f"calls `{name}` (recursively), which cannot be compiled "
                             f"({first.message}, line {first.line})", member))
            self.order.remove(member)


# The libm functions generated code calls: name -> (parameter types, result).
# Functions the kernels call outside the module: libm's, and Kiln's runtime
# (kiln_reshape_stride: runtime/kiln_shapes.c; kiln_alloc_zeroed[_next]: kiln_alloc.c;
# linked by kilnc).
EXTERNAL_SIGNATURES = {
    # libm's functions of the library registry (hypot, expm1f, ...)
    **{name + suffix: ((float_type,) * count, float_type) for name, count in LIBM_CALLS.items()
       for suffix, float_type in (("", kt.f64), ("f", kt.f32))},
    "kiln_reshape_stride": ((kt.i64,) * (3 + 3 * rules.MAX_ARRAY_NDIM), kt.i64),
    "kiln_alloc_zeroed": ((kt.i64,), kt.i64), "kiln_alloc_zeroed_next": ((), None),
    # glibc's complex functions (np.exp of complex numbers): a complex<f64>
    # argument and result are the two-double struct of the C ABI
    **{name: ((kt.c128,), kt.c128) for name in COMPLEX_LIBM},
    # ... and their float _Complex versions (cexpf, ...), a <2 x float> in
    # and out (abi_type)
    **{name + "f": ((kt.c64,), kt.c64) for name in COMPLEX_LIBM},
    # cpow (numpy's `**` of complex arrays beyond its small whole exponents)
    "cpow": ((kt.c128, kt.c128), kt.c128), "cpowf": ((kt.c64, kt.c64), kt.c64)}
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
    # at the Python expression the offending op was built for
    line, column = func.lineno, func.col_offset + 1
    if invalid.position and invalid.position[0] == ir.quote(context.path):
        line, column = invalid.position[1:]
    return KilnCompileError(Diagnostic(
        context.path, line, column,
        f"internal compiler error in `{func.name}` during MLIR generation: the generated "
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
    for func in functions:
        # A recursion cycle abandoned after this function compiled.
        if isinstance(compiler.results.get(func.name), KilnCompileError):
            failures.setdefault(func.name, compiler.results[func.name])
    failures = {f.name: failures[f.name] for f in functions if f.name in failures}
    compiled = [compiler.results[name] for name in compiler.order
                if not isinstance(compiler.results[name], KilnCompileError)]
    module = ir.Module(ir.file_location(context.path, 1, 1))
    builder = ir.Builder()
    for external in sorted({f for _, sig in compiled for f in sig.external_functions}):
        inputs, result = EXTERNAL_SIGNATURES[external]
        module.add(builder.func_declaration(external, [abi_type(t) for t in inputs],
                                            [] if result is None else [abi_type(result)]))
    # Every compiled class's type slot, whether or not a compiled function
    # makes its instances: the extension sets them all at import.
    for info in context.classes.values():
        module.add(slot_global(info.slot_symbol))
    for function_ops, _ in compiled:
        for function in function_ops:
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
            if has_reduction_kernel(signature):
                module.add(reduction_kernel(context, signature))
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
