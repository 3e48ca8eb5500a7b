# private-daemon.sh: sourced by scripts/pmcd-private.sh and
# scripts/pmproxy-private.sh: finding a free port and recognising the
# daemon a pid file names. Uses the caller's die().

# daemon_pid PIDFILE MARK: the pid in PIDFILE if that process is alive and
# its command line holds MARK (so a recycled pid is never mistaken for
# ours), else nothing.
daemon_pid() {
  [ -f "$1" ] || return 0
  pid=$(cat "$1" 2>/dev/null || true)
  case "$pid" in '' | *[!0-9]*) return 0 ;; esac
  if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$2"; then
    echo "$pid"
  fi
}

port_in_use() {
  ss -Htln "sport = :$1" 2>/dev/null | grep -q .
}

# free_port FIXED FROM LIMIT: FIXED if it is set, else the first port from
# FROM up, below LIMIT, that nothing listens on.
free_port() {
  if [ -n "$1" ]; then
    echo "$1"
    return
  fi
  p=$2
  while port_in_use "$p"; do
    p=$((p + 1))
    [ "$p" -lt "$3" ] || die "no free TCP port in $2..$(($3 - 1))"
  done
  echo "$p"
}

# start_on_free_port FROM LIMIT FIXED: runs the caller's try_port PORT on
# the first free port from FROM (or on FIXED alone, if set); when it fails,
# runs the caller's stop and tries the next free port, ten times at most.
# Sets port.
start_on_free_port() {
  from=$1
  tries=0
  while :; do
    port=$(free_port "$3" "$from" "$2")
    try_port "$port" && return 0
    stop
    [ -z "$3" ] || die "could not start on TCP port $port; see the log in $dir"
    tries=$((tries + 1))
    [ "$tries" -lt 10 ] || die "could not start on any TCP port; see the log in $dir"
    from=$((port + 1))
  done
}
