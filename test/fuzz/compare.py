"""Comparing an oracle outcome with a native one.

Exact everywhere (NaN equals NaN, the sign of a zero matters, Python result
types must match), except that in functions where kiln-vectorize vectorized
a loop calling transcendental math (libmvec, docs/language.md "Accuracy of
vectorized math") float values may differ by up to `ULPS` units in the last
place of their type, and a larger difference of finite values within
INEXACT_RELATIVE (an ulp amplified by later arithmetic) is counted as
`inexact`, not as a failure. Exception types must match; a differing message (after
dropping Kiln's " (file, line N)" suffix) is a *message difference*, counted
apart because issue 15 wants messages to match but it is not a wrong result.
"""

from __future__ import annotations

import math
import re
import struct

import numpy as np

ULPS = 4
SUFFIX = re.compile(r" \([^()]*, line \d+\)$")
# a KeyError's message is its repr'd argument: the location is inside the quotes
QUOTED_SUFFIX = re.compile(r" \([^()]*, line \d+\)'$")


def strip_location(message: str) -> str:
    return QUOTED_SUFFIX.sub("'", SUFFIX.sub("", message))


def ordered(x: float, single: bool) -> int:
    if single:
        (i,) = struct.unpack("<i", struct.pack("<f", x))
    else:
        (i,) = struct.unpack("<q", struct.pack("<d", x))
    return i if i >= 0 else -(i & (2**(31 if single else 63) - 1))


def same_float(a, b, tolerant=False, single=False):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    if tolerant and math.isfinite(a) and math.isfinite(b):
        if tolerant == "f32" and not single:
            # a double that carries a float32 function's error: compare in
            # float32 ulps (the relative size of 4 float32 ulps)
            return abs(a - b) <= ULPS * 2.0**-23 * max(abs(a), abs(b), 2.0**-126)
        return abs(ordered(a, single) - ordered(b, single)) <= ULPS
    return False


def same_list(a, b, tolerant=False):
    """Lists item by item, each with its Python type (a list returned as the
    caller's own argument object must be that argument on both sides)."""
    if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
        return False
    if getattr(a, "position", None) != getattr(b, "position", None):
        return False
    return all(same_value(x, y, tolerant) for x, y in zip(a, b))


def same_dict(a, b, tolerant=False):
    """Dicts entry by entry in order, keys and values with their Python
    types (a dict returned as the caller's own argument object must be that
    argument on both sides)."""
    if not (isinstance(a, dict) and isinstance(b, dict)) or len(a) != len(b):
        return False
    if getattr(a, "position", None) != getattr(b, "position", None):
        return False
    return all(same_value(ka, kb) and same_value(va, vb, tolerant)
               for (ka, va), (kb, vb) in zip(a.items(), b.items()))


def element_order(x):
    """A total order of set elements (with their types) for comparing two
    sets as sets."""
    if isinstance(x, float):
        if math.isnan(x):
            return (type(x).__name__, 1, 0.0, 0.0)
        return (type(x).__name__, 0, x, math.copysign(1.0, x))
    return (type(x).__name__, 0, x, 0.0)


def same_set(a, b, tolerant=False):
    """Sets as sets (their iteration order is CPython's hash order of the
    order the elements were added, which need not be the same): the same
    elements with their Python types and zero signs, as many NaNs; a
    frozenset on both sides or on neither (a set returned as the caller's
    own argument object must be that argument on both sides)."""
    kinds = (set, frozenset)
    if not (isinstance(a, kinds) and isinstance(b, kinds)) or len(a) != len(b):
        return False
    if isinstance(a, frozenset) != isinstance(b, frozenset):
        return False
    if getattr(a, "position", None) != getattr(b, "position", None) or \
            getattr(a, "frozen", None) != getattr(b, "frozen", None):
        return False
    return all(same_value(x, y, tolerant) for x, y in
               zip(sorted(a, key=element_order), sorted(b, key=element_order)))


def same_value(a, b, tolerant=False, single=False):
    if isinstance(a, (set, frozenset)) or isinstance(b, (set, frozenset)):
        return same_set(a, b, tolerant)
    if isinstance(a, dict) or isinstance(b, dict):
        return same_dict(a, b, tolerant)
    if isinstance(a, list) or isinstance(b, list):
        return same_list(a, b, tolerant)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(same_value(x, y, tolerant) for x, y in zip(a, b)))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return same_array(a, b, tolerant)
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return same_float(a, b, tolerant, single)
    return a == b


def same_array(a, b, tolerant=False):
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return False
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    single = bool(a.dtype == np.float32)
    return all(same_float(float(x), float(y), tolerant, single)
               for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))


INEXACT_RELATIVE = 1e-5


def close_values(a, b):
    """Both outcomes are numbers (or number tuples/arrays) within
    INEXACT_RELATIVE: a last-bit difference of a transcendental function
    amplified by later arithmetic (`x ** sinh(y)`)."""
    def close(x, y):
        if isinstance(x, float) and isinstance(y, float):
            if not (math.isfinite(x) and math.isfinite(y)):
                return same_float(x, y)
            return abs(x - y) <= INEXACT_RELATIVE * max(abs(x), abs(y))
        return x == y
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return all(close_values(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and all(
            close(float(x), float(y)) if a.dtype.kind == "f" else x == y
            for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
    return type(a) is type(b) and close(a, b)


def outcome_key(outcome):
    """A coarse name of an outcome: 'value' or the exception type."""
    return "value" if outcome[0] == "ok" else outcome[1]


def compare(expected, got, expected_bases, got_bases, tolerant=False):
    """(verdict, detail): verdict is 'same', 'message', 'inexact' (within
    INEXACT_RELATIVE where transcendental math is involved: counted, not a
    failure) or 'mismatch'."""
    if expected[0] != got[0] or (expected[0] == "raise" and expected[1] != got[1]):
        return "mismatch", f"expected {show(expected)}, got {show(got)}"
    if expected[0] == "ok" and not same_value(expected[1], got[1], tolerant):
        verdict = "inexact" if tolerant and close_values(expected[1], got[1]) else "mismatch"
        return verdict, f"expected {show(expected)}, got {show(got)}"
    for i, (a, b) in enumerate(zip(expected_bases, got_bases)):
        if isinstance(a, (set, frozenset)):
            if not same_set(a, b, tolerant):
                return "mismatch", (f"set argument (base {i}) after the call: expected "
                                    f"{a!r}, got {b!r}")
            continue
        if isinstance(a, dict):
            if not same_dict(a, b, tolerant):
                return "mismatch", (f"dict argument (base {i}) after the call: expected "
                                    f"{a!r}, got {b!r}")
            continue
        if isinstance(a, list):
            if not same_list(a, b, tolerant):
                return "mismatch", (f"list argument (base {i}) after the call: expected "
                                    f"{a!r}, got {b!r}")
            continue
        if not same_array(a, b, tolerant):
            verdict = "inexact" if tolerant and close_values(a, b) else "mismatch"
            return verdict, (f"array argument (base {i}) after the call: expected "
                             f"{a.tolist()}, got {b.tolist()}")
    if expected[0] == "raise" and strip_location(got[2]) != expected[2]:
        return "message", f"{expected[1]}: expected {expected[2]!r}, got {strip_location(got[2])!r}"
    return "same", ""


def show(outcome):
    if outcome[0] == "ok":
        value = outcome[1]
        if isinstance(value, np.ndarray):
            return f"array {value.tolist()!r} ({value.dtype})"
        if getattr(value, "position", None) is not None:
            if isinstance(value, dict):
                return f"argument {value.position}'s own dict {dict(value)!r}"
            if isinstance(value, (set, frozenset)):
                return f"argument {value.position}'s own set {set(value)!r}"
            return f"argument {value.position}'s own list {list(value)!r}"
        return repr(value)
    return f"{outcome[1]}({strip_location(outcome[2])!r})"
