"""The dict version of the feature scenario: a sparse feature dict per
record (feature hashing, as a linear model's input is built): for each of
n records, eight raw fields from a random stream are hashed into 64
buckets, each adding its value to its bucket (`f[h] = f.get(h, 0.0) +
v`), a bias feature is set, a few buckets are read back against a weight
table, and the dict is dropped. CPython builds and drops one dict per
record."""


# pythran export feature_dicts(int, int)
def feature_dicts(n: int, seed: int) -> float:
    weights: dict[int, float] = {}
    for h in range(64):
        weights[h] = (h * 37 % 64) / 64.0 - 0.5
    total = 0.0
    s = seed
    for _ in range(n):
        f: dict[int, float] = {}
        for field in range(8):
            s = (s * 1103515245 + 12345) % 2147483648
            h = (field * 2654435761 + s % 1000) % 64
            f[h] = f.get(h, 0.0) + (s % 1000) / 1000.0
        f[64] = 1.0
        score = f[64] * 0.25
        for h in f:
            if h in weights:
                score += weights[h] * f[h]
        total += score * len(f)
    return total
