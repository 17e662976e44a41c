"""Recursion (issue 30): direct and mutual, over numbers, tuples, lists,
dicts and sets, with CPython's RecursionError past the limit
(test_recursion.py)."""

import kiln


def factorial_of(n: int) -> int:
    if n <= 1:
        return 1
    return n * factorial_of(n - 1)


@kiln.export
def factorial(n: int) -> int:
    return factorial_of(n)


@kiln.export
def fibonacci(n: int) -> int:
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)


def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


@kiln.export
def parity(n: int) -> int:
    return (1 if is_even(n) else 0) + (2 if is_odd(n) else 0)


def sum_from(xs: list[float], i: int) -> float:
    if i == len(xs):
        return 0.0
    return xs[i] + sum_from(xs, i + 1)


@kiln.export
def recursive_sum(xs: list[float]) -> float:
    return sum_from(xs, 0)


def visit(node: int, children: list[int], first_child: list[int], seen: list[bool],
          order: list[int]) -> None:
    """Depth-first over a tree stored as `first_child` offsets into
    `children`: appends to the caller's `order`."""
    seen[node] = True
    order.append(node)
    for k in range(first_child[node], first_child[node + 1]):
        child = children[k]
        if not seen[child]:
            visit(child, children, first_child, seen, order)


@kiln.export
def depth_first(n: int, fanout: int) -> list[int]:
    """A tree of n nodes, node k's children k*fanout+1 ... (a heap's shape),
    in depth-first order."""
    children: list[int] = []
    first_child = [0] * (n + 1)
    for node in range(n):
        first_child[node] = len(children)
        for j in range(1, fanout + 1):
            if node * fanout + j < n:
                children.append(node * fanout + j)
    first_child[n] = len(children)
    seen = [False] * n
    order: list[int] = []
    if n > 0:
        visit(0, children, first_child, seen, order)
    return order


def collect(n: int, acc: list[int]) -> list[int]:
    """A list passed down, appended to, and returned (a new reference at
    every level)."""
    if n == 0:
        return acc
    acc.append(n * n)
    return collect(n - 1, acc)


@kiln.export
def squares_down(n: int) -> list[int]:
    return collect(n, [])


def split_halves(xs: list[int]) -> list[int]:
    """Merge sort: new lists at every level."""
    if len(xs) <= 1:
        return xs[:]
    middle = len(xs) // 2
    left = split_halves([xs[k] for k in range(middle)])
    right = split_halves([xs[k] for k in range(middle, len(xs))])
    merged: list[int] = []
    i = 0
    j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    while i < len(left):
        merged.append(left[i])
        i += 1
    while j < len(right):
        merged.append(right[j])
        j += 1
    return merged


@kiln.export
def merge_sort(xs: list[int]) -> list[int]:
    return split_halves(xs)


@kiln.export
def ackermann(m: int, n: int) -> int:
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def gcd_steps(a: int, b: int) -> tuple[int, int]:
    """A tuple result: (gcd, number of steps)."""
    if b == 0:
        return a, 0
    g, steps = gcd_steps(b, a % b)
    return g, steps + 1


@kiln.export
def gcd_with_steps(a: int, b: int) -> tuple[int, int]:
    return gcd_steps(a, b)


def power(x: float, n: int) -> float:
    if n == 0:
        return 1.0
    half = power(x, n // 2)
    return half * half * (x if n % 2 == 1 else 1.0)


@kiln.export
def fast_power(x: float, n: int) -> float:
    return power(x, n)


def nth_from_end(xs: list[int], k: int) -> int:
    if k == 0:
        return xs[len(xs) - 10]     # IndexError deep inside when xs is short
    return nth_from_end(xs, k - 1) + 1


@kiln.export
def raises_deep(xs: list[int], depth: int) -> int:
    return nth_from_end(xs, depth)


def divide_down(n: int, d: int) -> int:
    if n == 0:
        return 10 // d                  # ZeroDivisionError at the bottom
    return divide_down(n - 1, d) + 1


@kiln.export
def zero_division_deep(n: int, d: int) -> int:
    return divide_down(n, d)


@kiln.export
def down(n: int) -> int:
    return 0 if n == 0 else 1 + down(n - 1)


def ping(n: int) -> int:
    return 0 if n == 0 else 1 + pong(n - 1)


def pong(n: int) -> int:
    return 0 if n == 0 else 1 + ping(n - 1)


@kiln.export
def ping_pong(n: int) -> int:
    return ping(n)


def countdown_list(n: int, xs: list[int]) -> int:
    """A list at every level of a recursion that runs out of depth: the
    lists made before the RecursionError are freed (memory test)."""
    ys = [n, n + 1]
    xs.append(n)
    if n == 0:
        return len(xs) + len(ys)
    return countdown_list(n - 1, xs) + ys[0] - n


@kiln.export
def lists_down(n: int) -> int:
    return countdown_list(n, [])


def inner_down(n: int) -> int:
    return 0 if n == 0 else 1 + inner_down(n - 1)


def outer_down(n: int, inner: int) -> int:
    """A recursive function calling another recursion cycle: the depths
    add up, as CPython's frames do."""
    if n == 0:
        return inner_down(inner)
    return 1 + outer_down(n - 1, inner)


@kiln.export
def nested_cycles(n: int, inner: int) -> int:
    return outer_down(n, inner)


@kiln.export(parallel=True)
def many_calls(n: int) -> int:
    total = 0
    for k in range(n):
        total += fibonacci(k % 12) + ackermann(1, k % 7)
    return total


def fib_memo(n: int, memo: dict[int, int]) -> int:
    """A dict passed down and filled on the way back."""
    if n in memo:
        return memo[n]
    value = n if n < 2 else fib_memo(n - 1, memo) + fib_memo(n - 2, memo)
    memo[n] = value
    return value


@kiln.export
def memo_fibonacci(n: int) -> int:
    memo: dict[int, int] = {}
    return fib_memo(n, memo)


def reach(n: int, seen: set[int]) -> int:
    """A set passed down the recursion: the numbers a Collatz walk visits
    until one repeats."""
    if n in seen:
        return len(seen)
    seen.add(n)
    return reach(n // 2 if n % 2 == 0 else 3 * n + 1, seen)


@kiln.export
def collatz_visits(n: int) -> int:
    seen: set[int] = set()
    return reach(n, seen)
