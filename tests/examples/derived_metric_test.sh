#!/bin/sh
# derived_metric (examples/c/derived_metric.c). On an archive its values
# must be PCP's: the definitions it prints ("NAME = EXPR") are given to
# PCP's pmval as a derived metric configuration (PCP_DERIVED_CONFIG), and
# `pmval -a ARCHIVE -t STEP -s N -f 3 NAME` must report, for every
# NAME, the values derived_metric reports. Live (a local context, no
# pmcd): the same lines, with rates from the second sample on and a
# memory percentage between 0 and 100.
#
#   tests/examples/derived_metric_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP SAMPLES
compare() {
  run "$work/got" "$bin/derived_metric" -a "$1" -t "$2" -s "$3"
  grep ' = ' "$work/got" >"$work/derived.conf"
  check "three definitions printed" test "$(wc -l <"$work/derived.conf")" = 3
  for m in $(awk '{ print $1 }' "$work/derived.conf"); do
    PCP_DERIVED_CONFIG="$work/derived.conf" "$PCP_BIN/pmval" -a "$1" -t "$2" -s "$3" -f 3 "$m" |
      pmval_lines "$m"
  done | sort >"$work/want"
  grep -v ' = ' "$work/got" | sort >"$work/got.values"
  same "$(basename "$1") -t $2 -s $3" "$work/want" "$work/got.values"
}
compare "$small_v3" 2 14
compare "$small_v3" 0.5 50
compare "$small_v2" 3 9

export PCP_PMCDCONF_PATH="$top/pmdas/pmcd.conf"
run "$work/live" "$bin/derived_metric" -L -s 3 -t 0.2
cat "$work/live"
t='^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}'
check "live: used_pct in 0..100 each time" env t="$t" awk '
  $0 ~ ENVIRON["t"] " example.mem.used_pct [0-9]+[.][0-9]{3}$" && $3 > 0 && $3 < 100 { n++ }
  END { exit n != 3 }' "$work/live"
for m in example.cpu.busy example.pswitch_per_cpu; do
  check "live: $m, no rate at first, then 2 rates" test \
    "$(grep -Ec "$t $m \\?\$" "$work/live") $(grep -Ec "$t $m [0-9]+\.[0-9]{3}\$" "$work/live")" = "1 2"
done
exit $status
