#!/bin/bash
# make_expected.sh: rewrites tests/compat/expected/*.out from PCP itself:
# each program is built against PCP's <pcp/pmapi.h> and libpcp and run on
# the same cases as compat_test.sh. Run by hand when a case changes (PCP
# 6.0.3 and libpcp3-dev must be installed); local.out is not touched, and
# host.out only with PMCD_PORT set (see the end).
#
# Usage: tests/compat/make_expected.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for prog in monitor fetchgroup api labels layout; do
  cc -Wall -Wextra -Werror -DPCP_6_0_HEADER -o "$work/$prog" "$here/$prog.c" -lpcp -lpthread
done
gen() {
  local name=$1 prog=$2; shift 2
  { env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= "$work/$prog" "$@" 2>&1; echo "exit status $?"; } \
    > "$here/expected/$name.out" || true
}
cd "$here/../data/archives/reference"
gen layout layout
gen monitor-hostzone monitor -a small-v3/small-v3 -t 2 -z
gen monitor-window monitor -a small-v3/small-v3 -S +4 -T +20 -t 3 -Z EST5EDT -r
gen monitor-v2 monitor -a small-v2/small-v2 -t 3 -s 5
gen monitor-compressed monitor -a compressed/compressed -t 4 -A 4
gen monitor-usage monitor --bogus
gen monitor-badwindow monitor -a small-v3/small-v3 -S @junk
gen monitor-noarchive monitor -a no/such/archive
gen fetchgroup fetchgroup small-v3/small-v3 events/events
gen fetchgroup-v2 fetchgroup small-v2/small-v2 events-v3/events-v3
gen fetchgroup-compressed fetchgroup compressed/compressed
gen api api small-v3/small-v3 events/events
gen api-v2 api small-v2/small-v2 events-v3/events-v3
gen labels-ok-foo labels ../qa/ok-foo_v3/ok-foo_v3 sample.colour sample.bin sample.long.one sample.seconds
gen labels-sample-proc labels ../qa/sample-proc_v3/sample-proc_v3 sample.proc.ordinal pmcd.pid
gen labels-multivol labels multivol-v3/multivol-v3 sample.seconds sample.colour
# host.out needs a pmcd with the sample agent: scripts/pmcd-private.sh
# start, then run with PMCD_PORT set to its port.
if [ -n "${PMCD_PORT:-}" ]; then
  cc -Wall -Wextra -Werror -o "$work/host" "$here/host.c" -lpcp
  { env TZ=UTC LC_ALL=C "$work/host" "localhost:$PMCD_PORT" 2>&1; echo "exit status $?"; } \
    > "$here/expected/host.out" || true
fi
