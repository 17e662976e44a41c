"""Compiled functions pickle by reference to their public module, so a
pickle finds the same function in another process: built modules (two
packages with a `kernels.py` each must not be confused) and
compile-on-first-call functions (multiprocessing with `spawn` pickles them)."""

import os
import subprocess
import sys
import textwrap

from conftest import REPO, kiln_build

KERNELS = textwrap.dedent('''\
    import kiln


    @kiln.export
    def g(x: float) -> float:
        """Scales x."""
        return x * {factor}
''')


def run_python(script, cwd, **env):
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(cwd), os.path.join(REPO, "python_frontend")]), **env)
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd,
                            capture_output=True, text=True, env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout


def make_package(root, name, factor):
    package = root / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text(KERNELS.format(factor=factor))
    return package / "kernels.py"


def test_same_module_name_in_two_packages(tmp_path):
    sources, built = tmp_path / "src", tmp_path / "site"
    for name, factor in (("pa", "2.0"), ("pb", "100.0")):
        source = make_package(sources, name, factor)
        (built / name).mkdir(parents=True)
        (built / name / "__init__.py").write_text("")
        result = kiln_build(str(source), built / name)
        assert result.returncode == 0, result.stderr

    # One process pickles both functions ...
    run_python('''
        import pickle, sys
        import pa.kernels, pb.kernels
        assert "_kernels_kiln" not in sys.modules, sorted(sys.modules)
        assert type(pa.kernels.g).__name__ == "builtin_function_or_method"
        assert pa.kernels.g.__module__ == "pa.kernels"
        with open("functions.pickle", "wb") as handle:
            pickle.dump((pa.kernels.g, pb.kernels.g), handle)
    ''', built)
    # ... and a fresh one, importing the packages the other way round, gets
    # each back from its own package.
    out = run_python('''
        import pickle
        import pb.kernels, pa.kernels
        with open("functions.pickle", "rb") as handle:
            f, h = pickle.load(handle)
        assert f is pa.kernels.g and h is pb.kernels.g
        print(f(1.0), h(1.0))
    ''', built)
    assert out.split() == ["2.0", "100.0"]
    # Worker processes started with `spawn` import the module afresh.
    out = run_python('''
        import multiprocessing
        import pa.kernels, pb.kernels
        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                print(pool.map(pa.kernels.g, [1.0, 3.0]), pool.map(pb.kernels.g, [1.0]))
    ''', built)
    assert out.strip() == "[2.0, 6.0] [100.0]"


def test_first_call_functions_pickle_by_reference(tmp_path):
    make_package(tmp_path, "fc", "3.0")
    cache = tmp_path / "cache"
    out = run_python('''
        import multiprocessing, pickle
        import fc.kernels
        from fc.kernels import g
        if __name__ == "__main__":
            assert type(g).__name__ == "CompiledFunction"
            assert g.__doc__ == "Scales x."
            data = pickle.dumps(g)
            assert b"fc.kernels" in data and len(data) < 100  # a reference, not the code
            assert pickle.loads(data) is g
            import cloudpickle      # what Dask sends tasks with
            assert cloudpickle.loads(cloudpickle.dumps(g)) is g     # before compiling
            assert g(2.0) == 6.0 and g.is_compiled
            assert cloudpickle.loads(cloudpickle.dumps(g)) is g
            with multiprocessing.get_context("spawn").Pool(2) as pool:
                print(pool.map(g, [1.0, 2.0, 3.0]))
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
                print(list(ex.map(g, [4.0, 5.0])))
    ''', tmp_path, KILN_CACHE_DIR=str(cache))
    assert out.split() == ["[3.0,", "6.0,", "9.0]", "[12.0,", "15.0]"]
