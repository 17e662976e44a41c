"""Arrays of 5 to 8 dimensions, against numpy (issue 12: up to 8)."""
import json

import numpy as np
import pytest

from test_array_expressions import REASSOCIATED, same

# Whole-array sums: SIMD partial sums against numpy's pairwise ones.
REASSOCIATED.add("ellipses")


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("high_rank")


def test_everything_compiles(mod):
    record = json.load(open(mod.path("high_rank.kiln.json")))
    assert [f["name"] for f in record["functions"] if not f["compiled"]] == []
    assert len(record["functions"]) == 7


def layouts(base):
    """C order, a transposed (F-ordered) view, reversed and strided views."""
    return [base, base.T.copy().T, base[::-1], base[..., ::2] if base.shape[-1] > 1 else base]


@pytest.mark.parametrize("shape", [(2, 3, 1, 4, 2), (1, 1, 1, 1, 1), (2, 0, 3, 1, 2), (3, 2, 2, 2, 9)])
def test_elementwise_5d(mod, shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape)
    for x in layouts(a):
        same(mod, "elementwise_5d", x, b[tuple(slice(0, n) for n in x.shape)], 3.0)
    same(mod, "elementwise_5d", a, b[:1], 3.0)                          # broadcasting
    same(mod, "elementwise_5d", a, rng.standard_normal((2, 1, 7, 1, 1)), 3.0)   # mismatch


def test_broadcast_8d(mod):
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2, 1, 2, 1, 3, 1, 2, 4))
    same(mod, "broadcast_8d", a, np.arange(4.0))
    same(mod, "broadcast_8d", a[..., ::-1], np.arange(1.0))
    same(mod, "broadcast_8d", a, np.arange(3.0))                        # shapes that do not fit


def test_reductions_6d(mod):
    rng = np.random.default_rng(6)
    a = rng.integers(-1000, 1000, (2, 3, 2, 4, 1, 3), dtype=np.int32)
    same(mod, "reductions_6d", a)
    same(mod, "reductions_6d", a.transpose(5, 4, 3, 2, 1, 0))
    same(mod, "reductions_6d", a[:, ::-1, :, ::2])


@pytest.mark.parametrize("n", [4, 8, 12, 0])
def test_shapes_7d(mod, n):
    x = np.arange(float(n))
    same(mod, "shapes_7d", x)
    same(mod, "shapes_7d", np.arange(float(2 * n))[::2])
    if n:
        same(mod, "shapes_7d", x[:n - 1])                                # cannot reshape


def test_slices_and_stores_8d(mod):
    rng = np.random.default_rng(88)
    a = rng.standard_normal((3, 2, 2, 1, 2, 1, 2, 3))
    same(mod, "slices_and_stores_8d", a, -1.5)
    same(mod, "slices_and_stores_8d", a[:, :, ::-1], 0.25)


def test_loops_5d(mod):
    a = np.arange(2 * 3 * 4 * 2 * 5).reshape(2, 3, 4, 2, 5)
    same(mod, "loops_5d", a)
    same(mod, "loops_5d", a[:, :, ::-1, :, ::2])


def test_ellipses(mod):
    rng = np.random.default_rng(55)
    a = rng.standard_normal((2, 3, 1, 4, 2))
    for x in layouts(a):
        same(mod, "ellipses", x, 0.5)


ELLIPSIS_ERRORS = """import kiln


@kiln.export
def two(a: kiln.f64[:, :]):
    return a[..., ...]


@kiln.export
def too_many(a: kiln.f64[:, :]):
    return a[0, ..., 1, 2]
"""


def test_ellipsis_errors(tmp_path):
    from conftest import kiln_build
    source = tmp_path / "ellipsis_errors.py"
    source.write_text(ELLIPSIS_ERRORS)
    result = kiln_build(str(source), tmp_path / "out", "--allow-empty")
    assert "ellipsis_errors.py:6:12: warning: an index can only have a single ellipsis" \
        in result.stderr, result.stderr
    assert "ellipsis_errors.py:11:12: warning: too many indices for a 2-D array" \
        in result.stderr, result.stderr
