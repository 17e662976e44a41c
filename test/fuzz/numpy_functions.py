"""The oracle's numpy functions of arrays beyond the operators and ufuncs of
semantics.py: reductions and scans, np.where/clip/logical_*, np.dot, copies
and casts, the shape and creation functions, comparisons of arrays, boolean
masks and int-array indexing (docs/language.md, "Array expressions").

Each is numpy's own function on the operands' values. Typing follows Kiln's
documented rules (numpy 2's): where a Python number meets an array
(`np.where(c, x32, 2.5)`, `np.clip(x8, 0, 7)`, `x32 < 2**40`) the operands
are first converted to the kind semantics.element_common gives, because the
numpy installed here may be 1.x (value-based casting).

Float sums and products (np.sum, prod, mean, average, var, std, np.dot) are
computed by Kiln in SIMD partial sums, so they agree with numpy's pairwise
sums to rounding only (documented). The oracle accepts a float reduction
only when its result cannot depend on the order of the operations (every
partial sum or product is exact: `order_free_sum`, `order_free_product`);
otherwise the input is discarded (OutsideDomain). max/min of a lane holding
both -0.0 and 0.0 as its maximum are discarded too (which zero is
unspecified).
"""

from __future__ import annotations

import math
import operator
import warnings
from fractions import Fraction

import numpy as np

from . import semantics as S

MAX_ELEMENTS = 10**6
PRECISION = {"f64": (53, float(np.finfo(np.float64).max), 2.0**-1022),
             "f32": (24, float(np.finfo(np.float32).max), 2.0**-126)}


# ------------------------------------------------------------ conversions
def numpy_of(x):
    """An operand as numpy sees it: arrays, typed scalars as numpy scalars of
    their kind, Python numbers as they are, sequences element by element."""
    if isinstance(x, S.Array):
        return x.a
    if isinstance(x, S.Num):
        return S.NUMPY_DTYPE[x.kind](x.v)
    if isinstance(x, (list, tuple)):
        return type(x)(numpy_of(v) for v in x)
    return x


def dtype_of(d):
    """A `dtype=` argument: np.float64 / kiln.f32 stand-ins, np.bool_, x.dtype."""
    if d is None:
        return None
    value = S.dtype_value(d)        # `float` passed on is the oracle's stand-in
    if value is not None:
        return np.dtype(S.NUMPY_DTYPE[value[0]])
    kind = getattr(d, "kind", None)
    if isinstance(kind, str) and kind in S.NUMPY_DTYPE:
        return np.dtype(S.NUMPY_DTYPE[kind])
    return np.dtype(d)


def integer(x):
    if isinstance(x, S.Array):
        raise TypeError("an array where an int is needed")
    kind, _, v = S.parts(x)
    if kind in S.FLOAT_KINDS:
        raise TypeError("a float where an int is needed")
    return int(v)


def shape_arg(x):
    if isinstance(x, (tuple, list)):
        return tuple(integer(v) for v in x)
    return integer(x)


def wrap(r):
    """numpy's result as the oracle's value: an Array or a typed Num."""
    if isinstance(r, np.ndarray):
        if r.ndim:
            return array(r)
        r = r[()]
    if isinstance(r, np.generic):
        kind = S.DTYPE_KIND.get(r.dtype)
        if kind is None:
            raise TypeError(f"numpy result of dtype {r.dtype} is not a Kiln type")
        return S.Num(kind, S.fit(kind, r.item()))
    raise TypeError(f"unexpected numpy result {r!r}")


def array(r):
    if r.dtype not in S.DTYPE_KIND:
        raise TypeError(f"numpy result of dtype {r.dtype} is not a Kiln type")
    if r.size > MAX_ELEMENTS:
        raise S.OutsideDomain("array too large for the oracle")
    return S.Array(r)


def as_array(x, name):
    if not isinstance(x, S.Array):
        raise TypeError(f"np.{name} of a number is outside the generated subset")
    return x


def axis_of(a, axis):
    if axis is None:
        return None
    axis = integer(axis)
    ndim = a.a.ndim
    if not -ndim <= axis < ndim:
        raise np.AxisError(axis, ndim)
    return axis % ndim


# ------------------------------------------------ order-free float reductions
def _low_bit(v: float) -> int:
    n, d = abs(v).as_integer_ratio()
    return ((n & -n).bit_length() - 1) - (d.bit_length() - 1)


def order_free_sum(values, kind) -> bool:
    """Whether summing `values` (floats of `kind`) gives one result in every
    order: NaN or inf of both signs anywhere (NaN), or a finite part whose
    every partial sum is exact and finite."""
    bits, largest, _ = PRECISION[kind]
    values = [float(v) for v in values]
    if any(math.isnan(v) for v in values):
        return True
    if float("inf") in values and float("-inf") in values:
        return True
    finite = [v for v in values if math.isfinite(v)]
    nonzero = [v for v in finite if v != 0.0]
    if not nonzero:
        # all zeros: -0.0 only is order-free, but numpy starts its sum from
        # +0.0 or from the first element depending on its loop: discard
        return not finite or any(math.copysign(1.0, v) > 0 for v in finite) or \
            len(finite) != len(values)
    low = min(_low_bit(v) for v in nonzero)
    total = sum(Fraction(abs(v)) for v in nonzero)
    return total * Fraction(2) ** -low < 2**bits and total <= largest


def order_free_product(values, kind) -> bool:
    bits, largest, smallest = PRECISION[kind]
    values = [float(v) for v in values]
    if any(math.isnan(v) for v in values):
        return True
    zero = any(v == 0.0 for v in values)
    infinite = any(math.isinf(v) for v in values)
    if zero and infinite:
        return True
    nonzero = [v for v in values if v != 0.0 and math.isfinite(v)]
    mantissa = 0
    big = small = Fraction(1)
    for v in nonzero:
        n, _ = abs(v).as_integer_ratio()
        mantissa += (n // (n & -n)).bit_length()
        if abs(v) >= 1:
            big *= Fraction(abs(v))
        else:
            small *= Fraction(abs(v))
    return mantissa <= bits and big <= largest and small >= smallest


def lanes(values, axis):
    """The 1-D lanes a reduction along `axis` (None: all) reads."""
    if axis is None:
        return [values.ravel()]
    moved = np.moveaxis(values, axis, -1)
    return list(moved.reshape(-1, moved.shape[-1])) if moved.size else []


def check_lanes(values, axis, kind, test, what):
    if kind not in S.FLOAT_KINDS:
        return
    for lane in lanes(values, axis):
        if not test(lane, kind):
            raise S.OutsideDomain(f"float {what} whose result depends on the order (Kiln's "
                                  "SIMD partial sums vs numpy's pairwise sum)")


# ------------------------------------------------------------------ reductions
SUMMED = {"bool": "i64", "i8": "i64", "i16": "i64", "i32": "i64", "i64": "i64",
          "u8": "u64", "u16": "u64", "u32": "u64", "u64": "u64", "f32": "f32", "f64": "f64"}


def reduction(name):
    def call(a, axis=None, *, keepdims=False, ddof=0, out=None, dtype=None):
        if out is not None or dtype is not None:
            raise TypeError("out=/dtype= of a reduction are outside the generated subset")
        a = as_array(a, name)
        axis = axis_of(a, axis)
        keepdims = bool(keepdims)
        values, kind = a.a, a.kind
        if name in ("sum", "prod"):
            check_lanes(values, axis, SUMMED[kind],
                        order_free_sum if name == "sum" else order_free_product, name)
        elif name in ("mean", "average", "var", "std"):
            compute = kind if kind in S.FLOAT_KINDS else "f64"
            converted = values.astype(S.NUMPY_DTYPE[compute])
            check_lanes(converted, axis, compute, order_free_sum, "mean")
            if name in ("var", "std"):
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    mean = np.mean(converted, axis=axis, keepdims=True)
                    deviations = converted - mean
                    squares = deviations * deviations
                check_lanes(squares, axis, compute, order_free_sum, "variance")
        elif name in ("max", "min", "amax", "amin") and kind in S.FLOAT_KINDS:
            pick = np.max if name in ("max", "amax") else np.min
            for lane in lanes(values, axis):
                if lane.size and not np.isnan(lane).any():
                    best = pick(lane)
                    if best == 0 and (np.signbit(lane[lane == 0]).any()
                                      and (~np.signbit(lane[lane == 0])).any()):
                        raise S.OutsideDomain("max/min over -0.0 and 0.0 (unspecified zero)")
        function = {"amax": np.max, "amin": np.min}.get(name) or getattr(np, name)
        options = {"axis": axis}
        if name != "average":
            options["keepdims"] = keepdims
        elif keepdims:
            raise TypeError("np.average(keepdims=) is outside the generated subset")
        if name in ("var", "std"):
            options["ddof"] = integer(ddof)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")     # "Mean of empty slice", ddof >= n
            r = function(values, **options)
        r = wrap_any(r)
        # a whole-array reduction to a bool (np.any, np.all, max of bools)
        return S.NumpyBool(r.v) if isinstance(r, S.Num) and r.kind == "bool" else r
    return call


def scan(name):
    def call(a, axis=None, dtype=None, out=None):
        if out is not None or dtype is not None:
            raise TypeError("out=/dtype= of a scan are outside the generated subset")
        a = as_array(a, name)
        if axis is None and a.a.ndim != 1:
            raise TypeError("a flattened scan of an N-D array is outside the generated subset")
        with np.errstate(all="ignore"):
            return array(getattr(np, name)(a.a, axis=axis_of(a, axis)))
    return call


def arg_extreme(name):
    def call(a, axis=None, out=None, keepdims=False):
        a = as_array(a, name)
        return wrap(np.asarray(getattr(np, name)(a.a, axis=axis_of(a, axis))))
    return call


# Complex products the oracle checks: parts that are integers of at most
# 2**20 in vectors of at most 2**10 elements, whose every product and
# partial sum is exact in float64 in any order and with or without fused
# multiply-adds (numpy's and Kiln's zgemm-style sums differ in both).
EXACT_COMPLEX_PART = 2**20
EXACT_COMPLEX_LENGTH = 2**10


def check_exact_complex(x, y, inner, name):
    parts = np.concatenate([x.real.ravel(), x.imag.ravel(), y.real.ravel(), y.imag.ravel()])
    if inner > EXACT_COMPLEX_LENGTH or not np.all(np.isfinite(parts)) or \
            np.any(np.abs(parts) > EXACT_COMPLEX_PART) or np.any(parts != np.round(parts)):
        raise S.OutsideDomain(f"complex {name} beyond exact small integers")


def dot(a, b):
    if not (isinstance(a, S.Array) and isinstance(b, S.Array)) or a.a.ndim != 1 or \
            b.a.ndim != 1:
        raise TypeError("np.dot other than of two 1-D arrays is outside the generated subset")
    kind = S.promote(a.kind, b.kind)
    if kind in S.COMPLEX_KINDS and a.a.shape == b.a.shape:
        check_exact_complex(a.a, b.a, a.a.shape[0], "np.dot")
    if kind in S.FLOAT_KINDS and a.a.shape == b.a.shape:
        dtype = S.NUMPY_DTYPE[kind]
        x, y = a.a.astype(dtype), b.a.astype(dtype)
        with np.errstate(all="ignore"):
            products = x * y
        for p, u, v in zip(products.tolist(), x.tolist(), y.tolist()):
            if math.isfinite(p) and math.isfinite(u) and math.isfinite(v) and \
                    Fraction(p) != Fraction(u) * Fraction(v):
                raise S.OutsideDomain("np.dot with inexact products (BLAS may fuse them)")
        check_lanes(products, None, kind, order_free_sum, "dot")
    with np.errstate(all="ignore"):
        return wrap(np.asarray(np.dot(a.a, b.a)))


# ------------------------------------------------- elementwise selections
def typed_values(args):
    """The operands converted to the kind Kiln computes them in (a Python
    number adapts to the arrays, typed values promote)."""
    kind = None
    for x in args:
        k = S.element_parts(x)[0] if isinstance(x, S.Array) or S.parts(x)[1] is None else None
        if k is not None:
            kind = k if kind is None else S.promote(kind, k)
    if kind is None:
        raise TypeError("no typed operand")
    for x in args:
        if not isinstance(x, S.Array) and S.parts(x)[1] is not None:
            kind = S.weak_promote(kind, S.parts(x)[1])
    return kind, [S.array_values(x, kind) for x in args]


def where(condition, x, y):
    if not any(isinstance(v, S.Array) for v in (condition, x, y)):
        raise TypeError("np.where of numbers")
    if not any(isinstance(v, S.Array) for v in (x, y)) and all(
            S.parts(v)[1] is not None for v in (x, y)):
        raise TypeError("np.where of two Python numbers is outside the generated subset")
    kind, (a, b) = typed_values([x, y])
    c = condition.a if isinstance(condition, S.Array) else np.array(bool(S.parts(condition)[2]))
    shape = S.broadcast_shapes(S._shapes(*(v for v in (condition, x, y))))
    return array(np.array(np.broadcast_to(np.where(c.astype(bool), a, b), shape)))


def clip(a, low, high):
    a = as_array(a, "clip")
    kind, values = typed_values([a, low, high])
    with np.errstate(all="ignore"):
        r = np.minimum(np.maximum(values[0], values[1]), values[2])
    return array(np.array(np.broadcast_to(r, S.broadcast_shapes(S._shapes(a, low, high))),
                          dtype=S.NUMPY_DTYPE[kind]))


def logical(name):
    def call(*args):
        if not any(isinstance(v, S.Array) for v in args):
            raise TypeError(f"np.{name} of numbers")
        values = [v.a if isinstance(v, S.Array) else np.array(S.parts(v)[2]) for v in args]
        S.broadcast_shapes(S._shapes(*args))
        with np.errstate(all="ignore"):
            return array(np.asarray(getattr(np, name)(*values)))
    return call


def compare_arrays(op, x, y):
    """`x < y` with an array operand: bool array; a Python int that does not
    fit the array's int type compares exactly (numpy 2)."""
    kx, wx = S.element_parts(x)
    ky, wy = S.element_parts(y)
    shape = S.broadcast_shapes(S._shapes(x, y))
    function = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
                "==": operator.eq, "!=": operator.ne}[op]
    literal = [(w, S.parts(v)[2]) for v, w in ((x, wx), (y, wy)) if w]
    kind = S.element_common(x, y)
    if literal and literal[0][0] == "int" and kind in S.INT_KINDS and not \
            S.int_range(kind)[0] <= literal[0][1] <= S.int_range(kind)[1]:
        a = x.a.astype(object) if isinstance(x, S.Array) else S.parts(x)[2]
        b = y.a.astype(object) if isinstance(y, S.Array) else S.parts(y)[2]
        return array(np.array(np.broadcast_to(function(a, b), shape), dtype=bool))
    a, b = S.array_values(x, kind), S.array_values(y, kind)
    with np.errstate(all="ignore"):
        return array(np.array(np.broadcast_to(function(a, b), shape), dtype=bool))


# ---------------------------------------------------------- shape functions
def plain_numpy(name, array_args=1):
    """numpy's function on the arrays' values: the leading `array_args`
    arguments must be arrays, the rest ints."""
    def call(*args, **kwargs):
        for a in args[:array_args]:
            as_array(a, name)
        values = [numpy_of(a) for a in args[:array_args]] + [
            shape_arg(a) for a in args[array_args:]]
        options = {k: shape_arg(v) for k, v in kwargs.items()}
        with np.errstate(all="ignore"):
            return wrap_any(getattr(np, name)(*values, **options))
    return call


def wrap_any(r):
    if isinstance(r, np.ndarray) and r.ndim:
        return array(r)
    return wrap(np.asarray(r))


def sequence(x):
    if not isinstance(x, (tuple, list)):
        raise TypeError("np.concatenate of something else than a tuple or list")
    out = []
    for item in x:
        if isinstance(item, S.Array):
            out.append(item.a)
        elif isinstance(item, list):
            out.append(literal_array(item))
        else:
            raise TypeError("np.concatenate of a number")
    return out


def literal_array(items, dtype=None):
    """np.array of a list of numbers (or of equal-length lists): Python
    ints int64, floats float64, typed numbers their type, promoted."""
    values = numpy_of(items)
    with np.errstate(all="ignore"):
        r = np.array(values, dtype=dtype)
    if r.dtype == object:
        raise TypeError("ragged np.array")
    return r


def joiner(name):
    def call(arrays, axis=None):
        options = {} if axis is None else {"axis": integer(axis)}
        with np.errstate(all="ignore"):
            return array(getattr(np, name)(sequence(arrays), **options))
    return call


def np_array(items, dtype=None):
    if not isinstance(items, list):
        raise TypeError("np.array of something else than a list")
    return array(literal_array(items, dtype_of(dtype)))


def arange(*args, dtype=None):
    values = []
    for a in args:
        kind, weak, v = S.parts(a)
        values.append(numpy_of(a) if weak is None else v)
    dt = dtype_of(dtype)
    estimate = None
    try:
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (
            values[0], values[1], values[2] if len(values) == 3 else 1)
        if step != 0 and all(math.isfinite(float(v)) for v in (start, stop, step)):
            estimate = (float(stop) - float(start)) / float(step)
    except (TypeError, OverflowError):
        pass
    if estimate is not None and estimate > MAX_ELEMENTS:
        raise S.OutsideDomain("np.arange too long for the oracle")
    return array(np.arange(*values, dtype=dt))


def linspace(start, stop, num=50, endpoint=True):
    n = integer(num)
    if n > MAX_ELEMENTS:
        raise S.OutsideDomain("np.linspace too long for the oracle")
    with np.errstate(all="ignore"):
        return array(np.linspace(float(S.parts(start)[2]), float(S.parts(stop)[2]), n,
                                 endpoint=bool(endpoint)))


def fill_value(value, dtype):
    """np.full's value converted to `dtype` as numpy's assignment (a float
    into an int array truncates; NaN/inf raise)."""
    target = S.Array(np.zeros(1, dtype))
    target[0:1] = value
    return target.a[0]


def full(shape, value, dtype=None):
    dims = shape_arg(shape)
    if np.prod(dims if isinstance(dims, tuple) else (dims,), dtype=object) > MAX_ELEMENTS:
        raise S.OutsideDomain("np.full too large for the oracle")
    dt = dtype_of(dtype)
    if dt is None:
        dt = np.asarray(numpy_of(value)).dtype
    return array(np.full(dims, fill_value(value, dt), dtype=dt))


def full_like(a, value, dtype=None):
    a = as_array(a, "full_like")
    dt = dtype_of(dtype) or a.a.dtype
    return array(np.full(a.a.shape, fill_value(value, dt), dtype=dt))


def eye(n, m=None, k=0, dtype=None):
    dims = [integer(n)] + ([] if m is None else [integer(m)])
    if dims[0] * (dims[-1] if len(dims) == 2 else dims[0]) > MAX_ELEMENTS:
        raise S.OutsideDomain("np.eye too large for the oracle")
    dt = dtype_of(dtype) or np.float64
    return array(np.eye(integer(n), None if m is None else integer(m), integer(k), dtype=dt))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def reshape(a, *shape, order=None):
    a = as_array(a, "reshape")
    dims = shape[0] if len(shape) == 1 else tuple(shape)
    return array(np.reshape(a.a, shape_arg(dims)))


def roll(a, shift, axis=None):
    a = as_array(a, "roll")
    return array(np.roll(a.a, integer(shift), axis=axis_of(a, axis)))


def flip(a, axis=None):
    a = as_array(a, "flip")
    return array(np.flip(a.a, axis=axis_of(a, axis)))


def diff(a, n=1, axis=-1):
    a = as_array(a, "diff")
    with np.errstate(all="ignore"):
        return array(np.diff(a.a, n=integer(n), axis=integer(axis)))


def repeat(a, repeats, axis=None):
    a = as_array(a, "repeat")
    count = integer(repeats)
    if count * a.a.size > MAX_ELEMENTS:
        raise S.OutsideDomain("np.repeat too large for the oracle")
    return array(np.repeat(a.a, count, axis=axis_of(a, axis)))


def tile(a, reps):
    a = as_array(a, "tile")
    reps = shape_arg(reps)
    factor = np.prod(reps if isinstance(reps, tuple) else (reps,), dtype=object)
    if factor * a.a.size > MAX_ELEMENTS:
        raise S.OutsideDomain("np.tile too large for the oracle")
    return array(np.tile(a.a, reps))


def outer(a, b):
    a, b = as_array(a, "outer"), as_array(b, "outer")
    if a.a.ndim != 1 or b.a.ndim != 1:
        raise TypeError("np.outer of N-D arrays is outside the generated subset")
    with np.errstate(all="ignore"):
        return array(np.outer(a.a, b.a))


def triangle(name):
    def call(a, k=0):
        a = as_array(a, name)
        if a.a.ndim != 2:
            raise TypeError(f"np.{name} of a non-2-D array is outside the generated subset")
        k = integer(k)
        if abs(k) > 2**62:
            # numpy computes k - 1 with Python ints: OverflowError near int64's ends
            raise S.OutsideDomain(f"np.{name} with k near the int64 limits")
        return array(getattr(np, name)(a.a, k))
    return call


def astype(a, dtype):
    dt = dtype_of(dtype)
    kind = S.DTYPE_KIND[dt]
    if a.kind in S.FLOAT_KINDS and kind not in S.FLOAT_KINDS:
        raise TypeError(".astype from float to int is not in the subset")
    with np.errstate(all="ignore"):
        return array(a.a.astype(dt))


# ------------------------------------------------------ indexing with arrays
def check_index(a, key):
    if key.kind == "bool":
        if key.a.ndim != a.a.ndim:
            raise TypeError("a mask of another ndim is outside the subset")
        for axis, (size, mask_size) in enumerate(zip(a.a.shape, key.a.shape)):
            if size != mask_size:
                # also for an empty mask, which numpy 1.x takes as an empty
                # (integer) index and numpy 2 refuses
                raise IndexError(f"boolean index did not match indexed array along dimension "
                                 f"{axis}; dimension is {size} but corresponding boolean "
                                 f"dimension is {mask_size}")
    elif key.kind not in S.INT_KINDS:
        raise TypeError("a float index array")
    elif key.a.ndim != 1:
        raise TypeError("an N-D index array is outside the generated subset")


def take(a, key):
    """`x[mask]` (a new 1-D array) and `x[idx]` (rows along the first axis)."""
    check_index(a, key)
    return array(a.a[key.a])


def put(a, key, value):
    """`x[mask] = v`, `x[idx] = v`: numpy's assignment, the value converted
    to x's dtype as for a view store (a float array into an int array is
    refused at compile time)."""
    check_index(a, key)
    # the index read whole first (`x[x] = ...`: numpy 1.x does not copy an
    # index that overlaps the target, and may write out of bounds)
    key = S.Array(key.a.copy())
    if isinstance(value, S.Array):
        if value.a.ndim != 1:
            raise TypeError("an N-D value for a mask or index store")
        if value.kind in S.FLOAT_KINDS and a.kind in S.INT_KINDS:
            raise TypeError("a float array stored into an int array (not in the subset)")
        if a.a.ndim != 1 and key.kind != "bool":
            raise TypeError("an array value for rows selected by an index array")
        with np.errstate(all="ignore"):
            a.a[key.a] = value.a.astype(a.a.dtype)
        return
    converted = S.Array(np.zeros(1, a.a.dtype))
    converted[0:1] = value
    a.a[key.a] = converted.a[0]


def _operator_ufunc(name):
    function = getattr(operator, name)
    return lambda a, b: function(a, b)


# --------------------------------------------------------- linear algebra
def trace(a, offset=0):
    a = as_array(a, "trace")
    if a.a.ndim != 2:
        raise TypeError("np.trace of a non-2-D array is outside the generated subset")
    offset = integer(offset)
    check_lanes(np.diagonal(a.a, offset), None, SUMMED[a.kind], order_free_sum, "trace")
    with np.errstate(all="ignore"):
        return wrap(np.asarray(np.trace(a.a, offset)))


def kron(a, b):
    a, b = as_array(a, "kron"), as_array(b, "kron")
    if a.a.ndim != b.a.ndim or a.a.ndim > 2 or "bool" in (a.kind, b.kind):
        raise TypeError("np.kron beyond two 1-D or two 2-D numeric arrays is outside the "
                        "generated subset")
    if a.a.size * b.a.size > MAX_ELEMENTS:
        raise S.OutsideDomain("np.kron too large for the oracle")
    with np.errstate(all="ignore"):
        return array(np.kron(a.a, b.a))


def norm(x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm of the orders the generator writes; an order whose
    result may depend on the order of the sums, or on how squares are
    rounded (BLAS's dot may fuse them), is discarded as np.dot's is."""
    x = as_array(x, "linalg.norm")
    if axis is not None or keepdims:
        raise TypeError("np.linalg.norm(axis=, keepdims=) is outside the generated subset")
    compute = "f32" if x.kind == "f32" else "f64"
    values = x.a.astype(S.NUMPY_DTYPE[compute])
    magnitudes = np.abs(values)
    if ord is None or ord == "fro":
        with np.errstate(all="ignore"):
            squares = values * values
        for square, value in zip(squares.ravel().tolist(), values.ravel().tolist()):
            if math.isfinite(square) and Fraction(square) != Fraction(value) ** 2:
                raise S.OutsideDomain("np.linalg.norm with inexact squares")
        check_lanes(squares.ravel(), None, compute, order_free_sum, "norm")
    elif x.a.ndim == 1 and ord == 1:
        check_lanes(magnitudes, None, compute, order_free_sum, "norm")
    elif x.a.ndim == 2 and ord in (1, -1):
        check_lanes(magnitudes, 0, compute, order_free_sum, "norm")
    elif x.a.ndim == 2 and ord in (math.inf, -math.inf):
        check_lanes(magnitudes, 1, compute, order_free_sum, "norm")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return wrap(np.asarray(np.linalg.norm(values if x.kind != compute else x.a, ord)))


def matmul(a, b):
    """`a @ b` of 1-D and 2-D arrays: integers exactly (wrapping as
    numpy's loops do); floats only when every product is exact and every
    element's sum cannot depend on its order (Kiln's kernel and BLAS sum in
    different orders, and BLAS may fuse the products)."""
    a, b = as_array(a, "matmul"), as_array(b, "matmul")
    if a.a.ndim not in (1, 2) or b.a.ndim not in (1, 2) or "bool" in (a.kind, b.kind):
        raise TypeError("`@` beyond 1-D/2-D numeric arrays is outside the generated subset")
    kind = S.promote(a.kind, b.kind)
    left = a.a if a.a.ndim == 2 else a.a[None, :]
    right = b.a if b.a.ndim == 2 else b.a[:, None]
    if kind in S.COMPLEX_KINDS and left.shape[1] == right.shape[0]:
        check_exact_complex(left, right, left.shape[1], "`@`")
    if kind in S.FLOAT_KINDS and left.shape[1] == right.shape[0]:
        if left.size * right.shape[1] > MAX_ELEMENTS:
            raise S.OutsideDomain("`@` too large for the oracle")
        dtype = S.NUMPY_DTYPE[kind]
        x, y = left.astype(dtype), right.astype(dtype)
        with np.errstate(all="ignore"):
            products = x[:, :, None] * y[None, :, :]
        for p, u, v in zip(products.ravel().tolist(),
                           np.broadcast_to(x[:, :, None], products.shape).ravel().tolist(),
                           np.broadcast_to(y[None, :, :], products.shape).ravel().tolist()):
            if math.isfinite(p) and math.isfinite(u) and math.isfinite(v) and \
                    Fraction(p) != Fraction(u) * Fraction(v):
                raise S.OutsideDomain("`@` with inexact products (BLAS may fuse them)")
        check_lanes(products, 1, kind, order_free_sum, "matmul")
    with np.errstate(all="ignore"):
        return wrap(np.asarray(np.matmul(a.a, b.a)))


# ------------------------------------------------------ sorting and counting
def sorted_operand(a, name):
    a = as_array(a, name)
    if a.a.ndim != 1 or a.kind in S.COMPLEX_KINDS:
        raise TypeError(f"np.{name} beyond 1-D real arrays is outside the generated subset")
    return a


def sort(a, axis=-1, kind=None, order=None):
    # numpy's stable sort: Kiln's merge sort keeps equal elements (-0.0 and
    # 0.0) in their order as it does
    return array(np.sort(sorted_operand(a, "sort").a, kind="stable"))


def argsort(a, axis=-1, kind=None, order=None):
    return array(np.argsort(sorted_operand(a, "argsort").a, kind="stable"))


def searchsorted(a, v, side="left", sorter=None):
    a = sorted_operand(a, "searchsorted")
    if isinstance(v, S.Array):
        v = sorted_operand(v, "searchsorted").a
    else:
        v = np.asarray(numpy_of(v))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return wrap_any(np.searchsorted(a.a, v, side=side))


def unique(a):
    """numpy 1.24's np.unique, over a stable sort (the first of -0.0 and
    0.0 in the array's order is the one kept, as Kiln keeps it)."""
    s = np.sort(sorted_operand(a, "unique").a, kind="stable")
    keep = np.ones(len(s), dtype=bool)
    if len(s) > 1:
        same = (s[1:] == s[:-1]) | (np.isnan(s[1:]) & np.isnan(s[:-1]) if s.dtype.kind == "f"
                                    else False)
        keep[1:] = ~same
    return array(s[keep])


def bincount(x, weights=None, minlength=0):
    x = as_array(x, "bincount")
    if x.a.ndim != 1 or x.kind not in S.INT_KINDS + ("bool",) or x.kind == "u64" or \
            weights is not None:
        raise TypeError("np.bincount beyond 1-D int arrays is outside the generated subset")
    return array(np.bincount(x.a, minlength=integer(minlength)))


HISTOGRAM_KINDS = ("f64", "i64", "i32", "u8", "i16")


def histogram(a, bins=10, range=None, density=None, weights=None):
    """np.histogram of what the generator writes: a 1-D int or float64
    array, a number of bins or an array of edges, `range=`, int64
    `weights=`; numpy's own result and ValueErrors."""
    a = sorted_operand(a, "histogram")
    if a.kind not in HISTOGRAM_KINDS:
        raise TypeError("np.histogram of this dtype is outside the generated subset")
    if isinstance(bins, S.Array):
        edges = bins.a
    else:
        edges = integer(bins)
    limits = None if range is None else tuple(float(S.parts(v)[2]) for v in range)
    w = None
    if weights is not None:
        w = as_array(weights, "histogram").a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counts, found = np.histogram(a.a, bins=edges, range=limits, density=density, weights=w)
    return array(counts), array(found)


class LinalgStandIn:
    """`np.linalg` in the oracle: the functions the generator writes."""
    norm = staticmethod(norm)
    LinAlgError = np.linalg.LinAlgError


FUNCTIONS = {
    **{name: reduction(name) for name in ("sum", "prod", "max", "min", "amax", "amin", "mean",
                                          "average", "any", "all", "var", "std")},
    "cumsum": scan("cumsum"), "cumprod": scan("cumprod"),
    "argmin": arg_extreme("argmin"), "argmax": arg_extreme("argmax"),
    "dot": dot, "where": where, "clip": clip,
    **{name: logical(name) for name in ("logical_and", "logical_or", "logical_xor",
                                        "logical_not")},
    "reshape": reshape, "ravel": lambda a: array(np.ravel(as_array(a, "ravel").a)),
    "flip": flip, "fliplr": plain_numpy("fliplr"), "flipud": plain_numpy("flipud"),
    "transpose": lambda a: array(np.transpose(as_array(a, "transpose").a)),
    "roll": roll, "tile": tile, "repeat": repeat, "diff": diff,
    "concatenate": joiner("concatenate"), "hstack": joiner("hstack"),
    "vstack": joiner("vstack"), "stack": joiner("stack"), "outer": outer,
    "tril": triangle("tril"), "triu": triangle("triu"), "arange": arange,
    "linspace": linspace, "full": full, "full_like": full_like, "eye": eye,
    "identity": identity, "array": np_array, "trace": trace, "kron": kron,
    "sort": sort, "argsort": argsort, "searchsorted": searchsorted, "unique": unique,
    "bincount": bincount, "histogram": histogram,
    # the ufuncs behind the operators (the generator calls them with an
    # array operand): numpy's operator
    **{name: _operator_ufunc(op) for name, op in {
        "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
        "true_divide": "truediv", "floor_divide": "floordiv", "remainder": "mod",
        "mod": "mod", "bitwise_and": "and_", "bitwise_or": "or_", "bitwise_xor": "xor",
        "left_shift": "lshift", "right_shift": "rshift"}.items()},
}


def _method(name):
    function = FUNCTIONS[name]
    return lambda self, *args, **kwargs: function(self, *args, **kwargs)


def _install():
    for name in ("sum", "prod", "max", "min", "mean", "any", "all", "var", "std", "cumsum",
                 "cumprod", "argmin", "argmax", "ravel", "repeat"):
        setattr(S.Array, name, _method(name))
    S.Array.reshape = lambda self, *shape: reshape(self, *shape)
    S.Array.transpose = lambda self: array(np.transpose(self.a))
    S.Array.T = property(lambda self: array(self.a.T))
    S.Array.__matmul__ = lambda self, other: matmul(self, other)
    S.Array.copy = lambda self: array(self.a.copy())
    S.Array.flatten = lambda self: array(self.a.flatten())
    S.Array.astype = astype
    S.Array.dtype = property(lambda self: S.ArrayDType(self.kind, S.NUMPY_DTYPE[self.kind]))
    for symbol, name in (("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"), ("==", "eq"),
                         ("!=", "ne")):
        setattr(S.Array, f"__{name}__",
                (lambda op: lambda self, other: compare_arrays(op, self, other))(symbol))
    S.Array.__hash__ = None
    for name in ("lt", "le", "gt", "ge", "eq", "ne"):
        scalar = getattr(S.Num, f"__{name}__")
        setattr(S.Num, f"__{name}__", (lambda f: lambda self, other: NotImplemented
                                        if isinstance(other, S.Array) else f(self, other))(scalar))


_install()
