"""LLVM's vectorizer remarks, read back and turned into a verdict per
Python loop for the build record (`<mod>.kiln.json`).

kilnc writes the remarks of the loop and SLP vectorizers in LLVM's YAML
remark format (the one `-fsave-optimization-record` writes); this reads the
subset of YAML those files use, so no YAML library is needed.
"""

from __future__ import annotations

import ast
import re

from .fastmath_gain import gain_note

_FIELD = re.compile(r"^(\w+):\s*(.*)$")
_ARG = re.compile(r"^\s+- (\w+):\s*(.*)$")
_LOC = re.compile(r"\{\s*File: (.*?),\s*Line: (\d+),\s*Column: (\d+)\s*\}")


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def parse_remarks(path: str) -> list:
    remarks, current = [], None
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    # The YAML writer wraps a long flow mapping ({ File: ..., Line: ... })
    # onto continuation lines; rejoin them.
    joined = []
    for line in lines:
        if joined and joined[-1].count("{") > joined[-1].count("}"):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    for line in joined:
        if line.startswith("--- !"):
            current = {"kind": line[5:].strip(), "args": [], "line": 0, "column": 0}
            remarks.append(current)
            continue
        if current is None or line.startswith("..."):
            continue
        argument = _ARG.match(line)
        if argument:
            key, value = argument.groups()
            if key == "DebugLoc":
                continue
            current["args"].append((key, _unquote(value)))
            continue
        field = _FIELD.match(line)
        if not field:
            continue
        key, value = field.groups()
        if key == "DebugLoc":
            location = _LOC.search(value)
            if location:
                current["file"] = location.group(1)
                current["line"] = int(location.group(2))
                current["column"] = int(location.group(3))
        elif key in ("Pass", "Name", "Function"):
            current[key.lower()] = _unquote(value)
    for remark in remarks:
        # LLVM interleaves text and values ("width: ", 4, ")"); MLIR's
        # engine keeps the text in Remark/Reason and metrics apart.
        if remark.get("pass") == "kiln-vectorize":
            remark["message"] = "; ".join(value for key, value in remark["args"]
                                          if key in ("Remark", "Reason"))
        else:
            remark["message"] = "".join(value for _, value in remark["args"])
        remark["values"] = {k: v for k, v in remark["args"] if k != "String"}
        del remark["args"]
    return remarks


def with_python_names(context, remarks) -> list:
    """kiln-vectorize's remarks name the MLIR function, `<mod>_<name>`
    (mlir/values.symbol_name): give them the Python name."""
    symbols = {f"{context.module_name}_{node.name}": node.name for node in context.tree.body
               if isinstance(node, ast.FunctionDef)}
    # A recursive function's body is `<mod>_<name>.recursive` (values.recursive_body_symbol).
    symbols.update({f"{symbol}.recursive": name for symbol, name in list(symbols.items())})
    return [dict(r, function=symbols[r["function"]]) if r.get("function") in symbols else r
            for r in remarks]


def function_ranges(context) -> list:
    return [(node.name, node.lineno, node.end_lineno) for node in context.tree.body
            if isinstance(node, ast.FunctionDef)]


def owner(ranges, line):
    for name, first, last in ranges:
        if first <= line <= last:
            return name
    return None


def python_loops(context) -> list:
    """(function, first line, last line, column) of every for/while loop."""
    loops = []
    for name, _, _ in function_ranges(context):
        for node in ast.walk(context.module_functions()[name]):
            if isinstance(node, (ast.For, ast.While)):
                loops.append((name, node.lineno, node.end_lineno, node.col_offset + 1))
    return loops


def allocation_fills(context) -> set:
    """(line, column) of every np.zeros/ones/full/... call: the loop that
    fills a new array is Kiln's, not a loop the user wrote, and is not
    reported as one (its work still counts on its line)."""
    fills = set()
    for name, _, _ in function_ranges(context):
        for node in ast.walk(context.module_functions()[name]):
            if isinstance(node, ast.Call):
                qualified = context.qualified_name(node.func)
                if qualified and qualified[0] == "numpy" and qualified[1] in ALLOCATION_FILLS:
                    fills.add((node.lineno, node.col_offset + 1))
    return fills


ALLOCATION_FILLS = {"zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "empty",
                    "empty_like", "eye", "identity"}


def statement_loops(remarks, source_loops) -> dict:
    """line -> column of the array statements Kiln made loops for (its
    remarks sit at the statement, `z[i] = z[i]**2 + c[i]`, not at a `for`
    or `while`). Such a loop inside a Python loop is a loop of its own, with
    its own verdict: not the Python loop's (which holds it)."""
    headers = {loop[1] for loop in source_loops}
    lines: dict = {}
    for remark in remarks:
        if remark.get("pass") == "kiln-vectorize" and remark["line"] not in headers:
            lines.setdefault(remark["line"], remark["column"])
    return lines


def loop_key(function, remark, source_loops, statements):
    """(function, line, column) of the loop a remark is about."""
    if remark["line"] in statements:
        return function, remark["line"], statements[remark["line"]]
    source_loop = enclosing_loop(source_loops, remark["line"])
    if source_loop:
        return function, source_loop[1], source_loop[3]
    return function, remark["line"], remark["column"]


def enclosing_loop(loops, line):
    """The innermost Python loop containing `line`: LLVM places a loop's
    remark at some instruction of it, not always at the loop header."""
    best = None
    for loop in loops:
        if loop[1] <= line <= loop[2] and (best is None or loop[1] >= best[1]):
            best = loop
    return best


# LLVM's loop-vectorizer reasons in the user's terms, each with its fix:
# (a fragment of LLVM's message, the verdict).
LLVM_REASONS = (
    ("cannot prove it is safe to reorder floating-point",
     "a float reduction keeps CPython's order of operations: add fastmath=True to let it "
     "vectorize (the last bits of the result may change)"),
    ("could not be identified as reduction",
     "a value computed in the loop is used after it, and is not a sum, product, min or max "
     "LLVM recognizes"),
    ("loop control flow is not understood",
     "the loop can exit early (`break`, `return`, an exception) or its trip count is not "
     "known on entry"),
    ("call instruction cannot be vectorized",
     "it calls a function that has no vector version"),
    ("cannot identify array bounds",
     "the bounds of its array accesses cannot be computed before the loop (indirect or "
     "data-dependent indices)"),
    ("unsafe dependent memory operations",
     "an iteration reads what an earlier one wrote (a loop-carried dependence through an "
     "array)"),
    ("vectorization is not beneficial",
     "vectorizing would not pay off here (LLVM's cost model; too little work per iteration)"),
    ("loop not vectorized: instruction cannot be vectorized",
     "an operation in the loop has no vector form"),
)


def user_terms(reason: str) -> str:
    """An LLVM vectorizer reason as the report states it to the user."""
    for fragment, verdict in LLVM_REASONS:
        if fragment in reason:
            return verdict
    return reason


def loop_verdict(loop) -> str | None:
    """The one reason a loop stays scalar, in the user's terms: Kiln's own
    (kiln-vectorize speaks the user's language), else LLVM's translated."""
    if loop["vectorized"]:
        return None
    if loop.get("kiln_reason"):
        return loop["kiln_reason"]
    reasons = [r for r in loop["reasons"] if r != "loop not vectorized"] or loop["reasons"]
    return user_terms(reasons[0]) if reasons else "the vectorizer gave no reason"


def loop_verdicts(context, remarks) -> dict:
    """function name -> loops, each {line, column, vectorized, width,
    interleave, copies, reasons}: one entry per Python loop, merging the
    copies LLVM saw (Kiln's checked and unchecked versions, epilogues)."""
    ranges = function_ranges(context)
    source_loops = python_loops(context)
    fills = allocation_fills(context)
    remarks = [r for r in with_python_names(context, remarks)
               if (r["line"], r["column"]) not in fills]
    statements = statement_loops(remarks, source_loops)
    loops: dict = {}
    pending = []  # analysis remarks precede the verdict of their loop
    for remark in remarks:
        if remark.get("pass") != "loop-vectorize":
            continue
        if remark["kind"] == "Analysis":
            pending.append(remark["message"])
            continue
        function = owner(ranges, remark["line"])
        if function is None:
            pending = []
            continue
        key = loop_key(function, remark, source_loops, statements)
        _, line, column = key
        loop = loops.setdefault(key, {"line": line, "column": column,
                                      "vectorized": False, "vectorizer": "llvm", "width": 1,
                                      "interleave": 1, "copies": [], "reasons": []})
        if remark["kind"] == "Passed":
            width = int(remark["values"].get("VectorizationFactor", 1))
            interleave = int(remark["values"].get("InterleaveCount", 1))
            loop["vectorized"] = loop["vectorized"] or width > 1
            loop["width"] = max(loop["width"], width)
            loop["interleave"] = max(loop["interleave"], interleave)
            loop["copies"].append({"vectorized": width > 1, "message": remark["message"]})
        else:
            reasons = [r for r in pending if r != "loop not vectorized"] or [remark["message"]]
            loop["copies"].append({"vectorized": False, "message": "; ".join(reasons)})
            for reason in reasons:
                if reason not in loop["reasons"]:
                    loop["reasons"].append(reason)
            specific = [r for r in loop["reasons"] if r != "loop not vectorized"]
            if specific:
                loop["reasons"] = specific
        pending = []
    merge_kiln_verdicts(loops, remarks, ranges, source_loops, statements)
    result: dict = {}
    for (function, _, _), loop in sorted(loops.items(), key=lambda item: item[0][1:]):
        loop["verdict"] = loop_verdict(loop)
        result.setdefault(function, []).append(loop)
    return result


def add_fastmath_gain(verdicts, target_cpu: str) -> None:
    """Loops told to add fastmath=True get the gain measured on this CPU
    (report/fastmath_gain.py) appended to their verdict."""
    advised = [loop for loops in verdicts.values() for loop in loops
               if loop.get("verdict") and "fastmath=True" in loop["verdict"]]
    if not advised:
        return
    note = gain_note(target_cpu)
    for loop in advised:
        loop["verdict"] += note


def merge_kiln_verdicts(loops, remarks, ranges, source_loops, statements) -> None:
    """kiln-vectorize gives each loop one verdict at the loop's own location.
    A loop Kiln vectorized is recorded as such; its LLVM copies are then
    Kiln's vector loop and tail (LLVM rightly leaves those alone) and the
    scalar version run for strided or overlapping arrays. A loop Kiln
    refused keeps LLVM's verdict, with Kiln's reason first. An array
    statement's loop nest shares the statement's location: its vectorized
    innermost loop is the verdict, not its outer loops."""
    verdicts = [r for r in remarks
                if r.get("pass") == "kiln-vectorize" and r["kind"] in ("Passed", "Missed")]
    for remark in sorted(verdicts, key=lambda r: r["kind"] != "Passed"):
        function = remark.get("function") or owner(ranges, remark["line"])
        key = loop_key(function, remark, source_loops, statements)
        _, line, column = key
        loop = loops.setdefault(key, {
            "line": line, "column": column, "vectorized": False, "vectorizer": "llvm",
            "width": 1, "interleave": 1, "copies": [], "reasons": []})
        values = remark["values"]
        if remark["kind"] == "Passed":
            llvm_vectorized_fallback = any(c["vectorized"] for c in loop["copies"])
            loop.update({"vectorized": True, "vectorizer": "kiln",
                         "width": int(values.get("VectorizationFactor", 1)),
                         "interleave": int(values.get("InterleaveCount", 1)),
                         "tail": values.get("Tail", ""), "reasons": []})
            copies = [{"vectorized": True, "vectorizer": "kiln", "message": remark["message"]}]
            if "runtime checks" in remark["message"]:
                copies.append({"vectorized": llvm_vectorized_fallback,
                               "vectorizer": "llvm",
                               "message": "scalar version for strided or overlapping arrays"
                                          + (" (vectorized by LLVM)"
                                             if llvm_vectorized_fallback else "")})
            loop["copies"] = copies
        else:
            reason = values.get("Reason", remark["message"])
            reason = reason[len("not vectorized: "):] if reason.startswith(
                "not vectorized: ") else reason
            if loop["vectorizer"] == "kiln" and reason.startswith("outer loop"):
                continue
            loop["kiln_reason"] = reason
            loop["reasons"] = [reason] + [r for r in loop["reasons"] if r != reason]
            if loop["vectorized"]:
                loop["vectorizer"] = "llvm"


def require_vectorized(context, signatures, verdicts, target_cpu: str = "native") -> list:
    """Diagnostics for loops of `vectorize="require"` functions that stay
    scalar; advice to add fastmath=True carries its measured gain."""
    from ..errors import Diagnostic

    problems = []
    for signature in signatures:
        options = context.export_options(context.module_functions()[signature.name]) or {}
        if options.get("vectorize") != "require":
            continue
        for loop in verdicts.get(signature.name, []):
            if not loop["vectorized"]:
                reason = loop.get("verdict") or loop_verdict(loop)
                if "fastmath=True" in reason:
                    reason += gain_note(target_cpu)
                problems.append(Diagnostic(context.path, loop["line"], loop["column"],
                                           f"loop in `{signature.name}` stays scalar "
                                           f"(vectorize=\"require\"): {reason}",
                                           signature.name))
    return problems
