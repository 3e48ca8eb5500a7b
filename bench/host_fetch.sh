#!/bin/sh
# Fetch rate and client CPU per fetch of sample.long.one over pmcd's unix
# socket, for this library and for PCP's libpcp, against the same pmcd in
# the same run.
#
#   bench/host_fetch.sh [BUILD_DIR] [FETCHES]
#
# BUILD_DIR (default ./build) must hold a built library. The pmcd is the
# private one of scripts/pmcd-private.sh (started if needed, in
# BUILD_DIR/bench-pmcd, and stopped again afterwards if this script started
# it). Needs PCP's libpcp3-dev for the comparison program.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-20000}
out="$build/bench-host-fetch"
pmcd_dir="$build/bench-pmcd"
mkdir -p "$out"

c++ -std=c++20 -O2 -I"$top/libpmapi/include" -I"$top/pmns/include" -I"$top/archive/include" \
  "$top/bench/host_fetch/ours.cc" -o "$out/ours" \
  -L"$build/libpmapi" -Wl,-rpath,"$build/libpmapi" -lpmapi \
  -labsl_statusor -labsl_status -labsl_strings -labsl_time -labsl_time_zone
cc -O2 "$top/bench/host_fetch/pcp.c" -o "$out/pcp" -lpcp

started=no
if ! "$top/scripts/pmcd-private.sh" status "$pmcd_dir"; then
  "$top/scripts/pmcd-private.sh" start "$pmcd_dir" >/dev/null
  started=yes
fi
eval "$("$top/scripts/pmcd-private.sh" env "$pmcd_dir" | sed 's/^/export /')"
echo "$n fetches of sample.long.one over unix: ($PMCD_SOCKET)"
for round in 1 2; do
  "$out/ours" unix: "$n"
  "$out/pcp" unix: "$n"
done
[ "$started" = no ] || "$top/scripts/pmcd-private.sh" stop "$pmcd_dir"
