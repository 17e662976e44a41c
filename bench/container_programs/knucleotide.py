"""k-nucleotide (the Computer Language Benchmarks Game): count every
k-long fragment of a DNA sequence in a hash table, for k = 1, 2, 3, 4, 6,
12 and 18, and look up the counts of GGT, GGTA, GGTATT, GGTATTTTAATT and
GGTATTTTAATTTATAGT. Here the sequence is n random bases (0..3 for ACGT,
from a linear congruential generator) and a fragment is its 2-bit code,
an int key of a dict[int, int] (the benchmark's own programs use strings
or such codes). Returns a checksum of the table sizes, the largest count
and the counts looked up."""


def random_bases(n: int, seed: int) -> list[int]:
    bases: list[int] = []
    s = seed
    for _ in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        # a skewed distribution, as in the benchmark's input (more A and T)
        r = s % 100
        if r < 30:
            bases.append(0)
        elif r < 50:
            bases.append(1)
        elif r < 70:
            bases.append(2)
        else:
            bases.append(3)
    return bases


def count_fragments(bases: list[int], k: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    mask = (1 << (2 * k)) - 1
    code = 0
    for i in range(len(bases)):
        code = ((code << 2) | bases[i]) & mask
        if i >= k - 1:
            counts[code] = counts.get(code, 0) + 1
    return counts


def encode(bases: list[int], k: int) -> int:
    """The code of the first k bases."""
    code = 0
    for i in range(k):
        code = (code << 2) | bases[i]
    return code


# pythran export knucleotide(int, int)
def knucleotide(n: int, seed: int) -> int:
    bases = random_bases(n, seed)
    # GGTATTTTAATTTATAGT with A, C, G, T = 0, 1, 2, 3
    ggt = [2, 2, 3, 0, 3, 3, 3, 3, 0, 0, 3, 3, 3, 0, 3, 0, 2, 3]
    checksum = 0
    for k in [1, 2, 3, 4, 6, 12, 18]:
        counts = count_fragments(bases, k)
        largest = 0
        for c in counts.values():
            if c > largest:
                largest = c
        checksum = checksum * 31 % 1000000007 + len(counts) * 7 + largest
        if k >= 3:
            checksum += counts.get(encode(ggt, k), 0)
    return checksum
