"""Lane utilisation is measured against the registers the code really uses
(512-bit zmm when Kiln vectorizes for AVX-512, even on CPUs whose LLVM tuning
prefers 256 bits) and never exceeds 100 %."""

import json
import os
import subprocess

import pytest

from conftest import REPO, kiln_build

from kiln import cpu_levels
from kiln.report.model import Tally

KERNELS = os.path.join(REPO, "examples", "kernels.py")
OBJDUMP = "/usr/lib/llvm-22/bin/llvm-objdump"


def widest_register(shared_object) -> int:
    text = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", shared_object],
                          capture_output=True, text=True, check=True).stdout
    return max(bits for name, bits in (("%xmm", 128), ("%ymm", 256), ("%zmm", 512), ("", 0))
               if name in text)


def utilisations(record):
    """Every lane utilisation in the record, with where it is."""
    yield "module", record["module_lane_utilization"]
    for function in record["functions"]:
        yield function["name"], function.get("lane_utilization")
        for kind in ("lines", "basic_blocks", "loops"):
            for entry in function.get(kind, []):
                yield f"{function['name']} {kind} {entry.get('line')}", \
                    entry.get("lane_utilization")


AVX512 = pytest.mark.skipif(cpu_levels.detected_level() < 4,
                            reason="needs AVX-512 (x86-64-v4, asked of CPUID): native code "
                                   "uses zmm registers only there")


@pytest.mark.parametrize("target_cpu, register_bits", [
    pytest.param("native", 512, marks=AVX512),
    # An AVX-512 CPU whose LLVM tuning prefers 256-bit vectors: the
    # vector report says 256, kiln-vectorize still emits zmm code.
    ("x86-64-v4", 512),
    ("x86-64-v3", 256),   # AVX2: ymm at most
])
def test_lane_utilisation_is_against_the_registers_used(tmp_path, target_cpu, register_bits):
    result = kiln_build(KERNELS, tmp_path, f"--target-cpu={target_cpu}")
    assert result.returncode == 0, result.stderr
    with open(tmp_path / "kernels.kiln.json", encoding="utf-8") as handle:
        record = json.load(handle)
    assert widest_register(str(tmp_path / "libkernels.so")) == register_bits
    assert record["vector_register_bits"] == register_bits
    measured = [(where, value) for where, value in utilisations(record) if value is not None]
    assert measured
    assert all(0 <= value <= 1 for _, value in measured), \
        [entry for entry in measured if entry[1] > 1]
    # saxpy's loop fills its registers: a wrong R shows as ~50 % or ~200 %.
    saxpy = next(f for f in record["functions"] if f["name"] == "saxpy")
    assert saxpy["lane_utilization"] > 0.9


def test_an_op_wider_than_a_register_fills_several():
    tally = Tally()
    # <16 x double> with 512-bit registers: two full zmm, not 200 %.
    tally.add({"frequency": 1.0, "elements": 16, "element_bits": 64, "vector": True}, 512)
    assert tally.metrics()["lane_utilization"] == 1.0
    # <2 x double> in a 512-bit register: a quarter of its lanes.
    tally = Tally()
    tally.add({"frequency": 1.0, "elements": 2, "element_bits": 64, "vector": True}, 512)
    assert tally.metrics()["lane_utilization"] == 0.25
