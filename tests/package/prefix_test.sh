#!/bin/bash
# prefix_test.sh: installs the build tree into a scratch prefix and uses it
# the way a user would, with no environment variables set (no
# LD_LIBRARY_PATH, PCP_PMCDCONF_PATH or PKG_CONFIG_PATH); then moves the
# whole tree elsewhere and does it all again.
#
#   1. cmake --install BUILD --prefix WORK/first/PREFIX.
#   2. Every tool runs from the prefix: on an archive, and on the default
#      local context, whose configuration the tool finds relative to itself.
#   3. A consumer project built with find_package(pmapi) (pmapi::pmapi and
#      pmapi::pmapi_static), a C++ program and a C program built with the
#      flags of `pkg-config pmapi` (the .pc file named by path) describe
#      metrics of an archive and of a local context; the shared-library
#      consumers use the configuration the library finds relative to itself.
#      The C program must compile against include/pmapi-compat/pcp/pmapi.h.
#   4. The prefix is moved to WORK/second/PREFIX and steps 2 and 3 repeat.
#
# Usage: prefix_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE CXX CC GENERATOR
#                       LIBDIR TOOLDIR [CXXFLAGS]
# LIBDIR and TOOLDIR are the library's and the tools' directories relative
# to the prefix. CXXFLAGS is added to every consumer build (the sanitizer
# flags of a sanitized build, whose library needs them in its users).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/package/common.sh
. "$here/common.sh"

build=$1 src=$2 work=$3 cmake=$4 cxx=$5 cc=$6 generator=$7 libdir_rel=$8 tooldir_rel=$9
cxxflags=${10:-}
archive=$(archive_of "$src")

rm -rf "$work"
mkdir -p "$work/first" "$work/second"
prefix=$work/first/prefix
run_logged "$work/install.log" "$cmake" --install "$build" --prefix "$prefix"
[ ! -e "$prefix/include/pcp" ] || fail "include/pcp installed where PCP's headers go"
grep -q 'NEEDED.*libabsl' <<< "$(readelf -d "$prefix/$tooldir_rel/pminfo")" && fail "pminfo loads Abseil's shared objects"
echo "ok: installed under $prefix"
check_tools "$prefix/$tooldir_rel" "$src"
check_consumers "$prefix" "$libdir_rel" first

mv "$prefix" "$work/second/prefix"
prefix=$work/second/prefix
echo "ok: moved to $prefix"
check_tools "$prefix/$tooldir_rel" "$src"
check_consumers "$prefix" "$libdir_rel" second
echo "PASS"
