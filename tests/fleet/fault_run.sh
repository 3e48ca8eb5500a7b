#!/bin/sh
# The fault run of docs/many-hosts.md: one HostGroup (tests/fleet/
# fleet_driver) fetching from a fleet of private pmcds (scripts/
# pmcd-fleet.sh) in rounds, while a tenth of them are killed and started
# again, and one is stopped (SIGSTOP: a host that hangs) and let go.
#
#   tests/fleet/fault_run.sh BUILD_DIR [HOSTS] [SECONDS]
#
# HOSTS defaults to 64, SECONDS to 30. Rounds run every 50 ms with a
# 1 s deadline; PMCD_RECONNECT_TIMEOUT=1 retries a lost host every second.
# Passes when no value was attributed to the wrong host, no round outlived
# its deadline by more than a second, every failed answer was PM_ERR_IPC or
# PM_ERR_TIMEOUT, every killed host was reconnected, the stopped host
# missed its deadline (PM_ERR_TIMEOUT), and the last round had every host.
# The driver's summary line is printed, then the run's figures.
set -eu
hosts=${2:-64}
seconds=${3:-30}
# shellcheck source=tests/fleet/fleet_common.sh
. "$(dirname "$0")/fleet_common.sh"
start_fleet "$hosts" 46000

PMCD_RECONNECT_TIMEOUT=1 "$build/tests/fleet/fleet_driver" -D "$seconds" -i 50 -d 1000 \
  "$work/hosts" pmcd.hostname sampledso.long.one >"$work/summary" 2>"$work/driver.err" &
driver=$!

# A tenth of the hosts (at least one), spread over the first two thirds of
# the run: each is killed, then started again two seconds later.
victims=$(( (hosts + 9) / 10 ))
step_ms=$(( seconds * 1000 * 2 / 3 / victims ))
sleep 2
stopped=$((hosts - 1))
kill -STOP "$(cat "$dir/$stopped/run/pmcd.pid")"
i=0
while [ "$i" -lt "$victims" ]; do
  h=$(( (i * 7 + 3) % (hosts - 1) ))
  "$fleet" kill "$dir" "$h"
  (sleep 2; "$fleet" restart "$dir" "$h" >/dev/null 2>>"$work/restart.err") &
  i=$((i + 1))
  sleep "$(awk -v ms="$step_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
done
kill -CONT "$(cat "$dir/$stopped/run/pmcd.pid")"
status=0
wait "$driver" || status=$?
wait || true
summary=$(cat "$work/summary")
echo "$summary"
echo "hosts $hosts seconds $seconds killed $victims stopped 1"
fail() {
  echo "fault_run: $*" >&2
  tail -20 "$work/driver.err" >&2
  [ ! -s "$work/restart.err" ] || cat "$work/restart.err" >&2
  exit 1
}
[ "$status" = 0 ] || fail "the driver failed (misattributed values or a round past its deadline)"
[ "$(field misattributed)" = 0 ] || fail "misattributed values"
[ "$(field final_ok)" = "$hosts" ] || fail "the last round did not reach every host"
[ "$(field reconnects)" -ge "$victims" ] || fail "fewer reconnections than killed hosts"
errors=$(field errors)
echo "$errors" | tr ',' '\n' | while IFS=: read -r code count; do
  case "$code" in
    -12366 | -12353) ;;  # PM_ERR_IPC, PM_ERR_TIMEOUT
    *) fail "unexpected error $code ($count times)" ;;
  esac
done
case ",$errors" in *,-12353:*) ;; *) fail "the stopped host never missed its deadline" ;; esac
