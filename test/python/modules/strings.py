"""Python's str compiled natively (issue 30): test_strings.py runs each
function here compiled and under CPython on the same inputs."""
import kiln


@kiln.export
def identity(s: str) -> str:
    return s


@kiln.export
def length(s: str) -> int:
    return len(s)


@kiln.export
def index_at(s: str, i: int) -> str:
    return s[i]


@kiln.export
def code_at(s: str, i: int) -> int:
    return ord(s[i])


@kiln.export
def ord_of(s: str) -> int:
    return ord(s)


@kiln.export
def chr_of(i: int) -> str:
    return chr(i)


@kiln.export
def sliced(s: str, a: int, b: int, c: int) -> str:
    return s[a:b:c]


@kiln.export
def slice_forms(s: str, a: int, b: int) -> str:
    return s[a:] + "|" + s[:b] + "|" + s[a:b] + "|" + s[::-1] + "|" + s[::2] + "|" + s[:] + \
        "|" + s[b::-2] + "|" + s[:a:-1] + "|" + s[a::3]


@kiln.export
def concat(a: str, b: str) -> str:
    return a + b


@kiln.export
def repeat(s: str, n: int) -> str:
    return s * n


@kiln.export
def repeat_left(s: str, n: int) -> str:
    return n * s


@kiln.export
def augmented(s: str, n: int) -> str:
    t = ""
    for _ in range(n):
        t += s
    t *= 2
    t += "!"
    return t


@kiln.export
def appended_aliases(s: str, n: int) -> str:
    """`+=` grows a string in place only when nothing else holds it: the
    names bound to its earlier values keep them."""
    kept = s
    s += "+"
    earlier = s
    for i in range(n):
        s += chr(65 + i % 26)
        if i == 2:
            earlier = s
    s += s
    s += ""
    wide = "é"
    wide += "😀"
    wide += s
    return kept + "|" + earlier + "|" + s + "|" + wide


@kiln.export
def comparisons(a: str, b: str) -> int:
    return int(a == b) + 2 * int(a != b) + 4 * int(a < b) + 8 * int(a <= b) + \
        16 * int(a > b) + 32 * int(a >= b)


@kiln.export
def chained(a: str, b: str, c: str) -> bool:
    return a < b <= c


@kiln.export
def chained_temporaries(a: str, b: str) -> bool:
    return a + b < b + a <= a * 2 + b


@kiln.export
def contains(part: str, s: str) -> int:
    return int(part in s) + 2 * int(part not in s) + 4 * int(part + "x" in s + "x")


@kiln.export
def truth(s: str) -> int:
    n = 0
    if s:
        n += 1
    if not s:
        n += 2
    while s and n < 10:
        n += 4
    if bool(s) or len(s) > 100:
        n += 100
    return n


@kiln.export
def iterate(s: str) -> int:
    total = 0
    k = 1
    for c in s:
        total += ord(c) * k
        k += 1
    return total


@kiln.export
def enumerate_chars(s: str) -> int:
    total = 0
    for i, c in enumerate(s):
        if c == "a" or c == "é":
            total += i + 1
    return total


@kiln.export
def zip_chars(a: str, b: str) -> int:
    same = 0
    for x, y in zip(a, b):
        if x == y:
            same += 1
    return same


@kiln.export
def reversed_by_loop(s: str) -> str:
    out = ""
    for c in s:
        out = c + out
    return out


@kiln.export
def literal_loop(n: int) -> int:
    total = 0
    for c in "héllo😀":
        total += ord(c) + n
    return total


@kiln.export
def str_of_int(n: int) -> str:
    return str(n)


@kiln.export
def str_of_float(x: float) -> str:
    return str(x)


@kiln.export
def str_of_bool(b: bool) -> str:
    return str(b) + str(not b) + str(True)


@kiln.export
def str_of_str(s: str) -> str:
    return str(s) + str()


@kiln.export
def to_int(s: str) -> int:
    return int(s)


@kiln.export
def to_float(s: str) -> float:
    return float(s)


@kiln.export
def formatted(s: str, n: int, x: float, b: bool) -> str:
    return f"<{s}|{n}|{x}|{b}>{s}{n}{-n}{x * 2}"


@kiln.export
def formatted_plain(n: int) -> str:
    return f"" + f"plain" + f"{n}"


@kiln.export
def searches(s: str, sub: str) -> tuple[int, int, int]:
    return s.find(sub), s.rfind(sub), s.count(sub)


@kiln.export
def bounded_searches(s: str, sub: str, a: int, b: int) -> tuple[int, int, int, int]:
    return s.find(sub, a, b), s.rfind(sub, a), s.count(sub, a, b), s.rfind(sub, a, b)


@kiln.export
def index_of(s: str, sub: str) -> int:
    return s.index(sub)


@kiln.export
def rindex_of(s: str, sub: str, a: int) -> int:
    return s.rindex(sub, a)


@kiln.export
def prefix_suffix(s: str, part: str) -> int:
    return int(s.startswith(part)) + 2 * int(s.endswith(part))


@kiln.export
def strips(s: str) -> str:
    return s.strip() + "|" + s.lstrip() + "|" + s.rstrip()


@kiln.export
def strips_chars(s: str, chars: str) -> str:
    return s.strip(chars) + "|" + s.lstrip(chars) + "|" + s.rstrip(chars)


@kiln.export
def replaced(s: str, old: str, new: str) -> str:
    return s.replace(old, new)


@kiln.export
def replaced_count(s: str, old: str, new: str, n: int) -> str:
    return s.replace(old, new, n)


@kiln.export
def cases(s: str) -> str:
    return s.lower() + "|" + s.upper()


@kiln.export
def properties(s: str) -> int:
    return int(s.isdigit()) + 2 * int(s.isalpha()) + 4 * int(s.isalnum()) + \
        8 * int(s.isspace()) + 16 * int(s.isdecimal()) + 32 * int(s.isnumeric()) + \
        64 * int(s.islower()) + 128 * int(s.isupper())


@kiln.export
def smallest_largest(a: str, b: str) -> str:
    return min(a, b) + "|" + max(a, b) + "|" + min(a, b, "m") + "|" + max(b + b, a)


@kiln.export
def chosen(s: str, flag: bool) -> str:
    return s if flag else "none"


def shout(s: str) -> str:
    return s.upper() + "!"


def first_word(s: str) -> str:
    for i, c in enumerate(s):
        if c == " ":
            return s[:i]
    return s


@kiln.export
def through_helpers(s: str) -> str:
    return shout(first_word(s)) + shout(s[1:])


@kiln.export
def branches(s: str, n: int) -> str:
    if n > 2:
        t = s * 2
    elif n > 0:
        t = s[:1]
    else:
        t = "none"
    u = t
    if n == 1:
        u = u + t
    return u + t


@kiln.export
def while_loop(s: str) -> str:
    t = s
    while len(t) > 1 and t[0] == t[-1]:
        t = t[1:-1]
    return t


@kiln.export
def early_return(s: str, stop: str) -> str:
    kept = ""
    for c in s:
        if c == stop:
            return kept
        kept += c
    return kept + "."


@kiln.export
def temporaries(s: str) -> int:
    return ord((s + "z")[0]) + len(s[1:] + s[:1]) + int(s * 2 == s + s) + \
        int((s + "a").startswith(s)) + len(str(len(s)))


@kiln.export
def words(s: str) -> int:
    count = 0
    inside = False
    for c in s:
        if c.isspace():
            inside = False
        elif not inside:
            inside = True
            count += 1
    return count


def reversed_recursively(s: str) -> str:
    if len(s) <= 1:
        return s
    return reversed_recursively(s[1:]) + s[0]


@kiln.export
def recursive(s: str) -> str:
    return reversed_recursively(s)


@kiln.export
def caesar(s: str, shift: int) -> str:
    out = ""
    for c in s:
        if "a" <= c <= "z":
            out += chr((ord(c) - 97 + shift) % 26 + 97)
        else:
            out += c
    return out


@kiln.export
def digits_value(s: str) -> int:
    total = 0
    for c in s.strip():
        if c.isdigit():
            total = total * 10 + int(c)
    return total


@kiln.export
def no_result(s: str) -> None:
    t = s + s
    if t:
        return
    return


def same_text(s: str) -> str:
    return s


@kiln.export
def aliasing(s: str) -> str:
    t = s
    u = same_text(t)
    for c in s:
        s = s[1:] + c       # the loop goes on over the string it started with
    return s + "|" + t + "|" + u + same_text("lit") + same_text(t + "!")


@kiln.export
def vowels(s: str) -> int:
    return sum(1 for c in s.lower() if c in VOWELS) + len([ord(c) for c in s if c > "m"])


VOWELS = "aeiouéü"


def last_marked(s: str, mark: str = "é😀") -> str:
    return s[-1:] + mark


SEPARATOR = "|"


@kiln.export
def with_defaults(a: str, b: str = ", ", c: str = SEPARATOR, n: int = 2) -> str:
    return a + b + c * n + last_marked(a) + last_marked(b, "!")
