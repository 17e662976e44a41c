"""SIMD vectorization end to end: every kernel of modules/vectorize_kernels.py
against CPython running the same source, on the inputs where vector code goes
wrong -- sizes around the vector width and its multiples, unaligned starts,
strided and reversed views, aliased and overlapping arguments, NaN/inf/-0.0 --
plus the accuracy of vectorized math in ulps and a look at the machine code.

The kernels vectorize today through LLVM's loop vectorizer and will through
the kiln-vectorize pass; these tests hold either way, since they only compare
results with CPython's. What they allow to differ, and why:

- nothing, for plain loops: Kiln promises CPython's IEEE results bit for bit
  (NaN matches any NaN: a NaN's sign and payload are not part of Python's
  semantics);
- rounding, for fastmath=True reductions, which may reassociate and contract:
  both the sequential and any reordered sum are within (n+1)*u*sum|term| of
  the exact sum (u the unit roundoff), so they are within twice that of each
  other -- a bound that holds for every summation order, not a measured one;
- a few ulps, for math functions, which a vectorizer may compute with vector
  implementations (libmvec, polynomials) instead of scalar libm; the bounds
  are in ULP_BOUND, and special results (NaN, inf, zero and its sign) and
  exceptions must still be CPython's exactly.

KILN_ULP_REPORT=FILE writes the measured ulp errors as a markdown table (the
one in docs/language.md was made this way).
"""

import json
import math
import os
import re
import subprocess
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import pytest

from kiln import cpu_levels

MODULE = "vectorize_kernels"
SIZES = [0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 1000]
LARGE_SIZE = 10**6 + 3
# Long enough that a map runs mostly in the vector loop, not in its tail.
VECTOR_LENGTH = 4096
SENTINEL = -99.25  # prefills output arrays, so a missed or stray store shows


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


# ------------------------------------------------------------ comparisons


def root(array):
    """The array owning the memory: views compare through it, so writes
    through one alias and stray writes outside a view are both seen."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def ordered_bits(values):
    """Floats mapped to integers in the same order, neighbouring floats to
    neighbouring integers; +0.0 and -0.0 both map to 0."""
    if values.dtype == np.float32:
        bits = values.view(np.int32).astype(np.int64)
        magnitude = bits & 0x7FFF_FFFF
    else:
        bits = values.view(np.int64)
        magnitude = bits & 0x7FFF_FFFF_FFFF_FFFF
    return np.where(bits < 0, -magnitude, magnitude)


def ulp_distance(got, want):
    """Per element, as uint64; NaN against NaN is 0, NaN against a number
    the largest distance there is."""
    a, b = ordered_bits(np.asarray(got)), ordered_bits(np.asarray(want))
    with np.errstate(over="ignore"):
        # |a - b| < 2**64: wrapping int64 subtraction read as uint64 is exact.
        distance = np.where(a >= b, a - b, b - a).astype(np.uint64)
    got_nan, want_nan = np.isnan(got), np.isnan(want)
    distance[got_nan & want_nan] = 0
    distance[got_nan != want_nan] = np.iinfo(np.uint64).max
    return distance


def describe_mismatch(bad, got, want, label):
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{label}: {int(bad.sum())} of {bad.size} elements differ; first at {index}: "
            f"native {got[index]!r}, CPython {want[index]!r}")


@dataclass(frozen=True)
class Exact:
    """CPython's result bit for bit (any NaN matches any NaN)."""

    def scalar(self, got, want, python_args, label):
        if isinstance(want, (float, np.floating)):
            got, want = float(got), float(want)
            if math.isnan(want):
                assert math.isnan(got), (label, got, want)
            else:
                assert got == want and math.copysign(1, got) == math.copysign(1, want), \
                    (label, got, want)
        else:
            want = want.item() if isinstance(want, np.generic) else want
            assert type(got) is type(want) and got == want, (label, got, want)

    def array(self, got, want, label):
        assert got.dtype == want.dtype and got.shape == want.shape, label
        if got.dtype.kind == "f":
            bad = ulp_distance(got, want) != 0
            # ulp_distance counts -0.0 and +0.0 as equal; bits do not.
            bad |= (got == 0) & (want == 0) & (np.signbit(got) != np.signbit(want))
        else:
            bad = got != want
        assert not bad.any(), describe_mismatch(bad, got, want, label)


@dataclass(frozen=True)
class Reassociated(Exact):
    """A fastmath reduction: within 2*(n+1)*u*sum|term| of CPython's sum,
    where `terms(*args)` are the summands (see the module docstring); NaN
    and infinite results exactly CPython's."""
    terms: Callable
    unit_roundoff: float = 2.0**-53

    def scalar(self, got, want, python_args, label):
        got, want = float(got), float(want)
        if not math.isfinite(want):
            return super().scalar(got, want, python_args, label)
        terms = np.abs(np.asarray(self.terms(*python_args), dtype=np.float64))
        bound = 2 * (terms.size + 1) * self.unit_roundoff * float(terms.sum())
        assert abs(got - want) <= bound, (label, got, want, bound)


@dataclass(frozen=True)
class RelativeProduct(Exact):
    """A fastmath product of n factors: each order's relative error is at
    most about n*u, so two orders differ by at most 2*(n+1)*u relatively."""
    unit_roundoff: float = 2.0**-53

    def scalar(self, got, want, python_args, label):
        got, want = float(got), float(want)
        if not math.isfinite(want) or want == 0:
            return super().scalar(got, want, python_args, label)
        bound = 2 * (len(python_args[0]) + 1) * self.unit_roundoff * abs(want)
        assert abs(got - want) <= bound, (label, got, want, bound)


@dataclass(frozen=True)
class WithinUlps(Exact):
    """Float arrays within `bound` ulps of CPython's; NaN positions,
    infinities and the sign of zero results exactly CPython's."""
    bound: int = 0

    def array(self, got, want, label):
        if got.dtype.kind != "f":
            return super().array(got, want, label)
        assert got.dtype == want.dtype and got.shape == want.shape, label
        distance = ulp_distance(got, want)
        bad = distance > self.bound
        bad |= np.isinf(got) != np.isinf(want)
        bad |= (got == 0) & (want == 0) & (np.signbit(got) != np.signbit(want))
        assert not bad.any(), (describe_mismatch(bad, got, want, label)
                               + f" (bound {self.bound} ulp, max {int(distance.max())})")


EXACT = Exact()


def run(function, args):
    try:
        with np.errstate(all="ignore"):
            return "value", function(*args)
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return "error", error


def compare(mod, name, make_args, label="", check=EXACT, reference=None):
    """Runs native `name` and CPython `reference` (default: the same
    kernel) on two identical fresh argument sets; results, exceptions and
    every array the arguments live in must agree under `check`."""
    label = f"{name} {label}".strip()
    native_args, python_args = make_args(), make_args()
    native_kind, native = run(getattr(mod.native, name), native_args)
    python_kind, expected = run(getattr(mod.python, reference or name), python_args)
    assert native_kind == python_kind, (label, native, expected)
    if native_kind == "error":
        assert type(native) is type(expected), (label, native, expected)
        # Kiln appends "(file, line N)" to CPython's message.
        assert str(native).startswith(str(expected)), (label, str(native), str(expected))
    elif expected is None:
        assert native is None, (label, native)
    else:
        check.scalar(native, expected, python_args, label)
    seen = set()
    for got, want in zip(native_args, python_args):
        if isinstance(got, np.ndarray) and id(root(got)) not in seen:
            seen.add(id(root(got)))
            check.array(root(got), root(want), label)


# ------------------------------------------------------- argument makers


@dataclass(frozen=True)
class Values:
    """An array argument whose elements `make(rng, count)` gives."""
    make: Callable


@dataclass(frozen=True)
class Out:
    """An array the kernel writes, prefilled with SENTINEL."""
    dtype: type


def normal(scale=10.0, dtype=np.float64):
    return Values(lambda rng, count: (rng.standard_normal(count) * scale).astype(dtype))


def uniform(low, high, dtype=np.float64):
    return Values(lambda rng, count: rng.uniform(low, high, count).astype(dtype))


def log_uniform(low, high, dtype=np.float64):
    """Magnitudes spread evenly over the exponents from low to high."""
    return Values(lambda rng, count: np.exp(rng.uniform(math.log(low), math.log(high),
                                                        count)).astype(dtype))


def integers(low, high, dtype=np.int64):
    return Values(lambda rng, count: rng.integers(low, high, count, dtype=dtype,
                                                  endpoint=True))


def one_bit_cleared(rng, count):
    """Each element all ones but one bit, so an AND reduction keeps bits."""
    return ~np.left_shift(np.int64(1), rng.integers(0, 64, count)).astype(np.int64)


def one_bit_set(rng, count):
    return np.left_shift(np.int64(1), rng.integers(0, 64, count)).astype(np.int64)


def product_factors(rng, count):
    """Mostly +-1 with at most 30 factors of 2 or 3: no 64-bit wraparound
    (CPython's integers do not wrap, Kiln's do)."""
    values = rng.choice(np.array([1, -1], dtype=np.int64), count)
    chosen = rng.choice(count, min(count, 30), replace=False)
    values[chosen] = rng.choice(np.array([2, -2, 3, -3], dtype=np.int64), chosen.size)
    return values


F64 = normal()
F32 = normal(dtype=np.float32)
I64_SAFE = integers(-10**12, 10**12)   # sums of 10**6 of them stay far from 2**63
I64_FULL = integers(-2**63, 2**63 - 1)
I32 = integers(-2**30 + 1, 2**30 - 1, np.int32)  # the sum of two fits in int32
OUT_F64, OUT_F32 = Out(np.float64), Out(np.float32)
OUT_I64, OUT_I32 = Out(np.int64), Out(np.int32)

# A 1-D view of n elements: how it is cut from a fresh base array.
LAYOUTS = {
    "contiguous": (lambda n: n, lambda base: base),
    "offset1": (lambda n: n + 1, lambda base: base[1:]),
    "offset3": (lambda n: n + 3, lambda base: base[3:]),
    "stride2": (lambda n: 2 * n, lambda base: base[::2]),
    "stride3": (lambda n: 3 * n, lambda base: base[::3]),
    "reversed": (lambda n: n, lambda base: base[::-1]),
    "reversed_stride2": (lambda n: 2 * n, lambda base: base[::-2]),
}


def laid_out(elements, n, layout):
    base_length, cut = LAYOUTS[layout]
    view = cut(elements(base_length(n)))
    assert view.shape == (n,), (layout, view.shape)
    return view


def argument_maker(params, n, layout="contiguous", seed=0):
    """A function giving fresh, identical arguments on every call."""
    def make():
        args = []
        for position, param in enumerate(params):
            if isinstance(param, Values):
                rng_seed = (seed, n, position)
                args.append(laid_out(
                    lambda count, p=param, s=rng_seed: p.make(np.random.default_rng(s), count),
                    n, layout))
            elif isinstance(param, Out):
                args.append(laid_out(
                    lambda count, d=param.dtype: np.full(count, SENTINEL).astype(d), n, layout))
            else:
                args.append(param)
        return tuple(args)
    return make


# ------------------------------------------------------------- ulp bounds

MATH_FUNCTIONS = ["sqrt", "exp", "log", "sin", "cos", "tanh", "pow"]
# How each function is spelled in a kernel name, by flavour: math.* or np.*
# calls, on float64 or float32 arrays.
FLAVOURS = {
    "math_f64": "{}_map",
    "numpy_f64": "np_{}_map",
    "math_f32": "math_{}_map_f32",
    "numpy_f32": "{}_map_f32",
}
# The CPython reference of each flavour: np.* scalar functions run numpy's
# own SIMD code, which differs from libm by up to 3 ulp (measured), so the
# reference for np.* kernels is their math.* twin run by CPython: libm in
# double (rounded to float32 for float32 arrays).
REFERENCE_FLAVOUR = {"math_f64": "math_f64", "numpy_f64": "math_f64",
                     "math_f32": "math_f32", "numpy_f32": "math_f32"}


def ulp_bound(function, flavour):
    """sqrt is correctly rounded in IEEE arithmetic, scalar or vector: 0.
    Other float64 functions: 4 ulp, the maximum error glibc tests libmvec
    against (sourceware.org/glibc/wiki/libmvec). np.* on float32: 4 ulp too,
    the target for the float32 polynomials (today's scalar libm: <= 2).
    math.* on float32 computes in double and rounds once to float32: an
    error of a few double ulps can move that rounding by at most 1 ulp."""
    if function == "sqrt":
        return 0
    return 1 if flavour == "math_f32" else 4


# ------------------------------------------------------------ the kernels


@dataclass(frozen=True)
class Kernel:
    params: list
    check: object = EXACT
    reference: Optional[str] = None     # CPython runs this kernel instead
    special_values: bool = True          # float inputs may hold NaN/inf/-0.0


def math_kernels():
    """The math maps, on inputs inside their domains (errors have their own
    test); CPython's reference per REFERENCE_FLAVOUR."""
    f64_inputs = {"sqrt": [uniform(0, 100)], "exp": [uniform(-50, 50)],
                  "log": [log_uniform(1e-3, 1e3)], "sin": [F64], "cos": [F64],
                  "tanh": [normal(3.0)], "pow": [uniform(0.1, 10), uniform(-5, 5)]}
    kernels = {}
    for function, inputs in f64_inputs.items():
        for flavour, pattern in FLAVOURS.items():
            dtype = np.float32 if flavour.endswith("f32") else np.float64
            typed = [Values(lambda rng, count, v=v, d=dtype: v.make(rng, count).astype(d))
                     for v in inputs]
            reference = FLAVOURS[REFERENCE_FLAVOUR[flavour]].format(function)
            name = pattern.format(function)
            kernels[name] = Kernel(typed + [Out(dtype)],
                                   WithinUlps(ulp_bound(function, flavour)),
                                   reference=None if reference == name else reference,
                                   special_values=False)
    return kernels


def sum_terms(x):
    return x


def dot_terms(x, y):
    return x.astype(np.float64) * y


def positive_terms(x):
    return np.where(x > 0, x, 0.0)


KERNELS = {
    # elementwise maps
    "saxpy": Kernel([1.5, F64, F64, OUT_F64]),
    "saxpy_f32": Kernel([np.float32(1.5), F32, F32, OUT_F32]),
    "scale_in_place": Kernel([F64, -0.75]),
    "add_into": Kernel([F64, F64, OUT_F64]),
    "add_into_i32": Kernel([I32, I32, OUT_I32]),
    "widen_f32_to_f64": Kernel([F32, 0.1, OUT_F64]),
    # magnitudes up to 1e40 overflow float32: the narrowing gives inf.
    "narrow_f64_to_f32": Kernel([log_uniform(1e-50, 1e40), OUT_F32]),
    "stencil3": Kernel([F64, OUT_F64]),
    "stencil5": Kernel([F64, OUT_F64]),
    "read_ahead_then_copy": Kernel([F64, OUT_F64, OUT_F64]),
    # integer reductions
    "int_sum": Kernel([I64_SAFE]),
    # Sums of 1000 stay within int32, where numpy 2 (NEP 50) keeps CPython's sum.
    "int_sum_i32": Kernel([integers(-2**20, 2**20, np.int32)]),
    "int_product": Kernel([Values(product_factors)]),
    "int_min_if": Kernel([I64_FULL]),
    "int_max_if": Kernel([I64_FULL]),
    "int_min_builtin": Kernel([I64_FULL]),
    "int_max_builtin_i32": Kernel([integers(-2**31, 2**31 - 1, np.int32)]),
    "bit_and": Kernel([Values(one_bit_cleared)]),
    "bit_or": Kernel([Values(one_bit_set)]),
    "bit_xor": Kernel([I64_FULL]),
    # float reductions
    "fast_sum": Kernel([F64], Reassociated(sum_terms)),
    "fast_dot": Kernel([F64, F64], Reassociated(dot_terms)),
    "fast_dot_f32": Kernel([F32, F32], Reassociated(dot_terms, unit_roundoff=2.0**-24)),
    "fast_product": Kernel([uniform(0.95, 1.05)], RelativeProduct()),
    "exact_sum": Kernel([F64]),
    "exact_sum_f32": Kernel([F32]),
    "float_max_if": Kernel([F64]),
    "float_max_builtin": Kernel([F64]),
    "float_min_builtin": Kernel([F64]),
    "float_max_numpy_f32": Kernel([F32]),
    # if-conversion
    "count_positive": Kernel([F64]),
    "sum_positive": Kernel([F64]),
    "fast_sum_positive": Kernel([F64], Reassociated(positive_terms)),
    "sum_positive_int": Kernel([I64_SAFE]),
    "clip_in_place": Kernel([F64, -2.0, 3.5]),
    "clip_in_place_i32": Kernel([I32, -1000, 1000]),
    "relu_map": Kernel([F64, OUT_F64]),
    "abs_map": Kernel([F64, OUT_F64]),
    "abs_map_i64": Kernel([integers(-2**63 + 1, 2**63 - 1), OUT_I64]),
    # vector math
    **math_kernels(),
    # exp(-x) then sqrt(x): two roundings of bounded error and one product.
    "exp_sqrt_map": Kernel([uniform(0, 50), OUT_F64], WithinUlps(ulp_bound("exp", "math_f64") + 1),
                           special_values=False),
    # loop-carried dependences
    "prefix_sum": Kernel([F64, OUT_F64]),
    "forward_difference_in_place": Kernel([F64]),
    "running_sum_in_place": Kernel([F64]),
    "running_sum_in_place_i64": Kernel([I64_SAFE]),
}
TWO_D_KERNELS = ["scale_add_rows", "row_max", "jacobi"]
LARGE_SIZE_KERNELS = ["saxpy", "fast_dot", "int_sum", "count_positive", "clip_in_place",
                      "float_max_builtin"]


def test_every_kernel_is_compiled_and_tested(mod):
    with open(mod.path(f"{MODULE}.kiln.json")) as handle:
        record = json.load(handle)
    # A kernel left as Python would pass every comparison vacuously.
    assert [f["name"] for f in record["functions"] if not f["compiled"]] == []
    compiled = {f["name"] for f in record["functions"]}
    assert compiled == set(KERNELS) | set(TWO_D_KERNELS)


# ------------------------------------------------------ sizes and layouts


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_sizes_and_layouts(mod, name, layout):
    kernel = KERNELS[name]
    for n in SIZES:
        compare(mod, name, argument_maker(kernel.params, n, layout), f"n={n} {layout}",
                kernel.check, kernel.reference)


@pytest.mark.parametrize("name", LARGE_SIZE_KERNELS)
def test_large_size(mod, name):
    kernel = KERNELS[name]
    compare(mod, name, argument_maker(kernel.params, LARGE_SIZE), f"n={LARGE_SIZE}",
            kernel.check, kernel.reference)


# ------------------------------------------------------ special values

SPECIALS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324, -5e-324, 1e-310, 1e308,
            -1e308, 1.0, -1.0, 2.5]
# Reassociating a sum or product may overflow or underflow where the
# sequential order does not (1e308 + 1e308 - 1e308), which fastmath allows:
# their specials are the ones every order treats alike.
FASTMATH_SPECIALS = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 0.5]


def special_pattern(pattern, specials):
    """make(rng, count): float64 values with NaN, infinities or zeros placed
    as `pattern` says; "mixed" draws every element from `specials`."""
    def make(rng, count):
        values = rng.standard_normal(count) * 10
        if pattern == "nan_first" and count:
            values[0] = math.nan
        elif pattern == "nan_inside":
            values[[i for i in (1, 7, 8, 15, 16, count // 2, count - 1) if 0 <= i < count]] = \
                math.nan
        elif pattern == "infinities":
            values[rng.random(count) < 0.1] = math.inf
            values[rng.random(count) < 0.1] = -math.inf
        elif pattern == "signed_zeros":
            values = rng.choice(np.array([0.0, -0.0]), count)
        elif pattern == "mixed":
            values = rng.choice(np.array(specials), count)
        return values
    return make


SPECIAL_PATTERNS = ["nan_first", "nan_inside", "infinities", "signed_zeros", "mixed"]
SPECIAL_SIZES = [1, 4, 5, 8, 9, 16, 17, 33, 1000]


def float_dtype(param):
    """The dtype of a float array parameter, else None."""
    if isinstance(param, Values):
        dtype = param.make(np.random.default_rng(0), 1).dtype
        return dtype if dtype.kind == "f" else None
    return None


def as_dtype(values, dtype):
    with np.errstate(over="ignore"):  # 1e308 as float32 is inf, on purpose
        return values.astype(dtype)


def with_special_floats(params, pattern, specials):
    """The kernel's parameters with every float array drawn from `pattern`."""
    replaced = []
    for param in params:
        dtype = float_dtype(param)
        if dtype is not None:
            make = special_pattern(pattern, specials)
            param = Values(lambda rng, count, m=make, d=dtype: as_dtype(m(rng, count), d))
        replaced.append(param)
    return replaced


def has_float_input(kernel):
    return any(float_dtype(p) is not None for p in kernel.params)


@pytest.mark.parametrize("pattern", SPECIAL_PATTERNS)
@pytest.mark.parametrize("name", sorted(n for n, k in KERNELS.items()
                                        if k.special_values and has_float_input(k)))
def test_nan_inf_and_signed_zero(mod, name, pattern):
    kernel = KERNELS[name]
    specials = SPECIALS if type(kernel.check) is Exact else FASTMATH_SPECIALS
    params = with_special_floats(kernel.params, pattern, specials)
    for n in SPECIAL_SIZES:
        for layout in ("contiguous", "offset1", "reversed"):
            compare(mod, name, argument_maker(params, n, layout, seed=1),
                    f"n={n} {layout} {pattern}", kernel.check, kernel.reference)


@pytest.mark.parametrize("name", ["float_max_if", "float_max_builtin", "float_min_builtin"])
def test_zero_ties_keep_the_first_zero_across_lanes(mod, name):
    """-0.0 and 0.0 in different lanes or interleaved copies: the vector
    loop cannot tell which came first, so a zero result is recomputed; every
    pair of positions up to two full vector chunks is tried."""
    fill = np.inf if "min" in name else -np.inf
    for first in range(1, 40, 3):
        for second in range(first + 1, 70, 5):
            for zeros in ((-0.0, 0.0), (0.0, -0.0)):
                x = np.full(80, fill)
                x[first], x[second] = zeros
                native = getattr(mod.native, name)(x.copy())
                expected = getattr(mod.python, name)(x.copy())
                assert math.copysign(1.0, native) == math.copysign(1.0, expected), \
                    (name, first, second, zeros)


# ---------------------------------------------------------- 2-D views

SHAPES = [(0, 5), (5, 0), (1, 1), (3, 17), (17, 3), (4, 16), (7, 33), (33, 9)]
# A (rows, columns) view: how it is cut from a fresh base.
LAYOUTS_2D = {
    "c_order": (lambda r, c: (r, c), lambda base: base),
    "transposed": (lambda r, c: (c, r), lambda base: base.T),
    "offset": (lambda r, c: (r + 1, c + 2), lambda base: base[1:, 2:]),
    "column_stride3": (lambda r, c: (r, 3 * c), lambda base: base[:, ::3]),
    "rows2_columns_reversed": (lambda r, c: (2 * r, c), lambda base: base[::2, ::-1]),
    "rows_reversed": (lambda r, c: (r, c), lambda base: base[::-1, :]),
}


def matrix(shape, layout, seed, special=None):
    base_shape, cut = LAYOUTS_2D[layout]
    rows, columns = base_shape(*shape)
    rng = np.random.default_rng(seed)
    values = (special_pattern(special, SPECIALS)(rng, rows * columns) if special
              else rng.standard_normal(rows * columns) * 10)
    view = cut(values.reshape(rows, columns))
    assert view.shape == shape
    return view


@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_two_dimensional_views(mod, layout):
    for shape in SHAPES:
        rows, columns = shape
        label = f"{shape} {layout}"
        for special in (None, "mixed", "nan_inside"):
            compare(mod, "scale_add_rows",
                    lambda: (matrix(shape, layout, 1, special), 0.5,
                             laid_out(lambda k: np.random.default_rng(2).standard_normal(k),
                                      columns, "reversed"),
                             matrix(shape, layout, 3)), f"{label} {special}")
            compare(mod, "row_max",
                    lambda: (matrix(shape, layout, 4, special), np.full(rows, SENTINEL)),
                    f"{label} {special}")
        compare(mod, "jacobi",
                lambda: (matrix(shape, layout, 7), matrix(shape, "c_order", 8)),
                f"{label} jacobi")
        # In place, and into the transpose of the input (rows read columns
        # written earlier).
        compare(mod, "scale_add_rows",
                lambda: (lambda m: (m, 2.0, np.ones(columns), m))(matrix(shape, layout, 5)),
                f"{label} in place")
        if rows == columns:
            compare(mod, "scale_add_rows",
                    lambda: (lambda m: (m, 2.0, np.ones(columns), m.T))(matrix(shape, layout, 6)),
                    f"{label} into its transpose")


# ------------------------------------------------------- aliasing

OVERLAP_SIZES = [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 100, 1000]
SHIFTS = [1, 2, 3, 4, 7, 8, 9, 16, 17, 33]


def fresh(dtype=np.float64, seed=7):
    return lambda count: (np.random.default_rng((seed, count)).standard_normal(count)
                          * 10).astype(dtype)


def i32_fresh(count):
    # Small: a dependence chain of 1000 additions must not wrap in 32 bits.
    return np.random.default_rng(count).integers(-1000, 1000, count).astype(np.int32)


# How to call a kernel with one base array playing input `x` and output
# `out` at once: arrange(x, out, extra) -> arguments, where `extra` is an
# independent array for the remaining input.
ALIASED_CALLS = {
    "saxpy, out is x": ("saxpy", lambda x, out, extra: (1.5, x, extra, out)),
    "saxpy, out is y": ("saxpy", lambda x, out, extra: (1.5, extra, x, out)),
    "saxpy, x and y and out": ("saxpy", lambda x, out, extra: (1.5, x, x, out)),
    "saxpy_f32, out is x": ("saxpy_f32", lambda x, out, extra: (np.float32(1.5), x, extra, out)),
    "add_into, out is y": ("add_into", lambda x, out, extra: (extra, x, out)),
    "add_into_i32, out is x": ("add_into_i32", lambda x, out, extra: (x, extra, out)),
    "stencil3": ("stencil3", lambda x, out, extra: (x, out)),
    "stencil5": ("stencil5", lambda x, out, extra: (x, out)),
    "read_ahead_then_copy, b is a": ("read_ahead_then_copy", lambda x, out, extra: (x, x, extra)),
    "read_ahead_then_copy, c is a": ("read_ahead_then_copy", lambda x, out, extra: (x, extra, x)),
    "relu_map": ("relu_map", lambda x, out, extra: (x, out)),
    "abs_map": ("abs_map", lambda x, out, extra: (x, out)),
    "prefix_sum": ("prefix_sum", lambda x, out, extra: (x, out)),
    "np_sqrt_map": ("np_sqrt_map", lambda x, out, extra: (x, out)),
    "sqrt_map_f32": ("sqrt_map_f32", lambda x, out, extra: (x, out)),
}
ALIASED_DTYPES = {"saxpy_f32": np.float32, "add_into_i32": np.int32, "sqrt_map_f32": np.float32}


def aliased_check(name):
    """How the kernel's results are checked, and against which CPython
    kernel. Through aliasing a map sees its own results, NaN from negative
    inputs included: np.sqrt is correctly rounded in numpy as in Kiln, so
    the kernel's own CPython run is an exact reference there, where the
    math.sqrt twin would raise."""
    if name in ("np_sqrt_map", "sqrt_map_f32"):
        return EXACT, None
    kernel = KERNELS[name]
    return kernel.check, kernel.reference


def base_maker(name):
    dtype = ALIASED_DTYPES.get(name, np.float64)
    return i32_fresh if dtype == np.int32 else fresh(dtype)


def overlap_cases(n):
    """(label, base length, cut x from base, cut out from base): `out`
    starting `shift` elements after `x` (each store feeds a later load: a
    true dependence) or before it (each load precedes the store to its
    element: an anti-dependence), the same array, one reversed over the
    other, a strided view over a contiguous one, and two interleaved views
    whose address ranges overlap though their elements do not."""
    yield "same array", n, lambda b: b, lambda b: b
    yield "out is x reversed", n, lambda b: b, lambda b: b[::-1]
    yield "x stride 2 over out", 2 * n, lambda b: b[::2], lambda b: b[:n]
    yield "out stride 2 over x", 2 * n, lambda b: b[:n], lambda b: b[::2]
    yield "interleaved", 2 * n, lambda b: b[::2], lambda b: b[1::2]
    for shift in SHIFTS:
        yield (f"out {shift} after x", n + shift,
               lambda b: b[:n], lambda b, s=shift: b[s:s + n])
        yield (f"out {shift} before x", n + shift,
               lambda b, s=shift: b[s:s + n], lambda b: b[:n])


@pytest.mark.parametrize("call", ALIASED_CALLS)
def test_aliased_and_overlapping_arguments(mod, call):
    name, arrange = ALIASED_CALLS[call]
    check, reference = aliased_check(name)
    make_base = base_maker(name)
    for n in OVERLAP_SIZES:
        for label, base_length, cut_x, cut_out in overlap_cases(n):
            def make_args():
                base = make_base(base_length)
                extra = make_base(n + 11)[11:]
                return arrange(cut_x(base), cut_out(base), extra)
            compare(mod, name, make_args, f"n={n} {label}", check, reference)


@pytest.mark.parametrize("name", ["forward_difference_in_place", "running_sum_in_place",
                                  "running_sum_in_place_i64", "scale_in_place",
                                  "clip_in_place"])
def test_in_place_dependences_on_views(mod, name):
    # The loop's own dependence between x[i] and x[i - 1] or x[i + 1], also
    # on strided views (neighbours not adjacent in memory) and reversed ones
    # (x[i + 1] at the lower address).
    kernel = KERNELS[name]
    for n in OVERLAP_SIZES:
        for layout in LAYOUTS:
            compare(mod, name, argument_maker(kernel.params, n, layout, seed=2),
                    f"n={n} {layout}", kernel.check)


# ------------------------------------------------- math: errors and ulps

# Inputs for which math.f raises in CPython, and must in Kiln: the exception
# at the same element, the elements before it written as CPython wrote them.
DOMAIN_ERRORS = {
    "sqrt": [(-1.0,), (-math.inf,), (-5e-324,)],
    "exp": [(710.0,), (1e300,)],
    "log": [(0.0,), (-0.0,), (-1.0,), (-math.inf,)],
    "sin": [(math.inf,), (-math.inf,)],
    "cos": [(math.inf,)],
    "pow": [(-8.0, 1.0 / 3.0), (0.0, -1.0), (10.0, 400.0), (-10.0, 401.0)],
}
ERROR_POSITIONS = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 4095, 4096, 4499]


def valid_inputs(function, count, dtype):
    rng = np.random.default_rng(count)
    if function == "pow":
        return [rng.uniform(0.5, 2, count).astype(dtype), rng.uniform(-3, 3, count).astype(dtype)]
    low = {"sqrt": 0.0, "log": 0.5}.get(function, -2.0)
    return [rng.uniform(low, 2.0, count).astype(dtype)]


@pytest.mark.parametrize("flavour", ["math_f64", "math_f32"])
@pytest.mark.parametrize("function", DOMAIN_ERRORS)
def test_math_errors_raise_where_cpython_raises(mod, function, flavour):
    dtype = np.float32 if flavour == "math_f32" else np.float64
    name = FLAVOURS[flavour].format(function)
    check = WithinUlps(ulp_bound(function, flavour))
    count = ERROR_POSITIONS[-1] + 1
    for bad in DOMAIN_ERRORS[function]:
        if dtype == np.float32 and function == "exp" and bad[0] > 3e38:
            continue  # 1e300 is not a float32
        for position in ERROR_POSITIONS:
            def make_args():
                inputs = valid_inputs(function, count, dtype)
                for array, value in zip(inputs, bad):
                    array[position] = value
                return (*inputs, np.full(count, SENTINEL, dtype))
            compare(mod, name, make_args, f"{bad} at {position}", check)


@pytest.mark.parametrize("bad, error", [(-1000.0, OverflowError), (-1.0, ValueError)])
def test_errors_follow_evaluation_order(mod, bad, error):
    # exp(-x) is evaluated before sqrt(x): x = -1000 overflows before the
    # square root would fail; x = -1 fails only in the square root.
    count = 5000
    x = np.full(count, 2.0)
    x[4097] = bad
    with pytest.raises(error):
        mod.native.exp_sqrt_map(x.copy(), np.zeros(count))
    compare(mod, "exp_sqrt_map", lambda: (x.copy(), np.full(count, SENTINEL)), f"{bad}",
            KERNELS["exp_sqrt_map"].check)


F64_TINY, F32_TINY = 5e-324, float(np.finfo(np.float32).smallest_subnormal)
F64_MAX, F32_MAX = float(np.finfo(np.float64).max), float(np.finfo(np.float32).max)
F64_MIN_NORMAL, F32_MIN_NORMAL = float(np.finfo(np.float64).tiny), float(np.finfo(np.float32).tiny)
F64_EXP_MAX = math.log(F64_MAX)         # exp overflows just above
F32_EXP_MAX = math.log(F32_MAX)


def around(value, dtype, steps=3):
    """`value` and its `steps` neighbours on each side in `dtype`."""
    center = dtype(value)
    down, up = [center], [center]
    for _ in range(steps):
        down.append(np.nextafter(down[-1], dtype(-np.inf)))
        up.append(np.nextafter(up[-1], dtype(np.inf)))
    return [float(v) for v in down + up[1:]]


def edge_values(function, dtype):
    f32 = dtype == np.float32
    tiny, biggest = (F32_TINY, F32_MAX) if f32 else (F64_TINY, F64_MAX)
    min_normal = F32_MIN_NORMAL if f32 else F64_MIN_NORMAL
    common = [0.0, -0.0, tiny, -tiny, min_normal, -min_normal, 1e-30, -1e-30, 1.0, -1.0,
              biggest, -biggest, math.inf, -math.inf, math.nan]
    if function == "exp":
        exp_max = F32_EXP_MAX if f32 else F64_EXP_MAX
        # Overflow, the last normal result, the last subnormal one, zero.
        thresholds = [exp_max, math.log(min_normal), math.log(tiny), math.log(tiny) - 1]
        return common + [v for t in thresholds for v in around(t, dtype)] + [-1000.0, 1000.0]
    if function == "log":
        return common + around(1.0, dtype, 8) + around(min_normal, dtype) + [2.0, 0.5, math.e]
    if function in ("sin", "cos"):
        return common + [1e6, -1e6, 1e22, -1e22, 1e300 if not f32 else 1e38, math.pi,
                         math.pi / 2, math.pi / 4, 2 * math.pi, 710.0, 1e5 + 0.5,
                         *around(math.pi, dtype), *around(math.pi / 2, dtype)]
    if function == "tanh":
        return common + [9.0, 9.1, 10.0, 19.06, 22.0, 1e-8, -1e-8, 0.55, -0.55]
    return common + [2.0, 4.0, 0.25, 1e-300 if not f32 else 1e-38, *around(1.0, dtype)]


POW_EDGES = [(0.0, 0.0), (0.0, 2.0), (-0.0, 3.0), (-0.0, 2.0), (1.0, math.nan), (math.nan, 0.0),
             (math.inf, -1.0), (-math.inf, 3.0), (2.0, 1023.0), (2.0, -1074.0), (2.0, -1075.0),
             (0.5, math.inf), (1.5, math.inf), (-1.0, math.inf), (-2.0, 3.0), (-2.0, -3.0),
             (-0.5, 2.0), (10.0, 308.0), (10.0, -323.0), (math.nan, math.nan), (1.0, 1e308),
             (0.0, -1.0), (-8.0, 1.0 / 3.0), (10.0, 400.0), (-10.0, 401.0), (-0.0, -1.0)]


def sweep(function, dtype):
    """A dense sweep of the function's useful range plus its edge values;
    the argument arrays (one, or two for pow)."""
    rng = np.random.default_rng(sum(map(ord, function)))
    count = 1 << 15
    f32 = dtype == np.float32
    biggest_exponent = 38.0 if f32 else 308.0
    tiny_exponent = -45.0 if f32 else -323.0

    def log_spread(low, high, k, signed=False):
        magnitude = 10.0 ** rng.uniform(low, high, k)
        return magnitude * (rng.choice([-1.0, 1.0], k) if signed else 1.0)

    if function == "pow":
        top = 15.0 if f32 else 40.0
        x = np.concatenate([log_spread(-3, 3, count // 2), 1 + rng.uniform(-1e-3, 1e-3, count // 4),
                            -rng.uniform(0.1, 10, count // 4)])
        y = np.concatenate([rng.uniform(-top, top, count // 2),
                            rng.uniform(-1e4, 1e4, count // 4),
                            rng.integers(-20, 20, count // 4).astype(np.float64)])
        edges_x, edges_y = zip(*POW_EDGES)
        return [as_dtype(np.concatenate([x, edges_x]), dtype),
                as_dtype(np.concatenate([y, edges_y]), dtype)]
    if function == "sqrt":
        x = np.concatenate([log_spread(tiny_exponent, biggest_exponent, count // 2),
                            rng.uniform(0, 100, count // 2)])
    elif function == "exp":
        low, high = (-104.0, 89.0) if f32 else (-745.2, F64_EXP_MAX)
        x = np.concatenate([rng.uniform(low, high, count // 2), rng.uniform(-1, 1, count // 2)])
    elif function == "log":
        x = np.concatenate([log_spread(tiny_exponent, biggest_exponent, count // 2),
                            rng.uniform(0.5, 2, count // 2)])
    elif function in ("sin", "cos"):
        x = np.concatenate([rng.uniform(-2 * math.pi, 2 * math.pi, count // 2),
                            rng.uniform(-1e4, 1e4, count // 4),
                            log_spread(-30, 22, count // 4, signed=True)])
    else:  # tanh
        x = np.concatenate([rng.uniform(-20, 20, count // 2),
                            log_spread(-30, 0, count // 2, signed=True)])
    return [as_dtype(np.concatenate([x, edge_values(function, dtype)]), dtype)]


MATH_CALLS = {"sqrt": math.sqrt, "exp": math.exp, "log": math.log, "sin": math.sin,
              "cos": math.cos, "tanh": math.tanh, "pow": math.pow}
NUMPY_CALLS = {"sqrt": np.sqrt, "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
               "tanh": np.tanh, "pow": np.power}


def raises_in_cpython(function, args):
    try:
        MATH_CALLS[function](*map(float, args))
    except (ValueError, OverflowError):
        return True
    return False


def reference_results(mod, function, flavour, inputs):
    """CPython's results for a map over `inputs`: the reference kernel
    where math.f returns; where it raises (only np.* kernels see those
    inputs), numpy's result, which is then NaN, an infinity or zero --
    exact, so numpy's own accuracy does not enter."""
    dtype = inputs[0].dtype
    raising = np.array([raises_in_cpython(function, args) for args in zip(*inputs)], dtype=bool)
    expected = np.empty_like(inputs[0])
    reference = getattr(mod.python, FLAVOURS[REFERENCE_FLAVOUR[flavour]].format(function))
    valid = [np.ascontiguousarray(array[~raising]) for array in inputs]
    valid_out = np.empty_like(valid[0])
    with np.errstate(all="ignore"):  # float32 stores of results beyond its range
        reference(*valid, valid_out)
    expected[~raising] = valid_out
    with np.errstate(all="ignore"):
        fallback = NUMPY_CALLS[function](*(array[raising].astype(np.float64) for array in inputs))
    assert np.all(~np.isfinite(fallback) | (fallback == 0)), (function, fallback)
    expected[raising] = fallback.astype(dtype)
    return expected, raising


MEASURED_ULPS = {}


@pytest.fixture(scope="module", autouse=True)
def ulp_report():
    yield
    path = os.environ.get("KILN_ULP_REPORT")
    if not path or not MEASURED_ULPS:
        return
    lines = ["| function | " + " | ".join(FLAVOURS) + " |",
             "|---|" + "---|" * len(FLAVOURS)]
    for function in MATH_FUNCTIONS:
        cells = [f"{MEASURED_ULPS[function, f]} (≤ {ulp_bound(function, f)})"
                 if (function, f) in MEASURED_ULPS else "" for f in FLAVOURS]
        lines.append(f"| {function} | " + " | ".join(cells) + " |")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("function", MATH_FUNCTIONS)
def test_math_accuracy_in_ulps(mod, function, flavour):
    dtype = np.float32 if flavour.endswith("f32") else np.float64
    inputs = sweep(function, dtype)
    assert inputs[0].size >= VECTOR_LENGTH
    expected, raising = reference_results(mod, function, flavour, inputs)
    if flavour.startswith("math"):
        # math.* raises on these; test_math_errors_raise_where_cpython_raises
        # covers them.
        inputs = [np.ascontiguousarray(array[~raising]) for array in inputs]
        expected = expected[~raising]
    out = np.full_like(expected, SENTINEL)
    getattr(mod.native, FLAVOURS[flavour].format(function))(*inputs, out)
    distance = ulp_distance(out, expected)
    finite = np.isfinite(expected)
    MEASURED_ULPS[function, flavour] = int(distance[finite].max())
    WithinUlps(ulp_bound(function, flavour)).array(out, expected, f"{function} {flavour}")


# --------------------------------------------------- machine code

OBJDUMP = "/usr/lib/llvm-22/bin/llvm-objdump"
# Packed (…ps/…pd) float arithmetic or integer vector adds on a 256-bit
# (ymm, AVX2) or 512-bit (zmm, AVX-512) register.
PACKED_ON_WIDE_REGISTER = re.compile(
    r"\bv(?:add|sub|mul|div|max|min|sqrt|fn?m(?:add|sub)\d{3})p[sd]\b[^\n]*%[yz]mm"
    r"|\bvpadd[bwdq]\b[^\n]*%[yz]mm")


def cpu_has_avx2():
    """AVX2 comes with x86-64-v3 (asked of CPUID, as the artifacts do)."""
    return cpu_levels.detected_level() >= 3


@pytest.mark.skipif(not os.path.exists(OBJDUMP), reason="llvm-objdump 22 is not installed")
@pytest.mark.skipif(not cpu_has_avx2(), reason="needs AVX2 (x86-64-v3, asked of CPUID): kiln build targets the host CPU")
@pytest.mark.parametrize("name", ["saxpy", "saxpy_f32", "fast_dot", "int_sum"])
def test_machine_code_uses_wide_vector_registers(mod, name):
    symbol = f"{MODULE}_{name}"
    listing = subprocess.run(
        [OBJDUMP, "-d", "--no-show-raw-insn", f"--disassemble-symbols={symbol}",
         mod.path(f"lib{MODULE}.so")], capture_output=True, text=True, check=True).stdout
    assert f"<{symbol}>:" in listing, listing[:2000]
    packed = PACKED_ON_WIDE_REGISTER.findall(listing)
    assert packed, f"no packed ymm/zmm arithmetic in {symbol}:\n{listing[:4000]}"
