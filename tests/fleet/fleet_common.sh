# shellcheck shell=sh disable=SC2034,SC2154
# fleet_common.sh: sourced by the fleet tests. Sets top, build (from $1),
# fleet (the script) and work (a private directory, removed on exit with
# the fleet in it); start_fleet N FROM starts N pmcds in $dir on the first
# free block of ports from FROM up (setting base) and writes their host
# specs to $work/hosts; field NAME reads a value from $summary.
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
fleet="$top/scripts/pmcd-fleet.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/pmapi-fleet.XXXXXX")
dir="$work/fleet"
cleanup() {
  "$fleet" stop "$dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

start_fleet() {
  base=$2
  until "$fleet" start "$1" "$dir" "$base" 2>"$work/start.err"; do
    "$fleet" stop "$dir" >/dev/null 2>&1 || true
    rm -rf "$dir"
    base=$((base + $1 + 100))
    [ $((base + $1)) -lt 65000 ] || { cat "$work/start.err" >&2; exit 1; }
  done
  "$fleet" hosts "$dir" >"$work/hosts"
}

field() { echo "$summary" | sed -n "s/.* $1 \([^ ]*\).*/\1/p"; }
