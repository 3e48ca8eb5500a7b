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
  # The sanitizer pass runs the suites that feed the library bad or
  # unusual input (unit, fuzz, robust), the C programs and agents built
  # against it (compat) and the host protocol (interop). Left out, as they
  # only compare output the normal pass already compares: the package
  # build, the man pages, PCP's QA suite (pcpqa), PCP's own programs
  # (realclients, which are not ours to instrument: built plain, they
  # cannot load an instrumented library; likewise PCP's programs over the
  # drop-in, dropin_programs), the replay comparison, the archive corpus
  # sweep (corpus), and the
  # golden comparisons over whole corpora (the reference corpus, the stock
  # derived metrics, the derived-metric oracle, and pmdumplog's and pmval's
  # runs over the QA corpora), which take most of this pass's time under
  # the sanitizers. The QA corpora, with PCP's corrupt archives, are still
  # read under the sanitizers by pminfo's run over them and by the robust
  # suite's truncation and corruption tests.
  # The shipped agents run as daemons under pmcd are left out too: built
  # with the sanitizers, PCP's sample agent answers some requests after
  # pmcd has stopped waiting. Their shared-object forms (-K) stay.
  run_suite "$root/build-asan" "-LE package|pcpqa|realclients|man|replay|dropin_programs|corpus -E ReferenceCorpus|ArchiveGoldenTest.QaCorpus|PmvalGoldenTest.QaCorpus|StockDerived|DeriveOracle|compat_pmda_shipped_daemons" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-g1" -DCMAKE_C_FLAGS_DEBUG="-g1" -DPMAPI_SANITIZE=ON
fi
