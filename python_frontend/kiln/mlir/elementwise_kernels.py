"""The array forms of an `@kiln.vectorize` function, which its ufunc's
loop (native/ufuncs.py) calls: `<name>__array`, the compiled scalar
function applied to every element of strided views, and for a function
that can fold a sequence (`(T, U) -> T`) `<name>__reduce`, the fold
numpy's `.reduce` asks for."""

from __future__ import annotations

from .. import typesystem as kt
from . import ir_builder as ir
from .values import mlir_type, symbol_name


ELEMENTWISE_RANK = 3


def elementwise_kernel(context, signature) -> ir.Operation:
    """`<name>__array(x..., out)`: the scalar function applied to every
    element of 3-D strided views (stride 0 broadcasts). The wrapper pads
    lower-rank and scalar arguments to this shape."""
    location = ir.file_location(context.path, signature.line, 1)
    rank = ELEMENTWISE_RANK
    result = signature.return_type
    inputs = [mlir_type(kt.ArrayType(p.type, rank)) for p in signature.params]
    entry = ir.Block(inputs + [mlir_type(kt.ArrayType(result, rank))])
    if signature.raises:
        error_slot = entry.add_argument(ir.llvm_pointer)
    arrays, out = entry.arguments[:len(inputs)], entry.arguments[len(inputs)]
    builder = ir.Builder(entry)
    axes = [builder.index_constant(k, location) for k in range(rank)]
    one = builder.index_constant(1, location)
    sizes = [builder.dim(out, axes[k], location) for k in range(rank)]
    counters = []

    def loop(axis):
        if axis == rank:
            operands = [builder.load(array, counters, location) for array in arrays]
            if signature.raises:
                operands.append(error_slot)
            [value] = builder.call(symbol_name(context, signature.name), operands,
                                   [mlir_type(result)], location)
            if signature.raises:
                builder.kiln_propagate_error(location)
            builder.store(value, out, counters, location)
            return
        body = builder.region([ir.index])
        counters.append(body.block.arguments[0])
        with builder.at_end(body.block):
            loop(axis + 1)
        builder.scf_for(axes[0], sizes[axis], one, [], body, location)

    loop(0)
    builder.func_return([], location)
    argument_attributes = {len(inputs) + 1: {"kiln.error_slot": ir.UNIT}} \
        if signature.raises else None
    return builder.func(symbol_name(context, signature.name + "__array"), ir.Region([entry]), [],
                        location, attributes={"kiln.export": ir.UNIT,
                                              "llvm.emit_c_interface": ir.UNIT},
                        argument_attributes=argument_attributes)


def has_reduction_kernel(signature) -> bool:
    """Whether `<name>__reduce` exists: two parameters, the first of the
    result's type, and no exception (a raising fold runs element by
    element, where the loop can stop at the element that raised)."""
    params = signature.params
    return len(params) == 2 and params[0].type == signature.return_type and \
        not signature.raises


def reduction_kernel(context, signature) -> ir.Operation:
    """`<name>__reduce(x, initial)`: `value = f(value, x[i])` for i in order
    over a 1-D strided view, from `initial`. The scalar function inlines
    into the loop; with fastmath=True its float operations may reassociate,
    so LLVM can vectorize the fold."""
    location = ir.file_location(context.path, signature.line, 1)
    result = mlir_type(signature.return_type)
    entry = ir.Block([mlir_type(kt.ArrayType(signature.params[1].type, 1)), result])
    array, initial = entry.arguments
    builder = ir.Builder(entry)
    zero = builder.index_constant(0, location)
    one = builder.index_constant(1, location)
    size = builder.dim(array, zero, location)
    body = builder.region([ir.index, result])
    with builder.at_end(body.block):
        counter, running = body.block.arguments
        element = builder.load(array, [counter], location)
        [value] = builder.call(symbol_name(context, signature.name), [running, element],
                               [result], location)
        builder.scf_yield([value], location)
    [final] = builder.scf_for(zero, size, one, [initial], body, location)
    builder.func_return([final], location)
    return builder.func(symbol_name(context, signature.name + "__reduce"), ir.Region([entry]),
                        [result], location,
                        attributes={"kiln.export": ir.UNIT, "llvm.emit_c_interface": ir.UNIT})
