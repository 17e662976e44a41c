"""The dtype table end to end: every integer dtype and kiln.b1 against
numpy on edge values (0, 1, max, min, unsigned wraparound), through views
and negative strides; numpy's promotion for every pair of the table; NEP 50
literals; shifts; wrong arguments. The module under test is generated from
`kiln.typesystem.DTYPES`, so a dtype added to the table is tested here, and
a stage that kept its own list of dtypes fails to build or to match."""

import itertools
import os
import warnings

import numpy as np
import pytest

from conftest import import_from, kiln_build
from kiln import typesystem as kt
from kiln import typing_rules as rules

INTS = [t for t in kt.DTYPES if t.is_int]
OPS = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%", "shl": "<<",
       "shr": ">>", "pow": "**"}


def kernel_source():
    lines = ["import kiln", "import numpy as np", ""]
    for t in INTS:
        for name, symbol in OPS.items():
            lines += ["@kiln.export",
                      f"def {name}_{t.name}(x: kiln.{t.name}[:], y: kiln.{t.name}[:], "
                      f"out: kiln.{t.name}[:]) -> None:",
                      "    for i in range(len(x)):",
                      f"        out[i] = x[i] {symbol} y[i]", ""]
        lines += ["@kiln.export",
                  f"def less_{t.name}(a: kiln.{t.name}, b: kiln.{t.name}) -> bool:",
                  "    return a < b", "",
                  "@kiln.export",
                  f"def scalar_add_{t.name}(a: kiln.{t.name}, b: kiln.{t.name}) -> kiln.{t.name}:",
                  "    return a + b", "",
                  "@kiln.export",
                  f"def literal_add_{t.name}(a: kiln.{t.name}) -> kiln.{t.name}:",
                  "    return a + 100", "",
                  "@kiln.export",
                  f"def zeros_{t.name}(n: int) -> kiln.{t.name}[:]:",
                  f"    return np.zeros(n, dtype=np.{t.numpy_name})", ""]
    for a, b in itertools.product(INTS, INTS):
        result = rules.promote(a, b)
        if result.is_int:
            lines += ["@kiln.export",
                      f"def mixed_{a.name}_{b.name}(a: kiln.{a.name}, b: kiln.{b.name}) -> "
                      f"kiln.{result.name}:",
                      "    return a + b", ""]
    lines += ["@kiln.export",
              "def count_true(x: kiln.b1[:]) -> int:",
              "    c = 0",
              "    for i in range(len(x)):",
              "        if x[i]:",
              "            c += 1",
              "    return c", "",
              "@kiln.export",
              "def negate_all(x: kiln.b1[:]) -> None:",
              "    for i in range(len(x)):",
              "        x[i] = not x[i]", "",
              "@kiln.export",
              "def shift_python(a: int, n: int) -> tuple[int, int]:",
              "    return a << n, a >> n", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def native(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kiln_dtypes")
    source = folder / "dtypes_generated.py"
    source.write_text(kernel_source())
    outdir = folder / "out"
    result = kiln_build(str(source), outdir)
    assert result.returncode == 0, result.stderr
    assert "fall back" not in result.stderr, result.stderr
    module = import_from(os.path.join(outdir, "dtypes_generated.py"), "kiln_dtypes_generated")
    module.outdir = str(outdir)
    return module


def edge_values(t):
    info = np.iinfo(t.numpy_name)
    return sorted({0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1,
                   int(info.max) // 2 + 1})


def test_promotion_matches_numpy_result_type_for_every_pair():
    for a, b in itertools.product(kt.SCALAR_DTYPES, kt.SCALAR_DTYPES):
        expected = np.result_type(np.dtype(a.numpy_name), np.dtype(b.numpy_name))
        assert np.dtype(rules.promote(a, b).numpy_name) == expected, (a, b)


def test_weak_python_numbers_follow_nep50_for_every_dtype():
    # numpy 1.24's opt-in NEP 50 promotion is numpy 2's: a Python number
    # beside a typed value of each dtype
    saved = np._get_promotion_state()
    np._set_promotion_state("weak")
    try:
        for t in kt.SCALAR_DTYPES:
            for kind, value in (("int", 1), ("float", 1.5), ("complex", 1j)):
                expected = np.result_type(np.dtype(t.numpy_name), value)
                assert np.dtype(rules.weak_promote(t, kind).numpy_name) == expected, (t, kind)
    finally:
        np._set_promotion_state(saved)


def test_weak_python_literals_follow_nep50():
    # NEP 50 (numpy 2): a Python int takes the typed operand's dtype, a
    # Python float makes an int float64, a Python int with a bool is int64.
    for t in INTS:
        assert rules.weak_promote(t, "int") == t
        assert rules.weak_promote(t, "float") == kt.f64
        assert rules.literal_fits(t.max_value, t) and not rules.literal_fits(t.max_value + 1, t)
        assert not rules.literal_fits(t.min_value - 1, t)
    assert rules.weak_promote(kt.boolean, "int") == kt.i64
    assert rules.weak_promote(kt.f32, "float") == kt.f32


@pytest.mark.parametrize("t", INTS, ids=lambda t: t.name)
def test_arithmetic_matches_numpy_on_edge_values_through_views(native, t):
    values = edge_values(t)
    pairs = list(itertools.product(values, values))
    x = np.array([a for a, _ in pairs], dtype=t.numpy_name)
    y = np.array([b for _, b in pairs], dtype=t.numpy_name)
    for name, symbol in OPS.items():
        keep = np.ones(len(x), dtype=bool)
        if name in ("floordiv", "mod"):
            keep = y != 0       # numpy warns and gives 0; Kiln raises (tested below)
        if name in ("shl", "shr"):
            keep = (y >= 0) & (y <= t.bits + 2)
        if name == "pow":
            keep = y >= 0       # negative int exponents raise in both
        xs, ys = x[keep], y[keep]
        # Through a reversed view and a strided, reversed output.
        xv, yv = xs[::-1], ys[::-1]
        out = np.zeros(2 * len(xs), dtype=t.numpy_name)[::-2]
        getattr(native, f"{name}_{t.name}")(xv, yv, out)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
                        "floordiv": np.floor_divide, "mod": np.remainder,
                        "shl": np.left_shift, "shr": np.right_shift,
                        "pow": np.power}[name](xv, yv)
        np.testing.assert_array_equal(out, expected, err_msg=f"{t.name} {symbol}")


@pytest.mark.parametrize("t", INTS, ids=lambda t: t.name)
def test_scalars_comparisons_literals_and_wrong_arguments(native, t):
    values = edge_values(t)
    for a, b in itertools.product(values, values):
        assert getattr(native, f"less_{t.name}")(a, b) is (a < b)
        wrapped = (np.array([a], t.numpy_name) + np.array([b], t.numpy_name))[0]
        assert getattr(native, f"scalar_add_{t.name}")(a, b) == int(wrapped)
    # numpy scalars are accepted too.
    assert getattr(native, f"scalar_add_{t.name}")(np.dtype(t.numpy_name).type(1), 1) == 2
    literal = getattr(native, f"literal_add_{t.name}")
    assert literal(7) == 107
    assert literal(t.max_value) == int((np.array([t.max_value], t.numpy_name) + 100)[0])
    with pytest.raises(OverflowError, match=f"argument 'a'.*{t.numpy_name}|argument 'a'"):
        literal(t.max_value + 1)
    with pytest.raises(OverflowError, match="argument 'b'"):
        getattr(native, f"scalar_add_{t.name}")(0, t.min_value - 1)
    with pytest.raises(TypeError, match="argument 'a'"):
        literal(1.5)
    with pytest.raises(TypeError, match=t.numpy_name):
        getattr(native, f"add_{t.name}")(np.zeros(2), np.zeros(2), np.zeros(2))
    with pytest.raises(ZeroDivisionError):
        getattr(native, f"floordiv_{t.name}")(np.ones(1, t.numpy_name),
                                               np.zeros(1, t.numpy_name),
                                               np.zeros(1, t.numpy_name))
    zeros = getattr(native, f"zeros_{t.name}")(3)
    assert zeros.dtype == np.dtype(t.numpy_name) and not zeros.any()


def test_negative_shift_counts_raise_for_signed_dtypes(native):
    for t in INTS:
        if t.signed:
            with pytest.raises(ValueError, match="negative shift count"):
                getattr(native, f"shl_{t.name}")(np.ones(1, t.numpy_name),
                                                  -np.ones(1, t.numpy_name),
                                                  np.zeros(1, t.numpy_name))


def test_python_int_shifts(native):
    for a, n in itertools.product([0, 1, -1, 5, -5, 2**62, -2**63, 2**63 - 1],
                                  [0, 1, 2, 31, 62, 63, 64, 65, 200, 2**62]):
        left = (a << n) if n < 64 else 0
        left = (left + 2**63) % 2**64 - 2**63       # Kiln's 64-bit ints wrap
        assert native.shift_python(a, n) == (left, a >> n), (a, n)
    with pytest.raises(ValueError, match="negative shift count"):
        native.shift_python(1, -1)


def test_mixed_integer_promotion_end_to_end(native):
    for a, b in itertools.product(INTS, INTS):
        result = rules.promote(a, b)
        if not result.is_int:
            continue
        for x, y in [(a.max_value, b.min_value), (a.min_value, b.max_value), (1, 0)]:
            expected = (np.array([x], a.numpy_name) + np.array([y], b.numpy_name))
            assert expected.dtype == np.dtype(result.numpy_name)
            assert getattr(native, f"mixed_{a.name}_{b.name}")(x, y) == int(expected[0])


def test_bool_arrays_through_views(native):
    x = np.array([True, False, True, True, False, False, True])
    assert native.count_true(x) == 4 and native.count_true(x[::-2]) == int(x[::-2].sum())
    view = x[::-3]
    expected = ~x[::-3]
    native.negate_all(view)
    np.testing.assert_array_equal(x[::-3], expected)
    with pytest.raises(TypeError, match="bool"):
        native.count_true(np.zeros(3, dtype=np.uint8))


def test_every_table_row_reaches_the_header_stub_and_record(native):
    with open(os.path.join(native.outdir, "dtypes_generated.h")) as header:
        text = header.read()
    with open(os.path.join(native.outdir, "dtypes_generated.pyi")) as stub:
        pyi = stub.read()
    for t in INTS + [kt.boolean]:
        assert t.c_type in text, t
        assert f"numpy.{t.numpy_name}" in pyi, t


def test_fuzzer_found_folding_and_float_to_uint64(tmp_path):
    """Found by the differential fuzzer: `~`/`-` of a typed unsigned
    constant folded to a value outside its type (kilnc rejected the MLIR
    constant), and a float cast to uint64 emitted an i64 -> i64 trunci."""
    source = tmp_path / "fuzz_found.py"
    source.write_text("\n".join([
        "import numpy as np", "import kiln", "",
        "@kiln.export",
        "def folded() -> tuple[kiln.u32, kiln.u8, kiln.i8, kiln.u64]:",
        "    return ~kiln.u32(4294967294), -kiln.u8(1), -kiln.i8(-128), ~kiln.u64(0)", "",
        "@kiln.export",
        "def to_u64(v: float) -> kiln.u64:",
        "    return np.uint64(v)", ""]))
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 0 and "fall" not in result.stderr, result.stderr
    module = import_from(os.path.join(tmp_path / "out", "fuzz_found.py"), "kiln_fuzz_found")
    assert module.folded() == (1, 255, -128, 2**64 - 1)
    assert module.to_u64(3.9) == 3 and module.to_u64(2.0**62) == 2**62


def test_uint64_literals_beyond_int64_in_casts(tmp_path):
    """`np.uint64(18446744073709551615)` is a uint64 (numpy accepts it);
    Kiln refused the literal as beyond 64-bit signed ints (the fuzzer's
    campaign of 2026-12-04: 520 of 10,000 functions fell back on it)."""
    source = tmp_path / "uint64_literals.py"
    source.write_text("\n".join([
        "import numpy as np", "import kiln", "",
        "@kiln.export",
        "def wrap(x: kiln.u64) -> kiln.u64:",
        "    return x + np.uint64(18446744073709551615) + kiln.u64(9223372036854775808)", "",
        "@kiln.export",
        "def is_max(x: kiln.u64) -> bool:",
        "    return x == np.uint64(18446744073709551615)", ""]))
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 0 and "fall" not in result.stderr, result.stderr
    module = import_from(os.path.join(tmp_path / "out", "uint64_literals.py"), "kiln_u64_literals")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in (0, 5, 2**63, 2**64 - 1):
            expected = np.uint64(x) + np.uint64(2**64 - 1) + np.uint64(2**63)
            assert module.wrap(x) == int(expected)
    assert module.is_max(2**64 - 1) and not module.is_max(3)
