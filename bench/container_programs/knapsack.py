"""0/1 knapsack by dynamic programming over one list (the textbook
algorithm): best[c] is the best value within capacity c, updated for each
item from high capacities down; the items' weights and values are lists
built by a helper."""


def random_ints(n: int, seed: int, low: int, high: int) -> list[int]:
    """n ints in [low, high] from a 31-bit linear congruential generator
    (glibc's constants): the same sequence in every implementation."""
    values: list[int] = []
    s = seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        values.append(low + s % (high - low + 1))
    return values


# pythran export knapsack(int, int, int)
def knapsack(n: int, capacity: int, seed: int) -> int:
    weights = random_ints(n, seed, 1, 100)
    values = random_ints(n, seed + 1, 1, 1000)
    best = [0] * (capacity + 1)
    for k in range(n):
        w = weights[k]
        v = values[k]
        for c in range(capacity, w - 1, -1):
            if best[c - w] + v > best[c]:
                best[c] = best[c - w] + v
    return best[capacity]
