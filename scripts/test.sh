#!/bin/sh
# Installs the dependencies, builds, and runs every test suite.
# Run from anywhere as root on Debian 12:  scripts/test.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${PMAPI_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j2
