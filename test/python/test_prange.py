"""kiln.prange (issue 29): the iterations run on OpenMP threads, and the
results are CPython's (the same source run as Python, with numpy) at 1, 2
and 3 threads (more threads than this machine's cores), on sizes 0, 1,
fewer iterations than threads, a block boundary (256 blocks) and large.
Reductions are combined per block in block order, so every result is the
same at any thread count; integer results are exact, float sums are a
blocked sum (within rounding of CPython's). Errors are those of the first
failing iteration."""

import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from conftest import MODULES, REPO, kiln_build

MODULE = "parallel_loops"
THREADS = ["1", "2", "3"]
SIZES = [0, 1, 2, 3, 255, 256, 257, 1000, 100_003]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


@pytest.fixture(params=THREADS)
def threads(request, monkeypatch):
    """Every Kiln artifact reads KILN_NUM_THREADS at each parallel loop."""
    monkeypatch.setenv("KILN_NUM_THREADS", request.param)
    return int(request.param)


def record(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("n", SIZES)
def test_reductions_agree_with_cpython(mod, threads, n):
    rng = np.random.default_rng(n)
    x = rng.normal(size=n)
    ints = rng.integers(-2**40, 2**40, size=n)
    assert mod.native.int_reductions(ints) == mod.python.int_reductions(ints.tolist())
    small = rng.integers(-50, 50, size=n).astype(np.int32)
    assert mod.native.product_mod(small) == mod.python.product_mod(small.tolist())
    assert mod.native.sum_of_squares(n) == mod.python.sum_of_squares(n)
    assert mod.native.any_negative(x) == mod.python.any_negative(x.tolist())
    # Float sums: a blocked sum, within rounding of CPython's sequential one.
    want = mod.python.total(x.tolist())
    assert mod.native.total(x) == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert mod.native.total_fast(x) == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert mod.native.total_f32(x.astype(np.float32)) == pytest.approx(
        float(x.astype(np.float32).astype(np.float64).sum()), rel=1e-4, abs=1e-4)
    hi, lo, product = mod.native.float_extremes(x)
    want_hi, want_lo, want_product = mod.python.float_extremes(x.tolist())
    assert (hi, lo) == (want_hi, want_lo)
    assert product == pytest.approx(want_product, rel=1e-12)
    count, squares = mod.native.count_and_sum(x, 0.25)
    want_count, want_squares = mod.python.count_and_sum(x.tolist(), 0.25)
    assert count == want_count and squares == pytest.approx(want_squares, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 255, 256, 257, 100_003])
def test_results_do_not_depend_on_the_thread_count(mod, monkeypatch, n):
    """The same blocks, combined in the same order, at any thread count:
    float sums included (bit for bit), with or without fastmath."""
    x = np.random.default_rng(7).normal(size=n)
    seen = set()
    for count in THREADS + ["8"]:
        monkeypatch.setenv("KILN_NUM_THREADS", count)
        seen.add((mod.native.total(x), mod.native.total_fast(x),
                  mod.native.float_extremes(x)))
    assert len(seen) == 1


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
def test_special_floats(mod, threads, special):
    x = np.random.default_rng(3).normal(size=1000)
    x[400] = special
    got, want = mod.native.total(x), mod.python.total(x.tolist())
    assert got == want or (np.isnan(got) and np.isnan(want))
    hi, lo, _ = mod.native.float_extremes(x)
    want_hi, want_lo, _ = mod.python.float_extremes(x.tolist())
    for a, b in ((hi, want_hi), (lo, want_lo)):
        assert a == b or (np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("n", SIZES)
def test_disjoint_writes(mod, threads, n):
    rng = np.random.default_rng(n + 1)
    x = rng.normal(size=n)
    out = np.full(n, -7.0)
    mod.native.scaled(x, out, 2.5)
    want = [-7.0] * n
    mod.python.scaled(x.tolist(), want, 2.5)
    assert out.tolist() == want
    out = np.full(n, -7.0)
    mod.native.backwards(x, out)
    assert out.tolist() == x[::-1].tolist()
    # Strided and negative-stride views are written in place.
    base = np.zeros(2 * n)
    mod.native.scaled(x[::-1], base[::2], 2.5)
    assert base[::2].tolist() == [v * 2.5 + 1.0 for v in x[::-1].tolist()]
    assert not base[1::2].any()


@pytest.mark.parametrize("shape", [(0, 3), (1, 5), (2, 1), (37, 11), (300, 4)])
def test_temporaries_and_nested_loops_in_the_body(mod, threads, shape):
    a = np.random.default_rng(shape[0]).normal(size=shape)
    got = np.full(shape, 3.0)
    mod.native.rows(a, got)
    want = np.full(shape, 3.0)
    mod.python.rows(a, want)
    np.testing.assert_array_equal(got, want)
    points = a[:, :3] if shape[1] >= 3 else a
    d = np.zeros((shape[0], shape[0]))
    mod.native.pairwise(points, d)
    want = np.zeros_like(d)
    mod.python.pairwise(points, want)
    np.testing.assert_allclose(d, want, rtol=1e-15, atol=0)


@pytest.mark.parametrize("bad", [[0], [499], [999], [2, 700], [999, 3]])
def test_the_first_failing_iteration_raises(mod, threads, bad):
    """Each bad index is distinct (x has 1000 elements): the message names
    the one CPython meets first, whichever thread met another first."""
    x = np.arange(1000.0)
    idx = np.arange(1000)
    for position in bad:
        idx[position] = 5000 + position
    with pytest.raises(IndexError) as native:
        mod.native.gather(x, idx)
    with pytest.raises(IndexError) as python:
        mod.python.gather(x, idx)
    assert f"index {5000 + min(bad)} is out of bounds" in str(native.value)
    assert str(5000 + min(bad)) in str(python.value)
    # The loop goes on working afterwards (the threads' records are clear).
    assert mod.native.gather(x, np.arange(10)) == 45.0


@pytest.mark.parametrize("limit", [0, 1, 500, 999])
def test_raise_in_the_body_frees_its_temporaries(mod, threads, limit):
    x = np.random.default_rng(limit).normal(size=1000)
    with pytest.raises(ValueError, match="iteration reached the limit"):
        mod.native.temporaries_then_raise(x, limit)
    assert mod.native.temporaries_then_raise(x, -1) == pytest.approx(
        mod.python.temporaries_then_raise(x, -1), rel=1e-12, abs=1e-12)


def test_errors_raised_in_helpers(mod, threads):
    x = np.ones(2000)
    y = np.ones(2000)
    y[1500] = 0.0
    out = np.zeros(2000)
    with pytest.raises(ZeroDivisionError, match="helper saw a zero") as native:
        mod.native.divide_all(x, y, out)
    assert "line" in str(native.value)
    y[1500] = 2.0
    mod.native.divide_all(x, y, out)
    assert out[1500] == 0.5 and out[0] == 1.0


def test_a_helper_with_a_parallel_loop(mod, threads):
    x = np.random.default_rng(5).normal(size=5000)
    assert mod.native.parallel_helper_user(x) == 2 * mod.native.total(x)


def test_two_python_threads_at_once(mod, monkeypatch):
    """Each caller gets its own team; the GIL is released around the call,
    so both run at the same time; nothing deadlocks."""
    monkeypatch.setenv("KILN_NUM_THREADS", "2")
    x = np.random.default_rng(11).normal(size=200_000)
    want = mod.native.total(x)
    results, errors = [], []

    def work():
        try:
            for _ in range(50):
                results.append(mod.native.total(x))
        except Exception as error:   # pragma: no cover - reported below
            errors.append(error)

    workers = [threading.Thread(target=work) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert not any(w.is_alive() for w in workers), "parallel calls deadlocked"
    assert not errors and results == [want] * 150


def test_the_gil_is_released_for_scalar_functions(mod):
    """sum_of_squares takes no array (such functions keep the GIL when they
    have no parallel loop): the extension's wrapper releases it."""
    with open(mod.path(f"_{MODULE}_kiln.c"), encoding="utf-8") as handle:
        wrapper = handle.read()
    body = wrapper[wrapper.index(f"{MODULE}_sum_of_squares("):]
    body = body[:body.index("\n}\n")]
    assert "Py_BEGIN_ALLOW_THREADS" in wrapper[wrapper.rindex("static PyObject", 0,
                                                              wrapper.index(body)):][:4000]


def test_record_header_and_library(mod):
    data = record(mod)
    assert data["runtime_libraries"] == ["libomp.so.5"]
    total = next(f for f in data["functions"] if f["name"] == "total")
    [loop] = total["parallel_loops"]
    assert loop["line"] == 13 and loop["reductions"] == [
        {"name": "s", "operator": "add", "line": 14}]
    sequential = next(f for f in data["functions"] if f["name"] == "sequential")
    assert sequential["parallel_loops"] == []
    with open(mod.path(f"{MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    assert f"#define KILN_{MODULE.upper()}_NEEDS_OPENMP 1" in header
    needed = subprocess.run(["readelf", "-d", mod.path(f"lib{MODULE}.so")], check=True,
                            capture_output=True, text=True).stdout
    assert "libomp.so.5" in needed


def test_modules_without_parallel_loops_do_not_need_libomp(build_module):
    other = build_module("inlined_helpers")
    needed = subprocess.run(["readelf", "-d", other.path("libinlined_helpers.so")],
                            check=True, capture_output=True, text=True).stdout
    assert "libomp" not in needed
    with open(other.path("inlined_helpers.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["runtime_libraries"] == []


def test_report_shows_parallel_loops(mod):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    result = subprocess.run([sys.executable, "-m", "kiln", "report",
                             mod.path(f"{MODULE}.kiln.json")], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr
    assert "parallel loop at line 13 (kiln.prange)" in result.stdout
    assert "reductions: s (add)" in result.stdout


def test_set_and_get_num_threads(monkeypatch):
    import kiln
    monkeypatch.delenv("KILN_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3,2")
    assert kiln.get_num_threads() == 3
    kiln.set_num_threads(5)
    assert os.environ["KILN_NUM_THREADS"] == "5" and kiln.get_num_threads() == 5
    with pytest.raises(ValueError, match="'count' must be at least 1"):
        kiln.set_num_threads(0)
    with pytest.raises(TypeError, match="'count' must be int"):
        kiln.set_num_threads(2.0)
    assert kiln.get_num_threads() == 5


def test_default_thread_count_follows_the_affinity_mask():
    """A process pinned to one CPU (a Dask worker, a small container) uses
    one thread, whatever the machine has."""
    code = ("import os, kiln; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
            "print(kiln.get_num_threads(), len(os.sched_getaffinity(0)))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("KILN_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["1", "1"]


def test_prange_is_range_in_python():
    import kiln
    assert list(kiln.prange(2, 10, 3)) == [2, 5, 8]


REFUSED = {
    "recurrence": "`s` is assigned in a kiln.prange loop (line 20)",
    "read_reduction": "`s` is read in a kiln.prange loop (line 29)",
    "shifted": "`a[i + 1]` (line 36) may reach an element of `a`",
    "histogram": "`counts[bins[i]]` may write the same element of `counts`",
    "leaves_early": "`return` cannot leave a kiln.prange loop",
    "mixed_operators": "`s` is combined with mul here and with add on line 58",
    "reads_whole_array": "`np.sum(out)` (line 67) may reach an element of `out`",
    "float_max_second": "write `m = max(m, ...)` in a kiln.prange loop",
}


@pytest.fixture(scope="module")
def refused(tmp_path_factory):
    outdir = tmp_path_factory.mktemp("kiln_parallel_errors")
    result = kiln_build(os.path.join(MODULES, "parallel_errors.py"), outdir)
    assert result.returncode == 0, result.stderr
    with open(os.path.join(outdir, "parallel_errors.kiln.json"), encoding="utf-8") as handle:
        return json.load(handle), result.stderr


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_loop_carried_dependences_are_refused(refused, name):
    data, stderr = refused
    [entry] = [f for f in data["fallbacks"] if f["function"] == name]
    assert REFUSED[name] in entry["reason"]
    assert "parallel_errors.py:" in stderr
    assert next(f for f in data["functions"] if f["name"] == "fine")["compiled"]


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (3, 300), (300, 3), (40, 40)])
def test_nested_parallel_loops(mod, threads, shape):
    """An inner prange, in the body or in a helper the body calls, runs on
    the thread that reaches it."""
    a = np.random.default_rng(shape[0]).integers(-9, 9, size=shape).astype(np.float64)
    # Small integers: every blocked sum is exact.
    assert mod.native.nested(a) == mod.python.nested(a)
    assert mod.native.total_of_rows(a) == mod.python.total_of_rows(a)


@pytest.mark.parametrize("rows", [0, 1, 2, 255, 256, 300])
def test_parallel_option_parallelizes_independent_outer_loops(mod, threads, rows):
    a = np.random.default_rng(rows).normal(size=(rows, 7))
    out, want = np.zeros(rows), np.zeros(rows)
    assert mod.native.auto_rows(a, out) == mod.python.auto_rows(a, want)
    np.testing.assert_array_equal(out, want)
    x = np.arange(1.0, rows + 2.0)
    y = x.copy()
    assert mod.native.auto_last_index(x) == mod.python.auto_last_index(y)
    np.testing.assert_array_equal(x, y)


def test_parallel_option_says_which_loops_stay_sequential(mod):
    functions = {f["name"]: f for f in record(mod)["functions"]}
    rows = functions["auto_rows"]
    assert [loop["line"] for loop in rows["parallel_loops"]] == [rows["line"] + 2]
    [left] = rows["sequential_loops"]
    assert left["line"] == rows["line"] + 8 and "out[i - 1]" in left["reason"]
    [left] = functions["auto_last_index"]["sequential_loops"]
    assert "the loop variable `k` is used outside the loop" in left["reason"]


FIRST_CALL = '''
import kiln
import numpy as np

@kiln.export(strict=True)
def squares(n: int) -> int:
    s = 0
    for i in kiln.prange(n):
        s += i * i
    return s

print(squares(1000), squares.is_compiled, kiln.get_num_threads())
'''


def test_compile_on_first_call(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"),
               KILN_CACHE_DIR=str(tmp_path / "cache"), KILN_NUM_THREADS="3")
    result = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True,
                            text=True, env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(sum(i * i for i in range(1000))), "True", "3"]


@pytest.mark.parametrize("start, stop", [(2**63 - 1000, 2**63 - 1), (-2**63, -2**63 + 999),
                                         (5, 5), (5, -5), (2**63 - 2, 2**63 - 1)])
def test_bounds_near_the_int64_limits(mod, threads, start, stop):
    assert mod.native.near_the_top(start, stop) == mod.python.near_the_top(start, stop)


@pytest.mark.parametrize("m, k, n", [(0, 3, 4), (1, 1, 1), (7, 9, 5), (8, 16, 16), (9, 17, 33),
                                     (64, 64, 64), (193, 129, 130), (300, 40, 257)])
def test_parallel_option_shares_out_matrix_products(mod, threads, m, k, n):
    """parallel=True cuts `a @ b` into slices of rows (an scf.forall given
    to OpenMP); each slice is the blocked kernel of test_matmul.py. Sums
    are in k order within each element, so the result is the same at any
    thread count; against numpy, within the rounding of k terms."""
    from test_matmul import close
    rng = np.random.default_rng(m * 31 + n)
    a, b = rng.normal(size=(m, k)), rng.normal(size=(k, n))
    got = mod.native.parallel_product(a, b)
    close(got, a @ b, k)
    os.environ["KILN_NUM_THREADS"] = "1"
    assert np.array_equal(mod.native.parallel_product(a, b), got)
    close(mod.native.parallel_product_f32(a.astype(np.float32), b.astype(np.float32)),
          a.astype(np.float32) @ b.astype(np.float32), k)
    # Views: a strided operand takes the loops (no slices), a reversed one too.
    close(mod.native.parallel_product(a[::-1], b), a[::-1] @ b, k)


def test_parallel_products_need_libomp_in_the_record(mod):
    functions = {f["name"]: f for f in record(mod)["functions"]}
    assert functions["parallel_product"]["compiled"]
    with open(mod.path(f"{MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    before = header[:header.index(f"{MODULE}_parallel_product(")]
    assert "libomp.so.5's threads" in before[before.rindex("/* Runs"):]


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000, 100_003])
def test_parallel_option_shares_out_array_statements(mod, threads, n):
    rng = np.random.default_rng(n)
    x, y = rng.normal(size=n), rng.normal(size=n)
    out = np.full(n, 5.0)
    got = mod.native.parallel_statements(2.5, x, y, out)
    want_out = np.full(n, 5.0)
    want = mod.python.parallel_statements(2.5, x, y, want_out)
    # np.sin through libmvec: within its few ulps (docs/language.md).
    np.testing.assert_allclose(out, want_out, rtol=1e-14, atol=1e-15)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
    # Strided and reversed views, written in place.
    base = np.zeros(2 * n)
    mod.native.parallel_statements(2.5, x[::-1], y, base[::2])
    np.testing.assert_allclose(base[::2], 2.5 * x[::-1] + np.sin(y), rtol=1e-14, atol=1e-15)
    assert not base[1::2].any()
    m = rng.normal(size=(n % 41, 3))
    np.testing.assert_array_equal(mod.native.parallel_new_array(m),
                                  mod.python.parallel_new_array(m))
    xs, w, b = rng.normal(size=(n % 300, 17)), rng.normal(size=(17, 9)), rng.normal(size=9)
    from test_matmul import close
    close(mod.native.parallel_layer(xs, w, b), np.maximum(xs @ w + b, 0.0), 17)


def test_overlapping_arrays_are_refused(mod, threads):
    """An array the loop writes that shares memory with one it reads (the
    same array passed twice, a view of it) would make iterations race:
    ValueError before any iteration runs, the arrays untouched."""
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="shares memory with another array it reads"):
        mod.native.doubled_into(x, x)
    with pytest.raises(ValueError, match="shares memory"):
        mod.native.doubled_into(x[::2], x[1::2])    # interleaved: spans overlap
    assert x.tolist() == list(np.arange(10.0))
    out = np.zeros(10)
    mod.native.doubled_into(x, out)
    assert out.tolist() == (x[::-1] * 2.0).tolist()
    halves = np.arange(20.0)
    mod.native.doubled_into(halves[:10], halves[10:])   # one buffer, disjoint spans
    assert halves[10:].tolist() == (np.arange(10.0)[::-1] * 2.0).tolist()


REDUCTION_SIZES = [0, 1, 7, 16383, 16384, 16385, 100_003, 256 * 16384 + 5]


@pytest.mark.parametrize("n", REDUCTION_SIZES)
def test_parallel_option_shares_out_reductions(mod, monkeypatch, n):
    """parallel=True cuts whole-array reductions into blocks of rows (at
    least 16384 elements each, at most 256 blocks) combined in block
    order: numpy's result to rounding (numpy adds pairwise), exact for
    ints and bools, and the same bits at 1, 2 and 3 threads."""
    rng = np.random.default_rng(n)
    x = rng.normal(size=n)
    m = rng.normal(size=(n // 3 + 1, 3))
    v = rng.integers(-2**62, 2**62, size=n)
    w = rng.integers(-3, 4, size=(n % 50, 7)).astype(np.int32)
    truth = x > 3.5
    z = x + 1j * x[::-1]
    cases = [("shared_float_reductions", (x, m)), ("shared_float_reductions", (x[::-1], m.T)),
             ("shared_float_reductions", (x[::3], m[::2, ::-1])),
             ("shared_float32_sum", (x.astype(np.float32),)),
             ("shared_int_reductions", (v, w)), ("shared_int_reductions", (v[::-2], w.T)),
             ("shared_truth", (truth,)), ("shared_truth", (~truth,)),
             ("shared_complex_sum", (z,))]
    results = {}
    for threads in THREADS:
        monkeypatch.setenv("KILN_NUM_THREADS", threads)
        results[threads] = [repr(getattr(mod.native, name)(*args)) for name, args in cases]
    assert results["1"] == results["2"] == results["3"]
    for name, args in cases:
        got, want = getattr(mod.native, name)(*args), getattr(mod.python, name)(*args)
        if name in ("shared_int_reductions", "shared_truth"):
            assert got == want, name                     # ints wrap as numpy's
        else:
            np.testing.assert_allclose(got, want, rtol=1e-11 if "32" not in name else 1e-5,
                                       atol=1e-9 if "32" not in name else 1e-2, err_msg=name)


@pytest.mark.parametrize("special", [np.nan, np.inf, -np.inf])
def test_shared_reductions_of_special_floats(mod, threads, special):
    for n, where in [(20, 0), (100_003, 50_000), (100_003, 100_002)]:
        x = np.ones(n)
        x[where] = special
        got = mod.native.shared_float_reductions(x, x[:6].reshape(2, 3))
        want = mod.python.shared_float_reductions(x, x[:6].reshape(2, 3))
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("shape", [(0, 5), (1, 1), (3, 40_000), (500, 70)])
def test_reductions_inside_a_parallel_loop_stay_on_its_thread(mod, threads, shape):
    m = np.random.default_rng(7).normal(size=shape)
    out = np.zeros(shape[0])
    mod.native.row_sums_in_a_parallel_loop(m, out)
    np.testing.assert_allclose(out, m.sum(axis=1), rtol=1e-12, atol=1e-12)


def test_record_lists_what_parallel_true_shares_out(mod):
    functions = {f["name"]: f for f in record(mod)["functions"]}
    kinds = {name: [(loop["kind"], [r["name"] for r in loop["reductions"]])
                    for loop in functions[name]["parallel_loops"]]
             for name in ("shared_float_reductions", "parallel_layer", "parallel_statements",
                          "row_sums_in_a_parallel_loop", "total")}
    reduction = "parallel=True: whole-array reduction"
    assert kinds["shared_float_reductions"] == [
        (reduction, ["np.sum"]), (reduction, ["np.mean"]), (reduction, ["np.max"]),
        (reduction, ["np.sum"]), (reduction, ["np.sum"]), (reduction, ["np.sum"])]
    assert kinds["parallel_layer"] == [("parallel=True: matrix product", []),
                                       ("parallel=True: whole-array statement", [])]
    assert kinds["parallel_statements"] == [("parallel=True: whole-array statement", []),
                                            (reduction, ["np.sum"])]
    # The row sums run inside the loop's iterations, each on its thread.
    assert kinds["row_sums_in_a_parallel_loop"] == [("kiln.prange", [])]
    assert [k for k, _ in kinds["total"]] == ["kiln.prange"]
    report = subprocess.run([sys.executable, "-m", "kiln", "report",
                             mod.path(f"{MODULE}.kiln.json")], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert report.returncode == 0, report.stderr
    assert "parallel loop at line" in report.stdout and \
        "(parallel=True: whole-array reduction): static: at most 256 blocks" in report.stdout


def test_parallel_option_leaves_constant_empty_dimensions_whole(mod):
    """A statement over a shape with a constant 0 past the first axis has no
    iterations to share (upstream's tiling of it crashed kilnc)."""
    for n in (1, 4):
        got = mod.native.empty_rows_plus(2.0, n)
        assert got.shape == (7, 0) and got.dtype == np.float64
        assert got.shape == mod.python.empty_rows_plus(2.0, n).shape


STATIC_SHARES_DRIVER = r"""
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
void kiln_for_static_init_8u(void *, int32_t, int32_t, int32_t *, uint64_t *, uint64_t *,
                             int64_t *, int64_t, int64_t);
int main(void) {
  const uint64_t trip_counts[] = {0, 1, 2, 3, 7, 8, 255, 256, 257, 100003};
  for (int threads = 1; threads <= 9; threads++)
    for (unsigned k = 0; k < sizeof trip_counts / sizeof *trip_counts; k++) {
      uint64_t trips = trip_counts[k], lows[16], counts[16];
      int lasts[16], team = 0;
#pragma omp parallel num_threads(threads)
      {
        int32_t last = -1;
        uint64_t lower = 0, upper = trips - 1;     /* as MLIR's translation passes them */
        int64_t stride = 1;
        kiln_for_static_init_8u(0, 0, 34, &last, &lower, &upper, &stride, 1, 0);
        int me = omp_get_thread_num();
        lows[me] = lower;
        counts[me] = upper - lower + 1;
        lasts[me] = last;
#pragma omp single
        team = omp_get_num_threads();
      }
      uint64_t next = 0;
      int owners_of_last = 0;
      for (int t = 0; t < team; t++) {
        if (counts[t] && lows[t] != next) { printf("gap %d %llu\n", threads, (unsigned long long)trips); return 1; }
        next += counts[t];
        owners_of_last += lasts[t];
        if (counts[t] + 1 < trips / team || counts[t] > trips / team + 1) { printf("unbalanced\n"); return 1; }
      }
      if (next != trips || owners_of_last != (trips > 0)) {
        printf("cover %d %llu %llu %d\n", threads, (unsigned long long)trips, (unsigned long long)next, owners_of_last);
        return 1;
      }
    }
  puts("ok");
  return 0;
}
"""


def test_static_loop_shares_partition_the_iterations(tmp_path):
    """runtime/kiln_omp_static.c, which kilnc calls instead of libomp's
    __kmpc_for_static_init_8u (Debian's formats a trace string at every
    loop): at 1 to 9 threads and trip counts from 0 up, the threads'
    shares are contiguous, in thread order, balanced to one iteration, and
    cover every iteration once; one thread owns the last."""
    driver = tmp_path / "driver.c"
    driver.write_text(STATIC_SHARES_DRIVER)
    binary = tmp_path / "driver"
    subprocess.run(["clang-22", "-O1", "-fopenmp", str(driver),
                    os.path.join(REPO, "runtime", "kiln_omp_static.c"), "-o", str(binary)],
                   check=True)
    result = subprocess.run([str(binary)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout


def test_parallel_loops_do_not_call_the_runtimes_static_init(mod):
    undefined = subprocess.run(["nm", "-D", "--undefined-only", mod.path(f"lib{MODULE}.so")],
                               check=True, capture_output=True, text=True).stdout
    assert "__kmpc_fork_call" in undefined
    assert "__kmpc_for_static_init" not in undefined and "__kmpc_for_static_fini" not in undefined


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (3, 0), (7, 5), (300, 70), (20000, 3),
                                   (3, 20000)])
def test_parallel_option_shares_out_reductions_along_an_axis(mod, monkeypatch, shape):
    """parallel=True: a reduction along an axis is cut into blocks of rows of
    its result when the reduced axis runs innermost (each result element
    reduced in order by one thread): the same bits at 1, 2 and 3 threads,
    numpy's result to rounding, exact for ints; in C and Fortran order."""
    rng = np.random.default_rng(shape[0] * 7 + shape[1])
    m = rng.normal(size=shape)
    v = rng.integers(-2**40, 2**40, size=(shape[0], 3, shape[1] % 50 + 1))

    def run(side, x, y):
        outs = (np.zeros(x.shape[0]), np.zeros(x.shape[1]),
                np.zeros((y.shape[0], y.shape[1]), np.int64),
                np.zeros((y.shape[0], y.shape[2])))
        outcome = "ok"
        try:
            side.shared_axis_reductions(x, y, *outs)
        except ValueError as error:
            outcome = str(error).split(" (")[0]
        return outcome, outs

    layouts = [(m, v), (np.asfortranarray(m), v[:, ::-1, ::2]), (m[::-1, ::2], v.T.copy().T)]
    results = {}
    for threads in THREADS:
        monkeypatch.setenv("KILN_NUM_THREADS", threads)
        results[threads] = [(o, [a.tobytes() for a in outs])
                            for o, outs in (run(mod.native, x, y) for x, y in layouts)]
    assert results["1"] == results["2"] == results["3"]
    for x, y in layouts:
        (got_outcome, got), (want_outcome, want) = run(mod.native, x, y), run(mod.python, x, y)
        assert got_outcome == want_outcome
        np.testing.assert_allclose(got[0], want[0], rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(got[1], want[1])
        np.testing.assert_array_equal(got[2], want[2])
        np.testing.assert_allclose(got[3], want[3], rtol=1e-12)
    functions = {f["name"]: f for f in record(mod)["functions"]}
    kinds = [loop["kind"] for loop in functions["shared_axis_reductions"]["parallel_loops"]]
    assert kinds.count("parallel=True: reduction along an axis") == 4, kinds
