"""Random program generator (Csmith-style) for the subset docs/language.md
documents.

Deterministic per seed: `generate_function(seed, index, config)` always
returns the same `Program` (the exported function plus its helpers), so a
failure is reproduced by its (seed, index) alone.

Programs are valid Python and type-consistent by construction: every
expression is generated *for* a Kiln type (`bool i32 i64 f32 f64`) using
only operand combinations whose documented result type is that type, every
local is declared once at the top with its annotation (`s: float = 0`) and
only receives values whose join with the declared type is the declared type,
and every loop has a bounded trip count (`for` over bounded ranges, `while`
on a counter the body cannot touch).

Whole-array expressions (`a_*` methods, `ARRAY_EXPRESSIONS`) are generated
for a dtype and a *symbolic shape* (`VIEWS_1D`/`VIEWS_2D`: `x[1:]` and
`x[:-1]` have one length, `m[i]` broadcasts against `m`), so most operands
broadcast; some leaves are picked whatever their shape (`ARRAY_MISMATCH_RATE`)
and the inputs' sizes differ now and then, which exercises numpy's
ValueError. They are stored into new variables at the top level, into views
(often of the array they read: overlap) and in place, and returned.

Growing the generator: each construct is one method; `STATEMENTS` and
`EXPRESSIONS` give their weights (0 disables one). A new language feature
gets a method and a row here. `Config.avoid` names known compiler defects
whose trigger the generator leaves out (see `KNOWN_DEFECT_SWITCHES`).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .semantics import (array_arithmetic_kind, array_ufunc_kind, int_range, promote,
                        same_kind, weak_promote)

SCALAR_KINDS = ("bool", "i32", "i64", "f32", "f64")
NUMERIC = ("i32", "i64", "f32", "f64")
ARRAY_KINDS = ("f64", "i64", "i32", "f32")
# The dtypes of typesystem.DTYPES beyond the first five (kiln.u8 ... kiln.i16,
# kiln.b1 arrays): generated at a lower rate (NEW_KIND_RATE) so that the
# older constructs keep their share.
NEW_INTS = ("u8", "u16", "u32", "u64", "i8", "i16")
INTS = ("i32", "i64") + NEW_INTS
NEW_ARRAY_KINDS = NEW_INTS + ("bool",)
NEW_KIND_RATE = 0.15
FLOAT_KINDS_G = ("f32", "f64")
UNSIGNED_G = ("u8", "u16", "u32", "u64")
ANNOTATION = {"bool": "bool", "i64": "int", "f64": "float", "i32": "kiln.i32",
              "f32": "kiln.f32", **{k: f"kiln.{k}" for k in NEW_INTS}}
NP_DTYPE = {"f64": "np.float64", "f32": "np.float32", "i64": "np.int64", "i32": "np.int32",
            "u8": "np.uint8", "u16": "np.uint16", "u32": "np.uint32", "u64": "np.uint64",
            "i8": "np.int8", "i16": "np.int16", "bool": "np.bool_"}
ARRAY_ANNOTATION = {**{k: f"kiln.{k}" for k in ARRAY_KINDS + NEW_INTS}, "bool": "kiln.b1"}
# Shift counts: negative (ValueError), in range, the width and beyond.
SHIFT_COUNTS = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 64, 70, -1, -3]


def typed_pairs(kind, kinds=INTS + ("bool",)):
    """Typed operand kind pairs whose numpy promotion is `kind`."""
    return [(a, b) for a in kinds for b in kinds if promote(a, b) == kind
            and not (a == "bool" and b == "bool")]


MIXED_PAIRS = {k: [p for p in typed_pairs(k, INTS + ("bool", "f32", "f64"))
                   if set(p) & set(NEW_INTS)] for k in ("i32", "i64", "f32", "f64") + NEW_INTS}


def fits(kind, value):
    lo, hi = int_range(kind)
    return lo <= value <= hi

# Statement constructs and their weights.
STATEMENTS = {
    "assign": 10, "augassign": 6, "if": 5, "for": 4, "while": 2, "store": 7,
    "augstore": 2, "tuple_swap": 2, "tuple_call": 2, "break": 2, "continue": 2,
    "early_return": 2, "raise": 1, "assert": 1,
    # whole-array expressions: `y = a * x + 1.0` (top level only), stores
    # into views (`x[1:] = x[:-1] + 1.0`, `m[i] = row`, `m[:, j] = 7.0`) and
    # in-place operators (`x += y`, `x[1:] -= x[:-1]`)
    "array_assign": 2, "array_store": 3, "array_augassign": 2,
    # shape and creation functions, masks and int indices (top level only):
    # `y = x.reshape(-1, 1)`, `y = x[x > 0]`, `y = np.arange(len(x))`, ...
    "array_shape": 1.5,
    # stores through masks and int arrays: `x[x > 0] = 0.0`, `x[idx] = v`
    "array_mask": 1.2,
}
# Expression constructs per result kind and their weights.
EXPRESSIONS = {
    "literal": 5, "variable": 10, "element": 8, "binop": 12, "unary": 2, "abs": 2,
    "minmax": 2, "conditional": 2, "cast": 3, "math": 3, "numpy": 3, "helper": 2,
    "length": 2, "compare": 8, "chain": 2, "logic": 4, "not": 2, "predicate": 2,
    "shift": 2,
    # whole-array reductions: np.sum(x * y), m.max(), np.dot(x, y), np.argmax(x)
    "reduce": 1,
}

# Known defects (docs of issue 15) whose triggers can be left out so that CI
# stays green while they are open. Each maps to what the generator avoids.
KNOWN_DEFECT_SWITCHES = {
    "B3": "tuple assignment inside loops",
    "B4": "float() of f32 / int() of i32",
    "B5": "float32 literals that are not exactly representable in float32",
    "B6": "stores through a negative-step view",
    "B7": "int literals outside the i32 range meeting an i32",
    "B8": "float values stored into int32 arrays",
    "B10": "2-D element accesses whose two indices can both raise",
    "B11": "hypot",
    "B13": "copysign (fixed by documentation: the sign of a NaN that np.* makes on a domain "
           "error is glibc's, as docs/language.md says, and the oracle follows it; numpy's own "
           "sign depends on the CPU)",
    "B14": "views of local allocations",
    "N1": "atan2/arctan2 of two constant operands (constant folding of atan2(0, 0) gives NaN)",
    "D1": "uint64 compared with (or min/max of) a negative Python int literal",
    "A1": "np.minimum/np.maximum of bool arrays (Kiln gives int64, numpy bool)",
    "A2": "np.fmod of int arrays (Kiln gives float64 and NaN for a zero divisor, numpy ints and 0)",
    "A3": "helper calls among the scalar operands of an array expression (fixed: an array "
          "operation left of the call is computed first, as numpy does; refused, not generated, "
          "below the top level of a function body)",
    "A4": "array operations that fold to a plain copy (`x * 1.0`, `x + 0`, `x | 0`, `x ** 1`, "
          "`x32 * np.float64(1.0)` stored into float32): the module needs memrefCopy and does "
          "not load",
    "A5": "np.arctan2/hypot/copysign of two int arrays of different types (Kiln's float type "
          "comes from their promotion: int16 with uint16 is float64, numpy's loop float32)",
    "A7": "stores through an int index array (`x[idx] = v`): with a position out of range, "
          "Kiln writes the positions before it, then raises IndexError; numpy checks every "
          "position first and writes nothing",
    "A8": "np.ravel / x.ravel() (of a reversed or strided 1-D array Kiln returns a view, "
          "numpy a copy: writes through the result reach the argument)",
    "A6": "conditional expressions with a literal condition (`(-3) if True else x.size`: Kiln "
          "types the join of both branches, CPython and numpy 2 the branch that runs)",
}

# Build failures that are unmistakably a known defect: when its switch is
# avoided and the generator still made a trigger (A4's folds cannot all be
# foreseen from the source), the harness counts it as "known", not "build".
KNOWN_DEFECT_SIGNATURES = {"A4": "undefined symbol: memrefCopy"}

INT_LITERALS = [0, 1, -1, 2, 3, 5, 7, -3, 10, 100, 255, 1000, 2**31 - 1, -2**31, 2**31,
                2**32, 2**53 + 1, 2**62, 2**63 - 1]
SMALL_INTS = [0, 1, 2, 3, 4, 5, 7, -1, -2, 10]
FLOAT_LITERALS = [0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 0.1, 3.0, 1e-300, 1e300, 1e10, -0.0,
                  1.5, 100.0, 7.0, 0.25, 6.02e23, 2.0**60]
MATH_UNARY = ["sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "asin", "acos", "atan", "sinh", "cosh", "tanh", "fabs"]
MATH_BINARY = ["atan2", "hypot", "pow", "copysign", "fmod"]
MATH_TO_INT = ["floor", "ceil", "trunc"]
MATH_PREDICATES = ["isnan", "isinf", "isfinite"]
NP_UNARY = ["sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
            "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc",
            "fabs", "rint", "abs"]
NP_BINARY = ["minimum", "maximum", "arctan2", "hypot", "power", "copysign", "fmod"]
TRANSCENDENTAL = {"exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                  "asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2", "hypot", "pow",
                  "arcsin", "arccos", "arctan", "arctan2", "power"}

# ------------------------------------------------------- array expressions
# Weights of the array-valued expression constructs (FunctionGenerator.a_*).
ARRAY_EXPRESSIONS = {"binop": 8, "unary": 1, "ufunc": 3,
                     # comparisons, np.where/clip/logical_*, reductions along
                     # an axis, scans, shape-keeping functions (flip, roll,
                     # tril, diff, transpose, copy, astype)
                     "compare": 1, "where": 0.5, "clip": 0.4, "logical": 0.4,
                     "axis_reduce": 0.6, "scan": 0.3, "same_shape": 0.8}
ARRAY_RETURN_RATE = 0.5       # array-returning functions that return an expression
ARRAY_MISMATCH_RATE = 0.06    # leaves picked whatever their shape (ValueError paths)
ELEMENT_KINDS = ("f64", "f32", "i64", "i32") + NEW_INTS + ("bool",)
FLOAT_EXPONENTS = ["2", "3", "0", "1", "(-1)", "0.5", "2.0", "1.5", "(-2)", "(-0.5)", "3.0",
                   "0.25"]
FAST_EXPONENTS = {"2", "0", "1", "(-1)", "0.5", "2.0"}   # numpy's fast paths (no pow)
INT_EXPONENTS = ["0", "1", "2", "3", "5"]
ARRAY_UNARY_UFUNCS = NP_UNARY + ["absolute", "square"]
ARRAY_BINARY_UFUNCS = ["arctan2", "hypot", "power", "copysign", "fmod", "minimum", "maximum"]
# Views an array expression reads or a store writes. A view's shape is
# symbolic: a tuple of dims ("n" for the common 1-D size of the inputs, "r"
# and "c" for 2-D ones, "n-1", "h(n)" for half, "#3" for a constant size);
# operands of one shape broadcast for sure, others sometimes do not. Each
# axis spec: 0 keeps the dim, k > 0 takes k off, "h" halves it, "1" is a
# size-1 axis (broadcasts), "u" another length, None drops the axis.
VIEWS_1D = [("{a}", (0,)), ("{a}[::-1]", (0,)), ("{a}[:]", (0,)), ("{a}[1:]", (1,)),
            ("{a}[:-1]", (1,)), ("{a}[-2::-1]", (1,)), ("{a}[2:]", (2,)), ("{a}[:-2]", (2,)),
            ("{a}[1:-1]", (2,)), ("{a}[::2]", ("h",)), ("{a}[::-2]", ("h",)),
            ("{a}[1::2]", ("u",)), ("{a}[:1]", ("1",))]
VIEWS_2D = [("{a}", (0, 0)), ("{a}[::-1]", (0, 0)), ("{a}[:, ::-1]", (0, 0)),
            ("{a}[:, :]", (0, 0)), ("{a}[1:]", (1, 0)), ("{a}[:-1]", (1, 0)),
            ("{a}[:, 1:]", (0, 1)), ("{a}[:, :-1]", (0, 1)), ("{a}[1:-1, 1:-1]", (2, 2)),
            ("{a}[2:, 1:-1]", (2, 2)), ("{a}[:-2, 1:-1]", (2, 2)), ("{a}[1:-1, 2:]", (2, 2)),
            ("{a}[1:-1, :-2]", (2, 2)), ("{a}[::2]", ("h", 0)), ("{a}[:1]", ("1", 0)),
            ("{a}[:, :1]", (0, "1")), ("{a}[{i}]", (None, 0)), ("{a}[{i}, :]", (None, 0)),
            ("{a}[{i}, ::-1]", (None, 0)), ("{a}[{i}, 1:]", (None, 1)),
            ("{a}[:, {j}]", (0, None)), ("{a}[1:, {j}]", (1, None))]
VIEWS_3D = [("{a}", (0, 0, 0)), ("{a}[::-1]", (0, 0, 0)), ("{a}[:, ::-1]", (0, 0, 0)),
            ("{a}[:, :, ::-1]", (0, 0, 0)), ("{a}[1:]", (1, 0, 0)), ("{a}[:, 1:]", (0, 1, 0)),
            ("{a}[:, :, :-1]", (0, 0, 1)), ("{a}[:, 1:-1, 1:-1]", (0, 2, 2)),
            ("{a}[:1]", ("1", 0, 0)), ("{a}[:, :1]", (0, "1", 0)), ("{a}[{i}]", (None, 0, 0)),
            ("{a}[{i}, :, ::-1]", (None, 0, 0)), ("{a}[:, {j}]", (0, None, 0)),
            ("{a}[{i}, {j}]", (None, None, 0)), ("{a}[:, :, {k}]", (0, 0, None)),
            ("{a}[..., {k}]", (0, 0, None)), ("{a}[1:, ...]", (1, 0, 0))]


def views_nd(n):
    """Views of an n-D array (n >= 4): whole, reversed first and last axes,
    trimmed, an index on the first or second axis."""
    rest = ":, " * (n - 1)
    zeros = (0,) * n
    return [("{a}", zeros), ("{a}[::-1]", zeros), ("{a}[" + rest + "::-1]", zeros),
            ("{a}[1:]", (1,) + zeros[1:]), ("{a}[" + rest + ":-1]", zeros[:-1] + (1,)),
            ("{a}[:1]", ("1",) + zeros[1:]), ("{a}[{i}]", (None,) + zeros[1:]),
            ("{a}[:, {j}]", (0, None) + zeros[2:]), ("{a}[..., ::-1]", zeros),
            ("{a}[{i}, ...]", (None,) + zeros[1:]), ("{a}[..., 1:]", zeros[:-1] + (1,))]


VIEWS = {1: VIEWS_1D, 2: VIEWS_2D, 3: VIEWS_3D, 4: views_nd(4), 5: views_nd(5)}
ARRAY_3D_RATE = 0.06          # array parameters with three axes (array expressions only)
# Ranks the array expressions use; of the "3-D" parameters this share has 4 or 5 axes
# (stacks of the 2-D inputs, inputs.py), only read and written by array expressions.
ARRAY_RANKS = (1, 2, 3, 4, 5)
HIGHER_RANK_RATE = 0.35


def dim_minus(d, k):
    if d.startswith("#"):
        return f"#{max(int(d[1:]) - k, 0)}"
    m = re.fullmatch(r"(.*)-(\d+)", d)
    return f"{m.group(1)}-{int(m.group(2)) + k}" if m else f"{d}-{k}"


def view_shape(shape, spec, template):
    """The symbolic shape of a view `template` of an array of `shape`."""
    out = []
    for d, axis in zip(shape, spec):
        if axis is None:
            continue
        if axis == "h":
            out.append(f"#{(int(d[1:]) + 1) // 2}" if d.startswith("#") else f"h({d})")
        elif axis == "1":
            out.append("#1")
        elif axis == "u":
            out.append(f"u({d})")
        else:
            out.append(dim_minus(d, axis) if axis else d)
    return tuple(out)


def shape_fits(shape, target, full):
    """Whether an operand of `shape` gives (full) or broadcasts to `target`."""
    if full:
        return shape == tuple(target)
    return len(shape) <= len(target) and all(
        a == b or a == "#1" for a, b in zip(reversed(shape), reversed(target)))


def reversed_view(template):
    return "::-" in template


@dataclass
class Config:
    max_statements: int = 14
    max_depth: int = 3
    max_expr_depth: int = 3
    helpers: int = 2
    avoid: set = field(default_factory=set)    # KNOWN_DEFECT_SWITCHES keys
    array_weight: float = 1.0   # scales the array statements' weights (campaigns on arrays)


@dataclass
class Param:
    name: str
    kind: str          # scalar kind or array dtype
    ndim: int = 0      # 0 for scalars

    @property
    def annotation(self):
        if self.ndim == 0:
            return ANNOTATION[self.kind]
        return f"{ARRAY_ANNOTATION[self.kind]}[{', '.join([':'] * self.ndim)}]"


@dataclass
class Function:
    name: str
    params: list
    returns: object      # scalar kind, ("tuple", kinds) or ("array", kind, ndim)
    source: str
    exported: bool


@dataclass
class Program:
    """One generated test case: `main` plus the helpers it may call."""
    seed: int
    index: int
    main: Function
    helpers: list

    def functions(self):
        return self.helpers + [self.main]

    def source(self):
        return "\n\n".join(f.source for f in self.functions())


def returns_annotation(returns):
    if isinstance(returns, str):
        return ANNOTATION[returns]
    if returns[0] == "tuple":
        return "tuple[" + ", ".join(ANNOTATION[k] for k in returns[1]) + "]"
    return f"{ARRAY_ANNOTATION[returns[1]]}[{', '.join([':'] * returns[2])}]"


def assignable(target, value):
    """Can a value of kind `value` be stored in a variable of kind `target`
    (the join of both is `target`)?"""
    if target == value:
        return True
    return target != "bool" and promote(target, value) == target


class Scope:
    def __init__(self):
        self.scalars = {}      # name -> kind (assignable locals and parameters)
        self.readonly = {}     # loop counters: name -> kind
        self.arrays = {}       # name -> (kind, ndim, writable, reversed, local)
        self.safe = []         # (index variable, array, axis): var in range(shape[axis])


class FunctionGenerator:
    def __init__(self, rng, config, name, helpers, exported=True, main=True):
        self.rng = rng
        self.config = config
        self.name = name
        self.helpers = helpers       # earlier Functions this one may call
        self.exported = exported
        self.main = main
        self.scope = Scope()
        self.lines = []
        self.counter = 0
        self.statements = 0
        self.loop_depth = 0
        self.statement_depth = 0
        self.trip = 1                 # product of enclosing loops' trip bounds
        self.uses_transcendental = False
        self.uses_numpy_transcendental = False
        self.shapes = {}              # array name -> symbolic shape (VIEWS_1D)
        self.no_helper_calls = False  # A3: scalar operands of array expressions
        self.prefer_array = None      # a store's target, read more often (overlap)
        self.used_leaves = set()      # A4: views one array statement reads
        # 3-D arrays: only array expressions read and write them (the scalar
        # constructs index 1-D and 2-D arrays), so they live apart
        self.arrays3 = {}             # name -> (kind, 3, writable, reverse, local)
        self.owned = set()            # new arrays the function may return as they are
        self.statement_calls = False  # A3: a helper call in the current statement
        self.statement_reduces = False  # ... and an array reduction

    # ------------------------------------------------------------ utilities
    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def avoid(self, defect):
        return defect in self.config.avoid

    def pick(self, table, allowed):
        names = [n for n in allowed if table.get(n, 0) > 0]
        weights = [table[n] for n in names]
        return self.rng.choices(names, weights)[0]

    def emit(self, depth, text):
        self.lines.append("    " * (depth + 1) + text)

    def int_literal(self, kind="i64"):
        if kind == "i32":
            pool = [v for v in INT_LITERALS if -2**31 <= v < 2**31]
            if not self.avoid("B7") and self.rng.random() < 0.01:
                pool = INT_LITERALS
        else:
            pool = INT_LITERALS
        value = self.rng.choice(pool if self.rng.random() < 0.5 else SMALL_INTS)
        if value == -2**63:
            return "(-9223372036854775807 - 1)"
        return f"({value})" if value < 0 else str(value)

    def float_literal(self, kind="f64"):
        value = self.rng.choice(FLOAT_LITERALS)
        if kind == "f32" and self.avoid("B5"):
            value = self.rng.choice([0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 3.0, 0.25, 1.5, 100.0])
        text = repr(value)
        return f"({text})" if text.startswith("-") else text

    # ------------------------------------------------------------ variables
    def variables(self, kind, assignable_only=False):
        names = [n for n, k in self.scope.scalars.items() if k == kind]
        if not assignable_only:
            names += [n for n, k in self.scope.readonly.items() if k == kind]
        return names

    def arrays(self, kind=None, writable=False):
        return [n for n, (k, nd, w, rev, local) in self.scope.arrays.items()
                if (kind is None or k == kind) and (w or not writable)]

    # ---------------------------------------------------------- expressions
    def expr(self, kind, depth=0):
        """An expression whose Kiln type is exactly `kind`."""
        leaf = depth >= self.config.max_expr_depth
        for _ in range(20):
            allowed = self.expression_choices(kind, leaf)
            choice = self.pick(self.expression_weights(), allowed)
            text = getattr(self, "e_" + choice)(kind, depth)
            if text is not None:
                return text
        return self.e_literal(kind, depth)

    def expression_choices(self, kind, leaf):
        if kind == "bool":
            base = ["literal", "variable", "compare", "element"]
            return base if leaf else base + ["chain", "logic", "not", "predicate",
                                             "conditional", "helper", "reduce"]
        base = ["literal", "variable", "element", "length"]
        if leaf:
            return base
        return base + ["binop", "unary", "abs", "minmax", "conditional", "cast", "math",
                       "numpy", "helper", "shift", "reduce"]

    def new_kind(self, pool=NEW_INTS, rate=NEW_KIND_RATE):
        """One of the newer dtypes, at `rate`; None otherwise."""
        return self.rng.choice(pool) if self.rng.random() < rate else None

    def typed_literal(self, kind):
        """A typed value of a newer int kind: a cast of a fitting Python int."""
        lo, hi = int_range(kind)
        value = self.rng.choice([0, 1, 2, 3, 7, 100, hi, hi - 1, lo, lo + 1, -1, -7]
                                if self.rng.random() < 0.5 else SMALL_INTS)
        if not fits(kind, value):
            value = 1
        text = f"({value})" if value < 0 else str(value)
        return f"{self.rng.choice(['np.' + NP_DTYPE[kind][3:], 'kiln.' + kind])}({text})"

    def e_literal(self, kind, depth):
        if kind == "bool":
            return self.rng.choice(["True", "False"])
        if kind in NEW_INTS:
            return self.typed_literal(kind)
        if kind in ("i64", "i32"):
            literal = self.int_literal(kind)
            if kind == "i32":
                return self.i32_from(literal) or f"np.int32({self.rng.choice(SMALL_INTS)})"
            return literal
        literal = self.float_literal(kind)
        if kind == "f32":
            return f"kiln.f32({literal})"
        return literal

    def i32_from(self, literal):
        """A typed i32 built from an int literal (literals alone are weak)."""
        names = self.variables("i32")
        if names:
            return f"({self.rng.choice(names)} * 0 + {literal})"
        return None

    def e_variable(self, kind, depth):
        names = self.variables(kind)
        return self.rng.choice(names) if names else None

    def e_length(self, kind, depth):
        if kind != "i64":
            return None
        names = self.arrays()
        if not names:
            return None
        name = self.rng.choice(names)
        ndim = self.scope.arrays[name][1]
        return self.rng.choice([f"len({name})", f"{name}.shape[{self.rng.randrange(ndim)}]",
                                f"{name}.size", f"{name}.ndim"])

    def index(self, array, axis, depth):
        """An index into `array` along `axis`: usually in range, sometimes
        negative, sometimes out of range."""
        safe = [v for v, a, ax in self.scope.safe if a == array and ax == axis]
        size = f"len({array})" if axis == 0 else f"{array}.shape[{axis}]"
        roll = self.rng.random()
        if safe and roll < 0.6:
            v = self.rng.choice(safe)
            return self.rng.choice([v] * 8 + [f"({size} - 1 - {v})", f"({v} - 1)",
                                              f"({v} + 1)", f"(-1 - {v})"])
        counters = list(self.scope.readonly)
        if counters and roll < 0.75:
            c = self.rng.choice(counters)
            return c if self.rng.random() < 0.2 else f"({c} % {size})"
        ints = self.variables("i64") + self.variables("i32")
        if self.rng.random() < 0.3:
            # the newer int kinds index too (not uint64: a known gap)
            ints += [n for k in ("u8", "u16", "u32", "i8", "i16") for n in self.variables(k)]
        if ints and roll < 0.85:
            v = self.rng.choice(ints)
            return v if self.rng.random() < 0.25 else f"({v} % {size})"
        return self.rng.choice(["0", "(-1)", f"({size} - 1)", f"({size} // 2)", "1", "2"])

    def element(self, name, depth):
        kind, ndim, writable, reverse, local = self.scope.arrays[name]
        if ndim == 1:
            return f"{name}[{self.index(name, 0, depth)}]"
        i, j = self.index(name, 0, depth), self.index(name, 1, depth)
        if self.avoid("B10") and not all(
                any(v == idx for v, a, ax in self.scope.safe if a == name) for idx in (i, j)):
            j = "0" if self.rng.random() < 0.5 else j
        return f"{name}[{i}, {j}]"

    def e_element(self, kind, depth):
        names = self.arrays(kind)
        return self.element(self.rng.choice(names), depth) if names else None

    BINOP_OPERANDS = {
        # result kind -> operand kind pairs ("lit" is a weak literal)
        "f64": [("f64", "f64"), ("f64", "i64"), ("i64", "f64"), ("f64", "f32"),
                ("f32", "f64"), ("i32", "f32"), ("f64", "lit"), ("lit", "f64"),
                ("i64", "f64"), ("f64", "i32")],
        "i64": [("i64", "i64"), ("i64", "i32"), ("i32", "i64"), ("i64", "lit"),
                ("lit", "i64")],
        "i32": [("i32", "i32"), ("i32", "lit"), ("lit", "i32")],
        "f32": [("f32", "f32"), ("f32", "lit"), ("lit", "f32")],
    }

    def operand(self, kind, partner, depth, op):
        if kind == "lit" and partner in NEW_INTS:
            if op == "**":
                return self.rng.choice(["2", "3", "0", "1"])
            if self.rng.random() < 0.03:
                # NEP 50: a Python int the typed operand cannot hold raises
                lo, hi = int_range(partner)
                return str(hi + 1) if self.rng.random() < 0.5 or lo == 0 else f"({lo - 1})"
            value = self.rng.choice([v for v in SMALL_INTS + [100, 127] if fits(partner, v)])
            return f"({value})" if value < 0 else str(value)
        if kind == "lit":
            if partner in ("f64", "f32") and self.rng.random() < 0.5:
                return self.float_literal(partner)
            if op == "**":
                return self.rng.choice(["2", "3", "0", "1", "(-1)", "0.5", "2.0"]
                                       if partner in ("f64", "f32") else ["2", "3", "0", "1"])
            if partner == "i32":
                if self.avoid("B7") or self.rng.random() < 0.98:
                    value = self.rng.choice(SMALL_INTS)
                    return f"({value})" if value < 0 else str(value)
                return self.rng.choice(["3000000000", "(-2147483649)"])
            return self.int_literal()
        return self.expr(kind, depth + 1)

    def e_binop(self, kind, depth):
        if kind == "bool":
            return None
        ops = ["+", "-", "*", "/", "//", "%", "**"]
        if kind in INTS:
            ops = ["+", "-", "*", "//", "%", "**", "&", "|", "^"]
            if kind == "i32":
                ops.remove("**")   # i32 ** i32 is i64
        op = self.rng.choices(ops, [5 if o in "+-*" else 2 for o in ops])[0]
        if kind == "f64" and op == "/" and self.rng.random() < 0.3:
            a, b = self.rng.choice([("i64", "i64"), ("i32", "i64"), ("i64", "lit")])
        elif kind in NEW_INTS:
            # same kind, a literal, or a signed/unsigned (or narrower) mix
            a, b = self.rng.choice([(kind, kind), (kind, kind), (kind, "lit"), ("lit", kind)]
                                   + typed_pairs(kind))
        elif MIXED_PAIRS.get(kind) and self.rng.random() < NEW_KIND_RATE / 2:
            a, b = self.rng.choice(MIXED_PAIRS[kind])
            if op == "/" and "f" not in a + b:
                op = "*"
        else:
            a, b = self.rng.choice(self.BINOP_OPERANDS[kind])
            if op == "/" and kind == "f64" and "f" not in a + b and b != "lit":
                return None
        if op == "**" and kind in NEW_INTS:
            left = self.operand(a if a != "lit" else kind, b, depth, op)
            right = self.rng.choice(["2", "3", "0", "1"]) if b == "lit" or \
                self.rng.random() < 0.6 else self.expr(b, depth + 1)
            return f"({left} ** {right})"
        if op == "**" and kind in ("i64",):
            left = self.operand(a if a != "lit" else "i64", b, depth, op)
            right = self.rng.choice(["2", "3", "0", "1", "5", f"({self.expr('i64', depth + 1)} % 4)",
                                     "(-1)"]) if self.rng.random() < 0.8 else self.expr(
                "i64", depth + 1)
            return f"({left} ** {right})"
        left = self.operand(a, b, depth, op)
        right = self.operand(b, a, depth, op)
        return f"({left} {op} {right})"

    def e_unary(self, kind, depth):
        if kind == "bool":
            return None
        inner = self.expr(kind, depth + 1)
        if kind in INTS and self.rng.random() < 0.4:
            return f"(~{inner})"
        return f"(-{inner})"

    def e_shift(self, kind, depth):
        """`a << n`, `a >> n`: Python ints (64-bit, `1 << 70 == 0`), typed
        ints, mixed signedness; counts negative (ValueError), in range, and
        the width or more."""
        if kind not in INTS:
            return None
        op = self.rng.choice(["<<", ">>"])
        roll = self.rng.random()
        if kind == "i64" and roll < 0.25:
            left = self.rng.choice(["1", "3", "(-5)", "(-1)", "1099511627776", "255"])
            count = self.rng.choice(SHIFT_COUNTS)
            return f"({left} {op} {f'({count})' if count < 0 else count})"
        if roll < 0.45:
            pairs = [p for p in typed_pairs(kind) if "bool" not in p] or [(kind, kind)]
            a, b = self.rng.choice(pairs)
            return f"({self.expr(a, depth + 1)} {op} {self.expr(b, depth + 1)})"
        left = self.expr(kind, depth + 1)
        if roll < 0.75:
            count = self.rng.choice([c for c in SHIFT_COUNTS if fits(kind, c)])
            right = f"({count})" if count < 0 else str(count)
        else:
            right = self.expr(kind, depth + 1)
        return f"({left} {op} {right})"

    def e_abs(self, kind, depth):
        if kind == "bool":
            return None
        return f"abs({self.expr(kind, depth + 1)})"

    def e_minmax(self, kind, depth):
        if kind == "bool":
            return None
        name = self.rng.choice(["min", "max"])
        pairs = {"f64": [("f64", "f64"), ("f64", "i64"), ("i64", "f64"), ("f64", "f64", "f64")],
                 "i64": [("i64", "i64"), ("i64", "i32"), ("i64", "i64", "i64")],
                 "i32": [("i32", "i32")], "f32": [("f32", "f32")]}.get(kind)
        if pairs is None or self.rng.random() < NEW_KIND_RATE / 2:
            # the newer int kinds: same kind, or a mix that promotes to `kind`
            pairs = [(kind, kind)] * 2 + [p for p in typed_pairs(kind) if "bool" not in p]
            if kind in ("f64", "f32"):
                pairs = [(kind, kind)] + MIXED_PAIRS[kind]
        if self.avoid("D1"):
            pairs = [p for p in pairs if not {"u64", "i64"} <= set(p)]
        args = ", ".join(self.expr(k, depth + 1) for k in self.rng.choice(pairs))
        return f"{name}({args})"

    def e_conditional(self, kind, depth):
        then = self.expr(kind, depth + 1)
        condition = self.expr('bool', depth + 1)
        if condition in ("True", "False") and self.avoid("A6"):
            condition = self.e_compare("bool", depth + 1)
        return f"({then} if {condition} else {self.expr(kind, depth + 1)})"

    def e_cast(self, kind, depth):
        if kind in NEW_INTS:
            # np.uint8(x) / kiln.u8(x): ints wrap (numpy's astype), floats
            # truncate (kept inside the target's range: C leaves the rest
            # undefined, and float -> uint64 >= 2**63 is a known gap)
            spell = self.rng.choice([f"np.{NP_DTYPE[kind][3:]}", f"kiln.{kind}"])
            source = self.rng.choice(INTS + ("bool", "f64", "i64"))
            inner = self.expr(source, depth + 1)
            if source == "f64":
                lo, hi = int_range(kind)
                inner = f"min(max({inner}, {float(lo)!r}), {float(min(hi, 10**18))!r})"
            return f"{spell}({inner})"
        new = self.new_kind()
        if new and kind in ("f64", "i64", "bool"):
            if new == "u64" and kind == "i64":
                new = "u32"      # int() of a uint64 beyond int64 has no 64-bit answer
            inner = self.expr(new, depth + 1)
            return {"f64": f"float({inner})", "i64": f"int({inner})",
                    "bool": f"bool({inner})"}[kind]
        if kind == "f64":
            source = self.rng.choice(["i64", "f64", "i32", "f32", "bool"])
            if source == "f32" and self.avoid("B4"):
                source = "f64"
            inner = self.expr(source, depth + 1)
            return self.rng.choice([f"float({inner})", f"np.float64({inner})"]) \
                if source != "bool" else f"float({inner})"
        if kind == "i64":
            source = self.rng.choice(["f64", "f64", "i32", "bool", "f32"])
            if source == "i32" and self.avoid("B4"):
                source = "f64"
            inner = self.expr(source, depth + 1)
            if source in ("f64", "f32"):
                return self.rng.choice([f"int({inner})", f"round({inner})",
                                        f"math.{self.rng.choice(MATH_TO_INT)}({inner})"])
            return f"int({inner})"
        if kind == "f32":
            inner = self.expr(self.rng.choice(["f64", "f32", "i64"]), depth + 1)
            return self.rng.choice([f"kiln.f32({inner})", f"np.float32({inner})"])
        if kind == "i32":
            return f"np.int32({self.expr('i32', depth + 1)})"
        if kind == "bool":
            return f"bool({self.expr(self.rng.choice(NUMERIC), depth + 1)})"
        return None

    def e_math(self, kind, depth):
        if kind != "f64":
            return None
        arg_kind = self.rng.choice(["f64", "f64", "f64", "i64", "f32"])
        if self.rng.random() < 0.7:
            name = self.rng.choice(MATH_UNARY)
            args = [self.expr(arg_kind, depth + 1)]
        else:
            name = self.rng.choice(MATH_BINARY)
            if name == "hypot" and self.avoid("B11"):
                name = "atan2"
            if name == "copysign" and self.avoid("B13"):
                name = "fmod"
            args = [self.expr(arg_kind, depth + 1), self.expr("f64", depth + 1)]
        if name in TRANSCENDENTAL:
            self.uses_transcendental = True
        if self.rng.random() < 0.1:
            return self.rng.choice(["math.pi", "math.e", "math.tau", "math.inf"])
        if name == "atan2" and self.avoid("N1") and not any(map(has_variable, args)):
            name = "fmod"
        return f"math.{name}({', '.join(args)})"

    def e_numpy(self, kind, depth):
        if kind not in ("f64", "f32"):
            return None
        if self.rng.random() < 0.75:
            name = self.rng.choice(NP_UNARY)
            args = [self.expr(kind, depth + 1)]
        else:
            name = self.rng.choice(NP_BINARY)
            if name == "hypot" and self.avoid("B11"):
                name = "arctan2"
            if name == "copysign" and self.avoid("B13"):
                name = "fmod"
            args = [self.expr(kind, depth + 1), self.expr(kind, depth + 1)]
        if name in TRANSCENDENTAL:
            self.uses_transcendental = True
            self.uses_numpy_transcendental = True
        if name == "arctan2" and self.avoid("N1") and not any(map(has_variable, args)):
            name = "fmod"
        return f"np.{name}({', '.join(args)})"

    def avoid_helper_in_array_expression(self) -> bool:
        """Kiln computes an array operation before a later helper call of the
        same expression (A3) only where it may allocate: at the top level of
        a function body; elsewhere such an expression is refused."""
        return self.avoid("A3") or bool(self.statement_depth or self.loop_depth)

    def e_helper(self, kind, depth):
        if self.no_helper_calls or (self.avoid("A3") and self.statement_reduces):
            return None     # a helper after a reduction in one statement (A3)
        fitting = [h for h in self.helpers if h.returns == kind]
        if not fitting:
            return None
        helper = self.rng.choice(fitting)
        self.statement_calls = True
        return self.call(helper, depth)

    def call(self, helper, depth):
        args = []
        for p in helper.params:
            if p.ndim:
                names = [n for n in self.arrays(p.kind)
                         if self.scope.arrays[n][1] == p.ndim] + [
                    n for n, spec in self.arrays3.items() if spec[0] == p.kind and p.ndim == spec[1]]
                if not names:
                    return None
                args.append(self.rng.choice(names))
            else:
                args.append(self.expr(p.kind, depth + 1))
        if self.rng.random() < 0.3:
            return f"{helper.name}({', '.join(f'{p.name}={a}' for p, a in zip(helper.params, args))})"
        return f"{helper.name}({', '.join(args)})"

    def e_compare(self, kind, depth):
        if kind != "bool":
            return None
        a = self.new_kind() or self.rng.choice(NUMERIC)
        b = a if self.rng.random() < 0.6 else (self.new_kind() or self.rng.choice(NUMERIC))
        if self.avoid("D1") and "u64" in (a, b) and "i64" in (a, b):
            a = b = "u64"
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"({self.expr(a, depth + 1)} {op} {self.expr(b, depth + 1)})"

    def e_chain(self, kind, depth):
        k = self.new_kind() or self.rng.choice(NUMERIC)
        ops = [self.rng.choice(["<", "<=", "<", "!="]) for _ in range(self.rng.choice([2, 2, 3]))]
        parts = [self.expr(k, depth + 1)]
        for op in ops:
            parts += [op, self.expr(k, depth + 1)]
        return f"({' '.join(parts)})"

    def e_logic(self, kind, depth):
        op = self.rng.choice(["and", "or"])
        return f"({self.expr('bool', depth + 1)} {op} {self.expr('bool', depth + 1)})"

    def e_not(self, kind, depth):
        return f"(not {self.expr('bool', depth + 1)})"

    def e_predicate(self, kind, depth):
        module = self.rng.choice(["math", "np"])
        return f"{module}.{self.rng.choice(MATH_PREDICATES)}({self.expr('f64', depth + 1)})"

    # ---------------------------------------------------- array expressions
    def array_terms(self, shape, kinds=None, full=True, writable=False, any_shape=False,
                    subscripts_only=False):
        """(name, template, kind, shape) of the views (VIEWS_1D/2D) of arrays
        in scope whose shape is `shape` (full) or broadcasts to it."""
        out = []
        for name, (kind, ndim, w, reverse, local) in [*self.scope.arrays.items(),
                                                      *self.arrays3.items()]:
            if (kinds is not None and kind not in kinds) or (writable and not w) \
                    or name not in self.shapes:
                continue
            for template, spec in VIEWS[ndim]:
                if subscripts_only and template == "{a}":
                    continue
                if template != "{a}" and local and self.avoid("B14"):
                    continue
                if writable and self.avoid("B6") and (reverse or reversed_view(template)):
                    continue
                view = view_shape(self.shapes[name], spec, template)
                if any_shape and (len(view) == len(shape) if full else len(view) <= len(shape)) \
                        or shape_fits(view, shape, full):
                    out.append((name, template, kind, view))
            if ndim >= 2 and not writable and not (local and self.avoid("B14")):
                # `m.T`: a view with the axes reversed
                view = tuple(reversed(self.shapes[name]))
                if any_shape and (len(view) == len(shape) if full else len(view) <= len(shape)) \
                        or shape_fits(view, shape, full):
                    out.append((name, "{a}.T", kind, view))
        return out

    def choose_term(self, terms):
        if self.prefer_array:
            preferred = [t for t in terms if t[0] == self.prefer_array]
            if preferred and self.rng.random() < 0.5:
                return self.rng.choice(preferred)
        return self.rng.choice(terms)

    def term_text(self, term):
        name, template = term[0], term[1]
        i = self.index(name, 0, 0) if "{i}" in template else ""
        j = self.index(name, 1, 0) if "{j}" in template else ""
        k = self.index(name, 2, 0) if "{k}" in template else ""
        return template.format(a=name, i=i, j=j, k=k)

    def a_expr(self, kind, shape, depth, full=True):
        """An array expression of dtype `kind` whose shape is `shape` (full)
        or broadcasts to it; None when the arrays in scope cannot make one."""
        if depth >= 2 or self.rng.random() < 0.35:
            return self.a_leaf(kind, shape, full) or self.a_convert(kind, shape, full) or (
                self.a_op(kind, shape, depth, full) if depth < 2 else None)
        return self.a_op(kind, shape, depth, full) or self.a_leaf(kind, shape, full) or \
            self.a_convert(kind, shape, full)

    def a_op(self, kind, shape, depth, full=True):
        """An array expression with an operator or ufunc at its top."""
        for _ in range(4):
            choice = self.pick(self.array_expression_weights(), list(ARRAY_EXPRESSIONS))
            text = getattr(self, "a_" + choice)(kind, shape, depth, full)
            if text:
                return text
        return None

    def a_leaf(self, kind, shape, full=True):
        mismatch = self.rng.random() < ARRAY_MISMATCH_RATE
        terms = self.array_terms(shape, {kind}, full, any_shape=mismatch)
        if not terms and mismatch:
            terms = self.array_terms(shape, {kind}, full)
        if not terms:
            return None
        text = self.term_text(self.choose_term(terms))
        if self.avoid("A4"):
            # a view read twice lets integer algebra fold the statement to a
            # copy ((a + b) - a, x | x, x += y - x)
            if text in self.used_leaves:
                return None
            self.used_leaves.add(text)
        return text

    def a_convert(self, kind, shape, full=True):
        """A view of another dtype made `kind` by an operator (`x_i32 * 1.0`
        is float64, `x_u8 + np.int32(0)` int32, np.isfinite(x) bool)."""
        if kind == "f64":
            sources = [k for k in ELEMENT_KINDS if k != kind]
        elif kind == "f32":
            sources = ["i8", "i16", "u8", "u16", "bool"]
        elif kind == "bool":
            # np.isnan of an int array is a constant (folds, A4)
            sources = [k for k in ELEMENT_KINDS if k != "bool"] if not self.avoid("A4") \
                else ["f64", "f32"]
        else:
            sources = [k for k in INTS + ("bool",) if k != kind and promote(k, kind) == kind]
        terms = self.array_terms(shape, set(sources), full)
        if not terms:
            return None
        term = self.choose_term(terms)
        text, source = self.term_text(term), term[2]
        one, zero = ("2.0", "1") if self.avoid("A4") else ("1.0", "0")
        if kind == "f64":
            return f"({text} * np.float64({one}))" if source == "f32" else f"({text} * {one})"
        if kind == "f32":
            return f"({text} * kiln.f32({one}))"
        if kind == "bool":
            return f"np.{self.rng.choice(MATH_PREDICATES)}({text})"
        return f"({text} + {NP_DTYPE[kind]}({zero}))"

    def array_scalar(self, kind, array_kind, result, op):
        """A scalar operand of kind `kind` beside an array of `array_kind`:
        a Python literal (weak) when that still gives `result`, else a typed
        expression."""
        literal = {"f64": "float", "f32": "float", "bool": "bool"}.get(kind, "int")
        try:
            weak_ok = array_arithmetic_kind(op, weak_promote(array_kind, literal)) == result \
                if op else weak_promote(array_kind, literal) == array_kind == kind
        except TypeError:
            weak_ok = False
        no_identity = self.avoid("A4")
        # A4: a scalar whose value the compiler knows may be an identity (x & True,
        # x + (p - p)): only parameters, or literals that are no identity
        parameters = [n for n, k in self.scope.scalars.items()
                      if k == kind and n[0] in "pq" and n[1:].isdigit()]
        if weak_ok and self.rng.random() < 0.55:
            if literal == "bool":
                if no_identity:
                    return self.rng.choice(parameters) if parameters else None
                return self.rng.choice(["True", "False"])
            if literal == "float":
                text = self.float_literal(array_kind if array_kind in ("f32", "f64") else "f64")
                if no_identity and text in ("0.0", "1.0", "(-0.0)"):
                    text = "2.5"
                return text
            if array_kind in INTS and array_kind != "i64":
                if self.rng.random() < 0.03 and not (array_kind == "i32" and self.avoid("B7")):
                    # NEP 50: a Python int the array's dtype cannot hold raises
                    lo, hi = int_range(array_kind)
                    if array_kind == "u64":
                        return "(-1)"     # 2**64 does not fit Kiln's 64-bit literals
                    return str(hi + 1) if lo == 0 or self.rng.random() < 0.5 else f"({lo - 1})"
                value = self.rng.choice([v for v in SMALL_INTS + [100, 127] if fits(array_kind, v)
                                         and not (no_identity and v in (0, 1, -1))])
                return f"({value})" if value < 0 else str(value)
            text = self.int_literal() if array_kind == "i64" else self.rng.choice(
                ["0", "1", "2", "3", "(-1)", "7"])
            return "3" if no_identity and text in ("0", "1", "(-1)") else text
        if no_identity:
            if parameters:
                return self.rng.choice(parameters)
            if kind == "bool":
                return None
            return f"{NP_DTYPE[kind]}({'2.5' if kind in FLOAT_KINDS_G else 3})"
        saved = self.no_helper_calls
        self.no_helper_calls = self.avoid_helper_in_array_expression()
        try:
            return self.expr(kind, 2)
        finally:
            self.no_helper_calls = saved

    def binop_pairs(self, kind, op):
        """(array kind, other kind) whose array operator gives `kind`."""
        pairs = []
        for a in ELEMENT_KINDS:
            for b in ELEMENT_KINDS:
                try:
                    if array_arithmetic_kind(op, promote(a, b)) == kind:
                        pairs.append((a, b))
                except TypeError:
                    pass
        return pairs

    def a_binop(self, kind, shape, depth, full=True):
        if kind == "bool":
            ops, weights = ["&", "|", "^"], [1, 1, 1]
        elif kind in INTS:
            ops, weights = ["+", "-", "*", "**", "&", "|", "^"], [4, 4, 4, 1, 1, 1, 1]
        else:
            ops, weights = ["+", "-", "*", "/", "**"], [4, 4, 4, 3, 2]
        op = self.rng.choices(ops, weights)[0]
        if op == "**":
            return self.a_power(kind, shape, depth, full)
        pairs = self.binop_pairs(kind, op)
        if not pairs:
            return None
        same = (kind, kind) if (kind, kind) in pairs else None
        for _ in range(3):
            a, b = same if same and self.rng.random() < 0.6 else self.rng.choice(pairs)
            form = self.rng.choices(["array", "scalar", "scalar-first"], [5, 4, 1])[0]
            array = self.a_expr(a, shape, depth + 1, full)
            if array is None:
                continue
            if form == "array":
                other = self.a_expr(b, shape, depth + 1, full=False)
                if other is None or (other == array and self.avoid("A4")):
                    continue          # x | x, x - x (then | 0): folds to a copy
                if self.rng.random() < 0.3:
                    return f"({other} {op} {array})"
                return f"({array} {op} {other})"
            scalar = self.array_scalar(b, a, kind, op)
            if scalar is None:
                continue
            if form == "scalar-first":
                return f"({scalar} {op} {array})"
            return f"({array} {op} {scalar})"
        return None

    def a_power(self, kind, shape, depth, full=True):
        if kind == "bool":
            return None
        base = self.a_expr(kind, shape, depth + 1, full)
        if base is None:
            return None
        if kind in INTS:
            return f"({base} ** {self.rng.choice(self.int_exponents())})"
        roll = self.rng.random()
        exponent = None
        if 0.55 <= roll < 0.7:
            saved = self.no_helper_calls
            self.no_helper_calls = self.avoid_helper_in_array_expression()
            candidate = self.expr(kind, 2)
            self.no_helper_calls = saved
            # a variable exponent: pow (a constant one takes numpy's fast paths)
            exponent = candidate if has_variable(candidate) else None
        elif 0.7 <= roll < 0.85:
            exponent = self.a_expr(kind, shape, depth + 1, full=False)
        elif roll >= 0.85:
            literal = self.rng.choice(["2.0", "0.5", "10.0", "(-1.5)", "1.0", "2"])
            self.mark_transcendental()
            return f"({literal} ** {base})"
        if exponent is None:
            exponent = self.rng.choice(self.float_exponents())
            if exponent not in FAST_EXPONENTS:
                self.mark_transcendental()
        else:
            self.mark_transcendental()
        return f"({base} ** {exponent})"

    def int_exponents(self):
        return [e for e in INT_EXPONENTS if not (e == "1" and self.avoid("A4"))]

    def float_exponents(self):
        return [e for e in FLOAT_EXPONENTS if not (e == "1" and self.avoid("A4"))]

    def mark_transcendental(self):
        self.uses_transcendental = True
        self.uses_numpy_transcendental = True

    def a_unary(self, kind, shape, depth, full=True):
        if kind == "bool":
            op = "~"
        elif kind in INTS:
            op = self.rng.choice(["-", "~", "+"])
        else:
            op = self.rng.choice(["-", "-", "+"])
        if op == "+" and self.avoid("A4"):
            return None               # +x is a copy
        inner = self.a_expr(kind, shape, depth + 1, full)
        if inner and self.avoid("A4") and inner.startswith(f"({op}"):
            return None        # -(-x) and ~(~x) fold to a copy
        return f"({op}{inner})" if inner else None

    def a_ufunc(self, kind, shape, depth, full=True):
        if kind == "bool":
            if self.rng.random() < 0.2 and not self.avoid("A1"):
                name = self.rng.choice(["minimum", "maximum"])
                a = self.a_expr("bool", shape, depth + 1, full)
                b = self.a_expr("bool", shape, depth + 1, full=False)
                return f"np.{name}({a}, {b})" if a and b else None
            source = self.rng.choice(["f64", "f64", "f32"] + (
                [] if self.avoid("A4") else ["i64", "i32", "u8"]))
            inner = self.a_expr(source, shape, depth + 1, full)
            return f"np.{self.rng.choice(MATH_PREDICATES)}({inner})" if inner else None
        if kind in INTS:
            names = ["abs", "absolute", "square", "minimum", "maximum"] + (
                [] if self.avoid("A2") else ["fmod"])
            name = self.rng.choice(names)
            first = self.a_expr(kind, shape, depth + 1, full)
            if first is None:
                return None
            if name in ("abs", "absolute", "square"):
                if name != "square" and kind in UNSIGNED_G and self.avoid("A4"):
                    return None       # abs of an unsigned array is the array
                return f"np.{name}({first})"
            second = self.a_expr(kind, shape, depth + 1, full=False) \
                if self.rng.random() < 0.5 else self.array_scalar(kind, kind, kind, None)
            if second == first and self.avoid("A4"):
                return None           # np.minimum(x, x) is x
            return f"np.{name}({first}, {second})" if second else None
        if self.rng.random() < 0.65:
            name = self.rng.choice(ARRAY_UNARY_UFUNCS)
            source = kind
            if self.rng.random() < 0.2 and name not in ("abs", "absolute", "square"):
                source = self.rng.choice(["i32", "i64", "u32", "u64"] if kind == "f64"
                                         else ["i16", "u16"])
            inner = self.a_expr(source, shape, depth + 1, full)
            if inner is None:
                return None
            args = [inner]
        else:
            name = self.rng.choice(ARRAY_BINARY_UFUNCS)
            if name == "hypot" and self.avoid("B11"):
                name = "arctan2"
            if name == "copysign" and self.avoid("B13"):
                name = "fmod"
            kinds = (kind, kind)
            if name in ("arctan2", "hypot", "copysign") and self.rng.random() < 0.15 and \
                    not self.avoid("A5"):
                # two int arrays: numpy's loop is the smallest float both cast to
                kinds = self.rng.choice([("i16", "u16"), ("u16", "i8"), ("i16", "u8"),
                                         ("i32", "u16")] if kind == "f32" else
                                        [("i32", "u32"), ("i64", "u16"), ("u32", "i8")])
                if kind == "f32":
                    kinds = kinds if kinds != ("i32", "u16") else ("i16", "i16")
            first = self.a_expr(kinds[0], shape, depth + 1, full)
            if first is None:
                return None
            second = self.a_expr(kinds[1], shape, depth + 1, full=False) \
                if self.rng.random() < 0.5 or kinds[1] != kind else \
                self.array_scalar(kind, kind, kind, None)
            if second is None:
                return None
            args = [first, second] if self.rng.random() < 0.75 else [second, first]
        if name in TRANSCENDENTAL:
            self.mark_transcendental()
        return f"np.{name}({', '.join(args)})"

    def array_result(self, kind, ndim):
        """A returned array expression of dtype `kind` and `ndim` axes."""
        self.used_leaves = set()
        drivers = [t for t in self.array_terms(("?",) * ndim, any_shape=True)
                   if len(t[3]) == ndim]
        for _ in range(3):
            if not drivers:
                return None
            text = self.a_op(kind, self.rng.choice(drivers)[3], 0)
            if text:
                return text
        return None

    def s_array_assign(self, depth):
        """`y = <array expression>`: a new array (top level only)."""
        if depth or self.loop_depth:
            return False
        self.used_leaves = set()
        drivers = [t for n in ARRAY_RANKS for t in self.array_terms(("?",) * n, any_shape=True)]
        if not drivers:
            return False
        driver = self.rng.choice(drivers)
        kind = driver[2] if self.rng.random() < 0.7 else self.rng.choice(ELEMENT_KINDS)
        text = self.a_op(kind, driver[3], 0)
        if text is None:
            return False
        name = self.fresh("y")
        self.emit(depth, f"{name} = {text}")
        ndim = len(driver[3])
        (self.arrays3 if ndim >= 3 else self.scope.arrays)[name] = (kind, ndim, True, False, True)
        self.shapes[name] = driver[3]

    def s_array_store(self, depth):
        """`x[a:b] = value`, `m[i] = row`, `m[:, j] = 7.0`: the value (an
        array expression, often of the same array: overlap, or a scalar)
        broadcast to the view."""
        targets = [t for n in ARRAY_RANKS for t in self.array_terms(
            ("?",) * n, writable=True, any_shape=True, subscripts_only=True)]
        if not targets:
            return False
        name, template, kind, shape = self.rng.choice(targets)
        target = self.term_text((name, template))
        self.used_leaves = {target}
        if self.rng.random() < 0.35:
            value = self.view_scalar(kind)
        else:
            if kind in FLOAT_KINDS_G:
                sources = [kind] * 6 + list(ELEMENT_KINDS)
            elif kind == "bool":
                sources = ["bool"] * 4 + list(INTS)
            else:
                sources = [kind] * 6 + list(INTS + ("bool",))
            value_shape = shape[1:] if len(shape) >= 2 and self.rng.random() < 0.15 else shape
            self.prefer_array = name
            try:
                value = self.a_expr(self.rng.choice(sources), value_shape, 1)
            finally:
                self.prefer_array = None
            if value is None:
                return False
        self.emit(depth, f"{target} = {value}")

    def view_scalar(self, kind):
        """A scalar stored into a view of dtype `kind`: converted as numpy
        does (ints wrap, a Python int that does not fit raises); a float into
        an int view is mostly kept finite and in range (NaN, inf and beyond
        int64 raise as in numpy; beyond a narrow type's range C leaves it
        undefined, so never)."""
        if kind in FLOAT_KINDS_G or kind == "bool":
            return self.expr(kind if self.rng.random() < 0.7 else
                             self.rng.choice(NUMERIC + ("bool",)), 1)
        source = kind if self.rng.random() < 0.7 else self.rng.choice(
            INTS + ("bool", "f64", "f32"))
        if source not in FLOAT_KINDS_G:
            return self.expr(source, 1)
        value = self.expr(source, 1)
        if kind in ("i64", "i32"):
            return value if self.rng.random() < 0.3 else f"float(max(min({value}, 1e18), -1e18))"
        lo, hi = int_range(kind)
        return f"min(max({value}, {float(lo)!r}), {float(min(hi, 10**18))!r})"

    def s_array_augassign(self, depth):
        """`x += y`, `x[1:] -= x[:-1]`, `m[:, j] *= 2.0`: in place, numpy's
        same_kind rule for the result."""
        targets = [t for n in ARRAY_RANKS for t in self.array_terms(
            ("?",) * n, writable=True, any_shape=True)]
        if not targets:
            return False
        name, template, kind, shape = self.rng.choice(targets)
        target = self.term_text((name, template))
        self.used_leaves = {target}
        if kind == "bool":
            ops = ["&", "|", "^"]
        elif kind in INTS:
            ops = ["+", "-", "*", "**", "&", "|", "^"]
        else:
            ops = ["+", "-", "*", "/", "**"]
        op = self.rng.choice(ops)
        self.prefer_array = name
        try:
            if op == "**":
                if kind in INTS:
                    operand = self.rng.choice(self.int_exponents())
                elif self.rng.random() < 0.7:
                    operand = self.rng.choice(self.float_exponents())
                    if operand not in FAST_EXPONENTS:
                        self.mark_transcendental()
                else:
                    operand = self.a_expr(kind, shape, 1, full=False)
                    self.mark_transcendental()
            else:
                kinds = [v for v in ELEMENT_KINDS if self.in_place_ok(op, kind, v)]
                other = kind if kind in kinds and self.rng.random() < 0.6 else \
                    self.rng.choice(kinds)
                if self.rng.random() < 0.6:
                    operand_shape = shape[1:] if len(shape) >= 2 and \
                        self.rng.random() < 0.2 else shape
                    operand = self.a_expr(other, operand_shape, 1, full=False)
                else:
                    operand = self.array_scalar(other, kind, None, None) \
                        if other == kind else self.array_scalar(other, kind, "?", op)
        finally:
            self.prefer_array = None
        if operand is None or (operand == target and self.avoid("A4")):
            return False              # x &= x is x
        self.emit(depth, f"{target} {op}= {operand}")

    @staticmethod
    def in_place_ok(op, target, other):
        try:
            return same_kind(array_arithmetic_kind(op, promote(target, other)), target)
        except TypeError:
            return False

    # ------------------------------------ reductions, selections, shape functions
    def reduce_options(self, kind, axis=False):
        """(function, source kinds) of the reductions whose result is `kind`
        (numpy's: sums of narrow ints are int64, of unsigned ones uint64,
        means of ints float64)."""
        signed = ("i8", "i16", "i32", "i64", "bool")
        if kind in FLOAT_KINDS_G:
            options = [(f, (kind,)) for f in ("sum", "prod", "mean", "max", "min", "amax",
                                              "amin", "var", "std")]
            if kind == "f64":
                options += [(f, INTS + ("bool",)) for f in ("mean", "var", "std", "average")]
                options.append(("average", ("f64",)))
            return options
        if kind == "bool":
            return [("any", ELEMENT_KINDS), ("all", ELEMENT_KINDS)]
        if kind == "i64":
            return [("sum", signed), ("prod", signed), ("max", ("i64",)), ("min", ("i64",)),
                    ("argmax", ELEMENT_KINDS), ("argmin", ELEMENT_KINDS)]
        if kind == "u64":
            return [("sum", UNSIGNED_G), ("prod", UNSIGNED_G), ("max", ("u64",)),
                    ("amin", ("u64",))]
        return [("max", (kind,)), ("min", (kind,)), ("amax", (kind,))]

    def reduce_call(self, name, operand, extra):
        """`np.sum(E, ...)` or the method `E.sum(...)`."""
        arguments = "".join(f", {e}" for e in extra)
        if name in ("amax", "amin", "average") or self.rng.random() < 0.55:
            return f"np.{name}({operand}{arguments})"
        method_arguments = ", ".join(extra)
        return f"{operand}.{name}({method_arguments})"

    def ddof(self, name):
        if name in ("var", "std") and self.rng.random() < 0.4:
            return [self.rng.choice(["ddof=1", "ddof=0", "ddof=2"])]
        return []

    def e_reduce(self, kind, depth):
        """A whole-array reduction (a number): np.sum(x * 2), m.max(),
        np.dot(x, y), np.argmax(x), np.any(x > 0)."""
        if self.trip > 20 or (self.avoid("A3") and self.statement_calls):
            return None
        if not (self.scope.arrays or self.arrays3):
            return None
        saved = self.used_leaves
        self.used_leaves = set()
        try:
            if kind in NUMERIC and self.rng.random() < 0.15:
                terms = [t for t in self.array_terms(("?",), {kind}, any_shape=True)
                         if len(t[3]) == 1]
                if not terms:
                    return None
                shape = self.rng.choice(terms)[3]
                a = self.a_expr(kind, shape, 1)
                b = self.a_expr(kind, shape, 1)
                if a is None or b is None:
                    return None
                self.statement_reduces = True
                return f"np.dot({a}, {b})"
            name, sources = self.rng.choice(self.reduce_options(kind))
            source = self.rng.choice(sources)
            if kind == "bool" and self.rng.random() < 0.5:
                source = "bool"
            terms = [t for n in ARRAY_RANKS for t in self.array_terms(("?",) * n, {source},
                                                                      any_shape=True)]
            if source == "bool" and not terms:
                terms = [(None, None, "bool", t[3]) for n in (1, 2)
                         for t in self.array_terms(("?",) * n, any_shape=True)]
            if not terms:
                return None
            operand = self.a_expr(source, self.rng.choice(terms)[3], 1)
            if operand is None:
                return None
            self.statement_reduces = True
            return self.reduce_call(name, operand, self.ddof(name))
        finally:
            self.used_leaves = saved

    def compare_scalar(self, kind):
        """A number compared with an array of `kind`: a literal (now and then
        one the dtype cannot hold: exact in numpy 2) or a typed value."""
        roll = self.rng.random()
        if roll < 0.55:
            if kind in FLOAT_KINDS_G:
                return self.float_literal(kind)
            if kind == "bool":
                return self.rng.choice(["True", "False", "0", "1"])
            if roll < 0.05:
                return self.rng.choice(["1099511627776", "(-1)", "300", "(-129)", "70000"])
            value = self.rng.choice([v for v in SMALL_INTS + [100] if fits(kind, v)])
            return f"({value})" if value < 0 else str(value)
        saved = self.no_helper_calls
        self.no_helper_calls = self.avoid_helper_in_array_expression()
        try:
            other = kind if kind in NUMERIC and roll < 0.8 else self.rng.choice(NUMERIC)
            if {kind, other} == {"u64", "i64"} and self.avoid("D1"):
                other = "u64"
            return self.expr(other, 2)
        finally:
            self.no_helper_calls = saved

    def a_compare(self, kind, shape, depth, full=True):
        if kind != "bool":
            return None
        source = self.rng.choice(["f64", "f64", "i64", "i32", "f32"]) \
            if self.rng.random() < 0.7 else self.rng.choice(ELEMENT_KINDS)
        left = self.a_expr(source, shape, depth + 1, full)
        if left is None:
            return None
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if self.rng.random() < 0.35:
            other = source if self.rng.random() < 0.6 else self.rng.choice(ELEMENT_KINDS)
            right = self.a_expr(other, shape, depth + 1, full=False)
        else:
            right = self.compare_scalar(source)
        if right is None:
            return None
        return f"({left} {op} {right})" if self.rng.random() < 0.85 else f"({right} {op} {left})"

    def a_where(self, kind, shape, depth, full=True):
        condition = self.a_expr("bool", shape, depth + 1, full=False)
        a = self.a_expr(kind, shape, depth + 1, full)
        if condition is None or a is None:
            return None
        b = self.a_expr(kind, shape, depth + 1, full=False) if self.rng.random() < 0.5 \
            else self.array_scalar(kind, kind, kind, None)
        if b is None:
            return None
        a, b = (a, b) if self.rng.random() < 0.6 else (b, a)
        return f"np.where({condition}, {a}, {b})"

    def a_clip(self, kind, shape, depth, full=True):
        if kind == "bool":
            return None
        a = self.a_expr(kind, shape, depth + 1, full)
        low = self.array_scalar(kind, kind, kind, None)
        high = self.array_scalar(kind, kind, kind, None)
        if None in (a, low, high):
            return None
        return f"np.clip({a}, {low}, {high})"

    def a_logical(self, kind, shape, depth, full=True):
        if kind != "bool":
            return None
        name = self.rng.choice(["logical_and", "logical_or", "logical_xor", "logical_not"])
        first = self.a_expr(self.rng.choice(ELEMENT_KINDS), shape, depth + 1, full)
        if first is None:
            return None
        if name == "logical_not":
            return f"np.logical_not({first})"
        if self.rng.random() < 0.7:
            second = self.a_expr(self.rng.choice(ELEMENT_KINDS), shape, depth + 1, full=False)
        else:
            second = self.rng.choice(["0", "1", "True", "False", "2.5", "0.0"])
        if second is None:
            return None
        return f"np.{name}({first}, {second})"

    def a_axis_reduce(self, kind, shape, depth, full=True):
        """np.sum(m, axis=0), m.max(1), np.mean(a, axis=-1, keepdims=True),
        np.argmax(m, axis=1), x.any(axis=0)."""
        name, sources = self.rng.choice(self.reduce_options(kind))
        source = self.rng.choice(sources)
        arg = name in ("argmin", "argmax")
        keep = not arg and name != "average" and self.rng.random() < 0.3
        candidates = []
        ndim = len(shape) + (0 if keep else 1)
        if ndim > max(ARRAY_RANKS):
            return None
        for t in self.array_terms(("?",) * ndim, {source}, any_shape=True):
            s = t[3]
            for axis in range(len(s)):
                result = s[:axis] + (("#1",) if keep else ()) + s[axis + 1:]
                if shape_fits(result, shape, full):
                    candidates.append((s, axis))
        if not candidates:
            return None
        s, axis = self.rng.choice(candidates)
        operand = self.a_expr(source, s, depth + 1)
        if operand is None:
            return None
        spelled = self.rng.choice([axis, axis - len(s)])
        if arg or keep or self.rng.random() < 0.6:
            extra = [f"axis={spelled}"]
        else:
            extra = [str(spelled)]
        if keep:
            extra.append("keepdims=True")
        return self.reduce_call(name, operand, extra + self.ddof(name))

    def a_scan(self, kind, shape, depth, full=True):
        sources = {"f64": ("f64",), "f32": ("f32",), "i64": ("i8", "i16", "i32", "i64", "bool"),
                   "u64": UNSIGNED_G}.get(kind)
        if not sources:
            return None
        name = self.rng.choice(["cumsum", "cumsum", "cumprod"])
        # the operand has the result's shape exactly (its axes are named)
        operand = self.a_expr(self.rng.choice(sources), shape, depth + 1)
        if operand is None:
            return None
        if len(shape) == 1 and self.rng.random() < 0.6:
            extra = []
        else:
            axis = self.rng.randrange(len(shape))
            extra = [f"axis={self.rng.choice([axis, axis - len(shape)])}"]
        return self.reduce_call(name, operand, extra)

    def small_shift(self):
        ints = self.variables("i64")
        if ints and self.rng.random() < 0.3:
            return self.rng.choice(ints)
        return self.rng.choice(["1", "(-1)", "2", "(-3)", "0", "7", "+1"])

    def a_same_shape(self, kind, shape, depth, full=True):
        """Functions that keep the shape: np.flip, np.roll, np.tril/triu,
        np.diff, np.transpose / .T, .copy(), .astype(t)."""
        ndim = len(shape)
        choices = ["flip", "roll", "copy", "astype", "diff"] + (
            ["tril", "transpose"] if ndim == 2 else ["transpose"] if ndim >= 3 else [])
        choice = self.rng.choice(choices)
        if choice == "transpose":
            operand = self.a_expr(kind, tuple(reversed(shape)), depth + 1)
            if operand is None:
                return None
            forms = [f"np.transpose({operand})", f"{operand}.transpose()"]
            if re.fullmatch(r"\w+", operand):
                forms.append(f"{operand}.T")    # `.T` of an expression falls back (FINDINGS)
            return self.rng.choice(forms)
        if choice == "astype":
            if kind in FLOAT_KINDS_G:
                sources = [k for k in ELEMENT_KINDS if k != kind]
            else:
                sources = [k for k in INTS + ("bool",) if k != kind]
            source = self.rng.choice(sources)
            operand = self.a_expr(source, shape, depth + 1)
            if operand is None:
                return None
            return f"{operand}.astype({NP_DTYPE[kind]})"
        if choice == "diff":
            axis = self.rng.randrange(ndim)
            n = self.rng.choice([1, 1, 2, 0])
            m = re.fullmatch(r"(.*)-(\d+)", shape[axis])
            if n and not (m and int(m.group(2)) >= n):
                return None
            if n:
                k = int(m.group(2)) - n
                base = m.group(1) if k == 0 else f"{m.group(1)}-{k}"
                source_shape = shape[:axis] + (base,) + shape[axis + 1:]
            else:
                source_shape = shape
            operand = self.a_expr(kind, source_shape, depth + 1)
            if operand is None:
                return None
            extra = ([f"n={n}"] if n != 1 or self.rng.random() < 0.3 else []) + (
                [f"axis={axis}"] if axis != ndim - 1 or self.rng.random() < 0.3 else [])
            return f"np.diff({operand}{''.join(', ' + e for e in extra)})"
        operand = self.a_expr(kind, shape, depth + 1)
        if operand is None:
            return None
        axis = self.rng.randrange(ndim)
        if choice == "flip":
            forms = [f"np.flip({operand})", f"np.flip({operand}, {axis})",
                     f"np.flip({operand}, axis={axis - ndim})", f"np.flipud({operand})"]
            if ndim >= 2:
                forms.append(f"np.fliplr({operand})")
            return self.rng.choice(forms)
        if choice == "roll":
            shift = self.small_shift()
            return self.rng.choice([f"np.roll({operand}, {shift})",
                                    f"np.roll({operand}, {shift}, {axis})",
                                    f"np.roll({operand}, {shift}, axis={axis - ndim})"])
        if choice == "tril":
            k = self.rng.choice(["", ", 1", ", -1", ", 2", ", k=0"] + (
                [f", {self.rng.choice(self.variables('i64'))}"] if self.variables("i64") else []))
            return f"np.{self.rng.choice(['tril', 'triu'])}({operand}{k})"
        return f"{operand}.copy()"

    # -------------------------------------------- new arrays of new shapes
    def s_array_shape(self, depth):
        """`y = <shape or creation function>` at the top level: reshape,
        ravel, masks, int indices, tile, repeat, concatenate, outer, arange,
        linspace, full, eye, np.array; the result joins the arrays later
        statements read (a fresh symbolic shape where it has no other)."""
        if depth or self.loop_depth:
            return False
        makers = {"reshape": 3, "mask": 3, "index": 2, "tile": 1, "repeat": 1, "join": 2,
                  "outer": 0.7, "arange": 1.5, "linspace": 1, "full": 1, "eye": 0.6,
                  "array": 1.2}
        maker = self.pick(makers, list(makers))
        name = self.fresh("y")
        self.used_leaves = set()
        made = getattr(self, "m_" + maker)(name)
        if made is None:
            self.counter -= 1
            return False
        text, kind, shape, owned = made
        self.emit(depth, f"{name} = {text}")
        (self.arrays3 if len(shape) >= 3 else self.scope.arrays)[name] = (
            kind, len(shape), True, False, True)
        self.shapes[name] = tuple(shape)
        if owned:
            self.owned.add(name)

    def full_terms(self, ndims=None, kinds=None, names_only=False):
        ndims = ARRAY_RANKS if ndims is None else ndims
        terms = [t for n in ndims for t in self.array_terms(("?",) * n, kinds, any_shape=True)
                 if len(t[3]) == n]
        if names_only:
            terms = [t for t in terms if t[1] == "{a}"]
        return terms

    def m_reshape(self, name):
        terms = self.full_terms()
        if not terms:
            return None
        term = self.rng.choice(terms)
        text, kind, shape = self.term_text(term), term[2], term[3]
        bare = term[1] == "{a}"
        fresh = f"u({name})"
        if len(shape) == 1:
            options = [(f"{text}.reshape(-1, 1)", (shape[0], "#1"), False),
                       (f"np.reshape({text}, (1, -1))", ("#1", shape[0]), False),
                       (f"{text}.reshape((2, -1))", ("#2", fresh), False),
                       (f"{text}.reshape(-1, 2)", (fresh, "#2"), False),
                       (f"{text}.reshape(-1)", shape, False),
                       (f"np.ravel({text})", shape, False),
                       (f"{text}.flatten()", shape, True)]
        elif len(shape) == 2:
            options = [(f"{text}.reshape(-1)", (fresh,), False), (f"{text}.ravel()", (fresh,), False),
                       (f"np.ravel({text})", (fresh,), False), (f"{text}.flatten()", (fresh,), True),
                       (f"{text}.reshape(-1, 1)", (fresh, "#1"), False)]
            if bare:
                a = term[0]
                options += [(f"{a}.reshape(-1, {a}.shape[1])", shape, False),
                            (f"{a}.reshape(({a}.shape[1], {a}.shape[0]))", (fresh, f"v({name})"), False),
                            (f"np.reshape({a}, ({a}.shape[0], -1, 1))", shape + ("#1",), False),
                            (f"{a}.reshape({a}.shape)", shape, False)]
        else:
            options = [(f"{text}.reshape(-1)", (fresh,), False)]
            if bare:
                a = term[0]
                options.append((f"{a}.reshape(-1, {a}.shape[2])", (fresh, shape[2]), False))
        if self.avoid("A8"):
            options = [o for o in options if "ravel" not in o[0]]
        text, result, owned = self.rng.choice(options)
        return text, kind, result, owned

    def mask_of(self, text, kind, shape):
        """A bool array of `shape`: mostly a comparison of the array itself."""
        if self.rng.random() < 0.6:
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"({text} {op} {self.compare_scalar(kind)})"
        return self.a_expr("bool", shape, 1)

    def m_mask(self, name):
        terms = self.full_terms(ARRAY_RANKS)
        if not terms:
            return None
        term = self.rng.choice(terms)
        text, kind, shape = self.term_text(term), term[2], term[3]
        if term[1] != "{a}" and self.rng.random() < 0.7:
            return None         # mostly masks of named arrays
        mask = self.mask_of(text, kind, shape)
        if mask is None:
            return None
        return f"{text}[{mask}]", kind, (f"u({name})",), True

    def index_arrays(self):
        return [n for n, (k, nd, w, rev, local) in self.scope.arrays.items()
                if nd == 1 and k in INTS and n in self.shapes and not
                (k == "u64" and self.avoid("D1"))]

    def m_index(self, name):
        indices = self.index_arrays()
        terms = [t for t in self.full_terms(ARRAY_RANKS, names_only=True)]
        if not indices or not terms:
            return None
        idx = self.rng.choice(indices)
        term = self.rng.choice(terms)
        view = self.rng.choice([idx, idx, f"{idx}[::-1]", f"{idx}[1:]"])
        shape = (self.shapes[idx][0] if view == idx or "::-1" in view else
                 dim_minus(self.shapes[idx][0], 1),) + term[3][1:]
        return f"{term[0]}[{view}]", term[2], shape, True

    def repeat_count(self):
        ints = self.variables("i64")
        if ints and self.rng.random() < 0.25:
            return f"max(min({self.rng.choice(ints)}, 3), 0)"
        return self.rng.choice(["1", "2", "3", "0"])

    def m_tile(self, name):
        terms = self.full_terms((1, 2))
        if not terms:
            return None
        term = self.rng.choice(terms)
        text, kind, shape = self.term_text(term), term[2], term[3]
        k = self.repeat_count()
        if len(shape) == 1:
            text, result = self.rng.choice([(f"np.tile({text}, {k})", (f"u({name})",)),
                                            (f"np.tile({text}, ({k}, 1))", (f"u({name})", shape[0])),
                                            (f"np.tile({text}, (2, 1))", ("#2", shape[0]))])
        else:
            text, result = self.rng.choice([(f"np.tile({text}, {k})", (shape[0], f"u({name})")),
                                            (f"np.tile({text}, ({k}, 1))", (f"u({name})", shape[1])),
                                            (f"np.tile({text}, (1, 2, 1))", ("#1",) + (f"u({name})", shape[1]))])
        return text, kind, result, True

    def m_repeat(self, name):
        terms = self.full_terms((1, 2))
        if not terms:
            return None
        term = self.rng.choice(terms)
        text, kind, shape = self.term_text(term), term[2], term[3]
        k = self.repeat_count()
        if len(shape) == 1 or self.rng.random() < 0.4:
            return self.rng.choice([f"np.repeat({text}, {k})", f"{text}.repeat({k})"]), kind, \
                (f"u({name})",), True
        axis = self.rng.randrange(2)
        result = (f"u({name})", shape[1]) if axis == 0 else (shape[0], f"u({name})")
        return self.rng.choice([f"np.repeat({text}, {k}, axis={axis})",
                                f"{text}.repeat({k}, {axis})"]), kind, result, True

    def number_list(self):
        """A list of numbers written in the call: Python ints (int64) or
        floats (float64)."""
        if self.rng.random() < 0.5:
            values = [self.rng.choice(["0", "1", "-1", "2", "7", "100"])
                      for _ in range(self.rng.randint(1, 3))]
            ints = self.variables("i64")
            if ints and self.rng.random() < 0.3:
                values[0] = self.rng.choice(ints)
            return f"[{', '.join(values)}]", "i64"
        values = [self.rng.choice(["0.5", "1.0", "-2.5", "3.0", "0.0"])
                  for _ in range(self.rng.randint(1, 3))]
        return f"[{', '.join(values)}]", "f64"

    def m_join(self, name):
        terms = self.full_terms((1, 2))
        if not terms:
            return None
        first = self.rng.choice(terms)
        shape, kind = first[3], first[2]
        kinds = [kind]
        parts = [self.a_expr(kind, shape, 1) or self.term_text(first)]
        for _ in range(self.rng.choice([1, 1, 2])):
            other = kind if self.rng.random() < 0.6 else self.rng.choice(ELEMENT_KINDS)
            if len(shape) == 1 and self.rng.random() < 0.2:
                text, other = self.number_list()
                parts.append(text)
                kinds.append(other)
                continue
            text = self.a_expr(other, shape, 1)
            if text is None:
                continue
            parts.append(text)
            kinds.append(other)
        result_kind = kinds[0]
        for k in kinds[1:]:
            result_kind = promote(result_kind, k)
        seq = ", ".join(parts)
        seq = f"({seq},)" if len(parts) == 1 else (f"({seq})" if self.rng.random() < 0.7
                                                    else f"[{seq}]")
        lists = any(p.startswith("[") for p in parts)
        count = len(parts)
        fresh = f"u({name})"
        if len(shape) == 1:
            options = [(f"np.concatenate({seq})", (fresh,)), (f"np.hstack({seq})", (fresh,))]
            if not lists:
                options += [(f"np.vstack({seq})", (f"#{count}", shape[0])),
                            (f"np.stack({seq})", (f"#{count}", shape[0])),
                            (f"np.stack({seq}, axis=1)", (shape[0], f"#{count}")),
                            (f"np.stack({seq}, axis=-1)", (shape[0], f"#{count}"))]
        else:
            options = [(f"np.concatenate({seq})", (fresh, shape[1])),
                       (f"np.concatenate({seq}, axis=1)", (shape[0], fresh)),
                       (f"np.vstack({seq})", (fresh, shape[1])),
                       (f"np.hstack({seq})", (shape[0], fresh)),
                       (f"np.stack({seq})", (f"#{count}",) + shape),
                       (f"np.stack({seq}, axis=2)", shape + (f"#{count}",))]
        text, result = self.rng.choice(options)
        return text, result_kind, result, True

    def m_outer(self, name):
        terms = [t for t in self.full_terms((1,)) if t[2] != "bool"]
        if not terms:
            return None
        a, b = self.rng.choice(terms), self.rng.choice(terms)
        kind = array_arithmetic_kind("*", promote(a[2], b[2]))
        return f"np.outer({self.term_text(a)}, {self.term_text(b)})", kind, \
            (a[3][0], b[3][0]), True

    def bounded_int(self, low=-3, high=30):
        ints = self.variables("i64")
        if ints and self.rng.random() < 0.4:
            return f"max(min({self.rng.choice(ints)}, {high}), {low})"
        return self.rng.choice(["0", "1", "5", "8", "3"])

    def bounded_float(self):
        floats = self.variables("f64")
        if floats and self.rng.random() < 0.4:
            return f"max(min({self.rng.choice(floats)}, 20.0), -20.0)"
        return self.rng.choice(["0.0", "1.5", "-2.0", "7.25", "0", "3"])

    def sized_by(self):
        """(a length expression, its symbolic dim) of an array in scope."""
        terms = self.full_terms((1,), names_only=True)
        if terms and self.rng.random() < 0.6:
            term = self.rng.choice(terms)
            return self.rng.choice([f"len({term[0]})", f"{term[0]}.shape[0]"]), term[3][0]
        return None, None

    def m_arange(self, name):
        length, dim = self.sized_by()
        dtype = self.rng.choice(["", "", "", ", dtype=np.float64", ", dtype=np.int32",
                                 ", dtype=np.float32"])
        kind = {"": "i64", ", dtype=np.float64": "f64", ", dtype=np.int32": "i32",
                ", dtype=np.float32": "f32"}[dtype]
        if length:
            return f"np.arange({length}{dtype})", kind, (dim,), True
        roll = self.rng.random()
        if roll < 0.4:
            return f"np.arange({self.bounded_int()}{dtype})", kind, (f"u({name})",), True
        if roll < 0.6:
            return f"np.arange({self.bounded_int()}, {self.bounded_int()}{dtype})", kind, \
                (f"u({name})",), True
        step = self.rng.choice(["0.5", "1.0", "(-0.5)", "0.25", "3.0", "(-1)", "2"])
        text = f"np.arange({self.bounded_float()}, {self.bounded_float()}, {step})"
        return text, "f64", (f"u({name})",), True

    def m_linspace(self, name):
        length, dim = self.sized_by()
        if not length:
            length, dim = self.rng.choice(["0", "1", "2", "5", "9"]), None
            if self.rng.random() < 0.3:
                length = self.bounded_int(0, 20)
        endpoint = self.rng.choice(["", "", ", endpoint=False", ", endpoint=True"])
        num = self.rng.choice([length, f"num={length}"])
        text = f"np.linspace({self.bounded_float()}, {self.bounded_float()}, {num}{endpoint})"
        return text, "f64", (dim or f"u({name})",), True

    def m_full(self, name):
        terms = self.full_terms((1, 2), names_only=True)
        if terms and self.rng.random() < 0.4:
            term = self.rng.choice(terms)
            kind = term[2]
            value = self.array_scalar(kind, kind, kind, None) if kind != "bool" else \
                self.rng.choice(["True", "False"])
            if value is None:
                return None
            return f"np.full_like({term[0]}, {value})", kind, term[3], True
        length, dim = self.sized_by()
        if not length:
            length, dim = self.bounded_int(0, 20), f"u({name})"
        roll = self.rng.random()
        if roll < 0.4:
            value, kind = self.rng.choice([("2.5", "f64"), ("3", "i64"), ("True", "bool"),
                                           ("(-1.0)", "f64"), ("0", "i64")])
        else:
            kind = self.rng.choice(["f64", "i64", "f64", "i32", "f32"])
            value = self.expr(kind, 2)
        shape = (dim,)
        if self.rng.random() < 0.3:
            length, shape = f"({length}, 2)", (dim, "#2")
        return f"np.full({length}, {value})", kind, shape, True

    def m_eye(self, name):
        n = self.bounded_int(0, 12)
        dtype, kind = self.rng.choice([("", "f64"), (", dtype=np.int64", "i64"),
                                       (", dtype=np.bool_", "bool"), (", dtype=np.float32", "f32")])
        square = (f"u({name})", f"u({name})")
        roll = self.rng.random()
        if roll < 0.35:
            return f"np.eye({n}{dtype})", kind, square, True
        if roll < 0.55:
            return f"np.identity({n}{dtype})", kind, square, True
        m = self.bounded_int(0, 12)
        k = self.rng.choice(["0", "1", "-1", "2"])
        return f"np.eye({n}, {m}, {k}{dtype})", kind, (f"u({name})", f"v({name})"), True

    def m_array(self, name):
        roll = self.rng.random()
        length = self.rng.randint(1, 5)
        if roll < 0.35:
            # int positions, some negative or out of range (x[idx])
            values = [self.rng.choice(["0", "1", "-1", "2", "3", "-2", "7", "9", "-9"])
                      for _ in range(length)]
            ints = self.variables("i64")
            if ints and self.rng.random() < 0.3:
                values[-1] = self.rng.choice(ints)
            return f"np.array([{', '.join(values)}])", "i64", (f"#{length}",), True
        if roll < 0.65:
            values = [self.rng.choice(["0.5", "-1.0", "2", "3.25", "0.0", "7"])
                      for _ in range(length)]
            floats = self.variables("f64")
            if floats and self.rng.random() < 0.3:
                values[0] = self.rng.choice(floats)
            kind = "f64" if any("." in v or v in floats for v in values) else "i64"
            if self.rng.random() < 0.2:
                dtype, kind = self.rng.choice([(", dtype=np.float32", "f32"),
                                               (", dtype=np.float64", "f64")])
                return f"np.array([{', '.join(values)}]{dtype})", kind, (f"#{length}",), True
            return f"np.array([{', '.join(values)}])", kind, (f"#{length}",), True
        if roll < 0.8:
            values = [self.rng.choice(["True", "False"]) for _ in range(length)]
            return f"np.array([{', '.join(values)}])", "bool", (f"#{length}",), True
        rows = [[self.rng.choice(["1", "2.5", "0", "-3"]) for _ in range(length)]
                for _ in range(2)]
        kind = "f64" if any("." in v for r in rows for v in r) else "i64"
        text = "np.array([" + ", ".join("[" + ", ".join(r) + "]" for r in rows) + "])"
        return text, kind, ("#2", f"#{length}"), True

    # ------------------------------------------- stores through masks and indices
    def s_array_mask(self, depth):
        """`x[x > 0] = 0.0`, `m[m > c] = m[m > c] * 2`, `x[idx] = v`,
        `x[idx] = x[idx] + 1`: the index and the value read whole first."""
        if self.trip > 60:
            return False
        targets = [t for t in self.full_terms(ARRAY_RANKS, names_only=True)
                   if (self.scope.arrays.get(t[0]) or self.arrays3.get(t[0]))[2]]
        if self.avoid("B6"):
            targets = [t for t in targets
                       if not (self.scope.arrays.get(t[0]) or self.arrays3[t[0]])[3]]
        if not targets:
            return False
        name, _, kind, shape = self.rng.choice(targets)
        # `m[idx] = v` of an N-D m is not supported yet; A7: an out-of-range
        # position raises only after the positions before it were written
        indices = self.index_arrays() if len(shape) == 1 and not self.avoid("A7") else []
        if indices and self.rng.random() < 0.35:
            idx = self.rng.choice(indices)
            selector = idx
            count_shape = self.shapes[idx]
        else:
            selector = self.mask_of(name, kind, shape)
            if selector is None:
                return False
            count_shape = None
        target = f"{name}[{selector}]"
        roll = self.rng.random()
        if roll < 0.45:
            value = self.view_scalar(kind)
        elif roll < 0.85 or count_shape:
            if kind == "bool":
                op, scalar = self.rng.choice(["&", "|", "^"]), self.rng.choice(["True", "False"])
            else:
                op = self.rng.choice(["+", "-", "*"])
                scalar = self.array_scalar(kind, kind, kind, op)
                if scalar is None:
                    return False
            source = target if self.rng.random() < 0.85 else \
                f"{name}[{self.mask_of(name, kind, shape)}]"
            value = f"{source} {op} {scalar}"
        else:
            other = self.mask_of(name, kind, shape)
            value = f"{name}[{other}]" if other else self.view_scalar(kind)
        self.emit(depth, f"{target} = {value}")

    # --------------------------------------------------- tuples with arrays
    def mixed_result(self, count):
        """`return a, b, n`: arrays (new ones: an expression, a new local,
        a copy) and numbers, Kiln typing each."""
        items, used = [], set()
        for _ in range(count):
            if self.rng.random() < 0.35:
                items.append(self.expr(self.rng.choice(SCALAR_KINDS + ("f64", "i64"))))
                continue
            owned = [n for n in self.owned if n not in used]
            if owned and self.rng.random() < 0.4:
                name = self.rng.choice(owned)
                used.add(name)
                items.append(name)
                continue
            terms = self.full_terms(ARRAY_RANKS)
            if not terms:
                items.append(self.expr("f64"))
                continue
            term = self.rng.choice(terms)
            kind = term[2] if self.rng.random() < 0.7 else self.rng.choice(ELEMENT_KINDS)
            self.used_leaves = set()
            text = self.a_op(kind, term[3], 0) if self.rng.random() < 0.7 else None
            items.append(text or f"{self.term_text(term)}.copy()")
        return ", ".join(items)

    # ----------------------------------------------------------- statements
    def block(self, depth, count):
        start = len(self.lines)
        for _ in range(count):
            if self.statements >= self.config.max_statements:
                break
            self.statement(depth)
        if len(self.lines) == start:
            self.emit(depth, "pass")

    def statement(self, depth):
        self.statements += 1
        self.statement_depth = depth
        self.statement_calls = self.statement_reduces = False
        allowed = ["assign", "augassign", "store", "augstore", "tuple_swap", "tuple_call",
                   "raise", "assert", "early_return"]
        if depth < self.config.max_depth:
            allowed += ["if", "for", "while"]
        if self.loop_depth:
            allowed += ["break", "continue"]
        if self.scope.arrays or self.arrays3:
            allowed += ["array_store", "array_augassign", "array_mask"]
            if depth == 0:
                allowed.append("array_assign")
        if depth == 0 and not self.loop_depth:
            allowed.append("array_shape")
        if self.loop_depth and self.avoid("B3"):
            allowed = [a for a in allowed if a not in ("tuple_swap", "tuple_call")]
        for _ in range(10):
            choice = self.pick(self.statement_weights(), allowed)
            if getattr(self, "s_" + choice)(depth) is not False:
                return

    def expression_weights(self):
        """EXPRESSIONS; campaigns on arrays (--array-weight) also scale the
        whole-array reductions among the scalar expressions."""
        scale = self.config.array_weight
        if scale == 1.0:
            return EXPRESSIONS
        return {**EXPRESSIONS, "reduce": EXPRESSIONS["reduce"] * scale}

    def array_expression_weights(self):
        """ARRAY_EXPRESSIONS; --array-weight above 1 also raises the share
        of the constructs beyond operators and ufuncs."""
        scale = self.config.array_weight
        if scale <= 1.0:
            return ARRAY_EXPRESSIONS
        return {name: weight if name in ("binop", "unary", "ufunc") else weight * scale / 2
                for name, weight in ARRAY_EXPRESSIONS.items()}

    def statement_weights(self):
        scale = self.config.array_weight
        if scale == 1.0:
            return STATEMENTS
        return {name: weight * scale if name.startswith("array_") else weight
                for name, weight in STATEMENTS.items()}

    def s_assign(self, depth):
        names = list(self.scope.scalars)
        if not names:
            return False
        name = self.rng.choice(names)
        kind = self.scope.scalars[name]
        source = self.value_kind_for(kind)
        self.emit(depth, f"{name} = {self.expr(source)}")

    def value_kind_for(self, kind):
        """A kind whose values may be stored in a `kind` variable."""
        options = [k for k in SCALAR_KINDS if assignable(kind, k)]
        if kind in NEW_INTS or self.rng.random() < NEW_KIND_RATE:
            options += [k for k in NEW_INTS if assignable(kind, k)]
        return kind if self.rng.random() < 0.7 else self.rng.choice(options)

    def s_augassign(self, depth):
        names = [n for n, k in self.scope.scalars.items() if k != "bool"]
        if not names:
            return False
        name = self.rng.choice(names)
        kind = self.scope.scalars[name]
        if kind in INTS and self.rng.random() < 0.1:
            op = self.rng.choice(["<<=", ">>="])
            count = self.rng.choice([c for c in SHIFT_COUNTS if fits(kind, c)])
            self.emit(depth, f"{name} {op} {f'({count})' if count < 0 else count}")
            return
        if kind in NEW_INTS:
            op = self.rng.choice(["+=", "-=", "*=", "//=", "%=", "&=", "|=", "^="])
            operand = self.expr(self.value_kind_for(kind))
        elif kind in ("i64", "i32"):
            op = self.rng.choice(["+=", "-=", "*=", "//=", "%=", "&=", "|=", "^="])
            operand = self.expr(kind if kind == "i32" or self.rng.random() < 0.7 else "i32")
        else:
            op = self.rng.choice(["+=", "-=", "*=", "/=", "//=", "%="])
            operand = self.expr(self.rng.choice([kind, kind, "i64"] if kind == "f64"
                                                else [kind]))
        self.emit(depth, f"{name} {op} {operand}")

    def store_target(self):
        names = self.arrays(writable=True)
        if not names:
            return None, None
        name = self.rng.choice(names)
        kind, ndim, writable, reverse, local = self.scope.arrays[name]
        if reverse and self.avoid("B6"):
            return None, None
        return name, kind

    def s_store(self, depth):
        name, kind = self.store_target()
        if name is None:
            return False
        source = kind
        if kind == "bool":
            pass     # kiln.b1: stores of comparisons and other bools
        elif kind in NEW_INTS:
            if self.rng.random() < 0.25:
                # another int kind converts (wraps) as numpy's astype; an
                # i64 may be a Python int that does not fit (OverflowError)
                source = self.rng.choice(INTS + ("bool",))
        elif self.rng.random() < 0.25:
            source = self.rng.choice(NUMERIC)
            if kind == "i32" and source in ("f64", "f32") and self.avoid("B8"):
                source = "i32"
            if kind == "i32" and source == "i64":
                source = "i32"      # an i64 into i32 array wraps; covered by i64 arrays
            if kind in ("i64", "i32") and source in ("f64", "f32"):
                # a float stored into an int array truncates (NaN/inf are
                # outside the domain; keep the value finite)
                value = f"float(max(min({self.expr(source)}, 1e18), -1e18))"
                self.emit(depth, f"{self.element(name, 0)} = {value}")
                return
        self.emit(depth, f"{self.element(name, 0)} = {self.expr(source)}")

    def s_augstore(self, depth):
        name, kind = self.store_target()
        if name is None or kind == "bool":
            return False
        op = self.rng.choice(["+=", "-=", "*="])
        self.emit(depth, f"{self.element(name, 0)} {op} {self.expr(kind)}")

    def s_tuple_swap(self, depth):
        kinds = {}
        for n, k in self.scope.scalars.items():
            kinds.setdefault(k, []).append(n)
        pairs = [names for names in kinds.values() if len(names) >= 2]
        if not pairs:
            return False
        a, b = self.rng.sample(self.rng.choice(pairs), 2)
        kind = self.scope.scalars[a]
        if kind == "bool" or self.rng.random() < 0.4:
            self.emit(depth, f"{a}, {b} = {b}, {a}")
        else:
            self.emit(depth, f"{a}, {b} = {b}, {self.expr(kind)}")

    def s_tuple_call(self, depth):
        fitting = [h for h in self.helpers if isinstance(h.returns, tuple)
                   and h.returns[0] == "tuple"]
        if not fitting:
            return False
        helper = self.rng.choice(fitting)
        targets = []
        for k in helper.returns[1]:
            names = [n for n, kk in self.scope.scalars.items() if assignable(kk, k)
                     and n not in targets]
            if not names:
                return False
            targets.append(self.rng.choice(names))
        call = self.call(helper, 0)
        if call is None:
            return False
        self.emit(depth, f"{', '.join(targets)} = {call}")

    def s_if(self, depth):
        self.emit(depth, f"if {self.expr('bool')}:")
        self.nested(depth + 1)
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            self.emit(depth, f"elif {self.expr('bool')}:")
            self.nested(depth + 1)
        if self.rng.random() < 0.5:
            self.emit(depth, "else:")
            self.nested(depth + 1)

    def nested(self, depth):
        self.block(depth, self.rng.randint(1, 3))

    def bound(self):
        """A bounded int expression usable as a range end (|value| <= ~100)."""
        choices = ["0", "1", "3", "8", "(-1)", "5"]
        arrays = self.arrays()
        if arrays:
            a = self.rng.choice(arrays)
            choices += [f"len({a})", f"(len({a}) - 1)", f"{a}.shape[0]"]
        ints = self.variables("i64") + self.variables("i32")
        if ints:
            v = self.rng.choice(ints)
            choices += [f"max(min({v}, 20), -20)", f"({v} % 9)"]
        return self.rng.choice(choices)

    def s_for(self, depth):
        if self.trip > 400:
            return False
        var = self.fresh("i")
        arrays = self.arrays()
        roll = self.rng.random()
        safe = None
        trip = 20
        if arrays and roll < 0.6:
            a = self.rng.choice(arrays)
            ndim = self.scope.arrays[a][1]
            axis = self.rng.randrange(ndim)
            size = f"len({a})" if axis == 0 else f"{a}.shape[{axis}]"
            trip = 100 if ndim == 1 else 12
            if self.trip > 20:
                header = f"range(min({size}, 6))"
                trip = 6
            elif self.rng.random() < 0.7:
                header = f"range({size})"
            else:
                header = f"range({size} - 1, -1, -1)"
            safe = (var, a, axis)
        else:
            start, stop = self.bound(), self.bound()
            step = self.rng.choice(["1", "2", "3", "(-1)", "(-2)"])
            ints = self.variables("i64")
            if ints and self.rng.random() < 0.2:
                step = self.rng.choice(ints)   # any step, zero raises ValueError
            header = self.rng.choice([f"range({stop})", f"range({start}, {stop})",
                                      f"range({start}, {stop}, {step})"])
            trip = 45
        self.emit(depth, f"for {var} in {header}:")
        self.enter_loop(var, safe, trip, depth)

    def enter_loop(self, var, safe, trip, depth):
        self.scope.readonly[var] = "i64"
        if safe:
            self.scope.safe.append(safe)
        self.loop_depth += 1
        saved = self.trip
        self.trip *= trip
        self.block(depth + 1, self.rng.randint(1, 4))
        self.trip = saved
        self.loop_depth -= 1
        self.scope.readonly.pop(var, None)
        if safe:
            self.scope.safe.remove(safe)

    def s_while(self, depth):
        if self.trip > 400:
            return False
        counter = self.fresh("w")
        limit = self.rng.choice(["3", "5", "10", "17"])
        self.counters.append(counter)
        self.emit(depth, f"{counter} = 0")
        condition = f"{counter} < {limit}"
        if self.rng.random() < 0.5:
            condition = f"{condition} and {self.expr('bool', 1)}"
        self.emit(depth, f"while {condition}:")
        self.emit(depth + 1, f"{counter} += 1")
        self.loop_depth += 1
        saved = self.trip
        self.trip *= int(limit)
        self.block(depth + 1, self.rng.randint(1, 3))
        self.trip = saved
        self.loop_depth -= 1

    def s_break(self, depth):
        self.emit(depth, f"if {self.expr('bool', 1)}:")
        self.emit(depth + 1, "break")

    def s_continue(self, depth):
        self.emit(depth, f"if {self.expr('bool', 1)}:")
        self.emit(depth + 1, "continue")

    def s_early_return(self, depth):
        if isinstance(self.returns, tuple) and self.returns[0] in ("array", "mixed"):
            return False
        self.emit(depth, f"if {self.expr('bool', 1)}:")
        self.emit(depth + 1, f"return {self.return_value()}")

    def s_raise(self, depth):
        kind = self.rng.choice(["ValueError", "IndexError", "ZeroDivisionError",
                                "OverflowError", "RuntimeError"])
        self.emit(depth, f"if {self.expr('bool', 1)}:")
        self.emit(depth + 1, f'raise {kind}("fuzz {kind.lower()}")')

    def s_assert(self, depth):
        self.emit(depth, f'assert {self.expr("bool", 1)}, "fuzz assertion"')

    def return_value(self):
        r = self.returns
        if isinstance(r, str):
            return self.expr(self.value_kind_for(r))
        if r[0] == "tuple":
            return ", ".join(self.expr(k) for k in r[1])
        if r[0] == "mixed":
            return self.mixed_result(r[1])
        if self.rng.random() < ARRAY_RETURN_RATE:
            text = self.array_result(r[1], r[2])
            if text:
                return text
        return self.result_array

    # ------------------------------------------------------------ functions
    def generate(self, params, returns):
        self.returns = returns
        self.counters = []
        self.result_array = None
        for p in params:
            if p.ndim:
                (self.arrays3 if p.ndim >= 3 else self.scope.arrays)[p.name] = (
                    p.kind, p.ndim, True, False, False)
                # the inputs' 1-D arrays share one size, 2-D ones one shape (mostly),
                # and 3-D ones are some of those shapes stacked (inputs.py)
                self.shapes[p.name] = {1: ("n",), 2: ("r", "c")}.get(p.ndim) or \
                    tuple(f"e{j}" for j in range(p.ndim - 3)) + ("d", "r", "c")
            else:
                self.scope.scalars[p.name] = p.kind
        header_lines = []
        # views of parameters, at the top
        for p in [p for p in params if p.ndim in (1, 2)]:
            if self.rng.random() < 0.35:
                self.view(p, header_lines)
        # allocations at the top
        if isinstance(returns, tuple) and returns[0] == "array":
            self.result_array = self.allocate(returns[1], returns[2], header_lines, init=True)
        elif self.rng.random() < 0.3:
            kind = self.rng.choice(NEW_ARRAY_KINDS) if self.rng.random() < 0.25 else \
                self.rng.choice(ARRAY_KINDS)
            name = self.allocate(kind, self.rng.choice([1, 1, 2]), header_lines,
                                 init=self.rng.random() < 0.5)
            if not self.avoid("B14") and self.rng.random() < 0.3:
                self.view(Param(name, kind, self.scope.arrays[name][1]), header_lines,
                          local=True)
        # locals, declared once with their type
        for _ in range(self.rng.randint(1, 4)):
            kind = self.new_kind() or self.rng.choice(SCALAR_KINDS + ("f64", "i64"))
            name = self.fresh("v")
            self.lines = header_lines
            value = self.expr(self.value_kind_for(kind), 1)
            header_lines.append(f"    {name}: {ANNOTATION[kind]} = {value}")
            self.scope.scalars[name] = kind
        self.lines = []
        self.block(0, self.config.max_statements)
        body = self.lines
        self.lines = []
        self.statement_calls = self.statement_reduces = False
        self.emit(0, f"return {self.return_value()}")
        final = self.lines
        counters = [f"    {c}: int = 0" for c in self.counters]
        signature = ", ".join(f"{p.name}: {p.annotation}" for p in params)
        decorator = "@kiln.export\n" if self.exported else ""
        annotation = "" if returns[0] == "mixed" else f" -> {returns_annotation(returns)}"
        source = (f"{decorator}def {self.name}({signature}){annotation}:\n"
                  + "\n".join(header_lines + counters + body + final) + "\n")
        return Function(self.name, params, returns, source, self.exported)

    def view(self, p, lines, local=False):
        name = self.fresh("view")
        if p.ndim == 1:
            a, b = self.rng.choice(["", "1", "2", "(-2)", "(-5)"]), self.rng.choice(
                ["", "(-1)", "5", "50"])
            c = self.rng.choice(["", "2", "3", "(-1)", "(-2)"])
            text = self.rng.choice([f"{p.name}[::-1]", f"{p.name}[{a}:{b}:{c}]",
                                    f"{p.name}[{a}:{b}]", f"{p.name}[::2]"])
            ndim = 1
        else:
            ints = self.variables("i64")
            row = self.rng.choice(ints) if ints and self.rng.random() < 0.3 else \
                self.rng.choice(["0", "1", "(-1)"])
            text, ndim = self.rng.choice([(f"{p.name}[{row}, :]", 1), (f"{p.name}[:, {row}]", 1),
                                          (f"{p.name}[1:-1, ::2]", 2),
                                          (f"{p.name}[::-1, :]", 2)])
        reverse = "::-" in text or text.endswith(":(-1)]") or text.endswith(":(-2)]")
        writable = self.scope.arrays[p.name][2]
        lines.append(f"    {name} = {text}")
        self.scope.arrays[name] = (p.kind, ndim, writable, reverse, local)
        base = self.shapes.get(p.name, (f"u({p.name})",) * p.ndim)
        if text in (f"{p.name}[::-1]", f"{p.name}[::-1, :]"):
            self.shapes[name] = base
        elif text == f"{p.name}[::2]":
            self.shapes[name] = view_shape(base, ("h",), text)
        elif text.endswith(", :]"):
            self.shapes[name] = (base[1],)
        elif text.startswith(f"{p.name}[:, "):
            self.shapes[name] = (base[0],)
        elif ndim == 2:
            self.shapes[name] = view_shape(base, (2, "h"), text)
        else:
            self.shapes[name] = (f"u({name})",)

    def allocate(self, kind, ndim, lines, init):
        name = self.fresh("t")
        arrays = [a for a in self.arrays() if self.scope.arrays[a][1] == 1]
        ints = self.variables("i64")
        sizes = ["0", "1", "7", "8", "9", "16"]
        if arrays:
            sizes += [f"len({self.rng.choice(arrays)})"] * 3
        if ints:
            sizes += [f"max(min({self.rng.choice(ints)}, 40), 0)",
                      self.rng.choice(ints) if self.rng.random() < 0.2 else "3"]
        shape = self.rng.choice(sizes) if ndim == 1 else \
            f"({self.rng.choice(sizes[:4])}, {self.rng.choice(sizes[:4])})"
        dims = [shape] if ndim == 1 else shape[1:-1].split(", ")
        self.shapes[name] = tuple(
            f"#{d}" if d.isdigit() else
            self.shapes.get(d[4:-1], (f"u({name})",))[0] if d.startswith("len(") else
            f"u({name})" for d in dims)
        function = self.rng.choice(["zeros", "ones", "empty"]) if init else \
            self.rng.choice(["zeros", "ones"])
        dtype = "" if kind == "f64" and self.rng.random() < 0.5 else f", dtype={NP_DTYPE[kind]}"
        lines.append(f"    {name} = np.{function}({shape}{dtype})")
        if function == "empty" or init:
            fill = "0" if kind in INTS else "0.5"
            if ndim == 1:
                lines.append(f"    for {name}_i in range(len({name})):")
                value = f"{name}_i % 3 == 1" if kind == "bool" else f"{fill} + {name}_i"
                lines.append(f"        {name}[{name}_i] = {value}")
            else:
                lines.append(f"    for {name}_i in range({name}.shape[0]):")
                lines.append(f"        for {name}_j in range({name}.shape[1]):")
                value = f"{name}_i < {name}_j" if kind == "bool" else \
                    f"{fill} + {name}_i - {name}_j"
                lines.append(f"            {name}[{name}_i, {name}_j] = {value}")
        self.scope.arrays[name] = (kind, ndim, True, False, True)
        return name


def has_variable(text):
    """Does generated expression text read a variable (so it cannot fold)?"""
    return re.search(r"\b(p|q|v|x|t|i|w|y|view)\d", text) is not None


def random_params(rng, prefix, allow_arrays=True):
    params = []
    for k in range(rng.randint(1, 4)):
        kind = rng.choice(NEW_INTS) if rng.random() < NEW_KIND_RATE else \
            rng.choice(SCALAR_KINDS + ("i64", "f64", "i64"))
        params.append(Param(f"{prefix}{k}", kind))
    if allow_arrays:
        for k in range(rng.choice([0, 1, 1, 2, 2, 3])):
            roll = rng.random()
            ndim = 3 if roll < ARRAY_3D_RATE else 2 if roll < 0.25 + ARRAY_3D_RATE else 1
            if ndim == 3 and rng.random() < HIGHER_RANK_RATE:
                ndim = rng.choice(ARRAY_RANKS[3:])      # 4-D to 5-D (Kiln takes up to 8)
            if k and rng.random() < 0.5:
                # same type as an earlier array: the inputs may alias them
                first = next((p for p in params if p.ndim), None)
                if first:
                    params.append(Param(f"x{k}", first.kind, first.ndim))
                    continue
            kind = rng.choice(NEW_ARRAY_KINDS) if rng.random() < 0.2 else rng.choice(ARRAY_KINDS)
            params.append(Param(f"x{k}", kind, ndim))
    rng.shuffle(params)
    return params


def random_returns(rng, allow_array=True):
    roll = rng.random()
    if roll < 0.12:
        return ("tuple", tuple(rng.choice(SCALAR_KINDS) for _ in range(rng.choice([2, 2, 3]))))
    if roll < 0.2 and allow_array:
        kind = rng.choice(NEW_ARRAY_KINDS) if rng.random() < 0.2 else rng.choice(ARRAY_KINDS)
        return ("array", kind, rng.choice([1, 1, 2]))
    if roll < 0.26 and allow_array:
        # a tuple of arrays and numbers, its types left to Kiln (no annotation)
        return ("mixed", rng.choice([2, 2, 3]))
    if rng.random() < NEW_KIND_RATE / 2:
        return rng.choice(NEW_INTS)
    return rng.choice(SCALAR_KINDS + ("f64", "i64", "f64"))


def generate_program(seed: int, index: int, config: Config | None = None) -> Program:
    config = config or Config()
    rng = random.Random(f"{seed}:{index}")
    helpers = []
    for h in range(rng.randint(0, config.helpers)):
        small = Config(max_statements=4, max_depth=1, max_expr_depth=2, helpers=0,
                       avoid=config.avoid, array_weight=config.array_weight)
        gen = FunctionGenerator(rng, small, f"h{index}_{h}", list(helpers),
                                exported=rng.random() < 0.3, main=False)
        params = random_params(rng, "q", allow_arrays=rng.random() < 0.3)
        returns = random_returns(rng, allow_array=False)
        helpers.append(gen.generate(params, returns))
    gen = FunctionGenerator(rng, config, f"f{index}", helpers)
    main = gen.generate(random_params(rng, "p"), random_returns(rng))
    # helpers' math counts too: their code may be inlined into main's loops
    main.uses_transcendental = gen.uses_transcendental or any(
        "math." in h.source or "np." in h.source for h in helpers)
    main.uses_numpy_transcendental = gen.uses_numpy_transcendental or any(
        any(f"np.{n}(" in h.source for n in TRANSCENDENTAL) for h in helpers)
    return Program(seed, index, main, helpers)


HEADER = "import math\n\nimport numpy as np\n\nimport kiln\n\n\n"


def module_source(programs) -> str:
    return HEADER + "\n\n".join(p.source() for p in programs)
