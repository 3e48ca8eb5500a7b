#!/bin/sh
# A HostGroup host whose pmcd gains an agent: pmcd reports PMCD_ADD_AGENT
# before a result, and the group connects to it again and resolves its
# metrics for the new agent set (a second lookup), without a failed answer.
#
#   tests/fleet/agent_change.sh BUILD_DIR
#
# One private pmcd (scripts/pmcd-fleet.sh); two seconds into five seconds
# of rounds, PCP's sample agent (a pipe agent, domain 29) is added to its
# pmcd.conf and pmcd is told to reread it (SIGHUP).
set -eu
# shellcheck source=tests/fleet/fleet_common.sh
. "$(dirname "$0")/fleet_common.sh"
start_fleet 1 47700
PMCD_RECONNECT_TIMEOUT=1 "$build/tests/fleet/fleet_driver" -D 5 -i 100 -d 1000 \
  "$work/hosts" pmcd.hostname sampledso.long.one >"$work/summary" &
driver=$!
sleep 2
printf 'sample\t29\tpipe\tbinary\t/var/lib/pcp/pmdas/sample/pmdasample -d 29\n' >"$work/agent"
sed -i "/^sampledso/r $work/agent" "$dir/pmcd.conf"
kill -HUP "$(cat "$dir/0/run/pmcd.pid")"
wait "$driver"
summary=$(cat "$work/summary")
echo "$summary"
[ "$(field lookups)" = 2 ] || { echo "agent_change: expected a second lookup" >&2; exit 1; }
[ "$(field reconnects)" = 1 ] || { echo "agent_change: expected one reconnection" >&2; exit 1; }
[ "$(field errors)" = none ] || { echo "agent_change: failed answers" >&2; exit 1; }
