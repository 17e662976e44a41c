"""The type-inference stage (python_frontend/kiln/typecheck/type_inference.py)
and code generation, which reads its types.

Code generation applies no typing rule: it reads every type from the
stage's `TypedFunction`s and checks, on every expression it builds, that
the value it built has the type and NEP 50 weak flag the stage gave that
node; a disagreement is an internal compiler error. So for every function
of the test modules, the examples, the lit inputs and a few hundred fuzzer
programs: a function the stage accepts must generate without an internal
error (its values equal `type_of`), with the stage's signature; a function
it rejects falls back with every diagnostic the stage found. The errors
themselves are pinned: the first error of each function of an error corpus
(as the former generator, which typed as it emitted, reported them), and
every error of functions with several.
"""

import glob
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python_frontend"))
sys.path.insert(0, os.path.join(REPO, "test"))

import kiln.typesystem  # noqa: E402
from kiln.mlir import code_generator  # noqa: E402
from kiln.compiler.compiler import fallback_records  # noqa: E402
from kiln.frontend.source import load_module  # noqa: E402
from kiln.typecheck.type_inference import infer_module  # noqa: E402
from kiln.typing_rules import UNKNOWN  # noqa: E402
from kiln.errors import KilnCompileError  # noqa: E402

SOURCES = sorted(glob.glob(os.path.join(HERE, "modules", "*.py"))
                 + glob.glob(os.path.join(REPO, "examples", "*.py"))
                 + glob.glob(os.path.join(REPO, "test", "python_frontend", "*.py")))
FUZZ_COUNT = int(os.environ.get("KILN_TYPING_FUZZ_COUNT", "300"))
FUZZ_SEED = int(os.environ.get("KILN_TYPING_FUZZ_SEED", "20240611"))
PER_MODULE = 25


def diagnostics(error):
    return [(d.line, d.column, d.message) for d in error.diagnostics]


def not_typing(message) -> bool:
    """Failures code generation may add to a function inference accepts:
    the `@kiln.vectorize` array name clash, and nesting beyond the deep
    stack (inference reports that one itself when it hits it first)."""
    return "__array" in message or message.startswith("expression nested too deeply")


def typed_and_generated(path):
    """Problems of one module: every function inference accepts generates
    (no internal error, the inferred signature); every function it rejects
    falls back with all its diagnostics. Returns (problems, functions checked)."""
    try:
        context = load_module(path)
    except KilnCompileError:
        return [], 0
    functions = list(context.module_functions().values())
    typed = infer_module(context, functions)
    _, signatures, failures = code_generator.generate_module(context, functions, typed)
    name = os.path.basename(path)
    problems, checked = [], 0
    for func in functions:
        expected, got = typed.failures.get(func.name), failures.get(func.name)
        checked += 1
        for line, column, message in diagnostics(got) if got else []:
            if "internal compiler error" in message:
                problems.append(f"{name}:{func.name}:{line}:{column}: {message}")
        if expected is not None:
            if got is None or diagnostics(got) != diagnostics(expected):
                problems.append(f"{name}:{func.name}: falls back with "
                                f"{got and diagnostics(got)}, inference found "
                                f"{diagnostics(expected)}")
        elif got is not None and not all(not_typing(m) for _, _, m in diagnostics(got)):
            problems.append(f"{name}:{func.name}: inference accepts it, generation fails with "
                            f"{diagnostics(got)}")
    for signature in signatures:
        function = typed.functions[signature.name]
        ours = ([(p.name, p.type) for p in function.params], function.return_type,
                function.raises, set(function.written_arrays))
        theirs = ([(p.name, p.type) for p in signature.params], signature.return_type,
                  signature.raises, set(signature.written_arrays))
        if ours != theirs:
            problems.append(f"{name}:{signature.name}: signature {theirs}, inferred {ours}")
    for function in typed.functions.values():
        if function.ok and any(v.type is UNKNOWN for v in function.values.values()):
            problems.append(f"{name}:{function.name}: UNKNOWN types in a function that types")
    return problems, checked


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: os.path.relpath(p, REPO))
def test_typed_functions_generate(path):
    problems, checked = typed_and_generated(path)
    assert not problems, "\n".join(problems[:40])
    assert checked > 0 or "syntax-invalid" in path


def fuzz_modules(count, seed, workdir):
    from fuzz import generator

    programs = [generator.generate_program(seed, i) for i in range(count)]
    for start in range(0, count, PER_MODULE):
        path = os.path.join(workdir, f"typing_fuzz_{start // PER_MODULE}.py")
        with open(path, "w") as handle:
            handle.write(generator.module_source(programs[start:start + PER_MODULE]))
        yield path


def test_typed_functions_generate_on_fuzzer_programs(tmp_path):
    print(f"KILN_TYPING_FUZZ_SEED={FUZZ_SEED} KILN_TYPING_FUZZ_COUNT={FUZZ_COUNT}")
    problems, checked = [], 0
    for path in fuzz_modules(FUZZ_COUNT, FUZZ_SEED, str(tmp_path)):
        found, count = typed_and_generated(path)
        problems += found
        checked += count
    assert not problems, "\n".join(problems[:40])
    assert checked >= FUZZ_COUNT


def test_generation_rejects_a_type_inference_did_not_give(tmp_path):
    # The check that makes the tests above meaningful: a value built with
    # another type than the node's inferred one is an internal error.
    path = tmp_path / "mistyped.py"
    path.write_text("import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n"
                    "    return x * 2.0\n")
    context = load_module(str(path))
    typed = infer_module(context)
    function = typed.functions["f"]
    operand = function.node.body[0].value.left
    function.values[operand].type = kiln.typesystem.f32
    _, signatures, failures = code_generator.generate_module(context,
                                                             context.exported_functions(), typed)
    assert not signatures
    [(line, _, message)] = diagnostics(failures["f"])
    assert line == 5 and message.startswith("internal compiler error in `f`")
    assert "type inference missed, line 6: `x` is built as float (weak None), inferred " \
           "kiln.f32 (weak None)" in message


def test_code_generation_walks_each_function_once(tmp_path, monkeypatch):
    # No typing rounds: `s` widens to float only after the loop reads it,
    # which took the former generator a second walk.
    path = tmp_path / "widening.py"
    path.write_text("import kiln\n\n\n@kiln.export\ndef f(x: kiln.f64[:]) -> float:\n"
                    "    s = 0\n    for i in range(len(x)):\n        s += x[i]\n"
                    "    return s\n")
    walks = []
    original = code_generator.FunctionCodeGenerator.emit_function

    def emit_function(self, *args):
        walks.append(self.func.name)
        return original(self, *args)

    monkeypatch.setattr(code_generator.FunctionCodeGenerator, "emit_function", emit_function)
    context = load_module(str(path))
    _, signatures, failures = code_generator.generate_module(context,
                                                             context.exported_functions())
    assert not failures and walks == ["f"]
    assert signatures[0].return_type == kiln.typesystem.f64


# One function per error the frontend reports (and a few that pass through
# the same paths), with the first error of each: the error the former code
# generator stopped at, which inference reports first.
ERROR_CORPUS = '''
import math

import numpy as np

import kiln

BIG = 2 ** 70
LIMIT = 10


def no_annotation(x) -> int:
    return 1


def none_param(x: None) -> int:
    return 1


def implicit_float_to_int(x: float) -> int:
    return x


def literal_float_to_int() -> int:
    return 1.5


def declared_int(x: int) -> int:
    x = 2.5
    return x


def declared_bool(flag: bool) -> bool:
    flag = 1
    return flag


def two_arrays(x: kiln.f64[:], y: kiln.i64[:]) -> float:
    z = x
    for i in range(3): z = y
    return float(z.sum())


def value_or_none(x: int):
    if x > 0:
        return 1


def none_then_value(x: int):
    if x > 0:
        return
    return 1


def annotated_none(x: int) -> None:
    return x


def returns_bool(x: int) -> bool:
    return x


def may_not_return(x: int) -> int:
    if x > 0:
        return 1


def returns_parameter(x: kiln.f64[:]):
    return x


def array_in_loop(n: int):
    for i in range(n):
        a = np.zeros(3)
    return 0


def returns_array_from_loop(n: int):
    a = np.zeros(n)
    for i in range(n):
        return a
    return a


def used_before(n: int) -> int:
    for i in range(n):
        if i > 2:
            t = s
        s = i
    return 0


def maybe_undefined(n: int) -> int:
    if n > 0:
        y = 1
    return y


def loop_variable_after(n: int) -> int:
    for i in range(n):
        pass
    return i


def undefined_name(n: int) -> int:
    return nothing + n


def huge_constant(n: int) -> int:
    return BIG + n


def shadowed_constant(n: int) -> int:
    for i in range(n):
        if i > 0:
            n = LIMIT
        LIMIT = 2
    return n


def huge_literal() -> int:
    return 100000000000000000000


def string_constant() -> int:
    x = b"text"
    return 0


def tuple_value(n: int) -> int:
    t = (n, n)
    return 0


def array_operator(x: kiln.f64[:]) -> float:
    y = x + 1.0
    return 0.0


def bit_and_float(x: float) -> int:
    return x & 1


def invert_float(x: float) -> float:
    return ~x


def negate_array(x: kiln.f64[:]) -> float:
    y = -x
    return 0.0


def compare_arrays(x: kiln.f64[:], y: kiln.f64[:]) -> bool:
    return x < y


def truth_of_array(x: kiln.f64[:]) -> int:
    if x:
        return 1
    return 0


def and_arrays(x: kiln.f64[:]) -> int:
    y = x and 1
    return 0


def conditional_arrays(x: kiln.f64[:], y: kiln.i64[:], c: bool) -> float:
    z = x if c else y
    return 0.0


def call_variable(n: int) -> int:
    f = n
    return f(1)


def call_unknown(n: int) -> int:
    return print(n)


def keyword_builtin(n: int) -> int:
    return abs(x=n)


def keyword_library(x: float) -> float:
    return math.sqrt(x=x)


def unknown_library(x: float) -> float:
    return math.gamma(x)


def unknown_numpy(x: float) -> float:
    return np.sinc(x)


def helper(a: int, b: kiln.f64[:]) -> int:
    return a


def too_many_args(x: kiln.f64[:]) -> int:
    return helper(1, x, 3)


def unexpected_keyword(x: kiln.f64[:]) -> int:
    return helper(1, b=x, c=2)


def missing_argument(x: kiln.f64[:]) -> int:
    return helper(1)


def wrong_array_argument(x: kiln.i64[:]) -> int:
    return helper(1, x)


def float_argument(x: kiln.f64[:]) -> int:
    return helper(1.5, x)


def broken(x: int) -> int:
    return x + 0.5


def calls_broken(x: int) -> int:
    return broken(x)


def recursive(n: int):
    if n > 0:
        return recursive(n - 1)
    return 0


def len_of_number(n: int) -> int:
    return len(n)


def abs_of_array(x: kiln.f64[:]) -> float:
    return abs(x)


def min_of_one(x: float) -> float:
    return min(x)


def max_of_array(x: kiln.f64[:], y: float) -> float:
    return max(y, x)


def min_array_first(x: kiln.f64[:], y: float) -> float:
    return min(x, y)


def float_of_two(x: float) -> float:
    return float(x, x)


def int_of_array(x: kiln.f64[:]) -> int:
    return int(x)


def bool_of_array(x: kiln.f64[:]) -> bool:
    return bool(x)


def round_ndigits(x: float) -> float:
    return round(x, 2)


def sqrt_two(x: float) -> float:
    return math.sqrt(x, x)


def sqrt_of_array(x: kiln.f64[:]) -> float:
    return math.sqrt(x)


def numpy_minimum_arrays(x: kiln.f64[:]) -> float:
    return np.minimum(x, 1.0)


def numpy_power_array(x: kiln.f64[:]) -> float:
    return np.power(x, 2.0)


def cast_of_array(x: kiln.f64[:]) -> float:
    return np.float32(x)


def math_attribute() -> float:
    return math.foo


def attribute_of_number(x: float) -> float:
    return x.shape


def array_shape(x: kiln.f64[:]) -> int:
    s = x.shape
    return 0


def shape_variable_index(x: kiln.f64[:], k: int) -> int:
    return x.shape[k]


def shape_axis(x: kiln.f64[:]) -> int:
    return x.shape[1]


def shape_of_number(x: float) -> int:
    return x.shape[0]


def index_number(x: float) -> float:
    return x[0]


def float_index(x: kiln.f64[:]) -> float:
    return x[1.5]


def partial_index(x: kiln.f64[:, :]) -> float:
    return x[0]


def slice_store(x: kiln.f64[:]):
    x[1:] = 0.0


def slice_float_bound(x: kiln.f64[:]) -> float:
    y = x[0.5:]
    return 0.0


def slice_zero_step(x: kiln.f64[:]) -> float:
    y = x[::0]
    return 0.0


def slice_too_many(x: kiln.f64[:]) -> float:
    y = x[1:, 2:]
    return 0.0


def slice_of_number(x: float) -> float:
    y = x[1:]
    return 0.0


def store_array(x: kiln.f64[:], y: kiln.f64[:]):
    x[0] = y


def range_float(x: float) -> int:
    s = 0
    for i in range(x):
        s += i
    return s


def range_zero_step(n: int) -> int:
    s = 0
    for i in range(0, n, 0):
        s += i
    return s


def range_arguments(n: int) -> int:
    s = 0
    for i in range(1, 2, 3, 4):
        s += i
    return s


def loop_declared(n: int) -> int:
    i: float = 0.0
    for i in range(n):
        pass
    return 0


def redeclared(n: int) -> int:
    x: int = 1
    x: float = 2.0
    return 0


def bad_dtype(n: int):
    a = np.zeros(n, dtype=np.float16)
    return a


def bad_shape(n: int):
    a = np.zeros((n, n, n, n, n, n, n, n, n))
    return a


def float_size(x: float):
    a = np.zeros(x)
    return a


def allocator_keyword(n: int):
    a = np.zeros(n, order="C")
    return a


def like_of_number(x: float):
    a = np.zeros_like(x)
    return a


def raise_unknown(n: int) -> int:
    raise KeyError("x")


def raise_message(n: int) -> int:
    raise ValueError("a", "b")


def assert_message(n: int) -> int:
    assert n > 0, n
    return n


def unpack_number(n: int) -> int:
    a, b = n
    return a


def unpack_count(n: int) -> int:
    a, b = n, n, n
    return a


def returns_pair(n: int) -> tuple[int, int]:
    return n, n


def pair_to_variable(n: int) -> int:
    t = returns_pair(n)
    return 0


def tuple_return_mismatch(n: int):
    if n > 0:
        return n, n
    return n


def array_raise(n: int):
    a = np.zeros(n)
    if n > 3:
        raise ValueError("no")
    return a


def vectorized_array(x: kiln.f64[:]) -> float:
    return 0.0


@kiln.vectorize
def vectorized_bool(x: float) -> bool:
    return x > 0


def mixed_return(x: int):
    if x > 0:
        return x
    return np.zeros(3)


def bool_or_float(x: bool, y: float) -> float:
    z = x or y
    return z


def int_and_literal(x: kiln.i32[:]) -> int:
    s = 0
    s = x[0]
    return s + 3000000000


def inner_tuple(n: int) -> tuple[int, int]:
    return (n, (n, n))


def annotated_tuple_scalar(n: int) -> tuple[int, int]:
    return n


def shape_in_returned_tuple(x: kiln.f64[:, :]):
    return x.sum(), x.shape
'''


FIRST_ERRORS = {
    'no_annotation': (12, 19, 'parameter `x` needs a type annotation (int, float, bool, kiln.f64[:], ...)'),
    'none_param': (16, 16, 'parameter `x` cannot be None'),
    'implicit_float_to_int': (21, 5, 'cannot implicitly convert float to int; use int(...)'),
    'literal_float_to_int': (25, 5, 'cannot implicitly convert float to int'),
    # a parameter's annotation types the argument, not the name
    'declared_int': (30, 5, 'cannot implicitly convert float to int; use int(...)'),
    'declared_bool': (35, 5, '`declared_bool` is annotated -> bool but returns an int'),
    'two_arrays': (40, 24, 'variable `z` is kiln.f64[:] on one path and kiln.i64[:] on another '
                           '(assigned at line 39 and at line 40, both of which reach the read at '
                           'line 41)'),
    'value_or_none': (44, 1, '`value_or_none` returns a value on some paths and None on others'),
    'none_then_value': (51, 9, '`none_then_value` returns None here but a value elsewhere'),
    'annotated_none': (56, 5, '`annotated_none` is annotated -> None but returns a value'),
    'returns_bool': (60, 5, '`returns_bool` is annotated -> bool but returns an int'),
    'may_not_return': (63, 1, '`may_not_return` may end without returning a value (it is annotated -> int)'),
    'returns_parameter': None,
    'array_in_loop': None,
    'returns_array_from_loop': None,
    'used_before': (88, 17, 'variable `s` is used before it is assigned'),
    'maybe_undefined': (96, 12, 'variable `y` may be used before it is assigned (it is not assigned on every path to this line)'),
    'loop_variable_after': (102, 12, 'variable `i` may be used before it is assigned (it is not assigned on every path to this line)'),
    'undefined_name': (106, 12, 'name `nothing` is not defined'),
    'huge_constant': (110, 12, 'global variable `BIG` is not supported yet (a module constant must be bound once to a number, a str, a tuple of numbers, or a list or dict of numbers or strs, that fits in 64 bits)'),
    'shadowed_constant': (116, 17, 'variable `LIMIT` may be used before it is assigned (it is not assigned on every path to this line)'),
    'huge_literal': (122, 12, 'integer literal 100000000000000000000 does not fit in 64 bits (Kiln integers are 64-bit)'),
    'string_constant': (126, 9, "bytes is not supported yet"),
    'tuple_value': None,
    'array_operator': None,
    'bit_and_float': (141, 12, 'operator `&` needs int or bool operands'),
    'invert_float': (145, 12, 'operator `~` needs an int operand'),
    'negate_array': None,
    'compare_arrays': (154, 5, '`compare_arrays` is annotated -> bool but returns a kiln.b1[:]'),
    'truth_of_array': (158, 8, 'the truth value of an array is not supported; use len(x)'),
    'and_arrays': (164, 9, '`and`/`or` on arrays is not supported'),
    'conditional_arrays': (169, 9, 'the branches of this conditional expression have different array types'),
    'call_variable': (175, 12, 'call to `f` is not supported'),
    'call_unknown': (179, 12, 'call to `print` is not supported'),
    'keyword_builtin': (183, 12, 'keyword arguments in `abs(...)` are not supported'),
    'keyword_library': (187, 12, 'keyword arguments in `math.sqrt(...)` are not supported'),
    'unknown_library': (191, 12, 'call to `math.gamma` is not supported yet'),
    'unknown_numpy': (195, 12, 'call to `np.sinc` is not supported yet'),
    'helper': None,
    'too_many_args': (203, 12, 'helper() takes 2 arguments but 3 were given'),
    'unexpected_keyword': (207, 27, 'helper() got an unexpected or repeated argument `c`'),
    'missing_argument': (211, 12, 'helper() is missing argument `b`'),
    'wrong_array_argument': (215, 22, 'argument `b` of helper() must be kiln.f64[:], not kiln.i64[:]'),
    'float_argument': (219, 19, 'cannot implicitly convert float to int'),
    'broken': (223, 5, 'cannot implicitly convert float to int; use int(...)'),
    'calls_broken': (227, 12, 'calls `broken`, which cannot be compiled (cannot implicitly convert float to int; use int(...), line 223)'),
    # Recursion compiles when the signature is annotated (test_recursion.py).
    'recursive': (232, 16, '`recursive` calls itself (directly or through other functions), so its parameters and result need annotations: its signature must be known before its body is typed; annotate the result (`-> None` if it returns nothing)'),
    'len_of_number': (237, 12, 'len() takes one array, list, dict, set, str or range'),
    'abs_of_array': (241, 5, 'cannot use a kiln.f64[:] value as float'),
    'min_of_one': (245, 12, 'min() of a sequence is not supported; pass two or more numbers'),
    'max_of_array': (249, 12, 'max() needs a number, not an array'),
    'min_array_first': (253, 12, 'min() needs numbers'),
    'float_of_two': (257, 12, 'float() takes one number'),
    'int_of_array': (261, 12, 'int() needs a number, not an array'),
    'bool_of_array': (265, 12, 'bool() needs a number, not an array'),
    'round_ndigits': (269, 12, 'round() with ndigits is not supported yet'),
    'sqrt_two': (273, 12, 'math.sqrt() takes 1 argument'),
    'sqrt_of_array': (277, 12, 'this function needs a number, not an array'),
    'numpy_minimum_arrays': (281, 5, 'cannot use a kiln.f64[:] value as float'),
    'numpy_power_array': (285, 5, 'cannot use a kiln.f64[:] value as float'),
    'cast_of_array': (289, 12, 'np.float32 of arrays is not supported yet'),
    'math_attribute': (293, 12, '`math.foo` is not supported yet'),
    'attribute_of_number': (297, 12, 'attribute `shape` of a float is not supported'),
    'array_shape': None,
    'shape_variable_index': (306, 12, '`x.shape[k]`: the axis in `.shape[...]` must be an int written in the source, such as `.shape[0]`'),
    'shape_axis': (310, 12, 'axis 1 is out of range for a 1-D array'),
    'shape_of_number': (314, 12, '`.shape` needs an array'),
    'index_number': (318, 12, '`x` is a float, not an array'),
    'float_index': (322, 14, 'array index `1.5` must be an int, not float'),
    'partial_index': (326, 5, 'cannot use a kiln.f64[:] value as float'),
    'slice_store': None,
    'slice_float_bound': (334, 11, 'slice bounds must be ints'),
    'slice_zero_step': (339, 11, 'slice step cannot be zero'),
    'slice_too_many': (344, 9, 'too many indices for a 1-D array'),
    'slice_of_number': (349, 9, '`x` is not an array'),
    'store_array': (354, 5, 'cannot store an array into an array element'),
    'range_float': (359, 20, 'range() arguments must be int, not float'),
    'range_zero_step': (366, 14, 'range() arg 3 must not be zero'),
    'range_arguments': (373, 14, 'range() takes 1 to 3 arguments'),
    'loop_declared': (380, 9, 'loop variable `i` is declared float, but range() yields int'),
    'redeclared': (387, 5, 'variable `x` is declared int and float'),
    'bad_dtype': (392, 27, '`np.float16` is not supported yet'),
    'bad_shape': (397, 18, 'arrays have 1 to 8 dimensions'),
    'float_size': (402, 18, 'array dimensions must be ints'),
    'allocator_keyword': (407, 9, 'np.zeros() argument `order` is not supported'),
    'like_of_number': (412, 23, 'np.zeros_like() needs an array'),
    'raise_unknown': (417, 5, "raising KeyError('x') is not supported; raise one of ValueError, IndexError, ZeroDivisionError, OverflowError, AssertionError, RuntimeError, TypeError, AttributeError, NotImplementedError, numpy.linalg.LinAlgError with a constant message or an f-string"),
    'raise_message': (421, 11, 'an exception raised in compiled code takes one message: a constant string, or an f-string of ints and bools (`f"bad n {n}"`)'),
    'assert_message': (425, 19, 'an assert message must be a constant string'),
    'unpack_number': (430, 5, 'cannot unpack a int'),
    'unpack_count': (435, 5, 'cannot unpack 3 values into 2 targets'),
    'returns_pair': None,
    'pair_to_variable': None,
    'tuple_return_mismatch': (448, 1, 'the result is tuple[int, int] on one path and int on another'),
    'array_raise': None,
    'vectorized_array': None,
    'vectorized_bool': (466, 1, '@kiln.vectorize needs number parameters (int, float, kiln.f32, ...) and a number result'),
    'mixed_return': (470, 1, 'the result is int on one path and kiln.f64[:] on another'),
    'bool_or_float': None,
    'int_and_literal': None,
    'inner_tuple': (488, 16, 'a tuple inside a returned tuple is not supported yet; return its elements one by one (`n, m = a.shape` and `return a, n, m`)'),
    'annotated_tuple_scalar': (492, 5, 'cannot use int as tuple[int, int]'),
    'shape_in_returned_tuple': (496, 21, 'a tuple inside a returned tuple is not supported yet; return its elements one by one (`n, m = a.shape` and `return a, n, m`)'),
}


def test_error_corpus(tmp_path):
    path = tmp_path / "typing_errors.py"
    path.write_text(ERROR_CORPUS)
    context = load_module(str(path))
    functions = list(context.module_functions().values())
    assert [f.name for f in functions] == list(FIRST_ERRORS)
    failures = infer_module(context, functions).failures
    first = {f.name: failures[f.name].diagnostics[0] if f.name in failures else None
             for f in functions}
    got = {name: d and (d.line, d.column, d.message) for name, d in first.items()}
    assert got == FIRST_ERRORS
    problems, checked = typed_and_generated(str(path))
    assert not problems, "\n".join(problems)
    assert checked >= 100


MULTIPLE_ERRORS = '''import math

import kiln


@kiln.export
def three_errors(x: float, a: kiln.f64[:]) -> int:
    n: int = x
    y = a << 2
    z = y * 2.0
    return len(x)


@kiln.export
def errors_in_a_loop(x: kiln.f64[:], n: int) -> float:
    s = 0.0
    for i in range(n):
        s += x[i] + missing
        t = x[1.5]
    if x:
        s = s & 1
    return s


@kiln.export
def errors_in_calls(x: kiln.f64[:]) -> float:
    a = math.sqrt(x)
    b = math.hypot(1.0)
    c = helper(x, 2.5)
    return a + b + c


def helper(v: kiln.f64[:], k: int) -> float:
    return v[k]


@kiln.export
def loop_widening(x: kiln.f64[:]) -> int:
    k = 0
    for i in range(len(x)):
        y = x[k]
        k = k + 0.5
    return k
'''

EXPECTED_ERRORS = {
    # Later uses of `y` (UNKNOWN after the first error) report nothing more.
    "three_errors": [
        (8, 5, "variable `n` is declared int but is assigned a float"),
        (9, 9, "operator `<<` needs int arrays"),
        (11, 12, "len() takes one array, list, dict, set, str or range"),
    ],
    "errors_in_a_loop": [
        (18, 21, "name `missing` is not defined"),
        (19, 15, "array index `1.5` must be an int, not float"),
        (20, 8, "the truth value of an array is not supported; use len(x)"),
        (21, 13, "operator `&` needs int or bool operands"),
    ],
    "errors_in_calls": [
        (27, 9, "this function needs a number, not an array"),
        (28, 9, "math.hypot() takes 2 arguments"),
        (29, 19, "cannot implicitly convert float to int"),
    ],
    # Both appear once `k` has widened to float (the second round).
    "loop_widening": [
        (41, 15, "array index `k` must be an int, not float"),
        (43, 5, "cannot implicitly convert float to int; use int(...)"),
    ],
}


def test_reports_every_error_of_a_function(tmp_path):
    path = tmp_path / "several_errors.py"
    path.write_text(MULTIPLE_ERRORS)
    context = load_module(str(path))
    failures = infer_module(context).failures
    assert set(failures) == set(EXPECTED_ERRORS)
    for name, expected in EXPECTED_ERRORS.items():
        got = [(d.line, d.column, d.message) for d in failures[name].diagnostics]
        assert got == expected, name
        assert all(d.file == str(path) and d.function == name
                   for d in failures[name].diagnostics)
    # ... and every one of them is a fallback record of the build.
    _, signatures, generated = code_generator.generate_module(context,
                                                              context.exported_functions())
    assert not signatures
    records = [(r["function"], r["line"], r["column"], r["reason"])
               for r in fallback_records(generated)]
    assert records == [(name, *error) for name, errors in EXPECTED_ERRORS.items()
                       for error in errors]
    problems, checked = typed_and_generated(str(path))
    assert not problems, "\n".join(problems)
    assert checked == 5


def test_command_line_prints_every_error(tmp_path):
    path = tmp_path / "several_errors.py"
    path.write_text(MULTIPLE_ERRORS)
    result = subprocess.run([sys.executable, "-m", "kiln.typecheck.type_inference", str(path)],
                            capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert result.returncode == 1
    expected = [f"{path}:{line}:{column}: {message}"
                for errors in EXPECTED_ERRORS.values() for line, column, message in errors]
    assert result.stderr.splitlines() == expected


def test_typed_tree_api(tmp_path):
    path = tmp_path / "typed.py"
    path.write_text('''import kiln


@kiln.export
def total(x: kiln.f32[:]) -> float:
    s = 0
    for i in range(len(x)):
        s += x[i] * 2
    half, one = scale(s)
    return half + one


def scale(v: float):
    return v / 2, 1
''')
    context = load_module(str(path))
    result = infer_module(context)
    assert not result.failures
    typed = result.functions["total"]
    f32, f64, i64 = kiln.typesystem.f32, kiln.typesystem.f64, kiln.typesystem.i64
    # `s = 0` is an int64 once loaded, and int64 + float32 is float64 (numpy).
    assert typed.variables["s"].type == f64 and typed.variables["i"].type == i64
    assert typed.variables["one"].type == i64
    assert [(p.name, p.type) for p in typed.params] == [("x", f32[:])]
    assert typed.return_type == f64 and typed.raises
    loop = typed.node.body[1]
    assert typed.loop_carried[loop] == ["s"]
    product = loop.body[0].value
    assert typed.type_of(product) == f32
    # `s += ...`: the operation's type is on the statement, for code generation.
    assert typed.type_of(loop.body[0]) == f64
    literal = product.right
    assert typed.value_of(literal).weak == "int" and typed.value_of(literal).constant == 2
    assert set(typed.callees) == {"scale"}
    callee = typed.callees["scale"]
    assert callee.return_type == kiln.typesystem.TupleType((f64, i64))
    assert not callee.raises and not callee.exported


SUBSET_AND_TYPE_ERRORS = '''import kiln


@kiln.export
def mixed(x: float) -> float:
    y = b'x' and x
    z = totl + 1
    w: int = 2.5
    try:
        pass
    except Exception:
        pass
    return y + z + w
'''


def test_subset_errors_do_not_hide_type_errors(tmp_path):
    """A construct outside the subset and the type errors elsewhere in the
    same function are reported in one build; the unsupported construct's
    value does not cascade (y's use is not reported)."""
    path = tmp_path / "mixed_errors.py"
    path.write_text(SUBSET_AND_TYPE_ERRORS)
    result = subprocess.run([sys.executable, "-m", "kiln", "build", str(path), "-o",
                             str(tmp_path / "out"), "--strict"], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert result.returncode == 1
    errors = [line.split(": error: ", 1)[1] for line in result.stderr.splitlines()
              if ": error: " in line and line.startswith(str(path))]
    assert errors == ["bytes is not supported yet", "name `totl` is not defined",
                      "variable `w` is declared int but is assigned a float",
                      "`try` statement is not supported yet"], result.stderr
