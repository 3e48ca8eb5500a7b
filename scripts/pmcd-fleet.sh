#!/bin/sh
# Runs a fleet of private pmcds (PCP's collector daemon) on this machine, so
# that one client can be measured or tested against many hosts at once.
#
#   scripts/pmcd-fleet.sh start N DIR [BASEPORT]  start pmcds 0..N-1
#   scripts/pmcd-fleet.sh stop DIR                stop every pmcd of the fleet
#   scripts/pmcd-fleet.sh kill DIR I              SIGKILL pmcd I, abruptly
#   scripts/pmcd-fleet.sh restart DIR I           start pmcd I again, same port
#   scripts/pmcd-fleet.sh hosts DIR               print localhost:PORT, 0..N-1
#   scripts/pmcd-fleet.sh status DIR              exit 0 if all of them run
#
# pmcd I listens on TCP port BASEPORT+I (BASEPORT defaults to 46000; start
# fails if any of those ports is in use) and on the unix socket
# DIR/I/run/pmcd.socket, and runs with -H fleet-I, so its pmcd.hostname
# metric reports "fleet-I". Each pmcd runs as the invoking user and hosts
# only DSO agents, so it starts no other process: pmcd (domain 2) and
# sampledso (30, the sample agent as a shared object). What all pmcds share
# is built once into DIR: the PMNS (DIR/pmns/root), pmcd.conf and
# DIR/pmdas (links to the installed agents and the sample agent's help,
# built there; every pmcd's PCP_PMDAS_DIR). Everything a pmcd writes (pid
# file, socket, logs, temporary files) is below DIR/I. The pmcds start in
# parallel; the time start took is printed on stderr.
#
# Needs PCP 6 installed (scripts/install-deps.sh --pcp).
set -eu

binadm=/usr/lib/pcp/bin
sysdir=/var/lib/pcp/pmdas

die() {
  echo "pmcd-fleet: $*" >&2
  exit 1
}

usage() {
  die "usage: $0 start N DIR [BASEPORT] | stop DIR | kill DIR I | restart DIR I | hosts DIR | status DIR"
}

require_pcp() {
  [ -x "$binadm/pmcd" ] && [ -f "$sysdir/sample/pmda_sample.so" ] ||
    die "PCP is not installed (run scripts/install-deps.sh --pcp)"
}

absolute() {
  case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac
}

is_number() {
  case "$1" in '' | *[!0-9]*) return 1 ;; esac
}

now_ms() {
  echo $(($(date +%s%N) / 1000000))
}

. "$(dirname "$0")/private-daemon.sh"

# The fleet's size and first port, written by start.
count() { cat "$dir/count" 2>/dev/null || die "no fleet in $dir"; }
baseport() { cat "$dir/baseport"; }

# The pid of pmcd $1 if it is alive: its command line must name its own
# socket below DIR, so a recycled pid is never taken for it.
pmcd_pid() { daemon_pid "$dir/$1/run/pmcd.pid" "$dir/$1/run/pmcd.socket"; }

check_index() {
  is_number "$1" && [ "$1" -lt "$(count)" ] || die "no pmcd $1 in $dir"
}

# The PMNS: pmcd's own names and sampledso (30), merged once into DIR.
build_pmns() {
  mkdir -p "$dir/pmns"
  { echo "root { sampledso }"
    sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' -e 's/SAMPLEDSO:/30:/' \
      "$sysdir/sample/pmns"
  } >"$dir/pmns/sampledso"
  "$binadm/pmnsmerge" -a -f /var/lib/pcp/pmns/root_pmcd "$dir/pmns/sampledso" \
    "$dir/pmns/root" >/dev/null
}

# The agents' directory: pmcd's own linked, and the sample agent's help
# for domain 30 (which it opens as PCP_PMDAS_DIR/sample/dsohelp).
build_pmdas() {
  mkdir -p "$dir/pmdas/sample"
  ln -sfn "$sysdir/pmcd" "$dir/pmdas/pmcd"
  sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' "$sysdir/sample/help" |
    sed '/^@ SAMPLEDSO\./s/SAMPLEDSO\./30./' |
    "$binadm/newhelp" -n "$dir/pmns/root" -o "$dir/pmdas/sample/dsohelp"
}

write_conf() {
  cat >"$dir/pmcd.conf" <<EOF
pmcd	2	dso	pmcd_init	$sysdir/pmcd/pmda_pmcd.so
sampledso	30	dso	sample_init	$sysdir/sample/pmda_sample.so

[access]
allow "local:*" : all;
EOF
}

# Environment for pmcd $1 and its agents: every path it writes into DIR/$1.
pcp_env() {
  echo "PCP_PMDAS_DIR=$dir/pmdas PCP_RUN_DIR=$dir/$1/run PCP_LOG_DIR=$dir/$1/log" \
    "PCP_TMP_DIR=$dir/$1/tmp PCP_PMCDCONF_PATH=$dir/pmcd.conf PMNS_DEFAULT=$dir/pmns/root"
}

# Fails naming the first of ports $1..$1+$2-1 that something listens on.
check_ports_free() {
  used=$(ss -Htln 2>/dev/null | awk '{ n = split($4, a, ":"); print a[n] }' | sort -un)
  p=$1
  while [ "$p" -lt $(($1 + $2)) ]; do
    if echo "$used" | grep -qx "$p"; then
      die "TCP port $p is in use (the fleet needs $1..$(($1 + $2 - 1)))"
    fi
    p=$((p + 1))
  done
}

# Starts pmcd $1 in the background on its port; does not wait for it.
launch() {
  d="$dir/$1"
  rm -rf "$d/run"
  mkdir -p "$d/run" "$d/log/pmcd" "$d/tmp"
  port=$(($(baseport) + $1))
  (
    # pmcd and its agents write their logs into the current directory.
    cd "$d/log/pmcd"
    # shellcheck disable=SC2046
    exec env $(pcp_env "$1") "$binadm/pmcd" -f -A -U "$(id -un)" -H "fleet-$1" \
      -c "$dir/pmcd.conf" -n "$dir/pmns/root" -p "$port" -s "$d/run/pmcd.socket" \
      -l "$d/log/pmcd.log" -x "$d/log/pmcd.fatal" </dev/null >"$d/log/pmcd.out" 2>&1
  ) &
  echo $! >"$d/run/pmcd.pid"
}

# Exits 0 if pmcd $1's log says it listens on its TCP port over IPv4, and
# over IPv6 too where the machine has it ("localhost" may be ::1 first).
tcp_bound() {
  port=$(($(baseport) + $1))
  log="$dir/$1/log/pmcd.log"
  grep -Eq "^ +ok +[0-9]+ +$port +inet " "$log" || return 1
  [ -s /proc/net/if_inet6 ] || return 0
  grep -Eq "^ +ok +[0-9]+ +$port +ipv6 " "$log"
}

# Exits 0 while the process launch started for pmcd $1 is alive. Just
# after launch it may not have become pmcd yet (its command line is still
# this script's), so the pid file alone is trusted here.
launched() {
  p=$(cat "$dir/$1/run/pmcd.pid" 2>/dev/null) && kill -0 "$p" 2>/dev/null
}

# Waits until pmcd $1 answers on its unix socket and holds its TCP port,
# for up to 60 seconds, or until pmcd exits. pmcd_wait retries only once a
# second, so the socket is watched for first.
await() {
  tries=0
  while [ ! -S "$dir/$1/run/pmcd.socket" ]; do
    [ "$tries" -lt 1200 ] && launched "$1" || return 1
    sleep 0.05
    tries=$((tries + 1))
  done
  tries=0
  until env PMCD_SOCKET="$dir/$1/run/pmcd.socket" "$binadm/pmcd_wait" -h unix: -t 1 \
    2>/dev/null; do
    [ "$tries" -lt 60 ] && launched "$1" || return 1
    tries=$((tries + 1))
  done
  tcp_bound "$1"
}

# Waits for pmcds $1..$2-1 together; prints the ones that did not answer.
await_range() {
  i=$1
  while [ "$i" -lt "$2" ]; do
    { await "$i" || echo "$i"; } &
    i=$((i + 1))
  done
  wait
}

start() {
  [ $# -ge 2 ] && [ $# -le 3 ] || usage
  n=$1
  base=${3:-46000}
  is_number "$n" && [ "$n" -ge 1 ] || die "N must be a positive number, not '$n'"
  is_number "$base" && [ $((base + n)) -le 65536 ] || die "bad BASEPORT '$base'"
  require_pcp
  dir=$(absolute "$2")
  mkdir -p "$dir"
  if [ -f "$dir/count" ] && [ -n "$(running_pids)" ]; then
    die "a fleet is already running in $dir (stop it first)"
  fi
  check_ports_free "$base" "$n"
  t0=$(now_ms)
  echo "$n" >"$dir/count"
  echo "$base" >"$dir/baseport"
  [ -f "$dir/pmns/root" ] || build_pmns
  [ -f "$dir/pmdas/sample/dsohelp.dir" ] || build_pmdas
  write_conf
  # Each pmcd takes a descriptor per client, and a fleet's client may
  # open many connections to each. (dash and bash both have ulimit -n.)
  # shellcheck disable=SC3045
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  i=0
  while [ "$i" -lt "$n" ]; do
    launch "$i"
    i=$((i + 1))
  done
  failed=$(await_batches "$n")
  if [ -n "$failed" ]; then
    stop_all
    first=$(echo "$failed" | sort -n | head -1)
    die "$(echo "$failed" | wc -l) pmcd(s) did not start; see $dir/$first/log/pmcd.log"
  fi
  echo "pmcd-fleet: $n pmcds started in $(($(now_ms) - t0)) ms" >&2
}

# Waits for pmcds 0..$1-1, 64 waiters at a time so that the waiters do not
# crowd out the pmcds they wait for.
await_batches() {
  from=0
  while [ "$from" -lt "$1" ]; do
    to=$((from + 64))
    [ "$to" -le "$1" ] || to=$1
    await_range "$from" "$to"
    from=$to
  done
}

# The pids of the fleet's live pmcds.
running_pids() {
  i=0
  n=$(count)
  while [ "$i" -lt "$n" ]; do
    pmcd_pid "$i"
    i=$((i + 1))
  done
}

# Sends TERM to pids $@, waits up to five seconds, then KILLs the rest.
terminate() {
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  tries=0
  while [ "$tries" -lt 50 ]; do
    alive=""
    for p in "$@"; do
      ! kill -0 "$p" 2>/dev/null || alive="$alive $p"
    done
    [ -n "$alive" ] || return 0
    sleep 0.1
    tries=$((tries + 1))
  done
  # shellcheck disable=SC2086
  kill -KILL $alive 2>/dev/null || true
}

stop_all() {
  # shellcheck disable=SC2046
  terminate $(running_pids)
  rm -f "$dir"/*/run/pmcd.pid "$dir"/*/run/pmcd.socket
}

stop_one() {
  # shellcheck disable=SC2046
  terminate $(pmcd_pid "$1")
  rm -f "$dir/$1/run/pmcd.pid" "$dir/$1/run/pmcd.socket"
}

kill_one() {
  pid=$(pmcd_pid "$1")
  [ -n "$pid" ] || die "pmcd $1 is not running"
  kill -KILL "$pid"
}

restart_one() {
  require_pcp
  stop_one "$1"
  check_ports_free $(($(baseport) + $1)) 1
  launch "$1"
  if ! await "$1"; then
    stop_one "$1"
    die "pmcd $1 did not start; see $dir/$1/log/pmcd.log"
  fi
}

hosts() {
  i=0
  n=$(count)
  base=$(baseport)
  while [ "$i" -lt "$n" ]; do
    echo "localhost:$((base + i))"
    i=$((i + 1))
  done
}

status() {
  i=0
  n=$(count)
  while [ "$i" -lt "$n" ]; do
    [ -n "$(pmcd_pid "$i")" ] || return 1
    i=$((i + 1))
  done
}

cmd="${1:-}"
[ $# -ge 1 ] && shift
case "$cmd" in
  start) start "$@" ;;
  stop | hosts | status)
    [ $# -eq 1 ] || usage
    dir=$(absolute "$1")
    # Stopping what never started is not an error.
    [ "$cmd" != stop ] || [ -f "$dir/count" ] || exit 0
    count >/dev/null
    case "$cmd" in
      stop) stop_all ;;
      hosts) hosts ;;
      status) status ;;
    esac
    ;;
  kill | restart)
    [ $# -eq 2 ] || usage
    dir=$(absolute "$1")
    check_index "$2"
    case "$cmd" in
      kill) kill_one "$2" ;;
      restart) restart_one "$2" ;;
    esac
    ;;
  *) usage ;;
esac
