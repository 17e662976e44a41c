"""What a `for i in kiln.prange(...)` loop may share between iterations.

The iterations of a prange loop run on several threads in any order, so
a value may cross from one iteration to the next only as a *reduction*:
a variable bound before the loop whose every assignment in the body
combines it with a value that does not read it, by one associative
operator (as Numba's prange recognizes):

    s += e   s -= e   s *= e   s |= e   s &= e   s ^= e
    s = max(s, e)     s = min(s, e)      (or max(e, s), min(e, s))

Each block of iterations starts its copy of `s` from the operator's
identity; the blocks' results are combined into `s` in block order after
the loop (mlir/parallel_lowering.py), so the result never depends on the
thread count.

Arrays the loop did not create may be written only at elements an
iteration owns: some index of the write is computed from the loop
variable (`out[i] = ...`, `out[i, :] = ...`, `out[2 * i + 1] = ...`, or a
name assigned from such an expression), not through another array
(`counts[bins[i]] += 1` may collide), and every read of that array in the
body uses the same index on that axis (`a[i] = a[i + 1]` reads another
iteration's element). Anything else is a compile error naming the variable
and its line.

This module reads the syntax only; typing (statement_typing.stmt_For)
calls it and checks that reductions are scalars.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

# The operator of each augmented assignment a reduction may use; `-=` adds
# the negated values, so its blocks' results are added.
AUGMENTED_REDUCTIONS = {ast.Add: "add", ast.Sub: "add", ast.Mult: "mul", ast.BitOr: "or",
                        ast.BitAnd: "and", ast.BitXor: "xor"}
# What a loop body may read of an array its iterations write, besides the
# elements it owns.
SHAPE_ATTRIBUTES = ("shape", "size", "ndim", "dtype")
REDUCTION_FORMS = ("s += e, s -= e, s *= e, s |= e, s &= e, s ^= e, s = max(s, e) or "
                   "s = min(s, e)")


@dataclass
class Reduction:
    name: str
    operator: str            # add, mul, or, and, xor, max, min
    # The statement (AugAssign) or max()/min() call of its first update:
    # typing gave it the reduction's type, the combine after the loop
    # is lowered as it.
    first_update: ast.AST
    updates: list = field(default_factory=list)


@dataclass
class ParallelLoop:
    reductions: list            # [Reduction], in order of first assignment
    # Arrays from outside the loop that it writes, and every name the body
    # reads: another name may view a written array's memory (a parameter
    # passed twice, `v = x[::2]`), which only a run-time test can see
    # (parallel_lowering.refuse_overlaps).
    written_arrays: list = field(default_factory=list)
    names_read: set = field(default_factory=set)


class ParallelLoopError(Exception):
    def __init__(self, node, message):
        super().__init__(message)
        self.node = node
        self.message = message


def _names_read(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _reduction_update(stmt, name):
    """(operator, node, value) when `stmt` updates `name` as a reduction."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and \
            stmt.target.id == name and type(stmt.op) in AUGMENTED_REDUCTIONS:
        return AUGMENTED_REDUCTIONS[type(stmt.op)], stmt, stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == name:
        call = stmt.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
                call.func.id in ("max", "min") and len(call.args) == 2 and not call.keywords:
            own = [isinstance(a, ast.Name) and a.id == name for a in call.args]
            if own.count(True) == 1:
                return call.func.id, call, call.args[own.index(False)]
    return None


def _statements(stmts):
    """Every statement of a body, nested ones included."""
    for stmt in stmts:
        yield stmt
        for field_name in ("body", "orelse"):
            yield from _statements(getattr(stmt, field_name, []) or [])


def _assigned_in(stmt) -> set:
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, ast.For):
        targets = [stmt.target]
    names = set()
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def analyze(loop: ast.For, carried: list) -> ParallelLoop:
    """The reductions of a prange loop whose body rebinds the names
    `carried` (bound before the loop); ParallelLoopError otherwise."""
    if loop.orelse:
        raise ParallelLoopError(loop, "`for ... else` is not supported on a kiln.prange loop")
    statements = list(_statements(loop.body))
    for stmt in statements:
        if isinstance(stmt, (ast.Break, ast.Return)):
            word = "break" if isinstance(stmt, ast.Break) else "return"
            if isinstance(stmt, ast.Return) or _breaks_prange(loop.body, stmt):
                raise ParallelLoopError(
                    stmt, f"`{word}` cannot leave a kiln.prange loop: its iterations run "
                          "in any order on several threads; use range(...) instead")
    reductions = [_reduction(loop, statements, name) for name in carried]
    written = _check_array_writes(loop, statements)
    names = set()
    for stmt in statements:
        names |= _names_read(_without_nested_bodies(stmt))
    return ParallelLoop(reductions, written, names)


def _breaks_prange(body, target) -> bool:
    """Whether `target` (a break) belongs to the prange loop, not an inner one."""
    for stmt in body:
        if stmt is target:
            return True
        if isinstance(stmt, (ast.For, ast.While)):
            continue
        for field_name in ("body", "orelse"):
            if _breaks_prange(getattr(stmt, field_name, []) or [], target):
                return True
    return False


def _reduction(loop, statements, name) -> Reduction:
    reduction = None
    for stmt in statements:
        if name not in _assigned_in(stmt):
            if name in _names_read(_without_nested_bodies(stmt)):
                raise _carried_error(name, stmt, "is read")
            continue
        update = _reduction_update(stmt, name)
        if update is None:
            raise _carried_error(name, stmt, "is assigned")
        operator, node, value = update
        if name in _names_read(value):
            raise _carried_error(name, stmt, "is read")
        if reduction is None:
            reduction = Reduction(name, operator, node)
        elif reduction.operator != operator:
            raise ParallelLoopError(
                stmt, f"`{name}` is combined with {operator} here and with "
                      f"{reduction.operator} on line {reduction.first_update.lineno}: a "
                      "kiln.prange reduction uses one operator")
        reduction.updates.append(node)
    return reduction


def _without_nested_bodies(stmt):
    """The parts of `stmt` itself (an `if`'s test, a loop's iterable): its
    nested statements are visited on their own."""
    if isinstance(stmt, ast.If):
        return stmt.test
    if isinstance(stmt, ast.While):
        return stmt.test
    if isinstance(stmt, ast.For):
        return stmt.iter
    return stmt


def _carried_error(name, stmt, what) -> ParallelLoopError:
    return ParallelLoopError(
        stmt, f"`{name}` {what} in a kiln.prange loop (line {stmt.lineno}) and carries a value "
              "from one iteration to the next, but the iterations run in any order on several "
              f"threads; only reductions may ({REDUCTION_FORMS}), or use range(...)")


def _depends_on(node, tainted) -> bool:
    """Whether `node` computes from a tainted name directly (not through a
    subscript or call, whose value could repeat between iterations)."""
    if isinstance(node, ast.Name):
        return node.id in tainted
    if isinstance(node, (ast.Subscript, ast.Call)):
        return False
    return any(_depends_on(child, tainted) for child in ast.iter_child_nodes(node))


def _indices(subscript: ast.Subscript) -> list:
    index = subscript.slice
    return list(index.elts) if isinstance(index, ast.Tuple) else [index]


def _check_array_writes(loop, statements) -> None:
    target = loop.target.id
    # Names each iteration computes from its own loop variable.
    tainted = {target}
    local = set()
    for stmt in statements:
        local |= _assigned_in(stmt)
    changed = True
    while changed:
        changed = False
        for stmt in statements:
            if isinstance(stmt, ast.Assign) and _depends_on(stmt.value, tainted):
                for name in _assigned_in(stmt) - tainted:
                    tainted.add(name)
                    changed = True
    # The axis and index each outer array is written at.
    owned = {}
    for stmt in statements:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else (
            [stmt.target] if isinstance(stmt, ast.AugAssign) else [])
        for written in targets:
            for node in ast.walk(written):
                if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                        and isinstance(node.value, ast.Name)):
                    continue
                array = node.value.id
                if array in local:
                    continue         # created by the iteration: its own
                axes = [axis for axis, index in enumerate(_indices(node))
                        if _depends_on(index, tainted)]
                if not axes:
                    raise ParallelLoopError(
                        node, f"`{ast.unparse(node)}` may write the same element of `{array}` "
                              f"from several kiln.prange iterations (line {node.lineno}): "
                              f"index it by the loop variable `{target}` (out[{target}] = ...), "
                              "or use range(...)")
                key = (axes[0], ast.dump(_indices(node)[axes[0]]))
                if owned.setdefault(array, (key, node))[0] != key:
                    raise _conflict(array, node, owned[array][1])
    # Reads of a written array must stay within the iteration's elements:
    # an element at the owned index, or its shape (`len(out)`,
    # `out.shape`); the whole array (`np.sum(out)`, a call) is other
    # iterations' elements too.
    for stmt in statements:
        root = _without_nested_bodies(stmt)
        parents = {child: parent for parent in ast.walk(root)
                   for child in ast.iter_child_nodes(parent)}
        for node in ast.walk(root):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                    and node.id in owned):
                continue
            (axis, index), write = owned[node.id]
            parent = parents.get(node)
            if isinstance(parent, ast.Subscript) and parent.value is node:
                if isinstance(parent.ctx, ast.Store):
                    continue          # the write itself, checked above
                indices = _indices(parent)
                if axis < len(indices) and ast.dump(indices[axis]) == index:
                    continue
                raise _conflict(node.id, parent, write)
            if isinstance(parent, ast.Attribute) and parent.attr in SHAPE_ATTRIBUTES or (
                    isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
                    and parent.func.id == "len"):
                continue
            raise _conflict(node.id, parent if parent is not None else node, write)
    return list(owned)


def _conflict(array, node, write) -> ParallelLoopError:
    return ParallelLoopError(
        node, f"`{ast.unparse(node)}` (line {node.lineno}) may reach an element of `{array}` "
              f"that another kiln.prange iteration writes (`{ast.unparse(write)}`, line "
              f"{write.lineno}): a loop-carried dependence; use range(...)")
