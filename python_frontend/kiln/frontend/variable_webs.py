"""A name rebound to a value of another type: one variable per web.

Part of the parse stage, after the loop rewrite (desugar.py) and before
type inference. Kiln types each variable once for the whole function, so

    y = x.astype(np.float64)       # kiln.f64[:, :]
    y = y @ w
    y = np.reshape(y, (y.size,))   # kiln.f64[:]: refused, "y is ... on one
                                   # path and ... on another"

was refused although nothing ever reads a `y` that could be either. Here
each local name is split into its *webs*: the assignments that reach a
common read belong to one web (reaching definitions over the function's
structured control flow, then the union of the definitions each read may
see), and a name with several webs becomes several variables:

    y = x.astype(np.float64)       y = x.astype(np.float64)
    y = y @ w                      y__kv1 = y @ w
    y = np.reshape(y, (y.size,))   y__kv2 = np.reshape(y__kv1, (y__kv1.size,))

so each assignment is typed on its own (Numba does the same since its SSA
reconstruction). Where control flow joins (after `if`/`else`, around a
loop's back edge) the assignments that meet stay one variable, and their
types must agree or join as before. `x += v` reads and writes one web.

Left whole (never split), as the analysis would have to model more of
Python to split them soundly: names annotated anywhere in the function
(the annotation declares the name's one type), a method's `self` or
`cls`, `*args`/`**kwargs`, names
that a lambda, nested function or class body reads or binds, `global`/`nonlocal`/`del` names, names bound by `import`,
`with ... as`, `except ... as`, `:=`, `match` patterns or a comprehension,
and names assigned inside a `try` statement. The names this pass makes end
in `__kv<n>`; errors.display_name maps them back in every message, and a function
whose own names already look so is left alone.
"""

from __future__ import annotations

import ast

from ..errors import VARIABLE_WEB_SUFFIX as WEB_SUFFIX


def split_variable_webs(tree: ast.Module) -> None:
    """Splits, in place, the names of the module's functions and of its
    classes' methods into one variable per web."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            _split_function(node)
        elif isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef):
                    # `self`/`cls` stay whole: the class model refuses a
                    # method that rebinds them (frontend/classes.py)
                    arguments = [*method.args.posonlyargs, *method.args.args]
                    _split_function(method, {arguments[0].arg} if arguments else set())


def _split_function(function: ast.FunctionDef, whole=frozenset()) -> None:
    if any(isinstance(n, ast.Name) and WEB_SUFFIX.search(n.id) for n in ast.walk(function)):
        return
    candidates = _candidate_names(function) - set(whole)
    if not candidates:
        return
    flow = _ReachingDefinitions(candidates)
    entry = {}
    arguments = function.args
    for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        if arg.arg in candidates:
            entry[arg.arg] = frozenset([arg])
            flow.definitions.append(arg)
    flow.block(function.body, entry)

    # The definitions one read may see are one variable; `x += v`'s target
    # is among its own (reads and definitions: _ReachingDefinitions).
    webs = _UnionFind()
    for definition in flow.definitions:
        webs.add(definition)
    for reaching in flow.reads.values():
        first = next(iter(reaching), None)
        for definition in reaching:
            webs.union(first, definition)
    _rename(function, flow, webs)


def _defined_name(definition) -> str:
    return definition.arg if isinstance(definition, ast.arg) else definition.id


def _position(definition) -> tuple:
    return (getattr(definition, "lineno", 0), getattr(definition, "col_offset", 0))


def _rename(function, flow, webs) -> None:
    by_name = {}
    for definition in flow.definitions:
        by_name.setdefault(_defined_name(definition), {}).setdefault(
            webs.find(definition), []).append(definition)
    new_names = {}
    for name, groups in by_name.items():
        if len(groups) < 2:
            continue
        # The parameter's web keeps the name (its value is the caller's
        # argument); otherwise the web assigned first in the source does.
        ordered = sorted(groups.values(), key=lambda defs: (
            not any(isinstance(d, ast.arg) for d in defs), min(_position(d) for d in defs)))
        for number, definitions in enumerate(ordered[1:], start=1):
            for definition in definitions:
                new_names[id(definition)] = f"{name}__kv{number}"
    # Where each web's assignments meet (the first read that more than one
    # of them may reach): a message about two that disagree names it.
    meets = {}
    for read, reaching in flow.reads.items():
        if len({d for d in reaching if d is not read}) < 2:
            continue
        name = new_names.get(id(next(iter(reaching))), _defined_name(next(iter(reaching))))
        meets[name] = min(meets.get(name, read.lineno), read.lineno)
    function.kiln_web_meets = meets
    if not new_names:
        return
    for definition in flow.definitions:
        if id(definition) in new_names:     # never a parameter's: see above
            definition.id = new_names[id(definition)]
    for read, reaching in flow.reads.items():
        renamed = new_names.get(id(next(iter(reaching), None)))
        if renamed is not None:
            read.id = renamed


class _UnionFind:
    def __init__(self):
        self.parent = {}

    def add(self, item):
        self.parent.setdefault(item, item)

    def find(self, item):
        root = item
        while self.parent[root] is not root:
            root = self.parent[root]
        while self.parent[item] is not root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a, b):
        self.add(a)
        self.add(b)
        ra, rb = self.find(a), self.find(b)
        if ra is not rb:
            self.parent[rb] = ra


_NESTED_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _candidate_names(function: ast.FunctionDef) -> set:
    """The local names whose every binding and read the analysis models."""
    stored, excluded = set(), set()
    for statement in function.body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stored.add(node.id)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Del):
                excluded.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                excluded.add(node.target.id)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                excluded |= set(node.names)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                excluded |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        excluded |= _names_in(item.optional_vars)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                excluded.add(node.name)
            elif isinstance(node, ast.NamedExpr):
                excluded |= _names_in(node.target)
            elif isinstance(node, (ast.Try, ast.Match)) or \
                    type(node).__name__ == "TryStar":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                        excluded.add(inner.id)
                    elif isinstance(inner, (ast.MatchAs, ast.MatchStar)) and inner.name:
                        excluded.add(inner.name)
                    elif isinstance(inner, ast.MatchMapping) and inner.rest:
                        excluded.add(inner.rest)
            elif isinstance(node, _NESTED_SCOPES):
                # read (or bound) where a later call may see any binding
                excluded |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    excluded.add(node.name)
            elif isinstance(node, _COMPREHENSIONS):
                for generator in node.generators:
                    excluded |= _names_in(generator.target)
    arguments = function.args
    excluded |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    return {name for name in stored - excluded if "$" not in name}


def _names_in(target) -> set:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


class _ReachingDefinitions:
    """Reaching definitions of the candidate names over one function body.

    A state maps a name to the frozenset of its definitions (ast.Name Store
    nodes, or the parameter's ast.arg) that may hold its value; None is
    unreachable code. `reads` collects, for each read of a candidate, every
    definition that may reach it (loops are visited until nothing grows)."""

    def __init__(self, candidates):
        self.candidates = candidates
        self.definitions = []    # in the order first seen
        self._definition_set = set()
        self.reads = {}          # read node -> set of definitions
        self.loops = []          # per enclosing loop: [break states, continue states]

    # -- states ---------------------------------------------------------------
    @staticmethod
    def join(*states):
        live = [s for s in states if s is not None]
        if not live:
            return None
        joined = dict(live[0])
        for state in live[1:]:
            for name, definitions in state.items():
                joined[name] = joined.get(name, frozenset()) | definitions
        return joined

    def define(self, state, node):
        if node not in self._definition_set:
            self._definition_set.add(node)
            self.definitions.append(node)
        state[node.id] = frozenset([node])

    def read(self, state, node):
        self.reads.setdefault(node, set()).update(state.get(node.id, ()))

    # -- expressions -------------------------------------------------------
    def expression(self, node, state):
        """Every read of a candidate in `node`, against `state`."""
        if node is None or state is None:
            return
        pending = [node]
        while pending:
            current = pending.pop()
            if isinstance(current, ast.Name):
                if current.id in self.candidates and isinstance(current.ctx, ast.Load):
                    self.read(state, current)
                continue
            if isinstance(current, _NESTED_SCOPES):
                continue
            pending.extend(ast.iter_child_nodes(current))

    def assign_target(self, target, state):
        """Python binds the targets left to right; a subscript or attribute
        target reads its parts then."""
        if isinstance(target, ast.Name):
            if target.id in self.candidates:
                self.define(state, target)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.assign_target(element, state)
        elif isinstance(target, ast.Starred):
            self.assign_target(target.value, state)
        else:
            self.expression(target, state)

    # -- statements --------------------------------------------------------
    def block(self, statements, state):
        for statement in statements:
            if state is None:
                # unreachable: its reads see nothing, and it changes nothing
                return None
            state = self.statement(statement, state)
        return state

    def statement(self, node, state):
        state = dict(state)
        if isinstance(node, ast.Assign):
            self.expression(node.value, state)
            for target in node.targets:
                self.assign_target(target, state)
            return state
        if isinstance(node, ast.AugAssign):
            self.expression(node.value, state)
            if isinstance(node.target, ast.Name) and node.target.id in self.candidates:
                # one node both reads and writes: the two are one web
                self.read(state, node.target)
                self.define(state, node.target)
                self.reads[node.target].add(node.target)
            else:
                self.expression(node.target, state)
            return state
        if isinstance(node, ast.AnnAssign):
            self.expression(node.value, state)
            self.expression(node.target, state)
            return state
        if isinstance(node, ast.If):
            self.expression(node.test, state)
            return self.join(self.block(node.body, state), self.block(node.orelse, state))
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.expression(node.iter, state)
            return self.loop(node, state, lambda head: self.bind_loop_target(node, head))
        if isinstance(node, ast.While):
            return self.loop(node, state, lambda head: (self.expression(node.test, head), head)[1])
        if isinstance(node, (ast.Return, ast.Raise)):
            for child in ast.iter_child_nodes(node):
                self.expression(child, state)
            return None
        if isinstance(node, ast.Break):
            self.loops[-1][0].append(state)
            return None
        if isinstance(node, ast.Continue):
            self.loops[-1][1].append(state)
            return None
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self.expression(item.context_expr, state)
            return self.block(node.body, state)
        if isinstance(node, (ast.Try, ast.Match)) or type(node).__name__ == "TryStar":
            return self.without_candidate_definitions(node, state)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return state
        # Expr, Assert, Pass, Delete, Global, Import, ...: reads only
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expression(child, state)
        return state

    def bind_loop_target(self, node, head):
        head = dict(head)
        self.assign_target(node.target, head)
        return head

    def loop(self, node, state, enter):
        """`for`/`while`: the head is reached from before the loop, from the
        end of the body and from each `continue`; the loop leaves from the
        head (then `else`) and from each `break`."""
        head = state
        while True:
            self.loops.append([[], []])
            end = self.block(node.body, enter(head))
            breaks, continues = self.loops.pop()
            grown = self.join(state, end, *continues)
            if grown == head:
                break
            head = grown
        after_else = self.block(node.orelse, head if isinstance(node, ast.For) else
                                self.while_exit(node, head))
        return self.join(after_else, *breaks)

    def while_exit(self, node, head):
        self.expression(node.test, head)
        return head

    def without_candidate_definitions(self, node, state):
        """`try` and `match`: no candidate is bound inside (_candidate_names),
        so each part starts from the state before the statement; reads are
        recorded and `break`/`continue`/`return` handled as elsewhere."""
        ends = [state]
        if isinstance(node, ast.Match):
            self.expression(node.subject, state)
            for case in node.cases:
                self.expression(case.guard, state)
                ends.append(self.block(case.body, state))
            return self.join(*ends)
        for handler in node.handlers:
            self.expression(handler.type, state)
        for part in (node.body, node.orelse, *[handler.body for handler in node.handlers]):
            ends.append(self.block(part, state))
        if node.finalbody and self.block(node.finalbody, state) is None:
            # a `finally` that ends in return/raise ends every path
            return None
        return self.join(*ends)
