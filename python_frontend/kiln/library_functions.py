"""The `math`, `cmath` and numpy functions Kiln compiles, one entry each:
the subset check accepts the names (typing_rules.SUPPORTED_MATH,
SUPPORTED_NUMPY, SUPPORTED_CMATH are these tables' keys), type inference
types a call by the entry (call_typing.math_call, numpy_call, cmath_call;
typing_rules.array_ufunc_type for arrays), MLIR generation lowers it by the
entry (library.math_call, numpy_call, numpy_elementwise;
complex_numbers.cmath_call), and test_library_functions.py checks that
docs/language.md names each entry in the bullet its family points to. A
new function is one entry here plus, when its lowering needs one, a method
of the MLIR generator (mlir/library.py's LibraryCalls for most).

`math.f` computes in double precision and raises what CPython raises
(ValueError "math domain error", OverflowError "math range error");
`np.f` computes in its operands' float type and never raises (numpy
returns NaN or inf)."""

from __future__ import annotations

from dataclasses import dataclass

from . import typesystem as kt

# docs/language.md's bullets listing the functions (the text each starts with).
DOC_MATH = "- `math.sqrt"
DOC_NUMPY_SCALARS = "- numpy's scalar functions"
DOC_UFUNCS = "- `np.<ufunc>` on arrays"
DOC_REDUCTIONS = "- reductions `np.sum"
DOC_OPERATORS = "- `abs(x)` of an array is `np.abs(x)`"
DOC_SCANS = "- scans `np.cumsum`"
DOC_SHAPES = "- shape functions, with numpy's results"
DOC_CREATION = "- creation: `np.arange`"
DOC_ALLOCATION = "- new arrays"
DOC_POSITIONS = "- `np.nonzero(a)`"
DOC_POSITION_TUPLES = "- `np.ndindex(shape)`"
DOC_COMPLEX = "every function of `cmath`"
DOC_COMPLEX_NUMPY = "`z.imag`, `z.conjugate()`, and `np.conj`"
DOC_LINALG = "- linear algebra"
DOC_SORTING = "- sorting and counting"

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
    doc: str = DOC_MATH     # the docs/language.md bullet naming it


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
class NumpyFamily:
    """numpy functions typed by one rule and lowered by one method: the
    stages dispatch a call `np.f(...)` by its entry's family, never by
    its name."""
    name: str
    # The CallTyping method typing a call, and the MLIR generator's method
    # lowering it: (function entry, argument values, node), or for families
    # that read the call's syntax themselves (`reads_call`: keywords, lists
    # of numbers, axes written in the source) (name, node).
    typing: str
    lowering: str
    # LibraryCalls' method computing one element of np.f applied to arrays
    # ((function entry, elements, dtype, node)); None: not elementwise.
    elementwise: str | None = None
    reads_call: bool = False
    # Lists and tuples of numbers written in the call are its values
    # (np.zeros((n, m)), np.array([1, 2])).
    takes_lists: bool = False


OPERATOR = NumpyFamily("operator", "numpy_operator", "numpy_operator")
COMPARISON = NumpyFamily("comparison", "numpy_comparison", "numpy_comparison")
CAST = NumpyFamily("cast", "numpy_cast", "numpy_cast")
FLOAT = NumpyFamily("float", "numpy_float_function", "numpy_float_function", "float_elements")
IS = NumpyFamily("predicate", "numpy_predicate", "numpy_predicate", "predicate_elements")
ABSOLUTE = NumpyFamily("absolute", "numpy_absolute", "numpy_absolute", "absolute_elements")
SQUARE = NumpyFamily("square", "numpy_square", "numpy_square", "square_elements")
MIN_MAX = NumpyFamily("min_max", "numpy_minimum_maximum", "numpy_minimum_maximum",
                      "min_max_elements")
# Of arrays only (of numbers: not supported yet).
LOGICAL = NumpyFamily("logical", "numpy_array_only", "numpy_array_only", "logical_elements")
WHERE = NumpyFamily("where", "numpy_array_only", "numpy_array_only", "where_elements")
CLIP = NumpyFamily("clip", "numpy_array_only", "numpy_array_only", "clip_elements")
# Of complex numbers and arrays (ComplexNumbers.numpy_complex_elementwise).
CONJUGATE = NumpyFamily("conjugate", "numpy_array_only", "numpy_array_only",
                        "complex_elements")
PART = NumpyFamily("part", "numpy_array_only", "numpy_array_only", "complex_elements")
DOT = NumpyFamily("dot", "numpy_dot", "numpy_dot")
ALLOCATION = NumpyFamily("allocation", "allocate", "allocate", reads_call=True,
                         takes_lists=True)
REDUCTION = NumpyFamily("reduction", "reduction_call", "reduce_call", reads_call=True)
SCAN = NumpyFamily("scan", "reduction_call", "reduce_call", reads_call=True)
# Shape, creation and position functions (shape_typing.py, array_shapes.py).
SHAPE = NumpyFamily("shape", "shape_function", "shape_function", reads_call=True,
                    takes_lists=True)
# Linear algebra compiled from Kiln's own kernels (frontend/kernels/linalg.py):
# typecheck/linalg_typing.py picks the kernel and its types, the call is
# then one to a module helper.
LINALG = NumpyFamily("linalg", "linalg_call", "linalg_call", reads_call=True)
# Kiln's kernels too (frontend/kernels/sorting.py), lowered as LINALG's are.
SORTING = NumpyFamily("sorting", "sorting_call", "linalg_call", reads_call=True)
# Positions as tuples of ints (typecheck/tuple_typing.py, mlir/tuple_lowering.py):
# np.unravel_index, and np.ndindex as a for loop's iterable (frontend/desugar.py).
POSITIONS = NumpyFamily("positions", "position_tuple_call", "position_tuple_call",
                        reads_call=True)


@dataclass(frozen=True)
class NumpyFunction:
    """A numpy function of a family other than FLOAT (NumpyFloatFunction)."""
    name: str
    family: NumpyFamily
    doc: str                # the docs/language.md bullet naming it
    arity: int = 1          # values it takes (elementwise families)
    # OPERATOR, COMPARISON: the class name of the ast operator it is
    # (np.add(a, b) of arrays is `a + b`); CAST: the dtype's numpy name.
    detail: str | None = None
    function: bool = True   # np.<name>(x) exists
    method: bool = False    # x.<name>(...) too
    complex_libm = None     # (NumpyFloatFunction's: glibc's complex function)


@dataclass(frozen=True)
class NumpyFloatFunction:
    name: str
    arity: int             # floats it takes (1 or 2)
    # The MLIR op ("@f": libm's f, or f<suffix> for float32, called instead).
    lowering: str
    # Of complex numbers: glibc's function (numpy calls it too: the same
    # results, bit for bit, measured on scalars and arrays), None: refused.
    complex_libm: str | None = None
    family: NumpyFamily = FLOAT
    doc: str = DOC_UFUNCS   # the docs/language.md bullet naming it
    function: bool = True   # (as NumpyFunction's)
    method: bool = False


NUMPY_FLOAT_FUNCTIONS = {function.name: function for function in (
    NumpyFloatFunction("sqrt", 1, "sqrt", "csqrt"),
    NumpyFloatFunction("exp", 1, "exp", "cexp"),
    NumpyFloatFunction("expm1", 1, "@expm1"),      # as math.expm1: libm's precision
    NumpyFloatFunction("log", 1, "log", "clog"),
    NumpyFloatFunction("log2", 1, "log2"),
    NumpyFloatFunction("log10", 1, "log10"),
    NumpyFloatFunction("log1p", 1, "@log1p"),
    NumpyFloatFunction("sin", 1, "sin", "csin"),
    NumpyFloatFunction("cos", 1, "cos", "ccos"),
    NumpyFloatFunction("tan", 1, "tan", "ctan"),
    NumpyFloatFunction("arcsin", 1, "asin", "casin"),
    NumpyFloatFunction("arccos", 1, "acos", "cacos"),
    NumpyFloatFunction("arctan", 1, "atan", "catan"),
    NumpyFloatFunction("sinh", 1, "sinh", "csinh"),
    NumpyFloatFunction("cosh", 1, "cosh", "ccosh"),
    NumpyFloatFunction("tanh", 1, "tanh", "ctanh"),
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
    # Added as a registry entry alone (issue 27): libm's nextafter, which
    # numpy's loop calls too; its declaration comes from LIBM_CALLS below.
    NumpyFloatFunction("nextafter", 2, "@nextafter"),
)}


def _entries(family, doc, names, **fields):
    return [NumpyFunction(name, family, doc, **fields) for name in names.split()]


def _operators(family, doc, pairs):
    return [NumpyFunction(name, family, doc, 2, operator) for name, operator in pairs.items()]


# `np.<name>(x)` converts; dtype= takes the same names (typing_rules).
_CAST_NAMES = {**{t.numpy_name: t for t in kt.SCALAR_DTYPES if not t.is_bool},
               "double": kt.f64, "single": kt.f32, "cdouble": kt.c128, "csingle": kt.c64}

_NUMPY_OTHER_FUNCTIONS = [
    # The ufuncs behind numpy's operators: np.add(a, b) of arrays is `a + b`.
    *_operators(OPERATOR, DOC_OPERATORS, {
        "add": "Add", "subtract": "Sub", "multiply": "Mult", "divide": "Div",
        "true_divide": "Div", "floor_divide": "FloorDiv", "mod": "Mod", "remainder": "Mod",
        "bitwise_and": "BitAnd", "bitwise_or": "BitOr", "bitwise_xor": "BitXor",
        "left_shift": "LShift", "right_shift": "RShift"}),
    # np.less(a, b) is `a < b`, of numbers too.
    *_operators(COMPARISON, DOC_OPERATORS, {
        "less": "Lt", "less_equal": "LtE", "greater": "Gt", "greater_equal": "GtE",
        "equal": "Eq", "not_equal": "NotEq"}),
    *[NumpyFunction(name, CAST, DOC_NUMPY_SCALARS, detail=dtype.numpy_name)
      for name, dtype in _CAST_NAMES.items()],
    # np.isnan & co. compute as math's predicates (numpy's never raise).
    *_entries(IS, DOC_UFUNCS, "isnan isinf isfinite"),
    *_entries(ABSOLUTE, DOC_UFUNCS, "abs absolute"),
    *_entries(SQUARE, DOC_UFUNCS, "square"),
    *_entries(MIN_MAX, DOC_UFUNCS, "minimum maximum", arity=2),
    *_entries(LOGICAL, DOC_UFUNCS, "logical_and logical_or logical_xor", arity=2),
    *_entries(LOGICAL, DOC_UFUNCS, "logical_not"),
    *_entries(WHERE, DOC_UFUNCS, "where", arity=3),     # np.where(a): DOC_POSITIONS
    *_entries(CLIP, DOC_UFUNCS, "clip", arity=3),
    # `z.conjugate()` of a complex number too (type inference refuses it
    # of anything else).
    *_entries(CONJUGATE, DOC_COMPLEX_NUMPY, "conj"),
    *_entries(CONJUGATE, DOC_COMPLEX_NUMPY, "conjugate", method=True),
    *_entries(PART, DOC_COMPLEX_NUMPY, "real imag"),
    *_entries(DOT, DOC_UFUNCS, "dot", arity=2),
    *_entries(ALLOCATION, DOC_ALLOCATION, "empty zeros ones empty_like zeros_like ones_like"),
    # Whole-array and axis reductions: np.sum(a) and a.sum() (np.amax,
    # np.amin and np.average have no method of that name).
    *_entries(REDUCTION, DOC_REDUCTIONS, "sum prod max min mean any all var std", method=True),
    *_entries(REDUCTION, DOC_REDUCTIONS, "amax amin average"),
    # Running sums and products: arrays of the input's shape.
    *_entries(SCAN, DOC_SCANS, "cumsum cumprod", method=True),
    *_entries(SHAPE, DOC_SHAPES, "reshape ravel repeat transpose argmin argmax", method=True),
    *_entries(SHAPE, DOC_SHAPES, "flatten", function=False, method=True),
    *_entries(SHAPE, DOC_SHAPES, "roll tile flip fliplr flipud diff tril triu concatenate "
                                 "hstack vstack stack outer"),
    *_entries(SHAPE, DOC_CREATION, "arange linspace full full_like eye identity array"),
    *_entries(SHAPE, DOC_POSITIONS, "nonzero", method=True),
    *_entries(SHAPE, DOC_POSITIONS, "flatnonzero"),
    *_entries(LINALG, DOC_LINALG, "linalg.det linalg.slogdet linalg.solve linalg.inv "
                                  "linalg.cholesky linalg.qr linalg.norm trace kron matmul "
                                  "vdot inner einsum linalg.svd linalg.cond "
                                  "linalg.matrix_rank linalg.pinv linalg.lstsq"),
    *_entries(SORTING, DOC_SORTING, "sort argsort", method=True),
    *_entries(SORTING, DOC_SORTING, "searchsorted unique bincount histogram"),
    *_entries(POSITIONS, DOC_POSITION_TUPLES, "unravel_index ndindex"),
]

# Every numpy function and method, by name: np.<name> when `.function`,
# x.<name>() when `.method`.
NUMPY_FUNCTIONS = {**NUMPY_FLOAT_FUNCTIONS,
                   **{function.name: function for function in _NUMPY_OTHER_FUNCTIONS}}
assert len(NUMPY_FUNCTIONS) == len(NUMPY_FLOAT_FUNCTIONS) + len(_NUMPY_OTHER_FUNCTIONS)


def numpy_function(name):
    """The entry of `np.<name>`, None when Kiln does not compile it."""
    function = NUMPY_FUNCTIONS.get(name)
    return function if function is not None and function.function else None


def makes_array(name) -> bool:
    """Whether `np.<name>(...)` is an array whatever its arguments are
    (np.zeros(n), np.arange(n)): the creation functions."""
    function = NUMPY_FUNCTIONS.get(name)
    return function is not None and function.doc in (DOC_ALLOCATION, DOC_CREATION)


def numpy_method(name):
    """The entry of the array method `x.<name>(...)`, None when it is not one."""
    function = NUMPY_FUNCTIONS.get(name)
    return function if function is not None and function.method else None


def numpy_cast_type(function) -> kt.ScalarType:
    """The dtype a CAST entry converts to."""
    return _CAST_NAMES[function.name]


def of_family(*families) -> dict:
    """name -> entry, for the numpy functions of these families."""
    return {name: function for name, function in NUMPY_FUNCTIONS.items()
            if function.family in families}


def is_scan(name) -> bool:
    """np.cumsum, x.cumprod(): reductions whose result keeps every partial one."""
    function = NUMPY_FUNCTIONS.get(name)
    return function is not None and function.family is SCAN


# np.add(a, b), np.less(a, b): the operators' ufuncs, elementwise of arrays.
OPERATOR_AND_COMPARISON_UFUNCS = set(of_family(OPERATOR, COMPARISON))
# libm's functions the "@f" lowerings call: name -> how many floats it takes
# (code_generator declares f for float64 and f<f> for float32). math.hypot's
# own method calls libm's hypot too.
LIBM_CALLS = {
    **{f.lowering[1:]: 1 for f in MATH_FUNCTIONS.values() if f.lowering.startswith("@")},
    **{f.lowering[1:]: f.arity for f in NUMPY_FLOAT_FUNCTIONS.values()
       if f.lowering.startswith("@")}}
# glibc's complex functions numpy's float functions call for complex numbers.
COMPLEX_LIBM = [f.complex_libm for f in NUMPY_FLOAT_FUNCTIONS.values() if f.complex_libm]


# ----------------------------------------------------------------- cmath
COMPLEX = "complex"         # a complex number
REAL = "real"               # a float
POLAR = "polar"             # (magnitude, phase), floats
TRUTH = "bool"


@dataclass(frozen=True)
class CmathFunction:
    """`cmath.<name>`, as CPython computes it (complex_numbers.py)."""
    name: str
    arities: tuple          # the positional argument counts it takes
    result: str             # COMPLEX, REAL, POLAR or TRUTH
    raises: bool            # ValueError or OverflowError for some inputs
    # ComplexNumbers' method lowering a call: (name, argument values, node).
    lowering: str
    real_arguments: bool = False      # rect(r, phi): complex arguments refused
    # keyword-only parameters: (name, default) pairs
    keywords: tuple = ()
    doc: str = DOC_COMPLEX


CMATH_FUNCTIONS = {function.name: function for function in (
    CmathFunction("exp", (1,), COMPLEX, True, "cmath_exp_call"),
    CmathFunction("sqrt", (1,), COMPLEX, False, "cmath_sqrt_call"),
    CmathFunction("log", (1, 2), COMPLEX, True, "cmath_log_call"),     # log(z, base) too
    CmathFunction("log10", (1,), COMPLEX, True, "cmath_log10_call"),
    # Of one complex number, giving one (cmath_function_parts):
    *[CmathFunction(name, (1,), COMPLEX, name in ("cos", "sin", "tan", "cosh", "sinh", "tanh",
                                                  "atan", "atanh"), "cmath_function_call")
      for name in ("cos", "sin", "tan", "cosh", "sinh", "tanh", "acos", "asin", "atan",
                   "acosh", "asinh", "atanh")],
    CmathFunction("phase", (1,), REAL, True, "cmath_angle_call"),
    CmathFunction("polar", (1,), POLAR, True, "cmath_angle_call"),
    CmathFunction("rect", (2,), COMPLEX, True, "cmath_rect_call", real_arguments=True),
    CmathFunction("isclose", (2,), TRUTH, True, "cmath_isclose_call",
                  keywords=(("rel_tol", 1e-9), ("abs_tol", 0.0))),
    *[CmathFunction(name, (1,), TRUTH, False, "cmath_predicate_call")
      for name in ("isnan", "isinf", "isfinite")],
)}


# ------------------------------------------------------ heapq and bisect
# Functions of the standard library that work on a list in place or search
# it, compiled with CPython's algorithm (the comparisons `<` in CPython's
# order, so a heap's layout after each call is CPython's): typed by
# typecheck/list_library_typing.py (ListLibraryTyping.list_library_call,
# by the entry's `form`), lowered by the ListAlgorithms method `lowering`
# names (mlir/list_algorithms.py), and named in the docs/language.md
# bullet `doc` points to (test_library_functions.py checks all three).
DOC_HEAPQ = "- `heapq.heappush"
DOC_BISECT = "- `bisect.bisect_left"

# The forms: what a call takes and gives (the list always comes first,
# but nsmallest/nlargest's count).
PUSH = "push"              # (heap, item) -> None
POP = "pop"                # (heap) -> item
PUSH_POP = "push_pop"      # (heap, item) -> item
HEAPIFY = "heapify"        # (heap) -> None
SELECT = "select"          # (n, list) -> a new list
SEARCH = "search"          # (list, x, lo=0, hi=len) -> int
INSERT = "insert"          # (list, x, lo=0, hi=len) -> None


@dataclass(frozen=True)
class ListFunction:
    module: str
    name: str
    form: str
    lowering: str           # the ListAlgorithms method: (entry, node) -> Value
    doc: str


LIST_FUNCTIONS = {(function.module, function.name): function for function in (
    ListFunction("heapq", "heappush", PUSH, "heap_push", DOC_HEAPQ),
    ListFunction("heapq", "heappop", POP, "heap_pop", DOC_HEAPQ),
    ListFunction("heapq", "heappushpop", PUSH_POP, "heap_push_pop", DOC_HEAPQ),
    ListFunction("heapq", "heapreplace", PUSH_POP, "heap_replace", DOC_HEAPQ),
    ListFunction("heapq", "heapify", HEAPIFY, "heapify", DOC_HEAPQ),
    ListFunction("heapq", "nsmallest", SELECT, "heap_select", DOC_HEAPQ),
    ListFunction("heapq", "nlargest", SELECT, "heap_select", DOC_HEAPQ),
    ListFunction("bisect", "bisect_left", SEARCH, "bisect_search", DOC_BISECT),
    ListFunction("bisect", "bisect_right", SEARCH, "bisect_search", DOC_BISECT),
    ListFunction("bisect", "bisect", SEARCH, "bisect_search", DOC_BISECT),
    ListFunction("bisect", "insort_left", INSERT, "bisect_insert", DOC_BISECT),
    ListFunction("bisect", "insort_right", INSERT, "bisect_insert", DOC_BISECT),
    ListFunction("bisect", "insort", INSERT, "bisect_insert", DOC_BISECT),
)}
# `import heapq`'s names Kiln compiles, by module (the subset check's table).
SUPPORTED_LIST_FUNCTIONS = {
    module: {name for m, name in LIST_FUNCTIONS if m == module} for module in ("heapq", "bisect")}
# collections' dict classes (typecheck/dict_typing.py's dict_class_call).
DICT_CLASSES = ("defaultdict", "Counter")
