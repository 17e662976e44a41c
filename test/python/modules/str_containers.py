"""Lists, dicts and sets of str (issue 30), compiled by Kiln and run by
CPython on the same inputs (test_str_containers.py)."""

from collections import Counter, defaultdict

import kiln


# ------------------------------------------------------------- list[str]
@kiln.export
def literal_list(a: str, b: str) -> list[str]:
    return [a, b, a + b, "lit", ""]


@kiln.export
def comprehension_upper(xs: list[str]) -> list[str]:
    return [x.upper() for x in xs if x]


@kiln.export
def chars_of(s: str) -> list[str]:
    return [c for c in s]


@kiln.export
def list_of_text(s: str) -> list[str]:
    return list(s)


@kiln.export
def sorted_text(s: str) -> list[str]:
    return sorted(s)


@kiln.export
def grow(word: str, n: int) -> list[str]:
    xs: list[str] = []
    for i in range(n):
        xs.append(word + str(i))
    return xs


@kiln.export
def methods(xs: list[str], w: str) -> list[str]:
    ys = xs.copy()
    ys.append(w)
    ys.insert(0, w + "!")
    ys.insert(-1, "mid")
    ys.insert(100, "end")
    ys.extend(xs)
    ys.reverse()
    return ys


@kiln.export
def pops(xs: list[str]) -> str:
    ys = xs[:]
    out = ""
    while ys:
        out += ys.pop() + "|"
        if ys:
            out += ys.pop(0) + ";"
    return out


@kiln.export
def pop_at(xs: list[str], i: int) -> str:
    return xs.pop(i)


@kiln.export
def remove_one(xs: list[str], w: str) -> list[str]:
    xs.remove(w)
    return xs


@kiln.export
def index_of(xs: list[str], w: str) -> int:
    return xs.index(w)


@kiln.export
def count_of(xs: list[str], w: str) -> int:
    return xs.count(w)


@kiln.export
def contains(xs: list[str], w: str) -> bool:
    return w in xs and not (w not in xs)


@kiln.export
def sort_in_place(xs: list[str], reverse: bool) -> list[str]:
    xs.sort(reverse=reverse)
    return xs


@kiln.export
def sorted_copy(xs: list[str]) -> list[str]:
    return sorted(xs)


@kiln.export
def sorted_reverse(xs: list[str]) -> list[str]:
    return sorted(xs, reverse=True)


@kiln.export
def clear_it(xs: list[str]) -> int:
    n = len(xs)
    xs.clear()
    return n + len(xs)


@kiln.export
def item_at(xs: list[str], i: int) -> str:
    return xs[i]


@kiln.export
def set_item(xs: list[str], i: int, w: str) -> list[str]:
    xs[i] = w
    return xs


@kiln.export
def augment_item(xs: list[str], i: int, w: str) -> list[str]:
    xs[i] += w
    return xs


@kiln.export
def slices(xs: list[str], a: int, b: int, c: int) -> list[str]:
    return xs[a:b:c] + xs[a:] + xs[:b] + xs[::-1]


@kiln.export
def assign_slice(xs: list[str], a: int, b: int, ys: list[str]) -> list[str]:
    xs[a:b] = ys
    return xs


@kiln.export
def assign_extended(xs: list[str], ys: list[str]) -> list[str]:
    xs[::2] = ys
    return xs


@kiln.export
def delete_items(xs: list[str], i: int) -> list[str]:
    del xs[i]
    del xs[::3]
    return xs


@kiln.export
def plus_times(xs: list[str], ys: list[str], n: int) -> list[str]:
    zs = xs + ys
    zs += ys
    zs *= 2
    return zs + xs * n + n * ys


@kiln.export
def equal_lists(xs: list[str], ys: list[str]) -> bool:
    return xs == ys and not (xs != ys)


@kiln.export
def iterate(xs: list[str]) -> str:
    out = ""
    for i, x in enumerate(xs):
        out += f"{i}={x},"
    for a, b in zip(xs, xs[1:]):
        out += a + b
    return out


@kiln.export
def smallest(xs: list[str]) -> str:
    return min(xs) + max(xs)


@kiln.export
def total_length(xs: list[str]) -> int:
    n = 0
    for x in xs:
        n += len(x)
    return n + len(xs)


@kiln.export
def item_methods(xs: list[str]) -> str:
    return xs[0].upper() + xs[-1][0] + xs[0][1:]


@kiln.export
def truthy(xs: list[str]) -> int:
    n = 0
    if xs:
        n += 1
    if not xs:
        n += 2
    return n


# ------------------------------------------------------- split and join
@kiln.export
def split_ws(s: str) -> list[str]:
    return s.split()


@kiln.export
def split_sep(s: str, sep: str) -> list[str]:
    return s.split(sep)


@kiln.export
def split_max(s: str, sep: str, n: int) -> list[str]:
    return s.split(sep, n)


@kiln.export
def split_ws_max(s: str, n: int) -> list[str]:
    return s.split(None, n) + s.split(maxsplit=n)


@kiln.export
def split_keyword(s: str) -> list[str]:
    return s.split(sep=",")


@kiln.export
def join_list(sep: str, xs: list[str]) -> str:
    return sep.join(xs)


@kiln.export
def join_generator(s: str) -> str:
    return "-".join(w.upper() for w in s.split() if w)


@kiln.export
def join_comprehension(n: int) -> str:
    return ", ".join([str(i) for i in range(n)])


@kiln.export
def join_split(s: str) -> str:
    return " ".join(s.split())


@kiln.export
def first_word(s: str) -> str:
    return s.split()[0]


@kiln.export
def word_lengths(s: str) -> list[int]:
    return [len(w) for w in s.split(",")]


# -------------------------------------------------------- dict[str, V]
@kiln.export
def word_count(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


@kiln.export
def word_count_plus(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for w in text.split():
        if w not in counts:
            counts[w] = 0
        counts[w] += 1
    return counts


@kiln.export
def counter_words(text: str) -> dict[str, int]:
    c = Counter(text.split())
    return dict(c)


@kiln.export
def defaultdict_words(text: str) -> dict[str, int]:
    d = defaultdict(int)
    for w in text.split():
        d[w] += len(w)
    return dict(d)


@kiln.export
def dict_literal(a: str, b: str) -> dict[str, float]:
    d = {a: 1.5, b: 2.5, "x": 0.0}
    d[a + b] = 3.0
    return d


@kiln.export
def dict_lookup(d: dict[str, int], k: str) -> int:
    return d[k]


@kiln.export
def local_lookup(k: str) -> int:
    d = {"a": 1, "é": 2, "😀": 3, "A": 4}
    return d[k]


@kiln.export
def dict_methods(keys: list[str]) -> str:
    d: dict[str, str] = {}
    for k in keys:
        d[k] = k.upper()
    out = ""
    for k, v in d.items():
        out += k + ":" + v + ";"
    for k in d:
        out += k
    for v in d.values():
        out += v
    for k in d.keys():
        out += k
    out += d.get("zz", "none") + d.setdefault("new", "made") + d.setdefault("new", "again")
    if keys:
        out += d.pop(keys[0]) + d.pop("absent", "default")
    out += str(len(d)) + str("new" in d) + str("zz" in d)
    e = d.copy()
    e["other"] = "o"
    out += str(d == e) + str(len(e))
    del e["other"]
    out += str(d == e)
    e.update(d)
    d.clear()
    out += str(len(d)) + str(len(e))
    return out


@kiln.export
def dict_pop_missing(k: str) -> str:
    d = {"a": "1", "b": "2"}
    return d.pop(k)


@kiln.export
def dict_del_missing(k: str) -> int:
    d = {"a": 1}
    del d[k]
    return len(d)


@kiln.export
def int_to_str(n: int) -> dict[int, str]:
    d = {i: str(i) * (i % 3) for i in range(n)}
    d[0] = "zero"
    return d


@kiln.export
def str_to_str(xs: list[str]) -> dict[str, str]:
    return {x: x[::-1] for x in xs}


@kiln.export
def sorted_keys(d: dict[str, int]) -> list[str]:
    return sorted(d)


@kiln.export
def keys_list(d: dict[str, int]) -> list[str]:
    return list(d) + list(d.keys())


@kiln.export
def values_list(d: dict[int, str]) -> list[str]:
    return list(d.values())


@kiln.export
def dict_min_max(d: dict[str, int]) -> str:
    return min(d) + max(d)


@kiln.export
def augment_str_value(d: dict[str, str], k: str) -> dict[str, str]:
    d[k] += "!"
    return d


@kiln.export
def bool_values(xs: list[str]) -> dict[str, bool]:
    d: dict[str, bool] = {}
    for x in xs:
        d[x] = x.isdigit()
    return d


# --------------------------------------------------------------- set[str]
@kiln.export
def set_ops(xs: list[str], ys: list[str]) -> list[str]:
    a = set(xs)
    b = set(ys)
    out = sorted(a | b) + ["|"] + sorted(a & b) + ["|"] + sorted(a - b) + ["|"] + sorted(a ^ b)
    return out


@kiln.export
def set_methods(xs: list[str], w: str) -> str:
    s: set[str] = set()
    for x in xs:
        s.add(x)
    s.add(w)
    s.discard("zz")
    out = str(len(s)) + str(w in s) + str("q" not in s)
    s.remove(w)
    t = s.copy()
    t.add("new")
    out += str(s <= t) + str(s < t) + str(t >= s) + str(s == t) + str(s.issubset(t))
    out += str(s.isdisjoint({"new"}))
    s.update(t)
    out += ",".join(sorted(s))
    u = s.union(xs).intersection(t)
    out += str(len(u))
    return out


@kiln.export
def set_of_text(s: str) -> list[str]:
    return sorted(set(s))


@kiln.export
def set_comprehension(s: str) -> set[str]:
    return {w.lower() for w in s.split()}


@kiln.export
def set_literal(a: str) -> set[str]:
    return {a, "b", a, "c"}


@kiln.export
def set_remove_missing(w: str) -> int:
    s = {"a", "b"}
    s.remove(w)
    return len(s)


@kiln.export
def set_pop_all(xs: list[str]) -> str:
    s = set(xs)
    out = ""
    while s:
        out += s.pop()
    return str(len(out))


@kiln.export
def unique_words(text: str) -> int:
    seen: set[str] = set()
    n = 0
    for w in text.split():
        if w not in seen:
            seen.add(w)
            n += 1
    return n + len(seen)


# -------------------------------------- a raise after storing a parameter
@kiln.export
def append_then_raise(xs: list[str], w: str, i: int) -> str:
    xs.append(w)
    return xs[i * 10]


@kiln.export
def insert_then_raise(xs: list[str], w: str, i: int) -> str:
    xs.insert(0, w)
    return xs[i * 10]


# ---------------------------------------------------- module constants
WORDS = ["apple", "égal", "😀x", "apple"]
CODES = {"a": 1, "é": 2, "😀": 3}
NAMES = {1: "one", 2: "two"}


@kiln.export
def constant_reads(w: str, k: int) -> str:
    n = WORDS.count(w) + len(WORDS) + CODES.get(w, -1)
    return str(n) + NAMES.get(k, "none") + ",".join(sorted(WORDS)) + str(w in CODES)


# ------------------------------------------- references across changes
@kiln.export
def kept_after_clear(xs: list[str]) -> str:
    first = xs[0]
    last = xs.pop()
    xs.clear()
    return first + last


@kiln.export
def self_assignments(xs: list[str]) -> list[str]:
    xs[0] = xs[0]
    xs[-1] = xs[0] + xs[-1]
    xs[1:3] = xs
    xs += xs
    xs.extend(xs[:2])
    return xs


@kiln.export
def same_list_twice(a: list[str], b: list[str]) -> bool:
    a.append("from a")
    return a is b or b[-1] == "from a"


@kiln.export
def popped_value(d: dict[str, str], k: str) -> str:
    v = d.pop(k, "default")
    d.clear()
    return v + str(len(d))


@kiln.export
def copy_then_clear(d: dict[str, str]) -> dict[str, str]:
    e = d.copy()
    d.clear()
    e["new"] = "value"
    return e


@kiln.export
def remove_while_iterating(xs: list[str]) -> list[str]:
    for w in xs:
        if w:
            xs.remove(w)
    return xs


def count_down(xs: list[str], n: int) -> list[str]:
    if n == 0:
        return xs
    xs.append(str(n))
    return count_down(xs, n - 1)


@kiln.export
def recursive(n: int) -> list[str]:
    return count_down([], n)


@kiln.export
def changed_set(s: set[str], w: str) -> set[str]:
    s.add(w)
    s.discard("a")
    return s


@kiln.export
def changed_dict(d: dict[str, int], w: str) -> int:
    d[w] = d.get(w, 0) + 1
    if "a" in d:
        del d["a"]
    return len(d)


@kiln.export
def stored_then_raise(d: dict[str, str], s: set[str], w: str) -> str:
    d[w] = w
    s.add(w)
    return d["missing" + w]


@kiln.export
def join_iterables(s: str, d: dict[str, int], t: dict[int, str], u: set[str]) -> str:
    return ",".join(s) + "|" + "-".join(d) + "|" + "".join(t.values()) + "|" + \
        str(len(" ".join(u))) + "|" + ":".join(d.keys())


def counts_of(words: list[str]) -> dict[str, int]:
    c: dict[str, int] = {}
    for w in words:
        c[w] = c.get(w, 0) + 1
    return c


def first_long(words: list[str], n: int) -> str:
    for w in words:
        if len(w) > n:
            return w
    return ""


def bump(d: dict[str, int], k: str) -> None:
    d[k] = d.get(k, 0) + 10


def uniq(words: list[str]) -> set[str]:
    return set(words)


@kiln.export
def helpers(text: str, n: int) -> str:
    words = text.split()
    c = counts_of(words)
    bump(c, "zz")
    bump(c, words[0] if words else "q")
    u = uniq(words)
    return first_long(words, n) + str(sorted(c.values())[-1] if c else 0) + str(len(u)) + ",".join(sorted(u))


@kiln.export
def chars(words: list[str], d: dict[int, str]) -> str:
    out = ""
    for i in range(len(words)):
        if words[i]:
            out += words[i][0] + words[i][-1].upper()
    for k in d:
        out += d[k][:1] + d[k].upper()
    return out


@kiln.export
def nested_loops(words: list[str]) -> int:
    n = 0
    for a in words:
        for b in words:
            if a < b:
                n += 1
            if a == b:
                break
    return n


# ----------------------------------------------------------- popitem
@kiln.export
def popitems(text: str) -> str:
    d = {w: len(w) for w in text.split()}
    out = ""
    while d:
        k, v = d.popitem()
        out += k + str(v) + ";"
    return out

@kiln.export
def popitem_numbers(n: int) -> int:
    d = {i: i * i for i in range(n)}
    del d[0]
    k, v = d.popitem()
    return k * 1000 + v

@kiln.export
def popitem_values(n: int) -> str:
    d = {i: str(i) for i in range(n)}
    d.popitem()
    k, v = d.popitem()
    return v + str(k)

@kiln.export
def popitem_empty() -> int:
    d: dict[str, str] = {}
    k, v = d.popitem()
    return len(k)
