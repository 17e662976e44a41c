"""Lowering of calls: module functions and lambdas, array allocation
(np.empty/zeros/ones and their _like forms), and the builtins len, abs, min,
max, float, int and bool. math, cmath and numpy calls are library.py's. A
mixin of code_generator.FunctionCodeGenerator."""

from __future__ import annotations

import ast
import dataclasses

from .. import typesystem as kt
from ..errors import KilnCompileError
from . import ir_builder as ir
from .. import library_functions as lib
from .. import typing_rules as rules
from ..library_functions import LIST_FUNCTIONS, numpy_function, numpy_method
from .values import Value, abi_type, mlir_type, recursive_body_symbol, symbol_name, tuple_value
from ..typecheck.typed_tree import is_counted, is_range, is_set, is_str, known_literals
from ..typecheck.dict_typing import is_dict_like, is_hidden_iterable
from ..typecheck.generator_typing import consumed_generator
from ..frontend.subset import GENERATOR_CONSUMERS

# How many calls of recursive functions may be nested (the first, from a
# function that is not recursive, at depth 0): CPython's default
# sys.getrecursionlimit(). A call that would be the 1001st raises
# RecursionError. docs/architecture.md, "Recursion", says why the native
# stack holds it.
RECURSION_LIMIT = 1000
# On every call of a recursive function's body: MLIR's inliner (in
# kiln-inline-helpers) leaves a self-recursive callee alone, but would
# inline one of a longer cycle into its callers, unrolling the recursion
# once per call site; func.call's `no_inline` keeps the call (test_recursion.py).
NOT_INLINED = {"no_inline": ir.UNIT}


class CallLowering:
    # ---------------------------------------------------------------- calls
    def expr_Call(self, node):
        func = node.func
        if getattr(node, "_kiln_class_call", False):
            return self.class_call(node)        # class_lowering.py: C(...), o.m(...)
        qualified = self.context.qualified_name(func)
        if rules.is_positions_call(node, qualified) and qualified is not None:
            return self.shape_function("nonzero", node)         # np.where(a) too
        function = numpy_function(qualified[1]) if qualified is not None and \
            qualified[0] == "numpy" else None
        if function is not None and function.family.reads_call:
            return getattr(self, function.family.lowering)(function.name, node)
        method = numpy_method(func.attr) if qualified is None and \
            isinstance(func, ast.Attribute) else None
        if method is not None and method.family is lib.SHAPE:
            return self.shape_function(func.attr, node, func.value)
        if qualified in LIST_FUNCTIONS:
            function = LIST_FUNCTIONS[qualified]        # heapq, bisect
            return getattr(self, function.lowering)(function, node)
        if qualified is not None and qualified[0] == "collections":
            return self.dict_class_call(qualified[1], node)     # defaultdict(int), Counter()
        if qualified is not None:
            args = [self.before_module_call(self.expression(arg), node.args[position + 1:], node)
                    for position, arg in enumerate(node.args)]
            keyword_values, _ = rules.keyword_only_arguments(qualified, node.keywords)
            args += [None if v is None else self.expression(v) for v in keyword_values]
            return self.library_call(qualified, args, node)
        if isinstance(func, ast.Attribute) and self.is_dict_valued(func.value):
            return self.dict_method(func, node)         # `d.get(k, 0)`
        if isinstance(func, ast.Attribute) and self.is_set_valued(func.value):
            return self.set_method(func, node)          # `s.add(x)`
        if isinstance(func, ast.Attribute) and self.is_list_valued(func.value):
            return self.list_method(func, node)         # `xs.append(v)`
        if isinstance(func, ast.Attribute) and self.is_str_valued(func.value):
            return self.str_method(func, node)          # `s.strip()`
        if isinstance(func, ast.Attribute) and func.attr in ("copy", "astype", "fill"):
            return self.array_method(func.attr, self.expression(func.value), node)
        if isinstance(func, ast.Attribute) and func.attr == "conjugate":
            z = self.expression(func.value)
            conjugate = self.complex_conjugate(z, node)
            conjugate.weak = z.weak
            return conjugate
        if isinstance(func, ast.Attribute) and hasattr(node, "_kiln_kernel_call"):
            return self.linalg_call(func.attr, node)    # `x.sort()`: a kernel's call
        if isinstance(func, ast.Attribute):         # `x.sum(axis=1)`
            return self.reduce(func.attr, self.expression(func.value), node, node.args,
                               node.keywords)
        name = func.id
        if node in self.typed.inlined:
            return self.call_lambda(node)
        if name in self.module.functions:
            return self.call_function(name, node)
        if name in GENERATOR_CONSUMERS and consumed_generator(node) is not None:
            return self.generator_call(name, node)      # `sum(x * x for x in xs)`
        if name in ("sorted", "list", "dict", "set"):
            return self.list_builtin(name, node)
        if name == "range":
            return self.range_value(node)           # `r = range(n)`
        if name == "ord":
            return self.ord_call(node)              # `ord(c)`, `ord(s[i])`
        handler = getattr(self, "builtin_" + name)
        return handler([self.expression(a) for a in node.args], node)

    def linalg_call(self, name, node):
        """np.linalg.solve(a, b), np.trace(a), np.sort(a), ...: the call of
        the kernel type inference chose (typecheck/linalg_typing.py,
        sorting_typing.py)."""
        if getattr(node, "_kiln_matmul", False):       # np.matmul of 1-D/2-D: `a @ b`
            return self.dot([self.expression(argument) for argument in node.args], node)
        call = node._kiln_kernel_call
        kernel = call.func.id
        # (`np.linalg.norm(a @ x - b)`: evaluated_arguments computes an array
        # expression passed to a kernel into a new array first)
        signature, values, value_nodes = self.evaluated_arguments(kernel, call, call.args, [])
        return self.call_with_values(kernel, signature, values, call, value_nodes)

    def reduce_call(self, name, node):
        """np.sum(a, axis), np.cumsum(a): the array, then the options."""
        return self.reduce(name, self.expression(node.args[0]), node, node.args[1:],
                           node.keywords)

    # ------------------------------------------------------------ allocation
    def allocate(self, name, node):
        """np.empty/zeros/ones(shape, dtype) and the *_like forms: a new
        contiguous array owned by this call until it is returned; its type
        (dtype, rank) is inference's."""
        array_type = self.typed.type_of(node)
        keywords = {k.arg: k.value for k in node.keywords}
        args = list(node.args)
        if name.endswith("_like"):
            prototype = self.expression(args[0])
            sizes = [self.dimension(prototype, axis, node)
                     for axis in range(prototype.type.ndim)]
        else:
            shape_node = args[0] if args else keywords.get("shape")
            parts = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [
                shape_node]
            # np.zeros(a.shape), np.zeros(shape) of a variable holding a tuple
            sizes = self.shape_sizes(shape_node)
            if sizes is not None:
                parts = []
            else:
                sizes = []
            for part in parts:
                size = self.convert(self.expression(part), kt.i64, part)
                if not size.nonneg and not (size.constant is not None and size.constant >= 0):
                    zero = self.constant(0, kt.i64, part)
                    ok = self.cmpi("sge", size, zero, part)
                    self.check(ok, "ValueError", "negative dimensions are not allowed", [], part)
                sizes.append(size)
        view = self.allocate_array(array_type, sizes, node, zeroed=name.startswith("zeros"))
        if name.startswith("ones"):
            self.fill(view, 1, node)
        elif name.startswith("zeros"):
            # A large block fresh from calloc is zero already (kiln_alloc.c).
            location = self.loc(node)
            address = self.builder.cast("index_cast", self.builder.aligned_pointer(
                view.ir, location), ir.i64, location)
            self.external_functions.add("kiln_alloc_zeroed")
            [zeroed] = self.builder.call("kiln_alloc_zeroed", [address], [ir.i64], location)
            clear = self.cmpi("eq", Value(zeroed, kt.i64), self.constant(0, kt.i64, node), node)
            region = self.builder.region()
            with self.builder.at_end(region.block):
                self.fill(view, 0, node)
                self.builder.scf_yield([], location)
            self.builder.scf_if(clear.ir, [], region, None, location)
        return view

    def allocate_array(self, array_type, sizes, node, zeroed=False) -> Value:
        """A new contiguous array of these (int64, >= 0) sizes, owned by
        this call until it is returned."""
        dtype = array_type.dtype
        # numpy's limit: the byte size must fit in a signed 64-bit integer.
        total = self.constant(dtype.itemsize, kt.i64, node)
        fits = self.constant(True, kt.boolean, node)
        location = self.loc(node)
        for size in sizes:
            low, high = self.builder.mului_extended(total.ir, size.ir, location)
            zero = self.constant(0, kt.i64, node)
            no_carry = self.cmpi("eq", Value(high, kt.i64), zero, node)
            positive = self.cmpi("sge", Value(low, kt.i64), zero, node)
            fits = self.arith("andi", fits, no_carry, node)
            fits = self.arith("andi", fits, positive, node)
            total = Value(low, kt.i64)
        self.check(fits, "ValueError", "array is too big; `arr.size * arr.dtype.itemsize` is "
                   "larger than the maximum possible size.", [], node)
        dims = [self.builder.cast("index_cast", size.ir, ir.index, location)
                for size in sizes]
        plain = ir.memref_type([None] * len(sizes), mlir_type(dtype))
        self.allocation_count += 1
        identity = f"alloc:{self.allocation_count}"
        if zeroed:      # np.zeros: large blocks from calloc (kiln_alloc.c)
            self.external_functions.add("kiln_alloc_zeroed_next")
            self.builder.call("kiln_alloc_zeroed_next", [], [], location)
        raw = self.builder.alloc(plain, dims, 64, {}, location)
        address = self.builder.aligned_pointer(raw, location)
        null = self.index_constant(0, node)
        allocated = Value(self.builder.cmpi("ne", address, null, location), kt.boolean)
        self.check(allocated, "MemoryError", "cannot allocate the array", [], node)
        return Value(self.builder.cast("cast", raw, mlir_type(array_type), location),
                     array_type, origins=frozenset([identity]))

    def fill(self, array: Value, value, node):
        """Stores `value` into every element: a loop nest over the axes."""
        fill_value = self.constant(value, array.type.dtype, node)
        location = self.loc(node)
        zero = self.index_constant(0, node)
        one = self.index_constant(1, node)
        counters = []

        def loop(axis):
            if axis == array.type.ndim:
                self.builder.store(fill_value.ir, array.ir, counters, location)
                return
            axis_index = self.index_constant(axis, node)
            size = self.builder.dim(array.ir, axis_index, location)
            body = self.builder.region([ir.index])
            counters.append(body.block.arguments[0])
            with self.builder.at_end(body.block):
                loop(axis + 1)
            self.builder.scf_for(zero, size, one, [], body, location)

        loop(0)

    def call_lambda(self, node):
        parameters, body = self.typed.inlined[node]
        values = [self.expression(arg) for arg in node.args]
        values = [self.materialize(v, arg) if v.lazy is not None else v
                  for v, arg in zip(values, node.args)]
        saved = {p: self.symbols.get(p) for p in parameters}
        self.symbols.update(zip(parameters, values))
        try:
            return self.expression(body)
        finally:
            for parameter, value in saved.items():
                if value is None:
                    self.symbols.pop(parameter, None)
                else:
                    self.symbols[parameter] = value

    def call_function(self, name, node, args=None, keywords=None, receiver=None):
        """A call to another function of the module, compiled alongside;
        its signature is the callee's inferred one. A method's call
        (class_lowering.py) passes its arguments (`args`, `keywords`: the
        call's own by default) and its evaluated `self` (`receiver`). A
        helper typed at this call's argument types is called as that
        specialization (typecheck/specialization.py)."""
        name = self.typed.call_targets.get(node, name)
        signature, values, value_nodes = self.evaluated_arguments(name, node, args, keywords,
                                                                  receiver)
        return self.call_with_values(name, signature, values, node, value_nodes)

    def evaluated_arguments(self, name, node, args=None, keywords=None, receiver=None):
        """(the callee's signature, the values of its parameters, the nodes
        they come from) for a call of module function `name`: the
        arguments evaluated as written, the defaults of those missing."""
        args = node.args if args is None else args
        keywords = node.keywords if keywords is None else keywords
        self.compile_callee(name, node)
        signature = self.typed.callees[name]
        params = signature.params
        values, value_nodes = [], []
        if receiver is not None:
            values.append(receiver)
            value_nodes.append(node)
            params = params[1:]
        bound = list(args) + [None] * (len(params) - len(args))
        for keyword in keywords:
            slot = next(i for i, p in enumerate(params) if p.name == keyword.arg)
            bound[slot] = keyword.value
        # The arguments are evaluated as written (positional ones, then the
        # keywords in their order: `C(b=f(), a=g())` calls f first, as
        # CPython does), each then takes its parameter's place.
        written = list(args) + [keyword.value for keyword in keywords]
        evaluated = {}
        for arg_node in written:
            value = self.expression(arg_node)
            # an array expression passed (`relu(x @ w)`) is computed into a
            # new array, as numpy computes it, before the next argument
            evaluated[id(arg_node)] = self.materialize(value, arg_node) \
                if value.lazy is not None else value
        for param, arg_node in zip(params, bound):
            # A missing argument is the parameter's default (a number, or a
            # new empty list for a dataclass's default_factory=list).
            value = evaluated[id(arg_node)] if arg_node is not None else \
                self.empty_list(param.type, node) if param.default is kt.NEW_LIST_DEFAULT else \
                self.str_constant(param.default, node) if is_str(param.type) else \
                self.none_of(param.type, node) if param.default is kt.none_type else \
                self.dtype_constant(param.default, node) if isinstance(
                    param.default, kt.DTypeValue) else \
                self.constant(param.default, param.type, node)
            values.append(value)
            value_nodes.append(arg_node if arg_node is not None else node)
        return signature, values, value_nodes

    def compile_callee(self, name, node) -> None:
        """Generates the module function `name` this function calls (once;
        a recursive call still being generated is left to its caller)."""
        try:
            self.module.signature(name)
        except KilnCompileError as error:
            # Code generation of the callee failed (inference accepted it).
            first = error.diagnostics[0]
            raise self.error(node, f"calls `{name}`, which cannot be compiled "
                                   f"({first.message}, line {first.line})")

    def call_with_values(self, name, signature, values, node, value_nodes=None,
                         release_arguments=True) -> Value:
        """The call of module function `name` (typed `signature`) with the
        evaluated arguments `values`, one per parameter; the temporaries
        among them are released after it unless `release_arguments` is
        False (the caller still uses them)."""
        value_nodes = value_nodes or [node] * len(values)
        # Protocol calls (`len(o)`, `bool(o)`, `o + p`, a property's setter,
        # an override's dispatch) come here directly: the callee must be
        # generated too, also in a build of a few of the module's functions
        # (the isolation of a rejected one), where no export brings it in.
        self.compile_callee(name, node)
        operands = []
        arguments = {}
        for param, value, arg_node in zip(signature.params, values, value_nodes):
            arguments[param.name] = value
            if not isinstance(param.type, kt.ArrayType):
                value = self.convert(value, param.type, arg_node)
            operands.append(self.to_abi(value, arg_node))
        symbol = symbol_name(self.context, name)
        call_attributes = None
        if signature.recursion_cycle:
            operands.append(self.recursion_depth_for_call(node))
            symbol = recursive_body_symbol(self.context, name)
            call_attributes = NOT_INLINED
        if signature.raises:
            self.may_raise = True
            operands.append(self.error_slot)
        result = signature.return_type
        elements = [] if result is None else (
            list(result.elements) if isinstance(result, kt.TupleType) else [result])
        location = self.loc(node)
        results = self.builder.call(symbol, operands, [abi_type(t) for t in elements], location,
                                    call_attributes)
        if signature.raises:
            # An exception of Kiln's own kernel (frontend/kernels) is the
            # caller's: it points at the call, not at the kernel's source.
            self.builder.kiln_propagate_error(location, at_call=self.is_kernel(name) and
                                              not self.is_kernel(self.func.name))
        # Lists were passed borrowed: the temporaries among them end here.
        if release_arguments:
            self.done_with(node, *arguments.values())
        converted = [self.from_abi(result, type_, node) for result, type_ in zip(results, elements)]
        for element in converted:
            element.owned = is_counted(element.type)   # a new reference
        if not converted:
            return Value(None, None)
        for position, element in enumerate(converted):
            if isinstance(element.type, kt.ArrayType):
                # A new array, the caller's, or a view of an argument
                # (kiln-buffer-deallocation tells which at run time).
                self.allocation_count += 1
                origins = {f"alloc:{self.allocation_count}"}
                for parameter in signature.returned_parameters.get(position, ()):
                    origins |= arguments[parameter].origins
                element.origins = frozenset(origins)
        return converted[0] if len(converted) == 1 else tuple_value(converted)

    def is_kernel(self, name) -> bool:
        return name in self.context.kernel_functions

    def recursion_depth_for_call(self, node) -> ir.Value:
        """The hidden depth argument of a call of a recursive function: 0
        from a function that is not recursive (a new chain of recursive
        calls starts), this function's depth + 1 from a recursive one, after
        checking that it stays below RECURSION_LIMIT (CPython's
        RecursionError, raised at the call's line as CPython's traceback
        shows it; the arguments are evaluated first, as in CPython)."""
        if not self.typed.recursion_cycle:
            return self.constant(0, kt.i64, node).ir
        depth = Value(self.recursion_depth, kt.i64)
        deeper = self.arith("addi", depth, self.constant(1, kt.i64, node), node)
        below_limit = self.cmpi("slt", deeper, self.constant(RECURSION_LIMIT, kt.i64, node), node)
        self.check(below_limit, "RecursionError", "maximum recursion depth exceeded", [], node)
        return deeper.ir

    def builtin_len(self, args, node):
        if isinstance(args[0].type, kt.TupleType):
            return self.constant(len(args[0].elements), kt.i64, node)      # len(a.shape)
        if is_dict_like(args[0].type) or is_set(args[0].type):
            length = self.dict_length(args[0], node)
            self.done_with(node, args[0])
            return length
        if isinstance(args[0].type, kt.ListType):
            length = self.list_length(args[0], node)
            self.done_with(node, args[0])
            return length
        if is_str(args[0].type):
            length = self.str_length(args[0], node)
            self.done_with(node, args[0])
            return length
        if isinstance(args[0].type, (kt.ClassType, kt.NoneType)):
            return self.instance_len(args[0], node)         # `len(o)`: class_protocols.py
        if is_range(args[0].type):      # a loop's own range (desugar.py) is not checked
            return self.range_length(args[0], node, not is_hidden_iterable(node.args[0]))
        return self.dimension(args[0], 0, node)

    def dimension(self, array: Value, axis: int, node) -> Value:
        axis_index = self.index_constant(axis, node)
        location = self.loc(node)
        size = self.builder.dim(array.ir, axis_index, location)
        return Value(self.builder.cast("index_cast", size, ir.i64, location), kt.i64,
                     nonneg=True)

    def shape_of(self, array: Value, node) -> list:
        """The sizes of an array's axes, as int64 values."""
        return [self.dimension(array, axis, node) for axis in range(array.type.ndim)]

    def builtin_abs(self, args, node):
        if isinstance(args[0].type, kt.ArrayType):
            return self.array_ufunc("absolute", args, node)     # ndarray.__abs__
        typed = self.typed_value(node)
        if typed.constant is not None:          # abs of a Python literal: folded
            return self.constant(typed.constant, typed.type, node, weak=typed.weak)
        if args[0].type == kt.c64:
            # numpy's complex64 scalar __abs__ is npy_hypotf, glibc's hypotf
            # (np.abs of one runs the ufunc loop: numpy_abs_complex64)
            return self.libm_call("hypotf", list(self.complex_parts(args[0], node)), node)
        if args[0].type.is_complex:
            magnitude = self.complex_abs(args[0], node)
            magnitude.weak = "float" if args[0].weak else None
            return magnitude
        value = self.convert(args[0], rules.abs_type(args[0].type), node)
        if value.type.is_unsigned:
            return value       # numpy: the absolute value of an unsigned int is itself
        return self.unary("absf" if value.type.is_float else "absi", value, node,
                          weak=value.weak)

    def builtin_min(self, args, node):
        return self.min_max(args, node, ast.Lt(), "min")

    def builtin_max(self, args, node):
        return self.min_max(args, node, ast.Gt(), "max")

    def min_max(self, args, node, op, name):
        if is_str(args[0].type):
            return self.str_min_max(args, node, name)          # `min(a, b)` of strs
        if isinstance(args[0].type, kt.ListType):
            return self.list_min_max(args[0], node, name)      # `min(xs)`
        if is_dict_like(args[0].type) or is_set(args[0].type):
            return self.dict_min_max(args[0], node, name)      # `min(d)`, `min(s)`
        if is_range(args[0].type):
            return self.range_min_max(args[0], node, name)     # `min(r)`
        result = args[0]
        for candidate in args[1:]:
            pair = ((result.type, result.weak, known_literals(result)),
                    (candidate.type, candidate.weak, known_literals(candidate)))
            static = rules.static_min_max(name, *pair)
            if static is not None:
                result = (result, candidate)[static]
                continue
            # The type of each step is the type the two are compared in.
            common = rules.comparison_type(*pair)
            weak = rules.operand_types(result.type, result.weak, candidate.type,
                                       candidate.weak)[1]
            known = rules.python_int_min_max(
                name, (result.weak, result.constant, result.candidates),
                (candidate.weak, candidate.constant, candidate.candidates))
            if known and known[0] == "constant":
                result = self.constant(known[1], common, node, weak="int")
                continue
            a = self.convert(result, common, node)
            b = self.convert(candidate, common, node)
            # CPython keeps the earlier argument unless the later one is
            # strictly smaller (larger), which fixes what NaN gives.
            better = self.compare(op, b, a, node)
            result = self.select(better, b, a, node, weak=weak)
            result.candidates = known[1] if known else None
        return result

    def builtin_divmod(self, args, node):
        """`divmod(a, b)`: (a // b, a % b) in inference's types. A float
        divisor of zero raises CPython's ZeroDivisionError("float divmod()")
        before either operator runs; an int one, the floor division's own
        "integer division or modulo by zero", which is divmod's too."""
        left, right = args
        quotient, remainder = self.typed_value(node).elements
        if quotient.type.is_float and quotient.constant is None:
            divisor = self.convert(right, quotient.type, node)
            if divisor.constant is None or divisor.constant == 0:
                zero = self.constant(0.0, quotient.type, node)
                self.check(self.cmpf("une", divisor, zero, node), "ZeroDivisionError",
                           "float divmod()", [], node)
        return tuple_value([self.binary(ast.FloorDiv(), left, right, node, quotient),
                            self.binary(ast.Mod(), left, right, node, remainder)])

    def builtin_float(self, args, node):
        if is_str(args[0].type):
            return self.str_to_number(args[0], node)           # `float(s)`
        # A Python float is a double: float(x) of a float32 is exact in f64.
        return self.python_number(self.convert(args[0], kt.f64, node), node)

    def builtin_int(self, args, node):
        if is_str(args[0].type):
            return self.str_to_number(args[0], node)           # `int(s)`
        # A Python int: int(x) of an int32 is 64-bit (int(x) * 2**40 does
        # not wrap at 32 bits).
        return self.python_number(self.convert(args[0], kt.i64, node, explicit=True), node)

    def python_number(self, converted, node):
        """float()/int() of a Python number stays weak (type inference's
        python_number_conversion decides; its constant is folded there)."""
        typed = self.typed_value(node)
        if not typed.weak:
            return converted
        if typed.constant is not None:
            return self.constant(typed.constant, typed.type, node, weak=typed.weak)
        return dataclasses.replace(converted, weak=typed.weak, candidates=typed.candidates)

    def builtin_bool(self, args, node):
        return self.truthy(args[0], node)
