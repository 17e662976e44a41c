"""Type inference of the standard library's functions on lists
(library_functions.LIST_FUNCTIONS): `heapq.heappush(h, v)`,
`heapq.heappop(h)`, `heapq.heapify(h)`, `heappushpop`, `heapreplace`,
`nsmallest`/`nlargest`, `bisect.bisect_left(a, x, lo, hi)` and
`bisect_right`/`bisect`, `insort_left`/`insort_right`/`insort`. Lowered by
mlir/list_algorithms.py. A mixin of type_inference.FunctionTyping.

An item pushed or inserted is stored as `xs.append(v)` stores it (a list
variable that is not declared widens to hold it; a float into a declared
list[int] is an error); a value `bisect` searches for is only compared, so
any number goes (an int among floats is compared exactly, as CPython
compares them)."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..library_functions import (HEAPIFY, INSERT, POP, PUSH, PUSH_POP, SEARCH, SELECT)
from .list_typing import is_list, named
from .typed_values import TypedValue
from ..typing_rules import UNKNOWN
from .typed_tree import is_scalar_type, is_str

# The positional arguments each form takes (bisect's lo and hi may also be
# keywords).
POSITIONAL = {PUSH: (2,), POP: (1,), PUSH_POP: (2,), HEAPIFY: (1,), SELECT: (2,),
              SEARCH: (2, 3, 4), INSERT: (2, 3, 4)}
# A heap of tuples is how Dijkstra's algorithm and schedulers use heapq.
TUPLE_HEAP = ("heaps of tuples (`heappush(h, (priority, item))`) are not supported yet: a "
              "list holds int, float or bool items; keep the priorities in one list and "
              "the items in a dict keyed by them, or encode both in one number")


def bounds_arguments(node) -> list:
    """bisect's (lo, hi) argument nodes, None where not given (or `hi=None`,
    CPython's spelling of "the length")."""
    bounds = list(node.args[2:4]) + [None] * (4 - max(len(node.args), 2))
    for keyword in node.keywords:
        bounds[("lo", "hi").index(keyword.arg)] = keyword.value
    return [None if isinstance(b, ast.Constant) and b.value is None else b for b in bounds]


class ListLibraryTyping:
    def list_library_call(self, function, node) -> TypedValue:
        """A call of a LIST_FUNCTIONS entry: its arguments checked and
        typed, its result's type."""
        label = f"{function.module}.{function.name}"
        form = function.form
        for keyword in node.keywords:
            if form not in (SEARCH, INSERT) or keyword.arg not in ("lo", "hi"):
                if keyword.arg == "key":
                    self.fail(keyword, f"`key=` of {label}() is not supported yet")
                self.fail(keyword, f"{label}() takes no keyword argument `{keyword.arg}` here")
        positional = POSITIONAL[form]
        if len(node.args) not in positional:
            counts = str(positional[0]) if len(positional) == 1 else \
                f"{positional[0]} to {positional[-1]}"
            self.fail(node, f"{label}() takes {counts} positional argument"
                            f"{'s' if positional[-1] > 1 else ''}")
        self.raises = True      # IndexError, ValueError, MemoryError
        if form == SELECT:
            count = self.expression(node.args[0])
            self.list_index_value(count, node.args[0])
        list_node = node.args[1 if form == SELECT else 0]
        container = self.expression(list_node)
        self.absorb(container)
        if not is_list(container.type):
            self.fail(list_node, f"{label}() takes a list here, not {named(container.type)}")
        item = container.type.item
        if is_str(item):
            self.fail(node, f"{function.module} on a list[str] is not supported yet (its items "
                            "are moved by reference); " + (
                                "keep a heap of ints (indices) and a list of the strings"
                                if function.module == "heapq" else
                                "search a list of ints (indices), or use a dict or set of the "
                                "strings"))
        if form in (PUSH, PUSH_POP, INSERT, SEARCH):
            value = self.expression(node.args[1])
            self.absorb(value)
            if isinstance(value.type, kt.TupleType):
                self.fail(node.args[1], TUPLE_HEAP if function.module == "heapq" else
                          f"{label}() of tuples is not supported yet: a list holds int, "
                          "float or bool items")
            if form == SEARCH:
                if not is_scalar_type(value.type) or value.type.is_complex:
                    self.fail(node.args[1], f"{label}() looks for a number in a "
                                            f"{container.type.display}, not "
                                            f"{named(value.type)}")
            else:
                stored = self.stored_item(list_node, container, value, node)
                item = item if item is not None else stored.type
        if form in (SEARCH, INSERT):
            for bound in bounds_arguments(node):
                if bound is not None:
                    self.list_index_value(self.expression(bound), bound)
        if form in (POP, PUSH_POP):
            return TypedValue(UNKNOWN) if item is None else TypedValue(item)
        if form == SELECT:
            return TypedValue(container.type)
        return TypedValue(kt.i64) if form == SEARCH else TypedValue(None)
