#!/bin/sh
# archive_interp (examples/cxx/archive_interp.cc) against PCP's pmval on
# the same archive, metric, instance and step (`pmval -r -a ARCHIVE -t
# STEP -f 3 [-i INSTANCE] METRIC`, raw values): the same time stamps, to
# the archive's end, and the same values for every instance (or the one
# asked for), or none where pmval has none. A missing archive, an unknown
# metric or instance, and a bad step fail with PCP's message.
#
#   tests/examples/cxx/archive_interp_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP METRIC [INSTANCE]
# All instances: pmval's lines as pmval_lines makes them, but for an
# instance pmval shows as "?" (none at that time, so the example prints no
# line for it). One instance: pmval's time stamps and values (pmval_lines
# cannot split a column title with spaces), and every line of the example
# must name that instance.
compare() {
  run "$work/got" "$bin/archive_interp" "$@"
  case_name="$(basename "$1") -t $2 $3${4:+ [$4]}"
  if [ $# -eq 4 ]; then
    "$PCP_BIN/pmval" -r -a "$1" -t "$2" -f 3 -i "\"$4\"" "$3" | pmval_lines "$3" |
      awk '{ print $1, $NF }' >"$work/want"
    check "$case_name: every line names the instance" awk -v m="$3" -v i="$4" '
      { name = $0; sub(/^[^ ]* /, "", name); sub(/ [^ ]*$/, "", name) }
      name != m "[" i "]" && !(name == m && $NF == "?") { bad = 1 }
      END { exit bad }' "$work/got"
    awk '{ print $1, $NF }' "$work/got" >"$work/got.sorted"
  else
    "$PCP_BIN/pmval" -r -a "$1" -t "$2" -f 3 "$3" | pmval_lines "$3" |
      awk '!($2 ~ /\]$/ && $3 == "?")' | sort >"$work/want"
    sort "$work/got" >"$work/got.sorted"
  fi
  if [ -n "${skip_first:-}" ]; then
    # pmval sets its start from the label cut to microseconds (PCP's
    # pmSetMode takes a timeval), a few hundred nanoseconds before a first
    # record at the label's own time; the C++ interface keeps the label's
    # nanoseconds and has that record's values at the first step.
    for f in want got.sorted; do
      awk -v t="$(head -n 1 "$work/$f" | cut -d' ' -f1)" '$1 != t' "$work/$f" >"$work/$f.rest"
      mv "$work/$f.rest" "$work/$f"
    done
  fi
  same "$case_name" "$work/want" "$work/got.sorted"
  check "$case_name: more than 3 lines" test "$(wc -l <"$work/want")" -gt 3
}
compare "$small_v3" 2 kernel.all.pswitch
compare "$small_v3" 0.5 kernel.all.pswitch
compare "$small_v3" 3 mem.util.used
compare "$small_v3" 2.5 disk.dev.read
compare "$small_v3" 1 kernel.percpu.cpu.user
compare "$small_v3" 1.5 kernel.all.load "5 minute"
compare "$small_v3" 4 sample.colour blue
compare "$small_v3" 1 sample.double.million
compare "$small_v2" 2 kernel.all.load "15 minute"
compare "$small_v2" 0.75 sample.byte_ctr
compare "$small_v2" 5 network.interface.in.bytes
# Instances that come and go; the first record at the label's time.
proc=$top/tests/data/archives/qa/sample-proc_v3/sample-proc_v3
skip_first=1 compare "$proc" 0.5 sample.proc.ordinal "0010 /etc/koko"
compare "$proc" 0.25 sample.proc.ordinal "0027 /usr/bin/waldo"
compare "$proc" 0.1 sample.proc.ordinal "0029 /usr/opt/bin/jojo"

# errors WHAT STATUS PATTERN ARGS...: the exit status and a stderr line
# matching PATTERN.
errors() {
  case_name=$1 want=$2 pattern=$3
  shift 3
  "$bin/archive_interp" "$@" >/dev/null 2>"$work/err"
  check "$case_name: status $want" test $? = "$want"
  check "$case_name: PCP's message" grep -Eq "$pattern" "$work/err"
}
errors "a missing archive" 1 "^archive_interp: $work/none: No such file or directory\$" "$work/none" 1 kernel.all.load
errors "an unknown metric" 1 '^archive_interp: no\.such: Unknown metric name$' "$small_v3" 1 no.such
errors "an unknown instance" 1 '^archive_interp: no-such: Instance identifier not defined in the PCP archive log$' \
  "$small_v3" 1 kernel.all.load no-such
errors "a bad step" 2 '^archive_interp: STEP is not an interval:$' "$small_v3" "1 fortnight" kernel.all.load
# The diagnostic after that line is PCP's own, as pmval prints it.
"$PCP_BIN/pmval" -t '1 fortnight' -a "$small_v3" kernel.all.load 2>&1 | sed -n '2,3p' >"$work/want"
sed -n '2,$p' "$work/err" >"$work/got"
same "a bad step: PCP's diagnostic" "$work/want" "$work/got"
exit $status
