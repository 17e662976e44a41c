"""fannkuch-redux (the Computer Language Benchmarks Game; pyperformance's
fannkuch): every permutation of 0..n-1 in the benchmark's order, each
copied (`perm1[:]`) and its prefix flipped until 0 comes first; the next
permutation rotates a prefix with `perm1.insert(r, perm1.pop(0))` as the
Python version does. Returns checksum * 1000 + the most flips."""


# pythran export fannkuch(int)
def fannkuch(n: int) -> int:
    perm1 = list(range(n))
    count = [0] * n
    max_flips = 0
    checksum = 0
    sign = 1
    r = n
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        perm = perm1[:]
        flips = 0
        k = perm[0]
        while k != 0:
            i = 0
            j = k
            while i < j:
                t = perm[i]
                perm[i] = perm[j]
                perm[j] = t
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        max_flips = max(max_flips, flips)
        checksum += sign * flips
        sign = -sign
        while True:
            if r == n:
                return checksum * 1000 + max_flips
            perm1.insert(r, perm1.pop(0))
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
