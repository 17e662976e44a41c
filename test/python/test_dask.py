"""examples/dask_kernels.py end to end at a small size (docs/dask.md): Kiln
kernels in dask.array.map_blocks on the synchronous and threaded
schedulers and on a distributed LocalCluster of two worker processes
(127.0.0.1), through map_blocks and client.submit; every result is
compared with numpy inside the example. Worker processes import the
example module by name and compile its kernels at their first call (or
load them from Kiln's cache). Speed is bench/dask_scaling.py's."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def test_dask_example_matches_numpy(tmp_path):
    import distributed  # noqa: F401 - scripts/setup.sh installs python3-distributed
    env = dict(os.environ,
               PYTHONPATH=os.pathsep.join([os.path.join(REPO, "python_frontend"),
                                           os.path.join(REPO, "examples")]),
               KILN_CACHE_DIR=str(tmp_path / "cache"))
    script = "import dask_kernels; dask_kernels.main(200_000, 4)"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "threaded scheduler" in result.stdout
    assert "map_blocks and 4 submits match numpy" in result.stdout
