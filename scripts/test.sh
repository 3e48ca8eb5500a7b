#!/bin/sh
# Installs the dependencies, builds, and runs every test suite: once in a
# normal build, once under AddressSanitizer and UndefinedBehaviorSanitizer.
# Run from anywhere as root on Debian 12:  scripts/test.sh
#   PMAPI_SKIP_SANITIZE=1 scripts/test.sh   the normal build only
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --pcp

run_suite() {
  build=$1; shift
  ctest_args=$1; shift
  mkdir -p "$build"
  cmake -S "$root" -B "$build" -G Ninja "$@" > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
  cmake --build "$build"
  # shellcheck disable=SC2086
  ctest --test-dir "$build" --output-on-failure -j2 $ctest_args
}

export TZ=UTC LC_ALL=C
run_suite "$root/build" "" -DCMAKE_BUILD_TYPE=RelWithDebInfo
if [ -z "${PMAPI_SKIP_SANITIZE:-}" ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The sanitizer pass runs every suite but the package build, which only
  # repeats the normal build's packaging under slower flags.
  run_suite "$root/build-asan" "-LE package" -DCMAKE_BUILD_TYPE=Debug -DPMAPI_SANITIZE=ON
fi
