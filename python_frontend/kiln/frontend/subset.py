"""The language subset, checked before code generation so that a user sees
every unsupported construct of a function at once, each with its location."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..errors import KilnCompileError
from .classes import is_super_call
from .desugar import is_loop_iterable, literal_iterable, unsupported_iteration, zipped_call
from .source import is_known_import
from ..library_functions import (DICT_CLASSES, LIST_FUNCTIONS, SEARCH, INSERT,
                                 SUPPORTED_LIST_FUNCTIONS, numpy_function)
from ..typing_rules import (ARRAY_METHODS, DTYPE_ATTRIBUTES, KILN_CASTS, MATH_CONSTANTS,
                           NUMPY_CONSTANTS, SUPPORTED_CMATH, SUPPORTED_MATH, SUPPORTED_NUMPY,
                           CMATH_KEYWORDS)

SUPPORTED_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
                    ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|",
                    ast.BitXor: "^", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>"}
# `@` is np.dot (typing checks the operands).
UNSUPPORTED_BINOPS: dict = {}
SUPPORTED_COMPARES = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
                      ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in"}
BUILTIN_CALLS = {"len", "abs", "min", "max", "float", "int", "bool", "range", "round",
                 "complex", "list", "sorted", "sum", "dict", "set", "divmod", "any", "all",
                 "tuple", "str", "chr", "ord"}
# The builtins a generator expression may be handed to (`sum(x * x for x in
# xs)`): typing's generator_typing.py.
GENERATOR_CONSUMERS = frozenset(["sum", "min", "max", "any", "all", "sorted", "list", "dict",
                                 "set", "tuple"])
GENERATOR_USE = "a generator expression is supported as the argument of sum(), min(), max(), " \
                "any(), all(), sorted(), list(), dict(), set() or str.join() only"
# The methods of Python's list Kiln compiles (typing checks the object is a
# list); `sort` takes `reverse=`.
LIST_METHODS = frozenset(["append", "pop", "insert", "extend", "clear", "reverse", "sort",
                          "copy", "count", "index", "remove"])
# The methods of Python's dict Kiln compiles (typing checks the object is a
# dict; `pop`, `copy` and `clear` are list methods too).
DICT_METHODS = frozenset(["get", "setdefault", "pop", "popitem", "keys", "values", "items", "update",
                          "copy", "clear"])
# The methods of Python's set Kiln compiles (typing checks the object is a
# set; `pop`, `copy`, `clear`, `remove` and `update` are list or dict
# methods too).
SET_METHODS = frozenset(["add", "discard", "remove", "pop", "clear", "copy", "update",
                         "intersection_update", "difference_update",
                         "symmetric_difference_update", "union", "intersection", "difference",
                         "symmetric_difference", "issubset", "issuperset", "isdisjoint"])
# Every method of Python's str: typing compiles those of
# typecheck/str_typing.py (STR_METHODS there) and refuses the others by name
# (the object is checked to be a str there too).
STR_METHOD_NAMES = frozenset(name for name in dir(str) if not name.startswith("_"))
# Counter's own methods, refused with what to write instead.
COUNTER_METHODS = {
    "most_common": "Counter.most_common() returns a list of (key, count) tuples, and lists of "
                   "tuples are not supported yet; walk c.items() and keep the largest counts "
                   "(or sorted(c.values(), reverse=True) for the counts alone)",
    "elements": "Counter.elements() is not supported yet; loop over c.items() and repeat "
                "each key by its count",
    "subtract": "Counter.subtract() is not supported yet; subtract in a loop (`for k, v in "
                "e.items(): c[k] -= v`)",
    "total": "Counter.total() is not supported yet; use sum(c.values())",
}
# Calls that take keyword arguments of their own (`sorted(xs, reverse=True)`).
KEYWORD_BUILTINS = frozenset(["sorted"])
EXCEPTION_TYPES = ("ValueError", "IndexError", "ZeroDivisionError", "OverflowError",
                   "AssertionError", "RuntimeError", "TypeError", "AttributeError",
                   "NotImplementedError")
# Exceptions of other modules a `raise` may name (`np.linalg.LinAlgError`,
# or `LinAlgError` imported from numpy.linalg): qualified name -> ABI kind.
QUALIFIED_EXCEPTIONS = {("numpy", "linalg.LinAlgError"): "LinAlgError"}
RAISABLE = ", ".join(EXCEPTION_TYPES + ("numpy.linalg.LinAlgError",))


def raised_kind(context, exc):
    """The ABI exception kind `raise exc` names, None when Kiln cannot raise it."""
    call = exc if isinstance(exc, ast.Call) else None
    name = call.func if call else exc
    if isinstance(name, ast.Name) and name.id in EXCEPTION_TYPES:
        return name.id
    return QUALIFIED_EXCEPTIONS.get(context.qualified_name(name)) if name is not None else None
SUPPORTED_LIBRARY = {"math": SUPPORTED_MATH, "numpy": SUPPORTED_NUMPY, "kiln": set(KILN_CASTS),
                     "cmath": SUPPORTED_CMATH, **SUPPORTED_LIST_FUNCTIONS,
                     "collections": set(DICT_CLASSES)}
DTYPE_NAMES = set(DTYPE_ATTRIBUTES)
LIBRARY_CONSTANTS = {"math": MATH_CONSTANTS, "numpy": NUMPY_CONSTANTS}

STATEMENT_NAMES = {
    ast.Try: "`try` statement",
    ast.With: "`with` statement",
    ast.Global: "`global` declaration", ast.Nonlocal: "`nonlocal` declaration",
    ast.Import: "`import` inside a function", ast.ImportFrom: "`import` inside a function",
    ast.ClassDef: "class definition", ast.FunctionDef: "nested function",
    ast.AsyncFunctionDef: "async function", ast.AsyncFor: "`async for`",
    ast.AsyncWith: "`async with`", ast.Match: "`match` statement",
}
EXPRESSION_NAMES = {
    ast.Lambda: "lambda",
    ast.Yield: "`yield`", ast.YieldFrom: "`yield from`",
    ast.Await: "`await`", ast.Starred: "starred expression",
    ast.NamedExpr: "assignment expression (`:=`)",
}


class SubsetChecker(ast.NodeVisitor):
    def __init__(self, context, function_name: str):
        self.context = context
        self.function_name = function_name
        self.module_functions = set(context.module_functions())
        self.diagnostics = []

    def report(self, node: ast.AST, message: str):
        self.diagnostics.append(self.context.diagnostic(node, message, self.function_name))

    def check_function(self, func: ast.FunctionDef):
        refused = getattr(func, "kiln_refused_definition", None)   # function_arguments.py
        if refused is not None:
            self.report(func, refused)
        # `f = lambda ...` names: called like the module's functions.
        self.module_functions |= {
            stmt.targets[0].id for stmt in ast.walk(func) if isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Lambda) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)}
        for node in ast.walk(func):
            name = node.name if isinstance(node, ast.FunctionDef) else (
                node.arg if isinstance(node, ast.arg) else (
                    node.id if isinstance(node, ast.Name) else None))
            if name is not None and not name.isascii():
                self.report(node, f"non-ASCII name `{name}` is not supported yet")
        args = func.args
        if args.vararg or args.kwarg:
            self.report(func, "`*args` and `**kwargs` parameters are not supported")
        if args.kwonlyargs or args.posonlyargs:
            self.report(func, "keyword-only and positional-only parameters are not supported yet")
        for default in args.defaults:
            value = default_value(default, self.context.module_constants(), self.context)
            if value is None or (value is kt.none_type and not self.context.classes):
                self.report(default, "a default parameter value must be a number or a str "
                                     "written in the source (`1.0`, `-2`, `True`, `\",\"`), a "
                                     "module constant one, or a dtype (`np.float64`), not "
                                     f"`{ast.unparse(default)}`")
        for stmt in func.body:
            self.visit(stmt)
        if self.diagnostics:
            raise KilnCompileError(self.diagnostics)

    def generic_visit(self, node):
        kind = type(node)
        if kind in (ast.Import, ast.ImportFrom) and is_known_import(node):
            return          # numpy, math or kiln: read like a module-level import
        if kind in STATEMENT_NAMES:
            self.report(node, f"{STATEMENT_NAMES[kind]} is not supported yet")
            return
        if kind in EXPRESSION_NAMES:
            self.report(node, f"{EXPRESSION_NAMES[kind]} is not supported")
            return
        super().generic_visit(node)

    def visit_BinOp(self, node):
        if type(node.op) in UNSUPPORTED_BINOPS:
            self.report(node, f"operator `{UNSUPPORTED_BINOPS[type(node.op)]}` is not supported yet")
        self.generic_visit(node)

    def visit_Compare(self, node):
        for op in node.ops:
            if isinstance(op, (ast.Is, ast.IsNot)) and self.context.classes:
                continue        # instances and None (typing checks)
            if type(op) not in SUPPORTED_COMPARES:
                self.report(node, f"comparison `{ast.unparse(node)}` is not supported "
                                  "(only < <= > >= == != in, not in)")
                break
        self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, bytes):
            self.report(node, "bytes is not supported yet")
        elif not isinstance(node.value, (bool, int, float, complex, str)) and \
                node.value is not None:
            self.report(node, f"constant of type {type(node.value).__name__} is not supported")

    def visit_JoinedStr(self, node):
        """An f-string: its `{value}` parts without a format spec or a
        conversion (typing checks each value is a str, int, float or
        bool)."""
        for part in node.values:
            if not isinstance(part, ast.FormattedValue):
                continue
            if part.format_spec is not None:
                self.report(part, "a format spec (`{x:...}`) in an f-string is not supported "
                                  "yet; write `{x}` (str(), int and float values are shown as "
                                  "str() shows them)")
            elif part.conversion != -1:
                self.report(part, f"the conversion `!{chr(part.conversion)}` in an f-string is "
                                  "not supported yet; write `{x}`")
            else:
                self.visit(part.value)

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring or a bare string
        self.generic_visit(node)

    def visit_Assign(self, node):
        if len(node.targets) == 1 and is_loop_iterable(node.targets[0]):
            what = literal_iterable(node.value)     # `for x in [1, 2, 3]`
            if what is not None and not isinstance(node.value, ast.Tuple):   # typing's
                self.report(node.value, unsupported_iteration(what))
                return
        if isinstance(node.value, ast.Lambda) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            arguments = node.value.args
            if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or \
                    arguments.defaults or arguments.posonlyargs:
                self.report(node.value, "a lambda with defaults, * or ** parameters is not "
                                        "supported")
            self.visit(node.value.body)     # called by name: inlined at each call
            return
        for target in node.targets:
            if isinstance(target, (ast.Tuple, ast.List)):
                for element in target.elts:
                    self.visit(element)
            else:
                self.visit(target)
        if isinstance(node.value, (ast.Tuple, ast.List)) and len(node.targets) == 1 and \
                isinstance(node.targets[0], (ast.Tuple, ast.List)):
            for element in node.value.elts:
                self.visit(element)
        else:
            self.visit(node.value)

    def visit_AnnAssign(self, node):
        """`x: T = v`: the annotation is typing's to read (`typing.Set[int]`
        is no value of the subset)."""
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_Return(self, node):
        if isinstance(node.value, ast.Tuple):
            for element in node.value.elts:
                self.visit(element)
        elif node.value is not None:
            self.visit(node.value)

    def visit_Raise(self, node):
        exc = node.exc
        call = exc if isinstance(exc, ast.Call) else None
        name = call.func if call else exc
        if raised_kind(self.context, exc) is None:
            what = ast.unparse(exc) if exc is not None else "a bare `raise`"
            self.report(node, f"raising {what} is not supported; raise one of "
                              f"{RAISABLE} with a constant message or an f-string")
        elif message_parts(call) is None:
            self.report(call, RAISED_MESSAGE)
        else:
            for part in message_parts(call):
                if isinstance(part, ast.FormattedValue) and part.format_spec is not None:
                    self.report(part, "a format spec (`{x:...}`) in a raised exception's "
                                      "message is not supported yet; write `{x}`")
                elif isinstance(part, ast.FormattedValue):
                    self.visit(part.value)
        if node.cause is not None:
            self.report(node, "`raise ... from ...` is not supported")

    def visit_For(self, node):
        if node.orelse:
            self.report(node, "`for ... else` is not supported yet")
        if not isinstance(node.target, ast.Name):
            self.report(node.target, "a `for` target must be a single name")
        # every loop is over range(...) here: the parse stage rewrote loops
        # over arrays, enumerate() and zip() (desugar.py)
        iterator = node.iter
        for stmt in node.body:
            self.visit(stmt)
        for arg in getattr(iterator, "args", []):
            self.visit(arg)

    def visit_ListComp(self, node):
        """`[e for v in <range(...) or a list> if c ...]` (and a generator
        expression handed to sum(), ...): each `for` over
        one name (or `k, v` over a dict's items(): typing checks it); typing
        checks what it iterates over."""
        for generator in node.generators:
            if generator.is_async:
                self.report(generator.target, "`async for` in a comprehension is not supported")
            if not isinstance(generator.target, ast.Name) and not (
                    isinstance(generator.target, ast.Tuple) and len(generator.target.elts) >= 2
                    and all(isinstance(e, ast.Name) for e in generator.target.elts)):
                self.report(generator.target, "a comprehension's `for` target must be a name or "
                                              "a tuple of names")
            if zipped_call(generator.iter, (), self.module_functions):
                for arg in generator.iter.args:         # `for a, b in zip(xs, ys)`
                    self.visit(arg)
            else:
                self.visit(generator.iter)
            for condition in generator.ifs:
                self.visit(condition)
        if isinstance(node, ast.DictComp):
            self.visit(node.key)
            self.visit(node.value)
        else:
            self.visit(node.elt)

    visit_DictComp = visit_ListComp
    visit_SetComp = visit_ListComp

    def visit_Delete(self, node):
        """`del d[k]`, `del xs[i]`, `del xs[a:b:c]` (typing checks what `d`
        and `xs` are); nothing else yet."""
        if not all(isinstance(t, ast.Subscript) for t in node.targets):
            self.report(node, "`del` is supported as `del d[k]` of a dict and `del xs[i]`, "
                              "`del xs[a:b]` of a list only yet")
            return
        for target in node.targets:
            self.visit(target)

    def visit_While(self, node):
        if node.orelse:
            self.report(node, "`while ... else` is not supported yet")
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        if self.context.classes and self.is_class_call(node):
            # `Node(1, y=2.0)`, `o.m(x)`, `Node.make(3)`, isinstance(o, Node):
            # typing checks the object and the arguments.
            for part in [func.value] if isinstance(func, ast.Attribute) and \
                    not is_super_call(func.value) else []:
                self.visit(part)
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self.visit(arg)
            return
        qualified_call = self.context.qualified_name(func)
        numpy_entry = numpy_function(qualified_call[1]) if qualified_call is not None and \
            qualified_call[0] == "numpy" else None
        # Allocations, reductions, scans and shape functions read their
        # keywords themselves (dtype=, axis=, ...); methods are typed later.
        takes_keywords = (numpy_entry is not None and numpy_entry.family.reads_call) or (
            qualified_call is None and isinstance(func, ast.Attribute)
            and func.attr in ARRAY_METHODS | LIST_METHODS | DICT_METHODS | SET_METHODS |
            STR_METHOD_NAMES) or (
            isinstance(func, ast.Name) and func.id in KEYWORD_BUILTINS)
        keyword_only = (qualified_call is not None and qualified_call[0] == "cmath" and
                        qualified_call[1] in CMATH_KEYWORDS) or (  # cmath.isclose(..., abs_tol=...)
            qualified_call in LIST_FUNCTIONS and
            LIST_FUNCTIONS[qualified_call].form in (SEARCH, INSERT))   # bisect's lo=, hi=
        if node.keywords and not takes_keywords and not keyword_only and not (
                isinstance(func, ast.Name) and func.id in self.module_functions):
            self.report(node, f"keyword arguments in `{ast.unparse(func)}(...)` are not supported")
        for keyword in node.keywords:
            self.visit(keyword.value)
        qualified = self.context.qualified_name(func)
        if isinstance(func, ast.Name) and func.id in self.module_functions:
            pass
        elif qualified is not None and qualified[0] == "collections" and \
                qualified[1] in DICT_CLASSES:
            # `defaultdict(int)`, `defaultdict(lambda: 0)`, `Counter(xs)`: the
            # factory is no value of the subset; typing checks the arguments.
            return
        elif isinstance(func, ast.Name) and func.id in BUILTIN_CALLS and qualified is None:
            pass            # `range(n)` too: a value (typing's range_typing.py)
        elif qualified is None and isinstance(func, ast.Attribute) and \
                func.attr in ARRAY_METHODS | LIST_METHODS | DICT_METHODS | SET_METHODS | \
                STR_METHOD_NAMES:
            # `x.sum()`, `xs.append(v)`, `s.strip()`: typing checks the object
            self.visit(func.value)
        elif qualified is not None:
            module, name = qualified
            if name not in SUPPORTED_LIBRARY.get(module, ()):
                label = {"numpy": "np"}.get(module, module)
                self.report(node, f"call to `{label}.{name}` is not supported yet")
        elif qualified is None and isinstance(func, ast.Attribute) and \
                func.attr in COUNTER_METHODS:
            self.report(node, COUNTER_METHODS[func.attr])
        elif isinstance(func, ast.Name) and func.id == "frozenset":
            self.report(node, "frozenset() is not supported yet; use set(...) (a frozenset "
                              "argument of an exported function is taken as a set)")
        elif (func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)) in (
                "defaultdict", "Counter"):
            called = ast.unparse(func)
            self.report(node, f"`{called}` is collections' (Kiln compiles "
                              "collections.defaultdict and Counter): import it, `from "
                              "collections import defaultdict, Counter` or `import "
                              "collections`")
        else:
            self.report(node, f"call to `{ast.unparse(func)}` is not supported")
        shape_call = numpy_entry is not None and numpy_entry.family.takes_lists
        consumer = (isinstance(func, ast.Name) and func.id in GENERATOR_CONSUMERS and
                    qualified is None and func.id not in self.module_functions) or (
            isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1)
        for arg in node.args:
            if consumer and isinstance(arg, ast.GeneratorExp):
                self.visit_ListComp(arg)        # `sum(x * x for x in xs)`
            else:
                self.visit_argument(arg, shape_call)

    def is_class_call(self, node) -> bool:
        """A call typing reads as a constructor, a method call or
        isinstance() (class_typing.py)."""
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in self.context.classes or func.id == "isinstance"
        if not isinstance(func, ast.Attribute) or self.context.qualified_name(func) is not None:
            return False
        methods = {name for info in self.context.classes.values() for name in info.methods}
        return func.attr in methods or func.attr not in ARRAY_METHODS | LIST_METHODS | \
            DICT_METHODS | SET_METHODS | STR_METHOD_NAMES | set(COUNTER_METHODS)

    def visit_GeneratorExp(self, node):
        self.report(node, GENERATOR_USE)

    def visit_argument(self, node, lists_allowed):
        """np.array([1, 2]), np.concatenate(([1], x)), np.zeros([n, m]):
        lists of values written in the call."""
        if lists_allowed and isinstance(node, (ast.List, ast.Tuple)):
            for element in node.elts:
                self.visit_argument(element, lists_allowed)
            return
        self.visit(node)

    def visit_Attribute(self, node):
        if node.attr in ("shape", "ndim", "size", "T", "dtype", "real", "imag", "start", "stop",
                         "step") and self.context.qualified_name(node) is None:
            self.visit(node.value)      # an array's or a range's: typing checks the base
            return
        qualified = self.context.qualified_name(node)
        if qualified is not None and qualified[1] in DTYPE_NAMES:
            return
        qualified = self.context.qualified_name(node)
        if qualified is not None and qualified[0] == "collections" and \
                qualified[1] in DICT_CLASSES:
            return          # `collections.defaultdict[int, int]`: an annotation
        if qualified is not None:
            if qualified[1] not in LIBRARY_CONSTANTS.get(qualified[0], {}):
                self.report(node, f"`{ast.unparse(node)}` is not supported yet")
        elif self.context.classes:
            self.visit(node.value)      # an instance's attribute (typing checks)
        else:
            self.report(node, f"attribute `{ast.unparse(node)}` is not supported")

    def visit_Subscript(self, node):
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            self.visit(node.value)
            return
        for part in parts:
            if self.context.is_new_axis(part):
                continue
            if isinstance(part, ast.Constant) and part.value is Ellipsis:
                continue            # `a[..., 0]`: type inference expands it
            if isinstance(part, ast.Slice):
                for bound in (part.lower, part.upper, part.step):
                    if bound is not None:
                        self.visit(bound)
            else:
                self.visit(part)
        self.visit(node.value)


RAISED_MESSAGE = "an exception raised in compiled code takes one message: a constant string, " \
                 "or an f-string of ints and bools (`f\"bad n {n}\"`)"


def message_parts(call):
    """The parts of the message of a raised exception `call` (`E(...)`,
    or None for a bare `raise E`): its strings and the f-string's
    FormattedValue nodes, in order; [] without a message; None when the
    arguments are no message Kiln compiles (several, keywords, another
    expression)."""
    if call is None or (not call.args and not call.keywords):
        return []
    if call.keywords or len(call.args) > 1:
        return None
    message = call.args[0]
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return [message.value]
    if isinstance(message, ast.JoinedStr):
        return [part.value if isinstance(part, ast.Constant) else part
                for part in message.values]
    return None


def default_value(node, constants=None, context=None):
    """The number or str a default parameter value writes (`1.5`, `-2`,
    `True`, `1 - 2j`, `","`) or names (a module constant number or str of
    `constants`: its value as written, which is what CPython's def takes),
    or None when it is anything else (a str with a lone surrogate too: no
    Kiln string holds one)."""
    if isinstance(node, ast.Constant) and node.value is None:
        return kt.none_type         # an instance parameter's default (typing checks)
    if isinstance(node, ast.List) and getattr(node, "kiln_new_list", False):
        return kt.NEW_LIST_DEFAULT  # a dataclass's default_factory=list (frontend/classes.py)
    qualified = context.qualified_name(node) if context is not None else None
    if qualified and qualified[0] == "numpy" and qualified[1] in DTYPE_ATTRIBUTES:
        return kt.DTypeValue(DTYPE_ATTRIBUTES[qualified[1]])     # `dtype=np.float64`
    if isinstance(node, ast.Name) and constants is not None:
        value = constants.get(node.id)
        return value if isinstance(value, (bool, int, float, str)) else None
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, str):
        return None if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else value
    return value if isinstance(value, (bool, int, float, complex)) else None
