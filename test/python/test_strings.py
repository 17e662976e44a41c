"""Python's str compiled natively (issue 30) against CPython running the
same source (modules/strings.py): the empty string, one character, ASCII,
Latin-1, the BMP and astral code points, whitespace of every kind, Unicode
digits, indices and slices of every shape (negative, out of range, zero
steps: the same exception type and message as CPython), int()/float() of
invalid text (CPython's message, the text's repr included), big repeat
counts, empty needles; f-strings, the methods, helpers, branches, loops,
recursion; memory stays flat over many calls; the header and stubs say
str / kiln_str *. The refusals (each a compile error at file:line:col) and
the MLIR need no backend and are pinned at the end."""

import json
import math
import os
import resource
import shutil
import subprocess

import pytest

from kiln.frontend.source import load_module
from kiln.mlir.code_generator import generate_module
from kiln.typecheck.type_inference import infer_module

MODULE = "strings"
HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = "/usr/lib/llvm-22/bin/clang"

# Edge inputs: each kind of storage (1, 2 and 4 bytes a code point), each
# kind of whitespace str.isspace() knows, digits of other scripts, case
# mappings that change the length.
TEXTS = ["", "a", "ab", "abc", "hello world", "é", "ßΣ中", "😀", "a😀b中é", "aaa", "abcabcab",
         " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u3000x y\u3000 ",
         "١٢٣", "123", "Hello World 42", "ÀÉÎ ǅ İ ß ﬁ", "UPPER", "lower", "MiXeD", "½²", "\x00z",
         "ab" * 40 + "é", "a b  c\td"]
NEEDLES = ["", "a", "b", "ab", "é", "😀", "中", "zz", " ", "abc"]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    """(result, exception type and message) of one call; messages of
    compiled code end with the source location (" (file, line N)"), left
    out."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0])


def same_value(got, want) -> bool:
    """Equal with the same types (a str is a str, a float keeps its sign
    and NaN), through tuples."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(
            same_value(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float):
        return type(got) is float and got == want and \
            math.copysign(1.0, got) == math.copysign(1.0, want)
    return type(got) is type(want) and got == want


def same(mod, name, *args):
    """The native function and CPython agree on the result and on the
    exception (type and message)."""
    got, got_error = outcome(getattr(mod.native, name), *args)
    want, want_error = outcome(getattr(mod.python, name), *args)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert same_value(got, want), (name, args, got, want)
    return got


@pytest.mark.parametrize("n", [0, 1, 3, 40, 5000])
@pytest.mark.parametrize("text", ["", "ab", "中", "😀x"])
def test_appending_keeps_aliases(mod, text, n):
    """`s += t` (kiln.str.append, in place when the string is only the
    name's): earlier values held by other names stay as they were."""
    same(mod, "appended_aliases", text, n)


def test_everything_compiles(mod):
    with open(mod.path(f"{MODULE}.kiln.json"), encoding="utf-8") as handle:
        assert json.load(handle)["fallbacks"] == []


@pytest.mark.parametrize("text", TEXTS)
def test_one_text(mod, text):
    for name in ("identity", "length", "ord_of", "truth", "iterate", "enumerate_chars",
                 "reversed_by_loop", "str_of_str", "strips", "cases", "properties",
                 "while_loop", "temporaries", "words", "recursive", "digits_value",
                 "through_helpers", "no_result", "to_int", "to_float", "aliasing", "vowels"):
        same(mod, name, text)
    for n in (-3, 0, 1, 2, 7):
        same(mod, "repeat", text, n)
        same(mod, "repeat_left", text, n)
        same(mod, "augmented", text, max(n, 0))
        same(mod, "branches", text, n)
        same(mod, "caesar", text, n)
    for flag in (False, True):
        same(mod, "chosen", text, flag)


@pytest.mark.parametrize("text", ["", "a", "é", "a😀b中é", "hello"])
def test_indices_and_slices(mod, text):
    bounds = [-(2**63), -100, -6, -5, -2, -1, 0, 1, 2, 4, 5, 6, 100, 2**63 - 1]
    for i in bounds:
        same(mod, "index_at", text, i)       # IndexError: string index out of range
        same(mod, "code_at", text, i)
    for a in (-7, -2, 0, 1, 3, 9):
        for b in (-9, -1, 0, 2, 4, 50):
            same(mod, "slice_forms", text, a, b)
            for c in (-3, -1, 0, 1, 2, 5, 2**63 - 1, -(2**63)):
                same(mod, "sliced", text, a, b, c)     # ValueError for a zero step
    for a in bounds:
        same(mod, "sliced", text, a, -a if a != -(2**63) else 0, 1)


@pytest.mark.parametrize("a", TEXTS[:12])
def test_pairs(mod, a):
    for b in TEXTS[:12] + ["a", "b", "aa", "ab\x00"]:
        same(mod, "concat", a, b)
        same(mod, "comparisons", a, b)
        same(mod, "chained", a, b, a + b)
        same(mod, "chained", b, a, "zz")
        same(mod, "chained_temporaries", a, b)
        same(mod, "contains", b, a)
        same(mod, "zip_chars", a, b)
        same(mod, "smallest_largest", a, b)


@pytest.mark.parametrize("text", TEXTS)
def test_methods(mod, text):
    for needle in NEEDLES:
        same(mod, "searches", text, needle)
        same(mod, "index_of", text, needle)         # ValueError: substring not found
        same(mod, "rindex_of", text, needle, 1)
        same(mod, "prefix_suffix", text, needle)
        same(mod, "contains", needle, text)
        same(mod, "early_return", text, needle[:1] or "x")
        for a, b in ((0, 100), (1, 3), (-3, -1), (5, 2), (-100, 100), (2, 2)):
            same(mod, "bounded_searches", text, needle, a, b)
        for new in ("", "X", "😀😀"):
            same(mod, "replaced", text, needle, new)
            for n in (-1, 0, 1, 2, 100):
                same(mod, "replaced_count", text, needle, new, n)
    for chars in ("", " ", "ab", "a😀", "\u3000 x", "é"):
        same(mod, "strips_chars", text, chars)


@pytest.mark.parametrize("text", ["0", "-17", "+5", " 42\n", "1_000", "٣", "１２", "9" * 18,
                                  "-9223372036854775808", "9223372036854775807", "", "abc",
                                  "1.5", "1e3", "inf", "-Infinity", "nan", "  -0.0 ", "0x10",
                                  "1__0", "_1", "é", "12 34", "1e400", ".5", "5.", "\u3000"
                                  "7\u3000"])
def test_numbers_from_text(mod, text):
    same(mod, "to_int", text)       # ValueError: invalid literal for int() ... (the repr)
    same(mod, "to_float", text)     # ValueError: could not convert string to float: ...


def test_int_beyond_64_bits_is_an_overflow_error(mod):
    """CPython's int is unbounded; Kiln's is 64-bit (docs/language.md)."""
    with pytest.raises(OverflowError):
        mod.native.to_int("9223372036854775808")
    with pytest.raises(OverflowError):
        mod.native.to_int("-" + "9" * 30)


@pytest.mark.parametrize("n", [0, 1, -1, 7, -123456789, 2**63 - 1, -(2**63), 10**15])
def test_str_of_numbers(mod, n):
    same(mod, "str_of_int", n)
    same(mod, "formatted_plain", n)
    for x in (0.0, -0.0, 1.5, 0.1, 1e16, 1e-5, 123456789.123, 1e300, -2.5e-300,
              float("inf"), float("-inf"), float("nan"), float(n), 2.0**0.5):
        same(mod, "str_of_float", x)
        if n != -(2**63):       # -n wraps in Kiln's 64-bit ints
            same(mod, "formatted", "é😀", n, x, n % 2 == 0)
    for b in (False, True):
        same(mod, "str_of_bool", b)


@pytest.mark.parametrize("i", [-1, 0, 65, 233, 255, 256, 0x3A3, 0xD7FF, 0xE000, 0xFFFF,
                               0x10000, 0x1F600, 0x10FFFF, 0x110000, 2**31 - 1, -(2**31)])
def test_chr(mod, i):
    same(mod, "chr_of", i)          # ValueError: chr() arg not in range(0x110000)


def test_chr_beyond_a_c_int_is_a_value_error(mod):
    """CPython's OverflowError ('Python int too large to convert to C int')
    is Kiln's ValueError (docs/language.md)."""
    with pytest.raises(ValueError, match=r"chr\(\) arg not in range\(0x110000\)"):
        mod.native.chr_of(2**40)


def test_big_repeat_counts(mod):
    for text, n in (("ab", 100_000), ("é", 50_001), ("😀", 30_000), ("", 2**62), ("x", 1)):
        same(mod, "repeat", text, n)
    with pytest.raises(MemoryError):
        mod.native.repeat("ab", 2**62)


def test_literals_and_loops_over_them(mod):
    for n in (0, 3):
        same(mod, "literal_loop", n)


def test_str_defaults(mod):
    """A str default (a literal or a module constant) in Kiln callers and
    at the boundary."""
    for args in (("x",), ("x", "-"), ("x", "-", "é"), ("", "", "", 5), ("ab", "😀", "\x00", 0)):
        same(mod, "with_defaults", *args)
    assert mod.native.with_defaults("a", n=1, c="+") == mod.python.with_defaults("a", n=1, c="+")


def test_wrong_argument_types_name_the_parameter(mod):
    with pytest.raises(TypeError, match=r"concat\(\) argument 'b' must be str, not int"):
        mod.native.concat("a", 1)
    with pytest.raises(TypeError, match=r"length\(\) argument 's' must be str, not bytes"):
        mod.native.length(b"a")


def test_returned_strings_are_new_python_strings(mod):
    text = "héllo wörld 😀" * 3
    result = mod.native.identity(text)
    assert result == text and type(result) is str
    assert mod.native.concat("", "") == ""
    # A str subclass is read as its text (CPython's own str methods do too).
    class Name(str):
        pass
    assert mod.native.cases(Name("Ab")) == "ab|AB"


def test_memory_stays_flat_over_calls(mod):
    """Strings made, concatenated, sliced, compared, returned and dropped
    by exceptions: resident memory does not grow (a string leaked per call
    would show)."""
    native = mod.native
    text = "héllo wörld 😀 " * 4
    calls = [lambda: native.concat(text, "x"), lambda: native.formatted(text, 7, 1.5, True),
             lambda: native.slice_forms(text, 1, 5), lambda: native.chained_temporaries("a", "b"),
             lambda: native.smallest_largest(text, "b"), lambda: native.reversed_by_loop("abcé"),
             lambda: native.recursive("abcdef"), lambda: native.temporaries(text),
             lambda: native.caesar(text, 3), lambda: native.through_helpers(text),
             lambda: native.early_return(text, "w"), lambda: native.replaced(text, "l", "LL"),
             lambda: native.chosen(text, False), lambda: native.aliasing(text),
             lambda: native.vowels(text), lambda: native.literal_loop(2)]
    failing = [lambda: native.to_int(text), lambda: native.index_at(text, 1000),
               lambda: native.index_of(text, "zzz"), lambda: native.ord_of(text)]

    def run(times):
        for _ in range(times):
            for call in calls:
                call()
            for call in failing:
                try:
                    call()
                except (ValueError, IndexError, TypeError):
                    pass

    run(3_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(30_000)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 2_000, f"RSS grew by {grown} KiB"


def test_header_and_stubs_say_str(mod):
    with open(mod.path(f"{MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    assert "kiln_str *strings_concat(kiln_str *a, kiln_str *b, kiln_error *error);" in header
    assert "kiln_str *strings_chosen(kiln_str *s, bool flag);" in header
    assert "int64_t strings_length(kiln_str *s);" in header
    assert "borrowed strings" in header and "kiln_str_drop()" in header
    with open(mod.path(f"{MODULE}.pyi"), encoding="utf-8") as handle:
        stubs = handle.read()
    assert "def concat(a: str, b: str) -> str: ..." in stubs
    assert "def searches(s: str, sub: str) -> tuple[int, int, int]: ..." in stubs


def test_c_program_calls_string_functions_by_the_header_s_rules(mod, tmp_path):
    """A C caller following <mod>.h's comment: malloc'd strings of each kind,
    a returned string dropped, the caller's dropped after a call that
    returned and freed after one that raised (ValueError with the text's
    repr in the record); under AddressSanitizer, so a leak or a double free
    fails. The library is compiled code with kiln_str.c linked in."""
    import textwrap
    program = tmp_path / "main.c"
    program.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include "strings.h"

        static kiln_str *make(const void *points, int64_t length, int32_t kind) {
          kiln_str *str = malloc(sizeof(kiln_str) + (size_t)(length + 1) * (size_t)kind);
          str->refcount = 1;
          str->length = length;
          str->hash = -1;
          str->journal_index = -1;
          str->kind = kind;
          str->outside_references = 0;
          memcpy(kiln_str_data(str), points, (size_t)length * (size_t)kind);
          memset(kiln_str_data(str) + length * kind, 0, (size_t)kind);
          return str;
        }

        int main(void) {
          kiln_str *ascii = make("hello", 5, 1);
          const uint32_t astral[] = {0x61, 0x1F600, 0x4E2D};
          kiln_str *wide = make(astral, 3, 4);
          kiln_error error = {0};
          kiln_str *joined = strings_concat(ascii, wide, &error);
          printf("kind %d length %lld\\n", joined->kind, (long long)joined->length);
          kiln_str_drop(joined);
          printf("length %lld\\n", (long long)strings_length(wide));
          kiln_str *bad = make("x1", 2, 1);
          int64_t value = strings_to_int(bad, &error);
          char text[128];
          printf("raised %d: %s (%lld)\\n", error.kind, kiln_error_text(&error, text, sizeof text),
                 (long long)value * 0);
          kiln_error_clear(&error);
          free(bad);       /* after an error: freed whatever its refcount */
          kiln_str_drop(ascii);
          kiln_str_drop(wide);
          return 0;
        }
    """))
    executable = tmp_path / "main"
    directory = mod.outdir
    subprocess.run([CLANG, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsanitize=address",
                    "-g", str(program), "-I", directory, "-L", directory, f"-l{MODULE}",
                    f"-Wl,-rpath,{directory}", "-o", str(executable)], check=True)
    output = subprocess.run([str(executable)], capture_output=True, text=True, check=True,
                            env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1")).stdout
    assert output.splitlines() == [
        "kind 4 length 8", "length 3",
        "raised 3: invalid literal for int() with base 10: 'x1' (0)"]


# ------------------------------------------------------------ no backend
def test_generated_ops_and_lowering():
    """Every kiln.str op the frontend emits (but split/join) appears, and
    kiln-lower-containers accepts the module."""
    context = load_module(os.path.join(HERE, "modules", f"{MODULE}.py"))
    text, signatures, failures = generate_module(context, context.exported_functions())
    assert failures == {}
    for op in ("constant", "len", "char_at", "code_at", "ord", "chr", "concat", "repeat",
               "slice", "equal", "compare", "find", "rfind", "count", "contains",
               "startswith", "endswith", "strip", "replace", "lower", "upper", "is",
               "from_int", "from_float", "to_int", "to_float"):
        assert f'"kiln.str.{op}"' in text, op
    raising = {s.name for s in signatures if s.raises}
    assert {"index_at", "to_int", "index_of", "concat", "sliced"} <= raising
    assert not {"length", "comparisons", "searches", "properties", "chosen"} & raising
    kiln_opt = shutil.which("kiln-opt") or os.path.join(
        os.path.dirname(os.environ.get("KILN_KILNC", "")), "kiln-opt")
    if os.path.exists(kiln_opt):
        subprocess.run([kiln_opt, "--kiln-lower-containers"], input=text, text=True,
                       check=True, capture_output=True)


def test_allocation_sites_of_strings():
    """The build record names where strings are made (never for a
    literal), and marks those inside loops."""
    from kiln.compiler.allocation_sites import allocation_sites
    typed = infer_module(load_module(os.path.join(HERE, "modules", f"{MODULE}.py")))
    sites = allocation_sites(typed.functions["caesar"])
    assert [(s["kind"], s["fate"], bool(s["in_loop"])) for s in sites] == [
        ("str", "local", True), ("str", "temporary", True)]
    assert "U+0100" in sites[0]["storage"] and sites[1]["storage"] == "heap (malloc)"
    assert allocation_sites(typed.functions["identity"]) == []
    made = {s["line"] for s in allocation_sites(typed.functions["formatted"])}
    assert len(made) == 1


# function -> (line, column, message) of its first diagnostic.
REFUSALS = {
    'item_assignment': (9, 5, "'str' object does not support item assignment (a str never "
                              'changes; build a new one: `s[:i] + x + s[i + 1:]`)'),
    'percent_format': (15, 12, '`%` formatting of a str is not supported yet; use an f-string '
                               '(`f"{x} and {y}"`)'),
    'format_method': (20, 12, 'str.format() is not supported yet; use an f-string (`f"{x} and '
                              '{y}"`)'),
    'format_spec': (25, 12, 'a format spec (`{x:...}`) in an f-string is not supported yet; '
                            'write `{x}` (str(), int and float values are shown as str() shows '
                            'them)'),
    'conversion': (30, 12, 'the conversion `!r` in an f-string is not supported yet; write `{x}`'),
    'not_yet_method': (35, 12, 'str.title() is not supported yet'),
    'split_words': (40, 16, 'str.rsplit() is not supported yet'),
    'joined': (45, 12, 'str.join() takes a list of str here, not a list[int] (CPython raises '
                       'TypeError: sequence item 0: expected str instance; convert the items: '
                       '[str(x) for x in xs])'),
    'list_of_str': (49, 21, 'lists of lists are not supported yet; a list holds int, float, '
                            "bool or str items or instances of the module's exported "
                            'classes (list[int], list[float], list[bool], list[str], '
                            'list[Node])'),
    'bytes_literal': (55, 16, 'bytes is not supported yet'),
    'bytes_parameter': (59, 24, 'bytes is not supported yet; Kiln compiles str (text)'),
    'compared_with_number': (65, 12, "'<' not supported between instances of 'str' and 'int' "
                                     '(CPython raises TypeError)'),
    'equal_to_number': (70, 12, '`==` of a str and an int is always False in CPython; Kiln '
                                'refuses comparing a str with another type (convert one of '
                                'them)'),
    'added_to_number': (75, 12, '`+` of a str and an int is not supported (CPython raises '
                                'TypeError); convert it with str(x), or use an f-string'),
    'in_prange': (82, 22, 'strings are not supported inside a kiln.prange loop yet'),
    'tuple_argument': (88, 25, 'str.startswith() of a tuple is not supported yet; test each '
                               'with `or` (`s.startswith(a) or s.startswith(b)`)'),
    'none_argument': (93, 20, 'None as an argument of str.strip() is not supported yet; leave '
                              'the argument out'),
    'lone_surrogate': (98, 16, 'a string literal with the lone surrogate U+D800 is not '
                               "supported (Kiln's strings hold Unicode text, which has no lone "
                               'surrogates)'),
    'number_in_text': (103, 12, "'in <string>' requires string as left operand, not int"),
    'multiplied_by_float': (108, 12, "can't multiply sequence by non-int of type 'float': a "
                                     'str is repeated by an int'),
    'in_tuple': (112, 25, 'strings in tuples are not supported yet; return the str alone, or '
                          'its parts through several functions'),
    'or_value': (118, 9, '`and`/`or` with a str operand is supported only where its truth is '
                         'tested (`if`, `while`, `not`) yet; here its value would be the str: '
                         'use an `if` statement'),
    'two_types': (126, 9, 'variable `x` is str on one path and int on another (assigned at '
                          'line 124 and at line 126, both of which reach the read at line 127)'),
    'negated': (132, 12, "bad operand type for unary -: 'str'"),
    'deleted': (137, 9, "'str' object doesn't support item deletion (a str never changes)"),
    'float32_shown': (143, 16, "kiln.f32 in str() is not supported yet (numpy's float32 repr "
                               'has other digits; convert it: float(x))'),
    'int_with_base': (148, 12, 'int(s, base) is not supported yet; int(s) reads base 10'),
    'ord_of_number': (153, 12, 'ord() expected string of length 1, but int found'),
    'math_of_text': (159, 22, '`math.sqrt` does not take a str (CPython raises TypeError; '
                              'convert it: float(s))'),
    'startswith_bounds': (164, 12, 'str.startswith() with start and end is not supported yet; '
                                   'slice first (`s[start:end].startswith(part)`)'),
    'lambda_of_text': (170, 18, 'passing a str to the lambda `shout` is not supported yet; '
                                'write a function (`def`)'),
}


def test_refused_strings_say_why():
    """Each misuse of a str is a compile error at its file:line:col (the
    function falls back to Python), never an internal compiler error."""
    typed = infer_module(load_module(os.path.join(HERE, "modules", "refused_strings.py")))
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in typed.failures.items()}
    assert first == REFUSALS
