"""Names rebound to values of other types in generated programs
(frontend/variable_webs.py, issue 32): the rebinding constructs of
`generator.FunctionGenerator`.

Old seeds keep their programs: whether a program rebinds is drawn from its
own stream (`random.Random(f"{seed}:{index}:rebinds")`, `REBIND_PROGRAM_RATE`,
the exported function only), and every construct from a per-function
stream (`self.rng` is swapped for it; statements made do not count against
`max_statements`), before the statements of every block (`rebind_hook`,
`REBIND_STATEMENT_RATE`).

A construct is a chain of straight-line assignments to one fresh,
unannotated name (`rb<n>`, numbered from 9600), each reading the value
before it and giving it another type: an int, a float, a bool, a float64
array shaped like one of the function's arrays, a list of ints; then one
of the function's scalars reads the last of them, so what the chain
computes flows into the result. Sometimes the chain's first value depends
on a branch (`if` ... `else` giving the same kind), so two assignments
meet before the rest rebinds the name.
"""

from __future__ import annotations

import contextlib

REBIND_PROGRAM_RATE = 0.3      # programs with rebinding (drawn from the rebind stream)
REBIND_STATEMENT_RATE = 0.25   # a chain before a statement of such a program
# kind -> the kinds one assignment can turn it into
TRANSITIONS = {"i64": ("f64", "bool", "list"), "f64": ("array", "bool", "i64"),
               "bool": ("i64", "f64"), "array": ("f64",), "list": ("i64",)}


class RebindConstructs:
    """Mixed into FunctionGenerator. `self.rbrng` is None in a program
    without rebinding."""

    def init_rebinds(self, rbrng=None):
        self.rbrng = rbrng
        self.rbcounter = 0
        self.in_rebind_stream = False

    @contextlib.contextmanager
    def rebind_stream(self):
        saved = (self.rng, self.statements, self.in_rebind_stream)
        self.rng, self.in_rebind_stream = self.rbrng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_rebind_stream = saved

    def rebind_hook(self, depth):
        if self.rbrng is None or any(getattr(self, flag, False) for flag in self.SIDE_STREAMS):
            return
        if self.rbrng.random() >= REBIND_STATEMENT_RATE:
            return
        with self.rebind_stream():
            self.s_rebind_chain(depth)

    def float_arrays(self):
        return [n for n, (k, nd, w, rev, local) in self.scope.arrays.items() if k == "f64"]

    def s_rebind_chain(self, depth):
        targets = [(n, k) for n, k in self.scope.scalars.items() if k in ("i64", "f64", "bool")]
        if not targets:
            return
        self.rbcounter += 1
        rb = f"rb{9600 + self.rbcounter}"
        if self.rng.random() < 0.25:
            # two assignments of one kind that meet at the `if`'s end
            self.emit(depth, f"if {self.expr('bool', 2)}:")
            self.emit(depth + 1, f"{rb} = int({self.expr('i64', 2)}) % 1000")
            self.emit(depth, "else:")
            self.emit(depth + 1, f"{rb} = {self.rng.choice(['-7', '0', '3'])}")
        else:
            self.emit(depth, f"{rb} = int({self.expr('i64', 2)}) % 1000")
        kind = "i64"
        for _ in range(self.rng.choice([1, 2, 3, 4])):
            kind = self.rebind_step(depth, rb, kind)
        while kind in ("array", "list"):
            kind = self.rebind_step(depth, rb, kind)
        name, target = self.rng.choice(targets)
        self.emit(depth, f"{name} = {self.read_as(rb, kind, name, target)}")

    def rebind_step(self, depth, rb, kind) -> str:
        choices = [k for k in TRANSITIONS[kind] if k != "array" or self.float_arrays()]
        new = self.rng.choice(choices)
        if new == "f64" and kind == "i64":
            value = f"{rb} * 0.5 + float({self.expr('f64', 2)})"
        elif new == "f64" and kind == "bool":
            value = f"2.5 if {rb} else -0.5"
        elif new == "f64":         # from an array
            value = self.rng.choice([f"float({rb}.sum())", f"float(np.abs({rb}).sum())",
                                     f"float({rb}.size) + 0.25"])
        elif new == "bool" and kind == "i64":
            value = f"{rb} % 3 == 1"
        elif new == "bool":
            value = f"{rb} > float({self.expr('f64', 2)})"
        elif new == "i64" and kind == "f64":
            value = f"int({rb} > 0.25) - 3"
        elif new == "i64" and kind == "bool":
            value = f"int({rb}) + {self.rng.choice(['0', '1', '(-2)'])}"
        elif new == "i64":         # from a list
            value = f"{rb}[-1] % 7 + len({rb})"
        elif new == "list":
            value = f"[{rb}, int({self.expr('i64', 2)}) % 100]"
        else:                      # an array
            value = f"{self.rng.choice(self.float_arrays())} * {rb}"
        self.emit(depth, f"{rb} = {value}")
        return new

    @staticmethod
    def read_as(rb, kind, name, target) -> str:
        if target == "bool":
            return {"bool": rb, "i64": f"{rb} > 0", "f64": f"{rb} > 0.0"}[kind]
        if target == "i64":
            return {"bool": f"int({rb})", "i64": rb, "f64": f"int({rb} > 0.5)"}[kind]
        return {"bool": f"{name} + (1.5 if {rb} else 0.0)", "i64": f"{name} + {rb}",
                "f64": f"{name} + {rb}"}[kind]
