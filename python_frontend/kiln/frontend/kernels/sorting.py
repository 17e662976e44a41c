"""np.sort, np.argsort, np.searchsorted, np.unique, np.bincount and np.histogram as Kiln
compiles them: plain Python compiled into the module calling them, once per
set of template values (frontend/kernels/__init__.py instantiates it;
typecheck/sorting_typing.py chooses the values):

- RESULT: the dtype of the values sorted (np.sort's and np.unique's result).

CPython runs this file too, with the name bound.

The order is numpy's: ascending, NaN after every number (`precedes`).
Sorting is a bottom-up merge sort of positions (`stable_order`), so equal
values keep their order, as numpy's kind='stable' does (its default
quicksort may order them otherwise; np.sort's values are the same either
way). np.searchsorted is a binary search of that order; np.unique keeps
the first of each run of equal values (one NaN for all, as numpy 1.24's
equal_nan=True)."""

import numpy as np

SHARED = ()


def precedes(x, y):
    """numpy's sort order: x before y; a NaN goes after every number."""
    return x < y or (y != y and x == x)


def stable_order(a):
    """The positions of a's elements in sorted order, equal ones in their
    order: merge runs of width 1, 2, 4, ... from `order` into `merged`."""
    n = a.shape[0]
    order = np.arange(n)
    merged = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        start = 0
        while start < n:
            middle = min(start + width, n)
            end = min(start + 2 * width, n)
            i = start
            j = middle
            k = start
            while i < middle and j < end:
                if precedes(a[order[j]], a[order[i]]):
                    merged[k] = order[j]
                    j += 1
                else:
                    merged[k] = order[i]
                    i += 1
                k += 1
            while i < middle:
                merged[k] = order[i]
                i += 1
                k += 1
            while j < end:
                merged[k] = order[j]
                j += 1
                k += 1
            start = end
        for t in range(n):
            order[t] = merged[t]
        width *= 2
    return order


def sort(a):
    n = a.shape[0]
    order = stable_order(a)
    out = np.empty(n, dtype=RESULT)
    for i in range(n):
        out[i] = a[order[i]]
    return out


def argsort(a):
    return stable_order(a)


def sort_rows(a):
    """np.sort of an N-D array along its last axis: each row sorted."""
    last = a.shape[-1]
    if last == 0:
        return a.copy()
    rows = a.size // last
    flat = a.copy().reshape(rows, last)
    out = np.empty((rows, last), dtype=RESULT)
    for r in range(rows):
        out[r, :] = sort(flat[r])
    return out.reshape(a.shape)


def argsort_rows(a):
    """np.argsort of an N-D array along its last axis."""
    last = a.shape[-1]
    if last == 0:
        return np.zeros(a.shape, dtype=np.int64)
    rows = a.size // last
    flat = a.copy().reshape(rows, last)
    out = np.empty((rows, last), dtype=np.int64)
    for r in range(rows):
        out[r, :] = stable_order(flat[r])
    return out.reshape(a.shape)


def sort_flat(a):
    """np.sort(a, axis=None): the flattened array, sorted."""
    return sort(a.ravel())


def argsort_flat(a):
    return stable_order(a.ravel())


def sort_columns(a):
    """np.sort of a 2-D array along axis 0."""
    return sort_rows(a.T.copy()).T.copy()


def argsort_columns(a):
    return argsort_rows(a.T.copy()).T.copy()


def sort_in_place(a):
    """x.sort(): x's rows sorted where they are (the last axis)."""
    a[...] = sort_rows(a)


def first_not_before(a, x):
    """The first position whose value x does not come after (side='left')."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) // 2
        if precedes(a[middle], x):
            low = middle + 1
        else:
            high = middle
    return low


def first_after(a, x):
    """The first position whose value comes after x (side='right')."""
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) // 2
        if precedes(x, a[middle]):
            high = middle
        else:
            low = middle + 1
    return low


def searchsorted_left(a, x):
    return first_not_before(a, x)


def searchsorted_right(a, x):
    return first_after(a, x)


def searchsorted_left_array(a, v):
    out = np.empty(v.shape[0], dtype=np.int64)
    for i in range(v.shape[0]):
        out[i] = first_not_before(a, v[i])
    return out


def searchsorted_right_array(a, v):
    out = np.empty(v.shape[0], dtype=np.int64)
    for i in range(v.shape[0]):
        out[i] = first_after(a, v[i])
    return out


def unique(a):
    s = sort(a)
    n = s.shape[0]
    out = np.empty(n, dtype=RESULT)
    count = 0
    for i in range(n):
        # a new value, or the first NaN (numpy 1.24's equal_nan=True)
        if i == 0 or (s[i] != s[i - 1] and (s[i] == s[i] or s[i - 1] == s[i - 1])):
            out[count] = s[i]
            count += 1
    return out[:count].copy()


def bincount(x, minlength):
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    n = x.shape[0]
    size = minlength
    for i in range(n):
        value = int(x[i])           # (a bool array's elements too)
        if value < 0:
            raise ValueError("'list' argument must have no negative elements")
        if value + 1 > size:
            size = value + 1
    out = np.zeros(size, dtype=np.int64)
    for i in range(n):
        out[int(x[i])] += 1
    return out


def edge_kind(x):
    """0 NaN, 1 inf, 2 -inf, 3 a whole number below 2**53, 4 another number."""
    if x != x:
        return 0
    if x == np.inf:
        return 1
    if x == -np.inf:
        return 2
    if x == int(x) and abs(x) < 9007199254740992.0 and not (x == 0 and np.copysign(1.0, x) < 0):
        return 3
    return 4


def raise_not_finite(what, first, last):
    """numpy's ValueError for a range that is not finite, with its edges as
    CPython shows them (a raised message shows ints, not floats: a whole
    edge is its int and ".0", and another finite one "a finite edge")."""
    a = edge_kind(first)
    b = edge_kind(last)
    if what == 0:
        if a == 0 and b == 0:
            raise ValueError("autodetected range of [nan, nan] is not finite")
        if a == 0 and b == 1:
            raise ValueError("autodetected range of [nan, inf] is not finite")
        if a == 0 and b == 2:
            raise ValueError("autodetected range of [nan, -inf] is not finite")
        if a == 0 and b == 3:
            raise ValueError(f"autodetected range of [nan, {int(last)}.0] is not finite")
        if a == 1 and b == 0:
            raise ValueError("autodetected range of [inf, nan] is not finite")
        if a == 1 and b == 1:
            raise ValueError("autodetected range of [inf, inf] is not finite")
        if a == 1 and b == 2:
            raise ValueError("autodetected range of [inf, -inf] is not finite")
        if a == 1 and b == 3:
            raise ValueError(f"autodetected range of [inf, {int(last)}.0] is not finite")
        if a == 2 and b == 0:
            raise ValueError("autodetected range of [-inf, nan] is not finite")
        if a == 2 and b == 1:
            raise ValueError("autodetected range of [-inf, inf] is not finite")
        if a == 2 and b == 2:
            raise ValueError("autodetected range of [-inf, -inf] is not finite")
        if a == 2 and b == 3:
            raise ValueError(f"autodetected range of [-inf, {int(last)}.0] is not finite")
        if a == 3 and b == 0:
            raise ValueError(f"autodetected range of [{int(first)}.0, nan] is not finite")
        if a == 3 and b == 1:
            raise ValueError(f"autodetected range of [{int(first)}.0, inf] is not finite")
        if a == 3 and b == 2:
            raise ValueError(f"autodetected range of [{int(first)}.0, -inf] is not finite")
        raise ValueError("autodetected range of [a finite edge, ...] is not finite")
    if what == 1:
        if a == 0 and b == 0:
            raise ValueError("supplied range of [nan, nan] is not finite")
        if a == 0 and b == 1:
            raise ValueError("supplied range of [nan, inf] is not finite")
        if a == 0 and b == 2:
            raise ValueError("supplied range of [nan, -inf] is not finite")
        if a == 0 and b == 3:
            raise ValueError(f"supplied range of [nan, {int(last)}.0] is not finite")
        if a == 1 and b == 0:
            raise ValueError("supplied range of [inf, nan] is not finite")
        if a == 1 and b == 1:
            raise ValueError("supplied range of [inf, inf] is not finite")
        if a == 1 and b == 2:
            raise ValueError("supplied range of [inf, -inf] is not finite")
        if a == 1 and b == 3:
            raise ValueError(f"supplied range of [inf, {int(last)}.0] is not finite")
        if a == 2 and b == 0:
            raise ValueError("supplied range of [-inf, nan] is not finite")
        if a == 2 and b == 1:
            raise ValueError("supplied range of [-inf, inf] is not finite")
        if a == 2 and b == 2:
            raise ValueError("supplied range of [-inf, -inf] is not finite")
        if a == 2 and b == 3:
            raise ValueError(f"supplied range of [-inf, {int(last)}.0] is not finite")
        if a == 3 and b == 0:
            raise ValueError(f"supplied range of [{int(first)}.0, nan] is not finite")
        if a == 3 and b == 1:
            raise ValueError(f"supplied range of [{int(first)}.0, inf] is not finite")
        if a == 3 and b == 2:
            raise ValueError(f"supplied range of [{int(first)}.0, -inf] is not finite")
        raise ValueError("supplied range of [a finite edge, ...] is not finite")
    raise ValueError("range is not finite")


def histogram_range(a, bins, first_given, last_given, has_range):
    """numpy's outer edges of np.histogram with a number of bins: the
    range given, or a's smallest and largest values; an empty range widened
    by 0.5 each way."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    n = a.shape[0]
    first = 0.0
    last = 1.0
    if has_range:
        first = first_given
        last = last_given
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise_not_finite(1, first, last)
    elif n > 0:
        first = float(a.min())
        last = float(a.max())
        if not (np.isfinite(first) and np.isfinite(last)):
            raise_not_finite(0, first, last)
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def equal_bin(x, first, last, norm, edges, bins):
    """numpy's bin of x among equal bins (its index from the scaled
    distance to the first edge, corrected by one where rounding put it
    across an edge; the last bin holds its right edge), -1 outside."""
    if not (x >= first and x <= last):
        return -1
    index = int((x - first) * norm)
    if index == bins:
        index -= 1
    if x < edges[index]:
        index -= 1
    elif index != bins - 1 and x >= edges[index + 1]:
        index += 1
    return index


def histogram(a, bins, first_given, last_given, has_range):
    """np.histogram(a, bins, range) with a number of bins: numpy's edges
    (np.linspace over the range) and numpy's binning of each value; values
    outside the range are not counted."""
    first, last = histogram_range(a, bins, first_given, last_given, has_range)
    edges = np.linspace(first, last, bins + 1)
    counts = np.zeros(bins, dtype=np.int64)
    norm = bins / (last - first)
    for i in range(a.shape[0]):
        index = equal_bin(float(a[i]), first, last, norm, edges, bins)
        if index >= 0:
            counts[index] += 1
    return counts, edges


def histogram_density(a, bins, first_given, last_given, has_range):
    """density=True: numpy's n / db / n.sum() (array arithmetic: no value
    in range gives NaN, not an error)."""
    counts, edges = histogram(a, bins, first_given, last_given, has_range)
    return counts / np.diff(edges) / float(counts.sum()), edges


def histogram_weighted(a, weights, bins, first_given, last_given, has_range):
    """weights=: each bin the sum of its values' weights, as numpy adds
    them: per block of 65536 values a float64 sum in order (np.bincount's),
    cast to the weights' dtype and added to the bin."""
    if weights.shape[0] != a.shape[0]:
        raise ValueError("weights should have the same shape as a.")
    first, last = histogram_range(a, bins, first_given, last_given, has_range)
    edges = np.linspace(first, last, bins + 1)
    counts = np.zeros(bins, dtype=RESULT)
    block_sums = np.zeros(bins)
    norm = bins / (last - first)
    n = a.shape[0]
    for start in range(0, n, 65536):
        block_sums[:] = 0.0
        for i in range(start, min(start + 65536, n)):
            index = equal_bin(float(a[i]), first, last, norm, edges, bins)
            if index >= 0:
                block_sums[index] += float(weights[i])
        for k in range(bins):
            counts[k] += RESULT(block_sums[k])
    return counts, edges


def edges_bin(x, edges, last):
    """numpy's bin of x among the edges of an array (its searchsorted of
    the sorted values: the rightmost edge <= x, the last bin holding its
    right edge), -1 outside or for NaN."""
    lo = 0
    hi = last
    while lo < hi:
        mid = (lo + hi) // 2
        if edges[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    if lo < last:
        return lo - 1
    if edges[last] >= x:
        return last - 1
    return -1


def histogram_edges(a, edges):
    """np.histogram(a, bins=edges) with the edges as an array: numpy's
    check that they increase, each value in the bin of the rightmost edge
    <= it (the last bin closed)."""
    count = edges.shape[0]
    for k in range(count - 1):
        if edges[k] > edges[k + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    bins = max(count - 1, 0)
    counts = np.zeros(bins, dtype=np.int64)
    if bins > 0:
        for i in range(a.shape[0]):
            index = edges_bin(a[i], edges, count - 1)
            if index >= 0:
                counts[index] += 1
    return counts, edges.copy()


def histogram_edges_weighted(a, weights, edges):
    """np.histogram(a, bins=edges, weights=w) as numpy sums it: per block of
    65536 values, the block sorted, the running sums of its weights in
    that order, and each edge's running sum at the edge's searchsorted
    position (left; right for the last edge) added to the edge's total;
    the bins are the totals' differences. (numpy sorts by its quicksort,
    this by a stable sort: with equal values of different float weights
    the sums' rounding may differ in the last bit.)"""
    if weights.shape[0] != a.shape[0]:
        raise ValueError("weights should have the same shape as a.")
    count = edges.shape[0]
    for k in range(count - 1):
        if edges[k] > edges[k + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    totals = np.zeros(count, dtype=RESULT)
    n = a.shape[0]
    for start in range(0, n, 65536):
        stop = min(start + 65536, n)
        block = a[start:stop]
        order = stable_order(block)
        m = stop - start
        values = np.empty(m, dtype=block.dtype)
        sums = np.zeros(m + 1, dtype=RESULT)
        for i in range(m):
            values[i] = block[order[i]]
            sums[i + 1] = sums[i] + RESULT(weights[start + order[i]])
        for k in range(count):
            if k < count - 1:
                totals[k] += sums[first_not_before(values, edges[k])]
            else:
                totals[k] += sums[first_after(values, edges[k])]
    return np.diff(totals), edges.copy()


def histogram_edges_density(a, edges):
    counts, copied = histogram_edges(a, edges)
    return counts / np.diff(copied).astype(np.float64) / float(counts.sum()), copied
