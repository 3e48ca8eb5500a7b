#!/bin/sh
# archive_context (examples/cxx/archive_context.cc) on archives of the
# tests, checked against PCP's tools on the same archives: its header (the
# host, the first and last records' times in UTC) must say what
# `pmdumplog -L` says, and its values must be what
# `pminfo -a ARCHIVE -f NAME...` prints, byte for byte. An archive that
# does not exist must give PCP's message on stderr and status 1.
#
#   tests/examples/cxx/archive_context_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"

# header ARCHIVE: pmdumplog's label (local time, which is UTC here) in
# archive_context's words: RFC 3339, the fraction without trailing zeros.
header() {
  "$PCP_BIN/pmdumplog" -L "$1" | awk '
    function rfc3339(mon, day, hms, year,   m, frac) {
      m = index("JanFebMarAprMayJunJulAugSepOctNovDec", mon) / 3 + 1
      frac = hms; sub(/^[^.]*/, "", frac); sub(/\..*/, "", hms)
      sub(/0+$/, "", frac); if (frac == ".") frac = ""
      return sprintf("%s-%02d-%02dT%s%s+00:00", year, m, day, hms, frac)
    }
    /^Performance metrics from host / { print "host:  " $5 }
    $1 == "commencing" { print "start: " rfc3339($3, $4, $5, $6) }
    $1 == "ending" { print "end:   " rfc3339($3, $4, $5, $6) }'
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
# archive recorded in another time zone; whole name spaces and parts.
compare "$small_v3" kernel mem disk.dev sample.colour sample.string sample.float sample.double \
  sample.longlong sample.mirage sample.bin sample.negative pmcd.pmlogger event
compare "$small_v2" kernel.all hinv sample.long sample.ulonglong sample.drift pmcd.seqnum
compare "$small_v2"
compare "$top/tests/data/archives/qa/sample-proc_v3/sample-proc_v3" sample pmcd
compare "$top/tests/data/archives/qa/omnibus_v3/omnibus_v3"

# No such archive: status 1, PCP's reason on stderr.
if "$bin/archive_context" "$work/no-such-archive" >/dev/null 2>"$work/err"; then
  fail "archive_context on a missing archive succeeded"
else
  check "a missing archive: PCP's message" \
    grep -q "^archive_context: cannot open archive $work/no-such-archive: No such file or directory\$" "$work/err"
fi
exit $status
