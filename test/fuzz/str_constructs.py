"""Python's str in generated programs (docs/language.md, "Strings"): the
string constructs of `generator.FunctionGenerator`.

Old seeds keep their programs: whether a program uses strings is drawn from
its own stream (`random.Random(f"{seed}:{index}:strings")`, `--str-rate`,
0 by default), and every string construct from a per-function string stream
(`str_stream`: `self.rng` is swapped for it, fresh names count from 7000,
statements do not count against `max_statements`), before the statements
of every block (`str_hook`, `STR_STATEMENT_RATE`).

String variables (`t7xxx = ...`) are made at the top level of the body only
(like tail_constructs.py's ranges), from literals of every storage kind
(Latin-1, the BMP, astral code points, whitespace of several kinds, other
scripts' digits), `str()` of the function's numbers, `chr()`, f-strings,
`+`, `*` by small counts, indexing and slicing with small (sometimes out
of range, negative, zero-step) bounds and the methods; later statements
may rebind them (`s += ...`, `s = s[1:] + ...`: growth stays linear in
loops). What they compute flows into the function's int and float
variables through `len`, `ord`, the searches, comparisons, `in`, the
character classes, `int(s)`/`float(s)` (CPython's ValueError messages with
the text's repr) and loops over the characters, so the oracle (CPython
through semantics.py's stand-ins) checks every value.

Containers of str (StrContainerConstructs, from a stream of their own so
that older seeds keep their string programs): `list[str]` from split(),
literals, comprehensions, list()/sorted() of a str, slices and copies;
`dict[str, int]` word counts and `dict[str, str]`; `set[str]`; changed by
their methods (append, insert, pop, remove, sort, slice assignment, `del`,
`d[k] += 1`, setdefault, add, discard, `|=`, ...) and read into the
function's ints (len, count, `in`, join, min/max, lookups with their
KeyError, loops). The oracle keeps them as plain Python containers
(oracle.holds_text), so CPython itself is the reference; nothing read
depends on a set's order.
"""

from __future__ import annotations

import contextlib
import random

STR_PROGRAM_RATE = 0.0          # programs with strings: --str-rate (none by default)
STR_STATEMENT_RATE = 0.35       # a string statement before a statement of a string program
STR_STATEMENTS = {"str_make": 2, "str_read": 5, "str_loop": 1, "str_number": 1.5,
                  "str_update": 1.5}
# Literals of every storage kind (1, 2 and 4 bytes a code point), the
# whitespace str.isspace() knows, digits of other scripts, number texts.
LITERALS = ["", "a", "ab", "abc", "aaa", "é", "ßΣ", "中文", "😀", "a😀b", " x y ", "\t1\n",
            "١٢٣", "AbC", "12", "-7", " 42 ", "3.5", "1e3", "nan", "-inf", "x\u3000", "\x85z",
            "İ", "ﬁ", "1_0", "0x1", "+0"]
STEPS = ["1", "2", "(-1)", "(-2)", "3"]
# Containers of str: how often a statement of them comes before a statement
# of a string program, and how the kinds weigh.
STR_CONTAINER_RATE = 0.3
STR_CONTAINER_STATEMENTS = {"sc_make_list": 2, "sc_make_dict": 1.2, "sc_make_set": 1,
                            "sc_update_list": 3, "sc_update_dict": 2, "sc_update_set": 1.5,
                            "sc_read": 5, "sc_loop": 1.5}
SEPARATORS = ["','", "' '", "'a'", "'😀'", "', '", "'é'"]


class StrConstructs:
    """Mixed into FunctionGenerator. `self.strng` is None in a program
    without strings."""

    def init_strings(self, strng=None):
        self.strng = strng
        self.strings = []               # string variables, made at the top level
        self.strcounter = 0
        self.in_str_stream = False
        # Containers of str (str_container_hook) draw from a stream of their
        # own, seeded from the string stream's state without drawing from
        # it, and name their variables apart (`sl8001`): the string
        # programs of older seeds stay as they were.
        self.strcrng = None if strng is None else random.Random(
            f"containers:{strng.getstate()[1][:4]}")
        self.str_lists, self.str_dicts, self.text_dicts, self.str_sets = [], [], [], []
        self.strccounter = 0

    @contextlib.contextmanager
    def str_stream(self):
        """Draw from the string stream; the statements made do not count."""
        saved = (self.rng, self.statements, self.in_str_stream)
        self.rng, self.in_str_stream = self.strng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_str_stream = saved

    def str_hook(self, depth):
        """Before a statement of a string program: now and then a string
        statement."""
        if self.strng is None or self.in_str_stream or self.in_list_stream or \
                self.in_dict_stream or self.in_tail_stream:
            return
        self.str_container_hook(depth)
        if self.strng.random() >= STR_STATEMENT_RATE:
            return
        with self.str_stream():
            for _ in range(10):
                choice = self.rng.choices(list(STR_STATEMENTS),
                                          list(STR_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    # ---------------------------------------------------------- helpers
    def str_name(self):
        return self.fresh("t")

    def str_literal(self):
        return repr(self.rng.choice(LITERALS))

    def str_leaf(self):
        """A literal or a string variable (no quotes or backslashes when
        `plain`: an f-string's part)."""
        if self.strings and self.rng.random() < 0.6:
            return self.rng.choice(self.strings)
        return self.str_literal()

    def str_expr(self, depth=0):
        """A str-valued expression."""
        roll = self.rng.random()
        if depth >= 2 or roll < 0.3:
            return self.str_leaf()
        if roll < 0.38:
            return f"str({self.number('i64')})"
        if roll < 0.44:
            return f"str({self.number('f64')})"
        if roll < 0.48:
            return f"chr({self.small_int(20)} + {self.rng.choice(['97', '0x3a3', '0x1f600'])})"
        if roll < 0.52 and self.strings:
            names = [self.rng.choice(self.strings) for _ in range(2)]
            return f'f"<{{{names[0]}}}|{{{self.number("i64")}}}|{{{names[1]}}}>"'
        if roll < 0.56:
            return f'f"{{{self.number("f64")}}}:{{{self.expr("bool", 2)}}}"'
        a = self.str_expr(depth + 1)
        if roll < 0.66:
            return f"({a} + {self.str_expr(depth + 1)})"
        if roll < 0.7:
            return f"({a} * {self.small_int(3)})"
        if roll < 0.75:
            if self.rng.random() < 0.3:
                return f"{a}[{self.small_int(8)}]"              # IndexError too
            return f"({a} + 'x')[{self.small_int(8)} % (len({a}) + 1)]"
        if roll < 0.82:
            step = self.rng.choice(STEPS + [self.small_int(2)])    # a zero step: ValueError
            return self.rng.choice([f"{a}[{self.small_int(6)}:]", f"{a}[:{self.small_int(6)}]",
                                    f"{a}[{self.small_int(6)}:{self.small_int(6)}]",
                                    f"{a}[::{step}]",
                                    f"{a}[{self.small_int(6)}:{self.small_int(6)}:{step}]"])
        method = self.rng.choice(["strip()", "lstrip()", "rstrip()", "upper()", "lower()",
                                  f"replace({self.str_literal()}, {self.str_literal()})",
                                  f"strip({self.str_literal()})",
                                  f"replace({self.str_literal()}, {self.str_literal()}, "
                                  f"{self.small_int(2)})"])
        return f"{a}.{method}"

    def str_int_expr(self):
        """An int-valued expression of strings."""
        a = self.str_expr(1)
        b = self.str_expr(2)
        return self.rng.choice([
            f"len({a})", f"ord({a}[{self.small_int(5)}])", f"{a}.find({b})",
            f"{a}.rfind({b}, {self.small_int(4)}, {self.small_int(6)})", f"{a}.count({b})",
            f"{a}.index({b})", f"{a}.count({b}, {self.small_int(4)})",
            f"int({a} == {b})", f"int({a} < {b})", f"int({a} >= {b})", f"int({b} in {a})",
            f"int({b} not in {a})", f"int({a}.startswith({b}))", f"int({a}.endswith({b}))",
            f"int({a}.isdigit())", f"int({a}.isspace())", f"int({a}.isalpha())",
            f"int({a}.isalnum())", f"int({a}.isdecimal())", f"int({a}.isnumeric())",
            f"int({a}.islower())", f"int({a}.isupper())", f"int(bool({a}))",
            f"int(not {a})", f"int({a} + {b} != {b} + {a})", f"len(min({a}, {b}))",
            f"len(max({a}, {b}, {self.str_literal()}))"])

    # ------------------------------------------------------- statements
    def s_str_make(self, depth):
        if depth or self.loop_depth:
            return False            # bound once, at the top level: always bound after
        name = self.str_name()
        self.emit(depth, f"{name} = {self.str_expr()}")
        self.strings.append(name)

    def s_str_update(self, depth):
        """Rebinds a string (linear growth, also in loops)."""
        if not self.strings:
            return False
        name = self.rng.choice(self.strings)
        value = self.rng.choice([f"{name} + {self.str_leaf()}", f"{name}[1:] + {self.str_leaf()}",
                                 f"{name}[{self.small_int(4)}:] + str({self.number('i64')})",
                                 f"{self.str_expr(1)}", f"{name}.strip() + {self.str_literal()}"])
        if self.rng.random() < 0.4 and not value.startswith(name):
            self.emit(depth, f"{name} += {self.str_leaf()}")
        else:
            self.emit(depth, f"{name} = {value}")

    def s_str_read(self, depth):
        target = self.tail_target(("i64", "f64"))
        if target is None:
            return False
        name, _ = target
        self.emit(depth, f"{name} += {self.str_int_expr()}")

    def s_str_number(self, depth):
        """int(s), float(s): CPython's parse and ValueError messages."""
        target = self.tail_target(("i64", "f64"))
        if target is None:
            return False
        name, kind = target
        roll = self.rng.random()
        # mostly text that reads back (a ValueError ends the call early)
        text = self.str_expr(1) if roll < 0.15 else self.str_literal() if roll < 0.3 else \
            f"str({self.number(kind)})"
        if kind == "i64":
            self.emit(depth, f"{name} += int({text})")
        else:
            self.emit(depth, f"{name} += float({text})")

    def s_str_loop(self, depth):
        if self.trip > 400:
            return False
        target = self.tail_target(("i64", "f64"))
        if target is None:
            return False
        name, _ = target
        var = self.fresh("c")
        source = self.str_expr(1)
        if self.rng.random() < 0.3:
            index = self.fresh("v")
            self.emit(depth, f"for {index}, {var} in enumerate({source}):")
            self.emit(depth + 1, f"{name} += {index} * ord({var})")
            return
        self.emit(depth, f"for {var} in {source}:")
        if self.rng.random() < 0.5:
            self.emit(depth + 1, f"if {var} == {self.str_literal()} or {var}.isdigit():")
            self.emit(depth + 2, f"{name} += 1")
        else:
            self.emit(depth + 1, f"{name} += ord({var})")


class StrContainerConstructs:
    """Lists, dicts and sets of str in string programs (docs/language.md,
    "Lists", "Dicts", "Sets" with str items), mixed into FunctionGenerator
    with StrConstructs. Containers are made at the top level of the body
    (so always bound after), from split(), literals, comprehensions and
    the string variables; later statements change them (no list grows by
    itself: extend takes a new list) and read them into the function's int
    variables (len, count, membership, join, min/max, lookups, loops).
    What depends on a set's order is never read (sums, len, sorted)."""

    @contextlib.contextmanager
    def str_container_stream(self):
        saved = (self.rng, self.statements, self.in_str_stream)
        self.rng, self.in_str_stream = self.strcrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_str_stream = saved

    def str_container_hook(self, depth):
        if self.strcrng.random() >= STR_CONTAINER_RATE:
            return
        with self.str_container_stream():
            for _ in range(10):
                choice = self.rng.choices(list(STR_CONTAINER_STATEMENTS),
                                          list(STR_CONTAINER_STATEMENTS.values()))[0]
                if getattr(self, "s_" + choice)(depth) is not False:
                    return

    def sc_name(self, prefix):
        self.strccounter += 1
        return f"{prefix}{8000 + self.strccounter}"

    def sc_text(self):
        """A str expression (the string stream's forms, drawn here)."""
        return self.str_expr(1)

    def sc_new_list(self):
        """A new list[str] expression (never one that grows by itself)."""
        text = self.sc_text()
        forms = [f"{text}.split()", f"{text}.split({self.rng.choice(SEPARATORS)})",
                 f"{text}.split({self.rng.choice(SEPARATORS)}, {self.small_int(2)})",
                 f"{text}.split(None, {self.small_int(2)})",
                 f"[{self.sc_text()}, {self.sc_text()}]", f"list({text})", f"sorted({text})",
                 f"[c.upper() for c in {text} if c != 'a']", f"[{self.str_literal()}] * 2"]
        if self.str_lists:
            other = self.rng.choice(self.str_lists)
            forms += [f"{other}[{self.small_int(3)}:{self.small_int(5)}]", f"sorted({other})",
                      f"[w + 'x' for w in {other} if w]", f"{other} + {text}.split()",
                      f"{other}.copy()", f"[w for w in {other}][::-1]"]
        return self.rng.choice(forms)

    def sc_word(self):
        """A str to look for, store, or use as a key: often one a container
        holds."""
        if self.str_lists and self.rng.random() < 0.4:
            other = self.rng.choice(self.str_lists)
            return f"({other}[{self.small_int(3)} % len({other})] if {other} else 'q')"
        return self.rng.choice([self.str_literal(), self.sc_text(), "'a'", "'b'", "'é'"])

    # ------------------------------------------------------- statements
    def s_sc_make_list(self, depth):
        if depth or self.loop_depth:
            return False
        name = self.sc_name("sl")
        if self.rng.random() < 0.2:
            self.emit(depth, f"{name}: list[str] = []")
        else:
            self.emit(depth, f"{name} = {self.sc_new_list()}")
        self.str_lists.append(name)

    def s_sc_make_dict(self, depth):
        if depth or self.loop_depth:
            return False
        roll = self.rng.random()
        if roll < 0.5 or not self.str_lists:
            name = self.sc_name("sd")
            self.emit(depth, f"{name}: dict[str, int] = {{}}")
            var = self.sc_name("w")
            self.emit(depth, f"for {var} in {self.sc_new_list()}:")
            self.emit(depth + 1, f"{name}[{var}] = {name}.get({var}, 0) + 1")
            self.str_dicts.append(name)
        elif roll < 0.75:
            name = self.sc_name("sd")
            var = self.sc_name("w")
            self.emit(depth, f"{name} = {{{var}: len({var}) for {var} in "
                             f"{self.rng.choice(self.str_lists)}}}")
            self.str_dicts.append(name)
        else:
            name = self.sc_name("st")
            self.emit(depth, f"{name} = {{{self.sc_text()}: {self.sc_text()}, "
                             f"{self.str_literal()}: {self.sc_text()}}}")
            self.text_dicts.append(name)

    def s_sc_make_set(self, depth):
        if depth or self.loop_depth:
            return False
        name = self.sc_name("ss")
        forms = [f"set({self.sc_new_list()})", f"set({self.sc_text()})",
                 f"{{{self.sc_text()}, {self.str_literal()}}}"]
        if self.str_lists:
            var = self.sc_name("w")
            forms.append(f"{{{var}.lower() for {var} in {self.rng.choice(self.str_lists)}}}")
        self.emit(depth, f"{name} = {self.rng.choice(forms)}")
        self.str_sets.append(name)

    def s_sc_update_list(self, depth):
        if not self.str_lists:
            return False
        name = self.rng.choice(self.str_lists)
        word = self.sc_word()
        self.emit(depth, self.rng.choice([
            f"{name}.append({word})", f"{name}.insert({self.small_int(4)}, {word})",
            f"{name}.extend({self.sc_text()}.split())", f"{name} += [{word}]",
            f"{name}.sort()", f"{name}.sort(reverse=True)", f"{name}.reverse()",
            f"if {name}:\n{'    ' * (depth + 2)}{name}.pop()",
            f"{name}.pop({self.small_int(3)})",
            f"if {word} in {name}:\n{'    ' * (depth + 2)}{name}.remove({word})",
            f"{name}[{self.small_int(3)}] = {word}",
            f"{name}[{self.small_int(3)}:{self.small_int(4)}] = {self.sc_text()}.split()",
            f"del {name}[{self.small_int(3)}]",
            f"{name}[{self.small_int(3)}] += {self.str_literal()}",
            f"{name}.clear()" if self.rng.random() < 0.2 else f"{name}.append('z')"]))

    def s_sc_update_dict(self, depth):
        if self.text_dicts and (not self.str_dicts or self.rng.random() < 0.3):
            name = self.rng.choice(self.text_dicts)
            word = self.sc_word()
            self.emit(depth, self.rng.choice([
                f"{name}[{word}] = {self.sc_text()}", f"{name}[{word}] += 'x'",
                f"{name}.setdefault({word}, {self.str_literal()})",
                f"{name}.pop({word}, '')", f"{name}.update({{{word}: {self.sc_text()}}})"]))
            return
        if not self.str_dicts:
            return False
        name = self.rng.choice(self.str_dicts)
        word = self.sc_word()
        self.emit(depth, self.rng.choice([
            f"{name}[{word}] = {self.number('i64')}", f"{name}[{word}] += 1",
            f"{name}[{word}] = {name}.get({word}, 0) + 1",
            f"{name}.pop({word}, 0)", f"{name}.setdefault({word}, 7)",
            f"if {word} in {name}:\n{'    ' * (depth + 2)}del {name}[{word}]"]))

    def s_sc_update_set(self, depth):
        if not self.str_sets:
            return False
        name = self.rng.choice(self.str_sets)
        word = self.sc_word()
        forms = [f"{name}.add({word})", f"{name}.discard({word})", f"{name}.remove({word})",
                 f"{name} |= set({self.sc_text()})", f"{name} -= {{{word}}}",
                 f"{name}.update({self.sc_text()}.split())"]
        if len(self.str_sets) > 1:
            forms.append(f"{name} &= {self.rng.choice(self.str_sets)} | {{{word}}}")
        self.emit(depth, self.rng.choice(forms))

    def s_sc_read(self, depth):
        target = self.tail_target(("i64",))
        if target is None:
            return False
        name, _ = target
        forms = []
        word = self.sc_word()
        if self.str_lists:
            xs = self.rng.choice(self.str_lists)
            ys = self.rng.choice(self.str_lists)
            forms += [f"len({xs})", f"{xs}.count({word})", f"int({word} in {xs})",
                      f"({xs}.index({word}) if {word} in {xs} else -1)",
                      f"len({self.rng.choice(SEPARATORS)}.join({xs}))",
                      f"(len(min({xs})) + len(max({xs})) if {xs} else 0)",
                      f"len({xs}[{self.small_int(3)}])", f"int({xs} == {ys})",
                      f"len(''.join(w.lower() for w in {xs}))", f"len(sorted({xs})[0:2])"]
        if self.str_dicts:
            d = self.rng.choice(self.str_dicts)
            forms += [f"len({d})", f"sum({d}.values())", f"{d}.get({word}, 3)",
                      f"int({word} in {d})", f"{d}[{word}]", f"len(list({d}))",
                      f"(len(max({d})) if {d} else 0)", f"len(sorted({d}))"]
        if self.text_dicts:
            e = self.rng.choice(self.text_dicts)
            forms += [f"len({e}.get({word}, 'zz'))", f"len({e}[{word}])",
                      f"len(','.join({e}.values()))"]
        if self.str_sets:
            s = self.rng.choice(self.str_sets)
            t = self.rng.choice(self.str_sets)
            forms += [f"len({s})", f"int({word} in {s})", f"len(''.join(sorted({s})))",
                      f"int({s} <= {t})", f"len({s} | {t})", f"len({s} ^ {t})",
                      f"int({s} == {t})"]
        if not forms:
            return False
        self.emit(depth, f"{name} += {self.rng.choice(forms)}")

    def s_sc_loop(self, depth):
        if self.trip > 400:
            return False
        target = self.tail_target(("i64",))
        if target is None:
            return False
        name, _ = target
        a, b = self.sc_name("w"), self.sc_name("w")
        forms = []
        if self.str_lists:
            xs = self.rng.choice(self.str_lists)
            ys = self.rng.choice(self.str_lists)
            forms += [(f"for {a}, {b} in enumerate({xs}):", f"{name} += {a} * len({b})"),
                      (f"for {a}, {b} in zip({xs}, {ys}):", f"{name} += int({a} < {b})"),
                      (f"for {a} in {xs}:", f"{name} += len({a}) + int({a}.isdigit())")]
        if self.str_dicts:
            d = self.rng.choice(self.str_dicts)
            forms += [(f"for {a}, {b} in {d}.items():", f"{name} += {b} + len({a})"),
                      (f"for {a} in {d}:", f"{name} += len({a})")]
        if self.str_sets:
            s = self.rng.choice(self.str_sets)
            forms += [(f"for {a} in {s}:", f"{name} += len({a}) + ord(({a} + 'x')[0])")]
        if not forms:
            return False
        head, body = self.rng.choice(forms)
        self.emit(depth, head)
        self.emit(depth + 1, body)
