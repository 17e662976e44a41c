"""What type inference produces -- a `TypedFunction` per function, the
`ModuleTypes` of a module -- and the facts of the syntax tree that both
inference and MLIR generation read (which names a block assigns, whether it
returns, how a loop exits)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from .. import typesystem as kt
from ..errors import KilnCompileError
from .typed_values import TypedValue


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
    # kiln.prange loops: their reductions (parallel_loops.ParallelLoop).
    parallel_loops: dict = field(default_factory=dict)  # ast.For -> ParallelLoop
    # parallel=True: the outermost loops left sequential, and why.
    sequential_loops: dict = field(default_factory=dict)  # ast.For -> reason
    # `a or b or c` is evaluated as `a or (b or c)`: the result of the last
    # n operands of a BoolOp node, for every tail code generation builds.
    bool_op_tails: dict = field(default_factory=dict)  # (ast.BoolOp, n) -> TypedValue
    # Everything an array variable may view over the whole function (a
    # loop-carried or merged array keeps every alias: frees depend on it).
    variable_origins: dict = field(default_factory=dict)  # name -> frozenset
    inlined: dict = field(default_factory=dict)   # lambda call -> (parameter names, body)
    # The module lists and dicts it reads: code generation builds a copy of
    # each when the function is called (mlir/constant_lowering.py).
    constant_containers: frozenset = frozenset()
    callees: dict = field(default_factory=dict)       # name -> TypedFunction
    # A call of a helper's specialization: call node -> its function name.
    call_targets: dict = field(default_factory=dict)
    diagnostics: list = field(default_factory=list)
    # The functions of its recursion cycle (itself included) when it calls
    # itself, directly or through them; empty otherwise (typecheck/recursion.py).
    recursion_cycle: frozenset = frozenset()

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
    # The helpers typed at several argument signatures: name -> the
    # functions typing them, the helper itself first (specialization.py).
    specializations: dict = field(default_factory=dict)


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


def is_real_number(type_) -> bool:
    """An int or float type (an element type of @kiln.vectorize's arrays)."""
    return is_scalar_type(type_) and not type_.is_bool and not type_.is_complex


def is_scalar_type(type_) -> bool:
    return isinstance(type_, kt.ScalarType)


@dataclass(frozen=True)
class RangeType:
    """`range(start, stop, step)` kept as a value (`r = range(n)`): three
    int64s that code generation holds as a tuple's elements, never one MLIR
    value. A range lives where it is made and in the names bound to it:
    typing refuses passing one to a function, returning it, carrying it
    through a branch or a loop that rebinds it, and putting it in a tuple or
    a container (typecheck/range_typing.py)."""

    @property
    def name(self) -> str:
        return "range"

    @property
    def display(self) -> str:
        return "range"

    def __repr__(self) -> str:
        return "range"


RANGE = RangeType()


def is_range(type_) -> bool:
    return isinstance(type_, RangeType)


@dataclass(frozen=True)
class DictViewType:
    """`d.keys()`, `d.values()`, `d.items()` (`kind`): a view of the dict
    `dict`, held as the dict itself (`!kiln.dict<K, V>`). Views are only
    iterated or handed to list(), sorted(), sum(), min(), max(), len() and
    `in` (typing refuses binding one to a name)."""
    dict: kt.DictType
    kind: str

    @property
    def mlir(self) -> str:
        return self.dict.mlir

    @property
    def name(self) -> str:
        return f"dict_{self.kind}[{self.dict.key.display}, {self.dict.value.display}]"

    @property
    def display(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name


def is_dict(type_) -> bool:
    return isinstance(type_, kt.DictType)


def is_dict_view(type_) -> bool:
    return isinstance(type_, DictViewType)


def is_set(type_) -> bool:
    return isinstance(type_, kt.SetType)


def is_table(type_) -> bool:
    """A dict, a view of one or a set: a hash table in insertion order,
    walked by its slots (the `used`, `live_at`, `key_at` ops dicts and
    sets share)."""
    return isinstance(type_, (kt.DictType, DictViewType, kt.SetType))


def is_container(type_) -> bool:
    """A list, a dict, a view of a dict or a set: a reference counted
    object (the ownership protocol of mlir/ownership.py applies to it)."""
    return isinstance(type_, (kt.ListType, kt.DictType, DictViewType, kt.SetType))


def is_str(type_) -> bool:
    return isinstance(type_, kt.StrType)


def is_counted(type_) -> bool:
    """A container, a str or an instance of a compiled class: a reference
    counted object, owned and released by the protocol of
    mlir/ownership.py (a str is immutable, so nothing is ever written back
    or marked modified; an instance is CPython's object, its count
    CPython's)."""
    return is_container(type_) or is_str(type_) or isinstance(type_, kt.ClassType)


def container_noun(type_) -> str:
    """How messages name a container's kind: "list", "dict", "set"."""
    return "list" if isinstance(type_, kt.ListType) else "set" if is_set(type_) else "dict"


def dict_of(type_):
    """The table a dict, a view of one or a set is (a set is its own)."""
    return type_.dict if isinstance(type_, DictViewType) else type_


def iteration_kind(type_) -> str:
    """What iterating over a dict, view or set visits: keys, values or
    items (a set's elements are its keys)."""
    return type_.kind if isinstance(type_, DictViewType) else "keys"
