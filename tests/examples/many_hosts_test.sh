#!/bin/sh
# The many-hosts examples against the private pmcd, reached as two hosts
# (its unix socket and its TCP port) beside one that refuses connections:
# two rounds of each, every line checked. watch_hosts prints a round in
# the order the hosts answer, so its rounds are compared sorted.
#
#   tests/examples/many_hosts_test.sh BIN_DIR PMCD_DIR
set -eu
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
eval "$("$top/scripts/pmcd-private.sh" env "$2" | sed 's/^/export /')"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tcp="localhost:$PMCD_PORT"
# A name pmcd does not know is fetched as PM_ID_NULL by both programs;
# pmcd answers that no agent has its domain.
round() {
  v='sample.long.ten=10 sample.string.hullo="hullo world!"'
  v="$v no.such.metric=No PMCD agent for domain of request"
  echo "unix: $v"
  echo "$tcp $v"
  echo "localhost:1 $1"
}
"$bin/watch_hosts" -s 2 -t 0.1 unix: "$tcp" localhost:1 -- \
  sample.long.ten sample.string.hullo no.such.metric >"$work/group.out"
"$bin/watch_hosts_threads" 2 unix: "$tcp" localhost:1 -- \
  sample.long.ten sample.string.hullo no.such.metric >"$work/threads.out"
status=0
# The group: a host without a connection answers PM_ERR_IPC.
round "IPC protocol failure" | sort >"$work/want"
for r in 1 2; do
  awk -v r="$r" 'BEGIN { RS = ""; FS = "\n" } NR == r { for (i = 1; i <= NF; i++) print $i }' \
    "$work/group.out" | sort >"$work/got"
  diff -u "$work/want" "$work/got" || status=1
done
[ "$(grep -c '^$' "$work/group.out")" = 2 ] || { echo "watch_hosts: not two rounds"; status=1; }
# The threads: each host in the order given; the refused host's own error.
{ round "Connection refused"; echo; round "Connection refused"; echo; } >"$work/want"
diff -u "$work/want" "$work/threads.out" || status=1
exit $status
