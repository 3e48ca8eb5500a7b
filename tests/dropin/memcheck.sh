#!/bin/bash
# Runs the pcp.pmapi scripts of tests/dropin/python over the drop-in under
# valgrind's memcheck: PCP's Python modules free what the library hands
# them with libc's free, so an allocation the library made another way
# (new[], a pointer into a larger block, a static buffer) shows up as an
# invalid or mismatched free here. Exit status 0 when valgrind reports no
# error, 77 (skipped) without valgrind, PCP or its QA archives.
#
#   tests/dropin/memcheck.sh BUILD
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: memcheck.sh BUILD}" && pwd)
[ -x "$build/dropin/pmapi-run-build" ] || { echo "memcheck: no $build/dropin/pmapi-run-build" >&2; exit 2; }
archives=/var/lib/pcp/testsuite/archives
command -v valgrind >/dev/null || { echo "memcheck: skipped: no valgrind" >&2; exit 77; }
[ -d "$archives" ] && [ -e /usr/lib/libpcp.so.3 ] || { echo "memcheck: skipped: no PCP or pcp-testsuite" >&2; exit 77; }
export PATH=/usr/bin:/bin TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= PYTHONMALLOC=malloc
cd "$archives" || exit 2
fail=0
run() {
  local log
  log=$(mktemp)
  "$build/dropin/pmapi-run-build" valgrind -q --error-exitcode=99 --leak-check=no \
    python3 "$@" > /dev/null 2> "$log"
  local sts=$?
  if [ "$sts" = 99 ] || grep -q '^==[0-9]*==' "$log"; then
    echo "FAIL: valgrind reports errors for $*:"
    grep '^==' "$log" | head -40
    fail=1
  elif [ "$sts" != 0 ]; then
    echo "FAIL: exit status $sts for $*:"
    tail -5 "$log"
    fail=1
  else
    echo "ok: $*"
  fi
  rm -f "$log"
}
run "$here/python/pmapi_archive.py" pcp-zeroconf kernel.all.load disk.dev.read network.interface.in.bytes
run "$here/python/pmapi_archive.py" sample-labels sample.colour sample.mirage
run "$here/python/pmcc_archive.py" -a pcp-vmstat -t 2 -s 5
run "$here/python/pmapi_options.py" -a pcp-vmstat -S @04:53:02 -T +2 -Z UTC
exit $fail
