"""The library registry (python_frontend/kiln/library_functions.py): each
entry's lowering names something the MLIR stage has, so a new entry cannot
pass the subset check and typing and then fail in generation."""

from kiln import library_functions, typing_rules
from kiln.library_functions import MATH_FUNCTIONS, NUMPY_FLOAT_FUNCTIONS
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
    assert set(NUMPY_FLOAT_FUNCTIONS) <= typing_rules.SUPPORTED_NUMPY
    assert set(NUMPY_FLOAT_FUNCTIONS) <= typing_rules.ARRAY_UFUNCS
