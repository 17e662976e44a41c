"""break / continue / return inside loops, against CPython."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("loop_exits")


def test_random_inputs(mod):
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(0, 12))
        x = rng.integers(-3, 20, n).astype(np.float64)
        xi = rng.integers(-5, 10, n)
        m = rng.integers(0, 9, (n, max(n - 1, 0)))
        v = float(rng.integers(-3, 20))
        for name, args in [("find", (x, v)), ("first_negative_sum", (xi,)), ("nested", (n,)),
                           ("search2", (m, int(v))), ("wloop", (n * n + 3,)), ("wret", (x,)),
                           ("last_i", (n * 3,)), ("last_i", (0,))]:
            assert getattr(mod.native, name)(*args) == getattr(mod.python, name)(*args), \
                (name, args)
        compiled, interpreted = x.copy(), x.copy()
        mod.native.noval(compiled)
        mod.python.noval(interpreted)
        np.testing.assert_array_equal(compiled, interpreted)
