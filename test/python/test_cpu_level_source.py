"""One source for the CPU level (issue 27): the CPUID code the artifacts run
(runtime/kiln_dispatch.c). The build record, the report, the cache's CPU key
and the tests ask it through libkiln_cpu.so; nothing reads /proc/cpuinfo,
whose flag list kernels and hypervisors edit (an AVX-512 EPYC's omits
`abm`). Checked here: no Python code of a build, a report or a first call
opens /proc/cpuinfo (an audit hook); under an edited /proc/cpuinfo (no abm,
no AVX-512 flags, bind-mounted in a private mount namespace) the record,
the report and `_kiln_cpu_version()` still name the version that runs,
and test_multiversion.py passes; and the report describes one version
throughout (register width, per-line SIMD tags), the one that runs or the
one `--cpu` asks for."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, kiln_build
from kiln import cpu_levels

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(REPO, "examples", "kernels.py")
ENV = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
REGISTER_BITS = {"x86-64-v2": 128, "x86-64-v3": 256, "x86-64-v4": 512}

AGREEMENT = r"""
import json, os, subprocess, sys
sys.path.insert(0, sys.argv[2])
import kernels
from kiln import cpu_levels
record = json.load(open(os.path.join(sys.argv[2], "kernels.kiln.json")))
report = subprocess.run([sys.executable, "-m", "kiln", "report",
                         os.path.join(sys.argv[2], "kernels.kiln.json")],
                        capture_output=True, text=True, check=True).stdout
running = kernels._kiln_native._kiln_cpu_version()
print(json.dumps({"artifact": running, "record": record["cpu"]["runs_here"],
                  "described": record["cpu"]["described"],
                  "python": cpu_levels.running_version(list(cpu_levels.PORTABLE)),
                  "report": f"this CPU runs {running} (the one described here)" in report}))
"""


def agreement(out, level=None):
    env = {k: v for k, v in ENV.items() if k != "KILN_CPU_LEVEL"}
    if level:
        env["KILN_CPU_LEVEL"] = level
    result = subprocess.run([sys.executable, "-c", AGREEMENT, "", str(out)],
                            capture_output=True, text=True, env=env, cwd=HERE)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


NO_CPUINFO = r"""
import os, sys
def refuse(event, args):
    if event == "open" and args and str(args[0]) == "/proc/cpuinfo":
        raise RuntimeError("/proc/cpuinfo was opened")
sys.addaudithook(refuse)
import numpy as np
from kiln import cpu_levels
from kiln.compiler.compiler import BuildOptions, build
out = sys.argv[2]
build(sys.argv[1], out, BuildOptions(target_cpu="portable"))
cpu_levels.host_level(), cpu_levels.detected_level(), cpu_levels.signature()
from kiln.cli import main
assert main(["report", os.path.join(out, "kernels.kiln.json")]) == 0
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import kernels           # the source: compiled on its first call, through the cache
assert kernels.dot(np.arange(3.0), np.ones(3)) == 3.0
assert kernels.dot.is_compiled
print("ok")
"""


def test_nothing_reads_proc_cpuinfo(tmp_path):
    """A portable build, its report and a compile-on-first-call, with an
    audit hook that fails any open of /proc/cpuinfo."""
    shutil.copy(KERNELS, tmp_path / "kernels.py")
    env = dict(ENV, KILN_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", NO_CPUINFO, str(tmp_path / "kernels.py"),
                             str(tmp_path / "out")], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


@pytest.fixture(scope="module")
def portable(tmp_path_factory):
    root = tmp_path_factory.mktemp("cpu_source")
    shutil.copy(KERNELS, root / "kernels.py")
    result = kiln_build(str(root / "kernels.py"), root / "out", "--target-cpu=portable")
    assert result.returncode == 0, result.stderr
    return root / "out"


@pytest.mark.parametrize("level", [None, "v2", "v3"])
def test_record_report_and_artifact_name_one_version(portable, level):
    """Under KILN_CPU_LEVEL the artifact runs a lower version: the record is
    the build's, the running Python, the report and the artifact agree on
    the level this process runs."""
    found = agreement(portable, level)
    want = f"x86-64-v{min(int(level[1]) if level else 4, cpu_levels.detected_level())}"
    assert found["artifact"] == found["python"] == want
    assert found["report"] or level, found
    if level is None:
        assert found["record"] == found["described"] == want


@pytest.mark.parametrize("level", ["v2", "v3"])
def test_a_build_under_a_forced_level_describes_that_level(tmp_path, level):
    """`KILN_CPU_LEVEL=v2 kiln build` (portable): the record's runs_here and
    described, the report's line, its register width and the artifact run
    under the same variable all name x86-64-v2."""
    want = f"x86-64-v{min(int(level[1]), cpu_levels.detected_level())}"
    shutil.copy(KERNELS, tmp_path / "kernels.py")
    env = dict(ENV, KILN_CPU_LEVEL=level)
    result = subprocess.run([sys.executable, "-m", "kiln", "build", str(tmp_path / "kernels.py"),
                             "-o", str(tmp_path / "out"), "--target-cpu=portable"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    found = agreement(tmp_path / "out", level)
    assert found["artifact"] == found["record"] == found["described"] == found["python"] == want
    assert found["report"], found
    with open(tmp_path / "out" / "kernels.kiln.json", encoding="utf-8") as handle:
        assert json.load(handle)["vector_register_bits"] == REGISTER_BITS[want]


@pytest.mark.parametrize("cpu", ["x86-64-v2", "x86-64-v3", "x86-64-v4"])
def test_report_describes_one_version(portable, tmp_path, cpu):
    """The header's register width and saxpy's per-line widths are those of
    one version: the one this CPU runs, or the one `--cpu` names (built again
    and described for it)."""
    described = cpu_levels.running_version(list(cpu_levels.PORTABLE))
    if cpu == described:
        with open(portable / "kernels.kiln.json", encoding="utf-8") as handle:
            record = json.load(handle)
    else:
        page = tmp_path / "page.html"
        result = subprocess.run([sys.executable, "-m", "kiln", "report", "--cpu", cpu,
                                 str(portable / "kernels.kiln.json"), "--html", str(page)],
                                capture_output=True, text=True, env=ENV)
        assert result.returncode == 0, result.stderr
        assert f"described here: {cpu} (this CPU runs {described})" in result.stdout
        header = result.stdout.splitlines()[1]
        assert f"of {REGISTER_BITS[cpu]}-bit registers" in header, header
        assert f"[{REGISTER_BITS[cpu]}-bit SIMD]" in result.stdout
        return
    assert record["cpu"]["described"] == cpu
    assert record["vector_register_bits"] == REGISTER_BITS[cpu]


def test_report_cpu_must_be_a_version_of_the_build(portable):
    result = subprocess.run([sys.executable, "-m", "kiln", "report", "--cpu", "haswell",
                             str(portable / "kernels.kiln.json")],
                            capture_output=True, text=True, env=ENV)
    assert result.returncode == 2, result.stderr
    assert "--cpu haswell: the build of" in result.stderr
    assert "versions for x86-64-v2, x86-64-v3, x86-64-v4" in result.stderr


def can_bind_mount():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c",
                            "mount --bind /proc/cpuinfo /proc/cpuinfo"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not can_bind_mount(),
                    reason="needs root and `unshare -m` to bind-mount an edited /proc/cpuinfo")
def test_edited_proc_cpuinfo_changes_nothing(portable, tmp_path):
    """/proc/cpuinfo without `abm` and the AVX-512 flags (as on an AMD EPYC
    seen here) while CPUID has them: the record, the report and the
    artifact still agree, and test_multiversion.py passes."""
    with open("/proc/cpuinfo", encoding="utf-8") as handle:
        text = handle.read()
    edited_lines = []
    for line in text.splitlines():
        if line.startswith("flags"):
            name, flags = line.split(":", 1)
            kept = [f for f in flags.split() if f != "abm" and not f.startswith("avx512")]
            line = f"{name}: {' '.join(kept)}"
        edited_lines.append(line)
    edited = tmp_path / "cpuinfo"
    edited.write_text("\n".join(edited_lines) + "\n")
    script = tmp_path / "inside.sh"
    script.write_text(
        "set -e\n"
        f"mount --bind {edited} /proc/cpuinfo\n"
        "! grep -qw abm /proc/cpuinfo\n"
        f"{sys.executable} -c '{AGREEMENT}' '' {portable}\n"
        f"cd {HERE} && {sys.executable} -m pytest -q -p no:cacheprovider test_multiversion.py "
        "-k 'not differential and not older'\n")
    result = subprocess.run(["unshare", "-m", "sh", str(script)], capture_output=True,
                            text=True, env=ENV, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    found = json.loads(result.stdout.splitlines()[0])
    want = cpu_levels.running_version(list(cpu_levels.PORTABLE))
    assert found["artifact"] == found["record"] == found["python"] == want
    assert found["report"], found
    assert " passed" in result.stdout


@pytest.mark.parametrize("level", [None, "v2", "v3"])
def test_kilnc_and_python_share_the_levels(level):
    """kilnc (C++, linking runtime/kiln_dispatch.c) and kiln/cpu_levels.py
    (Python, loading it as libkiln_cpu.so) name the same portable versions
    and the same level for this CPU, KILN_CPU_LEVEL included."""
    from kiln.toolchain import find_kilnc
    env = {k: v for k, v in os.environ.items() if k != "KILN_CPU_LEVEL"}
    if level:
        env["KILN_CPU_LEVEL"] = level
    printed = subprocess.run([find_kilnc(), "--print-capabilities"], capture_output=True,
                             text=True, env=env, check=True).stdout
    levels = json.loads(printed)["cpu_levels"]
    assert tuple(levels["portable"]) == cpu_levels.PORTABLE
    assert levels["this_cpu"] == min(int(level[1]) if level else 4,
                                     cpu_levels.detected_level())
    previous = os.environ.pop("KILN_CPU_LEVEL", None)
    try:
        if level:
            os.environ["KILN_CPU_LEVEL"] = level
        assert cpu_levels.host_level() == levels["this_cpu"]
    finally:
        os.environ.pop("KILN_CPU_LEVEL", None)
        if previous is not None:
            os.environ["KILN_CPU_LEVEL"] = previous
