#!/bin/sh
# Fresh machine to passing tests: installs, builds, runs lit then pytest.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
sh scripts/build.sh
cmake --build build --target check-kiln
