"""Kiln's lists in the oracle (docs/language.md "Lists", "Lists at the
boundary"): `KList`, a list of one item kind (`i64`, `f64`, `bool`) whose
items are `Num`s, and the builtins and the boundary that take lists.

CPython runs the generated source; the rewriter (oracle.py) makes every
list display and comprehension a `KList` (`list_display`), converts a list
stored into a declared list variable, passed for a list parameter or
returned (`coerce_list`), and reads an exported function's list arguments
(`list_argument`), which the oracle writes back into the caller's Python
list after the call, raised or not, by Kiln's rule. What the model follows
of Kiln rather than CPython, each documented in docs/language.md:

* one item type per list: a literal's items join (`[1, 2.5]` holds 1.0,
  `[True, 1]` 1); a *new* list (a display, a comprehension, an operator's
  or a method's result: `bound` is False until a name holds it) used as a
  wider list converts its items; an int stored into a list[float] is a
  float; items are `Num`s, so `xs[0]` has the list's type;
* ints are 64-bit: `xs[i] += v` and `sum` wrap (every `+` goes through
  `semantics.binop`);
* `in`, `count`, `index`, `remove` and `==`/`!=` of two lists compare with
  `==` only (a NaN is never found, never equal to itself, where CPython's
  identity test would find the very same object); an int looked for in a
  list[float] is converted to float first; `index`'s message spells a
  float as Kiln does (`3.0 is not in list`, `float value is not in list`);
* `sum` of a float list adds left to right from 0.0 (an empty one is 0.0);
* slices follow CPython's rules (`xs[a:b:c]`, `xs[a:b:c] = ys` with its
  ValueError for sizes that differ, `del xs[a:b:c]`, `del xs[i]`): a list
  assigned to a slice is of the list's kind (a new one converts), also the
  list itself;
* `sort`/`sorted` of a float list holding NaN: Kiln's stable merge sort by
  `<` (runtime/kiln_list.c: runs of 16 by insertion, then bottom-up
  merges), whose order CPython's timsort need not give; without NaN any
  stable sort by `<` gives CPython's order, which the oracle takes;
* a list of instances of a generated class (`list[C3_0]`,
  class_list_constructs.py) has the class's name for its kind and holds
  the instances themselves, not Nums: a list holds references, never
  copies; `in`, `count`, `index`, `remove` and `==` compare by identity
  (CPython's `==` for the plain classes the generator searches) and a
  missing instance's `index` says `C3_0 object is not in list` (Kiln's
  message: CPython shows the instance's repr); at the boundary each item
  must be an instance of the class or of a subclass (`C3_0s`) and is
  shared, never copied.
"""

from __future__ import annotations

import math
import operator

from . import semantics as S
from .instances import is_instance

LIST_KINDS = ("i64", "f64", "bool")
LIST_TYPE_NAME = {"i64": "int", "f64": "float", "bool": "bool"}
ANNOTATION_KIND = {"list[int]": "i64", "list[float]": "f64", "list[bool]": "bool",
                   "List[int]": "i64", "List[float]": "f64", "List[bool]": "bool",
                   "typing.List[int]": "i64", "typing.List[float]": "f64",
                   "typing.List[bool]": "bool"}
# A list longer than this is a runaway program (the generator bounds growth).
MAX_LENGTH = 200_000


def is_object_kind(kind) -> bool:
    """A list of instances: its kind is the class's name."""
    return kind is not None and kind not in LIST_KINDS


def item_kind(x) -> str:
    """The list item kind a value joins as: f64 for any float, i64 for any
    int, bool for a bool, the class's name for an instance."""
    if is_instance(x):
        return type(x).__name__
    kind, _, _ = S.parts(x)
    if kind in S.FLOAT_KINDS:
        return "f64"
    if kind == "bool":
        return "bool"
    if kind in S.INT_KINDS:
        return "i64"
    raise TypeError(f"a {kind} item (lists hold int, float, bool)")


def join(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if is_object_kind(a) or is_object_kind(b):
        if a != b:
            raise TypeError(f"a list[{a}] joined with a list[{b}] (the generator never does)")
        return a
    if "f64" in (a, b):
        return "f64"
    if "i64" in (a, b):
        return "i64"
    return "bool"


def to_item(kind, x) -> S.Num:
    """x stored into a list of `kind` (an int into a list[float] is a float;
    the generator never stores a float into a list[int] or a number into a
    list[bool], which Kiln refuses); an instance is stored as itself."""
    if is_object_kind(kind):
        # an instance of the class or of a subclass (docs/language.md: a
        # list[Shape] holds Circles too)
        if kind not in [c.__name__ for c in type(x).__mro__]:
            raise TypeError(f"a {type(x).__name__} stored into a list[{kind}] "
                            "(the generator never does)")
        return x
    k, weak, v = S.parts(x)
    if kind == "bool":
        if k != "bool":
            raise TypeError("a number stored into a list[bool]")
        return S.Num("bool", bool(v))
    if kind == "i64":
        if k in S.FLOAT_KINDS:
            raise TypeError("a float stored into a list[int]")
        v = int(v)
        if not S.INT64_MIN <= v <= S.INT64_MAX:
            raise S.OutsideDomain("an int beyond 64 bits stored into a list")
        return S.Num("i64", v)
    return S.Num("f64", float(v))


def index_of(i) -> int:
    if isinstance(i, KList):
        raise TypeError("a list used as an index")
    return operator.index(i)


def found(kind, item: S.Num, value) -> bool:
    """Kiln's `==` search of `value` among `kind` items (identity for
    instances)."""
    if is_object_kind(kind):
        return item is value
    if kind == "f64":
        return item.v == float(S.parts(value)[2])
    return item.v == S.parts(value)[2]


def float_message(value: float) -> str:
    """Kiln's spelling of a float in `x is not in list` (docs/language.md)."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value) or value == 0.0 or (value == int(value) and abs(value) < 1e16):
        return repr(value)
    return "float value"


class KList:
    """A Kiln list: `kind` (None for an empty display whose type comes from
    where it is used), `items` (Nums of `kind`), `bound` (a name holds it:
    it never converts again)."""
    __slots__ = ("kind", "items", "bound")

    def __init__(self, kind, items, bound=False):
        self.kind = kind
        self.items = items
        self.bound = bound
        if len(items) > MAX_LENGTH:
            raise S.OutsideDomain("a list beyond the generator's bound")

    def __repr__(self):
        return f"KList({self.kind}, {[getattr(n, 'v', n) for n in self.items]!r})"

    # ------------------------------------------------------------ typing
    def used_as(self, kind):
        """This list where a list of `kind` is expected (a variable, a
        parameter, a result, the other operand): a new list converts."""
        if self.kind == kind:
            return self
        if self.kind is None or (not self.bound and join(self.kind, kind) == kind):
            self.items = [to_item(kind, n) for n in self.items]
            self.kind = kind
            return self
        raise TypeError(f"a list[{LIST_TYPE_NAME[self.kind]}] used as a "
                        f"list[{LIST_TYPE_NAME[kind]}] (the generator never does)")

    def _other(self, other):
        if not isinstance(other, KList):
            raise TypeError("a list operand that is not a list")
        kind = join(self.kind, other.kind)
        if kind is not None:
            if self.kind != kind:
                self.used_as(kind)
            if other.kind != kind:
                other.used_as(kind)
        return other

    # ---------------------------------------------------------- reading
    def __len__(self):
        return len(self.items)

    def __bool__(self):
        return bool(self.items)

    def __iter__(self):
        # CPython's list iterator: the length is read at every step
        i = 0
        while i < len(self.items):
            yield self.items[i]
            i += 1

    def __getitem__(self, i):
        if isinstance(i, slice):
            # CPython's slice rules (Kiln's: docs/language.md "Lists")
            return KList(self.kind, self.items[plain_slice(i)])
        i = index_of(i)
        n = len(self.items)
        if not -n <= i < n:
            raise IndexError("list index out of range")
        return self.items[i]

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            # `xs[a:b:c] = ys`: ys a list of the kind (a new one converts),
            # xs itself too (read whole first); CPython's sizes and messages
            if not isinstance(value, KList):
                raise TypeError("a slice assigned from a non-list (the generator never does)")
            if self.kind is None:
                self.kind = value.kind
            elif value.kind is not None and value.kind != self.kind:
                value.used_as(self.kind)
            self.items[plain_slice(i)] = list(value.items)
            self._check_length()
            return
        i = index_of(i)
        n = len(self.items)
        if not -n <= i < n:
            raise IndexError("list assignment index out of range")
        self._need_kind(value)
        self.items[i] = to_item(self.kind, value)

    def __delitem__(self, i):
        if isinstance(i, slice):
            del self.items[plain_slice(i)]
            return
        i = index_of(i)
        n = len(self.items)
        if not -n <= i < n:
            raise IndexError("list assignment index out of range")
        del self.items[i]

    def _need_kind(self, value):
        if self.kind is None:
            self.kind = item_kind(value)

    def __contains__(self, value):
        return any(found(self.kind, n, value) for n in self.items)

    def count(self, value):
        return S.Num("i64", sum(1 for n in self.items if found(self.kind, n, value)))

    def index(self, value):
        for position, n in enumerate(self.items):
            if found(self.kind, n, value):
                return S.Num("i64", position)
        if is_object_kind(self.kind):
            raise ValueError(f"{self.kind} object is not in list")
        v = S.parts(value)[2]
        shown = float_message(float(v)) if self.kind == "f64" else repr(v)
        raise ValueError(f"{shown} is not in list")

    def __eq__(self, other):
        if not isinstance(other, KList):
            raise TypeError("a list compared with a non-list")
        self._other(other)
        if is_object_kind(self.kind):
            return len(self.items) == len(other.items) and all(
                a is b for a, b in zip(self.items, other.items))
        return len(self.items) == len(other.items) and all(
            (a.v == b.v) for a, b in zip(self.items, other.items))

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None

    # --------------------------------------------------------- changing
    def append(self, value):
        self._need_kind(value)
        self.items.append(to_item(self.kind, value))
        self._check_length()

    def _check_length(self):
        if len(self.items) > MAX_LENGTH:
            raise S.OutsideDomain("a list beyond the generator's bound")

    def pop(self, *where):
        if not self.items:
            raise IndexError("pop from empty list")
        i = index_of(where[0]) if where else -1
        n = len(self.items)
        if not -n <= i < n:
            raise IndexError("pop index out of range")
        return self.items.pop(i)

    def insert(self, i, value):
        self._need_kind(value)
        self.items.insert(index_of(i), to_item(self.kind, value))   # clamped, as CPython
        self._check_length()

    def extend(self, other):
        self._other(other)
        self.items.extend(list(other.items))
        self._check_length()

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __imul__(self, count):
        n = index_of(count)
        self.items = self.items * max(n, 0) if len(self.items) * max(n, 0) <= MAX_LENGTH \
            else self._too_long()
        return self

    def _too_long(self):
        raise S.OutsideDomain("a list beyond the generator's bound")

    def clear(self):
        self.items.clear()

    def reverse(self):
        self.items.reverse()

    def remove(self, value):
        for position, n in enumerate(self.items):
            if found(self.kind, n, value):
                del self.items[position]
                return
        raise ValueError("list.remove(x): x not in list")

    def sort(self, reverse=False):
        self.items = sort_items(self.kind, self.items, bool(reverse))

    def copy(self):
        return KList(self.kind, list(self.items))

    # -------------------------------------------------------- operators
    def concat(self, other):
        self._other(other)
        return KList(join(self.kind, other.kind), self.items + other.items)

    def repeat(self, count):
        n = max(index_of(count), 0)
        if len(self.items) * n > MAX_LENGTH:
            self._too_long()
        return KList(self.kind, self.items * n)


def plain_slice(s):
    """A slice of Python ints (its parts are Nums or None; a zero step is
    CPython's ValueError 'slice step cannot be zero')."""
    return slice(*(None if part is None else index_of(part)
                   for part in (s.start, s.stop, s.step)))


def merge_sort(items, reverse):
    """runtime/kiln_list.c's sort: insertion sort of runs of 16, then
    bottom-up merges taking from the right run only when strictly first."""
    items = list(items)
    n = len(items)

    def before(a, b):        # a goes before b
        return b.v < a.v if reverse else a.v < b.v

    for start in range(0, n, 16):
        end = min(start + 16, n)
        for i in range(start + 1, end):
            item = items[i]
            j = i
            while j > start and before(item, items[j - 1]):
                items[j] = items[j - 1]
                j -= 1
            items[j] = item
    width = 16
    while width < n:
        merged = []
        for low in range(0, n, 2 * width):
            middle, high = min(low + width, n), min(low + 2 * width, n)
            i, j = low, middle
            while i < middle and j < high:
                if before(items[j], items[i]):
                    merged.append(items[j])
                    j += 1
                else:
                    merged.append(items[i])
                    i += 1
            merged += items[i:middle] + items[j:high]
        items = merged
        width *= 2
    return items


def sort_items(kind, items, reverse):
    if kind == "f64" and any(math.isnan(n.v) for n in items):
        return merge_sort(items, reverse)
    return sorted(items, key=lambda n: n.v, reverse=reverse)


# ------------------------------------------------------------ rewriter hooks
def list_display(items) -> KList:
    """`[a, b, c]` or a comprehension's items: one kind, the join."""
    items = list(items)
    kind = None
    for x in items:
        kind = join(kind, item_kind(x))
    return KList(kind, [to_item(kind, x) for x in items])


def coerce_list(kind, value):
    """A list stored into a name declared `list[...]`, passed for such a
    parameter or returned as such a result."""
    if not isinstance(value, KList):
        raise TypeError("a non-list where a list is declared (the generator never does)")
    value.used_as(kind)
    return value


def bind(kind, value):
    """A list bound to a declared name: converted when new, then shared."""
    value = coerce_list(kind, value)
    value.bound = True
    return value


# ------------------------------------------------------------------ boundary
class Boundary:
    """The exported function's list arguments of one call: the caller's
    Python list -> its KList (one list passed twice is one list)."""

    def __init__(self):
        self.lists = []         # (python list, KList)

    def argument(self, kind, x, function, parameter):
        for python_list, klist in self.lists:
            if python_list is x:
                if klist.kind != kind:
                    raise TypeError(f"{function}() arguments are the same list, which cannot "
                                    "be both list types")
                return klist
        if not isinstance(x, list):
            raise TypeError(f"{function}() argument '{parameter}' must be list, not "
                            f"{type(x).__name__}")
        items = []
        for position, v in enumerate(x):
            items.append(read_item(kind, v, function, parameter, position))
        klist = KList(kind, items, bound=True)
        self.lists.append((x, klist))
        return klist

    def write_back(self):
        """Kiln's write-back: items whose value is unchanged at their
        position keep their objects, the others are new float/int/bool
        objects; the length is fixed at the end."""
        for python_list, klist in self.lists:
            new = []
            if is_object_kind(klist.kind):
                python_list[:] = klist.items        # the instances themselves
                continue
            for position, n in enumerate(klist.items):
                if position < len(python_list) and unchanged(python_list[position], klist.kind,
                                                             n.v):
                    new.append(python_list[position])
                else:
                    new.append(plain_item(klist.kind, n.v))
            python_list[:] = new


class BoundaryTypeError(TypeError):
    """An argument Kiln's wrapper refuses: the call's outcome (the oracle
    takes other TypeErrors for a program outside the subset)."""


def read_item(kind, v, function, parameter, position):
    where = f"{function}() argument '{parameter}'[{position}]"
    if is_object_kind(kind):
        # an instance of the class or of a compiled subclass, shared
        # (runtime/kiln_runtime.h's kiln_check_list_instances)
        if not is_instance(v) or kind not in [c.__name__ for c in type(v).__mro__]:
            raise BoundaryTypeError(f"{where} must be {kind}, not {type(v).__name__}")
        return v
    if kind == "f64":
        if isinstance(v, (bool, int, float)):
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:
                raise S.OutsideDomain("an int beyond 2**53 in a list[float] argument")
            return S.Num("f64", float(v))
        raise TypeError(f"{where} must be float, not {type(v).__name__}")
    if kind == "i64":
        if isinstance(v, float):
            raise TypeError(f"{where} must be int, not float")
        if not S.INT64_MIN <= int(v) <= S.INT64_MAX:
            raise OverflowError(f"{where} does not fit in a 64-bit integer")
        return S.Num("i64", int(v))
    if not isinstance(v, bool):
        raise TypeError(f"{where} must be bool, not {type(v).__name__}")
    return S.Num("bool", v)


def unchanged(previous, kind, value) -> bool:
    """runtime/kiln_runtime.h's kiln_list_item_unchanged."""
    if kind == "f64" and type(previous) is float:
        return math.copysign(1.0, previous) == math.copysign(1.0, value) and (
            previous == value or (math.isnan(previous) and math.isnan(value)))
    if kind == "bool":
        return previous is bool(value)
    if type(previous) is bool or type(previous) is int:
        if kind == "i64":
            return int(previous) == value
        # (double)previous has the same bits: equal, and not -0.0 for 0
        return abs(previous) <= 2**53 and float(previous) == value and \
            math.copysign(1.0, value) == math.copysign(1.0, float(previous))
    return False


def plain_item(kind, v):
    if is_object_kind(kind):
        return v                # an instance: instances.canonical describes it
    return {"f64": float, "i64": int, "bool": bool}[kind](v)


class ArgumentList(list):
    """A returned list that is the caller's own argument object (`return
    xs` of a list parameter): compared as the position of that argument
    besides its items."""

    def __init__(self, items=(), position=-1):
        super().__init__(items)
        self.position = position

    def __reduce__(self):
        return (ArgumentList, (list(self), self.position))


# ------------------------------------------------------------------ builtins
def k_sum(xs, *start):
    if not isinstance(xs, KList):
        raise TypeError("sum() of a non-list (the generator never does)")
    kind = xs.kind or "i64"
    if kind == "f64":
        total = S.Num("f64", float(S.parts(start[0])[2])) if start else S.Num("f64", 0.0)
    else:
        # Kiln's sum of an int or bool list is a typed int64, whatever its
        # start: a Python int start does not keep the total weak (NEP 50's
        # range check against a narrower operand does not apply to it; seed
        # 40004 f767).
        total = start[0] if start else S.Num("i64", 0)
        _, weak, value = S.parts(total)
        if weak == "int":
            total = S.Num("i64", value)
    for n in xs.items:
        total = S.binop("+", total, n)
    return total


def min_max(name, xs, later_wins):
    if not isinstance(xs, KList):
        return None
    if not xs.items:
        raise ValueError(f"{name}() arg is an empty sequence")
    best = xs.items[0]
    for n in xs.items[1:]:
        if later_wins(n.v, best.v):
            best = n
    return best


def k_sorted(xs, reverse=False):
    if not isinstance(xs, KList):
        raise TypeError("sorted() of a non-list (the generator never does)")
    return KList(xs.kind, sort_items(xs.kind, xs.items, bool(reverse)))


def k_list(*args):
    if not args:
        return KList(None, [])
    x = args[0]
    if isinstance(x, KList):
        return x.copy()
    return list_display(x)        # list(range(...)), list(a) of an array
