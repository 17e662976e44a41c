"""Typing of the numpy functions Kiln compiles from its own kernels
(library_functions.LINALG: np.linalg.det, slogdet, solve, inv, cholesky,
qr, svd's values, cond, matrix_rank, norm, np.trace, np.kron, np.vdot,
np.inner, np.matmul and `@` of stacks of matrices, np.einsum;
frontend/kernels/linalg.py and einsum.py). A mixin of
type_inference.FunctionTyping.

Each call is checked the way numpy checks it where that is known at
compile time (ranks, a literal `ord`, `mode` or subscripts), then becomes
a call of one kernel, instantiated for the types it needs: FLOAT is the
result's float type as numpy.linalg's _commonType picks it
(`linalg_float_type`); RESULT is np.trace's sum dtype or the products'
promoted one; the other template names follow from FLOAT (`kernel_call`).
The call node keeps the kernel call (`_kiln_kernel_call`), which code
generation lowers as it does a call of the module's helpers
(call_lowering.py's linalg_call)."""

from __future__ import annotations

import ast
import math

from .. import typesystem as kt
from .. import typing_rules as rules
from ..frontend.kernels import einsum
from ..typing_rules import display

LINALG_KERNELS = "linalg"
# The smallest normal number of each float type (LAPACK's dlamch('S')):
# below it the LU kernel divides by the pivot instead of multiplying by
# its reciprocal, which would overflow.
SMALLEST_NORMAL = {kt.f64: 2.2250738585072014e-308, kt.f32: 1.1754943508222875e-38}
# numpy's finfo(t).eps: the Jacobi SVD's convergence test, matrix_rank's
# tolerance.
MACHINE_EPSILON = {kt.f64: 2.220446049250313e-16, kt.f32: 1.1920928955078125e-07}
# The factorizations' block: columns of a panel factored one at a time
# before the trailing matrix takes their product with `@` (the product's
# depth). Measured at n = 512 on an AVX2 machine: 64 made the LU 10 %
# faster than 32 (the rank-64 product runs nearer kiln-tile-matmul's
# speed), and the panel of 64 columns still sits in L2.
PANEL = 64
# np.linalg.norm's `ord` of a vector (None: 2) and of a matrix (None:
# "fro") -> the kernel computing it; other numbers are p-norms of vectors.
VECTOR_NORMS = {None: "norm_vector_2", 2: "norm_vector_2", math.inf: "norm_vector_max",
                -math.inf: "norm_vector_min", 0: "norm_vector_count", 1: "norm_vector_1"}
MATRIX_NORMS = {None: "norm_matrix_frobenius", "fro": "norm_matrix_frobenius",
                1: "norm_matrix_1", -1: "norm_matrix_minus_1", math.inf: "norm_matrix_inf",
                -math.inf: "norm_matrix_minus_inf", 2: "norm_matrix_2",
                -2: "norm_matrix_minus_2", "nuc": "norm_matrix_nuclear"}
# np.linalg.qr's modes -> the kernel computing them ((Q, R), or R alone).
QR_MODES = {"reduced": "qr_reduced", "complete": "qr_complete", "r": "qr_r"}


# Real and complex dtypes by numpy's name (the template values name them so).
BY_NUMPY_NAME = {t.numpy_name: t for t in (*kt.DTYPES, *kt.COMPLEX_DTYPES)}
# The functions of LINALG that take complex arrays.
COMPLEX_FUNCTIONS = ("trace", "vdot", "inner", "matmul", "linalg.det", "linalg.slogdet",
                     "linalg.solve", "linalg.inv")


def linalg_float_type(dtypes) -> kt.ScalarType:
    """numpy.linalg's _commonType: complex when any array is, single
    precision (float32, complex64) only when every one is; ints and bools
    compute in float64."""
    single = all(d in (kt.f32, kt.c64) for d in dtypes)
    if any(d.is_complex for d in dtypes):
        return kt.c64 if single else kt.c128
    return kt.f32 if single else kt.f64


def numpy_value(dtype: kt.ScalarType) -> tuple:
    """A template value naming np.<dtype>."""
    return ("numpy", dtype.numpy_name)


class LinalgTyping:
    def linalg_call(self, name, node):
        shown = f"np.{name}"
        if name == "einsum":
            return self.einsum_call(node)
        arrays, options = self.linalg_arguments(name, node, shown)
        if name == "matmul" and all(a.type.ndim <= 2 for a in arrays):
            node._kiln_matmul = True         # `a @ b`, numpy's matmul messages
            return self.dot(arrays, node)
        kernel, values, extra = self.linalg_kernel(name, arrays, options, node, shown)
        return self.kernel_call(kernel, values, arrays, list(node.args[:len(arrays)]) + extra,
                                node)

    def einsum_call(self, node):
        """np.einsum('ij,jk->ik', a, b): a kernel written for the
        subscripts (frontend/kernels/einsum.py), which must be a literal."""
        if node.keywords:
            self.fail(node.keywords[0], "np.einsum()'s keyword arguments are not supported yet")
        if not node.args or not (isinstance(node.args[0], ast.Constant) and
                                  isinstance(node.args[0].value, str)):
            self.fail(node, "np.einsum()'s subscripts must be a string literal: Kiln writes the "
                            "loops for them when compiling")
        arrays = []
        for argument in node.args[1:]:
            value = self.expression(argument)
            self.absorb(value)
            self.array_consumers.add(argument)
            if not isinstance(value.type, kt.ArrayType):
                self.fail(argument, f"np.einsum() takes arrays here, not {display(value.type)}")
            if value.type.dtype.is_bool:
                self.fail(argument, "np.einsum() of bool arrays is not supported yet")
            arrays.append(value)
        try:
            terms, output = einsum.parse(node.args[0].value, len(arrays))
        except ValueError as error:
            self.fail(node, str(error))
        for term, array, argument in zip(terms, arrays, node.args[1:]):
            if len(term) < array.type.ndim:
                self.fail(argument, "operand has more dimensions than subscripts given in "
                                    "einstein sum, but no '...' ellipsis provided to broadcast "
                                    "the extra dimensions.")
            if len(term) > array.type.ndim:
                self.fail(argument, f"einstein sum subscripts string contains too many "
                                    f"subscripts for operand {arrays.index(array)}")
        dtypes = [a.type.dtype for a in arrays]
        result = dtypes[0]
        for dtype in dtypes[1:]:
            result = rules.promote(result, dtype)
        spelled = "_".join(terms) + "_to_" + (output or "scalar")
        return self.kernel_call("einsum", {"RESULT": numpy_value(result)}, arrays,
                                list(node.args[1:]), node, kernel_file="einsum",
                                spelled=spelled, text=einsum.einsum_source(terms, output))

    def stacked_matmul(self, arrays, argument_nodes, node):
        """`a @ b` (np.matmul) where a stack of matrices (3-D) meets a
        stack or a matrix: one kernel product per matrix."""
        ranks = tuple(a.type.ndim for a in arrays)
        kernel = {(3, 3): "matmul_stacks", (3, 2): "matmul_stack_matrix",
                  (2, 3): "matmul_matrix_stack"}.get(ranks)
        if kernel is None:
            self.fail(node, f"`@` (np.matmul) of a {ranks[0]}-D and a {ranks[1]}-D array is not "
                            "supported yet (stacks of 3-D with 2-D or 3-D)")
        dtypes = [a.type.dtype for a in arrays]
        if kt.boolean in dtypes:
            self.fail(node, "`@` (np.matmul) of stacks of bool matrices is not supported yet")
        values = {"RESULT": numpy_value(rules.promote(*dtypes))}
        return self.kernel_call(kernel, values, arrays, list(argument_nodes), node)

    def kernel_call(self, kernel, values, arrays, argument_nodes, node,
                    kernel_file=LINALG_KERNELS, spelled=None, text=None):
        """The call of `kernel` of `kernel_file` (or of the generated
        `text`, told apart by `spelled`) instantiated for `values` and the
        arrays' types, typed as a helper call; `node` keeps it for code
        generation."""
        # Every template name gets its value, whichever kernel is asked for:
        # the SHARED functions are instantiated once per float type, by the
        # first call that reaches them.
        values.setdefault("FLOAT", ("numpy", "float64"))
        values.setdefault("RESULT", values["FLOAT"])
        float_type = BY_NUMPY_NAME[values["FLOAT"][1]]
        real_type = float_type.part if float_type.is_complex else float_type
        values.setdefault("TINY", SMALLEST_NORMAL[real_type])
        values.setdefault("PANEL", PANEL)
        values.setdefault("EPS", MACHINE_EPSILON[real_type])
        values.setdefault("REAL", numpy_value(real_type))
        complex_ = float_type.is_complex
        values.setdefault("MAGNITUDE", ("name", "complex_magnitude" if complex_ else "abs"))
        values.setdefault("DET", ("name", "det_complex" if complex_ else "det"))
        values.setdefault("SLOGDET", ("name", "slogdet_complex" if complex_ else "slogdet"))
        # One copy of the kernels per result type and argument types (det
        # and inv of one matrix type share theirs), and of the SHARED ones
        # (the LU, the solves) per float type.
        shared_key = values["FLOAT"][1]
        key = "_".join(([spelled] if spelled else []) + [shared_key, values["RESULT"][1]] +
                       [f"{a.type.dtype.name}_{a.type.ndim}d" for a in arrays])
        kernel_name = self.context.kernel(kernel_file, kernel, key, shared_key, values, text)
        for function_name, function in self.context.kernel_functions.items():
            self.module.functions.setdefault(function_name, function)
        call = ast.Call(func=ast.Name(id=kernel_name, ctx=ast.Load()), args=argument_nodes,
                        keywords=[])
        ast.copy_location(call.func, node)
        ast.copy_location(call, node)
        for child in argument_nodes:
            if not hasattr(child, "lineno"):
                ast.copy_location(child, node)
        node._kiln_kernel_call = call
        return self.expression(call)

    def linalg_arguments(self, name, node, shown):
        """The arrays the call takes (typed) and its options (the nodes)."""
        takes = {"linalg.solve": 2, "kron": 2, "vdot": 2, "inner": 2, "matmul": 2,
                 "linalg.lstsq": 2}.get(name, 1)
        options = {"linalg.norm": ("ord", "axis", "keepdims"), "linalg.qr": ("mode",),
                   "linalg.svd": ("full_matrices", "compute_uv", "hermitian"),
                   "linalg.cond": ("p",), "linalg.matrix_rank": ("tol", "hermitian"),
                   "linalg.pinv": ("rcond", "hermitian"), "linalg.lstsq": ("rcond",),
                   "trace": ("offset", "axis1", "axis2", "dtype", "out")}.get(name, ())
        values, given = self.kernel_arguments(node, takes, options, shown)
        for value, argument in zip(values, node.args):
            if not isinstance(value.type, kt.ArrayType):
                self.fail(argument, f"{shown}() takes arrays here, not {display(value.type)}")
            if value.type.dtype.is_complex and name not in COMPLEX_FUNCTIONS:
                self.fail(argument, f"{shown}() of complex arrays is not supported yet")
        return values, given

    def kernel_arguments(self, node, takes, options, shown):
        """A kernel call's first `takes` arguments (typed values) and its
        options by name (the nodes written, positional or keyword)."""
        if len(node.args) < takes:
            self.fail(node, f"{shown}() takes {takes} array{'s' if takes > 1 else ''}")
        if len(node.args) > takes + len(options):
            self.fail(node, f"{shown}() takes at most {takes + len(options)} arguments")
        given = dict(zip(options, node.args[takes:]))
        for keyword in node.keywords:
            if keyword.arg not in options or keyword.arg in given:
                self.fail(keyword, f"{shown}() got an unexpected or repeated argument "
                                   f"`{keyword.arg}`")
            given[keyword.arg] = keyword.value
        values = []
        for argument in node.args[:takes]:
            value = self.expression(argument)
            self.absorb(value)
            self.array_consumers.add(argument)
            values.append(value)
        return values, given

    def linalg_kernel(self, name, arrays, options, node, shown):
        """(kernel function, template values, extra argument nodes)."""
        dtypes = [a.type.dtype for a in arrays]
        float_type = linalg_float_type(dtypes)
        values = {"FLOAT": numpy_value(float_type), "RESULT": numpy_value(float_type)}
        if float_type.is_complex and name in ("linalg.det", "linalg.slogdet"):
            name += "_complex"        # a complex sign (d/|d|), a real log
        ranks = [a.type.ndim for a in arrays]
        if name == "trace":
            return self.trace_kernel(arrays[0], options, values, shown, node)
        if name == "kron":
            if ranks[0] != ranks[1] or ranks[0] > 2:
                self.fail(node, f"{shown}() of a {ranks[0]}-D and a {ranks[1]}-D array is not "
                                "supported yet (both 1-D or both 2-D)")
            if kt.boolean in dtypes:
                self.fail(node, f"{shown}() of bool arrays is not supported yet")
            values["RESULT"] = numpy_value(rules.promote(*dtypes))
            return ("kron_vector" if ranks[0] == 1 else "kron_matrix"), values, []
        if name == "linalg.norm":
            return self.norm_kernel(arrays[0], options, values, shown)
        if name in ("linalg.pinv", "linalg.lstsq"):
            return self.pseudo_inverse_kernel(name, arrays, options, values, node, shown)
        if name in ("linalg.svd", "linalg.cond", "linalg.matrix_rank"):
            return self.singular_value_kernel(name, arrays[0], options, values, node, shown)
        if name in ("vdot", "inner", "matmul"):
            return self.product_kernel(name, arrays, values, node, shown)
        if ranks[0] < 2:
            self.fail(node, f"{shown}() of a {ranks[0]}-D array: {ranks[0]}-dimensional "
                            "array given. Array must be at least two-dimensional")
        if ranks[0] > 3 or ranks[0] == 3 and name == "linalg.qr":
            self.fail(node, f"{shown}() of a {ranks[0]}-D array: stacks of matrices beyond 3-D "
                            "(and of qr) are not supported yet")
        if ranks[0] == 3:
            if name == "linalg.solve":
                if ranks[1] not in (2, 3):
                    self.fail(node, f"{shown}() of a stack of matrices takes a 2-D (a stack of "
                                    f"vectors) or 3-D right-hand side, not {ranks[1]}-D")
                return ("solve_stack_vectors" if ranks[1] == 2 else "solve_stack_matrices"), \
                    values, []
            return name.split(".")[1].replace("_complex", "") + "_stack", values, []
        if name == "linalg.qr":
            mode = options.get("mode")
            mode_value = "reduced" if mode is None else mode.value if isinstance(
                mode, ast.Constant) else None
            if mode_value not in QR_MODES:
                self.fail(mode if mode is not None else node,
                          f"{shown}()'s `mode` must be written as 'reduced', 'complete' or 'r' "
                          "('raw' is not supported yet)")
            return QR_MODES[mode_value], values, []
        if name == "linalg.solve":
            if ranks[1] not in (1, 2):
                self.fail(node, f"{shown}() takes a 1-D or 2-D right-hand side, not "
                                f"{ranks[1]}-D (stacks of matrices are not supported yet)")
            return ("solve_vector" if ranks[1] == 1 else "solve_matrix"), values, []
        return name.split(".")[1], values, []

    def singular_value_kernel(self, name, array, options, values, node, shown):
        """svd(a, compute_uv=False), cond(a[, p]) with p None, 2 or -2,
        matrix_rank(a) with numpy's tolerance (and of a vector)."""
        for option, allowed in (("full_matrices", (True, False)), ("hermitian", (False,)),
                                ("tol", (None,))):
            given = options.get(option)
            if given is not None and not (isinstance(given, ast.Constant) and
                                          given.value in allowed):
                self.fail(given, f"{shown}() argument `{option}` is not supported yet")
        ndim = array.type.ndim
        if name == "linalg.matrix_rank" and ndim == 1:
            return "vector_rank", values, []
        if ndim != 2:
            self.fail(node, f"{shown}() of a {ndim}-D array is not supported yet (2-D)")
        if name == "linalg.svd":
            compute = options.get("compute_uv")
            if not (isinstance(compute, ast.Constant) and compute.value is False):
                self.fail(compute or node, f"{shown}() gives only the singular values yet: "
                                           "write compute_uv=False (U and Vh not supported yet)")
            return "svd_values", values, []
        if name == "linalg.cond":
            order = self.norm_order(options.get("p"), shown)
            if order not in (None, 2, -2):
                self.fail(options["p"], f"{shown}() with p={order!r} is not supported yet "
                                        "(None, 2 and -2 are)")
            return ("cond_minus_2" if order == -2 else "cond_2"), values, []
        return "matrix_rank", values, []

    def pseudo_inverse_kernel(self, name, arrays, options, values, node, shown):
        """pinv(a[, rcond]) and lstsq(a, b[, rcond]) of 2-D `a` (b 1-D or
        2-D): rcond is passed to the kernel, None as -1 (numpy's default:
        1e-15 for pinv, eps * max(M, N) for lstsq)."""
        hermitian = options.get("hermitian")
        if hermitian is not None and not (isinstance(hermitian, ast.Constant) and
                                          hermitian.value is False):
            self.fail(hermitian, f"{shown}() argument `hermitian` is not supported yet")
        if arrays[0].type.ndim != 2:
            self.fail(node, f"{shown}() of a {arrays[0].type.ndim}-D array is not supported yet "
                            "(2-D)")
        rcond = options.get("rcond")
        if rcond is None or isinstance(rcond, ast.Constant) and rcond.value is None:
            rcond = ast.Constant(value=1e-15 if name == "linalg.pinv" else -1.0)
        else:
            value = self.expression(rcond)
            if not (isinstance(value.type, kt.ScalarType) and not value.type.is_complex):
                self.fail(rcond, f"{shown}()'s `rcond` must be a number")
        if name == "linalg.pinv":
            return "pinv", values, [rcond]
        if arrays[1].type.ndim not in (1, 2):
            self.fail(node, f"{shown}() takes a 1-D or 2-D right-hand side")
        return ("lstsq_vector" if arrays[1].type.ndim == 1 else "lstsq_matrix"), values, [rcond]

    def product_kernel(self, name, arrays, values, node, shown):
        dtypes = [a.type.dtype for a in arrays]
        ranks = tuple(a.type.ndim for a in arrays)
        if kt.boolean in dtypes:
            self.fail(node, f"{shown}() of bool arrays is not supported yet")
        values["RESULT"] = numpy_value(rules.promote(*dtypes))
        if name == "vdot":
            if max(ranks) > 2:
                self.fail(node, f"{shown}() of arrays of more than 2 dimensions is not "
                                "supported yet")
            if not any(d.is_complex for d in dtypes):
                return "vdot_real", values, []
            if ranks not in ((1, 1), (2, 2)):
                self.fail(node, f"{shown}() of complex arrays of different ranks is not "
                                "supported yet")
            return ("vdot_complex_vector" if ranks == (1, 1) else "vdot_complex_matrix"), \
                values, []
        if name == "inner":
            if ranks not in ((1, 1), (2, 2)):
                self.fail(node, f"{shown}() of a {ranks[0]}-D and a {ranks[1]}-D array is not "
                                "supported yet (two 1-D or two 2-D arrays)")
            return ("inner_vector" if ranks == (1, 1) else "inner_matrix"), values, []
        kernel = {(3, 3): "matmul_stacks", (3, 2): "matmul_stack_matrix",
                  (2, 3): "matmul_matrix_stack"}.get(ranks)
        if kernel is None:
            self.fail(node, f"{shown}() of a {ranks[0]}-D and a {ranks[1]}-D array is not "
                            "supported yet (up to stacks of 3-D with 2-D or 3-D)")
        return kernel, values, []

    def trace_kernel(self, array, options, values, shown, node):
        for option in ("axis1", "axis2", "dtype", "out"):
            if option in options:
                self.fail(options[option], f"{shown}() argument `{option}` is not supported yet")
        if array.type.ndim != 2:
            self.fail(node, f"{shown}() of a {array.type.ndim}-D array is not supported yet "
                            "(2-D)")
        values["RESULT"] = numpy_value(rules.reduction_type("sum", array.type.dtype))
        offset = options.get("offset")
        if offset is None:
            offset = ast.Constant(value=0)
        return "trace", values, [offset]

    def norm_kernel(self, array, options, values, shown):
        for option in ("axis", "keepdims"):
            if option in options and not (isinstance(options[option], ast.Constant) and
                                          options[option].value in (None, False)):
                self.fail(options[option], f"{shown}() argument `{option}` is not supported yet")
        order_node = options.get("ord")
        order = self.norm_order(order_node, shown)
        ndim = array.type.ndim
        if ndim == 1:
            if order == "fro" or order == "nuc":
                self.fail(order_node, f"Invalid norm order '{order}' for vectors")
            kernel = VECTOR_NORMS.get(order)
            if kernel is not None:
                return kernel, values, []
            return "norm_vector_p", values, [ast.Constant(value=float(order))]
        if ndim != 2:
            self.fail(order_node or options.get("axis") or ast.Constant(value=None),
                      f"{shown}() of a {ndim}-D array is not supported yet (1-D or 2-D)")
        kernel = MATRIX_NORMS.get(order)
        if kernel is None:
            self.fail(order_node, "Invalid norm order for matrices.")
        return kernel, values, []

    def norm_order(self, node, shown):
        """The literal `ord` of np.linalg.norm: None, a number, inf/-inf
        (np.inf, math.inf, float('inf')), 'fro' or 'nuc'."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(
                node.value, (int, float, str)) and not isinstance(node.value, bool)):
            value = node.value
        elif self.is_infinity(node):
            value = math.inf
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and (
                self.is_infinity(node.operand) or isinstance(node.operand, ast.Constant) and
                isinstance(node.operand.value, (int, float))):
            value = -math.inf if self.is_infinity(node.operand) else -node.operand.value
        else:
            self.fail(node, f"{shown}()'s `ord` must be written as a literal (a number, "
                            "np.inf, 'fro' or 'nuc'): Kiln picks the computation when compiling")
        if isinstance(value, str) and value not in ("fro", "nuc"):
            self.fail(node, f"Invalid norm order '{value}'")
        if isinstance(value, float) and math.isfinite(value) and value == int(value):
            value = int(value)          # ord=2.0 is ord=2
        return value

    def is_infinity(self, node) -> bool:
        qualified = self.context.qualified_name(node)
        if qualified in (("numpy", "inf"), ("numpy", "Inf"), ("numpy", "infty"),
                         ("math", "inf")):
            return True
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "float" and len(node.args) == 1 and \
            isinstance(node.args[0], ast.Constant) and \
            str(node.args[0].value).lower() in ("inf", "infinity", "+inf")
