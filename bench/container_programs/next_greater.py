"""Next greater element with a monotonic stack (the classic interview and
competitive-programming algorithm): for each item, the first later item
that is larger, or -1; indices wait on a list used as a stack (`append`,
`pop`, `stack[-1]`), answers go into a list made with `[-1] * n`."""


def random_ints(n: int, seed: int, bound: int) -> list[int]:
    """n ints in [0, bound) from a 31-bit linear congruential generator
    (glibc's constants): the same sequence in every implementation."""
    values: list[int] = []
    s = seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        values.append(s % bound)
    return values


def next_greater(xs: list[int]) -> list[int]:
    result = [-1] * len(xs)
    stack: list[int] = []
    for i in range(len(xs)):
        while stack and xs[stack[-1]] < xs[i]:
            result[stack.pop()] = xs[i]
        stack.append(i)
    return result


# pythran export run(int, int)
def run(n: int, seed: int) -> int:
    xs = random_ints(n, seed, 1000000)
    answers = next_greater(xs)
    checksum = 0
    for i in range(len(answers)):
        checksum += (i % 7 + 1) * answers[i]
    return checksum
