"""Batch granularity: a function of numbers called once per element from a
Python loop, against the same function made an array function by
@kiln.vectorize and called once for the whole array, and against numpy's
vectorized expression. Times are per array, minimum of the repeats."""

import math
import timeit

import numpy as np

K = 2.0


def python_logistic(v, k):
    return 1.0 / (1.0 + math.exp(-k * v))


def measure(modules, settings, log):
    kiln = modules["kiln"]
    n = settings.batch_elements
    x = np.linspace(-4.0, 4.0, n)
    elements = x.tolist()
    names = {"kiln_logistic": kiln.logistic, "python_logistic": python_logistic, "x": x,
             "elements": elements, "np": np, "K": K}
    rows = [
        ("Kiln, one call per element (Python loop)", "[kiln_logistic(v, K) for v in elements]"),
        ("Kiln @kiln.vectorize, one call for the array", "kiln_logistic(x, K)"),
        ("numpy expression", "1.0 / (1.0 + np.exp(-K * x))"),
        ("CPython, math.exp per element", "[python_logistic(v, K) for v in elements]"),
    ]
    expected = 1.0 / (1.0 + np.exp(-K * x))
    results = {"elements": n, "rows": []}
    for label, statement in rows:
        got = np.asarray(eval(statement, names))  # noqa: S307 - our own statements
        if not np.allclose(got, expected, rtol=1e-12, atol=0.0):
            raise RuntimeError(f"batching: {label} gives different values")
        timer = timeit.Timer(statement, globals=names)
        number = max(1, timer.autorange()[0] if not settings.quick else 5)
        seconds = min(timer.repeat(repeat=settings.call_repeats, number=number)) / number
        results["rows"].append({"label": label, "statement": statement, "seconds": seconds,
                                "ns_per_element": seconds / n * 1e9,
                                "repeats": settings.call_repeats})
        log(f"  batching {label:<48} {seconds * 1e6:10.1f} us per {n:,} elements")
    return results
