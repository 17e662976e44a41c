




































import kiln


@kiln.export
def twice(x: int, x: int) -> int:
    # DUPLICATE: duplicate.py:[[@LINE-1]]:19: error: syntax error: duplicate argument 'x' in function definition
    return x

