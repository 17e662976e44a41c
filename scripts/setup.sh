#!/bin/sh
# Installs every Debian package Kiln needs on a fresh Debian 12 machine.
# Idempotent: packages already present are skipped by apt.
#   sh scripts/setup.sh [more Debian packages]   (bench/run.sh adds the suite's peers)
set -eu
PACKAGES="$* llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 libclang-22-dev lld-22 liblld-22-dev \
libclang-rt-22-dev python3-dev python3-numpy python3-pytest python3-pytest-xdist python3-uvloop python3-mypy \
python3-dask python3-distributed libomp-22-dev python3-numba python3-pythran cython3 qemu-user meson python3-mesonpy chromium python3-nbclient python3-ipykernel python3-nbformat cmake ninja-build ccache binutils"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
