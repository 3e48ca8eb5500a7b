#!/bin/sh
# Installs the build dependencies, builds, and runs the main job: pmval on
# the local context, with the Linux agent hosted in-process (no pmcd),
# printing five one-second samples of the CPU time spent in user mode as a
# utilisation (the counter's rate), in PCP's pmval layout.
# Run from anywhere as root on Debian 12:  scripts/main.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build="${PMAPI_BUILD_DIR:-$root/build}"
"$root/scripts/configure.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" --target pmval
# The agents of the local context, from the source tree's configuration.
export PCP_PMCDCONF_PATH="$root/pmdas/pmcd.conf"
exec "$build/tools/pmval" -L -s 5 -t 1 kernel.all.cpu.user
