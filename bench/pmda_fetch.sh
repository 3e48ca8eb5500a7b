#!/bin/bash
# Fetch rate through a daemon agent, and the agent's CPU per fetch: PCP's
# shipped simple agent (/var/lib/pcp/pmdas/simple/simple.c) built
# unchanged against PCP's libpcp_pmda and against this library, each run
# as a pipe agent under its own private pmcd (scripts/pmcd-private.sh),
# the two side by side.
# The same libpcp client (bench/pmda_fetch/client.c) fetches
# simple.numfetch and simple.color (three instances) over pmcd's unix
# socket; the agent's CPU comes from /proc/PID/schedstat (total)
# and /proc/PID/stat (user and system).
#
#   bench/pmda_fetch.sh [BUILD_DIR] [FETCHES] [ROUNDS]
#
# With PMDA_FETCH_AGENT=sample, the agent is instead PCP's own compiled
# sample daemon (/var/lib/pcp/pmdas/sample/pmdasample, as Debian installs
# it), run once as it is (over libpcp_pmda) and once through the build's
# launcher (over the drop-in libpcp.so.3 and libpcp_pmda.so.3), fetching
# sample.long.one and sample.colour (three instances).
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
n=${2:-3000}
rounds=${3:-11}
agent=${PMDA_FETCH_AGENT:-simple}
case "$agent" in
  simple) metrics="" ;;
  sample) metrics="sample.long.one sample.colour" ;;
  *) echo "PMDA_FETCH_AGENT: simple or sample" >&2; exit 2 ;;
esac
# the peer programs linked with libpcp live outside the build tree
out="${PMAPI_BENCH_DIR:-${TMPDIR:-/tmp}/pmapi-bench}/pmda-fetch"
sys=/var/lib/pcp/pmdas
script="$top/scripts/pmcd-private.sh"
rm -rf "$out"
mkdir -p "$out/var/config/pmda"
PCP_USER=$(id -un)
PCP_VAR_DIR="$out/var"
export PCP_USER PCP_VAR_DIR

cc -O2 -I"$top/bench/common" "$top/bench/pmda_fetch/client.c" -o "$out/client" -lpcp
cc -O2 "$top/bench/pmda_fetch/loop.c" -o "$out/loop_pcp" -lpcp_pmda -lpcp
cc -O2 -I"$top/core/include" -I"$top/libpmapi/include" "$top/bench/pmda_fetch/loop.c" -o "$out/loop_ours" \
  -L"$build/libpmapi" -Wl,-rpath,"$build/libpmapi" -lpmapi
for lib in pcp ours; do
  echo "request loop, $lib: $("$out/loop_$lib" 200000 2>/dev/null)"
done
if [ "$agent" = sample ]; then
  { echo "root { sample }"; sed 's/SAMPLE:/29:/' "$sys/sample/pmns"; } >"$out/ns_sample"
  /usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_pmcd "$out/ns_sample" "$out/root" >/dev/null
  [ -x "$build/dropin/pmapi-run-build" ] || { echo "no $build/dropin/pmapi-run-build" >&2; exit 2; }
  for lib in pcp ours; do
    if [ "$lib" = pcp ]; then run=""; else run="$build/dropin/pmapi-run-build "; fi
    {
      echo "pmcd	2	dso	pmcd_init	$sys/pmcd/pmda_pmcd.so"
      echo "sample	29	pipe	binary	$run$sys/sample/pmdasample -d 29"
      printf '\n[access]\nallow "local:*" : all;\n'
    } >"$out/$lib.conf"
  done
fi
{ echo "root { simple }"; sed 's/SIMPLE:/253:/' "$sys/simple/pmns"; } >"$out/ns_simple"
[ "$agent" = sample ] ||
  /usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_pmcd "$out/ns_simple" "$out/root" >/dev/null
for lib in pcp ours; do
  [ "$agent" = simple ] || break
  d="$out/$lib/pmdas/simple"
  mkdir -p "$d"
  if [ "$lib" = pcp ]; then
    libs="-lpcp_pmda -lpcp"
  else
    libs="-I$top/core/include -I$top/libpmapi/include -L$build/libpmapi -Wl,-rpath,$build/libpmapi -lpmapi"
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

# cpu PID: the CPU time the process has used, in nanoseconds: user,
# system (from /proc/PID/stat, in clock ticks converted) and their sum as
# the scheduler counts it (/proc/PID/schedstat, to the nanosecond).
hz=$(getconf CLK_TCK)
cpu() {
  # the fields after the command name (which may hold spaces): utime is
  # the 12th and stime the 13th of them
  ticks=$(sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12, $13}')
  echo "$ticks $(cut -d' ' -f1 "/proc/$1/schedstat")" |
    awk -v hz="$hz" '{printf "%.0f %.0f %s", $1 * 1e9 / hz, $2 * 1e9 / hz, $3}'
}

# Both pmcds run side by side and the client alternates between them, so
# that both builds see the same load on a shared machine. Each round runs
# the two in turn (which goes first alternates from round to round) and
# yields one paired ratio; the medians of the rates, of the CPU per fetch
# and of the ratios are the result, the CPU split into user and system
# time being summed over all rounds (a clock tick is 10 ms).
declare_agent() {
  env=$(PMCD_PRIVATE_CONF="$out/$1.conf" PMCD_PRIVATE_PMNS="$out/root" "$script" start "$out/$1")
  eval "sock_$1=$(echo "$env" | sed -n 's/^PMCD_SOCKET=//p')"
  pmcd=$(cat "$out/$1/run/pmcd.pid")
  eval "agent_$1=$(ps -o pid= -o comm= --ppid "$pmcd" | awk -v a="pmda$agent" '$2 == a {print $1}')"
}
declare_agent pcp
declare_agent ours
trap '"$script" stop "$out/pcp"; "$script" stop "$out/ours"' EXIT
for lib in pcp ours; do
  eval "sock=\$sock_$lib"
  # shellcheck disable=SC2086
  "$out/client" "unix:$sock" 200 $metrics >/dev/null # warm up
done

# measure LIB: one run; appends "LIB RATE CPU_US USER_NS SYS_NS" to the log.
measure() {
  eval "sock=\$sock_$1 agent=\$agent_$1"
  before=$(cpu "$agent")
  # shellcheck disable=SC2086
  line=$("$out/client" "unix:$sock" "$n" $metrics)
  after=$(cpu "$agent")
  echo "$1 $(echo "$line" | awk '{print $2}') $before $after $n" |
    awk '{printf "%s %s %.2f %d %d\n", $1, $2, ($8 - $5) / $9 / 1000, $6 - $3, $7 - $4}' >>"$log"
  tail -1 "$log" | awk '{printf "%s %s fetches/s %s us agent CPU/fetch\n", $1, $2, $3}'
}

log="$out/rounds.txt"
: >"$log"
round=0
while [ "$round" -lt "$rounds" ]; do
  if [ $((round % 2)) -eq 0 ]; then order="pcp ours"; else order="ours pcp"; fi
  for lib in $order; do measure "$lib"; done
  round=$((round + 1))
done

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# the lower and upper quartiles: the rounds least disturbed by other load
low_quartile() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 3) / 4)]}'; }
high_quartile() { sort -n | awk '{v[NR] = $1} END {print v[NR - int((NR + 3) / 4) + 1]}'; }
column() { grep "^$1 " "$log" | awk -v f="$2" '{print $f}'; }
# paired ratios, round by round: ours / pcp
ratios() { paste -d' ' <(column pcp "$1") <(column ours "$1") | awk '{printf "%.3f\n", $2 / $1}'; }
for lib in pcp ours; do
  u=$(column "$lib" 4 | awk -v n="$n" -v r="$rounds" '{s += $1} END {printf "%.1f", s / n / r / 1000}')
  y=$(column "$lib" 5 | awk -v n="$n" -v r="$rounds" '{s += $1} END {printf "%.1f", s / n / r / 1000}')
  echo "median $lib: $(column "$lib" 2 | median) fetches/s, $(column "$lib" 3 | median) us agent CPU/fetch" \
    "(all rounds: $u us user + $y us system per fetch)"
  echo "quartile $lib: $(column "$lib" 2 | high_quartile) fetches/s (upper)," \
    "$(column "$lib" 3 | low_quartile) us agent CPU/fetch (lower)"
done
echo "median of paired ratios, ours/pcp: rate $(ratios 2 | median), agent CPU per fetch $(ratios 3 | median)"
