"""Type inference of arrays: attributes (.shape, .dtype, .T), subscripts and
views, whole-array operators and ufuncs, methods and reductions, np.dot, and
stores into arrays. A mixin of type_inference.FunctionTyping."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .. import typing_rules as rules
from ..library_functions import is_scan
from .typed_values import TypedValue, _Abandon
from ..frontend.subset import SUPPORTED_BINOPS
from ..typing_rules import display, is_unknown
from .typed_tree import is_range, is_scalar_type, known_literals


class ArrayTyping:
    # ------------------------------------------------------------ arrays
    def expr_Attribute(self, node):
        qualified = self.context.qualified_name(node)
        if qualified is not None:
            module, name = qualified
            constants = {"math": rules.MATH_CONSTANTS,
                         "numpy": rules.NUMPY_CONSTANTS}.get(module, {})
            if name in constants:
                return self.literal(constants[name], kt.f64, weak="float")
            if module == "numpy" and name in rules.DTYPE_ATTRIBUTES:
                return TypedValue(kt.DTypeValue(rules.DTYPE_ATTRIBUTES[name]))   # `t = np.float32`
            if module == "kiln" and name in rules.DTYPE_ATTRIBUTES:
                self.fail(node, f"`{ast.unparse(node)}` is not a dtype in Python (numpy cannot "
                                f"read it); use np.{rules.DTYPE_ATTRIBUTES[name].numpy_name}")
            self.fail(node, f"`{ast.unparse(node)}` is not supported here")
        if self.context.classes:
            constant = self.class_attribute(node)       # `C.NAME`: class_typing.py
            if constant is not None:
                return constant
        if node.attr in ("T", "real", "imag"):
            self.array_consumers.add(node.value)       # `(a - b).T`, `(z * w).real`
        base = self.expression(node.value)
        self.absorb(base)
        if isinstance(base.type, kt.ClassType):
            return self.instance_attribute(node, base)  # `o.x`: class_typing.py
        if isinstance(base.type, kt.NoneType):
            if self.provisional_none(base):
                raise _Abandon()            # None so far: typed in a later round
            self.fail(node, f"'NoneType' object has no attribute '{node.attr}'")
        if is_range(base.type):
            return self.range_attribute(node)           # `r.start`
        if node.attr == "T" and base.fresh:
            base = self.new_array(base, node)
        if is_scalar_type(base.type) and base.type.is_complex and node.attr in ("real", "imag"):
            # a Python complex's parts are Python floats (weak under NEP 50)
            return TypedValue(base.type.part, weak="float" if base.weak else None)
        if is_scalar_type(base.type) and node.attr in ("real", "imag") and not base.type.is_bool:
            # of an int or float: itself, and a zero of its type
            return base if node.attr == "real" else self.literal(0, base.type, weak=base.weak)
        if not isinstance(base.type, kt.ArrayType):
            self.fail(node, f"attribute `{node.attr}` of a {display(base.type)} is not supported")
        if node.attr in ("real", "imag"):
            if not base.type.dtype.is_complex:
                if base.type.dtype.is_bool:
                    self.fail(node, f"`.{node.attr}` of a bool array is not supported")
                # numpy: the array itself (a view), and zeros of its dtype
                return base if node.attr == "real" else \
                    self.array_result(base.type.dtype, [base], node)
            # numpy's is a view; Kiln reads it as a new float array (stores
            # through it are refused where they are written)
            return self.array_result(base.type.dtype.part, [base], node)
        if node.attr == "ndim":
            return self.literal(base.type.ndim, kt.i64)
        if node.attr == "size":
            return TypedValue(kt.i64)
        if node.attr == "shape":        # `m, n = a.shape`, `np.zeros(a.shape)`
            return self.tuple_value([TypedValue(kt.i64) for _ in range(base.type.ndim)])
        if node.attr == "T":
            return TypedValue(base.type, origins=base.origins)
        if node.attr == "dtype":
            return TypedValue(kt.DTypeValue(base.type.dtype, "array"))     # `dt = x.dtype`
        self.fail(node, f"attribute `{node.attr}` of an array is not supported yet")

    def expand_ellipsis(self, node) -> None:
        """`a[..., 0]` of an array variable: the `...` becomes as many full
        slices as the axes it stands for, in the tree itself, so every later
        stage (views, stores, code generation) sees `a[:, :, 0]`. And
        `a[pos]` with `pos` a variable holding a tuple of ints (a position
        from np.ndindex or np.unravel_index): `a[pos[0], pos[1], ...]`."""
        self.expand_tuple_index(node)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        dots = [p for p in parts if isinstance(p, ast.Constant) and p.value is Ellipsis]
        if not dots:
            return
        if len(dots) > 1:
            self.fail(node, "an index can only have a single ellipsis ('...')")
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        if base is None or is_unknown(base.type):
            self.fail(node, "`...` in an index is supported on array variables and parameters")
        if not isinstance(base.type, kt.ArrayType):
            self.fail(node, f"`{node.value.id}` is not an array")
        consumed = sum(1 for p in parts if p is not dots[0] and not self.context.is_new_axis(p))
        spread = base.type.ndim - consumed
        if spread < 0:
            self.fail(node, f"too many indices for a {base.type.ndim}-D array")
        expanded = []
        for part in parts:
            if part is dots[0]:
                expanded += [ast.copy_location(ast.Slice(), part) for _ in range(spread)]
            else:
                expanded.append(part)
        if len(expanded) == 1:
            node.slice = expanded[0]
        else:
            node.slice = ast.copy_location(ast.Tuple(elts=expanded, ctx=ast.Load()), node.slice)

    def expand_tuple_index(self, node) -> None:
        if not isinstance(node.slice, ast.Name):
            return
        held = self.symbols.get(node.slice.id)
        if held is None or not isinstance(held.type, kt.TupleType) or not all(
                isinstance(e, kt.ScalarType) and e.is_int and not e.is_bool
                for e in held.type.elements):
            return
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        if base is not None and not isinstance(base.type, kt.ArrayType):
            return          # a dict's tuple key, a tuple's ...
        if not held.type.elements:
            return          # `a[()]`: numpy's whole array; left to the index rules
        elements = [ast.copy_location(ast.Subscript(
            value=ast.copy_location(ast.Name(node.slice.id, ast.Load()), node.slice),
            slice=ast.copy_location(ast.Constant(k), node.slice), ctx=ast.Load()), node.slice)
            for k in range(len(held.type.elements))]
        node.slice = ast.copy_location(ast.Tuple(elts=elements, ctx=ast.Load()), node.slice)

    def expr_Subscript(self, node):
        self.expand_ellipsis(node)
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.expression(value.value)
            self.absorb(array)
            if not isinstance(array.type, kt.ArrayType):
                self.fail(node, "`.shape` needs an array")
            index = rules.constant_int(node.slice)
            if index is None:
                self.fail(node, f"`{ast.unparse(node)}`: the axis in `.shape[...]` must be an "
                                "int written in the source, such as `.shape[0]`")
            axis = index + array.type.ndim if index < 0 else index
            if not 0 <= axis < array.type.ndim:
                self.fail(node, f"axis {index} is out of range for a "
                                f"{array.type.ndim}-D array")
            return TypedValue(kt.i64)
        if self.context.classes and self.is_instance_expression(node.value):
            return self.instance_subscript(node)        # `o[k]`: class_protocols.py
        callee = self.context.qualified_name(node.value.func) \
            if isinstance(node.value, ast.Call) else None
        if rules.is_positions_call(node.value, callee) or rules.is_tuple_call(node.value, callee):
            return self.tuple_element(node)         # np.where(mask)[0], cmath.polar(z)[1]
        if self.is_range_expression(node.value):
            return self.range_subscript(node, self.expression(node.value))     # r[i]
        if self.is_dict_expression(node.value):
            return self.dict_subscript(node, self.expression(node.value))      # d[k]
        if self.is_set_expression(node.value):
            return self.set_subscript(node, self.expression(node.value))       # a set loop's
        if self.is_list_expression(node.value):
            return self.list_subscript(node, self.expression(node.value))      # xs[i], xs[:]
        if self.is_str_expression(node.value):
            return self.str_subscript(node, self.expression(node.value))       # s[i], s[a:b]
        tuple_value = self.tuple_operand(node.value)
        if tuple_value is not None and isinstance(tuple_value.type, kt.ListType):
            return self.list_subscript(node, tuple_value)       # helper(x)[i]
        if tuple_value is not None:
            return self.tuple_subscript(node, tuple_value)      # t[0], t[k], helper(x)[1]
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.is_array_index(node.slice):
            return self.indexed_by_array(node)
        if self.is_view_subscript(node):
            return self.slice_view(node, parts)
        array = self.subscript_parts(node)
        return TypedValue(array.type.dtype, numpy_bool=array.type.dtype.is_bool)

    def tuple_element(self, node):
        """`np.nonzero(m)[k]`: one element of a tuple, k written in the
        source."""
        self.array_consumers.add(node.value)
        value = self.expression(node.value)
        self.absorb(value)
        k = rules.constant_int(node.slice)
        if k is None or not -len(value.elements) <= k < len(value.elements):
            self.fail(node, f"a tuple of {len(value.elements)} elements is indexed by an int "
                            "written in the source, from 0 to "
                            f"{len(value.elements) - 1}")
        return value.elements[k]

    # ------------------------------------------------- array expressions
    def is_view_subscript(self, node: ast.Subscript) -> bool:
        """x[a:b], x[i, :] and A[i] of a 2-D A are views, not elements."""
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(part, ast.Slice) or self.context.is_new_axis(part) for part in parts):
            return True
        parts = [p for p in parts if not self.context.is_new_axis(p)]
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        return base is not None and isinstance(base.type, kt.ArrayType) and \
            len(parts) < base.type.ndim

    def is_array_target(self, target) -> bool:
        """`x += ...` on an array variable, `x[1:] += ...`: in place."""
        if isinstance(target, ast.Subscript):
            return self.is_view_subscript(target)
        known = self.symbols.get(target.id) if isinstance(target, ast.Name) else None
        return known is not None and isinstance(known.type, kt.ArrayType)

    @staticmethod
    def element_operand(value: TypedValue):
        """(type, weak kind) of an operand: an array's is its dtype's."""
        if isinstance(value.type, kt.ArrayType):
            return value.type.dtype, None
        return value.type, value.weak

    def array_result(self, dtype, operands, node) -> TypedValue:
        arrays = [v for v in operands if isinstance(v.type, kt.ArrayType)]
        if len(arrays) > 1:
            self.raises = True      # shapes that do not broadcast: ValueError
        ndim = max(a.type.ndim for a in arrays)
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def array_binary(self, symbol, left, right, node) -> TypedValue:
        """`a + b` with an array operand: numpy's elementwise operator, with
        broadcasting; Python numbers adapt to the array's dtype (NEP 50)."""
        if symbol not in rules.ARRAY_BINOPS:
            self.fail(node, f"operator `{symbol}` on arrays is not supported yet")
        common, _ = rules.operand_types(*self.element_operand(left),
                                        *self.element_operand(right))
        dtype, message = rules.array_arithmetic_type(symbol, common)
        if message:
            self.fail(node, message)
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                self.convert(value, common, node)
        if symbol == "**" and dtype.is_int:
            if right.constant is not None and right.constant < 0:
                self.fail(node, "`**` of an int array with a negative exponent: numpy raises "
                                "(Integers to negative integer powers are not allowed); use "
                                "a float array")
            self.raises = True      # a negative exponent at run time
        return self.array_result(dtype, [left, right], node)

    def array_compare(self, left, right, node, ops=None) -> TypedValue:
        """`x < 0`, `a == b` with an array operand: a bool array."""
        self.absorb(left, right)
        for value in (left, right):
            if not isinstance(value.type, (kt.ScalarType, kt.ArrayType)):
                self.fail(node, "comparing an array needs numbers or arrays")
        common = rules.comparison_type(
            (*self.element_operand(left), known_literals(left)),
            (*self.element_operand(right), known_literals(right)))
        if common is not None and common.is_complex and not all(
                isinstance(op, (ast.Eq, ast.NotEq)) for op in ops or getattr(node, "ops", ())):
            self.fail(node, "complex arrays compare only with == and != here (numpy orders "
                            "complex numbers lexicographically; Kiln does not yet)")
        for value in (left, right):
            if not isinstance(value.type, kt.ArrayType):
                self.convert(value, common, node)
        return self.array_result(kt.boolean, [left, right], node)

    def array_unary(self, op, operand, node) -> TypedValue:
        dtype = operand.type.dtype
        if isinstance(op, ast.Not):
            self.fail(node, "the truth value of an array is ambiguous; use np.logical_not(x) "
                            "or compare elements")
        if isinstance(op, ast.Invert) and (dtype.is_float or dtype.is_complex):
            self.fail(node, "operator `~` needs an int or bool array")
        if isinstance(op, (ast.USub, ast.UAdd)) and dtype.is_bool:
            self.fail(node, "numpy does not negate bool arrays; use `~x`")
        return TypedValue(operand.type, fresh=True)

    def array_ufunc(self, name, args, node) -> TypedValue:
        """np.f applied to arrays: elementwise, broadcasting."""
        label = f"np.{name}"
        if name not in rules.ARRAY_UFUNCS:
            self.fail(node, f"{label} of arrays is not supported yet")
        self.arity(args, rules.ufunc_arity(name), node, label)
        for arg in args:
            self.absorb(arg)
            if not isinstance(arg.type, (kt.ScalarType, kt.ArrayType)):
                self.fail(node, f"{label} needs numbers or arrays")
        common = self.ufunc_common_type(name, args)
        if rules.is_operator_power(name, common):
            return self.array_binary("**", args[0], args[1], node)
        dtype, message = rules.array_ufunc_type(name, common,
                                                [self.element_operand(a) for a in args])
        if message:
            self.fail(node, message)
        for arg, target in zip(args, rules.ufunc_operand_types(name, dtype, len(args))):
            if not isinstance(arg.type, kt.ArrayType):
                if target.is_bool:
                    self.truthy(arg, node)
                else:
                    self.convert(arg, target, node)
        return self.array_result(dtype, args, node)

    def ufunc_common_type(self, name, args):
        """numpy's promotion of a ufunc's operands (NEP 50 for literals)."""
        common, weak = None, None
        for position in rules.ufunc_common_operands(name, len(args)):
            element, element_weak = self.element_operand(args[position])
            if common is None:
                common, weak = element, element_weak
            else:
                common, weak = rules.operand_types(common, weak, element, element_weak)
        return rules.default_for_kind(weak) if weak else common

    def method_call(self, func: ast.Attribute, node, base=None) -> TypedValue:
        """`x.sum()`, `(a * b).max()`: an array's reduction methods (`base`:
        the object, when the caller typed it already)."""
        self.array_consumers.add(func.value)
        if base is None:
            base = self.expression(func.value)
        self.absorb(base)
        if func.attr == "conjugate" and is_scalar_type(base.type) and base.type.is_complex:
            if node.args or node.keywords:
                self.fail(node, "`.conjugate()` takes no argument")
            return TypedValue(base.type, weak=base.weak)
        if not isinstance(base.type, kt.ArrayType) or func.attr == "conjugate":
            self.fail(node, f"`.{func.attr}()` of a {display(base.type)} is not supported")
        if func.attr in ("copy", "astype", "fill"):
            return self.array_method(func.attr, base, node)
        if func.attr in ("sort", "argsort"):
            return self.sorting_method(func, base, node)        # sorting_typing.py
        return self.reduction(func.attr, [base], node, node.args, node.keywords)

    def array_method(self, name, base, node) -> TypedValue:
        """`x.copy()`, `x.astype(np.float32)`: new arrays; `x.fill(v)`."""
        if node.keywords or len(node.args) != (0 if name == "copy" else 1):
            self.fail(node, f"`.{name}()` takes {'no argument' if name == 'copy' else 'one argument'}"
                            " here")
        if name == "copy":
            return TypedValue(base.type, fresh=True)
        if name == "fill":
            self.array_store(base, self.expression(node.args[0]), node)
            return TypedValue(None)
        dtype = self.dtype_of(node.args[0])
        if base.type.dtype.is_complex or dtype.is_complex:
            self.fail(node, "`.astype()` to or from complex is not supported yet")
        if base.type.dtype.is_float and not dtype.is_float:
            self.fail(node, "`.astype()` from float to int or bool is not supported yet (numpy "
                            "truncates, and NaN gives an arbitrary int)")
        return TypedValue(rules.array_type(dtype, base.type.ndim), fresh=True)

    def reduction(self, name, args, node, options=(), keywords=()) -> TypedValue:
        """np.sum(a), a.max(axis=1, keepdims=True), ...: over every element
        a numpy scalar; along one axis a new array (an array expression)."""
        label = f"np.{name}"
        self.arity(args, 1, node, label)
        array = args[0]
        self.absorb(array)
        if not isinstance(array.type, kt.ArrayType):
            what = "a list" if isinstance(array.type, kt.ListType) else "a number"
            self.fail(node, f"{label} of {what} is not supported; it needs an array")
        keywords = {k.arg: k.value for k in keywords}
        if array.type.dtype.is_complex and name != "sum":
            self.fail(node, f"{label} of a complex array is not supported yet (np.sum is)")
        if is_scan(name):
            axis, _ = rules.reduction_options(array.type.ndim, options, keywords, "scan")
            if isinstance(axis, str):
                self.fail(node, f"{label}: {axis}")
            if axis is None and array.type.ndim > 1:
                self.fail(node, f"{label} of a {array.type.ndim}-D array without axis= (a "
                                "flattened result) is not supported yet")
            dtype = rules.reduction_type(name[3:], array.type.dtype)
            return TypedValue(rules.array_type(dtype, array.type.ndim), fresh=True)
        axis, keepdims = rules.reduction_options(array.type.ndim, options, keywords, name)
        if isinstance(axis, str):
            self.fail(node, f"{label}: {axis}")
        if isinstance(rules.reduction_ddof(keywords), str):
            self.fail(node, f"{label}: {rules.reduction_ddof(keywords)}")
        if name in ("max", "min", "amax", "amin"):
            self.raises = True      # an empty array (or axis) has no maximum
        dtype = rules.reduction_type(name, array.type.dtype)
        if axis is None and not keepdims:
            return TypedValue(dtype, numpy_bool=dtype.is_bool)       # np.any(m): np.bool_
        ndim = array.type.ndim if keepdims else array.type.ndim - 1
        if ndim == 0:
            return TypedValue(dtype)        # a 1-D array along its axis: a scalar
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def dot(self, args, node) -> TypedValue:
        """np.dot and `@` of 1-D and 2-D arrays: sums of products in their
        common dtype (a number for two 1-D arrays)."""
        self.arity(args, 2, node, "np.dot")
        self.absorb(*args)
        if isinstance(node, ast.BinOp) and all(isinstance(a.type, kt.ArrayType) for a in args) \
                and max(a.type.ndim for a in args) >= 3:
            return self.stacked_matmul(args, [node.left, node.right], node)   # linalg_typing
        if not all(isinstance(a.type, kt.ArrayType) and a.type.ndim <= 2 for a in args):
            self.fail(node, "np.dot and `@` of arrays of more than 2 dimensions (or of numbers) "
                            "are not supported yet")
        self.raises = True      # shapes not aligned
        dtype = rules.promote(args[0].type.dtype, args[1].type.dtype)
        ndim = args[0].type.ndim + args[1].type.ndim - 2
        if ndim == 0:
            return TypedValue(dtype)
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def new_array(self, value: TypedValue, node, name=None) -> TypedValue:
        """An array expression stored in a variable or returned: a new
        array, allocated like np.empty (freed by kilnc where it dies)."""
        self.raises = True      # MemoryError
        self.allocation_count += 1
        identity = f"alloc:{self.allocation_count}"
        return TypedValue(value.type, origins=frozenset([identity]))

    def array_store(self, target: TypedValue, value: TypedValue, node) -> None:
        """`x[a:b] = value`, `A[i] = row`: numpy's assignment to a view
        (the value broadcast to the view's shape, read whole first)."""
        self.absorb(target, value)
        dtype = target.type.dtype
        if isinstance(value.type, kt.ArrayType):
            if value.type.ndim > target.type.ndim:
                self.fail(node, f"cannot store a {value.type.ndim}-D array into a "
                                f"{target.type.ndim}-D view")
            if value.type.dtype.is_float and dtype.is_int:
                self.fail(node, "storing a float array into an int array is not supported "
                                "yet (numpy truncates, and NaN gives an arbitrary int)")
            self.raises = True      # shapes that do not broadcast
            self.written |= set(target.origins)
            return
        self.expect_scalar(value, node, "an assignment to a view")
        self.store_element(target, value, node)     # a number, as into one element

    def augmented_array_store(self, stmt) -> None:
        """`x += y` for an array `x` (or a view `x[a:b] += y`): in place,
        with numpy's same_kind rule for the result's cast."""
        target = self.expression(stmt.target)
        operand = self.expression(stmt.value)
        self.absorb(target, operand)
        result = self.binary(stmt.op, target, operand, stmt)
        self.values[stmt] = result
        self.array_consumers.add(stmt)
        source, destination = result.type.dtype, target.type.dtype
        if not rules.same_kind_cast(source, destination):
            symbol = SUPPORTED_BINOPS.get(type(stmt.op))
            self.fail(stmt, f"cannot cast the result of `{symbol}=` from "
                            f"{source.numpy_name} to {destination.numpy_name} (numpy's "
                            "same_kind rule for in-place operators)")
        if result.type.ndim > target.type.ndim:
            self.fail(stmt, f"cannot store a {result.type.ndim}-D result into a "
                            f"{target.type.ndim}-D array")
        self.raises = True      # the result's shape is checked against the target's
        self.written |= set(target.origins)

    def check_array_expression_uses(self) -> None:
        for node, value in self.values.items():
            if value.fresh and node not in self.array_consumers:
                self.report(node, "an array expression can only be stored (`x = ...`, "
                                  "`x[...] = ...`), returned, or combined with other array "
                                  "operations; assign it to a variable first")

    def index_value(self, part, message) -> bool:
        """Types one index or slice bound (an int); False when it is not one."""
        index = self.expression(part)
        if is_unknown(index.type):
            return False
        if not is_scalar_type(index.type) or not index.type.is_int:
            self.report(part, message(index))
            return False
        return self.guarded(self.convert, index, kt.i64, part) is not None

    def slice_view(self, node, parts) -> TypedValue:
        """x[a:b:c], x[i, :]: a strided view of the same dtype."""
        self.array_consumers.add(node.value)
        array = self.expression(node.value)
        if array.fresh:         # `(a - b)[:, 1:]`: computed into a new array first
            array = self.new_array(array, node)
        if not is_unknown(array.type) and not isinstance(array.type, kt.ArrayType):
            self.fail(node, f"`{ast.unparse(node.value)}` is not an array")
        new_axes = sum(self.context.is_new_axis(p) for p in parts)
        parts = [p for p in parts if not self.context.is_new_axis(p)]
        if isinstance(array.type, kt.ArrayType) and len(parts) > array.type.ndim:
            self.fail(node, f"too many indices for a {array.type.ndim}-D array")
        usable = not is_unknown(array.type)
        # Every index and bound runs before numpy checks any.
        for part in parts:
            if not isinstance(part, ast.Slice):
                usable &= self.index_value(part, lambda _: "array index must be an int")
                continue
            for bound in (part.lower, part.upper, part.step):
                if bound is not None:
                    usable &= self.index_value(bound, lambda _: "slice bounds must be ints")
        if not usable:
            raise _Abandon()
        for part in parts:
            if not isinstance(part, ast.Slice):
                if self.boundscheck:
                    self.raises = True      # IndexError
                continue
            step_value = 1 if part.step is None else self.convert(
                self.values[part.step], kt.i64, part).constant
            if step_value == 0:
                self.fail(part, "slice step cannot be zero")
            if step_value is None:
                self.raises = True      # a zero step raises at run time
        kept = sum(isinstance(p, ast.Slice) for p in parts) + array.type.ndim - len(parts)
        if kept == 0 and not new_axes:
            self.fail(node, "indexing every axis gives an element, not a view")
        kept += new_axes
        if kept > rules.MAX_ARRAY_NDIM:
            self.fail(node, f"arrays have 1 to {rules.MAX_ARRAY_NDIM} dimensions")
        return TypedValue(rules.array_type(array.type.dtype, kept), origins=array.origins)

    def subscript_parts(self, node: ast.Subscript) -> TypedValue:
        """The array of `x[i, j]` (an element access or store), its indices typed."""
        array = self.expression(node.value)
        if not is_unknown(array.type) and not isinstance(array.type, kt.ArrayType):
            self.fail(node, f"`{ast.unparse(node.value)}` is a {display(array.type)}, not an "
                            "array")
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(part, ast.Slice) for part in parts):
            self.fail(node, "assigning to a slice is not supported yet; write a loop")
        if isinstance(array.type, kt.ArrayType) and len(parts) > array.type.ndim:
            self.fail(node, f"too many indices for a {array.type.ndim}-D array: "
                            f"`{ast.unparse(node)}` has {len(parts)}")
        if isinstance(array.type, kt.ArrayType) and len(parts) != array.type.ndim:
            self.fail(node, f"`{ast.unparse(node)}` indexes a {array.type.ndim}-D array with "
                            f"{len(parts)} indices; partial indexing is not supported yet")
        usable = not is_unknown(array.type)
        for part in parts:
            usable &= self.index_value(part, lambda index, part=part: (
                f"array index `{ast.unparse(part)}` must be an int, not "
                f"{display(index.type)}"))
        if not usable:
            raise _Abandon()
        if self.boundscheck:
            self.raises = True      # IndexError
        return array

    def store_element(self, array: TypedValue, value: TypedValue, node) -> None:
        self.absorb(value)
        dtype = array.type.dtype
        if isinstance(value.type, kt.ArrayType):
            self.fail(node, "cannot store an array into an array element")
        # numpy stores a float into an int array as int(value): NaN and
        # infinity raise.
        if is_scalar_type(value.type) and value.type.is_float and dtype.is_int:
            self.raises = True
        else:
            self.convert(value, dtype, node, explicit=True)
        self.written |= set(array.origins)
