"""Builds test modules with `kiln build` once per session and imports both
the compiled stub and the plain-Python source, so tests can compare them."""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODULES = os.path.join(HERE, "modules")
sys.path.insert(0, os.path.join(REPO, "python_frontend"))


def import_from(path, name):
    """The module at `path`, in sys.modules while it runs, as an import
    does (dataclasses read string annotations through it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    registered = name in sys.modules
    sys.modules.setdefault(name, module)
    try:
        spec.loader.exec_module(module)
    finally:
        if not registered:
            sys.modules.pop(name, None)
    return module


def import_plain_python(path, name):
    """The module as CPython runs it: @kiln.export left as a marker."""
    previous = os.environ.get("KILN_DISABLE")
    os.environ["KILN_DISABLE"] = "1"
    try:
        return import_from(path, name)
    finally:
        if previous is None:
            del os.environ["KILN_DISABLE"]
        else:
            os.environ["KILN_DISABLE"] = previous


class Built:
    def __init__(self, name, outdir):
        self.name = name
        self.outdir = outdir
        self.native = import_from(os.path.join(outdir, f"{name}.py"), f"kiln_built_{name}")
        self.python = import_plain_python(os.path.join(MODULES, f"{name}.py"),
                                          f"kiln_source_{name}")
        # test_multiversion.py runs suites with KILN_CPU_LEVEL: each module
        # must run the version it asks for.
        expected = os.environ.get("KILN_TEST_EXPECT_CPU")
        if expected:
            running = self.native._kiln_native._kiln_cpu_version()
            assert running == expected, (name, running, expected)

    def path(self, filename):
        return os.path.join(self.outdir, filename)


def outcome(function, *args):
    """(result, exception type and message) of one call; messages of
    compiled code end with the source location (" (file, line N)"), left
    out."""
    try:
        return function(*args), None
    except Exception as error:      # compared between CPython and Kiln
        return None, (type(error).__name__, str(error).split(" (")[0])


def run_on_both_sides(mod, name, make_args, shown):
    """`name` called in the built and the plain-Python module on arguments
    `make_args(module)` makes for each: the same result or error, and the
    same arguments after, each compared as `shown` renders it."""
    native_args, python_args = make_args(mod.native), make_args(mod.python)
    got, got_error = outcome(getattr(mod.native, name), *native_args)
    want, want_error = outcome(getattr(mod.python, name), *python_args)
    assert got_error == want_error, (name, got_error, want_error)
    assert shown(got) == shown(want), (name, got, want)
    assert shown(list(native_args)) == shown(list(python_args)), name
    return got, native_args


def assert_rss_flat(native, calls, expected=()):
    """Each native function of `calls` (name -> arguments) called 5,000
    times (the allocator's pools settle), then 40,000 more: resident memory
    does not grow by 1 MiB (a container leaked per call would show). The
    `expected` exception types are the calls' own."""
    import resource

    def run(function, args, times):
        for _ in range(times):
            try:
                function(*args)
            except expected:
                pass

    for name, args in calls.items():
        function = getattr(native, name)
        run(function, args, 5_000)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        run(function, args, 40_000)
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        assert grown < 1_000, f"{name}: RSS grew by {grown} KiB"


def kiln_mlir_errors(tmp_path, name, source):
    """`kiln mlir` of `source` written as tmp_path/<name>.py: its stderr,
    after checking that it failed (every function refused)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    result = subprocess.run([sys.executable, "-m", "kiln", "mlir", str(path)],
                            capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert result.returncode == 1, result.stderr
    return result.stderr


def kiln_build(source, outdir, *extra):
    # KILN_TEST_TARGET_CPU=x86-64-v3 runs the suite on AVX2 code on an
    # AVX-512 machine (the vector widths and libmvec variants change). By
    # default the suite builds for this machine only: a portable build
    # (kiln build's default) lowers every kernel three times, and
    # test_multiversion.py runs suites on portable builds, once per level.
    target = os.environ.get("KILN_TEST_TARGET_CPU", "native")
    if target and not any(e.startswith("--target-cpu") for e in extra):
        extra = (*extra, f"--target-cpu={target}")
    command = [sys.executable, "-m", "kiln", "build", source, "-o", str(outdir), *extra]
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode == 0:
        BUILT_DIRECTORIES.append(str(outdir))
    return result


# Every directory a successful `kiln build` of the session wrote: at the end,
# each shared object in them is loaded with RTLD_NOW once per CPU level this
# machine reaches (an undefined symbol, or a resolver that fails at some
# level, shows only then: Python imports lazily-bound code, and a C program
# may never call the broken function).
BUILT_DIRECTORIES = []
LOAD_EVERYTHING = r"""
import ctypes, glob, os, sys
failures = []
for directory in sys.argv[1:]:
    for path in sorted(glob.glob(os.path.join(directory, "*.so"))):
        try:
            ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as error:
            failures.append(str(error))
print("\n".join(failures))
sys.exit(1 if failures else 0)
"""


def load_built_artifacts(directories) -> list:
    """Failures loading every built shared object with RTLD_NOW, per level."""
    from kiln import cpu_levels
    directories = [d for d in directories if os.path.isdir(d)]
    if not directories:
        return []
    failures = []
    for level in range(2, cpu_levels.detected_level() + 1):
        env = dict(os.environ, KILN_CPU_LEVEL=f"v{level}")
        result = subprocess.run([sys.executable, "-c", LOAD_EVERYTHING, *directories],
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            failures.append(f"KILN_CPU_LEVEL=v{level}: {result.stdout}{result.stderr}")
    return failures


def pytest_collection_modifyitems(config, items):
    """KILN_TEST_SAMPLE=k (scripts/sanitize.sh's reruns of the suite under
    the sanitizers): of each parametrized test, the first and the last
    cases and every k-th one between run, so every test function -- every
    kind of check -- still runs, on fewer of the inputs the plain run
    (scripts/test.sh) covers in full. Deterministic: the same k keeps the
    same cases."""
    step = int(os.environ.get("KILN_TEST_SAMPLE") or 1)
    if step <= 1:
        return
    cases = {}
    for item in items:
        cases.setdefault((str(item.fspath), item.originalname), []).append(item)
    kept = set()
    for group in cases.values():
        for position, item in enumerate(group):
            if position in (0, len(group) - 1) or position % step == 0:
                kept.add(id(item))
    dropped = [item for item in items if id(item) not in kept]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if id(item) in kept]


UNLOADABLE_ARTIFACTS = []


def pytest_sessionfinish(session, exitstatus):
    """Every artifact the session built must load with RTLD_NOW. Under
    pytest-xdist (scripts/test.sh runs `-n auto`) a worker's exit status
    does not reach the controller, so a worker hands its list over in
    workeroutput and the controller (pytest_testnodedown) fails the run."""
    failures = load_built_artifacts(BUILT_DIRECTORIES) + UNLOADABLE_ARTIFACTS
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["kiln_unloadable_artifacts"] = failures
        return
    if failures:
        sys.stderr.write("\nbuilt artifacts that do not load with RTLD_NOW:\n"
                         + "\n".join(failures) + "\n")
        session.exitstatus = 1


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    UNLOADABLE_ARTIFACTS.extend(getattr(node, "workeroutput", {})
                                .get("kiln_unloadable_artifacts", []))


# Written last into a shared build directory: the build in it is whole.
BUILT_MARKER = ".kiln-test-built"


@pytest.fixture(scope="session")
def build_module(tmp_path_factory):
    cache = {}

    # KILN_TEST_SHARED_BUILDS=DIR (test_multiversion.py's reruns of suites
    # once per CPU level): the modules are built into DIR/<name> by the
    # first run and loaded from there by the next. Their portable builds are
    # the same for every level (the level is picked at load time), and the
    # three versions each of them lowers were most of each rerun's time.
    shared = os.environ.get("KILN_TEST_SHARED_BUILDS")
    # Under pytest-xdist the workers of one session share their builds: the
    # first to need a module builds it (under a lock) into the session's
    # directory, the others load it from there (each built every module
    # before, twice the work on CI's two cores).
    workers_share = not shared and os.environ.get("PYTEST_XDIST_WORKER")

    def build_shared(name):
        import fcntl

        session = tmp_path_factory.getbasetemp().parent / "kiln-shared-builds"
        session.mkdir(exist_ok=True)
        outdir = session / name
        with open(session / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (outdir / BUILT_MARKER).exists():
                scratch = tmp_path_factory.mktemp(f"kiln_{name}")
                result = kiln_build(os.path.join(MODULES, f"{name}.py"), scratch)
                assert result.returncode == 0, result.stderr
                (scratch / BUILT_MARKER).write_text("")
                shutil.rmtree(outdir, ignore_errors=True)
                shutil.move(str(scratch), str(outdir))
        return str(outdir)

    def build(name):
        if name in cache:
            return cache[name]
        if workers_share:
            cache[name] = Built(name, build_shared(name))
            return cache[name]
        if shared:
            outdir = os.path.join(shared, name)
            if not os.path.exists(os.path.join(outdir, BUILT_MARKER)):
                scratch = tmp_path_factory.mktemp(f"kiln_{name}")
                result = kiln_build(os.path.join(MODULES, f"{name}.py"), scratch)
                assert result.returncode == 0, result.stderr
                (scratch / BUILT_MARKER).write_text("")
                shutil.rmtree(outdir, ignore_errors=True)
                shutil.move(str(scratch), outdir)
        else:
            outdir = tmp_path_factory.mktemp(f"kiln_{name}")
            result = kiln_build(os.path.join(MODULES, f"{name}.py"), outdir)
            assert result.returncode == 0, result.stderr
        cache[name] = Built(name, str(outdir))
        return cache[name]

    return build
