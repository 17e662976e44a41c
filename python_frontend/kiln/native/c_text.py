"""C literals the generated extension's code is written with (wrapper.py's
function wrappers and class_types.py's types share them)."""

from __future__ import annotations

import math


def c_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def c_double(value: float) -> str:
    """A C literal of exactly this double (hexadecimal: no rounding)."""
    if math.isinf(value):
        return "(1.0 / 0.0)" if value > 0 else "(-1.0 / 0.0)"
    if math.isnan(value):
        return "__builtin_nan(\"\")"
    return float(value).hex()
