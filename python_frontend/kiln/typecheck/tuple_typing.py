"""Type inference of tuples as values: a tuple written as an expression
(`(n, m, 1)`), bound to a name (`shape = x.shape`), indexed (`t[0]`, `t[-1]`,
`t[k]`, `helper(x)[1]`), iterated over (`for v in t`, which desugar.py
rewrites as a counted loop indexing it) and passed as a shape. A tuple is
its elements: code generation (mlir/tuple_lowering.py) holds one value per
element, so a tuple costs nothing at run time. A mixin of
type_inference.FunctionTyping."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .. import typing_rules as rules
from .. import library_functions as lib
from .typed_values import TypedValue
from ..typing_rules import display, is_unknown
from .typed_tree import is_range, is_scalar_type
from ..frontend.kernels import KERNEL_NUMPY


TUPLE_VARIABLE_HINT = "unpack it instead (`n, m = x.shape`)"


class TupleTyping:
    def expr_Tuple(self, node):
        elements = [self.expression(e) for e in node.elts]
        for element, element_node in zip(elements, node.elts):
            if isinstance(element.type, kt.ListType):
                self.fail(element_node, "a tuple holding lists is not supported yet; unpack "
                                        "it where it is made (`a, b = xs, ys`)")
            self.refuse_range(element, element_node, "a tuple holding a range")
        return self.tuple_value(elements)

    def tuple_operand(self, node) -> TypedValue | None:
        """The value of `node` when it is a tuple that is indexed (a tuple
        written out, a variable holding one, a call of a module function
        returning one; or such a call returning a list), else None: `node`
        is then typed as an array."""
        if isinstance(node, ast.Tuple):
            return self.expression(node)
        if isinstance(node, ast.Name):
            known = self.symbols.get(node.id)
            if known is not None and isinstance(known.type, kt.TupleType) or \
                    isinstance(self.constant_named(node), tuple):
                return self.expression(node)
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "divmod" and "divmod" not in self.module.functions and \
                node.func.id not in self.symbols and node.func.id not in self.lambdas:
            return self.expression(node)        # `divmod(n, 7)[0]`
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in self.module.functions and node.func.id not in self.symbols \
                and node.func.id not in self.lambdas:
            value = self.expression(node)
            self.absorb(value)
            if isinstance(value.type, (kt.TupleType, kt.ListType)):
                return value        # a list: the caller indexes it as one
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and isinstance(
                    getattr(self.symbols.get(node.func.value.id), "type", None), kt.ClassType):
            value = self.expression(node)       # `v.halves()[1]`: a method's tuple
            self.absorb(value)
            if isinstance(value.type, kt.TupleType):
                return value
        qualified = self.context.qualified_name(node.func) if isinstance(node, ast.Call) \
            else None
        function = lib.numpy_function(qualified[1]) if qualified is not None and \
            qualified[0] == "numpy" else None
        if function is not None and function.family in (lib.LINALG, lib.SORTING,
                                                         lib.POSITIONS):
            # `np.histogram(a)[0]`, `np.unravel_index(k, s)[1]`: a tuple of numpy's
            value = self.expression(node)
            self.absorb(value)
            if isinstance(value.type, kt.TupleType):
                return value
        return None

    def tuple_subscript(self, node, value: TypedValue) -> TypedValue:
        """`t[k]`: the element, k written in the source (any element type);
        an int known only at run time selects among elements of one type."""
        self.absorb(value)
        count = len(value.elements)
        if isinstance(node.slice, (ast.Slice, ast.Tuple)):
            self.fail(node, "slicing a tuple is not supported yet; index it with an int")
        k = rules.constant_int(node.slice)
        if k is not None:
            if not -count <= k < count:
                self.fail(node, f"IndexError: tuple index out of range (index {k} of a tuple "
                                f"of {count} elements)")
            return value.elements[k]
        index = self.expression(node.slice)
        self.absorb(index)
        if not is_scalar_type(index.type) or not (index.type.is_int or index.type.is_bool):
            self.fail(node.slice, f"tuple indices must be integers, not {display(index.type)}")
        self.convert(index, kt.i64, node.slice)
        element = self.common_element_type(value, node, "indexed by an int known only at run "
                                                        "time; index it with an int written "
                                                        "in the source")
        self.raises = True          # IndexError
        return TypedValue(element)

    def common_element_type(self, value: TypedValue, node, what: str):
        """The one type of a tuple's elements (Python literals at their
        default type), or a refusal naming `what` was tried."""
        types = [rules.default_for_kind(e.weak) if e.weak else e.type for e in value.elements]
        if not types:
            self.fail(node, f"an empty tuple is {what}")
        if any(not is_scalar_type(t) for t in types):
            self.fail(node, f"a tuple holding arrays is {what}")
        if len(set(types)) > 1:
            self.fail(node, f"a tuple of different types ({', '.join(display(t) for t in types)})"
                            f" is {what}")
        return types[0]

    def tuple_iterable(self, value: TypedValue, node):
        """`for v in t`: the loop indexes t by its counter (desugar.py), so
        its elements must have one type, as the loop variable has."""
        return self.common_element_type(value, node, "iterated over; `for` over a tuple needs "
                                              "numbers of one type")

    def check_tuple_binding(self, value: TypedValue, node) -> None:
        """`t = (n, m)`, `s = x.shape`: a tuple of numbers may be kept in a
        variable; one holding arrays is only unpacked."""
        if any(not is_scalar_type(e.type) and not is_unknown(e.type) and
               not isinstance(e.type, kt.ClassType) for e in value.elements):
            self.fail(node, "a tuple holding arrays can only be unpacked (a, b = ...), "
                            "indexed where it is made or returned")

    def refuse_carried_tuples(self, names, symbols, node, where: str) -> None:
        """A tuple (or range) variable rebound inside an `if` or a loop would
        have to cross the branch or iteration as one value: not supported
        yet."""
        for name in names:
            known = symbols.get(name)
            if known is not None and isinstance(known.type, kt.TupleType):
                self.fail(node, f"variable `{name}` holds a tuple and is rebound {where}; "
                                f"a tuple variable is supported in straight-line code only "
                                f"yet: {TUPLE_VARIABLE_HINT}")
            if known is not None and is_range(known.type):
                self.fail(node, f"variable `{name}` holds a range and is rebound {where}; a "
                                "range variable is supported in straight-line code only yet: "
                                "bind each range to its own name, or keep the start, stop "
                                "and step in int variables")

    def shape_value(self, node) -> TypedValue | None:
        """A shape argument given as one tuple-valued expression (`x.shape`,
        a variable holding a tuple, a helper returning one), else None (a
        tuple or list written out, or one int)."""
        if isinstance(node, (ast.Tuple, ast.List)):
            return None
        if isinstance(node, ast.Attribute) and node.attr == "shape" or (
                isinstance(node, ast.Name) and isinstance(
                    getattr(self.symbols.get(node.id), "type", None), kt.TupleType)) or \
                isinstance(self.constant_named(node), tuple):
            value = self.expression(node)
            self.absorb(value)
            return value
        return None

    def tuple_operand_as_array(self, holder, slot, value: TypedValue) -> TypedValue:
        """A tuple of numbers where numpy takes an array (`np.bitwise_and(mask,
        v)`, `mask == v`): `np.array([t[0], t[1], ...])` in its place in the
        tree (`holder[slot]`, or attribute `slot` of `holder`), so every
        later stage sees the array numpy makes. A tuple written out gives
        its elements; a named one is read per element (reading a name
        twice evaluates nothing twice); any other is refused."""
        node = holder[slot] if isinstance(slot, int) else getattr(holder, slot)
        if not all(is_scalar_type(e.type) for e in value.elements) or not value.elements:
            self.fail(node, f"a {display(value.type)} is read as an array here, which needs "
                            "a tuple of one or more numbers")
        if isinstance(node, ast.Tuple):
            elements = node.elts
        elif isinstance(node, ast.Name):
            elements = [ast.copy_location(ast.Subscript(
                value=ast.copy_location(ast.Name(node.id, ast.Load()), node),
                slice=ast.copy_location(ast.Constant(k), node), ctx=ast.Load()), node)
                for k in range(len(value.elements))]
        else:
            self.fail(node, f"a {display(value.type)} computed here is read as an array; "
                            "assign the tuple to a variable first")
        array = ast.copy_location(ast.Call(
            func=ast.copy_location(ast.Attribute(
                value=ast.copy_location(ast.Name(KERNEL_NUMPY, ast.Load()), node),
                attr="array", ctx=ast.Load()), node),
            args=[ast.copy_location(ast.List(elts=elements, ctx=ast.Load()), node)],
            keywords=[]), node)
        if isinstance(slot, int):
            holder[slot] = array
        else:
            setattr(holder, slot, array)
        self.array_consumers.add(array)
        return self.expression(array)

    # ------------------------------------------------- positions as tuples
    def position_tuple_call(self, name, node) -> TypedValue:
        """`np.unravel_index(k, shape)`: the position (a tuple of ints) of
        flat index k in C order; `np.ndindex(shape)` as a for loop's
        iterable (desugar.py counts the positions with the call marked
        `kiln_ndindex_size`, an int). Both may raise numpy's ValueError."""
        self.raises = True
        if name == "ndindex":
            if not getattr(node, "kiln_ndindex_size", False):
                self.fail(node, "np.ndindex(...) is supported as the iterable of a `for` loop "
                                "(`for pos in np.ndindex(a.shape)`)")
            self.position_shape(node.args[0], node)
            return TypedValue(kt.i64)
        if node.keywords:
            self.fail(node, "np.unravel_index(...) with keyword arguments (order=) is not "
                            "supported yet")
        if len(node.args) != 2:
            self.fail(node, "np.unravel_index(indices, shape) takes two arguments")
        index = self.expression(node.args[0])
        self.absorb(index)
        if isinstance(index.type, kt.ArrayType):
            self.fail(node.args[0], "np.unravel_index of an array of indices is not supported "
                                    "yet; call it per index")
        if not (is_scalar_type(index.type) and index.type.is_int and not index.type.is_bool):
            self.fail(node.args[0], f"np.unravel_index takes an int index, not "
                                    f"{display(index.type)}")
        rank = self.position_shape(node.args[1], node)
        return self.tuple_value([TypedValue(kt.i64) for _ in range(rank)])

    def position_shape(self, shape_node, node) -> int:
        """The rank of a shape given as an int or a tuple of ints."""
        shape = self.expression(shape_node)
        self.absorb(shape)
        if is_scalar_type(shape.type) and shape.type.is_int and not shape.type.is_bool:
            return 1
        if isinstance(shape.type, kt.TupleType) and all(
                is_scalar_type(e) and e.is_int and not e.is_bool for e in shape.type.elements):
            return len(shape.type.elements)
        self.fail(shape_node, f"a shape is an int or a tuple of ints, not {display(shape.type)}")
