"""Loops over arrays (docs/language.md "Loops"): modules/iteration.py
compiled and run by CPython on sizes 0, 1, 7, 8, 9, 100 and reversed,
strided and transposed views, the results and the arrays written compared
exactly; and the loops Kiln refuses, with their reasons."""

import math
import re

import numpy as np
import pytest

from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

SIZES = [0, 1, 7, 8, 9, 100]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module("iteration")


def same(native, python):
    if isinstance(python, np.ndarray):
        return isinstance(native, np.ndarray) and native.dtype == python.dtype and \
            np.array_equal(native, python, equal_nan=True)
    # a numpy scalar of CPython's result comes back as a Python number
    return native == python or (math.isnan(python) and math.isnan(native))


def check(mod, name, *args):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        expected = getattr(mod.python, name)(*copies)
    except Exception as error:  # noqa: BLE001 - the type and message are compared
        with pytest.raises(type(error), match=re.escape(str(error))):
            getattr(mod.native, name)(*args)
        return
    assert same(getattr(mod.native, name)(*args), expected), (name, args)
    for written, reference in zip(args, copies):
        if isinstance(written, np.ndarray):
            assert np.array_equal(written, reference, equal_nan=True), name


def views(n, dtype=np.float64):
    base = np.linspace(-3.0, 5.0, 2 * n + 1).astype(dtype)
    return [base[:n], base[::-1][:n], base[::2][:n], base[1:n + 1][::-1]]


def test_element_loops_match_cpython(mod):
    for n in SIZES:
        for a in views(n):
            check(mod, "total", a)
            check(mod, "weighted", a)
            check(mod, "last_element", a)
            for b in views(n + 2)[::2]:
                check(mod, "dot", a, b.astype(np.float32))
                check(mod, "nested", a[:9], b[:9])
                if n:
                    check(mod, "rebinding", a, b)
        ints = np.arange(-2, n - 2, dtype=np.int32)[::-1]
        for start in (0, 5, -(2**40)):
            check(mod, "weighted_from", ints, start)
        a64 = np.arange(n, dtype=np.int64) * 3
        check(mod, "three_way", a64, a64[::-1], np.arange(n + 5, dtype=np.uint8)[5:])


def test_row_loops_match_cpython(mod):
    for n in SIZES:
        m = np.arange(3.0 * n).reshape(n, 3)
        for view in (m, m[::-1], m.T.copy().T, m[:, ::2]):
            check(mod, "row_sums", view)
            check(mod, "clear_rows", view.copy())
        check(mod, "points", np.arange(2.0 * n).reshape(n, 2)[::-1])
        check(mod, "points", np.zeros((n, 3)))          # ValueError when n > 0
        check(mod, "split_lines", np.arange(4 * n, dtype=np.int64).reshape(n, 4)[::-1])


REFUSED = '''import kiln


@kiln.export
def over_tuple(n: int) -> int:
    s = 0
    for x in (1, 2.5, 3):
        s += x * n
    return s


@kiln.export
def over_int(n: int) -> int:
    s = 0
    for x in n:
        s += x
    return s


@kiln.export
def with_else(a: kiln.f64[:]) -> float:
    s = 0.0
    for v in a:
        s += v
    else:
        s = -1.0
    return s
'''


def test_refused_loops_say_why(tmp_path):
    path = tmp_path / "refused_loops.py"
    path.write_text(REFUSED)
    context = load_module(str(path))
    failures = infer_module(context).failures
    messages = {name: [d.message for d in error.diagnostics] for name, error in failures.items()}
    assert messages["over_tuple"] == ["a tuple of different types (int, float, int) is "
                                      "iterated over; `for` over a tuple needs numbers of one "
                                      "type"]
    assert messages["over_int"][0].startswith("`for` over an int is not supported")
    assert all("$" not in m for ms in messages.values() for m in ms)
