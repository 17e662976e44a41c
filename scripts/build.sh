#!/bin/sh
# Configures (once) and builds Kiln into ./build with Ninja and ccache.
set -eu
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DKILN_PYTHON="${KILN_PYTHON:-/usr/bin/python3}"
fi
cmake --build build -j "$(nproc)"
