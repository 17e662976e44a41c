"""The report's numbers, computed once at build time into `<mod>.kiln.json`.

Inputs: the vector report of the optimized LLVM IR (kilnc --vector-report:
every instruction with its Python line, element count, element width,
vector or scalar, work or not, and static block frequency), LLVM's
vectorizer remarks (per-loop verdicts), the frontend's fallback records and
the final object's instructions (machine-level confirmation).

Metric (docs/report.md): for work op i with e_i elements of b_i bits in a
block of frequency w_i, coverage C(S) = sum_vector(e*w) / sum_all(e*w) and
lane utilisation U(S) = sum_vector(e*b*w) / sum_vector(n*R*w), R the width
of the widest vector register the code uses and n = ceil(e*b / R) the
registers an op of e*b bits occupies, so U <= 1 by construction.
"""

from __future__ import annotations

import ast
import json
import math
import os

from .machine import machine_lines
from ..frontend.kernels import KERNEL_DIRECTORY
from ..mlir.values import symbol_name

SCHEMA = "kiln-report/1"


REMAINDER_MARKERS = ("scalar.ph", ".epil", ".prol")


def effective_frequency(instruction) -> float:
    """Static block frequency, except in a vectorizer's remainder loop: it
    runs fewer than VF x UF iterations per call whatever the array size,
    while static estimates give it as many as the main loop. The static
    estimate assumes large arrays; `--profile` measures instead."""
    frequency = instruction["frequency"]
    if any(marker in instruction.get("block", "") for marker in REMAINDER_MARKERS):
        return min(frequency, 1.0)
    return frequency


class Tally:
    __slots__ = ("vector_work", "all_work", "vector_bits", "register_bits", "vector_ops",
                 "scalar_ops")

    def __init__(self):
        self.vector_work = self.all_work = self.vector_bits = self.register_bits = 0.0
        self.vector_ops = self.scalar_ops = 0

    def add(self, instruction, register_bits):
        weight = effective_frequency(instruction) * instruction["elements"]
        self.all_work += weight
        if instruction["vector"]:
            self.vector_work += weight
            self.vector_bits += weight * instruction["element_bits"]
            # An IR vector wider than a register (<16 x double> with 512-bit
            # registers) fills several: its lanes are counted against all.
            bits = instruction["elements"] * instruction["element_bits"]
            registers = max(1, math.ceil(bits / register_bits))
            self.register_bits += effective_frequency(instruction) * registers * register_bits
            self.vector_ops += 1
        else:
            self.scalar_ops += 1

    def metrics(self) -> dict:
        return {
            "coverage": round(self.vector_work / self.all_work, 4) if self.all_work else None,
            "lane_utilization": round(self.vector_bits / self.register_bits, 4)
            if self.register_bits else None,
            "vector_ops": self.vector_ops, "scalar_ops": self.scalar_ops,
        }


def python_ranges(context) -> list:
    return [(node.name, node.lineno, node.end_lineno) for node in context.tree.body
            if isinstance(node, ast.FunctionDef)]


def loop_ranges(context, name) -> list:
    node = context.module_functions()[name]
    return [(loop.lineno, loop.end_lineno) for loop in ast.walk(node)
            if isinstance(loop, (ast.For, ast.While))]


def owner(ranges, line):
    for name, first, last in ranges:
        if first <= line <= last:
            return name
    return None


def register_width(report: dict, machine: dict) -> int:
    """R: the widest vector register the compiled code uses. The vector
    report gives LLVM's preferred width for the target (256 bits on many
    AVX-512 CPUs, which prefer ymm), while kiln-vectorize sizes its loops
    for the widest registers the target has (kiln.vector_bits: 512 with
    AVX-512): the machine code says which were used."""
    widest_in_code = max((entry.get("max_bits", 0) for entry in machine.values()), default=0)
    return max(report.get("vector_register_bits") or 0, widest_in_code) or 256


REMAINDER_BLOCKS = ("scalar.ph", "vec.epilog", "middle.block")
ALIAS_CHECK_BLOCKS = ("vector.memcheck", "vector.scevcheck")


def enrich(record: dict, context, vector_report_path: str | None, shared_object: str | None):
    """Adds coverage, lane utilisation, lines, blocks, instructions, loop
    coverage and the fallback points found in the code to `record`."""
    report = {}
    if vector_report_path and os.path.exists(vector_report_path):
        with open(vector_report_path, encoding="utf-8") as handle:
            report = json.load(handle)
    cpu = record.get("cpu") or {}
    described = cpu.get("described", cpu.get("runs_here"))
    machine = machine_lines(shared_object, version=described) if shared_object else {}
    register_bits = register_width(report, machine)
    record["vector_register_bits"] = register_bits
    record["weighting"] = report.get("weighting", "static")
    ranges = python_ranges(context)
    source_name = os.path.basename(context.path)
    at_kernel_call = kernel_call_lines(record, context)
    per_function: dict = {}
    for llvm_function in report.get("functions", []):
        blocks = {b["name"]: b for b in llvm_function.get("basic_blocks", [])}
        for instruction in llvm_function.get("instructions", []):
            if not instruction.get("work"):
                continue
            if not from_source(instruction.get("file"), context.path):
                # Kiln's kernels (np.linalg.solve) count at the user's call;
                # other files' code (inlined runtime code) nowhere.
                line = at_kernel_call(llvm_function["name"], instruction.get("file"))
                if line is None:
                    continue
                instruction = dict(instruction, file=context.path, line=line)
            name = owner(ranges, instruction["line"])
            if name is None:
                continue
            data = per_function.setdefault(name, {"total": Tally(), "lines": {}, "blocks": {},
                                                  "instructions": [], "scalarized": []})
            data["total"].add(instruction, register_bits)
            data["lines"].setdefault(instruction["line"], Tally()).add(instruction,
                                                                       register_bits)
            block_key = (llvm_function["name"], instruction["block"])
            data["blocks"].setdefault(block_key, Tally()).add(instruction, register_bits)
            data["instructions"].append(dict(instruction, function=llvm_function["name"]))
        for call in llvm_function.get("scalarized_calls", []):
            name = owner(ranges, call["line"])
            if name:
                per_function.setdefault(name, {"total": Tally(), "lines": {}, "blocks": {},
                                               "instructions": [], "scalarized": []})
                per_function[name]["scalarized"].append(call)
        for name, data in per_function.items():
            data.setdefault("block_info", {}).update(
                {(llvm_function["name"], b): info for b, info in blocks.items()})

    extra_fallbacks = []
    for function in record["functions"]:
        name = function["name"]
        data = per_function.get(name)
        remarks_by_line: dict = {}
        for loop in function.get("loops", []):
            for copy in loop.get("copies", []):
                remarks_by_line.setdefault(loop["line"], []).append(copy["message"])
        if not data:
            function.update({"coverage": None, "lane_utilization": None, "basic_blocks": [],
                             "lines": [], "instructions": []})
            continue
        function.update(data["total"].metrics())
        lines = []
        for line, tally in sorted(data["lines"].items()):
            entry = {"line": line, **tally.metrics(), "remarks": remarks_by_line.get(line, [])}
            native = machine.get((context.path, line)) or machine.get((source_name, line))
            if native:
                entry["machine"] = native
            lines.append(entry)
        function["lines"] = lines
        blocks = []
        for (llvm_function, block), tally in data["blocks"].items():
            info = data.get("block_info", {}).get((llvm_function, block), {})
            # the block's first Python line (LLVM's first line of the block
            # may be of inlined code of another file)
            first_line = next((i["line"] for i in data["instructions"]
                               if i["function"] == llvm_function and i["block"] == block),
                              info.get("line", 0))
            info = dict(info, line=first_line)
            blocks.append({"function": llvm_function, "name": block,
                           "line": info.get("line", 0), "frequency": info.get("frequency", 0.0),
                           "classes": info.get("classes", {}), **tally.metrics()})
            if any(marker in block for marker in REMAINDER_BLOCKS) and tally.scalar_ops:
                extra_fallbacks.append(fallback("remainder-loop", name, context.path,
                                                info.get("line", 0), 1,
                                                f"scalar remainder/epilogue loop (block {block})"))
            if any(marker in block for marker in ALIAS_CHECK_BLOCKS):
                extra_fallbacks.append(fallback(
                    "alias-check-loop", name, context.path, info.get("line", 0), 1,
                    f"a runtime check (block {block}) picks a scalar loop when arrays may "
                    "overlap or strides are not 1"))
        function["basic_blocks"] = sorted(blocks, key=lambda b: (-b["frequency"], b["name"]))
        function["instructions"] = data["instructions"]
        loops = loop_ranges(context, name)
        for loop in function.get("loops", []):
            tally = Tally()
            for instruction in data["instructions"]:
                if loop["line"] <= instruction["line"] <= next(
                        (end for start, end in loops if start == loop["line"]), loop["line"]):
                    tally.add(instruction, register_bits)
            loop.update({k: v for k, v in tally.metrics().items()
                         if k in ("coverage", "lane_utilization")})
            for copy in loop.get("copies", []):
                if not copy["vectorized"]:
                    extra_fallbacks.append(fallback("scalar-loop", name, context.path,
                                                    loop["line"], loop["column"],
                                                    copy["message"]))
        for call in data["scalarized"]:
            extra_fallbacks.append(fallback(
                "scalarized-math", name, context.path, call["line"], 1,
                f"{call['callee']} is lowered to {call['elements']} scalar calls"))
        for entry in lines:
            in_loop = any(start <= entry["line"] <= end for start, end in loops)
            if in_loop and entry["scalar_ops"] and entry["coverage"] is not None and \
                    entry["coverage"] < 0.5:
                extra_fallbacks.append(fallback("scalar-work", name, context.path,
                                                entry["line"], 1,
                                                f"{entry['scalar_ops']} scalar work ops in a loop"))
    # Scalar code inside compiled functions is a finding, not a fallback (a
    # fallback is a function left to Python): `findings`, beside the loops'
    # verdicts.
    seen = set()
    record["findings"] = []
    for entry in extra_fallbacks:
        key = (entry["kind"], entry["function"], entry["line"], entry["reason"])
        if key not in seen:
            seen.add(key)
            record["findings"].append(entry)
    compiled = [f for f in record["functions"] if f.get("coverage") is not None]
    total = Tally()
    for name, data in per_function.items():
        if any(f["name"] == name for f in compiled):
            for instruction in data["instructions"]:
                total.add(instruction, register_bits)
    record["module_coverage"] = total.metrics()["coverage"]
    record["module_lane_utilization"] = total.metrics()["lane_utilization"]
    return record


def kernel_call_lines(record, context):
    """(LLVM function, file) -> the user's line that an instruction of
    Kiln's kernels (frontend/kernels) counts at: the first call reaching
    the kernel function it is in, or, inlined into an exported function,
    that function's first kernel call. None for other files."""
    first_call = {}
    in_function = {}
    for function in record.get("functions", []):
        calls = function.get("kernel_calls") or []
        if calls:
            in_function[symbol_name(context, function["name"])] = calls[0]["line"]
        for call in calls:
            for symbol in call["kernels"]:
                line = first_call.get(symbol)
                first_call[symbol] = call["line"] if line is None else min(line, call["line"])

    def line_of(llvm_function, file):
        if not file or os.path.dirname(os.path.abspath(file)) != KERNEL_DIRECTORY:
            return None
        return first_call.get(llvm_function, in_function.get(llvm_function))
    return line_of


def from_source(file, source_path) -> bool:
    """Whether an instruction's line is a line of the Python source (records
    of an older plugin have no file: their lines are taken as the source's)."""
    return not file or file == source_path or os.path.basename(file) == os.path.basename(
        source_path) and not os.path.isabs(file)


def fallback(kind, function, file, line, column, reason) -> dict:
    """A fallback (`kind` "function") or a finding (the scalar kinds)."""
    return {"kind": kind, "function": function, "file": file, "line": line, "column": column,
            "reason": reason}
