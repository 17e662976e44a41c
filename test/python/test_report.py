"""The reporter: coverage and its reasons in <mod>.kiln.json, the terminal
view, the CI gate, A/B diff, profiles, and the HTML page in Chromium."""

import json
import os
import subprocess
import sys

import pytest

from conftest import HERE, REPO, kiln_build

MODULE = os.path.join(HERE, "modules", "report_kernels.py")


def kiln(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    return subprocess.run([sys.executable, "-m", "kiln", *args], capture_output=True, text=True,
                          env=env, cwd=cwd)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    outdir = tmp_path_factory.mktemp("report")
    result = kiln_build(MODULE, outdir)
    assert result.returncode == 0, result.stderr
    return outdir, json.load(open(outdir / "report_kernels.kiln.json"))


def function(record, name):
    return next(f for f in record["functions"] if f["name"] == name)


def test_schema(built):
    _, record = built
    assert record["schema"] == "kiln-report/1"
    for entry in record["functions"]:
        for key in ("name", "compiled", "coverage", "lane_utilization", "loops", "basic_blocks",
                    "lines"):
            assert key in entry, key
        for line in entry["lines"]:
            for key in ("line", "coverage", "lane_utilization", "vector_ops", "scalar_ops",
                        "remarks"):
                assert key in line, key
    for entry in record["fallbacks"]:
        assert set(entry) >= {"kind", "function", "file", "line", "column", "reason"}


def test_coverage_high_where_loops_vectorize(built):
    _, record = built
    for name in ("saxpy", "fast_sum"):
        entry = function(record, name)
        assert entry["coverage"] is not None and entry["coverage"] > 0.8, (name, entry["coverage"])
        assert entry["lane_utilization"] and entry["lane_utilization"] > 0.2
        assert all(loop["vectorized"] for loop in entry["loops"])


@pytest.mark.parametrize("name, reason", [
    ("ordered_sum", "reorder floating-point"),
    ("prefix_sum", "loop not vectorized"),
    ("histogram", "loop not vectorized"),
])
def test_coverage_low_with_reason_where_loops_stay_scalar(built, name, reason):
    _, record = built
    entry = function(record, name)
    assert entry["coverage"] is not None and entry["coverage"] < 0.5, (name, entry["coverage"])
    (loop,) = entry["loops"]
    assert not loop["vectorized"]
    assert any(reason in r for r in loop["reasons"]), loop["reasons"]
    # one verdict, in the user's terms (LLVM's messages stay in `reasons`)
    assert loop["verdict"] and "loop not vectorized" not in loop["verdict"], loop["verdict"]
    # scalar code is a finding; a fallback is only a function left to Python
    assert any(f["function"] == name and f["kind"] in ("scalar-loop", "scalar-work")
               for f in record["findings"])
    assert all(f["kind"] == "function" for f in record["fallbacks"])


def test_one_verdict_per_loop_in_the_terminal(built):
    """`kiln report` prints one line per loop, its reason in the user's terms
    with the fix; LLVM's remarks and the minor findings only with --remarks."""
    outdir, record = built
    plain = kiln("report", str(outdir / "report_kernels.kiln.json")).stdout
    assert "fallback" not in plain
    ordered = next(line for line in plain.splitlines()
                   if line.startswith("  loop at line") and "fastmath=True" in line)
    assert "scalar loop" in ordered and "LLVM" not in ordered
    assert "    LLVM: " not in plain and "scalar work at line" not in plain
    detailed = kiln("report", str(outdir / "report_kernels.kiln.json"), "--remarks").stdout
    assert "    LLVM: loop not vectorized" in detailed and "scalar work at line" in detailed


def test_report_works_without_the_source_file(built, tmp_path):
    """The record embeds the source it describes: the terminal report and the
    HTML page show its lines after the file is gone (another machine)."""
    outdir, record = built
    assert record["source_text"].startswith(open(MODULE, encoding="utf-8").read()[:40])
    moved = tmp_path / "elsewhere.kiln.json"
    moved.write_text(json.dumps(dict(record, source="/nonexistent/report_kernels.py")))
    text = kiln("report", str(moved)).stdout
    assert "def saxpy(" in text
    page = tmp_path / "elsewhere.html"
    assert kiln("report", str(moved), "--html", str(page)).returncode == 0
    assert "def saxpy(" in page.read_text()


def test_function_fallback_is_listed(built):
    _, record = built
    assert any(f["kind"] == "function" and f["function"] == "uses_a_string"
               and f["reason"] == "bytes is not supported yet" for f in record["fallbacks"])
    assert function(record, "uses_a_string")["compiled"] is False


def test_terminal_report(built):
    outdir, _ = built
    result = kiln("report", str(outdir / "report_kernels.kiln.json"))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "saxpy: compiled, coverage" in text
    assert "loop at line" in text and "vectorized by Kiln, VF=" in text
    assert "uses_a_string: FALLS BACK TO PYTHON" in text
    assert "\033[" not in text  # plain text when not a terminal
    blocks = kiln("report", str(outdir / "report_kernels.kiln.json"), "--granularity",
                  "basic_block")
    assert "basic blocks (most frequent first):" in blocks.stdout
    instructions = kiln("report", str(outdir / "report_kernels.kiln.json"), "--granularity",
                        "instruction")
    assert "instructions:" in instructions.stdout


def test_ci_gate(built):
    outdir, _ = built
    record = str(outdir / "report_kernels.kiln.json")
    assert kiln("report", record, "--min-coverage", "0.01").returncode == 0
    strict = kiln("report", record, "--min-coverage", "0.99", "--fail-on-fallback")
    assert strict.returncode == 1
    assert "module coverage" in strict.stderr and "below 99%" in strict.stderr
    assert "uses_a_string falls back to Python" in strict.stderr


def test_diff(built, tmp_path):
    outdir, record = built
    better = json.loads(json.dumps(record))
    function(better, "ordered_sum")["coverage"] = 1.0
    path = tmp_path / "b.kiln.json"
    path.write_text(json.dumps(better))
    result = kiln("report", "--diff", str(outdir / "report_kernels.kiln.json"), str(path))
    assert result.returncode == 0
    assert "ordered_sum:" in result.stdout and "(better)" in result.stdout


def test_profile(built):
    outdir, _ = built
    driver = os.path.join(HERE, "drivers", "report_driver.py")
    result = kiln("report", MODULE, "--outdir", str(outdir), "--profile", driver)
    assert result.returncode == 0, result.stderr
    assert "`uses_a_string` falls back to Python:" in result.stdout
    assert "`saxpy` runs compiled:" in result.stdout


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--enable-logging=stderr", "--v=0",
                  "--virtual-time-budget=5000"]


def test_html_page_in_chromium(built, tmp_path):
    outdir, _ = built
    page = tmp_path / "report.html"
    result = kiln("report", str(outdir / "report_kernels.kiln.json"), "--html", str(page))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert "http://" not in text and "https://" not in text  # self-contained
    chromium = "/usr/bin/chromium"
    assert os.path.exists(chromium), "the test set-up installs Debian's chromium"
    profile = tmp_path / "chromium-profile"
    dom = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                          "--dump-dom", f"file://{page}#selftest"],
                         capture_output=True, text=True, timeout=120)
    result_line = dom.stdout[dom.stdout.index('class="selftest-result"'):].split("</div>")[0]
    assert "selftest ok: details shown for line" in result_line, result_line
    for part in ("generated code shown", "legend", "verdict under line",
                 "block row links to line"):
        assert part in result_line, (part, result_line)
    assert "heat-line" in dom.stdout and "fallback-row" in dom.stdout
    errors = [line for line in dom.stderr.splitlines()
              if "CONSOLE" in line.upper() and ("ERROR" in line.upper() or "Uncaught" in line)]
    assert not errors, errors
    screenshot = os.path.join(REPO, "build", "report-screenshot.png")
    subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}-shot",
                    "--window-size=1400,900", f"--screenshot={screenshot}",
                    f"file://{page}#selftest"], capture_output=True, timeout=120)
    assert os.path.getsize(screenshot) > 10_000


def test_ir_statistics_before_and_after_stripping(built, tmp_path):
    _, record = built
    stats = function(record, "saxpy")["ir_stats"]
    assert stats["before"]["instructions"] > 0 and stats["before"]["basic_blocks"] > 0
    release = kiln_build(MODULE, tmp_path / "release", "--release")
    assert release.returncode == 0, release.stderr
    stripped = json.load(open(tmp_path / "release" / "report_kernels.kiln.json"))
    after = function(stripped, "saxpy")["ir_stats"]
    assert after["after"]["metadata_nodes"] < after["before"]["metadata_nodes"]
    # The report is taken before stripping: the same coverage either way.
    assert function(stripped, "saxpy")["coverage"] == function(record, "saxpy")["coverage"]


def dwarf_lines(library: str) -> dict:
    """file name -> the lines the DWARF line table of `library` maps code to."""
    dump = subprocess.run(["/usr/lib/llvm-22/bin/llvm-dwarfdump", "--debug-line", library],
                          capture_output=True, text=True, check=True).stdout
    lines: dict = {}
    files: dict = {}
    index = None
    for text in dump.splitlines():
        text = text.strip()
        if text.startswith("debug_line["):
            files = {}
        elif text.startswith("file_names["):
            index = int(text.split("[")[1].split("]")[0])
        elif text.startswith("name:") and index is not None:
            files[index] = text.split('"')[1]
            index = None
        elif text.startswith("0x") and len(text.split()) >= 4:
            address, line, _, file_index = text.split()[:4]
            if int(line):
                lines.setdefault(files.get(int(file_index), "?"), set()).add(int(line))
    return lines


def test_every_line_and_block_maps_to_its_function(built):
    """Cross-checked against the DWARF line table of lib<mod>.so: code maps
    only to the Python source (never to a line of the generated .mlir),
    and every line and basic block the record gives a function is a line of
    that function, with code there in the line table."""
    import ast

    outdir, record = built
    table = dwarf_lines(str(outdir / "libreport_kernels.so"))
    assert not [name for name in table if name.endswith(".mlir")], list(table)
    source_lines = table["report_kernels.py"]
    tree = ast.parse(open(MODULE, encoding="utf-8").read())
    spans = {node.name: (node.lineno, node.end_lineno) for node in tree.body
             if isinstance(node, ast.FunctionDef)}
    for entry in record["functions"]:
        if not entry["compiled"]:
            continue
        first, last = spans[entry["name"]]
        for line in entry["lines"]:
            assert first <= line["line"] <= last, (entry["name"], line["line"])
            assert line["line"] in source_lines, (entry["name"], line["line"])
        for block in entry["basic_blocks"]:
            assert first <= block["line"] <= last, (entry["name"], block)
        for loop in entry["loops"]:
            assert first <= loop["line"] <= last, (entry["name"], loop["line"])


def test_allocations_are_not_reported_as_loops(tmp_path):
    source = tmp_path / "fills.py"
    source.write_text("import numpy as np\nimport kiln\n\n\n@kiln.export\n"
                      "def make(n: int) -> kiln.f64[:]:\n    out = np.zeros(n)\n"
                      "    for i in range(n):\n        out[i] = i * 0.5\n    return out\n")
    result = kiln_build(str(source), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    record = json.load(open(tmp_path / "out" / "fills.kiln.json"))
    assert [loop["line"] for loop in function(record, "make")["loops"]] == [8]
