"""What the machine code of each kernel looks like, Kiln's beside the C
reference's: disassembled with llvm-objdump, counted per function. The
counts are static (the whole function, every version of a loop), so they
say which instructions exist — packed or scalar, how wide, whether FMAs
and libm calls appear — not how often they run."""

import os
import re
import shutil
import subprocess

from . import layout

FP_ARITHMETIC = re.compile(
    r"^v?(add|sub|mul|div|sqrt|max|min|fmadd\d*|fmsub\d*|fnmadd\d*|fnmsub\d*)(p|s)(d|s)$")
INTEGER_VECTOR_ADD = re.compile(r"^vpadd[bwdq]$")
REGISTER_WIDTH = (("zmm", 512), ("ymm", 256), ("xmm", 128))


def objdump():
    for candidate in ("llvm-objdump-22", "llvm-objdump", "objdump"):
        if shutil.which(candidate):
            return candidate
    return None


def disassemble(path):
    """{function: [(mnemonic, operands)]} for every function symbol in `path`."""
    tool = objdump()
    if tool is None or not os.path.exists(path):
        return {}
    text = subprocess.run([tool, "-d", "--no-show-raw-insn", path], capture_output=True,
                          text=True).stdout
    functions, current = {}, None
    for line in text.splitlines():
        header = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if header:
            current = functions.setdefault(header.group(1), [])
            continue
        instruction = re.match(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$", line)
        if instruction and current is not None:
            current.append((instruction.group(1), instruction.group(2)))
    return functions


def shape(instructions):
    packed, scalar, fma, widest, integer_vector = 0, 0, 0, 0, 0
    calls = set()
    for mnemonic, operands in instructions:
        match = FP_ARITHMETIC.match(mnemonic)
        if match:
            if match.group(2) == "p":
                packed += 1
                for register, width in REGISTER_WIDTH:
                    if register in operands:
                        widest = max(widest, width)
                        break
            else:
                scalar += 1
            if "fm" in match.group(1) or "fnm" in match.group(1):
                fma += 1
        elif INTEGER_VECTOR_ADD.match(mnemonic):
            integer_vector += 1
            for register, width in REGISTER_WIDTH:
                if register in operands:
                    widest = max(widest, width)
                    break
        elif mnemonic.startswith("call") or (mnemonic == "jmp" and "@plt" in operands):
            target = re.search(r"<([^>+@]+)", operands)
            if target:
                calls.add(target.group(1))
    return {"instructions": len(instructions), "packed_fp": packed, "scalar_fp": scalar,
            "fma": fma, "packed_int_add": integer_vector, "widest_vector_bits": widest,
            "calls": sorted(calls)}


def describe(build, kernels):
    kiln = disassemble(os.path.join(build.kiln, f"lib{layout.KILN_MODULE}.so"))
    strict = disassemble(build.objects.get("c_strict", ""))
    fast = disassemble(build.objects.get("c_fast", ""))
    exact = disassemble(build.objects.get("c_exact", ""))
    table = {}
    for kernel in kernels:
        table[kernel] = {
            "kiln": shape(kiln.get(f"{layout.KILN_MODULE}_{kernel}", [])),
            "c_strict": shape(strict.get(f"k_{kernel}", [])),
            "c_fast": shape(fast.get(f"k_{kernel}", [])),
            "c_exact": shape(exact.get(f"k_{kernel}", [])),
        }
    return table


def loop_verdicts(build):
    """Per function, each loop's verdict as `kiln build` records it in
    <mod>.kiln.json (LLVM's loop-vectorizer remarks at the Python line);
    empty when the build writes no such record."""
    import json
    path = os.path.join(build.kiln, f"{layout.KILN_MODULE}.kiln.json")
    try:
        with open(path, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        return {}
    verdicts = {}
    for function in record.get("functions", []):
        loops = []
        for loop in function.get("loops", []) or []:
            reasons = list(dict.fromkeys(loop.get("reasons") or []))
            if not reasons:
                reasons = list(dict.fromkeys(copy.get("message", "") for copy in
                                             loop.get("copies", []) if not copy.get("vectorized")))
            loops.append({"line": loop.get("line"), "vectorized": bool(loop.get("vectorized")),
                          "width": loop.get("width"), "interleave": loop.get("interleave"),
                          "reasons": [reason for reason in reasons if reason]})
        verdicts[function.get("name")] = {"loops": loops, "coverage": function.get("coverage")}
    return verdicts
