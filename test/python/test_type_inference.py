"""The type-inference stage (python_frontend/kiln/compiler/type_inference.py)
against today's code generator, which still types as it emits.

For every function of the test modules, the examples, the lit inputs and a
few hundred fuzzer programs, the type the stage infers for each expression
node, each variable and the signature must be the one the code generator
gives it (observed by wrapping `FunctionCodeGenerator.expression` and
`generate`; only the last typing round counts). Where the generator
rejects a function, the stage's first diagnostic must be the generator's
error (same message, line and column). Functions with several independent
type errors get all of them, each checked.
"""

import ast
import contextlib
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
from kiln.compiler import code_generator  # noqa: E402
from kiln.compiler.source import load_module  # noqa: E402
from kiln.compiler.type_inference import infer_module  # noqa: E402
from kiln.compiler.typing_rules import UNKNOWN  # noqa: E402
from kiln.errors import KilnCompileError  # noqa: E402

SOURCES = sorted(glob.glob(os.path.join(HERE, "modules", "*.py"))
                 + glob.glob(os.path.join(REPO, "examples", "*.py"))
                 + glob.glob(os.path.join(REPO, "test", "python_frontend", "*.py")))
FUZZ_COUNT = int(os.environ.get("KILN_TYPING_FUZZ_COUNT", "300"))
FUZZ_SEED = int(os.environ.get("KILN_TYPING_FUZZ_SEED", "20240611"))
PER_MODULE = 25


@contextlib.contextmanager
def observing_generator():
    """Records, per compiled function, the generator's last typing round:
    node -> [(type, weak)] of every `expression` call, the variable types
    and the signature."""
    generator = code_generator.FunctionCodeGenerator
    original_expression = generator.expression
    original_emit = generator.emit_function
    original_generate = generator.generate
    observed = {}

    def expression(self, node):
        value = original_expression(self, node)
        self.observed_values.setdefault(node, []).append((value.type, value.weak))
        return value

    def emit_function(self, *args):
        self.observed_values = {}      # a new round: only the last one counts
        return original_emit(self, *args)

    def generate(self):
        text, signature = original_generate(self)
        observed[self.func.name] = (self.observed_values, dict(self.var_types), signature,
                                    dict(self.expression_types))
        return text, signature

    generator.expression, generator.emit_function, generator.generate = (
        expression, emit_function, generate)
    try:
        yield observed
    finally:
        generator.expression, generator.emit_function, generator.generate = (
            original_expression, original_emit, original_generate)


def first(error):
    d = error.diagnostics[0]
    return d.line, d.column, d.message


def cross_check(path):
    """Mismatches between the stage and the generator over one module."""
    try:
        context = load_module(path)
    except KilnCompileError:
        return [], 0
    functions = list(context.module_functions().values())
    with observing_generator() as observed:
        _, _, failures, deep = code_generator.generate_module_once(context, functions)
    inferred = infer_module(context, functions)
    problems = []
    name = os.path.basename(path)
    checked = 0
    for func in functions:
        expected = failures.get(func.name)
        got = inferred.failures.get(func.name)
        if expected is not None:
            message = expected.diagnostics[0].message
            if deep or message.startswith("internal compiler error") or "__array" in message:
                continue     # the generator's own bugs and its stack limit; not typing
            checked += 1
            if got is None:
                problems.append(f"{name}:{func.name}: generator fails with {first(expected)}, "
                                "type inference accepts it")
            elif first(got) != first(expected):
                problems.append(f"{name}:{func.name}: first error {first(got)}, generator "
                                f"{first(expected)}")
            continue
        if got is not None:
            problems.append(f"{name}:{func.name}: type inference rejects {first(got)}, the "
                            "generator compiles it")
            continue
    for func_name, (values, variables, signature, joins) in observed.items():
        typed = inferred.functions.get(func_name)
        if typed is None or not typed.ok:
            problems.append(f"{name}:{func_name}: compiled by the generator, not typed")
            continue
        checked += 1
        for node, seen in values.items():
            if len(set(seen)) != 1:
                problems.append(f"{name}:{func_name}: {ast.unparse(node)} typed {seen} in one "
                                "round by the generator")
                continue
            want = seen[0]
            if node not in typed.values:
                problems.append(f"{name}:{func_name}:{node.lineno}:{node.col_offset + 1}: "
                                f"`{ast.unparse(node)}` not typed")
                continue
            value = typed.value_of(node)
            if (value.type, value.weak) != want:
                problems.append(f"{name}:{func_name}:{node.lineno}:{node.col_offset + 1}: "
                                f"`{ast.unparse(node)}` is {(value.type, value.weak)}, generator "
                                f"{want}")
        for (node, count), type_ in typed.bool_op_tails.items():
            # The generator keys `and`/`or` tails by position; an unrecorded
            # tail has the type of its first operand.
            first_operand = values.get(node.values[-count], [(None, None)])[0][0]
            want = joins.get((node.lineno, node.col_offset, count), first_operand)
            want = getattr(want, "type", want)     # the generator records a VarType join
            if type_ != want:
                problems.append(f"{name}:{func_name}:{node.lineno}: `{ast.unparse(node)}` tail "
                                f"{count} is {type_}, generator {want}")
        mine = {n: (v.type, v.weak) for n, v in typed.variables.items()}
        theirs = {n: (v.type, v.weak) for n, v in variables.items()}
        if mine != theirs:
            problems.append(f"{name}:{func_name}: variables {mine}, generator {theirs}")
        ours = ([(p.name, p.type) for p in typed.params], typed.return_type, typed.raises,
                set(typed.written_arrays))
        generators = ([(p.name, p.type) for p in signature.params], signature.return_type,
                      signature.raises, set(signature.written_arrays))
        if ours != generators:
            problems.append(f"{name}:{func_name}: signature {ours}, generator {generators}")
        if any(v.type is UNKNOWN for v in typed.values.values()):
            problems.append(f"{name}:{func_name}: UNKNOWN types in a function that types")
    return problems, checked


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: os.path.relpath(p, REPO))
def test_matches_code_generator(path):
    problems, checked = cross_check(path)
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


def test_matches_code_generator_on_fuzzer_programs(tmp_path):
    print(f"KILN_TYPING_FUZZ_SEED={FUZZ_SEED} KILN_TYPING_FUZZ_COUNT={FUZZ_COUNT}")
    problems, checked = [], 0
    for path in fuzz_modules(FUZZ_COUNT, FUZZ_SEED, str(tmp_path)):
        found, count = cross_check(path)
        problems += found
        checked += count
    assert not problems, "\n".join(problems[:40])
    assert checked >= FUZZ_COUNT


# One function per error the code generator reports (and a few that pass
# through the same paths): the stage's first diagnostic must be the
# generator's error.
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
    z = y
    return 0.0


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
    x = "text"
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
    return np.cbrt(x)


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


def recursive(n: int) -> int:
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
    return x.real


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
    a = np.zeros(n, dtype=np.complex128)
    return a


def bad_shape(n: int):
    a = np.zeros((n, n, n, n))
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
'''


def test_errors_match_code_generator(tmp_path):
    path = tmp_path / "typing_errors.py"
    path.write_text(ERROR_CORPUS)
    problems, checked = cross_check(str(path))
    assert not problems, "\n".join(problems)
    assert checked >= 100


MULTIPLE_ERRORS = '''import math

import kiln


@kiln.export
def three_errors(x: float, a: kiln.f64[:]) -> int:
    n: int = x
    y = a + 1.0
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
        (9, 9, "operator `+` on arrays is not supported; write a loop"),
        (11, 12, "len() takes one array"),
    ],
    "errors_in_a_loop": [
        (18, 21, "name `missing` is not defined in this function (global variables are not "
                 "supported yet)"),
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
    # ... and the first of each is the error the code generator stops at.
    problems, checked = cross_check(str(path))
    assert not problems, "\n".join(problems)
    assert checked == 5


def test_command_line_prints_every_error(tmp_path):
    path = tmp_path / "several_errors.py"
    path.write_text(MULTIPLE_ERRORS)
    result = subprocess.run([sys.executable, "-m", "kiln.compiler.type_inference", str(path)],
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
    literal = product.right
    assert typed.value_of(literal).weak == "int" and typed.value_of(literal).constant == 2
    assert set(typed.callees) == {"scale"}
    callee = typed.callees["scale"]
    assert callee.return_type == kiln.typesystem.TupleType((f64, i64))
    assert not callee.raises and not callee.exported
