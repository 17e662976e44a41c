# RUN: rm -rf %t && split-file --leading-lines %s %t
# RUN: not %python -m kiln mlir %t/break.py 2>&1 | FileCheck %s --check-prefix=BREAK
# RUN: not %python -m kiln build %t/break.py -o %t/out 2>&1 | FileCheck %s --check-prefix=BREAK
# RUN: not %python -m kiln mlir %t/continue.py 2>&1 | FileCheck %s --check-prefix=CONTINUE
# RUN: not %python -m kiln mlir %t/duplicate.py 2>&1 | FileCheck %s --check-prefix=DUPLICATE
# RUN: not %python -m kiln mlir %t/return.py 2>&1 | FileCheck %s --check-prefix=RETURN
# RUN: not %python -m kiln mlir %t/nonlocal.py 2>&1 | FileCheck %s --check-prefix=NONLOCAL
#
# Python that parses but that CPython's compiler rejects: the module cannot
# be imported, so it cannot be built either. Kiln reports CPython's
# SyntaxError, at CPython's line and column, and generates nothing.

#--- break.py
import kiln


@kiln.export
def fine(n: int) -> int:
    return n


break
# BREAK: break.py:[[@LINE-1]]:1: error: syntax error: 'break' outside loop
# BREAK-NOT: func.func

#--- continue.py
import kiln


@kiln.export
def skip(n: int) -> int:
    if n > 0:
        continue
    # CONTINUE: continue.py:[[@LINE-1]]:9: error: syntax error: 'continue' not properly in loop
    return n

#--- duplicate.py
import kiln


@kiln.export
def twice(x: int, x: int) -> int:
    # DUPLICATE: duplicate.py:[[@LINE-1]]:19: error: syntax error: duplicate argument 'x' in function definition
    return x

#--- return.py
import kiln


@kiln.export
def fine(n: int) -> int:
    return n


return 3
# RETURN: return.py:[[@LINE-1]]:1: error: syntax error: 'return' outside function

#--- nonlocal.py
import kiln


@kiln.export
def outer(n: int) -> int:
    nonlocal n
    # NONLOCAL: nonlocal.py:[[@LINE-1]]:5: error: syntax error: name 'n' is parameter and nonlocal
    return n
