"""Kiln in Jupyter (issue 33, part 3): `kiln.report(f)` as the heatmap
(`_repr_html_`) and the terminal view (print), and the `%%kiln` cell
magic, run in a real notebook by nbclient on an ipykernel kernel; the
notebook's two reports are then rendered together in Chromium."""

import html
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from test_report import CHROMIUM_FLAGS

PYTHON_FRONTEND = os.path.join(REPO, "python_frontend")


@pytest.fixture
def kernels_module(tmp_path, monkeypatch):
    """A module with a function that compiles and one that stays Python,
    imported from a fresh file with a private compile cache."""
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("KILN_DISABLE", raising=False)
    (tmp_path / "nb_kernels.py").write_text(KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    sys.modules.pop("nb_kernels", None)
    return importlib.import_module("nb_kernels")


KERNELS = '''import kiln


@kiln.export
def scale(a: float, x: kiln.f64[:], out: kiln.f64[:]) -> None:
    for i in range(len(x)):
        out[i] = a * x[i]


@kiln.export
def digits(n: int) -> int:
    return len(str(n).encode())
'''


def test_report_of_a_compiled_function(kernels_module):
    import kiln

    x, out = np.arange(16.0), np.zeros(16)
    kernels_module.scale(2.0, x, out)
    view = kiln.report(kernels_module.scale)
    page = view._repr_html_()
    assert page.startswith('<div class="kiln-report" id="kiln-report-')
    assert "http://" not in page and "https://" not in page     # no network
    data = json.loads(re.search(r'<script class="data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))
    scale = next(f for f in data["functions"] if f["name"] == "scale")
    assert scale["compiled"] and scale["loops"][0]["vectorized"]
    assert "out[i] = a * x[i]" in data["source_text"]
    # every CSS rule is scoped to this report's own id, and a second view has another
    root = re.search(r'id="(kiln-report-\w+)"', page).group(1)
    rules = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    selectors = [s.strip() for block in re.findall(r"([^{}]+)\{", rules) for s in block.split(",")]
    assert selectors and all(s.startswith(f"#{root}") for s in selectors), selectors
    assert root not in view._repr_html_()
    text = str(view)
    assert "scale: compiled" in text and "loop at line 6: vectorized" in text
    assert "\033[" not in text                                  # no colours in a notebook
    assert "1 of 2 functions compiled" in repr(view)


def test_report_of_a_function_left_to_python(kernels_module):
    import kiln

    with pytest.warns(kiln.KilnFallbackWarning, match="str.encode"):
        view = kiln.report(kernels_module.digits)
    assert kernels_module.digits(12345) == 5
    text = str(view)
    assert "digits: FALLS BACK TO PYTHON" in text
    assert "left to Python (line 12): str.encode() is not supported yet" in text
    assert "str.encode() is not supported yet" in view._repr_html_()


def test_report_of_a_built_module_and_its_record(tmp_path, kernels_module):
    import kiln
    from conftest import kiln_build

    module = os.path.join(os.path.dirname(kernels_module.__file__), "nb_kernels.py")
    outdir = tmp_path / "out"
    assert kiln_build(module, outdir).returncode == 0
    record = str(outdir / "nb_kernels.kiln.json")
    sys.path.insert(0, str(outdir))
    try:
        sys.modules.pop("nb_kernels", None)
        import nb_kernels as built
        for target in (built, built.scale, record, json.load(open(record))):
            assert "scale: compiled" in str(kiln.report(target)), target
    finally:
        sys.path.remove(str(outdir))
        sys.modules.pop("nb_kernels", None)
    with pytest.raises(TypeError, match="kiln.report"):
        kiln.report(42)


def test_report_package_stays_a_package():
    import kiln
    import kiln.report.terminal
    from kiln.report import html as report_html

    assert kiln.report.terminal.render and report_html.fragment and callable(kiln.report)


def test_import_kiln_does_not_import_ipython():
    code = ("import sys, kiln; kiln.report; assert callable(kiln.load_ipython_extension); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('IPython', "
            "'ipykernel')))")
    env = dict(os.environ, PYTHONPATH=PYTHON_FRONTEND)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# --- a real notebook ------------------------------------------------------

CELLS = [
    "%load_ext kiln\nimport numpy as np",
    # In[2]
    "%%kiln -a\nimport kiln\n\n\n@kiln.export\ndef axpy(a: float, x: kiln.f64[:], "
    "y: kiln.f64[:]) -> None:\n    for i in range(len(x)):\n        y[i] += a * x[i]\n",
    # In[3]: the compiled function against the same function run by CPython
    "x = np.linspace(0.0, 1.0, 1001)\ny = np.ones(1001)\nexpected = y.copy()\n"
    "axpy(2.5, x, y)\naxpy.py_func(2.5, x, expected)\n"
    "print(axpy.is_compiled, np.array_equal(y, expected))",
    # In[4]: a second report in the same notebook, with an export option
    "%%kiln -a --fastmath\nimport kiln\n\n\n@kiln.export\ndef total(x: kiln.f64[:]) -> float:\n"
    "    s = 0.0\n    for i in range(len(x)):\n        s += x[i]\n    return s\n",
    # In[5]
    "print(total.__kiln_export__, total(np.arange(100.0)))",
    # In[6]: an unsupported construct: the fallback, with its reason
    "%%kiln -a\nimport kiln\n\n\n@kiln.export\ndef digits(n: int) -> int:\n"
    "    return len(str(n).encode())\n",
    # In[7]
    "print(digits.is_compiled, digits(12345))",
    # In[8]
    "%%kiln\ndef broken(x:\n    return x\n",
    # In[9]
    "%%kiln --strict\nimport kiln\n\n\n@kiln.export\ndef strict_digits(n: int) -> int:\n"
    "    return len(str(n).encode())\n",
]


@pytest.fixture(scope="module")
def notebook(tmp_path_factory):
    # Importing nbclient imports IPython, which raises the recursion limit
    # to 3000 for the whole process: the suite's later differential tests
    # of recursion compare with CPython at its default limit.
    limit = sys.getrecursionlimit()
    nbclient = pytest.importorskip("nbclient", reason="needs Debian's python3-nbclient")
    import nbformat
    sys.setrecursionlimit(limit)

    folder = tmp_path_factory.mktemp("notebook")
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                   "language": "python"}
    environment = {"PYTHONPATH": PYTHON_FRONTEND, "KILN_CACHE_DIR": str(folder / "cache")}
    saved = {name: os.environ.get(name) for name in (*environment, "KILN_DISABLE")}
    os.environ.update(environment)
    os.environ.pop("KILN_DISABLE", None)
    try:
        nbclient.NotebookClient(book, timeout=600, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(folder)}}).execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return folder, book


def outputs(book, index, kind=None):
    return [o for o in book.cells[index].outputs if kind is None or o.output_type == kind]


def shown_html(book, index):
    [result] = outputs(book, index, "execute_result")
    return result.data["text/html"]


def stderr_of(book, index):
    return "".join(o.text for o in outputs(book, index, "stream") if o.name == "stderr")


def test_notebook_loads_the_extension(notebook):
    _, book = notebook
    assert outputs(book, 0) == []


def test_notebook_compiled_function_matches_python(notebook):
    _, book = notebook
    assert outputs(book, 2, "stream")[0].text == "True True\n"
    assert outputs(book, 4, "stream")[0].text == "{'fastmath': True} 4950.0\n"


def test_notebook_shows_the_heatmap(notebook):
    _, book = notebook
    page = shown_html(book, 1)
    for marker in ('class="kiln-report"', "heat-line", "verdictText", "<cell In[2]>",
                   "y[i] += a * x[i]", '"vectorized": true'):
        assert marker in page, marker
    assert "http://" not in page and "https://" not in page
    [result] = outputs(book, 1, "execute_result")
    assert "axpy: compiled" in result.data["text/plain"]     # the terminal view


def test_notebook_two_reports_have_their_own_ids(notebook):
    _, book = notebook
    ids = [re.search(r'id="(kiln-report-\w+)"', shown_html(book, i)).group(1) for i in (1, 3)]
    assert ids[0] != ids[1]
    assert '"fastmath": true' not in shown_html(book, 1)
    # --fastmath reached the build: the float sum is a vectorized loop
    assert "s += x[i]" in shown_html(book, 3) and '"vectorized": true' in shown_html(book, 3)


def test_notebook_fallback_shows_its_reason(notebook):
    _, book = notebook
    warning = stderr_of(book, 5)
    assert "KilnFallbackWarning" in warning and "digits runs as Python" in warning
    assert "<cell In[6]>:6:16: str.encode() is not supported yet" in warning, warning
    page = shown_html(book, 5)
    assert "str.encode() is not supported yet" in page and '"compiled": false' in page
    assert outputs(book, 6, "stream")[0].text == "False 5\n"


def test_notebook_syntax_error_names_the_cell(notebook):
    _, book = notebook
    [error] = outputs(book, 7, "error")
    assert error.ename == "SyntaxError"
    traceback = "\n".join(error.traceback)
    assert "<cell In[8]>" in traceback and "broken" in traceback


def test_notebook_strict_cell_raises_the_compile_error(notebook):
    _, book = notebook
    [error] = outputs(book, 8, "error")
    assert error.ename == "KilnCompileError"
    assert error.evalue.startswith("<cell In[9]>:6:16: str.encode() is not supported yet")


def test_notebook_reports_work_side_by_side_in_chromium(notebook):
    folder, book = notebook
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip("needs Debian's chromium")
    # as a notebook page holds them: each output's HTML in its own element
    page = folder / "outputs.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
                    + "".join(f"<div class='output'><pre>In [{i + 1}]</pre>"
                              f"{shown_html(book, i)}</div>" for i in (1, 3, 5))
                    + "</body></html>")
    dom = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={folder / 'profile'}",
                          "--dump-dom", f"file://{page}#selftest"],
                         capture_output=True, text=True, timeout=120)
    results = [html.unescape(r) for r in
               re.findall(r'class="selftest-result">(.*?)</div>', dom.stdout)]
    assert len(results) == 3, dom.stdout[-2000:]
    # the compiled cells pass the whole self-test; the fallback has no loop
    for result in results[:2]:
        assert result.startswith("selftest ok: details shown for line"), result
    assert "legend" in results[2]
    errors = [line for line in dom.stderr.splitlines()
              if "CONSOLE" in line.upper() and ("ERROR" in line.upper() or "Uncaught" in line)]
    assert not errors, errors
    screenshot = os.path.join(REPO, "build", "jupyter-report-screenshot.png")
    os.makedirs(os.path.dirname(screenshot), exist_ok=True)
    subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={folder / 'profile-shot'}",
                    "--window-size=1200,1400", f"--screenshot={screenshot}", f"file://{page}"],
                   capture_output=True, timeout=120)
    assert os.path.getsize(screenshot) > 10_000

