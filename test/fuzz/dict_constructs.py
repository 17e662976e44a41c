"""Python dicts in generated programs (issue 30; docs/language.md "Dicts"):
the dict constructs of `generator.FunctionGenerator`, in the style of
list_constructs.py.

Old seeds keep their programs: whether a program uses dicts is drawn from
its own stream (`random.Random(f"{seed}:{index}:dicts")`, `DICT_PROGRAM_RATE`,
`--dict-rate`), and in a dict program every dict construct is drawn from a
per-function dict stream (`dict_stream`: `self.rng` is swapped for it, fresh
names count from 700, statements do not count against `max_statements`),
interleaved before the statements of every block (`dict_hook`,
`DICT_STATEMENT_RATE`). Dict variables live apart (`self.dicts`: name ->
(key kind, value kind)) and only dict-stream code reads them. Extra dict
parameters come after the list ones; a scalar result may become a dict
result (the scalar expression is still drawn and dropped).

Constructs (`DICT_STATEMENTS`, `dict_scalar` among the expressions of the
dict stream): literals (keys joining, duplicate keys, `-0.0` beside `0.0`,
`math.nan`, keys colliding in their low bits: multiples of 2**40, -1, -2),
`{}` with stores in a loop (an undeclared dict typed by its stores, the
`d[v] = d.get(v, 0) + 1` count), comprehensions over `range`, lists, 1-D
arrays, dicts, `d.keys()`, `d.values()`, `d.items()` and `enumerate(xs)`,
`dict(d)`, `d.copy()`; `d[k]` (present and missing: KeyError), `d[k] = v`,
`d[k] op= v`, `del d[k]`, `k in d`, `k not in d`, `k in d.keys()`, `len`,
truthiness, `get`, `setdefault`, `pop(k)`, `pop(k, default)`, `clear`,
`update`, `==`, `!=`; loops over `d`, `d.keys()`, `d.values()`,
`d.items()`, `enumerate(d)` whose bodies change values (and, rarely, the
size: RuntimeError, or a `break` right after), `while d and ...:
d.pop(max(d))`; `list(d)`, `list(d.values())`, `sorted(d[, reverse=])`,
`sum`, `min`, `max`; aliasing (`e = d; e[k] = v`); dicts passed to and
returned from helpers (`hd*`, which change their dict parameters); dict
parameters of the exported function (inputs.py makes them) and dict
results.

Growth is bounded: a store or `setdefault` inside a loop, and every
`update`, runs under `if len(d) < DICT_LIMIT`; comprehensions walk ranges of
at most 12, lists and dicts.
"""

from __future__ import annotations

import contextlib

DICT_KINDS = ("i64", "f64", "bool")
TYPE_NAME = {"i64": "int", "f64": "float", "bool": "bool"}
DICT_PROGRAM_RATE = 0.3        # programs with dicts (drawn from the dict stream)
DICT_STATEMENT_RATE = 0.4      # a dict statement before a statement of a dict program
DICT_RESULT_RATE = 0.3         # a scalar result of a dict program made a dict
DICT_PARAM_COUNTS = (0, 1, 1, 1, 2, 2)
DICT_LIMIT = 40
DICT_STATEMENTS = {
    "dict_assign": 3, "dict_build": 2, "dict_alias": 1, "dict_store": 7, "dict_augstore": 4,
    "dict_delete": 4, "dict_method": 5, "dict_read": 6, "dict_loop": 4, "dict_while": 1,
    "dict_if": 2, "dict_call": 2, "dict_list": 2,
}
I64_KEYS = ["0", "1", "2", "3", "(-1)", "(-2)", "5", "7", "1099511627776", "(-1099511627776)",
            "3298534883328", "4294967296", "9223372036854775807", "(-9223372036854775807 - 1)"]
F64_KEYS = ["0.0", "(-0.0)", "1.0", "0.5", "2.5", "(-1.0)", "3.0", "math.inf", "1e+16",
            "4294967296.0"]


def dict_annotation(kinds):
    return f"dict[{TYPE_NAME[kinds[0]]}, {TYPE_NAME[kinds[1]]}]"


def dict_kinds(rng):
    return (rng.choice(("i64", "i64", "f64", "f64", "bool")),
            rng.choice(("i64", "f64", "bool", "f64", "i64")))


def dict_param_kinds(rng):
    return [dict_kinds(rng) for _ in range(rng.choice(DICT_PARAM_COUNTS))]


class DictConstructs:
    """Mixed into FunctionGenerator. `self.drng` is None in a program
    without dicts."""

    def init_dicts(self, drng=None, dict_helpers=()):
        self.drng = drng
        self.dicts = {}                 # dict variable -> (key kind, value kind)
        self.dict_helpers = list(dict_helpers)
        self.dcounter = 0
        self.in_dict_stream = False
        self.dfrozen = set()            # dicts a loop iterates (their size stays)
        self.loop_keys = {}             # dict -> the key variables of loops over it

    @contextlib.contextmanager
    def dict_stream(self):
        saved = (self.rng, self.statements, self.in_dict_stream)
        self.rng, self.in_dict_stream = self.drng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_dict_stream = saved

    def dict_hook(self, depth):
        if self.drng is None or self.in_dict_stream:
            if self.in_dict_stream and self.dicts and self.rng.random() < 0.25:
                self.dict_statement(depth)
            return
        if self.drng.random() >= DICT_STATEMENT_RATE:
            return
        with self.dict_stream():
            self.dict_statement(depth)

    def dict_statement(self, depth):
        allowed = [name for name in DICT_STATEMENTS
                   if name not in ("dict_loop", "dict_while", "dict_if", "dict_build") or
                   depth < self.config.max_depth]
        for _ in range(10):
            choice = self.rng.choices(allowed, [DICT_STATEMENTS[n] for n in allowed])[0]
            if getattr(self, "s_" + choice)(depth) is not False:
                return

    def declare_dicts(self, params, header_lines):
        for p in params:
            if getattr(p, "container", "") == "dict":
                self.dicts[p.name] = (p.key_kind, p.kind)
        if self.drng is None:
            return
        with self.dict_stream():
            saved = self.lines
            self.lines = header_lines
            for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
                kinds = dict_kinds(self.rng)
                name = self.fresh("w")
                value = self.d_new(kinds, 1)
                header_lines.append(f"    {name}: {dict_annotation(kinds)} = {value}")
                self.dicts[name] = kinds
            self.lines = saved

    # ------------------------------------------------------- dict values
    def dict_names(self, kinds=None, mutable=False):
        return [n for n, k in self.dicts.items() if (kinds is None or k == kinds)
                and not (mutable and n in self.dfrozen)]

    def key(self, kind, depth=2):
        """A key of a dict of `kind`: mostly from a small pool (keys repeat
        and collide), an int among floats, a bool among ints now and then."""
        roll = self.rng.random()
        counters = [n for n, k in self.scope.readonly.items() if k == kind]
        if counters and roll < 0.25:
            return self.rng.choice(counters)
        if kind == "bool":
            return self.rng.choice(["True", "False"]) if roll < 0.6 else self.expr("bool", depth)
        if kind == "i64":
            if roll < 0.6:
                return self.rng.choice(I64_KEYS[:8] * 3 + I64_KEYS[8:])
            if roll < 0.68:
                return self.expr("bool", depth)
            if roll < 0.85:
                return f"({self.no_u64(self.expr('i64', depth), 'int')}) % 8"
            return self.no_u64(self.expr("i64", depth), "int")
        if roll < 0.55:
            return self.rng.choice(F64_KEYS[:7] * 3 + F64_KEYS[7:])
        if roll < 0.62:
            return self.rng.choice(["math.nan", "(-math.inf)"])
        if roll < 0.75:
            return self.rng.choice(["0", "1", "2", "(-1)"])
        if roll < 0.85:
            return f"({self.no_u64(self.expr('i64', depth), 'int')}) % 4"
        return self.no_u64(self.expr("f64", depth), "float")

    def value(self, kind, depth=2):
        roll = self.rng.random()
        if kind == "f64" and roll < 0.2:
            return self.no_u64(self.expr("i64", depth), "int")
        if kind == "i64" and roll < 0.08:
            return self.expr("bool", depth)
        return self.no_u64(self.expr(kind, depth), "float" if kind == "f64" else "int")

    @staticmethod
    def no_u64(text, cast):
        """A dict refuses a kiln.u64 key or value (documented): an
        expression of the generator's may be one (`max(10, np.uint64(7))`
        among the floats); converted first."""
        if "uint64" in text or "u64" in text:
            return f"{cast}({text})"
        return text

    def d_literal(self, kinds, depth, empty_ok=True):
        count = self.rng.choice([0, 1, 2, 3, 4] if empty_ok else [1, 2, 3, 4])
        return "{" + ", ".join(f"{self.key(kinds[0], depth + 1)}: {self.value(kinds[1], depth + 1)}"
                               for _ in range(count)) + "}"

    def d_comprehension(self, kinds, depth):
        """`{k: v for x in it if c}` over a range, a list, a 1-D array, a
        dict, its views, `enumerate(xs)`."""
        kk, vk = kinds
        var = self.fresh("v")
        bound = {}
        sources = ["range"]
        dnames = self.dict_names()
        lnames = list(getattr(self, "lists", {}))
        arrays = [a for a in self.arrays() if self.scope.arrays[a][1] == 1 and
                  self.scope.arrays[a][0] in ("f64", "i64", "bool")]
        if dnames:
            sources += ["dict", "keys", "values", "items"]
        if lnames:
            # (not `enumerate(xs)`: a comprehension's `for` takes no call but
            # range(); FINDINGS.md D3. dict_list writes it as a loop)
            sources += ["list"]
        if arrays:
            sources.append("array")
        source = self.rng.choice(sources)
        if source == "range":
            ends = ["0", "3", "5", "8"]
            ints = self.variables("i64")
            if ints:
                ends.append(f"max(min({self.rng.choice(ints)}, 12), 0)")
            iterable = f"{var} in range({self.rng.choice(ends)})"
            bound[var] = "i64"
        elif source in ("dict", "keys", "values"):
            d = self.rng.choice(dnames)
            suffix = "" if source == "dict" else f".{source}()"
            iterable = f"{var} in {d}{suffix}"
            bound[var] = self.dicts[d][1 if source == "values" else 0]
        elif source == "items":
            d = self.rng.choice(dnames)
            other = self.fresh("v")
            iterable = f"{var}, {other} in {d}.items()"
            bound[var], bound[other] = self.dicts[d]
        elif source == "list":
            xs = self.rng.choice(lnames)
            iterable = f"{var} in {xs}"
            bound[var] = self.lists[xs]
        elif source == "enumerate":
            xs = self.rng.choice(lnames)
            index = self.fresh("i")
            iterable = f"{index}, {var} in enumerate({xs})"
            bound[index], bound[var] = "i64", self.lists[xs]
        else:
            a = self.rng.choice(arrays)
            iterable = f"{var} in {a}"
            bound[var] = self.scope.arrays[a][0]
        for name, k in bound.items():
            self.scope.readonly[name] = k
        condition = f" if {self.expr('bool', depth + 1)}" if self.rng.random() < 0.4 else ""
        fits = {"i64": ("i64", "bool"), "f64": ("f64", "i64", "bool"), "bool": ("bool",)}
        key_vars = [n for n, k in bound.items() if k in fits[kk]]
        value_vars = [n for n, k in bound.items() if k in fits[vk]]
        key = self.rng.choice(key_vars) if key_vars and self.rng.random() < 0.7 else \
            self.key(kk, depth + 1)
        if kk == "i64" and key in key_vars and bound[key] == "i64" and self.rng.random() < 0.3:
            key = self.rng.choice([f"{key} % 3", f"-{key}", f"{key} * 1099511627776"])
        value = self.rng.choice(value_vars) if value_vars and self.rng.random() < 0.5 else \
            self.value(vk, depth + 1)
        for name in bound:
            self.scope.readonly.pop(name, None)
        return f"{{{key}: {value} for {iterable}{condition}}}"

    def d_new(self, kinds, depth=0):
        """A new dict usable as a dict of `kinds`."""
        same = self.dict_names(kinds)
        roll = self.rng.random()
        if roll < 0.4 or not same and roll < 0.6:
            return self.d_literal(kinds, depth)
        if roll < 0.7 or not same:
            return self.d_comprehension(kinds, depth)
        fitting = [h for h in self.dict_helpers if h.returns == ("dict", *kinds)]
        if fitting and self.rng.random() < 0.4:
            call = self.dict_call(self.rng.choice(fitting), depth)
            if call:
                return call
        d = self.rng.choice(same)
        return self.rng.choice([f"dict({d})", f"{d}.copy()", f"dict({d})"])

    def dict_call(self, helper, depth):
        args = []
        for p in helper.params:
            if getattr(p, "container", "") == "dict":
                kinds = (p.key_kind, p.kind)
                names = self.dict_names(kinds, mutable=True)
                if names and self.rng.random() < 0.85:
                    args.append(self.rng.choice(names))
                else:
                    args.append(self.d_literal(kinds, depth + 1))
            elif getattr(p, "container", "") or p.ndim:
                return None
            else:
                args.append(self.expr(p.kind, depth + 1))
        return f"{helper.name}({', '.join(args)})"

    # ------------------------------------------------ scalar expressions
    def e_dict_scalar(self, kind, depth):
        if not self.dicts or not self.in_dict_stream:
            return None
        d = self.rng.choice(list(self.dicts))
        kk, vk = self.dicts[d]
        roll = self.rng.random()
        if kind == "bool":
            if roll < 0.35:
                return f"({self.key(kk, depth + 1)} {self.rng.choice(['in', 'not in'])} " \
                       f"{d}{self.rng.choice(['', '', '.keys()'])})"
            if roll < 0.55:
                others = self.dict_names(self.dicts[d])
                other = self.rng.choice(others) if self.rng.random() < 0.6 else \
                    self.d_literal(self.dicts[d], depth + 1)
                return f"({d} {self.rng.choice(['==', '!='])} {other})"
            if roll < 0.7:
                return self.rng.choice([f"(not {d})", f"bool({d})", f"(len({d}) > 1)"])
            if vk == "bool":
                return self.lookup(d, depth)
            return None
        if kind not in ("i64", "f64"):
            return None
        if kind == "i64" and roll < 0.2:
            return self.rng.choice([f"len({d})", f"len(list({d}.values()))"])
        # a number read from the keys or the values of the right kind
        numeric = {"i64": ("i64", "bool"), "f64": ("f64",)}[kind]
        parts = []
        if vk in numeric:
            parts.append("values")
        if kk in numeric:
            parts.append("keys")
        if not parts:
            return None
        part = self.rng.choice(parts)
        view = f"{d}.values()" if part == "values" else self.rng.choice([d, f"{d}.keys()"])
        bools = (vk if part == "values" else kk) == "bool"
        if roll < 0.45 and part == "values" and not bools:
            return self.lookup(d, depth)
        if roll < 0.65:
            start = f", {self.expr(kind, depth + 1)}" if self.rng.random() < 0.25 else ""
            return f"sum({view}{start})"
        if bools:
            return f"sum({view})"
        which = self.rng.choice(["min", "max"])
        if roll < 0.8:
            return f"sum({view})"
        if roll < 0.87 and part == "keys":
            return f"sorted({d}, reverse={self.rng.choice(['True', 'False'])})[0]" \
                if self.rng.random() < 0.3 else f"list({d})[-1]"
        # ValueError (IndexError above) when the dict is empty
        return f"{which}({view})"

    def lookup(self, d, depth):
        """`d[k]` (KeyError when missing), `d.get(k, default)`, `d.pop(k, default)`."""
        kk, vk = self.dicts[d]
        key = self.key(kk, depth + 1)
        roll = self.rng.random()
        if roll < 0.2:
            return f"{d}[{key}]"
        # (no pop here: the oracle evaluates the branch of a conditional
        # expression that does not run, to learn its type)
        return f"{d}.get({key}, {self.value(vk, depth + 1)})"

    # -------------------------------------------------------- statements
    def scalar_target(self, kind):
        names = [n for n, k in self.scope.scalars.items()
                 if k == kind or (k == "f64" and kind in ("i64", "bool")) or
                 (k == "i64" and kind == "bool")]
        return self.rng.choice(names) if names else None

    def pick_dict(self, mutable=True):
        names = self.dict_names(mutable=mutable)
        return self.rng.choice(names) if names else None

    def simple_key(self, kind):
        """A key that reads the same twice (`if k in d: d[k] += 1`)."""
        counters = [n for n, k in self.scope.readonly.items() if k == kind]
        if counters and self.rng.random() < 0.4:
            return self.rng.choice(counters)
        if kind == "bool":
            return self.rng.choice(["True", "False"])
        return self.rng.choice((I64_KEYS if kind == "i64" else F64_KEYS)[:7])

    def s_dict_assign(self, depth):
        d = self.pick_dict()
        if d is None:
            return False
        self.emit(depth, f"{d} = {self.d_new(self.dicts[d], 1)}")

    def s_dict_build(self, depth):
        """`e = {}` then a loop storing into it (a dict typed by its stores),
        or the count `e[v] = e.get(v, 0) + 1` over a list (at the top level
        of the function: the name is defined on every path after it)."""
        if depth or self.loop_depth:
            return False
        name = self.fresh("w")
        var = self.fresh("v")
        lnames = list(getattr(self, "lists", {}))
        count = self.rng.random() < 0.4
        if count and lnames:
            xs = self.rng.choice(lnames)
            kk = self.lists[xs]
            self.emit(depth, f"{name} = {{}}")
            self.emit(depth, f"for {var} in {xs} + [{self.expr(kk, 2)}]:")
            self.emit(depth + 1, f"{name}[{var}] = {name}.get({var}, 0) + 1")
            self.dicts[name] = (kk, "i64")
            return
        kk, vk = dict_kinds(self.rng)
        cast = {"i64": "int", "f64": "float", "bool": "bool"}
        self.emit(depth, f"{name} = {{}}")
        self.emit(depth, f"for {var} in range({self.rng.choice(['1', '3', '6', '9'])}):")
        self.scope.readonly[var] = "i64"
        key = var if kk == "i64" and self.rng.random() < 0.5 else \
            f"{cast[kk]}({self.key(kk, 2)})"
        if kk == "f64" and self.rng.random() < 0.4:
            key = f"{var} * 0.5"
        value = f"{cast[vk]}({self.expr(vk, 2)})"
        self.emit(depth + 1, f"{name}[{key}] = {value}")
        self.scope.readonly.pop(var, None)
        self.dicts[name] = (kk, vk)

    def s_dict_alias(self, depth):
        for kinds in set(self.dicts.values()):
            names = self.dict_names(kinds, mutable=True)
            if len(names) >= 2:
                e, d = self.rng.sample(names, 2)
                self.emit(depth, f"{e} = {d}")
                self.emit(depth, f"{e}[{self.key(kinds[0])}] = {self.value(kinds[1])}")
                return
        return False

    def s_dict_store(self, depth):
        """`d[k] = v` (a new key goes to the end); in a loop under a length guard."""
        d = self.pick_dict(mutable=False)
        if d is None:
            return False
        kk, vk = self.dicts[d]
        if d in self.dfrozen:
            counters = [n for n, k in self.scope.readonly.items() if k == kk
                        and n in self.loop_keys.get(d, ())]
            if not counters:
                return False
            # a value changed while the dict is iterated: no error
            self.emit(depth, f"{d}[{self.rng.choice(counters)}] = {self.value(vk)}")
            return
        text = f"{d}[{self.key(kk)}] = {self.value(vk)}"
        if self.loop_depth:
            self.emit(depth, f"if len({d}) < {self.rng.choice([8, 20, DICT_LIMIT])}:")
            self.emit(depth + 1, text)
        else:
            self.emit(depth, text)

    def s_dict_augstore(self, depth):
        """`d[k] op= v`: KeyError when k is missing (mostly under `if k in d`)."""
        d = self.pick_dict(mutable=False)
        if d is None:
            return False
        kk, vk = self.dicts[d]
        loop_keys = [n for n in self.loop_keys.get(d, ()) if n in self.scope.readonly]
        key = self.rng.choice(loop_keys) if loop_keys else self.simple_key(kk)
        if d in self.dfrozen and not loop_keys:
            return False
        if vk == "bool":
            op, operand = self.rng.choice(["^=", "&=", "|="]), self.expr("bool", 2)
        elif vk == "i64":
            op = self.rng.choice(["+=", "-=", "*=", "^="])
            operand = self.expr("i64" if self.rng.random() < 0.9 else "bool", 2)
        else:
            op = self.rng.choice(["+=", "-=", "*="])
            operand = self.expr("f64" if self.rng.random() < 0.7 else "i64", 2)
        if not loop_keys and self.rng.random() < 0.8:
            self.emit(depth, f"if {key} in {d}:")
            depth += 1
        self.emit(depth, f"{d}[{key}] {op} {operand}")

    def s_dict_delete(self, depth):
        """`del d[k]`, `d.pop(k)`, `t = d.pop(k, default)` (KeyError unguarded)."""
        d = self.pick_dict()
        if d is None:
            return self.s_dict_rare_resize(depth)
        kk, vk = self.dicts[d]
        key = self.simple_key(kk) if self.rng.random() < 0.7 else self.key(kk)
        roll = self.rng.random()
        if roll < 0.5:
            if self.rng.random() < 0.8:
                self.emit(depth, f"if {key} in {d}:")
                depth += 1
            call = f"del {d}[{key}]" if self.rng.random() < 0.6 else f"{d}.pop({key})"
            target = self.scalar_target(vk)
            if call.startswith(d) and target and self.rng.random() < 0.5:
                call = f"{target} = {call}"
            self.emit(depth, call)
            return
        target = self.scalar_target(vk)
        call = f"{d}.pop({key}, {self.value(vk)})"
        self.emit(depth, f"{target} = {call}" if target else call)

    def s_dict_rare_resize(self, depth):
        """Inside a loop over the dict: a size change (RuntimeError at the
        next step unless the key was there) then, now and then, `break`."""
        loops = [d for d in self.dfrozen if d in self.dicts]
        if not loops or self.rng.random() < 0.7:
            return False
        d = self.rng.choice(loops)
        kk, vk = self.dicts[d]
        self.emit(depth, f"if {self.expr('bool', 2)}:")
        if self.rng.random() < 0.5:
            self.emit(depth + 1, f"{d}[{self.key(kk)}] = {self.value(vk)}")
        else:
            loop_keys = [n for n in self.loop_keys.get(d, ()) if n in self.scope.readonly]
            key = self.rng.choice(loop_keys) if loop_keys else self.simple_key(kk)
            self.emit(depth + 1, f"{d}.pop({key}, {self.value(vk)})")
        if self.rng.random() < 0.4:
            self.emit(depth + 1, "break")

    def s_dict_method(self, depth):
        d = self.pick_dict()
        if d is None:
            return False
        kk, vk = self.dicts[d]
        op = self.rng.choice(["clear", "update", "update", "setdefault", "setdefault", "get",
                              "copy_store"])
        if op == "clear":
            self.emit(depth, f"{d}.clear()")
        elif op == "update":
            others = [n for n in self.dict_names(self.dicts[d]) if n != d]
            other = self.rng.choice(others) if others and self.rng.random() < 0.6 else \
                self.d_new(self.dicts[d], 2) if self.rng.random() < 0.3 else \
                self.d_literal(self.dicts[d], 2)
            self.emit(depth, f"if len({d}) < {self.rng.choice([8, 20, DICT_LIMIT])}:")
            self.emit(depth + 1, f"{d}.update({other})")
        elif op in ("setdefault", "get"):
            target = self.scalar_target(vk)
            call = f"{d}.{op}({self.key(kk)}, {self.value(vk)})"
            if self.loop_depth and op == "setdefault":
                self.emit(depth, f"if len({d}) < {DICT_LIMIT}:")
                depth += 1
            if target:
                self.emit(depth, f"{target} = {call}")
            elif op == "setdefault":
                self.emit(depth, call)
            else:
                return False
        else:
            others = self.dict_names(self.dicts[d], mutable=True)
            e = self.rng.choice(others)
            self.emit(depth, f"{e} = {d}.copy()")
            self.emit(depth, f"{e}[{self.key(kk)}] = {self.value(vk)}")

    def s_dict_read(self, depth):
        kind = self.rng.choice(["i64", "f64", "bool", "i64"])
        target = self.scalar_target(kind)
        if not target:
            return False
        if kind in ("i64", "f64") and self.rng.random() < 0.35:
            # min/max of the keys or values of a dict that is not empty
            fits = ("i64", "bool") if kind == "i64" else ("f64",)
            choices = [(d, part) for d, (kk, vk) in self.dicts.items()
                       for part, k in (("keys", kk), ("values", vk)) if k in fits]
            if choices:
                d, part = self.rng.choice(choices)
                view = f"{d}.values()" if part == "values" else self.rng.choice(
                    [d, f"{d}.keys()"])
                self.emit(depth, f"if {d}:")
                self.emit(depth + 1, f"{target} = {self.rng.choice(['min', 'max'])}({view})")
                return
        value = self.e_dict_scalar(kind, 1)
        if value is None:
            return False
        self.emit(depth, f"{target} = {value}")

    def s_dict_if(self, depth):
        d = self.pick_dict(mutable=False)
        if d is None:
            return False
        kk = self.dicts[d][0]
        test = self.rng.choice([d, f"not {d}", f"{d} and {self.expr('bool', 2)}",
                                f"{self.key(kk)} in {d}", f"{self.key(kk)} not in {d}"])
        self.emit(depth, f"if {test}:")
        self.dict_block(depth + 1)
        if self.rng.random() < 0.4:
            self.emit(depth, "else:")
            self.dict_block(depth + 1)

    def dict_block(self, depth):
        start = len(self.lines)
        for _ in range(self.rng.randint(1, 3)):
            if self.rng.random() < 0.65:
                self.dict_statement(depth)
            else:
                self.statement(depth)
        if len(self.lines) == start:
            self.emit(depth, "pass")

    def s_dict_loop(self, depth):
        """`for k in d`, `d.keys()`, `d.values()`, `d.items()`, `enumerate(d)`:
        the body changes values (the dict's size only rarely)."""
        if self.trip > 200:
            return False
        d = self.pick_dict(mutable=False)
        if d is None:
            return False
        kk, vk = self.dicts[d]
        key, value = self.fresh("v"), self.fresh("v")
        roll = self.rng.random()
        bound = {}
        if roll < 0.3:
            header, bound[key] = f"for {key} in {d}:", kk
        elif roll < 0.45:
            header, bound[key] = f"for {key} in {d}.keys():", kk
        elif roll < 0.6:
            header, bound[value] = f"for {value} in {d}.values():", vk
        elif roll < 0.85:
            header = f"for {key}, {value} in {d}.items():"
            bound[key], bound[value] = kk, vk
        else:
            counter = self.fresh("i")
            header = f"for {counter}, {key} in enumerate({d}):"
            bound[counter], bound[key] = "i64", kk
        self.emit(depth, header)
        for name, k in bound.items():
            self.scope.readonly[name] = k
        was_frozen = d in self.dfrozen
        self.dfrozen.add(d)
        self.loop_keys.setdefault(d, []).append(key)
        self.loop_depth += 1
        saved = self.trip
        self.trip *= DICT_LIMIT
        body = depth + 1
        target = self.scalar_target(vk if value in bound else kk)
        var = value if value in bound else key
        kind = bound[var]
        if target and self.scope.scalars[target] == kind and self.rng.random() < 0.6:
            fold = {"i64": f"{target} ^ {var}", "bool": f"{target} ^ {var}",
                    "f64": f"{target} * 0.5 + {var}"}
            self.emit(body, f"{target} = {fold[kind]}")
        if self.rng.random() < 0.08:
            self.s_dict_rare_resize(body)
        self.dict_block(body)
        self.trip = saved
        self.loop_depth -= 1
        self.loop_keys[d].pop()
        if not was_frozen:
            self.dfrozen.discard(d)
        for name in bound:
            self.scope.readonly.pop(name, None)

    def s_dict_while(self, depth):
        """`while d and c: d.pop(max(d))` (a NaN key is never found: KeyError)."""
        d = self.pick_dict()
        if d is None:
            return False
        kk, vk = self.dicts[d]
        if kk == "bool":
            return False
        test = f"{d} and {self.expr('bool', 2)}" if self.rng.random() < 0.5 else \
            f"len({d}) > {self.rng.choice(['1', '2', '4'])}"
        self.emit(depth, f"while {test}:")
        pop = f"{d}.pop({self.rng.choice(['max', 'min'])}({d}))"
        target = self.scalar_target(vk)
        if target and self.scope.scalars[target] == vk and vk != "bool":
            op = "^" if vk == "i64" else "+"
            self.emit(depth + 1, f"{target} = {target} {op} {pop}")
        else:
            self.emit(depth + 1, pop)

    def s_dict_call(self, depth):
        if not self.dict_helpers:
            return False
        helper = self.rng.choice(self.dict_helpers)
        call = self.dict_call(helper, 2)
        if call is None:
            return False
        if isinstance(helper.returns, tuple) and helper.returns[0] == "dict":
            targets = self.dict_names(helper.returns[1:], mutable=True)
            if targets and self.rng.random() < 0.7:
                self.emit(depth, f"{self.rng.choice(targets)} = {call}")
            else:
                self.emit(depth, call)
            return
        target = self.scalar_target(helper.returns) if isinstance(helper.returns, str) else None
        if target and self.scope.scalars[target] == helper.returns:
            self.emit(depth, f"{target} = {call}")
        else:
            self.emit(depth, call)

    def s_dict_list(self, depth):
        """Dicts and lists: `t = list(d.values())` / `sorted(d)` read back,
        a list variable made from a dict, a dict from a list."""
        d = self.pick_dict(mutable=False)
        if d is None:
            return False
        kk, vk = self.dicts[d]
        lists = getattr(self, "lists", {})
        indexed = [n for n, k in lists.items() if self.dicts[d] in ((k, "i64"), (k, "f64"))]
        if indexed and d not in self.dfrozen and self.rng.random() < 0.3:
            # `{x: i for i, x in enumerate(xs)}` as a loop: the last index of each item
            xs = self.rng.choice(indexed)
            i, x = self.fresh("i"), self.fresh("v")
            self.emit(depth, f"for {i}, {x} in enumerate({xs}):")
            self.emit(depth + 1, f"if len({d}) < {DICT_LIMIT}:")
            self.emit(depth + 2, f"{d}[{x}] = {i}")
            return
        fitting = [n for n, k in lists.items() if k in (kk, vk) and
                   n not in getattr(self, "frozen", ())]
        if fitting and self.rng.random() < 0.5:
            xs = self.rng.choice(fitting)
            k = lists[xs]
            source = self.rng.choice([f"list({d})", f"sorted({d})", f"list({d}.keys())"]) \
                if k == kk else f"list({d}.values())"
            if k == kk and k == vk:
                source = self.rng.choice([source, f"list({d}.values())"])
            self.emit(depth, f"{xs} = {source}")
            return
        name = self.fresh("t")
        part = self.rng.choice(["keys", "values"])
        kind = kk if part == "keys" else vk
        source = {"keys": self.rng.choice([f"list({d})", f"sorted({d})",
                                           f"sorted({d}, reverse=True)"]),
                  "values": f"list({d}.values())"}[part]
        self.emit(depth, f"{name} = {source}")
        target = self.scalar_target("i64")
        if target and self.rng.random() < 0.5:
            self.emit(depth, f"{target} = len({name})")
        elif kind != "bool":
            target = self.scalar_target(kind)
            if target:
                self.emit(depth, f"if {name}:")
                self.emit(depth + 1, f"{target} = {name}[{self.rng.choice(['0', '(-1)'])}]")

    # ---------------------------------------------------------- results
    def dict_result(self, kinds):
        names = self.dict_names(kinds)
        if names and self.rng.random() < 0.5:
            return self.rng.choice(names)
        return self.d_new(kinds, 1)
