"""The "Where Kiln falls short and why" section. Which kernels fall short
is computed from the run; why is written here, from reading the code Kiln
generates (`kilnc --emit=asm`, `llvm-objdump -d` of lib<mod>.so, the
<mod>.kiln.mlir the build writes) beside the C reference's, and each
reason names the issue (and stage) that would close the gap. The code-shape
counts printed with each kernel are recomputed every run."""

def call_ns(results, table, prefix):
    for row in results.get("calls", {}).get(table, []):
        if row["label"].startswith(prefix):
            return row["ns"]
    return None


def boundary_text(results):
    scalar = call_ns(results, "scalar_add", "Kiln (built")
    array = call_ns(results, "array_add1", "Kiln (built")
    hand_scalar = call_ns(results, "scalar_add", "hand-written")
    hand_array = call_ns(results, "array_add1", "hand-written")
    measured = ""
    if scalar and array and hand_scalar and hand_array:
        measured = (f"in this run `add(a, b)` costs {scalar:.0f} ns through Kiln against "
                    f"{hand_scalar:.0f} ns through the hand-written METH_FASTCALL extension "
                    f"({scalar / hand_scalar:.2f}x; the issue's target is 1.1x) and `add1(x, y)` "
                    f"with two arrays {array:.0f} against {hand_array:.0f} ns "
                    f"({array / hand_array:.2f}x; target 1.2x), ")
    return (
        "**The Python boundary.** At the L1 size a kernel runs for tens of nanoseconds, so the "
        f"call from Python weighs: {measured}while the C reference is timed inside C with no "
        "call at all; the *C ABI vs C* column takes the boundary out. Kiln's wrappers test an "
        "exact float, a small exact int, or an exact ndarray's type, dtype character, byte "
        "order, ndim and flags inline, fill the descriptor from numpy's public fields and call "
        "nothing else before the kernel; other types, buffers and every error go out of line "
        "(`kiln_get_array`, cold error paths). They release the GIL only for calls with 4096 "
        "elements or more. Counted with callgrind (`bench/call_overhead.py --instructions`), "
        "what remains over the hand-written extension is the keyword-capable calling "
        "convention (`METH_FASTCALL | METH_KEYWORDS` takes a few more instructions in "
        "CPython's call path and one more test in the wrapper), the kernel's error record "
        "and the descriptor it reads the array through.")


def reduction_text(results, speed_ratio):
    records = [r for r in results["kernels"] if r["kernel"] in ("dot", "sum_f64", "l2norm")]

    def spread(tiers):
        behind = [1 / ratio for ratio in (speed_ratio(r, "c_fast") for r in records
                                          if r["tier"] in tiers) if ratio]
        return f"{min(behind):.1f}-{max(behind):.0f}x" if behind else None
    fastmath = [(r["kernel"], r["tier"], speed_ratio(r, "c_fast", "kiln_fastmath"))
                for r in records if r["tier"] != "L1"]
    in_cache, in_memory = spread(("L1", "L2")), spread(("DRAM",))
    faster = (f"{in_cache} faster in cache in this run" if in_cache else "faster") + (
        f" ({in_memory} at the DRAM size, where memory caps them)" if in_memory else "")
    landed = ", ".join(f"{kernel} {tier} {ratio:.2f}x" for kernel, tier, ratio in fastmath
                       if ratio)
    return (
        "**In-order float reductions.** Kiln keeps IEEE operations in source order, so "
        "`total += ...` is one serial chain of scalar adds (`vaddsd`), one per FP-add latency: "
        "LLVM's verdict is *cannot prove it is safe to reorder floating-point operations*. "
        "C -ffast-math and Numba fastmath vectorize it with several 512-bit accumulators and are "
        f"{faster}. The C reference at `-O3` is *slower* than Kiln on dot and "
        "l2norm: clang contracts `s += x*y` into an FMA whose longer latency sits on the "
        "loop-carried chain (C with `-ffp-contract=off` equals Kiln). Kiln's answer is "
        "`@kiln.export(fastmath=True)` (issue 4), which vectorizes these loops: against "
        f"C -ffast-math it reaches {landed or 'the figures in the fastmath=True columns'} "
        "(above L1, where the boundary dominates). At the DRAM size the in-order chain, not "
        "memory, limits the default build (see the bandwidth fractions).")


AT_L1 = "The L1 gap is the Python boundary (above). "

REASONS = {
    "saxpy_f64": AT_L1 + (
        "From L2 on the compiled loop is at C's speed: kiln-vectorize makes a 512-bit loop "
        "(VF=8, interleave 2, masked tail) behind run-time checks that the views have unit "
        "stride and do not overlap, and Kiln multiplies and adds separately where C contracts "
        "into an FMA — immaterial for a memory-bound loop."),
    "saxpy_f32": "Same as saxpy_f64.",
    "clip": AT_L1 + ("kiln-vectorize if-converts the two conditional stores into masked "
                     "stores at 512 bits; from L2 on it runs at C's speed or faster (C stores "
                     "every element, Kiln only those that change)."),
    "sum_i64": AT_L1 + ("The integer reduction vectorizes (`vpaddq` on zmm, no float-order "
                        "issue), so from L2 on Kiln matches C."),
    "prefix_sum": AT_L1 + ("The running sum is a true loop-carried dependence: no "
                           "implementation vectorizes it, and from L2 on all are equal."),
    "dot": ("In-order float reduction (above); the C reference contracts into an FMA chain and "
            "is slower than Kiln."),
    "sum_f64": "In-order float reduction (above); no multiplication, so C at `-O3` equals Kiln.",
    "l2norm": "In-order float reduction (above), as dot.",
    "expsqrt": (
        "kiln-vectorize calls glibc's vector `exp` (libmvec, `_ZGVeN8v_exp`, within 4 ulp of "
        "libm: docs/language.md) where the C reference and the peers call scalar `exp` per "
        "element, and it keeps CPython's errors by checking each 8-element chunk before storing "
        "it (a failing chunk is re-run by the scalar loop, which raises at the exact element). "
        "Hence Kiln is ~5x C; numpy's own SIMD `exp` is the closest peer."),
    "stencil1d": (
        "On 256-bit vectors kiln-vectorize loads `x[i-1]`, `x[i]` and `x[i+1]` as three "
        "unaligned vectors per output vector (three `vmulpd` with memory operands, two "
        "`vaddpd`, one store); on 512-bit vectors it loads the outer two and makes `x[i]` with "
        "one `vpermt2pd`. Forming `x[i]` by shuffles on AVX2 takes `vperm2f128` + `vshufpd`, "
        "which ran 1.1-1.3x slower than the load it saves (bench/native/stencil_loads.c), so "
        "since 2026-12-07 it is not done there (stencil1d 1.1-1.2x faster). clang goes further "
        "on the C reference: with `restrict` it carries the vector loaded for `x[i+1]` into "
        "the next iteration and contracts to FMAs (C with `-ffp-contract=off` is the "
        "like-for-like column). Kiln proves the same no-overlap fact at run time (its guard); "
        "carrying the loaded vectors across iterations of the main loop is the next step. "
        "Numba, Pythran and Cython, without `restrict`, are slower than Kiln."),
    "histogram": (
        "`int(x[i] * nbins)` keeps CPython's three errors on every element — NaN (ValueError), "
        "infinity and values beyond 64 bits (OverflowError) — as one hot test (`vandpd` + "
        "`vucomisd` of the magnitude against 2**63, the three cases told apart on the cold "
        "path), and `counts[b]` keeps Python's negative-index wraparound behind one unsigned "
        "compare of `b` with the length (kiln-lower-checks moves the wrap to a block of its own, "
        "off the address's dependency chain). Both landed on 2026-12-07 and made the kernel "
        "1.37x faster. What remains over C: that test and the bounds compare (two "
        "compare-and-branch pairs C does not have, since C's conversion is undefined beyond the "
        "range and its index unchecked), and a run-time stride multiply (`imul`), since "
        "`counts` is not known to be contiguous. `boundscheck=False` does not help: it keeps "
        "the wraparound and the conversion's checks. Nobody vectorizes the scatter "
        "`counts[b] += 1`: on AVX2, computing the bins for a chunk with vectors first and "
        "scattering after ran no faster in a C experiment (float64 to int64 conversion has no "
        "AVX2 instruction); AVX-512's `vcvttpd2qq` and conflict detection make it worth trying "
        "there. Pythran, Cython and Numba convert without checks."),
    "jacobi2d": (
        "At 32x32 the inner loop runs 30 elements and is entered 30 times per call; each entry "
        "selects a loop version again (unit stride, no overlap of `out` with `u`, the in-bounds "
        "test of the bounds-check hoisting) with its conditions spilled to the stack, which C "
        "(strides known at compile time, `restrict`) never does. From 128x128 on it is "
        "amortized and Kiln is at C's speed. Closes with versioning once per function instead of "
        "once per inner-loop entry: issue 3's contiguous specialization (strides known at entry) "
        "and bounds versioning hoisted out of the loop nest (kiln-vectorize's own stride/overlap "
        "guard already is: it is computed once per call)."),
    "matmul": (
        "The innermost loop is kiln-vectorize's (512-bit `vmulpd`+`vaddpd`, interleave 2; C "
        "contracts to FMAs at `-O3`, but C with `-ffp-contract=off` is as fast), and its "
        "stride/overlap guard is computed once per call. What remains on every step of the `k` "
        "loop is the choice of the `j` loop's version: the bounds test of "
        "kiln-hoist-bounds-checks (the row `k` of `b[k, j]` changes each step), then the "
        "vector/scalar branch, with the conditions spilled to the stack (`cmp 0x18(%rsp)`, "
        "`setb`, `movzbl 0x6(%rsp)`, `and`). At n = 128 the `j` loop is 8 vector iterations, "
        "and `perf` (cpu-clock) puts ~45% of the samples in that selection code. At n = 512 "
        "the loop is long enough and memory limits both. Closes with bounds versioning hoisted "
        "to the loop that fixes the row (checking `k` over its whole range once per `i`), or "
        "issue 3's contiguous specialization at function entry."),
    "mandelbrot": (
        "The escape loop (data-dependent exit) is scalar everywhere; what differs is the "
        "dependency chain per iteration. clang contracts `2*zr*zi + cy` and `zr2 - zi2 + cx` "
        "into FMAs, Kiln cannot without changing the escape counts (source-order IEEE): C with "
        "`-ffp-contract=off` is within a few percent of Kiln, and Kiln's fastmath=True build, "
        "which contracts, matches C -ffast-math. Pythran and Cython come from gcc, which "
        "contracts by default. Vectorizing across pixels needs masked lanes for the early "
        "exit, which kiln-vectorize does not do yet (it refuses loops with early exits). "
        "(The *vectorized* verdict on the pixel loop is LLVM's copy for "
        "`maxiter <= 0`, which only stores `maxiter`: a broadcast `vmovdqu64` loop.)"),
    "pairwise": (
        "Within noise of C: the innermost loop over 3 coordinates is fully unrolled and the "
        "loop over `j` is vectorized by LLVM. Differences of a few percent between runs are the "
        "machine's noise at this size."),
}

def gaps(results):
    items = [
        "No generic functions: the peers' one `saxpy` for float64 and float32 is two Kiln "
        "functions (`saxpy_f64`, `saxpy_f32`), since each parameter has one annotated dtype.",
        "Float-to-int conversion always carries CPython's NaN/infinity/64-bit checks (one "
        "compare on the hot path): `int(v)` and `kiln.i64(v)` alike, also under "
        "`boundscheck=False`; there is no unchecked conversion for a kernel that knows its "
        "range (histogram).",
        "No way to declare that array arguments do not overlap (C's `restrict`): Kiln checks "
        "overlap at run time, once per call, and versions inner loops for bounds on every "
        "entry (matmul, jacobi2d).",
        "Loops with an early exit (`break`, a data-dependent `while`: mandelbrot) and scatters "
        "(histogram) stay scalar in kiln-vectorize.",
    ]
    built = call_ns(results, "scalar_add", "Kiln (built")
    decorated = call_ns(results, "scalar_add", "Kiln @kiln.export")
    if built and decorated:
        items.append("A compile-on-first-call `@kiln.export` object is an instance of a "
                     "Python class, which CPython calls through `tp_call` with the arguments "
                     "packed into a tuple: its `__call__` slot holds the native function "
                     "(no Python code runs), yet `add` costs "
                     f"{decorated:.0f} ns through it against {built:.0f} ns through the built "
                     "module, which is the extension's function itself.")
    return items

def code_shape_text(shape):
    if not shape or not shape.get("instructions"):
        return "no code found"
    width = shape["widest_vector_bits"]
    vectors = f"packed up to {width}-bit" if width else "no packed arithmetic"
    calls = f", calls {', '.join(shape['calls'])}" if shape["calls"] else ""
    return (f"{shape['instructions']} instructions, {vectors} ({shape['packed_fp']} packed FP, "
            f"{shape['packed_int_add']} packed int adds), {shape['scalar_fp']} scalar FP, "
            f"{shape['fma']} FMA{calls}")


def loop_text(verdict):
    if verdict["vectorized"]:
        return (f"line {verdict['line']} vectorized x{verdict['width']} "
                f"(interleave {verdict['interleave']})")
    reason = verdict["reasons"][0] if verdict["reasons"] else "not vectorized"
    return f"line {verdict['line']} scalar ({reason.removeprefix('loop not vectorized: ')})"


def noise_text(results):
    """How far apart repeats of one implementation land, per tier: the
    median over all implementations of (median time / minimum time - 1)."""
    spreads = {}
    for record in results["kernels"]:
        for result in record["results"].values():
            if result.get("median_seconds") and not result.get("scaled"):
                spreads.setdefault(record["tier"], []).append(
                    result["median_seconds"] / result["seconds"] - 1)
    parts = []
    for tier, values in spreads.items():
        values.sort()
        parts.append(f"{tier} {values[len(values) // 2]:.0%}")
    return ("Noise: the median of a repeat lies above the minimum by (median over all "
            f"implementations) {', '.join(parts)}; differences of that order, mostly at the "
            "DRAM size, are the machine's, not the code's.") if parts else ""


def section(results, speed_ratio, best_peer, label_of, threshold):
    by_kernel = {}
    for record in results["kernels"]:
        versus_c = speed_ratio(record, "c_strict")
        peer_seconds, peer = best_peer(record)
        versus_peer = speed_ratio(record, peer) if peer else None
        short = []
        if versus_c is not None and versus_c < threshold:
            short.append(f"{versus_c:.2f}x C")
        if versus_peer is not None and versus_peer < 1.0:
            short.append(f"{versus_peer:.2f}x {label_of(peer)}")
        if short:
            abi = speed_ratio(record, "c_strict", "kiln_c_abi")
            detail = f"{record['tier']} ({record['size']}): " + ", ".join(short)
            if abi is not None:
                detail += f"; C ABI timed in C {abi:.2f}x C"
            by_kernel.setdefault(record["kernel"], []).append(detail)
    lines = ["## Where Kiln falls short and why", "",
             f"Every kernel and size where Kiln (called from Python, default options) is below "
             f"{threshold}x the C reference or behind the fastest peer (Numba, Numba fastmath, "
             "Pythran, Cython, numpy), with the reason, from reading the code Kiln generates "
             "(`llvm-objdump -d` of `libkernels_kiln.so`, `kilnc --emit=asm`, the "
             "`kernels_kiln.kiln.mlir` and `kernels_kiln.kiln.json` the build writes) beside the C "
             "reference's. The numbers and the *code shape* lines (instructions of the whole "
             "function in Kiln's library and in the C objects) are recomputed by every run; the "
             "explanations were written from the generated code at the time of this suite "
             "(issue 7) and name the issue that would close each gap.", "",
             noise_text(results), "",
             "Two causes recur:", "", "- " + boundary_text(results), "",
             "- " + reduction_text(results, speed_ratio), ""]
    shapes = results.get("code_shape", {})
    for kernel, details in by_kernel.items():
        lines.append(f"### {kernel}")
        lines.append("")
        lines += [f"- {detail}" for detail in details]
        shape = shapes.get(kernel, {})
        if shape:
            lines.append(f"- Code shape: Kiln {code_shape_text(shape.get('kiln'))}; "
                         f"C -O3 {code_shape_text(shape.get('c_strict'))}; "
                         f"C -ffp-contract=off {code_shape_text(shape.get('c_exact'))}; "
                         f"C -ffast-math {code_shape_text(shape.get('c_fast'))}.")
        verdicts = results.get("loop_verdicts", {}).get(kernel, {}).get("loops", [])
        if verdicts:
            lines.append("- Loops, as `kiln build` records them (LLVM's loop vectorizer, "
                         "`kernels_kiln.kiln.json`): " + "; ".join(loop_text(v) for v in verdicts)
                         + ".")
        lines.append("")
        lines.append(REASONS.get(kernel, "*(no analysis recorded for this kernel yet)*"))
        lines.append("")
    if not by_kernel:
        lines.append("Nothing: every kernel is at least 0.9x C and ahead of every peer.")
    lines += ["### Gaps in Kiln met while writing the kernels", ""]
    lines += [f"- {gap}" for gap in gaps(results)]
    return "\n".join(lines)
