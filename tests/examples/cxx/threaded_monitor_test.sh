#!/bin/sh
# threaded_monitor (examples/cxx/threaded_monitor.cc): a thread and a
# context per metric. Over an archive each thread's lines must be what
# PCP's pmval reports for its metric (`pmval -r -a ARCHIVE -t STEP -s N -f 3
# METRIC`, raw values), in the order of the metrics. Live, against a
# private pmcd of the test's own with PCP's sample agents: every thread's
# samples, in order, of the expected form (sample.long.ten is 10, the
# string is "hullo world!", sample.colour has three values, pmcd.numagents
# is what PCP's pminfo says), with increasing times. A metric pmcd does not
# know fails its thread alone: the others' lines, its error, status 1.
#
#   tests/examples/cxx/threaded_monitor_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP SAMPLES METRIC...
compare() {
  a=$1 step=$2 samples=$3
  shift 3
  run "$work/got" "$bin/threaded_monitor" -a "$a" -t "$step" -s "$samples" "$@"
  for m in "$@"; do
    "$PCP_BIN/pmval" -r -a "$a" -t "$step" -s "$samples" -f 3 "$m" | pmval_lines "$m" |
      awk '{ print $2, $1, $3 }'
  done >"$work/want"
  same "$(basename "$a") -t $step -s $samples $*" "$work/want" "$work/got"
}
compare "$small_v3" 3 10 kernel.all.pswitch mem.util.used hinv.ncpu kernel.all.cpu.user \
  sample.long.million sample.double.million
compare "$small_v2" 1 30 kernel.all.pswitch mem.util.free swap.used

start_pmcd
agents=$("$PCP_BIN/pminfo" -h unix: -f pmcd.numagents | sed -n 's/^ *value //p')
for host in unix: "localhost:$PMCD_PORT"; do
  run "$work/live" "$bin/threaded_monitor" -h "$host" -s 3 -t 0.1 sample.long.ten sample.colour \
    sample.string.hullo pmcd.numagents
  cat "$work/live"
  t='[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}'
  v='[0-9]+\.000'
  {
    for _ in 1 2 3; do echo "^sample\\.long\\.ten $t 10\\.000\$"; done
    for _ in 1 2 3; do echo "^sample\\.colour $t $v,$v,$v\$"; done
    for _ in 1 2 3; do echo "^sample\\.string\\.hullo $t \"hullo world!\"\$"; done
    for _ in 1 2 3; do echo "^pmcd\\.numagents $t $agents\\.000\$"; done
  } >"$work/patterns"
  check "live ($host) 12 lines, each thread's in turn" awk '
    NR == FNR { re[FNR] = $0; n = FNR; next }
    !($0 ~ re[FNR]) { bad = 1 }
    END { exit bad || FNR != n }' "$work/patterns" "$work/live"
  check "live ($host) times increase within a thread" awk '
    $1 == m && $2 <= last { bad = 1 }
    { m = $1; last = $2 }
    END { exit bad }' "$work/live"
done

# One thread fails: the others' lines on stdout, its error on stderr.
"$bin/threaded_monitor" -h unix: -s 2 -t 0.1 sample.long.ten no.such.metric >"$work/out" 2>"$work/err"
check "a failing thread: status 1" test $? = 1
check "a failing thread: the other thread's 2 lines" test "$(grep -c '^sample\.long\.ten ' "$work/out")" = 2 -a \
  "$(wc -l <"$work/out")" = 2
check "a failing thread: its error" grep -qx 'threaded_monitor: no.such.metric: Unknown metric name' "$work/err"
exit $status
