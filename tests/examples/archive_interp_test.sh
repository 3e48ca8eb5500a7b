#!/bin/sh
# archive_interp (examples/c/archive_interp.c) against PCP's pmval on the
# same archive, metric, instance and step (`pmval -z -a ARCHIVE -t STEP -f 3
# [-i INSTANCE] METRIC`): the same time stamps, to the archive's end, and
# the same values (instant metrics interpolated, counters as rates), or
# none where pmval has none.
#
#   tests/examples/archive_interp_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"

# compare ARCHIVE STEP METRIC [INSTANCE]
compare() {
  run "$work/got" "$bin/archive_interp" "$@"
  if [ $# -eq 4 ]; then
    "$PCP_BIN/pmval" -z -a "$1" -t "$2" -f 3 -i "\"$4\"" "$3"
  else
    "$PCP_BIN/pmval" -z -a "$1" -t "$2" -f 3 "$3"
  fi | pmval_lines x | awk '{ print $1, $3 }' >"$work/want"
  same "$(basename "$1") -t $2 $3${4:+ [$4]}" "$work/want" "$work/got"
}
compare "$small_v3" 2 kernel.all.pswitch
compare "$small_v3" 0.5 kernel.all.pswitch
compare "$small_v3" 3 mem.util.used
compare "$small_v3" 1.5 kernel.all.load "5 minute"
compare "$small_v3" 2.5 disk.dev.read vda
compare "$small_v3" 4 sample.colour blue
compare "$small_v3" 1 sample.double.million
compare "$small_v2" 2 kernel.all.load "15 minute"
compare "$small_v2" 0.75 sample.byte_ctr
compare "$top/tests/data/archives/qa/sample-proc_v3/sample-proc_v3" 0.5 sample.proc.ordinal "0010 /etc/koko"
exit $status
