"""Where everything lives. The suite builds into build/bench/ (ignored by
git) and never writes into the shared peer folder, which is read-only."""

import os
import sysconfig

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(BENCH)
BUILD = os.path.join(REPO, "build", "bench")
PEERS = os.environ.get("KILN_BENCH_PEERS", "/work/shared/bench/peers")
PEERS_SOURCE = os.path.join(PEERS, "src")

PYTHON = "/usr/bin/python3"
CLANG = os.environ.get("KILN_BENCH_CLANG", "/usr/bin/clang-22")
SYSTEM_CC = os.environ.get("KILN_BENCH_CC", "gcc")
KILN = os.path.join(REPO, "build", "bin", "kiln")
KILNC = os.path.join(REPO, "build", "bin", "kilnc")
PYTHON_FRONTEND = os.path.join(REPO, "python_frontend")

KERNELS_SOURCE = os.path.join(BENCH, "kernels_kiln.py")
KILN_MODULE = "kernels_kiln"
NATIVE_SOURCE = os.path.join(BENCH, "native")

EXTENSION_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
PYTHON_INCLUDE = sysconfig.get_paths()["include"]


def build_path(*parts: str) -> str:
    return os.path.join(BUILD, *parts)
