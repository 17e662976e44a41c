#!/bin/sh
# Builds Kiln, then runs the performance suite (see docs/performance.md).
#   sh bench/run.sh [--quick] [run.py options]
set -eu
cd "$(dirname "$0")/.."
sh scripts/build.sh
exec /usr/bin/python3 bench/run.py "$@"
