"""The long tail of builtins in generated programs (docs/language.md:
`divmod`, range objects kept as values, generator expressions consumed by
sum/min/max/any/all, `raise E(f"...")`): the tail constructs of
`generator.FunctionGenerator`.

Old seeds keep their programs: whether a program uses them is drawn from
its own stream (`random.Random(f"{seed}:{index}:tail")`, `TAIL_PROGRAM_RATE`),
and every tail construct from a per-function tail stream (`tail_stream`:
`self.rng` is swapped for it, fresh names count from 600, statements do not
count against `max_statements`), before the statements of every block
(`tail_hook`, `TAIL_STATEMENT_RATE`). Tail statements store into the
function's own scalar variables (so what they compute flows into the
result) and read its scalars, arrays and loop counters; the ranges they
make (`r6xx = range(a, b, step)`, at the top level of the body only, so no
branch or loop rebinds one) live apart (`self.ranges`) and only tail code
reads them.

Constructs (`TAIL_STATEMENTS`): `q = divmod(a, b)[k]` and `q, r = divmod(a,
b)` of ints and floats (zero and negative divisors, NaN and infinities from
the operands); ranges with steps of either sign and sometimes zero
(ValueError), read by `len(r)`, `r[i]` (in and out of range: IndexError),
`x in r` (ints and floats), `r.start`/`.stop`/`.step`, `sum(r)`, `min(r)`/
`max(r)` (empty: ValueError), `bool(r)` and `for v in r` loops; generator
expressions with an `if` (and a second `for`) over ranges, range variables,
1-D arrays and `zip()`/`enumerate()` of 1-D arrays, consumed by `sum(...,
start)` (a start of the element's kind, so that the total's type does not
hang on the elements of an empty generator), `min`, `max` (empty:
ValueError), `any`, `all` (whose later elements may raise, which they stop
before); `raise E(f"... {int} ... {bool}")` under a condition; positions as
tuples: `for p in np.ndindex(a.shape)` (or of sizes written out, negative
ones raising) reading `a[p]` and `p[k]`, `np.unravel_index(k, a.shape)`
(ValueError outside the size) and `tuple(<generator>)` over a shape.
"""

from __future__ import annotations

import contextlib

TAIL_PROGRAM_RATE = 0.3        # programs with tail constructs (drawn from the tail stream)
TAIL_STATEMENT_RATE = 0.3      # a tail statement before a statement of a tail program
TAIL_STATEMENTS = {"tail_divmod": 3, "tail_range": 1.5, "tail_range_read": 3,
                   "tail_reduce": 4, "tail_range_loop": 1, "tail_raise": 1,
                   "tail_positions": 1.5}
# the arrays whose elements a positions loop reads (int(...)/float(...) of them)
POSITION_KINDS = ("f64", "f32", "i64", "i32", "u8", "i16", "bool")
# A zero step written in the source is a compile error (as for loops);
# one computed at run time raises ValueError (range_text).
RANGE_STEPS = ["1", "1", "2", "3", "(-1)", "(-2)", "(-3)"]
# int(...) and float(...) around an operand: the generator's expression of
# a kind may be a narrower typed one in Kiln (`max(3, x32)` is an int32),
# and sum() takes Python's own number types only.
AS_KIND = {"i64": "int", "f64": "float"}
SUMMED_KINDS = ("i64", "f64")


class TailConstructs:
    """Mixed into FunctionGenerator. `self.trng` is None in a program
    without tail constructs."""

    def init_tail(self, trng=None):
        self.trng = trng
        self.ranges = []                # range variables, made at the top level
        self.tcounter = 0
        self.in_tail_stream = False

    @contextlib.contextmanager
    def tail_stream(self):
        """Draw from the tail stream; the statements made do not count."""
        saved = (self.rng, self.statements, self.in_tail_stream)
        self.rng, self.in_tail_stream = self.trng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_tail_stream = saved

    def tail_hook(self, depth):
        """Before a statement of a tail program: now and then a tail statement."""
        if self.trng is None or self.in_tail_stream or self.in_list_stream or \
                self.in_dict_stream:
            return
        if self.trng.random() >= TAIL_STATEMENT_RATE:
            return
        with self.tail_stream():
            for _ in range(10):
                choice = self.rng.choices(list(TAIL_STATEMENTS),
                                          list(TAIL_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    # ------------------------------------------------------------ helpers
    def tail_target(self, kinds):
        """An assignable scalar variable of one of `kinds` (name, kind), or None."""
        names = [n for n, k in self.scope.scalars.items() if k in kinds]
        if not names:
            return None
        name = self.rng.choice(names)
        return name, self.scope.scalars[name]

    def small_int(self, bound=11):
        """An int expression in [-bound, bound] (a `%` by a constant never raises)."""
        return f"(int({self.expr('i64', 2)}) % {2 * bound + 1} - {bound})"

    def number(self, kind, depth=2):
        """An int64 or float64 expression (int(...)/float(...) of one of the kind)."""
        return f"{AS_KIND[kind]}({self.expr(kind, depth)})"

    def range_text(self):
        """`range(...)` with small bounds and a step of either sign (sometimes 0)."""
        step = self.rng.choice(RANGE_STEPS)
        ints = self.variables("i64")
        if ints and self.rng.random() < 0.15:
            # a variable's (not folded): 0 raises ValueError when the range is made
            step = f"({self.rng.choice(ints)} % 5 - 2)"
        form = self.rng.random()
        if form < 0.25:
            return f"range({self.small_int()})"
        if form < 0.5:
            return f"range({self.small_int()}, {self.small_int()})"
        return f"range({self.small_int()}, {self.small_int()}, {step})"

    # --------------------------------------------------------- statements
    def s_tail_divmod(self, depth):
        target = self.tail_target(SUMMED_KINDS)
        if target is None:
            return False
        name, kind = target
        a = self.number(kind)
        b = self.rng.choice(["0", "(-3)", "7", "2", "(-1)"] + ["0.0", "(-0.5)", "2.5"] *
                            (kind == "f64")) if self.rng.random() < 0.4 else self.number(kind)
        others = [n for n, k in self.scope.scalars.items() if k == kind and n != name]
        if others and self.rng.random() < 0.4:
            self.emit(depth, f"{name}, {self.rng.choice(others)} = divmod({a}, {b})")
        else:
            self.emit(depth, f"{name} = divmod({a}, {b})[{self.rng.choice(['0', '1', '-1'])}]")

    def s_tail_range(self, depth):
        if depth or self.loop_depth:
            return False            # bound once, at the top level: never rebound
        name = self.fresh("r")
        self.emit(depth, f"{name} = {self.range_text()}")
        self.ranges.append(name)

    def s_tail_range_read(self, depth):
        if not self.ranges:
            return False
        r = self.rng.choice(self.ranges)
        target = self.tail_target(("i64", "bool"))
        if target is None:
            return False
        name, kind = target
        if kind == "bool":
            needle = self.expr(self.rng.choice(["i64", "i64", "f64", "bool"]), 2)
            value = self.rng.choice([f"{needle} in {r}", f"{needle} not in {r}", f"bool({r})",
                                     f"not {r}"])
        else:
            value = self.rng.choice([
                f"len({r})", f"{r}[{self.small_int(14)}]", f"{r}[0] if {r} else -1",
                f"{r}[-1] if len({r}) > 0 else 0", f"sum({r})", f"sum({r}, {self.number('i64')})",
                f"min({r})", f"max({r}) if {r} else 0", f"{r}.start + {r}.stop * {r}.step"])
        self.emit(depth, f"{name} = {value}")

    def s_tail_range_loop(self, depth):
        if not self.ranges or self.trip > 400:
            return False
        target = self.tail_target(SUMMED_KINDS)
        if target is None:
            return False
        name, kind = target
        r = self.rng.choice(self.ranges)
        var = self.fresh("v")
        self.emit(depth, f"for {var} in {r}:")
        self.scope.readonly[var] = "i64"
        self.emit(depth + 1, f"{name} += {self.number(kind)}")
        self.scope.readonly.pop(var, None)

    def generator_clauses(self, depth):
        """`for v in <iterable> [if c]` (and a second `for`): the clauses of
        a generator expression and the names they bind (name -> kind)."""
        arrays = [a for a in self.arrays() if self.scope.arrays[a][1] == 1]
        roll = self.rng.random()
        bound = {}
        if arrays and roll < 0.35:
            a = self.rng.choice(arrays)
            var = self.fresh("v")
            bound[var] = self.scope.arrays[a][0]
            clauses = f"for {var} in {a}"
        elif arrays and roll < 0.5:
            a, b = self.rng.choice(arrays), self.rng.choice(arrays)
            u, w = self.fresh("v"), self.fresh("v")
            bound[u], bound[w] = self.scope.arrays[a][0], self.scope.arrays[b][0]
            clauses = f"for {u}, {w} in zip({a}, {b})"
        elif arrays and roll < 0.6:
            a = self.rng.choice(arrays)
            i, var = self.fresh("v"), self.fresh("v")
            bound[i], bound[var] = "i64", self.scope.arrays[a][0]
            clauses = f"for {i}, {var} in enumerate({a})"
        else:
            var = self.fresh("v")
            bound[var] = "i64"
            source = self.rng.choice(self.ranges) if self.ranges and \
                self.rng.random() < 0.5 else self.range_text()
            clauses = f"for {var} in {source}"
        for name, kind in bound.items():
            self.scope.readonly[name] = kind
        if self.rng.random() < 0.15:
            inner = self.fresh("v")
            bound[inner] = "i64"
            self.scope.readonly[inner] = "i64"
            clauses += f" for {inner} in range({self.rng.choice(['2', '3'])})"
        if self.rng.random() < 0.5:
            clauses += f" if {self.expr('bool', depth + 1)}"
        return clauses, bound

    def s_tail_reduce(self, depth):
        if self.trip > 400:
            return False
        target = self.tail_target(("i64", "f64", "bool"))
        if target is None:
            return False
        name, kind = target
        clauses, bound = self.generator_clauses(2)
        if kind == "bool":
            value = f"{self.rng.choice(['any', 'all'])}({self.expr('bool', 2)} {clauses})"
        else:
            element = self.number(kind)
            consumer = self.rng.choice(["sum", "sum", "min", "max"])
            if consumer == "sum":
                start = self.rng.choice(["0", "(-5)", "7"]) if kind == "i64" else \
                    self.rng.choice(["0.0", "0.5", "(-2.25)"])
                value = f"sum(({element} {clauses}), {start})"
            else:
                value = f"{consumer}({element} {clauses})"
        for var in bound:
            self.scope.readonly.pop(var, None)
        self.emit(depth, f"{name} = {value}")

    def s_tail_raise(self, depth):
        error = self.rng.choice(["ValueError", "IndexError", "OverflowError", "RuntimeError"])
        parts = []
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            kind = self.rng.choice(["i64", "i64", "bool"])
            shown = self.number(kind) if kind == "i64" else self.expr(kind, 2)
            if any(c in shown for c in "\"'{}\\"):
                return False        # the f-string's own quotes and braces
            parts.append(f"{{({shown})}}")
        self.emit(depth, f"if {self.expr('bool', 1)}:")
        self.emit(depth + 1, f'raise {error}(f"tail {" and ".join(parts)}")')

    def s_tail_positions(self, depth):
        """A loop over np.ndindex of an array's shape (or of sizes written
        out), reading the element at each position and the position's
        parts; or one position from np.unravel_index; or a shape mapped by
        tuple(<generator>)."""
        target = self.tail_target(SUMMED_KINDS)
        arrays = [n for n, spec in self.scope.arrays.items() if spec[0] in POSITION_KINDS]
        if target is None or not arrays:
            return False
        name, kind = target
        array = self.rng.choice(arrays)
        ndim = self.scope.arrays[array][1]
        convert = AS_KIND[kind]
        form = self.rng.random()
        if form < 0.5:
            position = self.fresh("p")
            sizes = f"{array}.shape"
            if self.rng.random() < 0.2:
                # sizes written out: a negative one raises numpy's ValueError
                sizes = ", ".join(self.rng.choice(["0", "1", "2", "3", "(-1)"])
                                  for _ in range(self.rng.choice([1, 2])))
                part = self.rng.randrange(sizes.count(",") + 1)
                self.emit(depth, f"for {position} in np.ndindex({sizes}):")
                self.emit(depth + 1, f"{name} = {name} + {convert}({position}[{part}] * 3 + 1)")
                return None
            part = self.rng.randrange(ndim)
            self.emit(depth, f"for {position} in np.ndindex({sizes}):")
            self.emit(depth + 1, f"{name} = {name} + {convert}({array}[{position}]) * "
                                 f"{convert}({position}[{part}] + 1)")
            return None
        if form < 0.8:
            k = self.rng.choice(["0", "1", "5", "(-1)", "100"] + [
                f"int({v}) % 50" for v in self.variables("i64")[:2]])
            part = self.rng.randrange(ndim)
            self.emit(depth, f"{name} = {name} + {convert}(np.unravel_index({k}, {array}.shape)"
                             f"[{part}])")
            return None
        part = self.rng.randrange(ndim)
        mapped = self.fresh("t")
        if depth or self.loop_depth:
            return False            # a tuple variable at the top level only
        self.emit(depth, f"{mapped} = tuple(v * 2 + 1 for v in {array}.shape)")
        self.emit(depth, f"{name} = {name} + {convert}({mapped}[{part}])")
        return None
