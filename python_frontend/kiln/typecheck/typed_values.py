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


class _Abandon(Exception):
    """Stops typing the current expression or statement; its diagnostic (if
    any: an UNKNOWN operand abandons silently) is already recorded."""
