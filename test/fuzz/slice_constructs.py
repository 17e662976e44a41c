"""List slices and loops that index lists, in generated list programs
(issue 30; docs/language.md "Lists"): the slice constructs of
`generator.FunctionGenerator`.

They come from streams of their own, so that list programs stay what they
were: whether a list program has them is drawn from
`random.Random(f"{seed}:{index}:slices")` (`SLICE_PROGRAM_RATE`,
`--slice-rate`, a share of the list programs), and each construct from a
per-function slice stream (`slice_stream`: `self.rng` swapped for it, fresh
names count from 5000, statements do not count against `max_statements`),
interleaved before the statements of every block (`slice_hook`,
`SLICE_STATEMENT_RATE`) after the list, dict and set hooks. A slice
statement reads and changes the list variables (`self.lists`) and the
scalar variables that exist, and adds no variable the other streams could
pick (its temporaries, `t5xxx`, are used inside the construct only): the
list stream's statements are those of the program without slices.

Constructs (`SLICE_STATEMENTS`): `ys = xs[a:b]`, `xs[a:b:c]`, `xs[::-1]`
(also into the same name), slices read back (`len`, `sum`, `[0]`, `==`,
`max(xs[a:b] + [v])`), `xs[a:b] = ys` (ys a list of the kind, a literal,
`[v] * n`, another slice, xs itself), `xs[a:b:c] = ys` (sizes matching:
`xs[::2] = xs[1::2]`, `xs[::-1] = xs`, `[v] * len(xs[a::c])`, or not:
ValueError), `del xs[a:b:c]`, `del xs[i]` (IndexError unguarded); start,
stop and step literal ints (negative, out of range, the int64 extremes,
omitted), `len(xs)`-based, variables and expressions, a zero step
now and then (ValueError); and loops over `range(len(xs))` that only
index lists (kiln-list-views makes them array loops, vectorized):
`ys[i] = f(xs[i])` with xs and ys one list or two, `xs[i - 1]`,
`xs[-1 - i]`, `xs[i + 1]` (IndexError at the end, after the writes before
it), ranges longer than the list written (IndexError halfway), reductions
and counts, on the lists the program has and on temporaries of 7, 8, 9,
15, 16, 17, 31, 32, 33 items.

Growth is bounded: a slice assignment that can grow a list runs under
`if len(xs) < SLICE_LIMIT`.
"""

from __future__ import annotations

import contextlib

from .list_constructs import LIST_ANNOTATION

SLICE_PROGRAM_RATE = 0.6        # list programs with slices (drawn from their own stream)
SLICE_STATEMENT_RATE = 0.3      # a slice statement before a statement of such a program
SLICE_LIMIT = 40
SLICE_STATEMENTS = {
    "slice_take": 4, "slice_read": 3, "slice_assign": 4, "slice_extended": 2.5,
    "slice_delete": 3, "index_loop": 5,
}
VECTOR_SIZES = ["7", "8", "9", "15", "16", "17", "31", "32", "33"]


class SliceConstructs:
    """Mixed into FunctionGenerator. `self.slrng` is None in a program
    without slices."""

    def init_slices(self, slrng=None):
        self.slrng = slrng
        self.slcounter = 0
        self.in_slice_stream = False

    @contextlib.contextmanager
    def slice_stream(self):
        saved = (self.rng, self.statements, self.in_slice_stream)
        self.rng, self.in_slice_stream = self.slrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_slice_stream = saved

    def slice_hook(self, depth):
        if self.slrng is None or self.in_slice_stream or not getattr(self, "lists", None):
            return
        if self.slrng.random() >= SLICE_STATEMENT_RATE:
            return
        with self.slice_stream():
            self.slice_statement(depth)

    def slice_statement(self, depth):
        allowed = [n for n in SLICE_STATEMENTS if n != "index_loop" or
                   depth < self.config.max_depth]
        for _ in range(10):
            choice = self.rng.choices(allowed, [SLICE_STATEMENTS[n] for n in allowed])[0]
            if getattr(self, "s_" + choice)(depth) is not False:
                return

    # ---------------------------------------------------------- pieces
    def slice_lists(self, kind=None, mutable=False):
        return [n for n, k in self.lists.items() if (kind is None or k == kind)
                and not (mutable and n in self.frozen)]

    def bound_text(self, xs):
        """A start or stop: small, negative, out of range, an int64
        extreme, from the length, a variable, an expression."""
        roll = self.rng.random()
        if roll < 0.35:
            return self.rng.choice(["0", "1", "2", "3", "(-1)", "(-2)", "(-3)", "5", "9",
                                    "(-9)"])
        if roll < 0.45:
            return self.rng.choice(["9223372036854775807", "(-9223372036854775807 - 1)",
                                    "100", "(-100)"])
        if roll < 0.65:
            return self.rng.choice([f"len({xs})", f"len({xs}) // 2", f"-len({xs})",
                                    f"len({xs}) - 1", f"1 - len({xs})"])
        ints = self.variables("i64")
        if ints and roll < 0.85:
            v = self.rng.choice(ints)
            return self.rng.choice([v, f"{v} % 8", f"-{v} % 5"])
        return f"({self.expr('i64', 2)}) % 11 - 5"

    def step_text(self):
        roll = self.rng.random()
        if roll < 0.75:
            return self.rng.choice(["1", "2", "(-1)", "(-2)", "3", "(-3)", "2", "(-1)"])
        if roll < 0.8:
            return "0"                   # ValueError: slice step cannot be zero
        if roll < 0.87:
            return self.rng.choice(["9223372036854775807", "(-9223372036854775807 - 1)",
                                    "(-9223372036854775807)"])
        ints = self.variables("i64")
        if ints:
            return f"({self.rng.choice(ints)} % 3 - 1)"      # 0 now and then
        return self.rng.choice(["4", "(-4)"])

    def slice_of(self, xs, extended=None):
        """`a:b`, `a:`, `:b`, `::c`, `a:b:c` (parts omitted or `None`)."""
        extended = self.rng.random() < 0.45 if extended is None else extended

        def end():
            roll = self.rng.random()
            if roll < 0.28:
                return ""        # (an explicit `None` falls back: FINDINGS.md S3)
            return self.bound_text(xs)
        a, b = end(), end()
        if not extended:
            return f"{a}:{b}"
        c = self.step_text() if self.rng.random() < 0.92 else ""
        return f"{a}:{b}:{c}"

    def slice_item(self, kind, expr=False):
        """An item of `kind` (a kiln.u64 expression converted: a list
        refuses one, documented)."""
        text = self.expr(kind, 2) if expr else self.item(kind)
        return self.no_u64(text, {"i64": "int", "f64": "float", "bool": "bool"}[kind])

    def same_kind_list(self, kind, depth, exclude=()):
        """A list of `kind` to assign: a name, a slice, a literal, `[v] * n`."""
        names = [n for n in self.slice_lists(kind) if n not in exclude]
        roll = self.rng.random()
        if names and roll < 0.4:
            return self.rng.choice(names), self.rng.choice(names)
        if names and roll < 0.6:
            ys = self.rng.choice(names)
            return f"{ys}[{self.slice_of(ys)}]", ys
        if roll < 0.8:
            return self.l_literal(kind, depth), None
        return f"[{self.slice_item(kind)}] * {self.rng.choice(['0', '1', '2', '3'])}", None

    # -------------------------------------------------------- statements
    def s_slice_take(self, depth):
        """`ys = xs[a:b:c]` (ys the same name now and then)."""
        names = self.slice_lists()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        targets = self.slice_lists(kind, mutable=True)
        if not targets:
            return False
        ys = xs if xs in targets and self.rng.random() < 0.3 else self.rng.choice(targets)
        roll = self.rng.random()
        if roll < 0.15:
            self.emit(depth, f"{ys} = {xs}[::-1]")
        elif roll < 0.3:
            other = self.rng.choice(self.slice_lists(kind))
            self.emit(depth, f"if len({xs}) + len({other}) < {SLICE_LIMIT * 2}:")
            self.emit(depth + 1, f"{ys} = {xs}[{self.slice_of(xs)}] + "
                                 f"{other}[{self.slice_of(other)}]")
        else:
            self.emit(depth, f"{ys} = {xs}[{self.slice_of(xs)}]")

    def s_slice_read(self, depth):
        """A slice read back into a scalar variable."""
        names = self.slice_lists()
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        sl = f"{xs}[{self.slice_of(xs)}]"
        roll = self.rng.random()
        if roll < 0.3:
            target = self.scalar_target("i64")
            if not target:
                return False
            self.emit(depth, f"{target} = len({sl})")
            return
        if roll < 0.5 and kind != "bool":
            target = self.scalar_target(kind)
            if not target:
                return False
            value = f"sum({sl})" if self.rng.random() < 0.5 else \
                f"{self.rng.choice(['max', 'min'])}({sl} + [{self.slice_item(kind)}])"
            self.emit(depth, f"{target} = {value}")
            return
        if roll < 0.7:
            target = self.scalar_target("bool")
            if not target:
                return False
            others = self.slice_lists(kind)
            other = self.rng.choice(others)
            self.emit(depth, f"{target} = {sl} {self.rng.choice(['==', '!='])} "
                             f"{other}[{self.slice_of(other)}]")
            return
        target = self.scalar_target(kind)
        if not target:
            return False
        if self.rng.random() < 0.7:
            self.emit(depth, f"if {sl}:")
            depth += 1
        self.emit(depth, f"{target} = {sl}[{self.rng.choice(['0', '(-1)', '1'])}]")

    def s_slice_assign(self, depth):
        """`xs[a:b] = ys` (the list grows or shrinks; ys may be xs)."""
        names = self.slice_lists(mutable=True)
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        value, read = self.same_kind_list(kind, 2)
        guard = [f"len({xs}) < {SLICE_LIMIT}"]
        if read and read != xs:
            guard.append(f"len({read}) < {SLICE_LIMIT}")
        self.emit(depth, f"if {' and '.join(guard)}:")
        self.emit(depth + 1, f"{xs}[{self.slice_of(xs, extended=self.rng.random() < 0.1)}] = "
                             f"{value}")

    def s_slice_extended(self, depth):
        """`xs[a:b:c] = ys`: sizes that match, or not (ValueError)."""
        names = self.slice_lists(mutable=True)
        if not names:
            return False
        xs = self.rng.choice(names)
        kind = self.lists[xs]
        roll = self.rng.random()
        if roll < 0.2:
            text = self.rng.choice([f"{xs}[::2] = {xs}[1::2]", f"{xs}[::-1] = {xs}",
                                    f"{xs}[1::2] = {xs}[::2]", f"{xs}[::-2] = {xs}[::2]"])
        elif roll < 0.5:
            sl = self.slice_of(xs, extended=True)
            text = f"{xs}[{sl}] = [{self.slice_item(kind)}] * len({xs}[{sl}])"
        elif roll < 0.7:
            others = self.slice_lists(kind)
            ys = self.rng.choice(others)
            sl = self.slice_of(xs, extended=True)
            text = f"{xs}[{sl}] = {ys}[{sl}]"
        else:
            value, _ = self.same_kind_list(kind, 2)
            text = f"{xs}[{self.slice_of(xs, extended=True)}] = {value}"
        # a step of 1 is an ordinary slice assignment, which may grow the list
        self.emit(depth, f"if len({xs}) < {SLICE_LIMIT}:")
        self.emit(depth + 1, text)

    def s_slice_delete(self, depth):
        """`del xs[a:b:c]`, `del xs[i]` (IndexError when out of range)."""
        names = self.slice_lists(mutable=True)
        if not names:
            return False
        xs = self.rng.choice(names)
        if self.rng.random() < 0.6:
            self.emit(depth, f"del {xs}[{self.slice_of(xs)}]")
            return
        depth, index = self.guarded(depth, xs)
        self.emit(depth, f"del {xs}[{index}]")

    # ----------------------------------------------------- index loops
    def temporary_list(self, kind, depth):
        """A new list of a vector-edge size, in a temporary (`t5xxx`)."""
        name = self.fresh("t")
        n = self.rng.choice(VECTOR_SIZES)
        roll = self.rng.random()
        if kind == "i64" and roll < 0.4:
            value = self.rng.choice([f"list(range({n}))", f"list(range({n}, 0, -1))",
                                     f"[{self.slice_item(kind, expr=True)}] * {n}"])
        elif kind == "f64" and roll < 0.4:
            j = self.fresh("v")
            value = f"[{j} * {self.rng.choice(['0.5', '0.25', '-1.5', '3.0'])} for {j} in " \
                    f"range({n})]"
        elif kind == "bool" and roll < 0.4:
            j = self.fresh("v")
            value = f"[{j} % {self.rng.choice(['2', '3'])} == 0 for {j} in range({n})]"
        else:
            value = f"[{self.slice_item(kind, expr=True)}] * {n}"
        self.emit(depth, f"{name}: {LIST_ANNOTATION[kind]} = {value}")
        return name

    def element_value(self, kind, reads, depth):
        """A new item of `kind` computed from items read (`xs[i]`)."""
        a = self.rng.choice(reads)
        b = self.rng.choice(reads)
        if kind == "bool":
            return self.rng.choice([f"not {a}", f"{a} and {self.expr('bool', 2)}",
                                    f"{a} != {b}", f"{a} or {b}"])
        c = self.expr(kind, 3)
        if kind == "i64":
            return self.rng.choice([f"{a} * 3 + {c}", f"{a} ^ {b}", f"{a} + {b}", f"-{a}",
                                    f"{a} // 2", f"max({a}, {c})", f"{a} - 1"])
        return self.rng.choice([f"{a} * 2.5 + {c}", f"{a} * 0.5 - {b}", f"abs({a})",
                                f"{a} + {b}", f"-{a}", f"{a} / 4.0", f"min({a}, {c})"])

    def s_index_loop(self, depth):
        """`for i in range(len(xs)): ys[i] = f(xs[i])` and its relatives:
        loops that only index lists (array loops in Kiln, vectorized)."""
        if self.trip > 200:
            return False
        kind = self.rng.choice(["f64", "f64", "i64", "i64", "bool"])
        sources = self.slice_lists(kind)
        targets = self.slice_lists(kind, mutable=True)
        temporary = None
        if not sources or not targets or self.rng.random() < 0.4:
            temporary = self.temporary_list(kind, depth)
            sources, targets = sources + [temporary], targets + [temporary]
        xs = temporary if temporary and self.rng.random() < 0.5 else self.rng.choice(sources)
        ys = xs if self.rng.random() < 0.3 else \
            (temporary if temporary and self.rng.random() < 0.5 else self.rng.choice(targets))
        if ys not in targets:
            ys = self.rng.choice(targets)
        i = self.fresh("i")
        roll = self.rng.random()
        if roll < 0.35:
            header = f"range(len({xs}))"
        elif roll < 0.5:
            header = f"range(len({ys}))"
        elif roll < 0.6:
            header = f"range(min(len({xs}), len({ys})))"
        elif roll < 0.72:
            header = f"range(1, len({xs}))"
        elif roll < 0.85:
            header = f"range({self.rng.choice(VECTOR_SIZES)})"
        else:
            header = f"range(len({xs}) - 1, -1, -1)"
        reads = [f"{xs}[{i}]"] * 4 + [f"{ys}[{i}]", f"{xs}[{i} - 1]", f"{xs}[-1 - {i}]",
                                      f"{xs}[{i} + 1]" if self.rng.random() < 0.3 else
                                      f"{xs}[{i}]", f"{xs}[{i} - 2]"]
        self.emit(depth, f"for {i} in {header}:")
        self.scope.readonly[i] = "i64"
        self.loop_depth += 1
        body = depth + 1
        roll = self.rng.random()
        if roll < 0.45:
            self.emit(body, f"{ys}[{i}] = {self.element_value(kind, reads, 2)}")
        elif roll < 0.6 and kind != "bool":
            op = self.rng.choice(["+=", "-=", "*="])
            self.emit(body, f"{ys}[{i}] {op} {self.rng.choice(reads)}")
        elif roll < 0.75:
            test = f"{self.rng.choice(reads)} > {self.expr(kind, 3)}" if kind != "bool" else \
                self.rng.choice(reads)
            self.emit(body, f"if {test}:")
            self.emit(body + 1, f"{ys}[{i}] = {self.element_value(kind, reads, 2)}")
        else:
            # a reduction or a count over the items (no list written)
            target = self.scalar_target(kind if kind != "bool" else "i64")
            if not target:
                self.emit(body, f"{ys}[{i}] = {self.element_value(kind, reads, 2)}")
            elif kind == "bool" or self.scope.scalars[target] != kind:
                self.emit(body, f"if {self.rng.choice(reads)}:" if kind == "bool" else
                          f"if {self.rng.choice(reads)} > {self.expr(kind, 3)}:")
                self.emit(body + 1, f"{target} = {target} + 1")
            else:
                self.emit(body, f"{target} = {target} + {self.rng.choice(reads)}"
                          + (f" * {self.rng.choice(reads)}" if self.rng.random() < 0.3 else ""))
        self.loop_depth -= 1
        self.scope.readonly.pop(i, None)
        if temporary:
            # what the loop wrote, read back
            target = self.scalar_target(kind) if kind != "bool" else self.scalar_target("i64")
            if target:
                value = f"sum({temporary})" if self.rng.random() < 0.6 else \
                    f"{temporary}[{self.rng.choice(['0', '(-1)', '7', '(-9)'])}]"
                if kind == "bool" and value.startswith(temporary):
                    value = f"sum({temporary})"
                if self.scope.scalars[target] == "bool":
                    value = f"{temporary}[0]" if kind == "bool" else f"bool({value})"
                self.emit(depth, f"{target} = {value}")
