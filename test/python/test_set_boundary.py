"""Sets at the Python boundary (issue 30), compiled from Python
(modules/set_boundary.py) and compared with CPython running the same
source: a `set[K]` argument (K int, float or bool; a set, or a frozenset
the function does not change) is read into a `kiln_dict` without values,
what the function changed is written back into the caller's set -- also
when it raised -- one set passed for two parameters is one set, a returned
argument is the caller's own object and a new set a new Python set;
arguments of the wrong type are a TypeError naming the parameter; the
header and the stubs say `kiln_dict *` and `set[K]`; memory stays flat
over 10^5 calls."""

import math
import resource

import pytest

MODULE = "set_boundary"


@pytest.fixture(scope="module")
def mod(build_module):
    return build_module(MODULE)


def state(value):
    """A set as CPython shows it: its elements with their types, signs
    (repr tells -0.0 from 0.0) and NaNs, in no order; other values as
    they are."""
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted((type(x).__name__, repr(x)) for x in value))
    return value


def copied(value):
    return set(value) if isinstance(value, set) else (
        list(value) if isinstance(value, list) else value)


def run(function, arguments):
    try:
        return function(*arguments), None
    except Exception as error:  # noqa: BLE001 - compared
        return None, (type(error), error.args)


def same_on_sets(mod, name, *args):
    """Kiln and CPython agree on the result, the exception and every set
    and list argument afterwards."""
    copies = [copied(a) for a in args]
    got, got_error = run(getattr(mod.native, name), args)
    want, want_error = run(getattr(mod.python, name), copies)
    assert got_error == want_error, (name, args, got_error, want_error)
    assert state(got) == state(want), (name, args, got, want)
    for native_arg, python_arg in zip(args, copies):
        assert state(native_arg) == state(python_arg), (name, native_arg, python_arg)
    return got


SETS = [set(), {0}, {1, 2, 3}, {-1, 0, 5, 2**62, -2**63, 2**63 - 1},
        set(range(0, 300, 7)), {i << 20 for i in range(50)}]


@pytest.mark.parametrize("s", SETS, ids=len)
def test_set_arguments_are_written_back(mod, s):
    same_on_sets(mod, "length", set(s))
    for n in (0, 1, 5, 40):
        same_on_sets(mod, "add_range", set(s), n)
    same_on_sets(mod, "drop_evens", set(s))
    for other in (set(), {1, 2}, set(s)):
        same_on_sets(mod, "union_of", set(s), other)
        same_on_sets(mod, "intersect_in_place", set(s), other)


def test_write_back_also_when_the_function_raises(mod):
    for s in ({0, 1, 2}, {5}, set()):
        for k in (1, 5, 7):
            same_on_sets(mod, "remove_then_fail", set(s), k)   # KeyError(7): -1 added
    s = {0, 1}
    with pytest.raises(KeyError) as caught:
        mod.native.remove_then_fail(s, 9)
    assert caught.value.args == (9,) and s == {1, -1}


def test_float_and_bool_elements(mod):
    for s in (set(), {1.5}, {0.0, 2.0}, {-0.0, 1.0}):
        for xs in ([], [0.0], [-0.0, 2.0], [1.0, 1.0, 3.5]):
            same_on_sets(mod, "update_from", set(s), xs)
        same_on_sets(mod, "signed_zero", set(s))
        same_on_sets(mod, "cleared", set(s))
        same_on_sets(mod, "empty_like", set(s))
    for xs in ([], [1.0, 1.0], [0.0, -0.0], [-0.0, 0.0], [math.inf, 2.5]):
        same_on_sets(mod, "from_list", xs)
    for s in (set(), {False}, {True}, {True, False}):
        same_on_sets(mod, "flags", set(s))


def test_a_nan_element_stays_the_callers_object(mod):
    nan = float("nan")
    s = {nan, 2.0}
    assert mod.native.keep_nan(s) == 3
    assert nan in s and len(s) == 3 and 1.0 in s      # the same NaN object, found by identity


def test_one_set_for_two_parameters_is_one_set(mod):
    for s in (set(), {1}, {100, 200}):
        same_on_sets(mod, "grow_both", set(s), set(s))
        shared, python_shared = set(s), set(s)
        got = mod.native.grow_both(shared, shared)
        assert got == mod.python.grow_both(python_shared, python_shared)
        assert shared == python_shared
        same_on_sets(mod, "union_of", shared, shared)


def test_a_returned_argument_is_the_callers_object(mod):
    s = {5, 6}
    assert mod.native.same_set(s) is s and s == {1, 5, 6}
    made = mod.native.union_of(s, s)
    assert type(made) is set and made == s and made is not s
    for n in (0, 1, 10, 1000):
        got = mod.native.new_set(n)
        assert type(got) is set and got == {i * i for i in range(n)}
    assert mod.native.empty_like({1.0}) == set()


def test_frozenset_arguments(mod):
    """A frozenset is read as a set; one the function would change is a
    TypeError (CPython's frozenset has no add: AttributeError there)."""
    assert mod.native.length(frozenset({1, 2, 2})) == 2
    assert mod.native.length(frozenset()) == 0
    assert mod.native.union_of(frozenset({1}), {2}) == {1, 2}
    assert mod.native.add_range(frozenset({1, 2}), 0) == 2       # unchanged
    assert mod.native.add_range(frozenset({0, 1}), 2) == 2       # adds only what is there
    frozen = frozenset({1, 2})
    with pytest.raises(TypeError, match="argument 's' is a frozenset"):
        mod.native.add_range(frozen, 5)
    assert frozen == frozenset({1, 2})


def test_wrong_arguments_name_the_parameter(mod):
    for bad in ([1, 2], (1,), {1: 2}, 3, None, "ab"):
        with pytest.raises(TypeError, match=r"^length\(\) argument 's'"):
            mod.native.length(bad)
    for bad in ({1.5}, {"a"}, {None}, {1, (2, 3)}):
        with pytest.raises(TypeError, match="argument 's'"):
            mod.native.length(bad)
    with pytest.raises(TypeError, match="argument 's'"):
        mod.native.flags({1, 2})
    with pytest.raises(TypeError, match="argument 's'"):
        mod.native.update_from({"x"}, [1.0])
    with pytest.raises(OverflowError, match="argument 's'"):
        mod.native.length({2**63})
    with pytest.raises(TypeError, match="argument 'b'"):
        mod.native.union_of({1}, [2])
    # Two ints that are one float: a set[float] of them would lose one.
    with pytest.raises(ValueError, match="argument 's'"):
        mod.native.update_from({2**53, 2**53 + 1}, [])
    s = {1, 2}
    with pytest.raises(TypeError):
        mod.native.union_of(s)
    assert s == {1, 2}


def test_header_and_stubs_say_sets(mod):
    header = open(mod.path(f"{MODULE}.h"), encoding="utf-8").read()
    assert "kiln_dict *set_boundary_union_of(kiln_dict *a, kiln_dict *b" in header
    assert "int64_t set_boundary_length(kiln_dict *s" in header
    assert "`a`, `b`: borrowed. Make each set a kiln_dict without values" in header
    assert "The result is a new reference (a kiln_dict without values)" in header
    stubs = open(mod.path(f"{MODULE}.pyi"), encoding="utf-8").read()
    assert "def union_of(a: set[int], b: set[int]) -> set[int]: ..." in stubs
    assert "def flags(s: set[bool]) -> int: ..." in stubs         # typing.Set[bool]
    assert "def from_list(xs: list[float]) -> set[float]: ..." in stubs


def test_memory_stays_flat_over_calls_that_return_and_change_sets(mod):
    new_set, add_range, remove_then_fail = (mod.native.new_set, mod.native.add_range,
                                            mod.native.remove_then_fail)
    for _ in range(20_000):
        new_set(8)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    caller = {3, 4}
    for k in range(100_000):
        new_set(8)
        add_range(caller, 3)
        try:
            remove_then_fail({0, 1, 2}, k % 4)
        except KeyError:
            pass
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 4_000, f"RSS grew by {grown} KiB"
