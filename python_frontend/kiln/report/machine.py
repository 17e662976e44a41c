"""Machine-level confirmation: the final object's instructions per Python
line, classified packed (SIMD) or scalar, from `llvm-objdump -d -l`."""

from __future__ import annotations

import re
import subprocess

OBJDUMP = "/usr/lib/llvm-22/bin/llvm-objdump"
_LINE = re.compile(r"^; (.*):(\d+)$")
_INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$")
_FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
UNKNOWN_LINE = ("", 0)
_REGISTER_BITS = {"xmm": 128, "ymm": 256, "zmm": 512}
# Scalar SSE/AVX arithmetic ends in ss/sd; packed in ps/pd; integer SIMD
# starts with p/vp.
_SCALAR_FP = re.compile(r"^v?(add|sub|mul|div|sqrt|min|max|fn?m(add|sub)\d*|cmp\w*|ucomi|comi|"
                        r"round|cvt\w*)s[sd]$|^v?movs[sd]$")
_PACKED = re.compile(r"^v?(add|sub|mul|div|sqrt|min|max|and|andn|or|xor|fn?m(add|sub)\d*|"
                     r"cmp\w*|round|blendv?|perm\w*|shuf\w*|unpck\w*|broadcast\w*|movap|movup|"
                     r"maskmov|gather\w*|scatter\w*|cvt\w*)p[sd]$|^vp\w+|^p(add|sub|mul|cmp|max|"
                     r"min|and|or|xor|shuf)\w*$|^v?mov(dqa|dqu)\w*$|^vbroadcast\w+$|^vgather\w+$")


def classify(mnemonic: str, operands: str):
    """'vector' with its register width, 'scalar', 'call', or None (not
    arithmetic or data movement worth counting)."""
    if mnemonic.startswith("call"):
        return "call", 0
    widths = [bits for name, bits in _REGISTER_BITS.items() if f"%{name}" in operands]
    if _PACKED.match(mnemonic) and widths:
        return "vector", max(widths)
    if _SCALAR_FP.match(mnemonic):
        return "scalar", 0
    return None, 0


# kilnc's suffix of a version's functions in a multi-versioned object
# (`kernels_dot.x86_64_v3`; lib/Emitter/MultiVersion.cpp versionSuffix).
_VERSION_SUFFIX = re.compile(r"\.(x86_64_v[234])(?:\.|$)")


def machine_lines(shared_object: str, functions=None, version=None) -> dict:
    """{(file, line): {"vector": n, "scalar": n, "calls": [names], "max_bits": b}};
    instructions of no known line under UNKNOWN_LINE. In an object with
    several versions of each function, only `version`'s (`x86-64-v4`) count."""
    try:
        text = subprocess.run([OBJDUMP, "-d", "-l", "--no-show-raw-insn", shared_object],
                              capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    result: dict = {}
    location = None
    function = None
    for line in text.splitlines():
        header = _FUNCTION.match(line)
        if header:
            function = header.group(1)
            location = None
            continue
        where = _LINE.match(line)
        if where:
            location = (where.group(1), int(where.group(2)))
            continue
        instruction = _INSTRUCTION.match(line)
        if not instruction:
            continue
        if functions is not None and function not in functions:
            continue
        if version is not None and function:
            suffix = _VERSION_SUFFIX.search(function)
            if suffix and suffix.group(1) != version.replace("-", "_"):
                continue
        kind, bits = classify(instruction.group(1), instruction.group(2))
        if kind is None:
            continue
        # Code without a line (no debug info: --release) is kept under
        # UNKNOWN_LINE: it still tells which registers the code uses.
        entry = result.setdefault(location or UNKNOWN_LINE,
                                  {"vector": 0, "scalar": 0, "calls": [], "max_bits": 0})
        if kind == "call":
            target = re.search(r"<([^>@+]+)", instruction.group(2))
            if target:
                entry["calls"].append(target.group(1))
        else:
            entry[kind] += 1
            entry["max_bits"] = max(entry["max_bits"], bits)
    return result
