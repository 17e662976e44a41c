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
    assert any(f["function"] == name and f["kind"] in ("scalar-loop", "scalar-work")
               for f in record["fallbacks"])


def test_function_fallback_is_listed(built):
    _, record = built
    assert any(f["kind"] == "function" and f["function"] == "uses_a_list"
               and f["reason"] == "list is not supported" for f in record["fallbacks"])
    assert function(record, "uses_a_list")["compiled"] is False


def test_terminal_report(built):
    outdir, _ = built
    result = kiln("report", str(outdir / "report_kernels.kiln.json"))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "saxpy: compiled, coverage" in text
    assert "loop at line" in text and "vectorized by Kiln, VF=" in text
    assert "uses_a_list: FALLS BACK TO PYTHON" in text
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
    assert "uses_a_list falls back to Python" in strict.stderr


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
    assert "`uses_a_list` falls back to Python:" in result.stdout
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
    assert "selftest ok: details shown for line" in dom.stdout
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
