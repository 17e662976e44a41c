"""Kiln's sets in the oracle (docs/language.md "Sets", "Sets at the
boundary"): `KSet`, a set of one element kind (`i64`, `f64`, `bool`) whose
elements are `Num`s, in the order they were first added, and the builtins
and the boundary that take sets.

CPython runs the generated source; the rewriter (oracle.py) makes every set
display and comprehension a `KSet` (`set_display`), converts a set stored
into a declared set variable, passed for a set parameter or returned
(`coerce_set`), and reads an exported function's set arguments
(`set_argument`), which the oracle writes back into the caller's Python set
after the call, raised or not, by Kiln's rule.

The model follows Kiln, not CPython, where they differ (each documented,
or recorded in FINDINGS.md):

* iteration order is insertion order (runtime/kiln_dict.c keeps entries in
  slots in the order they were added; a removed element's slot dies, an
  element added again goes last): `for`, `enumerate`, comprehensions,
  `list(s)`, `sorted(s)` of floats with NaN (the merge sort sees that
  order), `sum` of floats (rounding), `min`/`max` with NaN (the first
  NaN... stays), `s.pop()` (the first live element) all see that order.
  An argument set is read in CPython's iteration order of the caller's set
  (the same in the oracle's process and the worker's: the inputs never mix
  a NaN, whose hash is its address, with other elements);
* the operators and methods keep runtime/kiln_dict.c's order and objects:
  `s | t` is s's elements then t's new ones; `s & t` and `s - t` keep s's
  elements (so `{0.0} & {-0.0}` is `{0.0}`, CPython's `{-0.0}`: the
  smaller operand's, FINDINGS.md S1); `s ^ t` is s's then t's; in place,
  `&=` and `-=` delete from s, `^=` discards or appends t's elements in
  t's order; with t the very same set, `|=` and `&=` keep s, `-=` and
  `^=` clear it, while the new-set forms (`s & s`, `s - s`, `s ^ s`,
  `s | s`) treat t as another set, so NaN elements (never found) stay or
  double (S2);
* one element type per set: a display's elements join, a *new* set used
  as a wider one converts, an element looked up converts (a bool among
  ints, an int among floats), so a KeyError holds the converted element;
* NaN elements are never found (each NaN stored is an element of its
  own, `dicts.NanKey`), `-0.0` and `0.0` are one element (the first kept);
* `s == t` and `s <= t` look each element of one up in the other (a NaN
  element is never equal);
* iteration checks the size at every step and at the end ("Set changed
  size during iteration"); an element added after a removal (the size
  unchanged) is visited later (its slot is after the ones visited);
* ints are 64-bit (`sum` wraps); `sum` of floats adds from 0.0;
* the boundary: elements read by the scalar parameters' rules, the
  caller's set written back after the call when the function changed it
  (runtime `kiln_write_back_set`: the caller's elements that stayed keep
  their objects, the others go, the added ones are new objects; a changed
  frozenset is a TypeError), one set passed twice is one set.
"""

from __future__ import annotations

import math

from . import dicts as D
from . import lists as L
from . import semantics as S

SET_KINDS = ("i64", "f64", "bool")
TYPE_NAME = {"i64": "int", "f64": "float", "bool": "bool"}
ANNOTATION_KIND = {f"{prefix}[{name}]": kind for prefix in ("set", "Set", "typing.Set")
                   for kind, name in TYPE_NAME.items()}
# A set longer than this is a runaway program (the generator bounds growth).
MAX_LENGTH = 100_000


def converted(kind, x):
    """x as an element of a set of `kind` (a bool among ints is 1, an int
    among floats a float)."""
    return L.to_item(kind, x).v


def slot_of(kind, v):
    if kind == "f64" and math.isnan(v):
        return D.NanKey(v)
    return v


class KSet:
    """A Kiln set: `kind` (None for `set()` until it is used or added to),
    `entries` (slot -> element Num, in insertion order; a slot is the
    element's value or a NanKey), `seq` (slot -> the number of its slot:
    iteration walks slots in that order), `bound` (a name holds it: it
    never converts again), and for an argument set `origins` (slot -> the
    caller's object, for the elements read at the call and never removed)
    and `modified` (runtime's KILN_DICT_MODIFIED)."""
    __slots__ = ("kind", "entries", "seq", "next_seq", "bound", "origins", "modified")

    def __init__(self, kind, bound=False):
        self.kind = kind
        self.entries = {}
        self.seq = {}
        self.next_seq = 0
        self.bound = bound
        self.origins = {}
        self.modified = False

    def __repr__(self):
        return f"KSet({self.kind}, {[n.v for n in self.entries.values()]!r})"

    # ------------------------------------------------------------ typing
    def used_as(self, kind):
        if self.kind == kind:
            return self
        if self.kind is None or (not self.bound and L.join(self.kind, kind) == kind):
            old = list(self.entries.values())
            self.kind = kind
            self.entries, self.seq = {}, {}
            for n in old:
                self._add(n)
            return self
        raise TypeError(f"a set[{TYPE_NAME[self.kind]}] used as a set[{TYPE_NAME[kind]}] "
                        "(the generator never does)")

    def _other(self, other):
        """The other operand of an operator, `==`, a comparison: a set of
        the joined kind (new sets convert)."""
        if not isinstance(other, KSet):
            raise TypeError("a set operand that is not a set (the generator never does)")
        kind = L.join(self.kind, other.kind)
        if kind is not None:
            if self.kind != kind:
                self.used_as(kind)
            if other.kind != kind:
                other.used_as(kind)
        return other

    def _settle(self, x):
        if self.kind is None:
            self.kind = L.item_kind(x)

    # ----------------------------------------------------------- slots
    def _find(self, x):
        """The slot of element x (converted), or None (NaN: never)."""
        if self.kind is None:
            return None
        v = converted(self.kind, x)
        if isinstance(v, float) and math.isnan(v):
            return None
        return v if v in self.entries else None

    def _add(self, x):
        """Adds element x (a Num or a number) unless it is there; a NaN
        always (a new element). True when added."""
        self._settle(x)
        v = converted(self.kind, x)
        slot = slot_of(self.kind, v)
        if not isinstance(slot, D.NanKey) and slot in self.entries:
            return False
        self.entries[slot] = S.Num(self.kind, v)
        self.seq[slot] = self.next_seq
        self.next_seq += 1
        self.modified = True
        if len(self.entries) > MAX_LENGTH:
            raise S.OutsideDomain("a set beyond the generator's bound")
        return True

    def _erase(self, slot):
        del self.entries[slot]
        del self.seq[slot]
        self.origins.pop(slot, None)
        self.modified = True

    def _missing(self, x):
        v = converted(self.kind, x) if self.kind else S.parts(x)[2]
        return KeyError(D.fresh(self.kind or L.item_kind(x), v))

    def elements(self):
        return list(self.entries.values())

    # ---------------------------------------------------------- reading
    def __len__(self):
        return len(self.entries)

    def __bool__(self):
        return bool(self.entries)

    def __contains__(self, x):
        return self._find(x) is not None

    def __iter__(self):
        """The compiled loop's walk of the slots: the size checked at each
        step (and after the last element), the next live slot after the
        one visited (an element added later is visited later)."""
        start = len(self.entries)
        last = -1
        while True:
            if len(self.entries) != start:
                raise RuntimeError("Set changed size during iteration")
            following = [slot for slot in self.entries if self.seq[slot] > last]
            if not following:
                return
            slot = following[0]
            last = self.seq[slot]
            yield self.entries[slot]

    # --------------------------------------------------------- changing
    def add(self, x):
        self._add(x)

    def discard(self, x):
        slot = self._find(x)
        if slot is not None:
            self._erase(slot)

    def remove(self, x):
        slot = self._find(x)
        if slot is None:
            raise self._missing(x)
        self._erase(slot)

    def pop(self):
        if not self.entries:
            raise KeyError("pop from an empty set")
        slot = next(iter(self.entries))
        element = self.entries[slot]
        self._erase(slot)
        return element

    def clear(self):
        if self.entries:
            self.modified = True
        self.entries.clear()
        self.seq.clear()
        self.origins.clear()

    def copy(self):
        made = KSet(self.kind)
        for n in self.entries.values():
            made._add(n)
        made.modified = False
        return made

    def _argument_set(self, other):
        """A method's argument: a set as it is, a list, a dict (its keys),
        a dict view or range(...) as a new set of this set's kind."""
        if isinstance(other, KSet):
            return self._other(other)
        made = KSet(self.kind)
        for item in items_of(other):
            made._add(item)
        if self.kind is None:
            self.kind = made.kind
        return made

    def _update(self, other, operation):
        """runtime kiln_set_update: `|=`, `&=`, `-=`, `^=`."""
        if operation == "|":
            if other is self:
                return
            for n in list(other.entries.values()):
                self._add(n)
            return
        if other is self:
            if operation != "&":
                self.clear()
            return
        if operation == "^":
            for n in list(other.entries.values()):
                slot = self._find(n)
                if slot is not None:
                    self._erase(slot)
                else:
                    self._add(n)
            return
        keep = operation == "&"
        for slot, n in list(self.entries.items()):
            if (other._find(n) is not None) != keep:
                self._erase(slot)

    def update(self, *others):
        for other in others:
            self._update(self._argument_set(other), "|")

    def intersection_update(self, *others):
        for other in others:
            self._update(self._argument_set(other), "&")

    def difference_update(self, *others):
        for other in others:
            self._update(self._argument_set(other), "-")

    def symmetric_difference_update(self, other):
        self._update(self._argument_set(other), "^")

    def __ior__(self, other):
        self._update(self._other(other), "|")
        return self

    def __iand__(self, other):
        self._update(self._other(other), "&")
        return self

    def __isub__(self, other):
        self._update(self._other(other), "-")
        return self

    def __ixor__(self, other):
        self._update(self._other(other), "^")
        return self

    # -------------------------------------------------------- new sets
    def _combine(self, other, operation):
        """runtime kiln_set_combine: this set's elements first, in its
        order, then the other's (union, symmetric difference)."""
        kind = L.join(self.kind, other.kind)
        made = KSet(kind)
        if other is self:
            # CPython's shortcuts, which the runtime takes too: `s | s`,
            # `s & s` copy, `s - s`, `s ^ s` are empty (a NaN element kept).
            if operation in ("|", "&"):
                for n in list(self.entries.values()):
                    made._add(n)
        elif operation == "|":
            for n in list(self.entries.values()) + list(other.entries.values()):
                made._add(n)
        elif operation in ("&", "-"):
            wanted = operation == "&"
            for n in list(self.entries.values()):
                if (other._find(n) is not None) == wanted:
                    made._add(n)
        else:
            for n in list(self.entries.values()):
                if other._find(n) is None:
                    made._add(n)
            for n in list(other.entries.values()):
                if self._find(n) is None:
                    made._add(n)
        made.modified = False
        return made

    def _combined(self, others, operation):
        if not others:
            return self.copy()
        result = self
        for other in others:
            result = result._combine(self._argument_set(other), operation)
        return result

    def union(self, *others):
        return self._combined(others, "|")

    def intersection(self, *others):
        return self._combined(others, "&")

    def difference(self, *others):
        return self._combined(others, "-")

    def symmetric_difference(self, other):
        return self._combined((other,), "^")

    def set_operator(self, op, other):
        return self._combine(self._other(other), op)

    # ------------------------------------------------------ comparisons
    def _subset(self, other):
        """runtime kiln_set_subset: every element of self found in other
        (a set is a subset of itself, a NaN element too)."""
        if other is self:
            return True
        if len(self) > len(other):
            return False
        return all(other._find(n) is not None for n in self.entries.values())

    def issubset(self, other):
        return self._subset(self._argument_set(other))

    def issuperset(self, other):
        return self._argument_set(other)._subset(self)

    def isdisjoint(self, other):
        other = self._argument_set(other)
        if other is self:
            return len(self) == 0
        small, large = (self, other) if len(self) <= len(other) else (other, self)
        return all(large._find(n) is None for n in small.entries.values())

    def __eq__(self, other):
        if not isinstance(other, KSet):
            raise TypeError("a set compared with a non-set (the generator never does)")
        self._other(other)
        if other is self:
            return True
        return len(self) == len(other) and all(
            other._find(n) is not None for n in self.entries.values())

    def __ne__(self, other):
        return not self.__eq__(other)

    def __le__(self, other):
        return self._subset(self._other(other))

    def __lt__(self, other):
        other = self._other(other)
        return self._subset(other) and len(self) < len(other)

    def __ge__(self, other):
        return self._other(other)._subset(self)

    def __gt__(self, other):
        other = self._other(other)
        return other._subset(self) and len(other) < len(self)

    __hash__ = None


def items_of(x):
    """The items `set(x)` and a method's argument read: of a list, a dict
    (its keys) or a view, range(...)."""
    if isinstance(x, L.KList):
        return list(x.items)
    if isinstance(x, KSet):
        return x.elements()
    it = D.iterated(x)
    if it is not None:
        return it[1]
    return list(x)          # range(...): Nums


# ------------------------------------------------------------ rewriter hooks
def set_display(items) -> KSet:
    """`{a, b, c}` or a comprehension's elements, in order: one kind, the
    join; the first of equal elements stays."""
    items = list(items)
    kind = None
    for x in items:
        kind = L.join(kind, L.item_kind(x))
    made = KSet(kind)
    for x in items:
        made._add(x)
    made.modified = False
    return made


def coerce_set(kind, value):
    if not isinstance(value, KSet):
        raise TypeError("a non-set where a set is declared (the generator never does)")
    return value.used_as(kind)


def bind(kind, value):
    value = coerce_set(kind, value)
    value.bound = True
    return value


# ------------------------------------------------------------------ builtins
def as_list(s: KSet) -> L.KList:
    return L.KList(s.kind, list(iter(s)))


def k_set(*args):
    if not args:
        return KSet(None)
    x = args[0]
    if isinstance(x, KSet):
        return x.copy()
    made = KSet(None)
    for item in items_of(x):
        made._add(item)
    if isinstance(x, L.KList) and made.kind is None:
        made.kind = x.kind
    it = D.iterated(x)
    if it is not None and made.kind is None:
        made.kind = it[0]
    made.modified = False
    return made


# ------------------------------------------------------------------ boundary
class Boundary:
    """The exported function's set arguments of one call: the caller's
    Python set -> its KSet (one set passed twice is one set)."""

    def __init__(self):
        self.sets = []         # (python set, KSet, parameter)

    def argument(self, kind, x, function, parameter):
        for python_set, kset, _ in self.sets:
            if python_set is x:
                if kset.kind != kind:
                    raise TypeError(f"{function}() arguments are the same set of two types")
                return kset
        if not isinstance(x, (set, frozenset)):
            raise TypeError(f"{function}() argument '{parameter}' must be set, not "
                            f"{type(x).__name__}")
        kset = KSet(kind, bound=True)
        for element in x:              # CPython's iteration order, as the wrapper reads
            v = D.read(kind, element, function, f"'{parameter}' element {element!r}")
            slot = slot_of(kind, v)
            if not isinstance(slot, D.NanKey) and slot in kset.entries:
                raise S.OutsideDomain("two set elements that convert to one (the inputs "
                                      "never do)")
            kset.entries[slot] = S.Num(kind, v)
            kset.seq[slot] = kset.next_seq
            kset.next_seq += 1
            kset.origins[slot] = element
        self.sets.append((x, kset, parameter))
        return kset

    def write_back(self):
        """runtime kiln_write_back_set, for each set the function changed,
        in the order of the arguments: the caller's elements that stayed
        keep their objects, the others are discarded, the added ones are
        added as new objects; a changed frozenset raises TypeError (and
        the sets after it are not written)."""
        for python_set, kset, parameter in self.sets:
            if not kset.modified:
                continue
            if isinstance(python_set, frozenset):
                raise TypeError(f"argument '{parameter}' is a frozenset, which the function "
                                f"changes (pass set({parameter}))")
            kept = [kset.origins[slot] for slot in kset.entries if slot in kset.origins]
            added = [D.fresh(kset.kind, n.v) for slot, n in kset.entries.items()
                     if slot not in kset.origins]
            python_set.clear()
            python_set.update(kept)
            for element in added:
                python_set.discard(element)
                python_set.add(element)


class ArgumentSet(set):
    """A returned set that is the caller's own argument object (`return s`
    of a set parameter): compared as the position of that argument besides
    its elements."""

    def __init__(self, items=(), position=-1, frozen=False):
        super().__init__(items)
        self.position = position
        self.frozen = frozen

    def __reduce__(self):
        return (ArgumentSet, (list(self), self.position, self.frozen))


def plain(s: KSet) -> set:
    kind = s.kind or "i64"
    return {D.fresh(kind, n.v) for n in s.entries.values()}
