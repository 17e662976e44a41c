"""The C batch timers (bench/native/time_*.c) through ctypes. One ctypes
call runs a whole batch, timed inside C, so what they report is the
kernel without any Python call overhead."""

import ctypes

import numpy as np

# kernel -> (C argument kinds after the call count, the C arguments made
# from the Python arguments). i: int64, d: double, f: float, p: array data.
SIGNATURES = {
    "saxpy_f64": ("idppp", lambda a, x, y, out: (x.size, a, x, y, out)),
    "saxpy_f32": ("ifppp", lambda a, x, y, out: (x.size, a, x, y, out)),
    "dot": ("ipp", lambda x, y: (x.size, x, y)),
    "sum_f64": ("ip", lambda x: (x.size, x)),
    "sum_i64": ("ip", lambda x: (x.size, x)),
    "l2norm": ("ip", lambda x: (x.size, x)),
    "expsqrt": ("ipp", lambda x, out: (x.size, x, out)),
    "clip": ("ipddp", lambda x, low, high, out: (x.size, x, low, high, out)),
    "stencil1d": ("ipp", lambda x, out: (x.size, x, out)),
    "prefix_sum": ("ipp", lambda x, out: (x.size, x, out)),
    "histogram": ("ipip", lambda x, nbins, counts: (x.size, x, nbins, counts)),
    "jacobi2d": ("iipp", lambda u, out: (u.shape[0], u.shape[1], u, out)),
    "matmul": ("iiippp", lambda a, b, c: (a.shape[0], a.shape[1], b.shape[1], a, b, c)),
    "mandelbrot": ("iiddddip", lambda xmin, xmax, ymin, ymax, maxiter, out:
                   (out.shape[0], out.shape[1], xmin, xmax, ymin, ymax, maxiter, out)),
    "pairwise": ("iipp", lambda points, distances: (points.shape[0], points.shape[1], points,
                                                    distances)),
}
# Kernels that return a scalar: the timer writes it through a last pointer.
SCALAR_RESULTS = {"dot": ctypes.c_double, "sum_f64": ctypes.c_double,
                  "sum_i64": ctypes.c_int64, "l2norm": ctypes.c_double}
CTYPES = {"i": ctypes.c_int64, "d": ctypes.c_double, "f": ctypes.c_float, "p": ctypes.c_void_p}


class BatchTimers:
    """One timer library (C reference strict/fast, or Kiln's C ABI)."""

    def __init__(self, path):
        self.library = ctypes.CDLL(path)  # RTLD_LOCAL: the k_* copies stay apart

    def runner(self, case):
        kinds, make_arguments = SIGNATURES[case.kernel]
        timer = getattr(self.library, f"time_{case.kernel}")
        result_type = SCALAR_RESULTS.get(case.kernel)
        argtypes = [ctypes.c_int64] + [CTYPES[kind] for kind in kinds]
        if result_type is not None:
            argtypes.append(ctypes.POINTER(result_type))
        timer.argtypes, timer.restype = argtypes, ctypes.c_double
        arguments = []
        for kind, value in zip(kinds, make_arguments(*case.args)):
            if kind == "p":
                if not (isinstance(value, np.ndarray) and value.flags.c_contiguous):
                    raise TypeError(f"{case.kernel}: the C timers take C-contiguous arrays")
                arguments.append(value.ctypes.data)
            else:
                # ctypes takes Python numbers only, not numpy scalars
                arguments.append(int(value) if kind == "i" else float(value))
        result = result_type() if result_type is not None else None
        if result is not None:
            arguments.append(ctypes.byref(result))
        return NativeRunner(timer, arguments, result, case)


class NativeRunner:
    def __init__(self, timer, arguments, result, case):
        self.timer, self.arguments, self.result, self.case = timer, arguments, result, case

    def seconds_per_call(self, calls):
        seconds = self.timer(calls, *self.arguments)
        if seconds < 0:
            raise RuntimeError(f"{self.case.kernel}: the kernel reported an error")
        return seconds

    def once(self):
        self.case.reset_output()
        self.seconds_per_call(1)
        if self.result is not None:
            return self.result.value
        return self.case.output_copy()
