"""The frontend's layout follows the pipeline (issue 27): one package per
stage, in the order a build runs them, and no import runs back up. Every
module under python_frontend/kiln is parsed (imports inside functions
included, since a lazy import is still a dependency) into an import graph,
which must have no cycles and no edge from a stage to a later one."""

import ast
import os

KILN = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "python_frontend",
                                     "kiln"))

# Lowest first. A module belongs to the first entry naming it or its package;
# it may import its own stage and the stages before it.
STAGES = (
    # The language's vocabulary: types, typing rules, errors, options, and
    # the native facts every stage may ask (the CPU, what kilnc takes, where
    # answers computed once are kept).
    ("vocabulary", ("kiln.version", "kiln.errors", "kiln.options", "kiln.typesystem",
                    "kiln.typing_rules", "kiln.library_functions", "kiln.cpu_levels", "kiln.threads",
                    "kiln.cache_dir", "kiln.toolchain")),
    ("frontend", ("kiln.frontend",)),
    ("typecheck", ("kiln.typecheck",)),
    ("mlir", ("kiln.mlir",)),
    ("native", ("kiln.native",)),
    ("report", ("kiln.report",)),
    ("driver", ("kiln.compiler",)),
    ("interface", ("kiln", "kiln.cli", "kiln.__main__", "kiln.build_hook", "kiln.report_targets",
                   "kiln.cell_magic", "kiln.python_ufuncs")),
)


def module_names() -> dict:
    """Dotted module name → file, for every module of the package."""
    names = {}
    for directory, _, files in os.walk(KILN):
        for file in files:
            if not file.endswith(".py"):
                continue
            relative = os.path.relpath(os.path.join(directory, file), os.path.dirname(KILN))
            parts = relative[:-len(".py")].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            names[".".join(parts)] = os.path.join(directory, file)
    return names


def imports_of(name: str, path: str, modules: dict) -> set:
    """The kiln modules `name` imports, anywhere in its file."""
    is_package = path.endswith("__init__.py")
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "kiln")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "kiln":
                continue
            for alias in node.names:
                # `from . import ir_builder` imports a module, `from .x import y` a name.
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in modules else target)
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def stage_of(module: str) -> int:
    for index, (_, members) in enumerate(STAGES):
        for member in members:
            if module == member or (member != "kiln" and module.startswith(member + ".")):
                return index
    raise AssertionError(f"{module} belongs to no stage: add it to STAGES in test_layout.py")


def test_every_module_belongs_to_a_stage():
    for module in import_graph():
        stage_of(module)


def test_no_import_runs_up_the_pipeline():
    upward = []
    for module, imported in sorted(import_graph().items()):
        for target in sorted(imported):
            if stage_of(target) > stage_of(module):
                upward.append(f"{module} ({STAGES[stage_of(module)][0]}) imports {target} "
                              f"({STAGES[stage_of(target)][0]})")
    assert not upward, "\n".join(upward)


def test_no_import_cycles():
    graph = import_graph()
    cycles = []
    state = {}                  # module → "visiting" or "done"
    trail = []

    def visit(module):
        state[module] = "visiting"
        trail.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "visiting":
                cycles.append(" → ".join(trail[trail.index(target):] + [target]))
            elif target not in state:
                visit(target)
        trail.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, "\n".join(cycles)


def test_stage_packages_say_what_they_do():
    for _, members in STAGES:
        for member in members:
            path = os.path.join(os.path.dirname(KILN), *member.split("."), "__init__.py")
            if member != "kiln" and os.path.exists(path):
                with open(path, encoding="utf-8") as handle:
                    assert ast.get_docstring(ast.parse(handle.read())), path


# Issue 27: a construct's typing and lowering are found side by side, and no
# module grows past about 1,200 lines (split by construct instead, as
# mlir/reductions.py and mlir/array_indexing.py were).
MAX_MODULE_LINES = 1200


def test_no_module_grows_past_the_limit():
    long = {}
    for name, path in module_names().items():
        with open(path, encoding="utf-8") as handle:
            count = sum(1 for _ in handle)
        if count > MAX_MODULE_LINES:
            long[name] = count
    assert not long, f"split these by construct: {long}"


def test_code_generator_mixins_define_each_method_once():
    """FunctionCodeGenerator is one class made of per-construct mixins: a
    method two of them define is silently the first one's everywhere (a
    prange `combine` once replaced the array reductions' own)."""
    import sys
    sys.path.insert(0, os.path.dirname(KILN))
    from kiln.mlir.code_generator import FunctionCodeGenerator
    owners = {}
    for base in FunctionCodeGenerator.__mro__[:-1]:
        for name in vars(base):
            if not name.startswith("__"):
                owners.setdefault(name, []).append(base.__name__)
    assert {name: where for name, where in owners.items() if len(where) > 1} == {}
