"""Differential fuzzing (test/fuzz, docs/fuzzing.md): random functions of the
documented subset, compiled by `kiln build` and compared call by call with
CPython under the documented differences.

CI runs the seed PINNED_SEED, checked clean on the code it lands with, so
that a landing is not decided by which program a draw happens to make;
KILN_FUZZ_SEED=random draws a fresh seed (printed in the banner) and
explores new programs, KILN_FUZZ_SEED=N reruns one. Fresh-seed campaigns
run outside CI (test/fuzz/FINDINGS.md): from 2026-12-04 to 2026-12-06
every CI run drew a fresh seed, until two draws in a row hit defects the
campaigns of that day had not (a prange loop's writes after an exception,
fixed; the sign of a NaN from float32 `//` of inf, open). Before the
default became a fresh draw (2026-12-04),
campaigns on the final generator ran 10,000 functions and more with no
mismatch (test/fuzz/FINDINGS.md). KILN_FUZZ_COUNT sets the number of
functions (the default is sized to stay under two minutes on a 2-core
machine), KILN_FUZZ_AVOID=B3,B7 leaves out the triggers of known open
defects (generator.KNOWN_DEFECT_SWITCHES). Fails listing the reduced repro
files of every mismatch, crash and build failure."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from fuzz import generator  # noqa: E402
from fuzz.harness import run_campaign  # noqa: E402

DEFAULT_COUNT = 200
# Triggers CI leaves out (docs/fuzzing.md, test/fuzz/FINDINGS.md): none.
# Every switch names a fixed defect, generated again (B13's copysign of a
# NaN from np.* follows glibc's documented sign in the oracle; A1 to A8;
# A3's helper calls after array operations are generated at the top level
# of a function body, where Kiln computes the operation first, as numpy
# does). The generator makes the integer dtypes kiln.u8 ... kiln.i16,
# kiln.b1 arrays, shifts and whole-array expressions, and, at low weights,
# reductions, np.where/clip, shape and creation functions, masks and int
# indices, tuples of arrays, 3-D to 5-D arrays in every layout (C,
# transposed, strided, reversed) and `...`.
DEFAULT_AVOID = ""
# Clean with the code of 2026-12-06 (200 functions, 4,207 calls compared);
# with lists in 30 % of its programs (list_constructs.py) clean again
# (200 functions, 4,087 calls compared, branch lists-fuzz); with dicts in
# 30 % of its programs (dict_constructs.py) clean again (200 functions,
# 4,105 calls compared, 2 fallbacks of the list generator, branch dicts-fuzz).
PINNED_SEED = "973561698"


def test_differential_fuzz(tmp_path):
    seed = os.environ.get("KILN_FUZZ_SEED", PINNED_SEED)
    seed = random.SystemRandom().randrange(10**9) if seed == "random" else int(seed)
    count = int(os.environ.get("KILN_FUZZ_COUNT", DEFAULT_COUNT))
    avoid = os.environ.get("KILN_FUZZ_AVOID", DEFAULT_AVOID)
    config = generator.Config(avoid={a for a in avoid.split(",") if a})
    banner = (f"\n{'=' * 70}\nkiln fuzz seed {seed} ({count} functions); reproduce with "
              f"KILN_FUZZ_SEED={seed} KILN_FUZZ_COUNT={count}\n{'=' * 70}")
    print(banner, flush=True)
    repros = os.path.join(str(tmp_path), "repros")
    report = run_campaign(seed, count, str(tmp_path / "work"), config, log=print,
                          reduce=True, reduce_budget=20.0, max_reduce=2, repro_dir=repros)
    print(report.summary())
    problems = [f for f in report.failures if f.cls in ("mismatch", "crash", "build")]
    if problems:
        listing = "\n".join(
            f"- {f.cls} in {f.function} (program {f.index}, input {f.input_index}): "
            f"{f.detail.splitlines()[0][:300]}" + (f"\n  repro: {f.repro}" if f.repro else "")
            for f in problems)
        raise AssertionError(f"{banner}\n{len(problems)} failure(s):\n{listing}\n"
                             f"{report.summary()}")


def test_oracle_promotion_is_numpy_result_type():
    """The oracle's promotion of every pair of kinds is numpy's."""
    import numpy as np
    from fuzz import semantics as S
    for a in S.KINDS:
        for b in S.KINDS:
            expected = np.result_type(S.NUMPY_DTYPE[a], S.NUMPY_DTYPE[b])
            assert np.dtype(S.NUMPY_DTYPE[S.promote(a, b)]) == expected, (a, b)


def test_oracle_array_dtypes_are_numpys():
    """The oracle's result kinds of array operators and ufuncs (both arrays
    typed) are numpy's, wherever Kiln's subset has the operation (complex
    arrays included)."""
    import warnings

    import numpy as np
    from fuzz import semantics as S
    operators = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
                 "**": np.power, "&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor}
    kinds = S.KINDS + (S.COMPLEX,)
    for a in kinds:
        for b in kinds:
            x, y = np.ones(2, S.NUMPY_DTYPE[a]), np.ones(2, S.NUMPY_DTYPE[b])
            for op, ufunc in operators.items():
                try:
                    kind = S.array_arithmetic_kind(op, S.promote(a, b))
                except TypeError:
                    continue
                assert np.dtype(S.NUMPY_DTYPE[kind]) == ufunc(x, y).dtype, (op, a, b)
            for name in S.ARRAY_UFUNC_BINARY:
                try:
                    kind = S.array_ufunc(name, [S.Array(x), S.Array(y)]).kind
                except TypeError:
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = getattr(np, name)(x, y).dtype
                assert np.dtype(S.NUMPY_DTYPE[kind]) == expected, (name, a, b)
        for name in S.ARRAY_UFUNC_UNARY:
            try:
                kind = S.array_ufunc_kind(name, a)
            except TypeError:
                continue
            expected = getattr(np, name)(np.ones(2, S.NUMPY_DTYPE[a])).dtype
            assert np.dtype(S.NUMPY_DTYPE[kind]) == expected, (name, a)


def test_oracle_broadcast_errors_are_numpys():
    """The oracle's broadcasting errors are numpy's words: operands, in-place
    outputs (`x += y`) and assignments to views."""
    import itertools

    import numpy as np
    from fuzz import semantics as S
    shapes = [(0,), (1,), (3,), (4,), (1, 1), (2, 1), (1, 3), (2, 3), (3, 2), (2, 4), (0, 3)]

    def numpy_error(action):
        try:
            action()
        except ValueError as error:
            return str(error)
        return None

    def oracle_error(action):
        try:
            action()
        except ValueError as error:
            return str(error)
        return None

    for a, b in itertools.product(shapes, repeat=2):
        x, y = np.ones(a), np.ones(b)
        assert oracle_error(lambda: S.broadcast_shapes([a, b])) == numpy_error(lambda: x + y)
        if len(b) <= len(a):
            assert oracle_error(lambda: S.broadcast_shapes([a, b], output=a)) == \
                numpy_error(lambda: np.add(x, y, out=x)), (a, b)

            def store():
                x[...] = y
            assert oracle_error(lambda: S.check_assignable(b, a)) == numpy_error(store), (a, b)


def test_oracle_error_record_capacity_is_the_abi_s():
    """The oracle shortens numpy's broadcast message as Kiln's error record
    would; the record's capacity is kilnc's (kiln_abi.h)."""
    from fuzz import semantics as S
    from kiln.toolchain import kilnc_capabilities
    assert S.ERROR_RECORD_INTS == kilnc_capabilities()["abi"]["error_record"]["max_args"]


def test_oracle_joins_a_literal_on_either_branch_like_a_variable():
    """`-1 if c else np.uint32(0)` is int64 in Kiln whichever branch holds
    the literal (it joins like a variable's assignments; fuzzer seed
    742656376, f1545), and abs() of a complex with a NaN part is NaN (CPython
    may raise a stale errno's OverflowError there; f260)."""
    import math

    from fuzz import semantics as S
    for then_value, else_value in ((-1, S.Num("u32", 0)), (S.Num("u32", 0), -1)):
        taken = then_value if isinstance(then_value, int) else else_value
        joined = S.join_branches(then_value, else_value, taken)
        assert isinstance(joined, S.Num) and joined.kind == "i64" and joined.v == -1
    joined = S.join_branches(-1, S.Num("u64", 5), -1)
    assert joined.kind == "f64"
    assert math.isnan(S.k_abs(complex(1.0, math.nan)))
    assert S.k_abs(complex(math.inf, math.nan)) == math.inf


def test_oracle_dicts_follow_kiln():
    """The oracle's dicts (test/fuzz/dicts.py) against the compiled code's
    documented rules and the differences FINDINGS.md D1, D2 and D4 record:
    order after delete and re-insert, -0.0 then 0.0 one key (the first
    kept), NaN keys never found, KeyError of the converted key, `==` of NaN
    values, and the write-back of a dict argument."""
    import math

    from fuzz import oracle as O
    source = '''
def order(n: int) -> dict[float, int]:
    d: dict[float, int] = {-0.0: 1, 2.5: 2, 0.0: 3}
    d[math.nan] = 4
    d[math.nan] = 5
    del d[2.5]
    d[2.5] = 6
    return d

def boolkey(b: bool) -> int:
    d: dict[int, int] = {5: 1}
    return d[b]

def nanval(x: float) -> bool:
    d: dict[int, float] = {1: x}
    e: dict[int, float] = {1: x}
    return d == e

def signzero(d: dict[float, int]) -> int:
    del d[0.0]
    d[0.0] = 5
    d[7] = 1
    return d[9]
'''
    module = O.OracleModule(source)
    outcome = module.call("order", [1])
    keys = list(outcome[1])
    assert outcome[0] == "ok" and math.copysign(1.0, keys[0]) == -1.0 and keys[-1] == 2.5
    assert len(keys) == 4 and sum(1 for k in keys if k != k) == 2
    assert list(outcome[1].values()) == [3, 4, 5, 6]
    assert module.call("boolkey", [True]) == ("raise", "KeyError", "1")
    assert module.call("nanval", [math.nan]) == ("ok", False)
    caller = {-0.0: 1, 2.0: 3}
    assert module.call("signzero", [caller]) == ("raise", "KeyError", "9.0")
    assert list(caller.items()) == [(2.0, 3), (-0.0, 5), (7.0, 1)]
    assert math.copysign(1.0, list(caller)[1]) == -1.0
