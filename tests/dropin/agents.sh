#!/bin/bash
# agents.sh: PCP's compiled agents (Debian's /var/lib/pcp/pmdas/*/pmda_*.so,
# unchanged) hosted in a local context: PCP's pminfo over libpcp_pmda
# against our pminfo, which binds them to this library. Both run
#   pminfo -n ROOT -L -K clear -K add,DOMAIN,SO,INIT ARGS...
# with the agent's own name space (its root file, expanded with a
# stdpmid made from PCP's stdpmid.pcp and stdpmid.local), and standard
# output, standard error (timestamps and pids masked) and exit status must
# be the same.
#
# Each agent is asked for every descriptor and help text of its own
# subtrees, with their labels where they hold still (-d -T [-l]: the
# sample agent's root also names sampledso's, which has no agent here;
# proc's instance labels follow processes that come and go); the values (-f) too where they do not move
# between two runs on this machine, else for the listed metrics whose
# values hold still (or read the QA suite's fixed /proc files).
#
#   tests/dropin/agents.sh OUR_PMINFO [WORK_DIR]
#
# Then three agents that cannot load (no such file, no such init function,
# not a shared object) must get PCP's warnings.
#
# Prints one line per agent (same, DIFF or left out, with the reason) and
# the count; exits 0 when every agent compared is the same, 77 when PCP's
# agents or pminfo are not installed.
set -uo pipefail

ours=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-/tmp/pmapi-agents-$(id -u)}
pmdas=/var/lib/pcp/pmdas
pmnsdir=/var/lib/pcp/pmns
qa=/var/lib/pcp/testsuite
[ -x /usr/bin/pminfo ] && [ -f "$pmdas/sample/pmda_sample.so" ] || {
  echo "agents: PCP's pminfo and agents are not installed"
  exit 77
}
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
rm -rf "$work"
mkdir -p "$work"

# agent|descriptors: what -d -T asks for|values: what -f asks for|which
#   values are compared (all of them, or some: those that hold still)
agents=(
  "sample|-l sample|sample.long sample.ulong sample.float sample.double sample.string sample.bin sample.colour sample.darkness sample.mirage_longlong sample.dynamic sample.lights sample.magnitude sample.secret sample.ghosts sample.many.count sample.negative sample.scale_step|some"
  "xfs|-l xfs|xfs|all"
  "jbd2|-l jbd2|jbd2|all"
  "dm|-l dmcache dmstats dmthin vdo|dmcache dmstats dmthin vdo|all"
  "cifs|-l cifs|cifs|all"
  "denki|-l denki|denki|all"
  "hacluster|-l ha_cluster|ha_cluster|all"
  "nvidia|-l nvidia|nvidia|all"
  "sendmail|-l sendmail|sendmail|all"
  "smart|-l smart|smart|all"
  "zfs|-l zfs|zfs|all"
  "perfevent|-l perfevent|hinv.ncpu|some"
  "sockets|-l network.persocket|network.persocket.filter|some"
  "linux|-l|hinv.ncpu hinv.pagesize hinv.physmem kernel.uname.sysname tty.serial|some"
  "proc|proc cgroup hotproc|proc.control.all.threads proc.control.perclient.threads|some"
)
# left out, with the reason
left_out=(
  "bpf|needs libpcp_web.so.1 (and BPF modules), which this library does not replace"
  "docker|needs libpcp_web.so.1, which this library does not replace"
  "podman|needs libpcp_web.so.1, which this library does not replace"
  "pmcd|its metrics are pmcd's own state; PCP's local context does not host it"
  "kvm|its init sets a callback before pmdaDSO, and PCP's pminfo dies of it (SIGSEGV)"
  "mmv|PCP's pminfo cannot walk its dynamic root in a local context (No PMCD agent for domain of request)"
)

stdpmid() {
  cat "$pmnsdir"/stdpmid.pcp "$pmnsdir"/stdpmid.local 2>/dev/null | grep -v '^#' |
    awk 'NF >= 2 { print "#define", $1, $2 }'
}

# The agent's name space in its own directory: PCP's "root" where the
# agent ships one, else PCP's root_NAME behind the domain macros.
make_root() {
  local name=$1 dir=$work/$1/pmns
  mkdir -p "$dir"
  stdpmid >"$dir/stdpmid"
  cp "$pmdas/$name"/root* "$pmdas/$name"/pmns* "$dir"/ 2>/dev/null
  if [ ! -f "$dir/root" ]; then
    cp "$pmnsdir/root_$name" "$dir/" || return 1
    printf '#include <stdpmid>\n#include "root_%s"\n' "$name" >"$dir/root"
  fi
  echo "$dir/root"
}

domain_of() {
  awk '$1 == "#define" && $3 ~ /^[0-9]+$/ { d = $3 } END { print d }' "$pmdas/$1/domain.h"
}

mask() {
  sed -E 's/\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8}\] pminfo\([0-9]+\)/[DATE] pminfo(PID)/g'
}

# run PROGRAM NAME OUT ARGS...: output and status of one pminfo
run() {
  local prog=$1 out=$2
  shift 2
  (cd "$pmdas/$name" && "$prog" "$@") >"$out.raw" 2>&1
  echo "exit $?" >>"$out.raw"
  mask <"$out.raw" >"$out"
}

same=0 total=0 failed=""
for entry in "${agents[@]}"; do
  IFS='|' read -r name describe ask values <<<"$entry"
  so=$pmdas/$name/pmda_$name.so
  if [ ! -f "$so" ]; then
    echo "$name: left out (not installed)"
    continue
  fi
  root=$(make_root "$name") || {
    echo "$name: left out (no name space)"
    continue
  }
  args=(-n "$root" -L -K clear -K "add,$(domain_of "$name"),$so,${name}_init")
  env=()
  [ "$name" = linux ] && [ -d "$qa/linux" ] && {
    # the serial lines of a QA fixture, read as root (PCP's uid attribute)
    mkdir -p "$work/linux/proc/tty/driver"
    cp "$qa/linux/proc_serial_tty" "$work/linux/proc/tty/driver/serial" 2>/dev/null
    env=(LINUX_STATSPATH="$work/linux")
  }
  total=$((total + 1))
  ok=1
  for pass in describe values; do
    # shellcheck disable=SC2086
    if [ "$pass" = describe ]; then set -- -d -T $describe; else set -- -f $ask; fi
    run env "$work/$name/$pass.pcp" "${env[@]}" /usr/bin/pminfo "${args[@]}" "$@"
    run env "$work/$name/$pass.ours" "${env[@]}" "$ours" "${args[@]}" "$@"
    cmp -s "$work/$name/$pass.pcp" "$work/$name/$pass.ours" || ok=0
  done
  lines=$(cat "$work/$name"/*.pcp | wc -l)
  if [ $ok = 1 ]; then
    same=$((same + 1))
    echo "$name: same ($lines lines; values: $values)"
  else
    failed="$failed $name"
    echo "$name: DIFF"
    for pass in describe values; do diff "$work/$name/$pass.pcp" "$work/$name/$pass.ours" | head -20; done
  fi
done
# Agents that cannot be loaded: PCP's warnings, as PCP's pminfo prints them.
name=sample
root=$(make_root sample)
for bad in "add,29,$work/no-such-agent.so,sample_init" "add,29,$pmdas/sample/pmda_sample.so,no_such_init" \
  "add,29,$pmdas/sample/help,sample_init"; do
  total=$((total + 1))
  run /usr/bin/pminfo "$work/bad.pcp" -n "$root" -L -K clear -K "$bad" -f sample.long.one
  run "$ours" "$work/bad.ours" -n "$root" -L -K clear -K "$bad" -f sample.long.one
  if cmp -s "$work/bad.pcp" "$work/bad.ours"; then
    same=$((same + 1))
    echo "-K $bad: same warning"
  else
    failed="$failed bad-load"
    echo "-K $bad: DIFF"
    diff "$work/bad.pcp" "$work/bad.ours"
  fi
done
for entry in "${left_out[@]}"; do
  IFS='|' read -r name why <<<"$entry"
  echo "$name: left out ($why)"
done
echo "agents: $same of $total the same as over libpcp_pmda (agents and failed loads); left out ${#left_out[@]}"
[ -z "$failed" ]
