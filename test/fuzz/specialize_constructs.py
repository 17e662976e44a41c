"""Helpers called at several argument types in generated programs
(typecheck/specialization.py, issue 32): the specialization constructs of
`generator.FunctionGenerator`.

Old seeds keep their programs: whether a program has them is drawn from
its own stream (`random.Random(f"{seed}:{index}:specialize")`,
`SPECIALIZE_PROGRAM_RATE`), and every call from a per-function stream
(`self.rng` is swapped for it; statements made do not count against
`max_statements`), before the statements of the exported function's
blocks (`specialize_hook`, `SPECIALIZE_STATEMENT_RATE`).

Such a program has one or two generic helpers, without annotations, whose
bodies mean something for every number and array type (`x * k + x`, a
branch on `a > b`, `np.maximum(x, 0)`, a loop, `x.astype(dtype)` with a
dtype parameter whose default is `np.float64`, compared with
`np.float32`; a helper taking a function, passed a builtin, a numpy
function, a module function or a lambda, which may read the caller's
scalars); the exported function
calls them with numbers of the scalar kinds and with arrays of every
dtype in scope, so one helper is compiled at several signatures. Each
call's result is read back as a float (`float(...)`, of an array its
`np.max`) into a new name (`sg<n>`, numbered from 9700), which one of the
function's scalars then reads (as rebind_constructs.read_as does).
"""

from __future__ import annotations

import contextlib

SPECIALIZE_PROGRAM_RATE = 0.3      # programs with generic helpers (their own stream)
SPECIALIZE_STATEMENT_RATE = 0.3    # a call before a statement of such a program
# the kinds of the numbers passed (the generator's scalar kinds)
SCALAR_ARGUMENT_KINDS = ("bool", "i64", "f64", "f32", "i32", "u8", "i16", "u64")

# name -> (source with {name}, arguments: "scalar"/"array" per parameter)
GENERIC_HELPERS = {
    "scale": ("def {name}(x, k):\n    return x * k + x\n", ("any", "scalar")),
    "distance": ("def {name}(a, b):\n    if a > b:\n        return a - b\n    return b - a\n",
                 ("scalar", "scalar")),
    "relu": ("def {name}(x):\n    return np.maximum(x, 0)\n", ("array",)),
    "steps": ("def {name}(x, limit):\n    count = 0\n    while x > limit and count < 5:\n"
              "        x = x - 1\n        count += 1\n    return x + count\n",
              ("scalar", "scalar")),
    # a dtype as a value: a default, passed, compared
    "cast": ("def {name}(x, dtype=np.float64):\n    if dtype == np.float32:\n"
             "        return x.astype(dtype) * 2\n    return x.astype(dtype)\n",
             ("array", "dtype")),
    # functions as values (frontend/function_arguments.py): the helper is
    # copied per function passed; `{name}_sq` is a module function to pass
    "apply": ("def {name}_sq(v):\n    return v * v + 1\n\n\n"
              "def {name}(f, x):\n    return f(x) + f(x * 2)\n", ("function1", "number")),
    "combine": ("def {name}_sq(v):\n    return v * v + 1\n\n\n"
                "def {name}(f, a, b, g={name}_sq):\n    return f(a, b) - g(f(b, a))\n",
                ("function2", "number", "number", "default")),
}
# the functions passed (`{helper}`: the template's name; `{local}`: a
# scalar of the caller the lambda reads)
FUNCTION_ARGUMENTS = {
    "function1": ("abs", "np.abs", "{helper}_sq", "lambda v: v * 2 + 1",
                  "lambda v: v - {local}", "np.floor"),
    "function2": ("max", "min", "np.maximum", "lambda a, b: a * 2 - b",
                  "lambda a, b: a - {local} * b"),
    # a parameter with a function default: left out, or another passed
    "default": ("", "", "abs", "{helper}_sq", "lambda v: v + 1"),
}
# what the numbers passed to a function's helper are
FUNCTION_NUMBER_KINDS = ("i64", "f64", "f32", "i32")
# what a "dtype" argument is written as (left out: the default)
DTYPE_ARGUMENTS = ("", "np.float32", "np.float64", "dtype=np.float32", "dtype=float",
                   "{array}.dtype", "float")


def generic_helpers(rng, index) -> list:
    """(name, template key) of the generic helpers of program `index`."""
    keys = rng.sample(sorted(GENERIC_HELPERS), rng.choice([1, 2]))
    return [(f"g{index}_{key}", key) for key in keys]


def helper_source(name, key) -> str:
    return GENERIC_HELPERS[key][0].format(name=name)


class SpecializeConstructs:
    """Mixed into FunctionGenerator. `self.sprng` is None in a program
    without generic helpers."""

    def init_specialize(self, sprng=None, helpers=()):
        self.sprng = sprng
        self.generic = list(helpers)
        self.in_specialize_stream = False
        self.sgcounter = 0

    @contextlib.contextmanager
    def specialize_stream(self):
        saved = (self.rng, self.statements, self.in_specialize_stream)
        self.rng, self.in_specialize_stream = self.sprng, True
        try:
            yield
        finally:
            self.rng, self.statements, self.in_specialize_stream = saved

    def specialize_hook(self, depth):
        if self.sprng is None or not self.generic or any(
                getattr(self, flag, False) for flag in self.SIDE_STREAMS):
            return
        if self.sprng.random() >= SPECIALIZE_STATEMENT_RATE:
            return
        with self.specialize_stream():
            self.s_generic_call(depth)

    def s_generic_call(self, depth):
        targets = [(n, k) for n, k in self.scope.scalars.items() if k in ("i64", "f64", "bool")]
        if not targets:
            return
        name, key = self.rng.choice(self.generic)
        arguments = []
        array_call = False
        for role in GENERIC_HELPERS[key][1]:
            if role in FUNCTION_ARGUMENTS:
                locals_ = [n for n, k in self.scope.scalars.items() if k in ("i64", "f64")]
                written = self.rng.choice([f for f in FUNCTION_ARGUMENTS[role]
                                           if "{local}" not in f or locals_])
                written = written.format(helper=name, local=self.rng.choice(locals_ or [""]))
                if written:
                    arguments.append(written)
                continue
            if role == "number":
                arguments.append(self.expr(self.rng.choice(FUNCTION_NUMBER_KINDS), 2))
                continue
            if role == "dtype":
                written = self.rng.choice(DTYPE_ARGUMENTS)
                float_arrays = [n for n, spec in self.scope.arrays.items()
                                if spec[0] in ("f32", "f64")]
                if "{array}" in written and not float_arrays:
                    written = ""
                if written:
                    arguments.append(written.format(array=self.rng.choice(float_arrays or
                                                                          [""])))
                continue
            if role == "array" or role == "any" and self.rng.random() < 0.5:
                names = [n for n, spec in self.scope.arrays.items() if spec[0] != "bool" or
                         key != "scale"] if role != "scalar" else []
                if not names:
                    return
                arguments.append(self.rng.choice(names))
                array_call = True
            else:
                kinds = [k for k in SCALAR_ARGUMENT_KINDS if k != "bool" or key != "steps"]
                arguments.append(self.expr(self.rng.choice(kinds), 2))   # (steps: x - 1
                # of a bool is an int, which a loop's back edge cannot join)
        call = f"{name}({', '.join(arguments)})"
        value = f"float(np.max({call}))" if array_call else f"float({call})"
        self.sgcounter += 1
        result = f"sg{9700 + self.sgcounter}"
        self.emit(depth, f"{result} = {value}")
        name, target = self.rng.choice(targets)
        self.emit(depth, f"{name} = {self.read_as(result, 'f64', name, target)}")
