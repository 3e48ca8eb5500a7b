# Shared by the tests of the C examples (tests/examples/*_test.sh), which
# source it after setting `top` (the source tree) and `bin` (where the
# examples were built). PCP's own tools (/usr/bin) are the oracle.
#
# Sets up: the C locale and UTC, no default derived metrics, a scratch
# directory $work removed at exit (with the private pmcd, if one was
# started), and $status, which `fail` sets to 1 (the script exits with it).
# shellcheck shell=sh disable=SC2034,SC2154
set -u
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
PCP_BIN=/usr/bin
small_v3=$top/tests/data/archives/reference/small-v3/small-v3
small_v2=$top/tests/data/archives/reference/small-v2/small-v2
status=0
pmcd_dir=
work=$(mktemp -d "${TMPDIR:-/tmp}/pmapi-examples.XXXXXX")
# PCP's agents under a private pmcd may run as the user pcp (PCP_USER)
# and read their help text below $work
chmod 755 "$work"
cleanup() {
  if [ -n "$pmcd_dir" ]; then "$top/scripts/pmcd-private.sh" stop "$pmcd_dir" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*"
  status=1
}

# same WHAT WANT GOT: the two files must be identical.
same() {
  if diff -u "$2" "$3" >"$work/diff"; then
    ok "$1"
  else
    fail "$1"
    cat "$work/diff"
  fi
}

# check WHAT COMMAND...: the command must succeed.
check() {
  what=$1
  shift
  if "$@"; then ok "$what"; else fail "$what"; fi
}

# run OUT COMMAND...: runs an example with its output in OUT; a failure
# (or anything on stderr) fails the test and shows the messages.
run() {
  out=$1
  shift
  if ! "$@" >"$out" 2>"$work/stderr" || [ -s "$work/stderr" ]; then
    fail "$*"
    cat "$work/stderr"
  fi
}

# start_pmcd [CONF PMNS]: a private pmcd (scripts/pmcd-private.sh) below
# $work, with the sample agents or with the given pmcd.conf and name space;
# exports PMCD_PORT and PMCD_SOCKET (so "unix:" reaches it).
start_pmcd() {
  pmcd_dir=$work/pmcd
  if [ $# -eq 2 ]; then
    env=$(PMCD_PRIVATE_CONF=$1 PMCD_PRIVATE_PMNS=$2 "$top/scripts/pmcd-private.sh" start "$pmcd_dir")
  else
    env=$("$top/scripts/pmcd-private.sh" start "$pmcd_dir")
  fi || { pmcd_dir=; echo "FAIL: private pmcd did not start"; exit 1; }
  eval "$(echo "$env" | sed 's/^/export /')"
}

# pmval_lines LABEL < PMVAL-OUTPUT: PCP's pmval report as lines
# "TIME LABEL VALUE" (one metric) or "TIME LABEL[INSTANCE] VALUE" (a
# column per instance), VALUE printed %.3f, "?" where pmval has none.
pmval_lines() {
  awk -v m="$1" '
    function fmt(v) { return v == "?" ? "?" : sprintf("%.3f", v) }
    /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/ {
      if ($2 == "No") { print $1, m, "?"; next }
      if (n == 0) { print $1, m, fmt($2); next }
      for (i = 2; i <= NF; i++) print $1, m "[" inst[i - 1] "]", fmt($i)
      next
    }
    /^ +[^ ]/ { n = split($0, inst) }'
}

# first_samples N < LINES: the lines of the first N distinct times (pmval
# reports a counter it turns into rates with one row more than -s asks:
# its first fetch is not counted).
first_samples() {
  awk -v n="$1" '$1 != last { last = $1; k++ } k <= n'
}
