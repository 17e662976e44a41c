"""Typing of np.sort, np.argsort, np.searchsorted, np.unique and
np.bincount (library_functions.SORTING), which Kiln compiles from its own
kernels (frontend/kernels/sorting.py). A mixin of
type_inference.FunctionTyping.

Each call is checked as numpy checks it where that is known at compile
time (ranks, dtypes, a literal `side` or `kind`), then becomes a call of
one kernel (linalg_typing.kernel_call), which code generation lowers as a
call of the module's helpers (call_lowering.py's linalg_call)."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..typing_rules import display
from .linalg_typing import numpy_value

SORTING_KERNELS = "sorting"
# np.sort's and np.argsort's `kind`s: every one gives numpy's sorted
# values; Kiln's order of equal elements is kind='stable''s.
SORT_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")
# what each function takes after its array(s), in order
OPTIONS = {"sort": ("axis", "kind", "order"), "argsort": ("axis", "kind", "order"),
           "searchsorted": ("side", "sorter"), "unique": (), "bincount": ("weights", "minlength"),
           "histogram": ("bins", "range", "density", "weights")}
TAKES = {"searchsorted": 2}


class SortingTyping:
    def sorting_call(self, name, node):
        shown = f"np.{name}"
        arrays, given = self.kernel_arguments(node, TAKES.get(name, 1), OPTIONS[name], shown)
        return getattr(self, f"sorting_{name}")(arrays, given, node, shown)

    def sorted_array(self, value, argument, shown, any_rank=False):
        """The array a sorting function takes: 1-D (np.sort and np.argsort:
        any rank), real."""
        if not isinstance(value.type, kt.ArrayType):
            self.fail(argument, f"{shown}() takes an array here, not {display(value.type)}")
        if value.type.ndim != 1 and not any_rank:
            self.fail(argument, f"{shown}() of a {value.type.ndim}-D array is not supported "
                                "yet (1-D arrays)")
        if value.type.dtype.is_complex:
            self.fail(argument, f"{shown}() of a complex array is not supported yet (numpy "
                                "orders complex numbers by their real, then imaginary parts)")
        return value

    def literal_option(self, given, option, allowed, shown):
        node = given.get(option)
        if node is None:
            return None
        if not isinstance(node, ast.Constant) or node.value not in allowed:
            choices = ", ".join(repr(a) for a in allowed if a is not None)
            self.fail(node, f"{shown}()'s `{option}` must be written as one of {choices}")
        return node.value

    def refuse_options(self, given, options, shown):
        for option in options:
            node = given.get(option)
            if node is not None and not (isinstance(node, ast.Constant) and node.value is None):
                self.fail(node, f"{shown}()'s `{option}` is not supported yet")

    def sorting_sort(self, arrays, given, node, shown, kernel="sort", argument=None):
        """np.sort/np.argsort along the last axis (the default, `axis=-1`),
        of the flattened array (`axis=None`), or of a 2-D array's columns
        (`axis=0`). `argument`: the array's node (`x` of `x.sort()`)."""
        (array,) = arrays
        argument = node.args[0] if argument is None else argument
        self.sorted_array(array, argument, shown, any_rank=True)
        ndim = array.type.ndim
        axis = given.get("axis", ast.Constant(value=-1))
        if isinstance(axis, ast.UnaryOp) and isinstance(axis.op, ast.USub) and \
                isinstance(axis.operand, ast.Constant):
            axis = ast.Constant(value=-axis.operand.value)
        if not isinstance(axis, ast.Constant) or axis.value is not None and not (
                isinstance(axis.value, int) and -ndim <= axis.value < ndim):
            self.fail(given.get("axis", node), f"{shown}()'s `axis` must be an int from "
                                               f"{-ndim} to {ndim - 1} or None, written in "
                                               "the source")
        if axis.value is None:
            variant = "_flat"
        elif axis.value % ndim == ndim - 1:
            variant = "" if ndim == 1 else "_rows"
        elif ndim == 2:
            variant = "_columns"
        else:
            self.fail(given["axis"], f"{shown}() of a {ndim}-D array along an axis other than "
                                     "the last is not supported yet")
        if kernel == "sort_in_place" and variant != "_rows" and ndim > 1 or \
                kernel == "sort_in_place" and axis.value is None:
            self.fail(given["axis"], f"{shown}() in place sorts along the last axis only here")
        self.literal_option(given, "kind", SORT_KINDS, shown)
        self.refuse_options(given, ("order",), shown)
        if kernel != "sort_in_place":
            kernel += variant
        values = {"RESULT": numpy_value(array.type.dtype)}
        return self.kernel_call(kernel, values, arrays, [argument], node,
                                kernel_file=SORTING_KERNELS, spelled=kernel)

    def sorting_method(self, func, base, node):
        """`x.sort()` (in place, None) and `x.argsort()` of an array."""
        shown = f"`.{func.attr}`"
        options = ("axis", "kind", "order")
        if len(node.args) > len(options):
            self.fail(node, f"{shown}() takes at most {len(options)} arguments")
        given = dict(zip(options, node.args))
        for keyword in node.keywords:
            if keyword.arg not in options or keyword.arg in given:
                self.fail(keyword, f"{shown}() got an unexpected or repeated argument "
                                   f"`{keyword.arg}`")
            given[keyword.arg] = keyword.value
        return self.sorting_sort([base], given, node, shown,
                                 "sort_in_place" if func.attr == "sort" else "argsort",
                                 argument=func.value)

    def sorting_argsort(self, arrays, given, node, shown):
        return self.sorting_sort(arrays, given, node, shown, kernel="argsort")

    def sorting_unique(self, arrays, given, node, shown):
        (array,) = arrays
        self.sorted_array(array, node.args[0], shown)
        values = {"RESULT": numpy_value(array.type.dtype)}
        return self.kernel_call("unique", values, arrays, [node.args[0]], node,
                                kernel_file=SORTING_KERNELS, spelled="unique")

    def sorting_searchsorted(self, arrays, given, node, shown):
        a, v = arrays
        self.sorted_array(a, node.args[0], shown)
        side = self.literal_option(given, "side", ("left", "right"), shown) or "left"
        self.refuse_options(given, ("sorter",), shown)
        if isinstance(v.type, kt.ArrayType):
            self.sorted_array(v, node.args[1], shown)
            kernel = f"searchsorted_{side}_array"
        else:
            self.expect_scalar(v, node.args[1], shown)
            if v.type.is_complex:
                self.fail(node.args[1], f"{shown}() of a complex number is not supported yet")
            kernel = f"searchsorted_{side}"
        values = {"RESULT": numpy_value(a.type.dtype)}
        return self.kernel_call(kernel, values, [a] + ([v] if isinstance(
            v.type, kt.ArrayType) else []), list(node.args[:2]), node,
            kernel_file=SORTING_KERNELS, spelled=kernel)

    def sorting_histogram(self, arrays, given, node, shown):
        """np.histogram(a, bins=10, range=None, density=None, weights=None)
        of a 1-D int or float64 array: (counts, edges). `bins` a number of
        equal bins or an array of edges; `weights` (float64 or int64, with a
        number of bins) or `density` (written True or False)."""
        (array,) = arrays
        if not isinstance(array.type, kt.ArrayType) or array.type.ndim != 1:
            self.fail(node.args[0], f"{shown}() of something else than a 1-D array is not "
                                    "supported yet")
        dtype = array.type.dtype
        if not (dtype.is_int and not dtype.is_bool or dtype == kt.f64):
            self.fail(node.args[0], f"{shown}() of a {dtype.numpy_name} array is not supported "
                                    "yet (int and float64 arrays)")
        density = self.literal_option(given, "density", (None, True, False), shown)
        weights = self.histogram_weights(given.get("weights"), shown)
        if weights is not None and density:
            self.fail(given["density"], f"{shown}() with both `weights` and `density=True` is "
                                        "not supported yet")
        bins = given.get("bins")
        edges = None
        if bins is None:
            bins = ast.copy_location(ast.Constant(value=10), node)
        else:
            value = self.expression(bins)
            self.absorb(value)
            if isinstance(value.type, kt.ArrayType):
                edges = self.histogram_edges(value, bins, given, weights, shown)
            elif not (isinstance(value.type, kt.ScalarType) and value.type.is_int):
                self.fail(bins, f"{shown}()'s `bins` must be an int or an array of edges here "
                                "(numpy: an integer, a string, or an array)")
        self.raises = True      # numpy's ValueErrors
        if edges is not None and weights is not None:
            return self.kernel_call("histogram_edges_weighted",
                                    {"RESULT": numpy_value(weights.type.dtype)},
                                    [array, weights, edges],
                                    [node.args[0], given["weights"], bins], node,
                                    kernel_file=SORTING_KERNELS,
                                    spelled="histogram_edges_weighted")
        if edges is not None:
            kernel = "histogram_edges_density" if density else "histogram_edges"
            return self.kernel_call(kernel, {"RESULT": numpy_value(kt.f64)}, [array, edges],
                                    [node.args[0], bins], node, kernel_file=SORTING_KERNELS,
                                    spelled=kernel)
        limits = given.get("range")
        if limits is None or (isinstance(limits, ast.Constant) and limits.value is None):
            first = last = ast.copy_location(ast.Constant(value=0.0), node)
            has_range = ast.copy_location(ast.Constant(value=False), node)
        elif isinstance(limits, ast.Tuple) and len(limits.elts) == 2:
            first, last = limits.elts
            for limit in (first, last):
                self.expect_scalar(self.expression(limit), limit, f"{shown}()'s range")
            has_range = ast.copy_location(ast.Constant(value=True), node)
        else:
            self.fail(limits, f"{shown}()'s `range` must be written as a pair `(low, high)`")
        if weights is not None:
            return self.kernel_call("histogram_weighted",
                                    {"RESULT": numpy_value(weights.type.dtype)},
                                    [array, weights], [node.args[0], given["weights"], bins,
                                                       first, last, has_range], node,
                                    kernel_file=SORTING_KERNELS, spelled="histogram_weighted")
        kernel = "histogram_density" if density else "histogram"
        return self.kernel_call(kernel, {"RESULT": numpy_value(kt.f64)}, arrays,
                                [node.args[0], bins, first, last, has_range], node,
                                kernel_file=SORTING_KERNELS, spelled=kernel)

    def histogram_weights(self, weights, shown):
        """The weights array np.histogram takes: 1-D float64 or int64."""
        if weights is None or isinstance(weights, ast.Constant) and weights.value is None:
            return None
        value = self.expression(weights)
        self.absorb(value)
        self.array_consumers.add(weights)
        if not isinstance(value.type, kt.ArrayType) or value.type.ndim != 1 or \
                value.type.dtype not in (kt.f64, kt.i64):
            self.fail(weights, f"{shown}()'s `weights` must be a 1-D float64 or int64 array "
                               f"here, not {display(value.type)}")
        return value

    def histogram_edges(self, value, bins, given, weights, shown):
        """`bins` as an array of edges: 1-D (numpy's ValueError says so),
        int or float64, without `range` (numpy ignores it)."""
        if value.type.ndim != 1:
            self.fail(bins, "`bins` must be 1d, when an array")
        if not (value.type.dtype.is_int and not value.type.dtype.is_bool or
                value.type.dtype == kt.f64):
            self.fail(bins, f"{shown}()'s edges must be an int or float64 array here")
        limits = given.get("range")
        if limits is not None and not (isinstance(limits, ast.Constant) and limits.value is None):
            self.fail(limits, f"{shown}() with `range` and an array of edges: numpy ignores "
                              "the range; leave it out")
        self.array_consumers.add(bins)
        return value

    def sorting_bincount(self, arrays, given, node, shown):
        (array,) = arrays
        if not isinstance(array.type, kt.ArrayType) or array.type.ndim != 1:
            self.fail(node.args[0], f"{shown}() takes a 1-D array of non-negative ints")
        dtype = array.type.dtype
        if not (dtype.is_bool or dtype.is_int) or dtype == kt.u64:
            # numpy's cast to intp under the 'safe' rule
            self.fail(node.args[0], f"{shown}() of a {dtype.numpy_name} array: numpy cannot "
                                    f"cast {dtype.numpy_name} to int64 safely (TypeError)")
        self.refuse_options(given, ("weights",), shown)
        minlength = given.get("minlength")
        if minlength is None:
            minlength = ast.copy_location(ast.Constant(value=0), node)
        else:
            self.expect_scalar(self.expression(minlength), minlength, f"{shown}()'s minlength")
        self.raises = True      # negative elements, a negative minlength
        return self.kernel_call("bincount", {"RESULT": numpy_value(kt.i64)}, arrays,
                                [node.args[0], minlength], node,
                                kernel_file=SORTING_KERNELS, spelled="bincount")
