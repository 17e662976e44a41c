"""The oracle: a generated module run by CPython under Kiln's documented
semantics (see semantics.py for the rules and why).

The module's source is parsed and each function gets a mechanical rewrite
that makes the documented typing explicit, nothing else:

* each scalar parameter is converted at entry to its annotated type, each
  array parameter becomes a `semantics.Array` view;
* each store to a local declared with an annotation (`s: float = 0`), and each
  `return`, converts to the declared type (Kiln's variables have one type,
  the join of what is assigned; the generator declares that join).

The rewritten module is executed (never imported: `KILN_DISABLE=1` is
implied) with the stand-ins of semantics.py for `math`, `np`, `kiln` and
the builtins. A call runs under a CPU-time alarm so a reduced candidate that
lost its loop bound cannot hang the harness.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import re
import signal
import sys

import numpy as np

from . import dicts as D
from . import lists as L
from . import numpy_functions  # noqa: F401 - array methods and numpy functions of arrays
from . import semantics as S
from kiln.frontend.variable_webs import split_variable_webs
from . import sets as T
from .instances import CLASS_NAME

RUNTIME = "_kiln_rt"


def annotation_spec(node):
    """('scalar', kind) | ('array', kind, ndim) | ('tuple', [kinds]) | None."""
    if node is None:
        return None
    text = ast.unparse(node).replace(" ", "")
    if text in L.ANNOTATION_KIND:
        return ("list", L.ANNOTATION_KIND[text])
    instances = re.fullmatch(r"list\[([A-Za-z_]\w*)\]", text)
    if instances and CLASS_NAME.fullmatch(instances.group(1)):
        return ("list", instances.group(1))     # a list of a generated class's instances
    if text in T.ANNOTATION_KIND:
        return ("set", T.ANNOTATION_KIND[text])
    if D.annotation_kinds(text):
        return ("dict", *D.annotation_kinds(text))
    kind = S.kind_of_annotation(text)
    if kind:
        return ("scalar", kind)
    if text.startswith("kiln.") and "[" in text:
        return ("array", S.kind_of_annotation(text.split("[")[0]), text.count(":"))
    if text.startswith("tuple["):
        inner = text[len("tuple["):-1]
        return ("tuple", [S.kind_of_annotation(t) for t in inner.split(",")])
    if text == "None":
        return ("none",)
    return None


CASTS = {"float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16",
         "uint8", "double", "single", "f64", "f32", "i64", "i32", "i16", "i8", "u64", "u32",
         "u16", "u8"}


def is_constant(node) -> bool:
    """Whether Kiln knows this exponent's value at compile time: a number
    literal, a negated one, or a cast of one (`kiln.f32(0.5)`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return is_constant(node.operand)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "kiln") \
            and node.func.attr in CASTS and len(node.args) == 1 and not node.keywords:
        return is_constant(node.args[0])
    return False


def rt(name):
    return ast.Attribute(value=ast.Name(id=RUNTIME, ctx=ast.Load()), attr=name, ctx=ast.Load())


def rt_call(name, *args):
    return ast.Call(func=rt(name), args=list(args), keywords=[])


# The containers of str of str_constructs.StrContainerConstructs hold what
# CPython holds (docs/language.md: no difference the generator reaches), so
# the oracle leaves them plain Python lists, dicts and sets: a display is
# left alone when it holds text (a str literal, an f-string, a string or
# str-container variable of the string streams, `.split()`, `.upper()`,
# `.lower()`, `str()`, `chr()`), or when it is stored into a name annotated with `str`.
STR_NAME = re.compile(r"^(t7|sl8|sd8|ss8|st8|w8)\d{3}$")
TEXT_METHODS = ("split", "upper", "lower")


def holds_text(node) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            return True
        if isinstance(inner, ast.JoinedStr):
            return True
        if isinstance(inner, ast.Name) and STR_NAME.match(inner.id):
            return True
        if isinstance(inner, ast.Attribute) and inner.attr in TEXT_METHODS:
            return True
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and \
                inner.func.id in ("str", "chr"):
            return True
    return False


class _Rewriter(ast.NodeTransformer):
    def __init__(self, declared, returns, helper_returns=None, lists=None, dicts=None,
                 sets=None):
        self.sets = sets or {}       # names declared set[...] -> element kind
        self.dicts = dicts or {}     # names declared dict[...] -> (key kind, value kind)
        self.declared = declared
        self.returns = returns
        self.helper_returns = helper_returns or {}   # module function -> annotation_spec
        self.lists = lists or {}     # names declared list[...] -> item kind
        self.numpy_call = 0          # inside the arguments of an np.* call
        self.plain = 0               # inside a value stored into a str-annotated name

    def _coerce(self, name, value):
        if name in self.lists:
            # a list bound to a declared name: converted when new (lists.py)
            return rt_call("bind_list", ast.Constant(self.lists[name]), value)
        if name in self.sets:
            # a set bound to a declared name: converted when new (sets.py)
            return rt_call("bind_set", ast.Constant(self.sets[name]), value)
        if name in self.dicts:
            # a dict bound to a declared name: converted when new (dicts.py)
            return rt_call("bind_dict", ast.Constant(self.dicts[name]), value)
        kind = self.declared.get(name)
        if kind is None:
            return value
        return rt_call("coerce", ast.Constant(kind), value)

    def visit_FunctionDef(self, node):
        return node  # nested defs are outside the subset; left alone

    def visit_Call(self, node):
        # `np.array([1, 2])`, `np.stack([x, y])`: Python lists numpy reads,
        # not Kiln lists
        func = node.func
        numpy = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            func.value.id in ("np", "numpy")
        self.numpy_call += numpy
        self.generic_visit(node)
        self.numpy_call -= numpy
        return node

    def visit_List(self, node):
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        if self.numpy_call or not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(rt_call("list_display", node), node)

    def visit_ListComp(self, node):
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        if self.numpy_call:
            return node
        return ast.copy_location(rt_call("list_display", node), node)

    def visit_Set(self, node):
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        return ast.copy_location(rt_call("set_display", ast.List(elts=node.elts,
                                                                  ctx=ast.Load())), node)

    def visit_SetComp(self, node):
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        elements = ast.ListComp(elt=node.elt, generators=node.generators)
        return ast.copy_location(rt_call("set_display", elements), node)

    def visit_Dict(self, node):
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        if self.numpy_call:
            return node
        pairs = ast.List(elts=[ast.Tuple(elts=[k, v], ctx=ast.Load())
                               for k, v in zip(node.keys, node.values)], ctx=ast.Load())
        return ast.copy_location(rt_call("dict_display", pairs), node)

    def visit_DictComp(self, node):
        # the pairs in order, key before value (CPython's order)
        text = self.plain or holds_text(node)       # before the rewrite adds str constants
        self.generic_visit(node)
        if text:
            return node         # a container of str: plain Python
        pairs = ast.ListComp(elt=ast.Tuple(elts=[node.key, node.value], ctx=ast.Load()),
                             generators=node.generators)
        return ast.copy_location(rt_call("dict_display", pairs), node)

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) > 1:
            # `a = b = v`: v once, then each target left to right, each
            # declared variable converted to its own kind
            held = ast.Name(id=f"_chained_{node.lineno}_{node.col_offset}", ctx=ast.Store())
            statements = [ast.Assign(targets=[held], value=node.value)]
            for target in node.targets:
                value = ast.Name(id=held.id, ctx=ast.Load())
                if isinstance(target, ast.Name):
                    value = self._coerce(target.id, value)
                statements.append(ast.Assign(targets=[target], value=value))
            return [ast.copy_location(s, node) for s in statements]
        if len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                node.value = self._coerce(target.id, node.value)
            elif isinstance(target, ast.Tuple):
                kinds = [self.declared.get(e.id) if isinstance(e, ast.Name) else None
                         for e in target.elts]
                if isinstance(node.value, ast.Tuple) and len(node.value.elts) == len(kinds):
                    node.value.elts = [
                        self._coerce(e.id, v) if isinstance(e, ast.Name) else v
                        for e, v in zip(target.elts, node.value.elts)]
                else:
                    node.value = rt_call("unpack", ast.Constant(tuple(kinds)), node.value)
        return node

    def visit_AnnAssign(self, node):
        text = "str" in ast.unparse(node.annotation)
        self.plain += text
        self.generic_visit(node)
        self.plain -= text
        if text:
            return node
        if node.value is not None and isinstance(node.target, ast.Name):
            node.value = self._coerce(node.target.id, node.value)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow) and is_constant(node.value):
            # `x **= 2` on an array: numpy's fast path for a constant
            node.value = rt_call("constant_exponent", node.value)
        if isinstance(node.target, ast.Name) and node.target.id in self.declared:
            load = ast.Name(id=node.target.id, ctx=ast.Load())
            # Through semantics.binop like any operator (a bare BinOp here
            # would run Python's own operator on the oracle's typed numbers).
            value = self.visit_BinOp(ast.BinOp(left=load, op=node.op, right=node.value))
            return ast.copy_location(
                ast.Assign(targets=[node.target], value=self._coerce(node.target.id, value)),
                node)
        return node

    OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}

    def visit_BinOp(self, node):
        # every operator goes through semantics.binop, so literal-only
        # arithmetic (`2 ** -1`, `2**62 * 4`) follows Kiln's rules too
        self.generic_visit(node)
        symbol = self.OPS.get(type(node.op))
        if symbol is None:
            return node
        if symbol == "**" and is_constant(node.right):
            node.right = rt_call("constant_exponent", node.right)
        return ast.copy_location(rt_call("binop", ast.Constant(symbol), node.left, node.right),
                                 node)

    def branch_type_only(self, branch):
        """How semantics.conditional may learn the type of a branch that does
        not run: None to evaluate it (no side effects), the kind of a helper
        call's declared result, or "unknown" when evaluating it could write
        an array (a call to a module function inside it)."""
        calls = [n for n in ast.walk(branch) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id in self.helper_returns]
        if not calls:
            return None
        spec = self.helper_returns[calls[0].func.id]
        if branch is calls[0] and spec and spec[0] == "scalar":
            return spec[1]
        return "unknown"

    def visit_IfExp(self, node):
        # `a if c else b` -> rt.conditional(c, lambda: a, lambda: b, ...):
        # one static type for both branches (semantics.conditional).
        kinds = [self.branch_type_only(b) for b in (node.body, node.orelse)]
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            # `a if True else b`: Kiln folds it to the branch that runs.
            return node
        no_arguments = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                     kw_defaults=[], kwarg=None, defaults=[])
        thunks = [ast.Lambda(args=no_arguments, body=branch) for branch in (node.body, node.orelse)]
        return ast.copy_location(
            rt_call("conditional", node.test, *thunks, *(ast.Constant(k) for k in kinds)), node)

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None:
            node.value = rt_call("ret", ast.Constant(repr(self.returns)), node.value)
        return node


def is_instance_annotation(node) -> bool:
    """`C3_0`, `"C3_0"`, `"C3_0 | None"`: a parameter taking an instance of
    a generated class (class_constructs.py's `kids_adopt(self, other:
    "C3_0")`), taken as it comes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.replace(" ", "")
    elif isinstance(node, ast.Name):
        text = node.id
    else:
        return False
    return CLASS_NAME.fullmatch(text.removesuffix("|None")) is not None


def rewrite_function(fn: ast.FunctionDef, helper_returns=None) -> ast.FunctionDef:
    fn = copy.deepcopy(fn)
    declared = {}
    lists = {}
    dicts = {}
    sets = {}
    entry = []
    for arg in fn.args.args:
        if is_instance_annotation(arg.annotation):
            continue
        spec = annotation_spec(arg.annotation)
        if spec and spec[0] == "set":
            sets[arg.arg] = spec[1]
            entry.append(ast.Assign(
                targets=[ast.Name(id=arg.arg, ctx=ast.Store())],
                value=rt_call("set_argument", ast.Constant(spec[1]),
                              ast.Name(id=arg.arg, ctx=ast.Load()), ast.Constant(fn.name),
                              ast.Constant(arg.arg)),
                lineno=fn.lineno))
            continue
        if spec and spec[0] == "dict":
            dicts[arg.arg] = spec[1:]
            entry.append(ast.Assign(
                targets=[ast.Name(id=arg.arg, ctx=ast.Store())],
                value=rt_call("dict_argument", ast.Constant(spec[1:]),
                              ast.Name(id=arg.arg, ctx=ast.Load()), ast.Constant(fn.name),
                              ast.Constant(arg.arg)),
                lineno=fn.lineno))
            continue
        if spec and spec[0] == "list":
            lists[arg.arg] = spec[1]
            entry.append(ast.Assign(
                targets=[ast.Name(id=arg.arg, ctx=ast.Store())],
                value=rt_call("list_argument", ast.Constant(spec[1]),
                              ast.Name(id=arg.arg, ctx=ast.Load()), ast.Constant(fn.name),
                              ast.Constant(arg.arg)),
                lineno=fn.lineno))
            continue
        kind = spec[1] if spec and spec[0] == "scalar" else None
        entry.append(ast.Assign(
            targets=[ast.Name(id=arg.arg, ctx=ast.Store())],
            value=rt_call("argument", ast.Constant(kind), ast.Name(id=arg.arg, ctx=ast.Load())),
            lineno=fn.lineno))
        if kind:
            declared[arg.arg] = kind
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            spec = annotation_spec(node.annotation)
            if spec and spec[0] == "scalar":
                declared[node.target.id] = spec[1]
            if spec and spec[0] == "list":
                lists[node.target.id] = spec[1]
            if spec and spec[0] == "dict":
                dicts[node.target.id] = spec[1:]
            if spec and spec[0] == "set":
                sets[node.target.id] = spec[1]
    returns = annotation_spec(fn.returns)
    rewriter = _Rewriter(declared, returns, helper_returns, lists, dicts, sets)
    body = []
    for stmt in fn.body:
        rewritten = rewriter.visit(stmt)     # a chained assignment: several statements
        body += rewritten if isinstance(rewritten, list) else [rewritten]
    fn.body = entry + body
    return fn


def list_field_spec(annotation):
    """The item kind of a list field's annotation (`list[int]`,
    `"list[C3_0]"`), None for any other."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    spec = annotation_spec(annotation)
    return spec[1] if spec and spec[0] == "list" else None


def list_fields_of(cls: ast.ClassDef) -> dict:
    """A class's list fields (class_constructs.add_list_fields): annotated
    in its body or, `self.<name>: list[...] = ...`, in a method."""
    kinds = {}
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            kind = list_field_spec(stmt.annotation)
            if kind is not None:
                kinds[stmt.target.id] = kind
        if isinstance(stmt, ast.FunctionDef):
            for node in ast.walk(stmt):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
                    kind = list_field_spec(node.annotation)
                    if kind is not None:
                        kinds[node.target.attr] = kind
    return kinds


def rewrite_class(cls: ast.ClassDef, helper_returns=None) -> ast.ClassDef:
    """A class of the module (class_constructs.py): its methods rewritten as
    the module's functions are, `self` taken as it comes (the instance
    itself, not a number). A class with list fields gets a `__setattr__`
    that binds a list stored into one as a declared list variable is bound
    (lists.bind: a new list converts to the field's items, then the field
    holds it, shared)."""
    cls = copy.deepcopy(cls)
    for position, stmt in enumerate(cls.body):
        if isinstance(stmt, ast.FunctionDef):
            method = rewrite_function(stmt, helper_returns)
            if stmt.args.args and stmt.args.args[0].annotation is None:
                method.body = method.body[1:]      # the entry conversion of `self`
            cls.body[position] = method
    kinds = list_fields_of(cls)
    if kinds:
        cls.body.append(ast.Assign(
            targets=[ast.Name(id="__setattr__", ctx=ast.Store())],
            value=rt_call("list_field_setattr", ast.Constant(repr(kinds))), lineno=cls.lineno))
    return cls


class Runtime:
    coerce = staticmethod(S.coerce)
    binop = staticmethod(S.binop)
    argument = staticmethod(S.argument)
    conditional = staticmethod(S.conditional)
    constant_exponent = S.ConstantExponent
    list_display = staticmethod(L.list_display)
    bind_list = staticmethod(L.bind)
    boundary = None          # the exported call's list arguments (lists.Boundary)
    dict_display = staticmethod(D.dict_display)
    bind_dict = staticmethod(D.bind)
    dict_boundary = None     # the exported call's dict arguments (dicts.Boundary)
    set_display = staticmethod(T.set_display)
    bind_set = staticmethod(T.bind)
    set_boundary = None      # the exported call's set arguments (sets.Boundary)

    @staticmethod
    def set_argument(kind, x, function, parameter):
        if isinstance(x, T.KSet):        # a module function's call
            return T.bind(kind, x)
        if Runtime.set_boundary is None:
            Runtime.set_boundary = T.Boundary()
        return Runtime.set_boundary.argument(kind, x, function, parameter)

    @staticmethod
    def dict_argument(kinds, x, function, parameter):
        if isinstance(x, D.KDict):       # a module function's call
            return D.bind(kinds, x)
        if Runtime.dict_boundary is None:
            Runtime.dict_boundary = D.Boundary()
        return Runtime.dict_boundary.argument(kinds, x, function, parameter)

    @staticmethod
    def list_argument(kind, x, function, parameter):
        if isinstance(x, L.KList):       # a module function's call
            return L.bind(kind, x)
        if Runtime.boundary is None:
            Runtime.boundary = L.Boundary()
        return Runtime.boundary.argument(kind, x, function, parameter)

    @staticmethod
    def list_field_setattr(kinds_text):
        kinds = eval(kinds_text)  # noqa: S307 - our own repr of a dict of strings

        def __setattr__(self, name, value):
            if name in kinds:
                value = L.bind(kinds[name], value)
            object.__setattr__(self, name, value)
        return __setattr__

    @staticmethod
    def unpack(kinds, value):
        values = tuple(value)
        if len(values) != len(kinds):
            raise TypeError("tuple size mismatch")
        return tuple(S.coerce(k, v) if k else v for k, v in zip(kinds, values))

    @staticmethod
    def ret(spec_text, value):
        spec = eval(spec_text)  # noqa: S307 - our own repr of a tuple of strings
        if spec is None:
            return value
        if spec[0] == "list":
            return L.coerce_list(spec[1], value)
        if spec[0] == "dict":
            return D.coerce_dict(spec[1:], value)
        if spec[0] == "set":
            return T.coerce_set(spec[1], value)
        if spec[0] == "scalar":
            if isinstance(value, tuple):
                raise TypeError("tuple returned from a scalar function")
            return S.coerce(spec[1], value)
        if spec[0] == "tuple":
            if not isinstance(value, tuple) or len(value) != len(spec[1]):
                raise TypeError("wrong tuple returned")
            return tuple(S.coerce(k, v) for k, v in zip(spec[1], value))
        return value


class OracleModule:
    """The generated module's functions, runnable under the documented semantics."""

    def __init__(self, source: str, filename: str = "<fuzz>"):
        tree = ast.parse(source, filename)
        # Kiln types each web of a name on its own (a parameter's annotation
        # types the argument, and a later assignment that no read sees
        # together with it is typed by its value: FINDINGS.md, S10): the
        # oracle declares the same variables, renamed as Kiln renames them.
        # Renaming changes no Python semantics, only which declaration
        # applies.
        split_variable_webs(tree)
        helper_returns = {stmt.name: annotation_spec(stmt.returns) for stmt in tree.body
                          if isinstance(stmt, ast.FunctionDef)}
        body = []
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                body.append(rewrite_function(stmt, helper_returns))
            elif isinstance(stmt, ast.ClassDef):
                body.append(rewrite_class(stmt, helper_returns))
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                continue
            else:
                body.append(stmt)
        tree.body = body
        ast.fix_missing_locations(tree)
        self.namespace = {"__builtins__": __builtins__, RUNTIME: Runtime,
                          "math": S.MathStandIn(), "np": S.NumpyStandIn(),
                          "numpy": S.NumpyStandIn(), "kiln": S.KilnStandIn(),
                          "cmath": S.CmathStandIn(), "dataclass": dataclasses.dataclass,
                          **S.BUILTINS}
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(tree, filename, "exec"), self.namespace)  # noqa: S102

    def make_instance(self, name, a, b, flag):
        """An instance of the oracle's class `name` (inputs.realize): its
        fields typed as the compiled class's are."""
        if name not in self.namespace:
            raise S.OutsideDomain(f"class {name} is gone (a reducer candidate)")
        return self.namespace[name](S.Num("i64", a), S.Num("f64", b), S.Num("bool", flag))

    def call(self, name, args, timeout=5.0):
        """Returns ("ok", plain value) or ("raise", type name, message);
        raises OutsideDomain / OracleTimeout."""
        function = self.namespace[name]

        def alarm(signum, frame):
            raise S.OracleTimeout()

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        Runtime.boundary = None
        Runtime.dict_boundary = None
        Runtime.set_boundary = None
        self.body_error = None
        try:
            write_back_error = None
            try:
                with np.errstate(all="ignore"):
                    value = function(*args)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                # the caller's lists after the call, raised or not (Kiln's
                # write-back, lists.Boundary)
                boundary, Runtime.boundary = Runtime.boundary, None
                if boundary is not None:
                    boundary.write_back()
                dict_boundary, Runtime.dict_boundary = Runtime.dict_boundary, None
                if dict_boundary is not None:
                    dict_boundary.write_back()
                # sets come after the lists and dicts among the parameters;
                # a changed frozenset is a TypeError (sets.Boundary), also
                # in place of the function's own exception
                set_boundary, Runtime.set_boundary = Runtime.set_boundary, None
                if set_boundary is not None:
                    try:
                        set_boundary.write_back()
                    except TypeError as error:
                        write_back_error = error
                pending = sys.exc_info()[1]
                # (an IndexError of a boundscheck=False function is outside
                # the domain even where a frozenset's TypeError replaces it)
                self.body_error = type(pending).__name__ if pending else None
                if write_back_error is not None and not isinstance(
                        pending, (S.OutsideDomain, S.OracleTimeout, TypeError, NameError,
                                  UnboundLocalError, AttributeError)):
                    return ("raise", "TypeError", str(write_back_error))
            if isinstance(value, L.KList) and boundary is not None:
                for python_list, klist in boundary.lists:
                    if klist is value:
                        position = next(k for k, a in enumerate(args) if a is python_list)
                        return ("ok", L.ArgumentList(python_list, position))
            if isinstance(value, T.KSet) and set_boundary is not None:
                for python_set, kset, _ in set_boundary.sets:
                    if kset is value:
                        position = next(k for k, a in enumerate(args) if a is python_set)
                        return ("ok", T.ArgumentSet(python_set, position,
                                                    isinstance(python_set, frozenset)))
            if isinstance(value, D.KDict) and dict_boundary is not None:
                for python_dict, kdict in dict_boundary.dicts:
                    if kdict is value:
                        position = next(k for k, a in enumerate(args) if a is python_dict)
                        return ("ok", D.ArgumentDict(python_dict, position))
            return ("ok", plain(value))
        except (S.OutsideDomain, S.OracleTimeout):
            raise
        except RecursionError:
            raise S.OutsideDomain("recursion")
        except L.BoundaryTypeError as error:
            return ("raise", "TypeError", str(error))     # an item of another type
        except AttributeError as error:
            if not str(error).startswith("'NoneType' object has no attribute"):
                raise S.OutsideDomain(f"invalid program: AttributeError: {error}")
            # `o.nxt.a` through a link that is None (class_constructs.py):
            # the program's own exception, which Kiln raises as CPython does
            return ("raise", "AttributeError", str(error))
        except (TypeError, NameError, UnboundLocalError, AttributeError) as error:
            # Not a program of the subset (a reducer candidate gone wrong).
            raise S.OutsideDomain(f"invalid program: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - the program's own exception
            return ("raise", type(error).__name__, str(error))
        finally:
            signal.signal(signal.SIGALRM, previous)


def plain(value):
    if isinstance(value, S.Num):
        return value.v
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, S.Array):
        return value.a.copy()
    if isinstance(value, L.KList):
        if L.is_object_kind(value.kind):
            return list(value.items)      # the instances (instances.canonical)
        return [L.plain_item(value.kind or "i64", n.v) for n in value.items]
    if isinstance(value, D.KDict):
        return D.plain(value)
    if isinstance(value, T.KSet):
        return T.plain(value)
    return value
