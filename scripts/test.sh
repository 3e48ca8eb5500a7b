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
  "$root/scripts/configure.sh" "$build" "$@"
  cmake --build "$build"
  # shellcheck disable=SC2086
  ctest --test-dir "$build" --output-on-failure -j2 $ctest_args
}

export TZ=UTC LC_ALL=C
# Optimised as released; without debug information, which takes a third of
# the compile time and is of no use to a test run.
run_suite "$root/build" "" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
if [ -z "${PMAPI_SKIP_SANITIZE:-}" ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The sanitizer pass runs every suite but the package build, which only
  # repeats the normal build's packaging under slower flags, and the golden
  # runs over the reference archives, which are well-formed and whose
  # output the normal pass already compares (the QA corpora, with PCP's
  # corrupt archives, do run here). Line tables are enough for the
  # sanitizers' stack traces. PCP's QA suite (label pcpqa) runs in the
  # normal pass only: it compares output, which the sanitizers do not change.
  # So does realclients: PCP's own programs, which are not ours to
  # instrument (built plain, they cannot load an instrumented library).
  # The shipped agents run as daemons under pmcd are left out too: built
  # with the sanitizers, PCP's sample agent answers some requests after
  # pmcd has stopped waiting. Their shared-object forms (-K) stay.
  run_suite "$root/build-asan" "-LE package|pcpqa|realclients -E ReferenceCorpus|compat_pmda_shipped_daemons" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DCMAKE_C_FLAGS_DEBUG="-g1" -DPMAPI_SANITIZE=ON
fi
