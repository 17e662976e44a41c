"""KILN_TEST_SAMPLE (conftest.py), with which scripts/sanitize.sh reruns the
suite under the sanitizers: every test function is still collected, and of
a parametrized one its first, last and every k-th case."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def collected(sample, *files):
    env = dict(os.environ, KILN_TEST_SAMPLE=str(sample))
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "-p", "no:cacheprovider", *files], cwd=HERE, env=env,
                            capture_output=True, text=True, check=True)
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_sampling_keeps_every_function_and_every_kth_case():
    everything = collected(1, "test_vectorize.py")
    sampled = collected(3, "test_vectorize.py")
    functions = {re.sub(r"\[.*", "", item) for item in everything}
    assert {re.sub(r"\[.*", "", item) for item in sampled} == functions
    cases = [item for item in everything if "::test_sizes_and_layouts[" in item]
    kept = [item for item in sampled if "::test_sizes_and_layouts[" in item]
    expected = [case for index, case in enumerate(cases)
                if index % 3 == 0 or index == len(cases) - 1]
    assert len(cases) > 100 and kept == expected
    assert collected(3, "test_vectorize.py") == sampled      # deterministic


UNLOADABLE_TEST = """
import conftest

def test_builds_an_artifact_that_does_not_load():
    conftest.BUILT_DIRECTORIES.append({directory!r})
"""


def test_an_unloadable_artifact_fails_the_run_with_and_without_workers(tmp_path):
    """conftest's end-of-session check loads every built shared object with
    RTLD_NOW; it must fail the run under pytest-xdist too (scripts/test.sh
    runs the suite with `-n auto`), where the check runs in the workers."""
    import shutil
    artifacts = tmp_path / "built"
    artifacts.mkdir()
    source = artifacts / "broken.c"
    source.write_text("extern int kiln_no_such_symbol(void);\n"
                      "int broken(void) { return kiln_no_such_symbol(); }\n")
    subprocess.run(["clang-22", "-shared", "-fPIC", "-o", str(artifacts / "broken.so"),
                    str(source)], check=True)
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(os.path.join(HERE, "conftest.py"), suite / "conftest.py")
    (suite / "test_unloadable.py").write_text(
        UNLOADABLE_TEST.format(directory=str(artifacts)))
    for workers in ([], ["-n", "2"]):
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 *workers, "test_unloadable.py"], cwd=suite,
                                capture_output=True, text=True)
        assert "1 passed" in result.stdout, result.stdout + result.stderr
        assert result.returncode != 0, (workers, result.stdout)
        assert "kiln_no_such_symbol" in result.stderr, (workers, result.stderr)
