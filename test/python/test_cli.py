"""The `kiln` command line as a user meets it: it never overwrites or
litters the user's files, a build that compiles nothing fails, diagnostics
look like a compiler's, and user mistakes give one clear line (and the
documented exit status), never a traceback."""

import os
import subprocess
import sys

import pytest

from conftest import REPO

from kiln.cli import build_outputs, fraction
from kiln.errors import Diagnostic, colour_wanted, render_diagnostic

GOOD = "import kiln\n\n\n@kiln.export\ndef twice(x: float) -> float:\n    return 2.0 * x\n"
MIXED = ("import kiln\n\n\n@kiln.export\ndef twice(x: float) -> float:\n    return 2.0 * x\n"
         "\n\n@kiln.export\ndef stringy(x: float) -> float:\n    return b'x' and x\n")
ONLY_BAD = ("import kiln\n\n\n@kiln.export\ndef stringy(x: float) -> float:\n"
            "    return b'x' and x\n")


def kiln(*args, cwd=None, stdout=subprocess.PIPE, env=None):
    environment = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend"))
    environment.pop("NO_COLOR", None)
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "kiln", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=environment)


def snapshot(directory):
    """{relative path: bytes} of every file under `directory`."""
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                files[os.path.relpath(path, directory)] = handle.read()
    return files


# ------------------------------------------------------ the user's files

@pytest.mark.parametrize("outdir", [".", "{here}", "./sub/.."])
def test_build_refuses_to_overwrite_its_source(tmp_path, outdir):
    (tmp_path / "vmod.py").write_text(GOOD)
    before = snapshot(tmp_path)
    result = kiln("build", "vmod.py", "-o", outdir.format(here=tmp_path), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "would overwrite the input vmod.py" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(tmp_path) == before  # nothing written, the source intact


def test_build_refuses_an_outdir_reaching_the_source_through_a_link(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "vmod.py").write_text(GOOD)
    os.symlink(tmp_path / "src", tmp_path / "link")
    result = kiln("build", "src/vmod.py", "-o", "link", cwd=tmp_path)
    assert result.returncode == 2
    assert (tmp_path / "src" / "vmod.py").read_text() == GOOD


def test_report_refuses_to_overwrite_its_inputs(tmp_path):
    (tmp_path / "vmod.py").write_text(GOOD)
    result = kiln("report", "vmod.py", "--html", "vmod.py", cwd=tmp_path)
    assert result.returncode == 2
    assert (tmp_path / "vmod.py").read_text() == GOOD
    result = kiln("report", "vmod.py", "--outdir", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert (tmp_path / "vmod.py").read_text() == GOOD


def test_build_writes_only_into_its_outdir(tmp_path):
    source_dir = tmp_path / "src"
    source_dir.mkdir()
    (source_dir / "mixed.py").write_text(MIXED)
    before = snapshot(source_dir)
    outdir = tmp_path / "out"
    result = kiln("build", "src/mixed.py", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert snapshot(source_dir) == before
    assert sorted(os.listdir(tmp_path)) == ["out", "src"]
    # The refusal above checks every file the build writes: the list it
    # checks must name all of them.
    written = {os.path.join(outdir, name) for name in os.listdir(outdir)}
    assert written <= set(build_outputs(str(source_dir / "mixed.py"), str(outdir)))


def test_generated_sources_hold_no_build_machine_paths(tmp_path):
    package = tmp_path / "machine-specific" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "leaky.py").write_text(GOOD)
    outdir = tmp_path / "out"
    result = kiln("build", str(package / "leaky.py"), "-o", str(outdir))
    assert result.returncode == 0, result.stderr
    for name in ("leaky.py", "leaky.pyi", "leaky.h"):
        text = (outdir / name).read_text()
        assert str(tmp_path) not in text, name
        assert "pkg/leaky.py" in text, name  # the source, named inside its package


def test_release_libraries_hold_no_build_machine_paths_and_keep_docstrings(tmp_path):
    """The shared objects of a --release build (no debug information) name
    the source as its package does, in docstrings and exception messages;
    a compiled function keeps the user's docstring."""
    package = tmp_path / "machine-specific" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "leaky.py").write_text(
        'import kiln\n\n\n@kiln.export\ndef half(x: float) -> float:\n'
        '    """Half of x; x / 0 raises."""\n    return x / 2.0 + 1.0 / x\n')
    outdir = tmp_path / "out"
    result = kiln("build", str(package / "leaky.py"), "-o", str(outdir), "--release")
    assert result.returncode == 0, result.stderr
    for library in outdir.glob("*.so"):
        assert str(tmp_path).encode() not in library.read_bytes(), library.name
    probe = subprocess.run(
        [sys.executable, "-c", "import leaky\nprint(repr(leaky.half.__doc__))\n"
         "try:\n    leaky.half(0.0)\nexcept ZeroDivisionError as error:\n    print(error)"],
        cwd=outdir, capture_output=True, text=True, check=True,
        env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python_frontend")))
    assert probe.stdout.splitlines() == [
        repr("Half of x; x / 0 raises.\n\nCompiled by Kiln from pkg/leaky.py:5."),
        "float division by zero (pkg/leaky.py, line 7)"]


def test_module_without_exports_is_an_error_unless_allowed(tmp_path):
    (tmp_path / "plain.py").write_text("def f(x):\n    return x\n")
    result = kiln("build", "plain.py", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "plain.py has no @kiln.export function" in result.stderr
    assert not (tmp_path / "out").exists()
    allowed = kiln("build", "plain.py", "-o", "out", "--allow-empty", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert "warning: nothing to build" in allowed.stderr
    assert (tmp_path / "out" / "plain.py").exists()


def test_build_where_everything_falls_back_is_an_error_unless_allowed(tmp_path):
    (tmp_path / "bad.py").write_text(ONLY_BAD)
    result = kiln("build", "bad.py", "-o", "out", cwd=tmp_path)
    assert result.returncode == 1
    assert "error: cannot compile bad.py: no function compiled (stringy falls back to Python)" \
        in result.stderr
    allowed = kiln("build", "bad.py", "-o", "out", "--allow-empty", cwd=tmp_path)
    assert allowed.returncode == 0
    assert "warning: cannot compile bad.py: no function compiled" in allowed.stderr


# ------------------------------------------------------------ diagnostics

def test_errors_print_like_a_compiler(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.py").write_text(ONLY_BAD)
    result = kiln("build", "src/bad.py", "-o", "out", "--strict", cwd=tmp_path)
    assert result.returncode == 1
    # The path as given on the command line, the source line, a caret
    # under column 12 (the bytes).
    assert result.stderr.splitlines()[:3] == [
        "src/bad.py:6:12: error: bytes is not supported yet",
        "    6 |     return b'x' and x",
        "      |            ^",
    ]
    assert "\033[" not in result.stderr  # not a terminal: no colour


def test_fallbacks_print_as_warnings_with_the_function(tmp_path):
    (tmp_path / "mixed.py").write_text(MIXED)
    result = kiln("build", "mixed.py", "-o", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[:4] == [
        "mixed.py:11:12: warning: bytes is not supported yet",
        "   11 |     return b'x' and x",
        "      |            ^",
        "mixed.py:11:12: note: `stringy` falls back to Python",
    ]
    assert "kiln: built mixed (twice) into out" in result.stdout


def test_quiet_and_verbose(tmp_path):
    (tmp_path / "mixed.py").write_text(MIXED)
    quiet = kiln("build", "mixed.py", "-o", "out", "-q", cwd=tmp_path)
    assert quiet.returncode == 0
    assert quiet.stdout == "" and quiet.stderr == ""
    verbose = kiln("build", "mixed.py", "-o", "out", "-v", cwd=tmp_path)
    assert "kiln: wrote extension: " in verbose.stderr


def test_colour_only_when_asked_or_on_a_terminal(tmp_path, monkeypatch):
    (tmp_path / "bad.py").write_text(ONLY_BAD)
    coloured = kiln("build", "bad.py", "-o", "out", "--strict", "--color=always", cwd=tmp_path)
    assert "\033[1;31merror:" in coloured.stderr

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert colour_wanted(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Terminal())
    assert colour_wanted(Terminal(), "always")


def test_caret_lines_up_after_tabs_and_wide_characters(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("if x:\n\tvalue = 'é' + [1]\n", encoding="utf-8")
    # `[` is at column 17 in bytes (ast counts UTF-8 bytes; `é` takes two),
    # the 16th character: the caret line keeps the tab and has 14 spaces.
    text = render_diagnostic(Diagnostic(str(path), 2, 17, "bytes is not supported yet"),
                             shown_path="m.py")
    assert text.splitlines() == [
        "m.py:2:17: error: bytes is not supported yet",
        "    2 | \tvalue = 'é' + [1]",
        "      | \t" + " " * 14 + "^",
    ]


def test_version_and_documented_exit_codes():
    version = kiln("--version")
    assert version.returncode == 0
    import kiln as package
    assert version.stdout.strip() == f"kiln {package.__version__}"
    help_text = kiln("build", "--help").stdout
    assert "exit status:" in help_text and "2  usage" in help_text
    with open(os.path.join(REPO, "docs", "cli.md"), encoding="utf-8") as handle:
        docs = handle.read()
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 3 |"):
        assert status in docs


# ------------------------------------------------- mistakes, not tracebacks

@pytest.mark.parametrize("args, message", [
    (["build", "missing.py", "-o", "out"], "the module missing.py does not exist"),
    (["mlir", "missing.py"], "the module missing.py does not exist"),
    (["build", ".", "-o", "out"], "is a directory"),
    (["report", "missing.kiln.json"], "the record missing.kiln.json does not exist"),
    (["report", "notes.json"], "notes.json is not a Kiln build record"),
    (["report", "--diff", "notes.json", "missing.kiln.json"], "not a Kiln build record"),
    (["report", "good.py", "--min-coverage", "50"], "50 is not a fraction in 0..1"),
    (["report", "good.py", "--min-coverage", "lots"], "`lots` is not a number"),
    (["build", "good.py", "-o", "out", "-O", "7"], "invalid choice: 7"),
    (["build", "good.py", "-o", "out", "--target-cpu=no-such-cpu"],
     "--target-cpu=no-such-cpu: unknown --target-cpu 'no-such-cpu'"),
    (["report", "good.py", "--profile", "missing_script.py"], "missing_script.py does not exist"),
])
def test_user_mistakes_are_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "notes.json").write_text("[1, 2]")
    result = kiln(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_min_coverage_is_a_fraction():
    assert fraction("0.8") == 0.8 and fraction("1") == 1.0 and fraction("0") == 0.0
    for text in ("50", "1.5", "-0.1", "nan"):
        with pytest.raises(Exception):
            fraction(text)


def test_report_into_a_closed_pipe(tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    assert kiln("build", "good.py", "-o", "out", cwd=tmp_path).returncode == 0
    # The reader is gone before kiln writes anything (`kiln report | head`
    # after head exits): every write meets a broken pipe.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = kiln("report", "out/good.kiln.json", "--granularity", "instruction",
                      cwd=tmp_path, stdout=write_end)
    finally:
        os.close(write_end)
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
    assert result.returncode == 0


def test_report_gate_prints_fallbacks_as_diagnostics(tmp_path):
    (tmp_path / "mixed.py").write_text(MIXED)
    result = kiln("report", "mixed.py", "--fail-on-fallback", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert "mixed.py:11:12: error: bytes is not supported yet" in lines
    assert "mixed.py:11:12: note: `stringy` falls back to Python" in lines
    assert "kiln: gate: stringy falls back to Python" in lines


def test_profile_script_failure_shows_the_scripts_traceback_only(tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "crash.py").write_text("import good\n\n\nraise ValueError('boom')\n")
    result = kiln("report", "good.py", "--outdir", "out", "--profile", "crash.py",
                  cwd=tmp_path)
    assert result.returncode == 1
    assert 'File "crash.py", line 4, in <module>' in result.stderr
    assert "ValueError: boom" in result.stderr
    assert "kiln/cli.py" not in result.stderr and "runpy" not in result.stderr
    assert "kiln: error: --profile crash.py raised an exception" in result.stderr


def test_report_colour_follows_the_color_option(tmp_path):
    (tmp_path / "good.py").write_text(GOOD)
    assert kiln("build", "good.py", "-o", "out", cwd=tmp_path).returncode == 0
    plain = kiln("report", "out/good.kiln.json", cwd=tmp_path)
    assert "\033[" not in plain.stdout
    coloured = kiln("report", "out/good.kiln.json", "--color=always", cwd=tmp_path)
    assert "\033[" in coloured.stdout
