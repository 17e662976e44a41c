"""Python lists in generated programs (issue 30; docs/language.md "Lists"):
the list constructs of `generator.FunctionGenerator`.

Old seeds keep their programs: whether a program uses lists is drawn from
its own stream (`random.Random(f"{seed}:{index}:lists")`, `LIST_PROGRAM_RATE`),
and in a list program every list construct is drawn from a per-function list
stream too (`list_stream`: `self.rng` is swapped for it, fresh names count
from 900, statements do not count against `max_statements`), interleaved
before the statements of every block (`list_hook`, `LIST_STATEMENT_RATE`).
The statements the main stream draws are those of the program without lists;
list variables live apart (`self.lists`) and only list-stream code reads
them. Extra list parameters come last; a scalar result may become a list
result (the scalar expression is still drawn and dropped, so the stream
stays in step).

Constructs (`LIST_STATEMENTS`, `list_scalar` among the expressions of the
list stream): literals (items joining int and float, `[True, 1]`), `[]`,
`[x] * n`, `n * [x]`, comprehensions with `if` over `range`, lists and 1-D
arrays, `list(xs)`, `list()`, `list(range(...))`, `xs[:]`, `xs.copy()`,
`sorted(xs[, reverse=r])`, `xs + ys`, `xs * n`; indexing with negative and
out-of-range indices, `xs[i] = v`, `xs[i] += v`, `append`, `pop()`,
`pop(i)`, `insert`, `extend`, `+=`, `*=`, `clear`, `reverse`, `sort()`,
`sort(reverse=...)`, `count`, `index`, `remove`, `in`, `not in`, `==`, `!=`,
`len`, `sum` (with a start), `min`, `max`, truthiness (`if xs:`, `not xs`,
`bool(xs)`, `while xs and ...`), `for v in xs` appending to and popping the
list (bounded), `enumerate`, `zip` of lists and arrays, aliasing (`ys = xs`
then changing `ys`), swaps, lists passed to and returned from helpers
(`hl*` functions, which change their list parameters too), list parameters
of the exported function (inputs.py makes them) and list results.

Growth is bounded: every statement that can grow a list by more than one
item, and any append inside a loop, runs under `if len(xs) < LIST_LIMIT`
(the lengths the statement reads), and `* n` counts are at most 3.
"""

from __future__ import annotations

import contextlib

LIST_KINDS = ("i64", "f64", "bool")
LIST_ANNOTATION = {"i64": "list[int]", "f64": "list[float]", "bool": "list[bool]"}
LIST_PROGRAM_RATE = 0.3        # programs with lists (drawn from the list stream)
LIST_STATEMENT_RATE = 0.4      # a list statement before a statement of a list program
LIST_RESULT_RATE = 0.35        # a scalar result of a list program made a list
LIST_PARAM_COUNTS = (0, 1, 1, 2, 2, 3)
LIST_LIMIT = 40
LIST_STATEMENTS = {
    "list_assign": 5, "list_alias": 1.5, "list_mutate": 9, "list_store": 4, "list_read": 6,
    "list_loop": 3, "list_while": 1.2, "list_if": 2, "list_call": 2, "list_swap": 0.5,
}


def list_param_kinds(rng):
    return [rng.choice(LIST_KINDS + ("f64", "i64")) for _ in range(rng.choice(LIST_PARAM_COUNTS))]


class ListConstructs:
    """Mixed into FunctionGenerator. `self.lrng` is None in a program
    without lists."""

    def init_lists(self, lrng=None, list_helpers=()):
        self.lrng = lrng
        self.lists = {}                 # list variable -> item kind
        self.list_helpers = list(list_helpers)
        self.lcounter = 0
        self.in_list_stream = False
        self.frozen = set()             # lists a loop iterates (no growth beyond a guard)

    @contextlib.contextmanager
    def list_stream(self):
        """Draw from the list stream; the statements made do not count."""
        saved = (self.rng, self.statements, self.in_list_stream)
        self.rng, self.in_list_stream = self.lrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_list_stream = saved

    # ------------------------------------------------------------- hooks
    def list_hook(self, depth):
        """Before a statement of a list program: now and then a list statement."""
        if self.lrng is None or self.in_list_stream:
            if self.in_list_stream and self.lists and self.rng.random() < 0.25:
                self.list_statement(depth)
            return
        if self.lrng.random() >= LIST_STATEMENT_RATE:
            return
        with self.list_stream():
            self.list_statement(depth)

    def list_statement(self, depth):
        allowed = [name for name in LIST_STATEMENTS
                   if name not in ("list_loop", "list_while", "list_if") or
                   depth < self.config.max_depth]
        for _ in range(10):
            names = [n for n in allowed if LIST_STATEMENTS[n] > 0]
            choice = self.rng.choices(names, [LIST_STATEMENTS[n] for n in names])[0]
            if getattr(self, "s_" + choice)(depth) is not False:
                return

    def declare_lists(self, params, header_lines):
        """List parameters, then one to three list locals declared with
        their annotation at the top of the function."""
        for p in params:
            if getattr(p, "container", "") == "list":
                self.lists[p.name] = p.kind
        if self.lrng is None:
            return
        with self.list_stream():
            saved = self.lines
            self.lines = header_lines
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                kind = self.rng.choice(LIST_KINDS + ("i64", "f64"))
                name = self.fresh("y")
                value = self.l_new(kind, 1, empty_ok=True)
                header_lines.append(f"    {name}: {LIST_ANNOTATION[kind]} = {value}")
                self.lists[name] = kind
            self.lines = saved

    # ------------------------------------------------------- list values
    def list_names(self, kind=None):
        return [n for n, k in self.lists.items() if kind is None or k == kind]

    def item(self, kind, depth=2):
        """An item for a list of `kind`: its own kind, an int for a float
        list, a bool for an int list (the list converts it)."""
        roll = self.rng.random()
        if kind == "f64" and roll < 0.2:
            return self.expr("i64", depth)
        if kind == "i64" and roll < 0.08:
            return self.expr("bool", depth)
        return self.expr(kind, depth)

    def count_text(self):
        """A repeat count: mostly 0..3, now and then negative (an empty list)."""
        ints = self.variables("i64")
        if ints and self.rng.random() < 0.3:
            return f"({self.rng.choice(ints)} % 4)"
        return self.rng.choice(["0", "1", "2", "3", "(-1)", "2"])

    def l_literal(self, kind, depth, empty_ok=True):
        count = self.rng.choice([0, 1, 2, 3, 4] if empty_ok else [1, 2, 3, 4])
        return "[" + ", ".join(self.item(kind, depth + 1) for _ in range(count)) + "]"

    def l_comprehension(self, kind, depth):
        """`[e for v in it if c]`, `it` a range, a list or a 1-D array; one
        or two clauses."""
        var = self.fresh("v")
        sources = []
        names = self.list_names()
        if names:
            sources.append(("list", self.rng.choice(names)))
        arrays = [a for a in self.arrays() if self.scope.arrays[a][1] == 1 and
                  self.scope.arrays[a][0] in ("f64", "i64", "i32", "bool")]
        if arrays:
            sources.append(("array", self.rng.choice(arrays)))
        sources.append(("range", None))
        source, name = self.rng.choice(sources)
        if source == "list":
            iterable, var_kind = name, self.lists[name]
        elif source == "array":
            iterable, var_kind = name, self.scope.arrays[name][0]
        else:
            iterable = f"range({self.rng.choice(['0', '3', '5', '8'] + self.range_ends())})"
            var_kind = "i64"
        bound = [var]
        self.scope.readonly[var] = var_kind
        clauses = f"for {var} in {iterable}"
        if self.rng.random() < 0.2:
            inner = self.fresh("v")
            bound.append(inner)
            self.scope.readonly[inner] = "i64"
            clauses += f" for {inner} in range({self.rng.choice(['2', '3'])})"
        if self.rng.random() < 0.6:
            clauses += f" if {self.expr('bool', depth + 1)}"
        element = self.item(kind, depth + 1)
        for name in bound:
            self.scope.readonly.pop(name, None)
        return f"[{element} {clauses}]"

    def range_ends(self):
        ends = []
        ints = self.variables("i64")
        if ints:
            v = self.rng.choice(ints)
            ends.append(f"max(min({v}, 12), 0)")
        names = self.list_names()
        if names:
            ends.append(f"len({self.rng.choice(names)})")
        return ends

    def l_new(self, kind, depth=0, empty_ok=True):
        """A new list usable as a list of `kind` (its items convert)."""
        same = self.list_names(kind)
        roll = self.rng.random()
        if roll < 0.3 or not same and roll < 0.55:
            return self.l_literal(kind, depth, empty_ok)
        if roll < 0.45 or not same and roll < 0.7:
            return f"[{self.item(kind, depth + 1)}] * {self.count_text()}" \
                if self.rng.random() < 0.7 else f"{self.count_text()} * [{self.item(kind, depth + 1)}]"
        if roll < 0.6 or not same and roll < 0.85:
            return self.l_comprehension(kind, depth)
        if not same:
            if kind == "i64" and self.rng.random() < 0.5:
                a, b = self.rng.choice(["0", "(-3)", "2"]), self.rng.choice(["5", "0", "9"])
                step = self.rng.choice(["", ", 2", ", (-1)", ", 3"])
                return f"list(range({a}, {b}{step}))"
            return "list()" if empty_ok and self.rng.random() < 0.3 else \
                self.l_literal(kind, depth, False)
        xs = self.rng.choice(same)
        options = [f"{xs}[:]", f"{xs}.copy()", f"list({xs})", f"sorted({xs})",
                   f"sorted({xs}, reverse={self.expr('bool', 2)})",
                   f"{xs} + {self.rng.choice(same)}", f"{xs} + {self.l_literal(kind, depth)}",
                   f"{self.l_literal(kind, depth, False)} + {xs}",
                   f"{xs} * {self.count_text()}", f"{self.count_text()} * {xs}"]
        fitting = [h for h in self.list_helpers if h.returns == ("list", kind)]
        if fitting and self.rng.random() < 0.3:
            call = self.list_call(self.rng.choice(fitting), depth)
            if call:
                return call
        return self.rng.choice(options)

    def list_call(self, helper, depth):
        args = []
        for p in helper.params:
            if getattr(p, "container", "") == "list":
                names = self.list_names(p.kind)
                if names and self.rng.random() < 0.85:
                    args.append(self.rng.choice(names))
                else:
                    args.append(self.l_literal(p.kind, depth + 1))
            elif p.ndim:
                return None
            else:
                args.append(self.expr(p.kind, depth + 1))
        return f"{helper.name}({', '.join(args)})"

    def guard(self, names):
        """`if len(a) < LIMIT and len(b) < LIMIT:` for the lists a statement grows."""
        names = sorted(set(names))
        limit = self.rng.choice([8, 20, LIST_LIMIT])
        return " and ".join(f"len({n}) < {limit}" for n in names)

    def growth(self, depth, target, text, reads=()):
        """A statement that can grow `target`, under a length guard."""
        self.emit(depth, f"if {self.guard([target, *reads])}:")
        self.emit(depth + 1, text)

    def safe_index(self, xs):
        """An index into `xs` in range when `xs` is not empty."""
        counters = [n for n, k in self.scope.readonly.items() if k == "i64"]
        options = ["0", "(-1)", f"len({xs}) - 1", f"-len({xs})",
                   f"({self.expr('i64', 2)}) % len({xs})"]
        if counters:
            options.append(f"({self.rng.choice(counters)} % len({xs}))")
        return self.rng.choice(options)

    def guarded(self, depth, xs):
        """Emits `if xs:` (mostly) and returns the depth and an index for
        the statement under it; else an index that may be out of range."""
        if self.rng.random() < 0.7:
            self.emit(depth, f"if {xs}:" if self.rng.random() < 0.6 else f"if len({xs}) > 0:")
            return depth + 1, self.safe_index(xs)
        return depth, self.list_index(xs)

    def list_index(self, xs, store=False):
        """An index into `xs`: in range, negative, or out of range."""
        roll = self.rng.random()
        if roll < 0.3:
            return self.rng.choice(["0", "(-1)", "1", "(-2)", "2", "3", "(-4)"])
        counters = [n for n, k in self.scope.readonly.items() if k == "i64"]
        if counters and roll < 0.5:
            c = self.rng.choice(counters)
            return self.rng.choice([c, f"({c} % max(len({xs}), 1))", f"(-1 - {c})"])
        if roll < 0.75:
            return f"({self.expr('i64', 2)}) % max(len({xs}), 1)"
        if roll < 0.85:
            return f"len({xs}) - 1"
        if roll < 0.9:
            return f"len({xs})"          # one past the end: IndexError
        return f"-len({xs})"

    # ------------------------------------------------ scalar expressions
    def e_list_scalar(self, kind, depth):
        """A number or a bool read from a list."""
        names = self.list_names()
        if not names or not self.in_list_stream:
            return None
        if kind == "bool":
            xs = self.rng.choice(names)
            k = self.lists[xs]
            roll = self.rng.random()
            if roll < 0.3:
                op = self.rng.choice(["in", "not in"])
                return f"({self.search_value(k, depth)} {op} {xs})"
            if roll < 0.5:
                others = self.list_names(k)
                other = self.rng.choice(others) if self.rng.random() < 0.6 else \
                    self.l_literal(k, depth + 1)
                return f"({xs} {self.rng.choice(['==', '!='])} {other})"
            if roll < 0.65:
                return self.rng.choice([f"(not {xs})", f"bool({xs})"])
            if k == "bool":
                return self.list_element(xs, depth)
            return None
        if kind not in ("i64", "f64"):
            return None
        roll = self.rng.random()
        if roll < 0.25 and kind == "i64":
            return f"len({self.rng.choice(names)})"
        same = self.list_names(kind) + (self.list_names("bool") if kind == "i64" else [])
        if not same:
            return None
        xs = self.rng.choice(same)
        k = self.lists[xs]
        if k == "bool" and roll < 0.6:
            return self.rng.choice([f"sum({xs})", f"{xs}.count({self.search_value(k, depth)})"])
        if k == "bool":
            return None
        if roll < 0.4:
            return self.list_element(xs, depth)
        if roll < 0.6:
            start = f", {self.expr(kind, depth + 1)}" if self.rng.random() < 0.3 else ""
            return f"sum({xs}{start})"
        if roll < 0.8:
            # min/max of an empty list raise: mostly of the list and one more item
            which = self.rng.choice(["min", "max"])
            if self.rng.random() < 0.7:
                return f"{which}({xs} + [{self.expr(kind, depth + 1)}])"
            return f"{which}({xs})"
        if kind == "i64":
            return f"{xs}.count({self.search_value(k, depth)})"
        return self.list_element(xs, depth)

    def list_element(self, xs, depth):
        if self.rng.random() < 0.5:
            # in range unless the list is empty (as in `while xs and xs[-1] < v`)
            return f"{xs}[{self.rng.choice(['0', '(-1)', f'len({xs}) - 1'])}]"
        return f"{xs}[{self.list_index(xs)}]"

    def search_value(self, kind, depth):
        """A value looked for in a list of `kind` (an int in a float list;
        often one of its items)."""
        names = self.list_names(kind)
        if names and kind != "bool" and self.rng.random() < 0.35:
            # often an item of the list (never raises)
            xs = self.rng.choice(names)
            return f"{self.rng.choice(['max', 'min'])}({xs} + [{self.expr(kind, 3)}])"
        if kind == "f64" and self.rng.random() < 0.25:
            return self.expr("i64", depth + 1)
        return self.expr(kind, depth + 1)

    # -------------------------------------------------------- statements
    def scalar_target(self, kind):
        names = [n for n, k in self.scope.scalars.items()
                 if k == kind or (k == "f64" and kind in ("i64", "bool")) or
                 (k == "i64" and kind == "bool")]
        return self.rng.choice(names) if names else None

    def s_list_assign(self, depth):
        """`xs = <new list>` (a growth when it reads lists)."""
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        value = self.l_new(kind, 1)
        reads = [n for n in self.lists if n in value.replace("(", " ").replace(")", " ")
                 .replace(",", " ").replace("[", " ").replace("]", " ").split()]
        if reads or "*" in value:
            self.growth(depth, xs, f"{xs} = {value}", reads)
        else:
            self.emit(depth, f"{xs} = {value}")

    def s_list_alias(self, depth):
        """`ys = xs` then a change through `ys` (both names see it)."""
        for kind in self.rng.sample(LIST_KINDS, 3):
            names = self.list_names(kind)
            if len(names) >= 2:
                ys, xs = self.rng.sample(names, 2)
                if xs in self.frozen or ys in self.frozen:
                    return False
                self.emit(depth, f"{ys} = {xs}")
                self.emit(depth, f"{ys}.append({self.item(kind)})")
                return
        return False

    def s_list_swap(self, depth):
        for kind in self.rng.sample(LIST_KINDS, 3):
            names = [n for n in self.list_names(kind) if n not in self.frozen]
            if len(names) >= 2:
                a, b = self.rng.sample(names, 2)
                self.emit(depth, f"{a}, {b} = {b}, {a}")
                return
        return False

    def s_list_mutate(self, depth):
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        op = self.rng.choice(["append", "append", "pop", "pop_i", "insert", "extend", "iadd",
                              "imul", "clear", "reverse", "sort", "sort_reverse", "remove",
                              "pop_into"])
        if xs in self.frozen and op in ("extend", "iadd", "imul", "insert", "append"):
            op = "reverse"
        if op == "append":
            text = f"{xs}.append({self.item(kind)})"
            if self.loop_depth:
                self.growth(depth, xs, text)
            else:
                self.emit(depth, text)
        elif op in ("pop", "pop_i"):
            depth, index = self.guarded(depth, xs)
            call = f"{xs}.pop()" if op == "pop" else f"{xs}.pop({index})"
            target = self.scalar_target(kind)
            if target and self.rng.random() < 0.6:
                self.emit(depth, f"{target} = {call}")
            else:
                self.emit(depth, call)
        elif op == "pop_into":
            others = [n for n in self.list_names(kind) if n != xs and n not in self.frozen]
            if not others:
                return False
            ys = self.rng.choice(others)
            self.emit(depth, f"if {xs}:")
            self.growth(depth + 1, ys, f"{ys}.append({xs}.pop())")
        elif op == "insert":
            index = self.rng.choice(["0", "(-1)", "1", "100", "(-100)", self.list_index(xs)])
            self.growth(depth, xs, f"{xs}.insert({index}, {self.item(kind)})")
        elif op in ("extend", "iadd"):
            other = self.rng.choice(self.list_names(kind)) if self.rng.random() < 0.6 else \
                self.l_literal(kind, 2)
            reads = [other] if other in self.lists else []
            text = f"{xs}.extend({other})" if op == "extend" else f"{xs} += {other}"
            self.growth(depth, xs, text, reads)
        elif op == "imul":
            self.growth(depth, xs, f"{xs} *= {self.count_text()}")
        elif op == "clear":
            self.emit(depth, f"{xs}.clear()")
        elif op == "reverse":
            self.emit(depth, f"{xs}.reverse()")
        elif op == "sort":
            self.emit(depth, f"{xs}.sort()")
        elif op == "sort_reverse":
            self.emit(depth, f"{xs}.sort(reverse={self.rng.choice(['True', 'False', self.expr('bool', 2)])})")
        else:
            value = self.search_value(kind, 2)
            if self.rng.random() < 0.6:
                self.emit(depth, f"if {value} in {xs}:")
                self.emit(depth + 1, f"{xs}.remove({value})")
            else:
                self.emit(depth, f"{xs}.remove({value})")

    def s_list_store(self, depth):
        """`xs[i] = v`, `xs[i] += v` (ints wrap), `x[i] = xs[j]` into an array."""
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        depth, index = self.guarded(depth, xs)
        if kind != "bool" and self.rng.random() < 0.4:
            op = self.rng.choice(["+=", "-=", "*="])
            operand = self.expr("i64" if kind == "i64" or self.rng.random() < 0.3 else kind, 2)
            self.emit(depth, f"{xs}[{index}] {op} {operand}")
            return
        self.emit(depth, f"{xs}[{index}] = {self.item(kind)}")

    def s_list_read(self, depth):
        """A scalar variable takes a value read from a list (an item under
        `if xs:`, an index under `if v in xs:`)."""
        kind = self.rng.choice(["i64", "f64", "bool", "i64"])
        target = self.scalar_target(kind)
        if not target:
            return False
        names = self.list_names(kind if kind != "bool" else None)
        roll = self.rng.random()
        if names and roll < 0.3:
            xs = self.rng.choice(names)
            depth, index = self.guarded(depth, xs)
            self.emit(depth, f"{target} = {xs}[{index}]")
            return
        if names and roll < 0.45 and kind == "i64":
            xs = self.rng.choice(self.list_names())
            value = self.search_value(self.lists[xs], 2)
            if self.rng.random() < 0.75:
                self.emit(depth, f"if {value} in {xs}:")
                depth += 1
            self.emit(depth, f"{target} = {xs}.index({value})")
            return
        value = self.e_list_scalar(kind, 1)
        if value is None:
            return False
        if self.rng.random() < 0.3 and kind != "bool":
            value = f"{target} + {value}" if self.scope.scalars[target] == kind else value
        self.emit(depth, f"{target} = {value}")

    def s_list_if(self, depth):
        """`if xs:` / `if not xs and c:` / `if v in xs:` with list statements inside."""
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        test = self.rng.choice([xs, f"not {xs}", f"{xs} and {self.expr('bool', 2)}",
                                f"{self.expr('bool', 2)} or not {xs}"])
        self.emit(depth, f"if {test}:")
        self.list_block(depth + 1)
        if self.rng.random() < 0.4:
            self.emit(depth, "else:")
            self.list_block(depth + 1)

    def list_block(self, depth):
        start = len(self.lines)
        for _ in range(self.rng.randint(1, 3)):
            if self.rng.random() < 0.6:
                self.list_statement(depth)
            else:
                self.statement(depth)
        if len(self.lines) == start:
            self.emit(depth, "pass")

    def s_list_loop(self, depth):
        """`for v in xs`, `enumerate(xs)`, `zip(xs, ys)`: the body may append
        to (guarded) and pop the list it iterates."""
        if self.trip > 200:
            return False
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        var = self.fresh("v")
        roll = self.rng.random()
        elements = {var: kind}
        counter = None
        if roll < 0.5:
            header = f"for {var} in {xs}:"
        elif roll < 0.75:
            counter = self.fresh("i")
            header = f"for {counter}, {var} in enumerate({xs}):"
        else:
            partners = [n for n in names if n != xs] + [
                a for a in self.arrays() if self.scope.arrays[a][1] == 1]
            if not partners:
                header = f"for {var} in {xs}:"
            else:
                other = self.rng.choice(partners)
                partner = self.fresh("v")
                elements[partner] = self.lists[other] if other in self.lists else \
                    self.scope.arrays[other][0]
                header = f"for {var}, {partner} in zip({xs}, {other}):"
        self.emit(depth, header)
        for name, k in elements.items():
            self.scope.readonly[name] = k
        if counter:
            self.scope.readonly[counter] = "i64"
        self.loop_depth += 1
        saved = self.trip
        self.trip *= LIST_LIMIT * 3
        body = depth + 1
        roll = self.rng.random()
        if roll < 0.3:
            self.emit(body, f"if len({xs}) < {self.rng.choice([5, 12, 30])}:")
            self.emit(body + 1, f"{xs}.append({self.item(kind)})")
        elif roll < 0.45:
            self.emit(body, f"if {self.expr('bool', 2)}:")
            self.emit(body + 1, f"{xs}.pop()")
        target = self.scalar_target(kind)
        if target and self.rng.random() < 0.6:
            fold = {"i64": f"{target} ^ {var}", "bool": f"{target} ^ {var}",
                    "f64": f"{target} * 0.5 + {var}"}
            if self.scope.scalars[target] == kind:
                self.emit(body, f"{target} = {fold[kind]}")
        self.list_block(body)
        self.trip = saved
        self.loop_depth -= 1
        for name in [*elements, counter]:
            self.scope.readonly.pop(name, None)

    def s_list_while(self, depth):
        """`while xs and c: v = xs.pop()` (a stack drained while a test holds)."""
        names = self.list_names()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        test = f"{xs} and {self.expr('bool', 2)}" if self.rng.random() < 0.6 else xs
        if kind != "bool" and self.rng.random() < 0.4:
            test = f"{xs} and {xs}[-1] {self.rng.choice(['<', '>', '!='])} {self.expr(kind, 2)}"
        self.emit(depth, f"while {test}:")
        target = self.scalar_target(kind)
        pop = self.rng.choice([f"{xs}.pop()", f"{xs}.pop(0)", f"{xs}.pop(-1)"])
        if target and self.scope.scalars[target] == kind and kind != "bool":
            op = "^" if kind == "i64" else "+"
            self.emit(depth + 1, f"{target} = {target} {op} {pop}")
        else:
            self.emit(depth + 1, pop)

    def s_list_call(self, depth):
        """A helper taking lists (it may change them) or returning one."""
        if not self.list_helpers:
            return False
        helper = self.rng.choice(self.list_helpers)
        call = self.list_call(helper, 2)
        if call is None:
            return False
        if isinstance(helper.returns, tuple) and helper.returns[0] == "list":
            kind = helper.returns[1]
            targets = [n for n in self.list_names(kind) if n not in self.frozen]
            if targets and self.rng.random() < 0.7:
                self.emit(depth, f"{self.rng.choice(targets)} = {call}")
            else:
                self.emit(depth, call)
            return
        target = self.scalar_target(helper.returns) if isinstance(helper.returns, str) else None
        if target and (self.scope.scalars[target] == helper.returns):
            self.emit(depth, f"{target} = {call}")
        else:
            self.emit(depth, call)

    # ---------------------------------------------------------- results
    def list_result(self, kind):
        names = self.list_names(kind)
        if names and self.rng.random() < 0.5:
            return self.rng.choice(names)
        return self.l_new(kind, 1)
