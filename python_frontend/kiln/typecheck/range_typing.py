"""Type inference of range objects kept as values: `r = range(n)`,
`range(a, b, step)` bound to a name or used where it is made, then `for i
in r` (desugar.py's counted loop indexing it), `len(r)`, `r[i]`, `i in r`,
`r.start`/`.stop`/`.step`, its truth, `list(r)`, `sorted(r)`, `sum(r)`,
`min(r)`, `max(r)` and comprehensions over it. A range is typed
`typed_tree.RANGE`; code generation (mlir/range_lowering.py) holds its
start, stop and step, so it costs nothing at run time. A range stays where
it is made and in the names bound to it: passing one to a function,
returning it, keeping it in a tuple or container, and rebinding a range
variable inside a branch or a loop are refused with what to write instead.
A mixin of type_inference.FunctionTyping."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from .typed_values import TypedValue, _Abandon
from ..typing_rules import display
from .typed_tree import RANGE, is_range, is_scalar_type
from .dict_typing import is_hidden_iterable

RANGE_HINT = "keep its start, stop and step (or list(r)) instead"


class RangeTyping:
    def range_value(self, node) -> TypedValue:
        """`range(stop)`, `range(start, stop[, step])` as a value: its
        arguments typed as a loop's (ints; a zero step written in the source
        is refused, one known at run time raises ValueError)."""
        if node.keywords:
            self.fail(node, "range() takes no keyword arguments")
        if not self.range_bounds(node):
            raise _Abandon()
        return TypedValue(RANGE)

    def is_range_expression(self, node) -> bool:
        """Whether `node` is range-valued, known before it is typed here (a
        name bound to a range, or `range(...)` itself)."""
        if isinstance(node, ast.Name):
            known = self.symbols.get(node.id) or self.var_types.get(node.id)
            return known is not None and is_range(known.type)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and "range" not in self.symbols and \
            "range" not in self.module.functions

    def range_length(self, node) -> TypedValue:
        """`len(r)`: OverflowError past 2**63 - 1 elements, as CPython's
        (the length of the range a loop walks, desugar.py's, is not
        checked: the loop runs over it)."""
        if not is_hidden_iterable(node.args[0]):
            self.raises = True
        return TypedValue(kt.i64)

    def range_subscript(self, node, value: TypedValue) -> TypedValue:
        """`r[i]`: a negative i counts from the end; IndexError outside."""
        self.absorb(value)
        if isinstance(node.slice, ast.Slice):
            self.fail(node, "slicing a range is not supported yet; index it with an int, or "
                            "write the range the slice would be")
        self.list_index(node.slice, "range indices")
        if not is_hidden_iterable(node.value):
            self.raises = True          # IndexError
        return TypedValue(kt.i64)

    def range_compare(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`v in r`, `v not in r` of a number (a float is found when it is
        a whole number the range holds, as CPython compares it)."""
        op = node.ops[0]
        if not isinstance(op, (ast.In, ast.NotIn)) or not is_range(right.type):
            self.fail(node, "a range is compared only by `in` here (comparing ranges is not "
                            "supported yet)")
        if not is_scalar_type(left.type) or left.type.is_complex:
            self.fail(node, f"`in` of a range looks for an int, a float or a bool, not "
                            f"{display(left.type)}")
        return TypedValue(kt.boolean)

    def range_attribute(self, node) -> TypedValue:
        """`r.start`, `r.stop`, `r.step`."""
        if node.attr not in ("start", "stop", "step"):
            self.fail(node, f"attribute `{node.attr}` of a range is not supported")
        return TypedValue(kt.i64)

    def range_min_max(self, node, name) -> TypedValue:
        """`min(r)`, `max(r)`: ValueError when the range is empty."""
        self.raises = True
        return TypedValue(kt.i64)

    def refuse_range(self, value: TypedValue, node, what: str) -> None:
        """A range where Kiln cannot hold one (`what` says what is done
        with it: "returning a range")."""
        if is_range(value.type):
            self.fail(node, f"{what} is not supported yet; {RANGE_HINT}")
