#!/bin/sh
# Fetch rate through a daemon agent, and the agent's CPU per fetch: PCP's
# shipped simple agent (/var/lib/pcp/pmdas/simple/simple.c) built
# unchanged against PCP's libpcp_pmda and against this library, each run
# as a pipe agent under its own private pmcd (scripts/pmcd-private.sh),
# the two side by side.
# The same libpcp client (bench/pmda_fetch/client.c) fetches
# simple.numfetch and simple.color (three instances) over pmcd's unix
# socket; the agent's CPU comes from /proc/PID/schedstat.
#
#   bench/pmda_fetch.sh [BUILD_DIR] [FETCHES] [ROUNDS]
#
# BUILD_DIR (default ./build) must hold a built library. First, without
# pmcd, bench/pmda_fetch/loop.c measures each library's own CPU per FETCH
# request (requests read from a memory file, replies to /dev/null, through
# __pmdaMainPDU). The last lines are each build's median rate and median
# agent CPU per fetch under pmcd. Needs PCP 6
# installed (libpcp3-dev, libpcp-pmda3-dev).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
n=${2:-2000}
rounds=${3:-15}
out="$build/bench-pmda-fetch"
sys=/var/lib/pcp/pmdas
script="$top/scripts/pmcd-private.sh"
rm -rf "$out"
mkdir -p "$out/var/config/pmda"
PCP_USER=$(id -un)
PCP_VAR_DIR="$out/var"
export PCP_USER PCP_VAR_DIR

cc -O2 -I"$top/bench/common" "$top/bench/pmda_fetch/client.c" -o "$out/client" -lpcp
cc -O2 "$top/bench/pmda_fetch/loop.c" -o "$out/loop_pcp" -lpcp_pmda -lpcp
cc -O2 -I"$top/libpmapi/include" "$top/bench/pmda_fetch/loop.c" -o "$out/loop_ours" \
  -L"$build/libpmapi" -Wl,-rpath,"$build/libpmapi" -lpmapi
for lib in pcp ours; do
  echo "request loop, $lib: $("$out/loop_$lib" 200000 2>/dev/null)"
done
{ echo "root { simple }"; sed 's/SIMPLE:/253:/' "$sys/simple/pmns"; } >"$out/ns_simple"
/usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_pmcd "$out/ns_simple" "$out/root" >/dev/null
for lib in pcp ours; do
  d="$out/$lib/pmdas/simple"
  mkdir -p "$d"
  if [ "$lib" = pcp ]; then
    libs="-lpcp_pmda -lpcp"
  else
    libs="-I$top/libpmapi/include -L$build/libpmapi -Wl,-rpath,$build/libpmapi -lpmapi"
  fi
  # shellcheck disable=SC2086
  cc -O2 -o "$d/pmdasimple" "$sys/simple/simple.c" $libs -lm
  cp "$sys/simple/help" "$sys/simple/simple.conf" "$d/"
  sed '/^@ SIMPLE\./s/SIMPLE\./253./' "$d/help" | /usr/lib/pcp/bin/newhelp -n "$out/root" -v 2 -o "$d/help"
  {
    echo "pmcd	2	dso	pmcd_init	$sys/pmcd/pmda_pmcd.so"
    echo "simple	253	pipe	binary	$d/pmdasimple -d 253"
    printf '\n[access]\nallow "local:*" : all;\n'
  } >"$out/$lib.conf"
done

# cpu_ns PID: the CPU time the process has used, in nanoseconds.
cpu_ns() { cut -d' ' -f1 "/proc/$1/schedstat"; }

# Both pmcds run side by side and the client alternates between them, so
# that both builds see the same load on a shared machine.
declare_agent() {
  env=$(PMCD_PRIVATE_CONF="$out/$1.conf" PMCD_PRIVATE_PMNS="$out/root" "$script" start "$out/$1")
  eval "sock_$1=$(echo "$env" | sed -n 's/^PMCD_SOCKET=//p')"
  pmcd=$(cat "$out/$1/run/pmcd.pid")
  eval "agent_$1=$(ps -o pid= -o comm= --ppid "$pmcd" | awk '$2 == "pmdasimple" {print $1}')"
}
declare_agent pcp
declare_agent ours
trap '"$script" stop "$out/pcp"; "$script" stop "$out/ours"' EXIT

log="$out/rounds.txt"
: >"$log"
round=0
while [ "$round" -lt "$rounds" ]; do
  for lib in pcp ours; do
    eval "sock=\$sock_$lib agent=\$agent_$lib"
    [ "$round" -gt 0 ] || "$out/client" "unix:$sock" 100 >/dev/null # warm up
    before=$(cpu_ns "$agent")
    line=$("$out/client" "unix:$sock" "$n")
    after=$(cpu_ns "$agent")
    rate=$(echo "$line" | awk '{print $2}')
    echo "$lib $rate fetches/s $(echo "$before $after $n" | awk '{printf "%.2f", ($2 - $1) / $3 / 1000}') us agent CPU/fetch" |
      tee -a "$log"
  done
  round=$((round + 1))
done

median() {
  grep "^$1 " "$log" | awk -v f="$2" '{print $f}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
for lib in pcp ours; do
  echo "median $lib: $(median "$lib" 2) fetches/s, $(median "$lib" 4) us agent CPU/fetch"
done
