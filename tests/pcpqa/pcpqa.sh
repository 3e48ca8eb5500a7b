#!/bin/bash
# Runs PCP's own QA tests (Debian's pcp-testsuite, installed in
# /var/lib/pcp/testsuite) twice each: once with PCP's pminfo, pmval,
# pmstore and pmdumplog, once with ours bind-mounted over them (mode
# tools); or (mode lib) once as installed, once with PCP's client programs
# (its Python interpreter among them) run over this project's libpcp.so.3,
# as pmapi-run runs them.
#
#   tests/pcpqa/pcpqa.sh [options] [TEST...]
#     -t DIR    directory holding our built pminfo, pmval, pmstore, pmdumplog
#               (default: build/tools of this checkout); libpmapi.so.0 is
#               looked for beside it in ../libpmapi
#     -w DIR    work directory (default /tmp/pmapi-pcpqa-$(id -u))
#     -l FILE   the tests to run, one a line, "#" comments (default:
#               tests/pcpqa/selected.txt); TEST operands replace it
#     -k FILE   known differences: "TEST<TAB>reason" lines (default:
#               tests/pcpqa/known.txt); these may fail with ours
#     -o WHICH  pcp, ours or both (default both)
#     -m MODE   tools (our four tools in place of PCP's; the default) or lib
#               (PCP's programs over our libpcp.so.3, found in
#               TOOLDIR/../dropin/lib); lib mode's default lists are
#               selected-lib.txt and known-lib.txt
#
# Exit status: 0 when every test that passes with PCP's tools passes with
# ours too, apart from those listed in the known-differences file.
#
# Everything runs inside private namespaces (unshare): a mount namespace in
# which the testsuite, /run/pcp, /var/log/pcp, /var/lib/pcp/tmp, the PMNS,
# the PMDA directories, pmcd's configuration, /etc/group and
# /etc/sudoers.d are private copies; a network namespace in which a private
# pmcd with the sample agents listens on the standard port; a pid
# namespace, so that nothing a QA test signals by name is outside it, and
# everything started here ends with it. The system's pmcd, if any, is never
# seen, stopped or reconfigured, and the installed testsuite is not written.
# Needs root, pcp-testsuite, sudo, iproute2 (scripts/install-deps.sh --pcp).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
PCPQA_EXEC=${PCPQA_EXEC:-}
QA=/var/lib/pcp/testsuite
TOOLS="$root/build/tools"
WORK="/tmp/pmapi-pcpqa-$(id -u)"
LIST="$here/selected.txt"
KNOWN="$here/known.txt"
WHICH=both
MODE=tools
OURS_TOOLS="pminfo pmval pmstore pmdumplog"
# The client programs lib mode runs over our libpcp.so.3 (pmpython and the
# interpreter it runs carry every Python tool).
LIB_PROGRAMS="/usr/bin/pmpython /usr/bin/python3.11 /usr/bin/pmprobe /usr/bin/pmstat /usr/bin/pmerr
  /usr/bin/pmdbg /usr/bin/pmdate /usr/bin/pmclient /usr/bin/pmclient_fg /usr/bin/pminfo /usr/bin/pmval
  /usr/bin/pmstore /usr/bin/pmie /usr/bin/pmieconf /usr/lib/pcp/bin/pcp-atop /usr/lib/pcp/bin/pcp-atopsar"

die() {
  echo "pcpqa: $*" >&2
  exit 2
}

# Cannot run on this machine (ctest reports the test as skipped).
skip() {
  echo "pcpqa: skipped: $*" >&2
  exit 77
}

parse_args() {
  local list_given=0 known_given=0
  while getopts "t:w:l:k:o:m:" opt; do
    case "$opt" in
      t) TOOLS=$OPTARG ;;
      w) WORK=$OPTARG ;;
      l) LIST=$OPTARG; list_given=1 ;;
      k) KNOWN=$OPTARG; known_given=1 ;;
      m) MODE=$OPTARG ;;
      o) WHICH=$OPTARG ;;
      *) die "usage: $0 [-t tooldir] [-w workdir] [-l list] [-k known] [-o pcp|ours|both] [-m tools|lib] [TEST...]" ;;
    esac
  done
  shift $((OPTIND - 1))
  case "$MODE" in tools) ;; lib)
    [ $list_given = 1 ] || LIST="$here/selected-lib.txt"
    [ $known_given = 1 ] || KNOWN="$here/known-lib.txt" ;;
    *) die "-m takes tools or lib" ;;
  esac
  TESTS="$*"
  if [ -z "$TESTS" ]; then
    TESTS=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$LIST" | grep . | tr '\n' ' ')
  fi
  case "$WHICH" in pcp | ours | both) ;; *) die "-o takes pcp, ours or both" ;; esac
  case "$TOOLS" in /*) ;; *) TOOLS="$PWD/$TOOLS" ;; esac
  case "$WORK" in /*) ;; *) WORK="$PWD/$WORK" ;; esac
}

check_prerequisites() {
  [ "$(id -u)" = 0 ] || skip "must run as root (it uses private namespaces and sudo)"
  [ -x "$QA/check" ] || skip "pcp-testsuite is not installed (scripts/install-deps.sh --pcp)"
  id pcpqa >/dev/null 2>&1 || skip "no pcpqa user (pcp-testsuite creates it)"
  unshare --mount --net true 2>/dev/null || skip "private namespaces are not allowed here"
  for c in sudo unshare ip make cc; do
    command -v "$c" >/dev/null || die "$c is not installed (scripts/install-deps.sh --pcp)"
  done
  if [ "$WHICH" != pcp ] && [ "$MODE" = tools ]; then
    for t in $OURS_TOOLS; do
      [ -x "$TOOLS/$t" ] || die "no $TOOLS/$t (build the tools first)"
    done
  fi
  if [ "$WHICH" != pcp ] && [ "$MODE" = lib ]; then
    [ -e "$TOOLS/../dropin/lib/libpcp.so.3" ] || die "no $TOOLS/../dropin/lib/libpcp.so.3 (build pcp_dropin first)"
  fi
}

export PCPQA_EXEC WORK TOOLS TESTS KNOWN WHICH MODE QA OURS_TOOLS LIB_PROGRAMS here

parse_args "$@"
check_prerequisites
mkdir -p "$WORK"
exec unshare --mount --net --pid --fork --mount-proc --propagation private -- \
  bash "$here/inside.sh"
