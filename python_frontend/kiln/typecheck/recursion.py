"""Recursion in type inference: the provisional signature a call gets when
it reaches a function whose body is still being typed, and, once the
module's functions are typed, the recursion cycles of the call graph.

A call of a function that is being typed (`f` calls `f`, or `f` calls `g`
calls `f`) cannot wait for the callee's body: it gets the signature the
callee's annotations give (`provisional_signature`), with `raises` true --
every call inside a cycle can raise RecursionError. The annotations are
what the final typing of the body uses too, so the two agree; `ModuleTyping`
checks it anyway (`check_agreement`).

After typing (`finish_recursion`): every call graph edge points at the
callee's final `TypedFunction` (a provisional one is replaced), each
function knows its recursion cycle (the strongly connected component of the
call graph it belongs to, when it calls itself through it:
`TypedFunction.recursion_cycle`), and a cycle whose functions take or return
arrays is refused (the array call ABI's facts -- which arrays a callee
writes, which parameters its result may view -- come from the callee's
body, which a cycle has not finished typing), with every function that
calls into it.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..errors import KilnCompileError
from ..typing_rules import display, is_unknown
from .typed_tree import TypedFunction


class RecursiveSignatureError(KilnCompileError):
    """A recursive call whose callee has no provisional signature (missing
    or invalid annotations): reported at the call itself."""


def provisional_signature(context, typing, node) -> TypedFunction:
    """The signature a call of `typing`'s function gets while its body is
    being typed: from its annotations. `typing` is the FunctionTyping in
    progress; `node` the recursive call."""
    func = typing.func
    name = func.name
    missing = [f"`{a.arg}`" for a in func.args.args if a.annotation is None]
    if func.returns is None:
        missing.append("the result (`-> None` if it returns nothing)")
    if missing:
        raise RecursiveSignatureError(context.diagnostic(
            node, f"`{name}` calls itself (directly or through other functions), so its "
                  "parameters and result need annotations: its signature must be known before "
                  f"its body is typed; annotate {' and '.join(missing)}", name))
    params = typing.resolved_params
    if any(is_unknown(p.type) for p in params) or is_unknown(typing.return_annotation):
        raise RecursiveSignatureError(context.diagnostic(
            node, f"`{name}` calls itself (directly or through other functions), and its "
                  "annotations do not give a type Kiln supports (see the error at its "
                  "definition)", name))
    return TypedFunction(name=name, node=func, exported=typing.exported,
                         options=typing.options, params=list(params),
                         return_type=typing.return_annotation, raises=True)


def check_agreement(context, provisional: TypedFunction, typed: TypedFunction) -> TypedFunction:
    """The final typing of a recursive function against the provisional
    signature its recursive calls were typed with."""
    if not typed.ok:
        return typed
    before = ([p.type for p in provisional.params], provisional.return_type)
    after = ([p.type for p in typed.params], typed.return_type)
    if before != after:
        return TypedFunction(typed.name, typed.node, False, {}, diagnostics=[context.diagnostic(
            typed.node, f"the signature of recursive `{typed.name}` changed while its body "
                        f"was typed (calls inside it used {describe(*before)}, its body gives "
                        f"{describe(*after)}); annotate its parameters and result", typed.name)])
    # Its recursive calls can raise RecursionError: so can it (its callers
    # inside the cycle were typed with a provisional `raises`).
    typed.raises = True
    return typed


def describe(params, result) -> str:
    return f"({', '.join(display(p) for p in params)}) -> {display(result)}"


def holds_array(type_) -> bool:
    if isinstance(type_, kt.TupleType):
        return any(holds_array(e) for e in type_.elements)
    return isinstance(type_, kt.ArrayType)


def strongly_connected(graph: dict) -> list:
    """The strongly connected components of `graph` (name -> callee names),
    iteratively (Tarjan's algorithm without Python recursion: call chains
    of any length)."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in graph:
                    continue
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(graph[successor])))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


def first_call(func: ast.FunctionDef, callee: str):
    """The first call of `callee` in `func` (where an error about it points)."""
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == callee:
            return node
    return func


def finish_recursion(context, results: dict) -> None:
    """After typing: final callees, recursion cycles, and the refusals
    (arrays in a cycle; whatever calls a function that cannot compile)."""
    for typed in results.values():
        for callee in list(typed.callees):
            if callee in results:
                typed.callees[callee] = results[callee]
    graph = {name: list(typed.callees) for name, typed in results.items() if typed.ok}
    for component in strongly_connected(graph):
        if len(component) == 1 and component[0] not in graph[component[0]]:
            continue
        cycle = frozenset(component)
        for name in component:
            results[name].recursion_cycle = cycle
        refuse_arrays_in_cycle(context, results, sorted(component))
    # A function calling one refused above cannot compile either.
    changed = True
    while changed:
        changed = False
        for name, typed in list(results.items()):
            if not typed.ok:
                continue
            failed = next((c for c in typed.callees if not results[c].ok), None)
            if failed is None:
                continue
            first = results[failed].diagnostics[0]
            results[name] = TypedFunction(name, typed.node, False, {}, diagnostics=[
                context.diagnostic(first_call(typed.node, failed),
                                   f"calls `{failed}`, which cannot be compiled "
                                   f"({first.message}, line {first.line})", name)])
            changed = True


def refuse_arrays_in_cycle(context, results: dict, component: list) -> None:
    for name in component:
        typed = results[name]
        func = typed.node
        others = [f"`{n}`" for n in component if n != name]
        through = f" (through {', '.join(others)})" if others else ""
        for param, arg in zip(typed.params, func.args.args):
            if holds_array(param.type):
                where, what = arg, f"parameter `{param.name}` is an array"
                break
        else:
            if not holds_array(typed.return_type):
                continue
            where, what = func.returns or func, "its result holds an array"
        results[name] = TypedFunction(name, func, False, {}, diagnostics=[context.diagnostic(
            where, f"`{name}` is recursive{through} and {what}: recursive functions take "
                   "and return numbers, tuples of numbers, lists, dicts and sets, not arrays, "
                   "yet (which arrays a call writes or returns comes from the callee's body, "
                   "which a recursion cycle has not finished typing)", name)])
