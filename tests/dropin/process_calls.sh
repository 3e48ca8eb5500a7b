#!/bin/sh
# Runs tests/dropin/process_calls.c's program over the drop-in, and, when
# PCP's libpcp.so.3 is installed, over PCP's library as well: both runs
# must pass their own checks and print the same lines.
#
#   tests/dropin/process_calls.sh PROGRAM
set -eu
program=$1
pcp_dir=/usr/lib
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$program" > "$work/ours" || { cat "$work/ours"; echo "process_calls: failed over the drop-in"; exit 1; }
if [ ! -e "$pcp_dir/libpcp.so.3" ]; then
  cat "$work/ours"
  echo "process_calls: PCP's libpcp.so.3 is not installed; checked over the drop-in only"
  exit 0
fi
LD_LIBRARY_PATH=$pcp_dir ldd "$program" | grep -q "$pcp_dir/libpcp.so.3" || {
  echo "process_calls: cannot run $program over $pcp_dir/libpcp.so.3"
  exit 1
}
LD_LIBRARY_PATH=$pcp_dir "$program" > "$work/pcp" || { cat "$work/pcp"; echo "process_calls: failed over PCP's library"; exit 1; }
diff "$work/pcp" "$work/ours" || { echo "process_calls: the drop-in and PCP's library differ"; exit 1; }
cat "$work/ours"
