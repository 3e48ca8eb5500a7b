#!/bin/sh
# Runs a private pmcd (PCP's collector daemon) for the interop tests, so that
# no test depends on, or disturbs, a system pmcd.
#
#   scripts/pmcd-private.sh start [DIR]   start it (does nothing if running)
#   scripts/pmcd-private.sh stop  [DIR]   stop it and its PMDAs
#   scripts/pmcd-private.sh env   [DIR]   print PMCD_PORT=... PMCD_SOCKET=...
#   scripts/pmcd-private.sh status [DIR]  exit 0 if it is running
#
# DIR (default $PMCD_PRIVATE_DIR, else /tmp/pmapi-pmcd-$(id -u)) holds
# everything: pmcd.conf, a PMNS with pmcd (2), sample (29, pipe) and
# sampledso (30, dso), the sample PMDA's help files, the unix socket, the
# pid file and the logs. The TCP port is $PMCD_PRIVATE_PORT, else the
# first free port from 44999 up; $PMCD_PRIVATE_ARGS adds pmcd options (e.g.
# -S to demand authentication, -Q to demand client certificates). Nothing outside DIR is written: the sample
# PMDA finds its help through PCP_PMDAS_DIR, which points into DIR.
#
# A test may bring its own agents: $PMCD_PRIVATE_CONF names a pmcd.conf to
# use instead of the one above and $PMCD_PRIVATE_PMNS the PMNS (root) file
# that goes with it; their agents live below DIR/pmdas (PCP_PMDAS_DIR).
#
# Needs PCP 6 installed (scripts/install-deps.sh --pcp); runs as root or as
# any user (pmcd runs as the invoking user).
set -eu

cmd="${1:-}"
dir="${2:-${PMCD_PRIVATE_DIR:-/tmp/pmapi-pmcd-$(id -u)}}"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
binadm=/usr/lib/pcp/bin
sysdir=/var/lib/pcp/pmdas
pidfile="$dir/run/pmcd.pid"
sock="$dir/run/pmcd.socket"

die() {
  echo "pmcd-private: $*" >&2
  exit 1
}

require_pcp() {
  [ -x "$binadm/pmcd" ] && [ -x "$sysdir/sample/pmdasample" ] ||
    die "PCP is not installed (run scripts/install-deps.sh --pcp)"
}

. "$(dirname "$0")/private-daemon.sh"

# Prints the pid of our pmcd if it is alive, else nothing: its command
# line must name our own config file.
running_pid() { daemon_pid "$pidfile" "$dir/pmcd.conf"; }

# Starts pmcd on TCP port $1; fails unless it could bind the port.
try_port() {
  launch "$1"
  tcp_bound "$1"
}

# The PMNS: pmcd's own names plus sample (29) and sampledso (30), built the
# way the sample PMDA's Install script would, but into DIR.
build_pmns() {
  mkdir -p "$dir/pmns"
  s="$sysdir/sample"
  { echo "root { sample }"; sed 's/SAMPLE:/29:/' "$s/pmns"; } >"$dir/pmns/sample"
  { echo "root { sampledso }"
    sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' -e 's/SAMPLEDSO:/30:/' "$s/pmns"
  } >"$dir/pmns/sampledso"
  "$binadm/pmnsmerge" -a -f /var/lib/pcp/pmns/root_pmcd "$dir/pmns/sample" \
    "$dir/pmns/sampledso" "$dir/pmns/root" >/dev/null
}

# A private PCP_PMDAS_DIR: links to the installed agents, and the sample
# PMDA's help databases (help for 29, dsohelp for 30) built there.
build_pmdas() {
  pm="$dir/pmdas"
  mkdir -p "$pm/sample"
  ln -sfn "$sysdir/pmcd" "$pm/pmcd"
  for f in pmdasample pmda_sample.so; do
    ln -sf "$sysdir/sample/$f" "$pm/sample/$f"
  done
  sed '/^@ SAMPLE\./s/SAMPLE\./29./' "$sysdir/sample/help" |
    "$binadm/newhelp" -n "$dir/pmns/root" -o "$pm/sample/help"
  sed -e 's/sample/sampledso/' -e 's/SAMPLE/SAMPLEDSO/' "$sysdir/sample/help" |
    sed '/^@ SAMPLEDSO\./s/SAMPLEDSO\./30./' |
    "$binadm/newhelp" -n "$dir/pmns/root" -o "$pm/sample/dsohelp"
}

write_conf() {
  cat >"$dir/pmcd.conf" <<EOF
pmcd	2	dso	pmcd_init	$sysdir/pmcd/pmda_pmcd.so
sample	29	pipe	binary	$dir/pmdas/sample/pmdasample -d 29
sampledso	30	dso	sample_init	$dir/pmdas/sample/pmda_sample.so

[access]
allow "local:*" : all;
disallow ".*" : store;
EOF
}

# Environment for pmcd and the PMDAs it starts: every path into DIR.
pcp_env() {
  echo "PCP_PMDAS_DIR=$dir/pmdas PCP_RUN_DIR=$dir/run PCP_LOG_DIR=$dir/log" \
    "PCP_TMP_DIR=$dir/tmp PCP_PMCDCONF_PATH=$dir/pmcd.conf PMNS_DEFAULT=$dir/pmns/root"
}

start() {
  require_pcp
  if [ -n "$(running_pid)" ]; then
    print_env
    return 0
  fi
  rm -rf "$dir/run"
  mkdir -p "$dir/run" "$dir/log/pmcd" "$dir/tmp"
  if [ -n "${PMCD_PRIVATE_CONF:-}" ]; then
    mkdir -p "$dir/pmns"
    cp "${PMCD_PRIVATE_PMNS:?PMCD_PRIVATE_PMNS must go with PMCD_PRIVATE_CONF}" "$dir/pmns/root"
    cp "$PMCD_PRIVATE_CONF" "$dir/pmcd.conf"
  else
    [ -f "$dir/pmns/root" ] || build_pmns
    [ -f "$dir/pmdas/sample/dsohelp.dir" ] || build_pmdas
    write_conf
  fi
  # Another pmcd (another build tree's tests) may take the port chosen
  # before this one binds it; pmcd then runs on its unix socket alone, so
  # the start is tried again on the next free port.
  start_on_free_port 44999 45200 "${PMCD_PRIVATE_PORT:-}"
  echo "$port" >"$dir/port"
  print_env
}

# Starts pmcd on TCP port $1 and waits until it answers on its socket.
launch() {
  user=$(id -un)
  # pmcd and its PMDAs write their logs into the current directory.
  cd "$dir/log/pmcd"
  # shellcheck disable=SC2046,SC2086
  env $(pcp_env) "$binadm/pmcd" -f -A ${PMCD_PRIVATE_ARGS:-} -U "$user" -c "$dir/pmcd.conf" -n "$dir/pmns/root" \
    -p "$1" -s "$sock" -l "$dir/log/pmcd.log" -x "$dir/log/pmcd.fatal" \
    </dev/null >"$dir/log/pmcd.out" 2>&1 &
  echo $! >"$pidfile"
  # pmcd answers once it has started every agent.
  if ! env PMCD_SOCKET="$sock" "$binadm/pmcd_wait" -h unix: -t 30; then
    stop
    die "pmcd did not start; see $dir/log/pmcd.log"
  fi
}

# Exits 0 if pmcd's log says it listens on TCP port $1: IPv4, and IPv6
# too where the machine has it ("localhost" may be tried as ::1 first).
tcp_bound() {
  grep -Eq "^ +ok +[0-9]+ +$1 +inet " "$dir/log/pmcd.log" || return 1
  [ -s /proc/net/if_inet6 ] || return 0
  grep -Eq "^ +ok +[0-9]+ +$1 +ipv6 " "$dir/log/pmcd.log"
}

stop() {
  pid=$(running_pid)
  if [ -n "$pid" ]; then
    # The pipe PMDAs are pmcd's children; note them before pmcd goes.
    kids=$(ps -o pid= --ppid "$pid" 2>/dev/null || true)
    kill -TERM "$pid" 2>/dev/null || true
    n=0
    while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 50 ]; do
      sleep 0.1
      n=$((n + 1))
    done
    kill -KILL "$pid" 2>/dev/null || true
    for k in $kids; do
      kill -TERM "$k" 2>/dev/null || true
    done
    sleep 0.2
    for k in $kids; do
      kill -KILL "$k" 2>/dev/null || true
    done
  fi
  rm -f "$pidfile" "$sock"
}

print_env() {
  echo "PMCD_PORT=$(cat "$dir/port")"
  echo "PMCD_SOCKET=$sock"
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
