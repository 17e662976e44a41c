"""Type inference of calls: module functions and lambdas, allocations, the
builtins (len, abs, min/max, float/int/bool, round, complex), math, cmath,
numpy and dtype casts. A mixin of type_inference.FunctionTyping."""

from __future__ import annotations

import ast
import copy

from .. import typesystem as kt
from ..errors import KilnCompileError
from .. import typing_rules as rules
from .. import library_functions as lib
from ..library_functions import (LIST_FUNCTIONS, CMATH_FUNCTIONS, MATH_FUNCTIONS, PREDICATE, TO_INT, UNARY, numpy_cast_type,
                                 numpy_function, numpy_method)
from .typed_values import TypedValue, _Abandon
from ..typing_rules import display, is_unknown
from .typed_tree import (container_noun, is_container, is_range, is_scalar_type, is_set,
                         is_str, known_literals)
from .class_typing import is_instance_like
from .list_typing import holds_items, is_list, is_unsettled
from .dict_typing import is_dict, is_dict_like, is_unsettled_dict
from .recursion import RecursiveSignatureError
from .specialization import TooManySpecializations
from ..frontend.subset import (DICT_METHODS, GENERATOR_CONSUMERS, LIST_METHODS, SET_METHODS,
                               STR_METHOD_NAMES)
from .generator_typing import consumed_generator


class CallTyping:
    # ------------------------------------------------------------ calls
    def expr_Call(self, node):
        func = node.func
        if self.context.classes or self.context.class_fallbacks:
            typed = self.class_call(node)       # class_typing.py: C(...), o.m(...)
            # code generation lowers the node the same way
            node._kiln_class_call = typed is not None
            if typed is not None:
                return typed
        qualified = self.context.qualified_name(func)
        if rules.is_positions_call(node, qualified) and qualified is not None:
            return self.shape_function("nonzero", node)         # np.where(a) too
        function = numpy_function(qualified[1]) if qualified is not None and \
            qualified[0] == "numpy" else None
        if function is not None and function.family.reads_call:
            return getattr(self, function.family.typing)(function.name, node)
        method = numpy_method(func.attr) if qualified is None and \
            isinstance(func, ast.Attribute) else None
        if method is not None and method.family is lib.SHAPE:
            return self.shape_function(func.attr, node, func.value)
        if qualified in LIST_FUNCTIONS:
            return self.list_library_call(LIST_FUNCTIONS[qualified], node)   # heapq, bisect
        if qualified is not None and qualified[0] == "collections":
            return self.dict_class_call(qualified[1], node)     # defaultdict(int), Counter()
        if qualified is not None:
            keyword_values, message = rules.keyword_only_arguments(qualified, node.keywords)
            if message:
                self.fail(node, message)
            if qualified in (("numpy", "uint64"), ("kiln", "u64")) and len(node.args) == 1 \
                    and isinstance(node.args[0], ast.Constant):
                self.uint64_literals.add(node.args[0])
            if qualified[0] == "numpy":
                self.array_consumers.update(node.args)
            args = []
            function = numpy_function(qualified[1]) if qualified[0] == "numpy" else None
            takes_arrays = function is not None and (
                function.family.elementwise is not None or
                function.family in (lib.OPERATOR, lib.COMPARISON, lib.DOT))
            for position, arg in enumerate(node.args):
                value = self.expression(arg)
                if takes_arrays and isinstance(value.type, kt.TupleType):
                    # numpy reads a tuple of numbers as a 1-D array
                    value = self.tuple_operand_as_array(node.args, position, value)
                args.append(self.before_module_call(value, node.args[position + 1:], node))
            args += [None if v is None else self.expression(v) for v in keyword_values]
            for arg, arg_node in zip(args, node.args):
                if arg is not None and (is_container(arg.type) or is_range(arg.type) or
                                        is_str(arg.type)):
                    what = "range" if is_range(arg.type) else "str" if is_str(arg.type) else \
                        container_noun(arg.type)
                    self.fail(arg_node, f"`{ast.unparse(func)}` does not take a {what}" + (
                        " (CPython raises TypeError; convert it: float(s))" if is_str(arg.type)
                        else " yet"))
            return self.library_call(qualified, args, node)
        if isinstance(func, ast.Attribute) and func.attr in LIST_METHODS | DICT_METHODS | \
                SET_METHODS:
            self.array_consumers.add(func.value)
            base = self.expression(func.value)
            self.absorb(base)
            if is_dict_like(base.type):
                return self.dict_method(func, base, node)       # `d.get(k, 0)`
            if is_set(base.type):
                return self.set_method(func, base, node)        # `s.add(x)`
            if is_str(base.type):
                return self.str_method(func, base, node)        # `s.count(c)`
            if func.attr not in LIST_METHODS:
                owners = [noun for noun, methods in (("dict", DICT_METHODS),
                                                     ("set", SET_METHODS))
                          if func.attr in methods]
                self.fail(node, f"`.{func.attr}()` of {display(base.type)} is not supported "
                                f"(it is a {' and '.join(owners)} method)")
            if is_list(base.type):
                return self.list_method(func, base, node)       # `xs.append(v)`
            if func.attr not in rules.ARRAY_METHODS:
                self.fail(node, f"`.{func.attr}()` of a {display(base.type)} is not supported")
            return self.method_call(func, node, base)
        if isinstance(func, ast.Attribute) and func.attr in STR_METHOD_NAMES and (
                func.attr not in rules.ARRAY_METHODS or self.is_str_expression(func.value)):
            self.array_consumers.add(func.value)
            base = self.expression(func.value)
            self.absorb(base)
            if not is_str(base.type):
                self.fail(node, f"`.{func.attr}()` of {display(base.type)} is not supported (it "
                                "is a str method)")
            return self.str_method(func, base, node)            # `s.strip()`
        if isinstance(func, ast.Attribute) and func.attr in rules.ARRAY_METHODS:
            return self.method_call(func, node)
        if not isinstance(func, ast.Name):
            self.fail(node, f"call to `{ast.unparse(func)}` is not supported")
        name = func.id
        if name in self.lambdas:
            return self.call_lambda(name, node)
        if name in self.symbols:
            self.fail(node, f"`{name}` is a variable; calling it is not supported")
        if name in self.module.functions:
            return self.call_function(name, node)
        if name in GENERATOR_CONSUMERS and consumed_generator(node) is not None:
            return self.generator_call(name, node)      # `sum(x * x for x in xs)`
        if name == "tuple":
            self.fail(node, "tuple() is not supported yet; write the tuple out (`(a, b)`), or "
                            "use list(...)")
        if name in ("sorted", "list", "dict", "set"):
            return self.list_builtin(name, node)
        if name == "range":
            return self.range_value(node)               # `r = range(n)`
        handler = getattr(self, "builtin_" + name, None)
        if handler is None:
            self.fail(node, f"call to `{name}` is not supported")
        if node.keywords:
            self.fail(node, f"keyword arguments to {name}() are not supported")
        if name == "abs":
            self.array_consumers.update(node.args)      # np.absolute of an array
        return handler([self.expression(a) for a in node.args], node)

    def reduction_call(self, name, node) -> TypedValue:
        """np.sum(a, axis), np.cumsum(a): the array, then the options."""
        self.array_consumers.update(node.args[:1])
        return self.reduction(name, [self.expression(a) for a in node.args[:1]], node,
                              node.args[1:], node.keywords)

    def call_lambda(self, name, node) -> TypedValue:
        """`f(a, b)` of `f = lambda x, y: body`: the body, with x and y the
        arguments' values (evaluated first, in order)."""
        function = self.lambdas[name]
        parameters = [a.arg for a in function.args.args]
        if node.keywords or len(node.args) != len(parameters):
            self.fail(node, f"{name}() takes {len(parameters)} positional arguments here")
        if node not in self.inlined:
            body = copy.deepcopy(function.body)
            self.inlined[node] = (parameters, body)
        parameters, body = self.inlined[node]
        values = []
        for arg in node.args:
            value = self.expression(arg)
            if value.fresh:
                value = self.new_array(value, arg)
            if is_container(value.type) or is_str(value.type):
                what = "str" if is_str(value.type) else container_noun(value.type)
                self.fail(arg, f"passing a {what} to the lambda `{name}` is not supported "
                               "yet; write a function (`def`)")
            values.append(value)
        saved = {p: self.symbols.get(p) for p in parameters}
        for parameter, value in zip(parameters, values):
            self.symbols[parameter] = value
        self.array_consumers.add(body)
        try:
            return self.expression(body)
        finally:
            for parameter, value in saved.items():
                if value is None:
                    self.symbols.pop(parameter, None)
                else:
                    self.symbols[parameter] = value

    def call_site_hints(self, func, node) -> dict:
        """The types of the arguments this call passes to `func`'s
        parameters without annotations: a helper is typed by its first call
        (a Python number literal as int, float, complex or bool)."""
        names = [a.arg for a in func.args.args]
        passed = dict(zip(names, node.args))
        passed.update({k.arg: k.value for k in node.keywords if k.arg in names})
        hints = {}
        for arg in func.args.args:
            if arg.annotation is not None or arg.arg not in passed:
                continue
            value = self.expression(passed[arg.arg])
            self.absorb(value)
            self.refuse_range(value, passed[arg.arg], f"passing a range to {func.name}()")
            if isinstance(value.type, kt.TupleType) or value.type is None or \
                    is_unsettled(value.type) or is_unsettled_dict(value.type) or \
                    is_dict_like(value.type) and not is_dict(value.type):
                continue
            hints[arg.arg] = rules.default_for_kind(value.weak) if value.weak else value.type
        return hints

    def call_function(self, name, node, args=None, keywords=None,
                      receiver=None) -> TypedValue:
        """A call to another function of the module: typed from its
        signature. A method's call (class_typing.py) passes its arguments
        (`args`, `keywords`: the call's own by default) and the value of
        its `self` (`receiver`), bound to the first parameter."""
        refused = getattr(node, "kiln_refused_call", None)     # frontend/function_arguments.py
        if refused is not None:
            self.fail(node, refused)
        args = node.args if args is None else args
        keywords = node.keywords if keywords is None else keywords
        func = self.module.functions.get(name)
        hints = None
        if func is not None and not self.context.is_exported(func) and any(
                a.annotation is None for a in func.args.args) and \
                getattr(func, "kiln_class", None) is None:
            hints = self.call_site_hints(func, node)
            try:
                special = self.module.specializations.function_for(name, hints)
            except TooManySpecializations as error:
                self.fail(node, error.message)
            if special != name:
                self.call_targets[node] = name = special
        try:
            callee = self.module.signature(name, node, hints)
        except RecursiveSignatureError as error:
            self.fail(node, error.diagnostics[0].message)
        except KilnCompileError as error:
            first = error.diagnostics[0]
            self.fail(node, f"calls `{name}`, which cannot be compiled ({first.message}, line "
                            f"{first.line})")
        self.callees[name] = callee
        params = callee.params
        shown = name
        if receiver is not None:
            if not params:
                self.fail(node, f"{name}() takes no arguments (it needs `self`)")
            self.guarded(self.convert, receiver, params[0].type, node)
            params = params[1:]
            shown = name.replace(".__init__", "")
        if len(args) > len(params):
            self.fail(node, f"{shown}() takes {len(params)} arguments but {len(args)} were "
                            "given")
        bound = list(args) + [None] * (len(params) - len(args))
        for keyword in keywords:
            slot = next((i for i, p in enumerate(params) if p.name == keyword.arg), None)
            if slot is None or bound[slot] is not None:
                self.fail(keyword, f"{shown}() got an unexpected or repeated argument "
                                   f"`{keyword.arg}`")
            bound[slot] = keyword.value
        # Arguments are evaluated in the order of the parameters.
        for param, arg_node in zip(params, bound):
            if arg_node is None and param.default is not None:
                continue            # the default: a number of the parameter's type
            if arg_node is None:
                self.fail(node, f"{shown}() is missing argument `{param.name}`")
            self.array_consumers.add(arg_node)
            value = self.expression(arg_node)
            if is_unknown(value.type):
                continue
            if value.fresh:         # `relu(x @ w)`: computed into a new array first
                value = self.new_array(value, arg_node)
            self.refuse_range(value, arg_node, f"passing a range to {name}()")
            if param.name in callee.typed_by_first_call:
                passed = rules.default_for_kind(value.weak) if value.weak else value.type
                if passed != param.type and not isinstance(param.type, kt.ArrayType):
                    # Converting would compute something else than Python
                    # does (`h(a, True)` then `h(a, 3)`).
                    self.report(arg_node, f"argument `{param.name}` of {name}() is "
                                          f"{display(passed)} here, but the first call of "
                                          f"`{name}` typed it {param.type.display} "
                                          f"(`{param.name}` has no annotation); annotate it")
                    continue
            if holds_items(param.type) or holds_items(value.type):
                # Passed borrowed: `[]` and new lists (sets) take the parameter's type.
                self.settle_list(arg_node, value, param.type, arg_node)
            elif is_dict(param.type) or is_dict_like(value.type):
                self.settle_dict(arg_node, value, param.type, arg_node)
            elif isinstance(param.type, kt.ArrayType):
                if value.type != param.type:
                    unannotated = any(a.arg == param.name and a.annotation is None
                                      for a in callee.node.args.args)
                    self.report(arg_node, f"argument `{param.name}` of {name}() must be "
                                          f"{param.type.display}, not {display(value.type)}" + (
                                              f" (`{param.name}` has no annotation: the first "
                                              f"call of `{name}` typed it; annotate it to "
                                              "choose)" if unannotated else ""))
                elif param.name in callee.written_arrays:
                    self.written |= set(value.origins)
            else:
                self.guarded(self.convert, value, param.type, arg_node)
        if callee.raises:
            self.raises = True
        result = callee.return_type
        arguments = {param.name: self.values.get(arg_node) for param, arg_node in
                     zip(params, bound) if arg_node is not None}
        if isinstance(result, kt.ArrayType):
            return TypedValue(result, origins=self.call_result_origins(callee, 0, arguments))
        if isinstance(result, kt.TupleType):
            return self.tuple_value([
                TypedValue(t, origins=self.call_result_origins(callee, position, arguments))
                if isinstance(t, kt.ArrayType) else TypedValue(t)
                for position, t in enumerate(result.elements)])
        return TypedValue(result)

    def call_result_origins(self, callee, position, arguments) -> frozenset:
        """A new array of this call, or (when the callee may return views of
        its parameters) a view of the arguments passed for them."""
        self.allocation_count += 1
        origins = {f"alloc:{self.allocation_count}"}
        for name in callee.returned_parameters.get(position, ()):
            argument = arguments.get(name)
            if argument is not None:
                origins |= argument.origins
        return frozenset(origins)

    def allocate(self, name, node) -> TypedValue:
        """np.empty/zeros/ones(shape, dtype) and the *_like forms."""
        keywords = {k.arg: k.value for k in node.keywords}
        unknown = set(keywords) - {"dtype", "shape"}
        if unknown:
            self.fail(node, f"np.{name}() argument `{sorted(unknown)[0]}` is not supported")
        args = list(node.args)
        if name.endswith("_like"):
            if len(args) != 1:
                self.fail(node, f"np.{name}() takes one array")
            prototype = self.expression(args[0])
            self.absorb(prototype)
            if not isinstance(prototype.type, kt.ArrayType):
                self.fail(args[0], f"np.{name}() needs an array")
            dtype = self.dtype_of(keywords["dtype"]) if "dtype" in keywords else \
                prototype.type.dtype
            ndim = prototype.type.ndim
        else:
            shape_node = args[0] if args else keywords.get("shape")
            if shape_node is None or len(args) > 2:
                self.fail(node, f"np.{name}() takes a shape and an optional dtype")
            dtype_node = args[1] if len(args) == 2 else keywords.get("dtype")
            dtype = kt.f64 if dtype_node is None else self.guarded(self.dtype_of, dtype_node)
            parts = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
                shape_node]
            # np.zeros(a.shape), np.zeros(shape) of a variable holding a tuple
            shape_tuple = self.shape_value(shape_node)
            if shape_tuple is not None:
                parts = shape_tuple.elements
            if not 1 <= len(parts) <= rules.MAX_ARRAY_NDIM:
                self.fail(shape_node, f"arrays have 1 to {rules.MAX_ARRAY_NDIM} dimensions")
            for part in parts:
                size = part if shape_tuple is not None else self.expression(part)
                where = shape_node if shape_tuple is not None else part
                if is_unknown(size.type):
                    dtype = None
                elif not is_scalar_type(size.type) or size.type.is_float:
                    self.report(where, "array dimensions must be ints")
                    dtype = None
                else:
                    self.guarded(self.convert, size, kt.i64, where)
            if dtype is None:
                raise _Abandon()
            ndim = len(parts)
        self.raises = True      # MemoryError, and numpy's size limit
        self.allocation_count += 1
        return TypedValue(rules.array_type(dtype, ndim),
                          origins=frozenset([f"alloc:{self.allocation_count}"]))

    def dtype_of(self, node) -> kt.ScalarType:
        if isinstance(node, ast.Attribute) and node.attr == "dtype" and \
                self.context.qualified_name(node) is None:
            array = self.expression(node.value)         # `dtype=x.dtype`
            self.absorb(array)
            if isinstance(array.type, kt.ArrayType) and not array.fresh:
                return array.type.dtype
            self.fail(node, "`.dtype` of something else than an array variable")
        qualified = self.context.qualified_name(node)
        if qualified and qualified[0] in ("numpy", "kiln") and \
                qualified[1] in rules.DTYPE_ATTRIBUTES:
            return rules.DTYPE_ATTRIBUTES[qualified[1]]
        if isinstance(node, ast.Name) and node.id in rules.DTYPE_BUILTINS:
            return rules.DTYPE_BUILTINS[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value in rules.DTYPE_STRINGS:
            return rules.DTYPE_STRINGS[node.value]
        if isinstance(node, ast.Name):
            value = self.expression(node)               # `dt = x.dtype`, a dtype parameter
            self.absorb(value)
            if isinstance(value.type, kt.DTypeValue):
                return value.type.dtype
        self.fail(node, rules.DTYPE_ERROR.format(ast.unparse(node)))

    def expect_scalar(self, value, node, what) -> None:
        self.absorb(value)
        if not is_scalar_type(value.type):
            kind = "a tuple" if isinstance(value.type, kt.TupleType) else \
                "a list" if is_list(value.type) else "a range" if is_range(value.type) else \
                "a dict" if is_dict_like(value.type) else "a set" if is_set(value.type) else \
                "a str" if is_str(value.type) else "an array"
            self.fail(node, f"{what} needs a number, not {kind}")

    def refuse_complex(self, args, node, label, why) -> None:
        if any(a is not None and is_scalar_type(a.type) and a.type.is_complex for a in args):
            self.fail(node, f"{label} does not take complex numbers ({why})")

    def builtin_complex(self, args, node):
        """`complex(re)`, `complex(re, im)` of real numbers: CPython puts
        them in the parts as they are (no arithmetic)."""
        if not 1 <= len(args) <= 2:
            self.fail(node, "complex() takes one or two numbers")
        for arg in args:
            self.expect_scalar(arg, node, "complex()")
        self.refuse_complex(args[1:], node, "complex()'s second argument",
                            "give complex(re, im) two real numbers")
        # A Python complex: weak (NEP 50) when made of Python numbers only,
        # as float() of a Python number is.
        weak = "complex" if all(arg.weak for arg in args) else None
        if len(args) == 1 and args[0].type.is_complex:
            return TypedValue(kt.c128, weak=weak)
        for arg in args:
            self.convert(arg, kt.f64, node)
        return TypedValue(kt.c128, weak=weak)

    def cmath_call(self, name, args, node):
        """cmath.f of a number (a real one becomes complex, as in CPython),
        typed by its registry entry."""
        function = CMATH_FUNCTIONS[name]
        label = f"cmath.{name}"
        positional = args[:len(args) - len(function.keywords)]
        if len(positional) not in function.arities:
            self.arity(positional, function.arities[0], node, label)
        for arg in args:
            if arg is not None:
                self.expect_scalar(arg, node, label)
        if function.raises:
            self.raises = True      # math range and domain errors
        if function.real_arguments:
            # CPython: TypeError (must be real number, not complex)
            self.refuse_complex(args, node, label, "CPython raises TypeError; it takes two "
                                                   "real numbers")
            for arg in args:
                self.convert(arg, kt.f64, node)
            return TypedValue(kt.c128)
        for arg in positional:
            self.convert(arg, kt.c128, node)
        if function.keywords:
            self.refuse_complex(args[len(positional):], node, f"{label}'s tolerances",
                                "they are real numbers")
            for arg in args[len(positional):]:
                if arg is not None:
                    self.convert(arg, kt.f64, node)
        if function.result == lib.COMPLEX:
            return TypedValue(kt.c128)
        if function.result == lib.REAL:
            return TypedValue(kt.f64)
        if function.result == lib.POLAR:
            return self.tuple_value([TypedValue(kt.f64), TypedValue(kt.f64)])
        return TypedValue(kt.boolean)

    def numpy_complex_call(self, function, args, node):
        """np.f of a complex scalar: the functions that have one meaning
        for complex numbers; the rest are refused with the reason."""
        label = f"np.{function.name}"
        family = function.family
        complex_type = args[0].type if args and args[0].type.is_complex else kt.c128
        if family is lib.CONJUGATE:
            self.arity(args, 1, node, label)
            return TypedValue(complex_type)
        if family is lib.PART:
            self.arity(args, 1, node, label)
            # np.real(1j) is z.real: a Python float for a Python complex
            return TypedValue(complex_type.part, weak="float" if args[0].weak else None)
        if family is lib.ABSOLUTE:
            self.arity(args, 1, node, label)
            # numpy's: inf on overflow, no exception
            return TypedValue(complex_type.part)
        if function.complex_libm:
            self.arity(args, 1, node, label)
            return TypedValue(complex_type)     # glibc's cexp, cexpf, ... as numpy's
        if family is lib.IS:
            self.arity(args, 1, node, label)
            return TypedValue(kt.boolean)       # of either part (isfinite: of both)
        self.fail(node, f"{label} of complex numbers is not supported yet")

    def arity(self, args, count, node, label) -> None:
        if len(args) != count:
            self.fail(node, f"{label}() takes {count} argument{'s' if count > 1 else ''}")

    # ---------------------------------------------------------- builtins
    def builtin_len(self, args, node):
        if len(args) == 1 and isinstance(args[0].type, kt.TupleType):
            return self.literal(len(args[0].elements), kt.i64)      # len(a.shape)
        if len(args) == 1:
            self.absorb(args[0])
        if len(args) == 1 and is_instance_like(args[0].type):
            return self.instance_len(args[0], node)     # `len(o)`: class_protocols.py
        if len(args) == 1 and (is_container(args[0].type) or is_str(args[0].type)):
            return TypedValue(kt.i64)
        if len(args) == 1 and is_range(args[0].type):
            return self.range_length(node)
        if len(args) != 1 or not isinstance(args[0].type, kt.ArrayType):
            self.fail(node, "len() takes one array, list, dict, set, str or range")
        return TypedValue(kt.i64)

    def builtin_abs(self, args, node):
        if len(args) != 1:
            self.fail(node, "abs() takes one argument")
        value = args[0]
        if isinstance(value.type, kt.ArrayType):
            return self.array_ufunc("absolute", args, node)     # ndarray.__abs__
        self.expect_scalar(value, node, "abs()")
        if value.type.is_bool:
            value = self.convert(value, kt.i64, node)
        result_type = rules.abs_type(value.type)
        if value.type.is_complex:
            # CPython: OverflowError("absolute value too large"); numpy's
            # complex64 gives inf
            self.raises = self.raises or value.type == kt.c128
            return TypedValue(result_type, weak="float" if value.weak else None)
        if value.weak and value.constant is not None and (
                isinstance(value.constant, float) or value.constant != rules.INT64_MIN):
            # `abs(2**62)` of a Python literal is a Python number, folded
            # (comparisons with it stay exact).
            return self.literal(abs(value.constant), result_type, weak=value.weak)
        return TypedValue(result_type, weak=value.weak)

    def builtin_min(self, args, node):
        return self.min_max(args, node, "min")

    def builtin_max(self, args, node):
        return self.min_max(args, node, "max")

    def min_max(self, args, node, name):
        if any(is_str(a.type) for a in args):
            return self.str_min_max(args, node, name)           # `min(a, b)` of strs
        if len(args) == 1 and is_list(args[0].type):
            return self.list_min_max(args[0], node, name)       # `min(xs)`
        if len(args) == 1 and (is_dict_like(args[0].type) or is_set(args[0].type)):
            return self.dict_min_max(args[0], node, name)       # `min(d)`, `min(s)`
        if len(args) == 1 and is_range(args[0].type):
            return self.range_min_max(node, name)               # `min(r)`
        if any(is_dict_like(a.type) or is_set(a.type) for a in args):
            noun = next(container_noun(a.type) for a in args if is_dict_like(a.type) or
                        is_set(a.type))
            self.fail(node, f"{name}() takes one {noun}" + (" (or a view of one)" if noun ==
                                                             "dict" else "") +
                      " or two or more numbers")
        if any(is_list(a.type) for a in args):
            self.fail(node, f"{name}() of several lists is not supported; {name}() takes one "
                            "list or two or more numbers")
        if len(args) < 2:
            self.fail(node, f"{name}() of a sequence is not supported; pass two or more numbers")
        result = args[0]
        self.scalar_operands(result, node=node)
        self.refuse_complex(args, node, f"{name}()", "complex numbers are not ordered")
        for candidate in args[1:]:
            self.expect_scalar(candidate, node, f"{name}()")
            typed = self.operand_types(result, candidate)
            if typed is None:
                self.fail(node, f"{name}() needs numbers")
            pair = ((result.type, result.weak, known_literals(result)),
                    (candidate.type, candidate.weak, known_literals(candidate)))
            static = rules.static_min_max(name, *pair)
            if static is not None:
                result = (result, candidate)[static]
                continue
            common = rules.comparison_type(*pair)
            self.convert(result, common, node)
            self.convert(candidate, common, node)
            known = rules.python_int_min_max(
                name, (result.weak, result.constant, result.candidates),
                (candidate.weak, candidate.constant, candidate.candidates))
            if known and known[0] == "constant":
                result = self.literal(known[1], common, weak="int")
            else:
                result = TypedValue(common, weak=typed[1],
                                    candidates=known[1] if known else None)
        return result

    def builtin_divmod(self, args, node):
        """`divmod(a, b)`: the tuple (a // b, a % b) of two numbers, each
        typed as the operator is (ints floor, floats CPython's float_divmod;
        a zero divisor raises ZeroDivisionError)."""
        if len(args) != 2:
            self.fail(node, "divmod() takes two numbers")
        self.scalar_operands(*args, node=node)
        if any(isinstance(a.type, kt.ArrayType) for a in args):
            self.fail(node, "divmod() of arrays (numpy's np.divmod) is not supported yet; "
                            "use // and %")
        self.refuse_complex(args, node, "divmod()", "CPython raises TypeError: complex numbers "
                                                    "have no floor division")
        return self.tuple_value([self.binary(ast.FloorDiv(), *args, node),
                                 self.binary(ast.Mod(), *args, node)])

    def builtin_float(self, args, node):
        if len(args) == 1 and is_str(args[0].type):
            return self.str_to_number(args[0], kt.f64, node)   # `float(s)`
        if len(args) != 1:
            self.fail(node, "float() takes one number")
        self.expect_scalar(args[0], node, "float()")
        self.refuse_complex(args, node, "float()", "CPython raises TypeError; take `.real`")
        weak = self.python_number_conversion(args[0], float, kt.f64, "float", node)
        if weak is not None:
            return weak
        # A Python float is a double: float(x) of a float32 is exact in f64.
        return self.convert(args[0], kt.f64, node)

    def builtin_int(self, args, node):
        if len(args) == 1 and is_str(args[0].type):
            return self.str_to_number(args[0], kt.i64, node)   # `int(s)`
        if len(args) == 2 and is_str(args[0].type):
            self.fail(node, "int(s, base) is not supported yet; int(s) reads base 10")
        if len(args) != 1:
            self.fail(node, "int() takes one number")
        self.expect_scalar(args[0], node, "int()")
        self.refuse_complex(args, node, "int()", "CPython raises TypeError; take `.real`")
        weak = self.python_number_conversion(args[0], int, kt.i64, "int", node)
        if weak is not None:
            return weak
        # A Python int is 64-bit, also for int(x) of an int32.
        return self.convert(args[0], kt.i64, node, explicit=True)

    def python_number_conversion(self, value, convert, type_, kind, node):
        """float()/int() of a Python number is a Python number: it stays weak
        (NEP 50), so `float(3) * x32` is float32 like `3.0 * x32`. None when
        `value` is typed or not known at compile time."""
        if not value.weak:
            return None
        # int() of a float literal beyond int64 (or inf, NaN) raises at run
        # time, as the typed path emits; every other constant folds.
        folds = not (kind == "int" and isinstance(value.constant, float) and not (
            -2.0**63 <= value.constant < 2.0**63))
        if value.constant is not None and folds:
            return self.literal(convert(value.constant), type_, weak=kind)
        result = self.convert(value, type_, node, explicit=kind == "int")
        candidates = value.candidates if value.type.is_int and kind == "int" else None
        return TypedValue(result.type, weak=kind, candidates=candidates)

    def builtin_bool(self, args, node):
        if len(args) != 1:
            self.fail(node, "bool() takes one argument")
        if is_list(args[0].type) or is_dict(args[0].type) or is_set(args[0].type) or \
                is_range(args[0].type) or is_str(args[0].type) or is_instance_like(args[0].type):
            return self.truthy(args[0], node)       # true when it has items; an instance's
        self.expect_scalar(args[0], node, "bool()")
        return self.truthy(args[0], node)

    def builtin_round(self, args, node):
        if len(args) != 1:
            self.fail(node, "round() with ndigits is not supported yet")
        value = args[0]
        self.expect_scalar(value, node, "round()")
        self.refuse_complex(args, node, "round()", "CPython raises TypeError")
        if not value.type.is_float:
            return self.convert(value, kt.i64, node)
        self.raises = True      # int() of NaN or infinity
        return TypedValue(kt.i64)

    # ----------------------------------------------------------- library
    def library_call(self, qualified, args, node):
        module, name = qualified
        if module == "math":
            return self.math_call(name, args, node)
        if module == "numpy":
            return self.numpy_call(name, args, node)
        if module == "kiln" and name in rules.KILN_CASTS:
            return self.cast_call(rules.KILN_CASTS[name], args, node, f"kiln.{name}")
        if module == "cmath" and name in rules.SUPPORTED_CMATH:
            return self.cmath_call(name, args, node)
        self.fail(node, f"call to `{module}.{name}` is not supported yet")

    def as_double(self, value, node) -> TypedValue:
        self.expect_scalar(value, node, "this function")
        return self.convert(value, kt.f64, node)

    def math_call(self, name, args, node):
        """`math.f`: computed in double precision; CPython's domain and
        range errors make most of them raise."""
        label = f"math.{name}"
        self.refuse_complex(args, node, label, "CPython raises TypeError; cmath is not "
                                               "supported yet")
        function = MATH_FUNCTIONS.get(name)
        if function is None:
            self.fail(node, f"call to `{label}` is not supported yet")
        if function.form == UNARY:
            if name == "log" and len(args) == 2:
                for arg in args:
                    self.as_double(arg, node)
                self.raises = True
                return TypedValue(kt.f64)
            self.arity(args, 1, node, label)
            x = self.as_double(args[0], node)
            if function.raises:
                self.raises = True
            return TypedValue(x.type)
        if function.form == TO_INT:
            self.arity(args, 1, node, label)
            self.absorb(args[0])
            if is_scalar_type(args[0].type) and not args[0].type.is_float:
                return self.convert(args[0], kt.i64, node)
            self.as_double(args[0], node)
            self.raises = True      # NaN and infinity have no integer
            return TypedValue(kt.i64)
        if function.form == PREDICATE:
            self.arity(args, 1, node, label)
            self.as_double(args[0], node)
            return TypedValue(kt.boolean)
        self.arity(args, 2, node, label)                    # BINARY
        for arg in args:
            self.as_double(arg, node)
        if function.raises:
            self.raises = True
        return TypedValue(kt.f64)

    def numpy_float(self, value, node) -> TypedValue:
        self.expect_scalar(value, node, "this function")
        return self.convert(value, rules.numpy_float_type(value.type), node)

    def numpy_call(self, name, args, node):
        """`np.f(...)` of values, typed by its registry entry's family:
        numpy's types (f32 stays f32); never raises."""
        function = numpy_function(name)
        if function is None:
            self.fail(node, f"call to `np.{name}` is not supported yet")
        return getattr(self, function.family.typing)(function, args, node)

    def numpy_operator(self, function, args, node):
        """np.add(a, b) of arrays is `a + b`."""
        label = f"np.{function.name}"
        self.arity(args, 2, node, label)
        if not any(isinstance(a.type, kt.ArrayType) for a in args):
            self.fail(node, f"{label} of numbers is not supported yet (of arrays it is "
                            "the operator); write the operator")
        return self.binary(getattr(ast, function.detail)(), args[0], args[1], node)

    def numpy_comparison(self, function, args, node):
        """np.less(a, b) is `a < b`, of arrays or numbers."""
        self.arity(args, 2, node, f"np.{function.name}")
        ops = [getattr(ast, function.detail)()]
        if any(isinstance(a.type, kt.ArrayType) for a in args):
            return self.array_compare(args[0], args[1], node, ops)
        self.compare(args[0], args[1], node, ops)
        return TypedValue(kt.boolean)

    def complex_or_array_call(self, function, args, node):
        """np.f of a complex number (numpy_complex_call) or of arrays
        (array_ufunc, elementwise); None when its arguments are real
        numbers, which each family types itself."""
        # an array among the operands makes it elementwise, whatever the
        # scalars are: np.where(x > 0, x, 1j) is a complex array
        if any(isinstance(a.type, kt.ArrayType) for a in args):
            return self.array_ufunc(function.name, args, node)
        if any(is_scalar_type(a.type) and a.type.is_complex for a in args):
            return self.numpy_complex_call(function, args, node)
        return None

    def numpy_cast(self, function, args, node):
        label = f"np.{function.name}"
        target = numpy_cast_type(function)
        if not any(is_scalar_type(a.type) and a.type.is_complex for a in args) and \
                any(isinstance(a.type, kt.ArrayType) for a in args):
            return self.array_ufunc(function.name, args, node)     # refused there
        return self.cast_call(target, args, node, label)

    def numpy_dot(self, function, args, node):
        if any(is_scalar_type(a.type) and a.type.is_complex for a in args):
            return self.numpy_complex_call(function, args, node)   # refused there
        return self.dot(args, node)

    def numpy_array_only(self, function, args, node):
        """np.where, np.clip, np.logical_*, np.conj, np.real, ...: of arrays
        (and complex numbers); of real numbers not supported yet."""
        value = self.complex_or_array_call(function, args, node)
        if value is None:
            self.fail(node, f"call to `np.{function.name}` is not supported yet")
        return value

    def numpy_float_function(self, function, args, node):
        """np.sqrt(x), np.arctan2(y, x): computed in the operands' float
        type (f32 only when every operand is)."""
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        label = f"np.{function.name}"
        self.arity(args, function.arity, node, label)
        if function.arity == 1:
            return TypedValue(self.numpy_float(args[0], node).type)
        self.scalar_operands(*args, node=node)
        typed = self.operand_types(*args)
        common = rules.numpy_binary_float_type(typed[0] if typed else None)
        for arg in args:
            self.convert(arg, common, node)
        return TypedValue(common)

    def numpy_predicate(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        self.arity(args, 1, node, f"np.{function.name}")
        self.numpy_float(args[0], node)
        return TypedValue(kt.boolean)

    def numpy_absolute(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        self.arity(args, 1, node, f"np.{function.name}")
        # numpy's result is a numpy scalar, typed even for a Python
        # number (np.abs(1e300) + x32 is float64; fuzzer seed 742656376)
        value = self.builtin_abs(args, node)
        return TypedValue(value.type, constant=value.constant)

    def numpy_square(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        label = f"np.{function.name}"
        self.arity(args, 1, node, label)
        self.expect_scalar(args[0], node, label)
        if args[0].type.is_bool or args[0].weak:
            self.fail(node, "np.square of a bool or a Python number is not supported; "
                            "write x * x")
        return TypedValue(args[0].type)

    def numpy_minimum_maximum(self, function, args, node):
        value = self.complex_or_array_call(function, args, node)
        if value is not None:
            return value
        self.arity(args, 2, node, f"np.{function.name}")
        self.scalar_operands(*args, node=node)
        typed = self.operand_types(*args)
        if typed is None:
            self.fail(node, "np.minimum/np.maximum need numbers")
        common = rules.numpy_min_max_type(typed[0])
        for arg in args:
            self.convert(arg, common, node)
        return TypedValue(common)

    def cast_call(self, target, args, node, label):
        self.arity(args, 1, node, label)
        self.expect_scalar(args[0], node, label)
        converted = self.convert(args[0], target, node, explicit=True)
        # `np.float64(1e-300)` is a typed numpy scalar, not a Python literal:
        # NEP 50 must not demote it beside a float32.
        return TypedValue(converted.type, constant=converted.constant,
                          origins=converted.origins)
