"""Sieve of Eratosthenes (the classic; the "primes" programs of Codon's
benchmark suite and of many language shoot-outs): a list[bool] of n + 1
flags crossed off in place, then the primes gathered by a comprehension and
summed."""


# pythran export sieve(int)
def sieve(n: int) -> int:
    flags = [True] * (n + 1)
    flags[0] = False
    flags[1] = False
    i = 2
    while i * i <= n:
        if flags[i]:
            for j in range(i * i, n + 1, i):
                flags[j] = False
        i += 1
    primes = [p for p in range(n + 1) if flags[p]]
    return len(primes) + sum(primes)
