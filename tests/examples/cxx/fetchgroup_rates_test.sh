#!/bin/sh
# fetchgroup_rates (examples/cxx/fetchgroup_rates.cc). On archives it must
# report the rates PCP's pmval reports for the same counters at the same
# steps (`pmval -a ARCHIVE -t STEP -s N -f 3 METRIC`, every instance, its
# first N rows), line for line; live (a local context, no pmcd) the first
# sample has no rate yet and the later ones are rates of a counter:
# numbers, not negative. A metric the source does not have fails with its
# name and PCP's message.
#
#   tests/examples/cxx/fetchgroup_rates_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP SAMPLES METRIC...
compare() {
  a=$1 step=$2 samples=$3
  shift 3
  run "$work/got" "$bin/fetchgroup_rates" -a "$a" -t "$step" -s "$samples" "$@"
  for m in "$@"; do
    "$PCP_BIN/pmval" -a "$a" -t "$step" -s "$samples" -f 3 "$m" | pmval_lines "$m" |
      first_samples "$samples"
  done | sort >"$work/want"
  sort "$work/got" >"$work/got.sorted"
  same "$(basename "$a") -t $step -s $samples $*" "$work/want" "$work/got.sorted"
}
compare "$small_v3" 2 15 kernel.all.pswitch disk.dev.read network.interface.in.bytes
# (Not counters of time: pmval turns their rates into utilisations, the
# group gives them in the metric's own units per second.)
compare "$small_v3" 0.5 40 kernel.all.pswitch sample.ulong.bin_ctr
compare "$small_v2" 3 9 kernel.all.pswitch disk.all.read sample.byte_ctr
# An instant metric is no rate: its interpolated values.
compare "$small_v3" 1.5 12 mem.util.used

export PCP_PMCDCONF_PATH="$top/pmdas/pmcd.conf"
run "$work/live" "$bin/fetchgroup_rates" -L -s 3 -t 0.2 kernel.all.pswitch
cat "$work/live"
t='^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}'
check "live: no rate at first" sh -c "head -n 1 '$work/live' | grep -Eq '$t kernel.all.pswitch \\?\$'"
check "live: then two rates" test "$(grep -Ec "$t kernel.all.pswitch [0-9]+\.[0-9]{3}\$" "$work/live")" = 2
check "live: three lines" test "$(wc -l <"$work/live")" = 3

if "$bin/fetchgroup_rates" -a "$small_v3" no.such.metric >/dev/null 2>"$work/err"; then
  fail "fetchgroup_rates with an unknown metric succeeded"
else
  check "an unknown metric: its name and PCP's message" \
    grep -qx 'fetchgroup_rates: no.such.metric: Unknown metric name' "$work/err"
fi
exit $status
