"""List fields of the generated classes (class_constructs.add_list_fields:
`li: list[int]`, `lf: list[float]`, `kids: "list[C]"`) in the function a
class program exports: the statements of `generator.FunctionGenerator`
that use them.

Old seeds keep their programs: which classes have list fields is drawn
from `class_stream(seed, index, "listfields")`, the statements from
`random.Random(f"{seed}:{index}:classes:listfields:f{index}")`
(`list_field_stream`: `self.rng` is swapped for it, fresh names count
from 8900, statements do not count against `max_statements`); a program
whose classes have no list field is what it was.

What the statements do with the named instances of such classes (made at
the top level by class_constructs.s_c_make, or the class lists'
declarations):
- append to a field (under a guard on its length), through the view's
  method in the function (`o.li.append(v)`) or a compiled method
  (`o.li_push(v)`, `o.kids_adopt(p)`), or a module function given the
  field's list (`C_li_grow(o.li, v)`: the field's list itself is changed);
- read items (`o.li[i]`, i possibly out of range or negative: IndexError;
  `o.kids[i].a`), `len`, `in`, `count`, sums by loops, by methods and by
  module functions; pop (of an empty list: IndexError, or guarded);
- store items (`o.li[i] = v`, `o.li[i] += v`, `o.lf[i] *= 0.5`,
  `o.kids[i] = p`, `o.kids[i].a = v`);
- loops over a field (`for v in o.li`, `for k in o.kids`), index loops that
  store, and loops that rebind the field they iterate (CPython's iterator
  keeps the list it started with: so does Kiln);
- rebind a field: a literal, a comprehension over it, a slice of it, a
  concatenation (guarded), another instance's numeric field (the two
  instances then share one list: a change through one shows through the
  other). A `kids` field is never given a list another name or field
  holds (worker.py counts an instance's references through each
  instance's `kids` once), and no field is given a list parameter of the
  function (documented deviation: the instance would keep the function's
  copy).
"""

from __future__ import annotations

import contextlib
import random

LIST_FIELD_STATEMENT_RATE = 0.45
LIST_FIELD_STATEMENTS = {"lf_append": 2, "lf_read": 4, "lf_store": 2, "lf_pop": 1,
                         "lf_loop": 1.5, "lf_assign": 1.5, "lf_method": 1.5,
                         "lf_function": 1.5}
LENGTH_GUARD = 24


def list_field_stream(seed, index, name):
    return random.Random(f"{seed}:{index}:classes:listfields:{name}")


class ListFieldConstructs:
    """Mixed into FunctionGenerator. `self.lfrng` is None in a program
    whose classes have no list fields."""

    def init_list_fields(self, lfrng=None):
        self.lfrng = lfrng
        self.lfcounter = 0
        self.in_list_field_stream = False

    @contextlib.contextmanager
    def list_field_stream(self):
        saved = (self.rng, self.statements, self.in_list_field_stream)
        self.rng, self.in_list_field_stream = self.lfrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_list_field_stream = saved

    def list_field_hook(self, depth):
        if self.lfrng is None or self.in_list_field_stream:
            return
        if self.lfrng.random() >= LIST_FIELD_STATEMENT_RATE:
            return
        with self.list_field_stream():
            for _ in range(10):
                choice = self.rng.choices(list(LIST_FIELD_STATEMENTS),
                                          list(LIST_FIELD_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    def list_field_fresh(self, prefix):
        self.lfcounter += 1
        return f"{prefix}{8900 + self.lfcounter}"

    # ------------------------------------------------------------ helpers
    def field_holders(self, kinds=None):
        """(instance name, shape, field, kind) of the named instances whose
        class has list fields (of `kinds`)."""
        found = []
        named = list(self.instances) + list(getattr(self, "list_instances", []))
        for name, shape in named:
            for field, kind in shape.root.list_fields.items():
                if kinds is None or kind in kinds:
                    found.append((name, shape, field, kind))
        return found

    def pick_holder(self, kinds=None):
        found = self.field_holders(kinds)
        return self.rng.choice(found) if found else None

    def field_index(self, target):
        """An index of `target`, out of range now and then (IndexError)."""
        return self.rng.choice(["0", "(-1)", "0", "(-1)", "1", f"len({target}) - 1",
                                f"len({target})", self.small_int(3)])

    def guarded_item(self, depth, target):
        """(`target[i]`, depth): mostly under `if len(target) > 1:` with i in
        range, else any index (IndexError out of range)."""
        if self.rng.random() < 0.6:
            self.emit(depth, f"if len({target}) > 1:")
            return f"{target}[{self.rng.choice(['0', '1', '(-1)', '(-2)'])}]", depth + 1
        return f"{target}[{self.field_index(target)}]", depth

    def item_value(self, kind, shape):
        if kind == "int":
            return self.number("i64")
        if kind == "float":
            return self.rng.choice([self.number("f64"), self.number("i64"),
                                    repr(self.rng.choice([0.5, -0.0, 1e308, -2.5]))])
        return self.kid_value(shape)

    def kid_value(self, shape):
        """An instance a `kids` field takes: of the class's root (a named
        one, maybe of a subclass; a new one; an item of a kids field)."""
        root = shape.root
        named = [n for n, s in list(self.instances) + list(getattr(self, "list_instances", []))
                 if s.root is root]
        roll = self.rng.random()
        if named and roll < 0.5:
            return self.rng.choice(named)
        if named and roll < 0.58:
            return f"{self.rng.choice(named)}.kids[0]"      # IndexError when empty
        return self.construct(root)

    # --------------------------------------------------------- statements
    def s_lf_append(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        target = f"{name}.{field}"
        roll = self.rng.random()
        if roll < 0.6:
            line = f"{target}.append({self.item_value(kind, shape)})"
        elif roll < 0.8:
            line = f"{target}.insert({self.small_int(3)}, {self.item_value(kind, shape)})"
        else:
            line = f"{target} += [{self.item_value(kind, shape)}]"
        self.emit(depth, f"if len({target}) < {LENGTH_GUARD}:")
        self.emit(depth + 1, line)

    def s_lf_read(self, depth):
        chosen = self.pick_holder()
        found = self.tail_target(("i64", "f64"))
        if chosen is None or found is None:
            return False
        name, shape, field, kind = chosen
        variable, vkind = found
        target = f"{name}.{field}"
        item, depth = self.guarded_item(depth, target)
        if kind == "kids":
            options = [f"{item}.a", f"len({target})", f"{name}.kids_sum()",
                       f"{name}.kids_at({self.field_index(target)})", f"{name}.kids_grand()",
                       f"int({item} is {name})", f"int(bool({target}))",
                       f"{item}.{self.rng.choice(shape.root.int_methods)[0]}(1)"]
        elif kind == "int" or vkind == "i64":
            options = [f"len({target})", f"int(bool({target}))", f"int(not {target})"]
            if kind == "int":
                v = self.number("i64")
                options += [item, f"{name}.li_sum()", f"{name}.li_at({self.field_index(target)})",
                            f"int({v} in {target})", f"{target}.count({v})",
                            f"{target}[-1] if {target} else 0"]
        else:
            v = self.number("f64")
            options = [item, f"{name}.lf_sum()", f"{name}.lf_at({self.field_index(target)})",
                       f"float(len({target}))", f"float({v} in {target})",
                       f"{target}[0] if {target} else 0.5"]
        self.emit(depth, f"{variable} += {self.rng.choice(options)}")

    def s_lf_store(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        target = f"{name}.{field}"
        item, depth = self.guarded_item(depth, target)
        if kind == "kids":
            line = self.rng.choice([f"{item} = {self.kid_value(shape)}",
                                    f"{item}.a = {self.number('i64')}", f"{item}.bump(1)",
                                    f"{item}.kids_adopt({name})"])
        elif kind == "int":
            line = self.rng.choice([f"{item} = {self.number('i64')}",
                                    f"{item} += {self.number('i64')}",
                                    f"{item} -= {self.small_int(5)}"])
        else:
            line = self.rng.choice([f"{item} = {self.item_value(kind, shape)}",
                                    f"{item} *= 0.5", f"{item} += {self.number('f64')}"])
        self.emit(depth, line)

    def s_lf_pop(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        target = f"{name}.{field}"
        where = self.rng.choice(["", "0", "(-1)", self.small_int(2)])
        found = self.tail_target(("i64",) if kind != "float" else ("f64",))
        if found is not None and self.rng.random() < 0.6:
            value = f"{target}.pop({where})" + (".a" if kind == "kids" else "")
            if kind != "kids" and self.rng.random() < 0.4:
                value = f"{name}.{field}_pop()"
            self.emit(depth, f"{found[0]} += {value}")
            return None
        guard = self.rng.random() < 0.5      # unguarded: IndexError when empty
        if guard:
            self.emit(depth, f"if {target}:")
        self.emit(depth + guard, f"{target}.pop({where})")

    def s_lf_loop(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        target = f"{name}.{field}"
        v = self.list_field_fresh("lv")
        found = self.tail_target(("i64", "f64"))
        roll = self.rng.random()
        if roll < 0.2 and kind != "kids":
            # rebinding the field it iterates: the loop keeps its list
            self.emit(depth, f"for {v} in {target}:")
            self.emit(depth + 1, f"{target} = [{v}, {self.item_value(kind, shape)}]")
            return None
        if roll < 0.4:
            i = self.list_field_fresh("li")
            self.emit(depth, f"for {i} in range(len({target})):")
            if kind == "kids":
                self.emit(depth + 1, f"{target}[{i}].a = {target}[{i}].a + {i}")
            elif kind == "int":
                self.emit(depth + 1, f"{target}[{i}] += {i}")
            else:
                self.emit(depth + 1, f"{target}[{i}] = {target}[{i}] * 0.5 + float({i})")
            return None
        self.emit(depth, f"for {v} in {target}:")
        if kind == "kids":
            body = [f"{v}.bump(1)"]
            if found is not None:
                body.append(f"{found[0]} += {v}.a % 1000" if found[1] == "i64" else
                            f"{found[0]} += {v}.b")
        elif found is not None and (found[1] == "f64" or kind == "int"):
            body = [f"{found[0]} += {v}"]
        else:
            body = [f"{name}.{field}_push({v})" if self.rng.random() < 0.3 else "pass"]
        for line in body:
            self.emit(depth + 1, line)

    def s_lf_assign(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        target = f"{name}.{field}"
        v = self.list_field_fresh("lv")
        if kind == "kids":
            value = self.rng.choice([
                "[]", f"[{self.kid_value(shape)}]", f"{target}[1:]", f"{target}[::-1]",
                f"[{v} for {v} in {target} if {v}.flag]", f"{target} + [{self.kid_value(shape)}]"])
        else:
            sharing = [n for n, s, f, k in self.field_holders((kind,))
                       if f == field and n != name]
            options = [f"[{self.item_value(kind, shape)}, {self.item_value(kind, shape)}]",
                       "[]", f"{target}[::-1]", f"{target}[1:]",
                       f"[{v} * 2 for {v} in {target}]",
                       f"{target} + [{self.item_value(kind, shape)}]"]
            if sharing:
                # one list, two instances
                options += [f"{self.rng.choice(sharing)}.{field}"] * 2
            value = self.rng.choice(options)
        self.emit(depth, f"if len({target}) < {LENGTH_GUARD}:")
        self.emit(depth + 1, f"{target} = {value}")

    def s_lf_method(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        if kind == "kids":
            line = f"{name}.kids_adopt({self.kid_value(shape)})"
        else:
            line = self.rng.choice([f"{name}.{field}_push({self.item_value(kind, shape)})",
                                    f"{name}.{field}_rebind({self.item_value(kind, shape)})"])
        found = self.tail_target(("i64",))
        if found is not None and self.rng.random() < 0.5:
            self.emit(depth, f"{found[0]} += {line}")
        else:
            self.emit(depth, line)

    def s_lf_function(self, depth):
        chosen = self.pick_holder()
        if chosen is None:
            return False
        name, shape, field, kind = chosen
        prefix = f"{shape.root.name}_{field}"
        target = f"{name}.{field}"
        found = self.tail_target(("i64", "f64"))
        if kind != "kids" and (found is None or self.rng.random() < 0.4):
            line = f"{prefix}_grow({target}, {self.item_value(kind, shape)})"
            self.emit(depth, f"{found[0]} += {line}" if found and found[1] == "i64" else line)
            return None
        if found is None or (kind == "float" and found[1] == "i64"):
            return False
        self.emit(depth, f"{found[0]} += {prefix}_total({target})")
