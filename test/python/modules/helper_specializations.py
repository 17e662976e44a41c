"""Helpers without annotations called at several argument types: one
specialization per signature (typecheck/specialization.py)."""

import numpy as np

import kiln


def relu(x):
    return np.maximum(x, 0.0)


def scaled(x, k):
    return x * k                        # bool, int and float k compute differently


def total(x):
    return relu(x).sum()                # a specialization calling another helper


def clamp_below(x, limit):
    while x > limit:                    # a loop at int and at float
        x = x - 1
    return x


def annotated(x: float) -> float:
    return x / 2                        # annotated: one function, ints convert


def with_default(x, offset=1):
    return x + offset


@kiln.export
def layers(x: kiln.f64[:, :, :, :], w: kiln.f64[:, :]) -> kiln.f64[:, :]:
    # a 4-D then a 2-D array, and an array expression passed as argument
    y = relu(x)
    z = np.reshape(y, (y.shape[0], y.shape[1] * y.shape[2] * y.shape[3]))
    return relu(z @ w)


@kiln.export
def mixed_dtypes(a: kiln.f32[:], b: kiln.f64[:], c: kiln.i32[:]) -> float:
    return float(relu(a).sum()) + relu(b).sum() + float(total(c)) + float(total(a))


@kiln.export
def number_kinds(a: float, n: int, flag: bool) -> float:
    return scaled(a, True) + scaled(a, 3) + scaled(n, flag) + scaled(n, n) + scaled(flag, flag)


@kiln.export
def loops_at_two_types(n: int, x: float) -> float:
    return clamp_below(n, 3) + clamp_below(x, 3) + clamp_below(x, 2.5)


@kiln.export
def annotated_stays(n: int, x: float) -> float:
    return annotated(n) + annotated(x)


@kiln.export
def defaults_and_keywords(a: kiln.i64[:], x: float) -> float:
    return with_default(a).sum() + with_default(x) + with_default(x, offset=2.5) + \
        with_default(a, offset=x).sum()
