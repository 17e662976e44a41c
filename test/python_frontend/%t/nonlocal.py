

























































import kiln


@kiln.export
def outer(n: int) -> int:
    nonlocal n
    # NONLOCAL: nonlocal.py:[[@LINE-1]]:5: error: syntax error: name 'n' is parameter and nonlocal
    return n
