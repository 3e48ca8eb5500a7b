#!/bin/sh
# One fetch round over many pmcds, four ways: this library's HostGroup
# (bench/many_hosts/group.cc), a thread per host over our libpcp.so.3
# (bench/many_hosts/threads.c over the drop-in), and PCP's libpcp in one
# thread and with a thread per host (threads.c over libpcp). Each host
# count runs twice: straight to the pmcds, and through a relay that holds
# every chunk back 1 ms each way (bench/many_hosts/relay.cc, standing in
# for a network; this kernel has no netem).
#
#   bench/many_hosts.sh [BUILD_DIR] [HOST_COUNTS] [REPEATS]
#
# BUILD_DIR (default ./build) must hold a built library and drop-in;
# HOST_COUNTS defaults to "16 64 256"; each client runs REPEATS times
# (default 3), in turn with the others, and the medians are reported. The
# pmcds are a private fleet (scripts/pmcd-fleet.sh) started for the run
# and stopped after it. The table: round latency (median of the runs'
# median rounds, and their 90th percentile), client CPU per host-fetch,
# peak memory, and each figure against libpcp in one thread.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
counts=${2:-16 64 256}
repeats=${3:-3}
metrics="sampledso.long.one sampledso.double.ten pmcd.hostname"
work=${PMAPI_BENCH_DIR:-${TMPDIR:-/tmp}/pmapi-bench}/many-hosts
fleet="$top/scripts/pmcd-fleet.sh"
rm -rf "$work"
mkdir -p "$work"
[ -f "$build/dropin/lib/libpcp.so.3" ] || { echo "no drop-in in $build" >&2; exit 1; }

c++ -std=c++20 -O2 -I"$top/core/include" -I"$top/libpmapi/include" "$top/bench/many_hosts/group.cc" -o "$work/group" \
  -L"$build/libpmapi" -Wl,-rpath,"$build/libpmapi" -lpmapi \
  -labsl_statusor -labsl_status -labsl_strings -labsl_time -labsl_time_zone
cc -O2 "$top/bench/many_hosts/threads.c" -o "$work/threads" -lpcp -lpthread
c++ -std=c++20 -O2 "$top/bench/many_hosts/relay.cc" -o "$work/relay"

max=0
for n in $counts; do [ "$n" -le "$max" ] || max=$n; done
relay_pid=""
cleanup() {
  [ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null || true
  "$fleet" stop "$work/fleet" >/dev/null 2>&1 || true
}
trap cleanup EXIT INT TERM
base=46000
until "$fleet" start "$max" "$work/fleet" "$base" 2>"$work/start.err"; do
  "$fleet" stop "$work/fleet" >/dev/null 2>&1 || true
  base=$((base + max + 100))
  [ $((base + 2 * max)) -lt 65000 ] || { cat "$work/start.err" >&2; exit 1; }
done
lbase=$((base + max))
"$work/relay" --delay-ms 1 --from-base "$lbase" --to-base "$base" --count "$max" \
  --host 127.0.0.1 >"$work/relay.out" 2>&1 &
relay_pid=$!
until grep -q ready "$work/relay.out"; do
  kill -0 "$relay_pid" 2>/dev/null || { cat "$work/relay.out" >&2; exit 1; }
  sleep 0.1
done

# hostfile N BASEPORT: N host specs from BASEPORT up.
hostfile() {
  i=0
  while [ "$i" -lt "$1" ]; do
    echo "127.0.0.1:$(($2 + i))"
    i=$((i + 1))
  done
}

# Rounds per run: enough for a steady median, few where a round is slow.
rounds_for() {
  case "$1:$2" in
    direct:*) echo 300 ;;
    relay:256) echo 20 ;;
    relay:*) echo 40 ;;
  esac
}

log="$work/runs.txt"
: >"$log"
for n in $counts; do
  for path in direct relay; do
    port=$base
    [ "$path" = direct ] || port=$lbase
    hostfile "$n" "$port" >"$work/hosts"
    rounds=$(rounds_for "$path" "$n")
    r=0
    while [ "$r" -lt "$repeats" ]; do
      # shellcheck disable=SC2086
      {
        echo "$n $path ours-group $("$work/group" "$rounds" "$work/hosts" $metrics)"
        echo "$n $path ours-threads $(LD_LIBRARY_PATH="$build/dropin/lib" "$work/threads" threads "$rounds" "$work/hosts" $metrics)"
        echo "$n $path pcp-single $("$work/threads" single "$rounds" "$work/hosts" $metrics)"
        echo "$n $path pcp-threads $("$work/threads" threads "$rounds" "$work/hosts" $metrics)"
      } | tee -a "$log" >&2
      r=$((r + 1))
    done
  done
done

# The table: medians over the repeats, ratios against pcp-single.
awk '
function val(line, key,   i, f, n) {
  n = split(line, f, " ")
  for (i = 4; i < n; i++) if (f[i] == key) return f[i + 1]
  return ""
}
function median(list,   a, n, i, j, t) {
  n = split(list, a, " ")
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
  return a[int((n + 1) / 2)]
}
{
  k = $1 " " $2 " " $3
  if (!(k in seen)) { seen[k] = 1; order[++count] = k }
  lat[k] = lat[k] " " val($0, "round_median_us")
  p90[k] = p90[k] " " val($0, "round_p90_us")
  cpu[k] = cpu[k] " " val($0, "cpu_us_per_host_fetch")
  rss[k] = rss[k] " " val($0, "maxrss_kb")
  err[k] += val($0, "errors")
}
END {
  printf "%5s %-6s %-12s %11s %11s %9s %8s %7s %8s %6s\n", "hosts", "path", "client", "round_ms", "p90_ms", "cpu_us/hf", "rss_MB", "errors", "speedup", "cpu_x"
  for (i = 1; i <= count; i++) {
    k = order[i]; split(k, p, " ")
    base = p[1] " " p[2] " pcp-single"
    l = median(lat[k]); c = median(cpu[k])
    printf "%5s %-6s %-12s %11.2f %11.2f %9.2f %8.1f %7d %7.1fx %5.2fx\n", p[1], p[2], p[3], l / 1000, median(p90[k]) / 1000, c, median(rss[k]) / 1024, err[k], median(lat[base]) / l, c / median(cpu[base])
  }
}' "$log"
