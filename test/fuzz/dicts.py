"""Kiln's dicts in the oracle (docs/language.md "Dicts", "Dicts at the
boundary"): `KDict`, a dict of one key kind and one value kind (`i64`,
`f64`, `bool`) whose keys and values are `Num`s, its views, and the
builtins and the boundary that take dicts.

CPython runs the generated source; the rewriter (oracle.py) makes every
dict display and comprehension a `KDict` (`dict_display`), converts a dict
stored into a declared dict variable, passed for a dict parameter or
returned (`coerce_dict`), and reads an exported function's dict arguments
(`dict_argument`), which the oracle writes back into the caller's Python
dict after the call, raised or not, by Kiln's rule. The entries live in a
Python dict keyed by the keys' values, so order (insertion order, a key
deleted and set again is last, a key set again keeps its place and its
first object: `-0.0` then `0.0` keeps `-0.0`) and the RuntimeError of a
dict whose size changed during iteration are CPython's own. What the model
follows of Kiln rather than CPython:

* one key type and one value type per dict: a display's keys join and its
  values join (`{1: 2, 2.5: 3}` is dict[float, int], its key 1.0); a *new*
  dict used as a wider one converts; an int stored as a float value is a
  float; keys and values read back are `Num`s of the dict's kinds;
* a key looked up converts to the key type (an int among float keys, a
  bool among int keys): a KeyError holds the converted key (`KeyError(1.0)`
  of a float dict, documented; `KeyError(1)` for `True` among int keys,
  FINDINGS.md D1);
* NaN keys are never found (each NaN stored is a key of its own: `NanKey`);
* `d == e` compares values with `==` only (a NaN value is never equal, where
  CPython's identity test finds the very same object: FINDINGS.md D2);
* ints are 64-bit (`d[k] += v` and `sum` wrap through `semantics.binop`);
  `sum` of float keys or values adds from 0.0;
* `sorted(d)` of float keys holding NaN: Kiln's merge sort (lists.py);
* the boundary: keys and values read by the scalar parameters' rules, the
  caller's dict written back after the call (`Boundary.write_back`).
"""

from __future__ import annotations

import math

from . import lists as L
from . import semantics as S

DICT_KINDS = ("i64", "f64", "bool")
TYPE_NAME = {"i64": "int", "f64": "float", "bool": "bool"}
# A dict longer than this is a runaway program (the generator bounds growth).
MAX_LENGTH = 100_000


def annotation_kinds(text):
    """(key kind, value kind) of `dict[int,float]` (spaces removed), or None."""
    for prefix in ("dict[", "Dict[", "typing.Dict["):
        if text.startswith(prefix) and text.endswith("]"):
            parts = text[len(prefix):-1].split(",")
            kinds = {"int": "i64", "float": "f64", "bool": "bool"}
            if len(parts) == 2 and all(p in kinds for p in parts):
                return kinds[parts[0]], kinds[parts[1]]
    return None


class NanKey:
    """A NaN key: found by no lookup (identity hash; never looked up)."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


def key_slot(kind, v):
    if kind == "f64" and math.isnan(v):
        return NanKey(v)
    return v


def raw(slot):
    return slot.v if isinstance(slot, NanKey) else slot


def converted(kind, x, what):
    """x as a key or value of `kind` (an int as a float, a bool as an int);
    the generator never gives a float for an int or a number for a bool."""
    return L.to_item(kind, x).v


class KDict:
    """A Kiln dict: `kinds` (key kind, value kind) or None for `{}` until
    its first store, `entries` (key value or NanKey -> value Num), `bound`
    (a name holds it: it never converts again)."""
    __slots__ = ("kinds", "entries", "bound", "origins")

    def __init__(self, kinds, entries=None, bound=False):
        self.kinds = kinds
        self.entries = entries if entries is not None else {}
        self.bound = bound
        # an argument dict: slot -> the position of the caller's entry it
        # was read from, for the entries never deleted (runtime's live == 1;
        # an entry set after the call began is KILN_DICT_ADDED)
        self.origins = {}

    def __repr__(self):
        return f"KDict({self.kinds}, {[(raw(k), v.v) for k, v in self.entries.items()]!r})"

    @property
    def key_kind(self):
        return self.kinds[0] if self.kinds else None

    @property
    def value_kind(self):
        return self.kinds[1] if self.kinds else None

    # ------------------------------------------------------------ typing
    def used_as(self, kinds):
        if self.kinds == kinds:
            return self
        if self.kinds is None or (not self.bound and L.join(self.kinds[0], kinds[0]) == kinds[0]
                                  and L.join(self.kinds[1], kinds[1]) == kinds[1]):
            old = list(self.entries.items())
            self.kinds = kinds
            self.entries = {}
            for slot, value in old:
                self._store(S.Num(kinds[0], converted(kinds[0], raw(slot), "key")),
                            S.Num(kinds[1], converted(kinds[1], value, "value")))
            return self
        raise TypeError(f"a dict {self.kinds} used as {kinds} (the generator never does)")

    def _settle(self, key, value):
        if self.kinds is None:
            self.kinds = (L.item_kind(key), L.item_kind(value))

    def _key(self, key):
        """The converted key value of a lookup."""
        if self.kinds is None:
            return None
        return converted(self.kinds[0], key, "key")

    def _find(self, key):
        """(converted key, slot or None)."""
        if self.kinds is None:
            return S.parts(key)[2], None
        k = self._key(key)
        if isinstance(k, float) and math.isnan(k):
            return k, None
        return k, (k if k in self.entries else None)

    def _missing(self, k):
        return KeyError(fresh(self.kinds[0], k) if self.kinds else k)

    def _store(self, key, value):
        self._settle(key, value)
        k = converted(self.kinds[0], key, "key")
        v = S.Num(self.kinds[1], converted(self.kinds[1], value, "value"))
        slot = key_slot(self.kinds[0], k)
        if isinstance(slot, NanKey):
            self.entries[slot] = v
        else:
            self.entries[slot] = v       # an existing key keeps its place and object
        if len(self.entries) > MAX_LENGTH:
            raise S.OutsideDomain("a dict beyond the generator's bound")

    # ---------------------------------------------------------- reading
    def __len__(self):
        return len(self.entries)

    def __bool__(self):
        return bool(self.entries)

    def key_num(self, slot):
        return S.Num(self.kinds[0], raw(slot))

    def __iter__(self):
        for slot in self.entries:         # CPython's iterator: RuntimeError on a size change
            yield self.key_num(slot)

    def __getitem__(self, key):
        k, slot = self._find(key)
        if slot is None:
            raise self._missing(k)
        return self.entries[slot]

    def __setitem__(self, key, value):
        self._store(key, value)

    def __delitem__(self, key):
        k, slot = self._find(key)
        if slot is None:
            raise self._missing(k)
        del self.entries[slot]
        self.origins.pop(slot, None)

    def __contains__(self, key):
        return self._find(key)[1] is not None

    def get(self, key, default):
        k, slot = self._find(key)
        if slot is not None:
            return self.entries[slot]
        if self.kinds is None:
            return default
        return S.Num(self.kinds[1], converted(self.kinds[1], default, "value"))

    def setdefault(self, key, default):
        self._settle(key, default)
        k, slot = self._find(key)
        if slot is not None:
            return self.entries[slot]
        self._store(key, default)
        return self.entries[next(reversed(self.entries))]

    def pop(self, key, *default):
        k, slot = self._find(key)
        if slot is not None:
            self.origins.pop(slot, None)
            return self.entries.pop(slot)
        if default:
            if self.kinds is None:
                return default[0]
            return S.Num(self.kinds[1], converted(self.kinds[1], default[0], "value"))
        raise self._missing(k)

    def clear(self):
        self.entries.clear()
        self.origins.clear()

    def copy(self):
        return KDict(self.kinds, dict(self.entries))

    def update(self, other):
        self._other(other)
        for slot, value in list(other.entries.items()):
            if isinstance(slot, NanKey):
                self.entries[NanKey(slot.v)] = value
            else:
                self.entries[slot] = value
        if len(self.entries) > MAX_LENGTH:
            raise S.OutsideDomain("a dict beyond the generator's bound")

    def keys(self):
        return KView(self, "keys")

    def values(self):
        return KView(self, "values")

    def items(self):
        return KView(self, "items")

    def _other(self, other):
        if not isinstance(other, KDict):
            raise TypeError("a dict operand that is not a dict")
        if self.kinds is None and other.kinds is None:
            return other
        if self.kinds is None:
            self.used_as(other.kinds)
            return other
        if other.kinds is None:
            other.used_as(self.kinds)
            return other
        kinds = (L.join(self.kinds[0], other.kinds[0]), L.join(self.kinds[1], other.kinds[1]))
        if self.kinds != kinds:
            self.used_as(kinds)
        if other.kinds != kinds:
            other.used_as(kinds)
        return other

    def __eq__(self, other):
        self._other(other)
        if other is self:
            return True     # runtime kiln_dict_equal: identity first, as CPython
        if len(self.entries) != len(other.entries):
            return False
        for slot, value in self.entries.items():
            if isinstance(slot, NanKey) or slot not in other.entries:
                return False
            if not value.v == other.entries[slot].v:     # == only: NaN never equal (D2)
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = None


class KView:
    """`d.keys()`, `d.values()`, `d.items()`: iterated (CPython's iterator
    over the live dict), `k in d.keys()`, `len`."""
    __slots__ = ("d", "kind")

    def __init__(self, d, kind):
        self.d = d
        self.kind = kind

    def __len__(self):
        return len(self.d)

    def __iter__(self):
        d = self.d
        if self.kind == "keys":
            return iter(d)
        if self.kind == "values":
            return iter(d.entries.values())
        return ((d.key_num(slot), value) for slot, value in d.entries.items())

    def __contains__(self, key):
        if self.kind != "keys":
            raise TypeError("`in` of values()/items() (the generator never does)")
        return key in self.d

    @property
    def item_kind(self):
        kinds = self.d.kinds or (None, None)
        return kinds[1] if self.kind == "values" else kinds[0]


def iterated(x):
    """(item kind, items) of a dict or a view for list(), sorted(), sum(), min()."""
    if isinstance(x, KDict):
        return x.key_kind, list(x)
    if isinstance(x, KView) and x.kind != "items":
        return x.item_kind, list(x)
    return None


# ------------------------------------------------------------ rewriter hooks
def dict_display(pairs) -> KDict:
    """`{k: v, ...}` or a comprehension's pairs, in order: keys join, values join."""
    pairs = list(pairs)
    kinds = None
    if pairs:
        key_kind = value_kind = None
        for k, v in pairs:
            key_kind = L.join(key_kind, L.item_kind(k))
            value_kind = L.join(value_kind, L.item_kind(v))
        kinds = (key_kind, value_kind)
    d = KDict(kinds)
    for k, v in pairs:
        d._store(k, v)
    return d


def coerce_dict(kinds, value):
    if not isinstance(value, KDict):
        raise TypeError("a non-dict where a dict is declared (the generator never does)")
    return value.used_as(kinds)


def bind(kinds, value):
    value = coerce_dict(kinds, value)
    value.bound = True
    return value


# ------------------------------------------------------------------ builtins
def k_list(x):
    it = iterated(x)
    if it is None:
        return None
    kind, items = it
    return L.KList(kind, items)


def k_sorted(x, reverse=False):
    it = iterated(x)
    if it is None:
        return None
    kind, items = it
    return L.KList(kind, L.sort_items(kind, items, bool(reverse)))


def k_sum(x, *start):
    it = iterated(x)
    if it is None:
        return None
    kind, items = it
    return L.k_sum(L.KList(kind, items), *start)


def min_max(name, x, later_wins):
    it = iterated(x)
    if it is None:
        return None
    kind, items = it
    return L.min_max(name, L.KList(kind, items), later_wins)


def k_dict(*args):
    if not args:
        return KDict(None)
    if isinstance(args[0], KDict):
        return args[0].copy()
    raise TypeError("dict() of a non-dict (the generator never does)")


# ------------------------------------------------------------------ boundary
class Boundary:
    """The exported function's dict arguments of one call: the caller's
    Python dict -> its KDict (one dict passed twice is one dict)."""

    def __init__(self):
        self.dicts = []         # (python dict, KDict)

    def argument(self, kinds, x, function, parameter):
        for python_dict, kdict in self.dicts:
            if python_dict is x:
                if kdict.kinds != kinds:
                    raise TypeError(f"{function}() arguments are the same dict of two types")
                return kdict
        if not isinstance(x, dict):
            raise TypeError(f"{function}() argument '{parameter}' must be dict, not "
                            f"{type(x).__name__}")
        kdict = KDict(kinds, bound=True)
        for key, value in list(x.items()):
            k = read(kinds[0], key, function, f"'{parameter}' key {key!r}")
            v = read(kinds[1], value, function, f"'{parameter}'[{key!r}]")
            slot = key_slot(kinds[0], k)
            if not isinstance(slot, NanKey) and slot in kdict.entries:
                raise S.OutsideDomain("two keys that convert to one (the inputs never do)")
            kdict.entries[slot] = S.Num(kinds[1], v)
            kdict.origins[slot] = len(kdict.origins)
        self.dicts.append((x, kdict))
        return kdict

    def write_back(self):
        """Kiln's write-back (runtime kiln_write_back_dict): the function's
        entries in its order. When the caller's entries still lead, in
        their order, never deleted ("kept in place"), each keeps its key
        object by its place (a NaN key too), and its value object when
        the value is unchanged (lists.unchanged). Otherwise an entry the
        function added (a new key, or one deleted and set again: D4's fix)
        has new key and value objects, and one of the caller's keeps its
        key object (not a NaN key's: a new float) and its value object
        when unchanged."""
        for python_dict, kdict in self.dicts:
            previous = list(python_dict.items())
            items = list(kdict.entries.items())
            in_place = len(items) >= len(previous) and all(
                kdict.origins.get(slot) == i for i, (slot, _) in enumerate(items[:len(previous)]))
            new = []
            for position, (slot, value) in enumerate(items):
                if in_place:
                    match = position if position < len(previous) else None
                else:
                    match = None if isinstance(slot, NanKey) else kdict.origins.get(slot)
                if match is not None:
                    key_object, old_value = previous[match]
                    value_object = old_value if L.unchanged(old_value, kdict.kinds[1], value.v) \
                        else L.plain_item(kdict.kinds[1], value.v)
                else:
                    key_object = fresh(kdict.kinds[0], raw(slot))
                    value_object = L.plain_item(kdict.kinds[1], value.v)
                new.append((key_object, value_object))
            python_dict.clear()
            python_dict.update(new)


def read(kind, v, function, where):
    where = f"{function}() argument {where}"
    if kind == "f64":
        if isinstance(v, (bool, int, float)):
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:
                raise S.OutsideDomain("an int beyond 2**53 in a dict[float, ...] argument")
            return float(v)
        raise TypeError(f"{where} must be float, not {type(v).__name__}")
    if kind == "i64":
        if isinstance(v, float):
            raise TypeError(f"{where} must be int, not float")
        if not S.INT64_MIN <= int(v) <= S.INT64_MAX:
            raise OverflowError(f"{where} does not fit in a 64-bit integer")
        return int(v)
    if not isinstance(v, bool):
        raise TypeError(f"{where} must be bool, not {type(v).__name__}")
    return v


class ArgumentDict(dict):
    """A returned dict that is the caller's own argument object (`return d`
    of a dict parameter): compared as the position of that argument besides
    its entries."""

    def __init__(self, items=(), position=-1):
        super().__init__(items)
        self.position = position

    def __reduce__(self):
        return (ArgumentDict, (list(self.items()), self.position))


def fresh(kind, v):
    """A new Python object of a key or value (NaN keys must stay distinct
    objects: float(x) of a float is x itself)."""
    if kind == "f64" and isinstance(v, float) and math.isnan(v):
        return math.copysign(math.nan, v)
    return L.plain_item(kind, v)


def plain(d: KDict) -> dict:
    kinds = d.kinds or ("i64", "i64")
    return {fresh(kinds[0], raw(slot)): L.plain_item(kinds[1], v.v)
            for slot, v in d.entries.items()}
