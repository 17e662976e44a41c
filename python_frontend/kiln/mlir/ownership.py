"""The reference counting of Kiln's containers (lists and dicts: `kiln.list`,
`kiln.dict`, and a dict's views, which are the dict; sets) and strings
(`kiln.str`, immutable, so only ever owned, borrowed and released), through
`kiln.retain` and `kiln.release`, so that each container lives exactly as
long as a name or a temporary holds it. A mixin of
code_generator.FunctionCodeGenerator, used by list_lowering.py and
dict_lowering.py alike.

Ownership (docs/architecture.md, "Containers: ownership"). Every container
Value is *owned* (whoever holds it must release it or hand it on: a new
list or dict, a copy, a concatenation, a comprehension, one a Kiln call
returned) or *borrowed* (a variable's or a parameter's, read). The rules
are applied by these helpers only:

* `own`: an owned value, retaining a borrowed one;
* `bind_container`: a name takes a reference (the new one is owned first,
  then the name's previous container released, so `x = x` is safe); names
  hold borrowed Values, so every read is borrowed;
* `done_with`: a temporary (owned, never bound) is released after its
  last use, by the operation that used it;
* `release_*`: what a scope ends (an `if` branch, a loop iteration, the
  function) releases: the containers its names hold that do not flow out.

Values carried by `scf.if`, `scf.for` and `scf.while` move: a yielded or
carried container keeps its one reference; a branch or body that rebinds
a carried name releases the old one there (bind_container does). Calls
pass containers borrowed (the callee retains its parameters at entry) and
return new references. On an exception the runtime frees what the raising
function made (its journal); nothing here runs on error paths.
"""

from __future__ import annotations

from .. import typesystem as kt
from .values import Value, mlir_type, tuple_value
from ..typecheck.typed_tree import is_counted


def counted_parts(value) -> list:
    """The reference-counted values `value` holds: itself, or the counted
    elements of a tuple (`tuple[Node, int]`: each instance element is held
    as a name would hold it)."""
    if value is None:
        return []
    if value.type is not None and is_counted(value.type):
        return [value]
    if isinstance(value.type, kt.TupleType) and value.elements:
        return [e for e in value.elements if e is not None and is_counted(e.type)]
    return []


def holds_counted_elements(type_) -> bool:
    """A tuple type with an instance (or other counted) element."""
    return isinstance(type_, kt.TupleType) and any(is_counted(e) for e in type_.elements)


class ContainerOwnership:
    # ------------------------------------------------------ container ops
    def container_op(self, name, raising, operands, node, result_type=None,
                     attributes=None) -> Value | None:
        """One op of a container (`kiln.list.append`, `kiln.dict.find`,
        `kiln.set.add`, ...; `raising`: whether it can raise, which gives
        the function an error record); its result as a Value of
        `result_type` (a Kiln type) when it has one."""
        if raising:
            self.may_raise = True
        results = (mlir_type(result_type),) if result_type is not None else ()
        op = self.builder.op(name, [v.ir for v in operands], results, attributes, (),
                             self.loc(node))
        return Value(op.result, result_type) if result_type is not None else None

    # ------------------------------------------------ the ownership protocol
    def own(self, value: Value, node) -> Value:
        """`value` as a reference its holder owns (retained when borrowed)."""
        if value.owned:
            return value
        self.builder.op("kiln.retain", (value.ir,), (), None, (), self.loc(node))
        return Value(value.ir, value.type, owned=True)

    def release(self, value: Value, node) -> None:
        self.builder.op("kiln.release", (value.ir,), (), None, (), self.loc(node))

    def done_with(self, node, *values) -> None:
        """After the last use of each value: a temporary container is released."""
        for value in values:
            if value is not None and is_counted(value.type) and value.owned:
                self.release(value, node)

    def bind_container(self, name: str, value: Value, node) -> None:
        """`name = value` for a container: the name holds one reference."""
        owned = self.own(value, node)
        previous = self.symbols.get(name)
        for part in counted_parts(previous):
            self.release(part, node)
        self.symbols[name] = Value(owned.ir, owned.type)
        self.maybe_undefined.discard(name)

    def bind_tuple(self, name: str, value: Value, node) -> None:
        """`t = split(v)` for a tuple with counted elements: the name holds
        one reference per such element (the new ones owned first, then the
        previous tuple's released, so `t = t` is safe)."""
        elements = [self.own(e, node) if is_counted(e.type) else e for e in value.elements]
        for part in counted_parts(self.symbols.get(name)):
            self.release(part, node)
        self.symbols[name] = tuple_value([Value(e.ir, e.type, nonneg=e.nonneg)
                                          for e in elements])
        self.maybe_undefined.discard(name)

    def release_names(self, names, node, moved=None) -> None:
        for name in names:
            if name != moved:
                for part in counted_parts(self.symbols.get(name)):
                    self.release(part, node)

    def loop_locals(self) -> list:
        """The names bound only inside the loop body being built."""
        scope = self.mode.scope
        return [] if scope is None else [name for name in self.symbols if name not in scope]

    def release_all_containers(self, node, moved=None) -> None:
        """Before a `return`: every container a name of the function holds
        (but `moved`'s, which became the result)."""
        self.release_names(list(self.symbols), node, moved)

    def release_loop_locals(self, node, moved=None) -> None:
        """At the end of one pass through a loop body (continue, break,
        return): the containers of names bound only inside the body."""
        self.release_names(self.loop_locals(), node, moved)

    def returned_container(self, value: Value, node):
        """(the result as an owned value, the name whose reference became
        it or None). A name about to be released at this `return` hands
        its reference over instead of a retain and a release."""
        if value.owned:
            return value, None
        candidates = list(self.symbols) if self.mode.kind != "loop" else self.loop_locals()
        for name in candidates:
            held = self.symbols.get(name)
            if held is not None and held.ir is value.ir and is_counted(held.type):
                return Value(value.ir, value.type, owned=True), name
        return self.own(value, node), None

    def release_branch_locals(self, region, symbols, before, carried, node) -> None:
        """At the end of an `if` branch: the containers of names it bound that
        the `if` does not yield (new in this branch only)."""
        with self.builder.at_end(region.block):
            for name, value in symbols.items():
                if name not in before and name not in carried:
                    for part in counted_parts(value):
                        self.release(part, node)

    def retain_container_parameters(self) -> None:
        """A function holds one reference per list, dict, set or str
        parameter (the caller keeps its own)."""
        for param in self.typed.params:
            if is_counted(param.type):
                self.own(self.symbols[param.name], self.func)

    def release_unused(self, value, node) -> None:
        """An expression statement's container (`xs.copy()`, `f()`)."""
        if value is not None and value.type is not None and is_counted(value.type):
            self.done_with(node, value)
        elif value is not None and value.elements:
            self.done_with(node, *value.elements)     # `d.popitem()` of strs
