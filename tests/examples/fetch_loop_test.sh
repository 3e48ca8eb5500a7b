#!/bin/sh
# fetch_loop (examples/c/fetch_loop.c) on a local context (-L, the
# library's built-in agents; no pmcd): 4 samples 0.25 seconds apart. Each
# line must be a time stamp and every metric in order with values of its
# kind; the stamps must step by about the interval; the processor count
# must be /proc/stat's and the context-switch counter must never go down.
# A bad option must give the usage message and status 1.
#
#   tests/examples/fetch_loop_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"
export PCP_PMCDCONF_PATH="$top/pmdas/pmcd.conf"

run "$work/got" "$bin/fetch_loop" -L -s 4 -t 0.25 hinv.ncpu kernel.all.load kernel.all.pswitch \
  kernel.uname.sysname
cat "$work/got"
n='[0-9]+(\.[0-9]+)?'
re="^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} hinv.ncpu=$(grep -c '^cpu[0-9]' /proc/stat)"
re="$re kernel.all.load=$n,$n,$n kernel.all.pswitch=[0-9]+ kernel.uname.sysname=\"$(uname -s)\"\$"
check "4 lines of the expected form" test "$(grep -Ec "$re" "$work/got")" = 4 -a "$(wc -l <"$work/got")" = 4
check "time stamps 0.25 s apart (0.2 to 1 s), pswitch never decreasing" awk '
  { split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
    if (NR > 1 && s < ps) s += 86400
    sub(/.*pswitch=/, "", $4); c = $4 + 0
    if (NR > 1 && (s - ps < 0.2 || s - ps > 1 || c < pc)) bad = 1
    ps = s; pc = c }
  END { exit bad || NR != 4 }' "$work/got"
if "$bin/fetch_loop" -x hinv.ncpu >/dev/null 2>"$work/err"; then
  fail "fetch_loop -x succeeded"
else
  check "fetch_loop -x prints the usage" grep -q '^Usage: fetch_loop \[options\] metric' "$work/err"
fi
exit $status
