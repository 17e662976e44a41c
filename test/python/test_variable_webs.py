"""A name may change type between assignments (frontend/variable_webs.py):
the compiled functions agree with CPython, where assignments meet they
still have to agree, and the message then names both and the read."""

import ast
import os
import sys

import numpy as np
import pytest

from conftest import REPO, kiln_mlir_errors
from test_end_to_end import compare

sys.path.insert(0, os.path.join(REPO, "python_frontend"))
from kiln.frontend.variable_webs import split_variable_webs  # noqa: E402


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("variable_webs")


def test_everything_compiles(mod):
    with open(mod.path("variable_webs.kiln.json")) as record:
        assert '"fallbacks": []' in record.read()


@pytest.mark.parametrize("shape", [(0, 2, 3), (1, 1, 1), (2, 3, 4), (5, 2, 2)])
def test_mlp_layer(mod, shape):
    n, r, c = shape
    compare(mod, "mlp_layer", lambda: (
        np.arange(n * r * c, dtype=np.float32).reshape(shape) - 3.5,
        # small integers: every sum exact, whatever order the product takes
        (np.arange(r * c * 4) % 5 - 2.0).reshape(r * c, 4), np.array([0.5, -0.5, 0.0, 1e300])))


@pytest.mark.parametrize("rows", [0, 1, 3])
def test_parameter_rebound(mod, rows):
    compare(mod, "parameter_rebound", lambda: (np.arange(rows * 3.0).reshape(rows, 3),))
    compare(mod, "parameter_rebound", lambda: (np.full((2, 2), np.nan),))


@pytest.mark.parametrize("n", [0, 1, 7, -7, 2**62, -2**63])
def test_int_then_float(mod, n):
    compare(mod, "int_then_float", lambda: (n,))


@pytest.mark.parametrize("n", [0, 1, 9])
def test_loops(mod, n):
    compare(mod, "loop_counter_reused", lambda: (np.arange(float(n)),))
    compare(mod, "joined_in_a_loop", lambda: (n,))
    compare(mod, "while_and_break", lambda: (n,))
    compare(mod, "while_and_break", lambda: (n + 27,))


@pytest.mark.parametrize("flag", [False, True])
def test_branches(mod, flag):
    compare(mod, "branch_then_rebind", lambda: (np.array([0.5, 1.0]), flag))
    compare(mod, "branch_then_rebind", lambda: (np.array([-5.0, np.inf]), flag))
    compare(mod, "rebound_inside_branches", lambda: (np.arange(6.0).reshape(2, 3), int(flag)))
    compare(mod, "rebound_inside_branches", lambda: (np.zeros((0, 3)), int(flag)))


def test_containers_and_augmented(mod):
    compare(mod, "swap_kinds", lambda: (np.zeros(4), 3))
    compare(mod, "augmented_and_rebound", lambda: (np.arange(5.0),))
    compare(mod, "augmented_and_rebound", lambda: (np.zeros(0),))


def renamed(source):
    tree = ast.parse(source)
    split_variable_webs(tree)
    return ast.unparse(tree.body[0])


def test_assignments_that_meet_stay_one_variable():
    # joined by the `if`, by a loop's back edge, by `x += ...`
    for source in ("def f(c):\n    y = 1\n    if c:\n        y = 2.5\n    return y\n",
                   "def f(n):\n    s = 0\n    for i in range(n):\n        s = s + i\n    return s\n",
                   "def f(n):\n    s = 0\n    while n:\n        s += 1.5\n        n -= 1\n"
                   "    return s\n"):
        assert "__kv" not in renamed(source), source


def test_straight_line_rebinding_splits():
    text = renamed("def f(a):\n    a = a.sum(0)\n    b = a\n    a = 1\n    return a + b\n")
    assert "a__kv1 = a.sum(0)" in text and "b = a__kv1" in text and "a__kv2 = 1" in text
    assert "return a__kv2 + b" in text


@pytest.mark.parametrize("construct", [
    "    global y\n", "    y: float = 0.0\n", "    g = lambda: y\n",
    "    try:\n        y = 2\n    except ValueError:\n        pass\n",
    "    z = [y for y in range(3)]\n", "    del y\n",
])
def test_names_the_analysis_does_not_model_stay_whole(construct):
    source = f"def f(x):\n    y = x\n    print(y)\n{construct}    y = 'a'\n    return y\n"
    assert "__kv" not in renamed(source), construct


def test_a_function_with_such_names_is_left_alone():
    source = "def f():\n    y = 1\n    print(y)\n    y = 2.0\n    y__kv1 = 3\n    return y\n"
    assert renamed(source) == ast.unparse(ast.parse(source).body[0])


def test_disagreeing_assignments_are_named_with_the_read(tmp_path):
    errors = kiln_mlir_errors(tmp_path, "meet", "import kiln\n\n\n@kiln.export\n"
                              "def f(x: kiln.f64[:, :], c: bool) -> float:\n"
                              "    y = x.sum(axis=0)\n"
                              "    if c:\n"
                              "        y = x\n"
                              "    y2 = y\n"
                              "    return float(y2.sum())\n")
    assert (f"{tmp_path / 'meet.py'}:8:9: error: variable `y` is kiln.f64[:] on one path and "
            "kiln.f64[:, :] on another (assigned at line 6 and at line 8, both of which reach "
            "the read at line 9)") in errors, errors
    assert "__kv" not in errors
