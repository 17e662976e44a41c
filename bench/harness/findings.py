"""The "Where Kiln falls short and why" section. Which kernels fall short
is computed from the run; why is written here, from reading the code Kiln
generates (`kilnc --emit=asm`, `llvm-objdump -d` of lib<mod>.so, the
<mod>.kiln.mlir the build writes) beside the C reference's, and each
reason names the issue (and stage) that would close the gap. The code-shape
counts printed with each kernel are recomputed every run."""

REASONS = {}

GENERAL = ""


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
        return f"line {verdict['line']} vectorized x{verdict['width']} (interleave {verdict['interleave']})"
    reason = verdict["reasons"][0] if verdict["reasons"] else "not vectorized"
    return f"line {verdict['line']} scalar ({reason.removeprefix('loop not vectorized: ')})"


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
             f"Every kernel and size where Kiln (called from Python) is below {threshold}x the C "
             "reference or behind the fastest peer (Numba, Numba fastmath, Pythran, Cython, "
             "numpy), with the reason. *Code shape* counts the instructions of the whole "
             "function in Kiln's `lib<mod>.so` and in the C reference object.", ""]
    if GENERAL:
        lines += [GENERAL, ""]
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
    return "\n".join(lines)
