#!/bin/sh
# Runs a private pmproxy (PCP's protocol proxy) for the host-side tests, so
# that no test depends on, or disturbs, a pmproxy it did not start.
#
#   scripts/pmproxy-private.sh start [DIR]   start it (does nothing if running)
#   scripts/pmproxy-private.sh stop  [DIR]   stop it
#   scripts/pmproxy-private.sh env   [DIR]   print PMPROXY_PORT=...
#   scripts/pmproxy-private.sh status [DIR]  exit 0 if it is running
#
# DIR (default $PMPROXY_PRIVATE_DIR, else /tmp/pmapi-pmproxy-$(id -u)) holds
# its pid file, unix socket and log. It runs in PCP's protocol mode only
# (-d: no REST APIs, no key server) on $PMPROXY_PRIVATE_PORT, else the
# first free TCP port from 45300 up. Clients name the pmcd to reach
# ("host@localhost:PORT" or PMPROXY_HOST/PMPROXY_PORT); it may be any pmcd,
# a private one included.
#
# Needs PCP 6 installed (scripts/install-deps.sh --pcp).
set -eu

cmd="${1:-}"
dir="${2:-${PMPROXY_PRIVATE_DIR:-/tmp/pmapi-pmproxy-$(id -u)}}"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
binadm=/usr/lib/pcp/bin
pidfile="$dir/pmproxy.pid"

die() {
  echo "pmproxy-private: $*" >&2
  exit 1
}

. "$(dirname "$0")/private-daemon.sh"

# Prints the pid of our pmproxy if it is alive, else nothing: its command
# line must name our own log file.
running_pid() { daemon_pid "$pidfile" "$dir/pmproxy.log"; }

try_port() { launch "$1"; }

# Exits 0 once the log says pmproxy listens on TCP port $1.
listening() {
  grep -Eq "^ +ok +[0-9]+ +$1 +inet " "$dir/pmproxy.log" 2>/dev/null
}

launch() {
  rm -f "$dir/pmproxy.log"
  (cd "$dir" && env PCP_RUN_DIR="$dir" PCP_LOG_DIR="$dir" PCP_TMP_DIR="$dir" \
    "$binadm/pmproxy" -f -d -A -U "$(id -un)" -p "$1" -s "$dir/pmproxy.socket" \
    -l "$dir/pmproxy.log" -x "$dir/pmproxy.fatal" </dev/null >"$dir/pmproxy.out" 2>&1 &
    echo $! >"$pidfile")
  n=0
  while [ "$n" -lt 100 ]; do
    listening "$1" && return 0
    [ -n "$(running_pid)" ] || return 1
    sleep 0.1
    n=$((n + 1))
  done
  return 1
}

start() {
  [ -x "$binadm/pmproxy" ] || die "PCP is not installed (run scripts/install-deps.sh --pcp)"
  mkdir -p "$dir"
  if [ -n "$(running_pid)" ]; then
    print_env
    return 0
  fi
  start_on_free_port 45300 45500 "${PMPROXY_PRIVATE_PORT:-}"
  echo "$port" >"$dir/port"
  print_env
}

stop() {
  pid=$(running_pid)
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    n=0
    while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 50 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile" "$dir/pmproxy.socket"
}

print_env() {
  echo "PMPROXY_PORT=$(cat "$dir/port")"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  env)
    [ -n "$(running_pid)" ] || die "not running in $dir"
    print_env
    ;;
  status) [ -n "$(running_pid)" ] ;;
  *) die "usage: $0 start|stop|env|status [DIR]" ;;
esac
