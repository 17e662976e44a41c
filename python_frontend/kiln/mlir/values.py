"""The values the MLIR generator works with: a built IR value with its Kiln
type and what is known of it at compile time, and the MLIR type of each Kiln
type. Below the generator and its mixins (array expressions, shapes, complex
numbers), which all build and read them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import typesystem as kt
from . import ir_builder as ir
from ..typecheck.typed_tree import is_dict_view


@dataclass
class Value:
    ir: object                 # the ir_builder.Value (None for tuples and None)
    type: object               # ScalarType or ArrayType
    weak: str | None = None    # "int"/"float"/"bool" for untyped Python literals
    constant: object = None    # Python value when known at compile time
    nonneg: bool = False       # provably >= 0 (loop counters, sizes)
    origins: frozenset = frozenset()  # for arrays: the parameters it may view
    elements: list = None      # for tuples: the element values
    candidates: tuple = None   # the literals a Python int may be (type_inference)
    lazy: object = None        # an array expression not computed yet (ArrayExpr)
    # A list, dict or set its holder must release or hand on
    # (ownership.py); a variable's container, read, is borrowed.
    owned: bool = False


def tuple_value(elements) -> Value:
    return Value(None, kt.TupleType(tuple(e.type for e in elements)), elements=list(elements))


def flatten(value) -> list:
    if value is None:
        return []
    return list(value.elements) if isinstance(value.type, kt.TupleType) else [value]


_MLIR_TYPES: dict = {}


def mlir_type(type_) -> ir.Type:
    """The MLIR type of a Kiln type ("index" for index values)."""
    found = _MLIR_TYPES.get(type_)
    if found is None:
        if type_ == "index":
            found = ir.index
        elif isinstance(type_, kt.DTypeValue):
            found = ir.i8           # a code nothing reads: the type is the value
        elif isinstance(type_, (kt.ListType, kt.DictType, kt.SetType, kt.StrType,
                                kt.ClassType)) or is_dict_view(type_):
            # !kiln.list<i64>, !kiln.dict<i64, f64>, !kiln.set<i64>, !kiln.str:
            # references (a view is its dict)
            found = ir.Type(type_.mlir)
        elif isinstance(type_, kt.ArrayType):
            found = ir.memref_type([None] * type_.ndim, mlir_type(type_.dtype), strided=True)
        elif type_.is_bool:
            found = ir.i1
        elif type_.is_complex:
            found = ir.complex_type(ir.float_type(type_.bits // 2))
        elif type_.is_int:
            found = ir.integer_type(type_.bits)
        else:
            found = ir.float_type(type_.bits)
        _MLIR_TYPES[type_] = found
    return found


COMPLEX64_ABI = ir.Type("vector<2xf32>")


def abi_type(type_) -> ir.Type:
    """How a scalar crosses a function boundary (calls, the C ABI)."""
    # i1 has no defined C ABI; booleans cross the boundary as one byte.
    if isinstance(type_, kt.ScalarType) and type_.is_bool:
        return ir.i8
    # x86-64 passes and returns a `float _Complex` packed in one SSE
    # register, as LLVM passes a <2 x float>; an MLIR complex<f32> would
    # become a struct of two floats, passed in two registers.
    if type_ == kt.c64:
        return COMPLEX64_ABI
    return mlir_type(type_)


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
    # A method `Class.method` (frontend/classes.py): `<mod>_Class__method`.
    return f"{module}_{name.replace('.', '__')}"


def recursive_body_symbol(context, name: str) -> str:
    """The MLIR symbol of the body of a function in a recursion cycle,
    `<mod>_<name>.recursive`: private, with the hidden recursion depth
    argument (docs/architecture.md, "Recursion"). An exported one keeps its
    C ABI in `<mod>_<name>`, which calls the body with depth 0. A Python name
    cannot contain the `.`, so no other function takes this symbol."""
    return symbol_name(context, name) + ".recursive"
