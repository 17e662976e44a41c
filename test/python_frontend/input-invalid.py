# RUN: rm -rf %t && split-file --leading-lines %s %t
# RUN: not %python -m kiln mlir %t/annotation.py 2>&1 | FileCheck %s --check-prefix=ANNOTATION
# RUN: printf 'import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return x \0 1\n' > %t/nul.py
# RUN: not %python -m kiln mlir %t/nul.py 2>&1 | FileCheck %s --check-prefix=NUL
# RUN: not %python -m kiln build %t/nul.py -o %t/out 2>&1 | FileCheck %s --check-prefix=NUL
# RUN: printf 'import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return x  # caf\351\n' > %t/latin1.py
# RUN: not %python -m kiln mlir %t/latin1.py 2>&1 | FileCheck %s --check-prefix=UTF8
# RUN: not %python -m kiln build %t/latin1.py -o %t/out 2>&1 | FileCheck %s --check-prefix=UTF8
# RUN: printf '# -*- coding: latin-1 -*-\nimport kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return x  # caf\351\n' > %t/declared.py
# RUN: %python -m kiln mlir %t/declared.py | FileCheck %s --check-prefix=DECLARED
# RUN: cp %t/annotation.py %t/my-mod.py
# RUN: not %python -m kiln build %t/my-mod.py -o %t/out 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: cp %t/annotation.py %t/class.py
# RUN: not %python -m kiln build %t/class.py -o %t/out 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: %python -c "print('import kiln\n\n\n@kiln.export\ndef f(x: float) -> float:\n    return ' + '+'.join(['x'] * 5000))" > %t/deep.py
# RUN: not %python -m kiln mlir %t/deep.py 2>&1 | FileCheck %s --check-prefix=DEEP
#
# Input Kiln cannot read or name, each reported at file:line:col.
#
# NUL: nul.py:6:14: error: syntax error: source code {{.*}}cannot contain null bytes
# UTF8: latin1.py:6:20: error: syntax error: byte 0xe9 is not valid utf-8 (the default source encoding): invalid continuation byte; save the file as UTF-8 or declare its encoding (PEP 263)
# DECLARED: func.func @declared_f(
# NAME: my-mod.py:1:1: error: `my-mod.py` cannot be built as a module: its name `my-mod` is not a Python identifier, so it cannot be imported; rename the file (e.g. `my_mod.py`)
# KEYWORD: class.py:1:1: error: `class.py` cannot be built as a module: its name `class` is a Python keyword, so it cannot be imported; rename the file (e.g. `_class.py`)
# DEEP: deep.py:5:1: error: expression nested too deeply for CPython's parser (RecursionError: {{.*}}); split it into several statements

#--- annotation.py
import kiln


@kiln.export
def zero_dimensions(x: kiln.f64[()]) -> float:
    # ANNOTATION: annotation.py:[[@LINE-1]]:24: error: unsupported type annotation `kiln.f64[()]`
    return 1.0


@kiln.export
def fine(x: float) -> float:
    return x
