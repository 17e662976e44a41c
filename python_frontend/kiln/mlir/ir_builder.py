"""MLIR construction for the frontend: types, attributes, locations, values,
operations, blocks, regions, functions and the module, and their printing.

This is the only place that spells MLIR. Code generation creates IR through
`Builder`, shaped like MLIR's C++ `OpBuilder`: an insertion point (a
block), `op()` creating any operation from its name, operands, result
types, attributes and regions, and typed convenience methods (`binary`,
`cmpi`, `scf_for`, `func`, ...) on top of it. The result is printed as MLIR
text for kilnc (docs/architecture.md, stage 3, says why text and not an
in-process binding).

The builder owns value names: every SSA name is assigned by the printer
(`%0`, `%1#2`, `%arg3`), so no name from the user's program can collide
with one. It checks what it can while building, and raises `IRError`
instead of producing IR kilnc would reject: an operand that is not visible
at the insertion point (a dangling value), operand and result types of the
ops whose rules it knows, and the terminators of structured regions.

Operations without a custom form below print in MLIR's generic form
(`"dialect.op"(%a) ({...}) {attrs} : (T) -> R`), which kilnc parses for
every registered op: a new dialect needs no printing code, only (for
readability) a custom form here.
"""

from __future__ import annotations

import functools
import math
import re
import struct
from contextlib import contextmanager

from .ir_verifiers import BINARY_OPS, CAST_OPS, OP_NAMES, UNARY_OPS, VERIFIERS, terminated


class IRError(Exception):
    """IR that would not parse or verify: a bug of the code generator.
    `ir_text` is the function built so far, with the offending op;
    `position` the (quoted path, line, column) of the Python source it came
    from, when its location is a file's."""

    def __init__(self, message: str, ir_text: str = "", position=None):
        super().__init__(message)
        self.ir_text = ir_text
        self.position = position


# ------------------------------------------------------------------- types
class Type:
    """An MLIR type, interned by its text (so `is` compares types). Shaped
    types also know their element type and rank (None when unranked or not
    shaped), which the verifiers read."""

    __slots__ = ("text", "element", "rank", "signature")
    _interned: dict = {}

    def __new__(cls, text: str, element=None, rank=None, signature=None):
        existing = cls._interned.get(text)
        if existing is not None:
            return existing
        made = object.__new__(cls)
        made.text, made.element, made.rank, made.signature = text, element, rank, signature
        cls._interned[text] = made
        return made

    def __repr__(self) -> str:
        return self.text


def integer_type(bits: int) -> Type:
    return Type(f"i{bits}")


def float_type(bits: int) -> Type:
    return Type({16: "f16", 32: "f32", 64: "f64"}[bits])


i1, i8, i32, i64 = (integer_type(b) for b in (1, 8, 32, 64))
f32, f64 = float_type(32), float_type(64)
index = Type("index")
llvm_pointer = Type("!llvm.ptr")


def complex_type(element: Type) -> Type:
    return Type(f"complex<{element.text}>")


def _shape_text(shape) -> str:
    return "".join(("?" if size is None else str(size)) + "x" for size in shape)


def memref_type(shape, element: Type, strided: bool = False,
                contiguous_rows: bool = False) -> Type:
    """memref<?x4xf64>; `strided`: any strides and offset (a view numpy
    may pass), `memref<?x?xf64, strided<[?, ?], offset: ?>>`;
    `contiguous_rows`: the same with a unit last stride, `strided<[?, 1], ...>`
    (what vector loads of a row need)."""
    layout = ""
    if strided or contiguous_rows:
        strides = ["?"] * len(shape)
        if contiguous_rows:
            strides[-1] = "1"
        layout = f", strided<[{', '.join(strides)}], offset: ?>"
    return Type(f"memref<{_shape_text(shape)}{element.text}{layout}>", element, len(shape))


def tensor_type(shape, element: Type) -> Type:
    return Type(f"tensor<{_shape_text(shape)}{element.text}>", element, len(shape))


def function_type(inputs, results) -> Type:
    """`signature` is (inputs, results)."""
    return Type(f"({', '.join(t.text for t in inputs)}) -> {_result_types(results)}",
                signature=(tuple(inputs), tuple(results)))


def _result_types(types) -> str:
    if len(types) == 1 and not types[0].text.startswith("("):
        return types[0].text
    return f"({', '.join(t.text for t in types)})"


# -------------------------------------------------------------- attributes
class Attribute:
    """An MLIR attribute, as its text; `value` keeps what it was made of
    where a printer or verifier reads it back (a Type, a list, a dict)."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value=None):
        self.text = text
        self.value = value

    def __repr__(self) -> str:
        return self.text


UNIT = Attribute("unit")


def quote(text: str) -> str:
    """An MLIR string literal: printable ASCII as is, the rest as \\XX bytes."""
    out = []
    for char in text:
        code = ord(char)
        if char in '"\\' or code < 0x20 or code > 0x7E:
            out.extend(f"\\{byte:02X}" for byte in char.encode("utf-8"))
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def string_attr(text: str) -> Attribute:
    return Attribute(quote(text))


def integer_attr(value: int, type_: Type = i64) -> Attribute:
    if type_ is i1:
        return Attribute("true" if value else "false", bool(value))
    return Attribute(f"{int(value)} : {type_.text}", int(value))


def float_attr(value: float, type_: Type) -> Attribute:
    """Shortest decimal that reads back exactly; non-finite values (and
    f32 values beyond float32's range) as the bit pattern."""
    if math.isfinite(value):
        text = repr(float(value))
        if "e" in text and "." not in text:
            text = text.replace("e", ".0e")
        if type_ is f32 and value != 0.0 and abs(value) > 3.4028234663852886e38:
            text = "0x7F800000" if value > 0 else "0xFF800000"
    elif type_ is f32:
        text = "0x" + struct.pack(">f", value).hex().upper()
    else:
        text = "0x" + struct.pack(">d", value).hex().upper()
    return Attribute(f"{text} : {type_.text}")


def array_attr(elements) -> Attribute:
    return Attribute(f"[{', '.join(e.text for e in elements)}]", list(elements))


def dictionary_attr(attributes: dict) -> Attribute:
    return Attribute(dictionary_text(attributes), dict(attributes))


def dense_array_attr(values, element: Type = i64) -> Attribute:
    """array<i64: 1, 2>: the DenseI64ArrayAttr (or i32, ...) of op properties."""
    body = ", ".join(str(v) for v in values)
    return Attribute(f"array<{element.text}{': ' + body if body else ''}>", list(values))


def type_attr(type_: Type) -> Attribute:
    return Attribute(type_.text, type_)


_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def symbol_ref(name: str) -> Attribute:
    return Attribute("@" + (name if _BARE_SYMBOL.fullmatch(name) else quote(name)))


def affine_map_attr(dimensions: int, results) -> Attribute:
    """affine_map<(d0, d1) -> (d1, 0)>: each result a dimension position
    (int) or an affine expression over d0... given as text."""
    dims = ", ".join(f"d{k}" for k in range(dimensions))
    exprs = ", ".join(f"d{r}" if isinstance(r, int) else str(r) for r in results)
    return Attribute(f"affine_map<({dims}) -> ({exprs})>")


def enum_attr(dialect: str, enum: str, value: str) -> Attribute:
    """#linalg.iterator_type<parallel>, #arith.fastmath<reassoc,contract>."""
    return Attribute(f"#{dialect}.{enum}<{value}>")


FASTMATH_REASSOC_CONTRACT = enum_attr("arith", "fastmath", "reassoc,contract")

CMPI_PREDICATES = {name: code for code, name in enumerate(
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"])}
CMPF_PREDICATES = {name: code for code, name in enumerate(
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
     "ule", "une", "uno", "true"])}
_CMPI_NAMES = {code: name for name, code in CMPI_PREDICATES.items()}
_CMPF_NAMES = {code: name for name, code in CMPF_PREDICATES.items()}

# The sentinel of a dynamic entry in static offset/size/stride lists.
DYNAMIC = -(1 << 63)


# --------------------------------------------------------------- locations
class Location:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def file_location(path: str, line: int, column: int) -> Location:
    return Location(f"loc({_quoted_path(path)}:{line}:{column})")


@functools.lru_cache(maxsize=64)
def _quoted_path(path: str) -> str:
    return quote(path)


UNKNOWN_LOCATION = Location("loc(unknown)")


# ------------------------------------------------------ values, ops, blocks
class Value:
    """An SSA value: an op result or a block argument. `block` is where it
    is defined (visibility checks); `name` is assigned by the printer."""

    __slots__ = ("type", "block", "owner", "name")

    def __init__(self, type_: Type, block, owner):
        self.type = type_
        self.block = block
        self.owner = owner
        self.name = None

    def __repr__(self) -> str:
        return f"<{self.name or 'value'}: {self.type.text}>"


class Block:
    """Operations in order, with typed arguments. `parent` is the block the
    region's op is inserted into: values of it (and its parents) are
    visible here."""

    __slots__ = ("arguments", "operations", "parent")

    def __init__(self, argument_types=(), parent=None):
        self.parent = parent
        self.operations = []
        self.arguments = [Value(t, self, None) for t in argument_types]

    def add_argument(self, type_: Type) -> Value:
        value = Value(type_, self, None)
        self.arguments.append(value)
        return value

    def erase_argument(self, value: Value) -> None:
        """Drops an argument nothing uses."""
        for op in self.operations:
            for nested in op.walk():
                if any(operand is value for operand in nested.operands):
                    raise IRError(f"`{nested.name}` uses a block argument being erased")
        self.arguments.remove(value)

    @property
    def terminator(self):
        return self.operations[-1] if self.operations else None


class Region:
    __slots__ = ("blocks",)

    def __init__(self, blocks):
        self.blocks = list(blocks)

    @property
    def block(self) -> Block:
        return self.blocks[0]


class Operation:
    __slots__ = ("name", "operands", "results", "attributes", "regions", "location")

    def __init__(self, name, operands, attributes, regions, location):
        self.name = name
        self.operands = operands
        self.attributes = attributes
        self.regions = regions
        self.location = location
        self.results = ()

    @property
    def result(self) -> Value:
        if len(self.results) != 1:
            raise IRError(f"`{self.name}` has {len(self.results)} results, not one")
        return self.results[0]

    def walk(self):
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in block.operations:
                    yield from op.walk()


# ----------------------------------------------------------------- builder
class Builder:
    """Creates operations at an insertion point (the end of a block), like
    MLIR's OpBuilder."""

    def __init__(self, block: Block | None = None):
        self.block = block

    @contextmanager
    def at_end(self, block: Block):
        """Inserts into `block` inside the `with`, then where it was."""
        saved = self.block
        self.block = block
        try:
            yield block
        finally:
            self.block = saved

    def region(self, argument_types=()) -> Region:
        """A new one-block region for an op to be created at the current
        insertion point: it sees the values visible there."""
        return Region([Block(argument_types, self.block)])

    # -------------------------------------------------------- general op
    def op(self, name: str, operands=(), result_types=(), attributes=None, regions=(),
           location: Location = UNKNOWN_LOCATION) -> Operation:
        """Any operation, by name (printed in its custom form when one is
        known here, in the generic form otherwise)."""
        operands = list(operands)
        for position, operand in enumerate(operands):
            if not isinstance(operand, Value):
                self.fail(f"operand #{position} of `{name}` is {operand!r}, not a value", name,
                          operands, result_types, attributes, location)
            block = self.block
            while block is not operand.block:
                if block is None:
                    self.fail(f"operand #{position} of `{name}` is not defined in this block or "
                              "an enclosing one (a dangling value)", name, operands,
                              result_types, attributes, location)
                    break
                block = block.parent
        operation = Operation(name, operands, attributes or {}, list(regions), location)
        operation.results = [Value(t, self.block, operation) for t in result_types]
        verifier = VERIFIERS.get(name)
        if verifier is not None:
            problem = verifier(operation)
            if problem:
                self.fail(f"`{name}` {problem}", name, operands, result_types, attributes,
                          location, operation)
        if self.block is not None:
            self.block.operations.append(operation)
        return operation

    def fail(self, message, name, operands, result_types, attributes, location,
             operation=None):
        if operation is None:
            operation = Operation(name, operands, attributes or {}, [], location)
            operation.results = [Value(t, None, operation) for t in result_types]
        source = re.fullmatch(r'loc\((".*"):(\d+):(\d+)\)', location.text)
        raise IRError(message, self.partial_text(operation),
                      (source.group(1), int(source.group(2)), int(source.group(3)))
                      if source else None)

    def partial_text(self, offending: Operation) -> str:
        """The function built so far and the op that failed, for the saved
        IR of an internal compiler error."""
        printer = Printer(lenient=True)
        printer.reset_names()
        text = []
        blocks = []
        block = self.block
        while block is not None:
            blocks.append(block)
            block = block.parent
        for depth, block in enumerate(reversed(blocks)):
            printer.lines = []
            printer.block_arguments(block)
            for op in block.operations:
                printer.print_op(op, 1)
            label = "// function body built so far" if depth == 0 else \
                f"// region under construction, depth {depth}"
            text += [label] + printer.lines
        printer.lines = []
        printer.print_op(offending, 1, generic=True)
        return "\n".join(text + ["// offending operation:"] + printer.lines) + "\n"

    # ------------------------------------------------------------- arith
    def constant(self, value: Attribute, type_: Type, location) -> Value:
        return self.op("arith.constant", (), (type_,), {"value": value}, (), location).result

    def integer_constant(self, value: int, type_: Type, location) -> Value:
        return self.constant(integer_attr(value, type_), type_, location)

    def float_constant(self, value: float, type_: Type, location) -> Value:
        return self.constant(float_attr(value, type_), type_, location)

    def index_constant(self, value: int, location) -> Value:
        return self.constant(integer_attr(value, index), index, location)

    def binary(self, name: str, lhs: Value, rhs: Value, location, fastmath=None,
               unsigned=False, numpy=False) -> Value:
        """Same-typed operands and result: arith.addi, arith.addf, kiln.mod,
        math.atan2, ... (by mnemonic or full name). `unsigned` marks the
        kiln ops whose integer operands are unsigned (`{is_unsigned}`),
        `numpy` those with numpy's array semantics (`{numpy_semantics}`)."""
        attributes = {"fastmath": fastmath} if fastmath is not None else {}
        if unsigned:
            attributes["is_unsigned"] = UNIT
        if numpy:
            attributes["numpy_semantics"] = UNIT
        return self.op(OP_NAMES.get(name, name), (lhs, rhs), (lhs.type,), attributes, (),
                       location).result

    def unary(self, name: str, operand: Value, location) -> Value:
        """Result of the operand's type: math.sqrt, arith.negf, ..."""
        return self.op(OP_NAMES.get(name, name), (operand,), (operand.type,), None, (),
                       location).result

    def cast(self, name: str, operand: Value, to: Type, location) -> Value:
        """arith.extsi, arith.index_cast, kiln.to_float, memref.cast, ..."""
        return self.op(OP_NAMES.get(name, name), (operand,), (to,), None, (), location).result

    def cmpi(self, predicate: str, lhs: Value, rhs: Value, location) -> Value:
        return self.op("arith.cmpi", (lhs, rhs), (i1,),
                       {"predicate": integer_attr(CMPI_PREDICATES[predicate])}, (),
                       location).result

    def cmpf(self, predicate: str, lhs: Value, rhs: Value, location) -> Value:
        return self.op("arith.cmpf", (lhs, rhs), (i1,),
                       {"predicate": integer_attr(CMPF_PREDICATES[predicate])}, (),
                       location).result

    def select(self, condition: Value, if_true: Value, if_false: Value, location) -> Value:
        return self.op("arith.select", (condition, if_true, if_false), (if_true.type,), None,
                       (), location).result

    def mului_extended(self, lhs: Value, rhs: Value, location):
        """(low, high) halves of the double-width product."""
        return tuple(self.op("arith.mului_extended", (lhs, rhs), (lhs.type, lhs.type), None, (),
                             location).results)

    def mulsi_extended(self, lhs: Value, rhs: Value, location):
        """(low, high) halves of the double-width signed product."""
        return tuple(self.op("arith.mulsi_extended", (lhs, rhs), (lhs.type, lhs.type), None, (),
                             location).results)

    # -------------------------------------------------------------- kiln
    def kiln_truthy(self, operand: Value, location) -> Value:
        return self.op("kiln.truthy", (operand,), (i1,), None, (), location).result

    def kiln_index(self, index_value: Value, size: Value, axis: int, nonnegative: bool,
                   unchecked: bool, location) -> Value:
        attributes = {"axis": integer_attr(axis)}
        if nonnegative:
            attributes["nonnegative"] = UNIT
        if unchecked:
            attributes["unchecked"] = UNIT
        return self.op("kiln.index", (index_value, size), (index,), attributes, (),
                       location).result

    def kiln_check(self, condition: Value, kind: str, message: str, args, location) -> None:
        self.op("kiln.check", (condition, *args), (),
                {"kind": string_attr(kind), "message": string_attr(message)}, (), location)

    def kiln_propagate_error(self, location, at_call=False) -> None:
        self.op("kiln.propagate_error", (), (), {"at_call": UNIT} if at_call else None, (),
                location)

    # ------------------------------------------------------------ memref
    def alloc(self, type_: Type, dynamic_sizes, alignment: int, attributes, location) -> Value:
        attributes = {"alignment": integer_attr(alignment), **attributes,
                      "operandSegmentSizes": dense_array_attr([len(dynamic_sizes), 0], i32)}
        return self.op("memref.alloc", dynamic_sizes, (type_,), attributes, (), location).result

    def dealloc(self, memref: Value, location) -> None:
        self.op("memref.dealloc", (memref,), (), None, (), location)

    def aligned_pointer(self, memref: Value, location) -> Value:
        return self.op("memref.extract_aligned_pointer_as_index", (memref,), (index,), None, (),
                       location).result

    def dim(self, memref: Value, axis: Value, location) -> Value:
        return self.op("memref.dim", (memref, axis), (index,), None, (), location).result

    def load(self, memref: Value, indices, location) -> Value:
        return self.op("memref.load", (memref, *indices), (memref.type.element,), None, (),
                       location).result

    def store(self, value: Value, memref: Value, indices, location) -> None:
        self.op("memref.store", (value, memref, *indices), (), None, (), location)

    def subview(self, source: Value, offsets, sizes, strides, result_type: Type,
                location) -> Value:
        """Each of offsets/sizes/strides: index values or static ints."""
        operands = [source]
        attributes = {}
        segments = [1]
        for key, entries in (("static_offsets", offsets), ("static_sizes", sizes),
                             ("static_strides", strides)):
            dynamic = [e for e in entries if isinstance(e, Value)]
            operands += dynamic
            segments.append(len(dynamic))
            attributes[key] = dense_array_attr(
                [DYNAMIC if isinstance(e, Value) else e for e in entries])
        attributes["operandSegmentSizes"] = dense_array_attr(segments, i32)
        return self.op("memref.subview", operands, (result_type,), attributes, (),
                       location).result

    # --------------------------------------------------------------- scf
    def scf_yield(self, values, location) -> None:
        self.op("scf.yield", values, (), None, (), location)

    def scf_condition(self, condition: Value, values, location) -> None:
        self.op("scf.condition", (condition, *values), (), None, (), location)

    def scf_if(self, condition: Value, result_types, then_region: Region,
               else_region: Region | None, location) -> list:
        else_region = else_region or self.region()
        return self.op("scf.if", (condition,), result_types, None, (then_region, else_region),
                       location).results

    def scf_for(self, lower: Value, upper: Value, step: Value, initial, body: Region,
                location, attributes=None) -> list:
        """`body`'s block arguments: the counter, then one per initial value."""
        return self.op("scf.for", (lower, upper, step, *initial), [v.type for v in initial],
                       attributes, (body,), location).results

    def scf_while(self, initial, before: Region, after: Region, location) -> list:
        return self.op("scf.while", initial, [v.type for v in initial], None, (before, after),
                       location).results

    # ------------------------------------------------ tensors and linalg
    # Array expressions (code_generator's ArrayExpressions): one
    # linalg.generic per operator on tensors read from views, computed into
    # a destination view; kilnc fuses and bufferizes them in place.
    def to_tensor(self, memref: Value, location) -> Value:
        """The view's elements as a tensor (`restrict`: nothing else turns
        this memref value into a tensor)."""
        result = tensor_type([None] * memref.type.rank, memref.type.element)
        return self.op("bufferization.to_tensor", (memref,), (result,), {"restrict": UNIT}, (),
                       location).result

    def materialize_in_destination(self, tensor: Value, memref: Value, location) -> None:
        self.op("bufferization.materialize_in_destination", (tensor, memref), (),
                {"restrict": UNIT, "writable": UNIT}, (), location)

    def tensor_empty(self, sizes, element: Type, location) -> Value:
        return self.op("tensor.empty", sizes, (tensor_type([None] * len(sizes), element),),
                       None, (), location).result

    def linalg_generic(self, inputs, outputs, rank: int, body: Region, location) -> list:
        """An elementwise linalg.generic: identity maps, parallel loops;
        `body`'s block arguments are one element per input and output."""
        identity = affine_map_attr(rank, list(range(rank)))
        attributes = {
            "indexing_maps": array_attr([identity] * (len(inputs) + len(outputs))),
            "iterator_types": array_attr([Attribute("#linalg.iterator_type<parallel>")] * rank),
            "operandSegmentSizes": dense_array_attr([len(inputs), len(outputs)], i32)}
        results = [o.type for o in outputs if o.type.text.startswith("tensor<")]
        return self.op("linalg.generic", (*inputs, *outputs), results, attributes, (body,),
                       location).results

    def linalg_fill(self, value: Value, init: Value, location) -> Value:
        """`init` (a tensor) filled with the number `value`."""
        return self.op("linalg.fill", (value, init), (init.type,),
                       {"operandSegmentSizes": dense_array_attr([1, 1], i32)}, (),
                       location).result

    def linalg_matmul(self, a: Value, b: Value, init: Value, location,
                      parallel: bool = False) -> Value:
        """init + a @ b, on 2-D tensors (kilnc's kiln-tile-matmul makes it a
        blocked vector kernel; `parallel`: its rows shared out between
        threads)."""
        attributes = {"operandSegmentSizes": dense_array_attr([2, 1], i32)}
        if parallel:
            attributes["kiln.parallel"] = UNIT
        return self.op("linalg.matmul", (a, b, init), (init.type,), attributes, (),
                       location).result

    def linalg_yield(self, values, location) -> None:
        self.op("linalg.yield", values, (), None, (), location)

    def extract_strided_metadata(self, memref: Value, location) -> list:
        """[base buffer, offset, sizes..., strides...] of a view."""
        rank = memref.type.rank
        types = [memref_type([], memref.type.element)] + [index] * (1 + 2 * rank)
        return self.op("memref.extract_strided_metadata", (memref,), types, None, (),
                       location).results

    def reinterpret_cast(self, base: Value, offset: Value, sizes, strides, location) -> Value:
        """A strided view of `base` with these index offset, sizes and strides."""
        rank = len(sizes)
        attributes = {"static_offsets": dense_array_attr([DYNAMIC]),
                      "static_sizes": dense_array_attr([DYNAMIC] * rank),
                      "static_strides": dense_array_attr([DYNAMIC] * rank),
                      "operandSegmentSizes": dense_array_attr([1, 1, rank, rank], i32)}
        result = memref_type([None] * rank, base.type.element, strided=True)
        return self.op("memref.reinterpret_cast", (base, offset, *sizes, *strides), (result,),
                       attributes, (), location).result

    # -------------------------------------------------------------- func
    def func(self, symbol: str, body: Region, result_types, location, private=False,
             attributes=None, argument_attributes=None) -> Operation:
        """A function (not inserted anywhere: Module.add places it) whose
        arguments are `body`'s entry block arguments. `argument_attributes`:
        position -> {name: Attribute}."""
        inputs = [a.type for a in body.block.arguments]
        attributes = {"sym_name": string_attr(symbol),
                      "function_type": type_attr(function_type(inputs, result_types)),
                      **(attributes or {})}
        if private:
            attributes["sym_visibility"] = string_attr("private")
        if argument_attributes:
            attributes["arg_attrs"] = array_attr([
                dictionary_attr(argument_attributes.get(k, {})) for k in range(len(inputs))])
        operation = Operation("func.func", [], attributes, [body], location)
        problem = terminated(body.block, "func.return", list(result_types), "the body")
        if problem:
            self.fail(f"`func.func @{symbol}` {problem}", "func.func", (), (), attributes,
                      location, operation)
        return operation

    def func_declaration(self, symbol: str, inputs, results) -> Operation:
        """An external function (libm): a private func.func without a body."""
        attributes = {"sym_name": string_attr(symbol),
                      "function_type": type_attr(function_type(inputs, results)),
                      "sym_visibility": string_attr("private")}
        return Operation("func.func", [], attributes, [Region([])], UNKNOWN_LOCATION)

    def call(self, symbol: str, operands, result_types, location, attributes=None) -> list:
        return self.op("func.call", operands, result_types,
                       {"callee": symbol_ref(symbol), **(attributes or {})}, (),
                       location).results

    def func_return(self, values, location) -> None:
        self.op("func.return", values, (), None, (), location)


class Module:
    """The module and its symbol table: one function per symbol."""

    def __init__(self, location: Location):
        self.location = location
        self.functions = []
        self.symbols = {}

    def add(self, function: Operation) -> None:
        symbol = function_symbol(function)
        if symbol in self.symbols:
            raise IRError(f"symbol @{symbol} is defined twice")
        self.symbols[symbol] = function
        self.functions.append(function)

    def __contains__(self, symbol: str) -> bool:
        return symbol in self.symbols

    def print(self) -> str:
        printer = Printer()
        printer.lines.append("module {")
        for function in self.functions:
            printer.print_op(function, 1)
        printer.lines.append("} " + self.location.text)
        return "\n".join(printer.lines) + "\n"


def function_symbol(function: Operation) -> str:
    return _unquote(function.attributes["sym_name"].text)


def _unquote(text: str) -> str:
    inner = text[1:-1]
    return re.sub(r"\\([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), inner) \
        if "\\" in inner else inner


# ----------------------------------------------------------------- printer
def dictionary_text(attributes) -> str:
    entries = [name if attribute is UNIT else f"{name} = {attribute.text}"
               for name, attribute in attributes.items()]
    return "{" + ", ".join(entries) + "}"


class Printer:
    """MLIR text: custom forms where known, the generic form otherwise.
    Names every value: `%N` for op results (`%N#k` of multi-result ops),
    `%argN` for block arguments, numbered per function."""

    def __init__(self, lenient=False):
        self.lines = []
        self.lenient = lenient
        self.reset_names()

    def reset_names(self):
        self.next_result = 0
        self.next_argument = 0

    def use(self, value: Value) -> str:
        if value.name is None:
            if self.lenient:
                return "%<undefined>"
            raise IRError(f"a {value.type.text} value is used but never defined")
        return value.name

    def uses(self, values) -> str:
        return ", ".join(self.use(v) for v in values)

    def name_results(self, op) -> str:
        """Names the results; returns the `%N = ` / `%N:k = ` prefix."""
        count = len(op.results)
        if not count:
            return ""
        base = f"%{self.next_result}"
        self.next_result += 1
        if count == 1:
            op.results[0].name = base
            return base + " = "
        for k, value in enumerate(op.results):
            value.name = f"{base}#{k}"
        return f"{base}:{count} = "

    def block_arguments(self, block) -> list:
        names = []
        for value in block.arguments:
            value.name = f"%arg{self.next_argument}"
            self.next_argument += 1
            names.append(value.name)
        return names

    def body(self, block, depth):
        for op in block.operations:
            self.print_op(op, depth)

    def print_op(self, op, depth, generic=False):
        form = None if generic else CUSTOM_FORMS.get(op.name)
        if form is None:
            self.generic(op, depth)
        else:
            form(self, op, depth)

    def line(self, depth, text, op=None):
        suffix = f" {op.location.text}" if op is not None else ""
        self.lines.append("  " * depth + text + suffix)

    def extra_attributes(self, op, inherent=()) -> str:
        extra = {k: v for k, v in op.attributes.items() if k not in inherent}
        return f" {dictionary_text(extra)}" if extra else ""

    def generic(self, op, depth):
        prefix = self.name_results(op)
        head = f'{prefix}"{op.name}"({self.uses(op.operands)})'
        types = (f" : ({', '.join(v.type.text for v in op.operands)}) -> "
                 f"{_result_types([v.type for v in op.results]) if op.results else '()'}")
        attributes = self.extra_attributes(op)
        if not op.regions:
            self.line(depth, head + attributes + types, op)
            return
        self.line(depth, head + " ({")
        for position, region in enumerate(op.regions):
            if position:
                self.line(depth, "}, {")
            for block in region.blocks:
                names = self.block_arguments(block)
                arguments = ", ".join(f"{n}: {v.type.text}"
                                      for n, v in zip(names, block.arguments))
                self.line(depth, f"^bb0({arguments}):" if arguments else "^bb0:")
                self.body(block, depth + 1)
        self.line(depth, "})" + attributes + types, op)


def _print_constant(p, op, depth):
    p.line(depth, f"{p.name_results(op)}arith.constant {op.attributes['value'].text}", op)


def _print_binary(p, op, depth):
    flags = ""
    fastmath = op.attributes.get("fastmath")
    if fastmath is not None:
        flags = " " + fastmath.text.removeprefix("#arith.")
    others = {k: v for k, v in op.attributes.items() if k != "fastmath"}
    if others:
        flags += " " + dictionary_text(others)
    p.line(depth, f"{p.name_results(op)}{op.name} {p.uses(op.operands)}{flags} : "
                  f"{op.results[0].type.text}", op)


def _print_unary(p, op, depth):
    p.line(depth, f"{p.name_results(op)}{op.name} {p.use(op.operands[0])} : "
                  f"{op.operands[0].type.text}", op)


def _print_cast(p, op, depth):
    p.line(depth, f"{p.name_results(op)}{op.name} {p.use(op.operands[0])} : "
                  f"{op.operands[0].type.text} to {op.results[0].type.text}", op)


def _print_compare(p, op, depth):
    names = _CMPI_NAMES if op.name == "arith.cmpi" else _CMPF_NAMES
    predicate = names[op.attributes["predicate"].value]
    p.line(depth, f"{p.name_results(op)}{op.name} {predicate}, {p.uses(op.operands)} : "
                  f"{op.operands[0].type.text}", op)


def _print_linalg_named(p, op, depth):
    """linalg.fill / linalg.matmul on tensors (destination-passing style)."""
    inputs, outputs = op.operands[:-1], op.operands[-1:]
    flags = " {kiln.parallel}" if "kiln.parallel" in op.attributes else ""
    p.line(depth, f"{p.name_results(op)}{op.name}{flags} ins({p.uses(inputs)} : "
                  f"{', '.join(v.type.text for v in inputs)}) outs({p.uses(outputs)} : "
                  f"{outputs[0].type.text}) -> {op.results[0].type.text}", op)


def _print_select(p, op, depth):
    p.line(depth, f"{p.name_results(op)}arith.select {p.uses(op.operands)} : "
                  f"{op.results[0].type.text}", op)


def _print_mului_extended(p, op, depth):
    p.line(depth, f"{p.name_results(op)}arith.mului_extended {p.uses(op.operands)} : "
                  f"{op.operands[0].type.text}", op)


def _print_kiln_index(p, op, depth):
    p.line(depth, f"{p.name_results(op)}kiln.index {p.uses(op.operands)}"
                  f"{p.extra_attributes(op)} : i64 -> index", op)


def _print_kiln_check(p, op, depth):
    args = f" ({p.uses(op.operands[1:])})" if len(op.operands) > 1 else ""
    p.line(depth, f"kiln.check {p.use(op.operands[0])}, {op.attributes['kind'].text}, "
                  f"{op.attributes['message'].text}{args}"
                  f"{p.extra_attributes(op, ('kind', 'message'))}", op)


def _print_no_operands(p, op, depth):
    p.line(depth, op.name + p.extra_attributes(op), op)


def _print_memref_unary(p, op, depth):
    """memref.dealloc %m : T; ...extract_aligned_pointer_as_index %m : T -> index."""
    arrow = f" -> {op.results[0].type.text}" if op.results else ""
    p.line(depth, f"{p.name_results(op)}{op.name} {p.use(op.operands[0])} : "
                  f"{op.operands[0].type.text}{arrow}", op)


def _print_alloc(p, op, depth):
    p.line(depth, f"{p.name_results(op)}memref.alloc({p.uses(op.operands)})"
                  f"{p.extra_attributes(op, ('operandSegmentSizes',))} : "
                  f"{op.results[0].type.text}", op)


def _print_dim(p, op, depth):
    p.line(depth, f"{p.name_results(op)}memref.dim {p.uses(op.operands)} : "
                  f"{op.operands[0].type.text}", op)


def _print_load(p, op, depth):
    memref = op.operands[0]
    p.line(depth, f"{p.name_results(op)}memref.load {p.use(memref)}"
                  f"[{p.uses(op.operands[1:])}] : {memref.type.text}", op)


def _print_store(p, op, depth):
    value, memref = op.operands[0], op.operands[1]
    p.line(depth, f"memref.store {p.use(value)}, {p.use(memref)}"
                  f"[{p.uses(op.operands[2:])}] : {memref.type.text}", op)


def _print_subview(p, op, depth):
    dynamic = iter(op.operands[1:])
    lists = []
    for key in ("static_offsets", "static_sizes", "static_strides"):
        lists.append(", ".join(p.use(next(dynamic)) if s == DYNAMIC else str(s)
                               for s in op.attributes[key].value))
    p.line(depth, f"{p.name_results(op)}memref.subview {p.use(op.operands[0])}"
                  f"[{lists[0]}] [{lists[1]}] [{lists[2]}] : {op.operands[0].type.text} to "
                  f"{op.results[0].type.text}", op)


def _print_yield(p, op, depth):
    values = ""
    if op.operands:
        values = f" {p.uses(op.operands)} : {', '.join(v.type.text for v in op.operands)}"
    p.line(depth, op.name + values, op)


def _print_condition(p, op, depth):
    forwarded = op.operands[1:]
    values = ""
    if forwarded:
        values = f" {p.uses(forwarded)} : {', '.join(v.type.text for v in forwarded)}"
    p.line(depth, f"scf.condition({p.use(op.operands[0])}){values}", op)


def _results_arrow(op) -> str:
    return f" -> ({', '.join(v.type.text for v in op.results)})" if op.results else ""


def _print_if(p, op, depth):
    prefix = p.name_results(op)
    p.line(depth, f"{prefix}scf.if {p.use(op.operands[0])}{_results_arrow(op)} {{")
    then_block, else_block = op.regions[0].block, op.regions[1].block
    p.body(then_block, depth + 1)
    if else_block.operations or op.results:
        p.line(depth, "} else {")
        p.body(else_block, depth + 1)
    p.line(depth, "}" + p.extra_attributes(op), op)


def _print_for(p, op, depth):
    prefix = p.name_results(op)
    block = op.regions[0].block
    names = p.block_arguments(block)
    lower, upper, step = op.operands[:3]
    iter_args = ""
    if op.results:
        pairs = ", ".join(f"{n} = {p.use(v)}" for n, v in zip(names[1:], op.operands[3:]))
        iter_args = f" iter_args({pairs}){_results_arrow(op)}"
    counter_type = "" if lower.type is index else f" : {lower.type.text}"
    p.line(depth, f"{prefix}scf.for {names[0]} = {p.use(lower)} to {p.use(upper)} step "
                  f"{p.use(step)}{iter_args}{counter_type} {{")
    p.body(block, depth + 1)
    p.line(depth, "}" + p.extra_attributes(op), op)


def _print_while(p, op, depth):
    prefix = p.name_results(op)
    before, after = op.regions[0].block, op.regions[1].block
    names = p.block_arguments(before)
    types = ", ".join(v.type.text for v in op.operands)
    if op.operands:
        inits = ", ".join(f"{n} = {p.use(v)}" for n, v in zip(names, op.operands))
        head = f"{prefix}scf.while ({inits}) : ({types}) -> ({types}) {{"
    else:
        head = "scf.while : () -> () {"
    p.line(depth, head)
    p.body(before, depth + 1)
    p.line(depth, "} do {")
    after_names = p.block_arguments(after)
    arguments = ", ".join(f"{n}: {v.type.text}" for n, v in zip(after_names, after.arguments))
    p.line(depth, f"^bb0({arguments}):" if arguments else "^bb0:")
    p.body(after, depth + 1)
    p.line(depth, "}" + p.extra_attributes(op), op)


def _print_func(p, op, depth):
    p.reset_names()
    attributes = op.attributes
    symbol = symbol_ref(function_symbol(op)).text
    private = "private " if "sym_visibility" in attributes else ""
    inputs, results = attributes["function_type"].value.signature
    arrow = f" -> {_result_types(results)}" if results else ""
    extra = {k: v for k, v in attributes.items() if k not in (
        "sym_name", "function_type", "sym_visibility", "arg_attrs")}
    trailer = f" attributes {dictionary_text(extra)}" if extra else ""
    region = op.regions[0]
    if not region.blocks:   # a declaration
        p.line(depth, f"func.func {private}{symbol}({', '.join(t.text for t in inputs)})"
                      f"{arrow}{trailer}")
        return
    block = region.block
    names = p.block_arguments(block)
    argument_attributes = []
    if "arg_attrs" in attributes:
        argument_attributes = [a.text for a in attributes["arg_attrs"].value]
    arguments = []
    for position, (name, value) in enumerate(zip(names, block.arguments)):
        extra_text = ""
        if position < len(argument_attributes) and argument_attributes[position] != "{}":
            extra_text = " " + argument_attributes[position]
        arguments.append(f"{name}: {value.type.text}{extra_text}")
    p.line(depth, f"func.func {private}{symbol}({', '.join(arguments)}){arrow}{trailer} {{")
    p.body(block, depth + 1)
    p.line(depth, "}", op)


def _print_call(p, op, depth):
    callee = op.attributes["callee"].text
    inputs = ", ".join(v.type.text for v in op.operands)
    outputs = ", ".join(v.type.text for v in op.results)
    p.line(depth, f"{p.name_results(op)}func.call {callee}({p.uses(op.operands)})"
                  f"{p.extra_attributes(op, ('callee',))} : ({inputs}) -> ({outputs})", op)


def _print_return(p, op, depth):
    values = ""
    if op.operands:
        values = f" {p.uses(op.operands)} : {', '.join(v.type.text for v in op.operands)}"
    p.line(depth, "func.return" + values, op)


CUSTOM_FORMS = {"arith.constant": _print_constant, "arith.cmpi": _print_compare,
                "arith.cmpf": _print_compare, "arith.select": _print_select,
                "arith.mului_extended": _print_mului_extended,
                "kiln.index": _print_kiln_index, "kiln.check": _print_kiln_check,
                "kiln.propagate_error": _print_no_operands,
                "memref.dealloc": _print_memref_unary,
                "memref.extract_aligned_pointer_as_index": _print_memref_unary,
                "memref.alloc": _print_alloc, "memref.dim": _print_dim,
                "memref.load": _print_load, "memref.store": _print_store,
                "memref.subview": _print_subview, "scf.yield": _print_yield,
                "scf.condition": _print_condition, "scf.if": _print_if, "scf.for": _print_for,
                "scf.while": _print_while, "func.func": _print_func, "func.call": _print_call,
                "func.return": _print_return, "linalg.fill": _print_linalg_named,
                "linalg.matmul": _print_linalg_named}
CUSTOM_FORMS.update({name: _print_binary for name in BINARY_OPS})
CUSTOM_FORMS.update({name: _print_unary for name in UNARY_OPS + ["kiln.truthy"]})
CUSTOM_FORMS.update({name: _print_cast for name in CAST_OPS})
