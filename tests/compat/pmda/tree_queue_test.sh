#!/bin/sh
# Builds tree_queue.c (name trees, dynamic name space parts, event queues
# and clients of <pcp/pmda.h>)
# against PCP's libpcp_pmda and against the installed libpmapi; the two
# programs must print the same (standard output; diagnostics differ in
# form and go to standard error).
#
#   tree_queue_test.sh SRCDIR INCLUDEDIR LIBDIR WORKDIR [CFLAGS]
set -eu
src=$1
inc=$2
lib=$3
work=$4
extra=${5:-}
[ -r /usr/include/pcp/pmda.h ] || { echo "PCP's libpcp-pmda3-dev is not installed" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cc -O1 -o "$work/pcp" "$src/tree_queue.c" -lpcp_pmda -lpcp
# shellcheck disable=SC2086
cc -O1 $extra -I"$inc" -o "$work/ours" "$src/tree_queue.c" -L"$lib" -Wl,-rpath,"$lib" -lpmapi
"$work/pcp" >"$work/pcp.out" 2>/dev/null
"$work/ours" >"$work/ours.out" 2>/dev/null
if ! cmp -s "$work/pcp.out" "$work/ours.out"; then
  diff "$work/pcp.out" "$work/ours.out"
  exit 1
fi
echo "ok: $(wc -l <"$work/ours.out") lines the same"
