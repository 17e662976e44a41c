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

# The generator names its classes C<program>_<k>, their subclasses C<program>_<k>s
# and C<program>_<k>t (generator.generate_program).
CLASS_NAME = re.compile(r"C\d+_\d+[st]?")
FIELDS = (("a", int), ("b", float), ("flag", bool))
NO_LINK = "-"          # a class without `nxt`
# The list fields a generated class may have (class_constructs.add_list_fields)
LIST_FIELDS = ("li", "lf", "kids")


def is_instance(x) -> bool:
    return CLASS_NAME.fullmatch(type(x).__name__) is not None


class InstanceRecord(tuple):
    """(class name, number, a, b, flag, nxt, list fields): compared as a
    tuple; the list fields are ((name, items), ...) of those the class has."""

    def __repr__(self):
        name, number, a, b, flag, nxt, lists = self
        shown = "".join(f", {field}={items!r}" for field, items in lists)
        return f"{name}#{number}(a={a!r}, b={b!r}, flag={flag!r}, nxt={nxt!r}{shown})"

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


def list_field_items(value):
    """The items of a list field: the oracle's KList (its Nums as Python
    numbers of the list's kind, its instances) or Kiln's kiln.list_view."""
    from . import lists as L   # noqa: PLC0415 - lists.py imports this module
    if isinstance(value, L.KList):
        return [x if is_instance(x) else L.plain_item(value.kind or "i64", x.v)
                for x in value.items]
    return list(value)


def list_fields(value):
    """(name, list object) of the list fields `value` has set."""
    found = []
    for name in LIST_FIELDS:
        try:
            found.append((name, getattr(value, name)))
        except AttributeError:
            continue
    return found


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
        lists = tuple((name, [canonical(x, seen) for x in list_field_items(items)])
                      for name, items in list_fields(value))
        return InstanceRecord((type(value).__name__, number, *fields, link, lists))
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
            # a `kids` field's list holds a reference to each item (no two
            # instances share one: list_field_constructs.py)
            items += [k for name, kids in list_fields(x) if name == "kids"
                      for k in list_field_items(kids)]
        else:
            continue
        for item in items:
            if is_instance(item):
                held[id(item)] += 1
            stack.append(item)
    return held
