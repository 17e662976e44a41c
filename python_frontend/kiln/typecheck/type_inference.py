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

Run it alone: `python3 -m kiln.compiler.type_inference mod.py [--types]`
prints every type error of the module's exported functions (and of the
helpers they call), or with --types their signatures and variable types.
"""

from __future__ import annotations

import ast
import copy
import os
import sys
from dataclasses import dataclass, field

from .. import typesystem as kt
from ..errors import Diagnostic, KilnCompileError
from .. import typing_rules as rules
from ..frontend.source import deepest_statement
from .shape_typing import ShapeFunctionTyping
from .typed_values import TypedValue, _Abandon  # noqa: F401 - TypedValue stays importable here
from ..frontend.subset import EXCEPTION_TYPES, SUPPORTED_BINOPS, SubsetChecker, default_value
from ..frontend.desugar import is_loop_iterable, literal_iterable, unsupported_iteration
from ..typing_rules import UNKNOWN, display, is_unknown

MAX_TYPING_ROUNDS = 8


# ------------------------------------------------------------ the typed tree
@dataclass(frozen=True)
class VariableType:
    type: object
    weak: bool = False           # bound only to Python literals so far


@dataclass(frozen=True)
class Parameter:
    name: str
    type: object
    default: object = None      # the number a default value writes, if any


@dataclass
class TypedFunction:
    """One function's types, for code generation to read."""
    name: str
    node: ast.FunctionDef
    exported: bool
    options: dict
    params: list = field(default_factory=list)
    return_type: object = None
    raises: bool = False
    written_arrays: frozenset = frozenset()
    # The parameters an array the function returns may view, per position in
    # the returned values: a caller's result may be its own argument then.
    returned_parameters: dict = field(default_factory=dict)  # position -> frozenset
    # Parameters without annotations typed by the function's first call.
    typed_by_first_call: frozenset = frozenset()
    variables: dict = field(default_factory=dict)     # name -> VariableType
    values: dict = field(default_factory=dict)        # ast node -> TypedValue
    loop_carried: dict = field(default_factory=dict)  # ast.For/While -> [names]
    # `a or b or c` is evaluated as `a or (b or c)`: the result of the last
    # n operands of a BoolOp node, for every tail code generation builds.
    bool_op_tails: dict = field(default_factory=dict)  # (ast.BoolOp, n) -> TypedValue
    # Everything an array variable may view over the whole function (a
    # loop-carried or merged array keeps every alias: frees depend on it).
    variable_origins: dict = field(default_factory=dict)  # name -> frozenset
    inlined: dict = field(default_factory=dict)   # lambda call -> (parameter names, body)
    callees: dict = field(default_factory=dict)       # name -> TypedFunction
    diagnostics: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics

    def type_of(self, node):
        return self.values[node].type

    def value_of(self, node) -> TypedValue:
        return self.values[node]

    def error(self) -> KilnCompileError:
        return KilnCompileError(self.diagnostics)

    def tail_value(self, node: ast.BoolOp, count: int) -> TypedValue:
        """The result of the last `count` operands of `node` (`b or c` in
        `a or b or c`); the whole node's value for all of them."""
        return self.bool_op_tails.get((node, count)) or self.value_of(node)

    def tail_type(self, node: ast.BoolOp, count: int):
        return self.tail_value(node, count).type


@dataclass
class ModuleTypes:
    """The typed functions of one module: the requested ones and every
    function they call; `failures` maps each requested function that does
    not type to its KilnCompileError (all of its diagnostics)."""
    functions: dict
    failures: dict
    constants: dict = field(default_factory=dict)   # the module's constants, as read once
    # Python's recursion limit stopped a function ("nested too deeply"): the
    # driver runs the stage again on a deep stack, as it does code generation.
    hit_recursion_limit: bool = False


def literal_candidates(value) -> tuple | None:
    """The int literals a weak value may be: its constant, or its candidates."""
    if value is None:
        return None
    if value.constant is not None and not isinstance(value.constant, (bool, float)):
        return (value.constant,)
    return value.candidates


def known_literals(value):
    """What comparison_type needs of an operand: its constant, or the tuple
    of literals it may be."""
    return value.constant if value.constant is not None else getattr(value, "candidates", None)


# ------------------------------------------------------------ AST helpers
# Facts about statement lists that typing and code generation share.
def statement_facts(stmt) -> tuple:
    """(the names `stmt` binds, in walk order; whether it contains a
    `return`). Kept on the node: typing walks a function once per round and
    code generation once more, and walking every expression each time
    dominated both. The frontend never changes a parsed tree, so the facts
    cannot go stale."""
    facts = stmt.__dict__.get("_kiln_facts")
    if facts is None:
        names, returns = [], False
        for node in ast.walk(stmt):
            targets = ()
            if isinstance(node, ast.Return):
                returns = True
            elif isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
                targets = [node.target]
            for target in targets:
                # `a, b = b, a + b` binds a and b: walk tuple/list targets too.
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name) and isinstance(leaf.ctx, ast.Store) and \
                            leaf.id not in names:
                        names.append(leaf.id)
        facts = stmt._kiln_facts = (tuple(names), returns)
    return facts


def assigned_names(stmts) -> list:
    names = []
    for stmt in stmts:
        names += [name for name in statement_facts(stmt)[0] if name not in names]
    return names


def contains_return(stmts) -> bool:
    return any(statement_facts(stmt)[1] for stmt in stmts)


def loop_exits(loop, kinds=(ast.Break,)) -> bool:
    """True when `loop` itself has a `break` (or another of `kinds`), not
    counting nested loops; a non-loop statement is searched the same way."""
    def walk(stmts):
        for stmt in stmts:
            if isinstance(stmt, kinds):
                return True
            if isinstance(stmt, (ast.For, ast.While)):
                continue
            for name in ("body", "orelse"):
                if walk(getattr(stmt, name, []) or []):
                    return True
        return False
    return walk(loop.body) if isinstance(loop, (ast.For, ast.While)) else walk([loop])


@dataclass
class ExitFrame:
    """What ends the statement list being typed: the function ("function",
    `in_branch` inside an `if` that returns) or a loop body ("loop", with
    the variables it carries and whether it has break/return flags)."""
    kind: str
    in_branch: bool = False
    carried: list = field(default_factory=list)
    has_flags: bool = False

    def for_branch(self) -> "ExitFrame":
        return ExitFrame("function", in_branch=True) if self.kind == "function" else self


def complex_power_exponent(value) -> int | None:
    """The exponent of `z ** n` that complex scalars support: a constant
    with an integer value from -100 to 100, which CPython computes by
    repeated multiplication (c_powi); None for any other exponent."""
    constant = value.constant
    if constant is None or isinstance(constant, bool):
        return None
    if isinstance(constant, complex):
        if constant.imag != 0:
            return None
        constant = constant.real
    if isinstance(constant, float) and not (constant.is_integer() and abs(constant) <= 100):
        return None
    return int(constant) if -100 <= constant <= 100 else None


def _real_number(type_) -> bool:
    """An int or float type (an element type of @kiln.vectorize's arrays)."""
    return _scalar(type_) and not type_.is_bool and not type_.is_complex


def _scalar(type_) -> bool:
    return isinstance(type_, kt.ScalarType)


# ----------------------------------------------------------- one function
class FunctionTyping(ShapeFunctionTyping):
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
        self.expression_types: dict = {}     # `and`/`or`/`x if c else y` result types
        self.variable_origins: dict = {}
        self.inferred_return: VariableType | None = None
        self.return_annotation = None
        self.raises = False
        self.callees: dict = {}
        self.allow_none_value = False
        # `f = lambda x: ...`: name -> the lambda; each call of it is its body
        # inlined, a copy per call site (call node -> (parameters, body)).
        self.lambdas: dict = {}
        # `np.uint64(18446744073709551615)`: int literals beyond int64 that
        # are the argument of a uint64 cast (they fit the uint64 they become)
        self.uint64_literals: set = set()
        self.inlined: dict = {}
        # Per round (the last round's are the result):
        self.written: set = set()
        self.values: dict = {}
        self.carried_by_loop: dict = {}
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
            bool_op_tails=self.bool_op_tails, variable_origins=dict(self.variable_origins),
            callees=dict(self.callees), inlined=dict(self.inlined),
            diagnostics=list(diagnostics))

    def resolve_parameters(self) -> list:
        params = []
        pythran = self.context.pythran_signature(self.func.name) if self.exported else None
        arguments = self.func.args.args
        defaults = [None] * (len(arguments) - len(self.func.args.defaults)) + [
            default_value(d) for d in self.func.args.defaults]
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
            if default is not None and not is_unknown(type_):
                node = self.func.args.defaults[position - len(arguments) + len(
                    self.func.args.defaults)]
                literal = TypedValue(rules.default_for_kind(rules.literal_kind(default)),
                                     weak=rules.literal_kind(default), constant=default)
                if isinstance(type_, kt.ArrayType):
                    self.report(node, f"parameter `{arg.arg}` is an array: a number cannot be "
                                      "its default")
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
        self.bool_op_tails: dict = {}
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

    # -------------------------------------------------------- statements
    def guarded(self, action, *args):
        try:
            return action(*args)
        except _Abandon:
            return None

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
        except _Abandon:
            pass

    # ------------------------------------------------------------ exits
    def exit_return(self, stmt: ast.Return) -> None:
        value = self.return_value(stmt)
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
        result = self.return_type()
        if stmt.value is None or (isinstance(stmt.value, ast.Constant)
                                  and stmt.value.value is None):
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
        if value.type is None:
            self.fail(stmt, "this call returns None; it has no value to return")
        if self.func.returns is not None:
            if self.return_annotation is None:
                self.fail(stmt, f"`{self.func.name}` is annotated -> None but returns a value")
            target = self.return_annotation
            if is_unknown(target):
                return None
            if _scalar(target) and target.is_bool and not (
                    _scalar(value.type) and value.type.is_bool):
                self.fail(stmt, f"`{self.func.name}` is annotated -> bool but returns a "
                                f"{display(value.type)}")
        else:
            target = self.join(self.inferred_return, value, self.func, "the result")
            if target != self.inferred_return:
                self.inferred_return = target
                self.changed = True
            target = target.type
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
        self.region(lambda: self.body(stmt.body + rest, terminal=True), frame=frame)
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
        if len(stmt.targets) == 1:
            self.array_consumers.add(stmt.value)
        views_only = all(isinstance(t, ast.Subscript) and self.is_view_subscript(t)
                         for t in stmt.targets)
        if isinstance(stmt.value, ast.Tuple) and views_only:
            value = self.tuple_value([self.expression(e) for e in stmt.value.elts])
        else:
            value = self.expression(stmt.value)
        if isinstance(value.type, kt.TupleType) and views_only:
            value = self.tuple_as_array(value, stmt)    # `row[:] = 0, 0`: np.array((0, 0))
        if isinstance(value.type, kt.TupleType):
            self.fail(stmt, "a tuple can only be unpacked (a, b = ...) or returned")
        for target in stmt.targets:
            self.guarded(self.assign, target, value, stmt)

    def loop_iterable(self, stmt) -> None:
        """The iterable of a `for` loop over an array (desugar.py): an
        array, or the loop is refused at the iterable."""
        what = literal_iterable(stmt.value)
        if what is None:
            value = self.guarded(self.expression, stmt.value) or TypedValue(UNKNOWN)
            what = None if is_unknown(value.type) or isinstance(value.type, kt.ArrayType) \
                else display(value.type)
        if what is not None:
            self.report(stmt.value, unsupported_iteration(what))
            value = TypedValue(UNKNOWN)
        self.guarded(self.assign, stmt.targets[0], value, stmt)

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
            elif not isinstance(value.type, kt.TupleType):
                self.fail(node, f"cannot unpack a {getattr(value.type, 'display', 'None')}")
            else:
                values = value.elements
        if len(values) != len(targets):
            self.fail(node, f"cannot unpack {len(values)} values into {len(targets)} targets")
        for target, value in zip(targets, values):
            if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
                self.fail(target, "nested or starred unpacking is not supported")
            self.guarded(self.assign, target, value, node)

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
        name_node = call.func if call else exc
        if not (isinstance(name_node, ast.Name) and name_node.id in EXCEPTION_TYPES):
            self.fail(node, f"raising `{ast.unparse(exc) if exc else 'bare raise'}` is not "
                            f"supported; raise one of {', '.join(EXCEPTION_TYPES)}")
        if call and (call.keywords or len(call.args) > 1 or (call.args and not (
                isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)))):
            self.fail(call, "an exception raised in compiled code takes one constant string "
                            "message")

    def stmt_AnnAssign(self, stmt):
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
            self.assign(stmt.target, self.expression(stmt.value), stmt)

    def stmt_AugAssign(self, stmt):
        target = stmt.target
        self.refuse_store_through_parts(target)
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
            if _scalar(current.type) and isinstance(value.type, kt.ArrayType):
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

    def assign(self, target, value: TypedValue, node):
        self.refuse_store_through_parts(target)
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
            if _scalar(variable.type):
                self.symbols[name] = TypedValue(converted.type)
            else:
                self.symbols[name] = TypedValue(
                    converted.type, elements=converted.elements,
                    origins=self.array_origins(name, converted.origins))
        self.maybe_undefined.discard(name)

    def array_origins(self, name, origins) -> frozenset:
        """Everything variable `name` may view, over the whole function."""
        known = self.variable_origins.get(name, frozenset())
        merged = known | frozenset(origins)
        if merged != known:
            self.variable_origins[name] = merged
            self.changed = True
        return merged

    def join(self, current, value: TypedValue, node, name) -> VariableType:
        if isinstance(value.type, kt.TupleType) or (
                current is not None and isinstance(current.type, kt.TupleType)):
            if current is None:
                return VariableType(kt.TupleType(tuple(
                    rules.default_for_kind(e.weak) if e.weak else e.type
                    for e in value.elements)))
            if not (isinstance(value.type, kt.TupleType) and isinstance(current.type, kt.TupleType)
                    and len(value.elements) == len(current.type.elements)):
                self.fail(node, f"{name} is {display(current.type)} on one path and "
                                f"{display(value.type)} on another")
            return VariableType(kt.TupleType(tuple(
                self.join(VariableType(t), e, node, name).type
                for t, e in zip(current.type.elements, value.elements))))
        joined, problem = rules.join_variable(
            None if current is None else (current.type, current.weak), value.type, value.weak,
            value.constant)
        if problem:
            self.fail(node, f"variable `{name}` is {display(current.type)} on one path and "
                            f"{display(value.type)} on another")
        return VariableType(*joined)

    def load_name(self, node: ast.Name) -> TypedValue:
        name = node.id
        if name in self.symbols:
            return self.symbols[name]
        if name in self.maybe_undefined or name in self.var_types:
            self.fail(node, f"variable `{name}` may be used before it is assigned (it is not "
                            "assigned on every path to this line)")
        constants = self.module.constants
        if name in constants:
            value = constants[name]
            kind = rules.literal_kind(value)
            if kind == "int" and not rules.INT64_MIN <= value <= rules.INT64_MAX:
                self.fail(node, f"module constant `{name}` does not fit in 64 bits")
            return self.literal(value, rules.default_for_kind(kind), weak=kind)
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
                    "bound once to a number that fits in 64 bits)")
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
        then_symbols = self.region(lambda: self.body(stmt.body))
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

    def range_bounds(self, call) -> None:
        """Types the arguments of `range(...)`."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            self.report(call, "`for` loops need range(...)")
            return
        if len(call.args) not in (1, 2, 3):
            self.report(call, "range() takes 1 to 3 arguments")
            return
        args = [self.expression(a) for a in call.args]
        usable = True
        for arg, node in zip(args, call.args):
            if is_unknown(arg.type):
                usable = False
            elif not _scalar(arg.type) or arg.type.is_float:
                self.report(node, f"range() arguments must be int, not {display(arg.type)}")
                usable = False
        if not usable:
            return
        args = [self.guarded(self.convert, a, kt.i64, n) for a, n in zip(args, call.args)]
        if None in args:
            return
        step = args[2] if len(args) == 3 else None
        step_value = 1 if step is None else step.constant
        if step_value is not None and step_value == 0:
            self.report(call, "range() arg 3 must not be zero")
        elif step_value is None:
            self.raises = True      # checked against zero at run time

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
        target = stmt.target.id
        carried = self.loop_carried(stmt.body, [target] if target in self.symbols else [])
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

    def mark_loop_locals(self, stmt, carried) -> None:
        names = assigned_names(stmt.body)
        if isinstance(stmt, ast.For):
            names.append(stmt.target.id)
        self.maybe_undefined.update(n for n in names if n not in carried)

    def stmt_While(self, stmt):
        carried = self.loop_carried(stmt.body)
        self.carried_by_loop[stmt] = carried
        self.loop_as_while(stmt, carried, with_counter=False)

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

    # ------------------------------------------------------ expressions
    def expression(self, node) -> TypedValue:
        try:
            if isinstance(node, ast.Tuple):
                self.fail(node, "a tuple can only be unpacked (a, b = ...) or returned")
            method = getattr(self, "expr_" + type(node).__name__, None)
            if method is None:
                self.fail(node, f"expression `{ast.unparse(node)}` is not supported")
            value = method(node)
            if value.type is None and not self.allow_none_value:
                self.fail(node, f"`{ast.unparse(node)}` returns None; it has no value")
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
        if isinstance(target, kt.TupleType):
            if not isinstance(source, kt.TupleType) or len(source.elements) != len(
                    target.elements):
                self.fail(node, f"cannot use {display(source)} as {target.display}")
            return self.tuple_value([self.convert(e, t, node, explicit)
                                     for e, t in zip(value.elements, target.elements)])
        if isinstance(source, kt.TupleType):
            self.fail(node, f"cannot use a {source.display} value as {target.display}")
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

    def scalar_operands(self, *values):
        """Abandons quietly unless every value is a number or an array."""
        self.absorb(*values)
        for value in values:
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
        return self.binary(node.op, left, self.expression(node.right), node)

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
        self.scalar_operands(left, right)
        typed = self.operand_types(left, right)
        if typed is None:
            return self.array_binary(symbol, left, right, node)
        common, weak = typed
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
        if common.is_complex and symbol == "**" and complex_power_exponent(right) is None:
            self.fail(node, "`**` of complex numbers is supported with a constant integer "
                            "exponent from -100 to 100 (`z ** 2`, `z ** -1`)")
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
        return TypedValue(common, weak=weak, candidates=candidates if weak == "int" else None)

    def expr_UnaryOp(self, node):
        self.array_consumers.add(node.operand)
        operand = self.expression(node.operand)
        self.scalar_operands(operand)
        if isinstance(operand.type, kt.ArrayType):
            return self.array_unary(node.op, operand, node)
        if isinstance(node.op, ast.Not):
            self.truthy(operand, node)
            return TypedValue(kt.boolean)
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
        self.scalar_operands(left, right)
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
        self.array_consumers.update([node.left, *node.comparators])
        left = self.compared(node.left, node)
        if len(node.ops) == 1:
            left = self.before_module_call(left, node.comparators, node)
            right = self.compared(node.comparators[0], node)
            if isinstance(left.type, kt.ArrayType) or isinstance(right.type, kt.ArrayType):
                return self.array_compare(left, right, node)
            if isinstance(left.type, kt.TupleType) or isinstance(right.type, kt.TupleType):
                return self.tuple_compare(node.ops[0], left, right, node)
            self.compare(left, right, node)
        else:
            self.chained_compare(left, list(zip(node.ops, node.comparators)), node)
        # Comparing Python numbers gives a Python bool (weak under NEP 50);
        # any typed operand makes it a typed (numpy) bool.
        operands = [self.values.get(n) for n in [node.left, *node.comparators]]
        weak = "bool" if all(v is not None and v.weak for v in operands) else None
        return TypedValue(kt.boolean, weak=weak)

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
        if len(operands) == 1:
            return first
        if isinstance(first.type, kt.ArrayType):
            self.fail(node, "`and`/`or` on arrays is not supported")
        if is_unknown(first.type) or not _scalar(first.type):
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
            if not _scalar(value.type):
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
        if test.constant is not None and _scalar(test.type):
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
                elif not _scalar(value.type):
                    return
                elif previous is not None and not isinstance(previous, tuple):
                    self.fail(node, "the branches of this conditional expression are an "
                                    "array and a number")
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

    # ------------------------------------------------------------ calls
    def expr_Call(self, node):
        func = node.func
        qualified = self.context.qualified_name(func)
        if qualified is not None and qualified[0] == "numpy" and qualified[1] in rules.ALLOCATORS:
            return self.allocate(qualified[1], node)
        if qualified is not None and qualified[0] == "numpy" and \
                qualified[1] in rules.NUMPY_REDUCTIONS | rules.NUMPY_SCANS:
            self.array_consumers.update(node.args[:1])
            return self.reduction(qualified[1], [self.expression(a) for a in node.args[:1]],
                                  node, node.args[1:], node.keywords)
        if rules.is_positions_call(node, qualified) and qualified is not None:
            return self.shape_function("nonzero", node)         # np.where(a) too
        if qualified is not None and qualified[0] == "numpy" and \
                qualified[1] in rules.SHAPE_FUNCTIONS:
            return self.shape_function(qualified[1], node)
        if qualified is None and isinstance(func, ast.Attribute) and \
                func.attr in rules.SHAPE_METHODS:
            return self.shape_function(func.attr, node, func.value)
        if qualified is not None:
            keyword_values, message = rules.keyword_only_arguments(qualified, node.keywords)
            if message:
                self.fail(node, message)
            if qualified in (("numpy", "uint64"), ("kiln", "u64")) and len(node.args) == 1 \
                    and isinstance(node.args[0], ast.Constant):
                self.uint64_literals.add(node.args[0])
            if qualified[0] == "numpy":
                self.array_consumers.update(node.args)
            args = []
            for position, arg in enumerate(node.args):
                args.append(self.before_module_call(self.expression(arg),
                                                    node.args[position + 1:], node))
            args += [None if v is None else self.expression(v) for v in keyword_values]
            return self.library_call(qualified, args, node)
        if isinstance(func, ast.Attribute) and func.attr in rules.ARRAY_METHODS:
            return self.method_call(func, node)
        if not isinstance(func, ast.Name):
            self.fail(node, f"call to `{ast.unparse(func)}` is not supported")
        name = func.id
        if name in self.lambdas:
            return self.call_lambda(name, node)
        if name in self.symbols:
            self.fail(node, f"`{name}` is a variable; calling it is not supported")
        if name in self.module.functions:
            return self.call_function(name, node)
        handler = getattr(self, "builtin_" + name, None)
        if handler is None:
            self.fail(node, f"call to `{name}` is not supported")
        if node.keywords:
            self.fail(node, f"keyword arguments to {name}() are not supported")
        if name == "abs":
            self.array_consumers.update(node.args)      # np.absolute of an array
        return handler([self.expression(a) for a in node.args], node)

    def call_lambda(self, name, node) -> TypedValue:
        """`f(a, b)` of `f = lambda x, y: body`: the body, with x and y the
        arguments' values (evaluated first, in order)."""
        function = self.lambdas[name]
        parameters = [a.arg for a in function.args.args]
        if node.keywords or len(node.args) != len(parameters):
            self.fail(node, f"{name}() takes {len(parameters)} positional arguments here")
        if node not in self.inlined:
            body = copy.deepcopy(function.body)
            self.inlined[node] = (parameters, body)
        parameters, body = self.inlined[node]
        values = []
        for arg in node.args:
            value = self.expression(arg)
            if value.fresh:
                value = self.new_array(value, arg)
            values.append(value)
        saved = {p: self.symbols.get(p) for p in parameters}
        for parameter, value in zip(parameters, values):
            self.symbols[parameter] = value
        self.array_consumers.add(body)
        try:
            return self.expression(body)
        finally:
            for parameter, value in saved.items():
                if value is None:
                    self.symbols.pop(parameter, None)
                else:
                    self.symbols[parameter] = value

    def call_site_hints(self, func, node) -> dict:
        """The types of the arguments this call passes to `func`'s
        parameters without annotations: a helper is typed by its first call
        (a Python number literal as int, float, complex or bool)."""
        names = [a.arg for a in func.args.args]
        passed = dict(zip(names, node.args))
        passed.update({k.arg: k.value for k in node.keywords if k.arg in names})
        hints = {}
        for arg in func.args.args:
            if arg.annotation is not None or arg.arg not in passed:
                continue
            value = self.expression(passed[arg.arg])
            self.absorb(value)
            if isinstance(value.type, kt.TupleType) or value.type is None:
                continue
            hints[arg.arg] = rules.default_for_kind(value.weak) if value.weak else value.type
        return hints

    def call_function(self, name, node) -> TypedValue:
        """A call to another function of the module: typed from its signature."""
        func = self.module.functions.get(name)
        hints = None
        if func is not None and not self.context.is_exported(func) and any(
                a.annotation is None for a in func.args.args):
            hints = self.call_site_hints(func, node)
        try:
            callee = self.module.signature(name, node, hints)
        except KilnCompileError as error:
            first = error.diagnostics[0]
            self.fail(node, f"calls `{name}`, which cannot be compiled ({first.message}, line "
                            f"{first.line})")
        self.callees[name] = callee
        params = callee.params
        if len(node.args) > len(params):
            self.fail(node, f"{name}() takes {len(params)} arguments but {len(node.args)} were "
                            "given")
        bound = list(node.args) + [None] * (len(params) - len(node.args))
        for keyword in node.keywords:
            slot = next((i for i, p in enumerate(params) if p.name == keyword.arg), None)
            if slot is None or bound[slot] is not None:
                self.fail(keyword, f"{name}() got an unexpected or repeated argument "
                                   f"`{keyword.arg}`")
            bound[slot] = keyword.value
        # Arguments are evaluated in the order of the parameters.
        for param, arg_node in zip(params, bound):
            if arg_node is None and param.default is not None:
                continue            # the default: a number of the parameter's type
            if arg_node is None:
                self.fail(node, f"{name}() is missing argument `{param.name}`")
            value = self.expression(arg_node)
            if is_unknown(value.type):
                continue
            if param.name in callee.typed_by_first_call:
                passed = rules.default_for_kind(value.weak) if value.weak else value.type
                if passed != param.type and not isinstance(param.type, kt.ArrayType):
                    # Converting would compute something else than Python
                    # does (`h(a, True)` then `h(a, 3)`).
                    self.report(arg_node, f"argument `{param.name}` of {name}() is "
                                          f"{display(passed)} here, but the first call of "
                                          f"`{name}` typed it {param.type.display} "
                                          f"(`{param.name}` has no annotation); annotate it")
                    continue
            if isinstance(param.type, kt.ArrayType):
                if value.type != param.type:
                    unannotated = any(a.arg == param.name and a.annotation is None
                                      for a in callee.node.args.args)
                    self.report(arg_node, f"argument `{param.name}` of {name}() must be "
                                          f"{param.type.display}, not {display(value.type)}" + (
                                              f" (`{param.name}` has no annotation: the first "
                                              f"call of `{name}` typed it; annotate it to "
                                              "choose)" if unannotated else ""))
                elif param.name in callee.written_arrays:
                    self.written |= set(value.origins)
            else:
                self.guarded(self.convert, value, param.type, arg_node)
        if callee.raises:
            self.raises = True
        result = callee.return_type
        arguments = {param.name: self.values.get(arg_node) for param, arg_node in
                     zip(params, bound) if arg_node is not None}
        if isinstance(result, kt.ArrayType):
            return TypedValue(result, origins=self.call_result_origins(callee, 0, arguments))
        if isinstance(result, kt.TupleType):
            return self.tuple_value([
                TypedValue(t, origins=self.call_result_origins(callee, position, arguments))
                if isinstance(t, kt.ArrayType) else TypedValue(t)
                for position, t in enumerate(result.elements)])
        return TypedValue(result)

    def call_result_origins(self, callee, position, arguments) -> frozenset:
        """A new array of this call, or (when the callee may return views of
        its parameters) a view of the arguments passed for them."""
        self.allocation_count += 1
        origins = {f"alloc:{self.allocation_count}"}
        for name in callee.returned_parameters.get(position, ()):
            argument = arguments.get(name)
            if argument is not None:
                origins |= argument.origins
        return frozenset(origins)

    def allocate(self, name, node) -> TypedValue:
        """np.empty/zeros/ones(shape, dtype) and the *_like forms."""
        keywords = {k.arg: k.value for k in node.keywords}
        unknown = set(keywords) - {"dtype", "shape"}
        if unknown:
            self.fail(node, f"np.{name}() argument `{sorted(unknown)[0]}` is not supported")
        args = list(node.args)
        if name.endswith("_like"):
            if len(args) != 1:
                self.fail(node, f"np.{name}() takes one array")
            prototype = self.expression(args[0])
            self.absorb(prototype)
            if not isinstance(prototype.type, kt.ArrayType):
                self.fail(args[0], f"np.{name}() needs an array")
            dtype = self.dtype_of(keywords["dtype"]) if "dtype" in keywords else \
                prototype.type.dtype
            ndim = prototype.type.ndim
        else:
            shape_node = args[0] if args else keywords.get("shape")
            if shape_node is None or len(args) > 2:
                self.fail(node, f"np.{name}() takes a shape and an optional dtype")
            dtype_node = args[1] if len(args) == 2 else keywords.get("dtype")
            dtype = kt.f64 if dtype_node is None else self.guarded(self.dtype_of, dtype_node)
            parts = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
                shape_node]
            shape_tuple = None
            if isinstance(shape_node, ast.Attribute) and shape_node.attr == "shape":
                shape_tuple = self.expression(shape_node)       # np.zeros(a.shape)
                self.absorb(shape_tuple)
                parts = shape_tuple.elements
            if not 1 <= len(parts) <= rules.MAX_ARRAY_NDIM:
                self.fail(shape_node, f"arrays have 1 to {rules.MAX_ARRAY_NDIM} dimensions")
            for part in parts:
                size = part if shape_tuple is not None else self.expression(part)
                if is_unknown(size.type):
                    dtype = None
                elif not _scalar(size.type) or size.type.is_float:
                    self.report(part, "array dimensions must be ints")
                    dtype = None
                else:
                    self.guarded(self.convert, size, kt.i64, part)
            if dtype is None:
                raise _Abandon()
            ndim = len(parts)
        self.raises = True      # MemoryError, and numpy's size limit
        self.allocation_count += 1
        return TypedValue(rules.array_type(dtype, ndim),
                          origins=frozenset([f"alloc:{self.allocation_count}"]))

    def dtype_of(self, node) -> kt.ScalarType:
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and \
                self.context.qualified_name(node) is None:
            array = self.expression(node.value)         # `dtype=x.dtype`
            self.absorb(array)
            if isinstance(array.type, kt.ArrayType) and not array.fresh:
                return array.type.dtype
            self.fail(node, "`.dtype` of something else than an array variable")
        qualified = self.context.qualified_name(node)
        if qualified and qualified[0] in ("numpy", "kiln") and \
                qualified[1] in rules.DTYPE_ATTRIBUTES:
            return rules.DTYPE_ATTRIBUTES[qualified[1]]
        if isinstance(node, ast.Name) and node.id in rules.DTYPE_BUILTINS:
            return rules.DTYPE_BUILTINS[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value in rules.DTYPE_STRINGS:
            return rules.DTYPE_STRINGS[node.value]
        self.fail(node, rules.DTYPE_ERROR.format(ast.unparse(node)))

    def expect_scalar(self, value, node, what) -> None:
        self.absorb(value)
        if not _scalar(value.type):
            self.fail(node, f"{what} needs a number, not an array")

    def refuse_complex(self, args, node, label, why) -> None:
        if any(a is not None and _scalar(a.type) and a.type.is_complex for a in args):
            self.fail(node, f"{label} does not take complex numbers ({why})")

    def builtin_complex(self, args, node):
        """`complex(re)`, `complex(re, im)` of real numbers: CPython puts
        them in the parts as they are (no arithmetic)."""
        if not 1 <= len(args) <= 2:
            self.fail(node, "complex() takes one or two numbers")
        for arg in args:
            self.expect_scalar(arg, node, "complex()")
        self.refuse_complex(args[1:], node, "complex()'s second argument",
                            "give complex(re, im) two real numbers")
        # A Python complex: weak (NEP 50) when made of Python numbers only,
        # as float() of a Python number is.
        weak = "complex" if all(arg.weak for arg in args) else None
        if len(args) == 1 and args[0].type.is_complex:
            return TypedValue(kt.c128, weak=weak)
        for arg in args:
            self.convert(arg, kt.f64, node)
        return TypedValue(kt.c128, weak=weak)

    def cmath_call(self, name, args, node):
        """cmath.f of a number (a real one becomes complex, as in CPython)."""
        label = f"cmath.{name}"
        keyword_only = len(rules.CMATH_KEYWORDS.get(name, ()))
        positional = args[:len(args) - keyword_only]
        counts = {"rect": (2,), "isclose": (2,), "log": (1, 2)}.get(name, (1,))  # log(z, base)
        if len(positional) not in counts:
            self.arity(positional, counts[0], node, label)
        for arg in args:
            if arg is not None:
                self.expect_scalar(arg, node, label)
        if name in rules.CMATH_RAISING:
            self.raises = True      # math range and domain errors
        if name == "rect":
            # CPython: TypeError (must be real number, not complex)
            self.refuse_complex(args, node, label, "CPython raises TypeError; it takes two "
                                                   "real numbers")
            for arg in args:
                self.convert(arg, kt.f64, node)
            return TypedValue(kt.c128)
        for arg in positional:
            self.convert(arg, kt.c128, node)
        if name == "isclose":
            self.refuse_complex(args[2:], node, f"{label}'s tolerances", "they are real numbers")
            for arg in args[2:]:
                if arg is not None:
                    self.convert(arg, kt.f64, node)
            return TypedValue(kt.boolean)
        if name in rules.CMATH_FUNCTIONS or name in ("exp", "sqrt", "log", "log10"):
            return TypedValue(kt.c128)
        if name == "phase":
            return TypedValue(kt.f64)
        if name == "polar":
            return self.tuple_value([TypedValue(kt.f64), TypedValue(kt.f64)])
        return TypedValue(kt.boolean)

    def numpy_complex_call(self, name, args, node):
        """np.f of a complex scalar: the functions that have one meaning
        for complex numbers; the rest are refused with the reason."""
        label = f"np.{name}"
        complex_type = args[0].type if args and args[0].type.is_complex else kt.c128
        if name in ("conj", "conjugate"):
            self.arity(args, 1, node, label)
            return TypedValue(complex_type)
        if name in ("real", "imag"):
            self.arity(args, 1, node, label)
            # np.real(1j) is z.real: a Python float for a Python complex
            return TypedValue(complex_type.part, weak="float" if args[0].weak else None)
        if name in ("abs", "absolute"):
            self.arity(args, 1, node, label)
            # numpy's: inf on overflow, no exception
            return TypedValue(complex_type.part)
        if name in rules.COMPLEX_LIBM:
            self.arity(args, 1, node, label)
            return TypedValue(complex_type)     # glibc's cexp, cexpf, ... as numpy's
        if name in rules.MATH_PREDICATES:
            self.arity(args, 1, node, label)
            return TypedValue(kt.boolean)       # of either part (isfinite: of both)
        self.fail(node, f"{label} of complex numbers is not supported yet")

    def arity(self, args, count, node, label) -> None:
        if len(args) != count:
            self.fail(node, f"{label}() takes {count} argument{'s' if count > 1 else ''}")

    # ---------------------------------------------------------- builtins
    def builtin_len(self, args, node):
        if len(args) == 1 and isinstance(args[0].type, kt.TupleType):
            return self.literal(len(args[0].elements), kt.i64)      # len(a.shape)
        if len(args) == 1:
            self.absorb(args[0])
        if len(args) != 1 or not isinstance(args[0].type, kt.ArrayType):
            self.fail(node, "len() takes one array")
        return TypedValue(kt.i64)

    def builtin_abs(self, args, node):
        if len(args) != 1:
            self.fail(node, "abs() takes one argument")
        value = args[0]
        if isinstance(value.type, kt.ArrayType):
            return self.array_ufunc("absolute", args, node)     # ndarray.__abs__
        self.expect_scalar(value, node, "abs()")
        if value.type.is_bool:
            value = self.convert(value, kt.i64, node)
        result_type = rules.abs_type(value.type)
        if value.type.is_complex:
            # CPython: OverflowError("absolute value too large"); numpy's
            # complex64 gives inf
            self.raises = self.raises or value.type == kt.c128
            return TypedValue(result_type, weak="float" if value.weak else None)
        if value.weak and value.constant is not None and (
                isinstance(value.constant, float) or value.constant != rules.INT64_MIN):
            # `abs(2**62)` of a Python literal is a Python number, folded
            # (comparisons with it stay exact).
            return self.literal(abs(value.constant), result_type, weak=value.weak)
        return TypedValue(result_type, weak=value.weak)

    def builtin_min(self, args, node):
        return self.min_max(args, node, "min")

    def builtin_max(self, args, node):
        return self.min_max(args, node, "max")

    def min_max(self, args, node, name):
        if len(args) < 2:
            self.fail(node, f"{name}() of a sequence is not supported; pass two or more numbers")
        result = args[0]
        self.scalar_operands(result)
        self.refuse_complex(args, node, f"{name}()", "complex numbers are not ordered")
        for candidate in args[1:]:
            self.expect_scalar(candidate, node, f"{name}()")
            typed = self.operand_types(result, candidate)
            if typed is None:
                self.fail(node, f"{name}() needs numbers")
            pair = ((result.type, result.weak, known_literals(result)),
                    (candidate.type, candidate.weak, known_literals(candidate)))
            static = rules.static_min_max(name, *pair)
            if static is not None:
                result = (result, candidate)[static]
                continue
            common = rules.comparison_type(*pair)
            self.convert(result, common, node)
            self.convert(candidate, common, node)
            known = rules.python_int_min_max(
                name, (result.weak, result.constant, result.candidates),
                (candidate.weak, candidate.constant, candidate.candidates))
            if known and known[0] == "constant":
                result = self.literal(known[1], common, weak="int")
            else:
                result = TypedValue(common, weak=typed[1],
                                    candidates=known[1] if known else None)
        return result

    def builtin_float(self, args, node):
        if len(args) != 1:
            self.fail(node, "float() takes one number")
        self.expect_scalar(args[0], node, "float()")
        self.refuse_complex(args, node, "float()", "CPython raises TypeError; take `.real`")
        weak = self.python_number_conversion(args[0], float, kt.f64, "float", node)
        if weak is not None:
            return weak
        # A Python float is a double: float(x) of a float32 is exact in f64.
        return self.convert(args[0], kt.f64, node)

    def builtin_int(self, args, node):
        if len(args) != 1:
            self.fail(node, "int() takes one number")
        self.expect_scalar(args[0], node, "int()")
        self.refuse_complex(args, node, "int()", "CPython raises TypeError; take `.real`")
        weak = self.python_number_conversion(args[0], int, kt.i64, "int", node)
        if weak is not None:
            return weak
        # A Python int is 64-bit, also for int(x) of an int32.
        return self.convert(args[0], kt.i64, node, explicit=True)

    def python_number_conversion(self, value, convert, type_, kind, node):
        """float()/int() of a Python number is a Python number: it stays weak
        (NEP 50), so `float(3) * x32` is float32 like `3.0 * x32`. None when
        `value` is typed or not known at compile time."""
        if not value.weak:
            return None
        # int() of a float literal beyond int64 (or inf, NaN) raises at run
        # time, as the typed path emits; every other constant folds.
        folds = not (kind == "int" and isinstance(value.constant, float) and not (
            -2.0**63 <= value.constant < 2.0**63))
        if value.constant is not None and folds:
            return self.literal(convert(value.constant), type_, weak=kind)
        result = self.convert(value, type_, node, explicit=kind == "int")
        candidates = value.candidates if value.type.is_int and kind == "int" else None
        return TypedValue(result.type, weak=kind, candidates=candidates)

    def builtin_bool(self, args, node):
        if len(args) != 1:
            self.fail(node, "bool() takes one argument")
        self.expect_scalar(args[0], node, "bool()")
        return self.truthy(args[0], node)

    def builtin_round(self, args, node):
        if len(args) != 1:
            self.fail(node, "round() with ndigits is not supported yet")
        value = args[0]
        self.expect_scalar(value, node, "round()")
        self.refuse_complex(args, node, "round()", "CPython raises TypeError")
        if not value.type.is_float:
            return self.convert(value, kt.i64, node)
        self.raises = True      # int() of NaN or infinity
        return TypedValue(kt.i64)

    # ----------------------------------------------------------- library
    def library_call(self, qualified, args, node):
        module, name = qualified
        if module == "math":
            return self.math_call(name, args, node)
        if module == "numpy":
            return self.numpy_call(name, args, node)
        if module == "kiln" and name in rules.KILN_CASTS:
            return self.cast_call(rules.KILN_CASTS[name], args, node, f"kiln.{name}")
        if module == "cmath" and name in rules.SUPPORTED_CMATH:
            return self.cmath_call(name, args, node)
        self.fail(node, f"call to `{module}.{name}` is not supported yet")

    def as_double(self, value, node) -> TypedValue:
        self.expect_scalar(value, node, "this function")
        return self.convert(value, kt.f64, node)

    def math_call(self, name, args, node):
        """`math.f`: computed in double precision; CPython's domain and
        range errors make most of them raise."""
        label = f"math.{name}"
        self.refuse_complex(args, node, label, "CPython raises TypeError; cmath is not "
                                               "supported yet")
        if name in rules.MATH_UNARY_RAISES:
            if name == "log" and len(args) == 2:
                for arg in args:
                    self.as_double(arg, node)
                self.raises = True
                return TypedValue(kt.f64)
            self.arity(args, 1, node, label)
            x = self.as_double(args[0], node)
            if rules.MATH_UNARY_RAISES[name]:
                self.raises = True
            return TypedValue(x.type)
        if name in rules.MATH_TO_INT:
            self.arity(args, 1, node, label)
            self.absorb(args[0])
            if _scalar(args[0].type) and not args[0].type.is_float:
                return self.convert(args[0], kt.i64, node)
            self.as_double(args[0], node)
            self.raises = True      # NaN and infinity have no integer
            return TypedValue(kt.i64)
        if name in rules.MATH_PREDICATES:
            self.arity(args, 1, node, label)
            self.as_double(args[0], node)
            return TypedValue(kt.boolean)
        if name in rules.MATH_BINARY_RAISES:
            self.arity(args, 2, node, label)
            for arg in args:
                self.as_double(arg, node)
            if rules.MATH_BINARY_RAISES[name]:
                self.raises = True
            return TypedValue(kt.f64)
        self.fail(node, f"call to `{label}` is not supported yet")

    def numpy_float(self, value, node) -> TypedValue:
        self.expect_scalar(value, node, "this function")
        return self.convert(value, rules.numpy_float_type(value.type), node)

    def numpy_call(self, name, args, node):
        """`np.f` of scalars: numpy's types (f32 stays f32); never raises."""
        label = f"np.{name}"
        if name in rules.OPERATOR_UFUNCS:
            self.arity(args, 2, node, label)
            if not any(isinstance(a.type, kt.ArrayType) for a in args):
                self.fail(node, f"{label} of numbers is not supported yet (of arrays it is "
                                "the operator); write the operator")
            return self.binary(getattr(ast, rules.OPERATOR_UFUNCS[name])(), args[0], args[1],
                               node)
        if name in rules.COMPARISON_UFUNCS:
            self.arity(args, 2, node, label)
            ops = [getattr(ast, rules.COMPARISON_UFUNCS[name])()]
            if any(isinstance(a.type, kt.ArrayType) for a in args):
                return self.array_compare(args[0], args[1], node, ops)
            self.compare(args[0], args[1], node, ops)
            return TypedValue(kt.boolean)
        if any(_scalar(a.type) and a.type.is_complex for a in args):
            if name in rules.NUMPY_CASTS:
                return self.cast_call(rules.NUMPY_CASTS[name], args, node, label)
            return self.numpy_complex_call(name, args, node)
        if name in rules.NUMPY_REDUCTIONS:
            return self.reduction(name, args, node)
        if name == "dot":
            return self.dot(args, node)
        if any(isinstance(a.type, kt.ArrayType) for a in args):
            return self.array_ufunc(name, args, node)
        if name in rules.NUMPY_CASTS:
            return self.cast_call(rules.NUMPY_CASTS[name], args, node, label)
        if name in rules.NUMPY_UNARY:
            self.arity(args, 1, node, label)
            return TypedValue(self.numpy_float(args[0], node).type)
        if name in ("abs", "absolute"):
            self.arity(args, 1, node, label)
            # numpy's result is a numpy scalar, typed even for a Python
            # number (np.abs(1e300) + x32 is float64; fuzzer seed 742656376)
            value = self.builtin_abs(args, node)
            return TypedValue(value.type, constant=value.constant)
        if name == "square":
            self.arity(args, 1, node, label)
            self.expect_scalar(args[0], node, label)
            if args[0].type.is_bool or args[0].weak:
                self.fail(node, "np.square of a bool or a Python number is not supported; "
                                "write x * x")
            return TypedValue(args[0].type)
        if name in rules.MATH_PREDICATES:
            self.arity(args, 1, node, label)
            self.numpy_float(args[0], node)
            return TypedValue(kt.boolean)
        if name in ("minimum", "maximum"):
            self.arity(args, 2, node, label)
            self.scalar_operands(*args)
            typed = self.operand_types(*args)
            if typed is None:
                self.fail(node, "np.minimum/np.maximum need numbers")
            common = rules.numpy_min_max_type(typed[0])
            for arg in args:
                self.convert(arg, common, node)
            return TypedValue(common)
        if name in rules.NUMPY_BINARY:
            self.arity(args, 2, node, label)
            self.scalar_operands(*args)
            typed = self.operand_types(*args)
            common = rules.numpy_binary_float_type(typed[0] if typed else None)
            for arg in args:
                self.convert(arg, common, node)
            return TypedValue(common)
        self.fail(node, f"call to `{label}` is not supported yet")

    def cast_call(self, target, args, node, label):
        self.arity(args, 1, node, label)
        self.expect_scalar(args[0], node, label)
        converted = self.convert(args[0], target, node, explicit=True)
        # `np.float64(1e-300)` is a typed numpy scalar, not a Python literal:
        # NEP 50 must not demote it beside a float32.
        return TypedValue(converted.type, constant=converted.constant,
                          origins=converted.origins)

    # ------------------------------------------------------------ arrays
    def expr_Attribute(self, node):
        qualified = self.context.qualified_name(node)
        if qualified is not None:
            module, name = qualified
            constants = {"math": rules.MATH_CONSTANTS,
                         "numpy": rules.NUMPY_CONSTANTS}.get(module, {})
            if name in constants:
                return self.literal(constants[name], kt.f64, weak="float")
            self.fail(node, f"`{ast.unparse(node)}` is not supported here")
        if node.attr in ("T", "real", "imag"):
            self.array_consumers.add(node.value)       # `(a - b).T`, `(z * w).real`
        base = self.expression(node.value)
        self.absorb(base)
        if node.attr == "T" and base.fresh:
            base = self.new_array(base, node)
        if _scalar(base.type) and base.type.is_complex and node.attr in ("real", "imag"):
            # a Python complex's parts are Python floats (weak under NEP 50)
            return TypedValue(base.type.part, weak="float" if base.weak else None)
        if _scalar(base.type) and node.attr in ("real", "imag") and not base.type.is_bool:
            # of an int or float: itself, and a zero of its type
            return base if node.attr == "real" else self.literal(0, base.type, weak=base.weak)
        if not isinstance(base.type, kt.ArrayType):
            self.fail(node, f"attribute `{node.attr}` of a {display(base.type)} is not supported")
        if node.attr in ("real", "imag"):
            if not base.type.dtype.is_complex:
                if base.type.dtype.is_bool:
                    self.fail(node, f"`.{node.attr}` of a bool array is not supported")
                # numpy: the array itself (a view), and zeros of its dtype
                return base if node.attr == "real" else \
                    self.array_result(base.type.dtype, [base], node)
            # numpy's is a view; Kiln reads it as a new float array (stores
            # through it are refused where they are written)
            return self.array_result(base.type.dtype.part, [base], node)
        if node.attr == "ndim":
            return self.literal(base.type.ndim, kt.i64)
        if node.attr == "size":
            return TypedValue(kt.i64)
        if node.attr == "shape":        # `m, n = a.shape`, `np.zeros(a.shape)`
            return self.tuple_value([TypedValue(kt.i64) for _ in range(base.type.ndim)])
        if node.attr == "T":
            return TypedValue(base.type, origins=base.origins)
        self.fail(node, f"attribute `{node.attr}` of an array is not supported yet")

    def expand_ellipsis(self, node) -> None:
        """`a[..., 0]` of an array variable: the `...` becomes as many full
        slices as the axes it stands for, in the tree itself, so every later
        stage (views, stores, code generation) sees `a[:, :, 0]`."""
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        dots = [p for p in parts if isinstance(p, ast.Constant) and p.value is Ellipsis]
        if not dots:
            return
        if len(dots) > 1:
            self.fail(node, "an index can only have a single ellipsis ('...')")
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        if base is None or is_unknown(base.type):
            self.fail(node, "`...` in an index is supported on array variables and parameters")
        if not isinstance(base.type, kt.ArrayType):
            self.fail(node, f"`{node.value.id}` is not an array")
        consumed = sum(1 for p in parts if p is not dots[0] and not self.context.is_new_axis(p))
        spread = base.type.ndim - consumed
        if spread < 0:
            self.fail(node, f"too many indices for a {base.type.ndim}-D array")
        expanded = []
        for part in parts:
            if part is dots[0]:
                expanded += [ast.copy_location(ast.Slice(), part) for _ in range(spread)]
            else:
                expanded.append(part)
        if len(expanded) == 1:
            node.slice = expanded[0]
        else:
            node.slice = ast.copy_location(ast.Tuple(elts=expanded, ctx=ast.Load()), node.slice)

    def expr_Subscript(self, node):
        self.expand_ellipsis(node)
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.expression(value.value)
            self.absorb(array)
            if not isinstance(array.type, kt.ArrayType):
                self.fail(node, "`.shape` needs an array")
            index = rules.constant_int(node.slice)
            if index is None:
                self.fail(node, f"`{ast.unparse(node)}`: the axis in `.shape[...]` must be an "
                                "int written in the source, such as `.shape[0]`")
            axis = index + array.type.ndim if index < 0 else index
            if not 0 <= axis < array.type.ndim:
                self.fail(node, f"axis {index} is out of range for a "
                                f"{array.type.ndim}-D array")
            return TypedValue(kt.i64)
        callee = self.context.qualified_name(node.value.func) \
            if isinstance(node.value, ast.Call) else None
        if rules.is_positions_call(node.value, callee) or rules.is_tuple_call(node.value, callee):
            return self.tuple_element(node)         # np.where(mask)[0], cmath.polar(z)[1]
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.is_array_index(node.slice):
            return self.indexed_by_array(node)
        if self.is_view_subscript(node):
            return self.slice_view(node, parts)
        array = self.subscript_parts(node)
        return TypedValue(array.type.dtype)

    def tuple_element(self, node):
        """`np.nonzero(m)[k]`: one element of a tuple, k written in the
        source."""
        self.array_consumers.add(node.value)
        value = self.expression(node.value)
        self.absorb(value)
        k = rules.constant_int(node.slice)
        if k is None or not -len(value.elements) <= k < len(value.elements):
            self.fail(node, f"a tuple of {len(value.elements)} elements is indexed by an int "
                            "written in the source, from 0 to "
                            f"{len(value.elements) - 1}")
        return value.elements[k]

    # ------------------------------------------------- array expressions
    def is_view_subscript(self, node: ast.Subscript) -> bool:
        """x[a:b], x[i, :] and A[i] of a 2-D A are views, not elements."""
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(part, ast.Slice) or self.context.is_new_axis(part) for part in parts):
            return True
        parts = [p for p in parts if not self.context.is_new_axis(p)]
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        return base is not None and isinstance(base.type, kt.ArrayType) and \
            len(parts) < base.type.ndim

    def is_array_target(self, target) -> bool:
        """`x += ...` on an array variable, `x[1:] += ...`: in place."""
        if isinstance(target, ast.Subscript):
            return self.is_view_subscript(target)
        known = self.symbols.get(target.id) if isinstance(target, ast.Name) else None
        return known is not None and isinstance(known.type, kt.ArrayType)

    @staticmethod
    def element_operand(value: TypedValue):
        """(type, weak kind) of an operand: an array's is its dtype's."""
        if isinstance(value.type, kt.ArrayType):
            return value.type.dtype, None
        return value.type, value.weak

    def array_result(self, dtype, operands, node) -> TypedValue:
        arrays = [v for v in operands if isinstance(v.type, kt.ArrayType)]
        if len(arrays) > 1:
            self.raises = True      # shapes that do not broadcast: ValueError
        ndim = max(a.type.ndim for a in arrays)
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def array_binary(self, symbol, left, right, node) -> TypedValue:
        """`a + b` with an array operand: numpy's elementwise operator, with
        broadcasting; Python numbers adapt to the array's dtype (NEP 50)."""
        if symbol not in rules.ARRAY_BINOPS:
            self.fail(node, f"operator `{symbol}` on arrays is not supported yet")
        common, _ = rules.operand_types(*self.element_operand(left),
                                        *self.element_operand(right))
        dtype, message = rules.array_arithmetic_type(symbol, common)
        if message:
            self.fail(node, message)
        if dtype.is_complex and symbol == "**" and (
                isinstance(right.type, kt.ArrayType) or complex_power_exponent(right) is None):
            self.fail(node, "`**` of complex arrays is supported with a constant integer "
                            "exponent from -100 to 100 (`z ** 2`)")
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                self.convert(value, common, node)
        if symbol == "**" and dtype.is_int:
            if right.constant is not None and right.constant < 0:
                self.fail(node, "`**` of an int array with a negative exponent: numpy raises "
                                "(Integers to negative integer powers are not allowed); use "
                                "a float array")
            self.raises = True      # a negative exponent at run time
        return self.array_result(dtype, [left, right], node)

    def array_compare(self, left, right, node, ops=None) -> TypedValue:
        """`x < 0`, `a == b` with an array operand: a bool array."""
        self.absorb(left, right)
        for value in (left, right):
            if not isinstance(value.type, (kt.ScalarType, kt.ArrayType)):
                self.fail(node, "comparing an array needs numbers or arrays")
        common = rules.comparison_type(
            (*self.element_operand(left), known_literals(left)),
            (*self.element_operand(right), known_literals(right)))
        if common is not None and common.is_complex and not all(
                isinstance(op, (ast.Eq, ast.NotEq)) for op in ops or getattr(node, "ops", ())):
            self.fail(node, "complex arrays compare only with == and != here (numpy orders "
                            "complex numbers lexicographically; Kiln does not yet)")
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                self.convert(value, common, node)
        return self.array_result(kt.boolean, [left, right], node)

    def array_unary(self, op, operand, node) -> TypedValue:
        dtype = operand.type.dtype
        if isinstance(op, ast.Not):
            self.fail(node, "the truth value of an array is ambiguous; use np.logical_not(x) "
                            "or compare elements")
        if isinstance(op, ast.Invert) and (dtype.is_float or dtype.is_complex):
            self.fail(node, "operator `~` needs an int or bool array")
        if isinstance(op, (ast.USub, ast.UAdd)) and dtype.is_bool:
            self.fail(node, "numpy does not negate bool arrays; use `~x`")
        return TypedValue(operand.type, fresh=True)

    def array_ufunc(self, name, args, node) -> TypedValue:
        """np.f applied to arrays: elementwise, broadcasting."""
        label = f"np.{name}"
        if name not in rules.ARRAY_UFUNCS:
            self.fail(node, f"{label} of arrays is not supported yet")
        self.arity(args, rules.ufunc_arity(name), node, label)
        for arg in args:
            self.absorb(arg)
            if not isinstance(arg.type, (kt.ScalarType, kt.ArrayType)):
                self.fail(node, f"{label} needs numbers or arrays")
        common = self.ufunc_common_type(name, args)
        dtype, message = rules.array_ufunc_type(name, common,
                                                [self.element_operand(a) for a in args])
        if message:
            self.fail(node, message)
        for arg, target in zip(args, rules.ufunc_operand_types(name, dtype, len(args))):
            if not isinstance(arg.type, kt.ArrayType):
                if target.is_bool:
                    self.truthy(arg, node)
                else:
                    self.convert(arg, target, node)
        return self.array_result(dtype, args, node)

    def ufunc_common_type(self, name, args):
        """numpy's promotion of a ufunc's operands (NEP 50 for literals)."""
        common, weak = None, None
        for position in rules.ufunc_common_operands(name, len(args)):
            element, element_weak = self.element_operand(args[position])
            if common is None:
                common, weak = element, element_weak
            else:
                common, weak = rules.operand_types(common, weak, element, element_weak)
        return rules.default_for_kind(weak) if weak else common

    def method_call(self, func: ast.Attribute, node) -> TypedValue:
        """`x.sum()`, `(a * b).max()`: an array's reduction methods."""
        self.array_consumers.add(func.value)
        base = self.expression(func.value)
        self.absorb(base)
        if func.attr == "conjugate" and _scalar(base.type) and base.type.is_complex:
            if node.args or node.keywords:
                self.fail(node, "`.conjugate()` takes no argument")
            return TypedValue(base.type, weak=base.weak)
        if not isinstance(base.type, kt.ArrayType) or func.attr == "conjugate":
            self.fail(node, f"`.{func.attr}()` of a {display(base.type)} is not supported")
        if func.attr in ("copy", "astype", "fill"):
            return self.array_method(func.attr, base, node)
        return self.reduction(func.attr, [base], node, node.args, node.keywords)

    def array_method(self, name, base, node) -> TypedValue:
        """`x.copy()`, `x.astype(np.float32)`: new arrays; `x.fill(v)`."""
        if node.keywords or len(node.args) != (0 if name == "copy" else 1):
            self.fail(node, f"`.{name}()` takes {'no argument' if name == 'copy' else 'one argument'}"
                            " here")
        if name == "copy":
            return TypedValue(base.type, fresh=True)
        if name == "fill":
            self.array_store(base, self.expression(node.args[0]), node)
            return TypedValue(None)
        dtype = self.dtype_of(node.args[0])
        if base.type.dtype.is_complex or dtype.is_complex:
            self.fail(node, "`.astype()` to or from complex is not supported yet")
        if base.type.dtype.is_float and not dtype.is_float:
            self.fail(node, "`.astype()` from float to int or bool is not supported yet (numpy "
                            "truncates, and NaN gives an arbitrary int)")
        return TypedValue(rules.array_type(dtype, base.type.ndim), fresh=True)

    def reduction(self, name, args, node, options=(), keywords=()) -> TypedValue:
        """np.sum(a), a.max(axis=1, keepdims=True), ...: over every element
        a numpy scalar; along one axis a new array (an array expression)."""
        label = f"np.{name}"
        self.arity(args, 1, node, label)
        array = args[0]
        self.absorb(array)
        if not isinstance(array.type, kt.ArrayType):
            self.fail(node, f"{label} of a number is not supported; it needs an array")
        keywords = {k.arg: k.value for k in keywords}
        if array.type.dtype.is_complex and name != "sum":
            self.fail(node, f"{label} of a complex array is not supported yet (np.sum is)")
        if name in rules.NUMPY_SCANS:
            axis, _ = rules.reduction_options(array.type.ndim, options, keywords, "scan")
            if isinstance(axis, str):
                self.fail(node, f"{label}: {axis}")
            if axis is None and array.type.ndim > 1:
                self.fail(node, f"{label} of a {array.type.ndim}-D array without axis= (a "
                                "flattened result) is not supported yet")
            dtype = rules.reduction_type(name[3:], array.type.dtype)
            return TypedValue(rules.array_type(dtype, array.type.ndim), fresh=True)
        axis, keepdims = rules.reduction_options(array.type.ndim, options, keywords, name)
        if isinstance(axis, str):
            self.fail(node, f"{label}: {axis}")
        if isinstance(rules.reduction_ddof(keywords), str):
            self.fail(node, f"{label}: {rules.reduction_ddof(keywords)}")
        if name in ("max", "min", "amax", "amin"):
            self.raises = True      # an empty array (or axis) has no maximum
        dtype = rules.reduction_type(name, array.type.dtype)
        if axis is None and not keepdims:
            return TypedValue(dtype)
        ndim = array.type.ndim if keepdims else array.type.ndim - 1
        if ndim == 0:
            return TypedValue(dtype)        # a 1-D array along its axis: a scalar
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def dot(self, args, node) -> TypedValue:
        """np.dot and `@` of 1-D and 2-D arrays: sums of products in their
        common dtype (a number for two 1-D arrays)."""
        self.arity(args, 2, node, "np.dot")
        self.absorb(*args)
        if not all(isinstance(a.type, kt.ArrayType) and a.type.ndim <= 2 for a in args):
            self.fail(node, "np.dot and `@` of arrays of more than 2 dimensions (or of numbers) "
                            "are not supported yet")
        self.raises = True      # shapes not aligned
        dtype = rules.promote(args[0].type.dtype, args[1].type.dtype)
        ndim = args[0].type.ndim + args[1].type.ndim - 2
        if ndim == 0:
            return TypedValue(dtype)
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def new_array(self, value: TypedValue, node, name=None) -> TypedValue:
        """An array expression stored in a variable or returned: a new
        array, allocated like np.empty (freed by kilnc where it dies)."""
        self.raises = True      # MemoryError
        self.allocation_count += 1
        identity = f"alloc:{self.allocation_count}"
        return TypedValue(value.type, origins=frozenset([identity]))

    def array_store(self, target: TypedValue, value: TypedValue, node) -> None:
        """`x[a:b] = value`, `A[i] = row`: numpy's assignment to a view
        (the value broadcast to the view's shape, read whole first)."""
        self.absorb(target, value)
        dtype = target.type.dtype
        if isinstance(value.type, kt.ArrayType):
            if value.type.ndim > target.type.ndim:
                self.fail(node, f"cannot store a {value.type.ndim}-D array into a "
                                f"{target.type.ndim}-D view")
            if value.type.dtype.is_float and dtype.is_int:
                self.fail(node, "storing a float array into an int array is not supported "
                                "yet (numpy truncates, and NaN gives an arbitrary int)")
            self.raises = True      # shapes that do not broadcast
            self.written |= set(target.origins)
            return
        self.expect_scalar(value, node, "an assignment to a view")
        self.store_element(target, value, node)     # a number, as into one element

    def augmented_array_store(self, stmt) -> None:
        """`x += y` for an array `x` (or a view `x[a:b] += y`): in place,
        with numpy's same_kind rule for the result's cast."""
        target = self.expression(stmt.target)
        operand = self.expression(stmt.value)
        self.absorb(target, operand)
        result = self.binary(stmt.op, target, operand, stmt)
        self.values[stmt] = result
        self.array_consumers.add(stmt)
        source, destination = result.type.dtype, target.type.dtype
        if not rules.same_kind_cast(source, destination):
            symbol = SUPPORTED_BINOPS.get(type(stmt.op))
            self.fail(stmt, f"cannot cast the result of `{symbol}=` from "
                            f"{source.numpy_name} to {destination.numpy_name} (numpy's "
                            "same_kind rule for in-place operators)")
        if result.type.ndim > target.type.ndim:
            self.fail(stmt, f"cannot store a {result.type.ndim}-D result into a "
                            f"{target.type.ndim}-D array")
        self.raises = True      # the result's shape is checked against the target's
        self.written |= set(target.origins)

    def check_array_expression_uses(self) -> None:
        for node, value in self.values.items():
            if value.fresh and node not in self.array_consumers:
                self.report(node, "an array expression can only be stored (`x = ...`, "
                                  "`x[...] = ...`), returned, or combined with other array "
                                  "operations; assign it to a variable first")

    def index_value(self, part, message) -> bool:
        """Types one index or slice bound (an int); False when it is not one."""
        index = self.expression(part)
        if is_unknown(index.type):
            return False
        if not _scalar(index.type) or not index.type.is_int:
            self.report(part, message(index))
            return False
        return self.guarded(self.convert, index, kt.i64, part) is not None

    def slice_view(self, node, parts) -> TypedValue:
        """x[a:b:c], x[i, :]: a strided view of the same dtype."""
        self.array_consumers.add(node.value)
        array = self.expression(node.value)
        if array.fresh:         # `(a - b)[:, 1:]`: computed into a new array first
            array = self.new_array(array, node)
        if not is_unknown(array.type) and not isinstance(array.type, kt.ArrayType):
            self.fail(node, f"`{ast.unparse(node.value)}` is not an array")
        new_axes = sum(self.context.is_new_axis(p) for p in parts)
        parts = [p for p in parts if not self.context.is_new_axis(p)]
        if isinstance(array.type, kt.ArrayType) and len(parts) > array.type.ndim:
            self.fail(node, f"too many indices for a {array.type.ndim}-D array")
        usable = not is_unknown(array.type)
        # Every index and bound runs before numpy checks any.
        for part in parts:
            if not isinstance(part, ast.Slice):
                usable &= self.index_value(part, lambda _: "array index must be an int")
                continue
            for bound in (part.lower, part.upper, part.step):
                if bound is not None:
                    usable &= self.index_value(bound, lambda _: "slice bounds must be ints")
        if not usable:
            raise _Abandon()
        for part in parts:
            if not isinstance(part, ast.Slice):
                if self.boundscheck:
                    self.raises = True      # IndexError
                continue
            step_value = 1 if part.step is None else self.convert(
                self.values[part.step], kt.i64, part).constant
            if step_value == 0:
                self.fail(part, "slice step cannot be zero")
            if step_value is None:
                self.raises = True      # a zero step raises at run time
        kept = sum(isinstance(p, ast.Slice) for p in parts) + array.type.ndim - len(parts)
        if kept == 0 and not new_axes:
            self.fail(node, "indexing every axis gives an element, not a view")
        kept += new_axes
        if kept > rules.MAX_ARRAY_NDIM:
            self.fail(node, f"arrays have 1 to {rules.MAX_ARRAY_NDIM} dimensions")
        return TypedValue(rules.array_type(array.type.dtype, kept), origins=array.origins)

    def subscript_parts(self, node: ast.Subscript) -> TypedValue:
        """The array of `x[i, j]` (an element access or store), its indices typed."""
        array = self.expression(node.value)
        if not is_unknown(array.type) and not isinstance(array.type, kt.ArrayType):
            self.fail(node, f"`{ast.unparse(node.value)}` is a {display(array.type)}, not an "
                            "array")
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(part, ast.Slice) for part in parts):
            self.fail(node, "assigning to a slice is not supported yet; write a loop")
        if isinstance(array.type, kt.ArrayType) and len(parts) > array.type.ndim:
            self.fail(node, f"too many indices for a {array.type.ndim}-D array: "
                            f"`{ast.unparse(node)}` has {len(parts)}")
        if isinstance(array.type, kt.ArrayType) and len(parts) != array.type.ndim:
            self.fail(node, f"`{ast.unparse(node)}` indexes a {array.type.ndim}-D array with "
                            f"{len(parts)} indices; partial indexing is not supported yet")
        usable = not is_unknown(array.type)
        for part in parts:
            usable &= self.index_value(part, lambda index, part=part: (
                f"array index `{ast.unparse(part)}` must be an int, not "
                f"{display(index.type)}"))
        if not usable:
            raise _Abandon()
        if self.boundscheck:
            self.raises = True      # IndexError
        return array

    def store_element(self, array: TypedValue, value: TypedValue, node) -> None:
        self.absorb(value)
        dtype = array.type.dtype
        if isinstance(value.type, kt.ArrayType):
            self.fail(node, "cannot store an array into an array element")
        # numpy stores a float into an int array as int(value): NaN and
        # infinity raise.
        if _scalar(value.type) and value.type.is_float and dtype.is_int:
            self.raises = True
        else:
            self.convert(value, dtype, node, explicit=True)
        self.written |= set(array.origins)


# ------------------------------------------------------------- the module
class ModuleTyping:
    """Types the functions of one module on demand: the requested ones and
    the helpers they call (a helper is typed once, at its first call)."""

    def __init__(self, context):
        self.context = context
        self.functions = context.module_functions()
        self.constants = context.module_constants()
        self.results: dict = {}          # name -> TypedFunction
        self.in_progress: list = []
        self.hit_recursion_limit = False

    def signature(self, name, node=None, hints=None) -> TypedFunction:
        """The typed function `name`, for a call; KilnCompileError when it
        does not type (or when the call is recursive). `hints` type its
        parameters without annotations, at its first call."""
        if name in self.in_progress:
            raise KilnCompileError(self.context.diagnostic(
                node or self.functions[name], f"recursion (`{name}` calls itself, directly or "
                "through other functions) is not supported yet", name))
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
            typed = FunctionTyping(self, func, options or {}, options is not None, hints).run()
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
        self.results[name] = typed
        return typed


def infer_module(context, functions=None) -> ModuleTypes:
    """Types the given functions (default: the exported ones) and their callees."""
    functions = context.exported_functions() if functions is None else functions
    typing = ModuleTyping(context)
    failures = {}
    for func in functions:
        typed = typing.infer(func.name)
        if not typed.ok:
            failures[func.name] = typed.error()
        elif typed.exported and typed.options.get("elementwise") and not (
                all(_real_number(p.type) for p in typed.params)
                and _real_number(typed.return_type)):
            complex_ = any(_scalar(t) and t.is_complex
                           for t in [p.type for p in typed.params] + [typed.return_type])
            failures[func.name] = KilnCompileError(context.diagnostic(
                func, "@kiln.vectorize needs number parameters (int, float, kiln.f32, ...) and "
                      "a number result" + (" (complex arrays are not supported yet)"
                                           if complex_ else ""), func.name))
    return ModuleTypes(functions=dict(typing.results), failures=failures,
                       constants=typing.constants,
                       hit_recursion_limit=typing.hit_recursion_limit)


def describe(typed: TypedFunction) -> list:
    """Lines showing a typed function's signature and variable types."""
    params = ", ".join(f"{p.name}: {display(p.type)}" for p in typed.params)
    lines = [f"{typed.name}({params}) -> {display(typed.return_type)}"
             f"{' raises' if typed.raises else ''}"]
    for name, variable in typed.variables.items():
        lines.append(f"  {name}: {display(variable.type)}")
    return lines


def main(argv=None) -> int:
    """`python3 -m kiln.compiler.type_inference mod.py [--types]`."""
    from ..frontend.source import load_module

    argv = sys.argv[1:] if argv is None else argv
    show_types = "--types" in argv
    paths = [a for a in argv if a != "--types"]
    if len(paths) != 1:
        print("usage: python3 -m kiln.compiler.type_inference mod.py [--types]", file=sys.stderr)
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
