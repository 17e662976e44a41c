"""Misuses of sets, each a compile error at its file:line:col (test_sets.py
pins the first diagnostic of every function): none compiles."""
import kiln


@kiln.export
def str_elements(n: int) -> int:
    s = {"a", "b"}
    return len(s)


@kiln.export
def str_annotation(s: set[str]) -> int:
    return len(s)


@kiln.export
def list_of_sets(n: int) -> int:
    xs = [{n}]
    return len(xs)


@kiln.export
def dict_of_sets(n: int) -> int:
    d = {1: {n}}
    return len(d)


@kiln.export
def unsettled(n: int) -> int:
    s = set()
    return len(s)


@kiln.export
def in_prange(n: int) -> int:
    total = 0
    for i in kiln.prange(n):
        s = {i}
        total += len(s)
    return total


@kiln.export
def float_into_int_set(n: int) -> int:
    s: set[int] = {n}
    s.add(1.5)
    return len(s)


@kiln.export
def float_lookup(n: int) -> bool:
    s = {n}
    return 1.5 in s


@kiln.export
def bare_set(s: set) -> int:
    return len(s)


@kiln.export
def set_plus(n: int) -> int:
    return len({n} + {1})


@kiln.export
def set_or_list(n: int) -> int:
    return len({n} | [2])


@kiln.export
def or_equals_list(n: int) -> int:
    s = {n}
    s |= [1]
    return len(s)


@kiln.export
def indexed(n: int) -> int:
    s = {n, 2}
    return s[0]


@kiln.export
def item_assignment(n: int) -> int:
    s = {n}
    s[0] = 1
    return len(s)


@kiln.export
def shared_not_converted(n: int) -> float:
    s = {n}
    t: set[float] = s
    return max(t)


@kiln.export
def mixed_bound(n: int) -> int:
    a = {n}
    b = {2.5}
    return len(a | b)


@kiln.export
def compared_with_list(n: int) -> bool:
    return {n} == [n]


@kiln.export
def union_of_floats(n: int) -> int:
    s = {n}
    return len(s.union([1.5]))


@kiln.export
def frozen(n: int) -> int:
    return len(frozenset([n]))


@kiln.export
def list_method(n: int) -> int:
    s = {n}
    s.append(1)
    return len(s)


@kiln.export
def pop_index(n: int) -> int:
    s = {n}
    return s.pop(0)


@kiln.export
def in_tuple(n: int) -> tuple[int, int]:
    s = {n}
    return s, n


@kiln.export
def chosen(n: int) -> int:
    s = {n}
    t = {1}
    u = s if n else t
    return len(u)


@kiln.export
def zipped(n: int) -> int:
    s = {n}
    total = 0
    for a, b in zip(s, [1]):
        total += a + b
    return total


@kiln.export
def items_set(n: int) -> int:
    d = {n: 1}
    return len(set(d.items()))


@kiln.export
def unpacked(n: int) -> int:
    a, b = {n, 1}
    return a


@kiln.export
def negated(n: int) -> int:
    s = {n}
    t = -s
    return len(t)


@kiln.export
def or_value(n: int) -> int:
    s = {n}
    t = {1}
    u = s or t
    return len(u)


@kiln.export
def set_of_sets(n: int) -> int:
    s = {{n}}
    return len(s)


@kiln.export
def ordered_against_number(n: int) -> bool:
    return {n} < n


@kiln.export
def number_in_set_of_bools(n: int) -> bool:
    s = {n > 1}
    return n in s


@kiln.export
def discard_text(n: int) -> int:
    s = {n}
    s.discard("a")
    return len(s)
