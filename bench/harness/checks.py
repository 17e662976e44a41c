"""Every implementation's result is checked before anything is timed.

- Against numpy (an independent implementation), always: exact for
  integer results, within a relative tolerance for floats — implementations
  that reassociate (fast-math, numpy's pairwise sums, BLAS) or contract
  a*b+c into one FMA (clang and gcc do by default in C) round differently —
  and, for mandelbrot, at most 0.2 % of pixels different: a last-bit
  difference changes the escape count of a point on the set's chaotic
  boundary.
- Implementations that keep IEEE operations in source order (Kiln in all
  its forms, Numba without fastmath, CPython) must agree bit for bit with
  Kiln: that is the semantics Kiln promises (docs/language.md) -- except
  in transcendental functions, which Kiln vectorizes with libmvec, within
  the ulp bound docs/language.md states.
"""

import numpy as np

PIXEL_TOLERANCE = 2e-3


def describe_difference(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape} instead of {want.shape}"
    if got.dtype.kind in "iu" or want.dtype.kind in "iu":
        wrong = int(np.count_nonzero(got != want))
        return (f"{wrong} of {got.size} values differ "
                f"(first: {got.ravel()[:3]} vs {want.ravel()[:3]})")
    with np.errstate(invalid="ignore", divide="ignore"):
        error = np.abs(got.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-300)
    return (f"max relative difference {np.nanmax(error) if error.size else 0:.3g}, "
            f"{int(np.count_nonzero(np.isnan(got)))} NaN")


def close_to_numpy(case, got, want):
    """(ok, note) for a result against numpy's."""
    got_array, want_array = np.asarray(got), np.asarray(want)
    if got_array.shape != want_array.shape:
        return False, describe_difference(got, want)
    if case.compare == "exact":
        ok = np.array_equal(got_array, want_array)
    elif case.compare == "pixels":
        fraction = float(np.mean(got_array != want_array))
        if fraction <= PIXEL_TOLERANCE:
            return True, f"{fraction:.3%} of pixels differ" if fraction else ""
        return False, f"{fraction:.3%} of pixels differ (more than {PIXEL_TOLERANCE:.1%})"
    else:
        ok = bool(np.allclose(got_array, want_array, rtol=case.rtol, atol=1e-12))
    return (True, "") if ok else (False, describe_difference(got, want))


def bitwise_equal(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype.kind != want.dtype.kind:
        return False
    if got.dtype.kind == "f":
        return got.tobytes() == want.astype(got.dtype).tobytes()
    return np.array_equal(got, want)


def ulp_distance(got, want):
    """Largest distance in units in the last place; NaNs must coincide."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape or not np.array_equal(np.isnan(got), np.isnan(want)):
        return np.inf
    ordered = lambda a: np.where(a.view(np.int64) < 0,  # noqa: E731 - a one-line mapping
                                 np.int64(-2**63) - a.view(np.int64), a.view(np.int64))
    keep = ~np.isnan(got)
    if not keep.any():
        return 0
    return int(np.max(np.abs(ordered(got[keep]) - ordered(want[keep]))))


def same_algorithm(case, got, want):
    """Bit for bit, or within the vector-math bound for kernels that call
    transcendental functions."""
    if case.vector_math_ulps and np.asarray(got).dtype.kind == "f":
        return ulp_distance(got, want) <= case.vector_math_ulps
    return bitwise_equal(got, want)


def check_case(case, outputs, implementations):
    """Problems found among `outputs` (implementation -> result), as
    (implementation, message) pairs; an empty list means all agree."""
    problems = []
    reference = outputs.get("numpy")
    anchor = outputs.get("kiln")
    for key, got in outputs.items():
        if reference is not None and key != "numpy":
            ok, note = close_to_numpy(case, got, reference)
            if not ok:
                problems.append((key, f"differs from numpy: {note}"))
        if anchor is not None and key != "kiln" and implementations[key].source_order:
            if not same_algorithm(case, got, anchor):
                problems.append((key, "keeps source order but does not agree with Kiln: "
                                 + describe_difference(got, anchor)))
    return problems
