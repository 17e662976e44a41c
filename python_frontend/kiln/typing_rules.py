"""Kiln's typing rules, in one place: numpy's promotion, NEP 50 weak
literals, joins at merges, and the result types of operators, builtins,
`math.*`/`np.*` functions, casts and allocations.

Every rule here is a pure function of types (and, for Python literals, of
the literal's kind and value). The type-inference stage
(`type_inference.py`) applies them to a function's syntax tree; code
generation reads the types that stage computed; where it emits a
conversion between operands it asks the same rules (`comparison_type`,
`fold_conversion`, `literal_fits`) rather than keeping copies.

The vocabulary of types is `kiln.typesystem`'s (`ScalarType`, `ArrayType`,
`TupleType`), the Python value `None` as the type of a call that returns
nothing, and `UNKNOWN`, the type of an expression whose typing failed:
the inference stage gives up quietly on any operand of type `UNKNOWN`, so
one mistake is reported once.

Every dtype is a row of the dtype table (`kiln.typesystem`): ints of each
width and signedness, float32/float64, bool, complex64/complex128 (a
complex's parts are `ScalarType.part`). `promote` is numpy's
`np.result_type` of two dtypes, `weak_promote` NEP 50's rule for a Python
number beside a typed operand; an array's element type follows the same
rules (`array_arithmetic_type`, `array_ufunc_type`), its ndim the broadcast.
"""

from __future__ import annotations

import ast
import math
import struct

from . import typesystem as kt
from . import library_functions as lib
from .errors import with_article
from .library_functions import (CMATH_FUNCTIONS, MATH_FUNCTIONS, NUMPY_FUNCTIONS,
                                numpy_cast_type, of_family)

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class UnknownType:
    """The type of an expression that failed to type: absorbs every rule
    without a new error (no cascades)."""
    name = display = "<error>"
    mlir = "none"

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = UnknownType()


def is_unknown(type_) -> bool:
    return type_ is UNKNOWN


def display(type_) -> str:
    """How a message names a type (None for calls that return nothing)."""
    return getattr(type_, "display", type_)


# ------------------------------------------------------------- promotion
def promote(a: kt.ScalarType, b: kt.ScalarType) -> kt.ScalarType:
    """The type of a binary arithmetic result on two *typed* operands:
    numpy's `np.result_type(a, b)` (the same in numpy 1.x and 2 for two
    dtypes; tests/test_dtypes.py checks every pair of the table against it).

    bool widens to the other operand; two floats or two ints of one
    signedness take the wider; a signed and an unsigned int take the
    smallest signed int holding both (int64 cannot hold uint64: float64);
    an int with a float takes the smallest float holding the int exactly
    enough for numpy (float32 for ints of 16 bits or fewer, else float64).
    """
    if a == b:
        return a
    if a.is_complex or b.is_complex:
        # complex64 with float32, or with what float32 holds (bool, 8- and
        # 16-bit ints); complex128 otherwise
        parts = promote(a.part if a.is_complex else a, b.part if b.is_complex else b)
        return kt.ScalarType.complex_of(parts)
    if a.is_bool:
        return b
    if b.is_bool:
        return a
    if a.is_float and b.is_float:
        return a if a.bits >= b.bits else b
    if a.is_float or b.is_float:
        number, other = (a, b) if a.is_float else (b, a)
        return kt.f32 if number == kt.f32 and other.bits <= 16 else kt.f64
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    signed, unsigned = (a, b) if a.signed else (b, a)
    if signed.bits > unsigned.bits:
        return signed
    return signed_int(2 * unsigned.bits) if unsigned.bits < 64 else kt.f64


def signed_int(bits: int) -> kt.ScalarType:
    return next(t for t in kt.DTYPES if t.is_int and t.signed and t.bits == bits)


def weak_promote(typed: kt.ScalarType, literal_kind: str) -> kt.ScalarType:
    """Result type of a typed operand with a Python literal (NEP 50: the
    literal adapts to the typed operand unless it is a float meeting an int,
    or an int meeting a bool; whether an int literal fits the dtype is
    `literal_fits`'s business, an OverflowError when it does not)."""
    if typed.is_complex:
        return typed
    if literal_kind == "complex":
        # float32 with a Python complex is complex64; ints and bools take
        # Python's complex
        return kt.c64 if typed == kt.f32 else kt.c128
    if literal_kind == "float" and not typed.is_float:
        return kt.f64
    if literal_kind == "int" and typed.is_bool:
        return kt.i64
    return typed


def default_for_kind(kind: str) -> kt.ScalarType:
    """The type a Python literal of this kind has on its own."""
    return {"int": kt.i64, "float": kt.f64, "bool": kt.boolean, "complex": kt.c128}[kind]


def literal_fits(value, scalar) -> bool:
    """Whether a Python int constant fits an integer type. `value` may be a
    tuple: the literals a Python int may be (`2**53 if c else 2**62`)."""
    if isinstance(value, tuple):
        return all(literal_fits(v, scalar) for v in value)
    if not scalar.is_int or value is None or isinstance(value, (bool, float)):
        return True
    return scalar.min_value <= value <= scalar.max_value


def python_int_min_max(name: str, a, b):
    """min/max of two Python ints keeps what is known of the value, so that
    comparing the result with an int32 stays exact (fuzzer seed 248684109:
    `0 <= max(7, 2**32, v32)`). `a`, `b`: (weak kind, constant, candidates).
    ("constant", value), ("candidates", literals) or None."""
    if a[0] != "int" or b[0] != "int":
        return None
    known = []
    for _, constant, candidates in (a, b):
        if isinstance(constant, int) and not isinstance(constant, bool):
            known.append((constant,))
        elif candidates:
            known.append(tuple(candidates))
        else:
            return None
    if len(known[0]) == 1 and len(known[1]) == 1:
        return "constant", {"min": min, "max": max}[name](known[0][0], known[1][0])
    return "candidates", known[0] + known[1]


def literal_kind(value) -> str:
    """"bool", "int", "float" or "complex": the NEP 50 kind of a Python number."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, complex):
        return "complex"
    return "int" if isinstance(value, int) else "float"


def round_complex(value, target: kt.ScalarType) -> complex:
    """A Python number as complex `target` holds it (complex64: each part
    rounded to float32)."""
    value = complex(value)
    if target == kt.c64:
        return complex(round_to_f32(value.real), round_to_f32(value.imag))
    return value


def round_to_f32(value) -> float:
    """The float32 nearest to a Python number (ties to even, overflow to
    infinity), as a Python float: what np.float32(value) holds (an int goes
    through a double first, as in numpy)."""
    value = float(value)
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:    # finite, but rounds beyond the float32 range
        return math.copysign(math.inf, value)


# -------------------------------------------------------------- operands
def operand_types(a_type, a_weak, b_type, b_weak):
    """(common type, weak kind of the result) of two scalar operands, or
    None when one is an array. Two literals stay a literal of the wider
    kind; one literal adapts to the typed operand (NEP 50)."""
    if isinstance(a_type, kt.ArrayType) or isinstance(b_type, kt.ArrayType):
        return None
    if a_weak and b_weak:
        kind = "complex" if "complex" in (a_weak, b_weak) else \
            "float" if "float" in (a_weak, b_weak) else (
            "int" if "int" in (a_weak, b_weak) else "bool")
        return default_for_kind(kind), kind
    if a_weak:
        return weak_promote(b_type, a_weak), None
    if b_weak:
        return weak_promote(a_type, b_weak), None
    return promote(a_type, b_type), None


def widen_for_literals(common, literals):
    """int64 instead of a narrower int type when a Python int literal among
    the operands does not fit it: comparisons and min/max are exact in
    numpy (NEP 50) and in Python, so they must not wrap the literal.
    `literals` are (weak kind, constant) pairs of the operands."""
    if isinstance(common, kt.ScalarType) and common.is_int and common.bits < 64 and any(
            weak == "int" and not literal_fits(constant, common) for weak, constant in literals):
        return kt.i64
    if common == kt.u64 and any(weak == "int" and negative_literal(constant)
                                for weak, constant in literals):
        # No integer type holds a uint64 and a negative int; in float64 their
        # order survives rounding (the uint64 is >= 0, the literal <= -1).
        return kt.f64
    return common


def negative_literal(constant) -> bool:
    """Whether a Python int literal (or every literal it may be) is < 0."""
    if isinstance(constant, tuple):
        return bool(constant) and all(negative_literal(v) for v in constant)
    return isinstance(constant, int) and not isinstance(constant, bool) and constant < 0


def static_min_max(name: str, a, b):
    """0 or 1, the operand min()/max() returns whatever the values, when one
    is a uint64 and the other a negative Python int (min is the int, max the
    uint64, exactly as in Python; no type holds both); None otherwise. `a`
    and `b` are (type, weak kind, literals) triples."""
    for unsigned, literal in ((0, 1), (1, 0)):
        u, n = (a, b)[unsigned], (a, b)[literal]
        if u[0] == kt.u64 and not u[1] and n[1] == "int" and negative_literal(n[2]):
            return literal if name == "min" else unsigned
    return None


def comparison_type(a, b):
    """The type two scalar operands are compared in (`a < b`, and min/max,
    which compare): their common type, widened to int64 when a Python int
    literal among them does not fit it. `a` and `b` are (type, weak kind,
    constant) triples; None when one is an array."""
    typed = operand_types(a[0], a[1], b[0], b[1])
    if typed is None:
        return None
    return widen_for_literals(typed[0], [(a[1], a[2]), (b[1], b[2])])


def arithmetic_type(symbol: str, common: kt.ScalarType, weak):
    """(computation type, weak kind of the result, error) of `a <symbol> b`
    once the operands' common type is known."""
    if symbol == "**" and common == kt.i32:
        common = kt.i64     # numpy: int32 ** int32 computes in int64 here
    if common.is_complex:
        if symbol in ("//", "%"):
            return common, weak, f"operator `{symbol}` is not defined for complex numbers " \
                                 "(CPython raises TypeError)"
        if symbol not in ("+", "-", "*", "/", "**"):
            return common, weak, f"operator `{symbol}` needs int or bool operands"
        return common, weak, None
    if symbol == "/":
        common = common if common.is_float else kt.f64
        weak = "float" if weak else None
    if symbol in ("&", "|", "^", "<<", ">>") and common.is_float:
        return common, weak, f"operator `{symbol}` needs int or bool operands"
    if symbol not in ("&", "|", "^") and common.is_bool:
        common = kt.i64
    return common, weak, None


def fold_python_ints(symbol, a, b):
    """`2**40 + 1`: arithmetic on Python int literals is a Python int (NEP 50
    checks it against the other operand's dtype only later), computed
    exactly, then wrapped to 64 bits as Kiln's ints are (so the value stays
    known: comparisons with it are exact); None when it is not folded."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
        return None
    if symbol in ("//", "%") and b == 0 or symbol == "**" and not 0 <= b <= 64:
        return None
    if symbol in ("<<", ">>") and not 0 <= b < 64:
        return None     # computed at run time: ValueError, or 64-bit wrapping
    result = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
              "//": lambda: a // b, "%": lambda: a % b, "**": lambda: a ** b,
              "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
              "<<": lambda: a << b, ">>": lambda: a >> b}.get(symbol)
    if result is None:
        return None
    value = result()
    return (value - INT64_MIN) % (1 << 64) + INT64_MIN


def fold_candidates(symbol, a, b, limit=16):
    """The Python ints `a <symbol> b` may be when each operand is one of a
    few known literals (tuples, or None when unknown); None when any
    combination does not fold or there would be more than `limit`."""
    if not a or not b or len(a) * len(b) > limit:
        return None
    results = []
    for x in a:
        for y in b:
            folded = fold_python_ints(symbol, x, y)
            if folded is None:
                return None
            if folded not in results:
                results.append(folded)
    return tuple(results)


# ------------------------------------------------------------------ joins
def join_variable(current, value_type, value_weak, value_constant):
    """The type of a variable (`current`: (type, weak) or None) after it is
    assigned a value: ((type, weak), None) or (None, error kind). Variables
    are flow-insensitive: one type, the join of everything assigned. A
    variable first bound to a literal is *weak* until a typed value joins
    it (`s = 0` then `s = x[i]` with an int32 array makes `s` an int32)."""
    if current is None:
        if value_weak:
            return (default_for_kind(value_weak), True), None
        return (value_type, False), None
    current_type, current_weak = current
    if isinstance(current_type, (kt.ArrayType, kt.DTypeValue)) or \
            isinstance(value_type, (kt.ArrayType, kt.DTypeValue)):
        if current_type != value_type:      # (two dtypes never join: each is its own type)
            return None, "array"
        return current, None
    if current_weak and value_weak:
        return (promote(current_type, default_for_kind(value_weak)), True), None
    if current_weak:
        return (weak_promote(value_type, current_type.kind), False), None
    if value_weak:
        # A variable that holds a Python int beyond int32 is 64-bit.
        return (widen_for_literals(weak_promote(current_type, value_weak),
                                   [(value_weak, value_constant)]), False), None
    return (promote(current_type, value_type), False), None


def declared_assignment_error(name, declared, value_type):
    """The error of assigning `value_type` to a variable declared
    `declared` (a parameter or `x: T = ...`), or None."""
    if isinstance(declared, kt.ScalarType) and isinstance(value_type, kt.ScalarType) and (
            (value_type.is_complex and not declared.is_complex)
            or (value_type.is_float and not declared.is_float and not declared.is_complex)
            or (declared.is_bool and not value_type.is_bool)):
        return f"variable `{name}` is declared {declared.display} but is assigned a " \
               f"{value_type.display}"
    if isinstance(declared, kt.ArrayType) and value_type != declared:
        return f"variable `{name}` is {declared.display} but is assigned a {display(value_type)}"
    return None


# ------------------------------------------------------------ conversions
def conversion_error(source, target, explicit, constant=None):
    """The error of converting a scalar `source` to `target` where a value
    is used as another type (assignments, arguments, returns), or None.
    `constant` is the value when it is known at compile time."""
    if source == target:
        return None
    if isinstance(source, kt.ArrayType) or isinstance(target, kt.ArrayType):
        return f"cannot use a {display(source)} value as {display(target)}"
    if source.is_complex and not target.is_complex:
        return f"cannot convert complex to {target.display} (take `.real`, `.imag` or `abs()`)"
    if target.is_complex:
        return None
    if constant is not None and not target.is_bool and not target.is_float:
        if isinstance(constant, float) and not explicit:
            return f"cannot implicitly convert float to {target.display}"
        if not isinstance(constant, float) or (
                math.isfinite(constant) and INT64_MIN <= int(constant) <= INT64_MAX):
            return None
    if source.is_float and target.is_int and not explicit:
        return f"cannot implicitly convert {source.display} to {target.display}; use int(...)"
    return None


def fold_conversion(constant, target):
    """The compile-time value of converting constant `constant` to
    `target` (ints wrap like arith.trunci), or None when it is not folded."""
    if target.is_bool:
        return bool(constant)
    if target.is_complex:
        return round_complex(constant, target)
    if target.is_float:
        return float(constant) if target != kt.f32 else round_to_f32(constant)
    if not isinstance(constant, float) or (
            math.isfinite(constant) and INT64_MIN <= int(constant) <= INT64_MAX):
        return wrap(int(constant), target)
    return None


def wrap(value: int, target: kt.ScalarType) -> int:
    """`value` reduced to `target`'s range modulo 2**bits, as numpy's casts
    and Kiln's integer arithmetic do."""
    return (value - target.min_value) % (1 << target.bits) + target.min_value


def conversion_raises(source, target, weak, constant, explicit) -> bool:
    """Whether converting can raise at run time (NEP 50's OverflowError for
    a Python int that does not fit, int() of NaN or infinity)."""
    if source == target or target.is_bool or target.is_float or target.is_complex:
        return False
    if constant is not None:
        if weak == "int" and not literal_fits(constant, target):
            return True
        if fold_conversion(constant, target) is not None:
            return False
    if source.is_bool:
        return False
    if source.is_int and target.is_int:
        return weak == "int" and target.bits < source.bits
    return source.is_float and target.is_int and explicit


# -------------------------------------------------------------- libraries
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf,
                  "nan": math.nan}
NUMPY_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}

# `np.<name>(x)` and `kiln.<name>(x)` convert; dtype= takes the same names.
NUMPY_CASTS = {name: numpy_cast_type(f) for name, f in of_family(lib.CAST).items()}
KILN_CASTS = {t.name: t for t in kt.SCALAR_DTYPES if not t.is_bool}

# What the subset check accepts as `math.f` / `np.f` calls and `x.f()`
# methods (library_functions.py's entries).
SUPPORTED_MATH = set(MATH_FUNCTIONS)
SUPPORTED_NUMPY = {name for name, f in NUMPY_FUNCTIONS.items() if f.function}
# `x.copy()`, `x.astype(t)`, `x.fill(v)` (no numpy function of Kiln's) and
# numpy's methods.
ARRAY_METHODS = {"copy", "astype", "fill"} | {
    name for name, f in NUMPY_FUNCTIONS.items() if f.method}

# dtype= spellings of the allocators: attribute names of numpy/kiln, and strings.
DTYPE_ATTRIBUTES = {**NUMPY_CASTS, **KILN_CASTS, "bool_": kt.boolean, "b1": kt.boolean}
DTYPE_BUILTINS = {"float": kt.f64, "int": kt.i64, "bool": kt.boolean, "complex": kt.c128}
# dtype="..." strings: numpy's names and its array-protocol codes ("u1", "f8", "?").
DTYPE_STRINGS = {**{t.numpy_name: t for t in kt.DTYPES}, "bool": kt.boolean,
                 "complex128": kt.c128, "complex64": kt.c64, "complex": kt.c128,
                 **{f"{'c' if t.is_complex else 'f' if t.is_float else 'b' if t.is_bool else 'i' if t.signed else 'u'}"
                    f"{t.itemsize}": t for t in kt.SCALAR_DTYPES}}
DTYPE_ERROR = "dtype `{}` is not supported; use one of " + ", ".join(
    f"np.{t.numpy_name}" for t in kt.SCALAR_DTYPES)
# KILN_MAX_NDIM of runtime/kiln_abi.h (test_abi.py ties them).
MAX_ARRAY_NDIM = 8


def numpy_float_type(scalar: kt.ScalarType) -> kt.ScalarType:
    """numpy's result type of a float function: f32 stays f32."""
    return kt.f32 if scalar == kt.f32 else kt.f64


def numpy_binary_float_type(common) -> kt.ScalarType:
    """np.arctan2/power/copysign/fmod/hypot: f32 only when both are f32
    (a Python literal adapts to f32)."""
    return kt.f32 if common == kt.f32 else kt.f64


def numpy_min_max_type(common: kt.ScalarType) -> kt.ScalarType:
    return kt.i64 if common.is_bool else common


def abs_type(scalar: kt.ScalarType) -> kt.ScalarType:
    if scalar.is_complex:
        return scalar.part
    return kt.i64 if scalar.is_bool else scalar


def unary_weak(operand_weak):
    """The weak kind of `-x`, `+x`, `~x`: a Python bool becomes a Python int."""
    return "int" if operand_weak == "bool" else operand_weak


def negation_type(scalar: kt.ScalarType) -> kt.ScalarType:
    """-x and ~x: bools compute as ints."""
    return kt.i64 if scalar.is_bool else scalar


def array_type(dtype: kt.ScalarType, ndim: int) -> kt.ArrayType:
    return kt.ArrayType(dtype, ndim)


# ------------------------------------------------------- array expressions
# Operators Kiln computes elementwise on arrays (numpy's ufuncs for them).
ARRAY_BINOPS = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"}
# cmath.f (library_functions.py has one entry each), and the keyword-only
# parameters (name, default) of those that have some.
SUPPORTED_CMATH = set(CMATH_FUNCTIONS)
CMATH_KEYWORDS = {name: f.keywords for name, f in CMATH_FUNCTIONS.items() if f.keywords}


def keyword_only_arguments(qualified, keywords):
    """([the value node of each keyword-only parameter, None where it is not
    given], error message or None) of a library call (`cmath.isclose(a, b,
    abs_tol=1e-12)`); other library functions take no keywords."""
    accepted = [name for name, _ in CMATH_KEYWORDS.get(qualified[1], ())] \
        if qualified[0] == "cmath" else []
    given = {k.arg: k.value for k in keywords}
    unknown = [name for name in given if name not in accepted]
    if unknown:
        return [], (f"keyword argument `{unknown[0]}` of `{'.'.join(qualified)}` is not "
                    "supported" if accepted else
                    f"keyword arguments to `{'.'.join(qualified)}` are not supported")
    return [given.get(name) for name in accepted], None
# np.f applied to arrays elementwise (library_functions.py's families with
# an elementwise lowering).
ARRAY_UFUNCS = {name for name, f in NUMPY_FUNCTIONS.items() if f.family.elementwise}


def ufunc_arity(name: str) -> int:
    return NUMPY_FUNCTIONS[name].arity


def ufunc_common_operands(name: str, count: int) -> range:
    """Which arguments' types make the common type (np.where's condition
    does not)."""
    return range(1, count) if NUMPY_FUNCTIONS[name].family is lib.WHERE else range(count)


def ufunc_operand_types(name: str, dtype, count: int) -> list:
    """The type each argument is computed in."""
    family = NUMPY_FUNCTIONS[name].family
    if family is lib.LOGICAL:
        return [kt.boolean] * count
    if family is lib.WHERE:
        return [kt.boolean, dtype, dtype]
    return [dtype] * count


def array_arithmetic_type(symbol: str, common: kt.ScalarType):
    """(element type, error) of `a <symbol> b` with an array operand, from
    the operands' common element type (numpy's ufunc loops)."""
    if common.is_complex:
        if symbol in ("+", "-", "*", "/", "**"):
            return common, None
        return None, f"operator `{symbol}` is not defined for complex arrays"
    if symbol in ("&", "|", "^"):
        if common.is_float:
            return None, f"operator `{symbol}` needs int or bool arrays"
        return common, None
    if symbol in ("<<", ">>") and not common.is_int:
        return None, f"operator `{symbol}` needs int arrays"
    if symbol == "/":
        return (common if common.is_float else kt.f64), None
    if common.is_bool and symbol not in ("+", "*"):     # + and * are numpy's or and and
        if symbol == "-":
            return None, ("numpy does not subtract bool arrays (it raises TypeError); use `^` "
                          "or np.logical_xor")
        return None, (f"operator `{symbol}` on bool arrays is not supported (numpy gives "
                      "int8); convert with .astype(int)")
    return common, None


def ufunc_float_type(scalar: kt.ScalarType):
    """The float type of numpy's loop for a float function of `scalar`: the
    smallest float it casts to safely (float16 for 8-bit ints and bools,
    which Kiln does not have: None)."""
    if scalar.is_float:
        return scalar
    if scalar.is_bool or scalar.bits <= 8:
        return None
    return kt.f32 if scalar.bits <= 16 else kt.f64


def is_operator_power(name: str, common: kt.ScalarType) -> bool:
    """np.power of int, bool or complex arrays is the operator `**`
    (numpy's integer loops, the ValueError for a negative exponent
    included; its complex loop, npy_cpow, without the operator's fast paths
    for a scalar exponent)."""
    return name == "power" and (common.is_int or common.is_bool or common.is_complex)


def array_ufunc_type(name: str, common: kt.ScalarType, operands=()):
    """(element type, error) of np.<name> applied to arrays. `common` is the
    operands' promotion; `operands` their (type, weak kind) pairs, for the
    float functions, whose loop numpy picks per operand (np.arctan2 of int16
    and uint16 arrays is float32, though they promote to int32)."""
    function = NUMPY_FUNCTIONS[name]
    family = function.family
    if common.is_complex:
        if family is lib.IS:
            return kt.boolean, None
        if family in (lib.ABSOLUTE, lib.PART):
            return common.part, None
        if family is lib.CONJUGATE or family is lib.WHERE or function.complex_libm:
            return common, None
        return None, f"np.{name} of complex arrays is not supported yet"
    if family in (lib.CONJUGATE, lib.PART):
        return None, f"np.{name} of a real array is not supported yet"
    if family in (lib.IS, lib.LOGICAL):
        return kt.boolean, None
    if family in (lib.WHERE, lib.CLIP):
        if family is lib.CLIP and common.is_bool:
            return None, "np.clip of bools is not supported"
        return common, None
    if family is lib.ABSOLUTE and common.is_bool:
        return common, None         # numpy's absolute of bools is the identity
    if family in (lib.ABSOLUTE, lib.SQUARE):
        if common.is_bool:
            return None, f"np.{name} of a bool array is not supported"
        return common, None
    if family is lib.MIN_MAX:
        return common, None         # bools stay bool (logical or/and)
    if name == "fmod" and not common.is_float:
        if common.is_bool:
            return None, "np.fmod of bools is not supported"
        return common, None         # C's remainder; 0 for a zero divisor
    strong = [t for t, weak in operands if not weak] or [common]
    # numpy's first loop every operand casts to safely: float16 only when
    # all of them are 8-bit ints or bools (np.hypot(bool, float32) is float32)
    floats = [f for f in map(ufunc_float_type, strong) if f is not None]
    if not floats:
        small = strong[0]
        return None, (f"np.{name} of {with_article(small.numpy_name)} array gives float16 in numpy, which Kiln does not have; convert with "
                      ".astype(np.float32)")
    if any(t == kt.f64 for t, weak in operands if weak == "float") and not any(
            t.is_float for t in strong):
        floats.append(kt.f64)       # a Python float beside int arrays
    return (kt.f64 if kt.f64 in floats else kt.f32), None


# numpy's "same_kind" casting, which in-place operators (`x += y`) use for
# their output: within a kind or towards a later one (bool, unsigned,
# signed, float); never float -> int.
_CAST_KIND_ORDER = {"bool": 0, "unsigned": 1, "signed": 2, "float": 3, "complex": 4}


def _cast_kind(scalar: kt.ScalarType) -> str:
    if scalar.is_bool:
        return "bool"
    if scalar.is_float or scalar.is_complex:
        return scalar.kind
    return "signed" if scalar.signed else "unsigned"


def same_kind_cast(source: kt.ScalarType, target: kt.ScalarType) -> bool:
    return _CAST_KIND_ORDER[_cast_kind(source)] <= _CAST_KIND_ORDER[_cast_kind(target)]


def reduction_type(name: str, dtype: kt.ScalarType) -> kt.ScalarType:
    """numpy's result type of a whole-array reduction: sums and products of
    narrow ints (and bools) accumulate in the platform's 64-bit int, the mean
    of ints is float64, max/min keep the dtype."""
    name = {"amax": "max", "amin": "min"}.get(name, name)
    if name in ("any", "all"):
        return kt.boolean
    if name in ("max", "min"):
        return dtype
    if name in ("mean", "average", "var", "std"):
        return dtype if dtype.is_float else kt.f64
    if dtype.is_bool or (dtype.is_int and dtype.signed and dtype.bits < 64):
        return kt.i64
    if dtype.is_int and not dtype.signed and dtype.bits < 64:
        return kt.u64
    return dtype


def reduction_ddof(keywords) -> int | str:
    """var/std's `ddof=` (a constant int >= 0; 0 without it), or what is
    wrong with it."""
    node = keywords.get("ddof")
    if node is None:
        return 0
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and \
            not isinstance(node.value, bool) and node.value >= 0:
        return node.value
    return "ddof= must be a constant int >= 0"


def reduction_options(ndim: int, positional, keywords, name: str = "sum"):
    """(axis or None, keepdims) of a reduction's options, from AST nodes:
    `axis` a constant int (negative counts from the end) or None, as the
    second positional argument or a keyword; `keepdims` a constant bool
    (`ddof` for var/std: reduction_ddof). A string instead of the axis says
    what is wrong."""
    allowed = {"axis", "keepdims"} | ({"ddof"} if name in ("var", "std") else set())
    if name == "average":
        allowed = {"axis"}          # no weights= yet
    if name == "scan":
        allowed = {"axis"}
    unknown = set(keywords) - allowed
    if unknown:
        return f"argument `{sorted(unknown)[0]}` is not supported yet", False
    if len(positional) > 1:
        return "takes at most an array and an axis", False
    axis_node = positional[0] if positional else keywords.get("axis")
    keepdims_node = keywords.get("keepdims")
    keepdims = False
    if keepdims_node is not None:
        if not (isinstance(keepdims_node, ast.Constant) and isinstance(keepdims_node.value, bool)):
            return "keepdims= must be True or False", False
        keepdims = keepdims_node.value
    if axis_node is None or (isinstance(axis_node, ast.Constant) and axis_node.value is None):
        return None, keepdims
    value = axis_node.value if isinstance(axis_node, ast.Constant) else None
    if isinstance(axis_node, ast.UnaryOp) and isinstance(axis_node.op, ast.USub) and \
            isinstance(axis_node.operand, ast.Constant):
        value = -axis_node.operand.value
    if not isinstance(value, int) or isinstance(value, bool):
        return "axis= must be a constant int (a tuple of axes is not supported yet)", False
    if not -ndim <= value < ndim:
        return f"axis {value} is out of bounds for an array of dimension {ndim}", False
    return value % ndim, keepdims


def numbers_array_dtype(values):
    """numpy's dtype for an array of these numbers (np.array([...]), a
    tuple stored into a view): Python ints are int64, floats float64 (never
    NEP 50's weak kinds); typed numbers promote."""
    dtype = None
    for value in values:
        element = default_for_kind(value.weak) if value.weak else value.type
        dtype = element if dtype is None else promote(dtype, element)
    return dtype


# ------------------------------------------- shape functions' arguments
# name -> (positional parameter names after the array(s), keyword names)
SHAPE_PARAMETERS = {
    "reshape": (("shape",), ()),
    "ravel": ((), ()),
    "flatten": ((), ()),
    "roll": (("shift", "axis"), ("shift", "axis")),
    "tile": (("reps",), ("reps",)),
    "repeat": (("repeats", "axis"), ("repeats", "axis")),
    "flip": (("axis",), ("axis",)),
    "fliplr": ((), ()),
    "flipud": ((), ()),
    "diff": (("n", "axis"), ("n", "axis")),
    "transpose": ((), ()),
    "tril": (("k",), ("k",)),
    "triu": (("k",), ("k",)),
    "argmin": (("axis",), ("axis",)),
    "argmax": (("axis",), ("axis",)),
    "nonzero": ((), ()),
    "flatnonzero": ((), ()),
}


def constant_int(node) -> int | None:
    """An int written in the source (`1`, `-1`), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and \
            not isinstance(node.value, bool):
        return node.value
    return None


def bound_arguments(name, node, leading):
    """({parameter: AST node or None}, None) of `np.name(x, ...)` or
    `x.name(...)` (`leading` arguments are the array(s), taken already),
    or (..., (node, message)) when they do not fit."""
    positional, keyword_names = SHAPE_PARAMETERS[name]
    args = list(node.args)[leading:]
    bound = dict.fromkeys(positional)
    if len(args) > len(positional):
        return bound, (node, f"np.{name}() takes at most {len(positional)} argument"
                             f"{'s' if len(positional) != 1 else ''} after the array here")
    for parameter, arg in zip(positional, args):
        bound[parameter] = arg
    for keyword in node.keywords:
        if keyword.arg not in keyword_names or bound.get(keyword.arg) is not None:
            return bound, (keyword, f"np.{name}() argument `{keyword.arg}` is not supported")
        bound[keyword.arg] = keyword.value
    return bound, None


def normalized_axis(axis: int, ndim: int) -> int | None:
    axis = axis + ndim if axis < 0 else axis
    return axis if 0 <= axis < ndim else None


def is_positions_call(node, qualified) -> bool:
    """np.nonzero(a), a.nonzero() and np.where(a) (one argument): the tuple
    of the positions of a's true elements, one array per axis."""
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    if qualified is not None:
        return qualified[0] == "numpy" and (qualified[1] == "nonzero" or (
            qualified[1] == "where" and len(node.args) == 1))
    return isinstance(node.func, ast.Attribute) and node.func.attr == "nonzero" and \
        not node.args


def is_tuple_call(node, qualified) -> bool:
    """`cmath.polar(z)`: a library call whose value is a tuple, so that
    `cmath.polar(z)[0]` is one of its elements (like np.nonzero(m)[k])."""
    return isinstance(node, ast.Call) and qualified == ("cmath", "polar")


def calls_module_function(nodes, functions) -> bool:
    """Whether evaluating any of these expressions calls a function of the
    module. numpy computes `a * 2` before `h(x)` runs in `a * 2 + h(x)`, and
    `h` may write `a`; Kiln computes array operations when the expression is
    stored, so an array operation to the left of such a call is computed
    into a new array first (fuzzer finding A3)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id in functions
               for node in nodes for n in ast.walk(node))
