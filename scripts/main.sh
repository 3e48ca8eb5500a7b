#!/bin/sh
# Installs the build dependencies, builds, and runs the main job: pminfo on
# the local context, with the Linux agent hosted in-process (no pmcd),
# printing descriptors, help text and live values of a few metrics.
# Run from anywhere as root on Debian 12:  scripts/main.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${PMAPI_BUILD_DIR:-$root/build}"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" --target pminfo
# The agents of the local context, from the source tree's configuration.
export PCP_PMCDCONF_PATH="$root/pmdas/pmcd.conf"
exec "$build/tools/pminfo" -L -d -t -f kernel.all.load kernel.all.cpu.user hinv.ncpu mem.util.used
