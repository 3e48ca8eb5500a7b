#!/bin/bash
# common.sh: helpers shared by the package tests (sourced, not run).
#
#   fail MESSAGE                     prints FAIL: MESSAGE and exits 1
#   run_logged LOG COMMAND...        runs COMMAND, output in LOG, shown on failure
#   expect_output WHAT EXPECTED COMMAND...
#                                    COMMAND's stdout must be EXPECTED
#   bare COMMAND...                  runs COMMAND with no environment but PATH
#                                    (and the sanitizers' options, if set)
#
# The expected outputs below are what PCP 6.0.3 prints for the same input.

fail() { echo "FAIL: $*" >&2; exit 1; }

run_logged() {
  local log=$1; shift
  "$@" > "$log" 2>&1 || { cat "$log" >&2; fail "$* (see above)"; }
}

expect_output() {
  local what=$1 expected=$2; shift 2
  local got
  got=$("$@") || fail "$what: exit status $?"
  [ "$got" = "$expected" ] || fail "$what: expected
$expected
got
$got"
  echo "ok: $what"
}

bare() {
  env -i PATH=/usr/bin:/bin ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} \
    ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} "$@"
}

# The reference archive the tools and consumers read.
archive_of() { echo "$1/tests/data/archives/reference/small-v3/small-v3"; }

# As PCP's pminfo -d reports them for that archive.
consumer_archive_expected='sample.milliseconds 29.0.3 DOUBLE PM_INDOM_NULL counter [millisec]
sample.colour 29.0.5 32 29.1 instant []'
# As the Linux agent defines it (PCP's pminfo -L -d agrees).
consumer_local_expected='hinv.ncpu 60.0.32 U32 PM_INDOM_NULL discrete []'
pminfo_archive_expected='
sample.milliseconds
    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: counter  Units: millisec'
pmval_archive_expected='Note: timezone set to local timezone of host "vm" from archive

metric:    sample.milliseconds
archive:   small-v3
host:      vm
start:     Sun Nov 22 01:43:20 2026
end:       Sun Nov 22 01:43:48 2026
semantics: cumulative counter (converting to rate)
units:     millisec (converting to time utilization)
samples:   2
interval:  1.00 sec
01:43:20.186  No values available
01:43:21.186  No values available
01:43:22.186               1.000 '
pmdumplog_label_expected='Note: timezone set to local timezone of host "vm" from archive

Log Label (Log Format Version 3)
Performance metrics from host vm
    commencing Sun Nov 22 01:43:20.186708937 2026
    ending     Sun Nov 22 01:43:48.207743932 2026'
pmstore_refused_expected='hinv.ncpu: new value="1" pmStore: No permission to perform requested operation
exit 1'
pminfo_local_expected='
hinv.ncpu
    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: discrete  Units: none'

# check_tools TOOLDIR SRC: every installed tool runs, from where it is, with
# no environment: pminfo on an archive and on the default local context
# (whose configuration the tool finds relative to itself), pmval and
# pmdumplog on an archive, pmstore on the local context (whose Linux agent
# refuses the store).
check_tools() {
  local dir=$1 src=$2 archive version
  archive=$(archive_of "$src")
  version=$(bare "$dir/pminfo" --version 2>&1) || fail "pminfo --version failed"
  [[ $version =~ ^pminfo\ version\ [0-9]+(\.[0-9]+)*$ ]] || fail "pminfo --version printed: $version"
  echo "ok: $dir/pminfo --version: $version"
  expect_output "$dir/pminfo -a -d" "$pminfo_archive_expected" \
    bare "$dir/pminfo" -a "$archive" -d sample.milliseconds
  expect_output "$dir/pminfo -L -d" "$pminfo_local_expected" bare "$dir/pminfo" -L -d hinv.ncpu
  # a wrapper may run the tool under another name (exec -a): the
  # configuration is still found from where the program really is
  expect_output "$dir/pminfo -L -d, argv[0] elsewhere" "$pminfo_local_expected" \
    bare bash -c "exec -a /nonexistent/pminfo '$dir/pminfo' -L -d hinv.ncpu"
  # pmval and pmdumplog name the archive as given: run them beside it.
  expect_output "$dir/pmval -a" "$pmval_archive_expected" \
    bare sh -c "cd '$(dirname "$archive")' && '$dir/pmval' -z -a small-v3 -s 2 sample.milliseconds"
  expect_output "$dir/pmdumplog -l" "$pmdumplog_label_expected" \
    bare sh -c "cd '$(dirname "$archive")' && '$dir/pmdumplog' -z -l small-v3"
  expect_output "$dir/pmstore -L (refused by the agent)" "$pmstore_refused_expected" \
    bare sh -c "'$dir/pmstore' -L hinv.ncpu 1 2>&1; echo \"exit \$?\""
  # pmevent is pmval under its other name, installed beside it
  [ "$(readlink "$dir/pmevent")" = pmval ] || fail "$dir/pmevent is not a link to pmval"
  version=$(bare "$dir/pmevent" --version 2>&1) || fail "pmevent --version failed"
  [[ $version =~ ^pmevent\ version\  ]] || fail "pmevent --version printed: $version"
  echo "ok: $dir/pmevent --version: $version"
}

# check_consumers PREFIX LIBDIR TAG: builds the consumers against the
# installation under PREFIX (LIBDIR relative to it) and runs them, with no
# environment: a project using find_package(pmapi) (pmapi::pmapi and
# pmapi::pmapi_static), a C++ and a C program built with the flags of
# `pkg-config pmapi` (the .pc file named by its path). They describe metrics
# of an archive and of a local context; the shared-library consumers use the
# configuration the library finds relative to itself; the C program must
# compile against include/pmapi-compat/pcp/pmapi.h. Uses the globals src,
# work, cmake, cxx, cc, generator and cxxflags.
check_consumers() {
  local prefix=$1 libdir_rel=$2 tag=$3
  local out=$work/$tag archive
  archive=$(archive_of "$src")
  local libdir=$prefix/$libdir_rel pc=$prefix/$libdir_rel/pkgconfig/pmapi.pc
  local conf
  conf=$(realpath "$prefix/share/pmapi/pmdas/pmcd.conf")

  # find_package(pmapi)
  run_logged "$out-cmake-configure.log" bare "$cmake" -S "$src/tests/package/consumer" \
    -B "$out-cmake" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_PREFIX_PATH="$prefix"
  local found
  found=$(sed -n 's/^pmapi_DIR:PATH=//p' "$out-cmake/CMakeCache.txt")
  case $found in "$prefix"/*) ;; *) fail "find_package(pmapi) found $found, not $prefix" ;; esac
  local cmake_conf
  cmake_conf=$(cat "$out-cmake/pmapi_PMCDCONF.txt")
  [ "$(realpath "$cmake_conf")" = "$conf" ] || fail "pmapi_PMCDCONF is $cmake_conf, not $conf"
  run_logged "$out-cmake-build.log" bare "$cmake" --build "$out-cmake"
  local bin=$out-cmake/describe_metric static=$out-cmake/describe_metric_static
  expect_output "$tag find_package archive" "$consumer_archive_expected" \
    bare "$bin" archive "$archive" sample.milliseconds sample.colour
  expect_output "$tag find_package default configuration" "$conf" bare "$bin" config
  expect_output "$tag find_package local" "$consumer_local_expected" bare "$bin" local default hinv.ncpu
  grep -q 'libpmapi\.so' <<< "$(readelf -d "$static")" && fail "describe_metric_static needs libpmapi.so"
  expect_output "$tag find_package static local" "$consumer_local_expected" \
    bare "$static" local "$conf" hinv.ncpu

  # pkg-config, with the .pc file named by its path
  local cflags libs
  cflags=$(bare pkg-config --cflags "$pc") libs=$(bare pkg-config --libs "$pc")
  # shellcheck disable=SC2086  # the flags are words by design
  run_logged "$out-pc-build.log" bare "$cxx" -std=c++20 $cxxflags \
    "$src/tests/package/consumer/describe_metric.cc" -o "$out-pc" $cflags $libs -Wl,-rpath,"$libdir"
  expect_output "$tag pkg-config archive" "$consumer_archive_expected" \
    bare "$out-pc" archive "$archive" sample.milliseconds sample.colour
  expect_output "$tag pkg-config local" "$consumer_local_expected" bare "$out-pc" local default hinv.ncpu
  local deps
  # shellcheck disable=SC2086
  deps=$(bare "$cc" -M $cflags "$src/tests/package/consumer/c_consumer.c")
  local header
  header=$(grep -o '[^ ]*/pcp/pmapi\.h' <<< "$deps" | head -1)
  [ "$(realpath "$header")" = "$(realpath "$prefix/include/pmapi-compat/pcp/pmapi.h")" ] ||
    fail "the C consumer compiled against $header, not include/pmapi-compat/pcp/pmapi.h"
  # shellcheck disable=SC2086
  run_logged "$out-c-build.log" bare "$cc" $cxxflags "$src/tests/package/consumer/c_consumer.c" \
    -o "$out-c" $cflags $libs -Wl,-rpath,"$libdir"
  expect_output "$tag C consumer" "Unknown metric name
$conf" bare "$out-c"

  # pkg-config --static: the C program linked with libpmapi.a and nothing
  # more than the flags pkg-config gives (libpmapi.a named by path, so the
  # shared library beside it is not picked).
  local static_libs
  static_libs=$(bare pkg-config --static --libs "$pc" | sed "s|-lpmapi\b|$libdir/libpmapi.a|")
  # shellcheck disable=SC2086
  run_logged "$out-c-static-build.log" bare "$cc" $cxxflags "$src/tests/package/consumer/c_consumer.c" \
    -o "$out-c-static" $cflags $static_libs
  grep -q 'libpmapi\.so' <<< "$(readelf -d "$out-c-static")" && fail "the static C consumer needs libpmapi.so"
  [ "$(bare "$out-c-static" | head -1)" = "Unknown metric name" ] || fail "the static C consumer does not run"
  echo "ok: $tag C consumer linked statically with pkg-config --static"
}
