"""Delta debugging of a failing program over its syntax tree.

A candidate is kept when it is smaller (as source text) and still shows the
*same failure class and key* (harness.Failure.key: the class, and for a
mismatch the expected and actual outcome kinds). Passes, repeated until none
shrinks the program or the time budget runs out:

1. drop whole helper functions;
2. drop single statements (an emptied block gets `pass`);
3. replace an `if`/`for`/`while` by its body;
4. replace an expression by one of its operands, or by a constant
   (0, 1, 0.0, 1.0, True);
5. simplify the failing input: scalars to 0/1, arrays unchanged.

A candidate the oracle cannot run (it left the subset or the documented
domain) is rejected before building. The result is written as a standalone
repro file by `write_repro`.
"""

from __future__ import annotations

import ast
import copy
import itertools
import os
import time

from . import inputs
from .harness import BuildOutcome, build_key, kiln_build, run_one, runs_in_parallel
from .oracle import OracleModule
from .semantics import OracleTimeout, OutsideDomain
from .worker import Worker

_counter = itertools.count()


class Tester:
    def __init__(self, failure, workdir):
        self.failure = failure
        self.workdir = workdir
        os.makedirs(workdir, exist_ok=True)
        self.tests = 0
        self.last_detail = failure.detail

    def key(self, source, recipe):
        """The failure key this (source, input) shows, or None."""
        failure = self.failure
        if failure.cls != "build":
            try:
                oracle = OracleModule(source)
                args, _ = inputs.realize(recipe, oracle.make_instance)
                oracle.call(failure.function, args, timeout=2.0)
            except (OutsideDomain, OracleTimeout, SyntaxError, KeyError):
                return None
            except Exception:  # noqa: BLE001
                return None
        self.tests += 1
        name = f"fzr_{failure.seed}_{failure.index}_{next(_counter)}"
        path = os.path.join(self.workdir, f"{name}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        outcome = kiln_build(path, os.path.join(self.workdir, name), timeout=300)
        if failure.cls == "build":
            if outcome.status == "build":
                return build_key(outcome.detail)
            for f in (outcome.record or {}).get("fallbacks", []):
                if f.get("kind") == "function" and "internal compiler error" in f["reason"]:
                    return build_key(f["reason"])
            return None
        if outcome.status != "ok" or any(
                f.get("kind") == "function" and f.get("function") == failure.function
                for f in outcome.record.get("fallbacks", [])):
            return None
        worker = Worker(outcome.outdir, name, timeout=10.0)
        try:
            unchecked = "boundscheck=False" in source
            verdict = run_one(oracle, worker, failure.function, recipe, failure.tolerant,
                              unchecked=unchecked, parallel=runs_in_parallel(source))
        finally:
            worker.close()
        if verdict is None:
            return None
        self.last_detail = verdict[1]
        return verdict[2]


def stmt_lists(tree):
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                yield node, name


def nth(tree, n):
    for i, node in enumerate(ast.walk(tree)):
        if i == n:
            return node
    return None


def candidates(tree, main):
    """Smaller variants of `tree`, largest cuts first."""
    nodes = list(ast.walk(tree))
    # 1. drop helper functions
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.FunctionDef) and stmt.name != main:
            new = copy.deepcopy(tree)
            del new.body[i]
            yield new
    # 2./3. drop statements, inline compound statements
    for index, node in enumerate(nodes):
        for name in ("body", "orelse"):
            block = getattr(node, name, None)
            if not (isinstance(block, list) and block and isinstance(block[0], ast.stmt)):
                continue
            if isinstance(node, ast.Module):
                continue
            for j in range(len(block) - 1, -1, -1):
                stmt = block[j]
                if isinstance(node, ast.FunctionDef) and isinstance(stmt, ast.Return) and \
                        j == len(block) - 1 and not any(
                            isinstance(s, ast.Return) for s in block[:-1]):
                    continue
                new = copy.deepcopy(tree)
                target = getattr(nth(new, index), name)
                removed = target.pop(j)
                if isinstance(removed, ast.AnnAssign):
                    continue      # declarations stay (the oracle types by them)
                if not target:
                    target.append(ast.Pass())
                yield new
                if isinstance(stmt, (ast.If, ast.For, ast.While)):
                    for part in ("body", "orelse"):
                        inner = getattr(stmt, part)
                        if inner:
                            new = copy.deepcopy(tree)
                            target = getattr(nth(new, index), name)
                            target[j:j + 1] = copy.deepcopy(inner)
                            yield new
    # 4. expressions
    for index, node in enumerate(nodes):
        if not isinstance(node, ast.expr) or isinstance(node, (ast.Name, ast.Constant)):
            continue
        replacements = []
        if isinstance(node, ast.BinOp):
            replacements = [node.left, node.right]
        elif isinstance(node, ast.IfExp):
            replacements = [node.body, node.orelse]
        elif isinstance(node, ast.BoolOp):
            replacements = list(node.values)
        elif isinstance(node, ast.UnaryOp):
            replacements = [node.operand]
        elif isinstance(node, ast.Call):
            replacements = list(node.args)
        elif isinstance(node, ast.Compare) and len(node.comparators) > 1:
            replacements = [ast.Compare(left=node.left, ops=node.ops[:1],
                                        comparators=node.comparators[:1])]
        replacements += [ast.Constant(c) for c in (0, 1, 0.0, 1.0, True)]
        for replacement in replacements:
            new = copy.deepcopy(tree)
            if replace_node(new, index, copy.deepcopy(replacement)):
                yield new


def replace_node(tree, index, replacement):
    target = nth(tree, index)
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if value is target:
                if name == "func":
                    return False
                if isinstance(parent, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and \
                        name == "target":
                    return False
                setattr(parent, name, replacement)
                return True
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is target:
                        if name == "targets":
                            return False
                        value[i] = replacement
                        return True
    return False


def simpler_recipes(recipe):
    for i, pairs in enumerate(recipe.get("dicts", [])):
        # smaller dict arguments: the first half, or all but the last entry
        for shorter in (pairs[:len(pairs) // 2], pairs[:-1]):
            if len(shorter) < len(pairs):
                dicts = list(recipe["dicts"])
                dicts[i] = shorter
                yield dict(recipe, dicts=dicts)
    for i, items in enumerate(recipe.get("lists", [])):
        # shorter list arguments: the first half, or all but the last item
        for shorter in (items[:len(items) // 2], items[:-1]):
            if len(shorter) < len(items):
                lists = list(recipe["lists"])
                lists[i] = shorter
                yield dict(recipe, lists=lists)
    for i, spec in enumerate(recipe["args"]):
        if spec[0] != "scalar":
            continue
        value = spec[1]
        for simple in ((False,) if isinstance(value, bool) else
                       (0, 1) if isinstance(value, int) else (0.0, 1.0)):
            if simple != value or type(simple) is not type(value):
                new = dict(recipe, args=list(recipe["args"]))
                new["args"][i] = ("scalar", simple)
                yield new


def reduce_failure(failure, workdir, budget=120.0, log=print):
    """Shrinks failure.source in place of failure.reduced_source."""
    deadline = time.monotonic() + budget
    tester = Tester(failure, workdir)
    tree = ast.parse(failure.source)
    recipe = failure.recipe
    current = ast.unparse(tree)
    if tester.key(current, recipe) != failure.key:
        log(f"reduce: {failure.function}: failure did not reproduce alone; kept as is")
        failure.reduced_source = failure.source
        return failure
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for candidate in candidates(tree, failure.function):
            if time.monotonic() > deadline:
                break
            text = ast.unparse(ast.fix_missing_locations(candidate))
            if len(text) >= len(current):
                continue
            if tester.key(text, recipe) == failure.key:
                tree, current, progress = candidate, text, True
                break
        if failure.cls != "build" and not progress:
            for simpler in simpler_recipes(recipe):
                if time.monotonic() > deadline:
                    break
                if tester.key(current, simpler) == failure.key:
                    recipe, progress = simpler, True
                    break
    failure.reduced_source = current + "\n"
    failure.recipe = recipe
    if failure.cls != "build" and tester.key(current, recipe) == failure.key:
        failure.detail = tester.last_detail
    log(f"reduce: {failure.function}: {len(failure.source)} -> {len(current)} characters "
        f"in {tester.tests} builds")
    return failure


REPRO_RUNNER = '''

if __name__ == "__main__":
    # Builds this file with Kiln and compares the compiled call with the
    # expectation above:  PYTHONPATH=python_frontend /usr/bin/python3 {name}.py
    import importlib.util
    import os
    import subprocess
    import sys
    import tempfile

    here = os.path.abspath(__file__)
    out = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "kiln", "build", here, "-o", out], check=True)
    module = os.path.splitext(os.path.basename(here))[0]     # the file may be renamed
    spec = importlib.util.spec_from_file_location("native", os.path.join(out, module + ".py"))
    native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(native)
{inputs}
    try:
        print("got:", repr(native.{function}(*args)))
    except Exception as error:
        print("got:", type(error).__name__, error)
    for i, a in enumerate(args):
        if hasattr(a, "tolist"):
            print(f"argument {{i}} after the call:", a.tolist())
        elif isinstance(a, (list, dict)):
            print(f"argument {{i}} after the call:", a)
'''


def write_repro(failure, directory):
    os.makedirs(directory, exist_ok=True)
    name = f"repro_{failure.cls}_{failure.seed}_{failure.index}"
    source = failure.reduced_source or failure.source
    header = [f"# Kiln fuzzer repro: {failure.cls} in `{failure.function}`",
              f"# seed {failure.seed}, program {failure.index}, input {failure.input_index}",
              f"# reproduce the campaign: KILN_FUZZ_SEED={failure.seed}"]
    for line in failure.detail.splitlines()[:12]:
        header.append(f"# {line[:300]}")
    body = source
    if failure.recipe is not None:
        lines = inputs.describe(failure.recipe).splitlines()
        body += REPRO_RUNNER.format(name=name, function=failure.function,
                                    inputs="\n".join("    " + l for l in lines))
    path = os.path.join(directory, f"{name}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(header) + "\n" + body)
    failure.repro = path
    return path
