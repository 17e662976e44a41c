"""Python sets in generated programs (issue 30; docs/language.md "Sets"):
the set constructs of `generator.FunctionGenerator`, in the style of
list_constructs.py and dict_constructs.py.

Old seeds keep their programs: whether a program uses sets is drawn from
its own stream (`random.Random(f"{seed}:{index}:sets")`, `SET_PROGRAM_RATE`,
`--set-rate`), and in a set program every set construct is drawn from a
per-function set stream (`set_stream`: `self.rng` is swapped for it, fresh
names count from 6000, statements do not count against `max_statements`),
interleaved before the statements of every block (`set_hook`,
`SET_STATEMENT_RATE`). Set variables (`z6xxx`) live apart (`self.sets`:
name -> element kind) and only set-stream code reads them. Extra set
parameters (`p6xx`) come after the list and dict ones; a scalar result may
become a set result (the scalar expression is still drawn and dropped).

Constructs (`SET_STATEMENTS`, `set_scalar` among the expressions of the set
stream): literals (elements joining: an int among floats, a bool among
ints; duplicates, `-0.0` beside `0.0`, `math.nan`, `math.inf`, ints
colliding in their low bits: multiples of 2**40, -1, -2, the int64
extremes), `set()`, comprehensions over `range`, lists, 1-D arrays, dicts,
`d.keys()`, `d.values()`, `d.items()` and sets, `set(xs)`, `set(s)`,
`set(d)`, `set(d.keys())`, `set(d.values())`, `set(range(...))`,
`s.copy()`, `s | t`, `s & t`, `s - t`, `s ^ t`, `union`, `intersection`,
`difference` (several arguments: sets, lists, ranges, dicts),
`symmetric_difference`; `x in s`, `x not in s`, `len`, truthiness (`if s:`,
`not s`, `bool(s)`, `while s:`), `add`, `discard`, `remove` (KeyError,
mostly under `if x in s:`), `pop` (KeyError when empty; `while s:
n ^= s.pop()`), `clear`, `update`, `intersection_update`,
`difference_update`, `symmetric_difference_update`, `|= &= -= ^=` (the
other operand now and then the set itself), `issubset`, `issuperset`,
`isdisjoint`, `== != <= < >= >`, `sorted` (`reverse=`), `list(s)`, `sum`
(`start`), `min`, `max` (ValueError when empty), `any`, `all`; loops `for
x in s` and `enumerate(s)` folding ints (`^`, wrapping `+`), counting,
folding floats (`f * 0.5 + x`: the insertion order shows), adding to other
sets, and rarely changing the set they iterate (RuntimeError at the next
step, or a `break` right after); `while len(s) > n: s.remove(max(s))` (a
NaN is never found: KeyError); sorted lists of sets into list variables
and sets of lists; aliasing (`t = s; t.add(x)`); sets passed to and
returned from helpers (`hs*`, which change their set parameters), set
parameters of the exported function (inputs.py makes them, frozensets
too) and set results.

Every order the oracle sees is Kiln's insertion order (sets.py); an
argument set's is CPython's iteration order of the caller's set, the same
in both processes because inputs.py never mixes a NaN with other elements.

Growth is bounded: an add in a loop runs under `if len(s) < SET_LIMIT`;
comprehensions walk ranges of at most 12, lists, dicts and sets.
"""

from __future__ import annotations

import contextlib

SET_KINDS = ("i64", "f64", "bool")
TYPE_NAME = {"i64": "int", "f64": "float", "bool": "bool"}
SET_PROGRAM_RATE = 0.3         # programs with sets (drawn from the set stream)
SET_STATEMENT_RATE = 0.4       # a set statement before a statement of a set program
SET_RESULT_RATE = 0.3          # a scalar result of a set program made a set
SET_PARAM_COUNTS = (0, 1, 1, 1, 2, 2)
SET_LIMIT = 40
SET_STATEMENTS = {
    "set_assign": 4, "set_alias": 1, "set_add": 6, "set_remove": 5, "set_pop": 2,
    "set_update": 4, "set_augassign": 4, "set_read": 6, "set_loop": 4, "set_while": 1.2,
    "set_if": 2, "set_call": 2, "set_list": 2,
}
I64_ELEMENTS = ["0", "1", "2", "3", "(-1)", "(-2)", "5", "7", "1099511627776",
                "(-1099511627776)", "3298534883328", "4294967296", "9223372036854775807",
                "(-9223372036854775807 - 1)"]
F64_ELEMENTS = ["0.0", "(-0.0)", "1.0", "0.5", "2.5", "(-1.0)", "3.0", "math.inf", "1e+16",
                "4294967296.0"]


def set_annotation(kind):
    return f"set[{TYPE_NAME[kind]}]"


def set_kind(rng):
    return rng.choice(("i64", "i64", "f64", "f64", "bool"))


def set_param_kinds(rng):
    return [set_kind(rng) for _ in range(rng.choice(SET_PARAM_COUNTS))]


class SetConstructs:
    """Mixed into FunctionGenerator. `self.srng` is None in a program
    without sets."""

    def init_sets(self, srng=None, set_helpers=()):
        self.srng = srng
        self.sets = {}                  # set variable -> element kind
        self.set_helpers = list(set_helpers)
        self.scounter = 0
        self.in_set_stream = False
        self.sfrozen = set()            # sets a loop iterates (their size stays)
        self.set_aliased = set()        # sets that may be another name's set too

    @contextlib.contextmanager
    def set_stream(self):
        saved = (self.rng, self.statements, self.in_set_stream)
        self.rng, self.in_set_stream = self.srng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_set_stream = saved

    def set_hook(self, depth):
        if self.srng is None or self.in_set_stream:
            if self.in_set_stream and self.sets and self.rng.random() < 0.25:
                self.set_statement(depth)
            return
        if self.srng.random() >= SET_STATEMENT_RATE:
            return
        with self.set_stream():
            self.set_statement(depth)

    def set_statement(self, depth):
        allowed = [name for name in SET_STATEMENTS
                   if name not in ("set_loop", "set_while", "set_if") or
                   depth < self.config.max_depth]
        for _ in range(10):
            choice = self.rng.choices(allowed, [SET_STATEMENTS[n] for n in allowed])[0]
            if getattr(self, "s_" + choice)(depth) is not False:
                return

    def declare_sets(self, params, header_lines):
        for p in params:
            if getattr(p, "container", "") == "set":
                self.sets[p.name] = p.kind
                self.set_aliased.add(p.name)     # two parameters may be one set
        if self.srng is None:
            return
        with self.set_stream():
            saved = self.lines
            self.lines = header_lines
            for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
                kind = set_kind(self.rng)
                name = self.fresh("z")
                value = self.z_new(kind, 1)
                header_lines.append(f"    {name}: {set_annotation(kind)} = {value}")
                self.sets[name] = kind
            self.lines = saved

    # -------------------------------------------------------- set values
    def set_names(self, kind=None, mutable=False):
        return [n for n, k in self.sets.items() if (kind is None or k == kind)
                and not (mutable and n in self.sfrozen)]

    def set_element(self, kind, depth=2):
        """An element for a set of `kind`: mostly from a small pool
        (elements repeat and collide), an int among floats and a bool
        among ints now and then."""
        roll = self.rng.random()
        counters = [n for n, k in self.scope.readonly.items() if k == kind]
        if counters and roll < 0.2:
            return self.rng.choice(counters)
        if kind == "bool":
            return self.rng.choice(["True", "False"]) if roll < 0.6 else self.expr("bool", depth)
        if kind == "i64":
            if roll < 0.6:
                return self.rng.choice(I64_ELEMENTS[:8] * 3 + I64_ELEMENTS[8:])
            if roll < 0.68:
                return self.expr("bool", depth)
            if roll < 0.85:
                return f"({self.no_u64(self.expr('i64', depth), 'int')}) % 8"
            return self.no_u64(self.expr("i64", depth), "int")
        if roll < 0.5:
            return self.rng.choice(F64_ELEMENTS[:7] * 3 + F64_ELEMENTS[7:])
        if roll < 0.58:
            return self.rng.choice(["math.nan", "(-math.inf)"])
        if roll < 0.7:
            return self.rng.choice(["0", "1", "2", "(-1)"])
        if roll < 0.8:
            return f"({self.no_u64(self.expr('i64', depth), 'int')}) % 4"
        return self.no_u64(self.expr("f64", depth), "float")

    def probe(self, kind):
        """An element looked up (`in`, `discard`, `remove`): the same value
        when read twice (`if x in s: s.remove(x)`); an int among floats, a
        bool among ints now and then."""
        fits = {"i64": ("i64", "bool"), "f64": ("f64", "i64"), "bool": ("bool",)}[kind]
        names = [n for n in list(self.scope.scalars) + list(self.scope.readonly)
                 if (self.scope.scalars.get(n) or self.scope.readonly.get(n)) in fits]
        if names and self.rng.random() < 0.35:
            return self.rng.choice(names)
        if kind == "bool":
            return self.rng.choice(["True", "False"])
        if kind == "f64" and self.rng.random() < 0.2:
            return self.rng.choice(["0", "1", "2", "(-1)", "math.nan"])
        return self.rng.choice((I64_ELEMENTS if kind == "i64" else F64_ELEMENTS)[:8])

    def z_literal(self, kind, depth):
        if self.rng.random() < 0.1:
            return "set()"
        count = self.rng.choice([1, 2, 2, 3, 4, 5])
        return "{" + ", ".join(self.set_element(kind, depth + 1) for _ in range(count)) + "}"

    def z_comprehension(self, kind, depth, brackets="{}"):
        """`{e for x in it if c}` over a range, a list, a 1-D array, a
        dict or its views, a set; one or two clauses."""
        var = self.fresh("v")
        bound = {}
        sources = ["range"]
        lnames = list(getattr(self, "lists", {}))
        dnames = list(getattr(self, "dicts", {}))
        snames = list(self.sets)
        arrays = [a for a in self.arrays() if self.scope.arrays[a][1] == 1 and
                  self.scope.arrays[a][0] in ("f64", "i64", "bool")]
        if lnames:
            sources.append("list")
        if dnames:
            sources += ["dict", "values", "items"]
        if snames:
            sources += ["set", "set"]
        if arrays:
            sources.append("array")
        source = self.rng.choice(sources)
        if source == "range":
            ends = ["0", "3", "5", "8", "12"]
            ints = self.variables("i64")
            if ints:
                ends.append(f"max(min({self.rng.choice(ints)}, 12), 0)")
            iterable = f"{var} in range({self.rng.choice(ends)})"
            bound[var] = "i64"
        elif source == "list":
            xs = self.rng.choice(lnames)
            iterable, bound[var] = f"{var} in {xs}", self.lists[xs]
        elif source in ("dict", "values"):
            d = self.rng.choice(dnames)
            suffix = "" if source == "dict" else ".values()"
            iterable = f"{var} in {d}{suffix}"
            bound[var] = self.dicts[d][1 if source == "values" else 0]
        elif source == "items":
            d = self.rng.choice(dnames)
            other = self.fresh("v")
            iterable = f"{var}, {other} in {d}.items()"
            bound[var], bound[other] = self.dicts[d]
        elif source == "set":
            s = self.rng.choice(snames)
            iterable, bound[var] = f"{var} in {s}", self.sets[s]
        else:
            a = self.rng.choice(arrays)
            iterable, bound[var] = f"{var} in {a}", self.scope.arrays[a][0]
        for name, k in bound.items():
            self.scope.readonly[name] = k
        clauses = f"for {iterable}"
        if self.rng.random() < 0.15:
            inner = self.fresh("v")
            self.scope.readonly[inner] = "i64"
            bound[inner] = "i64"
            clauses += f" for {inner} in range({self.rng.choice(['2', '3'])})"
        if self.rng.random() < 0.4:
            clauses += f" if {self.expr('bool', depth + 1)}"
        fits = {"i64": ("i64", "bool"), "f64": ("f64", "i64", "bool"), "bool": ("bool",)}[kind]
        if brackets == "[]":
            # a list comprehension inside sorted() is no new list to convert
            # where it is stored (a list[int] made a list[float] falls back)
            fits = (kind,)
        usable = [n for n, k in bound.items() if k in fits]
        if usable and self.rng.random() < 0.6:
            name = self.rng.choice(usable)
            element = name
            if bound[name] == "i64" and kind == "i64" and self.rng.random() < 0.4:
                element = self.rng.choice([f"{name} % 3", f"-{name}", f"{name} * 1099511627776",
                                           f"{name} // 2"])
            elif bound[name] == "f64" and self.rng.random() < 0.3:
                element = self.rng.choice([f"{name} * 0.5", f"-{name}", f"{name} + 1.0"])
        elif brackets == "[]":
            element = self.no_u64(self.expr(kind, depth + 1),
                                  {"i64": "int", "f64": "float", "bool": "bool"}[kind])
        else:
            element = self.set_element(kind, depth + 1)
        for name in bound:
            self.scope.readonly.pop(name, None)
        return f"{brackets[0]}{element} {clauses}{brackets[1]}"

    def other_iterable(self, kind, depth, sets_only=False):
        """The other operand of a method: a set of `kind` (a name, itself
        now and then, a literal), a list of `kind` (or of ints for a float
        set), a dict's keys or values, range(...)."""
        options = []
        names = self.set_names(kind)
        if names:
            options += [("name", n) for n in names] * 2
        options.append(("literal", None))
        if not sets_only:
            lists = getattr(self, "lists", {})
            options += [("list", n) for n, k in lists.items()
                        if k == kind or (kind == "f64" and k == "i64")]
            for d, (kk, vk) in getattr(self, "dicts", {}).items():
                if kk == kind:
                    options.append(("dict", d))
                if vk == kind:
                    options.append(("values", d))
            if kind in ("i64", "f64"):
                options.append(("range", None))
        what, name = self.rng.choice(options)
        if what in ("name", "list"):
            return name
        if what == "dict":
            return self.rng.choice([name, f"{name}.keys()"])
        if what == "values":
            return f"{name}.values()"
        if what == "range":
            a, b = self.rng.choice(["0", "(-3)", "2"]), self.rng.choice(["5", "0", "9"])
            return f"range({a}, {b}{self.rng.choice(['', ', 2', ', (-1)'])})"
        return self.z_literal(kind, depth + 1) if self.rng.random() < 0.8 else \
            self.z_comprehension(kind, depth + 1)

    def z_new(self, kind, depth=0):
        """A new set usable as a set of `kind`."""
        same = self.set_names(kind)
        roll = self.rng.random()
        if roll < 0.3 or not same and roll < 0.5:
            return self.z_literal(kind, depth)
        if roll < 0.5 or not same and roll < 0.7:
            return self.z_comprehension(kind, depth)
        if roll < 0.6 or not same:
            sources = []
            lists = getattr(self, "lists", {})
            sources += [f"set({n})" for n, k in lists.items() if k == kind]
            for d, (kk, vk) in getattr(self, "dicts", {}).items():
                if kk == kind:
                    sources += [f"set({d})", f"set({d}.keys())"]
                if vk == kind:
                    sources.append(f"set({d}.values())")
            if kind == "i64":
                a, b = self.rng.choice(["0", "(-3)", "2"]), self.rng.choice(["5", "0", "9"])
                sources.append(f"set(range({a}, {b}{self.rng.choice(['', ', 2', ', (-2)'])}))")
            if sources:
                return self.rng.choice(sources)
            return self.z_literal(kind, depth)
        fitting = [h for h in self.set_helpers if h.returns == ("set", kind)]
        if fitting and self.rng.random() < 0.3:
            call = self.set_call(self.rng.choice(fitting), depth)
            if call:
                return call
        s = self.rng.choice(same)
        roll = self.rng.random()
        if roll < 0.15:
            return self.rng.choice([f"set({s})", f"{s}.copy()"])
        if roll < 0.55:
            op = self.rng.choice(["|", "&", "-", "^"])
            other = self.other_iterable(kind, depth, sets_only=True)
            if self.rng.random() < 0.25:
                return f"{other} {op} {s}"
            return f"{s} {op} {other}"
        method = self.rng.choice(["union", "intersection", "difference",
                                  "symmetric_difference"])
        count = 1 if method == "symmetric_difference" else self.rng.choice([0, 1, 1, 1, 2])
        args = ", ".join(self.other_iterable(kind, depth) for _ in range(count))
        return f"{s}.{method}({args})"

    def set_call(self, helper, depth):
        args = []
        for p in helper.params:
            container = getattr(p, "container", "")
            if container == "set":
                names = self.set_names(p.kind, mutable=True)
                if names and self.rng.random() < 0.85:
                    args.append(self.rng.choice(names))
                else:
                    args.append(self.z_literal(p.kind, depth + 1))
            elif container or p.ndim:
                return None
            else:
                args.append(self.expr(p.kind, depth + 1))
        return f"{helper.name}({', '.join(args)})"

    # ------------------------------------------------ scalar expressions
    def e_set_scalar(self, kind, depth):
        if not self.sets or not self.in_set_stream:
            return None
        s = self.rng.choice(list(self.sets))
        k = self.sets[s]
        roll = self.rng.random()
        if kind == "bool":
            if roll < 0.3:
                return f"({self.probe(k)} {self.rng.choice(['in', 'not in'])} {s})"
            if roll < 0.5:
                op = self.rng.choice(["==", "!=", "<=", "<", ">=", ">"])
                return f"({s} {op} {self.other_iterable(k, depth, sets_only=True)})"
            if roll < 0.65:
                method = self.rng.choice(["issubset", "issuperset", "isdisjoint"])
                return f"{s}.{method}({self.other_iterable(k, depth)})"
            if roll < 0.8:
                return self.rng.choice([f"(not {s})", f"bool({s})", f"(len({s}) > 1)",
                                        f"any({s})", f"all({s})"])
            if k == "bool" and roll < 0.9:
                return f"({self.rng.choice(['True', 'False'])} in {s})"
            return None
        if kind not in ("i64", "f64"):
            return None
        if kind == "i64" and roll < 0.3:
            return self.rng.choice([f"len({s})", f"len({s} | {self.z_literal(k, depth + 1)})",
                                    f"len({s}.intersection({self.other_iterable(k, depth)}))",
                                    f"len(sorted({s}))"])
        fits = ("i64", "bool") if kind == "i64" else ("f64",)
        same = [n for n, sk in self.sets.items() if sk in fits]
        if not same:
            return None
        s = self.rng.choice(same)
        k = self.sets[s]
        if k == "bool":
            return f"sum({s})"
        if roll < 0.55:
            start = f", {self.expr(kind, depth + 1)}" if self.rng.random() < 0.25 else ""
            return f"sum({s}{start})"
        which = self.rng.choice(["min", "max"])
        if roll < 0.8:
            # min/max of an empty set raise: mostly of the set and one more element
            return f"{which}({s} | {{{self.set_element(k, depth + 1)}}})"
        if roll < 0.9:
            return f"{which}({s})"
        return self.rng.choice([f"sorted({s})[0]", f"sorted({s}, reverse=True)[0]",
                                f"list({s})[-1]"])

    # -------------------------------------------------------- statements
    def pick_set(self, mutable=True):
        names = self.set_names(mutable=mutable)
        return self.rng.choice(names) if names else None

    def set_grows(self, depth, s, text):
        """A statement that can add to `s`: in a loop, under a length guard."""
        if self.loop_depth:
            self.emit(depth, f"if len({s}) < {self.rng.choice([8, 20, SET_LIMIT])}:")
            self.emit(depth + 1, text)
        else:
            self.emit(depth, text)

    def s_set_assign(self, depth):
        s = self.pick_set()
        if s is None:
            return False
        value = self.z_new(self.sets[s], 1)
        if value.startswith("hs"):
            self.set_aliased.add(s)        # a helper may return its argument
        if self.loop_depth and ("|" in value or "union" in value or "^" in value):
            self.emit(depth, f"if len({s}) < {SET_LIMIT}:")
            self.emit(depth + 1, f"{s} = {value}")
            return
        self.emit(depth, f"{s} = {value}")

    def s_set_alias(self, depth):
        for kind in self.rng.sample(SET_KINDS, 3):
            names = self.set_names(kind, mutable=True)
            if len(names) >= 2:
                t, s = self.rng.sample(names, 2)
                self.emit(depth, f"{t} = {s}")
                self.set_aliased.update((t, s))
                self.set_grows(depth, t, f"{t}.add({self.set_element(kind)})")
                return
        return False

    def s_set_add(self, depth):
        s = self.pick_set()
        if s is None:
            return self.s_set_rare_resize(depth)
        self.set_grows(depth, s, f"{s}.add({self.set_element(self.sets[s])})")

    def s_set_remove(self, depth):
        """`s.discard(x)`, `s.remove(x)` (KeyError unguarded), `s.clear()`."""
        s = self.pick_set()
        if s is None:
            return self.s_set_rare_resize(depth)
        kind = self.sets[s]
        roll = self.rng.random()
        if roll < 0.4:
            self.emit(depth, f"{s}.discard({self.probe(kind) if self.rng.random() < 0.7 else self.set_element(kind)})")
        elif roll < 0.9:
            x = self.probe(kind)
            if self.rng.random() < 0.7:
                self.emit(depth, f"if {x} in {s}:")
                depth += 1
            self.emit(depth, f"{s}.remove({x})")
        else:
            self.emit(depth, f"{s}.clear()")

    def s_set_pop(self, depth):
        """`x = s.pop()` under `if s:` (mostly), or not: KeyError."""
        s = self.pick_set()
        if s is None:
            return False
        kind = self.sets[s]
        if self.rng.random() < 0.75:
            self.emit(depth, f"if {s}:" if self.rng.random() < 0.7 else f"if len({s}) > 0:")
            depth += 1
        target = self.scalar_target(kind)
        if target and self.rng.random() < 0.6:
            self.emit(depth, f"{target} = {s}.pop()")
        else:
            self.emit(depth, f"{s}.pop()")

    def s_set_update(self, depth):
        """The updating methods, with one or two sets, lists, dicts, ranges."""
        s = self.pick_set()
        if s is None:
            return False
        kind = self.sets[s]
        method = self.rng.choice(["update", "update", "intersection_update",
                                  "difference_update", "symmetric_difference_update"])
        count = 1 if method == "symmetric_difference_update" else self.rng.choice([1, 1, 2])
        if self.avoid("S8"):
            count = 1
        args = ", ".join(self.other_iterable(kind, 2) for _ in range(count))
        if method in ("update", "symmetric_difference_update"):
            self.set_grows(depth, s, f"{s}.{method}({args})")
        else:
            self.emit(depth, f"{s}.{method}({args})")

    def s_set_augassign(self, depth):
        """`s |= t`, `&=`, `-=`, `^=` (t a set of the kind, s itself now and then)."""
        s = self.pick_set()
        if s is None:
            return False
        kind = self.sets[s]
        op = self.rng.choice(["|=", "&=", "-=", "^="])
        other = s if self.rng.random() < 0.12 else self.other_iterable(kind, 2, sets_only=True)
        if op in ("|=", "^="):
            self.set_grows(depth, s, f"{s} {op} {other}")
        else:
            self.emit(depth, f"{s} {op} {other}")

    def s_set_read(self, depth):
        kind = self.rng.choice(["i64", "f64", "bool", "i64", "bool"])
        target = self.scalar_target(kind)
        if not target:
            return False
        if kind in ("i64", "f64") and self.rng.random() < 0.3:
            fits = ("i64", "bool") if kind == "i64" else ("f64",)
            names = [n for n, k in self.sets.items() if k in fits]
            if names:
                s = self.rng.choice(names)
                self.emit(depth, f"if {s}:")
                self.emit(depth + 1, f"{target} = {self.rng.choice(['min', 'max'])}({s})")
                return
        value = self.e_set_scalar(kind, 1)
        if value is None:
            return False
        self.emit(depth, f"{target} = {value}")

    def s_set_if(self, depth):
        s = self.pick_set(mutable=False)
        if s is None:
            return False
        kind = self.sets[s]
        test = self.rng.choice([s, f"not {s}", f"{s} and {self.expr('bool', 2)}",
                                f"{self.probe(kind)} in {s}", f"{self.probe(kind)} not in {s}",
                                f"{s} <= {self.other_iterable(kind, 2, sets_only=True)}"])
        self.emit(depth, f"if {test}:")
        self.set_block(depth + 1)
        if self.rng.random() < 0.4:
            self.emit(depth, "else:")
            self.set_block(depth + 1)

    def set_block(self, depth):
        start = len(self.lines)
        for _ in range(self.rng.randint(1, 3)):
            if self.rng.random() < 0.65:
                self.set_statement(depth)
            else:
                self.statement(depth)
        if len(self.lines) == start:
            self.emit(depth, "pass")

    def s_set_rare_resize(self, depth):
        """Inside a loop over the set: an add or a discard (RuntimeError at
        the next step when the size changed) then, now and then, `break`."""
        loops = [s for s in self.sfrozen if s in self.sets]
        if not loops or self.rng.random() < 0.6:
            return False
        s = self.rng.choice(loops)
        kind = self.sets[s]
        self.emit(depth, f"if {self.expr('bool', 2)}:")
        if self.rng.random() < 0.5:
            self.emit(depth + 1, f"{s}.add({self.set_element(kind)})")
        else:
            self.emit(depth + 1, f"{s}.discard({self.probe(kind)})")
        if self.rng.random() < 0.4:
            self.emit(depth + 1, "break")

    def s_set_loop(self, depth):
        """`for x in s`, `for i, x in enumerate(s)`: the body folds, counts,
        adds to other sets and, rarely, changes the set it iterates."""
        if self.trip > 200:
            return False
        s = self.pick_set(mutable=False)
        if s is None:
            return False
        kind = self.sets[s]
        var = self.fresh("v")
        bound = {var: kind}
        if self.rng.random() < 0.25:
            counter = self.fresh("i")
            bound[counter] = "i64"
            header = f"for {counter}, {var} in enumerate({s}):"
        else:
            header = f"for {var} in {s}:"
        self.emit(depth, header)
        for name, k in bound.items():
            self.scope.readonly[name] = k
        # the set and every name that may be its set keep their size
        frozen = {s} | ({n for n in self.set_aliased if self.sets.get(n) == kind}
                        if s in self.set_aliased else set())
        added = frozen - self.sfrozen
        self.sfrozen |= added
        self.loop_depth += 1
        saved = self.trip
        self.trip *= SET_LIMIT
        body = depth + 1
        roll = self.rng.random()
        ints = [n for n, k in self.scope.scalars.items() if k == "i64"]
        if roll < 0.3 and ints:
            n = self.rng.choice(ints)
            if kind in ("i64", "bool"):
                self.emit(body, f"{n} = {n} {self.rng.choice(['^', '+'])} {var}")
            else:
                self.emit(body, f"{n} = {n} + 1")
        elif roll < 0.45:
            floats = [n for n, k in self.scope.scalars.items() if k == "f64"]
            if floats and kind != "bool":
                f = self.rng.choice(floats)
                self.emit(body, f"{f} = {f} * 0.5 + {var}")
        elif roll < 0.65:
            others = [n for n in self.set_names(mutable=True) if self.sets[n] in
                      {"i64": ("i64", "f64"), "f64": ("f64",), "bool": ("bool", "i64")}[kind]]
            if others:
                t = self.rng.choice(others)
                self.emit(body, f"if len({t}) < {SET_LIMIT}:")
                self.emit(body + 1, f"{t}.add({var})")
        if self.rng.random() < 0.1:
            self.s_set_rare_resize(body)
        self.set_block(body)
        self.trip = saved
        self.loop_depth -= 1
        self.sfrozen -= added
        for name in bound:
            self.scope.readonly.pop(name, None)

    def s_set_while(self, depth):
        """`while s: n ^= s.pop()`, `while len(s) > n: s.remove(max(s))`."""
        s = self.pick_set()
        if s is None:
            return False
        kind = self.sets[s]
        roll = self.rng.random()
        if roll < 0.5 or kind == "bool":
            test = f"{s} and {self.expr('bool', 2)}" if self.rng.random() < 0.4 else s
            self.emit(depth, f"while {test}:")
            target = self.scalar_target(kind)
            if target and self.scope.scalars[target] == kind and kind != "bool":
                op = "^" if kind == "i64" else "+"
                self.emit(depth + 1, f"{target} = {target} {op} {s}.pop()")
            else:
                self.emit(depth + 1, f"{s}.pop()")
            return
        self.emit(depth, f"while len({s}) > {self.rng.choice(['1', '2', '4'])}:")
        self.emit(depth + 1, f"{s}.remove({self.rng.choice(['max', 'min'])}({s}))")

    def s_set_call(self, depth):
        if not self.set_helpers:
            return False
        helper = self.rng.choice(self.set_helpers)
        call = self.set_call(helper, 2)
        if call is None:
            return False
        if isinstance(helper.returns, tuple) and helper.returns[0] == "set":
            targets = self.set_names(helper.returns[1], mutable=True)
            if targets and self.rng.random() < 0.7:
                target = self.rng.choice(targets)
                self.set_aliased.add(target)
                self.emit(depth, f"{target} = {call}")
            else:
                self.emit(depth, call)
            return
        target = self.scalar_target(helper.returns) if isinstance(helper.returns, str) else None
        if target and self.scope.scalars[target] == helper.returns:
            self.emit(depth, f"{target} = {call}")
        else:
            self.emit(depth, call)

    def s_set_list(self, depth):
        """Sets and lists: `xs = sorted(s)` / `list(s)` into a list
        variable or read back, a set of a list."""
        s = self.pick_set(mutable=False)
        if s is None:
            return False
        kind = self.sets[s]
        lists = getattr(self, "lists", {})
        fitting = [n for n, k in lists.items() if k == kind and
                   n not in getattr(self, "frozen", ())]
        roll = self.rng.random()
        if fitting and roll < 0.35:
            xs = self.rng.choice(fitting)
            source = self.rng.choice([f"sorted({s})", f"sorted({s}, reverse=True)",
                                      f"list({s})",
                                      f"sorted({self.z_comprehension(kind, 2, '[]')})"])
            self.emit(depth, f"{xs} = {source}")
            return
        if fitting and roll < 0.5 and s not in self.sfrozen:
            self.emit(depth, f"{s} = set({self.rng.choice(fitting)})")
            return
        name = self.fresh("t")
        self.emit(depth, f"{name} = {self.rng.choice([f'sorted({s})', f'list({s})'])}")
        target = self.scalar_target("i64")
        if target and self.rng.random() < 0.4:
            self.emit(depth, f"{target} = len({name})")
        elif kind != "bool":
            target = self.scalar_target(kind)
            if target:
                self.emit(depth, f"if {name}:")
                self.emit(depth + 1, f"{target} = {name}[{self.rng.choice(['0', '(-1)'])}]")

    # ---------------------------------------------------------- results
    def set_result(self, kind):
        names = self.set_names(kind)
        if names and self.rng.random() < 0.5:
            return self.rng.choice(names)
        return self.z_new(kind, 1)
