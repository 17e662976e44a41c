"""Longest Collatz chain below n (Project Euler 14; the memoised version
of the classic): chain lengths are memoised in a dict[int, int] keyed by
the number itself, since the values a chain visits go far beyond n; each
start walks until it meets a known length, remembering the numbers it
passed on a list, then fills their lengths in backwards. Returns the
start with the longest chain * 1000 + its length."""


# pythran export collatz(int)
def collatz(n: int) -> int:
    memo: dict[int, int] = {1: 1}
    path: list[int] = []
    best = 1
    best_start = 1
    for start in range(2, n):
        x = start
        while x not in memo:
            path.append(x)
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
        length = memo[x]
        while path:
            length += 1
            memo[path.pop()] = length
        if length > best:
            best = length
            best_start = start
    return best_start * 1000 + best
