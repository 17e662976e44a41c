"""Compile time: `kiln build` from nothing (the whole module, and modules
holding one function), the compile-on-first-call path with an empty and a
warm on-disk cache, and Numba's first-call compile for the same functions.
Every figure is wall time, minimum over the repeats shown."""

import ast
import json
import os
import shutil
import subprocess
import tempfile
import time

from . import layout


def wall_seconds(command, env=None):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0 or "kiln: fallback:" in result.stderr:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return elapsed, result


def best(values):
    return {"seconds": min(values), "all_seconds": [round(v, 3) for v in values],
            "repeats": len(values)}


def cold_build_seconds(source, repeats):
    values = []
    for _ in range(repeats):
        outdir = tempfile.mkdtemp(prefix="kiln-cold-", dir=layout.BUILD)
        try:
            values.append(wall_seconds([layout.KILN, "build", source, "-o", outdir])[0])
        finally:
            shutil.rmtree(outdir, ignore_errors=True)
    return best(values)


def single_function_module(name, directory):
    """A module holding only `name` of bench/kernels_kiln.py (with its
    imports): `kiln build` compiles every export of a file, so this is how
    one function is built alone."""
    with open(layout.KERNELS_SOURCE, encoding="utf-8") as handle:
        text = handle.read()
    tree = ast.parse(text)
    imports = [ast.get_source_segment(text, node) for node in tree.body
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    function = next(node for node in tree.body
                    if isinstance(node, ast.FunctionDef) and node.name == name)
    first_line = min([d.lineno for d in function.decorator_list] + [function.lineno])
    body = "\n".join(text.splitlines()[first_line - 1:function.end_lineno])
    path = os.path.join(directory, f"only_{name}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(imports) + "\n\n\n" + body + "\n")
    return path


def probe(flavour, source, function, env_updates, extra=()):
    env = dict(os.environ, **env_updates)
    env["PYTHONPATH"] = layout.PYTHON_FRONTEND + (":" + env["PYTHONPATH"]
                                                  if env.get("PYTHONPATH") else "")
    _, result = wall_seconds([layout.PYTHON, os.path.join(layout.BENCH, "harness",
                                                          "first_call_probe.py"),
                              flavour, source, function, *extra], env=env)
    measured = json.loads(result.stdout.strip().splitlines()[-1])
    if not measured["native"]:
        raise RuntimeError(f"{function} ran as Python in the first-call probe")
    return measured


def first_call(flavour, source, function, repeats, cache_variable, warm, extra=()):
    """First-call seconds in fresh processes; `warm`: the cache was filled by
    an earlier process, else each process starts from an empty cache."""
    values, imports = [], []
    cache = tempfile.mkdtemp(prefix=f"{flavour}-cache-", dir=layout.BUILD)
    try:
        if warm:
            probe(flavour, source, function, {cache_variable: cache}, extra)
        for _ in range(repeats):
            if not warm:
                shutil.rmtree(cache, ignore_errors=True)
                os.makedirs(cache)
            measured = probe(flavour, source, function, {cache_variable: cache}, extra)
            values.append(measured["first_call_s"])
            imports.append(measured["import_s"])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return dict(best(values), import_seconds=min(imports))


def measure(build, settings, numba_in_process, log):
    repeats = settings.compile_repeats
    table = {"kiln_module": {}, "kiln_function": {}, "first_call": {}, "numba_in_process": {}}
    log("compile time: cold kiln build of the whole module ...")
    table["kiln_module"] = cold_build_seconds(layout.KERNELS_SOURCE, repeats)
    directory = tempfile.mkdtemp(prefix="one-function-", dir=layout.BUILD)
    try:
        for name in settings.compile_functions:
            log(f"compile time: cold kiln build of {name} alone ...")
            table["kiln_function"][name] = cold_build_seconds(
                single_function_module(name, directory), repeats)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    plain = os.path.join(build.peers_source, "kernels.py")
    for name in settings.first_call_functions:
        log(f"compile time: first call of {name} (Kiln cache empty / warm, Numba) ...")
        entry = table["first_call"][name] = {}
        entry["kiln_cold_cache"] = first_call("kiln", layout.KERNELS_SOURCE, name, repeats,
                                              "KILN_CACHE_DIR", warm=False)
        entry["kiln_warm_cache"] = first_call("kiln", layout.KERNELS_SOURCE, name,
                                              settings.cache_repeats, "KILN_CACHE_DIR", warm=True)
        entry["numba"] = first_call("numba", plain, name, repeats, "NUMBA_CACHE_DIR", warm=False)
        entry["numba_cache_warm"] = first_call("numba", plain, name, settings.cache_repeats,
                                               "NUMBA_CACHE_DIR", warm=True, extra=("cache",))
    table["numba_in_process"] = {key: round(value, 4) for key, value in numba_in_process.items()}
    return table
