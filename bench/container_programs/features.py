"""The scenario Kiln is designed for: a feature extractor that builds small
lists per record and throws them away. For each of n records (four fields
from a random stream) it builds an 8-item feature list, a sorted copy of
it and, with a comprehension, the features above the median; it keeps a
few numbers of them. CPython makes three temporary lists per record."""


# pythran export features(int, int)
def features(n: int, seed: int) -> int:
    total = 0
    s = seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        a = s % 1000
        s = (s * 1103515245 + 12345) % 2147483648
        b = s % 1000
        s = (s * 1103515245 + 12345) % 2147483648
        c = s % 1000
        s = (s * 1103515245 + 12345) % 2147483648
        d = s % 1000
        feats = [a, b, c, d, a + b, c - d, a * c % 997, (b + d) // 2]
        ranked = sorted(feats)
        median = (ranked[3] + ranked[4]) // 2
        high = [f for f in feats if f > median]
        total += ranked[7] - ranked[0] + median + len(high) * sum(high) % 1009
    return total
