#!/bin/sh
# host_context (examples/cxx/host_context.cc) against a private pmcd of
# its own (scripts/pmcd-private.sh, below the test's scratch directory)
# with PCP's sample agents, reached over its unix socket and over TCP. Its
# report must be what PCP's `pminfo -h HOST -tdf` prints for the same
# metrics, byte for byte, but for the values of sample.colour, which
# change at every fetch (checked to be numbers); its first line must name
# the host pmcd reports (pmcd.hostname). An unknown metric and a host with
# no pmcd must fail with status 1 and PCP's message on stderr.
#
#   tests/examples/cxx/host_context_test.sh BIN_DIR
bin=$1
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"
start_pmcd

# Numbers of every type, a string, an aggregate, instances, pmcd's own.
metrics="sample.long.ten sample.ulong.million sample.longlong.hundred sample.float.one
sample.double.million sample.string.hullo sample.bin sample.colour pmcd.hostname
pmcd.agent.name pmcd.numagents pmcd.version"
# colour: sample.colour's values masked as N where they are integers
# (anything else stays, so the difference shows)
colour() {
  sed -E '/^sample\.colour /,/^$/s/value [0-9]+$/value N/'
}
hostname=$("$PCP_BIN/pminfo" -h unix: -f pmcd.hostname | sed -n 's/^ *value "\(.*\)"$/\1/p')
for host in unix: "localhost:$PMCD_PORT"; do
  # shellcheck disable=SC2086
  run "$work/got" "$bin/host_context" "$host" $metrics
  # shellcheck disable=SC2086
  "$PCP_BIN/pminfo" -h "$host" -tdf $metrics >"$work/pminfo" 2>&1
  { echo "host: $hostname"; colour <"$work/pminfo"; } >"$work/want"
  colour <"$work/got" >"$work/got.masked"
  same "host_context $host" "$work/want" "$work/got.masked"
done
# A metric pmcd does not know is refused by name, with status 1.
if "$bin/host_context" unix: sample.long.ten no.such.metric >/dev/null 2>"$work/err"; then
  fail "host_context with an unknown metric succeeded"
else
  check "host_context names the unknown metric" \
    grep -qx "host_context: no.such.metric: Unknown metric name" "$work/err"
fi
# No pmcd there: the connection error, status 1.
if "$bin/host_context" localhost:1 sample.long.ten >/dev/null 2>"$work/err"; then
  fail "host_context without a pmcd succeeded"
else
  check "host_context says it cannot connect" \
    grep -qx 'host_context: cannot connect to pmcd on host "localhost:1": Connection refused' "$work/err"
fi
exit $status
