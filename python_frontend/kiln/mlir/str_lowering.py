"""Lowering of Python's str (typed by typecheck/str_typing.py) to the kiln
dialect's string ops (`kiln.str.*`; their semantics are in
lib/Dialect/KilnOps.td, section "Strings"). A mixin of
code_generator.FunctionCodeGenerator.

A str is reference counted like a list (ownership.py's protocol: an op
that makes a string returns an owned reference, a name's string is read
borrowed, a temporary is released by the operation that used it last),
but it never changes, so nothing is written back or journaled for the
caller. A literal is a constant the runtime never frees: it is borrowed
wherever it is used.
"""

from __future__ import annotations

import ast

from .. import typesystem as kt
from . import ir_builder as ir
from .values import Value
from ..typecheck.typed_tree import is_str
from ..typecheck.str_typing import PROPERTIES, SEARCHES, STRIPS, split_arguments

# The str ops that can raise (IndexError, ValueError, TypeError, and
# MemoryError for every op that makes a string): the function then gets an
# error record, as for kiln.check. The others (len, equal, compare, the
# searches, the tests, is, constant) cannot.
RAISING_STR_OPS = frozenset(["char_at", "code_at", "ord", "chr", "concat", "append", "repeat",
                             "slice",
                             "strip", "replace", "lower", "upper", "from_int", "from_float",
                             "to_int", "to_float", "split", "join"])
# kiln.str.is's `property`: the dialect's StrProperty, numbered as
# runtime/kiln_abi.h's KILN_STR_PROPERTIES.
STR_PROPERTY_NUMBERS = {name: number for number, name in enumerate(PROPERTIES)}


class StrLowering:
    # -------------------------------------------------------- str ops
    def str_op(self, mnemonic, operands, node, result_type=None, attributes=None):
        """One `kiln.str.<mnemonic>` op; its result as a Value of
        `result_type` (a Kiln type) when it has one."""
        return self.container_op(f"kiln.str.{mnemonic}", mnemonic in RAISING_STR_OPS,
                                 operands, node, result_type, attributes)

    def new_str(self, mnemonic, operands, node, attributes=None) -> Value:
        """An op that makes a string: its one reference, owned here."""
        made = self.str_op(mnemonic, operands, node, kt.string, attributes)
        made.owned = True
        return made

    def str_constant(self, text: str, node) -> Value:
        """A literal: borrowed (never freed, so no release is owed)."""
        return self.str_op("constant", [], node, kt.string, {"value": ir.string_attr(text)})

    def str_length(self, value: Value, node) -> Value:
        length = self.str_op("len", [value], node, kt.i64)
        length.nonneg = True
        return length

    def is_str_valued(self, node) -> bool:
        typed = self.typed.values.get(node)
        return typed is not None and is_str(typed.type)

    def bounded(self, mnemonic, operands, bounds, node, result_type, trailing=()):
        """An op with optional slice-like bounds (kiln.str.slice, find,
        ...): the bounds given (None: missing) as optional operands, counted
        in operandSegmentSizes."""
        present = [b for b in bounds if b is not None]
        segments = [1] * len(operands) + [int(b is not None) for b in bounds] + \
            [1] * len(trailing)
        return self.str_op(mnemonic, list(operands) + present + list(trailing), node,
                           result_type,
                           {"operandSegmentSizes": ir.dense_array_attr(segments, ir.i32)})

    def choose_str(self, condition: Value, first: Value, second: Value, node) -> Value:
        """`first if condition else second` of two strs already made (an
        scf.if yielding one of them)."""
        then_region, _ = self.region(lambda: self.yield_values([first], node))
        else_region, _ = self.region(lambda: self.yield_values([second], node))
        [chosen] = self.scf_if(condition, [kt.string], then_region, else_region, node)
        return chosen

    # ------------------------------------------------------ expressions
    def expr_JoinedStr(self, node):
        """`f"a {x} b"`: the parts made left to right, each value shown as
        str() shows it, joined by concatenation."""
        parts = []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                parts.append(self.str_of(self.expression(part.value), part.value))
            elif part.value:
                parts.append(self.str_constant(part.value, node))
        if not parts:
            return self.str_constant("", node)
        result = parts[0]
        for part in parts[1:]:
            joined = self.new_str("concat", [result, part], node)
            self.done_with(node, result, part)
            result = joined
        return result

    def str_of(self, value: Value, node) -> Value:
        """str(value) of a str (itself), a bool ("True"/"False"), an int or
        a float (CPython's repr: the shortest digits that read back)."""
        if is_str(value.type):
            return value
        if isinstance(value.type, (kt.ClassType, kt.NoneType)):
            return self.str_of_instance(value, node)    # class_lowering.py
        if value.type.is_bool:
            if value.constant is not None:
                return self.str_constant(str(bool(value.constant)), node)
            return self.choose_str(value, self.str_constant("True", node),
                                   self.str_constant("False", node), node)
        if value.type.is_int:
            return self.new_str("from_int", [self.convert(value, kt.i64, node)], node)
        return self.new_str("from_float", [self.convert(value, kt.f64, node)], node)

    def str_subscript(self, node) -> Value:
        """`s[i]` (IndexError "string index out of range") and `s[a:b:c]`."""
        container = self.expression(node.value)
        if isinstance(node.slice, ast.Slice):
            part = node.slice
            start, stop, step = [None if bound is None else
                                 self.convert(self.expression(bound), kt.i64, bound)
                                 for bound in (part.lower, part.upper, part.step)]
            if step is None:
                step = self.constant(1, kt.i64, node)
            result = self.bounded("slice", [container], [start, stop], node, kt.string,
                                  trailing=[step])
            result.owned = True
        else:
            index = self.convert(self.expression(node.slice), kt.i64, node.slice)
            result = self.new_str("char_at", [container, index], node)
        self.done_with(node, container)
        return result

    def str_binary(self, node, left: Value, right: Value) -> Value:
        """`a + b`, `s * n`, `n * s`: new strings."""
        if isinstance(node.op, ast.Add):
            result = self.new_str("concat", [left, right], node)
        else:
            text, count = (left, right) if is_str(left.type) else (right, left)
            result = self.new_str("repeat", [text, self.convert(count, kt.i64, node)], node)
        self.done_with(node, left, right)
        return result

    def augmented_str(self, stmt) -> None:
        """`s += t`, `s *= n`: a new str bound to s (its old one released by
        the binding). `name += t` hands the name's reference to
        kiln.str.append, which grows the string in place when that was its
        only reference (a loop of `s += c` then costs no copy of `s` per
        step), so the binding releases nothing."""
        if isinstance(stmt.op, ast.Add) and isinstance(stmt.target, ast.Name):
            current = self.load_name(stmt.target)
            value = self.expression(stmt.value)
            longer = self.new_str("append", [current, value], stmt)
            self.done_with(stmt, value)
            self.symbols[stmt.target.id] = Value(longer.ir, kt.string)
            self.maybe_undefined.discard(stmt.target.id)
            return
        current = self.load_name(stmt.target)
        value = self.expression(stmt.value)
        operation = ast.BinOp(left=stmt.target, op=stmt.op, right=stmt.value)
        ast.copy_location(operation, stmt)
        self.assign(stmt.target, self.str_binary(operation, current, value), stmt)

    def str_compare(self, op, left: Value, right: Value, node) -> Value:
        """`a == b`, `a < b`, ...: neither operand is released here (a
        chained comparison uses its middle operand twice)."""
        if isinstance(op, (ast.Eq, ast.NotEq)):
            same = self.str_op("equal", [left, right], node, kt.boolean)
            return same if isinstance(op, ast.Eq) else self.negate(same, node)
        order = self.str_op("compare", [left, right], node, kt.i32)
        predicate = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge"}[type(op)]
        return self.cmpi(predicate, order, self.constant(0, kt.i32, node), node)

    def str_membership(self, node, needle: Value, haystack: Value) -> Value:
        """`part in s`, `part not in s`."""
        found = self.str_op("contains", [haystack, needle], node, kt.boolean)
        self.done_with(node, needle, haystack)
        return found if isinstance(node.ops[0], ast.In) else self.negate(found, node)

    def str_truthy(self, value: Value, node) -> Value:
        length = self.str_length(value, node)
        self.done_with(node, value)
        return self.cmpi("ne", length, self.constant(0, kt.i64, node), node)

    # ------------------------------------------------------------ calls
    def str_split(self, func: ast.Attribute, node) -> Value:
        """`s.split([sep[, maxsplit]])`: kiln.str.split, a new list[str]
        (its one reference owned here); the arguments evaluated in the
        order written."""
        container = self.expression(func.value)
        sep_node, maxsplit_node = split_arguments(node)
        values = {}
        for argument in list(node.args) + [k.value for k in node.keywords]:
            if argument is sep_node:
                values["sep"] = self.expression(argument)
            elif argument is maxsplit_node:
                values["maxsplit"] = self.convert(self.expression(argument), kt.i64, argument)
        maxsplit = values.get("maxsplit") or self.constant(-1, kt.i64, node)
        operands = [container, maxsplit] + ([values["sep"]] if "sep" in values else [])
        result = self.str_op("split", operands, node, kt.ListType(kt.string))
        result.owned = True
        self.done_with(node, values.get("sep"), container)
        return result

    def str_join(self, func: ast.Attribute, node) -> Value:
        """`sep.join(xs)` of a list[str]: kiln.str.join."""
        separator = self.expression(func.value)
        items = self.expression(node.args[0])
        result = self.new_str("join", [separator, items], node)
        self.done_with(node, items, separator)
        return result

    def str_method(self, func: ast.Attribute, node) -> Value:
        name = func.attr
        if name == "split":
            return self.str_split(func, node)
        if name == "join":
            return self.str_join(func, node)
        container = self.expression(func.value)
        args = [self.expression(a) for a in node.args]
        if name in SEARCHES:
            bounds = [self.convert(b, kt.i64, n) for b, n in zip(args[1:], node.args[1:])]
            bounds += [None] * (2 - len(bounds))
            mnemonic = {"index": "find", "rindex": "rfind"}.get(name, name)
            result = self.bounded(mnemonic, [container, args[0]], bounds, node, kt.i64)
            if name in ("index", "rindex"):
                found = self.cmpi("sge", result, self.constant(0, kt.i64, node), node)
                self.check(found, "ValueError", "substring not found", [], node)
            self.done_with(node, args[0])
        elif name in ("startswith", "endswith"):
            result = self.str_op(name, [container, args[0]], node, kt.boolean)
            self.done_with(node, args[0])
        elif name in PROPERTIES:
            result = self.str_op("is", [container], node, kt.boolean, {
                "property": ir.integer_attr(STR_PROPERTY_NUMBERS[name], ir.i32)})
        elif name in STRIPS:
            sides = {"strip": {"left": ir.UNIT, "right": ir.UNIT}, "lstrip": {"left": ir.UNIT},
                     "rstrip": {"right": ir.UNIT}}[name]
            result = self.new_str("strip", [container] + args, node, sides)
            self.done_with(node, *args)
        elif name == "replace":
            count = self.convert(args[2], kt.i64, node.args[2]) if len(args) == 3 else \
                self.constant(-1, kt.i64, node)
            result = self.new_str("replace", [container, args[0], args[1], count], node)
            self.done_with(node, args[0], args[1])
        else:                                               # lower, upper
            result = self.new_str(name, [container], node)
        self.done_with(node, container)
        return result

    def builtin_str(self, args, node) -> Value:
        if not args:
            return self.str_constant("", node)
        return self.str_of(args[0], node)

    def builtin_chr(self, args, node) -> Value:
        return self.new_str("chr", [self.convert(args[0], kt.i64, node)], node)

    def ord_call(self, node) -> Value:
        """`ord(c)`; `ord(s[i])` reads the code point without making s[i]."""
        argument = node.args[0]
        if isinstance(argument, ast.Subscript) and not isinstance(argument.slice, ast.Slice) \
                and self.is_str_valued(argument.value):
            container = self.expression(argument.value)
            index = self.convert(self.expression(argument.slice), kt.i64, argument.slice)
            code = self.str_op("code_at", [container, index], node, kt.i64)
            self.done_with(node, container)
            return code
        text = self.expression(argument)
        code = self.str_op("ord", [text], node, kt.i64)
        self.done_with(node, text)
        return code

    def str_to_number(self, text: Value, node) -> Value:
        """`int(s)`, `float(s)` (inference's type says which)."""
        mnemonic = "to_int" if self.typed_value(node).type == kt.i64 else "to_float"
        number = self.str_op(mnemonic, [text], node, self.typed_value(node).type)
        self.done_with(node, text)
        return number

    def str_min_max(self, args, node, name) -> Value:
        """min/max of strs: the first of the smallest (largest). Every
        argument is owned while they are compared; the one kept stays
        owned, the others are released."""
        best = self.own(args[0], node)
        for candidate in args[1:]:
            candidate = self.own(candidate, node)
            order = self.str_op("compare", [candidate, best], node, kt.i32)
            better = self.cmpi("slt" if name == "min" else "sgt", order,
                               self.constant(0, kt.i32, node), node)
            then_region, _ = self.region(lambda: self.yield_values([candidate, best], node))
            else_region, _ = self.region(lambda: self.yield_values([best, candidate], node))
            kept, dropped = self.scf_if(better, [kt.string, kt.string], then_region,
                                        else_region, node)
            self.release(dropped, node)
            best = Value(kept.ir, kt.string, owned=True)
        return best
