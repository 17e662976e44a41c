












import kiln


@kiln.export
def fine(n: int) -> int:
    return n


break
# BREAK: break.py:[[@LINE-1]]:1: error: syntax error: 'break' outside loop
# BREAK-NOT: func.func

