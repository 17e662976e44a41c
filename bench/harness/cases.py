"""The kernels at their sizes: inputs, the work each call does (bytes or
flops), the limit it is compared against, and how results are compared.

Sizes are chosen by working set (every array a call touches): one that
fits in L1, one in L2, one far beyond the last-level cache (DRAM). The
compute-bound kernels (matmul, mandelbrot) are scaled down instead: the
naive triple loop at a DRAM-sized matrix would take seconds per call;
pairwise is capped at 2048 points (a 32 MiB distance matrix)."""

import math
from dataclasses import dataclass, field

import numpy as np

KiB, MiB = 1024, 1024 * 1024

TIERS = ("L1", "L2", "DRAM")

MANDELBROT_WINDOW = (-2.0, 0.5, -1.25, 1.25)
MANDELBROT_MAXITER = 200
HISTOGRAM_BINS = 256
PAIRWISE_DIMENSIONS = 3

# kernel -> (bytes one element moves, in STREAM's convention: each array
# element read or written once; the STREAM operation with the same pattern)
STREAMING = {
    "saxpy_f64": (24, "triad"), "saxpy_f32": (12, "triad"), "dot": (16, "read"),
    "sum_f64": (8, "read"), "sum_i64": (8, "read"), "l2norm": (8, "read"),
    "expsqrt": (16, "copy"), "clip": (16, "copy"), "stencil1d": (16, "copy"),
    "prefix_sum": (16, "copy"), "histogram": (8, "read"),
}
GRIDS = ("jacobi2d", "matmul", "mandelbrot", "pairwise")
KERNELS = tuple(STREAMING) + GRIDS
COMPUTE_BOUND = ("matmul", "mandelbrot", "pairwise")

# Fixed sizes for the compute-bound kernels, per tier.
MATMUL_N = {"L1": 32, "L2": 128, "DRAM": 512}
MANDELBROT_N = {"L1": 32, "L2": 128, "DRAM": 512}


def aligned_empty(shape, dtype, alignment=64):
    """An uninitialised C-contiguous array whose data starts on a cache line,
    so no implementation gains or loses from where numpy put the buffer."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def aligned_copy(values, dtype=None):
    array = aligned_empty(values.shape, dtype or values.dtype)
    array[...] = values
    return array


@dataclass
class Case:
    kernel: str
    tier: str
    size: str                  # human-readable problem size
    working_set: int           # bytes of every array a call touches
    args: tuple
    output_index: int = None   # which argument the kernel writes (None: it returns a value)
    compare: str = "float"     # "exact" (integers), "float" or "pixels" (mandelbrot)
    rtol: float = 1e-9
    bytes_moved: int = None    # streaming kernels: bytes per call, STREAM convention
    flops: int = None          # compute-bound kernels: flops per call
    limit: str = None          # STREAM operation, or "fma" for flops
    work_units: float = 0.0    # what CPython's time scales with, between sizes
    prepare: object = None     # resets the output before a checked call
    extra: dict = field(default_factory=dict)
    # Kernels calling exp/log/...: Kiln runs them on glibc's vector math
    # (libmvec), documented to stay within this many ulps of libm, so
    # "same algorithm" agreement is up to that, not bit for bit.
    vector_math_ulps: int = 0

    def reset_output(self):
        if self.output_index is None:
            return
        out = self.args[self.output_index]
        if self.prepare is not None:
            self.prepare(out)
        elif out.dtype.kind == "f":
            out.fill(np.nan)
        else:
            out.fill(-7)

    def output_copy(self):
        return self.args[self.output_index].copy()

    def call(self, function):
        """The result of one call: the output array (a copy) or the return value."""
        self.reset_output()
        value = function(*self.args)
        return self.output_copy() if self.output_index is not None else value


def streaming_case(kernel, tier, n, rng) -> Case:
    per_element, limit = STREAMING[kernel]
    case = Case(kernel, tier, f"n={n:,}", per_element * n, (), bytes_moved=per_element * n,
                limit=limit, work_units=n)
    uniform = lambda: aligned_copy(rng.random(n))  # noqa: E731
    if kernel in ("saxpy_f64", "saxpy_f32"):
        dtype = np.float64 if kernel == "saxpy_f64" else np.float32
        # a numpy scalar of the array's dtype: a Python float would make
        # numpy and CPython compute in double and round on the store.
        case.args = (dtype(2.5), aligned_copy(rng.random(n), dtype),
                     aligned_copy(rng.random(n), dtype), aligned_empty(n, dtype))
        case.output_index = 3
        if dtype == np.float32:
            case.rtol = 1e-6
    elif kernel == "dot":
        case.args = (uniform(), uniform())
    elif kernel in ("sum_f64", "l2norm"):
        case.args = (uniform(),)
    elif kernel == "sum_i64":
        case.args = (aligned_copy(rng.integers(-1000, 1000, n, dtype=np.int64)),)
        case.compare = "exact"
    elif kernel in ("expsqrt", "stencil1d", "prefix_sum"):
        case.args = (uniform(), aligned_empty(n, np.float64))
        case.output_index = 1
        if kernel == "expsqrt":
            case.vector_math_ulps = 4
    elif kernel == "clip":
        case.args = (aligned_copy(rng.uniform(-1.0, 1.0, n)), -0.5, 0.5,
                     aligned_empty(n, np.float64))
        case.output_index = 3
    elif kernel == "histogram":
        case.args = (uniform(), HISTOGRAM_BINS, aligned_empty(HISTOGRAM_BINS, np.int64))
        case.output_index = 2
        case.compare = "exact"
    return case


def jacobi_case(tier, working_set, rng) -> Case:
    n = max(8, math.isqrt(working_set // 16))
    u = aligned_copy(rng.random((n, n)))
    out = aligned_copy(u)

    def keep_boundary_poison_interior(target, source=u):
        # the kernel writes only the interior: a stale interior must show
        target[...] = source
        target[1:-1, 1:-1] = np.nan
    return Case("jacobi2d", tier, f"{n}x{n}", 16 * n * n, (u, out), output_index=1,
                bytes_moved=16 * n * n, limit="copy", work_units=(n - 2) ** 2,
                prepare=keep_boundary_poison_interior)


def matmul_case(tier, rng) -> Case:
    n = MATMUL_N[tier]
    args = (aligned_copy(rng.random((n, n))), aligned_copy(rng.random((n, n))),
            aligned_empty((n, n), np.float64))
    return Case("matmul", tier, f"{n}x{n}", 3 * 8 * n * n, args, output_index=2,
                flops=2 * n ** 3, limit="fma", work_units=n ** 3)


def mandelbrot_case(tier) -> Case:
    n = MANDELBROT_N[tier]
    out = aligned_empty((n, n), np.int64)
    return Case("mandelbrot", tier, f"{n}x{n}, {MANDELBROT_MAXITER} it", 8 * n * n,
                MANDELBROT_WINDOW + (MANDELBROT_MAXITER, out), output_index=5,
                compare="pixels", limit="fma")


# Pairwise is compute-bound at every size, and numpy's version builds an
# m x m x d temporary: beyond this many points it only makes the run longer.
PAIRWISE_MAX_POINTS = 2048


def pairwise_case(tier, working_set, rng) -> Case:
    m = max(8, min(math.isqrt(working_set // 8), PAIRWISE_MAX_POINTS))
    d = PAIRWISE_DIMENSIONS
    args = (aligned_copy(rng.random((m, d))), aligned_empty((m, m), np.float64))
    # per pair: d subtractions, d multiplications, d additions (sqrt not counted)
    return Case("pairwise", tier, f"{m}x{d} -> {m}x{m}", 8 * (m * m + m * d), args,
                output_index=1, flops=3 * d * m * m, limit="fma", work_units=m * m)


def make_case(kernel, tier, working_sets, seed=20251202) -> Case:
    rng = np.random.default_rng(seed)
    working_set = working_sets[tier]
    if kernel in STREAMING:
        return streaming_case(kernel, tier, working_set // STREAMING[kernel][0], rng)
    if kernel == "jacobi2d":
        return jacobi_case(tier, working_set, rng)
    if kernel == "matmul":
        return matmul_case(tier, rng)
    if kernel == "mandelbrot":
        return mandelbrot_case(tier)
    return pairwise_case(tier, working_set, rng)


def account_mandelbrot(case, escape_counts):
    """Mandelbrot's work depends on the pixels: from a checked result,
    count the iterations run (8 flops each: 4 multiplications, 4 additions
    and subtractions; the escaping iteration stops after 3)."""
    counts = np.asarray(escape_counts)
    escaped = int(np.count_nonzero(counts < MANDELBROT_MAXITER))
    full_iterations = int(counts.sum())
    case.flops = 8 * full_iterations + 3 * escaped
    case.work_units = full_iterations + escaped
    case.extra["iterations"] = full_iterations + escaped
