

























import kiln


@kiln.export
def skip(n: int) -> int:
    if n > 0:
        continue
    # CONTINUE: continue.py:[[@LINE-1]]:9: error: syntax error: 'continue' not properly in loop
    return n

