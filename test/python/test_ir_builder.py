"""The MLIR builder (python_frontend/kiln/mlir/ir_builder.py): ops the
frontend does not use yet print in MLIR's generic form and verify with
upstream mlir-opt; what would not verify is an IRError while building; a
generator bug caught that way is an internal compiler error of one
function, named with its stage and with the IR saved, and that function
runs as Python."""

import os
import re
import subprocess
import textwrap

import pytest

from conftest import import_from
from kiln.mlir import code_generator
from kiln.mlir import ir_builder as ir
from kiln.compiler.compiler import build

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"


def add_function(symbol, argument_types, build_body):
    """A module with one function whose body `build_body(builder, args)` makes."""
    entry = ir.Block(argument_types)
    builder = ir.Builder(entry)
    build_body(builder, entry.arguments)
    builder.func_return([], ir.UNKNOWN_LOCATION)
    module = ir.Module(ir.file_location("test.py", 1, 1))
    module.add(builder.func(symbol, ir.Region([entry]), [], ir.UNKNOWN_LOCATION))
    return module


@pytest.mark.skipif(not os.path.exists(MLIR_OPT), reason="needs upstream mlir-opt (linalg)")
def test_linalg_generic_through_the_general_op_verifies():
    """out[i, j] = x[j, i] + 1.0: indexing maps, iterator types and a body
    region with block arguments, all through Builder.op()."""
    matrix = ir.memref_type([4, 3], ir.f64)
    transposed = ir.memref_type([3, 4], ir.f64)
    location = ir.file_location("test.py", 2, 5)

    def body(builder, args):
        x, out = args
        region = builder.region([ir.f64, ir.f64])
        with builder.at_end(region.block):
            element, _ = region.block.arguments
            one = builder.float_constant(1.0, ir.f64, location)
            total = builder.binary("arith.addf", element, one, location)
            builder.op("linalg.yield", [total], location=location)
        parallel = ir.enum_attr("linalg", "iterator_type", "parallel")
        builder.op("linalg.generic", [x, out], [], {
            "indexing_maps": ir.array_attr([ir.affine_map_attr(2, [1, 0]),
                                            ir.affine_map_attr(2, [0, 1])]),
            "iterator_types": ir.array_attr([parallel, parallel]),
            "operandSegmentSizes": ir.dense_array_attr([1, 1], ir.i32)}, [region], location)

    text = add_function("transpose_add", [matrix, transposed], body).print()
    assert '"linalg.generic"(%arg0, %arg1) ({' in text
    assert "^bb0(%arg2: f64, %arg3: f64):" in text
    checked = subprocess.run([MLIR_OPT, "--verify-diagnostics", "-"], input=text,
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr + text
    assert "linalg.generic" in checked.stdout and "arith.addf" in checked.stdout


def test_a_dangling_value_is_an_error_while_building():
    def body(builder, args):
        inner = builder.region()
        with builder.at_end(inner.block):
            hidden = builder.index_constant(1, ir.UNKNOWN_LOCATION)
        builder.scf_if(builder.integer_constant(1, ir.i1, ir.UNKNOWN_LOCATION), [], inner, None,
                       ir.UNKNOWN_LOCATION)
        builder.binary("arith.addi", hidden, hidden, ir.UNKNOWN_LOCATION)

    with pytest.raises(ir.IRError, match="dangling value") as error:
        add_function("dangling", [], body)
    assert "// offending operation:" in error.value.ir_text
    assert "arith.addi" in error.value.ir_text


@pytest.mark.parametrize("make, message", [
    (lambda b, x, y: b.binary("arith.addf", x, y, ir.UNKNOWN_LOCATION), "of one type"),
    (lambda b, x, y: b.select(x, x, x, ir.UNKNOWN_LOCATION), "i1 condition"),
    (lambda b, x, y: b.cmpf("olt", x, y, ir.UNKNOWN_LOCATION), "different types"),
    (lambda b, x, y: b.store(x, x, [], ir.UNKNOWN_LOCATION), "needs a memref"),
])
def test_wrongly_typed_ops_are_errors_while_building(make, message):
    with pytest.raises(ir.IRError, match=message):
        add_function("typed", [ir.f64, ir.f32], lambda b, args: make(b, *args))


@pytest.mark.parametrize("make, message", [
    # what numpy-style code once handed kilnc: np.outer of bool arrays
    (lambda b, f, i, m: b.binary("arith.mulf", m, m, ir.UNKNOWN_LOCATION),
     "`arith.mulf` needs float operands, but operand #0 is i1"),
    (lambda b, f, i, m: b.binary("arith.addi", f, f, ir.UNKNOWN_LOCATION),
     "`arith.addi` needs int operands, but operand #0 is f64"),
    (lambda b, f, i, m: b.cmpi("slt", f, f, ir.UNKNOWN_LOCATION), "needs int operands"),
    (lambda b, f, i, m: b.cmpf("olt", i, i, ir.UNKNOWN_LOCATION), "needs float operands"),
    (lambda b, f, i, m: b.unary("math.sqrt", i, ir.UNKNOWN_LOCATION), "needs float operands"),
    (lambda b, f, i, m: b.cast("sitofp", f, ir.f32, ir.UNKNOWN_LOCATION),
     "casts int to float, not f64 to f32"),
    (lambda b, f, i, m: b.cast("extf", f, ir.i64, ir.UNKNOWN_LOCATION), "casts float to float"),
])
def test_operands_of_the_wrong_kind_are_errors_while_building(make, message):
    """arith's and math's operand constraints (floating-point-like,
    signless-integer-like), which kilnc's verifier would enforce."""
    with pytest.raises(ir.IRError, match=re.escape(message)):
        add_function("kinds", [ir.f64, ir.i64, ir.i1], lambda b, args: make(b, *args))


def test_vectors_and_index_values_are_of_their_kind():
    def body(builder, args):
        vector, count = args
        builder.binary("arith.mulf", vector, vector, ir.UNKNOWN_LOCATION)
        builder.binary("arith.addi", count, count, ir.UNKNOWN_LOCATION)

    text = add_function("shaped", [ir.Type("vector<2xf32>"), ir.index], body).print()
    assert "arith.mulf" in text and "arith.addi" in text


def test_region_terminators_must_match_results():
    def body(builder, args):
        flag = builder.integer_constant(1, ir.i1, ir.UNKNOWN_LOCATION)
        then, otherwise = builder.region(), builder.region()
        for region, value in ((then, args[0]), (otherwise, args[1])):
            with builder.at_end(region.block):
                builder.scf_yield([value], ir.UNKNOWN_LOCATION)
        builder.scf_if(flag, [ir.f64], then, otherwise, ir.UNKNOWN_LOCATION)

    with pytest.raises(ir.IRError, match=r"else region ends in scf.yield of \(i64\)"):
        add_function("branches", [ir.f64, ir.i64], body)


def test_names_are_the_builders_own():
    def body(builder, args):
        builder.binary("arith.addi", args[0], args[0], ir.UNKNOWN_LOCATION)

    text = add_function("names", [ir.i64], body).print()
    assert re.findall(r"%[\w#]+", text) == ["%arg0", "%0", "%arg0", "%arg0"]


MODULE = textwrap.dedent("""\
    import kiln


    @kiln.export
    def scaled(x: float, k: float) -> float:
        return x * k


    @kiln.export
    def shifted(x: float) -> float:
        return x + 1.0
    """)


def test_invalid_ir_from_the_generator_is_an_internal_error_of_one_function(
        tmp_path, monkeypatch):
    """A deliberately broken builder call: `*` on floats makes an i64
    result. The function falls back with an internal compiler error that
    names it and the stage, and saves its IR; the rest of the module
    compiles."""
    monkeypatch.delenv("KILN_DEBUG", raising=False)
    original = ir.Builder.binary

    def broken_binary(self, name, lhs, rhs, location, fastmath=None):
        if ir.OP_NAMES.get(name, name) == "arith.mulf":
            return self.op("arith.mulf", (lhs, rhs), (ir.i64,), None, (), location).result
        return original(self, name, lhs, rhs, location, fastmath)

    monkeypatch.setattr(ir.Builder, "binary", broken_binary)
    source = tmp_path / "brokenir.py"
    source.write_text(MODULE)
    out = tmp_path / "out"
    result = build(str(source), str(out))
    assert [s.name for s in result.signatures] == ["shifted"]
    [fallback] = result.fallbacks
    reason = fallback["reason"]
    # at the expression the broken op was built for, not at the `def`
    assert fallback["function"] == "scaled" and fallback["line"] == 6
    assert reason.startswith("internal compiler error in `scaled` during MLIR generation: "
                             "the generated MLIR is invalid: `arith.mulf` needs operands and "
                             "result of one type")
    assert "kilnc" not in reason
    saved = re.search(r"the IR is saved in (\S+\.mlir)", reason).group(1)
    try:
        dump = open(saved, encoding="utf-8").read()
        assert '"arith.mulf"' in dump and "-> i64" in dump
    finally:
        os.remove(saved)
    native = import_from(str(out / "brokenir.py"), "kiln_built_brokenir")
    assert native.scaled(1.5, 4.0) == 6.0 and native.shifted(1.5) == 2.5


def test_invalid_ir_in_an_array_kernel_is_an_internal_error(tmp_path, monkeypatch):
    """The @kiln.vectorize array kernel is built through the builder too."""
    monkeypatch.delenv("KILN_DEBUG", raising=False)

    def broken_store(self, value, memref, indices, location):
        self.op("memref.store", (value, memref, *indices[:-1]), (), None, (), location)

    monkeypatch.setattr(ir.Builder, "store", broken_store)
    source = tmp_path / "brokenkernel.py"
    source.write_text("import kiln\n\n\n@kiln.vectorize\ndef twice(x: float) -> float:\n"
                      "    return 2.0 * x\n")
    from kiln.frontend.source import load_module

    context = load_module(str(source))
    _, signatures, failures = code_generator.generate_module(context,
                                                             context.exported_functions())
    assert signatures == []
    message = str(failures["twice"])
    assert "internal compiler error in `twice` during MLIR generation" in message
    assert "indexes a rank-3 memref with 2 indices" in message
    os.remove(re.search(r"the IR is saved in (\S+\.mlir)", message).group(1))
