#!/bin/sh
# fetch_loop (examples/cxx/fetch_loop.cc) on a local context (-L, the
# library's built-in agents; no pmcd): 4 samples 0.25 seconds apart. Each
# line must be a time stamp and every metric in order with values of its
# kind; the stamps must step by about the interval; the processor count
# must be /proc/stat's and the context-switch counter must never go down.
# A bad option must give the usage message and status 1, a bad interval
# PCP's diagnostic (as pmval gives it), an unknown metric its name and PCP's message.
#
#   tests/examples/cxx/fetch_loop_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"
export PCP_PMCDCONF_PATH="$top/pmdas/pmcd.conf"

run "$work/got" "$bin/fetch_loop" -L -s 4 -t 0.25 hinv.ncpu kernel.all.load kernel.all.pswitch \
  kernel.uname.sysname
cat "$work/got"
n='[0-9]+(\.[0-9]+)?'
re="^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} hinv.ncpu=$(grep -c '^cpu[0-9]' /proc/stat)"
re="$re kernel.all.load=$n,$n,$n kernel.all.pswitch=[0-9]+ kernel.uname.sysname=\"$(uname -s)\"\$"
check "4 lines of the expected form" test "$(grep -Ec "$re" "$work/got")" = 4 -a "$(wc -l <"$work/got")" = 4
check "time stamps 0.25 s apart (0.2 to 0.5 s), pswitch never decreasing" awk '
  { split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
    if (NR > 1 && s < ps) s += 86400
    sub(/.*pswitch=/, "", $4); c = $4 + 0
    if (NR > 1 && (s - ps < 0.2 || s - ps > 0.5 || c < pc)) bad = 1
    ps = s; pc = c }
  END { exit bad || NR != 4 }' "$work/got"

# errors WHAT STATUS PATTERN ARGS...: the example must fail with STATUS and
# a stderr line matching PATTERN.
errors() {
  case_name=$1 want=$2 pattern=$3
  shift 3
  "$bin/fetch_loop" "$@" >/dev/null 2>"$work/err"
  got=$?
  check "$case_name: status $want" test "$got" = "$want"
  check "$case_name: message" grep -Eq "$pattern" "$work/err"
}
errors "an unknown option" 1 '^Usage: fetch_loop ' -x hinv.ncpu
errors "a bad interval" 1 '^fetch_loop: -t: not an interval:$' -L -t '2 parsecs' hinv.ncpu
# The diagnostic after that line is PCP's own, as pmval prints it.
"$PCP_BIN/pmval" -t '2 parsecs' -a "$small_v3" hinv.ncpu 2>&1 | sed -n '2,3p' >"$work/want"
sed -n '2,$p' "$work/err" >"$work/got"
same "a bad interval: PCP's diagnostic" "$work/want" "$work/got"
errors "an unknown metric" 1 '^fetch_loop: no\.such\.metric: Unknown metric name$' -L hinv.ncpu no.such.metric
exit $status
