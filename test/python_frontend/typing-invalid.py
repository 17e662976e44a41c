# RUN: not %python -m kiln mlir %s 2>&1 | FileCheck %s
import numpy as np

import kiln

# Type errors name the variable and both types, at the assignment.


@kiln.export
def declared_int(n: int) -> int:
    x: int = n
    x = 2.5
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:5: error: variable `x` is declared int but is assigned a float
    return x


# A parameter's annotation types the argument, not the name: rebound to a
# float, the name is a float from there on (frontend/variable_webs.py), and
# returning it from an int function is the error.
@kiln.export
def parameter_rebound_to_float(x: int) -> int:
    x = 2.5
    return x
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:5: error: cannot implicitly convert float to int; use int(...)


# Two assignments that meet must agree: the message names both and the
# read they reach.
@kiln.export
def two_array_types(x: kiln.f64[:], y: kiln.i64[:], flag: bool) -> float:
    z = x
    if flag:
        z = y
        # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:9: error: variable `z` is kiln.f64[:] on one path and kiln.i64[:] on another (assigned at line [[@LINE-3]] and at line [[@LINE-1]], both of which reach the read at line [[@LINE+1]])
    return float(z.sum())


@kiln.export
def float_to_int_return(x: float) -> int:
    return x
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:5: error: cannot implicitly convert float to int; use int(...)


@kiln.export
def value_or_none(x: int):
    if x > 0:
        return 1
# CHECK-DAG: typing-invalid.py:[[@LINE-3]]:1: error: `value_or_none` returns a value on some paths and None on others


@kiln.export
def float_index(x: kiln.f64[:]) -> float:
    return x[1.5]
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:14: error: array index `1.5` must be an int, not float


@kiln.export
def range_of_float(n: float) -> int:
    count = 0
    for i in range(n):
        # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:20: error: range() arguments must be int, not float
        count += 1
    return count


#pythran export pythran_string(str)
@kiln.export
def pythran_string(name):
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:20: error: parameter `name` has the Pythran type `str`, which Kiln has no type for; annotate it
    return 0


# A helper without annotations compiles once per signature of its
# arguments, up to 16 of them.
def identity(x):
    return x


@kiln.export
def helper_at_too_many_types(a: float) -> float:
    return identity(kiln.i8(1)) + identity(kiln.i16(1)) + identity(kiln.i32(1)) + identity(1) + identity(kiln.u8(1)) + identity(kiln.u16(1)) + identity(kiln.u32(1)) + identity(kiln.u64(1)) + identity(1.0) + identity(kiln.f32(1)) + identity(True) + identity(a > 0) * 0 + identity(a) + identity(1j).real + identity(kiln.c64(1j)).real + identity(np.ones(2)).sum() + identity(np.ones((2, 2))).sum() + identity(np.ones(2, dtype=np.int32)).sum() + identity(np.ones(2, dtype=np.float32)).sum()
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:{{[0-9]+}}: error: `identity` is called with more than 16 different argument types; annotate its parameters


# np.add & co. are the operators of arrays; of numbers they are refused.
@kiln.export
def add_of_numbers(x: float) -> float:
    return np.add(x, 1.0)
    # CHECK-DAG: typing-invalid.py:[[@LINE-1]]:12: error: np.add of numbers is not supported yet (of arrays it is the operator); write the operator
