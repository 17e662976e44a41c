"""Loops over arrays, rewritten as the counted loops Kiln compiles.

Part of the parse stage: after the module is parsed, every `for` loop whose
iterable is not `range(...)` becomes a `range` loop over an index, so the
later stages (subset check, type inference, code generation, kiln-vectorize)
see only one kind of `for` loop:

    for v in a:                     it = a
        body                        for k in range(len(it)):
                                        v = it[k]
                                        body

    for i, v in enumerate(a):       it = a
        body                        for i in range(len(it)):
                                        v = it[i]
                                        body

    for u, v in zip(a, b):          it1 = a; it2 = b
        body                        for k in range(min(len(it1), len(it2))):
                                        u = it1[k]; v = it2[k]
                                        body

This is Python's meaning for numpy arrays: the iterable is evaluated once,
before the loop (the body may rebind its name; the loop goes on over the
object it started with); a row of a 2-D array is a view (`row[:] = 0`
writes into the array); `enumerate(a, start)` counts from `start`; `zip`
stops with its shortest argument; after the loop the targets keep the last
values. Anything else `len()` or indexing does not accept (a tuple indexed
by a loop counter, a string) is then reported by type inference at the
loop's iterable.

The names this rewrite introduces contain `$`, which no Python source can
spell, so they never collide with the user's; diagnostics never show them
(they are only ever assigned from the user's expressions, which carry the
user's locations).
"""

from __future__ import annotations

import ast
import itertools

from ..errors import with_article


def desugar_loops(tree: ast.Module) -> None:
    """Rewrites, in place, the array loops of the module's functions and of
    its classes' methods (each compiled as a function: classes.py)."""
    for node in tree.body:
        functions = [node] if isinstance(node, ast.FunctionDef) else \
            [m for m in node.body if isinstance(m, ast.FunctionDef)] \
            if isinstance(node, ast.ClassDef) else []
        for function in functions:
            _LoopRewriter(itertools.count(1)).block(function.body)


def mark_conditions(tree: ast.Module) -> None:
    """Marks (`kiln_condition`) each `and`/`or` whose value Python only
    tests: the test of `if`, `while`, `assert`, a conditional expression or
    a comprehension's `if`, and the operand of `not`, through nested
    `and`/`or`/`not`. There an operand may be a list: only its truth is
    used (`while stack and stack[-1] < x:`), where as a value the
    expression could be the list itself."""
    def mark(test):
        pending = [test]                # no recursion: `not not ... x` may be deep
        while pending:
            node = pending.pop()
            if isinstance(node, ast.BoolOp):
                node.kiln_condition = True
                pending.extend(node.values)
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                pending.append(node.operand)

    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            mark(node.test)
        elif isinstance(node, ast.comprehension):
            for condition in node.ifs:
                mark(condition)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            mark(node.operand)


def is_condition(node) -> bool:
    """Whether `and`/`or` node `node` is only tested (mark_conditions)."""
    return getattr(node, "kiln_condition", False)


ITERABLE_ROLE = "iterable"


def is_loop_iterable(target) -> bool:
    """Whether `target` is a name this rewrite binds to a loop's iterable."""
    return isinstance(target, ast.Name) and target.id.startswith(f"for${ITERABLE_ROLE}")


def unsupported_iteration(what: str) -> str:
    """The message for a `for` loop over a `what` ("tuple", "int", ...)."""
    return f"`for` over {with_article(what)} is not supported; Kiln's `for` loops go over " \
           "range(...), arrays, lists, dicts, sets, strings, and enumerate() or zip() of them"


def literal_iterable(value) -> str | None:
    """What a loop iterates over when its iterable is a literal (a tuple,
    a generator, a number, ...) refused by the subset check, or None. A
    list, dict or set literal or comprehension is a list, dict or set like
    any other, and a string literal a str (typing's)."""
    names = {ast.Tuple: "tuple", ast.GeneratorExp: "generator"}
    if type(value) in names:
        return names[type(value)]
    if isinstance(value, ast.Constant) and not isinstance(value.value, str):
        return type(value.value).__name__       # a str is iterated (typing's)
    return None


def is_range_loop(loop: ast.For) -> bool:
    iterable = loop.iter
    return isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and \
        iterable.func.id == "range" or is_prange_call(iterable)


def is_prange_call(iterable) -> bool:
    """`kiln.prange(...)` or an imported `prange(...)`: a counted loop like
    range's, which source.mark_parallel_loops resolves once imports are
    known."""
    return isinstance(iterable, ast.Call) and (
        isinstance(iterable.func, ast.Name) and iterable.func.id == "prange" or
        isinstance(iterable.func, ast.Attribute) and iterable.func.attr == "prange")


def zipped_call(node, local_names=(), functions=()) -> bool:
    """`zip(a, b, ...)` or `enumerate(a[, start])` as a comprehension's
    iterable (not a local or module function of that name)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id in ("zip", "enumerate") and not node.keywords and bool(node.args) and \
        node.func.id not in local_names and node.func.id not in functions and \
        not any(isinstance(a, ast.Starred) for a in node.args)


def _builtin_call(node, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id == name and not node.keywords


# The fields of compound statements that hold statement lists.
_BLOCKS = ("body", "orelse", "finalbody")


class _LoopRewriter:
    """Walks statements only (expressions can nest deeper than Python's
    recursion limit allows a visitor; statements cannot, CPython limits
    their nesting)."""

    def __init__(self, numbers):
        self.numbers = numbers

    def block(self, statements: list) -> None:
        """Rewrites a statement list in place, nested blocks first."""
        position = 0
        while position < len(statements):
            statement = statements[position]
            for field in _BLOCKS:
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    self.block(inner)
            for handler in getattr(statement, "handlers", ()):
                self.block(handler.body)
            for case in getattr(statement, "cases", ()):
                self.block(case.body)
            replacement = [statement]
            if isinstance(statement, ast.For) and not is_range_loop(statement):
                replacement = self.ndindex_loop(statement) or self.enumerate_loop(statement) \
                    or self.zip_loop(statement) or self.plain_loop(statement)
            statements[position:position + 1] = replacement
            position += len(replacement)

    # ------------------------------------------------------------ helpers
    def hidden(self, role: str) -> str:
        return f"for${role}{next(self.numbers)}"

    @staticmethod
    def located(node, where):
        ast.copy_location(node, where)
        for child in ast.walk(node):
            if not hasattr(child, "lineno") and "lineno" in child._attributes:
                ast.copy_location(child, where)
        return node

    def bind(self, name: str, value, where) -> ast.Assign:
        return self.located(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                                       value=value), where)

    def load(self, name: str, where) -> ast.Name:
        return self.located(ast.Name(id=name, ctx=ast.Load()), where)

    def length(self, name: str, where) -> ast.Call:
        return self.located(ast.Call(func=ast.Name(id="len", ctx=ast.Load()),
                                     args=[self.load(name, where)], keywords=[]), where)

    def element(self, target, iterable: str, index, where) -> ast.Assign:
        """`target = iterable[index]` at the target's location."""
        subscript = self.located(ast.Subscript(value=self.load(iterable, where), slice=index,
                                               ctx=ast.Load()), where)
        return self.located(ast.Assign(targets=[target], value=subscript), target)

    def counted(self, loop, counter: str, length, prologue, bindings):
        """[prologue..., for counter in range(length): bindings...; body]."""
        head = self.located(ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=[length],
                                     keywords=[]), loop.iter)
        rewritten = ast.For(target=self.located(ast.Name(id=counter, ctx=ast.Store()),
                                                loop.target),
                            iter=head, body=bindings + loop.body, orelse=loop.orelse,
                            type_comment=None)
        ast.copy_location(rewritten, loop)
        rewritten.end_lineno, rewritten.end_col_offset = loop.end_lineno, loop.end_col_offset
        return prologue + [rewritten]

    # ------------------------------------------------------------- shapes
    def ndindex_loop(self, loop):
        """`for pos in np.ndindex(shape)` (or `np.ndindex(n, m)`): a
        counted loop over the positions, each unravelled from its number
        in C order (numpy's order):

            shape$ = shape
            for k$ in range(np.ndindex(shape$)):        # the size, marked
                pos = np.unravel_index(k$, shape$)

        Whether `np` is numpy is type inference's to check (the call keeps
        the user's spelling)."""
        call = loop.iter
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and
                call.func.attr == "ndindex" and isinstance(call.func.value, ast.Name) and
                not call.keywords and call.args and
                not any(isinstance(a, ast.Starred) for a in call.args)):
            return None
        shape = self.hidden("shape")
        counter = self.hidden("index")
        value = call.args[0] if len(call.args) == 1 else self.located(
            ast.Tuple(elts=list(call.args), ctx=ast.Load()), call)
        size = self.located(ast.Call(func=call.func, args=[self.load(shape, call)],
                                     keywords=[]), call)
        size.kiln_ndindex_size = True
        position = self.located(ast.Call(
            func=ast.Attribute(value=ast.Name(id=call.func.value.id, ctx=ast.Load()),
                               attr="unravel_index", ctx=ast.Load()),
            args=[self.load(counter, loop.target), self.load(shape, call)], keywords=[]),
            loop.target)
        bindings = [self.located(ast.Assign(targets=[loop.target], value=position),
                                 loop.target)]
        return self.counted(loop, counter, size, [self.bind(shape, value, call)], bindings)

    def plain_loop(self, loop):
        """`for v in a` (also `for x, y in points`: a row unpacked)."""
        iterable = self.hidden(ITERABLE_ROLE)
        counter = self.hidden("index")
        prologue = [self.bind(iterable, loop.iter, loop.iter)]
        bindings = [self.element(loop.target, iterable, self.load(counter, loop.target),
                                 loop.target)]
        return self.counted(loop, counter, self.length(iterable, loop.iter), prologue, bindings)

    def enumerate_loop(self, loop):
        """`for i, v in enumerate(a[, start])`."""
        call, target = loop.iter, loop.target
        if not (_builtin_call(call, "enumerate") and 1 <= len(call.args) <= 2
                and isinstance(target, ast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[0], ast.Name)):
            return None
        count, value = target.elts
        iterable = self.hidden(ITERABLE_ROLE)
        prologue = [self.bind(iterable, call.args[0], call.args[0])]
        if len(call.args) == 1:
            # the count is the index itself
            counter = count.id
            bindings = []
        else:
            counter = self.hidden("index")
            start = self.hidden("start")
            prologue.append(self.bind(start, call.args[1], call.args[1]))
            total = self.located(ast.BinOp(left=self.load(counter, count), op=ast.Add(),
                                           right=self.load(start, count)), count)
            bindings = [self.located(ast.Assign(targets=[count], value=total), count)]
        bindings.append(self.element(value, iterable, self.load(counter, value), value))
        return self.counted(loop, counter, self.length(iterable, call), prologue, bindings)

    def zip_loop(self, loop):
        """`for u, v in zip(a, b)`: as long as the shortest."""
        call, target = loop.iter, loop.target
        if not (_builtin_call(call, "zip") and call.args
                and not any(isinstance(a, ast.Starred) for a in call.args)
                and isinstance(target, ast.Tuple) and len(target.elts) == len(call.args)):
            return None
        iterables = [self.hidden(ITERABLE_ROLE) for _ in call.args]
        prologue = [self.bind(name, arg, arg) for name, arg in zip(iterables, call.args)]
        lengths = [self.length(name, arg) for name, arg in zip(iterables, call.args)]
        length = lengths[0] if len(lengths) == 1 else self.located(
            ast.Call(func=ast.Name(id="min", ctx=ast.Load()), args=lengths, keywords=[]), call)
        counter = self.hidden("index")
        bindings = [self.element(element, name, self.load(counter, element), element)
                    for element, name in zip(target.elts, iterables)]
        return self.counted(loop, counter, length, prologue, bindings)
