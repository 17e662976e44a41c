#!/bin/sh
# Fresh machine to running example: installs, builds, then compiles
# examples/kernels.py with `kiln build` and runs it beside CPython.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
sh scripts/build.sh
/usr/bin/python3 examples/run_demo.py
