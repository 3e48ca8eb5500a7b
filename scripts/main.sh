#!/bin/sh
# Installs the build dependencies, builds, and runs the main job: pminfo
# reading a real PCP archive shipped in tests/data (descriptors, help text
# and values of a few metrics).
# Run from anywhere as root on Debian 12:  scripts/main.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${PMAPI_BUILD_DIR:-$root/build}"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --target pminfo
archive="$root/tests/data/archives/reference/small-v3/small-v3"
exec env TZ=UTC "$build/tools/pminfo" -a "$archive" -d -t -f kernel.all.load sample.colour hinv.ncpu
