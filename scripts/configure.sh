#!/bin/sh
# Configures a Ninja build tree of the project; CMake's own output goes to
# BUILD_DIR/configure.log and is shown only when configuring fails.
#   scripts/configure.sh BUILD_DIR [CMAKE_ARGUMENTS...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja "$@" > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
