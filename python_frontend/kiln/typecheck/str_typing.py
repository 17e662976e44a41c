"""Type inference of Python's str (`kt.string`, held natively as a
`kiln_str`: code points, immutable, reference counted): literals and
f-strings, `len`, indexing and slicing by code point, iteration (a loop's
hidden iterable, desugar.py), `+`, `*`, `+=`, `*=`, the comparisons, `in`,
truthiness, `ord`, `chr`, `str(x)`, `int(s)`, `float(s)`, `min`/`max` of
strings, the methods of STR_METHODS, and the refusals (CPython's
TypeErrors at compile time, and what is not supported yet). Lowered by
mlir/str_lowering.py, one function there per function here. A mixin of
type_inference.FunctionTyping.

A str is one type (no item type to settle): a variable that holds a str on
one path holds one on every path."""

from __future__ import annotations

import ast

from .. import typesystem as kt
from ..frontend.subset import SUPPORTED_BINOPS
from .typed_values import TypedValue
from ..typing_rules import display
from ..errors import with_article
from .typed_tree import is_scalar_type, is_str

# The str methods Kiln compiles: positional arguments each takes (a tuple
# of the counts it accepts).
STR_METHODS = {
    "find": (1, 2, 3), "rfind": (1, 2, 3), "count": (1, 2, 3), "index": (1, 2, 3),
    "rindex": (1, 2, 3), "startswith": (1,), "endswith": (1,), "strip": (0, 1),
    "lstrip": (0, 1), "rstrip": (0, 1), "replace": (2, 3), "lower": (0,), "upper": (0,),
    "isdigit": (0,), "isalpha": (0,), "isalnum": (0,), "isspace": (0,), "isdecimal": (0,),
    "isnumeric": (0,), "islower": (0,), "isupper": (0,), "split": (0, 1, 2), "join": (1,),
}
# The methods that search: s.find(sub[, start[, end]]), ...
SEARCHES = ("find", "rfind", "count", "index", "rindex")
STRIPS = ("strip", "lstrip", "rstrip")
# The character classes of s.isdigit(), ... (kiln.str.is's StrProperty).
PROPERTIES = ("isdigit", "isalpha", "isalnum", "isspace", "isdecimal", "isnumeric", "islower",
              "isupper")
# The methods whose result is a new str (a str expression, before typing).
MAKING_METHODS = ("strip", "lstrip", "rstrip", "replace", "lower", "upper", "join")
# What to write instead of a str method Kiln does not compile yet.
METHOD_HINTS = {
    "format": "use an f-string (`f\"{x} and {y}\"`)",
}
# The builtins that return a str.
MAKING_BUILTINS = ("str", "chr")


def first_surrogate(text: str):
    """The first lone surrogate code point of `text` (which UTF-8, and so
    a Kiln string literal, cannot hold), or None."""
    return next((c for c in text if 0xD800 <= ord(c) <= 0xDFFF), None)


def type_name(type_) -> str:
    """A type as CPython's TypeError messages name it: 'int', 'float',
    'list', ..."""
    if is_scalar_type(type_):
        return {"float": "float", "int": "int", "bool": "bool", "complex": "complex"}[type_.kind]
    return {kt.ListType: "list", kt.DictType: "dict", kt.SetType: "set",
            kt.TupleType: "tuple", kt.ArrayType: "numpy.ndarray"}.get(type(type_),
                                                                       display(type_))


class StrTyping:
    # ------------------------------------------------------- recognition
    def is_str_expression(self, node) -> bool:
        """Whether `node` is str-valued, known before it is typed here
        (which subscript or store it is)."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("min", "max") and node.func.id not in self.symbols:
            return any(self.is_str_expression(a) for a in node.args)
        known = self.known_container(node, is_str, MAKING_BUILTINS, str)
        if known is not None:
            return known
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
            return self.is_str_expression(node.left) or self.is_str_expression(node.right)
        if isinstance(node, ast.Subscript):
            if self.is_str_expression(node.value):
                return True
            # An item of a list[str] (a value of a dict[K, str]) variable.
            holds_text = self.known_container(node.value, lambda t: is_str(
                getattr(t, "item", None) if isinstance(t, kt.ListType) else
                getattr(t, "value", None) if isinstance(t, kt.DictType) else None), ())
            return bool(holds_text) and not (isinstance(node.slice, ast.Slice) and
                                             not self.is_str_expression(node.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr in MAKING_METHODS and self.is_str_expression(node.func.value)
        if isinstance(node, ast.IfExp):
            return self.is_str_expression(node.body) or self.is_str_expression(node.orelse)
        if isinstance(node, ast.Attribute):
            return is_str(self.known_field_type(node))      # a str field of an instance
        return False

    def str_operand(self, value: TypedValue, node, what) -> None:
        """`value` must be a str where `what` takes one (CPython's TypeError
        otherwise, at compile time here)."""
        self.absorb(value)
        if not is_str(value.type):
            self.fail(node, f"{what} takes a str here, not {type_name(value.type)} (CPython "
                            "raises TypeError)")

    def str_index(self, value: TypedValue, node, what="string indices") -> None:
        """An index or a bound: an int (or a bool)."""
        self.absorb(value)
        if not is_scalar_type(value.type) or not (value.type.is_int or value.type.is_bool) \
                or value.type == kt.u64:
            self.fail(node, f"{what} must be integers, not {type_name(value.type)}")
        self.convert(value, kt.i64, node)

    # ------------------------------------------------------ expressions
    def str_literal(self, node) -> TypedValue:
        """A string literal: any text but a lone surrogate."""
        surrogate = first_surrogate(node.value)
        if surrogate is not None:
            self.fail(node, f"a string literal with the lone surrogate U+{ord(surrogate):04X} "
                            "is not supported (Kiln's strings hold Unicode text, which has no "
                            "lone surrogates)")
        return TypedValue(kt.string)

    def expr_JoinedStr(self, node):
        """`f"text {x} more"`: each `{x}` a str, an int, a float or a bool,
        shown as str() shows it (the subset check refused format specs and
        conversions)."""
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                self.shown_in_text(self.expression(part.value), part.value, "f-string")
            elif isinstance(part, ast.Constant) and first_surrogate(part.value) is not None:
                self.str_literal(part)
        self.raises = True          # the text is built: MemoryError
        return TypedValue(kt.string)

    def shown_in_text(self, value: TypedValue, node, where) -> None:
        """A value str() shows: a str, a bool, an int (every int type but
        kiln.u64, as int64) or a float (Python's, shortest repr)."""
        self.absorb(value)
        type_ = value.type
        if isinstance(type_, (kt.ClassType, kt.NoneType)):
            self.fstring_instance(value, node)          # class_typing.py
            return
        if is_str(type_) or (is_scalar_type(type_) and type_.is_bool):
            return
        if is_scalar_type(type_) and type_.is_int and type_ != kt.u64:
            self.convert(value, kt.i64, node)
            return
        if type_ == kt.f64:
            self.convert(value, kt.f64, node)
            return
        why = "numpy's float32 repr has other digits; convert it: float(x)" \
            if type_ == kt.f32 else "a kiln.u64 may not fit an int64; convert it: int(x)" \
            if type_ == kt.u64 else "str(), int, float and bool values are shown"
        self.fail(node, f"{display(type_)} in {where} is not supported yet ({why})")

    def str_binary(self, node, left: TypedValue, right: TypedValue) -> TypedValue:
        """`a + b` of two strs, `s * n` and `n * s` (empty for n <= 0)."""
        self.absorb(left, right)
        symbol = SUPPORTED_BINOPS.get(type(node.op), "@")
        names = (type_name(left.type), type_name(right.type))
        if isinstance(node.op, ast.Add):
            if not (is_str(left.type) and is_str(right.type)):
                other = names[1] if is_str(left.type) else names[0]
                self.fail(node, f"`+` of a str and {'an' if other[0] in 'aeiou' else 'a'} "
                                f"{other} is not supported (CPython raises TypeError); "
                                "convert it with str(x), or use an f-string")
            self.raises = True      # MemoryError
            return TypedValue(kt.string)
        if isinstance(node.op, ast.Mult):
            text, count, count_node = (left, right, node.right) if is_str(left.type) \
                else (right, left, node.left)
            if is_str(count.type) or not is_scalar_type(count.type) or not (
                    count.type.is_int or count.type.is_bool) or count.type == kt.u64:
                self.fail(node, "can't multiply sequence by non-int of type "
                                f"'{type_name(count.type)}': a str is repeated by an int")
            self.convert(count, kt.i64, count_node)
            self.raises = True      # MemoryError
            return TypedValue(kt.string)
        if isinstance(node.op, ast.Mod) and is_str(left.type):
            self.fail(node, "`%` formatting of a str is not supported yet; use an f-string "
                            "(`f\"{x} and {y}\"`)")
        self.fail(node, f"unsupported operand type(s) for {symbol}: '{names[0]}' and "
                        f"'{names[1]}' (a str takes + and *)")

    def augmented_str(self, stmt, current: TypedValue) -> None:
        """`s += t`, `s *= n`: a new str bound to s (strings never change)."""
        value = self.expression(stmt.value)
        operation = ast.BinOp(left=stmt.target, op=stmt.op, right=stmt.value)
        ast.copy_location(operation, stmt)
        result = self.str_binary(operation, current, value)
        self.values[stmt] = result
        self.assign(stmt.target, result, stmt)

    def str_unary(self, node, operand: TypedValue) -> TypedValue:
        if isinstance(node.op, ast.Not):
            return TypedValue(kt.boolean)
        symbol = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
        self.fail(node, f"bad operand type for unary {symbol}: 'str'")

    def str_comparison(self, op, left: TypedValue, right: TypedValue, node) -> TypedValue:
        """`a == b`, `a < b`, ... of two strs (code point by code point)."""
        self.absorb(left, right)
        if is_str(left.type) and is_str(right.type):
            return TypedValue(kt.boolean)
        symbol = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                  ast.GtE: ">="}.get(type(op), "?")
        names = (type_name(left.type), type_name(right.type))
        if isinstance(op, (ast.Eq, ast.NotEq)):
            self.fail(node, f"`{symbol}` of {with_article(names[0])} and "
                            f"{with_article(names[1])} is always "
                            f"{isinstance(op, ast.NotEq)} in CPython; Kiln refuses comparing a "
                            "str with another type (convert one of them)")
        self.fail(node, f"'{symbol}' not supported between instances of '{names[0]}' and "
                        f"'{names[1]}' (CPython raises TypeError)")

    def str_membership(self, node, needle: TypedValue, haystack: TypedValue) -> TypedValue:
        """`part in s`, `part not in s`."""
        self.absorb(needle, haystack)
        if not is_str(needle.type):
            self.fail(node, "'in <string>' requires string as left operand, not "
                            f"{type_name(needle.type)}")
        return TypedValue(kt.boolean)

    def str_subscript(self, node, container: TypedValue) -> TypedValue:
        """`s[i]` (IndexError outside [-len, len)), `s[a:b:c]` (a new str)."""
        self.absorb(container)
        self.raises = True          # IndexError, MemoryError
        if isinstance(node.slice, ast.Slice):
            for bound in (node.slice.lower, node.slice.upper, node.slice.step):
                if bound is not None:
                    self.str_index(self.expression(bound), bound, "slice indices")
            return TypedValue(kt.string)
        if isinstance(node.slice, ast.Tuple):
            self.fail(node.slice, "string indices must be integers, not tuple")
        self.str_index(self.expression(node.slice), node.slice)
        return TypedValue(kt.string)

    def refuse_str_store(self, target) -> None:
        """`s[i] = x`, `s[i] += x`, `del s[i]`: CPython's TypeError."""
        self.fail(target, "'str' object does not support item assignment (a str never "
                          "changes; build a new one: `s[:i] + x + s[i + 1:]`)")

    # ------------------------------------------------------------ calls
    def str_method(self, func: ast.Attribute, container: TypedValue, node) -> TypedValue:
        """`s.find(sub)`, `s.strip()`, `s.isdigit()`, ..."""
        name = func.attr
        self.absorb(container)
        if name == "split":
            return self.str_split(node)
        if name == "join":
            return self.str_join(node)
        if name not in STR_METHODS:
            hint = METHOD_HINTS.get(name)
            self.fail(node, f"str.{name}() is not supported yet" + (f"; {hint}" if hint else ""))
        if node.keywords:
            self.fail(node, f"str.{name}() takes no keyword arguments here")
        arity = STR_METHODS[name]
        if name in ("startswith", "endswith") and len(node.args) > 1:
            self.fail(node, f"str.{name}() with start and end is not supported yet; slice "
                            f"first (`s[start:end].{name}(part)`)")
        if len(node.args) not in arity:
            counts = " or ".join(map(str, arity))
            self.fail(node, f"str.{name}() takes {counts} argument"
                            f"{'s' if arity != (1,) else ''} here")
        if name in ("startswith", "endswith") and isinstance(node.args[0], ast.Tuple):
            self.fail(node.args[0], f"str.{name}() of a tuple is not supported yet; test each "
                                    f"with `or` (`s.{name}(a) or s.{name}(b)`)")
        for argument in node.args:
            if isinstance(argument, ast.Constant) and argument.value is None:
                self.fail(argument, f"None as an argument of str.{name}() is not supported "
                                    "yet; leave the argument out")
        args = [self.expression(a) for a in node.args]
        self.absorb(*args)
        if name in SEARCHES:
            self.str_operand(args[0], node.args[0], f"str.{name}()")
            for bound, bound_node in zip(args[1:], node.args[1:]):
                self.str_index(bound, bound_node, "slice indices")
            if name in ("index", "rindex"):
                self.raises = True          # ValueError: substring not found
            return TypedValue(kt.i64)
        if name in ("startswith", "endswith"):
            self.str_operand(args[0], node.args[0], f"str.{name}()")
            return TypedValue(kt.boolean)
        if name in PROPERTIES:
            return TypedValue(kt.boolean)
        self.raises = True                  # a new str: MemoryError
        if name in STRIPS:
            if args:
                self.str_operand(args[0], node.args[0], f"str.{name}()")
            return TypedValue(kt.string)
        if name == "replace":
            self.str_operand(args[0], node.args[0], "str.replace()")
            self.str_operand(args[1], node.args[1], "str.replace()")
            if len(args) == 3:
                self.str_index(args[2], node.args[2], "str.replace()'s count")
            return TypedValue(kt.string)
        return TypedValue(kt.string)        # lower, upper

    def str_split(self, node) -> TypedValue:
        """`s.split()`, `s.split(sep)`, `s.split(sep, maxsplit)` (also as
        keywords; `sep` None splits at runs of whitespace): a new list[str]
        (ValueError "empty separator")."""
        arguments = split_arguments(node)
        if isinstance(arguments, str):
            self.fail(node, arguments)
        sep, maxsplit = arguments
        if sep is not None:
            self.str_operand(self.expression(sep), sep, "str.split()'s separator")
        if maxsplit is not None:
            self.str_index(self.expression(maxsplit), maxsplit, "str.split()'s maxsplit")
        self.raises = True                  # a new list: MemoryError; ValueError
        return TypedValue(kt.ListType(kt.string))

    def str_join(self, node) -> TypedValue:
        """`sep.join(xs)` of a list[str] (a generator expression of strs is
        made a list comprehension first: the same strings, joined)."""
        if node.keywords or len(node.args) != 1:
            self.fail(node, "str.join() takes exactly one argument")
        if isinstance(node.args[0], ast.GeneratorExp):
            generator = node.args[0]
            node.args[0] = ast.copy_location(ast.ListComp(elt=generator.elt,
                                                          generators=generator.generators),
                                             generator)
        items = self.expression(node.args[0])
        self.absorb(items)
        if (isinstance(items.type, (kt.DictType, kt.SetType, kt.StrType)) or
                getattr(items.type, "kind", None) in ("keys", "values")) and \
                "list" not in self.symbols:
            # `sep.join(d)`, `sep.join(d.values())`, `sep.join(s)` of a set
            # or a str: the items CPython's join takes from the iterator,
            # made a list first (`list(...)`, a copy in their order).
            argument = node.args[0]
            node.args[0] = ast.copy_location(ast.Call(func=ast.Name(id="list", ctx=ast.Load()),
                                                      args=[argument], keywords=[]), argument)
            items = self.expression(node.args[0])
            self.absorb(items)
        if isinstance(items.type, kt.ListType) and items.type.item is None:
            self.settle_list(node.args[0], items, kt.ListType(kt.string), node)
        elif not (isinstance(items.type, kt.ListType) and is_str(items.type.item)):
            what = f"a list[{display(items.type.item)}]" \
                if isinstance(items.type, kt.ListType) else type_name(items.type)
            self.fail(node, f"str.join() takes a list of str here, not {what}" + (
                " (CPython raises TypeError: sequence item 0: expected str instance; convert "
                "the items: [str(x) for x in xs])" if isinstance(items.type, kt.ListType) else
                " (pass list(...) of it)" if type_name(items.type) in ("dict", "set", "str")
                else ""))
        self.raises = True                  # a new str: MemoryError
        return TypedValue(kt.string)

    def builtin_str(self, args, node):
        """`str()` (""), `str(x)` of a str, int, float or bool."""
        if len(args) > 1:
            self.fail(node, "str() takes one value here (str(bytes, encoding) is not supported)")
        if args:
            self.shown_in_text(args[0], node.args[0], "str()")
        self.raises = True                  # a new str: MemoryError
        return TypedValue(kt.string)

    def builtin_chr(self, args, node):
        """`chr(i)`: ValueError outside range(0x110000)."""
        if len(args) != 1:
            self.fail(node, "chr() takes exactly one argument")
        self.str_index(args[0], node.args[0], "chr()'s argument")
        self.raises = True
        return TypedValue(kt.string)

    def builtin_ord(self, args, node):
        """`ord(c)`: TypeError unless c has one code point."""
        if len(args) != 1:
            self.fail(node, "ord() takes exactly one argument")
        self.absorb(args[0])
        if not is_str(args[0].type):
            self.fail(node, "ord() expected string of length 1, but "
                            f"{type_name(args[0].type)} found")
        self.raises = True
        return TypedValue(kt.i64)

    def str_to_number(self, value: TypedValue, type_, node) -> TypedValue:
        """`int(s)`, `float(s)`: ValueError with CPython's message for text
        that is no number (OverflowError for an int beyond 64 bits)."""
        self.raises = True
        return TypedValue(type_)

    def str_min_max(self, args, node, name) -> TypedValue:
        """`min(a, b, ...)`, `max(...)` of strs: the first of the smallest
        (largest), as CPython keeps it."""
        self.absorb(*args)
        if len(args) < 2:
            self.fail(node, f"{name}() of one str (its characters) is not supported yet; pass "
                            "two or more strs")
        for argument, argument_node in zip(args, node.args):
            if not is_str(argument.type):
                self.fail(node, f"'<' not supported between instances of 'str' and "
                                f"'{type_name(argument.type)}' (CPython raises TypeError)")
        return TypedValue(kt.string)


def split_arguments(node):
    """(sep node or None, maxsplit node or None) of a `s.split(...)` call
    (a None constant separator is None), or the message refusing it."""
    if len(node.args) > 2:
        return "str.split() takes at most 2 arguments"
    given = dict(zip(("sep", "maxsplit"), node.args))
    for keyword in node.keywords:
        if keyword.arg not in ("sep", "maxsplit"):
            return f"str.split() got an unexpected keyword argument '{keyword.arg}'"
        if keyword.arg in given:
            return f"str.split() got multiple values for argument '{keyword.arg}'"
        given[keyword.arg] = keyword.value
    sep = given.get("sep")
    if isinstance(sep, ast.Constant) and sep.value is None:
        sep = None
    return sep, given.get("maxsplit")
