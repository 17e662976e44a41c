"""The `math` functions and numpy's float functions Kiln compiles, one
entry each: the subset check accepts the names (typing_rules.SUPPORTED_MATH,
SUPPORTED_NUMPY), type inference types a call by the entry
(call_typing.math_call, numpy_call; typing_rules.array_ufunc_type for
arrays), and MLIR generation lowers it by the entry's op and check
(library.math_call, numpy_call, numpy_elementwise). A new function is one
entry here plus, when its lowering needs one, a method of mlir/library.py's
LibraryCalls.

`math.f` computes in double precision and raises what CPython raises
(ValueError "math domain error", OverflowError "math range error");
`np.f` computes in its operands' float type and never raises (numpy
returns NaN or inf)."""

from __future__ import annotations

from dataclasses import dataclass

UNARY = "unary"            # one float -> float
TO_INT = "to_int"          # one number -> int (floats rounded; NaN and inf raise)
PREDICATE = "predicate"    # one float -> bool
BINARY = "binary"          # two floats -> float


@dataclass(frozen=True)
class MathFunction:
    name: str
    form: str
    raises: bool           # CPython's version raises for some float argument
    # UNARY and TO_INT: the MLIR `math` op ("@f": libm's f, called instead);
    # PREDICATE and BINARY: the LibraryCalls method that computes it.
    lowering: str
    # UNARY: the LibraryCalls method checking CPython's domain (before the
    # op) or range (after it), None when no argument raises.
    check: str | None = None


MATH_FUNCTIONS = {function.name: function for function in (
    MathFunction("sqrt", UNARY, True, "sqrt", "domain_not_negative"),
    MathFunction("exp", UNARY, True, "exp", "range_overflow"),
    # MLIR lowers math.expm1/log1p as exp(x) - 1 and log(1 + x), which
    # loses the precision these functions exist for: call libm instead.
    MathFunction("expm1", UNARY, True, "@expm1", "range_overflow"),
    MathFunction("log", UNARY, True, "log", "domain_positive"),     # log(x, base) too
    MathFunction("log2", UNARY, True, "log2", "domain_positive"),
    MathFunction("log10", UNARY, True, "log10", "domain_positive"),
    MathFunction("log1p", UNARY, True, "@log1p", "domain_above_minus_one"),
    MathFunction("sin", UNARY, True, "sin", "domain_finite"),
    MathFunction("cos", UNARY, True, "cos", "domain_finite"),
    MathFunction("tan", UNARY, True, "tan", "domain_finite"),
    MathFunction("asin", UNARY, True, "asin", "domain_unit"),
    MathFunction("acos", UNARY, True, "acos", "domain_unit"),
    MathFunction("atan", UNARY, False, "atan"),
    MathFunction("sinh", UNARY, True, "sinh", "range_overflow"),
    MathFunction("cosh", UNARY, True, "cosh", "range_overflow"),
    MathFunction("tanh", UNARY, False, "tanh"),
    MathFunction("fabs", UNARY, False, "absf"),
    MathFunction("floor", TO_INT, True, "floor"),
    MathFunction("ceil", TO_INT, True, "ceil"),
    MathFunction("trunc", TO_INT, True, "trunc"),
    # np.isnan & co. are these predicates too (numpy's never raise either).
    MathFunction("isnan", PREDICATE, False, "is_nan"),
    MathFunction("isinf", PREDICATE, False, "is_inf"),
    MathFunction("isfinite", PREDICATE, False, "is_finite"),
    MathFunction("atan2", BINARY, False, "math_atan2"),
    MathFunction("hypot", BINARY, False, "math_hypot"),
    MathFunction("pow", BINARY, True, "math_pow"),
    MathFunction("copysign", BINARY, False, "math_copysign"),
    MathFunction("fmod", BINARY, True, "math_fmod"),
)}


def of_form(form: str) -> dict:
    """name -> entry, for the functions of one form (in table order)."""
    return {name: function for name, function in MATH_FUNCTIONS.items()
            if function.form == form}


@dataclass(frozen=True)
class NumpyFloatFunction:
    name: str
    arity: int             # floats it takes (1 or 2)
    # The MLIR op ("@f": libm's f, or f<suffix> for float32, called instead).
    lowering: str


NUMPY_FLOAT_FUNCTIONS = {function.name: function for function in (
    NumpyFloatFunction("sqrt", 1, "sqrt"),
    NumpyFloatFunction("exp", 1, "exp"),
    NumpyFloatFunction("expm1", 1, "@expm1"),      # as math.expm1: libm's precision
    NumpyFloatFunction("log", 1, "log"),
    NumpyFloatFunction("log2", 1, "log2"),
    NumpyFloatFunction("log10", 1, "log10"),
    NumpyFloatFunction("log1p", 1, "@log1p"),
    NumpyFloatFunction("sin", 1, "sin"),
    NumpyFloatFunction("cos", 1, "cos"),
    NumpyFloatFunction("tan", 1, "tan"),
    NumpyFloatFunction("arcsin", 1, "asin"),
    NumpyFloatFunction("arccos", 1, "acos"),
    NumpyFloatFunction("arctan", 1, "atan"),
    NumpyFloatFunction("sinh", 1, "sinh"),
    NumpyFloatFunction("cosh", 1, "cosh"),
    NumpyFloatFunction("tanh", 1, "tanh"),
    NumpyFloatFunction("floor", 1, "floor"),
    NumpyFloatFunction("ceil", 1, "ceil"),
    NumpyFloatFunction("trunc", 1, "trunc"),
    NumpyFloatFunction("fabs", 1, "absf"),
    NumpyFloatFunction("rint", 1, "roundeven"),
    # Added as registry entries alone (issue 27: a new function is one
    # entry): the math ops exist, libmvec has vector variants of each.
    NumpyFloatFunction("exp2", 1, "exp2"),
    NumpyFloatFunction("cbrt", 1, "cbrt"),
    NumpyFloatFunction("arcsinh", 1, "asinh"),
    NumpyFloatFunction("arccosh", 1, "acosh"),
    NumpyFloatFunction("arctanh", 1, "atanh"),
    NumpyFloatFunction("arctan2", 2, "atan2"),
    NumpyFloatFunction("power", 2, "powf"),
    NumpyFloatFunction("copysign", 2, "copysign"),
    NumpyFloatFunction("fmod", 2, "remf"),         # of ints: library.integer_fmod
    NumpyFloatFunction("hypot", 2, "@hypot"),
)}
