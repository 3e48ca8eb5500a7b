#!/bin/sh
# Fetch rate and client CPU per fetch of sample.long.one over TLS
# (pcps://localhost, TCP), for this library and for PCP's libpcp, against
# the same private pmcd in the same run, with the ratio of the two.
#
#   bench/host_fetch_tls.sh [BUILD_DIR] [FETCHES] [ROUNDS]
#
# The pmcd is a private one (scripts/pmcd-private.sh, in
# $PMAPI_BENCH_DIR/pmcd-tls, default /tmp/pmapi-bench) serving TLS with a
# certificate made here, signed by a CA made here; both clients check it
# against that CA (tls-verify-clients). The clients run in turn, ROUNDS
# times (default 5); the last lines are the medians and better quartiles
# of each, then ours against libpcp's. Also the rate of whole
# connections (TLS handshake, a lookup, one fetch) in one process. Needs openssl and libpcp3-dev.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-20000}
rounds=${3:-5}
work=${PMAPI_BENCH_DIR:-${TMPDIR:-/tmp}/pmapi-bench}
out="$work/host-fetch-tls"
pmcd_dir="$work/pmcd-tls"
mkdir -p "$out"

. "$top/bench/common/host_clients.sh"
build_host_clients "$out" "$top" "$build"

# the certificates and both sides' settings
(
  cd "$out"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=bench CA"
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost"
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2
) >"$out/openssl.log" 2>&1
printf 'tls-cert-file = %s/server.crt\ntls-key-file = %s/server.key\n' "$out" "$out" >"$out/server.conf"
printf 'tls-ca-cert-file = %s/ca.crt\ntls-verify-clients = true\n' "$out" >"$out/client.conf"

"$top/scripts/pmcd-private.sh" stop "$pmcd_dir"
PCP_TLSCONF_PATH=$out/server.conf "$top/scripts/pmcd-private.sh" start "$pmcd_dir" >"$out/pmcd.env"
trap '"$top/scripts/pmcd-private.sh" stop "$pmcd_dir"' EXIT
port=$(sed -n 's/^PMCD_PORT=//p' "$out/pmcd.env")
spec="pcps://localhost:$port"
export PCP_TLSCONF_PATH="$out/client.conf"
echo "$n fetches of sample.long.one over TLS ($spec), $rounds rounds"
log="$out/rounds.txt"
: >"$log"
round=0
while [ "$round" -lt "$rounds" ]; do
  "$out/ours" "$spec" "$n" | tee -a "$log"
  "$out/pcp" "$spec" "$n" | tee -a "$log"
  round=$((round + 1))
done

# connections: 200 in a row in one process (context, lookup, one fetch)
round=0
while [ "$round" -lt "$rounds" ]; do
  "$out/ours" "$spec" 200 connect | tee -a "$log"
  "$out/pcp" "$spec" 200 connect | tee -a "$log"
  round=$((round + 1))
done

. "$top/bench/common/quantile.sh"
print_medians "$log" libpmapi libpcp
echo "connections (context, lookup, one fetch), same columns:"
print_medians "$log" libpmapi-c libpcp-c | tail -n +2
ours=$(quantile "$log" libpmapi 4 2)
pcp=$(quantile "$log" libpcp 4 2)
ours_cpu=$(quantile "$log" libpmapi 2 2)
pcp_cpu=$(quantile "$log" libpcp 2 2)
awk -v a="$ours" -v b="$pcp" -v c="$ours_cpu" -v d="$pcp_cpu" \
  'BEGIN { printf "libpmapi/libpcp: %.2fx the fetch rate, %.2fx the client CPU per fetch\n", a / b, c / d }'
