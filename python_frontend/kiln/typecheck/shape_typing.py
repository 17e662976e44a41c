"""Typing of numpy's shape and creation functions, as a mixin of
FunctionTyping: `x.reshape(...)`, `np.ravel`, `x.flatten()`, `np.roll`,
`np.tile`, `np.repeat`, `np.flip`, `np.diff`, `np.concatenate`/`hstack`/
`vstack`/`stack`, `np.outer`, `np.tril`/`triu`, `np.transpose`,
`np.arange`, `np.linspace`, `np.full`/`full_like`, `np.eye`/`identity`,
`np.array` of numbers, `np.argmin`/`argmax`.

Most make a new array and type as an array expression (`fresh`): code
generation computes them into their destination (array_shapes.py). A
reshape, a ravel, a flip and a transpose are views of their array, as in
numpy; a reshape that cannot be a view (numpy copies) is a new array of the
function (so, like np.empty, only at the top level of the body).
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .. import typing_rules as rules
from .. import library_functions as lib
from .typed_values import TypedValue, _Abandon
from .typed_tree import is_scalar_type
from ..typing_rules import bound_arguments, constant_int, display, is_unknown, normalized_axis

class ShapeFunctionTyping:
    """Needs FunctionTyping's expression, fail, report, absorb, guarded,
    convert, new_array and dtype_of."""

    # --------------------------------------------------------- arguments
    def bind_shape_arguments(self, name, node, leading):
        bound, problem = bound_arguments(name, node, leading)
        if problem is not None:
            self.fail(problem[0], problem[1])
        return bound

    def constant_axis(self, axis_node, ndim, label):
        """A constant axis (negative counts from the end), or None."""
        if axis_node is None or (isinstance(axis_node, ast.Constant)
                                 and axis_node.value is None):
            return None
        axis = constant_int(axis_node)
        if axis is None:
            self.fail(axis_node, f"{label}: axis must be an int written in the source")
        normalized = normalized_axis(axis, ndim)
        if normalized is None:
            self.fail(axis_node, f"{label}: axis {axis} is out of bounds for an array of "
                                 f"dimension {ndim}")
        return normalized

    def int_argument(self, node, label, what):
        value = self.expression(node)
        self.absorb(value)
        if is_unknown(value.type):
            return value
        if not isinstance(value.type, kt.ScalarType) or value.type.is_float:
            self.fail(node, f"{label}: {what} must be an int")
        self.guarded(self.convert, value, kt.i64, node)
        return value

    def shape_parts(self, node, label) -> list:
        """The sizes of a shape argument: an int, a tuple or list of ints,
        or an array's `.shape`. Returns their AST nodes (or TypedValues of
        a `.shape` tuple)."""
        shape = self.shape_value(node)
        if shape is not None:
            for element in shape.elements:
                if not is_scalar_type(element.type) or element.type.is_float:
                    self.fail(node, f"{label}: each size must be an int")
                self.guarded(self.convert, element, kt.i64, node)
            return list(shape.elements)
        parts = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
        for part in parts:
            self.int_argument(part, label, "each size")
        return list(parts)

    def array_argument(self, node, label, allow_fresh=True, complex_ok=False):
        value = self.expression(node)
        self.absorb(value)
        if is_unknown(value.type):
            raise _Abandon()
        if not isinstance(value.type, kt.ArrayType):
            self.fail(node, f"{label} needs an array, not a {display(value.type)}")
        if value.type.dtype.is_complex and not complex_ok:
            self.fail(node, f"{label} of a complex array is not supported yet")
        if value.fresh and not allow_fresh:
            value = self.new_array(value, node)
        return value

    def checked_ndim(self, ndim, node):
        if not 1 <= ndim <= rules.MAX_ARRAY_NDIM:
            self.fail(node, f"arrays have 1 to {rules.MAX_ARRAY_NDIM} dimensions; this one "
                            f"would have {ndim}")
        return ndim

    def view_needing_storage(self, base, node, label):
        """A view that may have to be a copy (reshape): a new array of the
        function when it is one."""
        self.raises = True
        self.allocation_count += 1
        return base.origins | frozenset([f"alloc:{self.allocation_count}"])

    # ---------------------------------------------------------- dispatch
    def shape_function(self, name, node, base_node=None):
        """`np.name(...)` (base_node None) or `base.name(...)`."""
        label = f"np.{name}" if base_node is None else f"`.{name}()`"
        if name in ("concatenate", "hstack", "vstack", "stack"):
            return self.joined(name, node, label)
        if name == "outer":
            return self.outer(node, label)
        if name in ("arange", "linspace", "full", "full_like", "eye", "identity", "array"):
            self.array_consumers.update(node.args)
            return getattr(self, "creation_" + name)(node, label)
        if base_node is None:
            if not node.args:
                self.fail(node, f"{label} needs an array")
            base_node, leading = node.args[0], 1
        else:
            leading = 0
        self.array_consumers.add(base_node)
        if name in ("reshape", "ravel", "flip", "fliplr", "flipud", "transpose"):
            # views or copies of the elements: of complex arrays too
            base = self.array_argument(base_node, label, allow_fresh=False, complex_ok=True)
        else:
            base = self.array_argument(base_node, label)
        ndim = base.type.ndim
        if name == "reshape" and leading == 0 and len(node.args) > 1:
            parts = list(node.args)             # x.reshape(n, m)
            for part in parts:
                self.int_argument(part, label, "each size")
            if node.keywords:
                self.fail(node, f"{label}: keyword arguments are not supported here")
            return self.reshaped(base, len(parts), node, label)
        bound = self.bind_shape_arguments(name, node, leading)
        if name == "reshape":
            if bound["shape"] is None:
                self.fail(node, f"{label} needs a shape")
            parts = self.shape_parts(bound["shape"], label)
            return self.reshaped(base, len(parts), node, label)
        if name == "ravel":
            return self.reshaped(base, 1, node, label)
        if name == "flatten":
            return TypedValue(rules.array_type(base.type.dtype, 1), fresh=True)
        if name in ("flip", "fliplr", "flipud"):
            if name == "fliplr" and ndim < 2:
                self.fail(node, "np.fliplr needs an array of at least 2 dimensions")
            if name == "flip":
                self.constant_axis(bound["axis"], ndim, label)
            return TypedValue(base.type, origins=base.origins)
        if name == "transpose":
            return TypedValue(base.type, origins=base.origins)
        if name == "roll":
            if bound["shift"] is None:
                self.fail(node, f"{label} needs a shift")
            self.int_argument(bound["shift"], label, "the shift")
            self.constant_axis(bound["axis"], ndim, label)
            return TypedValue(base.type, fresh=True)
        if name == "tile":
            reps = bound["reps"]
            if reps is None:
                self.fail(node, f"{label} needs reps")
            parts = reps.elts if isinstance(reps, (ast.Tuple, ast.List)) else [reps]
            for part in parts:
                self.int_argument(part, label, "each repetition count")
            self.raises = True          # negative counts
            return TypedValue(rules.array_type(base.type.dtype, self.checked_ndim(
                max(ndim, len(parts)), node)), fresh=True)
        if name == "repeat":
            if bound["repeats"] is None:
                self.fail(node, f"{label} needs a repetition count")
            self.int_argument(bound["repeats"], label, "the repetition count (one int)")
            axis = self.constant_axis(bound["axis"], ndim, label)
            self.raises = True          # a negative count
            return TypedValue(rules.array_type(base.type.dtype, 1 if axis is None else ndim),
                              fresh=True)
        if name == "diff":
            order = 1 if bound["n"] is None else constant_int(bound["n"])
            if order is None or order < 0:
                self.fail(bound["n"], f"{label}: n must be a non-negative int written in the "
                                      "source")
            axis = -1 if bound["axis"] is None else constant_int(bound["axis"])
            self.constant_axis(bound["axis"] or ast.Constant(-1), ndim, label)
            if axis is None:
                self.fail(bound["axis"], f"{label}: axis must be an int written in the source")
            if order == 0:
                return base         # numpy returns the array itself (the same memory)
            return TypedValue(base.type, fresh=True)
        if name in ("tril", "triu"):
            if ndim != 2:
                self.fail(node, f"{label} of a {ndim}-D array is not supported yet")
            if bound["k"] is not None:
                self.int_argument(bound["k"], label, "k")
            return TypedValue(base.type, fresh=True)
        if name in ("nonzero", "flatnonzero"):
            positions = rules.array_type(kt.i64, 1)
            if name == "flatnonzero":
                return TypedValue(positions, fresh=True)
            return self.tuple_value([TypedValue(positions, fresh=True) for _ in range(ndim)])
        if name in ("argmin", "argmax"):
            axis = self.constant_axis(bound["axis"], ndim, label)
            self.raises = True          # an empty array has none
            if axis is None or ndim == 1:
                return TypedValue(kt.i64)
            return TypedValue(rules.array_type(kt.i64, ndim - 1), fresh=True)
        self.fail(node, f"call to `{label}` is not supported yet")

    def reshaped(self, base, ndim, node, label):
        self.checked_ndim(ndim, node)
        self.raises = True              # sizes that do not fit
        return TypedValue(rules.array_type(base.type.dtype, ndim),
                          origins=self.view_needing_storage(base, node, label))

    # --------------------------------------------------- joining arrays
    def joined_operand(self, node, label):
        """One array of np.concatenate's sequence: an array, or a list of
        numbers (an array of numpy's default dtype for them)."""
        if isinstance(node, (ast.List, ast.Tuple)):
            dtype = self.numbers_dtype(node.elts, label)
            return TypedValue(rules.array_type(dtype, 1), fresh=True)
        self.array_consumers.add(node)
        return self.array_argument(node, label)

    def joined(self, name, node, label):
        keywords = {k.arg: k.value for k in node.keywords}
        if set(keywords) - ({"axis"} if name in ("concatenate", "stack") else set()):
            self.fail(node, f"{label}() argument `{sorted(keywords)[0]}` is not supported")
        if len(node.args) != 1 or not isinstance(node.args[0], (ast.Tuple, ast.List)) or \
                not node.args[0].elts:
            self.fail(node, f"{label} takes a tuple or list of arrays written in the call")
        operands = [self.joined_operand(e, label) for e in node.args[0].elts]
        ndims = {o.type.ndim for o in operands}
        if name == "vstack":            # numpy's atleast_2d first: (n,) is (1, n)
            ndims = {max(ndim, 2) for ndim in ndims}
        if len(ndims) != 1:
            self.fail(node, f"{label}: all the input arrays must have the same number of "
                            f"dimensions (they have {sorted(ndims)})")
        ndim = ndims.pop()
        dtype = operands[0].type.dtype
        for operand in operands[1:]:
            dtype = rules.promote(dtype, operand.type.dtype)
        result_ndim = ndim + 1 if name == "stack" else ndim
        self.constant_axis(keywords.get("axis"), result_ndim if name == "stack" else ndim,
                           label)
        self.raises = True              # shapes that do not fit
        return TypedValue(rules.array_type(dtype, self.checked_ndim(result_ndim, node)),
                          fresh=True)

    def outer(self, node, label):
        if len(node.args) != 2 or node.keywords:
            self.fail(node, f"{label} takes two arrays")
        self.array_consumers.update(node.args)
        a, b = (self.array_argument(arg, label) for arg in node.args)
        if a.type.ndim != 1 or b.type.ndim != 1:
            self.fail(node, f"{label} of arrays other than two 1-D arrays is not supported yet")
        return TypedValue(rules.array_type(rules.promote(a.type.dtype, b.type.dtype), 2),
                          fresh=True)

    # ----------------------------------------------------------- creation
    def numbers_dtype(self, nodes, label):
        """numpy's dtype for an array of these numbers (np.array([...])):
        Python ints are int64, floats float64 (never NEP 50's weak kinds)."""
        dtype = None
        for element in nodes:
            value = self.expression(element)
            self.absorb(value)
            if is_unknown(value.type):
                raise _Abandon()
            if not isinstance(value.type, kt.ScalarType):
                self.fail(element, f"{label} of {display(value.type)} elements is not "
                                   "supported yet; it takes numbers")
            dtype = rules.numbers_array_dtype([value] if dtype is None else [
                value, TypedValue(dtype)])
        if dtype is None:
            self.fail(nodes[0] if nodes else None, f"{label} of an empty list is not supported")
        return dtype

    def tuple_as_array(self, value, node) -> TypedValue:
        """A tuple of numbers stored into a view: numpy makes it an array
        (Python ints int64, floats float64)."""
        if not all(isinstance(e.type, kt.ScalarType) for e in value.elements):
            self.fail(node, "only a tuple of numbers can be stored into an array")
        return TypedValue(rules.array_type(rules.numbers_array_dtype(value.elements), 1),
                          fresh=True)

    def creation_dtype(self, node, keywords, default):
        if "dtype" in keywords and not (isinstance(keywords["dtype"], ast.Constant)
                                        and keywords["dtype"].value is None):
            return self.guarded(self.dtype_of, keywords["dtype"]) or default
        return default

    def creation_keywords(self, node, label, allowed):
        keywords = {k.arg: k.value for k in node.keywords}
        unknown = set(keywords) - set(allowed)
        if unknown:
            self.fail(node, f"{label}() argument `{sorted(unknown)[0]}` is not supported")
        return keywords

    def creation_array(self, node, label):
        keywords = self.creation_keywords(node, label, {"dtype"})
        if len(node.args) != 1 or not isinstance(node.args[0], (ast.List, ast.Tuple)) or \
                not node.args[0].elts:
            self.fail(node, f"{label} takes a list of numbers (or of lists of numbers) "
                            "written in the call")
        rows = node.args[0].elts
        if all(isinstance(r, (ast.List, ast.Tuple)) for r in rows):
            if len({len(r.elts) for r in rows}) != 1 or not rows[0].elts:
                self.fail(node, f"{label}: the rows must have one length")
            dtype = self.numbers_dtype([e for r in rows for e in r.elts], label)
            ndim = 2
        elif any(isinstance(r, (ast.List, ast.Tuple)) for r in rows):
            self.fail(node, f"{label}: mixing numbers and lists is not supported")
        else:
            dtype = self.numbers_dtype(rows, label)
            ndim = 1
        dtype = self.creation_dtype(node, keywords, dtype)
        if "dtype" in keywords and dtype.is_int:
            for element in (e for r in rows for e in getattr(r, "elts", [r])):
                typed = self.values.get(element)
                if typed is not None and isinstance(typed.type, kt.ScalarType) and \
                        typed.type.is_float:
                    self.fail(element, f"{label}: float elements in an int array are not "
                                       "supported yet")
        self.raises = True                  # ints out of the dtype's range
        return TypedValue(rules.array_type(dtype, ndim), fresh=True)

    def creation_arange(self, node, label):
        keywords = self.creation_keywords(node, label, {"dtype"})
        if not 1 <= len(node.args) <= 3:
            self.fail(node, f"{label} takes 1 to 3 numbers (start, stop, step)")
        dtype = kt.i64
        for arg in node.args:
            value = self.expression(arg)
            self.absorb(value)
            if is_unknown(value.type):
                raise _Abandon()
            if not isinstance(value.type, kt.ScalarType) or value.type.is_bool:
                self.fail(arg, f"{label} takes numbers")
            if value.type.is_float:
                dtype = kt.f64
            self.guarded(self.convert, value, dtype if value.type.is_float else kt.i64, arg)
        dtype = self.creation_dtype(node, keywords, dtype)
        self.raises = True                  # a zero step, too many elements
        return TypedValue(rules.array_type(dtype, 1), fresh=True)

    def creation_linspace(self, node, label):
        keywords = self.creation_keywords(node, label, {"num", "endpoint", "dtype"})
        if not 2 <= len(node.args) <= 3:
            self.fail(node, f"{label} takes start, stop and num")
        for arg in node.args[:2]:
            value = self.expression(arg)
            self.absorb(value)
            if not is_unknown(value.type):
                if not isinstance(value.type, kt.ScalarType):
                    self.fail(arg, f"{label}: start and stop must be numbers")
                self.guarded(self.convert, value, kt.f64, arg)
        num = node.args[2] if len(node.args) == 3 else keywords.get("num")
        if num is not None:
            self.int_argument(num, label, "num")
        endpoint = keywords.get("endpoint")
        if endpoint is not None and not (isinstance(endpoint, ast.Constant)
                                         and isinstance(endpoint.value, bool)):
            self.fail(endpoint, f"{label}: endpoint must be True or False written in the "
                                "source")
        dtype = self.creation_dtype(node, keywords, kt.f64)
        if not (dtype.is_float or dtype.is_int and not dtype.is_bool):
            self.fail(node, f"{label} with a {dtype.numpy_name} dtype is not supported yet")
        self.raises = True                  # a negative num
        return TypedValue(rules.array_type(dtype, 1), fresh=True)

    def creation_full(self, node, label):
        keywords = self.creation_keywords(node, label, {"dtype", "fill_value", "shape"})
        shape = node.args[0] if node.args else keywords.get("shape")
        fill = node.args[1] if len(node.args) > 1 else keywords.get("fill_value")
        if shape is None or fill is None or len(node.args) > 3:
            self.fail(node, f"{label} takes a shape and a fill value")
        parts = self.shape_parts(shape, label)
        value = self.fill_value(fill, label)
        dtype_node = node.args[2] if len(node.args) == 3 else keywords.get("dtype")
        default = rules.default_for_kind(value.weak) if value.weak else value.type
        dtype = self.creation_dtype(node, {"dtype": dtype_node} if dtype_node else {}, default)
        self.fill_fits(value, dtype, fill, label)
        self.raises = True                  # negative sizes
        return TypedValue(rules.array_type(dtype, self.checked_ndim(len(parts), node)),
                          fresh=True)

    def creation_full_like(self, node, label):
        keywords = self.creation_keywords(node, label, {"dtype", "fill_value"})
        if not node.args or len(node.args) > 3:
            self.fail(node, f"{label} takes an array and a fill value")
        prototype = self.array_argument(node.args[0], label)
        fill = node.args[1] if len(node.args) > 1 else keywords.get("fill_value")
        if fill is None:
            self.fail(node, f"{label} needs a fill value")
        value = self.fill_value(fill, label)
        dtype_node = node.args[2] if len(node.args) == 3 else keywords.get("dtype")
        dtype = self.creation_dtype(node, {"dtype": dtype_node} if dtype_node else {},
                                    prototype.type.dtype)
        self.fill_fits(value, dtype, fill, label)
        return TypedValue(rules.array_type(dtype, prototype.type.ndim), fresh=True)

    def fill_value(self, node, label):
        value = self.expression(node)
        self.absorb(value)
        if is_unknown(value.type):
            raise _Abandon()
        if not isinstance(value.type, kt.ScalarType):
            self.fail(node, f"{label}: the fill value must be a number")
        return value

    def fill_fits(self, value, dtype, node, label):
        if value.type.is_float and not dtype.is_float:
            self.fail(node, f"{label}: a float fill value in an int or bool array is not "
                            "supported yet")
        self.guarded(self.convert, value, dtype, node, True)

    def creation_eye(self, node, label):
        keywords = self.creation_keywords(node, label, {"M", "k", "dtype"})
        if not 1 <= len(node.args) <= 3:
            self.fail(node, f"{label} takes N, M and k")
        for arg in list(node.args) + [keywords[k] for k in ("M", "k") if k in keywords]:
            if not (isinstance(arg, ast.Constant) and arg.value is None):
                self.int_argument(arg, label, "N, M and k")
        self.raises = True                  # negative sizes
        return TypedValue(rules.array_type(self.creation_dtype(node, keywords, kt.f64), 2),
                          fresh=True)

    def creation_identity(self, node, label):
        keywords = self.creation_keywords(node, label, {"dtype"})
        if len(node.args) != 1:
            self.fail(node, f"{label} takes n")
        self.int_argument(node.args[0], label, "n")
        self.raises = True
        return TypedValue(rules.array_type(self.creation_dtype(node, keywords, kt.f64), 2),
                          fresh=True)


    # ------------------------------------------------- indexing with arrays
    def is_array_index(self, node) -> bool:
        """Whether a subscript's index is an array (`x[x > 0]`, `x[mask]`,
        `v[idx[:-1]]`): decided from the index's form and the variables'
        types, before it is typed."""
        if isinstance(node, ast.Tuple) or isinstance(node, ast.Slice) or \
                self.context.is_new_axis(node):
            return False
        return self.array_valued(node)

    def array_valued(self, node) -> bool:
        if isinstance(node, ast.Name):
            known = self.symbols.get(node.id)
            return known is not None and isinstance(known.type, kt.ArrayType)
        if isinstance(node, ast.Compare):
            return any(self.array_valued(n) for n in [node.left, *node.comparators])
        if isinstance(node, ast.UnaryOp):
            return self.array_valued(node.operand)
        if isinstance(node, ast.BinOp):
            return self.array_valued(node.left) or self.array_valued(node.right)
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
                return False
            return self.array_valued(node.value) and (
                self.is_view_subscript(node) or self.is_array_index(node.slice))
        if isinstance(node, ast.Attribute):
            return node.attr == "T" and self.array_valued(node.value)
        if isinstance(node, ast.Call):
            qualified = self.context.qualified_name(node.func)
            if qualified is not None and qualified[0] == "numpy":
                return lib.makes_array(qualified[1]) or any(
                    self.array_valued(a) for a in node.args)
            return isinstance(node.func, ast.Attribute) and qualified is None and \
                node.func.attr in ("copy", "astype") and self.array_valued(node.func.value)
        return False

    def indexed_by_array(self, node) -> TypedValue:
        """`x[mask]` (the elements where a bool array of x's shape is
        true, in order) and `x[idx]` (an int array of positions along the
        first axis): new arrays, as in numpy."""
        self.array_consumers.update((node.value, node.slice))
        base = self.array_argument(node.value, "indexing", complex_ok=True)
        index = self.array_argument(node.slice, "an index")
        self.raises = True          # shapes that do not match, positions out of bounds
        return TypedValue(rules.array_type(base.type.dtype, self.indexed_ndim(base, index,
                                                                              node)), fresh=True)

    def indexed_ndim(self, base, index, node) -> int:
        if index.type.dtype.is_bool:
            if index.type.ndim != base.type.ndim:
                self.fail(node, "a boolean index with another number of dimensions than the "
                                "array is not supported yet")
            return 1
        if index.type.dtype.is_float:
            self.fail(node, "arrays used as indices must be of integer (or boolean) type")
        if base.type.ndim == 1:
            return index.type.ndim
        if index.type.ndim == 1:
            return base.type.ndim
        self.fail(node, "indexing an N-D array with an N-D int array is not supported yet")

    def store_through_array_index(self, target, value: TypedValue, node) -> None:
        """`x[mask] = v`, `x[idx] = v`: v is a number or a 1-D array with
        one element per selected position (or one element)."""
        self.array_consumers.add(target.slice)
        base = self.expression(target.value)
        self.absorb(base, value)
        if is_unknown(base.type) or is_unknown(value.type):
            raise _Abandon()
        if not isinstance(base.type, kt.ArrayType) or base.fresh:
            self.fail(target, f"`{ast.unparse(target.value)}` is not an array variable")
        index = self.array_argument(target.slice, "an index")
        if not index.type.dtype.is_bool and base.type.ndim != 1:
            self.fail(target, "assigning through an int array index into an N-D array is not "
                              "supported yet")
        self.indexed_ndim(base, index, target)
        dtype = base.type.dtype
        if isinstance(value.type, kt.ArrayType):
            if value.type.ndim != 1:
                self.fail(node, f"assigning a {value.type.ndim}-D array through an array index "
                                "is not supported yet")
            if value.type.dtype.is_float and dtype.is_int:
                self.fail(node, "storing a float array into an int array is not supported yet "
                                "(numpy truncates, and NaN gives an arbitrary int)")
            if value.type.dtype.is_complex and not dtype.is_complex:
                self.fail(node, "storing a complex array into a real array is not supported "
                                "(numpy drops the imaginary part with a ComplexWarning)")
        elif _number(value.type):
            if value.type.is_float and dtype.is_int:
                self.raises = True
            else:
                self.convert(value, dtype, node, explicit=True)
        else:
            self.fail(node, f"cannot store a {display(value.type)} into an array")
        self.raises = True
        self.written |= set(base.origins)


def _number(type_) -> bool:
    return isinstance(type_, kt.ScalarType)
