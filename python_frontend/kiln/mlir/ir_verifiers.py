"""The checks ir_builder.Builder makes while building: what kilnc's
verifier would reject and the code generator could get wrong, per op name
(`VERIFIERS`), and the op tables the builder's convenience methods and
printer read (`BINARY_OPS`, `UNARY_OPS`, `CAST_OPS`, `OP_NAMES`).

Types are compared by their text: ir_builder interns every type by it.
"""

from __future__ import annotations

import re

from .. import library_functions

# Each returns what is wrong with an op (a phrase), or None. They check
# what kilnc's verifier would reject and the generator could get wrong.

def _same_types(op):
    lhs, rhs = op.operands
    if lhs.type is not rhs.type or op.results[0].type is not lhs.type:
        return (f"needs operands and result of one type, got {lhs.type.text}, {rhs.type.text} "
                f"-> {op.results[0].type.text}")
    return None


def _same_type_unary(op):
    if op.operands[0].type is not op.results[0].type:
        return f"needs its result of the operand's type {op.operands[0].type.text}"
    return None


def _comparison(op):
    lhs, rhs = op.operands
    if lhs.type is not rhs.type:
        return f"compares values of different types {lhs.type.text} and {rhs.type.text}"
    return None


def _select(op):
    condition, a, b = op.operands
    if condition.type.text != "i1":
        return f"needs an i1 condition, not {condition.type.text}"
    if a.type is not b.type:
        return f"selects between different types {a.type.text} and {b.type.text}"
    return None


def _check(op):
    if op.operands[0].type.text != "i1":
        return f"needs an i1 condition, not {op.operands[0].type.text}"
    if any(arg.type.text != "i64" for arg in op.operands[1:]):
        return "takes only i64 message arguments"
    return None


def _kiln_index(op):
    if any(v.type.text != "i64" for v in op.operands):
        return "needs i64 index and size"
    return None


def _indexing(op, memref, indices):
    if memref.type.rank is None:
        return f"needs a memref, not {memref.type.text}"
    if len(indices) != memref.type.rank:
        return f"indexes a rank-{memref.type.rank} memref with {len(indices)} indices"
    if any(i.type.text != "index" for i in indices):
        return "needs index-typed subscripts"
    return None


def _load(op):
    return _indexing(op, op.operands[0], op.operands[1:])


def _store(op):
    value, memref = op.operands[0], op.operands[1]
    problem = _indexing(op, memref, op.operands[2:])
    if problem is None and value.type is not memref.type.element:
        problem = f"stores a {value.type.text} into a memref of {memref.type.element.text}"
    return problem


def _types(values) -> list:
    return [v.type for v in values]


def _texts(types) -> str:
    return "(" + ", ".join(t.text for t in types) + ")"


def terminated(block, name, types, what):
    """None when `block` ends in `name` with operands of `types`."""
    end = block.terminator
    if end is None or end.name != name:
        return f"{what} does not end in {name}"
    operands = end.operands[1:] if name == "scf.condition" else end.operands
    if _types(operands) != list(types):
        return f"{what} ends in {name} of {_texts(_types(operands))}, expected {_texts(types)}"
    return None


def _scf_if(op):
    if op.operands[0].type.text != "i1":
        return f"needs an i1 condition, not {op.operands[0].type.text}"
    types = _types(op.results)
    for region, what in zip(op.regions, ("the then region", "the else region")):
        block = region.block
        if types or (block.terminator is not None and block.terminator.name == "scf.yield"):
            problem = terminated(block, "scf.yield", types, what)
            if problem:
                return problem
    return None


def _scf_for(op):
    lower, upper, step = op.operands[:3]
    initial = _types(op.operands[3:])
    arguments = _types(op.regions[0].block.arguments)
    if not lower.type is upper.type is step.type or arguments[:1] != [lower.type]:
        return "needs bounds, step and counter of one type"
    if arguments[1:] != initial:
        return f"has iter_args of {_texts(arguments[1:])} for initial values {_texts(initial)}"
    block = op.regions[0].block
    if initial or (block.terminator is not None and block.terminator.name == "scf.yield"):
        return terminated(block, "scf.yield", initial, "the body")
    return None


def _linalg_generic(op):
    block = op.regions[0].block
    elements = [v.type.element for v in op.operands]
    if _types(block.arguments) != elements:
        return (f"has block arguments {_texts(_types(block.arguments))} for operand elements "
                f"{_texts(elements)}")
    outputs = op.attributes["operandSegmentSizes"].value[1]
    return terminated(block, "linalg.yield", elements[len(elements) - outputs:], "the body")


def _scf_while(op):
    types = _types(op.operands)
    before, after = op.regions[0].block, op.regions[1].block
    if _types(before.arguments) != types:
        return f"has before-region arguments {_texts(_types(before.arguments))} for initial " \
               f"values {_texts(types)}"
    end = before.terminator
    if end is None or end.name != "scf.condition" or end.operands[0].type.text != "i1":
        return "has a before region that does not end in scf.condition of an i1"
    forwarded = _types(end.operands[1:])
    if forwarded != _types(after.arguments) or forwarded != _types(op.results):
        return f"forwards {_texts(forwarded)} to arguments {_texts(_types(after.arguments))} " \
               f"and results {_texts(_types(op.results))}"
    return terminated(after, "scf.yield", types, "the after region")


BINARY_OPS = ("arith.addi arith.subi arith.muli arith.andi arith.ori arith.xori arith.maxsi "
           "arith.minsi arith.maxui arith.minui arith.shli arith.shrsi arith.shrui arith.divui "
           "arith.divsi arith.remui arith.remsi arith.ceildivsi arith.ceildivui arith.addf arith.subf arith.mulf "
           "arith.divf arith.remf arith.maximumf arith.minimumf kiln.floordiv kiln.mod "
           "kiln.pow math.atan2 math.copysign math.powf").split()
UNARY_OPS = ("math.absf math.absi math.sqrt math.exp math.log math.log2 math.log10 math.sin "
          "math.cos math.tan math.asin math.acos math.atan math.sinh math.cosh math.tanh "
          "math.asinh math.floor math.ceil math.trunc math.roundeven arith.negf").split()
# The library registry's one-operand math ops (np.cbrt is math.cbrt): a
# function added there needs nothing here.
UNARY_OPS += sorted({f"math.{f.lowering}" for f in library_functions.NUMPY_FLOAT_FUNCTIONS.values()
                  if f.arity == 1 and not f.lowering.startswith("@")} - set(UNARY_OPS))
CAST_OPS = ("arith.extui arith.extsi arith.trunci arith.uitofp arith.sitofp arith.extf "
          "arith.truncf arith.fptosi arith.fptoui arith.index_cast kiln.to_float memref.cast").split()

# The ops the convenience methods know, by mnemonic: `binary("addf", ...)`
# is arith.addf (the mnemonics of these ops are unique across their
# dialects). Any op can also be named in full.
OP_NAMES = {name.split(".", 1)[1]: name for name in BINARY_OPS + UNARY_OPS + CAST_OPS}


def element_kind(type_: Type):
    """"int" (signless integers and index), "float" or "complex": the kind
    of a scalar type or of a vector's or tensor's elements (what arith's
    `signless-integer-like` and `floating-point-like` constraints read);
    None for anything else."""
    text = type_.text
    shaped = re.fullmatch(r"(?:vector|tensor)<(?:[0-9?]+x)+(.+)>", text)
    if shaped:
        text = shaped.group(1)
    if text in ("f16", "bf16", "f32", "f64"):
        return "float"
    if text == "index" or re.fullmatch(r"i\d+", text):
        return "int"
    if text.startswith("complex<"):
        return "complex"
    return None


def _of_kind(kind, verifier=None):
    """A verifier: `verifier`'s rules, then every operand of `kind` (an
    integer op of floats, arith.mulf of i1 bools: kilnc would reject both)."""
    def verify(op):
        problem = verifier(op) if verifier is not None else None
        if problem:
            return problem
        for position, operand in enumerate(op.operands):
            if element_kind(operand.type) != kind:
                return f"needs {kind} operands, but operand #{position} is {operand.type.text}"
        return None
    return verify


def _cast_of_kinds(source, target):
    """A verifier for a cast from `source`-kind values to `target`-kind ones."""
    def verify(op):
        if element_kind(op.operands[0].type) != source or \
                element_kind(op.results[0].type) != target:
            return (f"casts {source} to {target}, not {op.operands[0].type.text} to "
                    f"{op.results[0].type.text}")
        return None
    return verify


# The operand kind of each op (arith's and math's operand constraints).
_INTEGER_OPS = {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
                "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
                "arith.shli", "arith.shrsi", "arith.shrui", "arith.divui", "arith.divsi",
                "arith.remui", "arith.remsi", "arith.ceildivsi", "arith.ceildivui",
                "math.absi"}
_FLOAT_OPS = ({"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf",
               "arith.maximumf", "arith.minimumf", "math.atan2", "math.copysign", "math.powf"}
              | {name for name in UNARY_OPS if name != "math.absi"})
_CAST_KINDS = {"arith.extui": ("int", "int"), "arith.extsi": ("int", "int"),
               "arith.trunci": ("int", "int"), "arith.uitofp": ("int", "float"),
               "arith.sitofp": ("int", "float"), "arith.extf": ("float", "float"),
               "arith.truncf": ("float", "float"), "arith.fptosi": ("float", "int"),
               "arith.fptoui": ("float", "int"), "arith.index_cast": ("int", "int")}

VERIFIERS = {name: _same_types for name in BINARY_OPS}
VERIFIERS.update({name: _same_type_unary for name in UNARY_OPS})
VERIFIERS.update({"arith.cmpi": _comparison, "arith.cmpf": _comparison,
                  "arith.select": _select, "kiln.check": _check, "kiln.index": _kiln_index,
                  "memref.load": _load, "memref.store": _store, "scf.if": _scf_if,
                  "scf.for": _scf_for, "scf.while": _scf_while,
                  "linalg.generic": _linalg_generic})
for _name in _INTEGER_OPS | {"arith.cmpi", "arith.mului_extended", "arith.mulsi_extended"}:
    VERIFIERS[_name] = _of_kind("int", VERIFIERS.get(_name))
for _name in _FLOAT_OPS | {"arith.cmpf"}:
    VERIFIERS[_name] = _of_kind("float", VERIFIERS.get(_name))
VERIFIERS.update({name: _cast_of_kinds(*kinds) for name, kinds in _CAST_KINDS.items()})
