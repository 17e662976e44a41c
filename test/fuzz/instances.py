"""Instances of the generated classes (class_constructs.py) in outcomes.

The oracle's instances are of the Python classes it runs, the compiled
call's of the classes Kiln made: two types, and the compiled ones cannot
even be unpickled in the parent process. So each side describes the
instances in its result and in its argument lists after the call
(`canonical`) before they are compared: an `InstanceRecord` of the class's
name, the number of the instance in the order the outcome first reaches it,
its fields, and its link (`nxt`) described the same way, an instance
already numbered being an `InstanceRef` to its number. Two outcomes then
compare equal when their instances have the same fields *and* the same
sharing: the same instance twice in a list, an argument's instance in the
result, a cycle of links.

`held_references` counts, for the worker's reference-count check, the
references the lists, tuples and links reachable from some roots hold to
each instance: what an instance's count should change by across a call.
"""

from __future__ import annotations

import collections
import re

# The generator names its classes C<program>_<k> (generator.generate_program).
CLASS_NAME = re.compile(r"C\d+_\d+")
FIELDS = (("a", int), ("b", float), ("flag", bool))
NO_LINK = "-"          # a class without `nxt`


def is_instance(x) -> bool:
    return CLASS_NAME.fullmatch(type(x).__name__) is not None


class InstanceRecord(tuple):
    """(class name, number, a, b, flag, nxt): compared as a tuple."""

    def __repr__(self):
        name, number, a, b, flag, nxt = self
        return f"{name}#{number}(a={a!r}, b={b!r}, flag={flag!r}, nxt={nxt!r})"

    def __reduce__(self):
        return (InstanceRecord, (tuple(self),))


class InstanceRef(int):
    """An instance described earlier in the same outcome."""

    def __repr__(self):
        return f"#{int(self)}"

    def __reduce__(self):
        return (InstanceRef, (int(self),))


def field_value(x, name, convert):
    # the oracle's fields hold semantics.Num (or the plain value a dataclass
    # was given); Kiln's are unboxed and come back as int, float, bool
    value = getattr(x, name)
    return convert(getattr(value, "v", value))


def canonical(value, seen):
    """`value` with every instance replaced by its description; `seen`
    (id -> number) is shared by everything one outcome holds, so that the
    numbering follows the order the outcome is walked in."""
    from .lists import ArgumentList   # noqa: PLC0415 - lists.py imports this module
    if is_instance(value):
        if id(value) in seen:
            return InstanceRef(seen[id(value)][0])
        seen[id(value)] = (len(seen), value)      # the value kept: its id stays its own
        number = seen[id(value)][0]
        fields = [field_value(value, name, convert) for name, convert in FIELDS]
        link = getattr(value, "nxt", NO_LINK)
        if link is not None and link != NO_LINK:
            link = canonical(link, seen)
        return InstanceRecord((type(value).__name__, number, *fields, link))
    if isinstance(value, ArgumentList):
        return ArgumentList([canonical(x, seen) for x in value], value.position)
    if type(value) is list:
        return [canonical(x, seen) for x in value]
    if type(value) is tuple:
        return tuple(canonical(x, seen) for x in value)
    return value


def held_references(roots):
    """id(instance) -> how many references to it the lists, tuples and
    links reachable from `roots` hold (each container counted once)."""
    held = collections.Counter()
    visited = set()
    stack = list(roots)
    while stack:
        x = stack.pop()
        if id(x) in visited:
            continue
        if isinstance(x, (list, tuple)):
            visited.add(id(x))
            items = list(x)
        elif is_instance(x):
            visited.add(id(x))
            link = getattr(x, "nxt", None)
            items = [link] if link is not None else []
        else:
            continue
        for item in items:
            if is_instance(item):
                held[id(item)] += 1
            stack.append(item)
    return held
