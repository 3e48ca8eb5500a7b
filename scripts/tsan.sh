#!/bin/sh
# Builds the library and the thread stress test with ThreadSanitizer in a
# separate build directory and runs the test; any data race fails it.
#
#   scripts/tsan.sh                  build-tsan, default threads and rounds
#   scripts/tsan.sh -b DIR           another build directory
#
# PMAPI_STRESS_THREADS and PMAPI_STRESS_ROUNDS (environment) size the run.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build-tsan"
while getopts "b:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    *) sed -n '2,9p' "$0" >&2; exit 2 ;;
  esac
done

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS="-fsanitize=thread" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
fi
cmake --build "$build" --target thread_stress_test
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  "$build/tests/robust/thread_stress_test"
