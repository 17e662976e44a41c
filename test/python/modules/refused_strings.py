"""Misuses of str, each a compile error at its file:line:col
(test_strings.py pins the first diagnostic of every function): none
compiles."""
import kiln


@kiln.export
def item_assignment(s: str) -> str:
    s[0] = "x"
    return s


@kiln.export
def percent_format(n: int) -> str:
    return "%d items" % n


@kiln.export
def format_method(n: int) -> str:
    return "{} items".format(n)


@kiln.export
def format_spec(x: float) -> str:
    return f"{x:.2f}"


@kiln.export
def conversion(s: str) -> str:
    return f"{s!r}"


@kiln.export
def not_yet_method(s: str) -> str:
    return s.title()


@kiln.export
def split_words(s: str) -> int:
    return len(s.rsplit())


@kiln.export
def joined(s: str) -> str:
    return s.join([len(s)])


@kiln.export
def list_of_str(xs: list[list[str]]) -> int:
    return len(xs)


@kiln.export
def bytes_literal(n: int) -> int:
    return len(b"abc") + n


@kiln.export
def bytes_parameter(b: bytes) -> int:
    return len(b)


@kiln.export
def compared_with_number(s: str, n: int) -> bool:
    return s < n


@kiln.export
def equal_to_number(s: str) -> bool:
    return s == 1


@kiln.export
def added_to_number(s: str, n: int) -> str:
    return s + n


@kiln.export
def in_prange(s: str, n: int) -> int:
    total = 0
    for i in kiln.prange(n):
        total += len(s)
    return total


@kiln.export
def tuple_argument(s: str) -> bool:
    return s.startswith(("a", "b"))


@kiln.export
def none_argument(s: str) -> str:
    return s.strip(None)


@kiln.export
def lone_surrogate(n: int) -> int:
    return len("\ud800") + n


@kiln.export
def number_in_text(s: str, n: int) -> bool:
    return n in s


@kiln.export
def multiplied_by_float(s: str) -> str:
    return s * 2.5


@kiln.export
def in_tuple(s: str) -> tuple[int, str]:
    return len(s), s


@kiln.export
def or_value(s: str) -> str:
    t = s or "default"
    return t


@kiln.export
def two_types(s: str, n: int) -> int:
    x = s
    if n > 0:
        x = n
    return len(x)


@kiln.export
def negated(s: str) -> str:
    return -s


@kiln.export
def deleted(s: str) -> str:
    del s[0]
    return s


@kiln.export
def float32_shown(x: kiln.f32) -> str:
    return str(x)


@kiln.export
def int_with_base(s: str) -> int:
    return int(s, 16)


@kiln.export
def ord_of_number(n: int) -> int:
    return ord(n)


@kiln.export
def math_of_text(s: str) -> float:
    import math
    return math.sqrt(s)


@kiln.export
def startswith_bounds(s: str) -> bool:
    return s.startswith("a", 1)


@kiln.export
def lambda_of_text(s: str) -> str:
    shout = lambda t: t.upper()
    return shout(s)
