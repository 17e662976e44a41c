"""Lists of instances in generated class programs (docs/language.md,
"Classes": `list[C]`): the list constructs of `generator.FunctionGenerator`
for the classes of class_constructs.py.

Old seeds keep their programs: whether a class program has lists of
instances is drawn from a stream of its own
(`random.Random(f"{seed}:{index}:classes:lists")`, CLASS_LIST_PROGRAM_RATE
of the class programs), and so is everything below (`class_list_stream`:
`self.rng` is swapped for it, fresh names count from 8500, statements do
not count against `max_statements`); a class program without them is
what it was, and one with them keeps the class statements of
class_constructs.py, with these among them.

What the exported function does with them:
- `list[C]` locals declared at the top: a literal (a named instance in it
  twice: aliasing), a comprehension (over `range`, over another list of C,
  filtered), `[]` and appends; `list[C]` parameters, which the harness
  fills from Python (inputs.object_list: shared instances, links, now and
  then an item of another type), compared after the call as the caller
  sees them (the caller's list changed in place, its instances shared);
  sometimes a `list[C]` result;
- `xs[i]` read (fields, methods, the property, links, `is`) and stored
  (an instance, a field, through a method), i possibly out of range or
  negative (IndexError), `for o in xs` and index loops reading and changing
  fields and calling methods, pop()/pop(i) (of an empty list: IndexError),
  insert, slices, `+`, `*`, reverse, clear, len and truth;
- for classes without `__eq__` only (the plain class; a dataclass's
  `__eq__` makes Kiln refuse them): `in`, index(), count(), remove() of an
  instance that is or is not in the list (ValueError) and `==`/`!=` of two
  lists of the class -- all by identity;
- a name holding an item while the list replaces, pops or clears it
  (`y = xs[0]; xs[0] = z; use y`).
Lists grow under a guard on their length, so loops around them stay
bounded.
"""

from __future__ import annotations

import contextlib
import random

CLASS_LIST_PROGRAM_RATE = 0.7     # class programs with lists of instances
CLASS_LIST_STATEMENT_RATE = 0.45  # a statement of theirs before a statement
CLASS_LIST_PARAM_COUNTS = [0, 1, 1, 2]
CLASS_LIST_RESULT_RATE = 0.3      # main returns a list[C] instead of its scalar
LENGTH_GUARD = 24                 # a list grows only while shorter than this
CLASS_LIST_STATEMENTS = {
    "cl_append": 2, "cl_insert": 1, "cl_pop": 1.5, "cl_read": 3, "cl_store": 2,
    "cl_loop": 2, "cl_index_loop": 1.5, "cl_search": 2, "cl_slice": 1, "cl_concat": 1,
    "cl_repeat": 0.5, "cl_reverse": 0.5, "cl_clear": 0.3, "cl_equal": 1, "cl_alias": 1.5,
}


def class_lists_on(seed, index, rate=CLASS_LIST_PROGRAM_RATE) -> bool:
    return random.Random(f"{seed}:{index}:classes:lists").random() < rate


def class_list_stream(seed, index, name):
    return random.Random(f"{seed}:{index}:classes:lists:{name}")


class ClassListConstructs:
    """Mixed into FunctionGenerator. `self.clrng` is None in a program
    without lists of instances; `self.object_lists` maps each `list[C]`
    variable (parameters and locals, all bound from the top) to its
    ClassShape."""

    def init_class_lists(self, clrng=None):
        self.clrng = clrng
        self.object_lists = {}
        self.list_instances = []       # (name, shape) the declarations made
        self.clcounter = 0
        self.in_class_list_stream = False

    @contextlib.contextmanager
    def class_list_stream(self):
        """Draw from the stream of lists of instances; the statements made
        do not count."""
        saved = (self.rng, self.statements, self.in_class_list_stream)
        self.rng, self.in_class_list_stream = self.clrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_class_list_stream = saved

    def class_list_hook(self, depth):
        if self.clrng is None or not self.object_lists or self.in_class_list_stream or \
                self.in_class_stream or self.in_str_stream or self.in_list_stream or \
                self.in_dict_stream or self.in_tail_stream:
            return
        if self.clrng.random() >= CLASS_LIST_STATEMENT_RATE:
            return
        with self.class_list_stream():
            for _ in range(10):
                choice = self.rng.choices(list(CLASS_LIST_STATEMENTS),
                                          list(CLASS_LIST_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    def class_list_fresh(self, prefix):
        self.clcounter += 1
        return f"{prefix}{8500 + self.clcounter}"

    # ------------------------------------------------------- declarations
    def declare_class_lists(self, params, header_lines):
        for p in params:
            if p.container == "objlist":
                self.object_lists[p.name] = self.shape_named(p.kind)
        if self.clrng is None:
            return
        with self.class_list_stream():
            saved = self.lines
            self.lines = header_lines
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                shape = self.rng.choice(self.class_shapes)
                name = self.class_list_fresh("cl")
                self.declare_class_list(name, shape)
                self.object_lists[name] = shape
            self.lines = saved

    def shape_named(self, name):
        return next(s for s in self.class_shapes if s.name == name)

    def declare_class_list(self, name, shape):
        annotation = f"list[{shape.name}]"
        roll = self.rng.random()
        if roll < 0.35:
            items = []
            for _ in range(self.rng.choice([0, 1, 2, 3])):
                items.append(self.instance_value(shape))
            if items and self.rng.random() < 0.4:
                # one named instance twice: the list holds it twice, not copies
                held = self.class_list_fresh("ob")
                self.emit(0, f"{held} = {self.construct(shape)}")
                self.list_instances.append((held, shape))
                items += [held, held]
                self.rng.shuffle(items)
            self.emit(0, f"{name}: {annotation} = [{', '.join(items)}]")
        elif roll < 0.7:
            k = self.class_list_fresh("k")
            sources = [n for n, s in self.object_lists.items() if s is shape]
            if sources and self.rng.random() < 0.5:
                condition = self.rng.choice(["", f" if {k}.flag", f" if {k}.a % 2 == 0"])
                self.emit(0, f"{name}: {annotation} = [{k} for {k} in "
                             f"{self.rng.choice(sources)}{condition}]")
            else:
                count = self.rng.choice(["0", "1", "3", "5", f"len({self.rng.choice(sources)})"
                                         if sources else "4"])
                args = self.rng.choice([f"{k}, float({k}) * 0.5, {k} % 2 == 0",
                                        f"{k} - 2, 1.5, False"])
                value = f"{shape.name}.make({k} * 3)" if self.rng.random() < 0.3 else \
                    f"{shape.name}({args})"
                self.emit(0, f"{name}: {annotation} = [{value} for {k} in range({count})]")
        else:
            self.emit(0, f"{name}: {annotation} = []")
            for _ in range(self.rng.choice([0, 1, 2, 3])):
                self.emit(0, f"{name}.append({self.instance_value(shape)})")

    # ------------------------------------------------------------ helpers
    def object_list(self, shape=None, searchable=False):
        names = [n for n, s in self.object_lists.items()
                 if (shape is None or s is shape) and not (searchable and s.dataclass)]
        if not names:
            return None
        name = self.rng.choice(names)
        return name, self.object_lists[name]

    def named_instances(self, shape):
        return [n for n, s in self.instances + self.list_instances if s is shape]

    def instance_value(self, shape):
        """An instance of `shape`: a named one, a new one, an item of a list."""
        roll = self.rng.random()
        named = self.named_instances(shape)
        if named and roll < 0.4:
            return self.rng.choice(named)
        lists = [n for n, s in self.object_lists.items() if s is shape]
        if lists and roll < 0.6:
            return f"{self.rng.choice(lists)}[{self.item_index(None)}]"
        return self.construct(shape)

    def item_index(self, name):
        """An index that is mostly in range of `name` (negative too)."""
        options = ["0", "(-1)", "1", self.small_int(3)]
        if name is not None:
            options += [f"len({name}) - 1", f"len({name})"]
        return self.rng.choice(options)

    def length_guarded(self, depth, length, lines, bound=LENGTH_GUARD):
        """`lines` under `if <length> < bound:`: the lists stay short in loops."""
        self.emit(depth, f"if {length} < {bound}:")
        for line in lines:
            self.emit(depth + 1, line)

    def maybe_guarded(self, depth, condition, line, guard):
        if guard:
            self.emit(depth, f"if {condition}:")
        self.emit(depth + guard, line)

    def item_int_expr(self, item, shape):
        options = [f"{item}.a", f"int({item}.flag)", f"{item}.twice",
                   f"{item}.{self.rng.choice(shape.int_methods)[0]}({self.small_int(5)})"]
        if shape.linked:
            options += [f"{item}.chain_length()", f"{item}.chain_sum()",
                        f"int({item}.nxt is None)"]
        return self.rng.choice(options)

    def item_float_expr(self, item, shape):
        method = self.rng.choice(shape.float_methods)[0]
        return self.rng.choice([f"{item}.b", f"{item}.{method}({self.number('f64')})"])

    def item_change(self, item, shape):
        roll = self.rng.random()
        if roll < 0.25:
            return f"{item}.a = {self.number('i64')}"
        if roll < 0.45:
            return f"{item}.b += {self.number('f64')}"
        if roll < 0.55:
            return f"{item}.flag = not {item}.flag"
        if roll < 0.65:
            return f"{item}.twice = {self.small_int(50)}"
        if roll < 0.8 or not shape.linked:
            return f"{item}.bump({self.small_int(5)})"
        return f"{item}.nxt = {self.rng.choice(['None', self.instance_value(shape)])}"

    def read_into_target(self, depth, item, shape):
        target = self.tail_target(("i64", "f64"))
        if target is None:
            return False
        variable, kind = target
        value = self.item_float_expr(item, shape) if kind == "f64" and \
            self.rng.random() < 0.5 else self.item_int_expr(item, shape)
        self.emit(depth, f"{variable} += {value}")

    # --------------------------------------------------------- statements
    def s_cl_append(self, depth):
        name, shape = self.object_list()
        self.length_guarded(depth, f"len({name})",
                            [f"{name}.append({self.instance_value(shape)})"])

    def s_cl_insert(self, depth):
        name, shape = self.object_list()
        self.length_guarded(depth, f"len({name})", [f"{name}.insert({self.small_int(4)}, "
                                   f"{self.instance_value(shape)})"])

    def s_cl_pop(self, depth):
        name, shape = self.object_list()
        where = self.rng.choice(["", self.item_index(name)])
        target = self.tail_target(("i64",))
        if target is not None and self.rng.random() < 0.6:
            self.emit(depth, f"{target[0]} += {name}.pop({where}).a")
        else:
            # unguarded: IndexError when empty
            self.maybe_guarded(depth, name, f"{name}.pop({where})", self.rng.random() < 0.5)

    def s_cl_read(self, depth):
        name, shape = self.object_list()
        target = self.tail_target(("i64",))
        if target is not None and self.rng.random() < 0.25:
            other = self.item_index(name)
            value = self.rng.choice([f"len({name})", f"int(bool({name}))",
                                     f"int({name}[{self.item_index(name)}] is {name}[{other}])"])
            self.emit(depth, f"{target[0]} += {value}")
            return None
        return self.read_into_target(depth, f"{name}[{self.item_index(name)}]", shape)

    def s_cl_store(self, depth):
        name, shape = self.object_list()
        item = f"{name}[{self.item_index(name)}]"
        if self.rng.random() < 0.4:
            self.emit(depth, f"{item} = {self.instance_value(shape)}")
        else:
            self.emit(depth, self.item_change(item, shape))

    def s_cl_loop(self, depth):
        name, shape = self.object_list()
        o = self.class_list_fresh("o")
        if self.rng.random() < 0.3:
            i = self.class_list_fresh("i")
            self.emit(depth, f"for {i}, {o} in enumerate({name}):")
        else:
            source = self.rng.choice([name, name, f"{name}[::-1]", f"{name}[1:]"])
            self.emit(depth, f"for {o} in {source}:")
        start = len(self.lines)
        if self.rng.random() < 0.7:
            self.read_into_target(depth + 1, o, shape)
        if self.rng.random() < 0.6:
            self.emit(depth + 1, self.item_change(o, shape))
        if len(self.lines) == start:
            self.emit(depth + 1, f"{o}.bump(1)")

    def s_cl_index_loop(self, depth):
        name, shape = self.object_list()
        i = self.class_list_fresh("i")
        self.emit(depth, f"for {i} in range(len({name})):")
        roll = self.rng.random()
        if roll < 0.3:
            # reversing by hand: items move, an instance may end up twice
            self.emit(depth + 1, f"{name}[{i}] = {name}[len({name}) - 1 - {i}]")
        elif roll < 0.6:
            self.emit(depth + 1, f"{name}[{i}].a = {name}[{i}].a + {i}")
            self.read_into_target(depth + 1, f"{name}[{i}]", shape)
        else:
            self.emit(depth + 1, self.item_change(f"{name}[{i}]", shape))
            if self.read_into_target(depth + 1, f"{name}[{i}]", shape) is False:
                self.emit(depth + 1, f"{name}[{i}].bump({i})")

    def s_cl_search(self, depth):
        chosen = self.object_list(searchable=True)
        if chosen is None:
            return False
        name, shape = chosen
        target = self.tail_target(("i64",))
        probe = self.instance_value(shape)
        roll = self.rng.random()
        if target is not None and roll < 0.6:
            value = self.rng.choice([f"int({probe} in {name})", f"int({probe} not in {name})",
                                     f"{name}.count({probe})", f"{name}.index({probe})"])
            self.emit(depth, f"{target[0]} += {value}")
        else:
            # unguarded: ValueError when missing
            self.maybe_guarded(depth, f"{probe} in {name}", f"{name}.remove({probe})",
                               roll < 0.8)

    def s_cl_slice(self, depth):
        name, shape = self.object_list()
        bounds = self.rng.choice(["1:", ":2", "::-1", "::2", "1:-1", "-2:", ":"])
        others = [n for n, s in self.object_lists.items() if s is shape and n != name]
        target = self.tail_target(("i64",))
        if others and self.rng.random() < 0.5:
            self.emit(depth, f"{self.rng.choice(others)} = {name}[{bounds}]")
        elif target is not None:
            self.emit(depth, f"{target[0]} += len({name}[{bounds}])")
        else:
            return False

    def s_cl_concat(self, depth):
        name, shape = self.object_list()
        other, _ = self.object_list(shape)
        roll = self.rng.random()
        if roll < 0.4:
            line = f"{name} = {name} + {other}"
        elif roll < 0.7:
            line = f"{name} = {other} + [{self.instance_value(shape)}]"
        else:
            line = f"{name} += {other}"
        self.length_guarded(depth, f"len({name}) + len({other})", [line])

    def s_cl_repeat(self, depth):
        name, shape = self.object_list()
        other, _ = self.object_list(shape)
        count = self.rng.choice(["0", "2", "3", "(-1)", self.small_int(2)])
        self.length_guarded(depth, f"len({other})", [f"{name} = {other} * {count}"], bound=8)

    def s_cl_reverse(self, depth):
        name, _ = self.object_list()
        self.emit(depth, f"{name}.reverse()")

    def s_cl_clear(self, depth):
        name, _ = self.object_list()
        self.emit(depth, f"{name}.clear()")

    def s_cl_equal(self, depth):
        chosen = self.object_list(searchable=True)
        target = self.tail_target(("i64",))
        if chosen is None or target is None:
            return False
        name, shape = chosen
        other = self.rng.choice([self.object_list(shape)[0], f"{name}[:]", f"{name}[::-1]"])
        op = self.rng.choice(["==", "!="])
        self.emit(depth, f"{target[0]} += int({name} {op} {other})")

    def s_cl_alias(self, depth):
        """A name holding an item while the list lets it go."""
        name, shape = self.object_list()
        held = self.class_list_fresh("y")
        self.emit(depth, f"{held} = {name}[{self.item_index(name)}]")
        roll = self.rng.random()
        if roll < 0.35:
            self.emit(depth, f"{name}[{self.item_index(name)}] = {self.instance_value(shape)}")
        elif roll < 0.55:
            self.emit(depth, f"{name}.clear()")
        elif roll < 0.75:
            self.emit(depth, f"{name}.pop()")
        else:
            self.emit(depth, f"{name} = [{self.construct(shape)}]")
        self.emit(depth, self.item_change(held, shape))
        if self.read_into_target(depth, held, shape) is False:
            self.emit(depth, f"{held}.bump(2)")

    # ------------------------------------------------------------ results
    def class_list_result(self, shape_name):
        shape = self.shape_named(shape_name)
        names = [n for n, s in self.object_lists.items() if s is shape]
        roll = self.rng.random()
        if names and roll < 0.6:
            return self.rng.choice(names)
        if names and roll < 0.8:
            return f"{self.rng.choice(names)}[{self.rng.choice(['1:', '::-1', ':'])}]"
        return f"[{self.instance_value(shape)}]"
