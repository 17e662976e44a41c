"""Reading a user module without executing it: imports, exported functions
and annotation types are all resolved from the syntax tree."""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
import warnings
from dataclasses import dataclass, field

from .. import typesystem as kt
from .ufunc_signatures import KILN_DECORATORS, expand_ufunc_signatures, gufunc_core_dimensions
from ..errors import Diagnostic, KilnCompileError
from ..options import EXPORT_OPTIONS
from .. import typing_rules as rules
from .desugar import desugar_loops, is_prange_call, mark_conditions
from .variable_webs import split_variable_webs
from .function_arguments import specialize_function_arguments
from .kernels import KERNEL_NUMPY, instantiate, kernel_function_name
from .constants import container_changes, literal_constant



@dataclass
class ModuleContext:
    path: str
    source: str
    tree: ast.Module
    kiln_aliases: set = field(default_factory=set)     # names bound to the kiln module
    math_aliases: set = field(default_factory=set)
    numpy_aliases: set = field(default_factory=set)
    cmath_aliases: set = field(default_factory=set)
    imported_names: dict = field(default_factory=dict)  # local name -> (module, attr)
    # Names bound to the standard modules whose functions take containers
    # (CONTAINER_MODULES: `import heapq`, `import bisect as b`): name -> module.
    container_module_aliases: dict = field(default_factory=dict)
    # `for` loops over kiln.prange(...), rewritten to range(...) once the
    # names are known (mark_parallel_loops): their iterations run on
    # several threads.
    parallel_loops: set = field(default_factory=set)
    # module_constants(), computed once; the module lists and dicts that are
    # not constants because the module may change them (name -> (value,
    # the uses that may)).
    _constants: dict | None = None
    constant_refusals: dict = field(default_factory=dict)
    # `from dataclasses import dataclass as dc` (local name -> attribute)
    # and `import dataclasses [as d]` (the local names): what
    # frontend/classes.py recognizes as @dataclass.
    dataclass_names: dict = field(default_factory=dict)
    dataclass_module_aliases: set = field(default_factory=set)
    # analyse_classes(), computed once (frontend/classes.py).
    _class_analysis: object = None
    # Options every exported function gets unless its decorator says
    # otherwise: those of a `%%kiln --fastmath` cell (kiln/jupyter.py),
    # which a cell's decorators do not spell.
    export_defaults: dict = field(default_factory=dict)
    # The kernels Kiln compiles into this module for numpy functions it
    # implements in Python (frontend/kernels): name -> FunctionDef, added
    # by `kernel` as type inference meets the calls.
    kernel_functions: dict = field(default_factory=dict)
    # A helper's copies typed at other argument types than its first call's
    # (typecheck/specialization.py): name -> FunctionDef, named after the
    # types, so the same types always get the same copy.
    specialized_functions: dict = field(default_factory=dict)

    @property
    def module_name(self) -> str:
        return os.path.splitext(os.path.basename(self.path))[0]

    @property
    def package_path(self) -> str:
        """The source's path from above its outermost package (`pa/kernels.py`
        for /home/me/src/pa/kernels.py beside pa/__init__.py; just the file
        name outside a package): what artifacts name instead of a path
        of the build machine."""
        directory, parts = os.path.dirname(self.path), [os.path.basename(self.path)]
        while os.path.exists(os.path.join(directory, "__init__.py")):
            directory, package = os.path.split(directory)
            if not package:
                break
            parts.insert(0, package)
        return "/".join(parts)

    def diagnostic(self, node: ast.AST, message: str, function: str = "") -> Diagnostic:
        return Diagnostic(self.path, getattr(node, "lineno", 1),
                          getattr(node, "col_offset", 0) + 1, message, function)

    def error(self, node: ast.AST, message: str) -> KilnCompileError:
        return KilnCompileError(self.diagnostic(node, message))

    # --- name resolution -------------------------------------------------
    def is_new_axis(self, node: ast.AST) -> bool:
        """`None` or `np.newaxis` in a subscript: a new axis of size 1."""
        return (isinstance(node, ast.Constant) and node.value is None) or \
            self.qualified_name(node) == ("numpy", "newaxis")

    def qualified_name(self, node: ast.AST):
        """("kiln", "f64") for `kiln.f64` or an imported `f64`, ("numpy",
        "linalg.solve") for `np.linalg.solve` (and for `la.solve` after
        `import numpy.linalg as la` or `from numpy import linalg as la`);
        None otherwise."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            inner = self.qualified_name(node.value)
            return (inner[0], f"{inner[1]}.{node.attr}") if inner else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                self.imported_names.get(node.value.id) == ("numpy", "linalg"):
            return ("numpy", f"linalg.{node.attr}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = node.value.id
            if base in self.kiln_aliases:
                return ("kiln", node.attr)
            if base in self.math_aliases:
                return ("math", node.attr)
            if base in self.numpy_aliases:
                return ("numpy", node.attr)
            if base in self.cmath_aliases:
                return ("cmath", node.attr)
            if base in self.container_module_aliases:
                return (self.container_module_aliases[base], node.attr)
        if isinstance(node, ast.Name) and node.id in self.imported_names:
            return self.imported_names[node.id]
        return None

    def resolve_annotation(self, node: ast.AST, classes=None):
        """The Kiln type an annotation names ("None" for None). `classes`:
        the class names that are instances (default: the module's compiled
        exported classes, `self.classes`)."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                raise self.error(node, f"cannot parse the annotation {node.value!r}")
            ast.copy_location(inner, node)
            for child in ast.walk(inner):
                child.lineno, child.col_offset = node.lineno, node.col_offset
            return self.resolve_annotation(inner, classes)
        if isinstance(node, ast.Constant) and node.value is None:
            return "None"
        if classes is None:
            classes = self.classes
        optional = self.optional_annotation(node)
        if optional is not None:
            inner = self.resolve_annotation(optional, classes)
            if isinstance(inner, kt.ClassType):
                return inner.as_optional
            raise self.error(node, f"`{ast.unparse(node)}`: only instances of the module's "
                                   "exported classes may be None (Optional[Node], Node | None)")
        if isinstance(node, ast.Name) and node.id in classes and \
                node.id not in self.imported_names:
            return kt.ClassType(node.id)
        if isinstance(node, ast.Name) and node.id in self.class_fallbacks and \
                node.id not in self.imported_names:
            reason = self.class_fallbacks[node.id].message
            raise self.error(node, f"class `{node.id}` is not compiled ({reason}), so "
                                   "compiled code cannot take its instances")
        if isinstance(node, ast.Name) and node.id in kt.PYTHON_SCALARS \
                and node.id not in self.imported_names:
            return kt.PYTHON_SCALARS[node.id]
        if isinstance(node, ast.Name) and node.id == "str" and node.id not in self.imported_names:
            return kt.string
        if isinstance(node, ast.Name) and node.id == "bytes" and \
                node.id not in self.imported_names:
            raise self.error(node, "bytes is not supported yet; Kiln compiles str (text)")
        qualified = self.qualified_name(node)
        if qualified and qualified[0] == "kiln" and qualified[1] in kt.KILN_SCALARS:
            return kt.KILN_SCALARS[qualified[1]]
        if isinstance(node, ast.Subscript) and (
                (isinstance(node.value, ast.Name) and node.value.id in ("tuple", "Tuple"))
                or (isinstance(node.value, ast.Attribute) and node.value.attr == "Tuple")):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            elements = tuple(self.resolve_annotation(p) for p in parts)
            if any(isinstance(e, kt.ScalarType) and e.is_complex for e in elements):
                raise self.error(node, "complex numbers in tuples are not supported yet")
            if any(isinstance(e, kt.StrType) for e in elements):
                raise self.error(node, "strings in tuples are not supported yet; return the "
                                       "str alone, or its parts through several functions")
            if not all(isinstance(e, (kt.ScalarType, kt.ClassType)) for e in elements) or \
                    len(elements) < 2:
                raise self.error(node, "tuple annotations need two or more scalar or class "
                                       "types, e.g. tuple[float, int], tuple[Node, int]")
            return kt.TupleType(elements)
        if self.is_list_annotation(node):
            return self.list_annotation(node, classes)
        if self.is_dict_annotation(node):
            return self.dict_annotation(node)
        if self.is_set_annotation(node):
            return self.set_annotation(node)
        dict_class = self.dict_class_annotation(node)
        if dict_class is not None:
            return self.dict_class_type(node, dict_class)
        if isinstance(node, ast.Subscript):
            dtype = self.resolve_annotation(node.value)
            dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if isinstance(dtype, kt.ScalarType) and dtype in kt.ARRAY_DTYPES and dims and all(
                    isinstance(d, ast.Slice) and d.lower is None and d.upper is None
                    and d.step is None for d in dims):
                if len(dims) > rules.MAX_ARRAY_NDIM:
                    raise self.error(node, f"arrays of more than {rules.MAX_ARRAY_NDIM} "
                                           "dimensions are not supported")
                return kt.ArrayType(dtype, len(dims))
            if isinstance(dtype, kt.ScalarType) and dtype.is_complex:
                raise self.error(node, "arrays of complex numbers are not supported yet "
                                       "(complex scalars are)")
        raise self.error(node, f"unsupported type annotation `{ast.unparse(node)}`; use int, "
                               "float, bool, complex, str, kiln.f64/f32/i64/i32, kiln.<dtype>[:] "
                               "arrays, list[int]/list[float]/list[bool], dict[K, V] or set[K] "
                               "of them")

    def optional_annotation(self, node):
        """The annotation inside `Optional[X]`, `typing.Optional[X]`,
        `Union[X, None]`, `X | None` or `None | X`; None for any other."""
        def is_none(part):
            return isinstance(part, ast.Constant) and part.value is None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            if is_none(node.right):
                return node.left
            if is_none(node.left):
                return node.right
            return None
        if not isinstance(node, ast.Subscript):
            return None
        base = node.value
        spelled = base.id if isinstance(base, ast.Name) else base.attr if isinstance(
            base, ast.Attribute) and isinstance(base.value, ast.Name) and \
            base.value.id == "typing" else None
        if spelled == "Optional":
            return node.slice
        if spelled == "Union" and isinstance(node.slice, ast.Tuple) and \
                len(node.slice.elts) == 2:
            first, second = node.slice.elts
            return first if is_none(second) else second if is_none(first) else None
        return None

    # --- classes (frontend/classes.py) -------------------------------------
    def class_analysis(self):
        if self._class_analysis is None:
            from .classes import ClassAnalysis, analyse_classes
            # Reading a class's annotations asks for the classes again:
            # an empty analysis until this one is done.
            self._class_analysis = ClassAnalysis({}, {}, {})
            self._class_analysis = analyse_classes(self)
        return self._class_analysis

    @property
    def classes(self) -> dict:
        """The exported classes compiled natively: name -> ClassInfo."""
        return self.class_analysis().classes

    @property
    def class_fallbacks(self) -> dict:
        """The exported classes that stay Python: name -> Diagnostic (why)."""
        return self.class_analysis().fallbacks

    def class_of_method(self, func):
        """The ClassInfo of a method's function (frontend/classes.py's
        method_function), None for a module function."""
        name = getattr(func, "kiln_class", None)
        return None if name is None else self.classes.get(name)

    def is_list_annotation(self, node) -> bool:
        """`list[...]`, `List[...]`, `typing.List[...]`, or a bare `list`."""
        base = node.value if isinstance(node, ast.Subscript) else node
        return (isinstance(base, ast.Name) and base.id in ("list", "List")
                and base.id not in self.imported_names) or (
            isinstance(base, ast.Attribute) and base.attr == "List"
            and isinstance(base.value, ast.Name) and base.value.id == "typing")

    def list_annotation(self, node, classes=None) -> kt.ListType:
        """`list[float]`: a list of Python's own numbers (kt.LIST_ITEM_TYPES);
        anything else inside is refused here, saying what is supported."""
        if not isinstance(node, ast.Subscript):
            raise self.error(node, "a list annotation needs its item type: list[int], "
                                   "list[float], list[bool] or list[str]")
        inner = node.slice
        what = None
        if isinstance(inner, ast.Tuple):
            what = "list annotations take one item type"
        elif self.is_list_annotation(inner):
            what = "lists of lists are not supported yet"
        elif isinstance(inner, ast.Name) and inner.id in ("bytes", "object", "dict",
                                                           "set", "tuple", "Tuple"):
            what = f"lists of {inner.id} are not supported yet"
        if what is None:
            try:
                item = self.resolve_annotation(inner, classes)
            except KilnCompileError:
                item = None
            if (isinstance(item, kt.ScalarType) or item == kt.string) and \
                    item in kt.LIST_ITEM_TYPES:
                return kt.ListType(item)
            if isinstance(item, kt.ClassType) and not item.optional:
                return kt.ListType(item)     # instances of an exported class
            if isinstance(item, kt.ClassType):
                what = "lists whose items may be None are not supported yet"
            elif isinstance(item, kt.ArrayType):
                what = "lists of arrays are not supported yet"
            elif isinstance(item, kt.TupleType):
                what = "lists of tuples are not supported yet"
            elif isinstance(item, kt.SetType):
                what = "lists of sets are not supported yet"
            elif isinstance(item, kt.ScalarType):
                what = f"lists of {item.display} are not supported yet"
            else:
                what = f"lists of `{ast.unparse(inner)}` are not supported"
        raise self.error(node, f"{what}; a list holds int, float, bool or str items "
                               "or instances of the module's exported classes "
                               "(list[int], list[float], list[bool], list[str], list[Node])")

    def is_dict_annotation(self, node) -> bool:
        """`dict[...]`, `Dict[...]`, `typing.Dict[...]`, or a bare `dict`."""
        base = node.value if isinstance(node, ast.Subscript) else node
        return (isinstance(base, ast.Name) and base.id in ("dict", "Dict")
                and base.id not in self.imported_names) or (
            isinstance(base, ast.Attribute) and base.attr == "Dict"
            and isinstance(base.value, ast.Name) and base.value.id == "typing")

    def dict_annotation(self, node) -> kt.DictType:
        """`dict[int, float]`: keys and values of Python's own numbers
        (kt.DICT_ITEM_TYPES); anything else is refused here, saying what is
        supported."""
        hint = "; a dict's keys and values are int, float, bool or str (dict[str, int], ...)"
        if not isinstance(node, ast.Subscript):
            raise self.error(node, "a dict annotation needs its key and value types: "
                                   "dict[int, float], dict[float, int], ...")
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(parts) != 2:
            raise self.error(node, "a dict annotation takes a key type and a value type: "
                                   "dict[int, float]")
        resolved = []
        for role, part in zip(("keys", "values"), parts):
            item, what = self.number_annotation(part, kt.DICT_ITEM_TYPES)
            if item is None:
                raise self.error(node, f"dicts with {what} {role} are not supported yet{hint}")
            resolved.append(item)
        return kt.DictType(*resolved)

    def number_annotation(self, part, allowed) -> tuple:
        """(the type, None) of a dict's key or value or a set's element
        annotation `part` when it is one of `allowed` (Python's int, float,
        bool), else (None, the word a message names it by: "str", "list",
        "array", ...)."""
        if isinstance(part, ast.Name) and part.id in ("bytes", "object", "set", "tuple",
                                                      "Tuple"):
            return None, part.id
        for word, is_kind in (("list", self.is_list_annotation),
                              ("dict", self.is_dict_annotation),
                              ("set", self.is_set_annotation)):
            if is_kind(part):
                return None, word
        try:
            item = self.resolve_annotation(part)
        except KilnCompileError:
            item = None
        if (isinstance(item, kt.ScalarType) or item == kt.string) and item in allowed:
            return item, None
        return None, "array" if isinstance(item, kt.ArrayType) else "tuple" \
            if isinstance(item, kt.TupleType) else item.display \
            if isinstance(item, kt.ScalarType) else f"`{ast.unparse(part)}`"

    def is_set_annotation(self, node) -> bool:
        """`set[...]`, `Set[...]`, `typing.Set[...]`, or a bare `set`."""
        base = node.value if isinstance(node, ast.Subscript) else node
        return (isinstance(base, ast.Name) and base.id in ("set", "Set")
                and base.id not in self.imported_names) or (
            isinstance(base, ast.Name) and self.imported_names.get(base.id) == ("typing", "Set")
        ) or (isinstance(base, ast.Attribute) and base.attr == "Set"
              and isinstance(base.value, ast.Name) and base.value.id == "typing")

    def set_annotation(self, node) -> kt.SetType:
        """`set[int]`: elements of Python's own numbers (kt.SET_ITEM_TYPES);
        anything else is refused here, saying what is supported."""
        hint = "; a set's elements are int, float, bool or str (set[int], set[float], " \
            "set[bool], set[str])"
        if not isinstance(node, ast.Subscript):
            raise self.error(node, "a set annotation needs its element type: set[int], "
                                   "set[float] or set[bool]")
        if isinstance(node.slice, ast.Tuple):
            raise self.error(node, "a set annotation takes one element type: set[int]")
        item, what = self.number_annotation(node.slice, kt.SET_ITEM_TYPES)
        if item is None:
            raise self.error(node, f"sets with {what} elements are not supported yet{hint}")
        return kt.SetType(item)

    def dict_class_annotation(self, node):
        """"defaultdict" for `defaultdict[...]`, `collections.defaultdict[...]`,
        `typing.DefaultDict[...]`; "Counter" for `Counter[...]`,
        `collections.Counter[...]`, `typing.Counter[...]`; else None."""
        base = node.value if isinstance(node, ast.Subscript) else node
        if isinstance(base, ast.Name) and self.imported_names.get(
                base.id, ("collections",))[0] in ("collections", "typing"):
            spelled = self.imported_names.get(base.id, (None, base.id))[1]
        elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and (
                base.value.id == "typing" or
                self.container_module_aliases.get(base.value.id) == "collections"):
            spelled = base.attr
        else:
            return None
        return {"defaultdict": "defaultdict", "DefaultDict": "defaultdict",
                "Counter": "Counter"}.get(spelled)

    def dict_class_type(self, node, dict_class) -> kt.DictType:
        """`defaultdict[int, float]`: a dict whose missing keys read as the
        value type's zero (the factory int(), float() or bool()), inserted;
        `Counter[int]`: int counts, a missing key reads as 0."""
        if not isinstance(node, ast.Subscript):
            raise self.error(node, f"a {dict_class} annotation needs its types: "
                                   + ("defaultdict[int, float]" if dict_class == "defaultdict"
                                      else "Counter[int]"))
        if dict_class == "Counter":
            if isinstance(node.slice, ast.Tuple):
                raise self.error(node, "a Counter annotation takes the key type alone: "
                                       "Counter[int]")
            counted = ast.copy_location(ast.Subscript(
                value=ast.Name(id="dict", ctx=ast.Load()),
                slice=ast.Tuple(elts=[node.slice, ast.Name(id="int", ctx=ast.Load())],
                                ctx=ast.Load()), ctx=ast.Load()), node)
            plain = self.dict_annotation(counted)
            return kt.DictType(plain.key, kt.i64, "Counter", 0)
        plain = self.dict_annotation(node)
        zero = {"bool": False, "float": 0.0}.get(plain.value.kind, 0)
        return kt.DictType(plain.key, plain.value, "defaultdict", zero)

    def export_options(self, func: ast.FunctionDef):
        """The options of the @kiln.export decorator, or None if not exported.
        A compiled class's method has its class's options."""
        owner = self.class_of_method(func)
        if owner is not None:
            return {k: v for k, v in owner.options.items()
                    if k not in ("elementwise", "nogil", "parallel")}
        for decorator in func.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call else decorator
            if self.qualified_name(target) not in KILN_DECORATORS:
                continue
            # @kiln.vectorize: compiled like @kiln.export, and called on
            # arrays as well as numbers (element by element, broadcasting).
            options = {"elementwise": True} if self.qualified_name(target)[1] == "vectorize" \
                else {}
            if self.qualified_name(target)[1] == "guvectorize":
                options["gufunc"] = self.gufunc_signature(call)
            if call:
                # (@kiln.vectorize's signature list: frontend/ufunc_signatures.py)
                if call.args and "elementwise" not in options and "gufunc" not in options:
                    raise self.error(call, "@kiln.export takes keyword options only")
                for keyword in call.keywords:
                    if keyword.arg == "identity" and "elementwise" in options:
                        options["identity"] = self.ufunc_identity(keyword)
                        continue
                    if keyword.arg not in EXPORT_OPTIONS:
                        raise self.error(keyword, f"unknown @kiln.export option `{keyword.arg}`; "
                                                  f"known: {', '.join(sorted(EXPORT_OPTIONS))}")
                    if not isinstance(keyword.value, ast.Constant) or not isinstance(
                            keyword.value.value, EXPORT_OPTIONS[keyword.arg]):
                        raise self.error(keyword, f"@kiln.export({keyword.arg}=...) must be a "
                                                  f"literal {EXPORT_OPTIONS[keyword.arg].__name__}")
                    if keyword.arg == "vectorize" and keyword.value.value not in (
                            "auto", "require"):
                        raise self.error(keyword, '@kiln.export(vectorize=...) is "auto" or '
                                                  '"require"')
                    options[keyword.arg] = keyword.value.value
            return {**self.export_defaults, **options}
        return None

    def gufunc_signature(self, call) -> str:
        """@kiln.guvectorize("(n),(n)->()"): numpy's gufunc signature, one
        output."""
        given = call.args[0] if call is not None and call.args else None
        if not isinstance(given, ast.Constant) or not isinstance(given.value, str):
            raise self.error(call or given, '@kiln.guvectorize takes the gufunc signature '
                                            'first, a string such as "(n),(n)->()"')
        try:
            gufunc_core_dimensions(given.value)
        except ValueError as error:
            raise self.error(given, str(error)) from None
        return given.value

    def ufunc_identity(self, keyword: ast.keyword):
        """@kiln.vectorize(identity=...): None, "reorderable" or a number
        literal (`-1`, `0.0`, `True` included)."""
        value = keyword.value
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub) and isinstance(
                value.operand, ast.Constant) and type(value.operand.value) in (int, float):
            return -value.operand.value
        if isinstance(value, ast.Constant) and (value.value is None or value.value == "reorderable"
                                                or type(value.value) in (int, float, bool)):
            return value.value
        raise self.error(keyword, '@kiln.vectorize(identity=...) must be None, "reorderable" or '
                                  'a number literal')

    def module_constants(self) -> dict:
        """Module-level names bound once to a number literal, or to a tuple,
        list or dict of numbers that nothing in the module changes
        (frontend/constants.py): compiled code reads them as constants,
        their values as written (rebinding them later, or changing a list
        from outside the module, is not seen). The lists and dicts refused
        because the module may change them are in `constant_refusals`
        (name -> the uses that do)."""
        if self._constants is not None:
            return self._constants
        counts, values = {}, {}
        for node in self.tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                if isinstance(target, ast.Name):
                    counts[target.id] = counts.get(target.id, 0) + 1
                    value = literal_constant(node.value) if isinstance(node, ast.Assign) \
                        else None
                    if value is not None:
                        values[target.id] = value
        # Any other binding makes a name variable: a tuple target (`X, Y = 2, 3`),
        # an assignment in a module-level `if`/`for`/`try`, a loop or `with`
        # target, an import, a def, or `global X` in a function.
        rebound = set()

        def walk(nodes, top):
            for node in nodes:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    rebound.add(node.name)
                    for inner in ast.walk(node):
                        if isinstance(inner, (ast.Global, ast.Nonlocal)):
                            rebound.update(inner.names)
                    continue
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    rebound.update((a.asname or a.name).split(".")[0] for a in node.names)
                    continue
                simple = top and isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store) and not (
                            simple and inner in [t for t in getattr(node, "targets", [
                                getattr(node, "target", None)])]):
                        rebound.add(inner.id)
                    elif isinstance(inner, ast.ExceptHandler) and inner.name:
                        rebound.add(inner.name)
                    elif isinstance(inner, (ast.Global, ast.Nonlocal)):
                        rebound.update(inner.names)

        walk(self.tree.body, True)
        constants = {name: value for name, value in values.items()
                     if counts[name] == 1 and name not in rebound}
        self.constant_refusals = {name: (value, changes) for name, value in constants.items()
                                  if isinstance(value, (list, dict)) for changes in
                                  [container_changes(self, name)] if changes}
        self._constants = {name: value for name, value in constants.items()
                           if name not in self.constant_refusals}
        return self._constants

    def pythran_signature(self, name: str):
        """The parameter types a `#pythran export name(...)` comment of the
        module gives (Pythran's signature format, which numpy code written
        for Pythran carries): a (text, Kiln type or None when Kiln has no
        equivalent) pair per parameter; None without such a comment. With
        several comments for one name (Pythran's overloads), the first."""
        for line in self.source.splitlines():
            found = PYTHRAN_EXPORT.match(line)
            if found and found.group(1) == name:
                return [(t, pythran_type(t)) for t in split_pythran_types(found.group(2))]
        return None

    def module_functions(self) -> dict:
        """name -> FunctionDef: the module's functions, and the methods of
        its compiled classes as functions named `Class.method`."""
        functions = {node.name: node for node in self.tree.body
                     if isinstance(node, ast.FunctionDef)}
        for info in self.classes.values():
            for method in info.method_order:
                function = info.methods[method]
                functions[function.name] = function
        functions.update(self.kernel_functions)
        functions.update(self.specialized_functions)
        return functions

    def kernel(self, kernel_file: str, function: str, key: str, shared_key: str,
               values: dict, text: str | None = None) -> str:
        """The name of `function` of Kiln's kernel file `kernel_file`
        (frontend/kernels) instantiated with the template `values` under
        `key` (`shared_key` for its SHARED functions); its functions join
        the module's on first use. A function already there stays: calls
        may have typed it."""
        name = kernel_function_name(kernel_file, function, key)
        if name not in self.kernel_functions:
            for new_name, node in instantiate(kernel_file, key, shared_key, values,
                                              text).items():
                self.kernel_functions.setdefault(new_name, node)
        return name

    def is_exported(self, func: ast.FunctionDef) -> bool:
        """Decorated with @kiln.export or @kiln.vectorize. Unlike
        export_options this never raises: a bad option is an error of that
        function alone, reported when it is compiled. A vectorize function
        with a signature list is compiled as its per-signature copies."""
        if hasattr(func, "kiln_ufunc_loops"):
            return False
        return any(self.qualified_name(d.func if isinstance(d, ast.Call) else d)
                   in KILN_DECORATORS for d in func.decorator_list)

    def exported_functions(self):
        return [node for node in self.tree.body
                if isinstance(node, ast.FunctionDef) and self.is_exported(node)]

    def exported_classes(self):
        """Classes decorated with @kiln.export (`classes` has those that
        compile, `class_fallbacks` why the others stay Python)."""
        return [node for node in self.tree.body
                if isinstance(node, ast.ClassDef) and self.is_exported(node)]


PYTHRAN_EXPORT = re.compile(r"^\s*#\s*pythran\s+export\s+([A-Za-z_]\w*)\s*\((.*)\)\s*$")
# Pythran's scalar names; numpy's (float64, int32, complex128, ...) too.
PYTHRAN_SCALARS = {"float": kt.f64, "int": kt.i64, "bool": kt.boolean, "complex": kt.c128,
                   "float64": kt.f64, "float32": kt.f32, "complex128": kt.c128,
                   "complex64": kt.c64, **kt.BY_NUMPY_NAME}


def split_pythran_types(text: str) -> list:
    """`float64[][], int, (int, float)` -> its top-level comma-separated parts."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def pythran_type(text: str):
    """`float64[][]`, `complex[:, :]`, `float64[::]` (any order) or a scalar
    name -> the Kiln type; None for what Kiln has no type for (lists,
    tuples, strings, ...)."""
    found = re.fullmatch(r"(\w+)\s*((?:\[[\s:,]*\])*)\s*(?:order\s*\(\s*[CF]\s*\))?", text)
    if not found or found.group(1) not in PYTHRAN_SCALARS:
        return None
    dtype = PYTHRAN_SCALARS[found.group(1)]
    brackets = re.findall(r"\[([\s:,]*)\]", found.group(2))
    if not brackets:
        return dtype
    # `[][]` and `[:, :]` count axes by brackets or by commas; `[::]` is 1-D.
    ndim = len(brackets) if len(brackets) > 1 else brackets[0].count(",") + 1
    if dtype not in kt.ARRAY_DTYPES or ndim > 8:
        return None
    return kt.ArrayType(dtype, ndim)


def read_source(path: str) -> str:
    """The text of a module as CPython reads it: PEP 263 encoding (UTF-8
    unless declared), universal newlines. A byte the encoding cannot
    decode is a KilnCompileError at its line and column."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise KilnCompileError(Diagnostic(path, error.lineno or 1, error.offset or 1,
                                          f"syntax error: {error.msg}"))
    try:
        source = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        declared = "declared" if encoding not in ("utf-8", "utf-8-sig") else "default"
        raise KilnCompileError(Diagnostic(
            path, line, column, f"syntax error: byte 0x{data[error.start]:02x} is not valid "
                                f"{encoding} (the {declared} source encoding): {error.reason}; "
                                "save the file as UTF-8 or declare its encoding (PEP 263)"))
    return source.replace("\r\n", "\n").replace("\r", "\n")


def position(source: str, index: int) -> tuple:
    """(line, column), both 1-based, of character `index` of `source`."""
    return source.count("\n", 0, index) + 1, index - (source.rfind("\n", 0, index) + 1) + 1


def too_deep_to_parse(path: str, source: str, error: Exception) -> KilnCompileError:
    """CPython's parser gave up on nesting: find the top-level statement it
    gave up in by parsing the statements that start in column 0 one by one
    (line 1 if none does)."""
    lines = source.split("\n")
    starts = [n for n, text in enumerate(lines) if text[:1] not in ("", " ", "\t", "#", ")",
                                                                    "]", "}")]
    line = 1
    for first, last in zip(starts, starts[1:] + [len(lines)]):
        try:
            ast.parse("\n".join(lines[first:last]))
        except (RecursionError, MemoryError):
            line = first + 1
            break
        except (SyntaxError, ValueError):
            continue
    return KilnCompileError(Diagnostic(
        path, line, 1, f"expression nested too deeply for CPython's parser "
                       f"({type(error).__name__}: {error}); split it into several statements"))


def check_compiles(path: str, source: str, tree: ast.Module) -> None:
    """What CPython's compiler rejects after parsing -- `break` outside a
    loop, `return` outside a function, duplicate parameters, ... -- is the
    SyntaxError CPython would raise on import, at its line and column.
    (From the text, as import does: compiling the tree object has a lower
    nesting limit.)"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # CPython warns on import already
            compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        raise KilnCompileError(Diagnostic(path, error.lineno or 1, error.offset or 1,
                                          f"syntax error: {error.msg}"))
    except (RecursionError, MemoryError) as error:
        # CPython could not import the module either.
        _, statement = deepest_statement(tree)
        raise KilnCompileError(Diagnostic(
            path, getattr(statement, "lineno", 1), getattr(statement, "col_offset", 0) + 1,
            f"expression nested too deeply for CPython's compiler ({type(error).__name__}: "
            f"{error}); split it into several statements"))


def deepest_statement(root: ast.AST):
    """(depth, statement) of the statement holding the most deeply nested
    node under `root`; iterative, so it works where recursion does not."""
    best, statement = 0, root
    pending = [(child, 1, root) for child in ast.iter_child_nodes(root)]
    while pending:
        node, depth, owner = pending.pop()
        if isinstance(node, ast.stmt):
            owner = node
        if depth > best:
            best, statement = depth, owner
        pending.extend((child, depth + 1, owner) for child in ast.iter_child_nodes(node))
    return best, statement


def load_module(path: str, source: str | None = None) -> ModuleContext:
    path = os.path.abspath(path)
    if source is None:
        source = read_source(path)
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:
        raise KilnCompileError(Diagnostic(path, error.lineno or 1, error.offset or 1,
                                          f"syntax error: {error.msg}"))
    except ValueError as error:  # NUL bytes (a SyntaxError from Python 3.12)
        line, column = position(source, max(source.find("\0"), 0))
        raise KilnCompileError(Diagnostic(path, line, column, f"syntax error: {error}"))
    except (RecursionError, MemoryError) as error:
        raise too_deep_to_parse(path, source, error)
    check_compiles(path, source, tree)
    desugar_loops(tree)
    mark_conditions(tree)
    split_variable_webs(tree)
    context = ModuleContext(path, source, tree)
    # Kiln's kernels name numpy so, whatever this module imports.
    context.numpy_aliases.add(KERNEL_NUMPY)
    known = {"kiln": context.kiln_aliases, "math": context.math_aliases,
             "numpy": context.numpy_aliases, "cmath": context.cmath_aliases}
    # Imports at the top of the module, and the imports of numpy, math and
    # kiln a function makes in its body (`import numpy as np` as its first
    # statement): the names they bind are read as those modules everywhere.
    statements = list(tree.body) + [
        stmt for node in tree.body if isinstance(node, ast.FunctionDef) for stmt in node.body
        if is_known_import(stmt)]
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "numpy.linalg" and alias.asname:
                    context.imported_names[alias.asname] = ("numpy", "linalg")
                elif alias.name in known:
                    known[alias.name].add(alias.asname or alias.name)
                elif alias.name in CONTAINER_MODULES:
                    context.container_module_aliases[alias.asname or alias.name] = alias.name
                elif alias.name == "dataclasses":
                    context.dataclass_module_aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module == "dataclasses" and \
                node.level == 0:
            for alias in node.names:
                context.dataclass_names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module in known or node.module in CONTAINER_MODULES):
            for alias in node.names:
                context.imported_names[alias.asname or alias.name] = (node.module, alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and \
                node.module == "numpy.linalg":
            for alias in node.names:     # `from numpy.linalg import solve`
                context.imported_names[alias.asname or alias.name] = \
                    ("numpy", f"linalg.{alias.name}")
    specialize_function_arguments(context)
    expand_ufunc_signatures(context, context.error)
    mark_parallel_loops(context)
    return context


def mark_parallel_loops(context: ModuleContext) -> None:
    """`for i in kiln.prange(...)` becomes `for i in range(...)`, the loop
    recorded in context.parallel_loops: later stages see one kind of
    counted loop, and ask the set which ones run in parallel."""
    for function in context.tree.body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for loop in ast.walk(function):
            if isinstance(loop, ast.For) and is_prange_call(loop.iter) and \
                    context.qualified_name(loop.iter.func) == ("kiln", "prange"):
                loop.iter.func = ast.copy_location(ast.Name(id="range", ctx=ast.Load()),
                                                   loop.iter.func)
                context.parallel_loops.add(loop)


# The standard modules whose functions on lists and dicts Kiln compiles
# (library_functions.LIST_FUNCTIONS, collections.defaultdict and Counter).
CONTAINER_MODULES = ("heapq", "bisect", "collections")
KNOWN_MODULES = ("kiln", "math", "numpy", "cmath") + CONTAINER_MODULES


def is_known_import(stmt) -> bool:
    """`import numpy as np`, `from math import sqrt`: an import of a module
    Kiln knows, which a function body may make."""
    if isinstance(stmt, ast.Import):
        return all(alias.name in KNOWN_MODULES for alias in stmt.names)
    return isinstance(stmt, ast.ImportFrom) and stmt.module in KNOWN_MODULES and \
        stmt.level == 0 and all(alias.name != "*" for alias in stmt.names)
