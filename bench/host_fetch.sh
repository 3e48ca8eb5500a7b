#!/bin/sh
# Fetch rate and client CPU per fetch of sample.long.one over pmcd's unix
# socket, for this library, for PCP's libpcp, and for the protocol-only
# floor (bench/host_fetch/raw.c: one send, poll and recv per fetch, no
# library), against the same pmcd in the same run.
#
#   bench/host_fetch.sh [BUILD_DIR] [FETCHES] [ROUNDS]
#
# BUILD_DIR (default ./build) must hold a built library. The three clients
# run in turn, ROUNDS times (default 5), so that all see the same load; the
# last lines are the median rate and median CPU per fetch of each, and the
# better quartile of each. The pmcd
# is the private one of scripts/pmcd-private.sh (started if needed, in
# $PMAPI_BENCH_DIR/pmcd (default /tmp/pmapi-bench), and stopped again afterwards if this script started
# it). Needs PCP's libpcp3-dev for the comparison program.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-20000}
rounds=${3:-5}
# the peer programs linked with libpcp live outside the build tree
work=${PMAPI_BENCH_DIR:-${TMPDIR:-/tmp}/pmapi-bench}
out="$work/host-fetch"
pmcd_dir="$work/pmcd"
mkdir -p "$out"

. "$top/bench/common/host_clients.sh"
build_host_clients "$out" "$top" "$build"
cc -O2 -I"$top/bench/common" "$top/bench/host_fetch/raw.c" -o "$out/raw"

started=no
if ! "$top/scripts/pmcd-private.sh" status "$pmcd_dir"; then
  "$top/scripts/pmcd-private.sh" start "$pmcd_dir" >/dev/null
  started=yes
fi
eval "$("$top/scripts/pmcd-private.sh" env "$pmcd_dir" | sed 's/^/export /')"
pmid=$(pminfo -m sample.long.one | sed 's/.*PMID: //')
echo "$n fetches of sample.long.one ($pmid) over unix: ($PMCD_SOCKET), $rounds rounds"
log="$out/rounds.txt"
: > "$log"
round=0
while [ "$round" -lt "$rounds" ]; do
  "$out/ours" unix: "$n" | tee -a "$log"
  "$out/pcp" unix: "$n" | tee -a "$log"
  "$out/raw" "$PMCD_SOCKET" "$pmid" "$n" | tee -a "$log"
  round=$((round + 1))
done
[ "$started" = no ] || "$top/scripts/pmcd-private.sh" stop "$pmcd_dir"

# On a shared machine a round either runs quiet or loaded (the CPU per fetch
# of all three roughly triples), so the median depends on how many rounds
# the load hit; the better quartile shows the quiet rounds.
. "$top/bench/common/quantile.sh"
print_medians "$log" libpmapi libpcp raw
