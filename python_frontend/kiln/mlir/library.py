"""`math.*`, numpy scalar functions and the builtins with CPython's (or
numpy's) semantics, as a mixin of FunctionCodeGenerator.

`math.f(x)` computes in double precision and raises what CPython raises
(ValueError "math domain error", OverflowError "math range error");
`np.f(x)` keeps a float32 operand in float32 and never raises, as numpy's
scalar functions return NaN/inf instead. The result types are inference's
(`typing_rules`); this file only says which ops compute them.
"""

from __future__ import annotations

import ast
import dataclasses
import math

from .. import typesystem as kt
from .. import typing_rules as rules
from ..library_functions import (MATH_FUNCTIONS, NUMPY_FUNCTIONS, PREDICATE, TO_INT, UNARY,
                                 numpy_cast_type)

class LibraryCalls:
    """Needs the generator's IR helpers (arith, unary, cmpf, select, call),
    constant, check, convert, negate, float_to_int and the typed tree."""

    # ------------------------------------------------------------ predicates
    def float_predicate(self, predicate, a, b, node):
        return self.cmpf(predicate, a, b, node)

    def both(self, a, b, node):
        return self.arith("andi", a, b, node)

    def either(self, a, b, node):
        return self.arith("ori", a, b, node)

    def is_nan(self, x, node):
        return self.float_predicate("uno", x, x, node)

    def is_inf(self, x, node):
        magnitude = self.unary("absf", x, node)
        return self.float_predicate("oeq", magnitude, self.constant(math.inf, x.type, node), node)

    def is_finite(self, x, node):
        magnitude = self.unary("absf", x, node)
        return self.float_predicate("olt", magnitude, self.constant(math.inf, x.type, node), node)

    def domain_error(self, ok, node):
        self.check(ok, "ValueError", "math domain error", [], node)

    # ------------------------------------------- CPython's math error rules
    def domain_not_negative(self, x, result, node):
        self.domain_error(self.float_predicate("uge", x, self.constant(0.0, x.type, node), node),
                          node)

    def domain_positive(self, x, result, node):
        self.domain_error(self.float_predicate("ugt", x, self.constant(0.0, x.type, node), node),
                          node)

    def domain_above_minus_one(self, x, result, node):
        self.domain_error(self.float_predicate("ugt", x, self.constant(-1.0, x.type, node), node),
                          node)

    def domain_finite(self, x, result, node):
        self.domain_error(self.negate(self.is_inf(x, node), node), node)

    def domain_unit(self, x, result, node):
        magnitude = self.unary("absf", x, node)
        self.domain_error(self.float_predicate("ule", magnitude, self.constant(1.0, x.type, node),
                                               node), node)

    def range_overflow(self, inputs, result, node):
        """OverflowError when finite inputs give an infinite result."""
        inputs = inputs if isinstance(inputs, list) else [inputs]
        overflow = self.is_inf(result, node)
        for x in inputs:
            overflow = self.both(overflow, self.is_finite(x, node), node)
        self.check(self.negate(overflow, node), "OverflowError", "math range error", [], node)

    # ------------------------------------------------------------ dispatch
    def as_double(self, value, node):
        return self.convert(value, kt.f64, node)

    def library_call(self, qualified, args, node):
        module, name = qualified
        if module == "math":
            return self.math_call(name, args, node)
        if module == "numpy":
            return self.numpy_call(name, args, node)
        if module == "cmath":
            return self.cmath_call(name, args, node)         # ComplexNumbers
        return self.cast_call(rules.KILN_CASTS[name], args, node)

    def math_call(self, name, args, node):
        """`math.<name>` as its entry in library_functions.py says."""
        function = MATH_FUNCTIONS[name]
        if function.form == UNARY:
            if name == "log" and len(args) == 2:
                return self.math_log_base(args, node)
            x = self.as_double(args[0], node)
            check = function.check
            if check and check.startswith("domain"):
                getattr(self, check)(x, None, node)
            result = self.unary_op(function.lowering, x, node)
            if check == "range_overflow":
                self.range_overflow(x, result, node)
            return result
        if function.form == TO_INT:
            if args[0].type.is_int or args[0].type.is_bool:
                return self.convert(args[0], kt.i64, node)
            x = self.as_double(args[0], node)
            rounded = self.unary(function.lowering, x, node)
            return self.float_to_int(rounded, kt.i64, node)
        if function.form == PREDICATE:
            return self.float_predicate_call(name, self.as_double(args[0], node), node)
        x, y = (self.as_double(a, node) for a in args)       # BINARY
        return getattr(self, function.lowering)(x, y, node)

    def float_predicate_call(self, name, x, node):
        """isnan/isinf/isfinite of a float (math's, numpy's)."""
        return getattr(self, MATH_FUNCTIONS[name].lowering)(x, node)

    def unary_op(self, opname, x, node):
        if opname.startswith("@"):
            return self.libm_call(opname[1:] + ("f" if x.type == kt.f32 else ""), [x], node)
        return self.unary(opname, x, node)

    def binary_op(self, opname, x, y, node):
        if opname.startswith("@"):
            return self.libm_call(opname[1:] + ("f" if x.type == kt.f32 else ""), [x, y], node)
        return self.arith(opname, x, y, node)

    def math_log_base(self, args, node):
        x, base = (self.as_double(a, node) for a in args)
        self.domain_positive(x, None, node)
        self.domain_positive(base, None, node)
        numerator = self.unary("log", x, node)
        denominator = self.unary("log", base, node)
        return self.float_division("/", numerator, denominator, kt.f64, node)

    def math_atan2(self, y, x, node):
        return self.arith("atan2", y, x, node)

    def math_copysign(self, x, y, node):
        return self.arith("copysign", x, y, node)

    def math_hypot(self, x, y, node):
        # CPython's math.hypot never raises: an overflowing result is inf.
        return self.libm_call("hypot", [x, y], node)

    def math_fmod(self, x, y, node):
        zero = self.constant(0.0, kt.f64, node)
        divisor_zero = self.both(self.float_predicate("oeq", y, zero, node),
                                 self.negate(self.is_nan(x, node), node), node)
        dividend_inf = self.both(self.is_inf(x, node), self.negate(self.is_nan(y, node), node),
                                 node)
        self.domain_error(self.negate(self.either(divisor_zero, dividend_inf, node), node), node)
        return self.arith("remf", x, y, node)

    def math_pow(self, x, y, node):
        zero = self.constant(0.0, kt.f64, node)
        floor = self.unary("floor", y, node)
        fractional = self.float_predicate("one", floor, y, node)
        # CPython raises only for finite inputs; C99 handles the infinities.
        finite = self.both(self.is_finite(x, node), self.is_finite(y, node), node)
        negative_base = self.float_predicate("olt", x, zero, node)
        bad_root = self.both(self.both(negative_base, finite, node), fractional, node)
        zero_to_negative = self.both(self.both(self.float_predicate("oeq", x, zero, node),
                                               self.float_predicate("olt", y, zero, node), node),
                                     finite, node)
        self.domain_error(self.negate(self.either(bad_root, zero_to_negative, node), node), node)
        result = self.arith("powf", x, y, node)
        self.range_overflow([x, y], result, node)
        return result

    # --------------------------------------------------------------- numpy
    def numpy_float(self, value, node):
        """numpy's result type of a float function: f32 stays f32."""
        return self.convert(value, rules.numpy_float_type(value.type), node)

    def numpy_call(self, name, args, node):
        """`np.f(...)` of values, lowered by its registry entry's family
        (the types are inference's)."""
        function = NUMPY_FUNCTIONS[name]
        return getattr(self, function.family.lowering)(function, args, node)

    def numpy_operator(self, function, args, node):
        """np.add(a, b) of arrays: the operator."""
        return self.binary(getattr(ast, function.detail)(), args[0], args[1], node)

    def numpy_comparison(self, function, args, node):
        op = getattr(ast, function.detail)()
        if any(isinstance(a.type, kt.ArrayType) for a in args):
            return self.array_compare(op, args[0], args[1], node)
        return self.compare(op, args[0], args[1], node)

    def complex_or_array_call(self, function, args, node):
        """np.f of a complex number or of arrays (elementwise); None when its
        arguments are real numbers, which each family lowers itself."""
        if any(isinstance(a.type, kt.ArrayType) for a in args):     # as typing decides
            return self.array_ufunc(function.name, args, node)      # ArrayExpressions
        if any(isinstance(a.type, kt.ScalarType) and a.type.is_complex for a in args):
            return self.numpy_complex_call(function.name, args[0], node)
        return None

    def numpy_cast(self, function, args, node):
        return self.cast_call(numpy_cast_type(function), args, node)

    def numpy_dot(self, function, args, node):
        return self.dot(args, node)                                 # ArrayExpressions

    def numpy_array_only(self, function, args, node):
        return self.complex_or_array_call(function, args, node)

    def numpy_float_function(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        if function.arity == 1:
            return self.unary_op(function.lowering, self.numpy_float(args[0], node), node)
        # Two floats, computed in the call's type (f32 only for two f32s).
        common = self.typed.type_of(node)
        x, y = (self.convert(a, common, node) for a in args)
        return self.binary_op(function.lowering, x, y, node)

    def numpy_predicate(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        return self.float_predicate_call(function.name, self.numpy_float(args[0], node), node)

    def numpy_absolute(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        value = self.builtin_abs(args, node)
        value.weak = None           # a numpy scalar (type inference's numpy_absolute)
        return value

    def numpy_square(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        return self.square_elements(function, args, args[0].type, node)

    def numpy_minimum_maximum(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        return self.numpy_min_max(function.name == "minimum", args, node)

    def numpy_min_max(self, is_minimum, args, node, common=None):
        common = common or self.typed.type_of(node)
        a, b = (self.convert(v, common, node) for v in args)
        if common.is_int:
            suffix = "si" if common.signed else "ui"
            return self.arith(("min" if is_minimum else "max") + suffix, a, b, node)
        # numpy: a if (a < b or a is NaN) else b -- NaN propagates from either side.
        better = self.float_predicate("olt" if is_minimum else "ogt", a, b, node)
        keep_a = self.either(better, self.is_nan(a, node), node)
        return self.select(keep_a, a, b, node)

    def numpy_elementwise(self, name, elements, dtype, node):
        """np.<name> of array elements (in a linalg body): numpy's ufunc
        loop for `dtype` results, the scalar functions' ops, by the entry's
        family."""
        if elements and elements[0].type.is_complex:
            return self.numpy_complex_elementwise(name, elements[0], node)
        function = NUMPY_FUNCTIONS[name]
        return getattr(self, function.family.elementwise)(function, elements, dtype, node)

    def float_elements(self, function, elements, dtype, node):
        if function.arity == 1:
            return self.unary_op(function.lowering, self.convert(elements[0], dtype, node),
                                 node)
        x, y = (self.convert(e, dtype, node) for e in elements)
        if function.name == "fmod" and dtype.is_int:
            return self.integer_fmod(x, y, node)
        if function.name == "power" and dtype.is_float and y.constant == 2:
            # np.power(a, 2) of an array: the correctly rounded square, as
            # `a ** 2` (np.square). numpy's own loop is not libm's pow either
            # (SVML on AVX-512 machines, within an ulp); libm's pow was 70 %
            # of numpy-benchmarks' slowparts (docs/language.md).
            return self.arith("mulf", x, x, node)
        return self.binary_op(function.lowering, x, y, node)

    def predicate_elements(self, function, elements, dtype, node):
        x = elements[0]
        if not x.type.is_float:     # an int is never NaN nor infinite
            return self.constant(function.name == "isfinite", kt.boolean, node)
        return self.float_predicate_call(function.name, x, node)

    def square_elements(self, function, elements, dtype, node):
        return self.arith("muli" if dtype.is_int else "mulf", elements[0], elements[0], node)

    def absolute_elements(self, function, elements, dtype, node):
        x = elements[0]
        if dtype.is_unsigned:
            return x
        return self.unary("absf" if dtype.is_float else "absi", x, node)

    def min_max_elements(self, function, elements, dtype, node):
        minimum = function.name == "minimum"
        if dtype.is_bool:
            x, y = (self.convert(e, dtype, node) for e in elements)
            return self.arith("andi" if minimum else "ori", x, y, node)
        return self.numpy_min_max(minimum, elements, node, common=dtype)

    def logical_elements(self, function, elements, dtype, node):
        truths = [self.truthy(e, node) for e in elements]
        if function.name == "logical_not":
            return self.negate(truths[0], node)
        operation = {"logical_and": "andi", "logical_or": "ori", "logical_xor": "xori"}
        return self.arith(operation[function.name], truths[0], truths[1], node)

    def where_elements(self, function, elements, dtype, node):
        condition = self.truthy(elements[0], node)
        return self.select(condition, self.convert(elements[1], dtype, node),
                           self.convert(elements[2], dtype, node), node)

    def clip_elements(self, function, elements, dtype, node):
        """numpy: minimum(maximum(x, low), high)."""
        low = self.numpy_min_max(False, elements[:2], node, common=dtype)
        return self.numpy_min_max(True, [low, elements[2]], node, common=dtype)

    def complex_elements(self, function, elements, dtype, node):
        return self.numpy_complex_elementwise(function.name, elements[0], node)

    def integer_fmod(self, a, b, node):
        """numpy's fmod of ints: C's remainder (the sign of `a`), 0 for a zero
        divisor (numpy warns); `MIN % -1` is 0, so -1 divides as 1 does."""
        zero = self.constant(0, a.type, node)
        by_zero = self.cmpi("eq", b, zero, node)
        safe = self.select(by_zero, self.constant(1, a.type, node), b, node)
        if a.type.signed:
            minus_one = self.cmpi("eq", safe, self.constant(-1, a.type, node), node)
            safe = self.select(minus_one, self.constant(1, a.type, node), safe, node)
        remainder = self.arith("remsi" if a.type.signed else "remui", a, safe, node)
        return self.select(by_zero, zero, remainder, node)

    def cast_call(self, target, args, node):
        converted = self.convert(args[0], target, node, explicit=True)
        # `np.float64(1e-300)` is a typed numpy scalar, not a Python literal:
        # NEP 50 must not demote it next to a float32 (convert() returns a
        # literal of the target type unchanged, still weak).
        if converted.weak:
            converted = dataclasses.replace(converted, weak=None)
        return converted

    # ------------------------------------------------------------- builtins
    def builtin_complex(self, args, node):
        weak = "complex" if all(arg.weak for arg in args) else None
        if len(args) == 1 and args[0].type.is_complex:
            return dataclasses.replace(self.convert(args[0], kt.c128, node), weak=weak)
        real = self.convert(args[0], kt.f64, node)
        imag = self.convert(args[1], kt.f64, node) if len(args) == 2 else \
            self.constant(0.0, kt.f64, node)
        made = self.make_complex(real, imag, node)
        made.weak = weak
        return made

    def numpy_complex_call(self, name, z, node):
        """np.<name> of a complex scalar: numpy's elementwise function, but
        np.real(1j) is 1j.real, a Python float of a Python complex."""
        if name in ("real", "imag"):
            return self.python_part(z, name, node)
        return self.numpy_complex_elementwise(name, z, node)

    def builtin_round(self, args, node):
        value = args[0]
        if not value.type.is_float:
            return self.convert(value, kt.i64, node)
        # Python rounds half to even.
        rounded = self.unary("roundeven", value, node)
        return self.float_to_int(rounded, kt.i64, node)

    def libm_call(self, function, args, node):
        """A call to libm's `function` (declared in the module once), with
        a result of the first argument's type."""
        self.external_functions.add(function)
        return self.call_external(function, args, node)
