#!/bin/sh
# archive_context (examples/c/archive_context.c) on archives of the tests,
# checked against PCP's tools on the same archives: its header (host,
# start, end, in the archive's time zone) must say what `pmdumplog -z -L`
# says, and its values must be what `pminfo -a ARCHIVE -f NAME...` prints,
# byte for byte.
#
#   tests/examples/archive_context_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"

# header ARCHIVE: pmdumplog's label, in archive_context's words (pmCtime:
# whole seconds).
header() {
  "$PCP_BIN/pmdumplog" -z -L "$1" | sed -n -E \
    -e 's/^Performance metrics from host (.*)/host:  \1/p' \
    -e 's/^ +commencing (.*)\.[0-9]+ ([0-9]+)$/start: \1 \2/p' \
    -e 's/^ +ending +(.*)\.[0-9]+ ([0-9]+)$/end:   \1 \2/p'
}

# compare ARCHIVE NAME...: one archive, the metrics below the names.
compare() {
  a=$1
  shift
  what="$(basename "$a") ${*:-(every name)}"
  run "$work/got" "$bin/archive_context" "$a" "$@"
  header "$a" >"$work/want.head"
  head -n 3 "$work/got" >"$work/got.head"
  same "header of $what" "$work/want.head" "$work/got.head"
  "$PCP_BIN/pminfo" -a "$a" -f "$@" >"$work/want.values" 2>&1
  tail -n +4 "$work/got" >"$work/got.values"
  same "values of $what" "$work/want.values" "$work/got.values"
}

# Singular and instance metrics of every type, strings, aggregates,
# metrics never recorded, instances that come and go (sample-proc), an
# archive in another time zone; whole name spaces and parts of them.
compare "$small_v3" kernel mem swap disk.dev sample.colour sample.string sample.float \
  sample.double sample.longlong sample.mirage sample.bin sample.negative pmcd.pmlogger event
compare "$small_v2" kernel.all hinv sample.long sample.ulonglong sample.drift pmcd.seqnum
compare "$small_v2"
compare "$top/tests/data/archives/qa/sample-proc_v3/sample-proc_v3" sample pmcd
compare "$top/tests/data/archives/qa/omnibus_v3/omnibus_v3"
exit $status
