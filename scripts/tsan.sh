#!/bin/sh
# Builds the library and the thread stress tests with ThreadSanitizer in a
# separate build directory and runs them; any data race fails the run.
#
#   scripts/tsan.sh                  build-tsan, archive, local, C and host parts
#   scripts/tsan.sh -b DIR           another build directory
#   scripts/tsan.sh -H               leave out the host part (no pmcd needed)
#
# The host part runs against a private pmcd (scripts/pmcd-private.sh) in
# $PMCD_PRIVATE_DIR (default DIR/pmcd-private), started here and stopped
# when the script ends. The host part also runs the many-hosts fault run
# (tests/fleet/fault_run.sh: a HostGroup, its connecting threads and 64
# private pmcds killed and restarted, 15 s). PMAPI_STRESS_THREADS and
# PMAPI_STRESS_ROUNDS (environment) size the run; ccache is used when
# installed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build-tsan"
host=1
while getopts "b:H" opt; do
  case $opt in
    b) build=$OPTARG ;;
    H) host=0 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac

if [ ! -f "$build/build.ninja" ]; then
  launcher=""
  if command -v ccache >/dev/null 2>&1; then
    launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
  fi
  # shellcheck disable=SC2086
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $launcher \
    -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS="-fsanitize=thread" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
fi
targets="thread_stress_test pmda_test"
[ "$host" = 1 ] && targets="$targets thread_stress_host_test fleet_driver"
# shellcheck disable=SC2086
cmake --build "$build" --target $targets

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# As ctest runs them: without the stock derived metrics.
export PCP_DERIVED_CONFIG=
"$build/tests/robust/thread_stress_test"
[ "$host" = 1 ] || exit 0

pmcd_dir="${PMCD_PRIVATE_DIR:-$build/pmcd-private}"
pmcd="$top/scripts/pmcd-private.sh"
# Stop the pmcd only if this script started it.
started=0
if ! "$pmcd" status "$pmcd_dir"; then
  "$pmcd" start "$pmcd_dir"
  started=1
fi
status=0
PMAPI_STRESS_PMCD_DIR="$pmcd_dir" "$build/tests/robust/thread_stress_host_test" || status=$?
[ "$started" = 0 ] || "$pmcd" stop "$pmcd_dir"
"$top/tests/fleet/fault_run.sh" "$build" 64 15 || status=$?
exit "$status"
