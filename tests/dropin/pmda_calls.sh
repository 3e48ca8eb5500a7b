#!/bin/sh
# Builds tests/dropin/pmda_calls.c as PCP's compiled agents are built
# (against PCP's <pcp/pmda.h>, libpcp_pmda and libpcp), then runs it over
# PCP's libraries and over the drop-in (DROPIN_DIR: libpcp.so.3 and the
# libpcp_pmda.so.3 beside it): both runs must pass their own checks and
# print the same lines. The start-request round trip runs over the drop-in
# only (PCP's receive of it always fails: see pmda_calls.c).
#
#   tests/dropin/pmda_calls.sh DROPIN_DIR WORK_DIR
# Exits 77 when PCP's development libraries are not installed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dropin=$1 work=$2
[ -e /usr/include/pcp/pmda.h ] && [ -e /usr/lib/libpcp_pmda.so ] || {
  echo "pmda_calls: PCP's libpcp-pmda3-dev is not installed"
  exit 77
}
rm -rf "$work"
mkdir -p "$work"
${CC:-cc} -Wall -Wextra -o "$work/pmda_calls" "$here/pmda_calls.c" -lpcp_pmda -lpcp
LD_LIBRARY_PATH=$dropin ldd "$work/pmda_calls" | grep -q "$dropin/libpcp_pmda.so.3" || {
  echo "pmda_calls: the program does not load $dropin/libpcp_pmda.so.3"
  exit 1
}
LD_LIBRARY_PATH=$dropin "$work/pmda_calls" start-request ||
  { echo "pmda_calls: the start request failed over the drop-in"; exit 1; }
LD_LIBRARY_PATH=$dropin "$work/pmda_calls" > "$work/ours" ||
  { cat "$work/ours"; echo "pmda_calls: failed over the drop-in"; exit 1; }
"$work/pmda_calls" > "$work/pcp" || { cat "$work/pcp"; echo "pmda_calls: failed over PCP's libraries"; exit 1; }
diff "$work/pcp" "$work/ours" || { echo "pmda_calls: the drop-in and PCP's libraries differ"; exit 1; }
cat "$work/ours"
