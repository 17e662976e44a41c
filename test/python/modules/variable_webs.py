"""Names rebound to values of other types (frontend/variable_webs.py): each
assignment typed on its own unless a read may see more than one."""

import numpy as np

import kiln


@kiln.export
def mlp_layer(x: kiln.f32[:, :, :], w: kiln.f64[:, :], b: kiln.f64[:]) -> kiln.f64[:, :]:
    # 3-D float32, then 2-D float64, then the product: one name throughout
    x = x.astype(np.float64)
    x = np.reshape(x, (x.shape[0], x.shape[1] * x.shape[2]))
    x = x @ w + b
    x = np.maximum(x, 0.0)
    return x


@kiln.export
def parameter_rebound(a: kiln.f64[:, :]) -> float:
    # the parameter's own value first, then a row sum, then a number
    a = a.sum(axis=0)
    a = a * 2.0
    a = float(a.sum())
    return a


@kiln.export
def int_then_float(n: int) -> float:
    # `x` stays an int while it is one: n // 3 is integer division
    x = n
    k = x // 3
    x = x * 0.5
    return x + k


@kiln.export
def loop_counter_reused(a: kiln.f64[:]) -> float:
    total = 0.0
    for i in range(len(a)):
        total += a[i]
    # the next loop's `i` is a float: the first loop's is never read again
    i = 0.25
    for j in range(3):
        i = i * 2.0 + j
    return total + i


@kiln.export
def joined_in_a_loop(n: int) -> float:
    # int before the loop, float in it: they meet at the loop's head, so
    # one float variable, as before
    s = 0
    for k in range(n):
        s = s + 0.5 * k
    return s * 1.0


@kiln.export
def branch_then_rebind(x: kiln.f64[:], flag: bool) -> float:
    y = x * 2.0
    if flag:
        y = x + 1.0
    t = float(y.sum())
    y = t > 3.0          # a bool now: the arrays' reads are all above
    if y:
        return t
    return -t


@kiln.export
def swap_kinds(a: kiln.f64[:], n: int) -> int:
    v = a.size
    v = v + n
    w = [v, n]
    v = len(w)
    w = {v: 1.5}
    return v + len(w)


@kiln.export
def augmented_and_rebound(a: kiln.f64[:]) -> float:
    s = a.copy()
    s += 1.0             # in place: one variable with the copy
    s = float(s.sum())
    s += 0.5
    return s


@kiln.export
def while_and_break(n: int) -> float:
    r = n
    while r > 1:
        if r % 2 == 0:
            r = r // 2
        else:
            r = 3 * r + 1
        if r == 5:
            break
    m = r
    r = m / 4            # after the loop: a float
    return r


@kiln.export
def rebound_inside_branches(x: kiln.f64[:, :], pick: int) -> float:
    if pick > 0:
        v = x.sum(axis=1)
        v = v.max()
        out = v
    else:
        v = x.ravel()
        v = v.min()
        out = v
    return out
