"""The Python-facing artifacts: `<mod>.py` (what users import) and `<mod>.pyi`.

`<mod>.py` is the user's own module with each compiled function's `def`
replaced by the native function, so everything else -- imports, constants,
helpers and the functions that fall back to Python -- keeps working and can
call the compiled functions. It needs neither Kiln nor a compiler: the
`kiln` import becomes optional and annotations are not evaluated.
"""

from __future__ import annotations

import ast
import math

from .. import typesystem as kt
from ..version import __version__
from ..frontend.ufunc_signatures import KILN_DECORATORS

# The extension is loaded as a private submodule of the built module's own
# package (`pa._kernels_kiln` beside `pa/kernels.py`), so two packages with
# a `kernels.py` each do not share one `_kernels_kiln` in sys.modules; and
# each compiled function names the built module as its `__module__`, so
# pickle stores `pa.kernels.f` and finds it again in any process. The
# package is known only at import time: the built files may be moved.
LOADER = '''
def _kiln_load_extension():
    import importlib.machinery
    import importlib.util
    import os

    name = (__package__ + "." if __package__ else "") + {name!r}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), {file!r})
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except ImportError as error:
        # Never run Python (or recompile) in place of a built module: say
        # which file cannot load and the loader's reason.
        raise ImportError(f"{{__name__}} was built by Kiln, but its native code {{path}} cannot "
                          f"be loaded: {{error}}; rebuild it with `kiln build`",
                          name=name, path=path) from error
    for function in {compiled!r}:
        if function not in {ufuncs!r}:    # numpy ufuncs have no __module__: pickle searches
            getattr(module, function).__module__ = __name__
    # The classes too: pickle and copy find them as `<this module>.<Class>`.
    for class_name in {classes!r}:
        getattr(module, class_name).__module__ = __name__
    return module


_kiln_native = _kiln_load_extension()
'''

DATACLASS_ADOPTION = '''

def _kiln_dataclass(native, fields, options):
    """The native type of a compiled dataclass, with the description
    @dataclass gives the class (dataclasses.fields(), asdict(), replace()
    and `match` read it), taken from a dataclass of the same fields."""
    import dataclasses

    described = dataclasses.make_dataclass(native.__name__, fields, **options)
    for name in ("__dataclass_fields__", "__dataclass_params__", "__match_args__"):
        if name in vars(described):
            setattr(native, name, vars(described)[name])
    return native
'''


def _compiled_classes(context) -> dict:
    """name -> ClassInfo of the module's compiled classes (none when the
    context cannot say)."""
    try:
        return dict(context.classes)
    except Exception:  # noqa: BLE001 - a context without classes: none compiled
        return {}


def _dataclass_description(info) -> str:
    """The arguments of `_kiln_dataclass` for class `info`: its fields
    (name, annotation text, default) and @dataclass options."""
    from ..frontend.classes import NO_DEFAULT

    def literal(value) -> str:
        # repr(1e400) is `inf`, no Python expression
        return f"float({str(value)!r})" if isinstance(value, float) and \
            not math.isfinite(value) else repr(value)

    fields = []
    for field in info.fields:
        item = [repr(field.name), repr(annotation_text(field.type))]
        if field.default is kt.NEW_LIST_DEFAULT:
            item.append("__import__('dataclasses').field(default_factory=list)")
        elif field.default is not NO_DEFAULT:
            item.append(literal(field.default))
        fields.append(f"({', '.join(item)})")
    synthesized = getattr(info, "synthesized", frozenset())
    options = {"eq": info.eq, "order": info.order, "frozen": info.frozen,
               "repr": "__repr__" in synthesized}
    return f"[{', '.join(fields)}], {options!r}"


ASYNC_NAMESPACE = '''

class aio:
    """`await mod.aio.f(...)` runs compiled `f` in a worker thread, so an
    asyncio (or uvloop) event loop keeps serving other tasks meanwhile;
    compiled code with array arguments releases the GIL."""
{methods}
'''
ASYNC_METHOD = '''
    @staticmethod
    async def {name}(*args, **kwargs):
        import asyncio
        import functools
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, functools.partial(_kiln_native.{name}, *args, **kwargs))
'''


def _is_kiln_export(context, decorator) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return context.qualified_name(target) in KILN_DECORATORS


KILN_STAND_IN = '''
class _KilnStandIn:
    """Stands for `kiln` where it is not installed: decorators pass the
    function through, dtypes convert like numpy's, annotations index."""

    _DTYPES = %r

    def __getattr__(self, name):
        if name in ("export", "vectorize"):
            return lambda function=None, **options: function if function else (lambda f: f)
        return _KilnDtype(self._DTYPES.get(name, name))


class _KilnDtype:
    def __init__(self, name):
        self.name = name

    def __getitem__(self, item):
        return self

    def __call__(self, value):
        import numpy
        return getattr(numpy, self.name)(value)
''' % ({name: t.numpy_name for name, t in kt.KILN_SCALARS.items()},)


def _optional_import(node: ast.stmt, source_lines) -> str | None:
    text = "".join(source_lines[node.lineno - 1:node.end_lineno]).strip()
    if isinstance(node, ast.Import):
        names = [alias.asname or alias.name for alias in node.names if alias.name == "kiln"]
        fallback = "\n".join(f"    {name} = _KilnStandIn()" for name in names)
    else:
        fallback = "\n".join(f"    {alias.asname or alias.name} = getattr(_KilnStandIn(), "
                             f"{alias.name!r})" for alias in node.names)
    return f"try:\n    {text}\nexcept ImportError:  # the built module runs without Kiln\n" \
           f"{fallback}\n"


def generate_stub(context, extension_name: str, extension_file: str, compiled: list,
                  classes=(), ufuncs=()) -> str:
    """`compiled`: the module functions compiled (a method's `Class.name`
    is left out); `classes`: the names of the classes compiled, each bound
    to the extension's type in place of its `class` statement; `ufuncs`:
    the compiled functions that are numpy ufuncs (@kiln.vectorize)."""
    compiled = [name for name in compiled if "." not in name]
    classes = list(classes)
    source_lines = context.source.splitlines(keepends=True)
    edits = []  # (first line, last line, replacement), 1-based and inclusive
    for node in context.tree.body:
        if isinstance(node, ast.ClassDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            info = _compiled_classes(context).get(node.name)
            if node.name in classes and info is not None and info.dataclass:
                edits.append((first, node.end_lineno, f"{node.name} = _kiln_dataclass("
                              f"_kiln_native.{node.name}, {_dataclass_description(info)})\n"))
            elif node.name in classes:
                edits.append((first, node.end_lineno, f"{node.name} = _kiln_native.{node.name}\n"))
            else:
                # A class left to Python stays one: without the marker, the
                # built module never compiles it on import.
                for decorator in node.decorator_list:
                    if _is_kiln_export(context, decorator):
                        edits.append((decorator.lineno, decorator.end_lineno, ""))
        elif isinstance(node, ast.FunctionDef) and hasattr(node, "kiln_ufunc"):
            continue        # a ufunc's loop for one signature: not in the source
        elif isinstance(node, ast.FunctionDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if node.name in compiled and getattr(node, "kiln_function_parameters", None):
                # Compiled with a function default fixed: the Python function
                # (without Kiln's decorators) runs the calls passing another.
                python_def = "".join(source_lines[node.lineno - 1:node.end_lineno])
                edits.append((first, node.end_lineno, python_def + (
                    f"_kiln_native._kiln_bind_python({node.name!r}, {node.name})\n"
                    f"{node.name} = _kiln_native.{node.name}\n")))
            elif node.name in compiled:
                edits.append((first, node.end_lineno, f"{node.name} = _kiln_native.{node.name}\n"))
            else:
                for decorator in node.decorator_list:
                    if _is_kiln_export(context, decorator):
                        edits.append((decorator.lineno, decorator.end_lineno, ""))
        elif isinstance(node, ast.Import) and any(a.name == "kiln" for a in node.names):
            edits.append((node.lineno, node.end_lineno, _optional_import(node, source_lines)))
        elif isinstance(node, ast.ImportFrom) and node.module == "kiln":
            edits.append((node.lineno, node.end_lineno, _optional_import(node, source_lines)))
    for first, last, replacement in sorted(edits, reverse=True):
        source_lines[first - 1:last] = [replacement]

    # The loader goes after the docstring and any __future__ imports.
    body = context.tree.body
    insert_after = 0
    for node in body:
        is_docstring = node is body[0] and isinstance(node, ast.Expr) and isinstance(
            getattr(node, "value", None), ast.Constant) and isinstance(node.value.value, str)
        if is_docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            insert_after = node.end_lineno
        else:
            break
    prefix_lines = context.source.splitlines(keepends=True)[:insert_after]
    # Edits never touch the docstring/__future__ block, so its lines are intact.
    rest = "".join(source_lines)[len("".join(prefix_lines)):]
    built = compiled + [f"class {name}" for name in classes]
    header = (f"# Built by Kiln {__version__} from {context.package_path}; do not edit.\n"
              f"# Compiled: {', '.join(built) or 'nothing'} (native code in {extension_file}).\n")
    if ufuncs:
        header += (f"# Needs numpy at run time: {', '.join(ufuncs)} "
                   f"{'is a numpy ufunc' if len(ufuncs) == 1 else 'are numpy ufuncs'}.\n")
    future = "from __future__ import annotations\n"
    loader = KILN_STAND_IN + (LOADER.format(file=extension_file, name=extension_name,
                                            compiled=tuple(compiled), classes=tuple(classes),
                                            ufuncs=tuple(ufuncs))
                              if compiled or classes else "")
    if classes:
        loader += DATACLASS_ADOPTION
    if compiled:
        loader += ASYNC_NAMESPACE.format(methods="".join(
            ASYNC_METHOD.format(name=name) for name in compiled))
    return "".join(prefix_lines) + future + header + loader + rest


def annotation_text(type_) -> str:
    if type_ is None:
        return "None"
    if isinstance(type_, kt.ArrayType):
        return f"numpy.typing.NDArray[numpy.{type_.dtype.numpy_name}]"
    if isinstance(type_, kt.TupleType):
        return "tuple[" + ", ".join(annotation_text(e) for e in type_.elements) + "]"
    if isinstance(type_, kt.ListType):
        return f"list[{annotation_text(type_.item)}]"
    if isinstance(type_, kt.DictType):
        return f"dict[{annotation_text(type_.key)}, {annotation_text(type_.value)}]"
    if isinstance(type_, kt.SetType):
        return f"set[{annotation_text(type_.key)}]"
    if isinstance(type_, kt.StrType):
        return "str"
    if isinstance(type_, kt.ClassType):
        return type_.class_name + (" | None" if type_.optional else "")
    return {"float": "float", "int": "int", "bool": "bool", "complex": "complex"}[type_.kind]


def _default(param) -> str:
    return "" if getattr(param, "default", None) is None else " = ..."


def _signature_pyi(signature) -> str:
    listed = [f"{p.name}: {annotation_text(p.type)}{_default(p)}" for p in signature.params]
    if getattr(signature, "python_parameters", None):
        # the Python signature: a tuple parameter once, a function default's
        by_name = {p.name: p for p in signature.params}
        fixed = {name for _, name, _, _ in signature.function_parameters}
        listed = []
        for name in signature.python_parameters[0]:
            if name in fixed:
                listed.append(f"{name}: typing.Callable[..., typing.Any] = ...")
            elif name in signature.tuple_parameters:
                elements = [by_name[e] for e in signature.tuple_parameters[name]]
                types = ", ".join(annotation_text(e.type) for e in elements)
                listed.append(f"{name}: tuple[{types}]{_default(elements[0])}")
            else:
                param = by_name[name]
                listed.append(f"{name}: {annotation_text(param.type)}{_default(param)}")
    return f"({', '.join(listed)}) -> {annotation_text(signature.return_type)}"


def ufunc_loops_text(signature) -> str:
    """The loops of a ufunc as its stub's comment says them:
    `(float64, float64) -> float64`."""
    params = ", ".join(p.type.numpy_name.rstrip("_") for p in signature.params)
    return f"({params}) -> {signature.return_type.numpy_name.rstrip('_')}"


def _python_signature_pyi(context, node) -> str:
    """A function left to Python, typed as far as its annotations resolve,
    with its defaults (`= ...`)."""
    def typed(annotation):
        try:
            resolved = context.resolve_annotation(annotation) if annotation else None
            return annotation_text(resolved) if resolved else None
        except Exception:  # noqa: BLE001 - an unknown annotation just stays untyped
            return None

    args = node.args
    positional = args.posonlyargs + args.args
    first_default = len(positional) - len(args.defaults)
    params = []
    for index, arg in enumerate(positional):
        text = arg.arg + (f": {typed(arg.annotation)}" if typed(arg.annotation) else "")
        params.append(text + (" = ..." if index >= first_default else ""))
        if args.posonlyargs and arg is args.posonlyargs[-1]:
            params.append("/")
    if args.vararg:
        params.append(f"*{args.vararg.arg}")
    elif args.kwonlyargs:
        params.append("*")
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        text = arg.arg + (f": {typed(arg.annotation)}" if typed(arg.annotation) else "")
        params.append(text + (" = ..." if default is not None else ""))
    if args.kwarg:
        params.append(f"**{args.kwarg.arg}")
    returns = typed(node.returns) if node.returns is not None else None
    return f"({', '.join(params)})" + (f" -> {returns}" if returns else "")


def _class_pyi(info, signatures) -> list:
    """A compiled class: its fields as annotated attributes, `__init__`,
    its methods, static methods, classmethods and properties (with their
    setters)."""
    methods = {s.method_name: s for s in signatures
               if getattr(s, "class_name", None) == info.name}
    lines = ["", "", f"class {info.name}:"]
    doc = ast.get_docstring(info.node) if isinstance(info.node, ast.ClassDef) else None
    if doc:
        lines.append(f"    {_docstring_literal(doc)}")
    for field in info.fields:
        lines.append(f"    {field.name}: {annotation_text(field.type)}")
    for name, value in info.constants.items():
        # A class constant: ClassVar, so type checkers read it as the class's
        lines.append(f"    {name}: typing.ClassVar[{type(value).__name__}]")
    if "__init__" not in methods:
        lines.append("    def __init__(self) -> None: ...")
    order = [m for m in getattr(info, "method_order", []) if m in methods]
    order += [m for m in methods if m not in order]
    for name in order:
        signature = methods[name]
        kind = getattr(signature, "method_kind", "method")
        # A classmethod's compiled function has no `cls` (frontend/classes.py).
        params = signature.params if kind in ("staticmethod", "classmethod") else \
            signature.params[1:]
        listed = [f"{p.name}: {annotation_text(p.type)}{_default(p)}" for p in params]
        returns = annotation_text(signature.return_type)
        if name in ("__eq__", "__ne__"):
            # object's own signature: a narrower `other` would not override it.
            listed, returns = ["other: object"], "bool"
        if kind == "staticmethod":
            lines += ["    @staticmethod", f"    def {name}({', '.join(listed)}) -> {returns}: ..."]
        elif kind == "classmethod":
            lines += ["    @classmethod",
                      f"    def {name}({', '.join(['cls'] + listed)}) -> {returns}: ..."]
        elif kind == "property":
            lines += ["    @property", f"    def {name}(self) -> {returns}: ..."]
        elif kind == "setter":
            prop = signature.method_name.split(".")[0]
            lines += [f"    @{prop}.setter",
                      f"    def {prop}({', '.join(['self'] + listed)}) -> {returns}: ..."]
        else:
            lines.append(f"    def {name}({', '.join(['self'] + listed)}) -> {returns}: ...")
    if info.dataclass and info.eq and "__eq__" not in methods:
        lines.append("    def __eq__(self, other: object) -> bool: ...")
    hashable = "__hash__" in methods or (info.dataclass and info.frozen and info.eq)
    defines_eq = "__eq__" in methods or (info.dataclass and info.eq)
    if defines_eq and not hashable:
        lines.append("    __hash__: typing.ClassVar[None]  # type: ignore[assignment]")
    return lines


def _docstring_literal(text: str) -> str:
    return '"""' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '"""'


def generate_pyi(context, signatures, fallbacks: list, classes=()) -> str:
    """Stubs that accept every documented call of the built module: a
    compiled function's own types; a @kiln.vectorize function's number
    call and array call (overloads); `await mod.aio.f(...)`; the functions
    left to Python with their defaults and return types; and the compiled
    classes (`classes`: their ClassInfos) with their attributes and
    methods."""
    lines = [f"# Type stubs for the Kiln-built `{context.module_name}` "
             f"(from {context.package_path}).",
             "import typing", "", "import numpy", "import numpy.typing", ""]
    for info in classes:
        lines += _class_pyi(info, signatures)
    if classes:
        lines += ["", ""]
    # The methods are the classes' (above).
    signatures = [s for s in signatures if getattr(s, "class_name", None) is None]
    ufuncs = {}
    for signature in signatures:
        if signature.elementwise:
            ufuncs.setdefault(signature.ufunc_name or signature.name, []).append(signature)
    for signature in signatures:
        if signature.elementwise and signature is ufuncs[signature.ufunc_name or
                                                         signature.name][0]:
            loops = ufuncs[signature.ufunc_name or signature.name]
            lines.append(f"{signature.ufunc_name or signature.name}: numpy.ufunc  # loops: "
                         + ", ".join(map(ufunc_loops_text, loops)))
        elif signature.elementwise:
            continue
        elif signature.gufunc_signature:
            lines.append(f"{signature.name}: numpy.ufunc  # gufunc "
                         f"{signature.gufunc_signature}: {signature.name}"
                         f"{_signature_pyi(signature)}")
        else:
            lines.append(f"def {signature.name}{_signature_pyi(signature)}: ...")
    functions = context.module_functions()
    for name in fallbacks:
        lines.append(f"def {name}{_python_signature_pyi(context, functions[name])}: ...  "
                     "# runs as Python")
    if signatures:
        lines += ["", "", "class aio:",
                  '    """`await mod.aio.f(...)`: the compiled call in a worker thread."""']
        for signature in signatures:
            name = signature.name
            call = _signature_pyi(signature)
            if signature.elementwise or signature.gufunc_signature:
                # A ufunc's call, as numpy's stubs type it.
                name = signature.ufunc_name or signature.name
                if signature.elementwise and signature is not ufuncs[name][0]:
                    continue
                call = "(*args: typing.Any, **kwargs: typing.Any) -> typing.Any"
            lines += ["    @staticmethod", f"    async def {name}{call}: ..."]
    lines.append("")
    return "\n".join(lines)
