"""`kiln build --release`: the same functions, without debug sections."""

import os
import subprocess
import traceback

import numpy as np
import pytest

from conftest import REPO, import_from, kiln_build

KERNELS = os.path.join(REPO, "examples", "kernels.py")


def build(outdir, *extra):
    result = kiln_build(KERNELS, outdir, *extra)
    assert result.returncode == 0, result.stderr
    return str(outdir)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    debug = build(tmp_path_factory.mktemp("kernels_debug"))
    release = build(tmp_path_factory.mktemp("kernels_release"), "--release")
    return {
        "debug": (debug, import_from(os.path.join(debug, "kernels.py"), "kernels_debug")),
        "release": (release, import_from(os.path.join(release, "kernels.py"),
                                         "kernels_release")),
    }


def shared_objects(outdir):
    return sorted(os.path.join(outdir, f) for f in os.listdir(outdir) if f.endswith(".so"))


def section_names(path):
    listing = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True,
                             check=True).stdout
    return {word for line in listing.splitlines() for word in line.split()
            if word.startswith(".")}


def test_release_has_no_debug_sections(builds):
    objects = shared_objects(builds["release"][0])
    assert len(objects) == 2  # lib<mod>.so and the extension
    for path in objects:
        debug_sections = {s for s in section_names(path) if s.startswith(".debug_")}
        assert debug_sections == set(), path


def library(outdir):
    return os.path.join(outdir, "libkernels.so")


def test_normal_build_has_line_tables(builds):
    # Both artifacts: the wrappers are compiled with line tables, so the
    # kernels inlined into them keep their Python locations.
    for path in shared_objects(builds["debug"][0]):
        assert ".debug_line" in section_names(path), path
        lines = subprocess.run(["/usr/lib/llvm-22/bin/llvm-dwarfdump", "--debug-line", path],
                               capture_output=True, text=True, check=True).stdout
        assert "kernels.py" in lines, path


def test_release_is_not_larger(builds):
    assert os.path.getsize(library(builds["release"][0])) < \
        os.path.getsize(library(builds["debug"][0]))
    for debug, release in zip(shared_objects(builds["debug"][0]),
                              shared_objects(builds["release"][0])):
        assert os.path.getsize(release) <= os.path.getsize(debug)


def test_release_computes_the_same(builds):
    debug, release = builds["debug"][1], builds["release"][1]
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(1001), rng.standard_normal(1001)
    assert release.dot(x, y) == debug.dot(x, y)
    assert release.dot(x[::-3], y[::-3]) == debug.dot(x[::-3], y[::-3])

    outputs = [np.empty_like(x), np.empty_like(x)]
    debug.saxpy(1.5, x, y, outputs[0])
    release.saxpy(1.5, x, y, outputs[1])
    assert np.array_equal(outputs[0], outputs[1])

    integers = rng.integers(-50, 50, 777)
    assert release.count_positive(integers) == debug.count_positive(integers)
    for n in (1, 7, 27, 97, 871, 0, -4):
        assert release.collatz_steps(n) == debug.collatz_steps(n)

    clipped = [rng.standard_normal(333).astype(np.float32) for _ in range(2)]
    clipped[1][:] = clipped[0]
    debug.clip(clipped[0], -0.5, 0.25)
    release.clip(clipped[1], -0.5, 0.25)
    assert np.array_equal(clipped[0], clipped[1])

    for v in (2.5, -0.0, -3.0, float("nan")):
        assert release.sign(v) == debug.sign(v)


def test_release_reports_errors_at_the_same_line(builds):
    """Error records carry Python lines; they do not need DWARF. A debug
    build names the source by its path (tracebacks show its lines), a
    release build as its package does (no build-machine path)."""
    with open(KERNELS, encoding="utf-8") as source:
        line = 1 + next(i for i, text in enumerate(source) if "x[i] * y[i]" in text)
    for kind, path in (("debug", KERNELS), ("release", os.path.basename(KERNELS))):
        with pytest.raises(IndexError) as error:
            builds[kind][1].dot(np.ones(4), np.ones(3))
        assert str(error.value) == ("index 3 is out of bounds for axis 0 with size 3 "
                                    f"({path}, line {line})")
        innermost = traceback.extract_tb(error.value.__traceback__)[-1]
        assert (innermost.filename, innermost.lineno) == (path, line)
