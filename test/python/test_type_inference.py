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
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python_frontend"))
sys.path.insert(0, os.path.join(REPO, "test"))

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
        observed[self.func.name] = (self.observed_values, dict(self.var_types), signature)
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
    for func_name, (values, variables, signature) in observed.items():
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
