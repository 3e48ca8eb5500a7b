#!/bin/sh
# Runs PCP 6.0.3's own "simple" agent (built from the source PCP installs,
# against PCP's libpcp_pmda) under PCP's pminfo -L and pmstore -L, and our
# C rewrite (built with cc against our headers and library) under our
# tools, and compares what both print: descriptors, labels, first-fetch
# values, instances, stores and the permission and instance errors. PCP
# is the oracle only; nothing of it is linked into our side.
#
# Not compared: help text (ours is in our own words) and the store range
# errors, where PCP's agent returns PM_ERR_BADSTORE and the Guide's (ours)
# PM_ERR_SIGN / PM_ERR_CONV.
#
# usage: pcp_simple_oracle.sh SRCDIR INCLUDEDIR LIBDIR PMINFO PMSTORE WORKDIR [CFLAGS]
# CFLAGS is added to the build of our agent (a sanitized library's flags).
set -u
src=$1 inc=$2 lib=$3 pminfo=$4 pmstore=$5 work=$6 cflags=${7:-}
CC=${CC:-cc}
pcp_src=/var/lib/pcp/pmdas/simple/simple.c
for need in "$pcp_src" /usr/bin/pminfo /usr/bin/pmstore /usr/include/pcp/pmda.h; do
    [ -e "$need" ] || { echo "FAIL: PCP 6.0.3 is needed as the oracle ($need missing)"; exit 1; }
done
rm -rf "$work" && mkdir -p "$work/pcp" "$work/ours" || exit 1

# PCP's agent, PCP's libraries, PCP's tools
$CC -shared -fPIC -w "$pcp_src" -o "$work/pcp/pmda_simple.so" -lpcp_pmda -lpcp || { echo "FAIL: building PCP's simple"; exit 1; }
printf 'simple\t254\tdso\tsimple_init\t%s/pcp/pmda_simple.so\n' "$work" > "$work/pcp/pmcd.conf"
cat > "$work/pcp/root" <<'PMNS'
root { simple }
simple { numfetch 254:0:0 color 254:0:1 time now 254:2:4 }
simple.time { user 254:1:2 sys 254:1:3 }
PMNS

# ours
cp "$src"/simple.help "$src"/simple.conf "$src"/root_simple "$work/ours/" || exit 1
$CC -std=c99 -Wall -Wextra -Werror $cflags -shared -fPIC -I"$inc" "$src/simple.c" -o "$work/ours/pmda_simple.so" \
    -L"$lib" -lpmapi -Wl,-rpath,"$lib" -ldl || { echo "FAIL: building our simple"; exit 1; }
printf 'simple\t254\tdso\tsimple_init\t%s/ours/pmda_simple.so\tpmns=root_simple\n' "$work" > "$work/ours/pmcd.conf"

export TZ=UTC LC_ALL=C
pcp() {  # stdout and exit status of a PCP tool on PCP's agent
    tool=$1; shift
    out=$(PCP_PMCDCONF_PATH=$work/pcp/pmcd.conf PMNS_DEFAULT=$work/pcp/root "/usr/bin/$tool" "$@" 2>/dev/null)
    echo "$out"; echo "exit $?"
}
ours() {
    tool=$1; shift
    case $tool in pminfo) bin=$pminfo ;; pmstore) bin=$pmstore ;; esac
    out=$(PCP_PMCDCONF_PATH=$work/ours/pmcd.conf LD_LIBRARY_PATH=$lib "$bin" "$@" 2>/dev/null)
    echo "$out"; echo "exit $?"
}
fail=0
same() {  # same NAME TOOL ARGS...
    name=$1; shift
    want=$(pcp "$@") got=$(ours "$@")
    if [ "$want" = "$got" ]; then
        echo "ok: $name"
    else
        echo "FAIL: $name"; echo "--- PCP"; echo "$want"; echo "--- ours"; echo "$got"; fail=1
    fi
}
same "descriptors" pminfo -L -d -m simple
same "labels at every level" pminfo -L -l simple.now simple.color simple.numfetch simple.time.user
same "first fetch" pminfo -L -f simple.numfetch simple.color
# the time of day moves between the two runs: compare the instances only
want=$(pcp pminfo -L -f simple.now | sed 's/ value .*//') got=$(ours pminfo -L -f simple.now | sed 's/ value .*//')
if [ "$want" = "$got" ] && echo "$got" | grep -q '"hour"'; then
    echo "ok: cache-backed instances"
else
    echo "FAIL: cache-backed instances"; echo "--- PCP"; echo "$want"; echo "--- ours"; echo "$got"; fail=1
fi
same "store into every colour" pmstore -L simple.color 42
same "store one colour" pmstore -L -i blue simple.color 9
same "store numfetch" pmstore -L simple.numfetch 77
same "store into a counter: PM_ERR_PERMISSION" pmstore -L simple.time.sys 1
same "store into a missing instance" pmstore -L -i purple simple.color 3
exit $fail
