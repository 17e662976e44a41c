"""Code generation for complex scalars (`complex`, `kiln.c128`).

A complex value is an MLIR `complex<f64>`: `complex.create`, `complex.re`
and `complex.im` hold and take apart its two float64 parts, and lower to
an LLVM struct of two doubles (`double _Complex` in the C ABI). The
arithmetic is written here on the parts, in the order CPython's
`Objects/complexobject.c` computes it (`_Py_c_prod`, `_Py_c_quot`,
`c_powu`, `_Py_c_abs`), rather than with `complex.mul`/`complex.div`/
`complex.abs`: upstream's lowerings add C99 Annex G's recovery of
infinities, scale `abs`, or use another division algorithm, and the
results then differ from CPython's in NaN/inf cases and in the last bit.
Type inference decides what is allowed (typing_rules: promotion to
complex, no ordering, no `//` or `%`); this mixin only builds the IR.
"""

from __future__ import annotations

import ast
import cmath
import math
import sys

from .. import typesystem as kt
from . import ir_builder as ir
from .. import library_functions as lib
from .. import typing_rules as rules
from ..library_functions import CMATH_FUNCTIONS, NUMPY_FUNCTIONS
from .values import tuple_value


def mlir_part(part: kt.ScalarType) -> ir.Type:
    return ir.f32 if part == kt.f32 else ir.f64


# CPython's classes of a float for cmath's special-value tables
# (Modules/cmathmodule.c special_type): -inf, negative, -0.0, +0.0,
# positive, +inf, NaN; one representative each.
SPECIAL_CLASSES = (-math.inf, -2.5, -0.0, 0.0, 2.5, math.inf, math.nan)
# exp(x) overflows beyond log(DBL_MAX / 4): CPython computes exp(x - 1) * e
# there (CM_LOG_LARGE_DOUBLE).
CM_LOG_LARGE_DOUBLE = math.log(sys.float_info.max / 4)


def special_class(value: float) -> int:
    if math.isnan(value):
        return 6
    if math.isinf(value):
        return 0 if value < 0 else 5
    if value == 0:
        return 2 if math.copysign(1.0, value) < 0 else 3
    return 1 if value < 0 else 4


def _special_values(function, computed=lambda real, imag: False) -> dict:
    """A cmath function's table for a non-finite part, read from the
    CPython that runs Kiln: {(class of real, class of imag): result},
    without the entries CPython computes instead (`computed`) and those
    that raise (the caller raises for them)."""
    table = {}
    for i, real in enumerate(SPECIAL_CLASSES):
        for j, imag in enumerate(SPECIAL_CLASSES):
            if math.isfinite(real) and math.isfinite(imag) or computed(real, imag):
                continue
            try:
                table[(i, j)] = function(complex(real, imag))
            except ValueError:
                pass
    return table


# cmath.exp computes an infinite real part with a finite nonzero imaginary one
EXP_SPECIAL_VALUES = _special_values(
    cmath.exp, lambda real, imag: math.isinf(real) and math.isfinite(imag) and imag != 0)
SQRT_SPECIAL_VALUES = _special_values(cmath.sqrt)
LOG_SPECIAL_VALUES = _special_values(cmath.log)
# cosh, sinh, tanh (and cos, sin, tan through them) and rect compute the
# same case from cos/sin signs
_INFINITE_BY_FINITE_NONZERO = (lambda real, imag: math.isinf(real) and math.isfinite(imag)
                               and imag != 0)
COSH_SPECIAL_VALUES = _special_values(cmath.cosh, _INFINITE_BY_FINITE_NONZERO)
SINH_SPECIAL_VALUES = _special_values(cmath.sinh, _INFINITE_BY_FINITE_NONZERO)
TANH_SPECIAL_VALUES = _special_values(cmath.tanh, _INFINITE_BY_FINITE_NONZERO)
RECT_SPECIAL_VALUES = _special_values(lambda z: cmath.rect(z.real, z.imag),
                                      _INFINITE_BY_FINITE_NONZERO)
ACOS_SPECIAL_VALUES = _special_values(cmath.acos)
ACOSH_SPECIAL_VALUES = _special_values(cmath.acosh)
ASINH_SPECIAL_VALUES = _special_values(cmath.asinh)
ATANH_SPECIAL_VALUES = _special_values(cmath.atanh)
# CPython's thresholds (Modules/cmathmodule.c): beyond CM_LARGE_DOUBLE the
# inverse functions use the magnitude's log; atanh uses 1/z beyond its root
CM_LARGE_DOUBLE = sys.float_info.max / 4
CM_SQRT_LARGE_DOUBLE = math.sqrt(CM_LARGE_DOUBLE)
CM_SQRT_DBL_MIN = math.sqrt(sys.float_info.min)


class ComplexNumbers:
    """Mixin of FunctionCodeGenerator: the complex parts of expressions."""

    # ----------------------------------------------------------- parts
    def complex_parts(self, z, node):
        """(real, imag) float values of complex value `z` (float64 parts of
        a complex128, float32 of a complex64)."""
        if z.constant is not None:
            value = complex(z.constant)
            return (self.constant(value.real, z.type.part, node),
                    self.constant(value.imag, z.type.part, node))
        return self.complex_part(z, "real", node), self.complex_part(z, "imag", node)

    def complex_part(self, z, name, node):
        """`z.real` or `z.imag` ("real"/"imag")."""
        part_type = z.type.part
        if z.constant is not None:
            return self.constant(getattr(complex(z.constant), name), part_type, node)
        op = "complex.re" if name == "real" else "complex.im"
        part = self.builder.op(op, (z.ir,), (mlir_part(part_type),), None, (),
                               self.loc(node)).result
        return self.value_of(part, part_type)

    def python_part(self, z, name, node):
        """`z.real` / `z.imag` as CPython gives it: a Python float (weak
        under NEP 50) of a Python complex, a typed float64 otherwise."""
        part = self.complex_part(z, name, node)
        part.weak = "float" if z.weak else None
        return part

    def make_complex(self, real, imag, node):
        """The complex number of two float parts of one type (complex64 of
        float32 parts, complex128 of float64 ones)."""
        type_ = kt.ScalarType.complex_of(real.type)
        result = self.builder.op("complex.create", (real.ir, imag.ir),
                                 (ir.complex_type(mlir_part(real.type)),), None, (),
                                 self.loc(node)).result
        return self.value_of(result, type_)

    def complex_constant(self, value, node, weak=None, type_=kt.c128):
        value = rules.round_complex(value, type_)
        made = self.make_complex(self.constant(value.real, type_.part, node),
                                 self.constant(value.imag, type_.part, node), node)
        made.weak, made.constant = weak, value
        return made

    def complex_from_real(self, value, node, target=kt.c128):
        """A real number as a complex one: CPython's (x, 0.0); numpy's
        casts to complex64 round the real number to float32."""
        real = self.convert(value, target.part, node)
        return self.make_complex(real, self.constant(0.0, target.part, node), node)

    def complex_cast(self, z, target, node):
        """complex64 <-> complex128: each part converted as numpy does."""
        real, imag = self.complex_parts(z, node)
        return self.make_complex(self.convert(real, target.part, node),
                                 self.convert(imag, target.part, node), node)

    def part_constant(self, value, like, node):
        """A float constant of the type of float value `like`."""
        return self.constant(value, like.type, node)

    # ------------------------------------------------------ arithmetic
    def complex_arithmetic(self, symbol, a, b, node, exponent=None):
        if a.type == kt.c64 and symbol in ("/", "**"):
            return self.complex64_arithmetic(symbol, a, b, node, exponent)
        if symbol == "**" and exponent is None:
            return self.complex_power_of(a, b, node)
        if symbol == "**":
            return self.complex_power(a, exponent, node)
        (ar, ai), (br, bi) = self.complex_parts(a, node), self.complex_parts(b, node)
        if symbol in ("+", "-"):
            opname = "addf" if symbol == "+" else "subf"
            return self.make_complex(self.arith(opname, ar, br, node),
                                     self.arith(opname, ai, bi, node), node)
        if symbol == "*":
            return self.make_complex(*self.complex_product((ar, ai), (br, bi), node), node)
        return self.make_complex(*self.complex_quotient(
            (ar, ai), (br, bi), node, "complex division by zero",
            b.constant is not None and b.constant != 0), node)

    def complex64_arithmetic(self, symbol, a, b, node, exponent):
        """`/` and `**` of complex64 scalars: numpy's scalar math (its
        division, its npy_cpowf for any exponent), except that a zero divisor raises
        ZeroDivisionError, as every scalar division in Kiln does (a float32
        one too)."""
        if symbol == "**":
            # numpy's scalar power: npy_cpowf, without the array operator's
            # fast paths (`z ** -1` is not np.reciprocal's rounding)
            return self.numpy_complex_power_of(a, self.convert(b, a.type, node), node, False)
        (ar, ai), (br, bi) = self.complex_parts(a, node), self.complex_parts(b, node)
        if b.constant is None or b.constant == 0:
            zero = self.part_constant(0.0, br, node)
            is_zero = self.arith("andi", self.cmpf("oeq", br, zero, node),
                                 self.cmpf("oeq", bi, zero, node), node)
            self.check(self.negate(is_zero, node), "ZeroDivisionError",
                       "complex division by zero", [], node)
        return self.make_complex(*self.numpy_quotient((ar, ai), (br, bi), node), node)

    def complex_product(self, a, b, node):
        """_Py_c_prod: (a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re)."""
        (ar, ai), (br, bi) = a, b
        real = self.arith("subf", self.arith("mulf", ar, br, node),
                          self.arith("mulf", ai, bi, node), node)
        imag = self.arith("addf", self.arith("mulf", ar, bi, node),
                          self.arith("mulf", ai, br, node), node)
        return real, imag

    def complex_quotient(self, a, b, node, message, divisor_nonzero=False,
                         kind="ZeroDivisionError"):
        """_Py_c_quot: Smith's algorithm on the larger part of the divisor;
        ZeroDivisionError(`message`) for a zero divisor, NaN parts when the
        divisor has a NaN part. Both branches are computed (no float op
        traps) and the right one selected."""
        (ar, ai), (br, bi) = a, b
        zero = self.part_constant(0.0, br, node)
        abs_br, abs_bi = self.unary("absf", br, node), self.unary("absf", bi, node)
        if not divisor_nonzero:
            is_zero = self.arith("andi", self.cmpf("oeq", br, zero, node),
                                 self.cmpf("oeq", bi, zero, node), node)
            self.check(self.negate(is_zero, node), kind, message, [], node)
        real_larger = self.cmpf("oge", abs_br, abs_bi, node)
        imag_larger = self.cmpf("oge", abs_bi, abs_br, node)
        # |b.real| >= |b.imag|
        ratio = self.arith("divf", bi, br, node)
        denom = self.arith("addf", br, self.arith("mulf", bi, ratio, node), node)
        real1 = self.arith("divf", self.arith("addf", ar, self.arith("mulf", ai, ratio, node),
                                              node), denom, node)
        imag1 = self.arith("divf", self.arith("subf", ai, self.arith("mulf", ar, ratio, node),
                                              node), denom, node)
        # |b.imag| > |b.real|
        ratio2 = self.arith("divf", br, bi, node)
        denom2 = self.arith("addf", self.arith("mulf", br, ratio2, node), bi, node)
        real2 = self.arith("divf", self.arith("addf", self.arith("mulf", ar, ratio2, node), ai,
                                              node), denom2, node)
        imag2 = self.arith("divf", self.arith("subf", self.arith("mulf", ai, ratio2, node), ar,
                                              node), denom2, node)
        nan = self.part_constant(math.nan, br, node)
        real = self.select(real_larger, real1, self.select(imag_larger, real2, nan, node), node)
        imag = self.select(real_larger, imag1, self.select(imag_larger, imag2, nan, node), node)
        return real, imag

    def complex_power(self, base, exponent: int, node):
        """`z ** n` for a constant integer n in [-100, 100]: CPython's c_powi
        (c_powu's square-and-multiply from r = 1+0j, then 1/r for n < 0),
        and complex_pow's errors: ZeroDivisionError for 0 ** -n, and
        OverflowError when a part of the result is infinite."""
        one = (self.constant(1.0, kt.f64, node), self.constant(0.0, kt.f64, node))
        power = self.complex_parts(base, node)
        result = one
        count, mask = abs(exponent), 1
        while mask <= count:
            if count & mask:
                result = self.complex_product(result, power, node)
            mask <<= 1
            if mask <= count:
                power = self.complex_product(power, power, node)
        if exponent <= 0:
            result = self.complex_quotient(one, result, node,
                                           "0.0 to a negative or complex power",
                                           divisor_nonzero=exponent == 0)
        infinity = self.constant(math.inf, kt.f64, node)
        finite = [self.cmpf("une", self.unary("absf", part, node), infinity, node)
                  for part in result]
        self.check(self.arith("andi", *finite, node), "OverflowError",
                   "complex exponentiation", [], node)
        return self.make_complex(*result, node)

    def complex_power_of(self, base, exponent, node):
        """`z ** w` for a w known only at run time: CPython's complex_pow.
        An exponent with a small integer value (real, whole, |w| <= 100)
        takes c_powi (the square-and-multiply of complex_power, over the 7
        bits |w| may have, each step selected), any other _Py_c_pow's polar
        form; both are computed and one selected, so their checks are made
        only for the one chosen: ZeroDivisionError for 0 to a negative or
        complex power, OverflowError when a part of the result is
        infinite."""
        f = lambda value: self.constant(value, kt.f64, node)      # noqa: E731
        op = lambda name, *xs: self.arith(name, *xs, node)        # noqa: E731
        fn = lambda name, x: self.unary(name, x, node)            # noqa: E731
        (ar, ai), (br, bi) = self.complex_parts(base, node), self.complex_parts(exponent, node)
        zero, one = f(0.0), f(1.0)
        small = op("andi", op("andi", self.cmpf("oeq", bi, zero, node),
                              self.cmpf("oeq", fn("floor", br), br, node)),
                   self.cmpf("ole", fn("absf", br), f(100.0), node))
        n = self.cast("fptosi", self.select(small, br, zero, node), kt.i64, node)
        count = self.select(self.cmpi("slt", n, self.constant(0, kt.i64, node), node),
                            op("subi", self.constant(0, kt.i64, node), n), n, node)
        result, power = (one, zero), (ar, ai)
        for bit in range(7):            # |n| <= 100 < 2**7
            taken = self.cmpi("ne", op("andi", count, self.constant(1 << bit, kt.i64, node)),
                              self.constant(0, kt.i64, node), node)
            product = self.complex_product(result, power, node)
            result = tuple(self.select(taken, p, r, node) for p, r in zip(product, result))
            power = self.complex_product(power, power, node)
        negative = op("andi", small, self.cmpi("slt", n, self.constant(0, kt.i64, node), node))
        divisor = tuple(self.select(negative, r, o, node) for r, o in zip(result, (one, zero)))
        # c_quot's EDOM for 0 ** -n: the divisor is 1 unless the power is negative
        inverse = self.complex_quotient((one, zero), divisor, node,
                                        "0.0 to a negative or complex power")
        powi = tuple(self.select(negative, i, r, node) for i, r in zip(inverse, result))
        # _Py_c_pow
        exponent_zero = op("andi", self.cmpf("oeq", br, zero, node),
                           self.cmpf("oeq", bi, zero, node))
        base_zero = op("andi", self.cmpf("oeq", ar, zero, node), self.cmpf("oeq", ai, zero, node))
        polar_taken = op("andi", self.negate(small, node), self.negate(exponent_zero, node))
        undefined = op("andi", polar_taken,
                       op("andi", base_zero, op("ori", self.cmpf("une", bi, zero, node),
                                                 self.cmpf("olt", br, zero, node))))
        magnitude = self.inline_hypot(ar, ai, node)
        length = op("powf", magnitude, br)
        angle = op("atan2", ai, ar)
        phase = op("mulf", angle, br)
        complex_exponent = self.cmpf("une", bi, zero, node)
        length = self.select(complex_exponent,
                             op("divf", length, fn("exp", op("mulf", angle, bi))), length, node)
        phase = self.select(complex_exponent,
                            op("addf", phase, op("mulf", bi, fn("log", magnitude))), phase, node)
        # libm's cos and sin of an infinite phase set EDOM, which CPython
        # reports as this ZeroDivisionError too
        infinite_phase = self.cmpf("oeq", fn("absf", phase), f(math.inf), node)
        undefined = op("ori", undefined, op("andi", op("andi", polar_taken,
                                                       self.negate(base_zero, node)),
                                            infinite_phase))
        self.check(self.negate(undefined, node), "ZeroDivisionError",
                   "0.0 to a negative or complex power", [], node)
        polar = (op("mulf", length, fn("cos", phase)), op("mulf", length, fn("sin", phase)))
        polar = tuple(self.select(base_zero, zero, p, node) for p in polar)
        polar = tuple(self.select(exponent_zero, c, p, node) for c, p in zip((one, zero), polar))
        result = tuple(self.select(small, a, b, node) for a, b in zip(powi, polar))
        infinity = f(math.inf)
        finite = [self.cmpf("une", fn("absf", part), infinity, node) for part in result]
        self.check(op("andi", *finite), "OverflowError", "complex exponentiation", [], node)
        return self.make_complex(*result, node)

    def complex_negate(self, z, node):
        real, imag = self.complex_parts(z, node)
        return self.make_complex(self.unary("negf", real, node), self.unary("negf", imag, node),
                                 node)

    def complex_conjugate(self, z, node):
        real, imag = self.complex_parts(z, node)
        return self.make_complex(real, self.unary("negf", imag, node), node)

    # ------------------------------------------------------- predicates
    def complex_equal(self, left, right, common, node):
        """CPython's complex ==: both parts equal. A 64-bit int is compared
        with the real part exactly (as CPython compares an int with a
        float), and the imaginary part must be zero."""
        for integer, number in ((left, right), (right, left)):
            if self.needs_exact_compare(integer) and number.type.is_complex:
                real, imag = self.complex_parts(number, node)
                real_equal = self.exact_compare(ast.Eq(), integer, real, True, node)
                zero = self.part_constant(0.0, imag, node)
                return self.arith("andi", real_equal, self.cmpf("oeq", imag, zero, node), node)
        a = self.convert(left, common, node)
        b = self.convert(right, common, node)
        (ar, ai), (br, bi) = self.complex_parts(a, node), self.complex_parts(b, node)
        return self.arith("andi", self.cmpf("oeq", ar, br, node), self.cmpf("oeq", ai, bi, node),
                          node)

    def complex_truthy(self, z, node):
        real, imag = self.complex_parts(z, node)
        zero = self.part_constant(0.0, real, node)
        return self.arith("ori", self.cmpf("une", real, zero, node),
                          self.cmpf("une", imag, zero, node), node)

    def complex_abs(self, z, node, python=True, message="absolute value too large"):
        """abs(z): CPython's _Py_c_abs (an infinite part wins over a NaN;
        OverflowError when the finite parts' hypot overflows); np.abs is
        glibc's hypot of the parts, inf on overflow (python=False)."""
        real, imag = self.complex_parts(z, node)
        magnitude = self.inline_hypot(real, imag, node)
        if not python:
            return magnitude
        infinity = self.constant(math.inf, kt.f64, node)
        abs_real, abs_imag = self.unary("absf", real, node), self.unary("absf", imag, node)
        real_inf = self.cmpf("oeq", abs_real, infinity, node)
        imag_inf = self.cmpf("oeq", abs_imag, infinity, node)
        finite = self.arith("andi", self.cmpf("olt", abs_real, infinity, node),
                            self.cmpf("olt", abs_imag, infinity, node), node)
        overflow = self.arith("andi", finite,
                              self.cmpf("oeq", magnitude, infinity, node), node)
        self.check(self.negate(overflow, node), "OverflowError", message, [], node)
        nan = self.constant(math.nan, kt.f64, node)
        special = self.select(real_inf, abs_real, self.select(imag_inf, abs_imag, nan, node),
                              node)
        return self.select(finite, magnitude, special, node)

    def inline_hypot(self, x, y, node):
        """glibc 2.36's double `hypot` (sysdeps/ieee754/dbl-64/e_hypot.c,
        the variant without fused multiply-add that x86-64 runs), written
        out so that loops over it vectorize: Borges' corrected sqrt kernel,
        with the inputs scaled by 2**-600 above 2**511 and by 2**600 below
        2**-511. Bit for bit glibc's (test_complex_arrays checks it against
        libm on 180,000 inputs across the exponent range); every branch is
        computed and the right one selected."""
        def c(value):
            return self.constant(value, kt.f64, node)

        def op(name, a, b):
            return self.arith(name, a, b, node)

        def less(a, b, predicate="olt"):
            return self.cmpf(predicate, a, b, node)

        abs_x, abs_y = self.unary("absf", x, node), self.unary("absf", y, node)
        swap = less(abs_x, abs_y)
        ax, ay = self.select(swap, abs_y, abs_x, node), self.select(swap, abs_x, abs_y, node)
        large = less(c(2.0 ** 511), ax)
        tiny = self.arith("andi", self.negate(large, node), less(ay, c(2.0 ** -511)), node)
        scale_in = self.select(large, c(2.0 ** -600), self.select(tiny, c(2.0 ** 600), c(1.0),
                                                                  node), node)
        scale_out = self.select(large, c(2.0 ** 600), self.select(tiny, c(2.0 ** -600), c(1.0),
                                                                  node), node)
        sx, sy = op("mulf", ax, scale_in), op("mulf", ay, scale_in)
        # kernel(sx, sy): Borges' correction of sqrt(sx*sx + sy*sy)
        h = self.unary("sqrt", op("addf", op("mulf", sx, sx), op("mulf", sy, sy)), node)
        near = less(h, op("mulf", c(2.0), sy), "ole")
        delta = self.select(near, op("subf", h, sy), op("subf", h, sx), node)
        t1 = self.select(
            near, op("mulf", sx, op("subf", op("mulf", c(2.0), delta), sx)),
            op("mulf", op("mulf", c(2.0), delta), op("subf", sx, op("mulf", c(2.0), sy))), node)
        t2 = self.select(
            near, op("mulf", op("subf", delta, op("mulf", c(2.0), op("subf", sx, sy))), delta),
            op("addf", op("mulf", op("subf", op("mulf", c(4.0), delta), sy), sy),
               op("mulf", delta, delta)), node)
        kernel = op("subf", h, op("divf", op("addf", t1, t2), op("mulf", c(2.0), h)))
        scaled = op("mulf", kernel, scale_out)
        negligible = self.select(tiny, less(op("mulf", ay, c(2.0 ** 54)), ax, "ole"),
                                 less(ay, op("mulf", ax, c(2.0 ** -54)), "ole"), node)
        finite_result = self.select(negligible, op("addf", ax, ay), scaled, node)
        infinity = c(math.inf)
        either_inf = self.arith("ori", less(abs_x, infinity, "oeq"),
                                less(abs_y, infinity, "oeq"), node)
        finite = self.arith("andi", less(abs_x, infinity), less(abs_y, infinity), node)
        special = self.select(either_inf, infinity, op("addf", x, y), node)
        return self.select(finite, finite_result, special, node)

    # ------------------------------------------------- numpy's complex loops
    def numpy_complex_operator(self, symbol, a, b, exponent, node, dtype=kt.c128):
        """numpy's complex ufunc loops for an operator (array elements of
        complex `dtype`): + - * as CPython, / by numpy's variant of Smith's
        algorithm (no exception: a zero divisor gives inf/NaN parts), ** of
        a constant integer exponent by numpy's npy_cpow."""
        fast = symbol == "**" and self.scalar_power_fast_paths(node)
        a, b = self.convert(a, dtype, node), self.convert(b, dtype, node)
        known = None if exponent is None else complex(exponent)
        if symbol == "**" and not (fast and known is not None and known.imag == 0 and
                                   known.real.is_integer() and abs(known.real) <= 100):
            # (np.power and a complex exponent take no fast path, even when
            # the exponent is known; a known exponent that is not a small
            # whole number is computed as an unknown one, folded)
            return self.numpy_complex_power_of(a, b, node, fast)
        if symbol == "**":
            return self.numpy_complex_power(a, int(complex(exponent).real), node)
        if symbol != "/":
            return self.complex_arithmetic(symbol, a, b, node)      # + - *
        (ar, ai), (br, bi) = self.complex_parts(a, node), self.complex_parts(b, node)
        return self.make_complex(*self.numpy_quotient((ar, ai), (br, bi), node), node)

    def numpy_quotient(self, a, b, node):
        """numpy's CDOUBLE_divide: rat = the smaller part over the larger,
        scl = 1 / (larger + smaller * rat), results multiplied by scl; a
        zero divisor divides the parts by |b.real| (inf or NaN)."""
        (ar, ai), (br, bi) = a, b
        one = self.part_constant(1.0, br, node)
        abs_br, abs_bi = self.unary("absf", br, node), self.unary("absf", bi, node)
        real_larger = self.cmpf("oge", abs_br, abs_bi, node)
        zero = self.part_constant(0.0, br, node)
        both_zero = self.arith("andi", self.cmpf("oeq", abs_br, zero, node),
                               self.cmpf("oeq", abs_bi, zero, node), node)
        ratio = self.arith("divf", bi, br, node)
        scale = self.arith("divf", one, self.arith("addf", br, self.arith(
            "mulf", bi, ratio, node), node), node)
        real1 = self.arith("mulf", self.arith("addf", ar, self.arith("mulf", ai, ratio, node),
                                              node), scale, node)
        imag1 = self.arith("mulf", self.arith("subf", ai, self.arith("mulf", ar, ratio, node),
                                              node), scale, node)
        real0 = self.arith("divf", ar, abs_br, node)
        imag0 = self.arith("divf", ai, abs_br, node)
        ratio2 = self.arith("divf", br, bi, node)
        scale2 = self.arith("divf", one, self.arith("addf", bi, self.arith(
            "mulf", br, ratio2, node), node), node)
        real2 = self.arith("mulf", self.arith("addf", self.arith("mulf", ar, ratio2, node), ai,
                                              node), scale2, node)
        imag2 = self.arith("mulf", self.arith("subf", self.arith("mulf", ai, ratio2, node), ar,
                                              node), scale2, node)
        real = self.select(real_larger, self.select(both_zero, real0, real1, node), real2, node)
        imag = self.select(real_larger, self.select(both_zero, imag0, imag1, node), imag2, node)
        return real, imag

    def numpy_complex_power(self, z, n, node):
        """numpy's `z ** n` of a complex array and a constant integer n: its
        fast paths for a scalar exponent (0: ones, 1: a copy, 2: np.square,
        -1: np.reciprocal), else npy_cpow: a zero base gives 0 (n > 0) or
        NaN parts (n < 0); n = 3 unrolled as z*(z*z); otherwise
        square-and-multiply from 1+0j, and 1/r for n < 0 (numpy's
        division)."""
        part = z.type.part
        one, zero = self.constant(1.0, part, node), self.constant(0.0, part, node)
        if n == 0:
            return self.make_complex(one, zero, node)
        if n == 1:
            return z
        base = self.complex_parts(z, node)
        if n == 2:
            return self.make_complex(*self.complex_product(base, base, node), node)
        if n == -1:
            return self.make_complex(*self.numpy_reciprocal(base, node), node)
        if n == 3:
            result = self.complex_product(base, self.complex_product(base, base, node), node)
        else:
            result, power, count, mask = (one, zero), base, abs(n), 1
            while True:
                if count & mask:
                    result = self.complex_product(result, power, node)
                mask <<= 1
                if count < mask:
                    break
                power = self.complex_product(power, power, node)
            if n < 0:
                result = self.numpy_quotient((one, zero), result, node)
        base_zero = self.arith("andi", self.cmpf("oeq", base[0], zero, node),
                               self.cmpf("oeq", base[1], zero, node), node)
        special = zero if n > 0 else self.constant(math.nan, part, node)
        return self.make_complex(self.select(base_zero, special, result[0], node),
                                 self.select(base_zero, special, result[1], node), node)

    def scalar_power_fast_paths(self, node) -> bool:
        """Whether numpy takes its fast paths for `array ** e` (and `**=`)
        here: the `**` operator (not np.power) of an array and a real
        number (not a complex one), as ndarray.__pow__'s
        fast_scalar_power."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base, exponent = node.left, node.right
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Pow):
            base, exponent = node.target, node.value
        else:
            return False
        base_type = getattr(self.typed.values.get(base), "type", None)
        exponent_type = getattr(self.typed.values.get(exponent), "type", None)
        return isinstance(base_type, kt.ArrayType) and isinstance(exponent_type, kt.ScalarType) \
            and not exponent_type.is_complex

    def numpy_complex_power_of(self, z, w, node, fast):
        """numpy's `z ** w` of complex elements with w known only at run
        time. `fast`: an array to a real number by the `**` operator, where
        numpy first takes np.positive, np.reciprocal, ones, np.sqrt (libm's
        csqrt) or np.square for w = 1, -1, 0, 0.5, 2. Otherwise npy_cpow:
        1 for a zero exponent; for a zero base 0 (w real and positive) or
        NaN parts; a whole real w with |w| < 100 by multiplication (w = 1,
        2, 3 unrolled; square-and-multiply over 7 selected bits, then
        numpy's 1/r for w < 0); any other by libm's cpow. Every branch is
        computed and one selected."""
        part = z.type.part
        c = lambda value: self.constant(value, part, node)         # noqa: E731
        op = lambda name, *xs: self.arith(name, *xs, node)         # noqa: E731
        eq = lambda x, y: self.cmpf("oeq", x, y, node)             # noqa: E731
        pick = lambda flag, x, y: tuple(self.select(flag, p, q, node)  # noqa: E731
                                        for p, q in zip(x, y))
        base = (ar, ai) = self.complex_parts(z, node)
        br, bi = self.complex_parts(w, node)
        one, zero, nan = c(1.0), c(0.0), c(math.nan)
        square = self.complex_product(base, base, node)
        cube = self.complex_product(base, square, node)
        whole = op("andi", op("andi", eq(bi, zero), eq(self.unary("floor", br, node), br)),
                   self.cmpf("olt", self.unary("absf", br, node), c(100.0), node))
        n = self.cast("fptosi", self.select(whole, br, zero, node), kt.i64, node)
        count = self.select(self.cmpi("slt", n, self.constant(0, kt.i64, node), node),
                            op("subi", self.constant(0, kt.i64, node), n), n, node)
        result, power = (one, zero), base
        for bit in range(7):            # |n| < 100 < 2**7
            taken = self.cmpi("ne", op("andi", count, self.constant(1 << bit, kt.i64, node)),
                              self.constant(0, kt.i64, node), node)
            result = pick(taken, self.complex_product(result, power, node), result)
            power = self.complex_product(power, power, node)
        result = pick(self.cmpf("olt", br, zero, node),
                      self.numpy_quotient((one, zero), result, node), result)
        for k, exact in ((3, cube), (2, square), (1, base)):
            result = pick(eq(br, c(float(k))), exact, result)
        general = self.complex_parts(self.libm_call("cpow" + ("f" if z.type == kt.c64 else ""),
                                                    [z, w], node), node)
        result = pick(whole, result, general)
        zero_base = pick(op("andi", self.cmpf("ogt", br, zero, node), eq(bi, zero)),
                         (zero, zero), (nan, nan))
        result = pick(op("andi", eq(ar, zero), eq(ai, zero)), zero_base, result)
        result = pick(op("andi", eq(br, zero), eq(bi, zero)), (one, zero), result)
        if fast:
            root = self.complex_parts(self.libm_call(
                "csqrt" + ("f" if z.type == kt.c64 else ""), [z], node), node)
            for value, exact in ((2.0, square), (0.5, root), (0.0, (one, zero)),
                                 (-1.0, self.numpy_reciprocal(base, node)), (1.0, base)):
                result = pick(eq(br, c(value)), exact, result)
        return self.make_complex(*result, node)

    def numpy_reciprocal(self, z, node):
        """numpy's CDOUBLE_reciprocal: r = the smaller part over the larger,
        d = larger + smaller * r; (1/d, -r/d) or (r/d, -1/d)."""
        real, imag = z
        one = self.part_constant(1.0, real, node)
        real_larger = self.cmpf("ole", self.unary("absf", imag, node),
                                self.unary("absf", real, node), node)
        r1 = self.arith("divf", imag, real, node)
        d1 = self.arith("addf", real, self.arith("mulf", imag, r1, node), node)
        r2 = self.arith("divf", real, imag, node)
        d2 = self.arith("addf", self.arith("mulf", real, r2, node), imag, node)
        return (self.select(real_larger, self.arith("divf", one, d1, node),
                            self.arith("divf", r2, d2, node), node),
                self.select(real_larger, self.arith("divf", self.unary("negf", r1, node), d1, node),
                            self.arith("divf", self.unary("negf", one, node), d2, node), node))

    def numpy_complex_elementwise(self, name, z, node):
        """np.abs / conj / real / imag / isnan / isinf / isfinite of a
        complex element."""
        function = NUMPY_FUNCTIONS[name]
        if function.family is lib.ABSOLUTE:
            if z.type == kt.c64:
                return self.numpy_abs_complex64(z, node)
            return self.complex_abs(z, node, python=False)
        if function.family is lib.CONJUGATE:
            return self.complex_conjugate(z, node)
        if function.family is lib.PART:
            return self.complex_part(z, name, node)
        if function.complex_libm:
            return self.libm_call(function.complex_libm + ("f" if z.type == kt.c64 else ""),
                                  [z], node)
        return self.complex_predicate(name, z, node)

    def numpy_abs_complex64(self, z, node):
        """np.abs of a complex64 as numpy 1.24's AVX-512F loop computes it
        (bit for bit on this machine, test_complex64): larger * sqrt(
        fma(r, r, 1)) for r = smaller / larger of the parts' magnitudes, in
        float32; inf when a part is infinite, else NaN when one is NaN, 0
        for 0. (Its loop without AVX-512 calls hypotf, which differs in the
        last bit for about a third of inputs.)"""
        real, imag = self.complex_parts(z, node)

        def c(value):
            return self.constant(value, kt.f32, node)

        abs_real, abs_imag = self.unary("absf", real, node), self.unary("absf", imag, node)
        real_larger = self.cmpf("oge", abs_real, abs_imag, node)
        larger = self.select(real_larger, abs_real, abs_imag, node)
        smaller = self.select(real_larger, abs_imag, abs_real, node)
        ratio = self.arith("divf", smaller, larger, node)
        ratio = self.select(self.cmpf("oeq", larger, c(0.0), node), c(0.0), ratio, node)
        fused = self.value_of(self.builder.op(
            "math.fma", (ratio.ir, ratio.ir, c(1.0).ir), (ir.f32,), None, (),
            self.loc(node)).result, kt.f32)
        magnitude = self.arith("mulf", larger, self.unary("sqrt", fused, node), node)
        infinity = c(math.inf)
        either_inf = self.arith("ori", self.cmpf("oeq", abs_real, infinity, node),
                                self.cmpf("oeq", abs_imag, infinity, node), node)
        either_nan = self.arith("ori", self.is_nan(real, node), self.is_nan(imag, node), node)
        magnitude = self.select(either_nan, c(math.nan), magnitude, node)
        return self.select(either_inf, infinity, magnitude, node)

    def complex_predicate(self, name, z, node):
        """isnan / isinf of either part, isfinite of both (np.* and cmath.*)."""
        real, imag = self.complex_parts(z, node)
        if name == "isnan":
            return self.arith("ori", self.is_nan(real, node), self.is_nan(imag, node), node)
        if name == "isinf":
            return self.arith("ori", self.is_inf(real, node), self.is_inf(imag, node), node)
        return self.arith("andi", self.is_finite(real, node), self.is_finite(imag, node), node)

    # ------------------------------------------------------------ cmath
    def special_class_of(self, x, node):
        """special_class of a float value, as an i64 value."""
        def c(value):
            return self.constant(value, kt.i64, node)

        zero, infinity = self.constant(0.0, kt.f64, node), self.constant(math.inf, kt.f64, node)
        negative = self.cmpf("olt", self.libm_copysign(x, node), zero, node)
        is_zero = self.cmpf("oeq", x, zero, node)
        is_inf = self.cmpf("oeq", self.unary("absf", x, node), infinity, node)
        finite_class = self.select(is_zero, self.select(negative, c(2), c(3), node),
                                   self.select(negative, c(1), c(4), node), node)
        infinite_class = self.select(negative, c(0), c(5), node)
        return self.select(self.is_nan(x, node), c(6),
                           self.select(is_inf, infinite_class, finite_class, node), node)

    def libm_copysign(self, x, node):
        """copysign(1.0, x): the sign of x, NaN and zeros included."""
        return self.arith("copysign", self.constant(1.0, kt.f64, node), x, node)

    def cmath_exp(self, z, node):
        """cmath.exp: CPython's algorithm (exp(x - 1) * e beyond
        CM_LOG_LARGE_DOUBLE; an infinite real part with a finite nonzero
        imaginary one from cos/sin signs; the other non-finite inputs from
        its special-value table), ValueError("math domain error") for an
        infinite imaginary part with a finite or +inf real one, and
        OverflowError("math range error") when a finite input overflows."""
        x, y = self.complex_parts(z, node)

        def c(value):
            return self.constant(value, kt.f64, node)

        infinity = c(math.inf)
        finite_x = self.cmpf("olt", self.unary("absf", x, node), infinity, node)
        finite_y = self.cmpf("olt", self.unary("absf", y, node), infinity, node)
        both_finite = self.arith("andi", finite_x, finite_y, node)
        large = self.cmpf("ogt", x, c(CM_LOG_LARGE_DOUBLE), node)
        scale = self.unary("exp", self.select(large, self.arith("subf", x, c(1.0), node), x,
                                              node), node)
        cos_y, sin_y = self.unary("cos", y, node), self.unary("sin", y, node)
        real = self.arith("mulf", scale, cos_y, node)
        imag = self.arith("mulf", scale, sin_y, node)
        real = self.select(large, self.arith("mulf", real, c(math.e), node), real, node)
        imag = self.select(large, self.arith("mulf", imag, c(math.e), node), imag, node)
        overflow = self.arith("ori", self.cmpf("oeq", self.unary("absf", real, node), infinity,
                                               node),
                              self.cmpf("oeq", self.unary("absf", imag, node), infinity, node),
                              node)
        self.check(self.negate(self.arith("andi", both_finite, overflow, node), node),
                   "OverflowError", "math range error", [], node)
        # an infinite real part, a finite nonzero imaginary one
        magnitude = self.select(self.cmpf("ogt", x, c(0.0), node), infinity, c(0.0), node)
        real1 = self.arith("copysign", magnitude, cos_y, node)
        imag1 = self.arith("copysign", magnitude, sin_y, node)
        infinite_x = self.cmpf("oeq", self.unary("absf", x, node), infinity, node)
        computed = self.arith("andi", infinite_x, self.arith(
            "andi", finite_y, self.cmpf("une", y, c(0.0), node), node), node)
        table_real, table_imag = self.special_value(x, y, EXP_SPECIAL_VALUES, node)
        infinite_y = self.cmpf("oeq", self.unary("absf", y, node), infinity, node)
        domain_error = self.arith("andi", infinite_y, self.arith(
            "ori", finite_x, self.cmpf("oeq", x, infinity, node), node), node)
        self.check(self.negate(domain_error, node), "ValueError", "math domain error", [], node)
        special_real = self.select(computed, real1, table_real, node)
        special_imag = self.select(computed, imag1, table_imag, node)
        return self.make_complex(self.select(both_finite, real, special_real, node),
                                 self.select(both_finite, imag, special_imag, node), node)

    def special_value(self, x, y, table, node):
        """The (real, imag) entry of a cmath special-value table for the
        classes of x and y (NaN parts where the table has none)."""
        class_x, class_y = self.special_class_of(x, node), self.special_class_of(y, node)
        real = imag = self.constant(math.nan, kt.f64, node)
        for (i, j), value in table.items():
            here = self.arith("andi", self.cmpi("eq", class_x, self.constant(i, kt.i64, node),
                                                node),
                              self.cmpi("eq", class_y, self.constant(j, kt.i64, node), node),
                              node)
            real = self.select(here, self.constant(value.real, kt.f64, node), real, node)
            imag = self.select(here, self.constant(value.imag, kt.f64, node), imag, node)
        return real, imag

    def cmath_sqrt(self, z, node):
        return self.make_complex(*self.sqrt_parts(*self.complex_parts(z, node), node), node)

    def sqrt_parts(self, x, y, node):
        """cmath.sqrt of x + iy: CPython's algorithm (s = 2*sqrt(|x|/8 +
        hypot(|x|/8, |y|/8)), scaled by 2**53 and 2**-27 when both parts
        are below DBL_MIN; d = |y| / 2s; the root on the right half-plane),
        its special-value table, and (0, y) for a zero. It never raises."""
        c, op, _, _ = self._float_helpers(node)
        ax, ay = self.unary("absf", x, node), self.unary("absf", y, node)
        tiny = op("andi", self.cmpf("olt", ax, c(sys.float_info.min), node),
                  self.cmpf("olt", ay, c(sys.float_info.min), node))
        up_x = op("mulf", ax, c(2.0 ** 53))
        s_tiny = op("mulf", self.unary("sqrt", op("addf", up_x, self.inline_hypot(
            up_x, op("mulf", ay, c(2.0 ** 53)), node)), node), c(2.0 ** -27))
        eighth = op("divf", ax, c(8.0))
        s_usual = op("mulf", c(2.0), self.unary("sqrt", op("addf", eighth, self.inline_hypot(
            eighth, op("divf", ay, c(8.0)), node)), node))
        s = self.select(tiny, s_tiny, s_usual, node)
        d = op("divf", ay, op("mulf", c(2.0), s))
        right = self.cmpf("oge", x, c(0.0), node)
        real = self.select(right, s, d, node)
        imag = self.select(right, op("copysign", d, y), op("copysign", s, y), node)
        zero = op("andi", self.cmpf("oeq", x, c(0.0), node), self.cmpf("oeq", y, c(0.0), node))
        real = self.select(zero, c(0.0), real, node)
        imag = self.select(zero, y, imag, node)
        infinity = c(math.inf)
        finite = op("andi", self.cmpf("olt", ax, infinity, node),
                    self.cmpf("olt", ay, infinity, node))
        special_real, special_imag = self.special_value(x, y, SQRT_SPECIAL_VALUES, node)
        return (self.select(finite, real, special_real, node),
                self.select(finite, imag, special_imag, node))

    def cmath_log(self, z, node):
        return self.make_complex(*self.log_parts(*self.complex_parts(z, node), node), node)

    def log_parts(self, x, y, node, zero_raises=True):
        """cmath.log of x + iy: CPython's c_log. log(hypot) of the parts
        halved beyond DBL_MAX/4 (+ ln 2), scaled by 2**53 below DBL_MIN
        (- 53 ln 2), log1p((m-1)(m+1) + n*n)/2 when 0.71 <= hypot <= 1.73;
        atan2 for the imaginary part; the special-value table; ValueError
        ("math domain error") for zero (`zero_raises`: cmath.log(z, base)
        forgets that error of z)."""
        c, op, cmp, _ = self._float_helpers(node)
        ln2 = math.log(2.0)
        ax, ay = self.unary("absf", x, node), self.unary("absf", y, node)
        large = op("ori", cmp("ogt", ax, c(sys.float_info.max / 4)),
                   cmp("ogt", ay, c(sys.float_info.max / 4)))
        tiny = op("andi", cmp("olt", ax, c(sys.float_info.min)),
                  cmp("olt", ay, c(sys.float_info.min)))
        zero = op("andi", cmp("oeq", ax, c(0.0)), cmp("oeq", ay, c(0.0)))
        if zero_raises:
            self.check(self.negate(zero, node), "ValueError", "math domain error", [], node)
        large_real = op("addf", self.unary("log", self.inline_hypot(
            op("divf", ax, c(2.0)), op("divf", ay, c(2.0)), node), node), c(ln2))
        tiny_real = op("subf", self.unary("log", self.inline_hypot(
            op("mulf", ax, c(2.0 ** 53)), op("mulf", ay, c(2.0 ** 53)), node), node),
            c(53 * ln2))
        h = self.inline_hypot(ax, ay, node)
        near_one = op("andi", cmp("oge", h, c(0.71)), cmp("ole", h, c(1.73)))
        larger = self.select(cmp("ogt", ax, ay), ax, ay, node)
        smaller = self.select(cmp("ogt", ax, ay), ay, ax, node)
        argument = op("addf", op("mulf", op("subf", larger, c(1.0)), op("addf", larger, c(1.0))),
                      op("mulf", smaller, smaller))
        near_real = op("divf", self.libm_call("log1p", [argument], node), c(2.0))
        usual_real = self.select(near_one, near_real, self.unary("log", h, node), node)
        real = self.select(large, large_real, self.select(tiny, tiny_real, usual_real, node),
                           node)
        imag = op("atan2", y, x)
        finite = op("andi", cmp("olt", ax, c(math.inf)), cmp("olt", ay, c(math.inf)))
        special_real, special_imag = self.special_value(x, y, LOG_SPECIAL_VALUES, node)
        return (self.select(finite, real, special_real, node),
                self.select(finite, imag, special_imag, node))

    # CPython's cmath kernels on the parts of x + iy, each returning the
    # (real, imag) parts: the finite case computed as CPython computes it,
    # its special-value table (or its formula with cos/sin signs) for an
    # infinite or NaN part, and its errno turned into the exception
    # cmathmodule.c's math_error raises (ValueError for EDOM, OverflowError
    # for ERANGE). Every branch is computed and the right one selected.
    def _float_helpers(self, node):
        def c(value):
            return self.constant(value, kt.f64, node)

        def op(name, a, b):
            return self.arith(name, a, b, node)

        def cmp(predicate, a, b):
            return self.cmpf(predicate, a, b, node)

        def fn(name, a):
            return self.unary(name, a, node)
        return c, op, cmp, fn

    def _pick(self, condition, a, b, node):
        """(real, imag) pair a where condition holds, else b."""
        return (self.select(condition, a[0], b[0], node),
                self.select(condition, a[1], b[1], node))

    def _domain_error_unless(self, condition, node):
        """ValueError("math domain error") unless `condition` holds."""
        self.check(condition, "ValueError", "math domain error", [], node)

    def _hyperbolic_parts(self, x, y, node, name):
        """cosh / sinh (`name`) of x + iy: cos(y) and sin(y) times cosh(x)
        and sinh(x), with x - copysign(1, x) and a factor e beyond
        CM_LOG_LARGE_DOUBLE; OverflowError for an infinite result of a
        finite input; ValueError for an infinite y beside a non-NaN x."""
        c, op, cmp, fn = self._float_helpers(node)
        finite = op("andi", self.is_finite(x, node), self.is_finite(y, node))
        large = cmp("ogt", fn("absf", x), c(CM_LOG_LARGE_DOUBLE))
        shifted = op("subf", x, op("copysign", c(1.0), x))
        base = self.select(large, shifted, x, node)
        cos_y, sin_y = fn("cos", y), fn("sin", y)
        first, second = ("cosh", "sinh") if name == "cosh" else ("sinh", "cosh")
        real = op("mulf", cos_y, fn(first, base))
        imag = op("mulf", sin_y, fn(second, base))
        real = self.select(large, op("mulf", real, c(math.e)), real, node)
        imag = self.select(large, op("mulf", imag, c(math.e)), imag, node)
        overflow = op("andi", finite, op("ori", self.is_inf(real, node), self.is_inf(imag, node)))
        self.check(self.negate(overflow, node), "OverflowError", "math range error", [], node)
        self._domain_error_unless(self.negate(op("andi", self.is_inf(y, node), self.negate(
            self.is_nan(x, node), node)), node), node)
        # an infinite x, a finite nonzero y: infinities with cos/sin signs
        infinity = c(math.inf)
        positive = cmp("ogt", x, c(0.0))
        inf_cos, inf_sin = op("copysign", infinity, cos_y), op("copysign", infinity, sin_y)
        if name == "cosh":
            signed = (inf_cos, self.select(positive, inf_sin, fn("negf", inf_sin), node))
        else:
            signed = (self.select(positive, inf_cos, fn("negf", inf_cos), node), inf_sin)
        computed = op("andi", self.is_inf(x, node), op("andi", self.is_finite(y, node),
                                                       cmp("une", y, c(0.0))))
        table = COSH_SPECIAL_VALUES if name == "cosh" else SINH_SPECIAL_VALUES
        special = self._pick(computed, signed, self.special_value(x, y, table, node), node)
        return self._pick(finite, (real, imag), special, node)

    def _tanh_parts(self, x, y, node):
        """tanh of x + iy: (tanh(x)(1 + tan(y)^2), tan(y)/cosh(x)^2) over
        1 + (tanh(x) tan(y))^2; copysign(1, x) and 4 sin(y) cos(y)
        exp(-2|x|) beyond CM_LOG_LARGE_DOUBLE; ValueError for an infinite y
        beside a finite x."""
        c, op, cmp, fn = self._float_helpers(node)
        finite = op("andi", self.is_finite(x, node), self.is_finite(y, node))
        large = cmp("ogt", fn("absf", x), c(CM_LOG_LARGE_DOUBLE))
        sin_y, cos_y = fn("sin", y), fn("cos", y)
        large_real = op("copysign", c(1.0), x)
        large_imag = op("mulf", op("mulf", op("mulf", c(4.0), sin_y), cos_y),
                        fn("exp", op("mulf", c(-2.0), fn("absf", x))))
        tx, ty = fn("tanh", x), fn("tan", y)
        cx = op("divf", c(1.0), fn("cosh", x))
        txty = op("mulf", tx, ty)
        denominator = op("addf", c(1.0), op("mulf", txty, txty))
        real = op("divf", op("mulf", tx, op("addf", c(1.0), op("mulf", ty, ty))), denominator)
        imag = op("mulf", op("mulf", op("divf", ty, denominator), cx), cx)
        usual = self._pick(large, (large_real, large_imag), (real, imag), node)
        self._domain_error_unless(self.negate(op("andi", self.is_inf(y, node),
                                                 self.is_finite(x, node)), node), node)
        signed_zero = op("copysign", c(0.0), op("mulf", op("mulf", c(2.0), sin_y), cos_y))
        signed = (self.select(cmp("ogt", x, c(0.0)), c(1.0), c(-1.0), node), signed_zero)
        computed = op("andi", self.is_inf(x, node), op("andi", self.is_finite(y, node),
                                                       cmp("une", y, c(0.0))))
        special = self._pick(computed, signed,
                             self.special_value(x, y, TANH_SPECIAL_VALUES, node), node)
        return self._pick(finite, usual, special, node)

    def _large_log(self, x, y, node):
        """log(hypot(x/2, y/2)) + 2 ln 2: |x + iy|'s log beyond CM_LARGE_DOUBLE."""
        c, op, _, fn = self._float_helpers(node)
        return op("addf", fn("log", self.inline_hypot(op("divf", x, c(2.0)),
                                                      op("divf", y, c(2.0)), node)),
                  c(math.log(2.0) * 2.0))

    def _is_large(self, x, y, node):
        c, op, cmp, fn = self._float_helpers(node)
        return op("ori", cmp("ogt", fn("absf", x), c(CM_LARGE_DOUBLE)),
                  cmp("ogt", fn("absf", y), c(CM_LARGE_DOUBLE)))

    def _with_special(self, x, y, usual, table, node):
        c, op, _, _ = self._float_helpers(node)
        finite = op("andi", self.is_finite(x, node), self.is_finite(y, node))
        return self._pick(finite, usual, self.special_value(x, y, table, node), node)

    def _acos_parts(self, x, y, node):
        """acos: Kahan's formulas through two complex square roots; the
        log of the magnitude and atan2 beyond CM_LARGE_DOUBLE. Never raises."""
        c, op, _, fn = self._float_helpers(node)
        large = (self.arith("atan2", fn("absf", y), x, node),
                 fn("negf", op("copysign", self._large_log(x, y, node), y)))
        s1 = self.sqrt_parts(op("subf", c(1.0), x), fn("negf", y), node)
        s2 = self.sqrt_parts(op("addf", c(1.0), x), y, node)
        usual = (op("mulf", c(2.0), op("atan2", s1[0], s2[0])),
                 fn("asinh", op("subf", op("mulf", s2[0], s1[1]), op("mulf", s2[1], s1[0]))))
        return self._with_special(x, y, self._pick(self._is_large(x, y, node), large, usual,
                                                   node), ACOS_SPECIAL_VALUES, node)

    def _acosh_parts(self, x, y, node):
        c, op, _, fn = self._float_helpers(node)
        large = (self._large_log(x, y, node), op("atan2", y, x))
        s1 = self.sqrt_parts(op("subf", x, c(1.0)), y, node)
        s2 = self.sqrt_parts(op("addf", x, c(1.0)), y, node)
        usual = (fn("asinh", op("addf", op("mulf", s1[0], s2[0]), op("mulf", s1[1], s2[1]))),
                 op("mulf", c(2.0), op("atan2", s1[1], s2[0])))
        return self._with_special(x, y, self._pick(self._is_large(x, y, node), large, usual,
                                                   node), ACOSH_SPECIAL_VALUES, node)

    def _asinh_parts(self, x, y, node):
        c, op, cmp, fn = self._float_helpers(node)
        magnitude = self._large_log(x, y, node)
        large_real = self.select(cmp("oge", y, c(0.0)), op("copysign", magnitude, x),
                                 fn("negf", op("copysign", magnitude, fn("negf", x))), node)
        large = (large_real, op("atan2", y, fn("absf", x)))
        s1 = self.sqrt_parts(op("addf", c(1.0), y), fn("negf", x), node)
        s2 = self.sqrt_parts(op("subf", c(1.0), y), x, node)
        usual = (fn("asinh", op("subf", op("mulf", s1[0], s2[1]), op("mulf", s2[0], s1[1]))),
                 op("atan2", y, op("subf", op("mulf", s1[0], s2[0]), op("mulf", s1[1], s2[1]))))
        return self._with_special(x, y, self._pick(self._is_large(x, y, node), large, usual,
                                                   node), ASINH_SPECIAL_VALUES, node)

    def _atanh_parts(self, x, y, node):
        """atanh: computed for x >= 0 (atanh(z) = -atanh(-z)); 1/z plus
        +-i pi/2 beyond CM_SQRT_LARGE_DOUBLE; near 1 + 0i its own formula,
        and ValueError for exactly +-1 +- 0i; else log1p and atan2."""
        c, op, cmp, fn = self._float_helpers(node)
        negative = cmp("olt", x, c(0.0))
        u = self.select(negative, fn("negf", x), x, node)
        v = self.select(negative, fn("negf", y), y, node)
        ay = fn("absf", v)
        big = op("ori", cmp("ogt", u, c(CM_SQRT_LARGE_DOUBLE)),
                 cmp("ogt", ay, c(CM_SQRT_LARGE_DOUBLE)))
        h = self.inline_hypot(op("divf", u, c(2.0)), op("divf", v, c(2.0)), node)
        big_parts = (op("divf", op("divf", op("divf", u, c(4.0)), h), h),
                     op("copysign", c(math.pi / 2.0), v))
        near_one = op("andi", cmp("oeq", u, c(1.0)), cmp("olt", ay, c(CM_SQRT_DBL_MIN)))
        finite = op("andi", self.is_finite(x, node), self.is_finite(y, node))
        self._domain_error_unless(self.negate(op("andi", finite, op(
            "andi", near_one, cmp("oeq", ay, c(0.0)))), node), node)
        near_parts = (fn("negf", fn("log", op("divf", fn("sqrt", ay), fn(
            "sqrt", self.inline_hypot(ay, c(2.0), node))))),
            op("copysign", op("divf", op("atan2", c(2.0), fn("negf", ay)), c(2.0)), v))
        one_minus = op("subf", c(1.0), u)
        usual = (op("divf", self.libm_call("log1p", [op("divf", op("mulf", c(4.0), u), op(
            "addf", op("mulf", one_minus, one_minus), op("mulf", ay, ay)))], node), c(4.0)),
            fn("negf", op("divf", op("atan2", op("mulf", c(-2.0), v), op(
                "subf", op("mulf", one_minus, op("addf", c(1.0), u)), op("mulf", ay, ay))),
                c(2.0))))
        parts = self._pick(big, big_parts, self._pick(near_one, near_parts, usual, node), node)
        parts = self._pick(negative, (fn("negf", parts[0]), fn("negf", parts[1])), parts, node)
        return self._with_special(x, y, parts, ATANH_SPECIAL_VALUES, node)

    def _rotated(self, kernel, x, y, node, back=True):
        """f(z) = -i g(iz) (sin, tan, asin, atan from sinh, ...; `back`
        False: cos(z) = cosh(iz))."""
        real, imag = kernel(self.unary("negf", y, node), x, node)
        return (imag, self.unary("negf", real, node)) if back else (real, imag)

    def cmath_function_parts(self, name, x, y, node):
        """cmath.<name> of x + iy, for the functions of one complex number."""
        if name == "cosh":
            return self._hyperbolic_parts(x, y, node, "cosh")
        if name == "sinh":
            return self._hyperbolic_parts(x, y, node, "sinh")
        if name == "cos":
            return self._rotated(lambda a, b, n: self._hyperbolic_parts(a, b, n, "cosh"),
                                 x, y, node, back=False)
        if name == "sin":
            return self._rotated(lambda a, b, n: self._hyperbolic_parts(a, b, n, "sinh"),
                                 x, y, node)
        kernels = {"tanh": self._tanh_parts, "acos": self._acos_parts,
                   "acosh": self._acosh_parts, "asinh": self._asinh_parts,
                   "atanh": self._atanh_parts}
        if name in kernels:
            return kernels[name](x, y, node)
        rotated = {"tan": self._tanh_parts, "asin": self._asinh_parts,
                   "atan": self._atanh_parts}
        return self._rotated(rotated[name], x, y, node)

    def cmath_rect(self, r, phi, node):
        """cmath.rect(r, phi): (r cos(phi), r sin(phi)); (r, r * phi) for a
        zero phi; infinities with cos/sin signs for an infinite r and a
        finite nonzero phi, the special-value table for the other
        non-finite inputs, and ValueError for a nonzero non-NaN r with an
        infinite phi."""
        c, op, cmp, fn = self._float_helpers(node)
        finite = op("andi", self.is_finite(r, node), self.is_finite(phi, node))
        cos_phi, sin_phi = fn("cos", phi), fn("sin", phi)
        usual = self._pick(cmp("oeq", phi, c(0.0)), (r, op("mulf", r, phi)),
                           (op("mulf", r, cos_phi), op("mulf", r, sin_phi)), node)
        self._domain_error_unless(self.negate(op("andi", op("andi", cmp("une", r, c(0.0)),
                                                            self.negate(self.is_nan(r, node),
                                                                        node)),
                                                 self.is_inf(phi, node)), node), node)
        infinity = c(math.inf)
        inf_cos, inf_sin = op("copysign", infinity, cos_phi), op("copysign", infinity, sin_phi)
        signed = self._pick(cmp("ogt", r, c(0.0)), (inf_cos, inf_sin),
                            (fn("negf", inf_cos), fn("negf", inf_sin)), node)
        computed = op("andi", self.is_inf(r, node), op("andi", self.is_finite(phi, node),
                                                       cmp("une", phi, c(0.0))))
        special = self._pick(computed, signed,
                             self.special_value(r, phi, RECT_SPECIAL_VALUES, node), node)
        return self._pick(finite, usual, special, node)

    def cmath_isclose(self, a, b, rel_tol, abs_tol, node):
        """cmath.isclose: equal parts, else never with an infinite part,
        else |a - b| <= max(rel_tol * max(|a|, |b|), abs_tol) as CPython
        orders it; ValueError for a negative tolerance."""
        c, op, cmp, fn = self._float_helpers(node)
        # a NaN tolerance passes this check, as in CPython (`tol < 0.0`)
        negative = op("ori", cmp("olt", rel_tol, c(0.0)), cmp("olt", abs_tol, c(0.0)))
        self.check(self.negate(negative, node), "ValueError", "tolerances must be non-negative",
                   [], node)
        (ar, ai), (br, bi) = self.complex_parts(a, node), self.complex_parts(b, node)
        equal = op("andi", cmp("oeq", ar, br), cmp("oeq", ai, bi))
        infinite = op("ori", op("ori", self.is_inf(ar, node), self.is_inf(ai, node)),
                      op("ori", self.is_inf(br, node), self.is_inf(bi, node)))
        diff = self.inline_hypot(op("subf", ar, br), op("subf", ai, bi), node)
        close = op("ori", op("ori", cmp("ole", diff, op("mulf", rel_tol, self.inline_hypot(
            br, bi, node))), cmp("ole", diff, op("mulf", rel_tol, self.inline_hypot(
                ar, ai, node)))), cmp("ole", diff, abs_tol))
        return op("ori", equal, op("andi", self.negate(infinite, node), close))

    def cmath_call(self, name, args, node):
        """cmath.<name>(...): every function of CPython's cmath module, by
        its registry entry's lowering."""
        return getattr(self, CMATH_FUNCTIONS[name].lowering)(name, args, node)

    def cmath_rect_call(self, name, args, node):
        r, phi = (self.convert(a, kt.f64, node) for a in args)
        return self.make_complex(*self.cmath_rect(r, phi, node), node)

    def cmath_isclose_call(self, name, args, node):
        a, b = (self.convert(v, kt.c128, node) for v in args[:2])
        rel_tol, abs_tol = (self.constant(default, kt.f64, node) if v is None
                            else self.convert(v, kt.f64, node)
                            for v, (_, default) in zip(args[2:],
                                                      CMATH_FUNCTIONS[name].keywords))
        return self.cmath_isclose(a, b, rel_tol, abs_tol, node)

    def cmath_exp_call(self, name, args, node):
        return self.cmath_exp(self.convert(args[0], kt.c128, node), node)

    def cmath_sqrt_call(self, name, args, node):
        return self.cmath_sqrt(self.convert(args[0], kt.c128, node), node)

    def cmath_log_call(self, name, args, node):
        z = self.convert(args[0], kt.c128, node)
        if len(args) == 1:
            return self.cmath_log(z, node)
        # CPython: log(z) / log(base) by _Py_c_quot; log(z)'s errno is
        # overwritten by log(base)'s, and a zero divisor is EDOM
        logarithm = self.log_parts(*self.complex_parts(z, node), node, zero_raises=False)
        base = self.convert(args[1], kt.c128, node)
        divisor = self.log_parts(*self.complex_parts(base, node), node)
        return self.make_complex(*self.complex_quotient(
            logarithm, divisor, node, "math domain error", kind="ValueError"), node)

    def cmath_log10_call(self, name, args, node):
        z = self.convert(args[0], kt.c128, node)
        ln10 = self.constant(math.log(10.0), kt.f64, node)
        return self.make_complex(*(self.arith("divf", part, ln10, node) for part in
                                   self.log_parts(*self.complex_parts(z, node), node)), node)

    def cmath_function_call(self, name, args, node):
        z = self.convert(args[0], kt.c128, node)
        return self.make_complex(*self.cmath_function_parts(
            name, *self.complex_parts(z, node), node), node)

    def cmath_angle_call(self, name, args, node):
        """cmath.phase(z), cmath.polar(z)."""
        z = self.convert(args[0], kt.c128, node)
        real, imag = self.complex_parts(z, node)
        # CPython's c_atan2: C99's atan2, but a NaN part gives its own NaN
        either_nan = self.arith("ori", self.is_nan(real, node), self.is_nan(imag, node), node)
        angle = self.arith("atan2", imag, real, node)
        phase = self.select(either_nan, self.constant(math.nan, kt.f64, node), angle, node)
        if name == "phase":
            # glibc's atan2 sets ERANGE when a nonzero y over a finite x
            # underflows to 0, and cmath.phase raises for it (polar's
            # hypot clears errno again)
            zero = self.constant(0.0, kt.f64, node)
            underflow = self.arith("andi", self.arith("andi", self.cmpf(
                "oeq", angle, zero, node), self.cmpf("une", imag, zero, node), node),
                self.is_finite(real, node), node)
            self.check(self.negate(underflow, node), "OverflowError", "math range error",
                       [], node)
            return phase
        magnitude = self.complex_abs(z, node, python=True, message="math range error")
        return tuple_value([magnitude, phase])

    def cmath_predicate_call(self, name, args, node):
        return self.complex_predicate(name, self.convert(args[0], kt.c128, node), node)
