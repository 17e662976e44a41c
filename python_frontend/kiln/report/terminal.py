"""`kiln report` in a terminal: the source coloured by coverage, with VF and
scalar-loop badges, one verdict per loop, and a summary per function
(plain text when not a TTY). LLVM's own remarks and the minor findings
(remainder loops, scalar work) print with --remarks."""

from __future__ import annotations


def colour(coverage, enabled: bool) -> tuple:
    if not enabled or coverage is None:
        return "", ""
    # red (scalar) -> yellow -> green (all SIMD), on the 256-colour palette
    steps = [196, 202, 208, 214, 220, 226, 190, 154, 118, 82, 46]
    return f"\033[38;5;{steps[round(coverage * (len(steps) - 1))]}m", "\033[0m"


def percent(value) -> str:
    return "  -  " if value is None else f"{value * 100:4.0f}%"


# How the findings inside compiled code are named (never "fallback": that is
# a function left to Python), and whether they print without --remarks.
FINDING_NAMES = {"scalar-loop": ("scalar loop", False), "remainder-loop": ("remainder loop", False),
                 "scalar-work": ("scalar work", False),
                 "scalarized-math": ("scalar math", True),
                 "alias-check-loop": ("runtime check", True)}


def render(record: dict, granularity: str = "function", use_colour: bool | None = None,
           remarks: bool = False) -> str:
    if use_colour is None:
        import sys

        from ..errors import colour_wanted
        use_colour = colour_wanted(sys.stdout)
    out = []
    source = record.get("source", "")
    if record.get("source_text") is not None:       # the source the record describes
        source_lines = record["source_text"].splitlines()
    else:
        try:
            with open(source, encoding="utf-8") as handle:
                source_lines = handle.read().splitlines()
        except OSError:
            source_lines = []
    out.append(f"Kiln report for {record.get('module')} ({source})")
    out.append(f"module coverage {percent(record.get('module_coverage'))}, lane utilisation "
               f"{percent(record.get('module_lane_utilization'))} of "
               f"{record.get('vector_register_bits', 256)}-bit registers "
               f"({record.get('weighting', 'static')} block weights)")
    cpu = record.get("cpu") or {}
    if len(cpu.get("versions") or []) > 1:
        described = cpu.get("described", cpu.get("runs_here"))
        if described == cpu.get("runs_here"):
            out.append(f"versions for {', '.join(cpu['versions'])}; this CPU runs "
                       f"{cpu.get('runs_here')} (the one described here)")
        else:
            out.append(f"versions for {', '.join(cpu['versions'])}; described here: "
                       f"{described} (this CPU runs {cpu.get('runs_here')})")
    elif cpu.get("versions"):
        out.append(f"one version, for --target-cpu={cpu['versions'][0]}")
    fallback_lines: dict = {}
    for entry in function_fallbacks(record):
        fallback_lines.setdefault(entry["line"], []).append(entry)
    for function in record.get("functions", []):
        out.append("")
        status = "compiled" if function.get("compiled") else "FALLS BACK TO PYTHON"
        out.append(f"{function['name']}: {status}, coverage {percent(function.get('coverage'))},"
                   f" lanes {percent(function.get('lane_utilization'))}")
        stats = function.get("ir_stats", {})
        if stats.get("before"):
            before, after = stats["before"], stats.get("after", stats["before"])
            out.append(f"  IR: {before['instructions']} instructions, {before['basic_blocks']} "
                       f"blocks, {before['metadata_nodes']} metadata nodes"
                       + (f" -> {after['metadata_nodes']} after stripping"
                          if after != before else ""))
        for loop in function.get("parallel_loops", []):
            reductions = ", ".join(f"{r['name']} ({r['operator']})" for r in loop["reductions"])
            out.append(f"  parallel loop at line {loop['line']} "
                       f"({loop.get('kind', 'kiln.prange')}): "
                       f"{loop['schedule']}; reductions: {reductions or 'none'}; each thread "
                       "runs its blocks' iterations as the loop below says")
        for loop in function.get("sequential_loops", []):
            out.append(f"  loop at line {loop['line']} stays sequential (parallel=True): "
                       f"{loop['reason']}")
        for call in function.get("specialized_calls", []):
            out.append(f"  calls {call['signature']} at line {call['line']}: the "
                       f"specialization {call['symbol']}")
        for site in function.get("allocations", []):
            each = (f", once per iteration of the loop at line {site['in_loop']}"
                    if site.get("in_loop") else "")
            out.append(f"  makes a {site['type']} at line {site['line']}{each}: "
                       f"{site['storage']}; {site['reason']}")
        for loop in function.get("loops", []):
            by = "Kiln" if loop.get("vectorizer") == "kiln" else "LLVM"
            verdict = (f"vectorized by {by}, VF={loop['width']} x{loop['interleave']}"
                       + (f", {loop['tail']}" if loop.get("tail") else "")
                       if loop["vectorized"]
                       else "scalar loop: " + (loop.get("verdict") or "; ".join(loop["reasons"])
                                               or "no reason given"))
            out.append(f"  loop at line {loop['line']}: {verdict}")
            if remarks:
                for copy in loop.get("copies", []):
                    by = "Kiln" if copy.get("vectorizer") == "kiln" else "LLVM"
                    out.append(f"    {by}: {copy['message']}")
        for entry in record.get("fallbacks", []):
            if entry["function"] == function["name"]:
                out.append(f"  left to Python (line {entry['line']}): {entry['reason']}")
        for entry in record.get("findings", []):
            name, shown = FINDING_NAMES.get(entry["kind"], (entry["kind"], True))
            if entry["function"] == function["name"] and (shown or remarks):
                out.append(f"  {name} at line {entry['line']}: {entry['reason']}")
        if granularity == "function" and not source_lines:
            continue
        lines = {entry["line"]: entry for entry in function.get("lines", [])}
        first = function.get("line", 1)
        last = max([first] + list(lines) + [e["line"] for e in fallback_lines.get(first, [])])
        end = first
        for number in range(first, min(len(source_lines), last + 40) + 1):
            text = source_lines[number - 1]
            if number > first and text and not text[0].isspace() and not text.startswith("#"):
                break
            end = number
        while end > first and not source_lines[end - 1].strip():
            end -= 1
        for number in range(first, end + 1):
            text = source_lines[number - 1] if number <= len(source_lines) else ""
            entry = lines.get(number)
            coverage = entry["coverage"] if entry else None
            start, stop = colour(coverage, use_colour)
            badges = []
            if entry and entry.get("machine", {}).get("max_bits"):
                badges.append(f"{entry['machine']['max_bits']}-bit SIMD")
            for loop in function.get("parallel_loops", []):
                if loop["line"] == number:
                    badges.append("parallel")
            for loop in function.get("loops", []):
                if loop["line"] == number:
                    badges.append(f"VF={loop['width']}" if loop["vectorized"] else "scalar loop")
            if number in fallback_lines:
                badges.append("left to Python")
            for site in function.get("allocations", []):
                if site["line"] == number and site.get("in_loop"):
                    badges.append(f"makes a {site['kind']} per iteration")
            badge = ("  [" + ", ".join(badges) + "]") if badges else ""
            out.append(f"{start}{percent(coverage)} {number:4d} | {text}{stop}{badge}")
        if granularity in ("basic_block", "instruction"):
            out.append("  basic blocks (most frequent first):")
            for block in function.get("basic_blocks", [])[:20]:
                out.append(f"    {block['name']:<28} freq {block['frequency']:8.2f} coverage "
                           f"{percent(block['coverage'])} vector {block['vector_ops']:3d} "
                           f"scalar {block['scalar_ops']:3d} line {block['line']}")
        if granularity == "instruction":
            out.append("  instructions:")
            for instruction in function.get("instructions", [])[:200]:
                kind = "vector" if instruction["vector"] else "scalar"
                out.append(f"    line {instruction['line']:4d} {instruction['block']:<20} "
                           f"{instruction['opcode']:<28} {kind} x{instruction['elements']}")
    for entry in record.get("fallbacks", []):
        if entry["kind"] == "class":
            out.append(f"class {entry['function']} (line {entry['line']}): left to Python: "
                       f"{entry['reason']}")
    return "\n".join(out) + "\n"


def gate(record: dict, min_coverage: float | None, fail_on_fallback: bool) -> list:
    """Reasons the module falls short of a CI gate (empty when it passes)."""
    problems = []
    coverage = record.get("module_coverage")
    if min_coverage is not None and (coverage is None or coverage < min_coverage):
        problems.append(f"module coverage {percent(coverage).strip()} is below "
                        f"{min_coverage * 100:.0f}%")
        for function in record.get("functions", []):
            if function.get("coverage") is not None and function["coverage"] < min_coverage:
                problems.append(f"  {function['name']}: {percent(function['coverage']).strip()}")
    if fail_on_fallback:
        # The reasons print as diagnostics (`kiln report` does, from the
        # record's fallbacks); the gate names each function once.
        for name in dict.fromkeys(entry["function"] for entry in function_fallbacks(record)):
            problems.append(f"{name} falls back to Python")
    return problems


def function_fallbacks(record: dict) -> list:
    """The record's points where a function is left to Python."""
    return [entry for entry in record.get("fallbacks", []) if entry["kind"] == "function"]


def diff(before: dict, after: dict) -> str:
    out = [f"coverage of {after.get('module')}: {percent(before.get('module_coverage'))} -> "
           f"{percent(after.get('module_coverage'))}"]
    old = {f["name"]: f for f in before.get("functions", [])}
    for function in after.get("functions", []):
        previous = old.get(function["name"])
        if previous is None:
            out.append(f"  + {function['name']} (new)")
            continue
        a, b = previous.get("coverage"), function.get("coverage")
        trend = "same"
        if (a or 0) < (b or 0):
            trend = "better"
        elif (a or 0) > (b or 0):
            trend = "worse"
        out.append(f"  {function['name']}: {percent(a)} -> {percent(b)} ({trend})")
        old_lines = {line["line"]: line for line in previous.get("lines", [])}
        for line in function.get("lines", []):
            was = old_lines.get(line["line"], {}).get("coverage")
            if was != line["coverage"]:
                out.append(f"      line {line['line']}: {percent(was)} -> "
                           f"{percent(line['coverage'])}")
    return "\n".join(out) + "\n"
