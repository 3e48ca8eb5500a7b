#!/bin/bash
# daemons.sh: PCP's compiled daemon agents (pmdasample, pmdalinux, pmdaproc,
# pmdaxfs, as Debian installs them) under PCP's own pmcd, twice: run as
# they are (over libpcp_pmda) by one private pmcd, and through the
# launcher (over the drop-in libpcp.so.3 and libpcp_pmda.so.3) by another.
# PCP's pminfo, pmval and pmstore then ask both the same questions, and
# what they print (times of day masked) and their exit status must be the
# same.
#
#   tests/dropin/daemons.sh BUILD_DIR [WORK_DIR]
#
# Prints one line per question and the count; exits 0 when every answer is
# the same, 77 when PCP is not installed.
set -uo pipefail

build=$(cd "$1" && pwd)
work=${2:-/tmp/pmapi-daemons-$(id -u)}
top=$(cd "$(dirname "$0")/../.." && pwd)
script=$top/scripts/pmcd-private.sh
pmdas=/var/lib/pcp/pmdas
pmnsdir=/var/lib/pcp/pmns
run=$build/dropin/pmapi-run-build
[ -x /usr/lib/pcp/bin/pmcd ] && [ -x "$pmdas/sample/pmdasample" ] || {
  echo "daemons: PCP's pmcd and agents are not installed"
  exit 77
}
[ -x "$run" ] || {
  echo "daemons: no $run (build the drop-in first)"
  exit 2
}
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
rm -rf "$work"
mkdir -p "$work/ns"

# The name space: pmcd's, the three agents' as PCP installs them, and
# sample's (domain 29), behind a stdpmid made from PCP's lists.
(
  cd "$work/ns" || exit 1
  cp "$pmnsdir"/root_pmcd "$pmnsdir"/root_linux "$pmnsdir"/root_proc "$pmnsdir"/root_xfs .
  grep -hv '^#' "$pmnsdir"/stdpmid.pcp "$pmnsdir"/stdpmid.local | awk 'NF >= 2 { print "#define", $1, $2 }' >stdpmid
  { echo "root { sample }"; sed 's/SAMPLE:/29:/' "$pmdas/sample/pmns"; } >ns_sample
  /usr/lib/pcp/bin/pmnsmerge -a root_pmcd root_linux root_proc root_xfs ns_sample root >/dev/null
) || exit 2

# start FORM PREFIX: a private pmcd whose agents run through PREFIX
start() {
  local dir=$work/$1 prefix=$2 a
  mkdir -p "$dir/pmdas"
  # the agents find their help below PCP_PMDAS_DIR, which is DIR/pmdas
  for a in linux proc xfs; do
    mkdir -p "$dir/pmdas/$a"
    cp "$pmdas/$a"/help.dir "$pmdas/$a"/help.pag "$dir/pmdas/$a/"
  done
  {
    echo "pmcd	2	dso	pmcd_init	$pmdas/pmcd/pmda_pmcd.so"
    echo "sample	29	pipe	binary	$prefix$pmdas/sample/pmdasample -d 29"
    echo "linux	60	pipe	binary	$prefix$pmdas/linux/pmdalinux"
    echo "proc	3	pipe	binary	$prefix$pmdas/proc/pmdaproc -d 3"
    echo "xfs	11	pipe	binary	$prefix$pmdas/xfs/pmdaxfs -d 11"
    printf '\n[access]\nallow "local:*" : all;\n'
  } >"$work/$1.conf"
  PMCD_PRIVATE_CONF="$work/$1.conf" PMCD_PRIVATE_PMNS="$work/ns/root" "$script" start "$dir" |
    sed -n 's/^PMCD_SOCKET=//p'
}
sock_pcp=$(start pcp "")
sock_ours=$(start ours "$run ")
trap '"$script" stop "$work/pcp" >/dev/null 2>&1; "$script" stop "$work/ours" >/dev/null 2>&1' EXIT
[ -n "$sock_pcp" ] && [ -n "$sock_ours" ] || {
  echo "daemons: a private pmcd did not start"
  exit 1
}

mask() { sed -E 's/[0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9]+/HH:MM:SS/g'; }

same=0 total=0 failed=""
# ask NAME COMMAND ARGS...: the command against both, HOST in its
# arguments standing for the pmcd's socket
ask() {
  local name=$1 form sock
  shift
  for form in pcp ours; do
    eval "sock=\$sock_$form"
    "${@//HOST/unix:$sock}" >"$work/$form.$name.raw" 2>&1
    echo "exit $?" >>"$work/$form.$name.raw"
    mask <"$work/$form.$name.raw" >"$work/$form.$name"
  done
  total=$((total + 1))
  if cmp -s "$work/pcp.$name" "$work/ours.$name"; then
    same=$((same + 1))
    echo "$name: same ($(wc -l <"$work/pcp.$name") lines)"
  else
    failed="$failed $name"
    echo "$name: DIFF"
    diff "$work/pcp.$name" "$work/ours.$name" | head -20
  fi
}

stable_sample="sample.long sample.ulong sample.float sample.double sample.string sample.bin sample.colour
  sample.darkness sample.mirage_longlong sample.lights sample.magnitude sample.many.count sample.negative
  sample.scale_step sample.secret sample.ghosts"
# shellcheck disable=SC2086
{
  ask sample-descriptors pminfo -h HOST -d -T -l sample
  ask sample-values pminfo -h HOST -f $stable_sample
  ask sample-store pmstore -h HOST sample.write_me 42
  ask sample-stored pminfo -h HOST -f sample.write_me
  ask sample-store-bad pmstore -h HOST sample.long.one 1
  ask sample-pmval pmval -h HOST -s 3 -t 0.1 sample.colour
  ask linux-descriptors pminfo -h HOST -d -T hinv kernel.uname mem.physmem tty disk.dev.read network.interface.mtu
  ask linux-values pminfo -h HOST -f hinv.ncpu hinv.pagesize hinv.physmem kernel.uname.sysname kernel.uname.release
  ask proc-descriptors pminfo -h HOST -d -T proc.nprocs proc.psinfo proc.control cgroup.subsys
  ask proc-values pminfo -h HOST -f proc.control.all.threads proc.control.perclient.threads
  ask xfs-descriptors pminfo -h HOST -d -T -l xfs
  ask xfs-values pminfo -h HOST -f xfs
}
# Each agent of the second pmcd runs over this library, not PCP's: some
# process of that agent maps the drop-in and no library of PCP's (agents
# may be parented elsewhere than by their pmcd, so they are found by what
# they run and what they map).
for a in pmdasample pmdalinux pmdaproc pmdaxfs; do
  total=$((total + 1))
  found=""
  for pid in $(pgrep -f "^$pmdas/[a-z]*/$a"); do
    if grep -q "$build/dropin/lib/libpcp.so.3" "/proc/$pid/maps" 2>/dev/null &&
      ! grep -q " /usr/lib/libpcp" "/proc/$pid/maps" 2>/dev/null; then
      found=$pid
    fi
  done
  if [ -n "$found" ]; then
    same=$((same + 1))
    echo "$a: over the drop-in (pid $found)"
  else
    failed="$failed $a"
    echo "$a: no process of it over the drop-in"
  fi
done
echo "daemons: $same of $total the same over the drop-in as over libpcp_pmda"
[ -z "$failed" ]
