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
