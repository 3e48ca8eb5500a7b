#!/bin/sh
# derived_metric (examples/cxx/derived_metric.cc). On an archive its values
# must be PCP's: the definitions it prints ("NAME = EXPR") are given to
# PCP's pmval as a derived metric configuration (PCP_DERIVED_CONFIG), and
# `pmval -r -a ARCHIVE -t STEP -s N -f 3 NAME` must report, for every NAME,
# the values derived_metric reports (raw: a derived counter is not turned
# into a rate); with the default definitions and
# with definitions of the command line. Live (a local context, no pmcd):
# the same lines, with rates from the second sample on and a memory
# percentage between 0 and 100. A definition the library refuses must
# fail with PCP's message (the expression, a caret line, the reason).
#
#   tests/examples/cxx/derived_metric_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP SAMPLES [NAME=EXPR...]
compare() {
  a=$1 step=$2 samples=$3
  shift 3
  run "$work/got" "$bin/derived_metric" -a "$a" -t "$step" -s "$samples" "$@"
  grep ' = ' "$work/got" >"$work/derived.conf"
  check "the definitions printed" \
    test "$(wc -l <"$work/derived.conf")" = "$(($# > 0 ? 2 + $# : 3))"
  for m in $(awk '{ print $1 }' "$work/derived.conf"); do
    PCP_DERIVED_CONFIG="$work/derived.conf" "$PCP_BIN/pmval" -r -a "$a" -t "$step" -s "$samples" -f 3 "$m" |
      pmval_lines "$m"
  done | sort >"$work/want"
  grep -v ' = ' "$work/got" | sort >"$work/got.values"
  same "$(basename "$a") -t $step -s $samples $*" "$work/want" "$work/got.values"
}
compare "$small_v3" 2 14
compare "$small_v3" 0.5 50
compare "$small_v2" 3 9
compare "$small_v3" 1 20 "my.free_kb=mem.util.free" "my.pswitch=rate(kernel.all.pswitch)" \
  "my.ctx_per_cpu=kernel.all.pswitch / hinv.ncpu"

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

# A definition with a syntax error: PCP's message, status 1.
if "$bin/derived_metric" -a "$small_v3" "my.bad=mem.util.free +" >/dev/null 2>"$work/err"; then
  fail "a bad definition was accepted"
else
  cat "$work/err"
  check "a bad definition: its name first" grep -q '^derived_metric: my\.bad: ' "$work/err"
  check "a bad definition: the expression" grep -qx 'mem\.util\.free +' "$work/err"
  check "a bad definition: the caret line" grep -qx ' *\^' "$work/err"
fi
exit $status
