"""Lists, dicts and sets of str compiled natively (issue 30) against CPython
running the same source (modules/str_containers.py): list[str] literals,
comprehensions, methods, slices, operators, iteration; s.split() and
sep.join(xs); dict[str, V] and dict[K, str] (word counts, Counter,
defaultdict, get/setdefault/pop, views); set[str] with the operators and
methods. Edge inputs: empty containers, one element, growth across
capacity, equal strings made apart as keys, non-ASCII and astral text,
keys differing only by case, whitespace-only text, maxsplit 0, an empty
join. A list[str] argument the function changes is the caller's list,
changed (also when the function raises); a wrong item is a TypeError
naming the position; memory stays flat over many calls; the stubs and the
header say list[str]. The refusals that remain are pinned at the end."""

import copy
import os

import pytest

from conftest import assert_rss_flat
from kiln.frontend.source import load_module
from kiln.typecheck.type_inference import infer_module

MODULE = "str_containers"
HERE = os.path.dirname(os.path.abspath(__file__))

# Lists of str: empty, one, equal strings, case, every storage kind (1, 2
# and 4 bytes a code point), long enough to grow across capacities.
LISTS = [[], ["a"], ["b", "a"], ["a", "A", "a", "b"], ["é", "e", "😀", "中", "z", ""],
         ["x" * 40, "x" * 39 + "y", "x"], [str(i % 7) + "w" for i in range(37)],
         ["ß", "SS", "ss", "Straße"], ["", "", ""]]
WORDS = ["a", "A", "é", "😀", "", "zz", "x" * 39 + "y", "3w"]
TEXTS = ["", " ", " \t\n\x0b\x0c\r\x1c\x85\xa0\u3000 ", "a", "a b a", "  lead trail  ",
         "x,y,,z,", ",", "one two three two one", "é 😀 中 é", "Hello hello HELLO",
         "a\u2028b\u3000c", "w " * 60 + "v", "a,b;c,d"]
SEPS = [",", " ", "a", ",,", "😀", "xyz"]


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def outcome(function, *args):
    """(result, exception type and message) of one call; messages of
    compiled code end with the source location, left out."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0])


def same_value(got, want) -> bool:
    """Equal with the same types, a dict's keys in the same order."""
    if type(got) is not type(want):
        return False
    if isinstance(want, dict):
        return list(got.items()) == list(want.items()) and all(
            same_value(got[k], want[k]) for k in want)
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(same_value(g, w) for g, w in zip(got, want))
    return got == want


def same(mod, name, *args, message=None):
    """Native and CPython agree on the result, the exception (type and
    message, or `message` where Kiln's differs on purpose), and what the
    function left in its list, dict and set arguments."""
    native_args, python_args = copy.deepcopy(args), copy.deepcopy(args)
    got, got_error = outcome(getattr(mod.native, name), *native_args)
    want, want_error = outcome(getattr(mod.python, name), *python_args)
    if message is not None and want_error is not None:
        want_error = (want_error[0], message)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert same_value(got, want), (name, args, got, want)
    for changed, expected in zip(native_args, python_args):
        assert same_value(changed, expected), (name, args, changed, expected)
    return got


# ------------------------------------------------------------- list[str]
@pytest.mark.parametrize("xs", LISTS)
def test_list_methods(mod, xs):
    for name in ("comprehension_upper", "pops", "sorted_copy", "sorted_reverse", "clear_it",
                 "iterate", "total_length", "truthy", "smallest", "item_methods"):
        same(mod, name, xs)
    for reverse in (False, True):
        same(mod, "sort_in_place", xs, reverse)
    for w in WORDS + xs[:2]:
        same(mod, "methods", xs, w)
        same(mod, "contains", xs, w)
        same(mod, "count_of", xs, w)
        same(mod, "remove_one", xs, w)
        # CPython quotes the missing value; a kiln.check cannot (docs).
        same(mod, "index_of", xs, w, message="str value is not in list")
    for i in (-len(xs) - 1, -1, 0, 1, len(xs)):
        same(mod, "item_at", xs, i)
        same(mod, "pop_at", xs, i)
        same(mod, "set_item", xs, i, "new")
        same(mod, "augment_item", xs, i, "+é")
        same(mod, "delete_items", xs, i)
    for ys in LISTS[:5]:
        same(mod, "equal_lists", xs, ys)
        same(mod, "equal_lists", xs, list(xs))
        for n in (-1, 0, 2):
            same(mod, "plus_times", xs, ys, n)
        for a, b in ((0, 0), (1, 3), (-2, 100), (3, 1)):
            same(mod, "assign_slice", xs, a, b, ys)
        same(mod, "assign_extended", xs, ys)
    for a, b, c in ((0, 3, 1), (-3, -1, 1), (5, 0, -1), (0, 100, 2), (1, 2, 0)):
        same(mod, "slices", xs, a, b, c)


@pytest.mark.parametrize("text", ["", "a", "héllo", "😀中é", "ba" * 30])
def test_lists_of_characters(mod, text):
    for name in ("literal_list", "chars_of", "list_of_text", "sorted_text", "set_of_text"):
        if name == "literal_list":
            same(mod, name, text, text[::-1])
        else:
            same(mod, name, text)
    for n in (0, 1, 7, 100):
        same(mod, "grow", text, n)


def test_changed_list_is_the_callers(mod):
    """The caller's list object is the one changed (identity kept), and
    an argument returned is the caller's object."""
    xs = ["b", "a", "é"]
    result = mod.native.sort_in_place(xs, False)
    assert result is xs and xs == ["a", "b", "é"]
    ys = ["x"]
    assert mod.native.set_item(ys, 0, "y") is ys and ys == ["y"]


def test_stored_string_survives_a_raise(mod):
    """A function stores its str parameter into its list[str] parameter,
    then raises: the caller's list shows the string (written back before
    the wrapper drops the string)."""
    for name in ("append_then_raise", "insert_then_raise"):
        same(mod, name, ["a", "b"], "stored-é", 1)
        same(mod, name, [], "😀", 0)
        xs = ["keep"]
        with pytest.raises(IndexError):
            getattr(mod.native, name)(xs, "new" * 20, 5)
        assert xs[-1] == "new" * 20 or xs[0] == "new" * 20


def test_wrong_items_name_the_position(mod):
    with pytest.raises(TypeError, match=r"argument 'xs'\[3\] must be str, not int"):
        mod.native.join_list(",", ["a", "b", "c", 4])
    with pytest.raises(TypeError, match=r"argument 'xs'"):
        mod.native.join_list(",", "abc")
    with pytest.raises(TypeError, match=r"argument 'd'"):
        mod.native.dict_lookup({"a": 1, 2: 3}, "a")
    with pytest.raises(TypeError, match=r"argument 'ys'"):
        mod.native.set_ops(["a"], ["b", None])


# ------------------------------------------------------- split and join
@pytest.mark.parametrize("text", TEXTS)
def test_split_and_join(mod, text):
    for name in ("split_ws", "split_keyword", "join_generator", "join_split", "first_word",
                 "word_lengths"):
        same(mod, name, text)
    for sep in SEPS + [""]:
        same(mod, "split_sep", text, sep)
        for n in (-1, 0, 1, 2, 100):
            same(mod, "split_max", text, sep, n)
    for n in (-1, 0, 1, 2):
        same(mod, "split_ws_max", text, n)


def test_join_of_other_iterables(mod):
    for s in ("", "a", "héllo😀"):
        for n in (0, 1, 5):
            d = {str(i) * 2: i for i in range(n)}
            same(mod, "join_iterables", s, d, {i: chr(97 + i) for i in range(n)}, set(d))


@pytest.mark.parametrize("xs", LISTS)
def test_join(mod, xs):
    for sep in ["", ",", "é", "😀 ", " and "]:
        same(mod, "join_list", sep, xs)
    for n in (0, 1, 12):
        same(mod, "join_comprehension", n)


# -------------------------------------------------------- dict[str, V]
@pytest.mark.parametrize("text", TEXTS)
def test_word_counts(mod, text):
    for name in ("word_count", "word_count_plus", "counter_words", "defaultdict_words",
                 "set_comprehension", "unique_words"):
        same(mod, name, text)


def test_dict_of_strings(mod):
    for a, b in (("a", "b"), ("a", "a"), ("é", "É"), ("😀", ""), ("x" * 50, "x" * 50)):
        same(mod, "dict_literal", a, b)
        same(mod, "set_literal", a)
    for k in ("a", "A", "é", "😀", "missing", "", "".join(["a"])):
        same(mod, "local_lookup", k)
        same(mod, "dict_pop_missing", k)
        same(mod, "dict_del_missing", k)
        same(mod, "set_remove_missing", k)
    counts = {"a": 1, "A": 2, "é": 3, "😀": 4, "": 5}
    for k in list(counts) + ["b", "aa"]:
        same(mod, "dict_lookup", counts, k)
        same(mod, "augment_str_value", {c: c * 2 for c in counts}, k)
    for d in ({}, counts, {str(i): i for i in range(50)}):
        same(mod, "sorted_keys", d)
        same(mod, "keys_list", d)
        same(mod, "dict_min_max", d)
    for n in (0, 1, 9, 40):
        same(mod, "int_to_str", n)
        same(mod, "values_list", {i: str(i) for i in range(n)})
    for xs in LISTS:
        same(mod, "dict_methods", xs)
        same(mod, "str_to_str", xs)
        same(mod, "bool_values", xs)


def test_module_constants_of_str(mod):
    for w in ("apple", "égal", "a", "é", "😀", "zz", ""):
        for k in (1, 2, 3):
            same(mod, "constant_reads", w, k)


@pytest.mark.parametrize("xs", [x for x in LISTS if len(x) >= 2])
def test_references_across_changes(mod, xs):
    for name in ("kept_after_clear", "self_assignments", "remove_while_iterating"):
        same(mod, name, xs)
    d = {x: x * 2 for x in xs}
    for k in xs[:2] + ["zz"]:
        same(mod, "popped_value", d, k)
    same(mod, "copy_then_clear", d)


@pytest.mark.parametrize("text", TEXTS)
def test_module_helpers(mod, text):
    for n in (0, 1, 3):
        same(mod, "helpers", text, n)
    words = text.split()
    same(mod, "chars", words, {i: w for i, w in enumerate(words)})
    same(mod, "nested_loops", words)


def test_recursion_and_aliases(mod):
    for n in (0, 1, 50):
        same(mod, "recursive", n)
    xs = ["x"]
    assert mod.native.same_list_twice(xs, xs) is True and xs == ["x", "from a"]


def test_dict_and_set_parameters_written_back(mod):
    for w in ("a", "b", "é", "😀"):
        same(mod, "changed_set", {"a", "b", "c"}, w)
        same(mod, "changed_set", set(), w)
        same(mod, "changed_dict", {"a": 1, "b": 2}, w)
        same(mod, "stored_then_raise", {"x": "y"}, {"x"}, w)
    d, s = {}, set()
    with pytest.raises(KeyError):
        mod.native.stored_then_raise(d, s, "w" * 30)
    assert d == {"w" * 30: "w" * 30} and s == {"w" * 30}


def test_popitem(mod):
    """LIFO, as CPython; KeyError on an empty dict (compiled code's message
    carries the source location inside the quotes)."""
    empty = "'popitem(): dictionary is empty"
    for text in TEXTS:
        same(mod, "popitems", text)
    for n in (1, 2, 3, 40):
        same(mod, "popitem_numbers", n, message=empty)
        same(mod, "popitem_values", n, message=empty)
    same(mod, "popitem_empty", message=empty)


def test_equal_keys_made_apart(mod):
    """Keys equal as text are one key, however they were made."""
    made = "".join(["ab", "c"])
    assert mod.native.dict_lookup({"abc": 7}, made) == 7
    assert mod.native.word_count("abc " + made + " ab" + "c") == {"abc": 3}


# --------------------------------------------------------------- set[str]
@pytest.mark.parametrize("xs", LISTS)
def test_sets(mod, xs):
    for ys in LISTS[:6]:
        same(mod, "set_ops", xs, ys)
    for w in WORDS:
        same(mod, "set_methods", xs, w)
    same(mod, "set_pop_all", xs)


# ------------------------------------------------------- memory and ABI
def test_memory_stays_flat_over_calls(mod):
    """Lists, dicts and sets of str built, changed, returned and dropped
    (also by exceptions): resident memory does not grow."""
    text = "the quick brown fox jumps over the lazy dög 😀 " * 3
    words = text.split()
    assert_rss_flat(mod.native, {
        "word_count": (text,), "split_ws": (text,), "join_list": (", ", words),
        "methods": (words, "w"), "pops": (words,), "dict_methods": (words,),
        "set_ops": (words, words[:5]), "set_methods": (words, "w"),
        "sorted_text": (text,), "str_to_str": (words,), "counter_words": (text,),
        "plus_times": (words, words[:3], 2), "slices": (words, 1, 9, 2),
        "assign_slice": (list(words), 1, 4, ["x", "y", "z"]),
        "set_item": (list(words), 2, "é"), "join_generator": (text,),
        "dict_literal": ("a", "b"), "int_to_str": (20,), "set_pop_all": (words,),
        "keys_list": ({w: 1 for w in words},), "dict_min_max": ({w: 1 for w in words},),
        "helpers": (text, 2), "popitems": (text,), "chars": (words, {1: "ab", 2: "é"}), "join_iterables": (
            text, {w: 1 for w in words}, {1: "x"}, set(words))})
    assert_rss_flat(mod.native, {"dict_pop_missing": ("zz",), "local_lookup": ("zz",),
                                 "index_of": (words, "zz"), "pop_at": (words, 100)},
                    expected=(KeyError, ValueError, IndexError))


def test_memory_stays_flat_over_raising_calls(mod):
    """A str argument stored into the caller's list before a raise, many
    times: nothing stays behind (the wrapper frees its copy after writing
    the list back)."""
    import resource
    word = "stored-é" * 8

    def run(times):
        for _ in range(times):
            for name in ("append_then_raise", "insert_then_raise"):
                xs = ["a", "b"]
                try:
                    getattr(mod.native, name)(xs, word, 5)
                except IndexError:
                    pass
                assert len(xs) == 3
            d, s = {"k": "v"}, {"k"}
            try:
                mod.native.stored_then_raise(d, s, word)
            except KeyError:
                pass
            assert len(d) == len(s) == 2

    run(5_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(40_000)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 1_000, f"RSS grew by {grown} KiB"


def test_stubs_and_header_say_str_containers(mod):
    with open(mod.path(f"{MODULE}.pyi"), encoding="utf-8") as handle:
        stubs = handle.read()
    assert "def join_list(sep: str, xs: list[str]) -> str: ..." in stubs
    assert "def word_count(text: str) -> dict[str, int]: ..." in stubs
    assert "def int_to_str(n: int) -> dict[int, str]: ..." in stubs
    assert "def set_comprehension(s: str) -> set[str]: ..." in stubs
    with open(mod.path(f"{MODULE}.h"), encoding="utf-8") as handle:
        header = handle.read()
    assert "join_list(kiln_str *sep, kiln_list *xs" in header


def test_c_program_passes_a_list_of_str(mod, tmp_path):
    """A C caller following <mod>.h's comments: a malloc'd list[str]
    holding malloc'd strings, joined (a returned string dropped), then
    changed by a call that raised (the list's strings dropped, then its
    arrays freed); under AddressSanitizer's leak checker."""
    import subprocess
    import textwrap
    program = tmp_path / "main.c"
    program.write_text(textwrap.dedent("""
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include "str_containers.h"

        static kiln_str *make(const char *text) {
          int64_t length = (int64_t)strlen(text);
          kiln_str *str = malloc(sizeof(kiln_str) + (size_t)length + 1);
          str->refcount = 1;
          str->length = length;
          str->hash = -1;
          str->journal_index = -1;
          str->kind = 1;
          str->outside_references = 0;
          memcpy(kiln_str_data(str), text, (size_t)length + 1);
          return str;
        }

        static kiln_list *list_of(const char **texts, int64_t count) {
          kiln_list *list = calloc(1, sizeof(kiln_list));
          list->refcount = 1;
          list->journal_index = -1;
          list->item_kind = KILN_ITEM_STR;
          list->capacity = count + 1;
          list->items = malloc((size_t)list->capacity * sizeof(kiln_str *));
          for (int64_t i = 0; i < count; ++i)
            ((kiln_str **)list->items)[i] = make(texts[i]);
          list->length = count;
          return list;
        }

        int main(void) {
          const char *texts[] = {"alpha", "beta", "gamma"};
          kiln_list *xs = list_of(texts, 3);
          kiln_str *comma = make(", ");
          kiln_error error = {0};
          kiln_str *joined = str_containers_join_list(comma, xs, &error);
          printf("%.*s\\n", (int)joined->length, (const char *)kiln_str_data(joined));
          kiln_str_drop(joined);
          kiln_str *word = make("delta");
          kiln_str *stored = str_containers_append_then_raise(xs, word, 5, &error);
          char text[128];
          printf("raised %d: %s; length %lld\\n", error.kind,
                 kiln_error_text(&error, text, sizeof text), (long long)xs->length * (stored == NULL));
          kiln_error_clear(&error);
          for (int64_t i = 0; i < xs->length; ++i)
            kiln_str_drop(((kiln_str **)xs->items)[i]);
          free(xs->items);
          free(xs);
          free(word);
          kiln_str_drop(comma);
          return 0;
        }
    """))
    executable = tmp_path / "main"
    directory = mod.outdir
    subprocess.run(["/usr/lib/llvm-22/bin/clang", "-std=c11", "-Wall", "-Wextra", "-Werror",
                    "-fsanitize=address", "-g", str(program), "-I", directory, "-L", directory,
                    f"-l{MODULE}", f"-Wl,-rpath,{directory}", "-o", str(executable)], check=True)
    output = subprocess.run([str(executable)], capture_output=True, text=True, check=True,
                            env=dict(os.environ, ASAN_OPTIONS="detect_leaks=1")).stdout
    assert output.splitlines()[0] == "alpha, beta, gamma"
    assert output.splitlines()[1].startswith("raised ") and \
        "list index out of range" in output.splitlines()[1] and \
        output.splitlines()[1].endswith("length 4")


# ------------------------------------------------------------ no backend
# function -> (line, column, message) of its first diagnostic.
REFUSALS = {
    "mixed_literal": (10, 16, "a container holds items of one type here: int and str do not "
                             "mix (a list's items, a dict's keys or values, a set's elements "
                             "are all numbers or all str)"),
    "append_number": (15, 5, "cannot store an int into `xs`, a list[str]: a list holds items "
                             "of one type (convert it: str(x))"),
    "number_in_strings": (20, 12, "`in` of a list[str] looks for a str, not an int (it is "
                                  "never found there; Kiln refuses the search)"),
    "join_numbers": (25, 12, "str.join() takes a list of str here, not a list[int] (CPython "
                             "raises TypeError: sequence item 0: expected str instance; "
                             "convert the items: [str(x) for x in xs])"),
    "number_key": (30, 5, "cannot store an int key and an int value into `d`, a dict[str, "
                          "int]: a dict's keys are of one type and its values of one type"),
    "number_lookup": (35, 12, "a lookup of a dict[str, int] takes a str key, not an int (it "
                              "is never found there; Kiln refuses the search)"),
    "split_too_many": (40, 12, "str.split() takes at most 2 arguments"),
    "heap_of_strings": (45, 5, "heapq on a list[str] is not supported yet (its items are "
                               "moved by reference); keep a heap of ints (indices) and a list "
                               "of the strings"),
    "sum_of_strings": (50, 12, "sum() of strs is not supported (CPython raises TypeError: it "
                               "adds them to 0); join them: ''.join(xs)"),
    "popitem_indexed": (55, 12, "`d.popitem()` is a tuple[str, int], not an array"),
}


def test_refused_str_containers_say_why():
    typed = infer_module(load_module(os.path.join(HERE, "modules",
                                                  "refused_str_containers.py")))
    first = {name: (error.diagnostics[0].line, error.diagnostics[0].column,
                    error.diagnostics[0].message) for name, error in typed.failures.items()}
    assert first == REFUSALS
