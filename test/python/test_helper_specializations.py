"""A helper without annotations compiles once per signature of its
arguments (modules/helper_specializations.py), against CPython, and the
build record lists each specialization at its call."""

import json

import numpy as np
import pytest

from test_end_to_end import compare


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("helper_specializations")


def test_everything_compiles(mod):
    with open(mod.path("helper_specializations.kiln.json")) as record:
        assert json.load(record)["fallbacks"] == []


@pytest.mark.parametrize("shape", [(0, 1, 1, 2), (1, 1, 1, 1), (2, 3, 2, 2)])
def test_layers(mod, shape):
    size = int(np.prod(shape))
    # small integers and halves: every product and sum exact in any order
    compare(mod, "layers", lambda: ((np.arange(size, dtype=np.float64) - 3.5).reshape(shape),
                                    (np.arange(shape[1] * shape[2] * shape[3] * 3) % 5 - 2.0
                                     ).reshape(-1, 3)))


@pytest.mark.parametrize("n", [0, 1, 5])
def test_mixed_dtypes(mod, n):
    compare(mod, "mixed_dtypes", lambda: (np.arange(n, dtype=np.float32) - 2,
                                          np.full(n, -0.5), np.arange(n, dtype=np.int32) - 1))
    compare(mod, "mixed_dtypes", lambda: (np.full(n, np.nan, dtype=np.float32), np.full(n, np.inf),
                                          np.full(n, -2**31, dtype=np.int32)))


@pytest.mark.parametrize("a, n, flag", [(1.5, 3, True), (-0.0, -2**31, False), (np.nan, 2**31 - 1, True),
                                        (np.inf, 0, False)])
def test_number_kinds(mod, a, n, flag):
    compare(mod, "number_kinds", lambda: (a, n, flag))


@pytest.mark.parametrize("n, x", [(0, 0.0), (3, 2.5), (10, 7.25), (-2**63, np.nan)])
def test_loops_at_two_types(mod, n, x):
    compare(mod, "loops_at_two_types", lambda: (n, x))


def test_annotated_and_defaults(mod):
    compare(mod, "annotated_stays", lambda: (7, 0.5))
    compare(mod, "annotated_stays", lambda: (-2**63, np.nan))
    for n in (0, 3):
        compare(mod, "defaults_and_keywords", lambda: (np.arange(n) - 1, 1.5))


def test_the_record_and_the_module_name_each_specialization(mod):
    with open(mod.path("helper_specializations.kiln.json")) as handle:
        functions = {f["name"]: f for f in json.load(handle)["functions"]}
    calls = functions["layers"]["specialized_calls"]
    assert [(c["line"], c["signature"], c["symbol"]) for c in calls] == [
        (38, "relu(x: kiln.f64[:, :, :, :])", "helper_specializations_relu"),
        (40, "relu(x: kiln.f64[:, :])", "helper_specializations_relu__ks_f64_2d")]
    signatures = {c["signature"] for c in functions["number_kinds"]["specialized_calls"]}
    assert signatures == {"scaled(x: float, k: bool)", "scaled(x: float, k: int)",
                          "scaled(x: int, k: bool)", "scaled(x: int, k: int)",
                          "scaled(x: bool, k: bool)"}
    with open(mod.path("helper_specializations.kiln.mlir")) as handle:
        text = handle.read()
    for symbol in ("relu__ks_f64_2d", "relu__ks_f32_1d", "relu__ks_i32_1d", "total__ks_f32_1d",
                   "clamp_below__ks_f64__i64", "scaled__ks_f64__i64"):
        assert f"@helper_specializations_{symbol}(" in text, symbol
    # annotated parameters stay as annotated: one function
    assert "annotated__ks_" not in text
