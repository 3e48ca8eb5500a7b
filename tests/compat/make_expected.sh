#!/bin/bash
# make_expected.sh: rewrites tests/compat/expected/*.out from PCP itself:
# each program is built against PCP's <pcp/pmapi.h> and libpcp and run on
# the cases of cases.txt. Run by hand when a case changes (PCP
# 6.0.3 and libpcp3-dev must be installed); local.out is not touched, and
# host.out only with PMCD_PORT set (see the end).
#
# Usage: tests/compat/make_expected.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for prog in monitor fetchgroup api labels layout surface; do
  cc -Wall -Wextra -Werror -DPCP_6_0_HEADER -o "$work/$prog" "$here/$prog.c" -lpcp -lpthread
done
gen() {
  local name=$1 prog=$2; shift 2
  { env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= "$work/$prog" "$@" 2>&1; echo "exit status $?"; } \
    > "$here/expected/$name.out" || true
}
cd "$here/../data/archives/reference"
while read -r name prog args; do
  case $name in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  gen "$name" "$prog" $args
done < "$here/cases.txt"
# host.out needs a pmcd with the sample agent: scripts/pmcd-private.sh
# start, then run with PMCD_PORT set to its port.
if [ -n "${PMCD_PORT:-}" ]; then
  cc -Wall -Wextra -Werror -o "$work/host" "$here/host.c" -lpcp
  { env TZ=UTC LC_ALL=C "$work/host" "localhost:$PMCD_PORT" 2>&1; echo "exit status $?"; } \
    > "$here/expected/host.out" || true
fi
