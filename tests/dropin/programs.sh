#!/bin/bash
# Runs PCP's own programs twice, over PCP's libpcp.so.3 and over libpmapi's
# (through pmapi-run), and compares standard output, standard error and
# exit status. Prints one line a command and the counts per group.
#
#   tests/dropin/programs.sh [-b BUILD] [-l LIST] [-k KNOWN] [-w WORK] [GROUP...]
#     -b BUILD  the build tree (default build of this checkout): its
#               dropin/pmapi-run-build is the launcher
#     -l LIST   the commands (default tests/dropin/programs.txt)
#     -k KNOWN  commands allowed to differ, one a line before a TAB and the
#               reason (default tests/dropin/known.txt)
#     -w WORK   work directory (default a new temporary one); the outputs
#               of each command that differs are kept there
#     GROUP     run only these groups (python, compiled, pcp-tools)
#
# Commands that need pmcd get a private one (scripts/pmcd-private.sh) in
# the work directory, started and stopped here. Exit status: 0 when every
# command not in KNOWN gives the same output; 77 (skipped) without PCP or
# its QA archives.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
list="$here/programs.txt"
known="$here/known.txt"
work=""
archives=/var/lib/pcp/testsuite/archives

while getopts "b:l:k:w:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    l) list=$OPTARG ;;
    k) known=$OPTARG ;;
    w) work=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
groups="$*"
launcher="$build/dropin/pmapi-run-build"
[ -x "$launcher" ] || { echo "programs: $launcher is missing (build the pcp_dropin target)" >&2; exit 2; }
[ -e /usr/lib/libpcp.so.3 ] && [ -d "$archives" ] || { echo "programs: skipped: PCP or pcp-testsuite is not installed" >&2; exit 77; }
[ -n "$work" ] || work=$(mktemp -d /tmp/pmapi-dropin.XXXXXX)
mkdir -p "$work"

# PCP's Python tools run python3 from PATH: Debian's, which has PCP's modules.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:/usr/lib/pcp/bin
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= PY="$here/python"
unset PCP_HOST PCP_ARCHIVE PMCD_HOST

pmcd_dir="$work/pmcd"
pmcd_started=0
start_pmcd() {
  [ $pmcd_started = 1 ] && return 0
  "$root/scripts/pmcd-private.sh" start "$pmcd_dir" >/dev/null || return 1
  eval "$("$root/scripts/pmcd-private.sh" env "$pmcd_dir")"
  export PMCD_PORT PMCD_SOCKET
  pmcd_started=1
}
stop_pmcd() {
  [ $pmcd_started = 1 ] && "$root/scripts/pmcd-private.sh" stop "$pmcd_dir" >/dev/null 2>&1
  pmcd_started=0
}
trap stop_pmcd EXIT

is_known() {
  [ -f "$known" ] && cut -f1 "$known" | grep -Fxq -- "$1"
}

# run_one OUT_PREFIX [LAUNCHER] : runs $cmd, leaving OUT.out, OUT.err, OUT.rc
run_one() {
  local out=$1
  shift
  (cd "$dir" && timeout 300 "$@" bash -c "$cmd" > "$out.out" 2> "$out.err" < /dev/null)
  echo $? > "$out.rc"
}

declare -A same total
n=0
fails=0
while IFS='|' read -r group needs cmd; do
  case "$group" in '' | \#*) continue ;; esac
  if [ -n "$groups" ] && [[ " $groups " != *" $group "* ]]; then continue; fi
  n=$((n + 1))
  dir="$work"
  case "$needs" in
    archive) dir="$archives" ;;
    pmcd) start_pmcd || { echo "programs: cannot start a private pmcd" >&2; exit 1; } ;;
  esac
  base="$work/$(printf '%03d' $n)"
  run_one "$base.pcp"
  run_one "$base.ours" "$launcher"
  total[$group]=$(( ${total[$group]:-0} + 1 ))
  if cmp -s "$base.pcp.out" "$base.ours.out" && cmp -s "$base.pcp.err" "$base.ours.err" &&
     cmp -s "$base.pcp.rc" "$base.ours.rc"; then
    same[$group]=$(( ${same[$group]:-0} + 1 ))
    printf '%-9s same     %s\n' "$group" "$cmd"
    rm -f "$base".*
  elif is_known "$cmd"; then
    printf '%-9s known    %s\n' "$group" "$cmd"
  else
    printf '%-9s DIFFERS  %s  (outputs: %s.*)\n' "$group" "$cmd" "$base"
    diff "$base.pcp.out" "$base.ours.out" | head -8 | sed 's/^/            /'
    diff "$base.pcp.err" "$base.ours.err" | head -8 | sed 's/^/            /'
    fails=$((fails + 1))
  fi
done < "$list"

echo "identical/total by group:"
for g in python compiled pcp-tools; do
  [ -n "${total[$g]:-}" ] && printf '  %-9s %d/%d\n' "$g" "${same[$g]:-0}" "${total[$g]}"
done
exit $(( fails > 0 ))
