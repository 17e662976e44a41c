#!/bin/sh
# Builds Kiln, then runs the performance suite (see docs/performance.md).
#   sh bench/run.sh [--quick] [run.py options]
set -eu
cd "$(dirname "$0")/.."
# The peers the suite compares with beyond what the tests need: OpenBLAS
# (numpy's single-threaded BLAS/LAPACK column of bench/matmul.py and
# bench/linalg.py), cffi (the C-ABI call rows) and matplotlib (the plots).
sh scripts/setup.sh libopenblas0-pthread python3-cffi python3-matplotlib
sh scripts/build.sh
exec /usr/bin/python3 bench/run.py "$@"
