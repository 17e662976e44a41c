"""What type inference knows of one evaluated expression (shared by
type_inference.py and its mixins)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TypedValue:
    """What the stage knows of one evaluated expression."""
    type: object                 # ScalarType, ArrayType, TupleType, None (no value), UNKNOWN
    weak: str | None = None      # "int"/"float"/"bool": an untyped Python literal (NEP 50)
    constant: object = None      # the Python value, when known at compile time
    origins: frozenset = frozenset()  # the parameters/allocations ("alloc:N") it may view
    elements: list | None = None      # a tuple's element values
    # A Python int that is one of these literals (`a if c else b` of two):
    # comparisons and min/max with it stay exact (typing_rules.literal_fits).
    candidates: tuple | None = None
    # An array expression (`a + 1`, `np.exp(x)`): a new array not yet
    # stored anywhere; code generation computes it into its destination.
    fresh: bool = False
    # A bool that is numpy's np.bool_, not Python's bool: an element of a
    # bool array, np.any/np.all, and what numpy makes of them (`m[0] +
    # m[0]` is np.True_, a logical or, where `True + True` is 2).
    numpy_bool: bool = False


class _Abandon(Exception):
    """Stops typing the current expression or statement; its diagnostic (if
    any: an UNKNOWN operand abandons silently) is already recorded."""


class MixedItems(_Abandon):
    """A container's item type would join a str with a number (a list of
    both, a dict's keys of both): Kiln's containers hold one type. Raised
    by list_typing.join_items; reported at the expression or statement
    being typed (type_inference.expression, statement_typing.statement)."""
    def __init__(self, first, second):
        super().__init__(first, second)
        self.first, self.second = first, second

    @property
    def message(self) -> str:
        names = sorted({getattr(self.first, "display", str(self.first)),
                        getattr(self.second, "display", str(self.second))})
        return (f"a container holds items of one type here: {names[0]} and {names[1]} do not "
                "mix (a list's items, a dict's keys or values, a set's elements are all "
                "numbers or all str)")
