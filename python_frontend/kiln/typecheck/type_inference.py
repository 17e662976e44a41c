"""Type inference: the frontend stage between the subset check and MLIR
generation. It types every expression node and every variable of a
function (and of every module function it calls) on the syntax tree,
before any MLIR exists, and reports *all* type errors of a function at once.
Code generation (`code_generator.py`) only reads what it computes.

What it computes, per function (`TypedFunction`):

* the signature: parameter types, the return type (a scalar, an array, a
  `TupleType`, or None), whether the function can raise (callers pass it an
  error record), and which arrays it writes (its own allocations and the
  parameters it may view);
* the type of every expression node the code generator evaluates
  (`type_of(node)`, or `value_of(node)` for the NEP 50 facts: whether the
  value is a *weak* Python literal, and its compile-time value), and of the
  operation of every `x op= v` (keyed by the statement);
* the type of every variable (`variables`; one type per variable over the
  whole function, the join of everything assigned to it), what each array
  variable may view (`variable_origins`), which variables each loop
  carries (`loop_carried`), and the result of every `and`/`or` tail
  (`tail_value`);
* the typed functions of its callees (`callees`).

How: variable types are flow-insensitive, so a loop can widen a variable
that an earlier statement read (`s = 0` ... `s += x[i]` with a float array
makes `s` a float). The stage walks the whole function once per *round*
with the variable types found so far, widening them as assignments need
it; the first round that changes nothing is the fixpoint (at most
`MAX_TYPING_ROUNDS`). The walk visits statements in the order, and under the
same control-flow rules (exits, loops, merges), as code generation emits
them, so the types are those code generation needs at each node.

Errors: a rule that fails records a `Diagnostic` (file:line:col) and gives
the expression the type `UNKNOWN`, which every rule accepts silently, so
one mistake is reported once and the walk goes on to the next. A failed
statement is skipped; the diagnostics of all rounds are kept (each location
once, first round first), so the first one is the error the former
generator, which typed as it emitted, stopped at. A function with errors is
not generated: each diagnostic is a fallback record of the build. The rules
themselves are in `typing_rules.py`.

Where: this module walks a function and types its expressions; statements
are typed in `statement_typing.py`, calls (builtins, math, cmath, numpy) in
`call_typing.py`, arrays (subscripts, operators, methods, stores) in
`array_typing.py`, numpy's shape functions in `shape_typing.py`; what the
stage produces is defined in `typed_tree.py`.

Run it alone: `python3 -m kiln.typecheck.type_inference mod.py [--types]`
prints every type error of the module's exported functions (and of the
helpers they call), or with --types their signatures and variable types.
"""

from __future__ import annotations

import ast
import os
import sys

from .. import typesystem as kt
from ..errors import Diagnostic, KilnCompileError, display_name, with_article
from .. import typing_rules as rules
from ..frontend.desugar import is_condition
from ..frontend.source import deepest_statement
from ..frontend.ufunc_signatures import gufunc_core_dimensions
from .shape_typing import ShapeFunctionTyping
from .typed_values import MixedItems, TypedValue, _Abandon  # noqa: F401 - TypedValue stays importable here
from ..frontend.subset import SUPPORTED_BINOPS, SubsetChecker, default_value
from ..typing_rules import UNKNOWN, display, is_unknown
from .array_typing import ArrayTyping
from .call_typing import CallTyping
from .statement_typing import StatementTyping
from .tuple_typing import TupleTyping
from .list_typing import ListTyping, holds_items, is_list
from .dict_typing import DictTyping, is_dict_like
from .set_typing import SetTyping
from .str_typing import StrTyping
from .recursion import check_agreement, finish_recursion, provisional_signature
from .specialization import Specializations
from .list_library_typing import ListLibraryTyping
from .range_typing import RangeTyping
from .constant_typing import ConstantTyping
from .generator_typing import GeneratorTyping
from .class_typing import ClassTyping, is_instance, is_instance_like
from .class_protocols import ClassProtocolTyping
from .linalg_typing import LinalgTyping
from .sorting_typing import SortingTyping
# Parameter and TypedFunction stay importable from here.
from .typed_tree import (ExitFrame, ModuleTypes, Parameter, TypedFunction,  # noqa: F401
                         VariableType, is_range, is_real_number,
                         is_scalar_type, known_literals, literal_candidates)
from .typed_tree import container_noun, is_container, is_set, is_str

MAX_TYPING_ROUNDS = 8


# ----------------------------------------------------------- one function
class FunctionTyping(StatementTyping, ClassTyping, ClassProtocolTyping, CallTyping, LinalgTyping,
                     SortingTyping, ArrayTyping, ShapeFunctionTyping,
                     TupleTyping, ListTyping, DictTyping, SetTyping, StrTyping,
                     ListLibraryTyping, RangeTyping, ConstantTyping, GeneratorTyping):
    """Types one function: this class walks it and types expressions; the
    mixins type statements, class instances, calls, arrays, numpy's shape
    functions, tuples, lists, dicts, sets, strings, ranges, module
    constants and generator expressions."""

    def __init__(self, module: "ModuleTyping", func: ast.FunctionDef, options: dict,
                 exported: bool, parameter_hints=None):
        self.module = module
        # Types of parameters without annotations: from the first call of a
        # helper, or from a `#pythran export` comment of an exported function.
        self.parameter_hints: dict = parameter_hints or {}
        self.typed_by_first_call: set = set()
        self.context = module.context
        self.func = func
        self.options = options
        self.exported = exported
        self.boundscheck = options.get("boundscheck", True)
        self.diagnostics: list = []
        self.reported_before: set = set()   # (line, column) of earlier rounds' errors
        self.reported_now: set = set()
        # Widened across rounds:
        self.var_types: dict = {}
        # name -> line of its first assignment (for messages about joins)
        self.assigned_at: dict = {}
        self.expression_types: dict = {}     # `and`/`or`/`x if c else y` result types
        self.variable_origins: dict = {}
        self.numpy_bools: dict = {}          # bool variable -> holds numpy's bools
        self.inferred_return: VariableType | None = None
        self.return_annotation = None
        self.raises = False
        self.callees: dict = {}
        # Calls of a helper typed at other argument types than its first
        # call's: call node -> the specialization's name (specialization.py).
        self.call_targets: dict = {}
        self.allow_none_value = False
        # `f = lambda x: ...`: name -> the lambda; each call of it is its body
        # inlined, a copy per call site (call node -> (parameters, body)).
        self.lambdas: dict = {}
        # `np.uint64(18446744073709551615)`: int literals beyond int64 that
        # are the argument of a uint64 cast (they fit the uint64 they become)
        self.uint64_literals: set = set()
        self.inlined: dict = {}
        # List variables: where each is first bound (for the error when its
        # item type never settles).
        self.list_bindings: dict = {}
        # Per round (the last round's are the result):
        self.written: set = set()
        self.values: dict = {}
        self.carried_by_loop: dict = {}
        self.parallel_by_loop: dict = {}
        self.inside_parallel_loop = False
        self.loop_nesting = 0
        # parallel=True: loops left sequential -> why (the record says).
        self.sequential_loops: dict = {}
        self.bool_op_tails: dict = {}

    # ------------------------------------------------------------ errors
    def report(self, node, message: str) -> None:
        diagnostic = self.context.diagnostic(node, message, self.func.name)
        self.record(diagnostic)

    def record(self, diagnostic: Diagnostic) -> None:
        where = (diagnostic.line, diagnostic.column)
        if where in self.reported_before or (*where, diagnostic.message) in self.reported_now:
            return
        self.reported_now.add((*where, diagnostic.message))
        self.diagnostics.append(diagnostic)

    def fail(self, node, message: str):
        self.report(node, message)
        raise _Abandon()

    @staticmethod
    def absorb(*values) -> None:
        """An operand whose typing failed: abandon quietly (no cascade)."""
        for value in values:
            if value is None or is_unknown(value.type) or (
                    value.elements is not None and any(is_unknown(e.type)
                                                       for e in value.elements)):
                raise _Abandon()

    # --------------------------------------------------------------- run
    def run(self) -> TypedFunction:
        try:
            SubsetChecker(self.context, self.func.name).check_function(self.func)
        except KilnCompileError as error:
            # Reported, and typing goes on so that the function's other
            # errors come in the same build: an unsupported construct types
            # as UNKNOWN (no cascade), and a type error where the subset
            # check reported one is the same mistake, said once.
            for diagnostic in error.diagnostics:
                self.record(diagnostic)
            self.reported_before |= {(d.line, d.column) for d in error.diagnostics}
        params = self.resolve_parameters()
        self.resolved_params = params       # a recursive call's provisional signature
        if self.func.returns is not None:
            try:
                annotation = self.context.resolve_annotation(self.func.returns)
                self.return_annotation = None if annotation == "None" else annotation
            except KilnCompileError as error:
                for diagnostic in error.diagnostics:
                    self.record(diagnostic)
                self.return_annotation = UNKNOWN
        for _ in range(MAX_TYPING_ROUNDS):
            self.changed = False
            self.walk_round(params)
            self.reported_before |= {(line, column) for line, column, _ in self.reported_now}
            self.reported_now = set()
            if not self.changed:
                break
        else:
            self.report(self.func, "the types of the variables did not settle; annotate them "
                                   "(x: float = 0) to help")
        self.report_unsettled_lists()
        self.report_unsettled_dicts()
        if self.context.classes:
            self.check_instance_options()
        return self.result(params, self.diagnostics)

    def result(self, params, diagnostics) -> TypedFunction:
        return TypedFunction(
            name=self.func.name, node=self.func, exported=self.exported, options=self.options,
            params=params, return_type=self.return_type(), raises=self.raises,
            written_arrays=frozenset(self.written),
            returned_parameters={position: frozenset(names) for position, names
                                 in self.returned_parameters.items()},
            typed_by_first_call=frozenset(self.typed_by_first_call),
            variables=dict(self.var_types),
            values=self.values, loop_carried=self.carried_by_loop,
            parallel_loops=self.parallel_by_loop, sequential_loops=self.sequential_loops,
            bool_op_tails=self.bool_op_tails, variable_origins=dict(self.variable_origins),
            callees=dict(self.callees), call_targets=dict(self.call_targets),
            inlined=dict(self.inlined),
            constant_containers=frozenset(self.constant_containers),
            diagnostics=list(diagnostics))

    def resolve_parameters(self) -> list:
        params = []
        pythran = self.context.pythran_signature(self.func.name) if self.exported else None
        arguments = self.func.args.args
        defaults = [None] * (len(arguments) - len(self.func.args.defaults)) + [
            default_value(d, self.module.constants, self.context) for d in self.func.args.defaults]
        for position, arg in enumerate(arguments):
            type_ = UNKNOWN
            default = defaults[position]
            if arg.annotation is None and pythran is not None and position < len(pythran):
                text, type_ = pythran[position]     # `#pythran export f(float64[], int)`
                if type_ is None:
                    type_ = UNKNOWN
                    self.report(arg, f"parameter `{arg.arg}` has the Pythran type `{text}`, "
                                     "which Kiln has no type for; annotate it")
            elif arg.annotation is None and arg.arg in self.parameter_hints:
                type_ = self.parameter_hints[arg.arg]
                self.typed_by_first_call.add(arg.arg)
            elif arg.annotation is None and default is kt.none_type:
                self.report(arg, f"parameter `{arg.arg}` needs a type annotation "
                                 f"(`{arg.arg}: Node | None = None`)")
            elif arg.annotation is None and isinstance(default, kt.DTypeValue):
                type_ = default                                         # `dtype=np.float64`
                if self.exported:
                    self.report(arg, f"parameter `{arg.arg}` of an exported function cannot "
                                     "be a dtype (numpy's dtypes are not values Kiln passes "
                                     "from Python); make it a helper's")
            elif arg.annotation is None and isinstance(default, str):
                type_ = kt.string                                       # `sep=","`
            elif arg.annotation is None and default is not None:
                type_ = rules.default_for_kind(rules.literal_kind(default))    # `alpha=0.5`
            elif arg.annotation is None:
                self.report(arg, f"parameter `{arg.arg}` needs a type annotation "
                                 "(int, float, bool, kiln.f64[:], ...)")
            else:
                try:
                    annotation = self.context.resolve_annotation(arg.annotation)
                    if annotation == "None":
                        self.report(arg, f"parameter `{arg.arg}` cannot be None")
                    else:
                        type_ = annotation
                except KilnCompileError as error:
                    for diagnostic in error.diagnostics:
                        self.record(diagnostic)
            if default is kt.NEW_LIST_DEFAULT:
                pass        # a dataclass's default_factory=list, of the field's list type
            elif isinstance(default, kt.DTypeValue) and isinstance(type_, kt.DTypeValue):
                pass        # a call passing another dtype: the specialization for it
            elif default is not None and not is_unknown(type_):
                node = self.func.args.defaults[position - len(arguments) + len(
                    self.func.args.defaults)]
                literal = TypedValue(kt.string) if isinstance(default, str) else \
                    TypedValue(default) if isinstance(default, kt.DTypeValue) else \
                    TypedValue(kt.none_type) if default is kt.none_type else TypedValue(
                        rules.default_for_kind(rules.literal_kind(default)),
                        weak=rules.literal_kind(default), constant=default)
                if isinstance(type_, kt.ArrayType):
                    self.report(node, f"parameter `{arg.arg}` is an array: a "
                                      f"{'str' if isinstance(default, str) else 'number'} "
                                      "cannot be its default")
                else:
                    self.guarded(self.convert, literal, type_, node)
            params.append(Parameter(arg.arg, type_, default))
        return params

    def return_type(self):
        if self.func.returns is not None:
            return self.return_annotation
        return None if self.inferred_return is None else self.inferred_return.type

    def walk_round(self, params) -> None:
        self.symbols: dict = {}
        self.maybe_undefined: set = set()
        self.written: set = set()
        self.declared: dict = {}
        self.values: dict = {}
        self.array_consumers: set = set()   # nodes whose array expression is used well
        self.carried_by_loop: dict = {}
        self.parallel_by_loop: dict = {}
        self.inside_parallel_loop = False
        self.loop_nesting = 0
        # parallel=True: loops left sequential -> why (the record says).
        self.sequential_loops: dict = {}
        self.bool_op_tails: dict = {}
        # The hidden iterables (desugar.py) of the dict loops being typed.
        self.walked_dicts: set = set()
        # The module lists and dicts it reads (each call copies them).
        self.constant_containers: set = set()
        self.frame = ExitFrame("function")
        self.allocation_count = 0
        self.params = params
        self.returned_parameters: dict = {}
        raised_before, self.raises = self.raises, False
        for param in params:
            self.symbols[param.name] = TypedValue(param.type, origins=frozenset([param.name]))
            self.var_types[param.name] = VariableType(param.type)
            self.declared[param.name] = param.type
        self.body(self.func.body, terminal=True)
        self.check_array_expression_uses()
        if self.raises != raised_before:
            self.changed = True     # callers' error records depend on it

    # ------------------------------------- statements (statement_typing.py)
    def guarded(self, action, *args):
        """`action(*args)`, or None when it abandoned its statement (the
        error already recorded)."""
        try:
            return action(*args)
        except _Abandon:
            return None

    # ------------------------------------------------------ expressions
    def expression(self, node) -> TypedValue:
        try:
            method = getattr(self, "expr_" + type(node).__name__, None)
            if method is None:
                self.fail(node, f"expression `{ast.unparse(node)}` is not supported")
            value = method(node)
            if value.type is None and not self.allow_none_value:
                self.fail(node, f"`{ast.unparse(node)}` returns None; it has no value")
            value = self.refuse_list_in_parallel_loop(node, value)
        except MixedItems as mixed:
            self.report(node, mixed.message)
            value = TypedValue(UNKNOWN)
        except _Abandon:
            value = TypedValue(UNKNOWN)
        self.values[node] = value
        return value

    @staticmethod
    def literal(value, type_, weak=None) -> TypedValue:
        """A compile-time constant of `type_` (its value as code generation holds it)."""
        if type_.is_bool:
            value = bool(value)
        elif type_.is_int:
            value = int(value)
        elif type_.is_complex:
            value = rules.round_complex(value, type_)
        else:
            value = float(value) if type_ != kt.f32 else rules.round_to_f32(value)
        return TypedValue(type_, weak=weak, constant=value)

    @staticmethod
    def tuple_value(elements) -> TypedValue:
        return TypedValue(kt.TupleType(tuple(e.type for e in elements)), elements=list(elements))

    def expr_Constant(self, node):
        value = node.value
        if isinstance(value, bool):
            return self.literal(value, kt.boolean, weak="bool")
        if isinstance(value, int):
            if node in self.uint64_literals and rules.INT64_MAX < value <= kt.u64.max_value:
                return TypedValue(kt.u64, constant=value)
            if not rules.INT64_MIN <= value <= rules.INT64_MAX:
                self.fail(node, f"integer literal {value} does not fit in 64 bits (Kiln "
                                "integers are 64-bit)")
            return self.literal(value, kt.i64, weak="int")
        if isinstance(value, float):
            return self.literal(value, kt.f64, weak="float")
        if isinstance(value, complex):
            return self.literal(value, kt.c128, weak="complex")
        if isinstance(value, str):
            return self.str_literal(node)
        if value is None and self.context.classes:
            return self.none_value()                    # class_typing.py
        self.fail(node, f"constant {value!r} is not supported here")

    def expr_Name(self, node):
        return self.load_name(node)

    def convert(self, value: TypedValue, target, node, explicit=False) -> TypedValue:
        """`value` used as a `target` (assignment, argument, operand)."""
        source = value.type
        if is_unknown(source) or is_unknown(target) or source is None:
            return TypedValue(target if not is_unknown(target) else UNKNOWN)
        if source == target:
            return value
        if is_instance_like(source) or is_instance_like(target):
            return self.convert_instance(value, target, node)       # class_typing.py
        if isinstance(source, kt.DTypeValue) or isinstance(target, kt.DTypeValue):
            self.fail(node, f"cannot use {with_article(display(source))} value as "
                            f"{display(target)}")
        if isinstance(target, kt.TupleType):
            if not isinstance(source, kt.TupleType) or len(source.elements) != len(
                    target.elements):
                self.fail(node, f"cannot use {display(source)} as {target.display}")
            return self.tuple_value([self.convert(e, t, node, explicit)
                                     for e, t in zip(value.elements, target.elements)])
        if is_str(source) or is_str(target):
            self.fail(node, f"cannot use {with_article(display(source))} value as "
                            f"{display(target)}" + (
                                " (convert it: int(s), float(s), str(x))"
                                if is_scalar_type(source) or is_scalar_type(target) else ""))
        if isinstance(source, kt.TupleType) or is_range(source) or is_range(target):
            self.fail(node, f"cannot use a {display(source)} value as {display(target)}")
        if holds_items(source) or holds_items(target):
            return self.settle_list(None, value, target, node)      # lists and sets
        if is_dict_like(source) or is_dict_like(target):
            return self.settle_dict(None, value, target, node)
        message = rules.conversion_error(source, target, explicit, value.constant)
        if message:
            self.fail(node, message)
        if rules.conversion_raises(source, target, value.weak, value.constant, explicit):
            self.raises = True
        if value.constant is not None:
            folded = rules.fold_conversion(value.constant, target)
            if folded is not None:
                return TypedValue(target, constant=folded)
        return TypedValue(target)

    def truthy(self, value: TypedValue, node, quiet=False) -> TypedValue:
        """bool(value) where Python tests a value (if, while, and, not)."""
        if isinstance(value.type, kt.TupleType):
            self.report(node, "the truth value of a tuple is not supported; use len(t)")
            if quiet:
                return TypedValue(UNKNOWN)
            raise _Abandon()
        if is_container(value.type):
            self.dict_truthy_check(value, node)
            return TypedValue(kt.boolean)       # true when it has items
        if is_instance_like(value.type):
            return self.instance_truthy(value, node)
        if is_str(value.type):
            return TypedValue(kt.boolean)       # true when it is not empty
        if is_range(value.type):
            return TypedValue(kt.boolean)       # true when it is not empty
        if is_unknown(value.type) or not isinstance(value.type, (kt.ScalarType, kt.ArrayType)):
            return TypedValue(UNKNOWN)
        if isinstance(value.type, kt.ArrayType):
            self.report(node, "the truth value of an array is not supported; use len(x)")
            if quiet:
                return TypedValue(UNKNOWN)
            raise _Abandon()
        if value.type.is_bool:
            return value
        if value.constant is not None:
            return TypedValue(kt.boolean, constant=bool(value.constant))
        return TypedValue(kt.boolean)

    def scalar_operands(self, *values, node=None):
        """Abandons (quietly, unless a value is a tuple) unless every value
        is a number or an array."""
        self.absorb(*values)
        for value in values:
            if isinstance(value.type, kt.TupleType) and node is not None:
                self.fail(node, f"a {display(value.type)} is a tuple, not a number or an "
                                f"array: `{ast.unparse(node)}` does not take it")
            if getattr(value.type, "dict_class", None) == "Counter" and node is not None:
                self.fail(node, f"Counter arithmetic (`{ast.unparse(node)}`) is not supported "
                                "yet; combine the counts in a loop (`for k, v in e.items(): "
                                "c[k] += v`)")
            if is_container(value.type) and node is not None:
                self.fail(node, f"a {display(value.type)} is a {container_noun(value.type)}, "
                                f"not a number or an array: `{ast.unparse(node)}` does not "
                                "take it")
            if is_str(value.type) and node is not None:
                self.fail(node, f"a str is not a number or an array: `{ast.unparse(node)}` "
                                "does not take it (convert it: int(s), float(s))")
            if is_range(value.type):
                self.fail(node if node is not None else self.func, "a range is not a number or "
                          f"an array: `{ast.unparse(node) if node is not None else 'this'}` "
                          "does not take it")
            if not isinstance(value.type, (kt.ScalarType, kt.ArrayType)):
                raise _Abandon()

    def operand_types(self, a: TypedValue, b: TypedValue):
        return rules.operand_types(a.type, a.weak, b.type, b.weak)

    def expr_BinOp(self, node):
        self.array_consumers.update((node.left, node.right))
        left = self.before_module_call(self.expression(node.left), [node.right], node)
        if isinstance(node.op, ast.MatMult):       # `a @ b`: np.dot
            right = self.expression(node.right)
            if not all(isinstance(v.type, kt.ArrayType) for v in (left, right)):
                self.fail(node, "operator `@` needs two arrays (numpy refuses numbers)")
            self.array_consumers.update((node.left, node.right))
            return self.dot([left, right], node)
        right = self.expression(node.right)
        if is_instance_like(left.type) or is_instance_like(right.type):
            return self.instance_binary(node, left, right)     # `a + b`: __add__
        if is_set(left.type) or is_set(right.type):
            return self.set_binary(node, left, right)
        if is_list(left.type) or is_list(right.type):
            return self.list_binary(node, left, right)
        if is_str(left.type) or is_str(right.type):
            return self.str_binary(node, left, right)
        return self.binary(node.op, left, right, node)

    def before_module_call(self, value: TypedValue, later_nodes, node) -> TypedValue:
        """An array operation followed, in the same expression, by a call to
        a function of the module is computed into a new array before the
        call, as numpy computes it (rules.calls_module_function)."""
        if not value.fresh or not rules.calls_module_function(later_nodes,
                                                               self.module.functions):
            return value
        return self.new_array(value, node)

    def binary(self, op, left: TypedValue, right: TypedValue, node) -> TypedValue:
        symbol = SUPPORTED_BINOPS.get(type(op))
        if symbol is None:
            self.fail(node, f"operator is not supported: {ast.unparse(node)}")
        self.scalar_operands(left, right, node=node)
        typed = self.operand_types(left, right)
        if typed is None:
            return self.array_binary(symbol, left, right, node)
        common, weak = typed
        numpy_bool = common.is_bool and (left.numpy_bool or right.numpy_bool)
        if numpy_bool and symbol in ("+", "-", "*"):
            # numpy's bool add and multiply: a logical or and and
            if symbol == "-":
                self.fail(node, "numpy does not subtract bools (TypeError: numpy boolean "
                                "subtract); use `^` or convert with int()")
            return TypedValue(kt.boolean, numpy_bool=True)
        candidates = None
        if weak == "int" and left.weak == "int" and right.weak == "int":
            folded = rules.fold_python_ints(symbol, left.constant, right.constant)
            if folded is not None:
                return self.literal(folded, kt.i64, weak="int")
            # `(1 if c else 4) << 32`: the Python ints it may be, so that
            # comparisons and min/max with it stay exact (fuzzer seed
            # 742656376, f1768)
            candidates = rules.fold_candidates(symbol, literal_candidates(left),
                                               literal_candidates(right))
        common, weak, message = rules.arithmetic_type(symbol, common, weak)
        if message:
            self.fail(node, message)
        self.convert(left, common, node)
        divisor = self.convert(right, common, node)
        # Python's //, % and ** raise (zero divisors, negative powers).
        if symbol in ("//", "%", "**") and (divisor.constant is None or divisor.constant == 0
                                            or symbol == "**"):
            self.raises = True
        if symbol == "/" and (divisor.constant is None or divisor.constant == 0.0):
            self.raises = True
        # A negative shift count raises ValueError (CPython's rule, for every int).
        if symbol in ("<<", ">>") and common.signed and (
                divisor.constant is None or divisor.constant < 0):
            self.raises = True
        return TypedValue(common, weak=weak, candidates=candidates if weak == "int" else None,
                          numpy_bool=numpy_bool and symbol in ("&", "|", "^"))

    def expr_UnaryOp(self, node):
        self.array_consumers.add(node.operand)
        operand = self.expression(node.operand)
        if (is_range(operand.type) or is_instance_like(operand.type)) and \
                isinstance(node.op, ast.Not):
            self.truthy(operand, node)          # `not r`: true when it is empty
            return TypedValue(kt.boolean)
        if is_str(operand.type):
            return self.str_unary(node, operand)
        if is_container(operand.type):
            if not is_list(operand.type) and not isinstance(node.op, ast.Not):
                self.fail(node, f"unary operator in `{ast.unparse(node)}` does not take a "
                                f"{container_noun(operand.type)}")
            return self.list_unary(node, operand)
        self.scalar_operands(operand, node=node)
        if isinstance(operand.type, kt.ArrayType):
            return self.array_unary(node.op, operand, node)
        if isinstance(node.op, ast.Not):
            self.truthy(operand, node)
            return TypedValue(kt.boolean)
        if operand.numpy_bool:
            # numpy's: `~m[0]` is a logical not, `+m[0]` itself, `-m[0]` a TypeError
            if isinstance(node.op, ast.USub):
                self.fail(node, "numpy does not negate bools (TypeError: numpy boolean "
                                "negative); use `~` or `not`")
            return TypedValue(kt.boolean, numpy_bool=True)
        # `-3`, `~7`, `+True` of Python literals are Python ints (weak under
        # NEP 50; a bool becomes an int), and fold.
        weak = rules.unary_weak(operand.weak)
        scalar = rules.negation_type(operand.type)
        constant = operand.constant
        if isinstance(node.op, ast.Invert) and (scalar.is_float or scalar.is_complex):
            self.fail(node, "operator `~` needs an int operand")
        if isinstance(node.op, ast.UAdd) and not operand.type.is_bool:
            return operand
        self.convert(operand, scalar, node)
        if constant is not None and not isinstance(constant, float) and scalar.is_int:
            constant = int(constant)
        if constant is not None:
            # a typed int wraps to its type (`~kiln.u32(1)` is 4294967294)
            typed_int = scalar.is_int and not weak
            if isinstance(node.op, ast.UAdd):
                return self.literal(constant, scalar, weak=weak)
            if isinstance(node.op, ast.USub) and (typed_int or constant != rules.INT64_MIN):
                value = -constant
                return self.literal(rules.wrap(value, scalar) if typed_int else value,
                                    scalar, weak=weak)
            if isinstance(node.op, ast.Invert):
                value = ~constant
                return self.literal(rules.wrap(value, scalar) if typed_int else value,
                                    scalar, weak=weak)
        if isinstance(node.op, (ast.UAdd, ast.USub, ast.Invert)):
            return TypedValue(scalar, weak=weak)
        self.fail(node, f"unary operator in `{ast.unparse(node)}` is not supported")

    def compare(self, left: TypedValue, right: TypedValue, node, ops=None) -> TypedValue:
        if isinstance(left.type, kt.DTypeValue) or isinstance(right.type, kt.DTypeValue):
            return self.dtype_compare(left, right, node, ops)
        if is_str(left.type) or is_str(right.type):
            op = (ops or getattr(node, "ops", None) or [ast.Eq()])[0]
            return self.str_comparison(op, left, right, node)
        self.scalar_operands(left, right, node=node)
        common = rules.comparison_type((left.type, left.weak, known_literals(left)),
                                       (right.type, right.weak, known_literals(right)))
        if common is None:
            self.fail(node, "chained comparisons of arrays are not supported; combine them "
                            "with & (`(a < b) & (b < c)`)")
        if common.is_complex and not all(isinstance(op, (ast.Eq, ast.NotEq))
                                         for op in ops or getattr(node, "ops", ())):
            self.fail(node, "complex numbers are not ordered: only == and != compare them "
                            "(CPython raises TypeError)")
        self.convert(left, common, node)
        self.convert(right, common, node)
        return TypedValue(kt.boolean)

    def expr_Compare(self, node):
        # `self.items == other.items` of list fields compares lists.
        lists = not any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) and any(
            self.is_list_expression(n) for n in [node.left, *node.comparators])
        node._kiln_instance_compare = bool(self.context.classes) and not lists and \
            self.compares_instances(node)       # code generation lowers it the same way
        if node._kiln_instance_compare:
            return self.instance_compare_node(node)
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) or any(
                self.is_list_expression(n) or self.is_dict_expression(n) or
                self.is_set_expression(n) for n in [node.left, *node.comparators]):
            return self.list_compare(node)
        self.array_consumers.update([node.left, *node.comparators])
        left = self.compared(node.left, node)
        if len(node.ops) == 1:
            left = self.before_module_call(left, node.comparators, node)
            right = self.compared(node.comparators[0], node)
            # `mask == a`: numpy compares a tuple of numbers as a 1-D array
            if isinstance(left.type, kt.TupleType) and isinstance(right.type, kt.ArrayType):
                left = self.tuple_operand_as_array(node, "left", left)
            elif isinstance(right.type, kt.TupleType) and isinstance(left.type, kt.ArrayType):
                right = self.tuple_operand_as_array(node.comparators, 0, right)
            if isinstance(left.type, kt.ArrayType) or isinstance(right.type, kt.ArrayType):
                return self.array_compare(left, right, node)
            if isinstance(left.type, kt.TupleType) or isinstance(right.type, kt.TupleType):
                return self.tuple_compare(node.ops[0], left, right, node)
            if isinstance(left.type, kt.DTypeValue) or isinstance(right.type, kt.DTypeValue):
                return self.dtype_compare(left, right, node, node.ops)   # known here
            self.compare(left, right, node)
        else:
            self.chained_compare(left, list(zip(node.ops, node.comparators)), node)
        # Comparing Python numbers gives a Python bool (weak under NEP 50);
        # any typed operand makes it a typed (numpy) bool.
        operands = [self.values.get(n) for n in [node.left, *node.comparators]]
        weak = "bool" if all(v is not None and v.weak for v in operands) else None
        return TypedValue(kt.boolean, weak=weak,
                          numpy_bool=any(v is not None and v.numpy_bool for v in operands))

    def compares_instances(self, node) -> bool:
        """`a is b`, `x is None`, `a == b` of instances (class_typing.py)."""
        if len(node.ops) != 1:
            return False
        operands = [node.left, node.comparators[0]]
        if isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return False
        return isinstance(node.ops[0], (ast.Is, ast.IsNot)) or any(
            self.maybe_instance(n) or (isinstance(n, ast.Constant) and n.value is None)
            for n in operands)

    def instance_compare_node(self, node) -> TypedValue:
        left = self.expression(node.left)
        right = self.expression(node.comparators[0])
        op = node.ops[0]
        if is_instance_like(left.type) or is_instance_like(right.type) or isinstance(
                op, (ast.Is, ast.IsNot)):
            return self.instance_comparison(op, left, right, node)
        # `o.x == 1`: numbers after all
        if isinstance(left.type, kt.ArrayType) or isinstance(right.type, kt.ArrayType):
            return self.array_compare(left, right, node)
        self.compare(left, right, node)
        weak = "bool" if left.weak and right.weak else None
        return TypedValue(kt.boolean, weak=weak)

    def dtype_compare(self, left, right, node, ops) -> TypedValue:
        """`x.dtype == np.float32`: both known, so the answer is too (code
        generation reads it from the comparison's typed value)."""
        op = (ops or getattr(node, "ops", None) or [ast.Eq()])[0]
        if not (isinstance(left.type, kt.DTypeValue) and isinstance(right.type, kt.DTypeValue)) \
                or not isinstance(op, (ast.Eq, ast.NotEq)) or len(getattr(node, "ops", [op])) != 1:
            self.fail(node, "a dtype compares only with == and != to another dtype "
                            "(`x.dtype == np.float32`)")
        equal = left.type.equals(right.type) != isinstance(op, ast.NotEq)
        return TypedValue(kt.boolean, constant=equal)

    def compared(self, operand, node) -> TypedValue:
        """An operand of a comparison: `(2, 3)` in `a.shape == (2, 3)` is a
        tuple of numbers."""
        if isinstance(operand, ast.Tuple) and len(node.ops) == 1:
            return self.tuple_value([self.expression(e) for e in operand.elts])
        return self.expression(operand)

    def tuple_compare(self, op, left, right, node) -> TypedValue:
        """`a.shape == b.shape`: tuples of numbers are equal when their
        lengths and elements are."""
        if not isinstance(op, (ast.Eq, ast.NotEq)) or not all(
                isinstance(v.type, kt.TupleType) for v in (left, right)):
            self.fail(node, "tuples compare only with == and != to tuples")
        for a, b in zip(left.elements, right.elements):
            if not all(isinstance(v.type, kt.ScalarType) for v in (a, b)):
                self.fail(node, "tuples compare only when they hold numbers")
            self.compare(a, b, node)
        return TypedValue(kt.boolean)

    def chained_compare(self, left, rest, node) -> None:
        """a < b < c: each operand evaluated once, later ones (in a nested
        region) only when the earlier comparison holds."""
        right = self.expression(rest[0][1])
        self.compare(left, right, node)
        if len(rest) > 1:
            self.region(lambda: self.chained_compare(right, rest[1:], node))

    def expr_BoolOp(self, node):
        return self.bool_op(node.values, node)

    def bool_op(self, operands, node) -> TypedValue:
        first = self.expression(operands[0])
        if is_str(first.type) and not is_condition(node):
            self.fail(operands[0], "`and`/`or` with a str operand is supported only where its "
                                   "truth is tested (`if`, `while`, `not`) yet; here its value "
                                   "would be the str: use an `if` statement")
        if (is_container(first.type) or is_range(first.type) or is_str(first.type) or
                is_instance_like(first.type)) and is_condition(node):
            first = self.truthy(first, operands[0])       # `while stack and ...`
        elif is_instance_like(first.type):
            self.fail(operands[0], "`and`/`or` with an instance operand is supported only where "
                                   "its truth is tested (`if`, `while`, `not`); here its value "
                                   "would be the instance: use an `if` statement")
        elif is_range(first.type):
            self.fail(operands[0], "`and`/`or` with a range operand is supported only where its "
                                   "truth is tested (`if`, `while`, `not`)")
        elif is_container(first.type):
            what = container_noun(first.type)
            self.fail(operands[0], f"`and`/`or` with a {what} operand is supported only where "
                                   "its truth is tested (`if`, `while`, `not`); here its value "
                                   f"would be the {what}: test `len({ast.unparse(operands[0])}) "
                                   "> 0` instead")
        if len(operands) == 1:
            return first
        if isinstance(first.type, kt.ArrayType):
            self.fail(node, "`and`/`or` on arrays is not supported")
        if is_unknown(first.type) or not is_scalar_type(first.type):
            self.region(lambda: self.bool_op(operands[1:], node))
            raise _Abandon()
        # Keyed like code generation's record of the join, per tail length.
        # The operands join like a variable's assignments (NEP 50: Python
        # literals on both sides stay a weak Python number).
        key = (node.lineno, node.col_offset, len(operands))
        first_only = rules.join_variable(None, first.type, first.weak, first.constant)[0]
        result_type, result_weak = self.expression_types.get(key) or first_only
        self.truthy(first, node)

        def rest():
            value = self.bool_op(operands[1:], node)
            if not is_scalar_type(value.type):
                return
            joined, _ = rules.join_variable(first_only, value.type, value.weak, value.constant)
            if joined != self.expression_types.get(key):
                self.expression_types[key] = joined
                self.changed = True
            if joined[0] == result_type:
                self.convert(value, result_type, node)

        self.region(rest)
        self.region(lambda: self.convert(first, result_type, node))
        value = TypedValue(result_type, weak=result_type.kind if result_weak else None)
        self.bool_op_tails[(node, len(operands))] = value
        return value

    def expr_IfExp(self, node):
        test = self.expression(node.test)
        self.truthy(test, node.test, quiet=True)
        if test.constant is not None and is_scalar_type(test.type):
            # `a if True else b`: only the branch that runs is evaluated, and
            # it is the value, with its own type (a Python literal stays
            # weak), as in CPython (fuzzer seeds 466298933, 787491940).
            return self.expression(node.body if test.constant else node.orelse)
        key = (node.lineno, node.col_offset, "ifexp")
        branches = {}

        def branch(expr):
            def build():
                value = self.expression(expr)
                branches[expr] = value
                self.absorb(value)
                previous = self.expression_types.get(key)
                if isinstance(value.type, kt.ArrayType):
                    joined = value.type
                    if isinstance(previous, tuple):
                        self.fail(node, "the branches of this conditional expression are an "
                                        "array and a number")
                    elif previous is not None and previous != joined:
                        self.fail(node, "the branches of this conditional expression have "
                                        "different array types")
                    joined_type = joined
                elif isinstance(value.type, kt.TupleType):
                    self.fail(node, "a conditional expression choosing between tuples is not "
                                    "supported yet; choose each element (`(a if c else b, ...)`)")
                elif is_container(value.type):
                    self.fail(node, "a conditional expression choosing between lists, dicts or "
                                    "sets is not supported yet; use an `if` statement")
                elif is_instance_like(value.type) or is_instance_like(previous):
                    # an instance or None: one class, Optional with None
                    if previous is not None and not is_instance_like(previous) or \
                            not is_instance_like(value.type):
                        self.fail(node, "the branches of this conditional expression are an "
                                        "instance and something else")
                    joined = joined_type = self.join_instances(
                        None if previous is None else VariableType(previous), value, node,
                        "the conditional expression's value").type
                elif is_str(value.type):
                    joined = joined_type = value.type
                    if previous is not None and previous != joined:
                        self.fail(node, "the branches of this conditional expression are a str "
                                        "and something else (CPython allows it; Kiln's values "
                                        "have one type)")
                elif is_range(value.type):
                    self.fail(node, "a conditional expression choosing between ranges is not "
                                    "supported yet; use an `if` statement")
                elif not is_scalar_type(value.type):
                    return
                elif previous is not None and not isinstance(previous, tuple):
                    self.fail(node, "the branches of this conditional expression are " + (
                        "a str and a number" if is_str(previous) else "an array and a number"))
                    return
                else:
                    # Joined like a variable's assignments: two Python
                    # literals stay a weak Python number (NEP 50).
                    joined, _ = rules.join_variable(previous, value.type, value.weak,
                                                    value.constant)
                    joined_type = joined[0]
                if joined != previous:
                    self.expression_types[key] = joined
                    self.changed = True
                if value.type != joined_type:
                    self.convert(value, joined_type, node)
            return build

        self.region(branch(node.body))
        self.region(branch(node.orelse))
        joined = self.expression_types.get(key)
        self.absorb(*branches.values())
        if joined is None:
            raise _Abandon()
        result_type, weak = joined if isinstance(joined, tuple) else (joined, False)
        candidates = None
        if weak and result_type.is_int:
            values = [literal_candidates(branches.get(b)) for b in (node.body, node.orelse)]
            if all(values):
                candidates = values[0] + values[1]
        return TypedValue(result_type, weak=result_type.kind if weak else None,
                          origins=branches[node.body].origins | branches[node.orelse].origins,
                          candidates=candidates)

# ------------------------------------------------------------- the module
class ModuleTyping:
    """Types the functions of one module on demand: the requested ones and
    the helpers they call (a helper is typed once, at its first call)."""

    def __init__(self, context):
        self.context = context
        self.functions = context.module_functions()
        self.constants = context.module_constants()
        self.specializations = Specializations(context, self.functions)
        self.results: dict = {}          # name -> TypedFunction
        self.in_progress: list = []
        # The functions being typed (name -> FunctionTyping), and the
        # provisional signatures recursive calls got (typecheck/recursion.py).
        self.typing_now: dict = {}
        self.provisional: dict = {}
        self.hit_recursion_limit = False

    def signature(self, name, node=None, hints=None) -> TypedFunction:
        """The typed function `name`, for a call; KilnCompileError when it
        does not type. `hints` type its parameters without annotations, at
        its first call. A call reaching a function whose body is being typed
        (recursion) gets its provisional signature, from its annotations."""
        if name in self.in_progress:
            if name not in self.provisional:
                self.provisional[name] = provisional_signature(
                    self.context, self.typing_now[name], node or self.functions[name])
            return self.provisional[name]
        typed = self.infer(name, hints)
        if not typed.ok:
            raise typed.error()
        return typed

    def infer(self, name, hints=None) -> TypedFunction:
        if name in self.results:
            return self.results[name]
        func = self.functions[name]
        self.in_progress.append(name)
        try:
            options = self.context.export_options(func)
            typing = self.typing_now[name] = FunctionTyping(self, func, options or {},
                                                            options is not None, hints)
            typed = typing.run()
            if name in self.provisional:
                typed = check_agreement(self.context, self.provisional[name], typed)
        except KilnCompileError as error:
            typed = TypedFunction(func.name, func, False, {}, diagnostics=error.diagnostics)
        except RecursionError:
            self.hit_recursion_limit = True
            depth, statement = deepest_statement(func)
            typed = TypedFunction(func.name, func, False, {}, diagnostics=[
                self.context.diagnostic(statement, f"expression nested too deeply ({depth} "
                                        "levels) for Kiln; split it into several statements",
                                        func.name)])
        except Exception as exception:  # noqa: BLE001 - a compiler bug stays in its function
            if os.environ.get("KILN_DEBUG"):
                raise
            typed = TypedFunction(func.name, func, False, {}, diagnostics=[
                self.context.diagnostic(func, f"internal compiler error in `{func.name}` "
                                        f"(type inference): {type(exception).__name__}: "
                                        f"{exception} (please report it; set KILN_DEBUG=1 for "
                                        "the traceback)", func.name)])
        finally:
            self.in_progress.remove(name)
            self.typing_now.pop(name, None)
        self.results[name] = typed
        return typed


def infer_module(context, functions=None) -> ModuleTypes:
    """Types the given functions (default: the exported ones) and their callees."""
    functions = context.exported_functions() if functions is None else functions
    typing = ModuleTyping(context)
    failures = {}
    for func in functions:
        typing.infer(func.name)
    finish_recursion(context, typing.results)
    for func in functions:
        typed = typing.results[func.name]
        if not typed.ok:
            failures[func.name] = typed.error()
        elif typed.exported and typed.options.get("elementwise") and not (
                all(is_real_number(p.type) for p in typed.params)
                and is_real_number(typed.return_type)):
            complex_ = any(is_scalar_type(t) and t.is_complex
                           for t in [p.type for p in typed.params] + [typed.return_type])
            failures[func.name] = KilnCompileError(context.diagnostic(
                func, "@kiln.vectorize needs number parameters (int, float, kiln.f32, ...) and "
                      "a number result" + (" (complex arrays are not supported yet)"
                                           if complex_ else ""), func.name))
        elif typed.exported and typed.options.get("gufunc"):
            mismatch = gufunc_mismatch(typed, typed.options["gufunc"])
            if mismatch:
                failures[func.name] = KilnCompileError(context.diagnostic(func, mismatch,
                                                                          func.name))
    return ModuleTypes(functions=dict(typing.results), failures=failures,
                       constants=typing.constants,
                       hit_recursion_limit=typing.hit_recursion_limit,
                       specializations=typing.specializations.several())


def gufunc_mismatch(typed, signature: str):
    """Why a @kiln.guvectorize function's types do not fit its signature
    (a parameter or the result of as many axes as its core dimensions: a
    number for `()`, numbers only), or None."""
    inputs, output = gufunc_core_dimensions(signature)
    if len(inputs) != len(typed.params):
        return (f"the gufunc signature {signature!r} has {len(inputs)} inputs; the function "
                f"takes {len(typed.params)} parameters")
    for name, type_, core in [(p.name, p.type, dims) for p, dims in zip(typed.params, inputs)] \
            + [("the result", typed.return_type, output)]:
        ndim = type_.ndim if isinstance(type_, kt.ArrayType) else 0
        dtype = type_.dtype if isinstance(type_, kt.ArrayType) else type_
        if not is_real_number(dtype) or ndim != len(core):
            wanted = f"an array of {len(core)} axes" if core else "a number"
            return (f"@kiln.guvectorize({signature!r}): {name} must be {wanted} of int or "
                    f"float type (its core dimensions ({','.join(core)})), not "
                    f"{display(type_)}")
    return None


def describe(typed: TypedFunction) -> list:
    """Lines showing a typed function's signature and variable types."""
    params = ", ".join(f"{p.name}: {display(p.type)}" for p in typed.params)
    lines = [f"{typed.name}({params}) -> {display(typed.return_type)}"
             f"{' raises' if typed.raises else ''}"]
    for name, variable in typed.variables.items():
        # a later web of a rebound name (frontend/variable_webs.py)
        shown = display_name(name) + (" (rebound)" if display_name(name) != name else "")
        lines.append(f"  {shown}: {display(variable.type)}")
    return lines


def main(argv=None) -> int:
    """`python3 -m kiln.typecheck.type_inference mod.py [--types]`."""
    from ..frontend.source import load_module

    argv = sys.argv[1:] if argv is None else argv
    show_types = "--types" in argv
    paths = [a for a in argv if a != "--types"]
    if len(paths) != 1:
        print("usage: python3 -m kiln.typecheck.type_inference mod.py [--types]", file=sys.stderr)
        return 2
    try:
        context = load_module(paths[0])
    except KilnCompileError as error:
        print(error, file=sys.stderr)
        return 1
    result = infer_module(context)
    for error in result.failures.values():
        print(error, file=sys.stderr)
    if show_types:
        for typed in result.functions.values():
            if typed.ok:
                print("\n".join(describe(typed)))
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main())
