#!/bin/sh
# The demo agent (examples/agent/demo.c) in both its forms.
#
# As a shared object in a local context: named in a local configuration
# (PCP_PMCDCONF_PATH, a dso line with its name space), and on the command
# line (-K add,252,pmda_demo.so,demo_init, names from PMNS_DEFAULT), read
# by our pminfo -L and by the local_context example.
# As a daemon: run by a private pmcd of the test's own
# (scripts/pmcd-private.sh with PMCD_PRIVATE_CONF and PMCD_PRIVATE_PMNS),
# read by PCP's pminfo, our pminfo and the fetch_loop example.
#
# PCP's `pminfo -dtTf demo` on the daemon is the reference: our pminfo
# must print the same for the daemon and for the shared object, but for
# demo.fetches, whose count depends on the fetches before. The values
# must be those demo.c defines; demo.fetches must count each fetch.
#
#   tests/examples/agent_test.sh BIN_DIR PMINFO
bin=$(cd "$1" && pwd)
pminfo=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"
src=$top/examples/agent
[ -x /usr/lib/pcp/bin/pmnsmerge ] || { echo "PCP is not installed"; exit 1; }

# The agent's name space with its domain's number, as pmcd needs it.
sed 's/DEMO:/252:/' "$src/root_demo" >"$work/root_demo"
# fetches: demo.fetches's value masked
fetches() { sed -E '/^demo\.fetches( |$)/,/^$/s/value [0-9]+$/value N/'; }

# ---- the shared object ----
# Its help text where it looks for it: $PCP_PMDAS_DIR/demo/help.
mkdir -p "$work/pmdas/demo"
cp "$src/help" "$work/pmdas/demo/help"
printf 'demo\t252\tdso\tdemo_init\t%s\tpmns=%s\n' "$bin/pmda_demo.so" "$src/root_demo" >"$work/local.conf"
(
  export PCP_PMCDCONF_PATH="$work/local.conf" PCP_PMDAS_DIR="$work/pmdas"
  run "$work/dso.pminfo" "$pminfo" -L -dtTf demo
  run "$work/dso.local" "$bin/local_context" demo.fetches demo.fetches demo.greeting demo.fruit.stock
  exit $status
) || status=1
cat >"$work/want" <<'EOF2'
demo.fetches 1
demo.fetches 2
demo.greeting "Hello, world!"
demo.fruit.stock[apple] 12
demo.fruit.stock[banana] 7
demo.fruit.stock[cherry] 30
EOF2
same "local_context, the agent from the configuration file" "$work/want" "$work/dso.local"
# -K: a configuration without agents, the agent added on the command line
printf 'pmcd\t2\tdso\tpmcd_init\t/nonexistent/pmda_pmcd.so\n' >"$work/none.conf"
(
  export PCP_PMCDCONF_PATH="$work/none.conf" PCP_PMDAS_DIR="$work/pmdas" PMNS_DEFAULT="$work/root_demo"
  run "$work/dso.K" "$bin/local_context" -K "add,252,$bin/pmda_demo.so,demo_init" demo.fetches \
    demo.fetches demo.greeting demo.fruit.stock
  exit $status
) || status=1
same "local_context -K add,252,pmda_demo.so,demo_init" "$work/want" "$work/dso.K"

# ---- the daemon, under a private pmcd ----
mkdir -p "$work/pmcd/pmdas/demo"
cp "$bin/pmdademo" "$src/help" "$work/pmcd/pmdas/demo/"
cat >"$work/pmcd.conf" <<EOF2
pmcd	2	dso	pmcd_init	/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so
demo	252	pipe	binary	$work/pmcd/pmdas/demo/pmdademo -d 252

[access]
allow "local:*" : all;
EOF2
/usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_pmcd "$work/root_demo" "$work/root" >/dev/null
start_pmcd "$work/pmcd.conf" "$work/root"
"$PCP_BIN/pminfo" -h unix: -dtTf demo >"$work/daemon.pcp" 2>&1
run "$work/daemon.ours" "$pminfo" -h unix: -dtTf demo
run "$work/daemon.loop" "$bin/fetch_loop" -h unix: -s 3 -t 0.1 demo.fetches demo.greeting demo.fruit.stock
cat "$work/daemon.pcp"

fetches <"$work/daemon.pcp" >"$work/want"
fetches <"$work/daemon.ours" >"$work/got"
same "our pminfo on the daemon, as PCP's" "$work/want" "$work/got"
fetches <"$work/dso.pminfo" >"$work/got"
same "our pminfo -L on the shared object, as PCP's on the daemon" "$work/want" "$work/got"
# The values demo.c defines, with its help text.
check "PCP's pminfo: the greeting" grep -qx '    value "Hello, world!"' "$work/daemon.pcp"
check "PCP's pminfo: the fruit" test "$(grep -c '^    inst \[[0-9] or "\(apple\|banana\|cherry\)"\] value \(12\|7\|30\)$' "$work/daemon.pcp")" = 3
check "PCP's pminfo: the help" grep -q '^demo.fruit.stock \[Pieces of fruit in stock, per kind of fruit\]$' "$work/daemon.pcp"
# Each fetch is counted: fetch_loop's three samples count up by one.
check "fetch_loop on the daemon: 3 samples, fetches up by 1" awk '
  { split($2, f, "="); if (NR > 1 && f[2] != last + 1) bad = 1; last = f[2] }
  !/ demo\.greeting="Hello, world!" demo\.fruit\.stock=12,7,30$/ { bad = 1 }
  END { exit bad || NR != 3 }' "$work/daemon.loop"
cat "$work/daemon.loop"
if [ $status -ne 0 ] && [ -f "$work/pmcd/log/pmcd/demo.log" ]; then
  echo "--- the daemon's log"
  cat "$work/pmcd/log/pmcd/demo.log"
fi
exit $status
