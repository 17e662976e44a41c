"""Functions as values: a helper called with a function is compiled once
per function it is passed, as Numba specializes a first-class function
argument.

Part of the parse stage, after the module's imports are read (a passed
`np.sqrt` or `math.exp` is resolved through them) and before the subset
check and type inference, which then see only direct calls:

    def apply(f, x):                       def apply__kf_square(x):
        return f(x) * 2.0                      return square(x) * 2.0

    apply(square, v)                       apply__kf_square(v)

What may be passed: a module function (`square`), a function of `math`,
`cmath` or numpy (`np.sqrt`), a builtin (`abs`), a lambda written in the
call, or a name bound to a lambda (`f = lambda v: v + 1`). A lambda that
reads the caller's variables gets them as extra parameters of the copy,
passed by the call (their values when the helper runs, as Python's
closures see them). A parameter whose default is a function (`mode=wrap`)
and a call leaving it out are the same as passing it. The copy passes its
function on to the helpers it calls the same way, so `f` may travel
through several helpers; recursion reuses the copy made for the same
functions.

An exported function's own parameter with a function default is compiled
with the default in place (`kiln_function_parameters` marks it); its
wrapper runs the Python function when a call passes another
(native/wrapper.py).

The copies' names end in `__kf_<functions>`; errors.display_name shows the
helper's name instead.
"""

from __future__ import annotations

import ast
import builtins
import copy
import hashlib
import re

from .. import library_functions as lib
from ..errors import CAPTURED_SUFFIX, FUNCTION_ARGUMENT_SUFFIX, TUPLE_ELEMENT_SUFFIX

# More copies of one helper than this is a runaway: a helper passing a new
# lambda to itself.
MAX_COPIES = 64
# The builtins a function may be passed as (those Kiln compiles a call to).
# Not float, int, bool or complex: passed, those are dtypes
# (`np.zeros(n, dtype=dt)`), which typing specializes a helper for.
PASSABLE_BUILTINS = frozenset({"abs", "min", "max", "len", "round", "sum"})


def is_library_function(qualified) -> bool:
    """A function of math, cmath or numpy Kiln compiles a call to, other
    than numpy's dtypes (`np.int32` passed is a dtype, not a function)."""
    module, name = qualified
    if module == "math":
        return name in lib.MATH_FUNCTIONS
    if module == "cmath":
        return name in lib.CMATH_FUNCTIONS
    function = lib.numpy_function(name)
    return function is not None and function.family is not lib.CAST


class Refused(Exception):
    """A call (or an exported function) this rewrite cannot make direct:
    left as written, with the reason (`kiln_refused_call`,
    `kiln_refused_definition`) for type inference and the subset check to
    report at it."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class FunctionReference:
    """A function passed as a value: `expression` is what replaces the
    parameter's reads in the copy (a name or `np.sqrt`), or, for a lambda,
    the statements binding it in the copy (`f = lambda ...`) and the
    caller's variables it reads."""

    def __init__(self, tag: str, expression=None, lambdas=(), captured=()):
        self.tag = tag
        self.expression = expression
        self.lambdas = list(lambdas)        # [(name, Lambda)] in dependency order
        self.captured = list(captured)      # caller's variables the lambdas read


def specialize_function_arguments(context) -> None:
    """Rewrites, in place, every call of a module function that passes it
    a function, and every exported function with a function default."""
    tree = context.tree
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    callers = list(functions.values()) + [m for node in tree.body if isinstance(node, ast.ClassDef)
                                          for m in node.body if isinstance(m, ast.FunctionDef)]
    specializer = _Specializer(context, functions)
    for function in callers:
        if context.is_exported(function):
            python_parameters = python_signature(function)
            try:
                specializer.fix_exported_defaults(function)
                split_tuple_parameters(function)
            except Refused as refused:
                function.kiln_refused_definition = refused.message
            if getattr(function, "kiln_function_parameters", None) or \
                    getattr(function, "kiln_tuple_parameters", None):
                function.kiln_python_parameters = python_parameters
    pending = list(callers)
    while pending:
        pending.extend(specializer.rewrite_calls(pending.pop()))


def python_signature(function: ast.FunctionDef) -> tuple:
    """(parameter names, how many have no default) of the function as
    Python calls it, before the rewrites here change its parameters."""
    arguments = function.args
    return (tuple(a.arg for a in arguments.args),
            len(arguments.args) - len(arguments.defaults))


def is_number_literal(node) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, bool)


def tuple_annotation_elements(annotation):
    """The element annotations of `tuple[int, float]`, else None."""
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and \
            annotation.value.id in ("tuple", "Tuple"):
        elements = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else \
            [annotation.slice]
        if elements and not any(isinstance(e, ast.Constant) and e.value is Ellipsis
                                for e in elements):
            return elements
    return None


def split_tuple_parameters(function: ast.FunctionDef) -> None:
    """An exported function's tuple parameter (`mask=(1, 0, 1)` without an
    annotation, or `t: tuple[int, float]`) becomes one parameter per
    element (`mask__t0`, ...; their defaults the tuple's elements), and the
    body starts with `mask = (mask__t0, mask__t1, mask__t2)`. The wrapper
    takes the tuple from Python (`kiln_tuple_parameters`: name -> the
    elements' parameters) and the C ABI takes the numbers."""
    arguments = function.args
    if arguments.posonlyargs or arguments.vararg or arguments.kwarg or arguments.kwonlyargs:
        return
    parameters = arguments.args
    first_default = len(parameters) - len(arguments.defaults)
    defaults = [None] * first_default + list(arguments.defaults)
    split = {}
    new_parameters, new_defaults, prologue = [], [], []
    for parameter, default in zip(parameters, defaults):
        elements = tuple_annotation_elements(parameter.annotation)
        literal = isinstance(default, ast.Tuple) and default.elts and \
            all(is_number_literal(e) for e in default.elts)
        if elements is None and not (parameter.annotation is None and literal):
            new_parameters.append(parameter)
            if default is not None:
                new_defaults.append(default)
            continue
        count = len(elements) if elements is not None else len(default.elts)
        if default is not None and not (literal and len(default.elts) == count):
            raise Refused(f"parameter `{parameter.arg}` of `{function.name}` is a tuple of "
                          f"{count} numbers: its default must be one written out "
                          "(`(1, 0, 1)`)")
        names = [f"{parameter.arg}{TUPLE_ELEMENT_SUFFIX}{k}" for k in range(count)]
        split[parameter.arg] = names
        for k, element_name in enumerate(names):
            new_parameters.append(ast.copy_location(ast.arg(
                element_name, copy.deepcopy(elements[k]) if elements is not None else None),
                parameter))
            if default is not None:
                new_defaults.append(copy.deepcopy(default.elts[k]))
        gathered = ast.Tuple(elts=[ast.Name(n, ast.Load()) for n in names], ctx=ast.Load())
        statement = ast.Assign(targets=[ast.Name(parameter.arg, ast.Store())], value=gathered)
        prologue.append(statement)
        for node in ast.walk(statement):
            ast.copy_location(node, parameter)
    if not split:
        return
    arguments.args = new_parameters
    arguments.defaults = new_defaults
    function.body = prologue + function.body
    function.kiln_tuple_parameters = split


def local_names(function: ast.FunctionDef) -> set:
    """Every name the function binds: parameters and assignment targets."""
    arguments = function.args
    names = {a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}
    names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node is not function:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def bound_lambdas(function: ast.FunctionDef) -> dict:
    """name -> Lambda of the function's `name = lambda ...` statements,
    for names assigned nowhere else."""
    assigned = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            assigned[node.id] = assigned.get(node.id, 0) + 1
    found = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Lambda) \
                and assigned.get(node.targets[0].id) == 1:
            found[node.targets[0].id] = node.value
    return found


def read_names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and
            isinstance(n.ctx, ast.Load)}


def _tag_text(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


class _Specializer:
    def __init__(self, context, functions: dict):
        self.context = context
        self.functions = functions          # the module's functions, copies included
        self.copies: dict = {}              # (helper, ((param, tag), ...)) -> copy's name

    # ------------------------------------------------------- references
    def reference(self, node, caller_locals: set, lambdas: dict):
        """The FunctionReference `node` denotes in a caller with these
        locals and lambda-bound names, or None when it is not a function."""
        if isinstance(node, ast.Lambda):
            return self.lambda_reference(node, caller_locals, lambdas, None)
        if isinstance(node, ast.Name):
            if node.id in lambdas:
                return self.lambda_reference(lambdas[node.id], caller_locals, lambdas, node.id)
            if node.id in caller_locals:
                return None
            if node.id in self.functions:
                return FunctionReference(node.id, ast.Name(node.id, ast.Load()))
            if node.id in PASSABLE_BUILTINS and node.id in dir(builtins):
                return FunctionReference(node.id, ast.Name(node.id, ast.Load()))
            qualified = self.context.qualified_name(node)   # `from math import exp`
        elif isinstance(node, ast.Attribute):
            root = node
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name) or root.id in caller_locals:
                return None
            qualified = self.context.qualified_name(node)
        else:
            return None
        if qualified is None or qualified[0] not in ("numpy", "math", "cmath") or \
                not is_library_function(qualified):
            return None
        return FunctionReference(_tag_text(".".join(qualified)), copy.deepcopy(node))

    def lambda_reference(self, node: ast.Lambda, caller_locals: set, lambdas: dict, name):
        """A lambda, with the lambdas it calls by name and the caller's
        variables they read."""
        order, captured, seen = [], [], set()

        def visit(lambda_name, lambda_node):
            if lambda_name in seen:
                return
            seen.add(lambda_name)
            parameters = {a.arg for a in lambda_node.args.args}
            for read in sorted(read_names(lambda_node.body) - parameters):
                if read in lambdas:
                    visit(read, lambdas[read])
                elif read in caller_locals and read not in captured:
                    captured.append(read)
            order.append((lambda_name, lambda_node))

        visit(name, node)
        digest = hashlib.sha1("".join(ast.dump(n) for _, n in order).encode() +
                              repr(captured).encode()).hexdigest()[:6]
        return FunctionReference(f"lambda{node.lineno}_{digest}", lambdas=order,
                                 captured=captured)

    # ------------------------------------------------------------ calls
    def rewrite_calls(self, caller: ast.FunctionDef) -> list:
        """Points each call of `caller` passing functions at the helper's
        copy for them; returns the copies made (their calls come next)."""
        self.inline_aliases(caller)
        caller_locals = local_names(caller)
        lambdas = bound_lambdas(caller)
        made = []
        for call in [n for n in ast.walk(caller) if isinstance(n, ast.Call)]:
            if not isinstance(call.func, ast.Name) or call.func.id in caller_locals or \
                    call.func.id not in self.functions:
                continue
            helper = self.functions[call.func.id]
            fixed = self.passed_functions(helper, call, caller_locals, lambdas)
            if not fixed:
                continue
            try:
                name, new = self.copy_for(helper, fixed, call)
            except Refused as refused:
                call.kiln_refused_call = refused.message
                continue
            if new is not None:
                made.append(new)
            self.point_call(call, helper, name, fixed)
        return made

    def inline_aliases(self, function: ast.FunctionDef) -> None:
        """`g = wrap` (or `g = np.exp`) among the function's top-level
        statements, `g` bound nowhere else: every read of `g` is the
        function itself, and the statement goes (a function is no value
        Kiln keeps in a variable). A choice made at run time (`g = wrap if
        c else clamp`) stays, and is refused where it is typed."""
        assigned = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                assigned[node.id] = assigned.get(node.id, 0) + 1
        parameters = {a.arg for a in function.args.args}
        for position, statement in enumerate(function.body):
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and
                    isinstance(statement.targets[0], ast.Name)):
                continue
            name = statement.targets[0].id
            if assigned.get(name) != 1 or name in parameters:
                continue
            found = self.reference(statement.value, local_names(function) - {name}, {})
            if found is None or found.expression is None:
                continue
            function.body[position] = ast.copy_location(ast.Pass(), statement)
            _replace_reads(function, name, found.expression)

    def passed_functions(self, helper, call, caller_locals, lambdas) -> dict:
        """parameter name -> FunctionReference, for the helper's
        parameters this call passes a function (or leaves to a function
        default)."""
        arguments = helper.args
        if arguments.vararg or arguments.kwarg or arguments.posonlyargs or \
                any(isinstance(a, ast.Starred) for a in call.args) or \
                any(k.arg is None for k in call.keywords):
            return {}
        parameters = arguments.args
        passed = dict(zip((p.arg for p in parameters), call.args))
        passed.update({k.arg: k.value for k in call.keywords})
        defaults = dict(zip((p.arg for p in parameters[len(parameters) -
                                                        len(arguments.defaults):]),
                            arguments.defaults))
        fixed = {}
        for parameter in parameters:
            if parameter.arg in passed:
                found = self.reference(passed[parameter.arg], caller_locals, lambdas)
            elif parameter.arg in defaults:
                # The default is read in the helper's module, not the caller.
                found = self.reference(defaults[parameter.arg], set(), {})
            else:
                found = None
            if found is not None:
                fixed[parameter.arg] = found
        return fixed

    def copy_for(self, helper, fixed: dict, call) -> tuple:
        """The name of the helper's copy for these functions, and the copy
        when this call made it."""
        key = (helper.name, tuple((p, r.tag, tuple(r.captured)) for p, r in fixed.items()))
        if key in self.copies:
            return self.copies[key], None
        if sum(1 for made in self.copies if made[0] == helper.name) >= MAX_COPIES:
            raise Refused(f"more than {MAX_COPIES} copies of `{helper.name}` for the functions "
                          "passed to it (does it pass a new lambda to itself?)")
        tags = "__".join(r.tag for r in fixed.values())
        name = f"{helper.name}{FUNCTION_ARGUMENT_SUFFIX}{tags}"
        while name in self.functions:
            name += "_"
        special = copy.deepcopy(helper)
        special.name = name
        special.decorator_list = []         # a helper of the module, whatever the original
        self.substitute(special, fixed, call)
        self.functions[name] = special
        self.copies[key] = name
        tree = self.context.tree
        tree.body.insert(tree.body.index(helper) + 1 if helper in tree.body else
                         len(tree.body), special)
        return name, special

    def substitute(self, special: ast.FunctionDef, fixed: dict, call) -> None:
        """The copy's parameters for the fixed functions removed, their
        reads replaced (a lambda bound to the parameter's name instead),
        and the lambdas' captured variables added as parameters."""
        arguments = special.args
        parameters = arguments.args
        first_default = len(parameters) - len(arguments.defaults)
        kept, defaults = [], []
        for index, parameter in enumerate(parameters):
            if parameter.arg in fixed:
                continue
            kept.append(parameter)
            if index >= first_default:
                defaults.append(arguments.defaults[index - first_default])
        taken = local_names(special)
        helper_name = special.name.split(FUNCTION_ARGUMENT_SUFFIX)[0]
        prologue = []
        captures = []
        for parameter_name, found in fixed.items():
            if any(isinstance(n, ast.Name) and n.id == parameter_name and
                   not isinstance(n.ctx, ast.Load) for n in ast.walk(special)):
                raise Refused(f"`{helper_name}` assigns to its parameter `{parameter_name}`, "
                              "which is passed a function here")
            if found.expression is not None:
                _replace_reads(special, parameter_name, found.expression)
                continue
            for captured in found.captured:
                if captured not in captures:
                    captures.append(captured)
            renamed = {c: captured_name(c) for c in found.captured}
            root = len(found.lambdas) - 1       # the lambda passed; it may call the others
            for position, (lambda_name, lambda_node) in enumerate(found.lambdas):
                target = parameter_name if position == root else lambda_name
                if position != root and lambda_name in taken:
                    raise Refused(f"the lambda `{lambda_name}` passed here shares its name "
                                  f"with a variable of `{helper_name}`; rename one of them")
                statement = ast.Assign(targets=[ast.Name(target, ast.Store())],
                                       value=_renamed(lambda_node, renamed))
                prologue.append(ast.copy_location(statement, lambda_node))
        # The captured variables come first: calls pass them by keyword
        # (point_call), and Python wants parameters without defaults before
        # those with.
        arguments.args = [ast.copy_location(ast.arg(captured_name(c), None), call)
                          for c in captures] + kept
        arguments.defaults = defaults
        special.body = ast.fix_missing_locations(ast.Module(prologue, [])).body + special.body \
            if prologue else special.body
        special.kiln_function_copy_of = special.name.split(FUNCTION_ARGUMENT_SUFFIX)[0]

    def point_call(self, call, helper, name: str, fixed: dict) -> None:
        """The call, calling the copy: the functions' arguments dropped,
        the captured variables passed by keyword."""
        parameters = [p.arg for p in helper.args.args]
        captured = []
        for found in fixed.values():
            captured += [c for c in found.captured if c not in captured]
        if captured:
            # The copy's parameters start with the captured variables: the
            # call's other arguments go by name.
            call.keywords = [ast.copy_location(ast.keyword(p, a), a)
                             for p, a in zip(parameters, call.args)] + call.keywords
            call.args = []
        call.args = [a for p, a in zip(parameters, call.args) if p not in fixed]
        call.keywords = [k for k in call.keywords if k.arg not in fixed]
        call.keywords += [ast.copy_location(ast.keyword(captured_name(c), ast.copy_location(
            ast.Name(c, ast.Load()), call)), call) for c in captured]
        call.func = ast.copy_location(ast.Name(name, ast.Load()), call.func)

    # ------------------------------------------------- exported defaults
    def fix_exported_defaults(self, function: ast.FunctionDef) -> None:
        """An exported function's parameters with a function default: the
        default compiled in; the wrapper checks that a call passes no other
        (`kiln_function_parameters`: position, name)."""
        arguments = function.args
        if arguments.posonlyargs or arguments.vararg or arguments.kwarg:
            return
        parameters = arguments.args
        first_default = len(parameters) - len(arguments.defaults)
        fixed = {}
        for index in range(first_default, len(parameters)):
            found = self.reference(arguments.defaults[index - first_default], set(), {})
            if found is not None and found.expression is not None:
                fixed[parameters[index].arg] = (index, found)
        if not fixed:
            return
        for name in fixed:
            if any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                   for n in ast.walk(function)):
                raise Refused(f"`{function.name}` assigns to its parameter `{name}`, whose "
                              "default is a function")
        function.kiln_function_parameters = [(index, name, len(parameters),
                                              len(arguments.defaults))
                                             for name, (index, _) in fixed.items()]
        for name, (_, found) in fixed.items():
            _replace_reads(function, name, found.expression)
        kept = [(p, d) for p, d in zip(parameters, [None] * first_default +
                                       list(arguments.defaults)) if p.arg not in fixed]
        arguments.args = [p for p, _ in kept]
        arguments.defaults = [d for _, d in kept if d is not None]


def captured_name(name: str) -> str:
    """The parameter of a helper's copy holding a caller's variable a
    lambda reads (never one of the helper's own names). A copy passing
    its lambda on keeps the name, so recursion finds the same copy."""
    return name if name.endswith(CAPTURED_SUFFIX) else name + CAPTURED_SUFFIX


def substituted(node, values: dict):
    """A copy of expression `node` with each read of a name in `values`
    replaced by (a copy of) its expression (the tuples typing unrolls use
    it too: typecheck/generator_typing.py)."""
    class Substitute(ast.NodeTransformer):
        def visit_Name(self, name):
            if name.id in values and isinstance(name.ctx, ast.Load):
                return ast.copy_location(copy.deepcopy(values[name.id]), name)
            return name

    return Substitute().visit(copy.deepcopy(node))


def _renamed(node, names: dict):
    """A copy of `node` with the names read in `names` renamed."""
    return substituted(node, {old: ast.Name(new, ast.Load()) for old, new in names.items()})


def _replace_reads(function: ast.FunctionDef, name: str, expression) -> None:
    """Every read of `name` in the function's body, `expression` instead."""
    class Replace(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id == name and isinstance(node.ctx, ast.Load):
                return ast.copy_location(copy.deepcopy(expression), node)
            return node

        def visit_Lambda(self, node):
            if name in {a.arg for a in node.args.args}:
                return node             # the lambda's own parameter
            self.generic_visit(node)
            return node

    replace = Replace()
    function.body = [replace.visit(statement) for statement in function.body]
    for node in ast.walk(ast.Module(function.body, [])):
        for child in ast.iter_child_nodes(node):
            if not hasattr(child, "lineno") and hasattr(node, "lineno") and \
                    "lineno" in getattr(child, "_attributes", ()):
                ast.copy_location(child, node)
