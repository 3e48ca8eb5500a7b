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
# BUILD_DIR (default ./build) must hold a built library and test agent
# (its pmdas/pmcd.conf lists the agents). Needs PCP's
# libpcp3-dev and its sample and linux agents (scripts/install-deps.sh --pcp).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-1000000}
out="$build/bench-local-fetch"
mkdir -p "$out"
pmdas=/var/lib/pcp/pmdas

c++ -std=c++20 -O2 -I"$top/bench/common" -I"$top/libpmapi/include" -I"$top/pmns/include" -I"$top/archive/include" \
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

echo "$n fetches per run, local context"
for round in 1 2; do
  PCP_PMCDCONF_PATH="$build/pmdas/pmcd.conf" "$out/ours" test.long.minus_one "$n"
  PCP_PMCDCONF_PATH="$out/pcp-pmcd.conf" "$out/pcp" 30.0.10 "$n"
  PCP_PMCDCONF_PATH="$build/pmdas/pmcd.conf" "$out/ours" kernel.all.load $((n / 10))
  PCP_PMCDCONF_PATH="$out/pcp-pmcd.conf" "$out/pcp" 60.2.0 $((n / 10))
  PCP_PMCDCONF_PATH="$build/pmdas/pmcd.conf" "$out/ours" "$psinfo" $((n / 1000))
  PCP_PMCDCONF_PATH="$out/pcp-pmcd.conf" "$out/pcp" "$psinfo_ids" $((n / 1000))
done
