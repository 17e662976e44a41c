"""The library registry (python_frontend/kiln/library_functions.py): each
entry's lowering names something the MLIR stage has, so a new entry cannot
pass the subset check and typing and then fail in generation."""

from kiln import library_functions, typing_rules
import pytest

from kiln.library_functions import (CMATH_FUNCTIONS, MATH_FUNCTIONS, NUMPY_FLOAT_FUNCTIONS,
                                    NUMPY_FUNCTIONS)
from kiln.mlir.code_generator import FunctionCodeGenerator


def test_every_math_entry_lowers_through_a_method_or_an_op():
    for function in MATH_FUNCTIONS.values():
        assert function.form in (library_functions.UNARY, library_functions.TO_INT,
                                 library_functions.PREDICATE, library_functions.BINARY), function
        if function.form in (library_functions.PREDICATE, library_functions.BINARY):
            assert callable(getattr(FunctionCodeGenerator, function.lowering, None)), function
        if function.check is not None:
            assert function.form == library_functions.UNARY, function
            assert callable(getattr(FunctionCodeGenerator, function.check, None)), function


def test_a_check_means_cpython_raises():
    for function in MATH_FUNCTIONS.values():
        if function.check is not None:
            assert function.raises, function


def test_numpy_entries_take_one_or_two_floats():
    for function in NUMPY_FLOAT_FUNCTIONS.values():
        assert function.arity in (1, 2) and function.lowering, function


def test_the_subset_accepts_every_entry():
    assert typing_rules.SUPPORTED_MATH == set(MATH_FUNCTIONS)
    assert typing_rules.SUPPORTED_CMATH == set(CMATH_FUNCTIONS)
    assert typing_rules.SUPPORTED_NUMPY == {
        name for name, function in NUMPY_FUNCTIONS.items() if function.function}
    assert set(NUMPY_FLOAT_FUNCTIONS) <= typing_rules.ARRAY_UFUNCS


def language_text():
    import os
    return open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "language.md"),
                encoding="utf-8").read()


def language_list(heading):
    """The backticked words of docs/language.md's bullet (or paragraph)
    that starts so."""
    import re
    text = language_text()
    start = text.index(heading)
    end = min(i for i in (text.find("\n- ", start + 1), text.find("\n\n", start + 1)) if i > 0)
    quoted = " ".join(re.findall(r"`([^`]*)`", text[start:end]))
    # `np.linalg.solve` names the entry linalg.solve too.
    dotted = {name.split(".", 1)[1] for name in re.findall(r"np(?:\.\w+)+", quoted)}
    return set(re.findall(r"\w+", quoted)) | dotted


REGISTRY = [*MATH_FUNCTIONS.values(), *NUMPY_FUNCTIONS.values(), *CMATH_FUNCTIONS.values()]


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda e: f"{type(e).__name__}-{e.name}")
def test_the_language_reference_names_every_entry(entry):
    """docs/language.md names every registry entry in the bullet its entry
    points to (a new entry fails here until its row is written)."""
    assert entry.name in language_list(entry.doc), (entry.name, entry.doc)


# Named in docs/language.md but not functions Kiln compiles: np.newaxis is
# an index, the others are said to be what Kiln computes instead or an
# example of an unsupported call.
NAMED_NOT_COMPILED = {"newaxis", "result_type", "reciprocal", "linalg"}


def test_every_function_the_language_reference_names_is_an_entry():
    """... and each np.f, math.f and cmath.f it names is an entry (or a
    constant, a dtype, or one of NAMED_NOT_COMPILED)."""
    import re
    text = language_text()
    tables = {"np": {**NUMPY_FUNCTIONS, **typing_rules.NUMPY_CONSTANTS,
                     **typing_rules.DTYPE_ATTRIBUTES, **dict.fromkeys(NAMED_NOT_COMPILED)},
              "math": {**MATH_FUNCTIONS, **typing_rules.MATH_CONSTANTS},
              "cmath": CMATH_FUNCTIONS}
    unknown = {f"{module}.{name}" for module, name in
               re.findall(r"(?<![\w.])(np|math|cmath)\.(\w+)", text)
               if name not in tables[module]}
    assert not unknown, sorted(unknown)


def test_every_numpy_entry_has_a_typing_and_a_lowering_method():
    from kiln.typecheck.type_inference import FunctionTyping
    for function in NUMPY_FUNCTIONS.values():
        family = function.family
        assert callable(getattr(FunctionTyping, family.typing, None)), function
        assert callable(getattr(FunctionCodeGenerator, family.lowering, None)), function
        if family.elementwise:
            assert callable(getattr(FunctionCodeGenerator, family.elementwise, None)), function
    for function in CMATH_FUNCTIONS.values():
        assert callable(getattr(FunctionCodeGenerator, function.lowering, None)), function


# Functions added to Kiln as registry entries alone (issue 27), checked
# against numpy like every library function: arrays of both float types, the
# same function in a loop (kiln-vectorize's libmvec calls) and on numbers.
ADDED = ["exp2", "cbrt", "arcsinh", "arccosh", "arctanh"]
ADDED_SOURCE = '''
import numpy as np
import kiln


@kiln.export
def on_f64(x: kiln.f64[:]) -> kiln.f64[:]:
    return np.{name}(x)


@kiln.export
def on_f32(y: kiln.f32[:]) -> kiln.f32[:]:
    return np.{name}(y)


@kiln.export
def in_loop(x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = np.{name}(x[i])


@kiln.export
def on_numbers(v: float, w: kiln.f32) -> tuple[float, kiln.f32]:
    return np.{name}(v), np.{name}(w)
'''


def within_ulps(got, want, ulps=4):
    import numpy as np
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    same_nan = np.isnan(got) == np.isnan(want)
    close = np.abs(got - want) <= ulps * np.spacing(np.abs(want).astype(want.dtype))
    exact = got == want
    assert np.all(same_nan & (np.isnan(want) | exact | close)), (got, want)


@pytest.mark.parametrize("name", ADDED)
def test_functions_added_as_entries_match_numpy(tmp_path, name):
    import sys

    import numpy as np

    from conftest import kiln_build
    (tmp_path / "added.py").write_text(ADDED_SOURCE.format(name=name))
    result = kiln_build(str(tmp_path / "added.py"), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "fall" not in result.stderr, result.stderr
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        import added
        function = getattr(np, name)
        x = np.concatenate([np.linspace(-3.0, 3.0, 61), [0.0, -0.0, 1.0, -1.0, 0.5, 2.0,
                                                         np.nan, np.inf, -np.inf, 1e-300,
                                                         1e300, -1e300]])
        with np.errstate(all="ignore"):
            got64, got32 = added.on_f64(x), added.on_f32(x.astype(np.float32))
            within_ulps(got64, function(x))
            within_ulps(got32, function(x.astype(np.float32)))
            out = np.zeros_like(x)
            added.in_loop(x, out)
            within_ulps(out, function(x))
            for v in x[::7]:
                a, b = added.on_numbers(float(v), np.float32(v))
                within_ulps(np.float64(a), function(np.float64(v)))
                within_ulps(np.float32(b), function(np.float32(v)))   # returned as a float
    finally:
        sys.path.remove(str(tmp_path / "out"))
        sys.modules.pop("added", None)


# np.nextafter was added as one registry entry (NumpyFloatFunction
# "@nextafter"): the subset check, typing, lowering, libm's declaration and
# docs/language.md's rows all come from it. numpy's loop calls libm's
# nextafter too, so results agree bit for bit.
NEXTAFTER_SOURCE = '''
import numpy as np
import kiln


@kiln.export
def arrays(x: kiln.f64[:], y: kiln.f64[:]) -> kiln.f64[:]:
    return np.nextafter(x, y)


@kiln.export
def arrays32(x: kiln.f32[:], y: kiln.f32[:]) -> kiln.f32[:]:
    return np.nextafter(x, y)


@kiln.export
def towards_number(x: kiln.f64[:], to: float) -> kiln.f64[:]:
    return np.nextafter(x, to)


@kiln.export
def of_int16(n: kiln.i16[:], y: kiln.i16[:]) -> kiln.f32[:]:
    return np.nextafter(n, y)


@kiln.export
def in_loop(x: kiln.f64[:], y: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = np.nextafter(x[i], y[i])


@kiln.export
def on_numbers(v: float, w: float, a: kiln.f32, b: kiln.f32) -> tuple[float, kiln.f32]:
    return np.nextafter(v, w), np.nextafter(a, b)
'''


def same_bits(got, want):
    import numpy as np
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    bits = f"u{got.itemsize}"
    assert np.array_equal(got.view(bits), want.view(bits)), (got, want)


def test_nextafter_added_as_one_entry_matches_numpy(tmp_path):
    import sys

    import numpy as np

    from conftest import kiln_build
    (tmp_path / "nextafter_entry.py").write_text(NEXTAFTER_SOURCE)
    result = kiln_build(str(tmp_path / "nextafter_entry.py"), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "fall" not in result.stderr, result.stderr
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        import nextafter_entry as m
        tiny, big = np.finfo(np.float64).tiny, np.finfo(np.float64).max
        edges = np.array([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, tiny, -tiny, big, -big,
                          np.inf, -np.inf, np.nan, 1e-300, -2.5, 3.0])
        x = np.repeat(edges, len(edges))
        y = np.tile(edges, len(edges))          # every pair of edges, NaN and inf included
        for n in (0, 1, len(x)):                # empty, size 1, all
            same_bits(m.arrays(x[:n], y[:n]), np.nextafter(x[:n], y[:n]))
            with np.errstate(over="ignore"):
                x32, y32 = x[:n].astype(np.float32), y[:n].astype(np.float32)
            same_bits(m.arrays32(x32, y32), np.nextafter(x32, y32))
            out = np.zeros(n)
            m.in_loop(x[:n], y[:n], out)
            same_bits(out, np.nextafter(x[:n], y[:n]))
        for to in (np.inf, -np.inf, 0.0, np.nan, -1.0):
            same_bits(m.towards_number(edges, to), np.nextafter(edges, to))
        ints = np.array([-32768, -1, 0, 1, 7, 32767], dtype=np.int16)
        same_bits(m.of_int16(ints, ints[::-1].copy()), np.nextafter(ints, ints[::-1]))
        with np.errstate(all="ignore"):         # float32 of 1e300 is inf
            for v, w in zip(x[::5], y[::5]):
                a, b = m.on_numbers(float(v), float(w), np.float32(v), np.float32(w))
                same_bits(np.float64(a), np.nextafter(np.float64(v), np.float64(w)))
                same_bits(np.float32(b), np.nextafter(np.float32(v), np.float32(w)))
    finally:
        sys.path.remove(str(tmp_path / "out"))
        sys.modules.pop("nextafter_entry", None)


def test_every_list_function_is_accepted_typed_lowered_and_documented():
    """heapq's and bisect's entries (library_functions.LIST_FUNCTIONS): the
    subset accepts each, its form has a typing rule, its lowering is a
    method of the MLIR generator, and docs/language.md's bullet names it."""
    from kiln.frontend.subset import SUPPORTED_LIBRARY
    from kiln.typecheck.list_library_typing import POSITIONAL
    for (module, name), function in library_functions.LIST_FUNCTIONS.items():
        assert name in SUPPORTED_LIBRARY[module], function
        assert function.form in POSITIONAL, function
        assert callable(getattr(FunctionCodeGenerator, function.lowering, None)), function
        assert name in language_list(function.doc), function
