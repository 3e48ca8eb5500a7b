#!/bin/sh
# local_context (examples/cxx/local_context.cc) on the library's built-in
# agents (the build tree's configuration, pmdas/pmcd.conf, named by
# PCP_PMCDCONF_PATH so that a PCP installation's own list cannot take its
# place). No pmcd runs. Its values are checked against the kernel's own
# files read at the same time: the processor count (/proc/stat), the
# kernel's release and name (uname), the memory size (/proc/meminfo), the
# load averages (/proc/loadavg, within 0.5 since they may move between
# the two readings). An unknown name is reported in its own line; a -K
# spec the library refuses gives its message and status 2.
#
#   tests/examples/cxx/local_context_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"
export PCP_PMCDCONF_PATH="$top/pmdas/pmcd.conf"

run "$work/got" "$bin/local_context" hinv.ncpu kernel.uname.release kernel.uname.sysname \
  mem.physmem kernel.all.load no.such.metric
cat "$work/got"
{
  echo "hinv.ncpu $(grep -c '^cpu[0-9]' /proc/stat)"
  echo "kernel.uname.release \"$(uname -r)\""
  echo "kernel.uname.sysname \"$(uname -s)\""
  echo "mem.physmem $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)"
} >"$work/want"
head -n 4 "$work/got" >"$work/got.head"
same "hinv.ncpu, kernel.uname, mem.physmem" "$work/want" "$work/got.head"
# kernel.all.load: its three instances, each near /proc/loadavg's figure
read -r l1 l5 l15 _ </proc/loadavg
sed -n 's/^kernel\.all\.load\[\(.*\)\] \(.*\)$/\1 \2/p' "$work/got" >"$work/load"
check "kernel.all.load: three instances near /proc/loadavg" awk -v l1="$l1" -v l5="$l5" -v l15="$l15" '
  function near(a, b) { return a - b < 0.5 && b - a < 0.5 }
  $0 ~ /^1 minute [0-9]+\.[0-9]{3}$/ && near($3, l1) { n++ }
  $0 ~ /^5 minute [0-9]+\.[0-9]{3}$/ && near($3, l5) { n++ }
  $0 ~ /^15 minute [0-9]+\.[0-9]{3}$/ && near($3, l15) { n++ }
  END { exit !(n == 3 && NR == 3) }' "$work/load"
check "an unknown name is reported in its line" grep -qx 'no.such.metric (Unknown metric name)' "$work/got"
check "eight lines in all" test "$(wc -l <"$work/got")" = 8

# A -K spec the library refuses: its message, status 2.
"$bin/local_context" -K "add,notanumber" hinv.ncpu >/dev/null 2>"$work/err"
check "a bad -K spec: status 2 and a message" test $? = 2 -a -s "$work/err"
check "a bad -K spec: the message names it" grep -q '^local_context: -K add,notanumber: ' "$work/err"
exit $status
