#!/bin/bash
# Runs PCP's own QA tests (Debian's pcp-testsuite, installed in
# /var/lib/pcp/testsuite) twice each: once with PCP's pminfo, pmval,
# pmstore and pmdumplog, once with ours bind-mounted over them.
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
OURS_TOOLS="pminfo pmval pmstore pmdumplog"

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
  while getopts "t:w:l:k:o:" opt; do
    case "$opt" in
      t) TOOLS=$OPTARG ;;
      w) WORK=$OPTARG ;;
      l) LIST=$OPTARG ;;
      k) KNOWN=$OPTARG ;;
      o) WHICH=$OPTARG ;;
      *) die "usage: $0 [-t tooldir] [-w workdir] [-l list] [-k known] [-o pcp|ours|both] [TEST...]" ;;
    esac
  done
  shift $((OPTIND - 1))
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
  if [ "$WHICH" != pcp ]; then
    for t in $OURS_TOOLS; do
      [ -x "$TOOLS/$t" ] || die "no $TOOLS/$t (build the tools first)"
    done
  fi
}

export PCPQA_EXEC WORK TOOLS TESTS KNOWN WHICH QA OURS_TOOLS here

parse_args "$@"
check_prerequisites
mkdir -p "$WORK"
exec unshare --mount --net --pid --fork --mount-proc --propagation private -- \
  bash "$here/inside.sh"
