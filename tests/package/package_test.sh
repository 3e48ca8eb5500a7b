#!/bin/bash
# package_test.sh: builds the .deb, unpacks it into a scratch root and uses
# it the way a user's program would.
#
#   1. cpack makes the .deb; its control fields are checked (name, the
#      run-time Depends dpkg-shlibdeps computed, the ldconfig trigger), and
#      every library its binaries need must come from a package in Depends.
#   2. dpkg -x unpacks it into WORK/root; the default local configuration
#      compiled into the library must exist inside the root, and pmapi.pc
#      must name it.
#   3. A consumer project is configured with find_package(pmapi) against the
#      root and built twice (pmapi::pmapi and pmapi::pmapi_static).
#   4. The same consumer is compiled with the flags of `pkg-config pmapi`.
#   5. Every consumer describes metrics of an archive and of a local context
#      using the installed configuration; the installed pminfo prints its
#      version and a descriptor.
#
# Usage: package_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE CPACK CXX GENERATOR PMCDCONF [CXXFLAGS]
# PMCDCONF is the default local configuration path compiled into the library.
# CXXFLAGS is added to every consumer build (the sanitizer flags of a
# sanitized build, whose library needs them in its users).
set -euo pipefail

build=$1 src=$2 work=$3 cmake=$4 cpack=$5 cxx=$6 generator=$7 default_pmcdconf=$8
cxxflags=${9:-}
archive=$src/tests/data/archives/reference/small-v3/small-v3

fail() { echo "FAIL: $*" >&2; exit 1; }

# run_logged LOG COMMAND...: runs COMMAND with its output in LOG, shown on failure.
run_logged() {
  local log=$1; shift
  "$@" > "$log" 2>&1 || { cat "$log" >&2; fail "$* (see above)"; }
}

# expect_output WHAT EXPECTED COMMAND...: COMMAND's stdout must be EXPECTED.
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

rm -rf "$work"
mkdir -p "$work"

# ---- 1. the .deb ----
run_logged "$work/cpack.log" "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/cpack"
debs=("$work"/cpack/libpmapi_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one libpmapi_*.deb, found: ${debs[*]}"
deb=${debs[0]}
[ "$(dpkg-deb -f "$deb" Package)" = libpmapi ] || fail "package name is not libpmapi"
depends=$(dpkg-deb -f "$deb" Depends)
for dep in libabsl libboost-program-options liblzma5 libstdc++6; do
  grep -q "$dep" <<< "$depends" || fail "Depends lacks $dep: $depends"
done
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./triggers | grep -qx 'activate-noawait ldconfig' ||
  fail "no ldconfig trigger"
echo "ok: $(basename "$deb") Depends: $depends"

# owner_of SONAME: prints the Debian package that ships the library SONAME.
owner_of() {
  local path
  path=$(ldconfig -p | awk -v so="$1" '$1 == so && /x86-64|x86_64|64bit/ {print $NF; exit}')
  [ -n "$path" ] || path=$(ldconfig -p | awk -v so="$1" '$1 == so {print $NF; exit}')
  [ -n "$path" ] || return 1
  { dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null ||
    dpkg -S "/usr$path" 2>/dev/null || dpkg -S "${path#/usr}"; } | head -1 | cut -d: -f1
}

# ---- 2. the scratch root ----
root=$work/root
dpkg -x "$deb" "$root"
pc=$(find "$root" -path '*/pkgconfig/pmapi.pc' -type f | head -1)
[ -n "$pc" ] || fail "no pmapi.pc in the package"
prefix=$(sed -n 's/^prefix=//p' "$pc")
inst=$root$prefix
export PKG_CONFIG_PATH=$(dirname "$pc")
pkgconf() { pkg-config --define-variable=prefix="$inst" "$@" pmapi; }
libdir=$(pkgconf --variable=libdir)
pmcdconf=$(pkgconf --variable=pmcdconf)
[ -f "$pmcdconf" ] || fail "pmcd.conf not installed at $pmcdconf"
# The library's compiled-in default must be a file the package installs.
[ -f "$root$default_pmcdconf" ] || fail "the package lacks the default configuration $default_pmcdconf"
[ "$root$default_pmcdconf" -ef "$pmcdconf" ] || fail "pmapi.pc names $pmcdconf, not $default_pmcdconf"
echo "ok: unpacked under $inst"

# Every library the packaged binaries load comes from a package in Depends.
for elf in "$libdir/libpmapi.so" "$inst"/bin/*; do
  for so in $(readelf -d "$elf" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
    [ "$so" = libpmapi.so.0 ] && continue
    owner=$(owner_of "$so") || fail "$(basename "$elf") needs $so, which no package provides"
    grep -q "\b$owner\b" <<< "$depends" || fail "$(basename "$elf") needs $so from $owner, not in Depends"
  done
done
echo "ok: Depends covers every library the package's binaries need"

# As PCP's pminfo -d reports them for this archive.
archive_expected='sample.milliseconds 29.0.3 DOUBLE PM_INDOM_NULL counter [millisec]
sample.colour 29.0.5 32 29.1 instant []'
# As the test agent (pmdas/test/test_agent.cc) defines them.
local_expected='test.long.minus_one 250.0.0 32 PM_INDOM_NULL discrete []
test.bin 250.0.9 U32 250.1 instant [count]'

# check_consumer NAME BINARY: the consumer's view of the archive and of a
# local context built from the installed configuration.
check_consumer() {
  local name=$1 bin=$2
  expect_output "$name archive" "$archive_expected" \
    env LD_LIBRARY_PATH="$libdir" "$bin" archive "$archive" sample.milliseconds sample.colour
  expect_output "$name local" "$local_expected" \
    env LD_LIBRARY_PATH="$libdir" "$bin" local "$pmcdconf" test.long.minus_one test.bin
}

# ---- 3. find_package(pmapi) ----
run_logged "$work/cmake-configure.log" "$cmake" -S "$src/tests/package/consumer" \
  -B "$work/cmake-consumer" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_PREFIX_PATH="$inst"
found=$(sed -n 's/^pmapi_DIR:PATH=//p' "$work/cmake-consumer/CMakeCache.txt")
case $found in "$root"/*) ;; *) fail "find_package(pmapi) found $found, not the scratch root" ;; esac
run_logged "$work/cmake-build.log" "$cmake" --build "$work/cmake-consumer"
check_consumer find_package "$work/cmake-consumer/describe_metric"
readelf -d "$work/cmake-consumer/describe_metric_static" | grep -q 'libpmapi\.so' &&
  fail "describe_metric_static needs libpmapi.so"
check_consumer find_package-static "$work/cmake-consumer/describe_metric_static"

# ---- 4. pkg-config ----
# shellcheck disable=SC2046,SC2086  # the flags are words by design
run_logged "$work/pkgconfig-build.log" "$cxx" -std=c++20 $cxxflags \
  "$src/tests/package/consumer/describe_metric.cc" -o "$work/describe_metric_pc" \
  $(pkgconf --cflags --libs)
check_consumer pkg-config "$work/describe_metric_pc"

# ---- 5. the installed tool ----
version=$(env LD_LIBRARY_PATH="$libdir" "$inst/bin/pminfo" --version) || fail "pminfo --version failed"
[[ $version =~ ^pminfo\ version\ [0-9]+(\.[0-9]+)*$ ]] || fail "pminfo --version printed: $version"
echo "ok: $version"
expect_output "installed pminfo -d" "
sample.milliseconds
    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: counter  Units: millisec" \
  env LD_LIBRARY_PATH="$libdir" TZ=UTC "$inst/bin/pminfo" -a "$archive" -d sample.milliseconds
echo "PASS"
