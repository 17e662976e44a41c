"""Exported classes with str fields (issue 31): set by `__init__`, by
compiled methods (new strings made by compiled code), by Python; read by
both; dataclasses' generated methods over them (test_class_strings.py runs
each against CPython)."""

from dataclasses import dataclass

import kiln


@kiln.export
class Person:
    name: str
    age: int

    def __init__(self, name: str, age: int):
        self.name = name
        self.age = age

    def greeting(self) -> str:
        return f"{self.name} ({self.age})"

    def rename(self, suffix: str) -> None:
        self.name = self.name + suffix

    def initials(self) -> str:
        parts = self.name.split()
        out = ""
        for p in parts:
            out += p[0].upper()
        return out


@kiln.export
@dataclass(order=True, frozen=True)
class Strength:
    rank: int
    name: str = "weak"


@kiln.export
@dataclass
class Tag:
    label: str
    count: int = 0


@kiln.export
class Lazy:
    """A str field assigned only by a method: unset until then."""
    title: str
    n: int

    def __init__(self, n: int):
        self.n = n

    def set_title(self) -> None:
        self.title = "t" * self.n


@kiln.export
def make_person(first: str, n: int) -> Person:
    p = Person(first, n)
    p.rename(f"-{n}")
    return p


@kiln.export
def rename_then_fail(p: Person, n: int) -> int:
    """A new string stored into the caller's instance, then a raise
    (IndexError when n > 0): the instance keeps its new name."""
    p.name = f"{p.name}+{n}"
    xs = [1]
    return xs[n]


@kiln.export
def set_name_then_fail(p: Person, n: int) -> int:
    p.name = f"name{n}"
    xs = [1]
    return xs[n]


@kiln.export
def names(people: list[Person]) -> str:
    return ", ".join([p.name for p in people])


@kiln.export
def strongest(a: Strength, b: Strength) -> str:
    if a < b:
        return b.name
    if a == b:
        return "tie:" + a.name
    return a.name


@kiln.export
def count_tags(words: list[str]) -> list[Tag]:
    tags: list[Tag] = []
    for w in words:
        found = False
        for t in tags:
            if t.label == w:
                t.count += 1
                found = True
        if not found:
            tags.append(Tag(w, 1))
    return tags


@kiln.export
def read_title(o: Lazy) -> str:
    return o.title


@kiln.export
def swap_names(a: Person, b: Person) -> None:
    name = a.name
    a.name = b.name
    b.name = name
