"""Recursion (issue 30) against CPython running the same source
(modules/recursion.py): direct and mutual recursion over numbers, tuples
and lists; exceptions raised deep inside (the same type, message and line);
RecursionError past the depth limit instead of a stack overflow; memory
flat over many calls, raising ones included; the C ABI of an exported
recursive function (no hidden argument in <mod>.h); kiln-inline-helpers
leaves recursive functions alone. The typing errors are pinned at the end
(no backend needed)."""

import json
import os
import resource
import subprocess
import sys
import textwrap

import pytest

from kiln.frontend.source import load_module
from kiln.mlir.code_generator import generate_module

MODULE = "recursion"
CLANG = "/usr/lib/llvm-22/bin/clang"


@pytest.fixture(autouse=True)
def cpython_default_recursion_limit():
    """CPython's default limit while these tests run: an import elsewhere
    in the process (IPython's sets 3000) must not let the CPython side
    recurse deeper than the compiled side is compared with."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(limit)


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    """(result, (exception type, message without Kiln's location, line of
    the innermost frame in the module's source)) of one call."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0], error_line(error),
                      source_lines(error))


def error_line(error) -> int:
    """The source line an exception was raised at: Kiln's message names it
    (`(recursion.py, line N)`), CPython's traceback does."""
    text = str(error)
    if f"{MODULE}.py, line " in text:
        return int(text.rsplit("line ", 1)[1].rstrip(")"))
    frames = [tb for tb in walk_traceback(error.__traceback__)
              if tb.tb_frame.f_code.co_filename.endswith(f"modules/{MODULE}.py")]
    return frames[-1].tb_lineno


def source_lines(error) -> set:
    """The module's lines in the exception's traceback (CPython's)."""
    return {tb.tb_lineno for tb in walk_traceback(error.__traceback__)
            if tb.tb_frame.f_code.co_filename.endswith(f"modules/{MODULE}.py")}


def walk_traceback(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def copied(args):
    return [list(a) if isinstance(a, list) else a for a in args]


def same(mod, name, *args):
    """Kiln and CPython agree on the result (and its type), or on the
    exception and its line, and on the list arguments afterwards."""
    native_args, python_args = copied(args), copied(args)
    got, got_error = outcome(getattr(mod.native, name), *native_args)
    want, want_error = outcome(getattr(mod.python, name), *python_args)
    if got_error and want_error and got_error[0] == want_error[0] == "RecursionError":
        # Which call of a cycle reaches the limit depends on the frames
        # below the first one, which CPython counts: it is one of CPython's
        # recursive calls.
        assert got_error[1] == want_error[1] and got_error[2] in want_error[3], \
            (name, args, got_error, want_error)
    else:
        assert got_error == want_error or got_error[:3] == want_error[:3], \
            (name, args, got_error, want_error)
    assert got == want and type(got) is type(want), (name, args, got, want)
    assert native_args == python_args, (name, args)
    return got


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        record = json.load(handle)
    assert record["fallbacks"] == []


@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 20])
def test_direct_and_mutual(mod, n):
    same(mod, "factorial", n)
    same(mod, "fibonacci", n)
    same(mod, "parity", n)
    same(mod, "parity", 7 * n + 1)
    same(mod, "fast_power", 1.5, n)
    same(mod, "fast_power", -0.5, 3 * n)
    same(mod, "gcd_with_steps", 1071 * n, 462)
    same(mod, "gcd_with_steps", n, 0)
    same(mod, "ping_pong", n)
    same(mod, "many_calls", 10 * n)
    same(mod, "memo_fibonacci", 4 * n)
    same(mod, "collatz_visits", n)
    same(mod, "collatz_visits", 27 + n)


def test_ackermann(mod):
    for m in range(3):
        for n in range(6):
            same(mod, "ackermann", m, n)
    same(mod, "ackermann", 3, 3)
    same(mod, "ackermann", 3, 5)        # 253, nesting 255 deep
    same(mod, "ackermann", 3, 7)        # nesting past the limit: RecursionError


@pytest.mark.parametrize("values", [[], [2.5], [1.0, -0.0, 3.5], [0.1 * k for k in range(300)]],
                         ids=len)
def test_lists_through_recursion(mod, values):
    same(mod, "recursive_sum", values)
    same(mod, "merge_sort", [int(v * 7) % 11 - 5 for v in values])
    same(mod, "squares_down", len(values))
    for fanout in (1, 2, 3):
        same(mod, "depth_first", len(values), fanout)


@pytest.mark.parametrize("depth", [0, 1, 10, 500])
def test_exceptions_deep_inside(mod, depth):
    """IndexError and ZeroDivisionError at the bottom of the recursion:
    CPython's type, message and line; with enough items, no error."""
    same(mod, "raises_deep", [1, 2, 3], depth)
    same(mod, "raises_deep", list(range(20)), depth)
    same(mod, "zero_division_deep", depth, 0)
    same(mod, "zero_division_deep", depth, 3)


@pytest.mark.parametrize("name, args", [
    ("down", (10**5,)), ("ping_pong", (10**4,)), ("lists_down", (5000,)),
    ("recursive_sum", ([0.5] * 5000,)), ("squares_down", (10**6,)),
    ("nested_cycles", (600, 600)), ("fibonacci", (2000,)), ("memo_fibonacci", (5000,))])
def test_recursion_error_instead_of_a_crash(mod, name, args):
    """Far past the limit, both raise RecursionError with CPython's message,
    at the line of the call that went too deep."""
    same(mod, name, *args)


def test_the_limit(mod):
    """Kiln allows 1000 nested calls of recursive functions (CPython's
    default sys.getrecursionlimit()); CPython counts the frames below the
    first call too, so it stops a few calls earlier (docs/language.md,
    "Recursion")."""
    for n in (500, 900):
        same(mod, "down", n)
        same(mod, "nested_cycles", n // 2, n // 2)
    assert mod.native.down(999) == 999                # 1000 calls deep
    with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
        mod.native.down(1000)
    assert mod.native.nested_cycles(499, 499) == 998  # 500 + 500: the depths add up
    with pytest.raises(RecursionError):
        mod.native.nested_cycles(500, 500)
    with pytest.raises(RecursionError):
        mod.python.down(1000)


def test_memory_stays_flat(mod):
    """Lists made at every level, freed on return and when a RecursionError
    or IndexError unwinds 1000 levels: no growth of the RSS."""
    native = mod.native

    def run(times):
        for _ in range(times):
            native.merge_sort([5, 3, 9, 1, 7, 2, 8])
            native.depth_first(40, 3)
            native.squares_down(30)
            native.memo_fibonacci(90)
            try:
                native.memo_fibonacci(1500)
            except RecursionError:
                pass
            try:
                native.lists_down(1200)
            except RecursionError:
                pass
            try:
                native.raises_deep([1, 2], 300)
            except IndexError:
                pass

    run(500)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(3000)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 2_000, f"RSS grew by {grown} KiB"


def test_c_program_calls_recursive_functions(mod, tmp_path):
    """`<mod>.h` declares the exported recursive functions with their own
    parameters (the hidden depth argument stays inside the library), and a
    C caller gets RecursionError through the error record."""
    with open(mod.path(f"{MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    assert "int64_t recursion_down(int64_t n, kiln_error *error);" in header
    assert ".recursive" not in header and "depth" not in header.split("recursion_down")[1][:40]
    program = tmp_path / "main.c"
    program.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include "recursion.h"
        int main(void) {
          kiln_error error = {0};
          long long f = recursion_factorial(20, &error);
          printf("factorial %lld kind %d\\n", f, error.kind);
          long long d = recursion_down(500, &error);
          printf("down %lld kind %d\\n", d, error.kind);
          kiln_error deep = {0};
          char text[128];
          d = recursion_down(100000, &deep);
          printf("down %lld kind %d line %d: %s\\n", d, deep.kind, deep.line,
                 kiln_error_text(&deep, text, sizeof text));
          return 0;
        }
    """))
    executable = tmp_path / "main"
    subprocess.run([CLANG, "-std=c11", "-Wall", "-Wextra", "-Werror", str(program), "-I",
                    mod.outdir, "-L", mod.outdir, f"-l{MODULE}",
                    f"-Wl,-rpath,{mod.outdir}", "-o", str(executable)], check=True)
    output = subprocess.run([str(executable)], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    line = error_line_of_down(mod)
    assert output == ["factorial 2432902008176640000 kind 0", "down 500 kind 0",
                      f"down 0 kind 9 line {line}: maximum recursion depth exceeded"]


def error_line_of_down(mod) -> int:
    with pytest.raises(RecursionError) as info:
        mod.native.down(10**5)
    return error_line(info.value)


def test_inline_helpers_leaves_recursive_functions_alone(mod):
    """kiln-inline-helpers inlines small helpers of numbers, but never a
    function of a recursion cycle: not into itself, not into the other
    functions of its cycle, not into its callers outside (MLIR's inliner
    would unroll a cycle of two once into an outside caller)."""
    kiln_opt = os.path.join(os.path.dirname(os.environ.get("KILN_KILNC", "kilnc")), "kiln-opt")
    if not os.path.exists(kiln_opt):
        pytest.skip("no kiln-opt beside kilnc")
    inlined = subprocess.run([kiln_opt, mod.path(f"{MODULE}.kiln.mlir"), "-kiln-inline-helpers"],
                             capture_output=True, text=True, check=True).stdout
    bodies = {}
    current = None
    for text in inlined.splitlines():
        if "func.func" in text:
            current = text.split("@")[1].split("(")[0]
            bodies[current] = []
        elif current is not None:
            bodies[current].append(text)
    calls = {name: sum(1 for text in lines if "call @" in text) for name, lines in bodies.items()}
    for name in ("down", "fibonacci", "is_even", "is_odd", "ping", "pong", "factorial_of",
                 "ackermann"):
        assert f"{MODULE}_{name}.recursive" in bodies, name
    assert calls[f"{MODULE}_fibonacci.recursive"] == 2
    assert calls[f"{MODULE}_is_even.recursive"] == 1
    assert calls[f"{MODULE}_ping.recursive"] == 1
    # parity calls is_even and is_odd: two calls, no inlined copy of either
    assert calls[f"{MODULE}_parity"] == 2
    assert calls[f"{MODULE}_ping_pong"] == 1


# ------------------------------------------------------ typing, no backend
def failures_of(tmp_path, source, name="rec"):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    context = load_module(str(path))
    _, signatures, failures = generate_module(context, context.exported_functions())
    return {n: [str(d) for d in error.diagnostics] for n, error in failures.items()}, \
        [s.name for s in signatures]


def test_unannotated_recursive_function_is_a_clear_error(tmp_path):
    failures, compiled = failures_of(tmp_path, """\
        import kiln


        def count(n):
            return 0 if n == 0 else 1 + count(n - 1)


        @kiln.export
        def uses_count(n: int) -> int:
            return count(n)


        @kiln.export
        def no_result(n: int):
            return 0 if n == 0 else no_result(n - 1)


        @kiln.export
        def fine(n: int) -> int:
            return 0 if n <= 0 else fine(n - 2) + 1
        """)
    assert compiled == ["fine"]
    [diagnostic] = failures["uses_count"]
    assert diagnostic.startswith(f"{tmp_path}/rec.py:10:12: calls `count`, which cannot be "
                                 "compiled (`count` calls itself (directly or through other "
                                 "functions), so its parameters and result need annotations")
    assert "annotate `n` and the result (`-> None` if it returns nothing), line 5)" in diagnostic
    [diagnostic] = failures["no_result"]
    assert diagnostic.startswith(f"{tmp_path}/rec.py:15:29: `no_result` calls itself")
    assert diagnostic.endswith("annotate the result (`-> None` if it returns nothing)")


def test_mutual_recursion_needs_the_annotations_of_the_function_reentered(tmp_path):
    failures, compiled = failures_of(tmp_path, """\
        import kiln


        def even(n: int):
            return True if n == 0 else odd(n - 1)


        def odd(n: int) -> bool:
            return False if n == 0 else even(n - 1)


        @kiln.export
        def check(n: int) -> bool:
            return even(n)
        """)
    assert compiled == []
    [diagnostic] = failures["check"]
    assert diagnostic.startswith(f"{tmp_path}/rec.py:14:12: calls `even`, which cannot be "
                                 "compiled (calls `odd`, which cannot be compiled (`even` calls "
                                 "itself")


def test_arrays_in_a_recursion_cycle_are_refused(tmp_path):
    failures, compiled = failures_of(tmp_path, """\
        import kiln


        def total(a: kiln.f64[:], i: int) -> float:
            return 0.0 if i == len(a) else a[i] + total(a, i + 1)


        @kiln.export
        def array_sum(a: kiln.f64[:]) -> float:
            return total(a, 0)


        @kiln.export
        def numbers(n: int) -> int:
            return 0 if n == 0 else numbers(n - 1) + 1
        """)
    assert compiled == ["numbers"]
    [diagnostic] = failures["array_sum"]
    assert diagnostic.startswith(f"{tmp_path}/rec.py:10:12: calls `total`, which cannot be "
                                 "compiled (`total` is recursive and parameter `a` is an array: "
                                 "recursive functions take and return numbers, tuples of numbers, "
                                 "lists, dicts and sets, not arrays, yet")
