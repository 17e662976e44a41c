"""numpy's rules for bool and mixed-dtype operands that Kiln once refused
or got wrong (issue 32's list of defects found by random array programs):
test_numpy_dtype_rules.py runs each against CPython."""

import numpy as np

import kiln


@kiln.export
def outer_of_bools(a: kiln.b1[:], b: kiln.b1[:]):
    return np.outer(a, b)               # a bool array: and of each pair


@kiln.export
def where_with_a_complex_number(x: kiln.f64[:], z: complex):
    return np.where(x > 0, x, z)        # complex128


@kiln.export
def int_power_of_arrays(a: kiln.i64[:, :], e: kiln.i64[:]):
    return a ** e                       # ValueError only for an exponent it uses


@kiln.export
def numpy_power_of_int_arrays(a: kiln.i32[:], e: kiln.i64[:]):
    return np.power(a, e) - np.power(a, 2)      # int64 (int32 and int64 operands)


@kiln.export
def bool_arrays_added(a: kiln.b1[:], b: kiln.b1[:]):
    return a + b                        # logical or


@kiln.export
def bool_arrays_multiplied(a: kiln.b1[:], b: kiln.b1[:]):
    return a * b                        # logical and


@kiln.export
def bool_arrays_combined(a: kiln.b1[:], b: kiln.b1[:], x: kiln.f64[:]):
    return (a * b + ~a) * x             # bool, then float64


@kiln.export
def absolute_of_bools(a: kiln.b1[:]):
    return np.abs(a) + np.absolute(a)   # the identity, so still bool


@kiln.export
def hypot_of_bools_and_float32(a: kiln.b1[:], b: kiln.f32[:]):
    return np.hypot(a, b)               # float32: the first loop both cast to


@kiln.export
def float_functions_of_uint8_and_float64(a: kiln.u8[:], b: kiln.f64[:]):
    return np.arctan2(a, b) + np.copysign(a, b) + np.fmod(b, a) + np.power(a, b)


@kiln.export
def float_functions_of_int8_and_int16(a: kiln.i8[:], b: kiln.i16[:]):
    return np.hypot(a, b)               # float32 (int16's loop)


@kiln.export
def mask_from_a_new_array(x: kiln.f64[:]):
    x[np.zeros(len(x)) == 3.0] = 1.0    # never true: nothing stored
    x[np.arange(len(x)) % 3 == 0] = -1.0
    return x[np.linspace(0.0, 1.0, len(x)) > 0.5]


@kiln.export
def positions_from_a_new_array(x: kiln.f64[:]):
    x[np.arange(2)] += 10.0
    return x[np.arange(len(x) - 1, -1, -2)]


# Elements of bool arrays are numpy's bools: + is a logical or, * an and
# (Python's True + True is 2); with an int they are ints again.
@kiln.export
def bool_elements(m: kiln.b1[:], flag: bool, out: kiln.f64[:]) -> float:
    out[0] = m[0] + m[0]
    out[1] = m[0] * m[1] + (~m[1])
    out[2] = flag + m[0]                # numpy's bool whichever side it is on
    out[3] = m[0] + 1                   # an int
    out[4] = np.any(m) + np.all(m)
    out[5] = (m[0] == m[1]) + (m[0] != m[1])
    out[6] = True + m[1]
    b = m[1]
    out[7] = b + b
    return float(flag + flag)           # Python's bools: 2


@kiln.export
def bool_elements_in_loops(m: kiln.b1[:]) -> float:
    count = 0
    either = False
    both = m[0]
    for i in range(len(m)):
        count += m[i]                   # an int
        either = either + m[i]          # numpy's: stays a bool
        both = both * m[i]
    return float(count) * 100 + float(either) * 10 + float(both)
