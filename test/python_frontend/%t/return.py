













































import kiln


@kiln.export
def fine(n: int) -> int:
    return n


return 3
# RETURN: return.py:[[@LINE-1]]:1: error: syntax error: 'return' outside function

