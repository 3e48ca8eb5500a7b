#!/bin/sh
# Fetch rate and CPU per fetch in a local context (agents in-process, no
# pmcd), for this library and for PCP's libpcp, side by side in one run:
# a constant metric of a test agent (ours: test.long.minus_one of the
# test agent, a shared object as PCP's is; PCP: sampledso.long.one of its sample agent, 30.0.10)
# kernel.all.load of the Linux agent (ours built in, PCP's
# pmda_linux.so, 60.2.0), and eight proc.psinfo metrics of every process
# (ours built in, PCP's pmda_proc.so, domain 3).
#
#   bench/local_fetch.sh [BUILD_DIR] [FETCHES]
#
# Each pair runs ROUNDS times (default 5), alternating ours and PCP's, and
# prints a table row of medians and the ratios ours/PCP of rate and CPU.
# BUILD_DIR (default ./build) must hold a built library and test agent
# (its pmdas/pmcd.conf lists the agents). Needs PCP's
# libpcp3-dev and its sample and linux agents (scripts/install-deps.sh --pcp).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-1000000}
# the peer programs linked with libpcp live outside the build tree
out="${PMAPI_BENCH_DIR:-${TMPDIR:-/tmp}/pmapi-bench}/local-fetch"
mkdir -p "$out"
pmdas=/var/lib/pcp/pmdas

c++ -std=c++20 -O2 -I"$top/bench/common" -I"$top/core/include" -I"$top/libpmapi/include" -I"$top/pmns/include" -I"$top/archive/include" \
  "$top/bench/local_fetch/ours.cc" -o "$out/ours" \
  -L"$build/libpmapi" -Wl,-rpath,"$build/libpmapi" -lpmapi \
  -labsl_statusor -labsl_status -labsl_strings -labsl_time -labsl_time_zone
cc -O2 -I"$top/bench/common" "$top/bench/local_fetch/pcp.c" -o "$out/pcp" -lpcp

# PCP's local context loads the dso agents its pmcd.conf names.
cat > "$out/pcp-pmcd.conf" <<CONF
linux	60	dso	linux_init	$pmdas/linux/pmda_linux.so
sampledso	30	dso	sample_init	$pmdas/sample/pmda_sample.so
proc	3	dso	proc_init	$pmdas/proc/pmda_proc.so
CONF
psinfo=proc.psinfo.pid,proc.psinfo.cmd,proc.psinfo.sname,proc.psinfo.ppid,proc.psinfo.utime,proc.psinfo.stime,proc.psinfo.vsize,proc.psinfo.rss
psinfo_ids=3.8.0,3.8.1,3.8.2,3.8.3,3.8.13,3.8.14,3.8.22,3.8.23

rounds=${ROUNDS:-5}
ours_env="PCP_PMCDCONF_PATH=$build/pmdas/pmcd.conf"
pcp_env="PCP_PMCDCONF_PATH=$out/pcp-pmcd.conf"

# pair LABEL OURS_METRICS PCP_PMIDS FETCHES: runs both `rounds` times,
# alternating, and prints one table row: the medians of fetches/s and CPU
# per fetch of each, and the ratios (ours/PCP rate, ours/PCP CPU).
pair() {
  : > "$out/ours.txt"
  : > "$out/pcp.txt"
  for _ in $(seq "$rounds"); do
    env "$ours_env" "$out/ours" "$2" "$4" | awk '{print $(NF-4), $(NF-2)}' >> "$out/ours.txt"
    env "$pcp_env" "$out/pcp" "$3" "$4" | awk '{print $(NF-4), $(NF-2)}' >> "$out/pcp.txt"
  done
  awk -v label="$1" '
    function median(a, n,   i, j, t) {
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    FNR == 1 { f++ }
    f == 1 { orate[++on] = $1; ocpu[on] = $2 }
    f == 2 { prate[++pn] = $1; pcpu[pn] = $2 }
    END {
      ro = median(orate, on); co = median(ocpu, on); rp = median(prate, pn); cp = median(pcpu, pn)
      printf "| %s | %.0f | %.3f | %.0f | %.3f | %.2fx | %.2f |\n", label, ro, co, rp, cp, ro / rp, co / cp
    }' "$out/ours.txt" "$out/pcp.txt"
}

echo "$n fetches per run (kernel.all.load n/10, proc.psinfo n/1000), $rounds rounds, medians; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| metric | ours fetches/s | ours us CPU/fetch | PCP fetches/s | PCP us CPU/fetch | rate ours/PCP | CPU ours/PCP |"
echo "|---|---:|---:|---:|---:|---:|---:|"
pair "constant (test.long.minus_one / sampledso.long.one)" test.long.minus_one 30.0.10 "$n"
pair "kernel.all.load" kernel.all.load 60.2.0 $((n / 10))
pair "8 proc.psinfo metrics of $(ls -d /proc/[0-9]* | wc -l) processes" "$psinfo" "$psinfo_ids" $((n / 1000))
