"""Inputs for a generated function, as *recipes* both processes rebuild.

A recipe is {"bases": [contiguous numpy arrays], "args": [spec, ...]} with a
spec ("scalar", value) or ("view", base index, index tuple, transpose). The
oracle and the worker each rebuild fresh views from a recipe, so a
negative-stride view or an argument passed twice (aliasing) is the same
layout in both, and the bases after the call hold every array's contents.
"""

from __future__ import annotations

import math
import random

import numpy as np

I64 = [0, 1, -1, 2, 3, 7, -7, 100, 2**31 - 1, -2**31, 2**53 + 1, 2**62, 2**63 - 1, -2**63]
I32 = [0, 1, -1, 2, 5, 2**31 - 1, -2**31, 65536, -100, 46341]
F64 = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-310, 5e-324, 1e308, -1e308, float("inf"),
       float("-inf"), float("nan"), 3.14, 2.0**63, -2.0**63, 9.3e18, 1e-20, 2.5, -2.5]
F32 = [0.0, -0.0, 1.0, -1.0, 0.5, 3.4028234663852886e38, 1.401298464324817e-45, float("inf"),
       float("-inf"), float("nan"), 1.1754943508222875e-38, 2.5, 16777217.0]
C128 = [complex(a, b) for a, b in [(0.0, 0.0), (-0.0, 1.0), (1.0, -0.0), (3.0, 4.0), (0.5, -2.5),
                                      (1e308, 1e308), (float("inf"), 1.0), (1.0, float("nan")),
                                      (float("-inf"), float("inf")), (-2.0, 0.0), (5e-324, 1e-310),
                                      (2.0**63, -7.0)]]
SIZES = [0, 1, 7, 8, 9, 100, 3, 16, 8, 9]
SHAPES = [(0, 3), (1, 1), (3, 4), (7, 9), (10, 10), (4, 0), (2, 5)]
NUMPY = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32,
         "i8": np.int8, "i16": np.int16, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
         "u64": np.uint64, "bool": np.bool_}


def int_edges(bits, unsigned):
    """0, 1, max, min, max-1, min+1 and the wraparound neighbours (the half
    of the range, where the sign bit flips) of an integer type."""
    lo, hi = (0, 2**bits - 1) if unsigned else (-2**(bits - 1), 2**(bits - 1) - 1)
    half = 2**(bits - 1)
    return sorted({0, 1, 2, 7, hi, hi - 1, lo, lo + 1, half - 1, half if half <= hi else 1,
                   3 if unsigned else -1, 100 if 100 <= hi else 3})


NEW_INTS = {"i8": (8, False), "i16": (16, False), "u8": (8, True), "u16": (16, True),
            "u32": (32, True), "u64": (64, True)}
EDGES = {k: int_edges(*v) for k, v in NEW_INTS.items()}

PER_FUNCTION = 24

# List arguments (docs/language.md "Lists at the boundary"): Python lists of
# the item type, some empty, some longer than 16 (Kiln's sort merges runs
# of 16), drawn from small pools so that items repeat (count, index, remove
# find them) with the edge values among them; a list[float] holds an int now
# and then, a list[int] a bool (read as 1 and 0, kept when unchanged), and
# one list in LIST_OVERFLOW_EVERY holds an int beyond 64 bits (OverflowError).
LIST_SIZES = [0, 0, 1, 2, 3, 4, 5, 8, 17, 33]
LIST_F64 = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.0, 1e308, -1e308, float("inf"),
            float("-inf"), float("nan"), 5e-324, 2.0**63, 1e16, 0.1]
LIST_I64 = [0, 1, -1, 2, 3, 7, -7, 100, 2**31 - 1, -2**31, 2**53 + 1, 2**62, 2**63 - 1, -2**63]
LIST_OVERFLOW_EVERY = 40


def list_items(rng, kind, edgy):
    n = rng.choice(LIST_SIZES)
    if kind == "bool":
        return [rng.random() < 0.5 for _ in range(n)]
    if kind == "i64":
        pool = [rng.randint(-5, 5) for _ in range(4)]
        items = [rng.choice(LIST_I64) if edgy and rng.random() < 0.3 else rng.choice(pool)
                 for _ in range(n)]
        if items and rng.random() < 0.1:
            items[rng.randrange(n)] = rng.choice([True, False])
        if items and rng.random() < 1 / LIST_OVERFLOW_EVERY:
            items[rng.randrange(n)] = rng.choice([2**63, -2**63 - 1])
        return items
    pool = [round(rng.uniform(-5, 5), rng.choice([0, 1, 2])) for _ in range(4)]
    items = [rng.choice(LIST_F64) if edgy and rng.random() < 0.3 else rng.choice(pool)
             for _ in range(n)]
    if items and rng.random() < 0.1:
        items[rng.randrange(n)] = rng.randint(-3, 3)
    return items

# Lists of instances (`list[C]` parameters, class_list_constructs.py): the
# instances are made by realize from a pool, recipe["objects"], of
# (class name, a, b, flag, index of the `nxt` instance or None) -- links
# between them, cycles too -- and each list, recipe["objlists"], is a list
# of pool indices, an instance now and then twice in one list or in two
# lists; one list in OBJECT_WRONG_ITEM_EVERY holds an item of another type
# (("raw", value) or an instance of another class: TypeError).
OBJECT_LIST_SIZES = [0, 0, 1, 2, 3, 4, 5, 8]
OBJECT_I64 = [0, 1, -1, 2, 7, 100, -5, 2**31, 2**62, 2**63 - 1, -2**63]
OBJECT_F64 = [0.0, -0.0, 0.5, 1.0, -2.5, 3.0, 1e308, float("inf"), float("nan"), 1e-310]
OBJECT_WRONG_ITEM_EVERY = 30


def object_list(rng, objects, p, edgy):
    """The pool indices of one `list[C]` argument (instances added to
    `objects`)."""
    n = rng.choice(OBJECT_LIST_SIZES)
    earlier = [k for k, spec in enumerate(objects) if spec[0] == p.kind]
    fresh = []
    for _ in range(max(1, n - rng.choice([0, 0, 1, 2]))):
        a = rng.choice(OBJECT_I64) if edgy and rng.random() < 0.3 else rng.randint(-5, 9)
        b = rng.choice(OBJECT_F64) if edgy and rng.random() < 0.3 else \
            round(rng.uniform(-4, 4), rng.choice([0, 1]))
        objects.append([p.kind, a, b, rng.random() < 0.5, None])
        fresh.append(len(objects) - 1)
    mine = fresh + (earlier if rng.random() < 0.3 else [])
    if p.linked:
        for k in fresh:
            if rng.random() < 0.5:
                objects[k][4] = rng.choice(mine)        # itself too: a cycle
    items = [rng.choice(mine) for _ in range(n)]
    if items and rng.random() < 1 / OBJECT_WRONG_ITEM_EVERY:
        others = [k for k, spec in enumerate(objects) if spec[0] != p.kind]
        wrong = ("raw", rng.choice([3, None, 2.5]))
        items[rng.randrange(n)] = rng.choice(others) if others and rng.random() < 0.5 else wrong
    return items


# Dict arguments (docs/language.md "Dicts at the boundary"): entries as
# (key, value) pairs in order (realize makes the Python dict; a key given
# twice is one key, its first object kept, as in CPython). Int keys collide
# in their low bits (multiples of large powers of two), are negative, -1 and
# -2 (CPython's hash(-1) is -2), the int64 extremes, now and then a bool
# (True is the key 1); float keys are -0.0 and 0.0 (one key), NaNs (each a
# key of its own), infinities, 1e308, a subnormal, ints (an int key of a
# dict[float, ...] stays an int when the function keeps it). Values
# repeat from small pools with the edge values; a float dict's values hold
# an int now and then and an int dict's a bool, except in a dict with a NaN
# key (a NaN key is matched by its place or not at all at write-back, which
# decides whether such a value keeps its object: dicts.Boundary). One dict
# in DICT_OVERFLOW_EVERY holds an int beyond 64 bits (OverflowError).
DICT_SIZES = [0, 0, 1, 2, 3, 4, 5, 8, 12, 20]
DICT_I64_KEYS = [0, 1, -1, -2, 2, 3, 2**32, -2**32, 2**40, 3 * 2**40, -2**40, 2**62, -2**62,
                 2**63 - 1, -2**63, 2**31 - 1, -2**31, 7 * 2**48, 2**53 + 1]
DICT_F64_KEYS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, float("inf"), float("-inf"), 1e308,
                 5e-324, 2.0**63, 1e16, 0.1, float("nan"), float("nan"), 4294967296.0]
DICT_OVERFLOW_EVERY = 40


def dict_entries(rng, kinds, edgy):
    key_kind, value_kind = kinds
    n = rng.choice(DICT_SIZES)
    pairs = []
    if key_kind == "bool":
        keys = [rng.random() < 0.5 for _ in range(min(n, 3))]
    elif key_kind == "i64":
        step = rng.choice([1, 2**32, 2**40, 2**56, 3])
        pool = [rng.randint(-4, 4) * step for _ in range(6)] + [-1, -2]
        keys = [rng.choice(DICT_I64_KEYS) if edgy and rng.random() < 0.35 else rng.choice(pool)
                for _ in range(n)]
        if keys and rng.random() < 0.1:
            keys[rng.randrange(n)] = rng.choice([True, False])
    else:
        pool = [round(rng.uniform(-4, 4), rng.choice([0, 1])) for _ in range(5)]
        keys = [rng.choice(DICT_F64_KEYS) if edgy and rng.random() < 0.35 else rng.choice(pool)
                for _ in range(n)]
        if keys and rng.random() < 0.15:
            keys[rng.randrange(n)] = rng.randint(-3, 3)
    nan_key = any(isinstance(k, float) and k != k for k in keys)
    for key in keys:
        if value_kind == "bool":
            value = rng.random() < 0.5
        elif value_kind == "i64":
            value = rng.choice(LIST_I64) if edgy and rng.random() < 0.3 else rng.randint(-5, 5)
            if not nan_key and rng.random() < 0.08:
                value = rng.choice([True, False])
        else:
            value = rng.choice(LIST_F64) if edgy and rng.random() < 0.3 else \
                round(rng.uniform(-5, 5), rng.choice([0, 1, 2]))
            if not nan_key and rng.random() < 0.1:
                value = rng.randint(-3, 3)
        pairs.append((key, value))
    if pairs and rng.random() < 1 / DICT_OVERFLOW_EVERY:
        i = rng.randrange(len(pairs))
        big = rng.choice([2**63, -2**63 - 1])
        if value_kind == "i64":
            pairs[i] = (pairs[i][0], big)
        elif key_kind == "i64":
            pairs[i] = (big, pairs[i][1])
    return pairs


# Set arguments (docs/language.md "Sets at the boundary"): the elements in
# the order they are added to the caller's Python set (realize), which
# CPython iterates in its hash order, the order the wrapper reads them in:
# the same in the oracle's process and the worker's, as long as no NaN
# (whose hash is its address) is among other elements, so a float set holds
# either no NaN or only NaNs (of one bit pattern: which one the function
# keeps cannot show). Int elements collide in their low bits (multiples of
# large powers of two), are negative, -1 and -2, the int64 extremes, now
# and then a bool (True is the element 1); float elements are -0.0 and 0.0
# (one element), infinities, 1e308, a subnormal, small ints (an int element
# of a set[float] stays an int when the function keeps it). One set in
# SET_FROZEN_EVERY is a frozenset (a TypeError after a call that changes
# it), one in SET_OVERFLOW_EVERY of int sets holds an int beyond 64 bits.
SET_SIZES = [0, 0, 1, 2, 3, 4, 5, 8, 12, 20]
SET_F64 = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, float("inf"), float("-inf"), 1e308, 5e-324,
           2.0**63, 1e16, 0.1, 4294967296.0]
SET_FROZEN_EVERY = 7
SET_OVERFLOW_EVERY = 40


def set_elements(rng, kind, edgy):
    n = rng.choice(SET_SIZES)
    if kind == "bool":
        return [rng.random() < 0.5 for _ in range(min(n, 3))]
    if kind == "i64":
        step = rng.choice([1, 2**32, 2**40, 2**56, 3])
        pool = [rng.randint(-4, 4) * step for _ in range(6)] + [-1, -2]
        items = [rng.choice(DICT_I64_KEYS) if edgy and rng.random() < 0.35 else rng.choice(pool)
                 for _ in range(n)]
        if items and rng.random() < 0.1:
            items[rng.randrange(n)] = rng.choice([True, False])
        if items and rng.random() < 1 / SET_OVERFLOW_EVERY:
            items[rng.randrange(n)] = rng.choice([2**63, -2**63 - 1])
        return items
    if edgy and n and rng.random() < 0.12:
        return [float("nan")] * rng.choice([1, 1, 2, 3])
    pool = [round(rng.uniform(-4, 4), rng.choice([0, 1])) for _ in range(5)]
    items = [rng.choice(SET_F64) if edgy and rng.random() < 0.35 else rng.choice(pool)
             for _ in range(n)]
    if items and rng.random() < 0.15:
        items[rng.randrange(n)] = rng.randint(-3, 3)
    return items


def make_set(spec):
    """The Python set (or frozenset) of a recipe's elements, added in
    order: every NaN a new object."""
    elements, frozen = spec
    s = set()
    for x in elements:
        if isinstance(x, float) and x != x:
            x = math.copysign(math.nan, 1.0)
        s.add(x)
    return frozenset(s) if frozen else s


def make_dict(pairs):
    """The Python dict of a recipe's pairs: every NaN a new object (a
    pickled recipe would otherwise share one NaN between keys)."""
    d = {}
    for key, value in pairs:
        if isinstance(key, float) and key != key:
            key = math.copysign(math.nan, key)
        d[key] = value
    return d


def scalar(rng, kind, edgy):
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "c128":
        if edgy and rng.random() < 0.6:
            return rng.choice(C128)
        return complex(round(rng.uniform(-10, 10), rng.choice([0, 1, 3, 17])),
                       round(rng.uniform(-10, 10), rng.choice([0, 1, 3, 17])))
    pool = {"i64": I64, "i32": I32, "f64": F64, "f32": F32, **EDGES}[kind]
    if edgy and rng.random() < 0.6:
        return rng.choice(pool)
    if kind in EDGES:
        return rng.randint(0 if kind[0] == "u" else -12, 12)
    if kind in ("i64", "i32"):
        return rng.randint(-12, 12)
    value = round(rng.uniform(-10, 10), rng.choice([0, 1, 3, 17]))
    return float(np.float32(value)) if kind == "f32" else value


def fill(rng, kind, count, edgy, dyadic=False):
    dtype = NUMPY[kind]
    if kind == "bool":
        return np.array([rng.random() < 0.5 for _ in range(count)], dtype=dtype)
    if kind in EDGES:
        values = [rng.randint(0 if kind[0] == "u" else -20, 20) for _ in range(count)]
    elif kind in ("i64", "i32"):
        values = [rng.randint(-20, 20) for _ in range(count)]
    elif dyadic:
        # quarters: float sums and products stay exact in any order, so the
        # oracle can check Kiln's SIMD reductions (numpy_functions.py)
        values = [rng.randint(-40, 40) / 4 for _ in range(count)]
    else:
        values = [round(rng.uniform(-10, 10), 3) for _ in range(count)]
    if edgy:
        pool = {"i64": I64, "i32": I32, "f64": F64, "f32": F32, **EDGES}[kind]
        for _ in range(rng.randint(1, 3)):
            if values:
                values[rng.randrange(len(values))] = rng.choice(pool)
    return np.array(values, dtype=dtype)


def make_recipe(seed, index, params, k):
    """The k-th input of function `index`: the first few are benign, the
    rest mix edge values, sizes and layouts."""
    rng = random.Random(f"{seed}:{index}:input:{k}")
    edgy = k >= 3
    dyadic = k % 3 == 1
    bases, args = [], []
    recipe_lists = {}
    common_size = rng.choice(SIZES) if k else 8
    common_shape = rng.choice(SHAPES) if k else (3, 4)
    arrays_seen = {}
    lists_seen = {}
    dicts_seen = {}
    sets_seen = {}
    for p in params:
        if getattr(p, "container", "") == "objlist":
            # streams of their own: the other arguments stay what they were
            orng = random.Random(f"{seed}:{index}:input:{k}:objects:{p.name}")
            if p.kind in lists_seen and orng.random() < 0.2:
                args.append(args[lists_seen[p.kind]])   # one list for two parameters
                continue
            objlists = recipe_lists.setdefault("objlists", [])
            objlists.append(object_list(orng, recipe_lists.setdefault("objects", []), p, edgy))
            lists_seen[p.kind] = len(args)
            args.append(("objlist", len(objlists) - 1))
            continue
        if getattr(p, "container", "") == "set":
            srng = random.Random(f"{seed}:{index}:input:{k}:set:{p.name}")
            if p.kind in sets_seen and srng.random() < 0.25:
                args.append(args[sets_seen[p.kind]])   # one set for two parameters
                continue
            sets = recipe_lists.setdefault("sets", [])
            sets.append((set_elements(srng, p.kind, edgy), srng.random() < 1 / SET_FROZEN_EVERY))
            sets_seen[p.kind] = len(args)
            args.append(("set", len(sets) - 1))
            continue
        if getattr(p, "container", "") == "dict":
            drng = random.Random(f"{seed}:{index}:input:{k}:dict:{p.name}")
            kinds = (p.key_kind, p.kind)
            if kinds in dicts_seen and drng.random() < 0.25:
                args.append(args[dicts_seen[kinds]])   # one dict for two parameters
                continue
            dicts = recipe_lists.setdefault("dicts", [])
            dicts.append(dict_entries(drng, kinds, edgy))
            dicts_seen[kinds] = len(args)
            args.append(("dict", len(dicts) - 1))
            continue
        if getattr(p, "container", "") == "list":
            # a stream of its own: the other arguments stay what they were
            lrng = random.Random(f"{seed}:{index}:input:{k}:list:{p.name}")
            if p.kind in lists_seen and lrng.random() < 0.25:
                args.append(args[lists_seen[p.kind]])   # one list for two parameters
                continue
            lists = recipe_lists.setdefault("lists", [])
            lists.append(list_items(lrng, p.kind, edgy))
            lists_seen[p.kind] = len(args)
            args.append(("list", len(lists) - 1))
            continue
        if not p.ndim:
            args.append(("scalar", scalar(rng, p.kind, edgy)))
            continue
        key = (p.kind, p.ndim)
        if key in arrays_seen and rng.random() < 0.3:
            # the same array twice (aliasing), or an overlapping view of it
            spec = args[arrays_seen[key]]
            if p.ndim == 1 and rng.random() < 0.5:
                spec = ("view", spec[1], (slice(1, None),) if spec[2] == (slice(None),)
                        else spec[2], spec[3])
            args.append(spec)
            continue
        if p.ndim == 1:
            n = common_size if rng.random() < 0.75 else rng.choice(SIZES)
            layout = rng.choice(["plain", "plain", "strided", "reversed", "offset"]) if k else "plain"
            if layout == "plain":
                base, index_ = fill(rng, p.kind, n, edgy, dyadic), (slice(None),)
            elif layout == "strided":
                base, index_ = fill(rng, p.kind, 2 * n, edgy, dyadic), (slice(None, None, 2),)
            elif layout == "reversed":
                base, index_ = fill(rng, p.kind, n, edgy, dyadic), (slice(None, None, -1),)
            else:
                base, index_ = fill(rng, p.kind, n + 3, edgy, dyadic), (slice(3, None),)
            transpose = False
        elif p.ndim >= 3:
            # a stack of the 2-D shape (so it broadcasts with the 2-D arrays),
            # 4-D and 5-D ones with small leading axes; its own generator
            # keeps the 1-D/2-D draws as they were
            extra = random.Random(f"{seed}:{index}:input:{k}:3d:{len(args)}")
            depth = extra.choice([2, 1, 3, 0, 2]) if k else 2
            rows, cols = common_shape if extra.random() < 0.75 else extra.choice(SHAPES)
            layout = extra.choice(["plain", "plain", "transposed", "strided", "reversed"]) \
                if k else "plain"
            leading = tuple(extra.choice([1, 2, 2, 3]) for _ in range(p.ndim - 3))
            transpose = layout == "transposed"
            shape = leading + (depth, rows, cols)
            count = int(np.prod(shape))
            if transpose:
                base = fill(rng, p.kind, count, edgy, dyadic).reshape(shape[::-1])
                index_ = (slice(None),) * p.ndim
            elif layout == "strided":
                base = fill(rng, p.kind, 2 * count, edgy, dyadic).reshape(shape[:-1] + (2 * cols,))
                index_ = (slice(None),) * (p.ndim - 1) + (slice(None, None, 2),)
            else:
                base = fill(rng, p.kind, count, edgy, dyadic).reshape(shape)
                index_ = ((slice(None, None, -1),) if layout == "reversed" else (slice(None),)) \
                    + (slice(None),) * (p.ndim - 1)
        else:
            rows, cols = common_shape if rng.random() < 0.75 else rng.choice(SHAPES)
            layout = rng.choice(["plain", "plain", "transposed", "strided", "reversed"]) if k \
                else "plain"
            transpose = layout == "transposed"
            if transpose:
                rows, cols = cols, rows
            if layout == "strided":
                base = fill(rng, p.kind, rows * 2 * cols, edgy, dyadic).reshape(rows, 2 * cols)
                index_ = (slice(None), slice(None, None, 2))
            else:
                base = fill(rng, p.kind, rows * cols, edgy, dyadic).reshape(rows, cols)
                index_ = (slice(None, None, -1), slice(None)) if layout == "reversed" else \
                    (slice(None), slice(None))
        bases.append(base)
        arrays_seen[key] = len(args)
        args.append(("view", len(bases) - 1, index_, transpose))
    return {"bases": bases, "args": args, **recipe_lists}


def realize(recipe, make_instance=None):
    """Fresh (args, bases) from a recipe; the bases end with the list
    arguments (the caller's lists, compared after the call), then the
    lists of instances and the pool of every instance made (their fields
    after the call). `make_instance(class name, a, b, flag)` makes an
    instance of the oracle's or the compiled class."""
    objects = realize_objects(recipe, make_instance)
    objlists = [[objects[k] if isinstance(k, int) else k[1] for k in items]
                for items in recipe.get("objlists", [])]
    bases = [b.copy() for b in recipe["bases"]]
    lists = [list(items) for items in recipe.get("lists", [])]
    dicts = [make_dict(pairs) for pairs in recipe.get("dicts", [])]
    sets = [make_set(spec) for spec in recipe.get("sets", [])]
    args = []
    for spec in recipe["args"]:
        if spec[0] == "set":
            args.append(sets[spec[1]])
        elif spec[0] == "objlist":
            args.append(objlists[spec[1]])
        elif spec[0] == "dict":
            args.append(dicts[spec[1]])
        elif spec[0] == "list":
            args.append(lists[spec[1]])
        elif spec[0] == "scalar":
            args.append(spec[1])
        else:
            view = bases[spec[1]][spec[2]]
            args.append(view.T if spec[3] else view)
    return args, bases + lists + dicts + sets + objlists + ([objects] if objects else [])


def realize_objects(recipe, make_instance):
    specs = recipe.get("objects", [])
    if specs and make_instance is None:
        raise ValueError("a recipe with instances needs make_instance")
    objects = [make_instance(name, a, b, flag) for name, a, b, flag, _ in specs]
    for instance, spec in zip(objects, specs):
        if spec[4] is not None:
            instance.nxt = objects[spec[4]]
    return objects


def describe(recipe):
    """Python source that rebuilds the recipe's arguments (for repro files)."""
    lines = []
    for i, b in enumerate(recipe["bases"]):
        dtype = "bool_" if b.dtype == np.bool_ else b.dtype.name
        lines.append(f"base{i} = np.array({to_literal(b.tolist())}, dtype=np.{dtype})"
                     + (f".reshape{b.shape}" if b.ndim > 1 else ""))
    for i, items in enumerate(recipe.get("lists", [])):
        lines.append(f"list{i} = {to_literal(items)}")
    for i, pairs in enumerate(recipe.get("dicts", [])):
        lines.append(f"dict{i} = {{" + ", ".join(f"{to_literal(k)}: {to_literal(v)}"
                                                 for k, v in pairs) + "}")
    for i, (name, a, b, flag, link) in enumerate(recipe.get("objects", [])):
        lines.append(f"object{i} = native.{name}({to_literal(a)}, {to_literal(b)}, {flag})")
    for i, spec in enumerate(recipe.get("objects", [])):
        if spec[4] is not None:
            lines.append(f"object{i}.nxt = object{spec[4]}")
    for i, items in enumerate(recipe.get("objlists", [])):
        lines.append(f"objlist{i} = [" + ", ".join(
            f"object{k}" if isinstance(k, int) else to_literal(k[1]) for k in items) + "]")
    for i, (elements, frozen) in enumerate(recipe.get("sets", [])):
        text = "{" + ", ".join(to_literal(x) for x in elements) + "}" if elements else "set()"
        lines.append(f"set{i} = {'frozenset(' + text + ')' if frozen else text}")
    parts = []
    for spec in recipe["args"]:
        if spec[0] == "set":
            parts.append(f"set{spec[1]}")
        elif spec[0] == "objlist":
            parts.append(f"objlist{spec[1]}")
        elif spec[0] == "dict":
            parts.append(f"dict{spec[1]}")
        elif spec[0] == "list":
            parts.append(f"list{spec[1]}")
        elif spec[0] == "scalar":
            parts.append(to_literal(spec[1]))
        else:
            index = ", ".join(slice_text(s) for s in spec[2])
            parts.append(f"base{spec[1]}[{index}]" + (".T" if spec[3] else ""))
    lines.append(f"args = [{', '.join(parts)}]")
    return "\n".join(lines)


def slice_text(s):
    return ":".join("" if v is None else str(v) for v in (s.start, s.stop)) + (
        f":{s.step}" if s.step is not None else "")


def to_literal(value):
    if isinstance(value, list):
        return "[" + ", ".join(to_literal(v) for v in value) + "]"
    if isinstance(value, complex):
        return f"complex({to_literal(value.real)}, {to_literal(value.imag)})"
    if isinstance(value, float):
        if value != value:
            return "float('nan')"
        if value in (float("inf"), float("-inf")):
            return f"float('{value}')"
        return repr(value)
    return repr(value)
