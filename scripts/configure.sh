#!/bin/sh
# Configures a Ninja build tree of the project; CMake's own output goes to
# BUILD_DIR/configure.log and is shown only when configuring fails.
#   scripts/configure.sh BUILD_DIR [CMAKE_ARGUMENTS...]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
mkdir -p "$build"
# ccache, when installed, compiles each source once for every tree built
# with the same flags (the package test's tree configured for /usr reuses
# the normal build's objects).
launcher=""
if command -v ccache >/dev/null 2>&1; then
  launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
fi
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja $launcher "$@" > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
