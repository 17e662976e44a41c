"""Compile on first call, with an on-disk cache.

An entry is keyed by a hash of everything that decides the machine code:
the source (and position) of the function and of every module function it
calls (transitively), the module's imports and whatever the module binds
to a name those functions read, the module constants, the options, Kiln
itself, the Python ABI and the CPU's feature flags. Entries are built in a private
directory and renamed into place (atomic), and an entry's extension is
checked against the SHA-256 recorded at build time before it is loaded: a
truncated or altered file is rebuilt, never loaded. Each load marks its
entry used; each new entry prunes the least recently used ones beyond
KILN_CACHE_MAX_SIZE (default 1G), and `kiln cache list|clear|prune` manage
the cache by hand.

Classes (`@kiln.export` on a class) compile when the decorator runs: every
exported class of the module into one extension (`<mod>._classes` entry),
so that each class's slot in it is the same type Python sees. A function
compiled later has its own extension, with its own copy of the classes'
code; before its first call its class slots are pointed at the types the
module's globals hold (`_kiln_bind_class`), after checking that their
layout is the one its code reads.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sysconfig
import tempfile

from ..version import __version__
from .. import cpu_levels
from ..cache_dir import OWN_FOLDERS, SOURCES, cache_root
from ..frontend.source import load_module
from ..toolchain import compiler_fingerprint

MANIFEST = "manifest.json"


def cpu_fingerprint() -> str:
    """This CPU, as `native` code generation sees it: asked of CPUID through
    the artifacts' own code (cpu_levels.signature), never /proc/cpuinfo."""
    return cpu_levels.signature()


def called_functions(context, name: str) -> list:
    """`name` and the module functions it calls, transitively, in order."""
    functions = context.module_functions()
    seen, pending = [], [name]
    while pending:
        current = pending.pop()
        if current in seen or current not in functions:
            continue
        seen.append(current)
        for node in ast.walk(functions[current]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                pending.append(node.func.id)
    return seen


def module_statements(body):
    """The simple statements run at module level: bodies of module-level
    `if`/`try`/`for`/`with` included, function and class bodies not."""
    for node in body:
        if isinstance(node, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
            yield from module_statements(getattr(node, "body", []))
            yield from module_statements(getattr(node, "orelse", []))
            yield from module_statements(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                yield from module_statements(handler.body)
        else:
            yield node


def bound_names(node) -> set:
    """The module-level names a statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def global_bindings(context, functions) -> list:
    """The source of what the module binds to the names `functions` read,
    and of every import of the module: changing `from math import sqrt`
    into `from numpy import sqrt` or `SCALE = 2` into `SCALE = 3` makes a
    new key. (Source text, not ast.dump: that recurses, and a statement
    may nest deeper than Python's recursion limit.)"""
    read = {n.id for function in functions for n in ast.walk(function)
            if isinstance(n, ast.Name)}
    lines = context.source.splitlines()
    parts = []
    for statement in module_statements(context.tree.body):
        if isinstance(statement, (ast.Import, ast.ImportFrom)) or \
                bound_names(statement) & read:
            if any(statement is function for function in functions):
                continue  # its source is hashed already
            first = min([d.lineno for d in getattr(statement, "decorator_list", [])]
                        + [statement.lineno])
            parts.append("\n".join(lines[first - 1:statement.end_lineno]))
    return parts


def exported_class_nodes(context) -> dict:
    """name -> `class` statement of each class marked @kiln.export."""
    return {node.name: node for node in context.exported_classes()}


def reached_classes(context, nodes) -> list:
    """The exported classes `nodes` name (annotations, calls, string
    annotations such as "Node"), and the classes those name, transitively,
    with the module functions their methods call: [(name, node)]."""
    classes = exported_class_nodes(context)
    reached, pending = {}, list(nodes)
    while pending:
        node = pending.pop()
        for child in ast.walk(node):
            named = child.id if isinstance(child, ast.Name) else child.value if isinstance(
                child, ast.Constant) and isinstance(child.value, str) else None
            if named in classes and named not in reached:
                reached[named] = classes[named]
                pending.append(classes[named])
    return sorted(reached.items())


def definitions_of(context, roots: list) -> list:
    """[(name, node)] whose source decides the code of `roots` (function or
    exported class names): the functions they call, the classes they name,
    and the functions those classes' methods call, transitively."""
    functions = context.module_functions()
    classes = exported_class_nodes(context)
    found = {}
    pending = list(roots)
    while pending:
        name = pending.pop()
        if name in found:
            continue
        if name in functions:
            found[name] = functions[name]
            pending += [callee for callee in called_functions(context, name) if callee != name]
        elif name in classes:
            found[name] = classes[name]
            pending += [node.func.id for node in ast.walk(classes[name])
                        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
        else:
            continue
        pending += [class_name for class_name, _ in reached_classes(context, [found[name]])]
    return sorted(found.items())


# The name under which the classes of a module are built and cached (it
# names the extension, so it is an identifier; a function named so has
# another key, hashed from other roots, hence another entry).
CLASSES_ENTRY = "_classes"


def cache_key(context, name: str, options: dict, target_cpu: str) -> str:
    """The key of function `name`'s entry, or with name CLASSES_ENTRY of
    the entry holding every exported class of the module."""
    digest = hashlib.sha256()
    roots = sorted(exported_class_nodes(context)) if name == CLASSES_ENTRY else [name]
    definitions = definitions_of(context, roots)
    # The file and lines are in the code: exceptions say `(mod.py, line N)`.
    digest.update(context.path.encode())
    for callee, node in definitions:
        digest.update(callee.encode())
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        lines = context.source.splitlines()[first - 1:node.end_lineno]
        digest.update(f"{first}\n".encode())
        digest.update("\n".join(lines).encode())
    for part in global_bindings(context, [node for _, node in definitions]):
        digest.update(part.encode())
    digest.update(json.dumps([sorted(context.kiln_aliases), sorted(context.math_aliases),
                              sorted(context.numpy_aliases), sorted(context.cmath_aliases),
                              sorted(context.imported_names.items()),
                              sorted(context.container_module_aliases.items())]).encode())
    digest.update(json.dumps(sorted(context.module_constants().items())).encode())
    digest.update(json.dumps(sorted(options.items())).encode())
    for part in (__version__, sysconfig.get_config_var("EXT_SUFFIX") or "", target_cpu,
                 cpu_fingerprint(), compiler_fingerprint()):
        digest.update(part.encode())
    return digest.hexdigest()[:24]


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verified_extension(entry: str):
    """The extension path of a complete, untampered entry, else None."""
    try:
        with open(os.path.join(entry, MANIFEST), encoding="utf-8") as handle:
            manifest = json.load(handle)
        path = os.path.join(entry, manifest["extension"])
        if file_sha256(path) == manifest["sha256"]:
            return path, manifest["extension_name"]
    except (OSError, ValueError, KeyError):
        pass
    return None


def load_extension(path: str, name: str):
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def source_path(function) -> str:
    """A file holding the source of `function`'s module: the module's own
    file, or, for code that has none -- a Jupyter/IPython cell, `exec` of
    source registered in `linecache`, `python -c` -- that source written
    once into the cache (`sources/kiln_source_<sha256>.py`, a name the
    build accepts as a module name). OSError when no source is known."""
    import inspect
    import linecache
    import sys

    path = inspect.getsourcefile(function) or function.__code__.co_filename
    if path and os.path.isfile(path):
        return path
    filename = function.__code__.co_filename
    text = "".join(linecache.getlines(filename, function.__globals__))
    arguments = getattr(sys, "orig_argv", [])
    if not text and filename == "<string>" and "-c" in arguments[:-1]:
        text = arguments[arguments.index("-c") + 1]     # `python -c "..."`
    if not text:
        raise OSError(f"its source is unknown ({filename} is not a file and not in "
                      "linecache)")
    return saved_source(text)


def saved_source(text: str) -> str:
    """The file holding `text` under the cache, written once: the same text
    is the same file (hence the same cache keys) in every process."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
    folder = os.path.join(cache_root(), SOURCES)
    target = os.path.join(folder, f"kiln_source_{digest}.py")
    if not os.path.isfile(target):
        os.makedirs(folder, exist_ok=True)
        staged = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".tmp",
                                             delete=False)
        with staged:
            staged.write(text)
        os.replace(staged.name, target)
    return target


def class_source_path(cls) -> str:
    """A file holding the source of the module defining `cls`: its own
    file, or for a class of a notebook cell or `python -c` the source one of
    its methods was compiled from (source_path). OSError when neither is
    known (a class without methods written in a file Python keeps)."""
    import inspect

    try:
        path = inspect.getsourcefile(cls)
    except (TypeError, OSError):
        path = None
    if path and os.path.isfile(path):
        return path
    functions = [getattr(member, "__func__", None) or getattr(member, "fget", None) or member
                 for member in vars(cls).values()]
    functions = [f for f in functions if hasattr(f, "__code__")]
    # A dataclass's generated methods are compiled from "<string>" too, as
    # is `python -c`: a method of another file name first.
    functions.sort(key=lambda f: f.__code__.co_filename == "<string>")
    if not functions:
        raise OSError(f"the source of class {cls.__qualname__} is unknown")
    return source_path(functions[0])


def compile_cached(path: str, name: str, options: dict, target_cpu: str = "native",
                   namespace: dict | None = None, python_function=None):
    """The native function for `name` of the module at `path`, built if the
    cache has no valid entry. Raises KilnCompileError when it cannot compile.
    `namespace` (the function's globals) holds the compiled classes its
    code uses: its extension's class slots are bound to them.
    `python_function` runs the calls the native one cannot (another
    function passed for a parameter compiled as its function default)."""
    extension = load_entry(path, name, options, target_cpu)
    bind_classes(extension, name, namespace or {}, path)
    if python_function is not None and hasattr(extension, "_kiln_bind_python"):
        extension._kiln_bind_python(name, python_function)
    return getattr(extension, name)


def compile_class_cached(path: str, name: str, target_cpu: str = "native"):
    """The native type of exported class `name` of the module at `path`.
    Every exported class of the module is built into one extension (one
    cache entry, loaded once per process), so the classes' slots there are
    the types Python sees. Raises KilnCompileError with the class's reason
    when it stays Python."""
    from ..errors import Diagnostic, KilnCompileError

    extension = load_entry(path, CLASSES_ENTRY, {}, target_cpu)
    native = getattr(extension, name, None) if name in class_names(extension) else None
    if native is None:
        reasons = getattr(extension, "_kiln_class_fallbacks", {})
        record = reasons.get(name) or {"file": path, "line": 0, "column": 1,
                                       "reason": f"class `{name}` was not compiled"}
        raise KilnCompileError(Diagnostic(record["file"], record["line"], record["column"],
                                          record["reason"], name))
    return native


def class_names(extension) -> set:
    """The classes an extension made (its `_kiln_classes()` lists those its
    code uses; the made ones are its attributes too)."""
    listed = extension._kiln_classes() if hasattr(extension, "_kiln_classes") else {}
    return {name for name in listed if isinstance(getattr(extension, name, None), type)}


class NoClasses:
    """What compile_class_cached loads when no class of the module compiles
    (then there is no extension): the reasons, by class name."""

    def __init__(self, fallbacks: dict):
        self._kiln_class_fallbacks = fallbacks

    @staticmethod
    def _kiln_classes():
        return {}


# What this process loaded, by module path, entry name and key: a module's
# classes are made once (a second load would make other types, which the
# first ones' instances would not match).
_loaded = {}


def load_entry(path: str, name: str, options: dict, target_cpu: str):
    """The loaded extension of cache entry `name` (a function marked with
    `options`, or CLASSES_ENTRY) of the module at `path`, built if the
    cache has no valid entry."""
    from .compiler import BuildOptions, build

    context = load_module(path)
    max_size = configured_max_size()
    key = cache_key(context, name, options, target_cpu)
    if (context.path, name, key) in _loaded:
        return _loaded[context.path, name, key]
    module = context.module_name
    entries = entry_paths(module, name, key)
    found = next(filter(None, map(verified_extension, entries)), None)
    if found is None:
        os.makedirs(cache_root(), exist_ok=True)
        staging = tempfile.mkdtemp(prefix=f".{module}.{name}.", dir=cache_root())
        try:
            extension_name = f"_kiln_{module}_{name}_{key}"
            functions = [] if name == CLASSES_ENTRY else [name]
            # Not strict: a class of the module that stays Python must not
            # fail the build of a function that does not use it; the
            # function's own failure is raised below.
            # `options` are the ones the function runs with: its decorator's,
            # over those of a `%%kiln --fastmath` cell (kiln/jupyter.py).
            result = build(path, staging, BuildOptions(target_cpu=target_cpu,
                                                       functions=functions,
                                                       extension_name=extension_name,
                                                       export_defaults=options))
            if name != CLASSES_ENTRY:
                raise_unless_compiled(result, name, path)
            fallbacks = {r["function"]: r for r in result.fallbacks if r["kind"] == "class"}
            if name == CLASSES_ENTRY and not getattr(result, "classes", None):
                # No class compiles: nothing to cache but the reasons, for
                # this process.
                _loaded[context.path, name, key] = NoClasses(fallbacks)
                return _loaded[context.path, name, key]
            extension = os.path.basename(result.artifacts["extension"])
            manifest = {"extension": extension, "extension_name": extension_name,
                        "sha256": file_sha256(result.artifacts["extension"]),
                        "function": name, "source": context.path, "kiln_version": __version__,
                        "class_fallbacks": fallbacks}
            with open(os.path.join(staging, MANIFEST), "w", encoding="utf-8") as handle:
                json.dump(manifest, handle, indent=2)
            found = publish(staging, entries)
        finally:
            if os.path.isdir(staging):
                shutil.rmtree(staging, ignore_errors=True)
        if found is None:
            raise OSError(f"the Kiln cache entry {entries[0]} could not be written or verified")
        prune_cache(max_size, keep={os.path.dirname(found[0])})
    extension_path, extension_name = found
    mark_used(os.path.dirname(extension_path))
    loaded = load_extension(extension_path, extension_name)
    if name == CLASSES_ENTRY:
        loaded._kiln_class_fallbacks = manifest_of(os.path.dirname(extension_path)).get(
            "class_fallbacks", {})
        _loaded[context.path, name, key] = loaded
    return loaded


def raise_unless_compiled(result, name: str, path: str) -> None:
    """The KilnCompileError of function `name` when the build left it to
    Python: every reason its fallback records give."""
    from ..errors import Diagnostic, KilnCompileError

    if any(name in (s.name, s.ufunc_name) for s in result.signatures):
        return
    reasons = [Diagnostic(r["file"], r["line"], r["column"], r["reason"], name)
               for r in result.fallbacks if r["kind"] == "function" and (
                   r["function"] == name or r["function"].startswith(name + "__"))]
    raise KilnCompileError(reasons or Diagnostic(path, 0, 1, f"`{name}` was not compiled",
                                                 name))


def manifest_of(entry: str) -> dict:
    try:
        with open(os.path.join(entry, MANIFEST), encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def bind_classes(extension, name: str, namespace: dict, path: str) -> None:
    """Points each class slot of function `name`'s extension at the native
    type `namespace` binds to the class's name (the function's globals:
    what @kiln.export on the class returned). A type of another layout is
    a KilnCompileError: the function would misread its objects. A name
    not bound to a compiled class keeps the extension's own type (the
    function cannot be using that class: it would not have compiled)."""
    from ..errors import Diagnostic, KilnCompileError

    if not hasattr(extension, "_kiln_classes"):
        return
    for class_name, layout in extension._kiln_classes().items():
        bound = namespace.get(class_name)
        found = getattr(bound, "__kiln_layout__", None) if isinstance(bound, type) else None
        if found is None:
            continue
        if found != layout:
            raise KilnCompileError(Diagnostic(
                path, 0, 1, f"`{name}` was compiled for class `{class_name}` with the layout "
                            f"{layout!r}, but `{class_name}` in its module has {found!r} "
                            "(reload the module that defines both)", name))
        extension._kiln_bind_class(class_name, bound)


def entry_paths(module: str, name: str, key: str) -> list:
    """Where an entry may live: its own name, or beside it when something
    that cannot be removed sits there."""
    entry = os.path.join(cache_root(), f"{module}.{name}.{key}")
    return [entry, entry + ".1"]


def remove_entry(path: str) -> None:
    """Removes whatever sits at `path` -- an incomplete or tampered entry,
    or a file or link where an entry belongs -- if it can."""
    try:
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            os.unlink(path)
        elif os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
    except OSError:
        pass


def publish(staging: str, entries: list):
    """Renames the built `staging` directory into the first usable entry
    path (atomic) and returns the verified extension there, or None."""
    for entry in entries:
        try:
            os.rename(staging, entry)
            return verified_extension(entry)
        except OSError:
            pass
        found = verified_extension(entry)
        if found is not None:
            return found  # another process published the same entry first
        # Not an entry (a file, a link, a broken directory): replace it.
        remove_entry(entry)
        try:
            os.rename(staging, entry)
            return verified_extension(entry)
        except OSError:
            found = verified_extension(entry)
            if found is not None:
                return found
    return None


# --- keeping the cache in bounds: `kiln cache list|clear|prune` -------------

DEFAULT_MAX_SIZE = "1G"
_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes of `500M`, `2G`, `64k`, `1.5G` or a plain number of bytes
    (units are powers of 1024; a trailing `B`/`iB` is allowed)."""
    cleaned = str(text).strip().upper().removesuffix("IB").removesuffix("B")
    number, unit = cleaned, ""
    if cleaned and cleaned[-1] in _SIZE_UNITS:
        number, unit = cleaned[:-1], cleaned[-1]
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"`{text}` is not a size (e.g. 500M, 2G or a number of bytes)") \
            from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"`{text}` is not a size (e.g. 500M, 2G or a number of bytes)")
    return int(value * _SIZE_UNITS[unit])


def format_size(size: int) -> str:
    for unit in ("B", "K", "M", "G"):
        if size < 1024 or unit == "G":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size} G"


def directory_size(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def cache_entries() -> list:
    """The cache's entries, least recently used first: each a dict with
    `path`, `module`, `function`, `source`, `size`, `last_used` (seconds
    since the epoch) and `valid` (its extension matches its manifest).
    Directories being built (hidden staging ones) and the root's own
    folders (cache_dir.OWN_FOLDERS) are not entries."""
    root = cache_root()
    try:
        names = os.listdir(root)
    except OSError:
        return []
    entries = []
    for name in names:
        path = os.path.join(root, name)
        if name.startswith(".") or name in OWN_FOLDERS or not os.path.isdir(path) \
                or os.path.islink(path):
            continue
        manifest = {}
        try:
            with open(os.path.join(path, MANIFEST), encoding="utf-8") as handle:
                manifest = json.load(handle)
        except (OSError, ValueError):
            pass
        module, _, rest = name.partition(".")
        entries.append({
            "path": path, "module": module,
            "function": manifest.get("function") or rest.split(".")[0],
            "source": manifest.get("source", ""), "size": directory_size(path),
            "last_used": last_used(path), "valid": verified_extension(path) is not None,
        })
    return sorted(entries, key=lambda entry: entry["last_used"])


def last_used(entry: str) -> float:
    """When the entry was last loaded: compile_cached sets the entry
    directory's modification time (its files stay as built)."""
    try:
        return os.stat(entry).st_mtime
    except OSError:
        return 0.0


def mark_used(entry: str) -> None:
    try:
        os.utime(entry)
    except OSError:
        pass  # a read-only cache still works, only its pruning order is older


def clear_cache() -> tuple:
    """Removes every entry: (entries removed, bytes freed)."""
    entries = cache_entries()
    for entry in entries:
        remove_entry(entry["path"])
    return len(entries), sum(entry["size"] for entry in entries)


def prune_cache(max_size: int, keep=()) -> tuple:
    """Removes broken entries, then the least recently used ones until the
    cache holds at most `max_size` bytes (never those in `keep`):
    (entries removed, bytes freed)."""
    entries = cache_entries()
    total = sum(entry["size"] for entry in entries)
    removed = freed = 0
    doomed = [e for e in entries if not e["valid"]] + [e for e in entries if e["valid"]]
    for entry in doomed:
        if entry["valid"] and total <= max_size:
            break
        if entry["path"] in keep:
            continue
        remove_entry(entry["path"])
        total -= entry["size"]
        removed, freed = removed + 1, freed + entry["size"]
    return removed, freed


def configured_max_size() -> int:
    """KILN_CACHE_MAX_SIZE (default 1G): the cap each new entry enforces."""
    text = os.environ.get("KILN_CACHE_MAX_SIZE", DEFAULT_MAX_SIZE)
    try:
        return parse_size(text)
    except ValueError as error:
        from ..errors import KilnToolchainError
        raise KilnToolchainError(f"KILN_CACHE_MAX_SIZE={text}: {error}") from None
